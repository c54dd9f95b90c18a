/*
 * test_summary.c — steady_platform_summarize() on small hand-written
 * platforms whose counts, ranges and components are checked by hand.
 */
#include <igraph.h>
#include <stdio.h>

#include "tests.h"

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

/* Three processors around router R0: duplex links P0-R0 and P1-R0, the
 * pair P2->R0 / R0->P2 written as two edges with different values, and a
 * one-way shortcut P0->P1. */
static const char *HUB = "platform hub\n"
                         "processor P0 speed=2Gf\n"
                         "processor P1 speed=500Mf\n"
                         "processor P2 speed=1Gf\n"
                         "router R0\n"
                         "link P0 R0 bandwidth=10MBps latency=10us overhead=1us\n"
                         "link P1 R0 bandwidth=100MBps latency=5us\n"
                         "edge P2 R0 bandwidth=1MBps latency=1ms\n"
                         "edge R0 P2 bandwidth=2MBps latency=2ms overhead=3us\n"
                         "edge P0 P1 bandwidth=50MBps latency=0\n";

static void test_hub_counts(void)
{
    steady_platform_t *p = parse_ok(HUB, STEADY_FORMAT_NATIVE);
    if (!p)
        return;
    steady_platform_summary_t s = summarize(p);
    CU_ASSERT_EQUAL(s.nodes, 4);
    CU_ASSERT_EQUAL(s.processors, 3);
    CU_ASSERT_EQUAL(s.routers, 1);
    CU_ASSERT_EQUAL(s.edges, 7);
    CU_ASSERT_EQUAL(s.duplex_pairs, 3); /* P0-R0, P1-R0, P2-R0; not P0->P1 */
    CU_ASSERT_EQUAL(s.components, 1);
    CU_ASSERT_TRUE(s.strongly_connected);
    CU_ASSERT_FALSE(s.abstract);
    /* R0 sends to P0, P1, P2 and receives from them; P1 receives from R0 and P0 */
    CU_ASSERT_EQUAL(s.max_out_degree, 3);
    CU_ASSERT_EQUAL(s.max_in_degree, 3);
    steady_platform_destroy(p);
}

static void test_hub_ranges(void)
{
    steady_platform_t *p = parse_ok(HUB, STEADY_FORMAT_NATIVE);
    if (!p)
        return;
    steady_platform_summary_t s = summarize(p);
    CU_ASSERT_EQUAL(s.bandwidth.min, 1e6);
    CU_ASSERT_EQUAL(s.bandwidth.max, 100e6);
    CU_ASSERT_EQUAL(s.latency.min, 0);
    CU_ASSERT_EQUAL(s.latency.max, 2e-3);
    CU_ASSERT_EQUAL(s.overhead.min, 0);
    CU_ASSERT_EQUAL(s.overhead.max, 3e-6);
    CU_ASSERT_EQUAL(s.speed.min, 500e6); /* processors only: R0's 0 is not a speed */
    CU_ASSERT_EQUAL(s.speed.max, 2e9);
    CU_ASSERT_EQUAL(s.cost.min, 0); /* no cost edge: the empty range is 0..0 */
    CU_ASSERT_EQUAL(s.cost.max, 0);
    steady_platform_destroy(p);
}

/* A <-> B -> C: C is reached but never left, so {A,B} and {C} are separate
 * strongly connected components. */
static void test_one_way_edge(void)
{
    steady_platform_t *p = parse_ok("processor A speed=1\n"
                                    "processor B speed=1\n"
                                    "processor C speed=1\n"
                                    "link A B bandwidth=1MBps\n"
                                    "edge B C bandwidth=1MBps\n",
                                    STEADY_FORMAT_NATIVE);
    if (!p)
        return;
    steady_platform_summary_t s = summarize(p);
    CU_ASSERT_EQUAL(s.components, 2);
    CU_ASSERT_FALSE(s.strongly_connected);
    CU_ASSERT_EQUAL(s.duplex_pairs, 1);
    CU_ASSERT_EQUAL(s.edges, 3);
    CU_ASSERT_EQUAL(s.max_out_degree, 2); /* B -> A, B -> C */
    CU_ASSERT_EQUAL(s.max_in_degree, 1);
    steady_platform_destroy(p);
}

/* A one-way chain: every node is its own component. */
static void test_chain_components(void)
{
    steady_platform_t *p = parse_ok("processor A speed=1\n"
                                    "processor B speed=1\n"
                                    "router R\n"
                                    "processor C speed=1\n"
                                    "edge A B bandwidth=1\n"
                                    "edge B R bandwidth=1\n"
                                    "edge R C bandwidth=1\n",
                                    STEADY_FORMAT_NATIVE);
    if (!p)
        return;
    steady_platform_summary_t s = summarize(p);
    CU_ASSERT_EQUAL(s.components, 4);
    CU_ASSERT_FALSE(s.strongly_connected);
    CU_ASSERT_EQUAL(s.duplex_pairs, 0);
    CU_ASSERT_EQUAL(s.routers, 1);
    steady_platform_destroy(p);
}

/* Closing the chain into a directed cycle makes it strongly connected
 * without any duplex pair. */
static void test_directed_cycle(void)
{
    steady_platform_t *p = parse_ok("processor A speed=1\n"
                                    "processor B speed=1\n"
                                    "processor C speed=1\n"
                                    "edge A B bandwidth=1\n"
                                    "edge B C bandwidth=1\n"
                                    "edge C A bandwidth=1\n",
                                    STEADY_FORMAT_NATIVE);
    if (!p)
        return;
    steady_platform_summary_t s = summarize(p);
    CU_ASSERT_EQUAL(s.components, 1);
    CU_ASSERT_TRUE(s.strongly_connected);
    CU_ASSERT_EQUAL(s.duplex_pairs, 0);
    CU_ASSERT_EQUAL(s.max_out_degree, 1);
    CU_ASSERT_EQUAL(s.max_in_degree, 1);
    steady_platform_destroy(p);
}

/* An abstract platform in the style of the paper's examples: costs are
 * reported, bandwidth and overhead stay 0..0. */
static void test_abstract(void)
{
    steady_platform_t *p = parse_ok("processor P0 speed=1\n"
                                    "processor P1 speed=2\n"
                                    "processor P2 speed=0.5\n"
                                    "link P0 P1 cost=1\n"
                                    "edge P1 P2 cost=2 latency=3\n"
                                    "edge P2 P0 cost=0.25\n",
                                    STEADY_FORMAT_NATIVE);
    if (!p)
        return;
    steady_platform_summary_t s = summarize(p);
    CU_ASSERT_TRUE(s.abstract);
    CU_ASSERT_EQUAL(s.cost.min, 0.25);
    CU_ASSERT_EQUAL(s.cost.max, 2);
    CU_ASSERT_EQUAL(s.latency.min, 0);
    CU_ASSERT_EQUAL(s.latency.max, 3);
    CU_ASSERT_EQUAL(s.bandwidth.min, 0);
    CU_ASSERT_EQUAL(s.bandwidth.max, 0);
    CU_ASSERT_EQUAL(s.overhead.min, 0);
    CU_ASSERT_EQUAL(s.overhead.max, 0);
    CU_ASSERT_EQUAL(s.speed.min, 0.5);
    CU_ASSERT_EQUAL(s.speed.max, 2);
    CU_ASSERT_EQUAL(s.duplex_pairs, 1);
    CU_ASSERT_EQUAL(s.components, 1);
    steady_platform_destroy(p);
}

/* No edge at all: every range is the empty 0..0 except speed, and each
 * node is a component of its own. */
static void test_no_edges(void)
{
    steady_platform_t *p = parse_ok("processor A speed=3Gf\n", STEADY_FORMAT_NATIVE);
    if (p) {
        steady_platform_summary_t s = summarize(p);
        CU_ASSERT_EQUAL(s.nodes, 1);
        CU_ASSERT_EQUAL(s.edges, 0);
        CU_ASSERT_EQUAL(s.components, 1);
        CU_ASSERT_TRUE(s.strongly_connected);
        CU_ASSERT_FALSE(s.abstract);
        CU_ASSERT_EQUAL(s.bandwidth.min, 0);
        CU_ASSERT_EQUAL(s.bandwidth.max, 0);
        CU_ASSERT_EQUAL(s.latency.max, 0);
        CU_ASSERT_EQUAL(s.speed.min, 3e9);
        CU_ASSERT_EQUAL(s.speed.max, 3e9);
        CU_ASSERT_EQUAL(s.max_out_degree, 0);
        CU_ASSERT_EQUAL(s.max_in_degree, 0);
        steady_platform_destroy(p);
    }
    p = parse_ok("processor A speed=1\nprocessor B speed=1\n", STEADY_FORMAT_NATIVE);
    if (p) {
        steady_platform_summary_t s = summarize(p);
        CU_ASSERT_EQUAL(s.components, 2);
        CU_ASSERT_FALSE(s.strongly_connected);
        steady_platform_destroy(p);
    }
}

/* K4 with duplex links: 6 unordered pairs, degree 3 each way. */
static void test_complete_graph(void)
{
    steady_platform_t *p = parse_ok("processor A speed=1\nprocessor B speed=1\n"
                                    "processor C speed=1\nprocessor D speed=1\n"
                                    "link A B bandwidth=1\nlink A C bandwidth=1\n"
                                    "link A D bandwidth=1\nlink B C bandwidth=1\n"
                                    "link B D bandwidth=1\nlink C D bandwidth=1\n",
                                    STEADY_FORMAT_NATIVE);
    if (!p)
        return;
    steady_platform_summary_t s = summarize(p);
    CU_ASSERT_EQUAL(s.edges, 12);
    CU_ASSERT_EQUAL(s.duplex_pairs, 6);
    CU_ASSERT_EQUAL(s.max_out_degree, 3);
    CU_ASSERT_EQUAL(s.max_in_degree, 3);
    CU_ASSERT_EQUAL(s.components, 1);
    steady_platform_destroy(p);
}

/* A master that only sends: out-degree 4, in-degree 1 everywhere, and no
 * node can reach the master, so 5 components. */
static void test_degrees_one_way_star(void)
{
    steady_platform_t *p = parse_ok("processor M speed=1\nprocessor A speed=1\n"
                                    "processor B speed=1\nprocessor C speed=1\n"
                                    "processor D speed=1\n"
                                    "edge M A bandwidth=1\nedge M B bandwidth=1\n"
                                    "edge M C bandwidth=1\nedge M D bandwidth=1\n",
                                    STEADY_FORMAT_NATIVE);
    if (!p)
        return;
    steady_platform_summary_t s = summarize(p);
    CU_ASSERT_EQUAL(s.max_out_degree, 4);
    CU_ASSERT_EQUAL(s.max_in_degree, 1);
    CU_ASSERT_EQUAL(s.components, 5);
    CU_ASSERT_EQUAL(s.duplex_pairs, 0);
    steady_platform_destroy(p);
}

/* The summary must leave igraph's error handler as it found it. */
static igraph_error_handler_t sentinel_handler;
static void sentinel_handler(const char *reason, const char *file, int line, igraph_error_t code)
{
    (void)reason;
    (void)file;
    (void)line;
    (void)code;
}

static void test_restores_igraph_handler(void)
{
    steady_platform_t *p = parse_ok(HUB, STEADY_FORMAT_NATIVE);
    if (!p)
        return;
    igraph_error_handler_t *before = igraph_set_error_handler(sentinel_handler);
    summarize(p);
    igraph_error_handler_t *after = igraph_set_error_handler(before);
    CU_ASSERT_PTR_EQUAL(after, sentinel_handler);
    steady_platform_destroy(p);
}

void suite_summary(void)
{
    static const CU_TestInfo tests[] = {
        {"hub: counts, duplex pairs, degrees", test_hub_counts},
        {"hub: exact ranges", test_hub_ranges},
        {"one-way edge splits the components", test_one_way_edge},
        {"one-way chain: one component per node", test_chain_components},
        {"directed cycle: strongly connected, no duplex", test_directed_cycle},
        {"abstract platform: cost ranges", test_abstract},
        {"no edges: empty ranges are 0..0", test_no_edges},
        {"complete graph K4", test_complete_graph},
        {"one-way star degrees", test_degrees_one_way_star},
        {"igraph error handler restored", test_restores_igraph_handler},
        CU_TEST_INFO_NULL,
    };
    add_suite("summary", tests);
}
