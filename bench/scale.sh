#!/bin/bash
# Issue 17's scale targets (docs/performance.md): wall time and peak memory
# (/usr/bin/time -v) of `steady solve` and `steady plan` with the default
# formulation on 1,000-node tiers and random platforms (4 links per node),
# 10,000-node solves, gossip on 100 processors, reduce with 8 to 100
# participants on 100 and 1,000 nodes (solve and plan); flat SimGrid
# clusters of 200 to 1,000 hosts (the broadcast by arborescences against
# the cuts, side by side), the reduce of every host of 100 and 200; SimGrid's torus, fat tree and dragonfly
# clusters of 1,000 hosts against a flat one; Vivaldi zones of 100 to 1,000
# peers; then, at 100 and 200 nodes, steady against glpsol (and Clp's
# clp binary when installed) on the *full* per-type LP that
# `--formulation full --write-lp` writes, side by side; then the growth of
# the solve and plan times with the number of nodes, and their fitted
# exponents.
#   bench/scale.sh BUILD_DIR [quick]
# Every run is capped by LIMIT seconds (default 120): "-" is a run that
# did not finish.
set -uo pipefail
steady="$1/steady"
quick=${2:-}
limit=${LIMIT:-120}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

measure() { # CMD...: prints "seconds MiB" or "- -"
    if timeout "$limit" /usr/bin/time -v "$@" >"$tmp/out" 2>"$tmp/time"; then
        awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]}
                    /Maximum resident/ {m = $2 / 1024}
                    END {printf "%.2f %.0f", s, m}' "$tmp/time"
    else
        echo "- -"
    fi
}

if [ -n "$quick" ]; then big="100"; huge=""; sizes="25 50 100"; cmp="50"; flat="100"; reduce_flat="50 100"; else
    big="1000"; huge="10000"; sizes="125 250 500 1000"; cmp="100 200"; flat="200 400 1000"; reduce_flat="100 200"; fi

echo "# solve and plan, default formulation (seconds, peak MiB)"
printf '%-8s %-10s %6s %10s %10s %10s %10s\n' kind op nodes solve_s solve_MiB plan_s plan_MiB
for n in $big; do
    for kind in tiers random; do
        "$steady" gen --kind $kind --nodes "$n" --seed 1 -o "$tmp/p.plat"
        for op in scatter broadcast; do
            read -r st sm < <(measure "$steady" solve --quiet --op $op "$tmp/p.plat")
            read -r pt pm < <(measure "$steady" plan --quiet --op $op -o "$tmp/p.sched" "$tmp/p.plat")
            printf '%-8s %-10s %6s %10s %10s %10s %10s\n' $kind $op "$n" "$st" "$sm" "$pt" "$pm"
        done
    done
done
for n in $huge; do
    for kind in tiers random; do
        "$steady" gen --kind $kind --nodes "$n" --seed 1 -o "$tmp/p.plat"
        for op in scatter broadcast; do
            read -r st sm < <(measure "$steady" solve --quiet --op $op "$tmp/p.plat")
            printf '%-8s %-10s %6s %10s %10s %10s %10s\n' $kind $op "$n" "$st" "$sm" "" ""
        done
    done
done
"$steady" gen --kind random --nodes 100 --seed 1 -o "$tmp/r100.plat"
read -r st sm < <(measure "$steady" solve --quiet --op gossip "$tmp/r100.plat")
printf '%-8s %-10s %6s %10s %10s\n' random gossip 100 "$st" "$sm"
# reduce by reduction trees: N participants P0..P(N-1), solve and plan
for n in 100 $big; do
    "$steady" gen --kind random --nodes "$n" --seed 1 -o "$tmp/r.plat"
    for N in 8 16 32 64 100; do
        list=$(seq -s, 0 $((N - 1)) | sed 's/[0-9]\+/P&/g')
        read -r st sm < <(measure "$steady" solve --quiet --op reduce --participants "$list" "$tmp/r.plat")
        read -r pt pm < <(measure "$steady" plan --quiet --op reduce --participants "$list" -o "$tmp/r.sched" "$tmp/r.plat")
        printf '%-8s %-10s %6s %10s %10s %10s %10s   (N=%d)\n' random reduce "$n" "$st" "$sm" "$pt" "$pm" "$N"
    done
done

echo
echo "# flat SimGrid clusters (a switch, one 125 MBps link per host; N (N - 1) hops):"
echo "# the broadcast by generated arborescences (the default) against the cuts"
echo "# (--formulation cuts) side by side, the scatter, and the broadcast's plan"
printf '%-6s %8s %10s %10s %10s %10s %10s %10s %10s\n' hosts hops arb_s arb_MiB cuts_s cuts/arb scatter_s plan_s plan_MiB
for n in $flat; do
    cat >"$tmp/flat.xml" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="world" routing="Full">
    <cluster id="c" prefix="node-" suffix="" radical="0-$((n - 1))" speed="1Gf" bw="125MBps" lat="50us"/>
  </zone>
</platform>
XML
    read -r at am < <(measure "$steady" solve --quiet --op broadcast "$tmp/flat.xml")
    read -r ct _ < <(measure "$steady" solve --quiet --op broadcast --formulation cuts "$tmp/flat.xml")
    read -r sct _ < <(measure "$steady" solve --quiet --op scatter "$tmp/flat.xml")
    read -r pt pm < <(measure "$steady" plan --quiet --op broadcast -o "$tmp/f.sched" "$tmp/flat.xml")
    ratio=$(awk -v a="$at" -v c="$ct" -v l="$limit" 'BEGIN{ if (a == "-" || a + 0 <= 0) print "-"; else if (c == "-") printf ">%.0f", l / a; else printf "%.1f", c / a }')
    printf '%-6s %8s %10s %10s %10s %10s %10s %10s %10s\n' "$n" $((n * (n - 1))) "$at" "$am" "$ct" "$ratio" "$sct" "$pt" "$pm"
done

echo
echo "# the reduce of every host of a flat cluster (the same file; N (N + 1) / 2 intervals on"
echo "# N + 1 nodes, and on a homogeneous cluster nearly every condition of the exact pricing a tie)"
printf '%-6s %10s %10s %10s %10s\n' hosts solve_s solve_MiB plan_s plan_MiB
for n in $reduce_flat; do
    sed "s/radical=\"[^\"]*\"/radical=\"0-$((n - 1))\"/" "$tmp/flat.xml" >"$tmp/rflat.xml"
    read -r st sm < <(measure "$steady" solve --quiet --op reduce "$tmp/rflat.xml")
    read -r pt pm < <(measure "$steady" plan --quiet --op reduce -o "$tmp/rf.sched" "$tmp/rflat.xml")
    printf '%-6s %10s %10s %10s %10s\n' "$n" "$st" "$sm" "$pt" "$pm"
done

echo
echo "# SimGrid's torus, fat tree and dragonfly <cluster>s (an edge between every two hosts,"
echo "# crossing SimGrid's route) against a flat cluster of as many hosts (3 N edges"
echo "# around a switch), side by side: reading (steady info), the broadcast, the scatter"
printf '%-10s %6s %8s %8s %10s %10s %10s %10s %12s
' topology hosts read_s read_MiB bcast_s bcast_MiB scatter_s scatter_MiB bcast/flat
if [ -n "$quick" ]; then topos="TORUS:4,4,4:64 FAT_TREE:2;8,8;1,8;1,1:64 DRAGONFLY:2,1;2,2;2,1;8:64 FLAT::64"
else topos="TORUS:8,8,16:1024 FAT_TREE:3;16,8,8;1,8,8;1,1,1:1024 DRAGONFLY:5,1;5,2;5,1;8:1000 FLAT::1000"; fi
for t in $topos; do
    IFS=: read -r topo params n <<<"$t"
    extra=""
    [ "$topo" != FLAT ] && extra="topology=\"$topo\" topo_parameters=\"$params\""
    cat >"$tmp/topo.xml" <<XML
<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <zone id="world" routing="Full">
    <cluster id="c" prefix="n-" suffix="" radical="0-$((n - 1))" speed="1Gf" bw="10GBps" lat="1us" $extra/>
  </zone>
</platform>
XML
    read -r rt rm < <(measure "$steady" info "$tmp/topo.xml")
    read -r bt bm < <(measure "$steady" solve --quiet --op broadcast "$tmp/topo.xml")
    read -r st sm < <(measure "$steady" solve --quiet --op scatter "$tmp/topo.xml")
    printf '%-10s %6s %8s %8s %10s %10s %10s %10s\n' "$topo" "$n" "$rt" "$rm" "$bt" "$bm" "$st" "$sm"
done | sort -k1,1 -s >"$tmp/topo.txt"
# the flat row last, and each row's broadcast over the flat cluster's (the
# flat cluster of 1,000 stands for the 1,024-host ones)
fb=$(awk '$1 == "FLAT" {print $5}' "$tmp/topo.txt")
awk -v fb="$fb" '$1 != "FLAT" {r = (fb == "-" || $5 == "-" || fb + 0 <= 0) ? "-" : sprintf("%.1f", $5 / fb); print $0 "  " r}' "$tmp/topo.txt"
awk '$1 == "FLAT" {print $0 "  1.0"}' "$tmp/topo.txt"

echo
echo "# SimGrid Vivaldi zones of N <peer>s (random coordinates, each peer's up and down"
echo "# links of 1.25, 12.5 or 125 MBps; an edge between every two peers): solve and plan"
printf '%-6s %-10s %10s %10s %10s %10s\n' peers op solve_s solve_MiB plan_s plan_MiB
if [ -n "$quick" ]; then peers="100"; else peers="100 300 1000"; fi
for n in $peers; do
    python3 - "$n" >"$tmp/viv.xml" <<'PY'
import random, sys
n = int(sys.argv[1])
random.seed(1)
bw = ["1.25MBps", "12.5MBps", "125MBps"]
print("<?xml version='1.0'?>\n<platform version=\"4.1\">\n  <zone id=\"p2p\" routing=\"Vivaldi\">")
for i in range(n):
    print('    <peer id="peer-%d" coordinates="%.1f %.1f %.1f" speed="1Gf" bw_in="%s" bw_out="%s"/>'
          % (i, random.uniform(-100, 100), random.uniform(-100, 100), random.uniform(0, 20),
             random.choice(bw), random.choice(bw)))
print("  </zone>\n</platform>")
PY
    for op in broadcast scatter; do
        read -r st sm < <(measure "$steady" solve --quiet --op $op "$tmp/viv.xml")
        read -r pt pm < <(measure "$steady" plan --quiet --op $op -o "$tmp/viv.sched" "$tmp/viv.xml")
        printf '%-6s %-10s %10s %10s %10s %10s\n' "$n" $op "$st" "$sm" "$pt" "$pm"
    done
done

echo
echo "# the full LP (--formulation full --write-lp): steady auto, steady full, glpsol, clp (seconds)"
printf '%-8s %-10s %6s %8s %8s %8s %8s %8s\n' kind op nodes auto_s full_s glpsol_s clp_s full/auto
for n in $cmp; do
    for kind in tiers random; do
        "$steady" gen --kind $kind --nodes "$n" --seed 1 -o "$tmp/p.plat"
        for op in scatter broadcast; do
            read -r at _ < <(measure "$steady" solve --quiet --op $op "$tmp/p.plat")
            read -r ft _ < <(measure "$steady" solve --quiet --op $op --formulation full --write-lp "$tmp/full.lp" "$tmp/p.plat")
            gt=- ct=-
            if [ -s "$tmp/full.lp" ]; then
                # (never -o /dev/null: glpsol replaces the device with a regular file)
                read -r gt _ < <(measure glpsol --lp "$tmp/full.lp" -o "$tmp/full.sol")
                if command -v clp >/dev/null; then
                    read -r ct _ < <(measure clp "$tmp/full.lp" -primalsimplex)
                fi
            fi
            rm -f "$tmp/full.lp"
            ratio=$(awk -v a="$at" -v f="$ft" 'BEGIN{ if (a + 0 > 0 && f != "-") printf "%.1f", f / a; else print "-" }')
            printf '%-8s %-10s %6s %8s %8s %8s %8s %8s\n' $kind $op "$n" "$at" "$ft" "$gt" "$ct" "$ratio"
        done
    done
done

echo
echo "# growth with the nodes (default formulation and plan): exponent k of a least-squares fit"
echo "# t = c n^k of the times above 0.05 s, then seconds and peak MiB per size"
for kind in tiers random; do
    for op in scatter broadcast; do
        spts="" ppts=""
        for n in $sizes; do
            "$steady" gen --kind $kind --nodes "$n" --seed 1 -o "$tmp/p.plat"
            read -r st sm < <(measure "$steady" solve --quiet --op $op "$tmp/p.plat")
            read -r pt pm < <(measure "$steady" plan --quiet --op $op -o "$tmp/p.sched" "$tmp/p.plat")
            spts="$spts $n:$st:$sm"
            ppts="$ppts $n:$pt:$pm"
        done
        for what in solve plan; do
            if [ $what = solve ]; then pts=$spts; else pts=$ppts; fi
            python3 - "$kind" "$op" "$what" $pts <<'PY'
import math, sys
kind, op, what, pts = sys.argv[1], sys.argv[2], sys.argv[3], [p.split(":") for p in sys.argv[4:]]
ok = [(int(n), float(t)) for n, t, _ in pts if t != "-" and float(t) > 0.05]
row = "  ".join(f"{n}: {t} s {m} MiB" for n, t, m in pts)
k = "-"
if len(ok) >= 2:
    xs = [math.log(n) for n, _ in ok]; ys = [math.log(t) for _, t in ok]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    k = "%.2f" % (sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs))
print(f"{kind:<8} {op:<10} {what:<6} exponent {k:>5}   {row}")
PY
        done
    done
done
