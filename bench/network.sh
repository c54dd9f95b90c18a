#!/bin/bash
# The network model's cost and what it buys (issue 15), in one run:
#  1. solve and plan with the resource model against the paper's model on
#     the same cluster: k hosts of 125 MB/s around a non-blocking switch
#     whose ports are SimGrid links (a <cluster>: a switch and channels, the
#     LP on its k (k - 1) hops), and around a one-port router (steady gen's
#     cluster: 2 k edges); time of each, and the ratio;
#  2. SMPI on the shipped SimGrid files, as given, under the one-port flags:
#     the LP schedule, SMPI's own collective (its default selection and its
#     best algorithm measured) and the two-tree algorithms, achieved /
#     optimum, side by side.
#   bench/network.sh BUILD_DIR [quick]
set -euo pipefail
steady="$1/steady"
quick=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -n "$quick" ]; then sizes="8 16"; ops=50; else sizes="8 16 24"; ops=200; fi
# reduce and gossip on 16 hosts: steady plan takes minutes (the whole-count
# period search on LPs of 10^4-10^5 columns), so they stop at 8
small=8

secs() { # CMD...: wall seconds of one run
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    awk -v a="$start" -v b="$end" 'BEGIN{printf "%.3f", (b - a) / 1e9}'
}

echo "1. solve and plan: a cluster of k hosts, switch (resource model) vs router (paper's model)"
printf '%-10s %4s %10s %10s %7s %10s %10s %7s\n' op k solve_sw solve_rt ratio plan_sw plan_rt ratio
for k in $sizes; do
    cat >"$tmp/sw$k.xml" <<EOF
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <cluster id="c" prefix="h-" suffix="" radical="0-$((k - 1))" speed="1Gf" bw="125MBps" lat="50us"/>
</platform>
EOF
    # the same hosts around a one-port router with the same links
    {
        echo "platform router-$k"
        for i in $(seq 0 $((k - 1))); do echo "processor h-$i speed=1e9"; done
        echo "router hub"
        for i in $(seq 0 $((k - 1))); do echo "link h-$i hub bandwidth=125MBps latency=50us"; done
    } >"$tmp/rt$k.plat"
    for op in scatter broadcast reduce gossip; do
        case $op in reduce | gossip) [ "$k" -gt $small ] && continue ;; esac
        a=$(secs "$steady" solve --op $op "$tmp/sw$k.xml")
        b=$(secs "$steady" solve --op $op "$tmp/rt$k.plat")
        c=$(secs "$steady" plan --op $op -o "$tmp/s.sched" "$tmp/sw$k.xml")
        d=$(secs "$steady" plan --op $op -o "$tmp/s.sched" "$tmp/rt$k.plat")
        awk -v op=$op -v k=$k -v a=$a -v b=$b -v c=$c -v d=$d 'BEGIN{
            printf "%-10s %4d %10.3f %10.3f %7.2f %10.3f %10.3f %7.2f\n", op, k, a, b, (b > 0 ? a / b : 0), c, d, (d > 0 ? c / d : 0)}'
    done
done

echo
echo "2. SMPI on the SimGrid files as given, $ops operations of 1 MiB, one-port flags: achieved / optimum"
printf '%-14s %-10s %12s %12s %12s %12s %12s\n' platform op lp-schedule mpi:default mpi:best twotreec twotrees
for plat in examples/platforms/sg-*.xml; do
    for op in broadcast reduce; do
        "$steady" compare --op $op --measure smpi --ops $ops --quiet --json "$plat" >"$tmp/c.json"
        python3 - "$tmp/c.json" "$(basename "$plat" .xml)" $op <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = {a["name"]: a["measured_ratio"] for a in d["algorithms"]}
mpi = {n: v for n, v in r.items() if n.startswith("mpi:") and n != "mpi:default"}
best = max(mpi, key=mpi.get)
print(f'{sys.argv[2]:<14} {sys.argv[3]:<10} {r["lp-schedule"]:>12.3f} {r["mpi:default"]:>12.3f} '
      f'{mpi[best]:>12.3f} {r["twotreec"]:>12.3f} {r["twotrees"]:>12.3f}   (best MPI: {best})')
PY
    done
done
