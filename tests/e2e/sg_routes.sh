#!/bin/bash
# SimGrid platform files as steady reads them against SimGrid's own routes
# (tests/sg/routes.sh): the repository's SimGrid examples and test
# platforms (tests/sg/platforms/; tests/sg/clusters/, the torus, fat-tree
# and dragonfly clusters, kept out of the LP sweeps of formulations.sh and
# lp_crosscheck.sh: an edge between every two of their hosts makes their
# full LPs huge), as given and as steady exports them.
#   tests/e2e/sg_routes.sh BUILD_DIR
set -u
exec tests/sg/routes.sh "$1/steady" examples/platforms/*.xml tests/sg/platforms/*.xml tests/sg/clusters/*.xml
