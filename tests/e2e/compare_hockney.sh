#!/bin/bash
# End-to-end test of compare's model-based columns (docs/comparison.md,
# "Model-based selection"): the Hockney predictions, the Hoefler-Moor
# memory and energy, the selection per size, and prediction against an
# SMPI measurement.
#
#  1. The selection on four processors linked pairwise (alpha = 1 ms, beta =
#     1e-8 s/B; tests/unit/test_hockney.c derives it): for one operation,
#     the binomial tree and the binary heap (one chunk) at 4 KiB and 64 KiB,
#     the chain and the two-tree algorithms tied at 1 MiB (4 chunks) and
#     16 MiB (16 chunks); for a series, the chain in one chunk at every
#     size; the text table names them too.  The constants on the command
#     line reach the energy: energy = e x messages + E x bytes + power x
#     ranks x time, checked from the JSON's own counts.
#  2. SMPI, under the tuned configuration (steady's one-port model: no
#     latency or bandwidth factors), four processors in a line, 100 MB/s and
#     1 ms latency per link, 256 KiB in 4 chunks, 20 operations per row:
#     every algorithm's measured time per operation within 5% of the
#     Hockney series prediction for broadcast, reduce and allreduce (0.989
#     to 1.025 when written), the chain's and the binomial tree's
#     broadcasts within 2%; and the one-port model of the same table (under
#     the rendezvous cost model: a chunk holds its ports through its
#     latency) a bound the measurement stays within 7% of (the series'
#     fill: 1.00 to 1.05 when written).
#  3. Usage errors: one line, exit 2.
#
#   tests/e2e/compare_hockney.sh BUILD_DIR      (from the repository root)
set -u
build=${1:?usage: tests/e2e/compare_hockney.sh BUILD_DIR}
steady="$build/steady"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
    echo "FAIL compare_hockney: $*"
    failures=$((failures + 1))
}
for tool in smpirun python3; do
    command -v "$tool" >/dev/null || {
        echo "FAIL compare_hockney: $tool not found (scripts/bootstrap installs it)"
        exit 1
    }
done
for bin in "$steady" "$build/steady-run-smpi"; do
    [ -x "$bin" ] || {
        echo "FAIL compare_hockney: $bin is not built (run make)"
        exit 1
    }
done

# 1. the selection on K4
{
    for i in 0 1 2 3; do echo "processor P$i speed=1Gf"; done
    for e in "0 1" "0 2" "0 3" "1 2" "1 3" "2 3"; do
        set -- $e
        echo "link P$1 P$2 bandwidth=100MBps latency=0.6ms overhead=0.4ms"
    done
} >"$tmp/k4.plat"
"$steady" compare --op broadcast --sizes 4KiB,64KiB,1MiB,16MiB --energy-per-message 1e-6 \
    --energy-per-byte 2e-9 --power 3 --descriptor-bytes 64 --json "$tmp/k4.plat" \
    >"$tmp/k4.json" 2>"$tmp/err" || fail "compare --sizes: $(head -c 300 "$tmp/err")"
python3 - "$tmp/k4.json" >"$tmp/why" 2>&1 <<'PY' || fail "selection: $(tail -1 "$tmp/why")"
import json, sys
d = json.load(open(sys.argv[1]))
h = d["hockney"]
assert (h["energy_per_message"], h["energy_per_byte"], h["power"], h["descriptor_bytes"]) == \
    (1e-6, 2e-9, 3, 64), h
assert h["series_ops"] == 200, h["series_ops"]
sel = h["selection"]
assert [s["msg_size"] for s in sel] == [4096, 65536, 1048576, 16777216], sel
small = {("binomial", 1), ("binary", 1)}
for s, want in zip(sel, [small, small, {("twotreec", 4), ("twotrees", 4), ("chain", 4)},
                         {("twotreec", 16), ("twotrees", 16), ("chain", 16)}]):
    got = {(a["name"], a["chunks"]) for a in s["one_op"]["algorithms"]}
    assert got == want, (s["msg_size"], got, want)
    m, C = s["msg_size"], next(iter(want))[1]
    tau = 1e-3 + 1e-8 * m / C
    expect = 2 * tau if C == 1 else (C + 2) * tau
    assert abs(s["one_op"]["value"] - expect) <= 1e-9 * expect, (s["one_op"]["value"], expect)
    got = {(a["name"], a["chunks"]) for a in s["series"]["algorithms"]}
    assert got == {("chain", 1)}, got
for a in d["algorithms"]:
    k = a["hockney"]
    dyn = 1e-6 * k["messages"] + 2e-9 * k["bytes"]
    for t, e in (("one_op", "energy_one_op"), ("series_per_op", "energy_per_op")):
        want = dyn + 3 * 4 * k[t]
        assert abs(k[e] - want) <= 1e-9 * want, (a["name"], e, k[e], want)
    assert k["memory"] == k["buffer_bytes"] + 64 * k["descriptors"], a["name"]
    assert k["buffer_bytes"] == d["msg_size"], a["name"]  # a broadcast holds the message
    assert k["measured_per_op"] is None, a["name"]
PY
"$steady" compare --op broadcast --sizes 4KiB,1MiB "$tmp/k4.plat" >"$tmp/k4.txt" 2>&1 ||
    fail "compare text: $(head -c 300 "$tmp/k4.txt")"
grep -q '^4 KiB  *one op  *binomial (1) = binary (1) ' "$tmp/k4.txt" &&
    grep -q '^1 MiB  *one op  *twotreec (4) = twotrees (4) = chain (4) ' "$tmp/k4.txt" &&
    grep -q '^  *series  *chain (1) ' "$tmp/k4.txt" ||
    fail "text selection: $(grep -A6 '^selection' "$tmp/k4.txt")"

# 2. prediction against SMPI
cat >"$tmp/line.plat" <<'EOF'
platform line4
processor P0 speed=1Gf
processor P1 speed=1Gf
processor P2 speed=1Gf
processor P3 speed=1Gf
link P0 P1 bandwidth=100MBps latency=1ms
link P1 P2 bandwidth=100MBps latency=1ms
link P2 P3 bandwidth=100MBps latency=1ms
EOF
for op in broadcast reduce allreduce; do
    timeout 120 "$steady" compare --op $op --measure smpi --ops 20 --chunks 4 --msg-size 256KiB \
        --json --quiet "$tmp/line.plat" >"$tmp/$op.json" 2>"$tmp/err" ||
        { fail "$op --measure smpi: $(grep -v WARNING "$tmp/err" | head -c 300)"; continue; }
    python3 - "$tmp/$op.json" >"$tmp/why" 2>&1 <<'PY' || fail "$op: $(tail -1 "$tmp/why")"
import json, sys
d = json.load(open(sys.argv[1]))
n = 0
for a in d["algorithms"]:
    k = a["hockney"]
    if k is None:
        continue
    n += 1
    r = k["measured_over_predicted"]
    tol = 0.02 if d["op"] == "broadcast" and a["name"] in ("chain", "binomial") else 0.05
    assert abs(r - 1) <= tol, (a["name"], r, tol)
    one_port = 1 / a["model_throughput"]
    assert one_port * 0.999 <= k["measured_per_op"] <= one_port * 1.07, \
        (a["name"], "one-port model", k["measured_per_op"] / one_port)
    print("%s %.4f" % (a["name"], r))
assert n == {"broadcast": 6, "reduce": 6, "allreduce": 8}[d["op"]], n
PY
done

# 3. usage errors
u="(see 'steady compare --help')"
expect() {
    local want=$1
    shift
    "$@" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    [ $rc -eq 2 ] && [ "$(cat "$tmp/err")" = "$want" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] ||
        fail "$*: exit $rc, $(head -c 300 "$tmp/err")"
}
expect "steady compare: --power takes a number from 0 to 1e12 (-1) $u" \
    "$steady" compare --op broadcast --power -1 "$tmp/k4.plat"
expect "steady compare: --energy-per-byte takes a number from 0 to 1e12 (x) $u" \
    "$steady" compare --op broadcast --energy-per-byte x "$tmp/k4.plat"
expect "steady compare: --sizes: not a number (): use B, kB, MB, GB, KiB, MiB, GiB, or no unit for bytes $u" \
    "$steady" compare --op broadcast --sizes 4KiB,,1MiB "$tmp/k4.plat"
expect "steady compare: --sizes needs a platform with bandwidths (examples/platforms/homogeneous-complete.plat has abstract costs, the same for every size) $u" \
    "$steady" compare --op broadcast --sizes 1MiB examples/platforms/homogeneous-complete.plat

if [ $failures -eq 0 ]; then
    echo "PASS compare_hockney"
else
    exit 1
fi
