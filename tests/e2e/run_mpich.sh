#!/bin/bash
# executor-only: tests steady-run (never sanitized), skipped by make asan
# End-to-end test of steady-run built with MPICH (steady-run-mpich, run by
# MPICH's own mpirun.mpich; docs/running.md).  tests/e2e/run_mpi.sh covers
# the executor in depth on Open MPI and SMPI; this checks that the same
# source runs under the second MPI implementation:
#   - every operation on a small generated platform, and a broadcast
#     through a switch: every operation verified, exit 0;
#   - wrong -np: rank 0's one-line error, exit 2;
#   - a stalled peer: a neighbour's "no progress" line, a failure exit
#   - a dead peer: its own "died" line (supervise.c)
#     (not a hang: each run is under `timeout 60`).
#
#   tests/e2e/run_mpich.sh BUILD_DIR      (from the repository root)
set -u
build=${1:?usage: tests/e2e/run_mpich.sh BUILD_DIR}
steady="$build/steady"
run="$build/steady-run-mpich"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
    echo "FAIL run_mpich: $*"
    failures=$((failures + 1))
}
command -v mpirun.mpich >/dev/null || {
    echo "FAIL run_mpich: mpirun.mpich not found (scripts/bootstrap installs mpich)"
    exit 1
}
for bin in "$steady" "$run"; do
    [ -x "$bin" ] || {
        echo "FAIL run_mpich: $bin is not built (run make)"
        exit 1
    }
done
mpi=(timeout 60 mpirun.mpich)

# job PLAT SCHED OPS [ARGS...]: one rank per node, the JSON report in $tmp/out
job() {
    local plat=$1 sched=$2 ops=$3
    shift 3
    "${mpi[@]}" -np "$(grep -cE '^(processor|router) ' "$plat")" "$run" --json --ops "$ops" "$@" \
        "$sched" "$plat" >"$tmp/out" 2>"$tmp/err"
}
# verified OPS WHAT: the report in $tmp/out verifies every operation
verified() {
    python3 - "$tmp/out" "$1" <<'PY' || fail "$2: $(head -c 300 "$tmp/out") $(head -c 300 "$tmp/err")"
import json, sys
d = json.load(open(sys.argv[1]))
ops = int(sys.argv[2])
sys.exit(0 if (d["ops"], d["verified"], d["lost"], d["duplicated"], d["corrupt"]) == (ops, ops, 0, 0, 0) else 1)
PY
}

"$steady" gen --kind random --nodes 4 --seed 7 -o "$tmp/small.plat"
"$steady" gen --kind cluster --nodes 3 --seed 1 -o "$tmp/cluster.plat" # 3 processors, 1 switch
for op in scatter gossip reduce broadcast; do
    "$steady" plan --op $op --msg-size 64KiB -o "$tmp/$op.sched" "$tmp/small.plat" >/dev/null 2>"$tmp/err" ||
        { fail "plan $op: $(head -c 300 "$tmp/err")"; continue; }
    job "$tmp/small.plat" "$tmp/$op.sched" 300 || { fail "mpirun.mpich $op: exit $?: $(head -c 300 "$tmp/err")"; continue; }
    verified 300 "$op small"
done
"$steady" plan --op broadcast --msg-size 64KiB -o "$tmp/cluster.sched" "$tmp/cluster.plat" >/dev/null &&
    { job "$tmp/cluster.plat" "$tmp/cluster.sched" 300 || fail "broadcast cluster: exit $?: $(head -c 300 "$tmp/err")"; } &&
    verified 300 "broadcast through a switch"

"${mpi[@]}" -np 3 "$run" --ops 10 "$tmp/scatter.sched" "$tmp/small.plat" >/dev/null 2>"$tmp/err"
st=$?
[ $st -eq 2 ] && grep -qE '^steady-run: .*scatter.sched: the schedule has 4 nodes but the job has 3 ranks' "$tmp/err" ||
    fail "wrong -np: exit $st: $(head -c 300 "$tmp/err")"
# (once, a CI run saw mpirun.mpich exit 1 with nothing at all on stderr,
# not even MPICH's own "Abort(1)" line; not reproduced in 80 runs since,
# 4 at a time and beside busy loops.  Such a run is said and tried once
# more: a second silent exit fails the test.)
stalled() {
    STEADY_RUN_FAULT=2:stall@100 "${mpi[@]}" -np 4 "$run" --timeout 2 --ops 300 "$tmp/scatter.sched" \
        "$tmp/small.plat" >/dev/null 2>"$tmp/err"
}
stalled
st=$?
if [ $st -eq 1 ] && [ ! -s "$tmp/err" ]; then
    echo "run_mpich: stalled peer: mpirun.mpich exited 1 and printed nothing; once more"
    stalled
    st=$?
fi
[ $st -ne 0 ] && [ $st -ne 124 ] && grep -qE '^steady-run: P[0-9] \(rank [0-9]\): no progress for 2 s: ' "$tmp/err" ||
    fail "stalled peer: exit $st: $(head -c 300 "$tmp/err")"

# a dead peer: its line, besides the launcher's banner
STEADY_RUN_FAULT=1:die@100 "${mpi[@]}" -np 4 "$run" --ops 300 "$tmp/scatter.sched" "$tmp/small.plat" \
    >/dev/null 2>"$tmp/err"
st=$?
[ $st -ne 0 ] && [ $st -ne 124 ] && grep -qE '^steady-run: P1 \(rank 1\): died \(signal 9, Killed\) at period [0-9]+ of [0-9]+, ' "$tmp/err" ||
    fail "dead peer: exit $st: $(head -c 300 "$tmp/err")"

if [ "$failures" -eq 0 ]; then
    echo "PASS run_mpich"
else
    exit 1
fi
