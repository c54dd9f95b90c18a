#!/bin/bash
# End-to-end: plan -> check -> replay through the CLI, on the example
# platforms and generated ones, every operation; fixed periods within the
# paper's loss bound; mutated schedule files rejected by check.
#   tests/e2e/plan.sh BUILD_DIR
set -u
steady="$1/steady"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL plan: $*"; failures=$((failures + 1)); }
ex=examples/platforms

# ratio of `steady replay --ops N`
ratio() {
    "$steady" replay --json --ops "$1" "$2" "$3" 2>"$tmp/err" |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["ratio"])' 2>/dev/null
}
ge() { python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) >= float(sys.argv[2]) else 1)' "$1" "$2"; }

# The paper's model first (--cost-model eager: a latency holds no port),
# in which the replay's ratio tends to 1 (the paper's Proposition 1); the
# rendezvous model after.
# every op on every example: valid, and 2000 operations reach 98% of TP
for plat in $ex/*.plat; do
    for op in scatter gossip reduce broadcast; do
        s="$tmp/$(basename "$plat" .plat)-$op.sched"
        "$steady" plan --op $op --cost-model eager -o "$s" "$plat" >"$tmp/plan.out" 2>&1 || { fail "plan --op $op $plat: $(head -1 "$tmp/plan.out")"; continue; }
        "$steady" check "$s" "$plat" >"$tmp/check.out" 2>&1 || fail "check rejects plan --op $op $plat: $(head -3 "$tmp/check.out")"
        r=$(ratio 2000 "$s" "$plat")
        { [ -n "$r" ] && ge "$r" 0.98 && ge 1.000000001 "$r"; } || fail "replay --ops 2000 $op $plat: ratio '$r' not in [0.98, 1]"
    done
done

# convergence (the paper's Proposition 1): the ratio grows with the number of operations
s="$tmp/two-cluster-grid-reduce.sched"
r1=$(ratio 10 "$s" $ex/two-cluster-grid.plat); r2=$(ratio 100 "$s" $ex/two-cluster-grid.plat); r3=$(ratio 5000 "$s" $ex/two-cluster-grid.plat)
{ ge "$r2" "$r1" && ge "$r3" "$r2" && ge "$r3" 0.999; } || fail "no convergence: ratios $r1, $r2, $r3 for 10, 100, 5000 operations"

# generated heterogeneous platforms: valid schedules, never above the optimum
# tests/e2e/run --sanitized: fewer generated platforms (q2 and q4 are used
# below)
if [ -n "${STEADY_E2E_QUICK:-}" ]; then
    rseeds="1" qseeds="2 4"
else
    rseeds="1 2 3" qseeds="1 2 3 4 5"
fi
for seed in $rseeds; do
    "$steady" gen --kind random --nodes 6 --seed $seed -o "$tmp/r$seed.plat"
    for op in scatter gossip reduce broadcast; do
        s="$tmp/r$seed-$op.sched"
        "$steady" plan --op $op --cost-model eager -o "$s" "$tmp/r$seed.plat" >/dev/null 2>"$tmp/err" || { fail "plan $op r$seed: $(cat "$tmp/err")"; continue; }
        "$steady" check "$s" "$tmp/r$seed.plat" >"$tmp/check.out" 2>&1 || fail "check rejects $op r$seed: $(head -3 "$tmp/check.out")"
        # measured: 0.94-0.999 at 2000 operations, 0.979-0.9998 at 10000
        # (README, "Known limits")
        r=$(ratio 2000 "$s" "$tmp/r$seed.plat")
        { [ -n "$r" ] && ge 1.000000001 "$r" && ge "$r" 0.9; } || fail "replay 2000 $op r$seed: ratio '$r'"
        r=$(ratio 10000 "$s" "$tmp/r$seed.plat")
        { [ -n "$r" ] && ge 1.000000001 "$r" && ge "$r" 0.975; } || fail "replay 10000 $op r$seed: ratio '$r'"
    done
done

# the issue's pipeline requirement on random platforms: 2000 operations
# reach 98% of TP, plan made for a series of 2000 (segments, same-period
# forwarding, whole counts per period; docs/schedule-format.md "What 2000
# operations reach").  With one segment three cases stay below (reduce
# seeds 2 and 4, broadcast seed 4: filling and draining the pipeline costs
# 1.4 to 1.7 periods); they must not fall below their measured value
# (since the replay delivers an MPI message whole, as the executor does:
# 0.957, 0.9747 and 0.973, against 0.964, 0.974 and 0.979 when each part
# was delivered on its own; with the executor's rings and messages posted
# once every part's input is there, the plans the replay now ranks first
# give 0.9564, 0.9747 and 0.9839; 0.9569, 0.9747 and 0.9856 measured
# again on 2026-11-27).
for seed in $qseeds; do
    "$steady" gen --kind random --nodes 6 --seed $seed -o "$tmp/q$seed.plat"
    for op in scatter gossip reduce broadcast; do
        s="$tmp/q$seed-$op.sched"
        "$steady" plan --op $op --cost-model eager --series 2000 -o "$s" "$tmp/q$seed.plat" >/dev/null 2>"$tmp/err" || { fail "plan --series 2000 $op q$seed: $(cat "$tmp/err")"; continue; }
        "$steady" check "$s" "$tmp/q$seed.plat" >"$tmp/check.out" 2>&1 || fail "check rejects $op q$seed: $(head -3 "$tmp/check.out")"
        r=$(ratio 2000 "$s" "$tmp/q$seed.plat")
        { [ -n "$r" ] && ge "$r" 0.98 && ge 1.000000001 "$r"; } || fail "replay 2000 $op random-6 seed $seed: ratio '$r' below 0.98"
    done
done
for c in reduce-2:0.956 reduce-4:0.974 broadcast-4:0.983; do
    op=${c%-*} seed=${c#*-} seed=${seed%:*} want=${c#*:}
    s="$tmp/one-$op-$seed.sched"
    "$steady" plan --op $op --cost-model eager --series 2000 --segments 1 -o "$s" "$tmp/q$seed.plat" >/dev/null 2>"$tmp/err" || { fail "plan --segments 1 $op q$seed: $(cat "$tmp/err")"; continue; }
    r=$(ratio 2000 "$s" "$tmp/q$seed.plat")
    { [ -n "$r" ] && ge "$r" $want; } || fail "replay 2000 $op random-6 seed $seed, one segment: ratio '$r' below $want"
done

# segments: an operation of 1 MiB is m messages of 1 MiB / m.  The
# automatic count on reduce seed 2 is the most allowed (4 of 256 KiB: no
# overheads, the longest series is fastest), check says so; replaying N
# operations of a 4-segment schedule is replaying 4 N messages of it read
# as one segment each, to the last bit of the makespan; version 2 files
# are one segment; and what cannot be cut is refused
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert (d["version"], d["segments"], d["msg_size"], d["cost_model"]) == (6, 4, 262144, "eager"), d["segments"]' "$tmp/q2-reduce.sched" ||
    fail "automatic segments on q2 reduce"
"$steady" check "$tmp/q2-reduce.sched" "$tmp/q2.plat" | grep -q "; 4 segments per operation: [0-9.]* operations per second$" || fail "check's line on segments"
"$steady" plan --op reduce --cost-model eager --series 2000 --segments 4 -o "$tmp/seg4.sched" "$tmp/q2.plat" >"$tmp/seg4.out" || fail "plan --segments 4"
grep -q "^segments     4 per operation, of 262144 bytes" "$tmp/seg4.out" || fail "plan's summary of 4 segments: $(cat "$tmp/seg4.out")"
# under the eager model, the summary notes latencies that are a sizeable
# share of a segment's transfer (26% here), and not on the same platform
# without them
grep -q "^note         a latency is 26% of a segment's transfer" "$tmp/seg4.out" || fail "no latency note: $(cat "$tmp/seg4.out")"
sed 's/latency=[^ ]*/latency=0/' "$tmp/q2.plat" >"$tmp/z2.plat"
"$steady" plan --op reduce --cost-model eager --series 2000 --segments 4 -o "$tmp/z2.sched" "$tmp/z2.plat" | grep -q "^note" && fail "a latency note without latencies"

# the rendezvous model (the default): a message holds both ports through
# its latency, as steady-run's sends do.  On q2's reduce the automatic
# segments are fewer (each pays its latencies), the file says the model,
# the plan's summary gives the replayed rate, and the replay of the eager
# plan under rendezvous is not faster than the rendezvous plan's own by
# more than the planner's message slack (0.5%: it takes the fewest MPI
# messages within it; 97.59% of the optimum in 1.5 messages per
# operation against the eager plan's 97.89% in 2.8)
"$steady" plan --op reduce --series 2000 -o "$tmp/rv.sched" "$tmp/q2.plat" >"$tmp/rv.out" || fail "plan (rendezvous)"
python3 - "$tmp/rv.sched" "$tmp/q2-reduce.sched" "$tmp/rv-as-eager.sched" <<'PY' || fail "rendezvous plan of q2 reduce"
import json, sys
rv, ea = (json.load(open(f)) for f in sys.argv[1:3])
assert rv["cost_model"] == "rendezvous" and rv["segments"] < ea["segments"], (rv["segments"], ea["segments"])
ea["cost_model"] = "rendezvous"
json.dump(ea, open(sys.argv[3], "w"))
PY
grep -q "^replayed     [0-9.]* operations per second over 2000 ([0-9.]*% of the optimum; rendezvous)$" "$tmp/rv.out" ||
    fail "no replayed line: $(cat "$tmp/rv.out")"
grep -q "^note" "$tmp/rv.out" && fail "a latency note under rendezvous, which counts latencies"
r_rv=$(ratio 2000 "$tmp/rv.sched" "$tmp/q2.plat")
r_ea=$(ratio 2000 "$tmp/rv-as-eager.sched" "$tmp/q2.plat")
{ [ -n "$r_rv" ] && [ -n "$r_ea" ] && ge "$r_rv" "$(python3 -c "print($r_ea * 0.995)")"; } ||
    fail "rendezvous plan $r_rv slower than the eager plan $r_ea under rendezvous, beyond the message slack"
"$steady" plan --op reduce --cost-model sync "$tmp/q2.plat" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "\-\-cost-model takes rendezvous or eager (sync)" "$tmp/err" || fail "--cost-model sync: $(cat "$tmp/err")"
python3 - "$tmp/seg4.sched" "$tmp/seg1.sched" "$tmp/v2.sched" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["segments"] = 1
json.dump(d, open(sys.argv[2], "w"))
del d["segments"]
d["version"] = 2
json.dump(d, open(sys.argv[3], "w"))
PY
"$steady" replay --json --ops 500 "$tmp/seg4.sched" "$tmp/q2.plat" >"$tmp/a.json" &&
    "$steady" replay --json --ops 2000 "$tmp/seg1.sched" "$tmp/q2.plat" >"$tmp/b.json" &&
    python3 - "$tmp/a.json" "$tmp/b.json" <<'PY' || fail "500 operations of 4 segments are not 2000 messages"
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert a["ops"] == 500 and a["makespan"] == b["makespan"] and a["transfers"] == b["transfers"], (a, b)
assert abs(a["optimum"] * 4 - b["optimum"]) <= 1e-9 * b["optimum"] and abs(a["achieved"] * 4 - b["achieved"]) <= 1e-9 * b["achieved"]
PY
"$steady" check "$tmp/v2.sched" "$tmp/q2.plat" | grep -q "valid: [0-9]* operations per period" || fail "a version 2 schedule"
"$steady" plan --op reduce --segments 3 "$tmp/q2.plat" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "3 segments of a 1048576-byte message are not whole 8-byte words" "$tmp/err" || fail "--segments 3: $(cat "$tmp/err")"
"$steady" plan --op reduce --segments 2 $ex/paper-reduce.plat >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "abstract platform's costs are per message" "$tmp/err" || fail "--segments 2 on an abstract platform: $(cat "$tmp/err")"
"$steady" plan --op reduce --segments 0 $ex/paper-reduce.plat >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "\-\-segments takes auto or a positive integer (0)" "$tmp/err" || fail "--segments 0: $(cat "$tmp/err")"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["segments"] = 0; json.dump(d, open(sys.argv[2], "w"))' "$tmp/seg4.sched" "$tmp/seg0.sched"
"$steady" check "$tmp/seg0.sched" "$tmp/q2.plat" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q '"segments" out of range (0)' "$tmp/err" || fail "segments 0 in a file: $(cat "$tmp/err")"

# same-period forwarding: a send given the lag of the send feeding it
# while its slots do not wait for the parts it forwards is rejected, with
# the slots, the nodes and the times
python3 - "$tmp/q4-broadcast.sched" "$tmp/fwd.sched" <<'PY' || fail "no send one period after the send feeding it in q4-broadcast"
import json, sys
d = json.load(open(sys.argv[1]))
for t in d["trees"]:
    steps = t["steps"]
    for i, s in enumerate(steps):
        prod = [p for p in steps[:i] if p["kind"] == "send" and p["to"] == s["from"]]
        if s["kind"] == "send" and prod and s["lag"] == prod[-1]["lag"] + 1:
            s["lag"] -= 1
            json.dump(d, open(sys.argv[2], "w"))
            sys.exit(0)
sys.exit(1)
PY
"$steady" check "$tmp/fwd.sched" "$tmp/q4.plat" >"$tmp/check.out" 2>&1
[ $? -eq 1 ] && grep -q "forwards messages .* delivers in slot [0-9]* only at .* with the same lag" "$tmp/check.out" ||
    fail "same-lag forwarding before the messages arrive: $(head -3 "$tmp/check.out")"

# fixed period (§4.6): the loss stays within #trees / period
for op in scatter reduce broadcast; do
    "$steady" plan --op $op --period 100 -o "$tmp/fixed.sched" "$tmp/r1.plat" >/dev/null 2>&1 || { fail "plan --period 100 $op"; continue; }
    python3 - "$tmp/fixed.sched" <<'PY' || fail "--period 100 $op: loss above the bound"
import json, sys
from fractions import Fraction as F
d = json.load(open(sys.argv[1]))
assert d["fixed_period"] and F(d["period"]) == 100
loss, bound = F(d["loss"]), F(d["loss_bound"])
assert 0 <= loss <= bound and loss == F(d["optimum"]) - F(d["throughput"]), (loss, bound)
PY
    "$steady" check "$tmp/fixed.sched" "$tmp/r1.plat" >/dev/null || fail "check rejects --period 100 $op"
done
# --period exact on the paper's example: period 1, TP 1 exactly
"$steady" plan --op reduce --task-cost 1 --period exact -o "$tmp/exact.sched" $ex/paper-reduce.plat >/dev/null
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert (d["throughput"], d["optimum"], d["fixed_period"]) == ("1", "1", False)' "$tmp/exact.sched" ||
    fail "--period exact on the paper's example"

# mutants of a valid schedule: check must reject every one (exit 1), an
# unreadable one is exit 2
"$steady" check examples/schedules/paper-reduce.sched $ex/paper-reduce.plat >/dev/null || fail "the documented example schedule is invalid"
good="$tmp/two-cluster-grid-reduce.sched"
mutate() { # NAME PYTHON-STATEMENTS-ON-d
    python3 - "$good" "$tmp/m-$1.sched" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
    "$steady" check "$tmp/m-$1.sched" $ex/two-cluster-grid.plat >"$tmp/m.out" 2>&1
    local st=$?
    [ "$st" -eq 1 ] || fail "mutant $1: check exit $st, want 1 ($(tail -1 "$tmp/m.out"))"
}
mutate drop-transfer 'd["slots"][0]["transfers"].pop()'
mutate double-book 'd["slots"][0]["transfers"].append(dict(d["slots"][0]["transfers"][0]))'
mutate swap-lags 's = d["trees"][0]["steps"]; s[0]["lag"], s[-1]["lag"] = s[-1]["lag"], s[0]["lag"]'
mutate weight 'd["trees"][0]["weight"] += 1'
mutate ops 'd["ops_per_period"] += 1'
mutate count 'd["compute"][0]["count"] += 1'
mutate period 'from fractions import Fraction as F; d["period"] = str(F(d["period"]) / 2)'
mutate throughput 'from fractions import Fraction as F; d["throughput"] = str(F(d["throughput"]) * 2)'
mutate slot-overlap 'd["slots"][1]["start"] = d["slots"][0]["start"]'
mutate part 'd["slots"][0]["transfers"][0]["part"][1] = "1/2"'
head -c 2000 "$good" >"$tmp/truncated.sched"
"$steady" check "$tmp/truncated.sched" $ex/two-cluster-grid.plat >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "malformed JSON" "$tmp/err" || fail "truncated schedule: want exit 2 and 'malformed JSON' ($(cat "$tmp/err"))"
"$steady" check "$good" $ex/tiers.plat >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "made for another platform" "$tmp/err" || fail "schedule for another platform: $(cat "$tmp/err")"
"$steady" plan --op reduce --period 0.001 $ex/paper-reduce.plat >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "too short for a single operation" "$tmp/err" || fail "too short a period: $(cat "$tmp/err")"
"$steady" plan --op reduce --period soon $ex/paper-reduce.plat >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "--period soon accepted"
"$steady" replay --ops 0 "$good" $ex/two-cluster-grid.plat >/dev/null 2>&1
[ $? -eq 2 ] || fail "--ops 0 accepted"

# the candidates are built and replayed in threads (--threads, default one
# per processor): the same schedule and summary whatever their number,
# including more threads than candidates
"$steady" gen --kind random --nodes 30 --seed 2 >"$tmp/r30.plat"
for job in "broadcast $ex/tiers.plat" "gossip $ex/tiers.plat" "reduce $ex/two-cluster-grid.plat" \
           "scatter $tmp/r30.plat" "broadcast $tmp/r30.plat"; do
    set -- $job
    for t in 1 2 7; do
        "$steady" plan --op $1 --threads $t --quiet -o "$tmp/t$t.sched" "$2" >"$tmp/t$t.out" 2>&1 ||
            fail "plan --op $1 --threads $t $2: $(head -1 "$tmp/t$t.out")"
    done
    for t in 2 7; do
        cmp -s "$tmp/t1.sched" "$tmp/t$t.sched" && cmp -s "$tmp/t1.out" "$tmp/t$t.out" ||
            fail "plan --op $1 $2: --threads $t differs from --threads 1"
    done
done
# the reduce's trees are priced in threads too (the intervals of a length
# side by side, where they are many and long: lp/treegen.c): the same
# solution whatever their number, along Dijkstra's paths (random-1000)
# and one hop's (a crossbar of 1 000 hosts), 48 participants
"$steady" gen --kind random --nodes 1000 --seed 1 >"$tmp/r1000.plat"
sed 's/radical="0-7"/radical="0-999"/' $ex/sg-crossbar.xml >"$tmp/xbar1000.xml"
for job in "P $tmp/r1000.plat" "node- $tmp/xbar1000.xml"; do
    set -- $job
    for t in 1 2 3; do
        "$steady" solve --op reduce --participants "$(seq -s, 0 47 | sed "s/[0-9]\+/$1&/g")" --threads $t \
            "$2" 2>&1 | grep -v '^LP: ' >"$tmp/s$t.out"
    done
    grep -q '^throughput' "$tmp/s1.out" || fail "solve --op reduce $2: $(head -1 "$tmp/s1.out")"
    for t in 2 3; do
        cmp -s "$tmp/s1.out" "$tmp/s$t.out" || fail "solve --op reduce $2: --threads $t differs from --threads 1"
    done
done
# steady compare's reduce LP too
for t in 1 2; do
    "$steady" compare --op reduce --threads $t $ex/tiers.plat >"$tmp/c$t.out" 2>&1 ||
        fail "compare --op reduce --threads $t: $(head -1 "$tmp/c$t.out")"
done
cmp -s "$tmp/c1.out" "$tmp/c2.out" || fail "compare --op reduce: --threads 2 differs from --threads 1"
for cmd in solve plan compare; do
    for bad in 0 -1 1025 two 2x; do
        "$steady" $cmd --op scatter --threads "$bad" $ex/tiers.plat >/dev/null 2>"$tmp/err"
        [ $? -eq 2 ] && grep -q -- "^steady $cmd: --threads takes an integer from 1 to 1024 ($bad)" "$tmp/err" ||
            fail "$cmd --threads $bad: $(cat "$tmp/err")"
    done
done

# A calibrated platform's values are a fit of the sizes it was measured
# over: the plan says when its MPI messages leave them.  Two processors, a
# latency of 10 transfers of 64 KiB: the automatic period carries K
# operations in each message, which therefore holds K x 64 KiB.
cat >"$tmp/cal.plat" <<'PLAT'
calibrated min-size=16KiB max-size=256KiB
processor a speed=1Gf
processor b speed=1Gf
link a b bandwidth=100MBps latency=6.5536ms
PLAT
"$steady" plan --json --op broadcast --msg-size 64KiB --series 1000 -o "$tmp/cal.sched" \
    "$tmp/cal.plat" >"$tmp/cal.json" || fail "plan on a calibrated platform"
python3 - "$tmp/cal.json" <<'PY' || fail "message_bytes: $(cat "$tmp/cal.json")"
import json, sys
d = json.load(open(sys.argv[1]))
k = d["ops_per_period"]
assert k > 4 and d["message_bytes"] == [k * 65536.0, k * 65536.0], d
PY
"$steady" plan --op broadcast --msg-size 64KiB --series 1000 -o "$tmp/cal.sched" "$tmp/cal.plat" \
    >"$tmp/cal.out" 2>&1
grep -q "^note         MPI messages of [0-9.]* [KM]iB, on a platform calibrated over 16 KiB to 256 KiB:$" \
    "$tmp/cal.out" || fail "no note on messages beyond the calibration: $(cat "$tmp/cal.out")"
sed -i 's/max-size=256KiB/max-size=64MiB/' "$tmp/cal.plat"
"$steady" plan --op broadcast --msg-size 64KiB --series 1000 -o "$tmp/cal.sched" "$tmp/cal.plat" \
    >"$tmp/cal.out" 2>&1
grep -q "calibrated over" "$tmp/cal.out" && fail "a note on messages within the calibration: $(cat "$tmp/cal.out")"

# A flat cluster's broadcast: the LP's vertex is a chain through the 64
# hosts, 63 hops deep; for a short series the plan offers two trees of
# TwoTreeC's shape (height 7), each carrying half of the throughput, the
# optimum too (each host sends and receives one message per operation in
# all), and their replay over 200 operations wins: 0.941 measured, the
# chain 0.886 in the plan before them (0.754 in its exact period).  Over
# a million operations the vertex's fill weighs nothing: the chain.
cat >"$tmp/flat64.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="world" routing="Full">
    <cluster id="c" prefix="node-" suffix="" radical="0-63" speed="1Gf" bw="125MBps" lat="50us"/>
  </zone>
</platform>
XML
"$steady" plan --json --op broadcast --series 200 -o "$tmp/two.sched" "$tmp/flat64.xml" \
    >"$tmp/two.json" 2>"$tmp/err" || fail "plan on flat64: $(cat "$tmp/err")"
"$steady" plan --op broadcast --period exact --quiet -o "$tmp/chain.sched" "$tmp/flat64.xml" \
    2>"$tmp/err" | grep -q "^structure    1 trees, 1 slots (63 transfers)" ||
    fail "flat64's vertex is not the chain: $(cat "$tmp/err")"
"$steady" plan --json --op broadcast --series 1000000 -o "$tmp/long.sched" "$tmp/flat64.xml" \
    >"$tmp/long.json" 2>"$tmp/err" || fail "plan --series 1000000 on flat64: $(cat "$tmp/err")"
python3 - "$tmp/two.json" "$tmp/long.json" "$(ratio 200 "$tmp/two.sched" "$tmp/flat64.xml")" \
    "$(ratio 200 "$tmp/chain.sched" "$tmp/flat64.xml")" <<'PY' || fail "flat64's two trees: see above"
import json, sys
two, long = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
r_two, r_chain = float(sys.argv[3]), float(sys.argv[4])
print("  flat64 broadcast, 200 operations: two trees %.4f, the chain %.4f; a million: %d tree(s)"
      % (r_two, r_chain, long["trees"]))
assert two["trees"] == 2 and two["throughput"] == two["optimum"] and two["max_lag"] <= 14, two
assert r_two >= 0.93 and r_two >= r_chain + 0.1, (r_two, r_chain)
assert long["trees"] == 1, long
PY

# Its reduce to node-0: the LP's vertex mixes 62 trees, which fill
# slowly: 0.879 of the optimum over 200 operations in the plan before
# (0.738 in the vertex's exact period); two in-order trees over node-1 ..
# node-63 (every host inner in one of them at most), each carrying half,
# reach the optimum too (one message per port per operation in all) at
# depth 7: 0.934.
"$steady" plan --json --op reduce --series 200 -o "$tmp/two.sched" "$tmp/flat64.xml" \
    >"$tmp/two.json" 2>"$tmp/err" || fail "plan --op reduce on flat64: $(cat "$tmp/err")"
"$steady" plan --op reduce --period exact --quiet -o "$tmp/vertex.sched" "$tmp/flat64.xml" >/dev/null \
    2>"$tmp/err" || fail "plan --op reduce --period exact on flat64: $(cat "$tmp/err")"
python3 - "$tmp/two.json" "$(ratio 200 "$tmp/two.sched" "$tmp/flat64.xml")" \
    "$(ratio 200 "$tmp/vertex.sched" "$tmp/flat64.xml")" <<'PY' || fail "flat64's reduce trees: see above"
import json, sys
two, r_two, r_vertex = json.load(open(sys.argv[1])), float(sys.argv[2]), float(sys.argv[3])
print("  flat64 reduce, 200 operations: two trees %.4f, the vertex's exact period %.4f"
      % (r_two, r_vertex))
assert two["trees"] == 2 and two["throughput"] == two["optimum"] and two["max_lag"] <= 14, two
assert r_two >= 0.92 and r_two >= r_vertex + 0.1, (r_two, r_vertex)
PY

if [ "$failures" -eq 0 ]; then
    echo "PASS plan"
else
    exit 1
fi
