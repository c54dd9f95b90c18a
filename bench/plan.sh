#!/bin/bash
# Schedules: time and peak memory (max RSS) of `steady plan` against
# `steady solve` alone on the same problem, side by side in one run, for
# growing platforms, per operation; and the structure of the schedules
# (trees, slots) against the bounds the decomposition proves.
#   plan --period exact   solve + trees + the exact period + matchings + file
#                         (refused when a tree would run more than 2^40
#                         operations per period, as on most measured
#                         platforms: the time is then solve + trees)
#   plan (auto)           the same, plus the automatic period: up to 4
#                         candidate periods built (matchings included) and
#                         replayed for 10 000 operations, the fastest kept;
#                         and the automatic segments: from the most allowed
#                         (4 of 256 KiB for 1 MiB messages) down while the
#                         series replays no slower (two plans, usually)
#   plan --segments 1     the automatic period alone, whole messages (one_s;
#                         au/one: what the segments cost)
# A series stops after a row in which a run takes more than 30 s.
#   bench/plan.sh BUILD_DIR [quick]
set -euo pipefail
steady="$1/steady"
quick=${2:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
LIMIT=30 # s: a run longer than this ends its series

if [ -n "$quick" ]; then
    flows="10 20"; gossips="5"; parts="4"
else
    flows="10 20 40 80"; gossips="5 10 15 20"; parts="4 8 12 16"
fi

# run NAME CMD...: wall time (s, 3 decimals) and max RSS (KB) of CMD into
# $tmp/NAME.t as "SECONDS KB STATUS", the median of R runs when the first
# takes less than a second (one run otherwise); STATUS is "ok", or
# "refused" when --period exact is refused (2^40); any other failure stops
# the script.
R=5
run() {
    local name=$1
    shift
    local start end st=ok i reps=1
    : >"$tmp/$name.runs"
    for ((i = 0; i < reps; i++)); do
        start=$(date +%s%N)
        if ! /usr/bin/time -f '%M' -o "$tmp/$name.mem" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
            if grep -q 'exact period holds more than 2^40' "$tmp/$name.err"; then
                st=refused
            else
                cat "$tmp/$name.err" >&2
                exit 1
            fi
        fi
        end=$(date +%s%N)
        echo "$(((end - start) / 1000)) $(tail -n 1 "$tmp/$name.mem")" >>"$tmp/$name.runs"
        if ((i == 0 && end - start < 1000000000)); then reps=$R; fi
    done
    sort -n "$tmp/$name.runs" | sed -n "$(((reps + 1) / 2))p" |
        awk -v st="$st" '{printf "%.3f %s %s\n", $1 / 1e6, $2, st}' >"$tmp/$name.t"
}

# row LABEL OP ARGS...: solve, plan --period exact, plan (auto); one line
# of each table.  Returns 1 when a run took more than LIMIT seconds.
row() {
    local label=$1 op=$2
    shift 2
    run solve "$steady" solve --op "$op" --json "$@"
    run exact "$steady" plan --op "$op" --period exact -o "$tmp/exact.sched" "$@"
    run auto "$steady" plan --op "$op" -o "$tmp/auto.sched" "$@"
    run one "$steady" plan --op "$op" --segments 1 -o "$tmp/one.sched" "$@"
    python3 - "$tmp" "$label" "$op" "$LIMIT" <<'PY'
import json, sys
from fractions import Fraction
tmp, label, op, limit = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])

def timing(name):
    s, kb, st = open(f"{tmp}/{name}.t").read().split()
    return float(s), int(kb) / 1024, st

def structure(path):
    """slots, transfers and the slot bound of a schedule file: a period's
    comms (one per send step of a tree that runs) decomposed into matchings
    have nslots <= ncomms + k - 1, k = max(#senders, #receivers)
    (decompose/matching.c)"""
    d = json.load(open(path))
    sends = [st for t in d["trees"] for st in t["steps"] if st["kind"] == "send"]
    k = max(len({st["from"] for st in sends}), len({st["to"] for st in sends}), 0)
    bound = len(sends) + k - 1 if sends else 0
    transfers = sum(len(s["transfers"]) for s in d["slots"])
    # the decomposition's trees: all of them in an exact period; with a
    # fixed one, loss_bound = #trees / period (trees left without an
    # operation included)
    if d["fixed_period"]:
        decomp = Fraction(d["loss_bound"]) * Fraction(d["period"])
        assert decomp.denominator == 1
        decomp = int(decomp)
    else:
        decomp = len(d["trees"])
    return dict(slots=len(d["slots"]), bound=bound, transfers=transfers, comms=len(sends),
                trees=len(d["trees"]), decomp=decomp, ops=d["ops_per_period"], lag=d["max_lag"],
                seg=d.get("segments", 1))

sol = json.load(open(f"{tmp}/solve.out"))
rates = sum(len(e["rates"]) for e in sol["hops"])
tasks = len(sol.get("tasks", []))
# trees <= positive rates: every extracted tree or route zeroes one
# (decompose/trees.c); broadcast: <= |E+| + 1 spanning arborescences,
# (|E+| + 1)^2 for a subset of targets (decompose/arborescence.c)
if op == "broadcast":
    tree_bound = (rates + 1) ** (2 if sol["upper_bound"] else 1)
else:
    tree_bound = rates + tasks

ts, ms, _ = timing("solve")
te, me, ste = timing("exact")
ta, ma, _ = timing("auto")
to, mo, _ = timing("one")
a = structure(f"{tmp}/auto.sched")
e = structure(f"{tmp}/exact.sched") if ste == "ok" else None
mark = "r" if ste == "refused" else ""
print(f'{op:<10} {label:<16} {ts:>8.3f} {te:>8.3f}{mark:1} {ta:>8.3f} {to:>8.3f} {te / ts:>6.2f} '
      f'{ta / ts:>6.2f} {ta / to:>6.2f} {ms:>7.1f} {me:>7.1f} {ma:>7.1f} {me / ms:>6.2f} {ma / ms:>6.2f}')

ex = (f'{e["ops"]:>10} {e["slots"]:>6} {e["bound"]:>6} {e["slots"] / e["bound"]:>5.2f}' if e
      else f'{"-":>10} {"-":>6} {"-":>6} {"-":>5}')
line = (f'{op:<10} {label:<16} {rates + tasks:>7} {tree_bound:>7} {a["decomp"]:>6} '
        f'{a["decomp"] / tree_bound:>6.3f} {a["trees"]:>5} {ex} {a["ops"]:>5} {a["slots"]:>6} '
        f'{a["bound"]:>6} {a["slots"] / a["bound"]:>5.2f} {a["comms"]:>7} {a["transfers"]:>7} {a["lag"]:>4} '
        f'{a["seg"]:>4}')
with open(f"{tmp}/structure.txt", "a") as f:
    print(line, file=f)
sys.exit(1 if max(ts, te, ta, to) > limit else 0)
PY
}

printf '%-10s %-16s %8s %9s %8s %8s %6s %6s %6s %7s %7s %7s %6s %6s\n' op platform solve_s \
    exact_s auto_s one_s ex/sol au/sol au/one sol_MB ex_MB au_MB ex/sol au/sol
for op in scatter broadcast gossip; do
    if [ "$op" = gossip ]; then sizes=$gossips; else sizes=$flows; fi
    for n in $sizes; do
        [ -f "$tmp/r$n.plat" ] || "$steady" gen --kind random --nodes "$n" --seed 1 -o "$tmp/r$n.plat"
        row "random-$n" "$op" "$tmp/r$n.plat" || {
            echo "($op: stopped after random-$n, a run took more than ${LIMIT} s)"
            break
        }
    done
done
# reduce: N participants on a 20-processor random platform (as bench/lp.sh)
"$steady" gen --kind random --nodes 20 --seed 1 -o "$tmp/r20.plat"
for n in $parts; do
    list=$(seq -s, 0 $((n - 1)) | sed 's/[0-9]\+/P&/g')
    row "random-20 N=$n" reduce --participants "$list" "$tmp/r20.plat" || {
        echo "(reduce: stopped after N=$n, a run took more than ${LIMIT} s)"
        break
    }
done
# scatter on a ring: long routes, deep pipelines, messages split across
# many slots; the plan costs more than the LP there
rings="40 80"
if [ -n "$quick" ]; then rings="20"; fi
for n in $rings; do
    "$steady" gen --kind ring --nodes "$n" --seed 1 -o "$tmp/ring$n.plat"
    row "ring-$n" scatter "$tmp/ring$n.plat" || {
        echo "(ring: stopped after ring-$n, a run took more than ${LIMIT} s)"
        break
    }
done
echo "(r: --period exact refused, more than 2^40 operations of a tree per period;"
echo " its time is then solve + the tree decomposition)"
echo
printf '%-10s %-16s %7s %7s %6s %6s %5s %10s %6s %6s %5s %5s %6s %6s %5s %7s %7s %4s %4s\n' op \
    platform lp_nz tr_bnd trees tr/bnd used ex_K ex_sl ex_bnd ex/b au_K au_sl au_bnd au/b \
    au_comm au_xfer lag seg
cat "$tmp/structure.txt"
echo "(lp_nz: non-zero rates of the LP solution; tr_bnd: the decomposition's bound on its"
echo " trees (positive rates, |E+| + 1 for a broadcast); trees: the decomposition's; used:"
echo " those the automatic period runs; ex_/au_: the exact and the automatic schedule:"
echo " ops per period K (segments when seg > 1), slots, their bound ncomms + max(#senders,"
echo " #receivers) - 1, comms (send steps of the trees that run), transfers (comm parts),"
echo " max lag, segments per operation)"
