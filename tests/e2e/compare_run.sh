#!/bin/bash
# executor-only: tests steady-run (never sanitized), skipped by make asan
# End-to-end tests of steady-run --algo (docs/running.md, "Comparison
# algorithms"): the comparison algorithms and MPI's own collectives run on
# MPI with verified payloads.
#
#  1. SMPI, a generated heterogeneous platform (random, 5 processors, seed 1,
#     latencies set to 0 so that the one-port model is what SimGrid
#     simulates, docs/running.md): every algorithm for broadcast, reduce and
#     allreduce, 100 operations of 16 KiB in 4 chunks: every operation
#     verified; achieved <= the LP optimum (x 1.001: SMPI ranks time from
#     their own exit of the starting barrier, docs/running.md); achieved >=
#     0.95 x the model (the rest: 4 chunks' pipeline fill over 100 operations
#     and SMPI's 16-byte envelope).  MPI's own collectives (--algo mpi,
#     SMPI's default algorithms, non-commutative operator): verified.
#     TwoTreeC and TwoTreeS broadcast on homogeneous-complete.plat (every
#     port busy in the model), 100 operations of 16 KiB in 4 chunks: >= 0.95
#     x the model; their reduces, 200 operations of 16 KiB in 4 chunks:
#     >= 0.95 x the model.
#     The optimum rank 0 solves after the run is steady compare's;
#     --optimum none reports none, --optimum TP that TP.
#  2. A damaged byte is caught (corrupt 1, exit 1), and swapped operands
#     under the ordered operator.
#  3. Open MPI: two algorithms on a platform with a router.
#  4. Bad input: one line, exit 2.
#
#   tests/e2e/compare_run.sh BUILD_DIR      (from the repository root)
set -u
source "$(dirname "$0")/lib/executor.bash" compare_run "${1:?usage: tests/e2e/compare_run.sh BUILD_DIR}"

"$steady" gen --kind random --nodes 5 --seed 1 -o "$tmp/r.plat"
sed 's/latency=[^ ]*/latency=0/' "$tmp/r.plat" >"$tmp/z.plat"
"$steady" export --format simgrid "$tmp/z.plat" -o "$tmp/z.xml" --hostfile "$tmp/z.hosts"

# smpi ARGS...: steady-run-smpi on z.plat, the JSON report in $tmp/out
smpi() {
    timeout 120 smpirun -no-privatize "${cfg[@]}" -platform "$tmp/z.xml" -hostfile "$tmp/z.hosts" \
        -np 5 "$run_smpi" --json "$@" "$tmp/z.plat" >"$tmp/out" 2>"$tmp/err"
}

# check WHAT OPS BOUNDED: the report in $tmp/out verified every operation;
# BOUNDED=1: achieved <= 1.001 x optimum and >= 0.95 x the model, whose
# ratio goes to $tmp/ratio
check() {
    python3 - "$tmp/out" "$2" "$3" >"$tmp/ratio" 2>"$tmp/why" <<'PY' ||
import json, sys
# smpirun adds lines after the report when the run fails
d = json.JSONDecoder().raw_decode(open(sys.argv[1]).read())[0]
ops, bounded = int(sys.argv[2]), sys.argv[3] == "1"
factor = 0.95
assert d["verified"] == ops and d["lost"] == d["duplicated"] == d["corrupt"] == 0, \
    "verified %s of %d" % (d["verified"], ops)
for k in ("achieved", "planned", "optimum", "ratio", "algo", "op", "chunks", "operator", "root"):
    assert k in d, k
if bounded:
    assert d["achieved"] <= 1.001 * d["optimum"], "achieved %g > optimum %g" % (d["achieved"], d["optimum"])
    assert d["achieved"] >= factor * d["planned"], "achieved %g < %g x model %g" % (d["achieved"], factor, d["planned"])
    print("%.3f" % d["model_ratio"], end="")
PY
        fail "$1: $(tail -1 "$tmp/why") $(grep -v WARNING "$tmp/err" | head -c 300)"
}

echo "steady-run-smpi --algo, 100 operations of 16 KiB in 4 chunks, achieved / model:"
for op in broadcast reduce allreduce; do
    line="  $op:"
    algos="twotreec twotrees binomial binary chain flat"
    [ $op = allreduce ] && algos="twotreec+c twotreec+s $algos"
    for a in $algos; do
        smpi --algo $a --op $op --ops 100 --chunks 4 --msg-bytes 16KiB ||
            { fail "smpirun --algo $a --op $op: exit $? $(grep -v WARNING "$tmp/err" | head -c 300)"; continue; }
        check "$a $op" 100 1
        line="$line $a $(cat "$tmp/ratio")"
    done
    smpi --algo mpi --op $op --ops 100 --msg-bytes 16KiB ||
        fail "smpirun --algo mpi --op $op: exit $? $(grep -v WARNING "$tmp/err" | head -c 300)"
    check "mpi $op" 100 0
    echo "$line"
done
# The two-tree broadcasts on a homogeneous complete graph, where every port
# of the model is busy all the time: only the edge colouring's synchronous
# order reaches the model (period order without it: 0.50 and 0.34).
hc=examples/platforms/homogeneous-complete.plat
"$steady" export --format simgrid --msg-size 16KiB "$hc" -o "$tmp/hc.xml" --hostfile "$tmp/hc.hosts"
# Their reduces follow the same colouring, reversed (period order without
# it: 0.65 and 0.78 here); 200 operations of 4 chunks: 0.960, 0.959.
for job in broadcast:100 reduce:200; do
    op=${job%:*} ops=${job#*:}
    line="  homogeneous-complete $op:"
    for a in twotreec twotrees; do
        timeout 120 smpirun -no-privatize "${cfg[@]}" -platform "$tmp/hc.xml" -hostfile "$tmp/hc.hosts" \
            -np 5 "$run_smpi" --json --algo $a --op $op --ops $ops --chunks 4 --msg-bytes 16KiB \
            "$hc" >"$tmp/out" 2>"$tmp/err" ||
            { fail "smpirun --algo $a --op $op homogeneous-complete: exit $? $(grep -v WARNING "$tmp/err" | head -c 300)"; continue; }
        check "$a $op homogeneous-complete" $ops 1
        line="$line $a $(cat "$tmp/ratio")"
    done
    echo "$line"
done
# the operator follows the trees: TwoTreeC's reduce needs a commutative one
smpi --algo twotreec --op reduce --ops 5 --chunks 2 --msg-bytes 16KiB &&
    grep -q '"operator": "commutative"' "$tmp/out" || fail "twotreec reduce: operator not commutative"
smpi --algo chain --op reduce --ops 5 --chunks 2 --msg-bytes 16KiB &&
    grep -q '"operator": "non-commutative"' "$tmp/out" || fail "chain reduce: operator not non-commutative"

# the optimum rank 0 solves after the run is steady compare's; --optimum
# none solves nothing and reports none, --optimum TP that TP
for op in reduce allreduce; do
    "$steady" compare --json --op $op --msg-size 16KiB "$tmp/z.plat" >"$tmp/cmp.json" ||
        fail "steady compare --op $op"
    for given in "" none 123.5; do
        smpi --algo binomial --op $op --ops 5 --chunks 2 --msg-bytes 16KiB ${given:+--optimum $given} ||
            { fail "--algo binomial --op $op --optimum '$given': exit $?"; continue; }
        python3 - "$tmp/out" "$tmp/cmp.json" "$given" <<'PY' || fail "--algo binomial --op $op --optimum '$given': $(head -c 300 "$tmp/out")"
import json, sys
d = json.JSONDecoder().raw_decode(open(sys.argv[1]).read())[0]
given = sys.argv[3]
want = None if given == "none" else float(given) if given else json.load(open(sys.argv[2]))["optimum"]
if want is None:
    assert d["optimum"] is None and d["ratio"] is None, d
else:
    assert abs(d["optimum"] - want) <= 1e-9 * want, (d["optimum"], want)
    assert abs(d["ratio"] - d["achieved"] / want) <= 1e-9 * d["ratio"], d
PY
    done
done
timeout 120 smpirun -no-privatize "${cfg[@]}" -platform "$tmp/z.xml" -hostfile "$tmp/z.hosts" -np 5 \
    "$run_smpi" --algo chain --op reduce --ops 5 --msg-bytes 16KiB --optimum none "$tmp/z.plat" \
    >"$tmp/out" 2>"$tmp/err" && grep -q '^optimum      - (not solved: --optimum none)$' "$tmp/out" &&
    grep -q '^ratio        -, ' "$tmp/out" || fail "--optimum none, text report: $(head -c 600 "$tmp/out")"

# a damaged byte: P1 flips one byte of what it sends for operation 7
for a in binomial:reduce twotreec:allreduce chain:broadcast; do
    STEADY_RUN_FAULT=1:corrupt@7 smpi --algo ${a%:*} --op ${a#*:} --ops 20 --chunks 2 --msg-bytes 16KiB
    st=$?
    python3 -c '
import json, sys
d = json.JSONDecoder().raw_decode(open(sys.argv[1]).read())[0]
sys.exit(0 if d["corrupt"] == 1 and d["verified"] == 19 else 1)' "$tmp/out" &&
        [ $st -eq 1 ] || fail "corrupt@7 on $a: exit $st, $(head -c 200 "$tmp/out")"
done
# swapped operands (the rank's reduction of operation 7): caught under the
# chain's ordered operator (P1), harmless under the binary tree's
# commutative one (P0, its root, combines what its children send)
for a in chain:1:1 binary:0:0; do
    IFS=: read -r algo rank caught <<<"$a"
    STEADY_RUN_FAULT=$rank:swap@7 smpi --algo "$algo" --op reduce --ops 20 --chunks 2 --msg-bytes 16KiB
    st=$?
    python3 -c '
import json, sys
d = json.JSONDecoder().raw_decode(open(sys.argv[1]).read())[0]
sys.exit(0 if (d["corrupt"], d["verified"]) == ((1, 19) if sys.argv[2] == "1" else (0, 20)) else 1)' "$tmp/out" "$caught" &&
        [ $st -eq "$caught" ] || fail "swap@7 on $algo, P$rank: exit $st, $(head -c 200 "$tmp/out")"
done

# ---- Open MPI ----------------------------------------------------------------
"$steady" gen --kind cluster --nodes 3 --seed 1 -o "$tmp/cluster.plat" # 3 processors, 1 switch
for a in chain:broadcast twotreec:allreduce binomial:reduce; do
    "${mpi[@]}" -np 4 "$run" --json --algo ${a%:*} \
        --op ${a#*:} --ops 50 --msg-bytes 64KiB "$tmp/cluster.plat" >"$tmp/out" 2>"$tmp/err" ||
        fail "mpirun --algo $a: $(head -c 300 "$tmp/err")"
    check "mpirun $a" 50 0
done

# ---- bad input -------------------------------------------------------------------
# expect STATUS LINE CMD...: exit status and the exact one line on stderr
expect() {
    local want=$1 line=$2
    shift 2
    timeout 60 "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    [ "$got" -eq "$want" ] || fail "exit $got (want $want): $*"
    [ "$(grep -v WARNING "$tmp/err" | head -1)" = "$line" ] || fail "$*: stderr '$(cat "$tmp/err")', want '$line'"
}
mpi1=(mpirun --allow-run-as-root --oversubscribe -np 5 "$run")
expect 2 "steady-run: --algo: unknown algorithm, use twotreec, twotreec+c, twotreec+s, twotrees, binomial, binary, chain, flat or mpi (ring) (see 'steady-run --help')" \
    "${mpi1[@]}" --algo ring --op broadcast --ops 5 "$tmp/z.plat"
expect 2 "steady-run: --algo twotreec+c does not support --op broadcast (allreduce only)" \
    "${mpi1[@]}" --algo twotreec+c --op broadcast --ops 5 "$tmp/z.plat"
expect 2 "steady-run: --algo needs --op broadcast|reduce|allreduce" \
    "${mpi1[@]}" --algo chain --ops 5 "$tmp/z.plat"
expect 2 "steady-run: $tmp/z.plat: unknown node in --root (P9)" \
    "${mpi1[@]}" --algo chain --op reduce --root P9 --ops 5 "$tmp/z.plat"
expect 2 "steady-run: $tmp/z.plat: the platform has 5 nodes but the job has 3 ranks (start one rank per node, routers included: -np 5)" \
    mpirun --allow-run-as-root --oversubscribe -np 3 "$run" --algo chain --op reduce --ops 5 "$tmp/z.plat"
expect 2 "steady-run: $tmp/z.plat: a message of 16 bytes cannot be split into 4 chunks (a reduce needs 8 bytes, one element, per chunk) (on P0)" \
    "${mpi1[@]}" --algo chain --op reduce --chunks 4 --msg-bytes 16 --ops 5 "$tmp/z.plat"
expect 2 "steady-run: --optimum takes a positive throughput or none (nothing) (see 'steady-run --help')" \
    "${mpi1[@]}" --algo chain --op reduce --optimum nothing --ops 5 "$tmp/z.plat"
expect 2 "steady-run: --chunks goes with --algo (a schedule says it all) (see 'steady-run --help')" \
    "${mpi1[@]}" --chunks 4 --ops 5 x.sched "$tmp/z.plat"

if [ "$failures" -eq 0 ]; then
    echo "PASS compare_run"
else
    exit 1
fi
