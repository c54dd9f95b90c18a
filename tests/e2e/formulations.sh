#!/bin/bash
# The formulations of docs/linear-programs.md ("Formulations") give the same
# exact optimum: `steady solve --formulation compact` (scatter as one flow from
# the source, gossip one flow per source, broadcast by cuts and target
# flows, reduce by reduction trees) and `--formulation full` (the per-type LPs) must
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
    checks=$((checks + 1))
    local a f
    a=$(tp compact "$@")
    f=$(tp full "$@")
    case "$a $f" in *error*) fail "$*: compact '$a', full '$f'"; return ;; esac
    [ "$a" = "$f" ] && [ "${a#* }" = True ] || fail "$*: compact TP $a, full TP $f"
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
    same --op broadcast --source P7 --targets P1,P20,P41 "$tmp/tiers60-$seed.plat"
done
# rings of 20 and 40 processors: blocks whose cuts stop shrinking get
# target flows after the first round (lp/cuts.c, "Flows": 1, 3 and 8 of them)
for rs in 20-1 20-5 40-2; do
    "$steady" gen --kind ring --nodes "${rs%-*}" --seed "${rs#*-}" -o "$tmp/ring$rs.plat"
    same --op broadcast "$tmp/ring$rs.plat"
done
# message size and switches: a SimGrid cluster in bytes
same --op broadcast --msg-size 65536 examples/platforms/sg-two-sites.xml

# the plans of the compact formulation: broadcast arborescences packed from n
# alone (no per-target flow), routes from the aggregated flows, reduction
# trees taken apart from the generated trees' rates
for p in $planned "$tmp/tiers1.plat" examples/platforms/sg-backbone.xml; do
    for op in scatter gossip broadcast reduce; do
        checks=$((checks + 1))
        s="$tmp/plan.sched"
        "$steady" plan --quiet --formulation compact --op $op -o "$s" "$p" >/dev/null 2>"$tmp/err" || { fail "plan --op $op $p: $(head -1 "$tmp/err")"; continue; }
        "$steady" check "$s" "$p" >"$tmp/check.out" 2>&1 || fail "check rejects plan --op $op $p: $(head -2 "$tmp/check.out")"
    done
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
