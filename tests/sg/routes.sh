#!/bin/bash
# steady's reading of SimGrid platform files against SimGrid itself: for
# every two hosts, the links a message crosses on steady's one path
# between them (tests/sg/steady_routes.py) must be SimGrid's route
# (tests/sg/sg_routes.c, built against libsimgrid), link by link, in order.
# Each platform is checked as given and as steady exports it (the export's
# routes between ranks that no edge joins start with the marker link
# steady-via, which steady skips when it reads the file; the comparison
# drops it too).
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
    "$tmp/sg_routes" "$1" >"$tmp/sg.raw" 2>"$tmp/sg.err" &&
        sed 's/ steady-via / /' "$tmp/sg.raw" | sort >"$tmp/sg" ||
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
