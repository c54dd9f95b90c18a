#!/bin/bash
# Reading platforms: time of `steady info` on the same generated platform in
# the three formats, side by side in one run, and how it grows with size.
# Prints the median of R runs of each, and the ratios to the native format
# and to the previous size (10x the nodes should cost about 10x: the readers
# are linear).
#   bench/platform_io.sh BUILD_DIR [SIZES...]
set -euo pipefail
steady="$1/steady"
shift
sizes=("${@:-1000 10000 50000}")
read -r -a sizes <<<"${sizes[*]}"
R=5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# median wall time (s) of R runs of a command
median() {
    local t=()
    for _ in $(seq $R); do
        local s e
        s=$(date +%s%N)
        "$@" >/dev/null
        e=$(date +%s%N)
        t+=("$(( (e - s) / 1000 ))")
    done
    printf '%s\n' "${t[@]}" | sort -n | sed -n "$(( (R + 1) / 2 ))p" | awk '{printf "%.4f", $1 / 1e6}'
}

printf '%-10s %-8s %-10s %-10s %-12s %-10s %-10s\n' processors edges native_s graphml_s simgrid_s \
    graphml/nat simgrid/nat
prev=""
for n in "${sizes[@]}"; do
    "$steady" gen --kind random --nodes "$n" --seed 1 -o "$tmp/p.plat"
    "$steady" export --format graphml "$tmp/p.plat" -o "$tmp/p.graphml"
    "$steady" export --format simgrid "$tmp/p.plat" -o "$tmp/p.xml"
    edges=$("$steady" info --json "$tmp/p.plat" | python3 -c 'import json,sys; print(json.load(sys.stdin)["edges"])')
    tn=$(median "$steady" info "$tmp/p.plat")
    tg=$(median "$steady" info "$tmp/p.graphml")
    ts=$(median "$steady" info "$tmp/p.xml")
    printf '%-10s %-8s %-10s %-10s %-12s %-10s %-10s\n' "$n" "$edges" "$tn" "$tg" "$ts" \
        "$(awk -v a="$tg" -v b="$tn" 'BEGIN{printf "%.2f", a/b}')" \
        "$(awk -v a="$ts" -v b="$tn" 'BEGIN{printf "%.2f", a/b}')"
    if [ -n "$prev" ]; then
        read -r pn pt <<<"$prev"
        echo "           native time ratio for ${n}/${pn} = $(awk -v n="$n" -v p="$pn" 'BEGIN{printf "%.1f", n/p}')x nodes: $(awk -v a="$tn" -v b="$pt" 'BEGIN{printf "%.1f", a/b}')x time"
    fi
    prev="$n $tn"
done
