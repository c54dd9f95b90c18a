#!/bin/bash
# Cross-check of `steady solve` against an independent implementation of the
# same four LPs (tests/lp/*.mod, solved by glpsol's floating-point simplex):
# on the example platforms
# and on generated ones, every op must give the same TP (relative 1e-9: glpsol
# works in doubles), the exact fraction steady prints must equal its decimal,
# and the paper's and hand-derived values must come out exactly.
#   tests/e2e/lp_crosscheck.sh BUILD_DIR
set -u
build=$1
steady="$build/steady"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
checks=0
fail() { echo "FAIL lp_crosscheck: $*"; failures=$((failures + 1)); }

# steady's TP as "fraction value exact-flag"
steady_tp() {
    "$steady" solve --json "$@" >"$tmp/s.json" 2>"$tmp/s.err" || { echo "error: $(cat "$tmp/s.err")"; return; }
    python3 - "$tmp/s.json" <<'PY'
import json, sys
from fractions import Fraction
d = json.load(open(sys.argv[1]))
t = d["throughput"]
f = Fraction(t["exact"])
assert abs(float(f) - t["value"]) <= 1e-15 * abs(float(f)), "fraction and decimal disagree"
print(t["exact"], repr(t["value"]), "true" if d["exact"] else "false")
PY
}

compare() { # PLATFORM OP [FLAGS...]
    local plat=$1 op=$2
    shift 2
    checks=$((checks + 1))
    local ours theirs
    ours=$(steady_tp --op "$op" "$@" "$plat")
    theirs=$(tests/lp/glpsol-tp --no-exact --steady "$steady" --op "$op" "$@" "$plat" 2>"$tmp/g.err") ||
        { fail "glpsol-tp $op $plat: $(cat "$tmp/g.err")"; return; }
    case "$ours" in error*) fail "steady solve --op $op $plat: $ours"; return ;; esac
    read -r frac value exact <<<"$ours"
    [ "$exact" = true ] || fail "$op $plat: not exact"
    python3 -c '
import sys
a, b = float(sys.argv[1]), float(sys.argv[2].split()[1])
sys.exit(0 if abs(a - b) <= 1e-9 * max(abs(a), abs(b)) else 1)' "$value" "$theirs" ||
        fail "$op $plat $*: steady $frac = $value, glpsol $theirs"
}

expect_tp() { # FRACTION PLATFORM OP [FLAGS...]: exact value from the paper / by hand
    local want=$1 plat=$2 op=$3
    shift 3
    checks=$((checks + 1))
    read -r frac _ exact <<<"$(steady_tp --op "$op" "$@" "$plat")"
    [ "$frac" = "$want" ] && [ "$exact" = true ] || fail "$op $plat $*: TP $frac (exact=$exact), want $want"
}

ex=examples/platforms
expect_tp 1 $ex/paper-reduce.plat reduce --participants P0,P1,P2 --target P0 --task-cost 1
expect_tp 1/4 $ex/homogeneous-complete.plat scatter --source P0
expect_tp 1 $ex/homogeneous-complete.plat broadcast --source P0
expect_tp 1/4 $ex/homogeneous-complete.plat gossip
expect_tp 78125/32768 $ex/two-cluster-grid.plat scatter --source a0   # 4 messages of 1 MiB cross the 10 MB/s WAN
expect_tp 78125/8192 $ex/two-cluster-grid.plat broadcast --source a0  # one message crosses it
# a line A - B - C reduced in the order B, A, C: no single reduction tree
# reaches 2/3, a mix of two does
printf 'processor A speed=1\nprocessor B speed=1\nprocessor C speed=1\nlink A B cost=1\nlink B C cost=1\n' >"$tmp/line.plat"
expect_tp 2/3 "$tmp/line.plat" reduce --participants B,A,C --target A --task-cost 1

# SimGrid clusters, 8 hosts with 125 MB/s links (B), 1 MiB messages (S);
# docs/network.md derives each value.  A crossbar: each port bounds.
expect_tp 1953125/114688 $ex/sg-crossbar.xml scatter  # B / 7S: the source sends 7
expect_tp 1953125/114688 $ex/sg-crossbar.xml gossip   # B / 7S: every host sends 7
expect_tp 1953125/16384 $ex/sg-crossbar.xml reduce    # B / S
expect_tp 1953125/16384 $ex/sg-crossbar.xml broadcast # B / S: a chain through the switch
# a 500 MB/s backbone (b) that every message between two hosts crosses
expect_tp 1953125/114688 $ex/sg-backbone.xml scatter  # B / 7S: 7S / b < 7S / B
expect_tp 1953125/229376 $ex/sg-backbone.xml gossip   # b / 56S: 56 messages cross it
expect_tp 1953125/28672 $ex/sg-backbone.xml reduce    # b / 7S: 7 partial results cross it
expect_tp 1953125/28672 $ex/sg-backbone.xml broadcast # b / 7S: 7 receptions cross it
# two sites of 4 joined by a 10 MB/s WAN link (w) that routes share
expect_tp 78125/32768 $ex/sg-two-sites.xml scatter    # w / 4S: 4 messages cross it
expect_tp 78125/262144 $ex/sg-two-sites.xml gossip    # w / 32S: 4 x 4 each way, shared
expect_tp 78125/8192 $ex/sg-two-sites.xml reduce      # w / S: one partial result crosses
expect_tp 78125/8192 $ex/sg-two-sites.xml broadcast   # w / S: one copy crosses

# SimGrid's cross traffic, as a calibration under its default
# configuration declares it (crosstraffic=0.05): each message also loads
# its reverse edge's channels with 5% of its time (its acknowledgements),
# but not a channel its own edge crosses too.  On the crossbar, a host
# that receives r and sends s per operation has r + 0.05 s on its down
# link and s + 0.05 r on its up link:
for p in crossbar backbone; do
    "$steady" export --format native $ex/sg-$p.xml | sed 's/^flows penalty weight-S=8775$/& crosstraffic=0.05/' >"$tmp/ct-$p.plat"
done
expect_tp 1953125/114688 "$tmp/ct-crossbar.plat" scatter   # B / 7S: only the source's down link has acknowledgements
expect_tp 9765625/602112 "$tmp/ct-crossbar.plat" gossip    # B / 7.35S: 7 + 0.35 each way, each host
# broadcast: the source sends a, the others receive 1 and send 7 - a in
# all: 7 + 0.05 (7 - a) <= 7 B/S on their down links, a <= B/S, so
# TP <= 7.05 / 7.35 = 47/49 of B/S (0.959; a pipeline 1/1.05 = 0.952);
# the reduce is its mirror
expect_tp 91796875/802816 "$tmp/ct-crossbar.plat" broadcast
expect_tp 91796875/802816 "$tmp/ct-crossbar.plat" reduce
# the backbone's SHARED channel, which every hop crosses both ways, bounds
# as before: b / 7S, b / 56S
expect_tp 1953125/28672 "$tmp/ct-backbone.plat" broadcast
expect_tp 1953125/229376 "$tmp/ct-backbone.plat" gossip

# a crossbar whose hosts have NICs of 1 GB/s (fast) and 100 MB/s (slow):
# a message to a slow host holds fast's send port S / 100 MB/s, not
# S / 1 GB/s, and a scatter sends two: 50 MB/s / S
expect_tp 390625/8192 tests/sg/platforms/mixed-nics.xml scatter --source fast

for p in $ex/sg-*.xml tests/sg/platforms/*.xml "$tmp"/ct-*.plat; do
    for op in scatter gossip broadcast reduce; do
        compare "$p" $op
    done
done

for p in $ex/paper-reduce.plat $ex/homogeneous-complete.plat $ex/two-cluster-grid.plat $ex/tiers.plat; do
    for op in scatter gossip broadcast; do
        compare "$p" $op
    done
done
compare $ex/paper-reduce.plat reduce --task-cost 1
compare $ex/two-cluster-grid.plat reduce --participants a0,b1,a2,b3 --target b0
compare $ex/tiers.plat reduce --participants P0,P3,P1,P5 --target P2
for seed in 1 2 3 4; do
    "$steady" gen --kind random --nodes 6 --seed $seed -o "$tmp/r$seed.plat"
    for op in scatter gossip broadcast reduce; do
        compare "$tmp/r$seed.plat" $op
    done
    compare "$tmp/r$seed.plat" reduce --participants P3,P1,P4 --target P5 --msg-size 65536 --task-cost 1e9
    compare "$tmp/r$seed.plat" broadcast --source P2 --targets P0,P4 --msg-size 1000000
done

if [ "$failures" -eq 0 ]; then
    echo "PASS lp_crosscheck ($checks LPs)"
else
    exit 1
fi
