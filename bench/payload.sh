#!/bin/bash
# What steady-run's verification costs (docs/running.md, "What is
# verified"): ns per 8-byte element to generate a participant's own reduce
# value, to recompute the result of N participants that the target checks
# (it telescopes: the same cost whatever N), one combination (a task's),
# and a word of a scatter or broadcast message; messages of 1 MiB, the
# best of three timings of each, side by side in one run.
#   bench/payload.sh BUILD_DIR [quick]
set -euo pipefail
quick=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -std=c11 -Wall -Wextra -Werror -Iinclude -o "$tmp/payload" bench/payload.c runner/payload.c
reps=200
[ -n "$quick" ] && reps=50
"$tmp/payload" 1048576 "$reps" 2 8 100 1000 >"$tmp/out"
own=$(awk '$1 == "own" {print $3}' "$tmp/out")
printf '%-38s %8s %12s\n' "1 MiB messages" "ns/elem" "x own value"
awk -v own="$own" '{
    what = $1 == "own" ? "own value (a participant)" : $1 == "result" ? "result of " $2 " participants (target)" : $1 == "combine" ? "one combination (a task)" : "message word (scatter, broadcast)"
    printf "%-38s %8.2f %12.2f\n", what, $3, $3 / own }' "$tmp/out"
