#!/bin/bash
# steady's reading of SimGrid platform files against SimGrid itself: for
# every two hosts, the links a message crosses on steady's one path
# between them (tests/sg/steady_routes.py) must be SimGrid's route
# (tests/sg/sg_routes.c, built against libsimgrid), link by link, in order,
# and its latency SimGrid's. Each platform is checked as given and as
# steady exports it (the export's routes between ranks that no edge joins
# start with the marker link steady-via, which steady skips when it reads
# the file; an edge's own link, SRC->DST, carries what its channels do not,
# such as a Vivaldi distance: the comparison drops both).
#   tests/sg/routes.sh STEADY PLATFORM.xml...
set -u
steady=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cc -O1 -o "$tmp/sg_routes" "$here/sg_routes.c" $(pkg-config --cflags --libs simgrid) || exit 1
failures=0
checked=0
check() { # PLATFORM NAME
    checked=$((checked + 1))
    # in steady's exports, the links that are no steady_channel (the marker
    # and edges' own links)
    python3 -c '
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
if any(p.get("id") == "steady_routes" for z in root.iter("zone") for p in z.findall("prop")):
    for l in root.iter("link"):
        if not any(p.get("id") == "steady_channel" for p in l.findall("prop")):
            print(l.get("id"))' "$1" >"$tmp/own" || { echo "FAIL routes: $2 is no XML"; failures=$((failures + 1)); return; }
    "$tmp/sg_routes" "$1" >"$tmp/sg.raw" 2>"$tmp/sg.err" &&
        awk 'FILENAME == ARGV[1] { own[$1] = 1; next }
             { out = $1 " " $2; for (i = 3; i <= NF; i++) if (!($i in own)) out = out " " $i; print out }' \
            "$tmp/own" "$tmp/sg.raw" | sort >"$tmp/sg" ||
        { echo "FAIL routes: SimGrid cannot read $2: $(tail -1 "$tmp/sg.err")"; failures=$((failures + 1)); return; }
    "$steady" info --json --list "$1" | python3 "$here/steady_routes.py" | sort >"$tmp/st" ||
        { echo "FAIL routes: steady cannot read $2"; failures=$((failures + 1)); return; }
    if ! cmp -s "$tmp/sg" "$tmp/st"; then
        echo "FAIL routes: $2: $(diff "$tmp/sg" "$tmp/st" | grep -c '^[<>]') lines differ, e.g."
        diff "$tmp/sg" "$tmp/st" | head -6
        failures=$((failures + 1))
    fi
}
for p in "$@"; do
    check "$p" "$p"
    if "$steady" export --format simgrid -o "$tmp/re.xml" "$p" 2>"$tmp/export.err"; then
        check "$tmp/re.xml" "steady export of $p"
    else
        echo "FAIL routes: steady cannot export $p: $(cat "$tmp/export.err")"
        failures=$((failures + 1))
    fi
done
[ "$failures" -eq 0 ] && echo "PASS routes ($checked platforms: $# and their exports)"
exit $((failures > 0))
