#!/bin/bash
# End-to-end tests of `steady compare`: the table, --json (parsed with
# python3), the SVG chart (parsed as XML), --chunks, and every flag's bad
# input (exit 2, one exact line).   tests/e2e/compare.sh BUILD_DIR
set -u
steady="$1/steady"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL compare: $*"; failures=$((failures + 1)); }
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

# the table: homogeneous complete graph, c = 1: chain and two trees at 1/c,
# binary tree 1/(2c), binomial 1/(3c), flat 1/(4c); the optimum is 1
expect 0 "" "$steady" compare --op broadcast $ex/homogeneous-complete.plat
grep -qx 'optimum      1 operations per time unit (SSB LP, every other processor a target)' "$tmp/out" ||
    fail "homogeneous broadcast optimum line"
for row in 'twotreec .* 1  *1.0000 *- ' 'twotrees .* 1  *1.0000 *- ' 'chain .* 1  *1.0000 *- ' \
    'binary .* 0.5  *0.5000 *- ' 'binomial .* 0.333333  *0.3333 *- ' 'flat .* 0.25  *0.2500 *- '; do
    grep -q "^$row" "$tmp/out" || fail "homogeneous broadcast row /$row/"
done
grep -q '^algorithm  *chunks  model TP  *ratio  *measured  *one op  *operator  *bottleneck$' "$tmp/out" ||
    fail "table header"
[ "$(grep -c 'send port of P0$' "$tmp/out")" -eq 6 ] || fail "the root's send port binds every algorithm"

# --json on every example platform and operation: the documented keys, ratios
# consistent, nothing above the optimum unless the operator must commute
for plat in homogeneous-complete two-cluster-grid tiers; do
    for op in broadcast reduce allreduce; do
        expect 0 "" "$steady" compare --op $op --json -o "$tmp/$plat-$op.svg" $ex/$plat.plat
        python3 - "$tmp/out" "$op" <<'PY' || fail "$plat $op --json content"
import json, sys
d = json.load(open(sys.argv[1]))
op = sys.argv[2]
for k in ("optimum", "algorithms", "op", "platform", "root", "unit", "optimum_is_bound",
          "reduce_optimum", "broadcast_optimum", "commutative_bound"):
    assert k in d, k
names = [a["name"] for a in d["algorithms"]]
want = ["twotreec", "twotrees", "binomial", "binary", "chain", "flat"]
if op == "allreduce":
    want = ["twotreec", "twotreec+c", "twotreec+s"] + want[1:]
assert names == want, names
assert d["op"] == op and d["optimum"] > 0
for a in d["algorithms"]:
    assert set(a) >= {"name", "model_throughput", "measured_throughput", "ratio", "chunks"}, a
    assert a["measured_throughput"] is None
    assert abs(a["ratio"] - a["model_throughput"] / d["optimum"]) <= 1e-12 * a["ratio"], a
    assert 1 <= a["chunks"] <= 64
    limit = d["optimum"]
    if a["operator"] == "commutative":
        limit = d["commutative_bound"]
        if op == "allreduce":
            limit = min(limit, d["broadcast_optimum"])
    assert a["model_throughput"] <= limit * (1 + 1e-9), (a, limit)
if op == "allreduce":
    assert d["optimum"] == min(d["reduce_optimum"], d["broadcast_optimum"]) and d["optimum_is_bound"]
PY
        python3 - "$tmp/$plat-$op.svg" "$op" <<'PY' || fail "$plat $op chart"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
assert root.tag == ns + "svg", root.tag
bars = [r for r in root.iter(ns + "rect") if r.find(ns + "title") is not None]
assert len(bars) == (8 if sys.argv[2] == "allreduce" else 6), len(bars)
assert any("LP" in (t.text or "") for t in root.iter(ns + "text"))
PY
    done
done
xmllint --noout "$tmp/tiers-reduce.svg" || fail "xmllint rejects the chart"

# the grid: one WAN crossing for the chain and the binomial tree, which
# reach the broadcast optimum w / S in the paper's model (eager) and hold
# gatewayA's port through the WAN's 10 ms too under rendezvous (the
# default): S/w / (S/w + 10 ms) of it; TwoTreeC crosses it 2.5 times per
# operation
expect 0 "" "$steady" compare --op broadcast --json --cost-model eager $ex/two-cluster-grid.plat
cp "$tmp/out" "$tmp/eager.json"
expect 0 "" "$steady" compare --op broadcast --json $ex/two-cluster-grid.plat
python3 - "$tmp/eager.json" "$tmp/out" <<'PY' || fail "grid broadcast values"
import json, sys
e, d = (json.load(open(f)) for f in sys.argv[1:3])
wan = 1048576 / 10e6
assert abs(d["optimum"] - 1 / wan) < 1e-9 and e["optimum"] == d["optimum"], d["optimum"]
b = {x["name"]: x for x in e["algorithms"]}
assert abs(b["chain"]["ratio"] - 1) < 1e-9 and abs(b["binomial"]["ratio"] - 1) < 1e-9
a = {x["name"]: x for x in d["algorithms"]}
r = wan / (wan + 10e-3)
assert abs(a["chain"]["ratio"] - r) < 1e-9 and abs(a["binomial"]["ratio"] - r) < 1e-9, a["chain"]
assert a["chain"]["bottleneck"] == "send port of gatewayA"
assert a["twotreec"]["chunks"] % 2 == 0 and a["twotreec"]["ratio"] < 0.41, a["twotreec"]
PY

# --chunks, --root and the reduce flags
expect 0 "" "$steady" compare --op reduce --chunks 2 --root P3 --task-cost 2 --json $ex/homogeneous-complete.plat
python3 - "$tmp/out" <<'PY' || fail "--chunks 2 --root P3 --task-cost 2"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["root"] == "P3" and d["task_cost"] == 2
a = {x["name"]: x for x in d["algorithms"]}
assert all(x["chunks"] == 2 for x in d["algorithms"])
# task cost 2 at speed 1: the chain combines once per chunk on 4 of the 5
# processors, TP 1/2 (cpu of the first of them); the LP spreads the 4
# combines over the 5 processors: 5/8.  Rooted at P3 the chain's partial
# results are not intervals of ranks (P4, P0, P1, P2): commutative.
assert a["chain"]["model_throughput"] == 0.5 and a["chain"]["bottleneck"] == "cpu of P0", a["chain"]
assert d["optimum"] == 0.625 and a["chain"]["ratio"] == 0.8
assert a["chain"]["operator"] == "commutative" and a["flat"]["operator"] == "any"
PY
expect 0 "" "$steady" compare --op reduce --target P1 $ex/paper-reduce.plat
grep -q '^operation    reduce of 3 processors to P1 on paper-reduce$' "$tmp/out" || fail "--target"
expect 0 "" "$steady" compare --op broadcast --source a2 --msg-size 64KiB $ex/two-cluster-grid.plat
grep -q '^messages     64 KiB per message$' "$tmp/out" || fail "--msg-size"

# bad input: exit 2 and one exact line
u="(see 'steady compare --help')"
expect 2 "steady compare: missing --op $u" "$steady" compare $ex/paper-reduce.plat
expect 2 "steady compare: unknown operation (scatter): use broadcast, reduce or allreduce $u" \
    "$steady" compare --op scatter $ex/paper-reduce.plat
expect 2 "steady compare: unknown node in --root (PX) $u" "$steady" compare --op reduce --root PX $ex/paper-reduce.plat
expect 2 "steady compare: give the root once (--root, then --source) $u" \
    "$steady" compare --op broadcast --root P0 --source P1 $ex/paper-reduce.plat
expect 2 "steady compare: --source goes with --op broadcast (use --root) $u" \
    "$steady" compare --op reduce --source P0 $ex/paper-reduce.plat
expect 2 "steady compare: --target goes with --op reduce (use --root) $u" \
    "$steady" compare --op allreduce --target P0 $ex/paper-reduce.plat
expect 2 "steady compare: --task-cost goes with --op reduce or allreduce $u" \
    "$steady" compare --op broadcast --task-cost 3 $ex/paper-reduce.plat
expect 2 "steady compare: --chunks takes a positive integer or auto (0) $u" \
    "$steady" compare --op broadcast --chunks 0 $ex/paper-reduce.plat
expect 2 "steady compare: --chunks takes a positive integer or auto (many) $u" \
    "$steady" compare --op broadcast --chunks many $ex/paper-reduce.plat
for flag in "--segments 2" "--smpi-cfg default" "--row-timeout 5"; do
    expect 2 "steady compare: ${flag% *} goes with --measure smpi $u" \
        "$steady" compare --op broadcast $flag $ex/paper-reduce.plat
done
m="--op broadcast --measure smpi"
cfg_usage="steady compare: --smpi-cfg takes tuned, default or --cfg=NAME:VALUE flags"
expect 2 "$cfg_usage (bogus) $u" "$steady" compare $m --smpi-cfg "--cfg=smpi/bw-factor:0:1 bogus" \
    $ex/paper-reduce.plat
expect 2 "$cfg_usage (--cfg=smpi/wtime) $u" "$steady" compare $m --smpi-cfg "--cfg=smpi/wtime" \
    $ex/paper-reduce.plat
expect 2 "$cfg_usage (--cfg=:0) $u" "$steady" compare $m --smpi-cfg "--cfg=:0" $ex/paper-reduce.plat
expect 2 "$cfg_usage ( ) $u" "$steady" compare $m --smpi-cfg " " $ex/paper-reduce.plat
expect 2 "$cfg_usage (tuned,default) $u" "$steady" compare $m --smpi-cfg tuned,default $ex/paper-reduce.plat
expect 2 "steady compare: --row-timeout takes a number of seconds, 0 for no limit (-1) $u" \
    "$steady" compare $m --row-timeout -1 $ex/paper-reduce.plat
expect 2 "steady compare: --row-timeout takes a number of seconds, 0 for no limit (5s) $u" \
    "$steady" compare $m --row-timeout 5s $ex/paper-reduce.plat
expect 2 "steady compare: --segments takes auto or a count from 1 to 1048576 (0) $u" \
    "$steady" compare $m --segments 0 $ex/paper-reduce.plat
expect 2 "steady compare: --segments goes with --op broadcast or reduce (the lp-schedule row; allreduce has none) $u" \
    "$steady" compare --op allreduce --measure smpi --segments 2 $ex/paper-reduce.plat
expect 2 "steady compare: --calibrated goes with --measure smpi $u" \
    "$steady" compare --op reduce --calibrated $ex/tiers.plat $ex/paper-reduce.plat
expect 2 "steady compare: --calibrated: $ex/tiers.plat does not have the compared platform's ranks (rank 3: P3 there, none here): calibrate it with steady-run --calibrate $u" \
    "$steady" compare --op reduce --measure smpi --calibrated $ex/tiers.plat $ex/paper-reduce.plat
expect 2 "steady compare: --cost-model takes rendezvous or eager (lazy) $u" \
    "$steady" compare --op broadcast --cost-model lazy $ex/paper-reduce.plat
expect 2 "steady compare: unknown option (--targets) $u" "$steady" compare --op broadcast --targets P1 $ex/paper-reduce.plat
expect 2 "steady compare: option needs a value (--op) $u" "$steady" compare $ex/paper-reduce.plat --op
expect 2 "steady compare: --msg-size: message size must be positive (-1) $u" \
    "$steady" compare --op broadcast --msg-size -1 $ex/paper-reduce.plat
expect 2 "root: switchA is a router, and routers only forward" \
    "$steady" compare --op broadcast --root switchA $ex/two-cluster-grid.plat
expect 2 "32 chunks of a 16-byte message would be smaller than a byte" \
    "$steady" compare --op broadcast --msg-size 16 --chunks 32 $ex/two-cluster-grid.plat
printf 'processor A speed=1\n' >"$tmp/one.plat"
expect 2 "a comparison needs at least 2 processors (got 1)" "$steady" compare --op reduce "$tmp/one.plat"
printf 'processor A speed=1\nprocessor B speed=1\nprocessor C speed=1\nedge A B cost=1\nedge C A cost=1\n' >"$tmp/oneway.plat"
expect 2 "A cannot reach C along the platform's edges: the throughput would be 0" \
    "$steady" compare --op broadcast --root A "$tmp/oneway.plat"
expect 2 "tests/bad/nat-self-loop.plat:2:6: self-loop (A -> A)" "$steady" compare --op reduce tests/bad/nat-self-loop.plat
expect 2 "" "$steady" compare --op reduce
expect 2 "" "$steady" compare --op reduce a b
# an unwritable chart is a runtime failure, and nothing is left behind
expect 1 "/nonexistent/dir/c.svg: cannot create (No such file or directory)" \
    "$steady" compare --op broadcast -o /nonexistent/dir/c.svg $ex/paper-reduce.plat
expect 0 "" "$steady" compare --help
for flag in '--chunks C|auto' '--segments auto|M' '--smpi-cfg CFG' '--row-timeout S'; do
    grep -q -- "^  $flag " "$tmp/out" || fail "compare --help: no $flag"
done
expect 0 "" "$steady" --help
grep -q '^  compare ' "$tmp/out" || fail "steady --help lists compare"

if [ "$failures" -eq 0 ]; then
    echo "PASS compare"
else
    exit 1
fi
