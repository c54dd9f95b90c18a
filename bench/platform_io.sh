#!/bin/bash
# Reading platforms: `steady info` on the same platform in the three
# formats, side by side in one run: wall time, CPU time (user + system) and
# peak memory (max RSS) of each, and the ratios of CPU time and memory to
# the native format's (the target: within 3x).  Then SimGrid's own shapes at
# the same sizes: a <cluster> of N hosts and a Full zone of N hosts whose
# declared routes form a ring (their ratios are to the native random
# platform of the same N, which has twice the edges).
#
# The platform: N processors, 4N directed edges (a random ring plus random
# chords, every link duplex), written by a small generator below (steady gen
# stops at 10^5 processors), then `steady export` to GraphML and SimGrid.
# Median of R runs (1 at 10^6).  Needs about 2 GB of /tmp at 10^6.
#   bench/platform_io.sh BUILD_DIR [SIZES...]   (default: 10000 100000 1000000)
set -euo pipefail
steady="$1/steady"
shift
sizes=("${@:-10000 100000 1000000}")
read -r -a sizes <<<"${sizes[*]}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# the random platform: N processors, ring + chords, 2N duplex links
gen_random() {
    python3 - "$1" <<'PY'
import random, sys
n = int(sys.argv[1]); random.seed(1)
w = sys.stdout.write
w("platform random-%d\n" % n)
for i in range(n): w("processor P%d speed=%d\n" % (i, random.randint(1, 10) * 10**9))
perm = list(range(n)); random.shuffle(perm)
pairs = set()
for k in range(n):
    a, b = perm[k], perm[(k + 1) % n]
    pairs.add((min(a, b), max(a, b)))
while len(pairs) < 2 * n:
    a, b = random.randrange(n), random.randrange(n)
    if a != b: pairs.add((min(a, b), max(a, b)))
for a, b in pairs:
    lat = random.randint(1, 1000) * 1e-6
    w("edge P%d P%d bandwidth=%d latency=%g\n" % (a, b, random.randint(10, 1250) * 10**6, lat))
    w("edge P%d P%d bandwidth=%d latency=%g\n" % (b, a, random.randint(10, 1250) * 10**6, lat))
PY
}

gen_cluster() {
    printf '<?xml version="1.0"?>\n<platform version="4.1">\n  <cluster id="c" prefix="h" suffix="" radical="0-%d" speed="1Gf" bw="125MBps" lat="50us" bb_bw="2.25GBps" bb_lat="500us"/>\n</platform>\n' "$(($1 - 1))"
}

gen_full() {
    python3 - "$1" <<'PY'
import sys
n = int(sys.argv[1]); w = sys.stdout.write
w('<?xml version="1.0"?>\n<platform version="4.1">\n  <zone id="full" routing="Full">\n')
for i in range(n): w('    <host id="h%d" speed="1Gf"/>\n' % i)
for i in range(n): w('    <link id="l%d" bandwidth="%dMBps" latency="10us"/>\n' % (i, 100 + i % 900))
for i in range(n): w('    <route src="h%d" dst="h%d"><link_ctn id="l%d"/></route>\n' % (i, (i + 1) % n, i))
w('  </zone>\n</platform>\n')
PY
}

# "wall cpu rss_mb" of `steady info` on a file: the median run (by CPU) of R
measure() {
    local r=$1 file=$2
    for _ in $(seq "$r"); do
        /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$steady" info --quiet "$file" >/dev/null
        awk '{printf "%.2f %.2f %.0f\n", $1, $2 + $3, $4 / 1024}' "$tmp/time"
    done | sort -k2,2n | sed -n "$(((r + 1) / 2))p"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", (b > 0 ? a / b : 0)}'; }

printf '%-10s %-9s %-16s %8s %8s %8s %8s %8s\n' nodes edges format wall_s cpu_s rss_MB \
    cpu/nat rss/nat
for n in "${sizes[@]}"; do
    r=3
    [ "$n" -ge 1000000 ] && r=1
    gen_random "$n" >"$tmp/p.plat"
    "$steady" export --quiet --format graphml "$tmp/p.plat" -o "$tmp/p.graphml"
    "$steady" export --quiet --format simgrid --hostfile "$tmp/p.hosts" "$tmp/p.plat" \
        -o "$tmp/p.xml"
    gen_cluster "$n" >"$tmp/c.xml"
    gen_full "$n" >"$tmp/f.xml"
    read -r nw nc nm <<<"$(measure $r "$tmp/p.plat")"
    for f in native:p.plat:4 graphml:p.graphml:4 simgrid:p.xml:4 simgrid-cluster:c.xml:2 \
        simgrid-full:f.xml:2; do
        IFS=: read -r name file per <<<"$f"
        if [ "$name" = native ]; then
            w=$nw c=$nc m=$nm
        else
            read -r w c m <<<"$(measure $r "$tmp/$file")"
        fi
        printf '%-10s %-9s %-16s %8s %8s %8s %8s %8s\n' "$n" "$((per * n))" "$name" "$w" "$c" "$m" \
            "$(ratio "$c" "$nc")" "$(ratio "$m" "$nm")"
    done
    rm -f "$tmp"/p.* "$tmp"/c.xml "$tmp"/f.xml
done
