#!/bin/bash
# SimGrid's <cluster>s of topology TORUS, FAT_TREE and DRAGONFLY, read as
# SimGrid routes them (tests/e2e/sg_routes.sh checks every route of
# tests/sg/clusters/{torus-shared,fat-tree-3,dragonfly-2}.xml against
# libsimgrid), solved and planned:
#  1. throughputs derived by hand, which only SimGrid's routes give:
#     - a ring of 4 hosts (TORUS 4) with a limiter of 1 MB/s per host: a
#       route crosses the limiter of every host it passes, so the gossip's
#       routes to the opposite host load a third host's limiter; with the
#       routes 0->2 and 2->0 through host 1 sent on a share 2/3 directly and
#       1/3 relayed through host 3, hosts 1 and 3 cross 6 + 4/3 messages
#       per operation: TP = 1e6 / (22/3 * 2^20) = 46875/360448, the
#       limiters of hosts 1 and 3 saturated;
#     - a dragonfly of 2 groups of 2 blades of 2 hosts (DRAGONFLY
#       2,1;1,1;2,1;2): every message between the groups crosses the one
#       blue link, 16 each way per gossip: TP = 1e6 / (16 * 2^20) =
#       15625/262144, and half that when the links are SHARED (32 on one);
#  2. on each test platform, every operation's plan is accepted by steady
#     check and its replay stays at or below the optimum, and no algorithm
#     of steady compare (reduce, broadcast) beats the optimum in the model;
#  3. a fat tree's broadcast and reduce planned as one chain each (below).
#   tests/e2e/sg_topologies.sh BUILD_DIR
set -u
steady="$1/steady"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL sg_topologies: $*"; failures=$((failures + 1)); }

# cluster ID TOPOLOGY PARAMS LAST_RADICAL EXTRA: a platform of one cluster
cluster() {
    cat <<EOF
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="world" routing="Full">
    <cluster id="$1" topology="$2" topo_parameters="$3" prefix="$1-" radical="0-$4" suffix=""
             speed="1Gf" $5/>
  </zone>
</platform>
EOF
}
# tp PLATFORM OP WANT [WANT_BOTTLENECK...]: solve's exact TP and saturated channels
tp() {
    local plat=$1 op=$2 want=$3
    shift 3
    "$steady" solve --op "$op" --json "$plat" >"$tmp/out" 2>"$tmp/err" ||
        { fail "solve --op $op $plat: $(head -c 300 "$tmp/err")"; return; }
    python3 - "$tmp/out" "$want" "$@" <<'PY' || fail "solve --op $op $(basename "$plat"): TP or bottlenecks"
import json, sys
d = json.load(open(sys.argv[1]))
got = d["throughput"]["exact"]
assert got == sys.argv[2] and d["exact"], (got, sys.argv[2])
chans = sorted(b["resource"] for b in d["bottlenecks"] if b["kind"] == "link")
assert chans == sorted("channel " + c for c in sys.argv[3:]), chans
PY
}

cluster r TORUS 4 3 'bw="1GBps" lat="0" limiter_link="1MBps"' >"$tmp/ring.xml"
tp "$tmp/ring.xml" gossip 46875/360448 r_link_1_limiter r_link_3_limiter
cluster d DRAGONFLY '2,1;1,1;2,1;2' 7 'bw="1MBps" lat="0"' >"$tmp/df.xml"
blue=blue_link_between_group_0_and_1_routers_1_and_2_10
tp "$tmp/df.xml" gossip 15625/262144 ${blue}_UP ${blue}_DOWN
cluster d DRAGONFLY '2,1;1,1;2,1;2' 7 'bw="1MBps" lat="0" sharing_policy="SHARED"' >"$tmp/df.xml"
tp "$tmp/df.xml" gossip 15625/524288 $blue
# the same through steady's SimGrid export: the platform, not the reader's layout
"$steady" export --format simgrid -o "$tmp/ring-export.xml" "$tmp/ring.xml" ||
    fail "export of the ring"
tp "$tmp/ring-export.xml" gossip 46875/360448 r_link_1_limiter r_link_3_limiter

# under the sanitizers (make asan: STEADY_E2E_QUICK), without the reduces'
# plans, the longest
ops="scatter reduce broadcast"
[ -n "${STEADY_E2E_QUICK:-}" ] && ops="scatter broadcast"
for plat in tests/sg/clusters/torus-shared.xml tests/sg/clusters/fat-tree-3.xml \
    tests/sg/clusters/dragonfly-2.xml; do
    name=$(basename "$plat" .xml)
    for op in $ops; do
        s="$tmp/$name.$op.sched"
        timeout 300 "$steady" plan --quiet --op $op -o "$s" "$plat" >"$tmp/plan.out" 2>"$tmp/err" ||
            { fail "plan --op $op $name: $(head -c 300 "$tmp/err")"; continue; }
        "$steady" check "$s" "$plat" >"$tmp/check.out" 2>&1 ||
            fail "check rejects plan --op $op $name: $(head -3 "$tmp/check.out")"
        "$steady" replay --ops 500 --json "$s" "$plat" >"$tmp/replay.json" 2>"$tmp/err" ||
            { fail "replay --op $op $name: $(head -c 300 "$tmp/err")"; continue; }
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert 0 < d["achieved"] <= d["optimum"] * (1 + 1e-9), d' \
            "$tmp/replay.json" || fail "replay of $op on $name beats the optimum or stalls"
        [ $op = scatter ] && continue # compare: reduce, broadcast
        timeout 300 "$steady" compare --op $op --json "$plat" >"$tmp/cmp.json" 2>"$tmp/err" ||
            { fail "compare --op $op $name: $(head -c 300 "$tmp/err")"; continue; }
        python3 - "$tmp/cmp.json" <<'PY' || fail "compare --op $op $name: an algorithm beats the optimum"
import json, sys
d = json.load(open(sys.argv[1]))
rows = [a for a in d["algorithms"] if a["model_throughput"]]
assert len(rows) >= 4 and all(a["model_throughput"] <= d["optimum"] * (1 + 1e-9) for a in rows), rows
PY
    done
done
# 3. the broadcast and the reduce on a fat tree as SimGrid's
#    cluster_fat_tree.xml writes it (16 hosts, 4 leaf switches, 2 cores, 2
#    cables each): the LP's vertex mixes trees over the hops (25 for the
#    broadcast) and its plans replayed at 0.548 and 0.576 of the optimum;
#    the chain through the hosts in their order carries TP alone (each
#    host link once each way, each uplink at most once; for the reduce,
#    v[i,15] comes down from host 15 to host 0, the target), and the plan
#    is that one tree, scheduled at 100% and replayed at 0.96 or more
cluster ft FAT_TREE '2;4,4;1,2;1,2' 15 'bw="125MBps" lat="50us"' >"$tmp/ft.xml"
for op in broadcast reduce; do
    "$steady" plan --op $op -o "$tmp/ft.sched" "$tmp/ft.xml" >"$tmp/ft.out" 2>"$tmp/err" ||
        fail "plan --op $op on the fat tree: $(head -c 300 "$tmp/err")"
    grep -q '^structure    1 trees, 1 slots (15 transfers)' "$tmp/ft.out" &&
        grep -q '^schedule .*(100.0000% of the optimum)' "$tmp/ft.out" ||
        fail "fat tree $op: not the single chain at 100%: $(grep -E '^(schedule|structure)' "$tmp/ft.out")"
    "$steady" check "$tmp/ft.sched" "$tmp/ft.xml" >/dev/null 2>&1 || fail "check rejects the fat tree's $op chain"
    "$steady" replay --ops 10000 --json "$tmp/ft.sched" "$tmp/ft.xml" |
        python3 -c 'import json,sys; d=json.load(sys.stdin); sys.exit(0 if d["ratio"] >= 0.96 else 1)' ||
        fail "fat tree $op: the chain replays below 0.96 of the optimum"
done

[ "$failures" -eq 0 ] && echo "PASS sg_topologies (hand-derived TPs on a torus and a dragonfly; plans on 3 platforms; a fat tree's chains)"
exit $((failures > 0))
