#!/bin/bash
# What a message really costs (issue 16), in one run: per SimGrid example
# platform, operation and message size, achieved / optimum of
#   replay      steady's replay of the LP schedule (rendezvous cost model)
#   lp:tuned    the LP schedule under SMPI, one-port-faithful flags
#   lp:default  the LP schedule under SimGrid's default configuration
#   mpi:default SMPI's own MPI_Bcast / MPI_Reduce (its default selection),
#               default configuration
#   mpi:best    the best of the SMPI algorithms compare measures, default
#   2tree:best  the better of TwoTreeC and TwoTreeS, default configuration
# and the messages per operation of the LP schedule (MPI messages the
# executor sends, steady_schedule_message_ids).
#   bench/cost.sh BUILD_DIR [quick]
set -euo pipefail
steady="$1/steady"
quick=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -n "$quick" ]; then
    sizes="64KiB 1MiB"
    ops=50
    plats="examples/platforms/sg-backbone.xml examples/platforms/sg-two-sites.xml"
else
    sizes="4KiB 64KiB 1MiB 16MiB"
    ops=200
    plats=$(ls examples/platforms/sg-*.xml)
fi

printf '%-13s %-9s %6s %7s %9s %10s %11s %9s %10s %6s\n' platform op size replay lp:tuned \
    lp:default mpi:default mpi:best 2tree:best msgs
for plat in $plats; do
    name=$(basename "$plat" .xml)
    for op in broadcast reduce; do
        for size in $sizes; do
            "$steady" plan --op $op --msg-size $size --series $ops -o "$tmp/s.sched" "$plat" \
                >"$tmp/plan.txt"
            replay=$("$steady" replay --ops $ops --json "$tmp/s.sched" "$plat" |
                python3 -c 'import json,sys; print("%.3f" % json.load(sys.stdin)["ratio"])')
            msgs=$(sed -n 's/^messages .*, \([0-9.]*\) per operation.*/\1/p' "$tmp/plan.txt")
            for cfg in tuned default; do
                "$steady" compare --op $op --msg-size $size --measure smpi --ops $ops \
                    --smpi-cfg $cfg --quiet --json "$plat" >"$tmp/$cfg.json"
            done
            python3 - "$tmp" "$name" $op $size "$replay" "${msgs:--}" <<'PY'
import json, sys
tmp, name, op, size, replay, msgs = sys.argv[1:]
def rows(cfg):
    d = json.load(open(f"{tmp}/{cfg}.json"))
    return {a["name"]: a.get("measured_ratio") or 0 for a in d["algorithms"]}
t, d = rows("tuned"), rows("default")
mpi = max(v for n, v in d.items() if n.startswith("mpi:") and n != "mpi:default")
two = max(d.get("twotreec", 0), d.get("twotrees", 0))
print(f'{name:<13} {op:<9} {size:>6} {replay:>7} {t["lp-schedule"]:>9.3f} '
      f'{d["lp-schedule"]:>10.3f} {d["mpi:default"]:>11.3f} {mpi:>9.3f} {two:>10.3f} {msgs:>6}')
PY
        done
    done
done
