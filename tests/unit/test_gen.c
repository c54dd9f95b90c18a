/*
 * test_gen.c — the platform generators: shape of each kind, documented
 * value ranges, reproducibility from the seed, exact native round trip and
 * the argument errors.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"

static const steady_gen_kind_t KINDS[] = {STEADY_GEN_RANDOM, STEADY_GEN_TIERS, STEADY_GEN_CLUSTER,
                                          STEADY_GEN_RING, STEADY_GEN_STAR};
#define NKINDS ((int)(sizeof KINDS / sizeof *KINDS))

static const int SIZES[] = {2, 3, 4, 5, 6, 7, 8, 9, 10, 13, 17, 24, 31, 40, 60};
#define NSIZES ((int)(sizeof SIZES / sizeof *SIZES))

static const uint64_t SEEDS[] = {0, 1, 2, 12345, UINT64_MAX};
#define NSEEDS ((int)(sizeof SEEDS / sizeof *SEEDS))

/* The value ranges documented in platform/gen.c. */
typedef struct {
    double bw_lo, bw_hi, lat_lo, lat_hi;
} level_t;
static const level_t LAN = {100e6, 1.25e9, 1e-6, 50e-6};
static const level_t MAN = {10e6, 100e6, 0.1e-3, 1e-3};
static const level_t WAN = {1e6, 10e6, 5e-3, 50e-3};
static const level_t FLAT = {10e6, 1.25e9, 1e-6, 1e-3};
#define SPEED_LO 1e9
#define SPEED_HI 10e9

static steady_platform_t *gen_ok(steady_gen_kind_t kind, int n, uint64_t seed)
{
    steady_platform_t *p = NULL;
    steady_error_t err = {0};
    steady_err_t rc = steady_platform_generate(kind, n, seed, &p, &err);
    if (rc)
        fprintf(stderr, "\n    unexpected generator error: %s\n", err.msg);
    CU_ASSERT_EQUAL_FATAL(rc, STEADY_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    return p;
}

static char *gen_text(steady_gen_kind_t kind, int n, uint64_t seed)
{
    steady_platform_t *p = gen_ok(kind, n, seed);
    char *text = write_string(p, STEADY_FORMAT_NATIVE, NULL);
    steady_platform_destroy(p);
    return text;
}

static steady_platform_summary_t summarize(const steady_platform_t *p)
{
    steady_platform_summary_t s;
    steady_error_t err = {0};
    steady_err_t rc = steady_platform_summarize(p, &s, &err);
    if (rc)
        fprintf(stderr, "\n    unexpected summary error: %s\n", err.msg);
    CU_ASSERT_EQUAL(rc, STEADY_OK);
    return s;
}

/* The rule of platform.h: 1..255 characters from [A-Za-z0-9_.:@+/-]. */
static int name_ok(const char *name)
{
    size_t n = strlen(name);
    return n >= 1 && n <= STEADY_NAME_MAX &&
           strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:@+/-") ==
               n;
}

/* x has (at most) three significant digits: it is the double nearest to
 * its own three-digit decimal rendering. */
static int three_digits(double x)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.2e", x);
    return strtod(buf, NULL) == x;
}

static int in_range(double x, double lo, double hi)
{
    return x >= lo && x <= hi;
}

static const char *node_name(const steady_platform_t *p, int v)
{
    return steady_platform_node(p, v)->name;
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Checks every generated platform must pass: N processors P0..P{N-1}
 * first, routers after them, valid names, strongly connected, every edge
 * part of a duplex link with one latency, and the platform name. */
static void check_common(const steady_platform_t *p, steady_gen_kind_t kind, int n, uint64_t seed)
{
    CU_ASSERT_EQUAL(steady_platform_processor_count(p), n);
    CU_ASSERT_FALSE(steady_platform_is_abstract(p));
    int nodes = steady_platform_node_count(p);
    for (int v = 0; v < nodes; v++) {
        const steady_node_t *node = steady_platform_node(p, v);
        CU_ASSERT_TRUE(name_ok(node->name));
        if (v < n) {
            char expect[32];
            snprintf(expect, sizeof expect, "P%d", v);
            CU_ASSERT_STRING_EQUAL(node->name, expect);
            CU_ASSERT_EQUAL(node->kind, STEADY_PROCESSOR);
        } else {
            CU_ASSERT_EQUAL(node->kind, STEADY_ROUTER);
        }
    }
    for (int k = 0; k < steady_platform_edge_count(p); k++) {
        const steady_edge_t *e = steady_platform_edge(p, k);
        int back = steady_platform_find_edge(p, e->dst, e->src);
        CU_ASSERT_TRUE(back >= 0);
        if (back >= 0)
            CU_ASSERT_EQUAL(steady_platform_edge(p, back)->latency, e->latency);
        CU_ASSERT_EQUAL(e->overhead, 0);
        CU_ASSERT_EQUAL(e->cost, 0);
    }
    steady_platform_summary_t s = summarize(p);
    CU_ASSERT_TRUE(s.strongly_connected);
    CU_ASSERT_EQUAL(s.components, 1);
    CU_ASSERT_EQUAL(2 * s.duplex_pairs, s.edges);

    char expect[96];
    if (kind == STEADY_GEN_CLUSTER)
        snprintf(expect, sizeof expect, "cluster-%d", n);
    else
        snprintf(expect, sizeof expect, "%s-%d-s%llu", steady_gen_kind_name(kind), n,
                 (unsigned long long)seed);
    CU_ASSERT_STRING_EQUAL(steady_platform_name(p), expect);
    CU_ASSERT_TRUE(name_ok(steady_platform_name(p)));
}

/* Heterogeneous values: speeds in 1..10 Gflop/s, edge values in the
 * level's ranges, everything with three significant digits. */
static void check_speeds(const steady_platform_t *p)
{
    for (int v = 0; v < steady_platform_processor_count(p); v++) {
        double speed = steady_platform_node(p, v)->speed;
        CU_ASSERT_TRUE(in_range(speed, SPEED_LO, SPEED_HI));
        CU_ASSERT_TRUE(three_digits(speed));
    }
}

static void check_edge_values(const steady_edge_t *e, const level_t *level)
{
    CU_ASSERT_TRUE(in_range(e->bandwidth, level->bw_lo, level->bw_hi));
    CU_ASSERT_TRUE(in_range(e->latency, level->lat_lo, level->lat_hi));
    CU_ASSERT_TRUE(three_digits(e->bandwidth));
    CU_ASSERT_TRUE(three_digits(e->latency));
}

/* ---- shape of each kind ---------------------------------------------- */

static void check_random(const steady_platform_t *p, int n)
{
    long complete = (long)n * (n - 1) / 2, links = 2L * n < complete ? 2L * n : complete;
    CU_ASSERT_EQUAL(steady_platform_node_count(p), n);
    CU_ASSERT_EQUAL(steady_platform_edge_count(p), 2 * links);
    for (int v = 0; v < n; v++) {
        int out;
        steady_platform_out_edges(p, v, &out);
        CU_ASSERT_TRUE(out >= (n == 2 ? 1 : 2)); /* on the Hamiltonian cycle */
    }
    for (int k = 0; k < steady_platform_edge_count(p); k++)
        check_edge_values(steady_platform_edge(p, k), &FLAT);
    check_speeds(p);
}

static void check_ring(const steady_platform_t *p, int n)
{
    CU_ASSERT_EQUAL(steady_platform_node_count(p), n);
    CU_ASSERT_EQUAL(steady_platform_edge_count(p), n == 2 ? 2 : 2 * n);
    for (int v = 0; v < n; v++) {
        int out, in;
        steady_platform_out_edges(p, v, &out);
        steady_platform_in_edges(p, v, &in);
        CU_ASSERT_EQUAL(out, n == 2 ? 1 : 2);
        CU_ASSERT_EQUAL(in, n == 2 ? 1 : 2);
        CU_ASSERT_TRUE(steady_platform_find_edge(p, v, (v + 1) % n) >= 0);
    }
    for (int k = 0; k < steady_platform_edge_count(p); k++)
        check_edge_values(steady_platform_edge(p, k), &FLAT);
    check_speeds(p);
}

static void check_star(const steady_platform_t *p, int n)
{
    CU_ASSERT_EQUAL(steady_platform_node_count(p), n);
    CU_ASSERT_EQUAL(steady_platform_edge_count(p), 2 * (n - 1));
    for (int v = 0; v < n; v++) {
        int out, in;
        steady_platform_out_edges(p, v, &out);
        steady_platform_in_edges(p, v, &in);
        CU_ASSERT_EQUAL(out, v == 0 ? n - 1 : 1);
        CU_ASSERT_EQUAL(in, v == 0 ? n - 1 : 1);
        if (v > 0)
            CU_ASSERT_TRUE(steady_platform_find_edge(p, 0, v) >= 0);
    }
    for (int k = 0; k < steady_platform_edge_count(p); k++)
        check_edge_values(steady_platform_edge(p, k), &FLAT);
    check_speeds(p);
}

static void check_cluster(const steady_platform_t *p, int n)
{
    CU_ASSERT_EQUAL(steady_platform_node_count(p), n + 1);
    CU_ASSERT_STRING_EQUAL(node_name(p, n), "switch");
    CU_ASSERT_EQUAL(steady_platform_edge_count(p), 2 * n);
    for (int v = 0; v < n; v++) {
        CU_ASSERT_EQUAL(steady_platform_node(p, v)->speed, 4e9);
        CU_ASSERT_TRUE(steady_platform_find_edge(p, v, n) >= 0);
        CU_ASSERT_TRUE(steady_platform_find_edge(p, n, v) >= 0);
    }
    for (int k = 0; k < steady_platform_edge_count(p); k++) {
        const steady_edge_t *e = steady_platform_edge(p, k);
        CU_ASSERT_EQUAL(e->bandwidth, 125e6);
        CU_ASSERT_EQUAL(e->latency, 50e-6);
    }
}

/* Neighbours of v (duplex links: the out-neighbours) counted by name
 * prefix; processors count under "P". */
static int neighbours_with(const steady_platform_t *p, int v, const char *prefix)
{
    int count, found = 0;
    const int *ids = steady_platform_out_edges(p, v, &count);
    for (int k = 0; k < count; k++) {
        int w = steady_platform_edge(p, ids[k])->dst;
        if (starts_with(node_name(p, w), prefix))
            found++;
    }
    return found;
}

static int out_degree(const steady_platform_t *p, int v)
{
    int count;
    steady_platform_out_edges(p, v, &count);
    return count;
}

/* The hierarchy of platform/gen.c: processors hang off LAN switches only;
 * a switch has 2..9 processors and one MAN router; a MAN router 1..3
 * switches and one WAN router; a WAN router 1..2 MAN routers, and the WAN
 * routers form a ring with floor(W/4) chords from W = 4 on. */
static void check_tiers(const steady_platform_t *p, int n)
{
    int nodes = steady_platform_node_count(p), wans = 0, wan_links = 0;
    for (int v = 0; v < n; v++) {
        CU_ASSERT_EQUAL(out_degree(p, v), 1);
        CU_ASSERT_EQUAL(neighbours_with(p, v, "lan"), 1);
    }
    for (int v = n; v < nodes; v++) {
        const char *name = node_name(p, v);
        int deg = out_degree(p, v);
        if (starts_with(name, "lan")) {
            int procs = neighbours_with(p, v, "P");
            CU_ASSERT_TRUE(procs >= 2 && procs <= 9);
            CU_ASSERT_EQUAL(neighbours_with(p, v, "man"), 1);
            CU_ASSERT_EQUAL(deg, procs + 1);
        } else if (starts_with(name, "man")) {
            int lans = neighbours_with(p, v, "lan");
            CU_ASSERT_TRUE(lans >= 1 && lans <= 3);
            CU_ASSERT_EQUAL(neighbours_with(p, v, "wan"), 1);
            CU_ASSERT_EQUAL(deg, lans + 1);
        } else if (starts_with(name, "wan")) {
            int mans = neighbours_with(p, v, "man");
            CU_ASSERT_TRUE(mans >= 1 && mans <= 2);
            CU_ASSERT_EQUAL(deg, mans + neighbours_with(p, v, "wan"));
            wan_links += neighbours_with(p, v, "wan");
            wans++;
        } else {
            CU_FAIL("tiers router with an unexpected name");
        }
    }
    wan_links /= 2;
    CU_ASSERT_TRUE(wans >= 1);
    CU_ASSERT_EQUAL(wan_links, wans == 1 ? 0 : wans == 2 ? 1 : wans + (wans >= 4 ? wans / 4 : 0));

    for (int k = 0; k < steady_platform_edge_count(p); k++) {
        const steady_edge_t *e = steady_platform_edge(p, k);
        const char *a = node_name(p, e->src), *b = node_name(p, e->dst);
        if (starts_with(a, "P") || starts_with(b, "P"))
            check_edge_values(e, &LAN);
        else if (starts_with(a, "wan") && starts_with(b, "wan"))
            check_edge_values(e, &WAN);
        else
            check_edge_values(e, &MAN); /* lan-man and man-wan */
    }
    check_speeds(p);
}

static void check_kind(const steady_platform_t *p, steady_gen_kind_t kind, int n)
{
    switch (kind) {
    case STEADY_GEN_RANDOM: check_random(p, n); break;
    case STEADY_GEN_TIERS: check_tiers(p, n); break;
    case STEADY_GEN_CLUSTER: check_cluster(p, n); break;
    case STEADY_GEN_RING: check_ring(p, n); break;
    case STEADY_GEN_STAR: check_star(p, n); break;
    }
}

/* Every kind, size and seed: the shape, the values, and the exact native
 * round trip. */
static void test_every_kind(void)
{
    for (int k = 0; k < NKINDS; k++)
        for (int i = 0; i < NSIZES; i++)
            for (int j = 0; j < NSEEDS; j++) {
                steady_platform_t *p = gen_ok(KINDS[k], SIZES[i], SEEDS[j]);
                check_common(p, KINDS[k], SIZES[i], SEEDS[j]);
                check_kind(p, KINDS[k], SIZES[i]);
                char *text = write_string(p, STEADY_FORMAT_NATIVE, NULL);
                steady_platform_t *q = text ? parse_ok(text, STEADY_FORMAT_NATIVE) : NULL;
                if (q)
                    ASSERT_PLATFORMS_EQUAL(p, q);
                steady_platform_destroy(q);
                free(text);
                steady_platform_destroy(p);
            }
}

static void test_single_processor_cluster(void)
{
    steady_platform_t *p = gen_ok(STEADY_GEN_CLUSTER, 1, 0);
    check_common(p, STEADY_GEN_CLUSTER, 1, 0);
    check_cluster(p, 1);
    steady_platform_destroy(p);
}

/* A big random platform: still strongly connected with average degree 4,
 * and its 8000 bandwidths, 4000 latencies and 2000 speeds are spread
 * log-uniformly.  Below 100 MB/s lies 1 of the 2.097 decades of
 * 10 MB/s..1.25 GB/s (47.7 %; a uniform draw would give 7.3 %), below
 * 10 us 1 of the 3 decades of latency, below 10^9.5 flop/s half of the
 * speeds.  The tolerance is more than 4 standard deviations. */
static void test_large_random(void)
{
    int n = 2000;
    steady_platform_t *p = gen_ok(STEADY_GEN_RANDOM, n, 2024);
    check_common(p, STEADY_GEN_RANDOM, n, 2024);
    check_random(p, n);
    steady_platform_summary_t s = summarize(p);
    CU_ASSERT_EQUAL(s.edges, 4 * n);

    int m = steady_platform_edge_count(p), low_bw = 0, low_lat = 0, low_speed = 0;
    for (int k = 0; k < m; k++) {
        low_bw += steady_platform_edge(p, k)->bandwidth < 100e6;
        low_lat += steady_platform_edge(p, k)->latency < 10e-6;
    }
    for (int v = 0; v < n; v++)
        low_speed += steady_platform_node(p, v)->speed < pow(10, 9.5);
    CU_ASSERT_DOUBLE_EQUAL((double)low_bw / m, 1 / log10(125), 0.03);
    CU_ASSERT_DOUBLE_EQUAL((double)low_lat / m, 1.0 / 3, 0.04);
    CU_ASSERT_DOUBLE_EQUAL((double)low_speed / n, 0.5, 0.05);
    /* the draws reach both ends of the ranges' decades */
    CU_ASSERT_TRUE(s.bandwidth.min < 11e6 && s.bandwidth.max > 1.1e9);
    CU_ASSERT_TRUE(s.speed.min < 1.1e9 && s.speed.max > 9e9);
    steady_platform_destroy(p);
}

/* A big tiers platform has a real backbone: several WAN routers, chords. */
static void test_large_tiers(void)
{
    int n = 2000;
    steady_platform_t *p = gen_ok(STEADY_GEN_TIERS, n, 5);
    check_common(p, STEADY_GEN_TIERS, n, 5);
    check_tiers(p, n);
    int wans = 0;
    for (int v = n; v < steady_platform_node_count(p); v++)
        wans += starts_with(node_name(p, v), "wan");
    CU_ASSERT_TRUE(wans >= 8);
    steady_platform_destroy(p);
}

/* The largest accepted size is generated (ring: linear time). */
static void test_maximum_size(void)
{
    steady_platform_t *p = gen_ok(STEADY_GEN_RING, 100000, 1);
    CU_ASSERT_EQUAL(steady_platform_processor_count(p), 100000);
    CU_ASSERT_EQUAL(steady_platform_edge_count(p), 200000);
    steady_platform_destroy(p);
}

/* ---- reproducibility ---------------------------------------------------- */

static void test_same_seed_same_output(void)
{
    for (int k = 0; k < NKINDS; k++)
        for (int j = 0; j < NSEEDS; j++) {
            char *a = gen_text(KINDS[k], 24, SEEDS[j]);
            /* no hidden state: another platform in between changes nothing */
            char *other = gen_text(KINDS[(k + 1) % NKINDS], 17, SEEDS[j] + 1);
            char *b = gen_text(KINDS[k], 24, SEEDS[j]);
            CU_ASSERT_PTR_NOT_NULL(a);
            CU_ASSERT_PTR_NOT_NULL(b);
            if (a && b) {
                CU_ASSERT_STRING_EQUAL(a, b);
            }
            free(a);
            free(other);
            free(b);
        }
}

/* Different seeds give different platforms — compared without the name
 * line, which contains the seed — except for the homogeneous cluster,
 * which ignores its seed. */
static const char *after_name(const char *text)
{
    const char *line = strstr(text, "\nplatform ");
    return line ? strchr(line + 1, '\n') : text;
}

static void test_different_seeds(void)
{
    for (int k = 0; k < NKINDS; k++)
        for (int i = 0; i < NSIZES; i++)
            for (int j = 0; j + 1 < NSEEDS; j++) {
                char *a = gen_text(KINDS[k], SIZES[i], SEEDS[j]);
                char *b = gen_text(KINDS[k], SIZES[i], SEEDS[j + 1]);
                CU_ASSERT_FATAL(a && b);
                if (KINDS[k] == STEADY_GEN_CLUSTER) {
                    CU_ASSERT_STRING_EQUAL(a, b);
                } else {
                    CU_ASSERT_STRING_NOT_EQUAL(after_name(a), after_name(b));
                }
                free(a);
                free(b);
            }
}

/* The exact file for one (kind, size, seed).  It pins the PRNG and the
 * value construction: if this test fails on some machine or after a
 * change, generated platforms are no longer the ones users reported. */
static void test_golden_output(void)
{
    char *text = gen_text(STEADY_GEN_RING, 3, 42);
    CU_ASSERT_STRING_EQUAL(text, "# steady platform, native format (docs/platform-format.md)\n"
                                 "# units: bandwidth B/s, latency and overhead s, speed flop/s\n"
                                 "platform ring-3-s42\n"
                                 "processor P0 speed=1330000000\n"
                                 "processor P1 speed=4020000000\n"
                                 "processor P2 speed=2260000000\n"
                                 "edge P0 P1 bandwidth=502000000 latency=3.58e-05\n"
                                 "edge P1 P0 bandwidth=109000000 latency=3.58e-05\n"
                                 "edge P1 P2 bandwidth=28900000 latency=1.12e-05\n"
                                 "edge P2 P1 bandwidth=36000000 latency=1.12e-05\n"
                                 "edge P2 P0 bandwidth=10900000 latency=1.56e-06\n"
                                 "edge P0 P2 bandwidth=15000000 latency=1.56e-06\n");
    free(text);
}

/* ---- names and errors ---------------------------------------------------- */

static void test_kind_names(void)
{
    static const char *names[] = {"random", "tiers", "cluster", "ring", "star"};
    for (int k = 0; k < NKINDS; k++) {
        CU_ASSERT_EQUAL(steady_gen_kind_from_name(names[k]), (int)KINDS[k]);
        CU_ASSERT_STRING_EQUAL(steady_gen_kind_name(KINDS[k]), names[k]);
    }
    CU_ASSERT_EQUAL(steady_gen_kind_from_name("Tiers"), -1);
    CU_ASSERT_EQUAL(steady_gen_kind_from_name(""), -1);
    CU_ASSERT_EQUAL(steady_gen_kind_from_name("grid"), -1);
    CU_ASSERT_STRING_EQUAL(steady_gen_kind_name((steady_gen_kind_t)42), "?");
    CU_ASSERT_STRING_EQUAL(steady_gen_kind_name((steady_gen_kind_t)-1), "?");
}

static void expect_error(int kind, int n, const char *message)
{
    steady_error_t err = {0};
    steady_platform_t *p = (steady_platform_t *)&err; /* must be reset to NULL */
    CU_ASSERT_EQUAL(steady_platform_generate((steady_gen_kind_t)kind, n, 1, &p, &err),
                    STEADY_EINVAL);
    CU_ASSERT_PTR_NULL(p);
    CU_ASSERT_EQUAL(err.code, STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, message);
    /* a NULL error record is allowed */
    p = NULL;
    CU_ASSERT_EQUAL(steady_platform_generate((steady_gen_kind_t)kind, n, 1, &p, NULL),
                    STEADY_EINVAL);
    CU_ASSERT_PTR_NULL(p);
}

static void test_bad_arguments(void)
{
    expect_error(STEADY_GEN_RING, 1,
                 "invalid processor count: --nodes must be at least 2 for kind ring (got 1)");
    expect_error(STEADY_GEN_STAR, 1,
                 "invalid processor count: --nodes must be at least 2 for kind star (got 1)");
    expect_error(STEADY_GEN_RANDOM, 0,
                 "invalid processor count: --nodes must be at least 2 for kind random (got 0)");
    expect_error(STEADY_GEN_TIERS, 1,
                 "invalid processor count: --nodes must be at least 2 for kind tiers (got 1)");
    expect_error(STEADY_GEN_CLUSTER, 0,
                 "invalid processor count: --nodes must be at least 1 for kind cluster (got 0)");
    expect_error(STEADY_GEN_CLUSTER, -7,
                 "invalid processor count: --nodes must be at least 1 for kind cluster (got -7)");
    expect_error(STEADY_GEN_RANDOM, 100001,
                 "invalid processor count: --nodes must be at most 100000 (got 100001)");
    expect_error(5, 10, "unknown generator kind (5)");
    expect_error(-1, 10, "unknown generator kind (-1)");
}

void suite_gen(void)
{
    static const CU_TestInfo tests[] = {
        {"every kind, size 2..60, five seeds", test_every_kind},
        {"cluster of one processor", test_single_processor_cluster},
        {"random, 2000 processors, log-uniform values", test_large_random},
        {"tiers, 2000 processors", test_large_tiers},
        {"maximum size", test_maximum_size},
        {"same seed, same file", test_same_seed_same_output},
        {"different seeds, different platforms", test_different_seeds},
        {"golden output ring-3-s42", test_golden_output},
        {"kind names", test_kind_names},
        {"bad arguments", test_bad_arguments},
        CU_TEST_INFO_NULL,
    };
    add_suite("generators", tests);
}
