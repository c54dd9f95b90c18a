/*
 * test_hockney.c — the Hockney predictions, the Hoefler-Moor memory and
 * energy, and the model-based selection (compare/hockney.c), against
 * values derived by hand (docs/comparison.md, "Model-based selection").
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "steady/compare.h"
#include "tests.h"

#define ASSERT_CLOSE(x, y) CU_ASSERT_DOUBLE_EQUAL((x), (y), 1e-9 * fabs((double)(y)))

/* Every link: alpha = overhead + latency = 0.4 ms + 0.6 ms = 1 ms, beta =
 * 1 / (100 MB/s) = 1e-8 s per byte. */
#define ALPHA 1e-3
#define BETA  1e-8

/* P0 - P1 - P2 - P3 in a line. */
static const char *const LINE4 = "processor P0 speed=1Gf\n"
                                 "processor P1 speed=1Gf\n"
                                 "processor P2 speed=1Gf\n"
                                 "processor P3 speed=1Gf\n"
                                 "link P0 P1 bandwidth=100MBps latency=0.6ms overhead=0.4ms\n"
                                 "link P1 P2 bandwidth=100MBps latency=0.6ms overhead=0.4ms\n"
                                 "link P2 P3 bandwidth=100MBps latency=0.6ms overhead=0.4ms\n";

/* The four processors, every pair linked. */
static const char *const K4 = "processor P0 speed=1Gf\n"
                              "processor P1 speed=1Gf\n"
                              "processor P2 speed=1Gf\n"
                              "processor P3 speed=1Gf\n"
                              "link P0 P1 bandwidth=100MBps latency=0.6ms overhead=0.4ms\n"
                              "link P0 P2 bandwidth=100MBps latency=0.6ms overhead=0.4ms\n"
                              "link P0 P3 bandwidth=100MBps latency=0.6ms overhead=0.4ms\n"
                              "link P1 P2 bandwidth=100MBps latency=0.6ms overhead=0.4ms\n"
                              "link P1 P3 bandwidth=100MBps latency=0.6ms overhead=0.4ms\n"
                              "link P2 P3 bandwidth=100MBps latency=0.6ms overhead=0.4ms\n";

static steady_hockney_t eval(const steady_platform_t *p, steady_algo_t algo, steady_collop_t op,
                             double msg, double task, int C, long K, const steady_hm_params_t *hm)
{
    steady_routes_t *r = NULL;
    steady_error_t err = {0};
    steady_hockney_t h = {0};
    CU_ASSERT_EQUAL_FATAL(steady_routes_create(p, msg, &r, &err), STEADY_OK);
    steady_err_t rc = steady_hockney_evaluate(r, algo, op, 0, msg, task, C, K, hm, &h, &err);
    if (rc)
        fprintf(stderr, "\n    hockney %s: %s\n", steady_algo_name(algo), err.msg);
    CU_ASSERT_EQUAL(rc, STEADY_OK);
    steady_routes_destroy(r);
    return h;
}

/* The line: the chain's pipeline is (P + C - 2) tau_C for one operation,
 * tau_C = alpha + beta m / C, and (3 + K C - 1) tau_C for K of them.  The
 * binomial tree sends 0 -> 2 (through P1: two hops, 2 tau), then 0 -> 1
 * (the same first hop: P0's port is busy until 3 tau), and 2 -> 3 (from
 * 2 tau to 3 tau): one operation 3 tau; P0 sends two messages per
 * operation, the bottleneck L = 2 tau, so K operations take 3 tau + (K - 1)
 * 2 tau. */
static void test_line_broadcast(void)
{
    steady_platform_t *p = parse_ok(LINE4, STEADY_FORMAT_NATIVE);
    steady_hm_params_t hm = {
        .energy_per_message = 1e-6, .energy_per_byte = 1e-9, .power = 2, .descriptor_bytes = 32};
    double m = 65536, tau1 = ALPHA + BETA * m, tau4 = ALPHA + BETA * m / 4;
    steady_hockney_t h = eval(p, STEADY_ALGO_CHAIN, STEADY_COLL_BROADCAST, m, 0, 1, 10, &hm);
    ASSERT_CLOSE(h.one_op, 3 * tau1);
    ASSERT_CLOSE(h.series, (3 + 10 - 1) * tau1 / 10);
    ASSERT_CLOSE(h.messages, 3);
    ASSERT_CLOSE(h.bytes, 3 * m);
    /* every rank holds the message; P0, P1, P2 send one message: the first */
    ASSERT_CLOSE(h.memory, m + 32);
    CU_ASSERT_EQUAL(h.memory_rank, 0);
    ASSERT_CLOSE(h.energy_one_op, 3 * 1e-6 + 3 * m * 1e-9 + 2 * 4 * 3 * tau1);
    ASSERT_CLOSE(h.energy_series, 3 * 1e-6 + 3 * m * 1e-9 + 2 * 4 * (12 * tau1 / 10));

    h = eval(p, STEADY_ALGO_CHAIN, STEADY_COLL_BROADCAST, m, 0, 4, 10, &hm);
    ASSERT_CLOSE(h.one_op, (4 + 4 - 2) * tau4);
    ASSERT_CLOSE(h.series, (3 + 40 - 1) * tau4 / 10);
    ASSERT_CLOSE(h.memory, m + 4 * 32);
    ASSERT_CLOSE(h.messages, 12);
    ASSERT_CLOSE(h.energy_one_op, 12 * 1e-6 + 3 * m * 1e-9 + 2 * 4 * 6 * tau4);

    h = eval(p, STEADY_ALGO_BINOMIAL, STEADY_COLL_BROADCAST, m, 0, 1, 10, &hm);
    ASSERT_CLOSE(h.fill, 3 * tau1);
    ASSERT_CLOSE(h.load, 2 * tau1);
    ASSERT_CLOSE(h.one_op, 3 * tau1);
    ASSERT_CLOSE(h.series, (3 * tau1 + 9 * 2 * tau1) / 10);
    ASSERT_CLOSE(h.messages, 4); /* 0 -> 1, 0 -> 1 -> 2, 2 -> 3 */
    ASSERT_CLOSE(h.memory, m + 2 * 32);
    CU_ASSERT_EQUAL(h.memory_rank, 0);
    ASSERT_CLOSE(h.energy_series, 4 * 1e-6 + 4 * m * 1e-9 + 2 * 4 * (21 * tau1 / 10));
    steady_platform_destroy(p);
}

/* The chain reduce on the line, combines of 2e6 flop at 1 Gflop/s (gamma
 * = 2 ms): P2 receives from P3 then combines, P1 likewise, then P0: one
 * operation 3 (tau + gamma).  The bottleneck is a processor (gamma >
 * tau at 4 KiB).  Memory: an interior rank holds its input, its partial
 * result and a receive buffer (3 m with one chunk) and sends one
 * message: P1. */
static void test_line_reduce(void)
{
    steady_platform_t *p = parse_ok(LINE4, STEADY_FORMAT_NATIVE);
    double m = 4096, tau = ALPHA + BETA * m, gamma = 2e6 / 1e9;
    steady_hockney_t h = eval(p, STEADY_ALGO_CHAIN, STEADY_COLL_REDUCE, m, 2e6, 1, 5, NULL);
    ASSERT_CLOSE(h.one_op, 3 * (tau + gamma));
    ASSERT_CLOSE(h.load, gamma);
    ASSERT_CLOSE(h.series, (3 * (tau + gamma) + 4 * gamma) / 5);
    ASSERT_CLOSE(h.memory, 3 * m + 32);
    CU_ASSERT_EQUAL(h.memory_rank, 1);
    ASSERT_CLOSE(h.buffer_bytes, 3 * m);
    ASSERT_CLOSE(h.descriptors, 1);
    /* the defaults: Hoefler and Moor's constants */
    ASSERT_CLOSE(h.energy_one_op, 3 * 16.5e-12 + 3 * m * 8.1e-9 + 0.5 * 4 * h.one_op);
    steady_platform_destroy(p);
}

/* The best algorithms (bit per algorithm) for one size and pick, and
 * their value. */
static unsigned picks(const steady_platform_t *p, double m, steady_pick_t pick, long K,
                      double *best, int chunks[STEADY_ALGO_COUNT])
{
    steady_routes_t *r = NULL;
    steady_error_t err = {0};
    double v[STEADY_ALGO_COUNT];
    CU_ASSERT_EQUAL_FATAL(steady_routes_create(p, m, &r, &err), STEADY_OK);
    *best = INFINITY;
    for (int a = 0; a < STEADY_ALGO_COUNT; a++) {
        v[a] = INFINITY;
        if (!steady_algo_supports((steady_algo_t)a, STEADY_COLL_BROADCAST))
            continue;
        steady_hockney_t h;
        CU_ASSERT_EQUAL(steady_hockney_best(r, (steady_algo_t)a, STEADY_COLL_BROADCAST, 0, m, 0, K,
                                            NULL, pick, 0, &h, &err),
                        STEADY_OK);
        v[a] = pick == STEADY_PICK_ONE_OP ? h.one_op : h.series;
        chunks[a] = h.chunks;
        *best = fmin(*best, v[a]);
    }
    unsigned mask = 0;
    for (int a = 0; a < STEADY_ALGO_COUNT; a++)
        if (v[a] <= *best * (1 + 1e-9))
            mask |= 1u << a;
    steady_routes_destroy(r);
    return mask;
}

/* The selection on K4.  One operation: the binomial tree and the binary
 * heap are the same tree on 4 ranks (0 -> 2 or 1 first, then the other,
 * and one grandchild): 2 tau_1 = 2 alpha + 2 beta m with one chunk (more
 * chunks only add alphas); the chain and both two-tree algorithms (C even:
 * fill 4 tau_C, a round of 2 chunks 2 tau_C) take (C + 2) tau_C =
 * (C + 2) alpha + (1 + 2/C) beta m; the flat tree 3 tau.  The chain wins
 * when (C + 2) alpha + (1 + 2/C) beta m < 2 alpha + 2 beta m: never at
 * 4 KiB and 64 KiB (beta m = 0.66 ms < alpha); at 1 MiB with C = 4,
 * 6 alpha + 1.5 beta m = 21.73 ms < 22.97 ms (C = 3: 22.48, C = 6: 21.98);
 * at 16 MiB with C = 16 (C = 24 gives 207.8 ms against 206.7).  A
 * series of K = 200: the chain with one chunk, (K + 2) tau_1 / K, against
 * (2 alpha + beta m)(1 + 1/K) for two trees in 2 chunks and 2 tau_1 for
 * the binomial tree: the chain, at every size up to 16 MiB (two trees win
 * only beyond beta m = 200 alpha, 20 MB). */
static void test_selection(void)
{
    steady_platform_t *p = parse_ok(K4, STEADY_FORMAT_NATIVE);
    const unsigned small = 1u << STEADY_ALGO_BINOMIAL | 1u << STEADY_ALGO_BINARY;
    const unsigned large =
        1u << STEADY_ALGO_CHAIN | 1u << STEADY_ALGO_TWOTREEC | 1u << STEADY_ALGO_TWOTREES;
    const double sizes[4] = {4096, 65536, 1048576, 16777216};
    const unsigned expect[4] = {small, small, large, large};
    const int expect_c[4] = {1, 1, 4, 16};
    for (int k = 0; k < 4; k++) {
        double m = sizes[k], best;
        int chunks[STEADY_ALGO_COUNT];
        unsigned got = picks(p, m, STEADY_PICK_ONE_OP, 200, &best, chunks);
        CU_ASSERT_EQUAL(got, expect[k]);
        int C = expect_c[k];
        double tau = ALPHA + BETA * m / C;
        ASSERT_CLOSE(best, k < 2 ? 2 * tau : (C + 2) * tau);
        for (int a = 0; a < STEADY_ALGO_COUNT; a++)
            if (expect[k] & (1u << a))
                CU_ASSERT_EQUAL(chunks[a], C);
        got = picks(p, m, STEADY_PICK_SERIES, 200, &best, chunks);
        CU_ASSERT_EQUAL(got, 1u << STEADY_ALGO_CHAIN);
        CU_ASSERT_EQUAL(chunks[STEADY_ALGO_CHAIN], 1);
        ASSERT_CLOSE(best, 202 * (ALPHA + BETA * m) / 200);
    }
    steady_platform_destroy(p);
}

static void test_errors(void)
{
    steady_platform_t *p = parse_ok(LINE4, STEADY_FORMAT_NATIVE);
    steady_routes_t *r = NULL;
    steady_error_t err = {0};
    steady_hockney_t h;
    CU_ASSERT_EQUAL_FATAL(steady_routes_create(p, 1024, &r, &err), STEADY_OK);
    CU_ASSERT_EQUAL(steady_hockney_evaluate(r, STEADY_ALGO_CHAIN, STEADY_COLL_BROADCAST, 0, 1024, 0,
                                            0, 1, NULL, &h, &err),
                    STEADY_EINVAL);
    CU_ASSERT_EQUAL(steady_hockney_evaluate(r, STEADY_ALGO_TWOTREEC_C, STEADY_COLL_BROADCAST, 0,
                                            1024, 0, 2, 1, NULL, &h, &err),
                    STEADY_EINVAL);
    steady_hm_params_t bad = {.power = -1};
    CU_ASSERT_EQUAL(steady_hockney_evaluate(r, STEADY_ALGO_CHAIN, STEADY_COLL_BROADCAST, 0, 1024, 0,
                                            1, 1, &bad, &h, &err),
                    STEADY_EINVAL);
    steady_routes_destroy(r);
    steady_platform_destroy(p);
}

void suite_hockney(void)
{
    static const CU_TestInfo tests[] = {
        {"Hockney: chain and binomial broadcast on a line", test_line_broadcast},
        {"Hockney: chain reduce, memory, default energy", test_line_reduce},
        {"Hockney: selection per size on K4", test_selection},
        {"Hockney: errors", test_errors},
        CU_TEST_INFO_NULL,
    };
    add_suite("hockney", tests);
}
