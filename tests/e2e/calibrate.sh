#!/bin/bash
# executor-only: tests steady-run (never sanitized), skipped by make asan
# steady-run --calibrate under SMPI (docs/calibration.md):
#  1. a SimGrid file written the way SimGrid's examples are (hosts, links,
#     one route per pair, Full routing), with known bandwidths and
#     latencies, calibrated under the one-port-faithful flags: every hop's
#     bandwidth within 2% of the route's, its per-message time alpha
#     (overhead + latency) within 10% of the route's latency, and no
#     recv-factor (without cross traffic a node's receptions cost its
#     sends nothing); a channel that a short hop and a hop of long latency
#     cross keeps its bandwidth;
#  2. under SimGrid's default configuration, the calibration's per-size
#     ping-pong is SimGrid's: bench/pingpong.c, compiled with smpicc and run
#     on the same route (smpi/simulate-computation:no, as steady-run, so that
#     its own loop's CPU time is not charged), gives the same times within
#     1% from 64 KiB, up to one constant below 20 us (its blocking calls
#     pay about 10 us more per message than MPI_Isend / MPI_Irecv); and the
#     fit over
#     64 KiB-4 MiB (one regime of SMPI's piecewise factors) reproduces the
#     streams there within 1%;
#  3. under the default configuration, on examples/platforms/sg-*.xml
#     (no one-port routers): calibrated for the rendezvous cost model (the
#     default), plan from the calibrated platform, run operations of
#     1 MiB (1000 of them), every one verified: scatter, reduce and
#     broadcast reach 0.85 of the calibrated optimum, and the replay
#     predicts the run within 0.05.  On sg-two-sites the WAN hop
#     b-1 -> a-3's recv-factor (SimGrid's cross traffic: what b-1's
#     receptions cost its sends; reported, while the file declares the
#     cross traffic itself) is a direct measurement's within 2%:
#     bench/recvsend.c, b-1 streaming 4 MiB messages to a-3 alone and
#     while b-0 streams 4 MiB messages into it (b-0 -> b-1 is the
#     calibration's feeder: the fastest hop into b-1 sharing nothing with
#     the WAN hop);
#     3b. A fat tree (tests/sg/clusters/fat-tree-16.xml): the calibration
#     declares SimGrid's cross traffic and writes no recv-factor, and the
#     broadcast's replay is SMPI's within 0.01 (0.18 below it with the
#     recv-factors);
#  4. steady compare --calibrated under the default configuration, reduce
#     and broadcast on each example: the lp-schedule row is the direct run
#     of part 3, and 1.3 times or more the best of MPI's own collective
#     (SMPI's default selection; for the two-site reduce its named
#     algorithms too) and the two-tree algorithms -- 1.15 on sg-crossbar,
#     where 1.3 times the best rival is more than the calibrated optimum
#     (checked: part 4 says why).
#
#   tests/e2e/calibrate.sh BUILD_DIR      (from the repository root)
set -u
source "$(dirname "$0")/lib/executor.bash" calibrate "${1:?usage: tests/e2e/calibrate.sh BUILD_DIR}"
command -v smpicc >/dev/null || { fail "smpicc not found"; exit 1; }
# operations per run: 1000, as issue 16 asks (at 300 the pipeline's fill
# weighs more: sg-crossbar's broadcast 0.849, sg-two-sites' reduce 0.847);
# CALIBRATE_OPS sets another count
ops_default=${CALIBRATE_OPS:-1000}

# usage errors: one line, exit status 2
expect_usage() { # PATTERN ARGS...
    local pattern=$1
    shift
    "${mpi[@]}" -q -np 1 "$run" "$@" >"$tmp/out" 2>"$tmp/err"
    local st=$?
    [ $st = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -qE "$pattern" "$tmp/err" ||
        fail "steady-run $*: status $st, $(head -c 300 "$tmp/err")"
}
expect_usage '^steady-run: --calibrate needs -o OUT' --calibrate examples/platforms/tiers.plat
expect_usage '^steady-run: -o -: the report goes to standard output' --calibrate -o - examples/platforms/tiers.plat
expect_usage '^steady-run: -o goes with --calibrate' -o "$tmp/x.plat" --ops 3 a b
expect_usage '^steady-run: --sizes: the fit needs two sizes or more \(1KiB\)' \
    --calibrate -o "$tmp/x.plat" --sizes 1KiB examples/platforms/tiers.plat
expect_usage '^steady-run: --ops does not go with --calibrate' \
    --calibrate --ops 3 -o "$tmp/x.plat" examples/platforms/tiers.plat
expect_usage 'abstract costs' --calibrate -o "$tmp/x.plat" examples/platforms/paper-reduce.plat
expect_usage 'job has 1 ranks \(start one rank per processor and router: -np 16\)' \
    --calibrate -o "$tmp/x.plat" examples/platforms/tiers.plat
[ ! -e "$tmp/x.plat" ] || fail "a refused calibration wrote its output"

# 1. a known platform: three hosts, three links, one route per pair
cat >"$tmp/known.xml" <<'EOF'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="known" routing="Full">
    <host id="h0" speed="1Gf"/>
    <host id="h1" speed="1Gf"/>
    <host id="h2" speed="500Mf"/>
    <link id="l01" bandwidth="125MBps" latency="50us"/>
    <link id="l02" bandwidth="10MBps" latency="2ms"/>
    <link id="l12" bandwidth="40MBps" latency="500us"/>
    <route src="h0" dst="h1"><link_ctn id="l01"/></route>
    <route src="h0" dst="h2"><link_ctn id="l02"/></route>
    <route src="h1" dst="h2"><link_ctn id="l12"/></route>
  </zone>
</platform>
EOF
printf 'h0\nh1\nh2\n' >"$tmp/known.hosts"
timeout 300 smpirun -no-privatize "${cfg[@]}" -platform "$tmp/known.xml" -hostfile "$tmp/known.hosts" \
    -np 3 "$run_smpi" --calibrate --json --quiet --reps 3 -o "$tmp/known.plat" "$tmp/known.xml" \
    >"$tmp/known.json" 2>"$tmp/err" || fail "calibrate known.xml: $(grep -v WARNING "$tmp/err" | head -c 300)"
echo "1. one-port-faithful flags, recovered / true per hop:"
python3 - "$tmp/known.json" <<'PY' || fail "known.xml: a hop not recovered"
import json, sys
true = {frozenset(("h0", "h1")): (125e6, 50e-6), frozenset(("h0", "h2")): (10e6, 2e-3),
        frozenset(("h1", "h2")): (40e6, 500e-6)}
d = json.load(open(sys.argv[1]))
assert len(d["hops"]) == 6, len(d["hops"])
ok = True
for h in d["hops"]:
    bw, lat = true[frozenset((h["src"], h["dst"]))]
    alpha = h["overhead"] + h["latency"]
    good = abs(h["bandwidth"] / bw - 1) <= 0.02 and abs(alpha / lat - 1) <= 0.10
    ok &= good
    print("  %s -> %s: bandwidth %.6g (%.6g), alpha %.6g s (%.6g)%s" % (
        h["src"], h["dst"], h["bandwidth"], bw, alpha, lat, "" if good else "  <- FAIL"))
    good = h["recv_factor"] == 1
    ok &= good
    if not good:
        print("  %s -> %s: recv-factor %g without cross traffic  <- FAIL" % (
            h["src"], h["dst"], h["recv_factor"]))
sys.exit(0 if ok else 1)
PY
# a rank that waits for another's experiment is no stall: h0 -> h2's
# streams of 4 MiB take 11 s, longer than --timeout 5, which h1 waits at the
# barrier (each wait allows 16 times the experiment's time in the file)
timeout 300 smpirun -no-privatize "${cfg[@]}" -platform "$tmp/known.xml" -hostfile "$tmp/known.hosts" \
    -np 3 "$run_smpi" --calibrate --quiet --reps 3 --timeout 5 -o "$tmp/known5.plat" "$tmp/known.xml" \
    >"$tmp/out5" 2>"$tmp/err" ||
    fail "calibrate known.xml --timeout 5: $(grep -v WARNING "$tmp/err" | head -c 300)"
cmp -s <(grep -v '^# measured' "$tmp/known.plat") <(grep -v '^# measured' "$tmp/known5.plat") ||
    fail "calibrate known.xml --timeout 5: not the same file"
# the calibrated file reads back, and its header says how it was measured
"$steady" info "$tmp/known.plat" >/dev/null || fail "the calibrated platform does not read back"
grep -q '^# launcher  SimGrid SMPI' "$tmp/known.plat" && grep -q '^# measured  20' "$tmp/known.plat" ||
    fail "the header does not say how and when"

# a channel crossed by a short hop and a hop of long latency: at once they
# carry 1.5 times the channel (the short one has it alone while the long
# one pays its latency), which says nothing of its capacity; the channel
# keeps its nominal bandwidth (it was written as 30 MB/s, and plans
# counted on it)
cat >"$tmp/lat.xml" <<'EOF'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="lat" routing="Full">
    <host id="h0" speed="1Gf"/>
    <host id="h1" speed="1Gf"/>
    <host id="h2" speed="1Gf"/>
    <host id="h3" speed="1Gf"/>
    <link id="bb" bandwidth="20MBps" latency="100us"/>
    <link id="wan" bandwidth="10MBps" latency="300ms"/>
    <link id="l0" bandwidth="100MBps" latency="50us"/>
    <link id="l1" bandwidth="100MBps" latency="50us"/>
    <link id="l2" bandwidth="100MBps" latency="50us"/>
    <link id="l3" bandwidth="100MBps" latency="50us"/>
    <route src="h0" dst="h1"><link_ctn id="l0"/><link_ctn id="bb"/><link_ctn id="l1"/></route>
    <route src="h2" dst="h3"><link_ctn id="l2"/><link_ctn id="wan"/><link_ctn id="bb"/><link_ctn id="l3"/></route>
    <route src="h0" dst="h2"><link_ctn id="l0"/><link_ctn id="l2"/></route>
    <route src="h0" dst="h3"><link_ctn id="l0"/><link_ctn id="l3"/></route>
    <route src="h1" dst="h2"><link_ctn id="l1"/><link_ctn id="l2"/></route>
    <route src="h1" dst="h3"><link_ctn id="l1"/><link_ctn id="l3"/></route>
  </zone>
</platform>
EOF
printf 'h0\nh1\nh2\nh3\n' >"$tmp/lat.hosts"
timeout 300 smpirun -no-privatize "${cfg[@]}" -platform "$tmp/lat.xml" -hostfile "$tmp/lat.hosts" \
    -np 4 "$run_smpi" --calibrate --quiet --reps 2 --sizes 64KiB,4MiB -o "$tmp/lat.plat" "$tmp/lat.xml" \
    >/dev/null 2>"$tmp/err" || fail "calibrate lat.xml: $(grep -v WARNING "$tmp/err" | head -c 300)"
bb=$(awk '$1 == "channel" && $2 == "bb" {sub("bandwidth=", "", $3); print $3}' "$tmp/lat.plat")
echo "  lat.xml: channel bb (20 MB/s) calibrated at $bb B/s"
python3 -c 'import sys; sys.exit(0 if abs(float(sys.argv[1]) / 20e6 - 1) <= 0.01 else 1)' "${bb:-0}" ||
    fail "lat.xml: channel bb calibrated at ${bb:-nothing} B/s, not its 20 MB/s"
grep -qx "calibrated min-size=65536 max-size=4194304" "$tmp/lat.plat" ||
    fail "lat.plat does not record the sizes it was calibrated over (64KiB,4MiB)"

# 2. SimGrid's default configuration: the per-size cost against a direct ping-pong
smpicc -O2 -o "$tmp/pingpong" bench/pingpong.c 2>"$tmp/err" || fail "smpicc pingpong.c: $(head -c 300 "$tmp/err")"
printf 'h0\nh1\n' >"$tmp/two.hosts"
timeout 300 smpirun -no-privatize --log=root.thres:warning -platform "$tmp/known.xml" \
    -hostfile "$tmp/known.hosts" -np 3 "$run_smpi" --calibrate --json --quiet --reps 3 \
    -o "$tmp/default.plat" "$tmp/known.xml" >"$tmp/default.json" 2>"$tmp/err" ||
    fail "calibrate known.xml (default): $(grep -v WARNING "$tmp/err" | head -c 300)"
: >"$tmp/direct"
for bytes in 1024 4096 16384 65536 262144 1048576 4194304; do
    timeout 300 smpirun -no-privatize --log=root.thres:warning --cfg=smpi/simulate-computation:no \
        -platform "$tmp/known.xml" -hostfile "$tmp/two.hosts" -np 2 "$tmp/pingpong" $bytes 5 >>"$tmp/direct" 2>"$tmp/err" ||
        fail "pingpong $bytes: $(grep -v WARNING "$tmp/err" | head -c 300)"
done
timeout 300 smpirun -no-privatize --log=root.thres:warning -platform "$tmp/known.xml" \
    -hostfile "$tmp/known.hosts" -np 3 "$run_smpi" --calibrate --json --quiet --reps 3 \
    --sizes 64KiB,256KiB,1MiB,4MiB -o "$tmp/large.plat" "$tmp/known.xml" >"$tmp/large.json" 2>"$tmp/err" ||
    fail "calibrate known.xml (default, large): $(grep -v WARNING "$tmp/err" | head -c 300)"
echo "2. default configuration, h0 -> h1, calibration / direct ping-pong per size:"
python3 - "$tmp/default.json" "$tmp/direct" "$tmp/large.json" <<'PY' || fail "default configuration: the calibration is not SimGrid's cost"
import json, sys
d = json.load(open(sys.argv[1]))
h = next(h for h in d["hops"] if (h["src"], h["dst"]) == ("h0", "h1"))
direct = {int(l.split()[0]): float(l.split()[1]) for l in open(sys.argv[2])}
ok = True
gaps = []
for s, pp in zip(d["sizes"], h["pingpong"]):
    ref = direct[int(s)]
    good = s < 65536 or abs(pp / ref - 1) <= 0.01
    ok &= good
    gaps.append(ref - pp)
    print("  %8d B: %.6g s / %.6g s = %.4f, %.2f us less%s" % (
        s, pp, ref, pp / ref, 1e6 * (ref - pp), "" if good else "  <- FAIL"))
# the blocking MPI_Send / MPI_Recv of pingpong.c pay a constant few
# microseconds more per message than the executor's MPI_Isend / MPI_Irecv
if max(gaps) - min(gaps) > 1e-6 or max(gaps) > 20e-6:
    print("  <- FAIL: not the same cost up to a constant of a few microseconds")
    ok = False
print("  fit over 1 KiB-4 MiB: %.6g s + s / %.6g B/s, error up to %.1f%% (SMPI's factors are piecewise)"
      % (h["alpha"], h["bandwidth"], 100 * h["fit_max_error"]))
large = json.load(open(sys.argv[3]))
for h in large["hops"]:
    good = h["fit_max_error"] <= 0.01
    ok &= good
    if (h["src"], h["dst"]) == ("h0", "h1") or not good:
        print("  fit over 64 KiB-4 MiB, %s -> %s: %.6g s + s / %.6g B/s, error up to %.2f%%%s" % (
            h["src"], h["dst"], h["alpha"], h["bandwidth"], 100 * h["fit_max_error"],
            "" if good else "  <- FAIL"))
sys.exit(0 if ok else 1)
PY

# 3. default configuration, the SimGrid examples: plan on the calibrated platform, run
echo "3. default configuration, operations of 1 MiB, achieved / calibrated optimum (replay):"
for plat in examples/platforms/sg-*.xml; do
    name=$(basename "$plat" .xml)
    ops=$ops_default
    "$steady" export --hostfile "$tmp/p.hosts" "$plat" || { fail "export --hostfile $plat"; continue; }
    np=$(wc -l <"$tmp/p.hosts")
    timeout 300 smpirun -no-privatize --log=root.thres:warning -platform "$plat" -hostfile "$tmp/p.hosts" \
        -np "$np" "$run_smpi" --calibrate --quiet --reps 2 --sizes 64KiB,256KiB,1MiB,4MiB \
        -o "$tmp/$name.plat" "$plat" >"$tmp/cal.txt" 2>"$tmp/err" ||
        { fail "calibrate $plat: $(grep -v WARNING "$tmp/err" | head -c 300)"; continue; }
    line="  $name, $ops operations:"
    for op in scatter reduce broadcast; do
        s="$tmp/$op.sched"
        "$steady" plan --op $op --series "$ops" -o "$s" "$tmp/$name.plat" >/dev/null 2>"$tmp/err" ||
            { fail "plan --op $op on calibrated $name: $(head -1 "$tmp/err")"; continue; }
        timeout 300 smpirun -no-privatize --log=root.thres:warning -platform "$plat" -hostfile "$tmp/p.hosts" \
            -np "$np" "$run_smpi" --json --quiet --ops "$ops" "$s" "$tmp/$name.plat" >"$tmp/out" 2>"$tmp/err" ||
            { fail "smpirun $op $name: $(grep -v WARNING "$tmp/err" | head -c 300)"; continue; }
        [ "$(field verified)" = "$ops" ] || { fail "$op $name: verified $(field verified) of $ops"; continue; }
        r=$(field ratio)
        field achieved >"$tmp/$name-$op.achieved"
        rp=$("$steady" replay --json --ops "$ops" "$s" "$tmp/$name.plat" | python3 -c 'import json,sys; print(json.load(sys.stdin)["ratio"])')
        line=$(printf '%s %s %.4f (%.4f)' "$line" $op "$r" "$rp")
        python3 -c 'import sys; r, rp = map(float, sys.argv[1:3]); sys.exit(0 if abs(r - rp) <= 0.05 and r >= 0.85 else 1)' "$r" "$rp" ||
            fail "$op $name: ratio $r (replay $rp): not within 0.05 of the replay, or below 0.85"
    done
    echo "$line"
    [ "$name" = sg-two-sites ] || continue
    # the WAN hop's recv-factor against a direct measurement
    smpicc -O2 -o "$tmp/recvsend" bench/recvsend.c 2>"$tmp/err" || { fail "smpicc recvsend.c: $(head -c 300 "$tmp/err")"; continue; }
    rank() { grep -nx "$1" "$tmp/p.hosts" | cut -d: -f1 | awk '{print $1 - 1}'; }
    for feed in "0 4194304" "10000 4194304 $(rank b-0)"; do
        # shellcheck disable=SC2086
        timeout 300 smpirun -no-privatize --log=root.thres:warning --cfg=smpi/simulate-computation:no \
            -platform "$plat" -hostfile "$tmp/p.hosts" -np "$np" "$tmp/recvsend" "$(rank b-1)" "$(rank a-3)" \
            10 4194304 $feed 2>/dev/null | awk '/^stream/ {print $2}'
    done >"$tmp/direct" || fail "recvsend b-1 -> a-3"
    python3 - "$tmp/$name.plat" "$tmp/direct" "$tmp/cal.txt" <<'PY' || fail "sg-two-sites: the WAN hop's recv-factor is not the direct measurement's"
import sys
edge = next(l.split() for l in open(sys.argv[1]) if l.startswith("edge b-1 a-3 "))
attrs = dict(a.split("=", 1) for a in edge[3:])
# the recv-factor as measured (the report's last column): the file models
# its cause, SimGrid's cross traffic, and does not write it
row = next(l.split() for l in open(sys.argv[3]) if l.startswith("b-1 -> a-3 "))
alpha, rf = float(attrs["latency"]), float(row[9])
assert "recv-factor" not in attrs, "a recv-factor written beside crosstraffic"
assert any(l.split()[:1] == ["flows"] and "crosstraffic=0.05" in l for l in open(sys.argv[1])), \
    "no crosstraffic=0.05 on the flows line"
alone, fed = (float(t) / 10 for t in open(sys.argv[2]).read().split())
direct = (alone - alpha) / (fed - alpha)
print("  sg-two-sites, b-1 -> a-3 while b-0 feeds b-1: recv-factor %.4g, direct %.4f" % (rf, direct))
sys.exit(0 if abs(rf / direct - 1) <= 0.02 else 1)
PY
done

# 3b. cross traffic: on a fat tree of split-duplex links (SimGrid's own
# cluster_fat_tree.xml, tests/sg/clusters/fat-tree-16.xml) a hop across
# the core meets its feeder's data on its sender's down link with its own
# acknowledgements, and SimGrid's penalties give it half of the link (the
# recv-factor of 0.503 a calibration measured and wrote before, which held
# the broadcast's chain to 0.618 in the replay where SMPI ran 0.799).  The
# calibration declares crosstraffic=0.05 and the replay models it: the
# broadcast planned on it replays what SMPI measures within 0.01.
plat=tests/sg/clusters/fat-tree-16.xml
"$steady" export --hostfile "$tmp/ft.hosts" "$plat" >/dev/null || fail "export --hostfile $plat"
ft=(smpirun -no-privatize --log=root.thres:warning -platform "$plat" -hostfile "$tmp/ft.hosts" -np 16)
if timeout 300 "${ft[@]}" "$run_smpi" --calibrate --quiet --reps 2 --sizes 64KiB,256KiB,1MiB,4MiB \
    -o "$tmp/ft.plat" "$plat" >"$tmp/cal.txt" 2>"$tmp/err" &&
    "$steady" plan --op broadcast --series "$ops_default" -o "$tmp/ft.sched" "$tmp/ft.plat" >/dev/null 2>"$tmp/err" &&
    timeout 300 "${ft[@]}" "$run_smpi" --json --quiet --ops "$ops_default" "$tmp/ft.sched" "$tmp/ft.plat" \
        >"$tmp/out" 2>"$tmp/err"; then
    r=$(field ratio)
    rp=$("$steady" replay --json --ops "$ops_default" "$tmp/ft.sched" "$tmp/ft.plat" | python3 -c 'import json,sys; print(json.load(sys.stdin)["ratio"])')
    echo "  fat-tree-16 broadcast, $ops_default operations: $r (replay $rp)"
    grep -q '^flows penalty weight-S=8775 crosstraffic=0.05$' "$tmp/ft.plat" || fail "fat-tree-16: no crosstraffic=0.05 declared"
    ! grep -q 'recv-factor=' "$tmp/ft.plat" || fail "fat-tree-16: a recv-factor written beside crosstraffic"
    [ "$(field verified)" = "$ops_default" ] || fail "fat-tree-16 broadcast: verified $(field verified)"
    python3 -c 'import sys; sys.exit(0 if abs(float(sys.argv[1]) - float(sys.argv[2])) <= 0.01 else 1)' "$r" "$rp" ||
        fail "fat-tree-16 broadcast: ratio $r, replay $rp: not within 0.01"
else
    fail "fat-tree-16: $(grep -v WARNING "$tmp/err" | head -c 300)"
fi

# 4. compare --calibrated under the default configuration: on each
# example, the lp-schedule row, planned on the calibrated platform, is the
# direct run of part 3, and it beats, measured in the same run, the MPI
# library's own collective (MPI_Reduce / MPI_Bcast with SMPI's default
# selection, what a program calling them gets under this configuration)
# and the two-tree algorithms by 1.3 times or more -- except on
# sg-crossbar, where 1.15 (1.19 measured): there TwoTreeC runs at 0.79 of
# the calibrated optimum (85.4 of 107.6 operations/s; the LPs charge
# SimGrid's cross traffic, 47/49 of the bandwidth's bound), so 1.3 times
# it is more than any schedule can reach under SimGrid's model; the test
# checks that this still holds where it takes 1.15 (docs/calibration.md,
# "Against MPI's collectives").  The two-site reduce also runs SMPI's
# named reduce algorithms (rows mpi:NAME), and beats them all by 1.3.
ops=$ops_default
echo "4. compare --calibrated, default configuration, $ops operations, lp-schedule / best rival:"
for plat in examples/platforms/sg-*.xml; do
    name=$(basename "$plat" .xml)
    [ -f "$tmp/$name.plat" ] || continue
    least=1.3
    [ "$name" = sg-crossbar ] && least=1.15
    for op in reduce broadcast; do
        rows=lp-schedule,mpi:default,twotreec,twotrees
        # the rows counted (steady-run's own binomial, binary, chain and
        # flat trees are not rivals here)
        [ "$name-$op" = sg-two-sites-reduce ] && rows=$rows,mpi:binomial,mpi:ompi_chain,mpi:ompi_in_order_binary
        timeout 600 "$steady" compare --op $op --measure smpi --smpi-cfg default --calibrated "$tmp/$name.plat" \
            --ops "$ops" --rows "$rows" --json --quiet "$plat" >"$tmp/cmp.json" 2>"$tmp/err" ||
            { fail "compare --calibrated $name $op: $(grep -v WARNING "$tmp/err" | head -c 300)"; continue; }
        optimum=$("$steady" solve --json --op $op "$tmp/$name.plat" | python3 -c 'import json,sys; print(json.load(sys.stdin)["throughput"]["value"])')
        python3 - "$tmp/cmp.json" "$(cat "$tmp/$name-$op.achieved" 2>/dev/null)" "$name" $least "$optimum" <<'PY' ||
import json, sys
d = json.load(open(sys.argv[1]))
direct, name, least, optimum = float(sys.argv[2]), sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
rows = {a["name"]: a["measured_throughput"] for a in d["algorithms"] if a["measured_throughput"]}
lp = rows["lp-schedule"]
rivals = {k: v for k, v in rows.items() if k.startswith(("mpi:", "twotree"))}
best = max(rivals, key=rivals.get)
print("  %-12s %-9s lp-schedule %8.4f ops/s (direct run %8.4f), %2d rivals, best %-16s %8.4f: %.2fx (>= %g)"
      % (name, d["op"], lp, direct, len(rivals), best, rivals[best], lp / rivals[best], least))
assert d["lp_platform"] and abs(lp / direct - 1) <= 1e-6, "not the direct run"
assert lp >= least * rivals[best], "below %g times %s" % (least, best)
assert least == 1.3 or 1.3 * rivals[best] > optimum, \
    "1.3 times %s is %.4f, within the calibrated optimum %.4f: 1.3 is reachable" % (best, 1.3 * rivals[best], optimum)
PY
            fail "compare --calibrated $name $op: see above"
    done
done

[ "$failures" -eq 0 ] && echo "PASS calibrate"
exit $((failures > 0))
