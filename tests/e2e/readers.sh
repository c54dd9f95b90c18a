#!/bin/bash
# The platform readers at scale (issue 17 item 4, issue 18 defect 3): SimGrid
# files whose routing tables used to be quadratic or cubic read in linear
# time and give the platform they describe; a file is streamed (the format
# decided on its first bytes, however long its prologue); a document cut
# short gets the same message from a file and from standard input; the
# progress line shows on a terminal, never under --quiet nor on a pipe.
# The timeouts only catch a reader that went quadratic again (each case
# takes well under a second here; the old readers took minutes or ran out
# of memory).   tests/e2e/readers.sh BUILD_DIR
set -u
steady="$1/steady"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL readers: $*"; failures=$((failures + 1)); }

# 1. steady's own SimGrid export of a 5,000-processor random platform (a
#    Floyd zone of 5,000 hosts, read as edges: no Floyd tables, which took
#    n^2 memory and n^3 time) reads back to the very same platform
"$steady" gen --kind random --nodes 5000 --seed 3 -o "$tmp/r.plat"
"$steady" export --format simgrid "$tmp/r.plat" -o "$tmp/r.xml"
grep -q 'routing="Floyd"' "$tmp/r.xml" || fail "the export is not a Floyd zone"
if timeout 60 "$steady" export --format native "$tmp/r.xml" -o "$tmp/back.plat" 2>"$tmp/err"; then
    "$steady" export --format native "$tmp/r.plat" -o "$tmp/same.plat"
    cmp -s "$tmp/back.plat" "$tmp/same.plat" || fail "the Floyd export does not read back the same"
else
    fail "reading a 5000-host Floyd export: $(head -c 300 "$tmp/err")"
fi

# 2. a Full zone of 20,000 hosts whose declared routes form a ring (each
#    route over one link, symmetrical): its table was 20000^2 entries and
#    its layout visited every pair; now the declared routes, 2 per host:
#    40,000 edges, each crossing its one link, h_i -> h_i+1 over l_i
n=20000
python3 - "$n" >"$tmp/full.xml" <<'PY'
import sys
n = int(sys.argv[1]); w = sys.stdout.write
w('<?xml version="1.0"?>\n<platform version="4.1">\n  <zone id="ring" routing="Full">\n')
for i in range(n): w('    <host id="h%d" speed="1Gf"/>\n' % i)
for i in range(n): w('    <link id="l%d" bandwidth="%dMBps" latency="10us"/>\n' % (i, 100 + i % 900))
for i in range(n): w('    <route src="h%d" dst="h%d"><link_ctn id="l%d"/></route>\n' % (i, (i + 1) % n, i))
w('  </zone>\n</platform>\n')
PY
if timeout 60 "$steady" info --json --list "$tmp/full.xml" >"$tmp/full.json" 2>"$tmp/err"; then
    python3 - "$tmp/full.json" "$n" <<'PY' || fail "the Full ring zone: wrong platform"
import json, sys
j = json.load(open(sys.argv[1])); n = int(sys.argv[2])
assert j["nodes"] == n and j["edges"] == 2 * n, (j["nodes"], j["edges"])
edges = {(e["from"], e["to"]): [c["channel"] for c in e["crosses"]] for e in j["edge_list"]}
for i in range(n):
    a, b = "h%d" % i, "h%d" % ((i + 1) % n)
    assert edges[(a, b)] == ["l%d" % i] and edges[(b, a)] == ["l%d" % i], (a, b)
PY
else
    fail "reading a 20000-host Full zone: $(head -c 300 "$tmp/err")"
fi

# 3. a <cluster> of 100,000 hosts: a star, 2 edges per host
printf '<?xml version="1.0"?>\n<platform version="4.1">\n  <cluster id="c" prefix="h" suffix="" radical="0-99999" speed="1Gf" bw="125MBps" lat="50us"/>\n</platform>\n' >"$tmp/c.xml"
out=$(timeout 60 "$steady" info --json "$tmp/c.xml" 2>&1 |
    python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["nodes"], j["edges"])' 2>&1)
[ "$out" = "100001 200000" ] || fail "the 100000-host cluster: $out (want 100001 nodes, 200000 edges)"

# 4. streamed in the file's order: a zone's steady_routes prop after its
#    hosts and links reads the same as before them
small="$tmp/s.xml"
"$steady" gen --kind ring --nodes 6 --seed 2 -o "$tmp/s.plat"
"$steady" export --format simgrid "$tmp/s.plat" -o "$small"
python3 - "$small" "$tmp/late.xml" <<'PY'
import sys
s = open(sys.argv[1]).read()
prop = '    <prop id="steady_routes" value="edges"/>\n'
assert prop in s
s = s.replace(prop, "", 1).replace("  </zone>", prop + "  </zone>", 1)
open(sys.argv[2], "w").write(s)
PY
"$steady" export --format native "$tmp/late.xml" -o "$tmp/late.plat" 2>"$tmp/err" ||
    fail "prop after the hosts: $(head -c 300 "$tmp/err")"
"$steady" export --format native "$tmp/s.plat" -o "$tmp/s.native"
cmp -s "$tmp/late.plat" "$tmp/s.native" || fail "a late steady_routes prop reads differently"

# 5. the format decided past a prologue longer than the first bytes read
{
    echo "<?xml version='1.0'?>"
    python3 -c 'print("<!-- " + "x" * 300000 + " -->")'
    sed 1d "$small"
} >"$tmp/long.xml"
"$steady" info --json "$tmp/long.xml" >"$tmp/out" 2>"$tmp/err" &&
    grep -q '"format": "simgrid"' "$tmp/out" || fail "a long prologue: $(head -c 300 "$tmp/err")"

# 6. a document cut short: the same message from a file and from stdin
head -n 40 "$tmp/r.xml" >"$tmp/cut.xml"
"$steady" info "$tmp/cut.xml" 2>"$tmp/e1" >/dev/null
"$steady" info - <"$tmp/cut.xml" 2>"$tmp/e2" >/dev/null
a=$(sed "s|^$tmp/cut.xml||" "$tmp/e1")
b=$(sed "s|^<stdin>||" "$tmp/e2")
[ "$a" = "$b" ] && grep -q 'Premature end of data' "$tmp/e1" ||
    fail "cut short: file says '$(cat "$tmp/e1")', stdin '$(cat "$tmp/e2")'"

# 7. the progress line: on a terminal (script gives one) while a large
#    platform is read; none under --quiet, none when stderr is a pipe
"$steady" gen --kind random --nodes 100000 --seed 1 -o "$tmp/big.plat"
"$steady" export --format simgrid "$tmp/big.plat" -o "$tmp/big.xml"
if command -v script >/dev/null; then
    script -qec "$steady info $tmp/big.xml >/dev/null" /dev/null >"$tmp/tty" 2>&1
    grep -q 'steady info: reading the platform' "$tmp/tty" ||
        fail "no progress line on a terminal: $(tail -c 300 "$tmp/tty")"
    script -qec "$steady info --quiet $tmp/big.xml >/dev/null" /dev/null >"$tmp/tty" 2>&1
    ! grep -q 'reading the platform' "$tmp/tty" || fail "a progress line under --quiet"
fi
"$steady" info "$tmp/big.xml" >/dev/null 2>"$tmp/err"
[ ! -s "$tmp/err" ] || fail "a progress line on a pipe: $(head -c 300 "$tmp/err")"

[ "$failures" -eq 0 ] && echo "PASS readers"
[ "$failures" -eq 0 ]
