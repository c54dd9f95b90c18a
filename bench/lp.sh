#!/bin/bash
# LP sizes and times of `steady solve --formulation full` (the per-type LPs;
# bench/scale.sh measures the default formulations) for growing platforms,
# side by side with glpsol solving the very same LP (steady's --write-lp
# file) in the same run.  steady's total = build + simplex + exact recovery;
# the ratio steady/glpsol shows what the exact recovery costs on top of the
# floating-point simplex both run.
#   bench/lp.sh BUILD_DIR [quick]
set -euo pipefail
steady="$1/steady"
quick=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -n "$quick" ]; then
    flows="5 10"; parts="3 5"
else
    flows="5 10 20 25 30 40 60 80"; parts="4 8 12 16 18 20"
fi

row() { # LABEL OP ARGS... : one line of the table
    local label=$1 op=$2
    shift 2
    local start end wall
    start=$(date +%s%N)
    "$steady" solve --op "$op" --json --formulation full --write-lp "$tmp/p.lp" "$@" >"$tmp/s.json"
    end=$(date +%s%N)
    wall=$(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.3f", (b - a) / 1e9}')
    start=$(date +%s%N)
    # (never -o /dev/null: glpsol replaces the device with a regular file)
    glpsol --lp "$tmp/p.lp" -o "$tmp/p.sol" >"$tmp/glpsol.log"
    end=$(date +%s%N)
    local g
    g=$(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.3f", (b - a) / 1e9}')
    python3 - "$tmp/s.json" "$label" "$op" "$wall" "$g" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
lp = d["lp"]
wall, g = float(sys.argv[4]), float(sys.argv[5])
print(f'{sys.argv[3]:<10} {sys.argv[2]:<18} {lp["rows"]:>7} {lp["cols"]:>8} {lp["nonzeros"]:>9} '
      f'{lp["build_s"]:>8.3f} {lp["solve_s"]:>8.3f} {lp["exact_s"]:>8.3f} {wall:>8.3f} {g:>8.3f} '
      f'{wall / g if g > 0 else 0:>7.2f}  {"exact" if d["exact"] else "approx"}')
PY
}

printf '%-10s %-18s %7s %8s %9s %8s %8s %8s %8s %8s %7s\n' op platform rows cols nonzeros \
    build_s simplex_s exact_s steady_s glpsol_s ratio
for n in $flows; do
    "$steady" gen --kind random --nodes "$n" --seed 1 -o "$tmp/r$n.plat"
    row "random-$n" scatter "$tmp/r$n.plat"
    row "random-$n" broadcast "$tmp/r$n.plat"
    if [ "$n" -le 25 ]; then row "random-$n" gossip "$tmp/r$n.plat"; fi
done
# reduce: N participants on a 20-processor random platform
"$steady" gen --kind random --nodes 20 --seed 1 -o "$tmp/r20.plat"
for n in $parts; do
    list=$(seq -s, 0 $((n - 1)) | sed 's/[0-9]\+/P&/g')
    row "random-20 N=$n" reduce --participants "$list" "$tmp/r20.plat"
done
