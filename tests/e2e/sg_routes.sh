#!/bin/bash
# SimGrid platform files as steady reads them against SimGrid's own routes
# (tests/sg/routes.sh): the repository's SimGrid examples and test
# platforms, as given and as steady exports them.
#   tests/e2e/sg_routes.sh BUILD_DIR
set -u
exec tests/sg/routes.sh "$1/steady" examples/platforms/*.xml tests/sg/platforms/*.xml
