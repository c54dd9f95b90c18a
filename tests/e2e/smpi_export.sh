#!/bin/bash
# SMPI end-to-end test of the SimGrid export: SMPI must run one MPI rank per
# platform node over exactly the platform's edges, each with the model's
# latency and bandwidth.
#
# A small heterogeneous platform (4 processors, 1 router, asymmetric duplex
# edges, a one-way WAN edge) is exported with `steady export --format
# simgrid`; tests/smpi/edge_probe.c, compiled with smpicc, sends one message
# of S bytes over each edge in turn and prints the simulated transfer time,
# which must be latency + S / bandwidth within 2%.
#
#   tests/e2e/smpi_export.sh BUILD_DIR      (from the repository root)
#
# Prints "PASS smpi_export" or "FAIL smpi_export: why"; STEADY_VERBOSE=1
# also prints the measured and modelled time of every transfer.
set -eu

build=${1:?usage: tests/e2e/smpi_export.sh BUILD_DIR}
fail() {
    echo "FAIL smpi_export: $*"
    exit 1
}
for tool in smpicc smpirun; do
    command -v "$tool" >/dev/null || fail "$tool not found (scripts/bootstrap installs libsimgrid-dev)"
done
[ -x "$build/steady" ] || fail "$build/steady is not built (run make)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The platform's edges: SRC DST BANDWIDTH(B/s) LATENCY(s).  The expected
# times below come from this table, not from the exported file, so that an
# export bug cannot hide itself.  p3 -> p0 is one-way (p0 reaches p3 through
# sw only); its 50 ms latency would let SimGrid's TCP window bound
# (network/TCP-gamma / (2 latency) = 42 MB/s by default) cap its 1 GB/s.
edges="p0 sw 125000000 0.00005
sw p0 125000000 0.00005
p1 sw 12500000 0.001
sw p1 25000000 0.0005
p2 sw 1000000 0.002
sw p2 2000000 0.003
p3 sw 50000000 0.0002
sw p3 5000000 0.0001
p3 p0 1000000000 0.05"

{
    echo "platform smpi-probe"
    echo "processor p0 speed=1e9"
    echo "processor p1 speed=2.5e9"
    echo "router sw"
    echo "processor p2 speed=5e8"
    echo "processor p3 speed=1e10"
    echo "$edges" | while read -r src dst bw lat; do
        echo "edge $src $dst bandwidth=$bw latency=$lat"
    done
} >"$tmp/probe.plat"
echo "$edges" | awk '{ print $1, $2 }' >"$tmp/edges"

"$build/steady" export --format simgrid "$tmp/probe.plat" -o "$tmp/p.xml" \
    --hostfile "$tmp/hosts" 2>"$tmp/export.err" ||
    fail "steady export failed: $(head -c 300 "$tmp/export.err")"
nodes=$(wc -l <"$tmp/hosts")
[ "$nodes" -eq 5 ] || fail "hostfile has $nodes lines, want 5"

smpicc -O2 -Wall -o "$build/edge_probe" tests/smpi/edge_probe.c >"$tmp/cc.log" 2>&1 ||
    fail "smpicc tests/smpi/edge_probe.c failed: $(head -c 500 "$tmp/cc.log")"

# SimGrid's configuration for a network that behaves like steady's model:
#  - smpi/simulate-computation:no  SMPI would otherwise charge the real CPU
#    time spent between MPI calls at each host's speed, and the export gives
#    routers 1 flop/s (abstract platforms give processors a few flop/s):
#    microseconds of real time would become hours of simulated time.
#  - smpi/bw-factor:0:1, smpi/lat-factor:0:1  the SMPI network model
#    multiplies bandwidth and latency by piecewise factors fitted on a real
#    cluster (latency x2 to x11.6, bandwidth x0.34 to x1.09 depending on the
#    message size); a factor 1 for every size gives latency + size/bandwidth.
#  - network/TCP-gamma:0  no TCP window bound min(bw, gamma / (2 latency)),
#    which steady's model does not have (it would cap the p3 -> p0 edge).
#  - network/crosstraffic:0  no 5% reverse-direction usage per flow (ACKs);
#    a lone message is not affected, concurrent ones in steady-run would be.
#  - smpi/wtime:0  MPI_Wtime would advance the clock by 10 ns per call.
#  - --log=root.thres:warning silences SimGrid's informational chatter;
#    -no-privatize: the probe keeps no per-rank state in globals, and not
#    copying the binary per rank keeps smpirun working where /tmp is noexec.
cfg=(--cfg=smpi/simulate-computation:no --cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1
    --cfg=network/TCP-gamma:0 --cfg=network/crosstraffic:0 --cfg=smpi/wtime:0
    --log=root.thres:warning)
sizes="10000 1000000"
# shellcheck disable=SC2086
smpirun -no-privatize "${cfg[@]}" -platform "$tmp/p.xml" -hostfile "$tmp/hosts" -np "$nodes" \
    "$build/edge_probe" "$tmp/edges" $sizes >"$tmp/times" 2>"$tmp/smpirun.err" ||
    fail "smpirun failed: $(head -c 500 "$tmp/smpirun.err")"

# The check.  SMPI sends every message with a 16-byte MPI envelope (tag,
# source, communicator: payload_size = size + 16 in smpi_request.cpp), so the
# simulated time is exactly latency + (S + 16) / bandwidth; the remaining
# systematic gap to steady's latency + S / bandwidth is 16 / S of the
# transfer term, at most 0.16% for the sizes used here.  Each time must be
# within 2% of the model and within 1e-6 (relative) of SMPI's exact formula,
# which catches an export that loses a latency hidden by the 2% tolerance.
verdict=$(echo "$edges" | awk -v sizes="$sizes" -v verbose="${STEADY_VERBOSE:-0}" '
    FNR == NR { bw[$1 " " $2] = $3; lat[$1 " " $2] = $4; n++; next }
    {
        key = $1 " " $2
        if (!(key in bw)) { print "unexpected probe output: " $0; bad = 1; exit }
        seen++
        model = lat[key] + $3 / bw[key]
        smpi = lat[key] + ($3 + 16) / bw[key]
        dev = ($4 - model) / model
        exact = ($4 - smpi) / smpi
        if (dev < 0) dev = -dev
        if (exact < 0) exact = -exact
        if (dev > worst) worst = dev
        if (verbose)
            printf "  %s -> %s %8d B: measured %.9g s, model %.9g s (%+.3f%%)\n",
                $1, $2, $3, $4, model, 100 * ($4 - model) / model > "/dev/stderr"
        if (dev > 0.02 || exact > 1e-6) {
            printf "%s -> %s, %d bytes: measured %.9g s, model latency + S/bandwidth = %.9g s (%+.2f%%)\n",
                $1, $2, $3, $4, model, 100 * ($4 - model) / model
            bad = 1
            exit
        }
    }
    END {
        if (bad) exit
        want = n * split(sizes, s, " ")
        if (seen != want) { printf "probe printed %d times, want %d\n", seen, want; exit }
        printf "ok %.4f%%\n", 100 * worst
    }' /dev/stdin "$tmp/times")
case "$verdict" in
ok*) ;;
*) fail "$verdict" ;;
esac
echo "PASS smpi_export"
