#!/bin/bash
# steady-run, the MPI executor (docs/running.md), measured two ways:
#
#  1. SMPI: achieved / TP of steady-run-smpi for growing series (100, 1000,
#     10 000 operations, each planned with --series for its length) and
#     platforms (random, 6, 12 and 20 processors, seed 1) with their
#     latencies set to 0 (the regime where SimGrid follows the one-port
#     model), side by side with `steady replay` of the same schedule; then
#     on the 6-processor platform with its latencies, for growing message
#     sizes, whole (--segments 1): SMPI's rendezvous adds each edge's
#     latency to every message's port time, a gap that shrinks as messages
#     grow; and the largest size in the automatic segments, which widen it.
#  2. Open MPI shared memory: steady-run's time per transfer (one message of
#     S bytes from P0 to P1 per operation: generated, sent, checked) against
#     a plain MPI ping-pong (half the round trip) and a plain stream (one
#     message in flight at a time, steady-run's port discipline, no
#     payload), both of the same size, measured in the same run
#     (bench/pingpong.c); each the best of three runs.
#
#   bench/executor.sh BUILD_DIR [quick]
set -euo pipefail
build=${1:?usage: bench/executor.sh BUILD_DIR [quick]}
quick=${2:-}
steady="$build/steady"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ -n "$quick" ]; then
    sizes="6"; series="100 1000"; msgs="16KiB 256KiB"
else
    sizes="6 12 20"; series="100 1000 10000"; msgs="16KiB 256KiB 1MiB"
fi
cfg=(--cfg=smpi/simulate-computation:no --cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1
    --cfg=network/TCP-gamma:0 --cfg=network/crosstraffic:0 --cfg=smpi/wtime:0
    --log=root.thres:warning)
mpi=(mpirun -q --allow-run-as-root --oversubscribe)

json() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }

# smpi_row OP PLAT OPS MSG LABEL [PLAN FLAGS...]: plan, run under SMPI,
# replay; one table row
smpi_row() {
    local op=$1 plat=$2 ops=$3 msg=$4 label=$5
    shift 5
    "$steady" plan --op "$op" --msg-size "$msg" --series "$ops" "$@" -o "$tmp/s.sched" "$plat" >/dev/null
    "$steady" export --format simgrid "$plat" -o "$tmp/p.xml" --hostfile "$tmp/p.hosts"
    local start end
    start=$(date +%s%N)
    smpirun -no-privatize "${cfg[@]}" -platform "$tmp/p.xml" -hostfile "$tmp/p.hosts" \
        -np "$(wc -l <"$tmp/p.hosts")" "$build/steady-run-smpi" --json --ops "$ops" \
        "$tmp/s.sched" "$plat" >"$tmp/run.json"
    end=$(date +%s%N)
    "$steady" replay --json --ops "$ops" "$tmp/s.sched" "$plat" >"$tmp/replay.json"
    [ "$(json "$tmp/run.json" verified)" = "$ops" ] || { echo "$label: not every operation verified" >&2; exit 1; }
    printf '%-10s %-22s %6s %7s %9.4f %9.4f %9.4f %8.1f\n' "$op" "$label" "$msg" "$ops" \
        "$(json "$tmp/run.json" ratio)" "$(json "$tmp/replay.json" ratio)" \
        "$(python3 -c 'import sys; print(float(sys.argv[1]) / float(sys.argv[2]))' \
            "$(json "$tmp/run.json" ratio)" "$(json "$tmp/replay.json" ratio)")" \
        "$(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.1f", (b - a) / 1e9}')"
}

echo "1. steady-run-smpi: achieved / TP (SMPI), the replay's, their ratio, wall time"
printf '%-10s %-22s %6s %7s %9s %9s %9s %8s\n' op platform msg ops smpi/TP replay/TP smpi/rep wall_s
for n in $sizes; do
    "$steady" gen --kind random --nodes "$n" --seed 1 -o "$tmp/r$n.plat"
    sed 's/latency=[^ ]*/latency=0/' "$tmp/r$n.plat" >"$tmp/z$n.plat"
    for op in scatter broadcast; do
        for ops in $series; do
            smpi_row $op "$tmp/z$n.plat" "$ops" 16KiB "random-$n, no latency"
        done
    done
done
for op in scatter broadcast; do
    for msg in $msgs; do
        smpi_row $op "$tmp/r6.plat" 1000 "$msg" "random-6, latencies" --segments 1
    done
    # the largest size again, in the automatic segments (each a message)
    smpi_row $op "$tmp/r6.plat" 1000 "${msgs##* }" "random-6, lat., segments"
done

echo
echo "2. Open MPI shared memory: time per transfer, steady-run against plain MPI"
mpicc -O2 -std=c11 -Wall -Wextra -Werror -o "$tmp/pingpong" bench/pingpong.c
{
    echo "platform two"
    echo "processor P0 speed=1e9"
    echo "processor P1 speed=1e9"
    echo "edge P0 P1 bandwidth=1e10 latency=1e-6"
    echo "edge P1 P0 bandwidth=1e10 latency=1e-6"
} >"$tmp/two.plat"
printf '%8s %7s %12s %12s %12s %9s %9s\n' bytes msgs steady-run_us stream_us pingpong_us run/stream run/pingpong
for spec in 1024:20000 65536:5000 1048576:1000; do
    bytes=${spec%:*} ops=${spec#*:}
    [ -n "$quick" ] && ops=$((ops / 10))
    "$steady" plan --op scatter --msg-size "$bytes" --period exact -o "$tmp/two.sched" "$tmp/two.plat" >/dev/null
    : >"$tmp/times"
    for _ in 1 2 3; do
        "${mpi[@]}" -np 2 "$build/steady-run" --json --ops "$ops" "$tmp/two.sched" "$tmp/two.plat" >"$tmp/run.json"
        [ "$(json "$tmp/run.json" verified)" = "$ops" ] || { echo "not every operation verified" >&2; exit 1; }
        echo "run $(json "$tmp/run.json" elapsed) $(json "$tmp/run.json" messages)" >>"$tmp/times"
        "${mpi[@]}" -np 2 "$tmp/pingpong" "$bytes" "$ops" | awk '{ print "plain", $2, $3 }' >>"$tmp/times"
    done
    python3 - "$bytes" "$tmp/times" <<'PY'
import sys
b = int(sys.argv[1])
run, stream, pp, msgs = [], [], [], 0
for line in open(sys.argv[2]):
    w = line.split()
    if w[0] == "run":
        msgs = int(float(w[2]))
        run.append(float(w[1]) / msgs)
    else:
        pp.append(float(w[1]))
        stream.append(float(w[2]))
run, stream, pp = min(run), min(stream), min(pp)
print(f"{b:>8} {msgs:>7} {run * 1e6:>12.2f} {stream * 1e6:>12.2f} {pp * 1e6:>12.2f} "
      f"{run / stream:>9.2f} {run / pp:>9.2f}")
PY
done
