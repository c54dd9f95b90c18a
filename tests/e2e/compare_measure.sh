#!/bin/bash
# End-to-end test of `steady compare --measure smpi` (docs/comparison.md,
# "Measured under SMPI"): every row of the table measured under SMPI.
#
#  1. A generated heterogeneous platform (random, 5 processors, seed 1, its
#     latencies set to 0 so that SimGrid simulates the one-port model,
#     docs/running.md), a broadcast of 16 KiB messages, 100 operations per
#     row: every row has a measured throughput; the algorithms and the LP
#     schedule stay below the optimum (x 1.001: SMPI ranks time from their
#     own exit of the starting barrier); the LP schedule reaches 0.9 of it;
#     the rows are the algorithms, lp-schedule, mpi:default and four
#     mpi:NAME; the report names the tuned configuration.
#  2. The chart has a measured (green) bar per row.
#  3. The lp-schedule row is the schedule run as a direct `smpirun ...
#     steady-run-smpi` runs its file: the same platform with its latencies,
#     1 MiB messages planned whole and in 4 segments (`--segments`), compare's
#     measured and planned throughputs equal those of `steady plan --series
#     20` run directly, within SimGrid's precision (it once ran every
#     segment with the whole message: a quarter of the throughput in 4).
#  4. --smpi-cfg: the tuned flags given by hand measure exactly what tuned
#     does, row by row; `default` (SimGrid's own configuration) measures
#     every row, the schedule differently, and says so.
#  5. --rows: only the rows named run, each measuring what it measures in
#     a run of every row (part 1's); an algorithm not run keeps its model,
#     with no measured value; lp-schedule and mpi:NAME rows not run are left
#     out; a name that is no row of the operation is a usage error.
#  6. steady without steady-run-smpi beside it, or without smpirun: one
#     line, exit 1; usage errors.
# tests/e2e/compare_stop.sh tests the row timeout, the signals and the
# temporary files.
#
#   tests/e2e/compare_measure.sh BUILD_DIR      (from the repository root)
set -u
build=${1:?usage: tests/e2e/compare_measure.sh BUILD_DIR}
steady="$build/steady"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
    echo "FAIL compare_measure: $*"
    failures=$((failures + 1))
}
for tool in smpirun python3; do
    command -v "$tool" >/dev/null || {
        echo "FAIL compare_measure: $tool not found (scripts/bootstrap installs it)"
        exit 1
    }
done
for bin in "$steady" "$build/steady-run-smpi"; do
    [ -x "$bin" ] || {
        echo "FAIL compare_measure: $bin is not built (run make)"
        exit 1
    }
done
# the tuned configuration (docs/running.md; tests/e2e/lib/executor.bash)
tuned=(--cfg=smpi/simulate-computation:no --cfg=smpi/bw-factor:0:1 --cfg=smpi/lat-factor:0:1
    --cfg=network/TCP-gamma:0 --cfg=network/crosstraffic:0 --cfg=smpi/wtime:0)

"$steady" gen --kind random --nodes 5 --seed 1 -o "$tmp/r.plat"
sed 's/latency=[^ ]*/latency=0/' "$tmp/r.plat" >"$tmp/z.plat"

timeout 120 "$steady" compare --op broadcast --measure smpi --ops 100 --msg-size 16KiB --json \
    -o "$tmp/c.svg" "$tmp/z.plat" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 0 ] || fail "compare --measure smpi: exit $st: $(head -c 300 "$tmp/err")"
cp "$tmp/out" "$tmp/all.json"
python3 - "$tmp/out" "${tuned[@]}" <<'PY' 2>"$tmp/why" || fail "compare --measure smpi --json: $(tail -1 "$tmp/why")"
import json, sys
d = json.load(open(sys.argv[1]))
opt = d["optimum"]
assert d["measured_ops"] == 100, d["measured_ops"]
assert d["smpi_cfg"] == {"name": "tuned", "flags": sys.argv[2:]}, d["smpi_cfg"]
assert d["row_timeout"] == 600 and d["timed_out"] == 0, d
rows = {a["name"]: a for a in d["algorithms"]}
want = ["twotreec", "twotrees", "binomial", "binary", "chain", "flat", "lp-schedule", "mpi:default",
        "mpi:binomial_tree", "mpi:scatter_rdb_allgather", "mpi:ompi_pipeline", "mpi:NTSL"]
assert [a["name"] for a in d["algorithms"]] == want, list(rows)
for a in d["algorithms"]:
    m = a["measured_throughput"]
    assert isinstance(m, float) and m > 0, a
    assert a["timed_out"] is False, a
    assert a["segments"] == (1 if a["name"] == "lp-schedule" else None), a
    assert abs(a["measured_ratio"] - m / opt) <= 1e-12 * a["measured_ratio"], a
    if a["name"].startswith("mpi:"):
        assert a["model_throughput"] is None and a["ratio"] is None, a
    else:
        # the one-port model bounds the executor's algorithms and the schedule
        assert m <= 1.001 * opt, "%s measured %g > optimum %g" % (a["name"], m, opt)
        assert m <= 1.001 * a["model_throughput"], a
lp = rows["lp-schedule"]
assert lp["measured_throughput"] >= 0.9 * opt, "lp-schedule %g < 0.9 x %g" % (lp["measured_throughput"], opt)
assert lp["model_throughput"] <= opt * (1 + 1e-9)
PY
python3 - "$tmp/c.svg" <<'PY' || fail "measured chart"
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
bars = [r for r in ET.parse(sys.argv[1]).getroot().iter(ns + "rect") if r.find(ns + "title") is not None]
measured = [b for b in bars if "measured" in b.find(ns + "title").text]
assert len(measured) == 12 and len(bars) == 6 + 1 + 12, (len(bars), len(measured))
PY

# the text table: a measured value and ratio on the lp-schedule row
timeout 120 "$steady" compare --op reduce --measure smpi --ops 20 --msg-size 16KiB "$tmp/z.plat" \
    >"$tmp/out" 2>"$tmp/err" || fail "compare --op reduce --measure smpi: $(head -c 300 "$tmp/err")"
grep -q '^lp-schedule  *-  *[0-9.]*  *[01]\.[0-9]*  *[0-9.]*  *[01]\.[0-9]* ' "$tmp/out" ||
    fail "reduce table: no measured lp-schedule row: $(grep lp-schedule "$tmp/out")"
grep -q '^mpi:ompi_chain  *-  *-  *-  *[0-9.]* .* commutative ' "$tmp/out" ||
    fail "reduce table: no mpi:ompi_chain row"
grep -q '^mpi:default  *-  *-  *-  *[0-9.]* .* commutative ' "$tmp/out" ||
    fail "reduce table: no mpi:default row"
grep -qx 'smpi config  tuned: SimGrid.s network held to the one-port model' "$tmp/out" &&
    grep -qx '             --cfg=smpi/simulate-computation:no --cfg=smpi/bw-factor:0:1' "$tmp/out" ||
    fail "reduce table: no tuned configuration: $(grep -A1 '^smpi config' "$tmp/out")"
grep -qx 'lp-schedule  1 segment of 16 KiB per operation (steady plan --series 20)' "$tmp/out" ||
    fail "reduce table: $(grep '^lp-schedule  [0-9]' "$tmp/out")"

# 3. the lp-schedule row is the schedule run as a direct smpirun of its file
# would run it: the platform with its latencies, 1 MiB whole and in 4 segments
"$steady" export --format simgrid "$tmp/r.plat" -o "$tmp/r.xml" --hostfile "$tmp/r.hosts"
for m in 1 4; do
    timeout 120 "$steady" compare --op broadcast --measure smpi --ops 20 --segments $m --json \
        "$tmp/r.plat" >"$tmp/seg$m.json" 2>"$tmp/err" ||
        { fail "compare --segments $m: $(head -c 300 "$tmp/err")"; continue; }
    "$steady" plan --op broadcast --series 20 --segments $m -o "$tmp/seg$m.sched" "$tmp/r.plat" \
        >"$tmp/err" 2>&1 &&
        timeout 120 smpirun -no-privatize "${tuned[@]}" --log=root.thres:warning -platform "$tmp/r.xml" \
            -hostfile "$tmp/r.hosts" -np 5 "$build/steady-run-smpi" --json --ops 20 "$tmp/seg$m.sched" \
            "$tmp/r.plat" >"$tmp/direct$m.json" 2>"$tmp/err" ||
        { fail "direct run, $m segments: $(grep -v WARNING "$tmp/err" | head -c 300)"; continue; }
    python3 - "$tmp/seg$m.json" "$tmp/direct$m.json" $m <<'PY' 2>"$tmp/why" || fail "lp-schedule in $m segments: $(tail -1 "$tmp/why")"
import json, sys
c = {a["name"]: a for a in json.load(open(sys.argv[1]))["algorithms"]}["lp-schedule"]
d = json.load(open(sys.argv[2]))
m = int(sys.argv[3])
assert c["segments"] == m and d["verified"] == 20, (c, d["verified"])
# the schedule steady plan writes (its throughput per operation), measured
# as the direct run measures it, within SimGrid's precision
assert abs(c["model_throughput"] - d["planned"]) <= 1e-12 * d["planned"], (c, d["planned"])
assert abs(c["measured_throughput"] - d["achieved"]) <= 1e-9 * d["achieved"], (c, d["achieved"])
print("  lp-schedule, 1 MiB in %d segment%s: compare %.6f, direct run %.6f (optimum %.6f)"
      % (m, "s" if m > 1 else "", c["measured_throughput"], d["achieved"], d["optimum"]))
PY
done

# 4. --smpi-cfg: the tuned flags by hand measure what tuned does, row by
# row; SimGrid's default configuration measures every row, differently
timeout 120 "$steady" compare --op broadcast --measure smpi --ops 20 --segments 4 --json \
    --smpi-cfg "${tuned[*]}" "$tmp/r.plat" >"$tmp/user.json" 2>"$tmp/err" ||
    fail "compare --smpi-cfg FLAGS: $(head -c 300 "$tmp/err")"
timeout 120 "$steady" compare --op broadcast --measure smpi --ops 20 --segments 4 --json \
    --smpi-cfg default "$tmp/r.plat" >"$tmp/default.json" 2>"$tmp/err" ||
    fail "compare --smpi-cfg default: $(head -c 300 "$tmp/err")"
python3 - "$tmp/seg4.json" "$tmp/user.json" "$tmp/default.json" "${tuned[@]}" <<'PY' 2>"$tmp/why" || fail "--smpi-cfg: $(tail -1 "$tmp/why")"
import json, sys
tuned, user, default = (json.load(open(f)) for f in sys.argv[1:4])
assert user["smpi_cfg"] == {"name": "user", "flags": sys.argv[4:]}, user["smpi_cfg"]
assert default["smpi_cfg"] == {"name": "default", "flags": []}, default["smpi_cfg"]
assert len(tuned["algorithms"]) == len(user["algorithms"]) == len(default["algorithms"]) == 12
for t, u, d in zip(tuned["algorithms"], user["algorithms"], default["algorithms"]):
    assert t["name"] == u["name"] == d["name"], (t, u, d)
    assert abs(u["measured_throughput"] - t["measured_throughput"]) <= 1e-9 * t["measured_throughput"], (t, u)
    assert d["measured_throughput"] > 0, d
lt, ld = (x["algorithms"][6] for x in (tuned, default))
assert lt["name"] == "lp-schedule" and abs(ld["measured_throughput"] / lt["measured_throughput"] - 1) > 0.01, (lt, ld)
print("  lp-schedule, 1 MiB in 4 segments: tuned %.6f, default configuration %.6f"
      % (lt["measured_throughput"], ld["measured_throughput"]))
PY

# 5. --rows: part 1 again, three of its rows
timeout 120 "$steady" compare --op broadcast --measure smpi --ops 100 --msg-size 16KiB --json \
    --rows mpi:default,twotrees,lp-schedule "$tmp/z.plat" >"$tmp/rows.json" 2>"$tmp/err" ||
    fail "compare --rows: $(head -c 300 "$tmp/err")"
python3 - "$tmp/all.json" "$tmp/rows.json" <<'PY' 2>"$tmp/why" || fail "--rows: $(tail -1 "$tmp/why")"
import json, sys
every, some = (json.load(open(f)) for f in sys.argv[1:3])
assert some["rows"] == ["mpi:default", "twotrees", "lp-schedule"] and every["rows"] is None, some["rows"]
full = {a["name"]: a for a in every["algorithms"]}
names = [a["name"] for a in some["algorithms"]]
assert names == ["twotreec", "twotrees", "binomial", "binary", "chain", "flat", "lp-schedule",
                 "mpi:default"], names
for a in some["algorithms"]:
    f = full[a["name"]]
    assert a["model_throughput"] == f["model_throughput"], (a, f)
    if a["name"] in some["rows"]:
        assert abs(a["measured_throughput"] / f["measured_throughput"] - 1) <= 1e-9, (a, f)
    else:
        assert a["measured_throughput"] is None and a["timed_out"] is False, a
PY
timeout 120 "$steady" compare --op broadcast --measure smpi --ops 20 --rows chain "$tmp/z.plat" \
    >"$tmp/out" 2>"$tmp/err" || fail "compare --rows chain: $(head -c 300 "$tmp/err")"
grep -qx 'rows run     chain (--rows; the others: -)' "$tmp/out" &&
    grep -q '^chain  *[0-9]*  *[0-9.]*  *[01]\.[0-9]*  *[0-9.]*  *[01]\.[0-9]* ' "$tmp/out" &&
    grep -q '^binomial  *[0-9]*  *[0-9.]*  *[01]\.[0-9]*  *-  *- ' "$tmp/out" &&
    ! grep -q '^\(lp-schedule\|mpi:[A-Za-z_]*\)  *-  ' "$tmp/out" ||
    fail "compare --rows chain: the table: $(head -c 600 "$tmp/out")"
for bad in "--op broadcast --rows lp-schedule,twotreec+c|--rows: no row twotreec+c for --op broadcast" \
    "--op allreduce --rows lp-schedule|--rows: no row lp-schedule for --op allreduce" \
    "--op reduce --rows mpi:NTSL|--rows: no row mpi:NTSL for --op reduce" \
    "--op reduce --rows ,|--rows takes row names separated by commas"; do
    # shellcheck disable=SC2086
    "$steady" compare --measure smpi ${bad%%|*} "$tmp/z.plat" >"$tmp/out" 2>"$tmp/err"
    st=$?
    [ $st -eq 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "^steady compare: ${bad#*|}" "$tmp/err" &&
        [ ! -s "$tmp/out" ] || fail "compare ${bad%%|*}: exit $st, '$(cat "$tmp/err")'"
done
"$steady" compare --op reduce --rows chain "$tmp/z.plat" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(cat "$tmp/err")" = "steady compare: --rows goes with --measure smpi (see 'steady compare --help')" ] ||
    fail "--rows without --measure: '$(cat "$tmp/err")'"

# 6. steady alone, without steady-run-smpi next to it
mkdir "$tmp/alone"
cp "$steady" "$tmp/alone/steady"
"$tmp/alone/steady" compare --op broadcast --measure smpi "$tmp/z.plat" >"$tmp/out" 2>"$tmp/err"
st=$?
want="steady compare: --measure smpi: steady-run-smpi not found next to steady ($tmp/alone/steady-run-smpi; 'make' builds it)"
[ $st -eq 1 ] || fail "without steady-run-smpi: exit $st (want 1)"
[ "$(cat "$tmp/err")" = "$want" ] || fail "without steady-run-smpi: '$(cat "$tmp/err")', want '$want'"
[ -s "$tmp/out" ] && fail "without steady-run-smpi: something on standard output"
# no smpirun in PATH
PATH=/nonexistent "$steady" compare --op broadcast --measure smpi "$tmp/z.plat" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 1 ] && [ "$(cat "$tmp/err")" = "steady compare: --measure smpi: smpirun not found in PATH (install SimGrid: scripts/bootstrap)" ] ||
    fail "without smpirun: exit $st, '$(cat "$tmp/err")'"
# usage
"$steady" compare --op broadcast --measure mpich "$tmp/z.plat" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(cat "$tmp/err")" = "steady compare: --measure takes smpi (mpich) (see 'steady compare --help')" ] ||
    fail "--measure mpich: '$(cat "$tmp/err")'"

if [ "$failures" -eq 0 ]; then
    echo "PASS compare_measure"
else
    exit 1
fi
