#!/bin/bash
# What a node's receptions cost its sends under SimGrid's default
# configuration, which the calibration's recv-factor measures
# (docs/calibration.md, "Cross traffic"): on
# examples/platforms/sg-two-sites.xml, b-1 streams 10 messages of 1 MiB over
# the WAN to a-3 (the reduce's WAN hop) alone, then while b-0 (or b-0, b-2
# and b-3) streams messages into b-1 (bench/recvsend.c, one receive posted
# at a time, as steady-run's ports): the stream's time and the WAN hop's
# bandwidth after the calibrated alpha, under the default configuration,
# without cross traffic and with network/weight-S:0, side by side.
#   bench/crosstraffic.sh BUILD_DIR
set -euo pipefail
steady="$1/steady"
command -v smpicc >/dev/null || { echo "smpicc not found: skipped"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plat=examples/platforms/sg-two-sites.xml
smpicc -O2 -o "$tmp/recvsend" bench/recvsend.c 2>/dev/null
"$steady" export --hostfile "$tmp/hosts" "$plat"
rank() { grep -nx "$1" "$tmp/hosts" | cut -d: -f1 | awk '{print $1 - 1}'; }
s=$(rank b-1) d=$(rank a-3) f0=$(rank b-0) f2=$(rank b-2) f3=$(rank b-3)
# the WAN hop's alpha from a calibration under the default configuration
smpirun -no-privatize --log=root.thres:warning -platform "$plat" -hostfile "$tmp/hosts" \
    -np "$(wc -l <"$tmp/hosts")" "$1/steady-run-smpi" --calibrate --quiet --reps 2 \
    --sizes 64KiB,256KiB,1MiB,4MiB -o "$tmp/c.plat" "$plat" >/dev/null 2>&1
alpha=$(awk '$1 == "edge" && $2 == "b-1" && $3 == "a-3" {sub("latency=", "", $5); print $5}' "$tmp/c.plat")
echo "WAN hop b-1 -> a-3, 10 x 1 MiB, alpha $alpha s (calibrated, default configuration)"
printf '%-32s %-16s %10s %10s\n' configuration "feeding b-1" stream_s "MB/s"
for cfg in default --cfg=network/crosstraffic:0 --cfg=network/weight-S:0; do
    for feed in none "b-0" "b-0,b-2,b-3" "b-0 4KiB"; do
        case $feed in
        none) args="0 524288" ;;
        b-0) args="1000 524288 $f0" ;;
        b-0,b-2,b-3) args="1000 524288 $f0 $f2 $f3" ;;
        "b-0 4KiB") args="30000 4096 $f0" ;;
        esac
        c=()
        [ "$cfg" = default ] || c=("$cfg")
        # shellcheck disable=SC2086
        t=$(smpirun -no-privatize --log=root.thres:warning "${c[@]}" --cfg=smpi/simulate-computation:no \
            -platform "$plat" -hostfile "$tmp/hosts" -np "$(wc -l <"$tmp/hosts")" \
            "$tmp/recvsend" "$s" "$d" 10 1048576 $args 2>/dev/null | awk '/^stream/ {print $2}')
        bw=$(awk -v t="$t" -v a="$alpha" 'BEGIN{printf "%.3f", 1048576 / (t / 10 - a) / 1e6}')
        printf '%-32s %-16s %10s %10s\n' "$cfg" "$feed" "$t" "$bw"
    done
done
