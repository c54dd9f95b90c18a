#!/bin/bash
# The bipartite edge colouring of a period (decompose/matching.c), side by
# side: the matchings kept from round to round (keep, what `steady plan`
# uses) against a maximum matching from scratch each round (fresh, igraph,
# the first version), on random periods of N nodes and 4 N comms.  keep's
# time follows the output (the transfers), fresh's grows faster; runs: the
# comms' runs of consecutive slots (steady-run joins a run's parts).
#   bench/matching.sh BUILD_DIR [quick]
set -euo pipefail
build=$1
quick=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O2 -std=c11 -Wall -Wextra -Werror -Iinclude $(pkg-config --cflags igraph) -o "$tmp/matching" \
    bench/matching.c "$build/libsteady.a" $(pkg-config --libs igraph libxml-2.0 jansson) -lglpk -lgmp -lm
sizes="100 300 1000"
[ -n "$quick" ] && sizes="100 300"
printf '%6s %7s %7s %9s %9s %8s %8s %9s %9s %8s\n' nodes comms slots transfers keep_runs keep_s \
    fresh_s fresh/keep fr_runs rn/keep
for n in $sizes; do
    read -r c s t rk tk < <("$tmp/matching" "$n" 4 keep)
    read -r _ _ _ rf tf < <("$tmp/matching" "$n" 4 fresh)
    awk -v n="$n" -v c="$c" -v s="$s" -v t="$t" -v rk="$rk" -v tk="$tk" -v rf="$rf" -v tf="$tf" \
        'BEGIN { printf "%6d %7d %7d %9d %9d %8.3f %8.3f %9.1f %9d %8.2f\n", n, c, s, t, rk, tk, tf,
                 (tk > 0 ? tf / tk : 0), rf, rf / rk }'
done
