#!/bin/bash
# End-to-end test of how `steady compare --measure smpi` ends (docs/comparison.md,
# "Measured under SMPI"): its temporary folder (exported platform, hostfile,
# schedule, run reports) is gone on every way out, and no simulation outlives
# it.  Every compare runs with TMPDIR set to a folder of its own, which must
# be empty afterwards.
#
#  1. A normal run; the progress line (on a terminal: the row measured, its
#     number, its time) and none under --quiet or without a terminal.
#  2. --row-timeout: a run that never ends (an smpirun in front of the real
#     one in PATH that sleeps for the chain row) is stopped after the
#     timeout, its row reported as timed out, every other row measured;
#     exit 1 with one line naming the row; the sleeper is gone.
#  3. A run that fails: exit 1, one line naming the row and the run's error.
#  4. SIGTERM, and SIGINT (a job with its own process group, as a terminal's
#     Ctrl-C reaches it) while a row runs: compare dies of that signal, its
#     smpirun and the simulator are gone.
#
#   tests/e2e/compare_stop.sh BUILD_DIR      (from the repository root)
set -u
build=${1:?usage: tests/e2e/compare_stop.sh BUILD_DIR}
steady="$build/steady"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
    echo "FAIL compare_stop: $*"
    failures=$((failures + 1))
}
for tool in smpirun python3 pgrep; do
    command -v "$tool" >/dev/null || {
        echo "FAIL compare_stop: $tool not found (scripts/bootstrap installs it)"
        exit 1
    }
done
for bin in "$steady" "$build/steady-run-smpi"; do
    [ -x "$bin" ] || {
        echo "FAIL compare_stop: $bin is not built (run make)"
        exit 1
    }
done
mkdir "$tmp/t"
# empty WHAT: compare left nothing in its TMPDIR
empty() {
    [ -z "$(ls -A "$tmp/t")" ] || fail "$1: left behind in TMPDIR: $(ls -A "$tmp/t")"
    rm -rf "${tmp:?}/t/"*
}
# alive PID: the process exists and is not a zombie
alive() {
    local state
    state=$(ps -o stat= -p "$1" 2>/dev/null) && [ "${state#Z}" = "$state" ]
}

"$steady" gen --kind random --nodes 5 --seed 1 -o "$tmp/r.plat"
sed 's/latency=[^ ]*/latency=0/' "$tmp/r.plat" >"$tmp/z.plat"

# 1. a normal run, on a terminal (script gives it one) and with --quiet
if command -v script >/dev/null; then
    for quiet in "" --quiet; do
        script -qec "TMPDIR=$tmp/t timeout --foreground 120 $steady compare --op reduce --measure smpi --ops 20 \
            $quiet $tmp/r.plat >$tmp/out" /dev/null >"$tmp/tty" 2>&1 ||
            fail "compare on a terminal $quiet: $(tail -c 300 "$tmp/tty")"
        n=$(tr '\r' '\n' <"$tmp/tty" |
            grep -cE '^steady compare: measuring [a-z:_+-]+ \(row [0-9]+/11, [0-9]+ s\), [0-9.]+ s')
        if [ -z "$quiet" ]; then
            [ "$n" -gt 0 ] || fail "no progress line on a terminal: $(tail -c 300 "$tmp/tty")"
        else
            [ "$n" -eq 0 ] || fail "a progress line under --quiet"
        fi
        grep -q '^mpi:ompi_in_order_binary  *-  *-  *-  *[0-9.]' "$tmp/out" ||
            fail "compare on a terminal $quiet: no table"
        empty "a normal run $quiet"
    done
fi
TMPDIR="$tmp/t" timeout 120 "$steady" compare --op broadcast --measure smpi --ops 20 "$tmp/r.plat" \
    >"$tmp/out" 2>"$tmp/err" || fail "compare: $(head -c 300 "$tmp/err")"
[ -s "$tmp/err" ] && fail "compare without a terminal: standard error '$(head -c 300 "$tmp/err")'"
empty "a normal run"

# an smpirun in front of the real one: SLEEP for the row of `--algo chain`
# (its pid in $tmp/sleeper), FAIL a run that ends with status 3 for it
mkdir "$tmp/bin"
cat >"$tmp/bin/smpirun" <<EOF
#!/bin/sh
case "\$*" in
*"--algo chain "*)
    case "\$STOP_TEST" in
    SLEEP) echo \$\$ >"$tmp/sleeper"; exec sleep 600 ;;
    FAIL) echo "steady-run: the chain broke" >&2; exit 3 ;;
    esac ;;
esac
exec $(command -v smpirun) "\$@"
EOF
chmod +x "$tmp/bin/smpirun"

# 2. --row-timeout
STOP_TEST=SLEEP PATH="$tmp/bin:$PATH" TMPDIR="$tmp/t" timeout 120 "$steady" compare --op broadcast \
    --measure smpi --ops 20 --msg-size 16KiB --row-timeout 3 --json "$tmp/z.plat" >"$tmp/out" 2>"$tmp/err"
st=$?
[ $st -eq 1 ] || fail "--row-timeout: exit $st (want 1): $(head -c 300 "$tmp/err")"
want="steady compare: --measure smpi: 1 row timed out (--row-timeout 3): chain"
[ "$(cat "$tmp/err")" = "$want" ] || fail "--row-timeout: '$(cat "$tmp/err")', want '$want'"
python3 - "$tmp/out" <<'PY' 2>"$tmp/why" || fail "--row-timeout --json: $(tail -1 "$tmp/why")"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["row_timeout"] == 3 and d["timed_out"] == 1, d
assert len(d["algorithms"]) == 12, d["algorithms"]
for a in d["algorithms"]:
    if a["name"] == "chain":
        assert a["timed_out"] is True and a["measured_throughput"] is None, a
    else:
        assert a["timed_out"] is False and a["measured_throughput"] > 0, a
PY
[ -s "$tmp/sleeper" ] || fail "--row-timeout: the chain row did not sleep"
[ -s "$tmp/sleeper" ] && alive "$(cat "$tmp/sleeper")" && fail "--row-timeout: the sleeping run is still there"
empty "--row-timeout"
# the table says it
STOP_TEST=SLEEP PATH="$tmp/bin:$PATH" TMPDIR="$tmp/t" timeout 120 "$steady" compare --op reduce \
    --measure smpi --ops 5 --msg-size 16KiB --row-timeout 0.5 "$tmp/z.plat" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ] && grep -q '^chain  *64  *[0-9.]*  *[01]\.[0-9]*  *timed out  *-  ' "$tmp/out" &&
    grep -qx '(timed out: the row.s run was stopped after 0.5 s of wall time, --row-timeout)' "$tmp/out" ||
    fail "--row-timeout table: $(grep '^chain' "$tmp/out")"
empty "--row-timeout, reduce"

# 3. a run that fails
STOP_TEST=FAIL PATH="$tmp/bin:$PATH" TMPDIR="$tmp/t" timeout 120 "$steady" compare --op broadcast \
    --measure smpi --ops 5 --msg-size 16KiB "$tmp/z.plat" >"$tmp/out" 2>"$tmp/err"
st=$?
want="steady compare: --measure smpi: chain: smpirun exited with status 3: steady-run: the chain broke"
[ $st -eq 1 ] && [ "$(cat "$tmp/err")" = "$want" ] || fail "a failed run: exit $st, '$(cat "$tmp/err")'"
[ -s "$tmp/out" ] && fail "a failed run: something on standard output"
empty "a failed run"

# 4. SIGTERM and SIGINT while a row runs (tiers, 200 operations: seconds per
# row): the folder exists and a run has started when the signal comes
for sig in TERM INT; do
    [ $sig = INT ] && set -m # its own process group, SIGINT not ignored
    TMPDIR="$tmp/t" timeout 120 "$steady" compare --op broadcast --measure smpi --ops 200 \
        examples/platforms/tiers.plat >"$tmp/out" 2>"$tmp/err" &
    job=$!
    set +m
    for _ in $(seq 200); do
        ls "$tmp"/t/*/run.stderr >/dev/null 2>&1 && break
        sleep 0.05
    done
    pid=$(pgrep -P $job -x steady)
    smpirun=$(pgrep -P "$pid")
    sim=$(pgrep -P "$smpirun")
    [ -n "$smpirun" ] && [ -n "$sim" ] || fail "SIG$sig: no run under way ($pid: '$smpirun' '$sim')"
    kill -$sig "$pid"
    wait $job
    st=$?
    want=$((128 + $(kill -l $sig)))
    # timeout passes on how its child died
    [ $st -eq $want ] || fail "SIG$sig: exit $st (want $want): $(head -c 300 "$tmp/err")"
    [ -s "$tmp/out" ] && fail "SIG$sig: something on standard output"
    sleep 0.2 # for init to reap the simulator, whose parent smpirun is gone
    for p in $smpirun $sim; do
        alive "$p" && fail "SIG$sig: $(ps -o args= -p "$p" | cut -c1-60) is still running"
    done
    empty "SIG$sig"
done

if [ "$failures" -eq 0 ]; then
    echo "PASS compare_stop"
else
    exit 1
fi
