#!/bin/bash
# The message objective (issue 16 item 3) before and after, side by side in
# one run: `steady plan` of this build against the planner without the
# objective (commit 0d7a686, the baseline tests/e2e/messages.sh checks
# against; built here from the repository's history in a temporary
# folder), on every example platform and operation and on generated tiers
# and random platforms, each plan made for a series of 2000 operations.
# Per plan: its time, the MPI messages per operation steady-run sends for
# it, and its replay over the 2000 operations (achieved / optimum).  Both
# schedules are counted and replayed by this build's `steady replay`, so
# the columns differ by the planner alone — the objective (matchings kept
# from round to round, the slot order that counts messages, the fewest
# messages among the candidates within 0.5% of the fastest:
# docs/schedule-format.md, "Messages") and every later change to the
# planner, which the ratio columns show too.  A message carries the parts
# of several operations when the period merges them (0.7 per operation: 7
# messages per period of 10 operations).
#   bench/messages.sh BUILD_DIR [quick]     (quick: the examples only)
set -euo pipefail
steady="$1/steady"
quick=${2:-}
BEFORE=0d7a686
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! git cat-file -e "$BEFORE^{commit}" 2>/dev/null; then
    echo "bench/messages.sh: commit $BEFORE is not in this repository's history (a shallow clone?);"
    echo "  the 'before' planner cannot be built: nothing measured"
    exit 1
fi
echo "building the planner before the objective (commit $BEFORE) in $tmp/before ..."
mkdir "$tmp/before"
git archive "$BEFORE" | tar -x -C "$tmp/before"
make -C "$tmp/before" -j2 build/steady >"$tmp/build.log" 2>&1 || {
    tail -20 "$tmp/build.log"
    exit 1
}
old="$tmp/before/build/steady"

# measure BIN SCHED PLATFORM OP: "SECONDS MESSAGES RATIO" of BIN's plan
measure() {
    local bin=$1 sched=$2 plat=$3 op=$4 t0 t1
    t0=$(date +%s.%N)
    "$bin" plan --quiet --op "$op" --series 2000 -o "$sched" "$plat" >/dev/null
    t1=$(date +%s.%N)
    "$steady" replay --quiet --json --ops 2000 "$sched" "$plat" |
        python3 -c 'import json,sys; d=json.load(sys.stdin); t=float(sys.argv[2])-float(sys.argv[1]);
print("%.2f %.4g %.4f" % (t, d["messages_per_operation"], d["ratio"]))' "$t0" "$t1"
}

plats=(examples/platforms/*)
if [ -z "$quick" ]; then
    for kind in tiers random; do
        "$steady" gen --kind $kind --nodes 20 --seed 1 -o "$tmp/$kind-20.plat"
        plats+=("$tmp/$kind-20.plat")
    done
fi
row='%-26s %-9s %8s %8s %9s %9s %7s %8s %8s\n'
printf "$row" platform op s:before s:after msgs:bef msgs:aft aft/bef ratio:bef ratio:aft
for plat in "${plats[@]}"; do
    for op in scatter gossip reduce broadcast; do
        read -r tb mb rb <<<"$(measure "$old" "$tmp/b.sched" "$plat" $op)"
        read -r ta ma ra <<<"$(measure "$steady" "$tmp/a.sched" "$plat" $op)"
        printf "$row" "$(basename "$plat")" $op "$tb" "$ta" "$mb" "$ma" \
            "$(python3 -c "print('%.3f' % ($ma / $mb))")" "$rb" "$ra"
    done
done
