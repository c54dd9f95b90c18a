#!/bin/bash
# End-to-end tests of `steady draw` (docs/drawing.md) on the paper's reduce
# example and a generated platform: every picture renders, the DOT parses
# with dot, the SVG is well-formed XML with the expected node names, edge
# labels and bar counts; the comparison chart of `steady compare -o`; usage
# errors; --time-limit bounding a reduce LP too big to build; the progress
# line (only on a terminal, not under --quiet).
#   tests/e2e/draw.sh BUILD_DIR
set -u
steady="$1/steady"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL draw: $*"; failures=$((failures + 1)); }
ex=examples/platforms
pr=$ex/paper-reduce.plat

# svg_has FILE PYTHON-EXPR: parses FILE as XML and evaluates the expression
# with `texts` (all text content), `bars` (the bar rects by class) and `doc`
svg_check() {
    python3 - "$1" "$2" <<'PY'
import sys, xml.dom.minidom as m
doc = m.parse(sys.argv[1])
texts = " ".join(n.data for n in doc.getElementsByTagName("*") for n in n.childNodes
                 if n.nodeType == n.TEXT_NODE)
bars = {}
for r in doc.getElementsByTagName("rect"):
    c = r.getAttribute("class").split()
    if c[:1] == ["bar"]:
        bars.setdefault(c[1], []).append(r)
ok = eval(sys.argv[2])
if not ok:
    print("   ", sys.argv[2], "is false; bars:", {k: len(v) for k, v in bars.items()})
sys.exit(0 if ok else 1)
PY
}

# render WHAT NAME ARGS...: DOT that dot parses, then SVG through -o
render() {
    local what=$1 name=$2
    shift 2
    "$steady" draw "$what" "$@" -o "$tmp/$name.dot" 2>"$tmp/err" || { fail "draw $what $*: $(cat "$tmp/err")"; return 1; }
    dot -Tsvg "$tmp/$name.dot" >/dev/null 2>"$tmp/err" || { fail "dot rejects draw $what $*: $(head -1 "$tmp/err")"; return 1; }
    "$steady" draw "$what" "$@" -o "$tmp/$name.svg" 2>"$tmp/err" || { fail "draw $what $* -o .svg: $(cat "$tmp/err")"; return 1; }
}

# ---- the paper's reduce example (TP = 1, one tree: Figures 6 and 7) --------
render platform pr-platform $pr &&
    svg_check "$tmp/pr-platform.svg" '"P0" in texts and "P1" in texts and "P2" in texts and "c=1" in texts and "speed 2" in texts' ||
    fail "platform picture of paper-reduce: names, costs or speeds missing"
# the LP solution: the paper's rates, and its saturated ports (README)
render solution pr-solution --op reduce --task-cost 1 $pr &&
    svg_check "$tmp/pr-solution.svg" '"[1,1]: 1" in texts and "[1,2]: 1" in texts and "T(0,0,2): 1" in texts and "T(1,1,2): 1" in texts and "saturated: send recv cpu" in texts and "TP = 1 operations per time unit" in texts' ||
    fail "solution picture of paper-reduce: rates, tasks or saturation missing"
grep -q 'color="#c00000"' "$tmp/pr-solution.dot" || fail "no saturated port highlighted on paper-reduce"
render trees pr-trees --op reduce --task-cost 1 $pr &&
    svg_check "$tmp/pr-trees.svg" '"tree 1: weight 1 (100% of TP)" in texts and "T(1,1,2)" in texts and "v[0]" in texts and "tree 2" not in texts' ||
    fail "tree picture of paper-reduce"
# the trees of the example schedule file
render trees pr-strees examples/schedules/paper-reduce.sched $pr &&
    svg_check "$tmp/pr-strees.svg" '"T(0,0,2)" in texts and "operations per period" in texts' ||
    fail "tree picture of the example schedule"

# Gantt of one period: 2 bars per transfer, one per compute entry
gantt_count() { # SCHED SVG
    python3 - "$1" "$2" <<'PY'
import json, sys, xml.dom.minidom as m
d = json.load(open(sys.argv[1]))
x = sum(len(s["transfers"]) for s in d["slots"])
c = len(d["compute"])
bars = [r.getAttribute("class") for r in m.parse(sys.argv[2]).getElementsByTagName("rect")
        if r.getAttribute("class").startswith("bar")]
want = {"bar send": x, "bar recv": x, "bar cpu": c}
got = {k: bars.count(k) for k in want}
if got != want or len(bars) != 2 * x + c:
    print("    bars", got, "want", want)
    sys.exit(1)
PY
}
"$steady" plan --op reduce --task-cost 1 --period exact -o "$tmp/pr.sched" $pr >/dev/null || fail "plan paper-reduce"
"$steady" draw gantt "$tmp/pr.sched" $pr -o "$tmp/pr-gantt.svg" 2>"$tmp/err" || fail "draw gantt: $(cat "$tmp/err")"
gantt_count "$tmp/pr.sched" "$tmp/pr-gantt.svg" || fail "gantt bars of paper-reduce"
svg_check "$tmp/pr-gantt.svg" '"P1 send" in texts and "P0 recv" in texts and "P2 cpu" in texts and "[1,2]" in texts' || fail "gantt rows of paper-reduce"

# replay: one bar per transfer event and port, CPU bars carry the replay's tasks
replay_count() { # SCHED PLAT SVG OPS
    "$steady" replay --json --ops "$4" "$1" "$2" >"$tmp/replay.json" || return 1
    python3 - "$tmp/replay.json" "$3" <<'PY'
import json, sys, xml.dom.minidom as m
r = json.load(open(sys.argv[1]))
rects = [x for x in m.parse(sys.argv[2]).getElementsByTagName("rect") if x.getAttribute("class").startswith("bar")]
send = sum(1 for x in rects if x.getAttribute("class") == "bar send")
recv = sum(1 for x in rects if x.getAttribute("class") == "bar recv")
tasks = sum(int(x.getAttribute("data-n")) for x in rects if x.getAttribute("class") == "bar cpu")
if (send, recv, tasks) != (r["transfers"], r["transfers"], r["tasks"]):
    print("    send/recv/tasks", (send, recv, tasks), "replay", r["transfers"], r["tasks"])
    sys.exit(1)
PY
}
"$steady" draw replay --periods 4 "$tmp/pr.sched" $pr -o "$tmp/pr-replay.svg" 2>"$tmp/err" || fail "draw replay: $(cat "$tmp/err")"
replay_count "$tmp/pr.sched" $pr "$tmp/pr-replay.svg" 4 || fail "replay bars of paper-reduce"
svg_check "$tmp/pr-replay.svg" '"batch 3" in texts and len(doc.getElementsByTagName("line")) > 3' || fail "replay legend of paper-reduce"

# ---- a generated platform, every operation --------------------------------
"$steady" gen --kind random --nodes 6 --seed 1 -o "$tmp/r6.plat"
render platform r6-platform "$tmp/r6.plat" &&
    svg_check "$tmp/r6-platform.svg" 'all("P%d" % i in texts for i in range(6)) and "B/s" in texts and "flop/s" in texts' ||
    fail "platform picture of r6"
for op in scatter gossip reduce broadcast; do
    render solution r6-$op-solution --op $op "$tmp/r6.plat" &&
        svg_check "$tmp/r6-$op-solution.svg" '"busy" in texts and "TP = " in texts and all("P%d" % i in texts for i in range(6))' ||
        fail "solution picture of r6 $op"
    render trees r6-$op-trees --op $op "$tmp/r6.plat" &&
        svg_check "$tmp/r6-$op-trees.svg" '"tree 1: weight" in texts' || fail "tree picture of r6 $op"
    "$steady" plan --op $op -o "$tmp/r6-$op.sched" "$tmp/r6.plat" >/dev/null 2>&1 || { fail "plan r6 $op"; continue; }
    "$steady" draw gantt "$tmp/r6-$op.sched" "$tmp/r6.plat" -o "$tmp/r6-$op-gantt.svg" 2>"$tmp/err" || fail "draw gantt r6 $op: $(cat "$tmp/err")"
    gantt_count "$tmp/r6-$op.sched" "$tmp/r6-$op-gantt.svg" || fail "gantt bars of r6 $op"
    # the operations of 2 batches: ops_per_period counts segments
    k=$(python3 -c 'import json,sys; d = json.load(open(sys.argv[1])); print(-(-2 * d["ops_per_period"] // d["segments"]))' "$tmp/r6-$op.sched")
    "$steady" draw replay --periods 2 "$tmp/r6-$op.sched" "$tmp/r6.plat" -o "$tmp/r6-$op-replay.svg" 2>"$tmp/err" || fail "draw replay r6 $op: $(cat "$tmp/err")"
    replay_count "$tmp/r6-$op.sched" "$tmp/r6.plat" "$tmp/r6-$op-replay.svg" $k || fail "replay bars of r6 $op"
done
# reduce trees drawn from the schedule file, and PNG through dot
"$steady" draw trees "$tmp/r6-reduce.sched" "$tmp/r6.plat" -o "$tmp/r6-trees.png" || fail "draw trees -o .png"
head -c 8 "$tmp/r6-trees.png" | od -c | grep -q 'P   N   G' || fail "trees .png is not a PNG"

# ---- the comparison chart (steady compare -o, compare/svg.c) --------------
"$steady" compare --op reduce --task-cost 1 -o "$tmp/compare.svg" $pr >/dev/null 2>"$tmp/err" || fail "compare -o: $(cat "$tmp/err")"
svg_check "$tmp/compare.svg" '"LP optimum" in texts and "paper-reduce" in texts and len(doc.getElementsByTagName("rect")) >= 3' || fail "comparison chart"

# ---- usage errors: exit 2, one line ---------------------------------------
expect() { # STATUS "STDERR LINE" CMD...
    local want=$1 line=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    local got=$?
    [ "$got" -eq "$want" ] || fail "exit $got (want $want): ${*:2} :: $(head -c 300 "$tmp/err")"
    [ "$(wc -l <"$tmp/err")" -le 1 ] || fail "more than one line on stderr: ${*:2}"
    [ -z "$line" ] || [ "$(cat "$tmp/err")" = "$line" ] || fail "${*:2}: stderr '$(cat "$tmp/err")', want '$line'"
}
expect 2 "steady draw: gantt charts are SVG only (not dot) (see 'steady draw --help')" "$steady" draw gantt "$tmp/pr.sched" $pr -o "$tmp/x.dot"
expect 2 "steady draw: unknown picture (pie): use platform, solution, trees, gantt or replay (see 'steady draw --help')" "$steady" draw pie $pr
expect 2 "steady draw: draw gantt needs --op OP or SCHED PLATFORM (see 'steady draw --help')" "$steady" draw gantt $pr
expect 2 "" "$steady" draw
expect 2 "" "$steady" draw platform -o "$tmp/x.jpeg" $pr
expect 2 "" "$steady" draw solution --op reduce --participants P0,P9 $pr
expect 0 "" "$steady" draw --help
expect 1 "" "$steady" draw platform -o /nonexistent/dir/x.svg $pr
[ -z "$(ls /nonexistent/dir 2>/dev/null)" ] || fail "a failed draw left a file"

# ---- --time-limit bounds the whole solve, building included (issue 7) -----
# the per-type reduce LP of 100 participants has ~19 million columns:
# building it alone takes longer than the limit; the solve stops within it.
# The reduction trees of 100 participants take ~100 rounds of a few tenths
# of a second (docs/performance.md): the limit stops them too.
"$steady" gen --kind random --nodes 100 --seed 1 -o "$tmp/r100.plat"
start=$(date +%s.%N)
expect 1 "" "$steady" solve --op reduce --formulation full --time-limit 1 "$tmp/r100.plat"
grep -q "^time limit of 1 s reached while building the LP" "$tmp/err" || fail "reduce 100 --formulation full --time-limit 1: '$(cat "$tmp/err")'"
expect 1 "" "$steady" solve --op reduce --time-limit 1 "$tmp/r100.plat"
grep -q "^time limit of 1 s reached in the tree generation (round [0-9]*, LP of [0-9]* rows and [0-9]* columns)" "$tmp/err" || fail "reduce 100 --time-limit 1: '$(cat "$tmp/err")'"
expect 1 "" "$steady" compare --op reduce --time-limit 1 "$tmp/r100.plat"
grep -q "^time limit of 1 s reached" "$tmp/err" || fail "compare reduce 100 --time-limit 1: '$(cat "$tmp/err")'"
python3 -c 'import sys,time; sys.exit(0 if time.time() - float(sys.argv[1]) < 12 else 1)' "$start" ||
    fail "three solves with --time-limit 1 took more than 12 s"

# ---- the progress line: on a terminal only, not under --quiet ------------
if command -v script >/dev/null; then
    script -qc "$steady solve --op reduce --formulation full --time-limit 1 $tmp/r100.plat" /dev/null >"$tmp/tty" 2>&1
    grep -q $'\rsteady solve: building the LP, columns [0-9]' "$tmp/tty" || fail "no progress line on a terminal"
    script -qc "$steady solve --op reduce --time-limit 2 $tmp/r100.plat" /dev/null >"$tmp/tty" 2>&1
    grep -q $'\rsteady solve: reduction trees, round [0-9]' "$tmp/tty" || fail "no progress line of the tree rounds"
    script -qc "$steady solve --quiet --op reduce --formulation full --time-limit 1 $tmp/r100.plat" /dev/null >"$tmp/tty" 2>&1
    ! grep -q 'steady solve: building' "$tmp/tty" || fail "a progress line under --quiet"
fi
"$steady" solve --op reduce --formulation full --time-limit 1 "$tmp/r100.plat" 2>"$tmp/err" >/dev/null
! grep -q $'\r' "$tmp/err" || fail "a progress line when standard error is not a terminal"

if [ "$failures" -eq 0 ]; then
    echo "PASS draw"
else
    exit 1
fi
