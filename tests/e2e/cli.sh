#!/bin/bash
# End-to-end tests of the steady CLI: help, usage errors and exit codes,
# info on every example, exact round trips through every format, generator
# reproducibility.   tests/e2e/cli.sh BUILD_DIR
set -u
steady="$1/steady"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL cli: $*"; failures=$((failures + 1)); }

# expect STATUS CMD...: runs CMD, checks its exit status
expect() {
    local want=$1
    shift
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    [ "$got" -eq "$want" ] || fail "exit $got (want $want): $* :: $(head -c 300 "$tmp/err")"
}

# one_line STATUS CMD...: CMD exits with STATUS, prints nothing on standard
# output and exactly one line on standard error (issue 18: control
# characters in what a message quotes are escaped)
one_line() {
    expect "$@"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "not one line on stderr: ${*:2} :: $(head -c 300 "$tmp/err")"
    [ ! -s "$tmp/out" ] || fail "output on stdout: ${*:2}"
}

# help everywhere, exit 0, on standard output
expect 0 "$steady" --help
grep -q '^commands:' "$tmp/out" || fail "steady --help lists no commands"
for cmd in info gen export; do
    expect 0 "$steady" "$cmd" --help
    grep -q "^usage: steady $cmd" "$tmp/out" || fail "steady $cmd --help has no usage line"
    expect 0 "$steady" help "$cmd"
done
expect 0 "$steady" --version

# usage errors: exit 2, one line on stderr naming the problem
expect 2 "$steady"
expect 2 "$steady" frobnicate
grep -qx "steady: unknown command (frobnicate): see 'steady --help'" "$tmp/err" || fail "unknown command message"
expect 2 "$steady" info
grep -qx "steady info: missing PLATFORM (see 'steady info --help')" "$tmp/err" || fail "missing PLATFORM message"
expect 2 "$steady" info --bogus x
expect 2 "$steady" info a b
expect 2 "$steady" info --from xml examples/platforms/paper-reduce.plat
expect 2 "$steady" info /nonexistent.plat
grep -qx "/nonexistent.plat: cannot open (No such file or directory)" "$tmp/err" || fail "cannot open message"
expect 2 "$steady" gen --kind random
expect 2 "$steady" gen --nodes 4
expect 2 "$steady" gen --kind blob --nodes 4
expect 2 "$steady" gen --kind ring --nodes -3
expect 2 "$steady" gen --kind ring --nodes 4 --seed x
expect 2 "$steady" export examples/platforms/paper-reduce.plat
# the broadcast's own formulations: with another operation, and the
# arborescences where some rank is not a target
one_line 2 "$steady" solve --formulation cuts --op scatter examples/platforms/tiers.plat
grep -qx "steady solve: --formulation cuts goes with --op broadcast (see 'steady solve --help')" "$tmp/err" || fail "cuts with a scatter: $(cat "$tmp/err")"
one_line 2 "$steady" solve --formulation arborescences --op broadcast examples/platforms/tiers.plat
grep -qx "the arborescences formulation needs every rank but the source as a target (use cuts)" "$tmp/err" || fail "arborescences with routers: $(cat "$tmp/err")"
expect 2 "$steady" export --format native --hostfile h examples/platforms/paper-reduce.plat
expect 2 "$steady" export --format simgrid --msg-size 0 examples/platforms/paper-reduce.plat
# an output that cannot be written is a runtime failure (1) and leaves no file
expect 1 "$steady" export --format native -o /nonexistent/dir/p.plat examples/platforms/paper-reduce.plat
expect 1 "$steady" gen --kind ring --nodes 4 -o /nonexistent/dir/p.plat
expect 1 "$steady" gen --kind ring --nodes 4 -o "$tmp"
grep -qx "$tmp: cannot write: it is a directory" "$tmp/err" || fail "-o DIR message"

# -o writes *to* what is not a regular file, never replaces it: a character
# device (a private copy of /dev/null's), a FIFO, a symbolic link; a regular
# file keeps its mode and no temporary file is left behind
mkdir "$tmp/o"
if mknod "$tmp/o/null" c 1 3 2>/dev/null; then
    expect 0 "$steady" gen --kind ring --nodes 4 -o "$tmp/o/null"
    [ -c "$tmp/o/null" ] || fail "-o replaced a character device"
fi
mkfifo "$tmp/o/fifo"
cat "$tmp/o/fifo" >"$tmp/o/fifo.out" &
expect 0 "$steady" gen --kind ring --nodes 4 -o "$tmp/o/fifo"
wait
[ -p "$tmp/o/fifo" ] || fail "-o replaced a FIFO"
grep -q '^processor P3 ' "$tmp/o/fifo.out" || fail "-o FIFO: the platform did not go through the FIFO"
echo old >"$tmp/o/target"
ln -s target "$tmp/o/link"
expect 0 "$steady" gen --kind ring --nodes 4 -o "$tmp/o/link"
[ -L "$tmp/o/link" ] || fail "-o replaced a symbolic link"
grep -q '^processor P3 ' "$tmp/o/target" || fail "-o did not write through the symbolic link"
echo old >"$tmp/o/reg"
chmod 640 "$tmp/o/reg"
expect 0 "$steady" gen --kind ring --nodes 4 -o "$tmp/o/reg"
[ "$(stat -c %a "$tmp/o/reg")" = 640 ] || fail "-o changed a regular file's mode"
grep -q '^processor P3 ' "$tmp/o/reg" || fail "-o did not replace a regular file"
[ "$(ls "$tmp/o" | grep -c tmp)" = 0 ] || fail "-o left a temporary file: $(ls "$tmp/o")"

# every message is one line, whatever it quotes
one_line 2 "$steady" $'info\nx'
grep -qxF "steady: unknown command (info\\nx): see 'steady --help'" "$tmp/err" || fail "escaped command name"
one_line 2 "$steady" info $'--fr\x1b[2Jom' examples/platforms/paper-reduce.plat
grep -qxF "steady info: unknown option (--fr\\x1b[2Jom) (see 'steady info --help')" "$tmp/err" || fail "escaped option"
one_line 2 "$steady" info $'no\nsuch\r.plat'
grep -qxF 'no\nsuch\r.plat: cannot open (No such file or directory)' "$tmp/err" || fail "escaped file name"
printf 'processor a speed=1\nprocessor b\rc speed=1\n' >"$tmp/cr.plat"
one_line 2 "$steady" info "$tmp/cr.plat"
grep -qxF "$tmp/cr.plat:2:11: invalid node name (b\\rc): use 1 to 255 characters from A-Z a-z 0-9 _ . : @ + / - and blanks within" "$tmp/err" ||
    fail "CR in a name: $(cat "$tmp/err")"

# values out of range are refused where they are written, options before
# anything is solved (the solver never sees what it cannot scale)
pr=examples/platforms/paper-reduce.plat
tg=examples/platforms/two-cluster-grid.plat
one_line 2 "$steady" solve --op scatter --msg-size 1e300 "$tg"
grep -qxF "steady solve: --msg-size: message size out of range (1e300): from 1 byte to 1e12 bytes (see 'steady solve --help')" "$tmp/err" ||
    fail "--msg-size 1e300: $(cat "$tmp/err")"
one_line 2 "$steady" solve --op scatter --msg-size 0x10 "$tg"
one_line 2 "$steady" solve --op reduce --task-cost 0x10 "$pr"
one_line 2 "$steady" solve --op reduce --task-cost 1e22 "$pr"
one_line 2 "$steady" plan --op scatter --period 0x1p3 -o "$tmp/x.sched" "$tg"
one_line 2 "$steady" solve --op scatter --time-limit inf "$tg"
printf 'processor a speed=1\nprocessor b speed=1\nprocessor c speed=1\nlink a b bandwidth=1e-300\n' >"$tmp/r.plat"
one_line 2 "$steady" info "$tmp/r.plat"
printf 'processor a speed=1\nprocessor b speed=1\nprocessor c speed=1\nlink a b bandwidth=0.001\nlink b c bandwidth=1e15\n' >"$tmp/r.plat"
one_line 2 "$steady" solve --op broadcast --msg-size 1 "$tmp/r.plat"
grep -q 'span more than 12 orders of magnitude (1e-15 on b -> c, 1000 on a -> b)' "$tmp/err" || fail "spread: $(cat "$tmp/err")"
sed -i 's/1e15$/1e9/' "$tmp/r.plat"
expect 0 "$steady" solve --op broadcast --msg-size 1 "$tmp/r.plat"

# schedules: what check rejects, replay and draw refuse; a tampered header
# is caught; a directory is not "malformed JSON"
"$steady" plan --op reduce --quiet -o "$tmp/pr.sched" "$pr" >/dev/null || fail "plan paper-reduce"
tamper() { # tamper SCHED OUT PYTHON-STATEMENT (d is the document)
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); exec(sys.argv[3]); json.dump(d, open(sys.argv[2], "w"))' "$@"
}
tamper "$tmp/pr.sched" "$tmp/bad.sched" 'd["slots"][0]["transfers"].pop()'
expect 1 "$steady" check "$tmp/bad.sched" "$pr"
one_line 2 "$steady" replay --ops 10 "$tmp/bad.sched" "$pr"
grep -q "^$tmp/bad.sched: invalid schedule ([0-9]* violations\?, see 'steady check'): " "$tmp/err" || fail "replay of an invalid schedule: $(cat "$tmp/err")"
one_line 2 "$steady" draw gantt "$tmp/bad.sched" "$pr" -o "$tmp/g.svg"
[ ! -e "$tmp/g.svg" ] || fail "draw gantt drew an invalid schedule"
tamper "$tmp/pr.sched" "$tmp/bad.sched" 'd["platform"]["nodes"] = 4'
expect 1 "$steady" check "$tmp/bad.sched" "$pr"
grep -q 'platform: the schedule is for 4 nodes and 6 edges, the platform has 3 and 6' "$tmp/out" || fail "check: tampered node count: $(cat "$tmp/out")"
one_line 2 "$steady" replay --ops 10 "$tmp/bad.sched" "$pr"
tamper "$tmp/pr.sched" "$tmp/bad.sched" 'd["segments"] = 1048576'
one_line 2 "$steady" check "$tmp/bad.sched" "$pr"
grep -qF '"segments" out of range (1048576)' "$tmp/err" || fail "check: tampered segments: $(cat "$tmp/err")"
tamper "$tmp/pr.sched" "$tmp/bad.sched" 'd["segments"] = 3'
expect 1 "$steady" check "$tmp/bad.sched" "$pr"
grep -q 'schedule: 3 segments on an abstract platform' "$tmp/out" || fail "check: segments on an abstract platform: $(cat "$tmp/out")"
one_line 2 "$steady" check "$tmp" "$pr"
grep -qxF "$tmp: cannot read (Is a directory)" "$tmp/err" || fail "a directory as a schedule: $(cat "$tmp/err")"
cp "$tmp/pr.sched" "$tmp/"$'odd\nname.sched'
expect 0 "$steady" check "$tmp/"$'odd\nname.sched' "$pr"
[ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -qF 'odd\nname.sched: valid: ' "$tmp/out" || fail "check's report on one line: $(cat "$tmp/out")"

# a failed write to standard output is a failure, told in one line (a
# private copy of /dev/full's device)
if mknod "$tmp/o/full" c 1 7 2>/dev/null; then
    for cmd in "--help" "info $pr" "solve --op reduce $pr" "check $tmp/pr.sched $pr" \
        "replay --ops 5 $tmp/pr.sched $pr" "compare --op broadcast $pr" "gen --kind ring --nodes 4"; do
        # shellcheck disable=SC2086
        "$steady" $cmd >"$tmp/o/full" 2>"$tmp/err"
        st=$?
        [ $st -eq 1 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'write failed (No space left on device)' "$tmp/err" ||
            fail "steady $cmd > full: exit $st: $(cat "$tmp/err")"
    done
fi

# info on every example, text and JSON
for p in examples/platforms/*; do
    expect 0 "$steady" info "$p"
    grep -q '^nodes ' "$tmp/out" || fail "info $p prints no node count"
    expect 0 "$steady" info --json --list "$p"
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["nodes"]==len(d["node_list"]) and d["edges"]==len(d["edge_list"])' "$tmp/out" \
        || fail "info --json $p is not consistent JSON"
done
"$steady" info examples/platforms/paper-reduce.plat >"$tmp/out"
grep -qx 'nodes        3 (3 processors, 0 routers)' "$tmp/out" || fail "paper-reduce node count"
grep -qx 'edges        6 directed (3 duplex pairs, 0 one-way)' "$tmp/out" || fail "paper-reduce edge count"
grep -qx 'connected    strongly connected' "$tmp/out" || fail "paper-reduce connectivity"
# standard input
"$steady" info - <examples/platforms/paper-reduce.plat >"$tmp/out" 2>&1 || fail "info - (stdin)"

# exact round trips through every format, via files, for every example and
# generated platforms: the canonical native text must be identical
roundtrip() {
    local src=$1 name=$2
    "$steady" export --format native "$src" -o "$tmp/$name.a.plat" || { fail "export native $src"; return; }
    for fmt in simgrid graphml; do
        "$steady" export --format "$fmt" "$tmp/$name.a.plat" -o "$tmp/$name.$fmt" || { fail "export $fmt $src"; continue; }
        "$steady" export --format native "$tmp/$name.$fmt" -o "$tmp/$name.b.plat" || { fail "re-read $fmt $src"; continue; }
        cmp -s "$tmp/$name.a.plat" "$tmp/$name.b.plat" || fail "native -> $fmt -> native changed $src"
    done
}
for p in examples/platforms/*; do
    roundtrip "$p" "$(basename "$p")"
done
for kind in random tiers cluster ring star; do
    "$steady" gen --kind $kind --nodes 17 --seed 42 -o "$tmp/g-$kind.plat" || { fail "gen $kind"; continue; }
    roundtrip "$tmp/g-$kind.plat" "g-$kind"
done

# the SimGrid export writes the hostfile next to the platform, in node order
"$steady" export --format simgrid examples/platforms/paper-reduce.plat -o "$tmp/pr.xml" || fail "simgrid export"
[ "$(cat "$tmp/pr.hosts" 2>/dev/null)" = "$(printf 'P0\nP1\nP2')" ] || fail "hostfile pr.hosts"
"$steady" export --format simgrid --hostfile "$tmp/h.txt" examples/platforms/paper-reduce.plat -o "$tmp/pr2.xml" || fail "--hostfile"
[ -s "$tmp/h.txt" ] && [ ! -e "$tmp/pr2.hosts" ] || fail "--hostfile not honoured"

# generators: same seed -> same bytes, other seed -> other platform
for kind in random tiers ring star; do
    "$steady" gen --kind $kind --nodes 12 --seed 7 -o "$tmp/a" &&
    "$steady" gen --kind $kind --nodes 12 --seed 7 -o "$tmp/b" &&
    "$steady" gen --kind $kind --nodes 12 --seed 8 -o "$tmp/c" || { fail "gen $kind"; continue; }
    cmp -s "$tmp/a" "$tmp/b" || fail "gen $kind: same seed, different output"
    cmp -s "$tmp/a" "$tmp/c" && fail "gen $kind: different seeds, same output"
    n=$("$steady" info --json "$tmp/a" | python3 -c 'import json,sys; print(json.load(sys.stdin)["processors"])')
    [ "$n" = 12 ] || fail "gen $kind: $n processors, want 12"
done
for fmt in graphml simgrid; do
    "$steady" gen --kind tiers --nodes 12 --seed 7 --format $fmt -o "$tmp/t.$fmt" || fail "gen --format $fmt"
    "$steady" export --format native "$tmp/t.$fmt" -o "$tmp/t.$fmt.plat" || fail "read gen --format $fmt"
done
"$steady" gen --kind tiers --nodes 12 --seed 7 -o "$tmp/t.plat"
cmp -s "$tmp/t.plat" "$tmp/t.graphml.plat" || fail "gen --format graphml differs from native"
cmp -s "$tmp/t.plat" "$tmp/t.simgrid.plat" || fail "gen --format simgrid differs from native"

if [ "$failures" -eq 0 ]; then
    echo "PASS cli"
else
    exit 1
fi
