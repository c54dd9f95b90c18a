#!/bin/bash
# executor-only: tests steady-run (never sanitized), skipped by make asan
# End-to-end tests of steady-run, the MPI executor (docs/running.md).
#
#  1. SMPI throughput: every operation on three generated heterogeneous
#     platforms (random, 6 processors, seeds 1-3) with their latencies set to
#     0: plan -> check -> smpirun steady-run-smpi --ops 2000 -> every
#     operation verified and achieved / TP >= 0.95; likewise the paper's
#     reduce example (abstract costs, --msg-bytes).  With latencies, SMPI's
#     rendezvous holds a port for latency + size / bandwidth per message
#     (docs/running.md, "SimGrid and the one-port model"), which the
#     rendezvous cost model of the plan and the replay counts: part 2 checks
#     on the same platforms with latencies that the replay predicts the run.
#     Seed 2's reduce with its messages cut into 4 segments reaches 0.98.
#     Rank 0's progress line shows on a terminal, and not under --quiet.
#  3. Open MPI (mpirun --oversubscribe): every operation on a small
#     generated platform, whole and in 4 segments, a platform with a
#     router, the paper's abstract reduce example; every operation
#     verified.
#  4. Failures, each under `timeout 60`: wrong -np, a schedule for another
#     platform, a truncated and an invalid schedule, bad options, a stalled
#     peer (--timeout, plain MPI and SMPI), a dead peer (one line under
#     mpirun -q), faults that cannot fire, another --msg-bytes than the
#     schedule's, steady-run-smpi run outside smpirun, and a damaged byte
#     and a reduction of swapped operands that verification must catch
#     (corrupt = 1, exit 1).
#
#   tests/e2e/run_mpi.sh BUILD_DIR      (from the repository root)
#
# Prints the measured ratios, then "PASS run_mpi" or FAIL lines.
set -u
source "$(dirname "$0")/lib/executor.bash" run_mpi "${1:?usage: tests/e2e/run_mpi.sh BUILD_DIR}"

ge() { python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) >= float(sys.argv[2]) else 1)' "$1" "$2"; }

# smpi PLAT SCHED OPS [ARGS...]: runs steady-run-smpi on the platform's
# export, the JSON report in $tmp/out; returns smpirun's status
smpi() {
    local plat=$1 sched=$2 ops=$3
    shift 3
    "$steady" export --format simgrid "$plat" -o "$tmp/p.xml" --hostfile "$tmp/p.hosts" &&
        timeout 120 smpirun -no-privatize "${cfg[@]}" -platform "$tmp/p.xml" -hostfile "$tmp/p.hosts" \
            -np "$(wc -l <"$tmp/p.hosts")" "$run_smpi" --json --ops "$ops" "$@" "$sched" "$plat" \
            >"$tmp/out" 2>"$tmp/err"
}

# verified OPS WHAT: every operation of the run in $tmp/out verified
verified() {
    local v
    v=$(field verified)
    [ "$v" = "$1" ] && [ "$(field lost)$(field duplicated)$(field corrupt)" = 000 ] ||
        { fail "$2: verified '$v' of $1 ($(head -c 300 "$tmp/err"))"; return 1; }
}

# plan OP PLAT SCHED [FLAGS...]: plan and check
plan() {
    local op=$1 plat=$2 sched=$3
    shift 3
    "$steady" plan --op "$op" "$@" -o "$sched" "$plat" >/dev/null 2>"$tmp/err" ||
        { fail "plan --op $op $plat: $(head -1 "$tmp/err")"; return 1; }
    "$steady" check "$sched" "$plat" >"$tmp/check" 2>&1 ||
        { fail "check rejects plan --op $op $plat: $(head -2 "$tmp/check")"; return 1; }
}

# ---- 1, 2. SMPI ------------------------------------------------------------------
echo "steady-run-smpi, 2000 operations of 16 KiB, achieved / TP (replay):"
for seed in 1 2 3; do
    "$steady" gen --kind random --nodes 6 --seed $seed -o "$tmp/r$seed.plat"
    sed 's/latency=[^ ]*/latency=0/' "$tmp/r$seed.plat" >"$tmp/z$seed.plat"
    line="  random-6-s$seed, no latency:"
    for op in scatter gossip reduce broadcast; do
        s="$tmp/z$seed-$op.sched"
        plan $op "$tmp/z$seed.plat" "$s" --msg-size 16KiB --series 2000 || continue
        smpi "$tmp/z$seed.plat" "$s" 2000 || { fail "smpirun $op z$seed: $(grep -v WARNING "$tmp/err" | head -c 300)"; continue; }
        verified 2000 "smpi $op z$seed" || continue
        r=$(field ratio)
        rp=$("$steady" replay --json --ops 2000 "$s" "$tmp/z$seed.plat" | python3 -c 'import json,sys; print(json.load(sys.stdin)["ratio"])')
        line=$(printf '%s %s %.4f (%.4f)' "$line" $op "$r" "$rp")
        ge "$r" 0.95 || fail "smpi $op z$seed: achieved / TP $r < 0.95 (replay $rp)"
    done
    echo "$line"
done

# segments (docs/schedule-format.md): random-6 seed 2's reduce, whose
# pipeline costs it most unsegmented, with its 64 KiB messages cut into 4
line="  random-6-s2, no latency, 64 KiB in 4 segments:"
s="$tmp/z2-seg.sched"
if plan reduce "$tmp/z2.plat" "$s" --msg-size 64KiB --segments 4 --series 2000 &&
    smpi "$tmp/z2.plat" "$s" 2000 && verified 2000 "smpi reduce z2, 4 segments"; then
    r=$(field ratio)
    rp=$("$steady" replay --json --ops 2000 "$s" "$tmp/z2.plat" | python3 -c 'import json,sys; print(json.load(sys.stdin)["ratio"])')
    printf '%s reduce %.4f (%.4f)\n' "$line" "$r" "$rp"
    ge "$r" 0.98 || fail "smpi reduce z2, 4 segments: achieved / TP $r < 0.98 (replay $rp)"
else
    fail "smpirun reduce z2, 4 segments: $(grep -v WARNING "$tmp/err" | head -c 300)"
fi

# the progress line: rank 0 redraws "steady-run: period Q/N (P%), T s" on a
# terminal (script gives the run one) for runs longer than 0.3 s; none
# with --quiet (20000 operations: about 1 s here; 6000 took 0.3 s, and an
# unloaded machine drew no line)
"$steady" export --format simgrid "$tmp/z1.plat" -o "$tmp/p.xml" --hostfile "$tmp/p.hosts"
for quiet in "" --quiet; do
    script -qec "timeout 120 smpirun -no-privatize ${cfg[*]} -platform $tmp/p.xml -hostfile $tmp/p.hosts \
        -np $(wc -l <"$tmp/p.hosts") $run_smpi $quiet --ops 20000 $tmp/z1-scatter.sched $tmp/z1.plat" \
        /dev/null >"$tmp/tty" 2>&1 || fail "progress run $quiet: $(tail -c 300 "$tmp/tty")"
    n=$(tr '\r' '\n' <"$tmp/tty" | grep -cE '^steady-run: period [0-9]+/[0-9]+ \([0-9]+%\), [0-9.]+ s')
    if [ -z "$quiet" ]; then
        [ "$n" -gt 0 ] || fail "no progress line on a terminal: $(tail -c 300 "$tmp/tty")"
    else
        [ "$n" -eq 0 ] || fail "a progress line under --quiet"
    fi
done

# the paper's reduce example (abstract costs: one cost unit moves 64 KiB
# per simulated second, in the export and in the run): TP = 1
"$steady" plan --op reduce --task-cost 1 -o "$tmp/paper.sched" examples/platforms/paper-reduce.plat >/dev/null &&
    "$steady" export --format simgrid --msg-size 64KiB examples/platforms/paper-reduce.plat \
        -o "$tmp/paper.xml" --hostfile "$tmp/paper.hosts" &&
    timeout 120 smpirun -no-privatize "${cfg[@]}" -platform "$tmp/paper.xml" -hostfile "$tmp/paper.hosts" \
        -np 3 "$run_smpi" --json --ops 2000 --msg-bytes 64KiB "$tmp/paper.sched" \
        examples/platforms/paper-reduce.plat >"$tmp/out" 2>"$tmp/err" ||
    fail "smpirun paper reduce: $(grep -v WARNING "$tmp/err" | head -c 300)"
if verified 2000 "smpi paper reduce"; then
    r=$(field ratio)
    printf '  paper-reduce (abstract): reduce %.4f\n' "$r"
    ge "$r" 0.95 || fail "smpi paper reduce: achieved / TP $r < 0.95"
fi

# with latencies (seed 1): SMPI's sends are rendezvous (steady-run makes
# them so), which hold both ports through each message's latency; the
# replay of the rendezvous cost model (the plan's default) predicts the run
# within 3% (2.3% on the broadcast, whose period holds 104 operations:
# 0.697 measured, 0.713 replayed).  The latencies cost up to 30% of the
# optimum; before the period's ranking counted them, 36-89% (the plans
# kept 1 operation per period: broadcast 0.11, scatter 0.31, reduce 0.21)
line="  random-6-s1, latencies: ratio (replay):"
for op in scatter gossip reduce broadcast; do
    s="$tmp/r1-$op.sched"
    plan $op "$tmp/r1.plat" "$s" --msg-size 16KiB --series 1000 || continue
    smpi "$tmp/r1.plat" "$s" 1000 || { fail "smpirun $op r1: $(grep -v WARNING "$tmp/err" | head -c 300)"; continue; }
    verified 1000 "smpi $op r1" || continue
    r=$(field ratio)
    rp=$("$steady" replay --json --ops 1000 "$s" "$tmp/r1.plat" | python3 -c 'import json,sys; print(json.load(sys.stdin)["ratio"])')
    line=$(printf '%s %s %.4f (%.4f)' "$line" $op "$r" "$rp")
    python3 -c 'import sys; r, rp = map(float, sys.argv[1:]); sys.exit(0 if abs(r - rp) <= 0.03 * rp else 1)' "$r" "$rp" ||
        fail "smpi $op r1: ratio $r, the replay's $rp"
done
echo "$line"

# ---- 3. Open MPI -------------------------------------------------------------------
# ompi PLAT SCHED OPS [ARGS...]: mpirun steady-run, the JSON report in $tmp/out
ompi() {
    local plat=$1 sched=$2 ops=$3
    shift 3
    "${mpi[@]}" -np "$(grep -cE '^(processor|router) ' "$plat")" "$run" --json --ops "$ops" "$@" \
        "$sched" "$plat" >"$tmp/out" 2>"$tmp/err"
}
"$steady" gen --kind random --nodes 4 --seed 7 -o "$tmp/small.plat"
"$steady" gen --kind cluster --nodes 3 --seed 1 -o "$tmp/cluster.plat" # 3 processors, 1 switch
for op in scatter gossip reduce broadcast; do
    plan $op "$tmp/small.plat" "$tmp/small-$op.sched" --msg-size 64KiB || continue
    ompi "$tmp/small.plat" "$tmp/small-$op.sched" 300 || { fail "mpirun $op: $(head -c 300 "$tmp/err")"; continue; }
    verified 300 "mpirun $op small"
    # 4 segments of 64 KiB: every byte of each 256 KiB operation checked
    plan $op "$tmp/small.plat" "$tmp/seg-$op.sched" --msg-size 256KiB --segments 4 || continue
    ompi "$tmp/small.plat" "$tmp/seg-$op.sched" 300 || { fail "mpirun $op, 4 segments: $(head -c 300 "$tmp/err")"; continue; }
    verified 300 "mpirun $op small, 4 segments"
done
plan broadcast "$tmp/cluster.plat" "$tmp/cluster.sched" --msg-size 64KiB &&
    { ompi "$tmp/cluster.plat" "$tmp/cluster.sched" 300 || fail "mpirun broadcast cluster: $(head -c 300 "$tmp/err")"; } &&
    verified 300 "mpirun broadcast through a switch"
ex=examples/platforms
plan reduce $ex/paper-reduce.plat "$tmp/paper.sched" --task-cost 1 --period exact &&
    { ompi $ex/paper-reduce.plat "$tmp/paper.sched" 500 --msg-bytes 4096 || fail "mpirun paper reduce: $(head -c 300 "$tmp/err")"; } &&
    verified 500 "mpirun paper reduce (abstract, --msg-bytes)"

# ---- 4. failures ----------------------------------------------------------------
# expect STATUS PATTERN WHAT CMD...: CMD exits with STATUS ("fail": any
# failure but timeout's 124, a hang) and its stderr matches PATTERN
expect() {
    local want=$1 pattern=$2 what=$3
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    if [ "$want" = fail ]; then
        [ "$got" -ne 0 ] && [ "$got" -ne 124 ] || fail "$what: exit $got (want a failure, not a hang)"
    else
        [ "$got" -eq "$want" ] || fail "$what: exit $got (want $want): $(head -c 300 "$tmp/err")"
    fi
    grep -qE "$pattern" "$tmp/err" || fail "$what: stderr lacks '$pattern': $(head -c 300 "$tmp/err")"
}
s="$tmp/small-scatter.sched"
p="$tmp/small.plat"
expect 2 '^steady-run: .*small-scatter.sched: the schedule has 4 nodes but the job has 3 ranks' \
    "wrong -np" "${mpi[@]}" -np 3 "$run" --ops 10 "$s" "$p"
expect 2 '^steady-run: .*small-scatter.sched: made for another platform' \
    "another platform" "${mpi[@]}" -np 4 "$run" --ops 10 "$s" "$tmp/r1.plat"
head -c 1500 "$s" >"$tmp/truncated.sched"
expect 2 '^steady-run: .*truncated.sched:[0-9]+:[0-9]+: malformed JSON' \
    "truncated schedule" "${mpi[@]}" -np 4 "$run" --ops 10 "$tmp/truncated.sched" "$p"
python3 - "$s" "$tmp/invalid.sched" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["slots"][0]["transfers"].pop()
json.dump(d, open(sys.argv[2], "w"))
PY
expect 2 '^steady-run: .*invalid.sched: invalid schedule \([0-9]+ violations?, see .steady check.\): ' \
    "invalid schedule" "${mpi[@]}" -np 4 "$run" --ops 10 "$tmp/invalid.sched" "$p"
expect 2 '^steady-run: .*paper.sched: the schedule is for an abstract platform .*--msg-bytes' \
    "abstract without --msg-bytes" "${mpi[@]}" -np 3 "$run" --ops 10 "$tmp/paper.sched" $ex/paper-reduce.plat
expect 2 "^steady-run: --ops takes a positive integer up to 10\^9 \(0\) \(see 'steady-run --help'\)$" \
    "--ops 0" "${mpi[@]}" -np 4 "$run" --ops 0 "$s" "$p"
expect 2 "^steady-run: unknown option \(--speed\)" "unknown option" "${mpi[@]}" -np 1 "$run" --speed "$s" "$p"
"$run" --help | grep -q '^usage: steady-run --ops K' || fail "steady-run --help"
# a reader that stops early (| head) ends the run by SIGPIPE, silently, as
# for any command (the supervisor said "died (signal 13, Broken pipe)")
"$run" --help 2>"$tmp/err" | true
[ -s "$tmp/err" ] && fail "steady-run --help | true: $(head -c 300 "$tmp/err")"
# a stalled peer: its neighbours see no progress for 2 s and end the job
# (local ranks inherit mpirun's environment; across hosts add -x)
expect fail '^steady-run: P[0-9] \(rank [0-9]\): no progress for 2 s: .*period [0-9]+ slot [0-9]+ (from|to) P[0-9]' \
    "stalled peer" env STEADY_RUN_FAULT=2:stall@100 "${mpi[@]}" -np 4 "$run" --timeout 2 --ops 300 "$s" "$p"
# a dead peer, under mpirun -q: one line, naming the rank and when, and
# the status of a SIGKILL (supervise.c)
expect 137 '^steady-run: P2 \(rank 2\): died \(signal 9, Killed\) at period [0-9]+ of [0-9]+, [0-9.e+-]+ s into the run$' \
    "dead peer" env STEADY_RUN_FAULT=2:die@100 "${mpi[@]}" -q -np 4 "$run" --ops 300 "$s" "$p"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "dead peer: not one line: $(head -c 600 "$tmp/err")"
# a fault that cannot fire is refused
expect 2 '^steady-run: STEADY_RUN_FAULT=7:die@10: no rank 7 in a job of 4 ranks$' \
    "fault rank out of range" env STEADY_RUN_FAULT=7:die@10 "${mpi[@]}" -np 4 "$run" --ops 30 "$s" "$p"
expect 2 '^steady-run: STEADY_RUN_FAULT=1:die@30: no operation 30 in a run of 30 \(0 to 29\)$' \
    "fault operation out of range" env STEADY_RUN_FAULT=1:die@30 "${mpi[@]}" -np 4 "$run" --ops 30 "$s" "$p"
expect 2 "^steady-run: --msg-bytes takes a size from 1 byte to 2\^31 - 1 bytes \(1e30\)" \
    "--msg-bytes 1e30" "${mpi[@]}" -np 4 "$run" --ops 10 --msg-bytes 1e30 "$s" "$p"
# another message size than the schedule's: measured against the LP's
# optimum for that size, and no planned figure (it was 7.0 of the optimum
# for 1-byte messages)
"${mpi[@]}" -np 4 "$run" --json --ops 50 --msg-bytes 1 "$s" "$p" >"$tmp/out" 2>"$tmp/err" ||
    fail "--msg-bytes 1: $(head -c 300 "$tmp/err")"
[ "$(field planned)" = None ] && ge "$(field optimum)" 1e6 || fail "--msg-bytes 1: planned $(field planned), optimum $(field optimum)"
# steady-run-smpi outside smpirun: its help, or where to run it (it crashed)
"$run_smpi" --help >"$tmp/out" 2>&1 && grep -q '^usage: steady-run --ops K' "$tmp/out" || fail "steady-run-smpi --help"
"$run_smpi" --ops 3 "$s" "$p" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q '^steady-run-smpi: runs under SimGrid.s smpirun' "$tmp/err" || fail "steady-run-smpi outside smpirun: $(cat "$tmp/err")"
# a damaged byte is caught: one corrupt operation, exit 1 (the scatter's
# source P0 sends every message; P1 sends its value or a partial result)
for fault in small-scatter:0 small-reduce:1 seg-reduce:1; do
    sched=${fault%:*}
    STEADY_RUN_FAULT=${fault#*:}:corrupt@100 ompi "$p" "$tmp/$sched.sched" 300
    st=$?
    [ $st -eq 1 ] && [ "$(field corrupt)" = 1 ] && [ "$(field verified)" = 299 ] ||
        fail "corrupt@100 on $sched: exit $st, corrupt '$(field corrupt)', verified '$(field verified)'"
done
# a reduction whose operands are swapped is caught: the first rank that
# runs a task of operation 10 reports it corrupt (the operator is not
# commutative); a rank before it has nothing to swap
swapped=
for r in 0 1 2 3; do
    STEADY_RUN_FAULT=$r:swap@10 ompi "$p" "$tmp/small-reduce.sched" 30
    st=$?
    case "$st $(field corrupt) $(field verified)" in
    "1 1 29") swapped=P$r && break ;;
    "0 0 30") ;;
    *) fail "swap@10 on P$r: exit $st, corrupt '$(field corrupt)', verified '$(field verified)'" ;;
    esac
done
[ -n "$swapped" ] || fail "swap@10: no rank's swapped reduction was caught"
# SMPI: the watchdog of the first rank without progress for 1 simulated
# second, and the allowance of 16 (max lag + 1) periods of the file's time
# (0.058 s), ends the simulation (SimGrid alone would stop at the deadlock
# with status 0)
STEADY_RUN_FAULT=1:stall@100 smpi "$tmp/z1.plat" "$tmp/z1-scatter.sched" 300 --timeout 1
st=$?
[ $st -ne 0 ] && [ $st -ne 124 ] && grep -qE '^steady-run: P[0-9] \(rank [0-9]\): no progress for 1\.0[0-9]+ simulated s: ' "$tmp/err" ||
    fail "SMPI stall: exit $st: $(grep -v WARNING "$tmp/err" | head -c 300)"

if [ "$failures" -eq 0 ]; then
    echo "PASS run_mpi"
else
    exit 1
fi
