#!/bin/bash
# The formulations of docs/linear-programs.md ("Formulations") give the same
# exact optimum: `steady solve --formulation compact` (scatter as one flow from
# the source, gossip one flow per source, broadcast by generated
# arborescences, or by cuts and target flows when some rank is not a target
# (`--formulation cuts` asks for those always), reduce by reduction trees)
# and `--formulation full` (the per-type LPs) must
# print the same rational TP, both verified exact, on every example
# platform and on generated platforms of every kind, every operation (and
# a subset of targets); and the plans of the compact formulation must pass
# `steady check`.
#   tests/e2e/formulations.sh BUILD_DIR
set -u
steady="$1/steady"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
checks=0
fail() { echo "FAIL formulations: $*"; failures=$((failures + 1)); }

tp() { # FORMULATION ARGS...: "fraction exact-flag" or "error: ..."
    local f=$1
    shift
    "$steady" solve --quiet --json --formulation "$f" "$@" >"$tmp/s.json" 2>"$tmp/s.err" ||
        { echo "error: $(head -1 "$tmp/s.err")"; return; }
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["throughput"]["exact"], d["exact"])' "$tmp/s.json"
}

same() { # ARGS...: compact and full agree exactly
    same_as compact "$@"
}

same_as() { # FORMULATION ARGS...: FORMULATION and full agree exactly
    checks=$((checks + 1))
    local a f c=$1
    shift
    a=$(tp "$c" "$@")
    f=$(tp full "$@")
    case "$a $f" in *error*) fail "$*: compact '$a', full '$f'"; return ;; esac
    [ "$a" = "$f" ] && [ "${a#* }" = True ] || fail "$*: $c TP $a, full TP $f"
}

plats="examples/platforms/*.plat examples/platforms/*.xml tests/sg/platforms/*.xml"
# tests/e2e/run --sanitized: fewer generated platforms
if [ -n "${STEADY_E2E_QUICK:-}" ]; then
    seeds="1" bigs="3" planned=""
else
    seeds="1 2" bigs="3 4 5" planned="$tmp/big3.plat"
fi
for kind in random tiers cluster ring star; do
    for seed in $seeds; do
        n=$((5 + seed))
        "$steady" gen --kind $kind --nodes $n --seed $seed -o "$tmp/$kind$seed.plat"
        plats="$plats $tmp/$kind$seed.plat"
    done
done
# random platforms of 12 processors: the broadcast needs more than the
# single-target cuts there (cut rounds, target flows)
for seed in $bigs; do
    "$steady" gen --kind random --nodes 12 --seed $seed -o "$tmp/big$seed.plat"
    plats="$plats $tmp/big$seed.plat"
done
for p in $plats; do
    for op in scatter gossip broadcast reduce; do
        same --op $op "$p"
    done
    same_as cuts --op broadcast "$p"
done
# subsets of targets: a scatter to some, a multicast (its LP value a bound)
for seed in $seeds; do
    same --op scatter --source P1 --targets P0,P3 "$tmp/random$seed.plat"
    same --op broadcast --source P2 --targets P0,P4 "$tmp/random$seed.plat"
    same --op broadcast --source P0 --targets P1,P3 "$tmp/tiers$seed.plat"
    same --op reduce --participants P4,P1,P5 --target P0 "$tmp/random$seed.plat"
    same --op reduce --participants P2,P0,P3 --target P1 "$tmp/tiers$seed.plat"
done
# tiers platforms of 60 processors: blocks with cycles behind the source's
# block, whose exits get target flows of their own (docs/linear-programs.md)
for seed in 1 3; do
    "$steady" gen --kind tiers --nodes 60 --seed $seed -o "$tmp/tiers60-$seed.plat"
    same --op broadcast "$tmp/tiers60-$seed.plat"
    same_as cuts --op broadcast "$tmp/tiers60-$seed.plat"
    same --op broadcast --source P7 --targets P1,P20,P41 "$tmp/tiers60-$seed.plat"
done
# rings of 20 and 40 processors: blocks whose cuts stop shrinking get
# target flows after the first round (lp/cuts.c, "Flows": 1, 3 and 8 of them)
for rs in 20-1 20-5 40-2; do
    "$steady" gen --kind ring --nodes "${rs%-*}" --seed "${rs#*-}" -o "$tmp/ring$rs.plat"
    same --op broadcast "$tmp/ring$rs.plat"
    same_as cuts --op broadcast "$tmp/ring$rs.plat"
done
# a flat SimGrid cluster (every pair of hosts a hop): every host receives
# once at its link's 125 MB/s, 125e6 / 2^20 = 1953125/16384 operations/s,
# which a chain reaches; the arborescences formulation (the default
# beyond 20000 columns) and the cuts give it exactly, and the plan is
# valid
sed 's/radical="0-7"/radical="0-39"/' examples/platforms/sg-crossbar.xml >"$tmp/xbar40.xml"
for f in arborescences cuts; do
    checks=$((checks + 1))
    got=$(tp $f --op broadcast "$tmp/xbar40.xml")
    [ "$got" = "1953125/16384 True" ] || fail "broadcast on a flat cluster of 40 hosts, $f: $got"
done
# two SimGrid clusters behind their backbones, joined by a WAN link, 250
# hosts (62 250 hops; the full LP does not build in a minute, the cuts do
# not end in five): every message to one of the 150 hosts of "slow" crosses
# its backbone of 1 GB/s once, and each receives every message, so TP <=
# 1e9 / (150 * 2^20) = 78125/12288, which the fast cluster's hosts,
# sending into "slow" over the WAN, let it reach
cat >"$tmp/two.xml" <<'XML'
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="world" routing="Full">
    <cluster id="fast" prefix="f-" suffix="" radical="0-99" speed="1Gf" bw="125MBps" lat="50us" bb_bw="2.25GBps" bb_lat="500us"/>
    <cluster id="slow" prefix="s-" suffix="" radical="0-149" speed="1Gf" bw="50MBps" lat="50us" bb_bw="1GBps" bb_lat="500us"/>
    <link id="wan" bandwidth="600MBps" latency="5ms"/>
    <zoneRoute src="fast" dst="slow" gw_src="f-fast_router" gw_dst="s-slow_router">
      <link_ctn id="wan"/>
    </zoneRoute>
  </zone>
</platform>
XML
checks=$((checks + 1))
got=$(tp auto --op broadcast "$tmp/two.xml")
[ "$got" = "78125/12288 True" ] || fail "broadcast on two clusters of 250 hosts: $got"
checks=$((checks + 1))
"$steady" plan --quiet --op broadcast -o "$tmp/x.sched" "$tmp/xbar40.xml" >/dev/null 2>"$tmp/err" &&
    "$steady" check "$tmp/x.sched" "$tmp/xbar40.xml" >"$tmp/check.out" 2>&1 ||
    fail "plan or check, broadcast on a flat cluster of 40 hosts: $(head -1 "$tmp/err" "$tmp/check.out")"
# a switch joining 9 hosts whose links and speeds differ, with and
# without cross traffic: once the ports go unpriced a hop's price is its
# sender's part plus its receiver's, and the reduction trees' pricing
# takes one hop to each node instead of Dijkstra's paths (lp/treegen.c,
# separable).  Choosing that hop's sender by its value alone, not with
# its part of the price, gives 8407925/903168 with cross traffic and
# tasks of 3e8 flop, below the full LP's 1212835/129024.
speeds=(2 4 2 4 2 3 3 3 3) mbps=(10 30 20 50 50 50 20 10 80)
for ct in 0 0.05; do
    {
        printf 'platform xbar\nflows fair crosstraffic=%s\nswitch sw\n' $ct
        for i in "${!speeds[@]}"; do
            echo "processor P$i speed=${speeds[i]}Gf"
            echo "channel l$i bandwidth=${mbps[i]}MBps sharing=splitduplex"
            echo "edge P$i sw crosses=l$i:up"
            echo "edge sw P$i crosses=l$i:down"
        done
    } >"$tmp/xbar.plat"
    for tc in 1e8 3e8 1e9; do
        same --op reduce --task-cost $tc "$tmp/xbar.plat"
    done
done

# message size and switches: a SimGrid cluster in bytes
same --op broadcast --msg-size 65536 examples/platforms/sg-two-sites.xml

# the plans of the compact formulation: broadcast arborescences packed from n
# alone (no per-target flow; generated arborescences or cuts), routes from the aggregated flows, reduction
# trees taken apart from the generated trees' rates
for p in $planned "$tmp/tiers1.plat" examples/platforms/sg-backbone.xml; do
    for op in scatter gossip broadcast reduce; do
        checks=$((checks + 1))
        s="$tmp/plan.sched"
        "$steady" plan --quiet --formulation compact --op $op -o "$s" "$p" >/dev/null 2>"$tmp/err" || { fail "plan --op $op $p: $(head -1 "$tmp/err")"; continue; }
        "$steady" check "$s" "$p" >"$tmp/check.out" 2>&1 || fail "check rejects plan --op $op $p: $(head -2 "$tmp/check.out")"
    done
    checks=$((checks + 1))
    "$steady" plan --quiet --formulation cuts --op broadcast -o "$s" "$p" >/dev/null 2>"$tmp/err" &&
        "$steady" check "$s" "$p" >"$tmp/check.out" 2>&1 || fail "plan --formulation cuts $p: $(head -1 "$tmp/err" "$tmp/check.out")"
done

# reduction trees on a large platform whose ports mostly go unsaturated
# (price 0): the trees take the fewest hops among paths of equal price
# (lp/treegen.c, HOP_TIE; any path of price 0 made 16 750 messages per
# operation and 774 049 transfers per period, 306 and 2 294 with it)
checks=$((checks + 1))
"$steady" gen --kind random --nodes 1000 --seed 1 -o "$tmp/r1000.plat"
"$steady" plan --quiet --op reduce --participants "$(seq -s, 0 15 | sed 's/[0-9]\+/P&/g')" \
    -o "$tmp/r.sched" "$tmp/r1000.plat" >"$tmp/plan.out" 2>"$tmp/err" || fail "plan reduce r1000: $(head -1 "$tmp/err")"
msgs=$(awk '$1 == "messages" && $6 == "per" {print $5; exit}' "$tmp/plan.out")
awk -v m="${msgs:-1e9}" 'BEGIN {exit !(m < 1000)}' || fail "reduce of 16 on random-1000: $msgs messages per operation"
"$steady" check "$tmp/r.sched" "$tmp/r1000.plat" >"$tmp/check.out" 2>&1 || fail "check rejects the reduce plan on random-1000"

if [ "$failures" -eq 0 ]; then
    echo "PASS formulations ($checks checks)"
else
    exit 1
fi
