/*
 * gen.c — platform generators: random, tiers, cluster, ring, star.
 *
 * Reproducibility.  A generated platform is an experiment's input: a user
 * who reports "tiers, 40 processors, seed 7" must get the same file on any
 * machine, with any libc, years later.  rand() differs between C libraries,
 * igraph's RNG is process-global state shared with every other igraph user
 * and its streams may change between igraph versions, and libm's exp/log
 * are not guaranteed to round identically everywhere.  So the generator
 * owns its PRNG (xoshiro256**, seeded through splitmix64 as its authors
 * recommend), draws integers only, and builds every value with a single
 * correctly rounded IEEE multiplication or division (see draw()).  It
 * also never passes two draws as arguments of one call, since C leaves the
 * order of evaluation of arguments unspecified.
 *
 * Values.  Heterogeneous values are log-uniform (each decade between the
 * bounds is equally likely) and have three significant digits.  Ranges:
 *
 *   level    bandwidth (B/s)            latency           used by
 *   LAN      100 MB/s .. 1.25 GB/s      1 us .. 50 us     tiers: processor - LAN switch
 *   MAN      10 MB/s .. 100 MB/s        0.1 ms .. 1 ms    tiers: LAN switch - MAN, MAN - WAN
 *   WAN      1 MB/s .. 10 MB/s          5 ms .. 50 ms     tiers: WAN backbone
 *   FLAT     10 MB/s .. 1.25 GB/s       1 us .. 1 ms      random, ring, star
 *   processor speed 1 .. 10 Gflop/s (every heterogeneous kind)
 *   cluster (homogeneous): 125 MB/s (1 Gb Ethernet), 50 us, 4 Gflop/s
 *
 * Overheads are 0.  Every link is duplex (two directed edges); its two
 * directions share one latency draw (propagation is symmetric) but each gets
 * its own bandwidth draw: achieved bandwidth is often asymmetric on real
 * networks, and an asymmetric platform exposes code that confuses c(i,j)
 * with c(j,i).  The cluster is symmetric.
 *
 * Node order: processors P0..P{N-1} first (MPI rank i runs processor Pi),
 * then routers.  The platform is named KIND-N-sSEED ("cluster-N" for the
 * cluster, which ignores its seed).
 */
#include "internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define GEN_MAX_PROCESSORS 100000

/* ---- PRNG ------------------------------------------------------------- */

typedef struct {
    uint64_t s[4];
} rng_t;

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* splitmix64 spreads any seed (0 included) over xoshiro's 256-bit state,
 * which is then never all zero. */
static void rng_seed(rng_t *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* xoshiro256** 1.0 (Blackman and Vigna). */
static uint64_t rng_next(rng_t *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Uniform integer in [0, n), n >= 1, without modulo bias: values below
 * 2^64 mod n are rejected so that every residue has the same number of
 * preimages. */
static uint64_t rng_below(rng_t *r, uint64_t n)
{
    uint64_t threshold = (0 - n) % n;
    for (;;) {
        uint64_t x = rng_next(r);
        if (x >= threshold)
            return x % n;
    }
}

/* Uniform integer in [lo, hi]. */
static int rng_between(rng_t *r, int lo, int hi)
{
    return lo + (int)rng_below(r, (uint64_t)(hi - lo) + 1);
}

/* ---- log-uniform values with three significant digits ---------------- */

/* The value m * 10^e with 100 <= m <= 999. */
typedef struct {
    int m, e;
} sig3_t;

typedef struct {
    sig3_t lo, hi;
} span_t;

typedef struct {
    span_t bandwidth, latency;
} level_t;

/* Bounds of the table in the header comment, as sig3_t. */
static const level_t LAN = {{{100, 6}, {125, 7}}, {{100, -8}, {500, -7}}};
static const level_t MAN = {{{100, 5}, {100, 6}}, {{100, -6}, {100, -5}}};
static const level_t WAN = {{{100, 4}, {100, 5}}, {{500, -5}, {500, -4}}};
static const level_t FLAT = {{{100, 5}, {125, 7}}, {{100, -8}, {100, -5}}};
static const span_t SPEED = {{100, 7}, {100, 8}};

#define CLUSTER_BANDWIDTH 125e6
#define CLUSTER_LATENCY   50e-6
#define CLUSTER_SPEED     4e9

/* Exact powers of ten: every 10^k with k <= 22 is a double. */
static const double POW10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                               1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                               1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Index of m * 10^e on the grid of three-significant-digit numbers. */
static int64_t grid_index(sig3_t v)
{
    return (int64_t)v.e * 900 + (v.m - 100);
}

/*
 * A log-uniform draw between s.lo and s.hi, on the grid of numbers with
 * three significant digits, without logarithms or exponentials.
 *
 * Within a decade the grid points m * 10^e (m = 100..999) are evenly
 * spaced, so a point's share of the log-uniform density (proportional to
 * 1/x) is proportional to 1/m, whatever the decade.  Drawing a grid point
 * uniformly and accepting it with probability 100/m (an integer test)
 * therefore gives the log-uniform distribution restricted to the grid; about
 * one candidate in four is accepted.  The double is then m * 10^e or
 * m / 10^-e, one correctly rounded operation on exact operands, hence the
 * same double that strtod gives for "me" "e" on every IEEE machine.
 */
static double draw(rng_t *r, span_t s)
{
    int64_t lo = grid_index(s.lo), hi = grid_index(s.hi);
    for (;;) {
        int64_t k = lo + (int64_t)rng_below(r, (uint64_t)(hi - lo) + 1);
        /* floor division: exponents are negative for times */
        int64_t e = k >= 0 ? k / 900 : -((-k + 899) / 900);
        int m = (int)(k - e * 900) + 100;
        if (rng_below(r, (uint64_t)m) >= 100)
            continue;
        return e >= 0 ? (double)m * POW10[e] : (double)m / POW10[-e];
    }
}

/* ---- building the platform ------------------------------------------- */

typedef struct {
    steady_platform_t *p;
    rng_t rng;
    steady_error_t *err;
} gen_t;

/* Model errors here are bugs of the generator (it builds valid platforms),
 * except running out of memory. */
static steady_err_t model_error(gen_t *g, steady_err_t rc)
{
    if (rc != STEADY_ENOMEM && rc != STEADY_OK) {
        rc = STEADY_EINTERNAL;
        if (g->err) {
            g->err->code = rc;
            steady_error_prefix(g->err, "platform generator: ");
        }
    }
    return rc;
}

/* P0..P{n-1}, with drawn speeds unless homogeneous. */
static steady_err_t add_processors(gen_t *g, int n, bool homogeneous)
{
    for (int i = 0; i < n; i++) {
        char name[32];
        snprintf(name, sizeof name, "P%d", i);
        double speed = homogeneous ? CLUSTER_SPEED : draw(&g->rng, SPEED);
        steady_err_t rc =
            steady_platform_add_node(g->p, name, STEADY_PROCESSOR, speed, NULL, g->err);
        if (rc)
            return model_error(g, rc);
    }
    return STEADY_OK;
}

static steady_err_t add_router(gen_t *g, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static steady_err_t add_router(gen_t *g, const char *fmt, ...)
{
    char name[64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    steady_err_t rc = steady_platform_add_node(g->p, name, STEADY_ROUTER, 0, NULL, g->err);
    return rc ? model_error(g, rc) : STEADY_OK;
}

/* The two edges a -> b and b -> a with the given values. */
static steady_err_t add_duplex(gen_t *g, int a, int b, double bw_ab, double bw_ba, double latency)
{
    steady_edge_t e = {.src = a, .dst = b, .bandwidth = bw_ab, .latency = latency};
    steady_err_t rc = steady_platform_add_edge(g->p, &e, NULL, g->err);
    if (!rc) {
        e = (steady_edge_t){.src = b, .dst = a, .bandwidth = bw_ba, .latency = latency};
        rc = steady_platform_add_edge(g->p, &e, NULL, g->err);
    }
    return rc ? model_error(g, rc) : STEADY_OK;
}

/* A duplex link with values drawn for its level: one latency, then one
 * bandwidth per direction (a -> b first). */
static steady_err_t add_link(gen_t *g, int a, int b, const level_t *level)
{
    double latency = draw(&g->rng, level->latency);
    double bw_ab = draw(&g->rng, level->bandwidth);
    double bw_ba = draw(&g->rng, level->bandwidth);
    return add_duplex(g, a, b, bw_ab, bw_ba, latency);
}

static bool linked(const gen_t *g, int a, int b)
{
    return steady_platform_find_edge(g->p, a, b) >= 0;
}

/* ---- the generators ---------------------------------------------------- */

/* N processors behind one router "switch", every value fixed. */
static steady_err_t gen_cluster(gen_t *g, int n)
{
    steady_err_t rc;
    if ((rc = add_processors(g, n, true)) || (rc = add_router(g, "switch")))
        return rc;
    for (int i = 0; i < n; i++)
        if ((rc = add_duplex(g, i, n, CLUSTER_BANDWIDTH, CLUSTER_BANDWIDTH, CLUSTER_LATENCY)))
            return rc;
    return STEADY_OK;
}

/* P0 - P1 - ... - P{N-1} - P0; for N = 2 a single link. */
static steady_err_t gen_ring(gen_t *g, int n)
{
    steady_err_t rc = add_processors(g, n, false);
    for (int i = 0; !rc && i < (n == 2 ? 1 : n); i++)
        rc = add_link(g, i, (i + 1) % n, &FLAT);
    return rc;
}

/* P0 (the master) linked to each of P1..P{N-1}. */
static steady_err_t gen_star(gen_t *g, int n)
{
    steady_err_t rc = add_processors(g, n, false);
    for (int i = 1; !rc && i < n; i++)
        rc = add_link(g, 0, i, &FLAT);
    return rc;
}

/*
 * A random Hamiltonian cycle (a shuffled ring: strongly connected by
 * construction, whatever the later draws), then links between uniformly
 * drawn pairs of distinct, not yet linked processors until there are 2N
 * links — an average of 4 neighbours per processor — or the graph is
 * complete (N <= 5).  Expected O(N) draws: the graph stays sparse for
 * large N, and for small N the rejection loop fills at most 10 pairs.
 */
static steady_err_t gen_random(gen_t *g, int n)
{
    steady_err_t rc = add_processors(g, n, false);
    if (rc)
        return rc;
    int *perm = malloc((size_t)n * sizeof *perm);
    if (!perm)
        return steady_error_set(g->err, STEADY_ENOMEM, "out of memory");
    for (int i = 0; i < n; i++)
        perm[i] = i;
    for (int i = n - 1; i > 0; i--) { /* Fisher-Yates */
        int j = (int)rng_below(&g->rng, (uint64_t)i + 1);
        int t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    int64_t links = 0;
    for (int i = 0; !rc && i < (n == 2 ? 1 : n); i++, links++)
        rc = add_link(g, perm[i], perm[(i + 1) % n], &FLAT);
    free(perm);

    int64_t complete = (int64_t)n * (n - 1) / 2;
    int64_t target = 2 * (int64_t)n < complete ? 2 * (int64_t)n : complete;
    while (!rc && links < target) {
        int a = (int)rng_below(&g->rng, (uint64_t)n);
        int b = (int)rng_below(&g->rng, (uint64_t)n);
        if (a == b || linked(g, a, b))
            continue;
        rc = add_link(g, a, b, &FLAT);
        links++;
    }
    return rc;
}

/*
 * A Tiers-like hierarchy (Doar's Tiers generator, used in the paper's
 * section 4.7): processors only at LAN level, routers above them.
 *
 *   LANs      the N processors are cut into consecutive groups of 2..8
 *             (a group that would leave a single processor takes it in, so
 *             a LAN has 2..9 processors); each LAN is a switch router
 *             "lanW_M_L" linked to its processors (LAN values).
 *   MANs      consecutive LANs are grouped 1..3 per MAN router "manW_M";
 *             each LAN switch is linked to its MAN router (MAN values).
 *   WAN       consecutive MANs are grouped 1..2 per WAN router "wanW";
 *             each MAN router is linked to its WAN router (MAN values: the
 *             metropolitan access to the backbone).  The WAN routers form a
 *             ring (one link for 2, none for 1) plus, from 4 WAN routers on,
 *             floor(W/4) chords between random non-adjacent pairs, which keep
 *             the backbone's diameter small on big platforms (WAN values).
 *
 * All links are duplex, so every node reaches every other one.  Group
 * sizes are drawn first, then processor speeds, then link values, in the
 * order of the links: WAN ring, chords, MAN-WAN, LAN-MAN, processor-LAN.
 */
static steady_err_t gen_tiers(gen_t *g, int n)
{
    steady_err_t rc = STEADY_OK;
    /* each LAN has >= 2 processors, so N/2 entries suffice for every level */
    size_t cap = (size_t)n / 2 + 1;
    int *lan_size = malloc(cap * sizeof *lan_size);
    int *man_lans = malloc(cap * sizeof *man_lans);
    int *wan_mans = malloc(cap * sizeof *wan_mans);
    if (!lan_size || !man_lans || !wan_mans) {
        rc = steady_error_set(g->err, STEADY_ENOMEM, "out of memory");
        goto cleanup;
    }

    int lans = 0, mans = 0, wans = 0;
    for (int left = n; left > 0;) {
        int s = rng_between(&g->rng, 2, 8);
        if (s > left)
            s = left;
        if (left - s == 1)
            s++;
        lan_size[lans++] = s;
        left -= s;
    }
    for (int left = lans; left > 0;) {
        int k = rng_between(&g->rng, 1, 3);
        man_lans[mans++] = k < left ? k : left;
        left -= man_lans[mans - 1];
    }
    for (int left = mans; left > 0;) {
        int k = rng_between(&g->rng, 1, 2);
        wan_mans[wans++] = k < left ? k : left;
        left -= wan_mans[wans - 1];
    }

    if ((rc = add_processors(g, n, false)))
        goto cleanup;
    /* routers: WAN, then MAN, then LAN switches, each level in order */
    int wan0 = n, man0 = n + wans, lan0 = n + wans + mans;
    for (int w = 0; w < wans && !rc; w++)
        rc = add_router(g, "wan%d", w);
    for (int w = 0, m = 0; w < wans && !rc; w++)
        for (int k = 0; k < wan_mans[w] && !rc; k++, m++)
            rc = add_router(g, "man%d_%d", w, k);
    for (int w = 0, m = 0; w < wans && !rc; w++)
        for (int k = 0; k < wan_mans[w]; k++, m++)
            for (int l = 0; l < man_lans[m] && !rc; l++)
                rc = add_router(g, "lan%d_%d_%d", w, k, l);
    if (rc)
        goto cleanup;

    for (int w = 0; w < (wans == 2 ? 1 : wans > 2 ? wans : 0) && !rc; w++)
        rc = add_link(g, wan0 + w, wan0 + (w + 1) % wans, &WAN);
    for (int c = 0; c < (wans >= 4 ? wans / 4 : 0) && !rc;) {
        int a = (int)rng_below(&g->rng, (uint64_t)wans);
        int b = (int)rng_below(&g->rng, (uint64_t)wans);
        if (a == b || (a + 1) % wans == b || (b + 1) % wans == a || linked(g, wan0 + a, wan0 + b))
            continue;
        rc = add_link(g, wan0 + a, wan0 + b, &WAN);
        c++;
    }
    for (int w = 0, m = 0; w < wans && !rc; w++)
        for (int k = 0; k < wan_mans[w] && !rc; k++, m++)
            rc = add_link(g, man0 + m, wan0 + w, &MAN);
    for (int m = 0, l = 0; m < mans && !rc; m++)
        for (int k = 0; k < man_lans[m] && !rc; k++, l++)
            rc = add_link(g, lan0 + l, man0 + m, &MAN);
    for (int l = 0, proc = 0; l < lans && !rc; l++)
        for (int k = 0; k < lan_size[l] && !rc; k++, proc++)
            rc = add_link(g, proc, lan0 + l, &LAN);

cleanup:
    free(lan_size);
    free(man_lans);
    free(wan_mans);
    return rc;
}

/* ---- public API ----------------------------------------------------------- */

static const char *const kind_names[] = {"random", "tiers", "cluster", "ring", "star"};

/* Fewest processors each kind can be built with. */
static const int kind_min[] = {2, 2, 1, 2, 2};

#define KIND_COUNT ((int)(sizeof kind_names / sizeof *kind_names))

int steady_gen_kind_from_name(const char *name)
{
    for (int k = 0; k < KIND_COUNT; k++)
        if (strcmp(name, kind_names[k]) == 0)
            return k;
    return -1;
}

const char *steady_gen_kind_name(steady_gen_kind_t kind)
{
    return (unsigned)kind < (unsigned)KIND_COUNT ? kind_names[kind] : "?";
}

/* O(N) expected draws and memory for every kind.  Time is O(N) too except
 * for star and cluster, whose hub gets N - 1 edges: steady_platform_add_edge
 * checks for a duplicate in O(out-degree of src), so the hub's edges cost
 * O(N^2) in all (about 7 s for a 100000-processor cluster). */
steady_err_t steady_platform_generate(steady_gen_kind_t kind, int processors, uint64_t seed,
                                      steady_platform_t **out, steady_error_t *err)
{
    *out = NULL;
    if ((unsigned)kind >= (unsigned)KIND_COUNT)
        return steady_error_set(err, STEADY_EINVAL, "unknown generator kind (%d)", (int)kind);
    if (processors < kind_min[kind])
        return steady_error_set(err, STEADY_EINVAL,
                                "invalid processor count: --nodes must be at least %d for kind "
                                "%s (got %d)",
                                kind_min[kind], kind_names[kind], processors);
    if (processors > GEN_MAX_PROCESSORS)
        return steady_error_set(err, STEADY_EINVAL,
                                "invalid processor count: --nodes must be at most %d (got %d)",
                                GEN_MAX_PROCESSORS, processors);

    gen_t g = {.err = err};
    rng_seed(&g.rng, seed);
    steady_err_t rc = steady_platform_create(&g.p, err);
    if (rc)
        return rc;

    char name[64];
    if (kind == STEADY_GEN_CLUSTER)
        snprintf(name, sizeof name, "cluster-%d", processors);
    else
        snprintf(name, sizeof name, "%s-%d-s%" PRIu64, kind_names[kind], processors, seed);
    if ((rc = steady_platform_set_name(g.p, name, err)))
        goto cleanup;

    switch (kind) {
    case STEADY_GEN_RANDOM: rc = gen_random(&g, processors); break;
    case STEADY_GEN_TIERS: rc = gen_tiers(&g, processors); break;
    case STEADY_GEN_CLUSTER: rc = gen_cluster(&g, processors); break;
    case STEADY_GEN_RING: rc = gen_ring(&g, processors); break;
    case STEADY_GEN_STAR: rc = gen_star(&g, processors); break;
    }

cleanup:
    if (rc) {
        steady_platform_destroy(g.p);
        return rc;
    }
    *out = g.p;
    return STEADY_OK;
}
