#!/bin/bash
# End-to-end test of `steady compare --measure smpi` (docs/comparison.md,
# "Measured"): every row of the table measured under SMPI.
#
#  1. A generated heterogeneous platform (random, 5 processors, seed 1, its
#     latencies set to 0 so that SimGrid simulates the one-port model,
#     docs/running.md), a broadcast of 16 KiB messages, 100 operations per
#     row: every row has a measured throughput; the algorithms and the LP
#     schedule stay below the optimum (x 1.001: SMPI ranks time from their
#     own exit of the starting barrier); the LP schedule reaches 0.9 of it;
#     the rows are the algorithms, lp-schedule and four mpi:NAME.
#  2. The chart has a measured (green) bar per row.
#  3. steady without steady-run-smpi beside it: one line, exit 1.
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

"$steady" gen --kind random --nodes 5 --seed 1 -o "$tmp/r.plat"
sed 's/latency=[^ ]*/latency=0/' "$tmp/r.plat" >"$tmp/z.plat"

timeout 120 "$steady" compare --op broadcast --measure smpi --ops 100 --msg-size 16KiB --json \
    -o "$tmp/c.svg" "$tmp/z.plat" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 0 ] || fail "compare --measure smpi: exit $st: $(head -c 300 "$tmp/err")"
python3 - "$tmp/out" <<'PY' || fail "compare --measure smpi --json: $(tail -1 "$tmp/why")"
import json, sys
d = json.load(open(sys.argv[1]))
opt = d["optimum"]
assert d["measured_ops"] == 100, d["measured_ops"]
rows = {a["name"]: a for a in d["algorithms"]}
want = ["twotreec", "twotrees", "binomial", "binary", "chain", "flat", "lp-schedule",
        "mpi:binomial_tree", "mpi:scatter_rdb_allgather", "mpi:ompi_pipeline", "mpi:NTSL"]
assert [a["name"] for a in d["algorithms"]] == want, list(rows)
for a in d["algorithms"]:
    m = a["measured_throughput"]
    assert isinstance(m, float) and m > 0, a
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
assert len(measured) == 11 and len(bars) == 6 + 1 + 11, (len(bars), len(measured))
PY

# the text table: a measured value and ratio on the lp-schedule row
timeout 120 "$steady" compare --op reduce --measure smpi --ops 20 --msg-size 16KiB "$tmp/z.plat" \
    >"$tmp/out" 2>"$tmp/err" || fail "compare --op reduce --measure smpi: $(head -c 300 "$tmp/err")"
grep -q '^lp-schedule  *-  *[0-9.]*  *[01]\.[0-9]*  *[0-9.]*  *[01]\.[0-9]* ' "$tmp/out" ||
    fail "reduce table: no measured lp-schedule row: $(grep lp-schedule "$tmp/out")"
grep -q '^mpi:ompi_chain  *-  *-  *-  *[0-9.]* .* commutative ' "$tmp/out" ||
    fail "reduce table: no mpi:ompi_chain row"

# steady alone, without steady-run-smpi next to it
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
"$steady" compare --op broadcast --ops 5 "$tmp/z.plat" >/dev/null 2>"$tmp/err"
[ $? -eq 2 ] || fail "--ops without --measure accepted"

if [ "$failures" -eq 0 ]; then
    echo "PASS compare_measure"
else
    exit 1
fi
