#!/bin/bash
# End-to-end tests of `steady solve`: output, JSON, --write-lp read back by
# glpsol, and every flag's bad input (exit 2, one line naming the value),
# solver failure (exit 1).   tests/e2e/solve.sh BUILD_DIR
set -u
steady="$1/steady"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL solve: $*"; failures=$((failures + 1)); }
ex=examples/platforms

# expect STATUS "STDERR LINE" CMD...: exit status and, if given, the exact error line
expect() {
    local want=$1 line=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    [ "$got" -eq "$want" ] || fail "exit $got (want $want): ${*:2} :: $(head -c 300 "$tmp/err")"
    if [ -n "$line" ]; then
        [ "$(cat "$tmp/err")" = "$line" ] || fail "${*:2}: stderr '$(cat "$tmp/err")', want '$line'"
    fi
}

# the text report
expect 0 "" "$steady" solve --op reduce --task-cost 1 $ex/paper-reduce.plat
grep -qx 'throughput   1 = 1 operations per time unit' "$tmp/out" || fail "paper reduce text TP"
grep -q 'exact: the rational optimum, verified' "$tmp/out" || fail "paper reduce not exact"
expect 0 "" "$steady" solve --op scatter --source a0 $ex/two-cluster-grid.plat
grep -qx 'throughput   78125/32768 = 2.384185791 operations/s' "$tmp/out" || fail "grid scatter text TP"
grep -q 'send port of gatewayA' "$tmp/out" || fail "grid scatter: the WAN gateway's send port should bind"
expect 0 "" "$steady" solve --op broadcast --source P0 --targets P1 $ex/paper-reduce.plat
grep -q 'UPPER BOUND' "$tmp/out" || fail "multicast not flagged as an upper bound"
# the default broadcast targets are the processors: on tiers (routers) a
# bound, which the trees reach; and the same in JSON, and in compare
expect 0 "" "$steady" solve --op broadcast $ex/tiers.plat
grep -qx 'throughput   346875/32768 = 10.58578491 operations/s' "$tmp/out" || fail "tiers broadcast TP"
grep -qx 'achievable   346875/32768 = 10.58578491 operations/s: the multicast trees steady plans' "$tmp/out" ||
    fail "tiers broadcast: achievable line"
expect 0 "" "$steady" solve --op broadcast --json $ex/tiers.plat
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["upper_bound"] and d["achievable"]["exact"] == d["throughput"]["exact"] == "346875/32768" and len(d["targets"]) == 11' "$tmp/out" ||
    fail "tiers broadcast --json: achievable"
expect 0 "" "$steady" compare --op broadcast --json $ex/tiers.plat
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert abs(d["optimum"] - 346875/32768) < 1e-9' "$tmp/out" ||
    fail "compare's broadcast optimum on tiers is not solve's"

# JSON: the documented keys, exact fraction and decimal agree
expect 0 "" "$steady" solve --op gossip --json $ex/homogeneous-complete.plat
python3 - "$tmp/out" <<'PY' || fail "gossip --json content"
import json, sys
from fractions import Fraction
d = json.load(open(sys.argv[1]))
for k in ("op", "throughput", "bottlenecks", "hops", "resources", "nodes", "exact", "lp", "sources", "targets"):
    assert k in d, k
t = d["throughput"]
assert d["op"] == "gossip" and t["exact"] == "1/4" and t["value"] == 0.25, t
assert t["unit"] == "ops/time-unit" and d["exact"] is True
assert len(d["hops"]) == 20 and len(d["nodes"]) == 5 and d["resources"] == []
# every node's send port is saturated: 4 own messages of cost 1 per 1/4 time unit
assert sorted(b["node"] for b in d["bottlenecks"] if b["kind"] == "send") == ["P0", "P1", "P2", "P3", "P4"]
for e in d["hops"]:
    assert e["via"] == []
    busy = sum(Fraction(r["exact"]) for r in e["rates"]) * Fraction(e["time"]["exact"])
    assert busy == Fraction(e["busy"]["exact"]), e
PY
# a network platform (a SimGrid cluster with a shared backbone): the
# gossip's bottleneck is the backbone, every hop goes through the
# cluster's switch, and the backbone is busy all the time
expect 0 "" "$steady" solve --op gossip $ex/sg-backbone.xml
grep -qx 'bottlenecks  channel bb_backbone (saturated)' "$tmp/out" || fail "backbone gossip: bottleneck line"
grep -q '^node-0 -> node-1 via bb-router  *0.07143 ' "$tmp/out" || fail "backbone gossip: hop line"
grep -q '^channel bb_backbone  *1$' "$tmp/out" || fail "backbone gossip: shared link line"
expect 0 "" "$steady" solve --op gossip --json $ex/sg-backbone.xml
python3 - "$tmp/out" <<'PY' || fail "backbone gossip --json"
import json, sys
from fractions import Fraction
d = json.load(open(sys.argv[1]))
assert d["bottlenecks"] == [{"kind": "link", "resource": "channel bb_backbone"}], d["bottlenecks"]
assert len(d["hops"]) == 56 and all(h["via"] == ["bb-router"] for h in d["hops"])
bb = [r for r in d["resources"] if r["name"] == "channel bb_backbone"]
assert len(bb) == 1 and bb[0]["busy"]["exact"] == "1"
# every hop: busy = its rate x its time, the time of 1 MiB on a 125 MB/s NIC
for h in d["hops"]:
    assert Fraction(h["time"]["exact"]) == Fraction(1048576, 125000000)
    assert sum(Fraction(r["exact"]) for r in h["rates"]) * Fraction(h["time"]["exact"]) == Fraction(h["busy"]["exact"])
PY
expect 0 "" "$steady" solve --op reduce --json --task-cost 1 $ex/paper-reduce.plat
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["tasks"] and d["participants"]==["P0","P1","P2"]' "$tmp/out" ||
    fail "reduce --json tasks/participants"

# --write-lp: glpsol reads the file and finds the same optimum
for op in scatter gossip reduce broadcast; do
    expect 0 "" "$steady" solve --op $op --json --write-lp "$tmp/$op.lp" $ex/tiers.plat
    ours=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["throughput"]["value"])' "$tmp/out")
    glpsol --lp "$tmp/$op.lp" -o "$tmp/$op.sol" >/dev/null 2>&1 || { fail "glpsol cannot read --write-lp $op"; continue; }
    theirs=$(awk '/^Objective:/ {print $4}' "$tmp/$op.sol")
    python3 -c 'import sys; a,b=map(float,sys.argv[1:]); sys.exit(abs(a-b) > 1e-9*a)' "$ours" "$theirs" ||
        fail "--write-lp $op: steady $ours, glpsol on the file $theirs"
    grep -q 'out_P0' "$tmp/$op.lp" || fail "--write-lp $op: rows are not named"
done

# bad input, each flag: exit 2 and one line naming the value
expect 2 "steady solve: missing --op (see 'steady solve --help')" "$steady" solve $ex/paper-reduce.plat
expect 2 "steady solve: unknown operation (allgather): use scatter, gossip, reduce or broadcast (see 'steady solve --help')" \
    "$steady" solve --op allgather $ex/paper-reduce.plat
expect 2 "steady solve: unknown node in --source (Q) (see 'steady solve --help')" "$steady" solve --op scatter --source Q $ex/paper-reduce.plat
expect 2 "steady solve: unknown node in --targets (P9) (see 'steady solve --help')" "$steady" solve --op scatter --targets P1,P9 $ex/paper-reduce.plat
expect 2 "steady solve: unknown node in --sources (x) (see 'steady solve --help')" "$steady" solve --op gossip --sources x $ex/paper-reduce.plat
expect 2 "steady solve: unknown node in --participants (P3) (see 'steady solve --help')" "$steady" solve --op reduce --participants P0,P3 $ex/paper-reduce.plat
expect 2 "steady solve: unknown node in --target (PX) (see 'steady solve --help')" "$steady" solve --op reduce --target PX $ex/paper-reduce.plat
expect 2 "steady solve: empty node name in --targets (,) (see 'steady solve --help')" "$steady" solve --op scatter --targets , $ex/paper-reduce.plat
expect 2 "steady solve: empty node name in --targets (P1,,P2) (see 'steady solve --help')" "$steady" solve --op scatter --targets P1,,P2 $ex/paper-reduce.plat
expect 2 "steady solve: --source takes one node (P0,P1) (see 'steady solve --help')" "$steady" solve --op scatter --source P0,P1 $ex/paper-reduce.plat
expect 2 "duplicate node in targets (P1)" "$steady" solve --op scatter --targets P1,P1 $ex/paper-reduce.plat
expect 2 "duplicate node in participants (P1)" "$steady" solve --op reduce --participants P1,P0,P1 $ex/paper-reduce.plat
expect 2 "the source cannot be one of the targets (P0)" "$steady" solve --op broadcast --source P0 --targets P0,P1 $ex/paper-reduce.plat
expect 2 "source: switchA is a router, and routers only forward" "$steady" solve --op scatter --source switchA $ex/two-cluster-grid.plat
expect 2 "steady solve: --sources goes with --op gossip (see 'steady solve --help')" "$steady" solve --op scatter --sources P0 $ex/paper-reduce.plat
expect 2 "steady solve: --source goes with --op scatter or broadcast (see 'steady solve --help')" "$steady" solve --op reduce --source P0 $ex/paper-reduce.plat
expect 2 "steady solve: --participants goes with --op reduce (see 'steady solve --help')" "$steady" solve --op gossip --participants P0,P1 $ex/paper-reduce.plat
expect 2 "steady solve: --task-cost goes with --op reduce (see 'steady solve --help')" "$steady" solve --op scatter --task-cost 5 $ex/paper-reduce.plat
expect 2 "steady solve: --msg-size: unknown size unit (12XB): use B, kB, MB, GB, KiB, MiB, GiB, or no unit for bytes (see 'steady solve --help')" \
    "$steady" solve --op scatter --msg-size 12XB $ex/paper-reduce.plat
expect 2 "steady solve: --msg-size: message size must be positive (-1) (see 'steady solve --help')" "$steady" solve --op scatter --msg-size -1 $ex/paper-reduce.plat
expect 2 "steady solve: --task-cost takes a number from 1e-6 to 1e21 (0) (see 'steady solve --help')" "$steady" solve --op reduce --task-cost 0 $ex/paper-reduce.plat
expect 2 "steady solve: --time-limit takes a positive number of seconds (soon) (see 'steady solve --help')" "$steady" solve --op reduce --time-limit soon $ex/paper-reduce.plat
expect 2 "steady solve: unknown format (xml): use auto, native, graphml or simgrid (see 'steady solve --help')" "$steady" solve --op reduce --from xml $ex/paper-reduce.plat
expect 2 "a reduce needs at least 2 participants (got 1)" "$steady" solve --op reduce --participants P1 $ex/paper-reduce.plat
printf 'processor A speed=1\nprocessor B speed=1\nprocessor C speed=1\nedge A B cost=1\nedge C A cost=1\n' >"$tmp/oneway.plat"
expect 2 "A cannot reach C along the platform's edges: the throughput would be 0" "$steady" solve --op scatter --source A "$tmp/oneway.plat"
expect 2 "B cannot reach A along the platform's edges: the throughput would be 0" "$steady" solve --op broadcast --source B "$tmp/oneway.plat"
expect 2 "B cannot reach A along the platform's edges: the throughput would be 0" "$steady" solve --op reduce --target A "$tmp/oneway.plat"
expect 2 "A cannot reach C along the platform's edges: the throughput would be 0" "$steady" solve --op gossip "$tmp/oneway.plat"
# a 65,536-host cluster: the problem's reachability is one search (or two,
# for a gossip on a strongly connected platform), not one per participant
# or source (a reduce there took more than a minute), and the hops' limit
# refuses it
sed 's/radical="0-7"/radical="0-65535"/' $ex/sg-crossbar.xml >"$tmp/x65536.xml"
for op in scatter broadcast gossip reduce; do
    timeout 60 "$steady" solve --op $op "$tmp/x65536.xml" >/dev/null 2>"$tmp/err"
    st=$?
    [ $st -eq 2 ] && grep -q "^crossbar (65536 ranks): more than 4194304 hops" "$tmp/err" ||
        fail "solve --op $op on 65536 hosts: exit $st, $(head -c 200 "$tmp/err")"
done
expect 2 "tests/bad/nat-self-loop.plat:2:6: self-loop (A -> A)" "$steady" solve --op scatter tests/bad/nat-self-loop.plat
expect 2 "" "$steady" solve --op scatter
expect 2 "" "$steady" solve --op scatter a b
expect 0 "" "$steady" solve --help
# a solver failure is exit 1 with GLPK's reason
"$steady" gen --kind random --nodes 20 --seed 1 -o "$tmp/r20.plat"
expect 1 "" "$steady" solve --op gossip --time-limit 0.001 "$tmp/r20.plat"
grep -qx "time limit of 0.001 s reached \(while building the LP\|in the simplex\|before the simplex\) (.*)" "$tmp/err" || fail "--time-limit 0.001: $(cat "$tmp/err")"
# --time-limit bounds the whole command, planning included: a 2,000-node
# broadcast takes far more than 1 s to solve and plan (0.8 s and 20 s)
"$steady" gen --kind random --nodes 2000 --seed 1 -o "$tmp/r2000.plat"
expect 1 "" "$steady" plan --op broadcast --time-limit 1 -o "$tmp/r2000.sched" "$tmp/r2000.plat"
grep -q "time limit of 1 s reached" "$tmp/err" || fail "plan --time-limit 1: $(cat "$tmp/err")"
# an LP of 40 000 rows and columns or more starts presolved (lp/glpk.c):
# GLPK's postsolve gives the basis back on the whole LP, and the exact
# recovery must accept it (the tiers-6000 scatter: 24 712 + 16 678)
"$steady" gen --kind tiers --nodes 6000 --seed 1 -o "$tmp/t6000.plat"
expect 0 "" "$steady" solve --op scatter --quiet --json "$tmp/t6000.plat"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); l=d["lp"]; assert d["exact"] is True and l["rows"] + l["cols"] >= 40000 and l["simplex"] == "glpk", l' "$tmp/out" ||
    fail "tiers-6000 scatter: not exact, or its LP below the presolve size: $(head -c 300 "$tmp/out")"
# an unwritable --write-lp is a runtime failure
expect 1 "/nonexistent/dir/x.lp: cannot write the LP" "$steady" solve --op scatter --write-lp /nonexistent/dir/x.lp $ex/paper-reduce.plat

if [ "$failures" -eq 0 ]; then
    echo "PASS solve"
else
    exit 1
fi
