/*
 * test_simgrid.c — the SimGrid platform XML reader and writer: SimGrid's
 * units and routing semantics (bottleneck bandwidth, summed latency,
 * symmetrical routes, SPLITDUPLEX links), routers, exact round trips
 * native -> SimGrid -> native for bandwidth and abstract-cost platforms, and
 * the exact message of every input error.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"

/* Two header lines: in the tests below, the <zone> is on line 3. */
#define HEAD "<?xml version='1.0'?>\n<platform version=\"4.1\">\n"
#define TAIL "</platform>\n"

/* A zone with hosts a, b, c (line 3 to 6), then the given lines. */
#define ABC(body)                                                                                  \
    HEAD "<zone id=\"z\" routing=\"Full\">\n"                                                      \
         "<host id=\"a\" speed=\"1Gf\"/>\n"                                                        \
         "<host id=\"b\" speed=\"1Gf\"/>\n"                                                        \
         "<host id=\"c\" speed=\"1Gf\"/>\n" body "</zone>\n" TAIL

static const steady_edge_t *edge_between(const steady_platform_t *p, const char *src,
                                         const char *dst)
{
    int s = steady_platform_find_node(p, src), d = steady_platform_find_node(p, dst);
    int e = s >= 0 && d >= 0 ? steady_platform_find_edge(p, s, d) : -1;
    CU_ASSERT_FATAL(e >= 0);
    return steady_platform_edge(p, e);
}

/* ---- reading ------------------------------------------------------------- */

static void test_units(void)
{
    steady_platform_t *p =
        parse_ok(HEAD "<zone id=\"units\" routing=\"Full\">\n"
                      "<host id=\"a\" speed=\"1Gf\"/>\n"
                      "<host id=\"b\" speed=\"100Mf,50Mf,20Mf\"/>\n"
                      "<host id=\"c\" speed=\"100Mf, 50Mf\" pstate=\"1\"/>\n"
                      "<host id=\"d\" speed=\"2500000\" core=\"4\"/>\n"
                      "<link id=\"l1\" bandwidth=\"1.5MBps\" latency=\"10us\"/>\n"
                      "<link id=\"l2\" bandwidth=\"2520Bps\" latency=\"3ms\"/>\n"
                      "<link id=\"l3\" bandwidth=\"100Mbps\"/>\n"
                      "<link id=\"l4\" bandwidth=\"1GiBps\" latency=\"0.25\"/>\n"
                      "<route src=\"a\" dst=\"b\"><link_ctn id=\"l1\"/></route>\n"
                      "<route src=\"a\" dst=\"c\"><link_ctn id=\"l2\"/></route>\n"
                      "<route src=\"a\" dst=\"d\"><link_ctn id=\"l3\"/></route>\n"
                      "<route src=\"b\" dst=\"c\"><link_ctn id=\"l4\"/></route>\n"
                      "</zone>\n" TAIL,
                 STEADY_FORMAT_SIMGRID);
    if (!p)
        return;
    CU_ASSERT_STRING_EQUAL(steady_platform_name(p), "units");
    CU_ASSERT_EQUAL(steady_platform_node(p, 0)->speed, 1e9);
    CU_ASSERT_EQUAL(steady_platform_node(p, 1)->speed, 1e8); /* first pstate */
    CU_ASSERT_EQUAL(steady_platform_node(p, 2)->speed, 5e7); /* pstate="1" */
    CU_ASSERT_EQUAL(steady_platform_node(p, 3)->speed, 2.5e6);
    CU_ASSERT_EQUAL(edge_between(p, "a", "b")->bandwidth, 1.5e6);
    CU_ASSERT_EQUAL(edge_between(p, "a", "b")->latency, 1e-5);
    CU_ASSERT_EQUAL(edge_between(p, "a", "c")->bandwidth, 2520);
    CU_ASSERT_EQUAL(edge_between(p, "a", "c")->latency, 3e-3);
    CU_ASSERT_EQUAL(edge_between(p, "a", "d")->bandwidth, 12.5e6); /* bits */
    CU_ASSERT_EQUAL(edge_between(p, "a", "d")->latency, 0);        /* SimGrid's default */
    CU_ASSERT_EQUAL(edge_between(p, "b", "c")->bandwidth, 1073741824.0);
    CU_ASSERT_EQUAL(edge_between(p, "b", "c")->latency, 0.25);
    CU_ASSERT_EQUAL(edge_between(p, "c", "b")->overhead, 0);
    CU_ASSERT_EQUAL(edge_between(p, "c", "b")->cost, 0);
    steady_platform_destroy(p);
}

/* A lone message on a multi-link route: the slowest link limits it, every
 * link delays it. */
static void test_multi_link_route(void)
{
    steady_platform_t *p =
        parse_ok(ABC("<link id=\"fast\" bandwidth=\"1GBps\" latency=\"1ms\"/>\n"
                     "<link id=\"slow\" bandwidth=\"10MBps\" latency=\"2ms\"/>\n"
                     "<link id=\"mid\" bandwidth=\"100MBps\" latency=\"0.5ms\"/>\n"
                     "<route src=\"a\" dst=\"c\" symmetrical=\"NO\">\n"
                     "  <link_ctn id=\"fast\"/><link_ctn id=\"slow\"/>\n"
                     "  <link_ctn id=\"mid\"/>\n"
                     "</route>\n"),
                 STEADY_FORMAT_SIMGRID);
    if (!p)
        return;
    CU_ASSERT_EQUAL(steady_platform_edge_count(p), 1);
    const steady_edge_t *e = edge_between(p, "a", "c");
    CU_ASSERT_EQUAL(e->bandwidth, 1e7);
    CU_ASSERT_EQUAL(e->latency, (1e-3 + 2e-3) + 0.5e-3); /* added in route order */
    steady_platform_destroy(p);
}

/* SimGrid routes are symmetrical unless they say otherwise; the reverse
 * edge comes right after the forward one and crosses the same links. */
static void test_symmetrical(void)
{
    steady_platform_t *p = parse_ok(ABC("<link id=\"l1\" bandwidth=\"1GBps\" latency=\"1ms\"/>\n"
                                        "<link id=\"l2\" bandwidth=\"2GBps\" latency=\"2ms\"/>\n"
                                        "<link id=\"l3\" bandwidth=\"3GBps\" latency=\"3ms\"/>\n"
                                        "<route src=\"a\" dst=\"b\"><link_ctn id=\"l1\"/>"
                                        "<link_ctn id=\"l2\"/></route>\n"
                                        "<route src=\"b\" dst=\"c\" symmetrical=\"NO\">"
                                        "<link_ctn id=\"l2\"/></route>\n"
                                        "<route src=\"c\" dst=\"a\" symmetrical=\"YES\">"
                                        "<link_ctn id=\"l3\"/></route>\n"
                                        "<route src=\"c\" dst=\"b\" symmetrical=\"no\">"
                                        "<link_ctn id=\"l1\"/></route>\n"),
                                    STEADY_FORMAT_SIMGRID);
    if (!p)
        return;
    int want[][2] = {{0, 1}, {1, 0}, {1, 2}, {2, 0}, {0, 2}, {2, 1}};
    CU_ASSERT_EQUAL_FATAL(steady_platform_edge_count(p), 6);
    for (int k = 0; k < 6; k++) {
        CU_ASSERT_EQUAL(steady_platform_edge(p, k)->src, want[k][0]);
        CU_ASSERT_EQUAL(steady_platform_edge(p, k)->dst, want[k][1]);
    }
    const steady_edge_t *ab = edge_between(p, "a", "b"), *ba = edge_between(p, "b", "a");
    CU_ASSERT_EQUAL(ab->bandwidth, 1e9);
    CU_ASSERT_EQUAL(ba->bandwidth, 1e9);
    CU_ASSERT_EQUAL(ab->latency, 3e-3);
    CU_ASSERT_EQUAL(ba->latency, ab->latency);
    CU_ASSERT_EQUAL(edge_between(p, "b", "c")->bandwidth, 2e9);
    CU_ASSERT_EQUAL(edge_between(p, "a", "c")->latency, 3e-3);
    steady_platform_destroy(p);
}

/* A SPLITDUPLEX link is two one-way links that routes name with a
 * direction; both have the link's bandwidth and latency.  FULLDUPLEX is its
 * deprecated name. */
static void test_splitduplex(void)
{
    steady_platform_t *p =
        parse_ok(ABC("<link id=\"d\" bandwidth=\"10kBps\" latency=\"10ms\" "
                     "sharing_policy=\"SPLITDUPLEX\"/>\n"
                     "<link id=\"old\" bandwidth=\"20kBps\" sharing_policy=\"FULLDUPLEX\"/>\n"
                     "<link id=\"fat\" bandwidth=\"30kBps\" sharing_policy=\"FATPIPE\"/>\n"
                     "<route src=\"a\" dst=\"b\" symmetrical=\"NO\">"
                     "<link_ctn id=\"d\" direction=\"UP\"/></route>\n"
                     "<route src=\"b\" dst=\"a\" symmetrical=\"NO\">"
                     "<link_ctn id=\"d\" direction=\"DOWN\"/></route>\n"
                     "<route src=\"b\" dst=\"c\"><link_ctn id=\"old\" direction=\"UP\"/>"
                     "<link_ctn id=\"fat\" direction=\"NONE\"/></route>\n"),
                 STEADY_FORMAT_SIMGRID);
    if (!p)
        return;
    CU_ASSERT_EQUAL(steady_platform_edge_count(p), 4);
    CU_ASSERT_EQUAL(edge_between(p, "a", "b")->bandwidth, 1e4);
    CU_ASSERT_EQUAL(edge_between(p, "b", "a")->bandwidth, 1e4);
    CU_ASSERT_EQUAL(edge_between(p, "b", "a")->latency, 1e-2);
    CU_ASSERT_EQUAL(edge_between(p, "c", "b")->bandwidth, 2e4);
    steady_platform_destroy(p);
}

/* Routers: SimGrid's <router>, and a <host> marked steady_kind=router,
 * which is how the writer exports them.  Nodes keep document order. */
static void test_routers(void)
{
    steady_platform_t *p = parse_ok(
        HEAD "<zone id=\"z\" routing=\"Floyd\">\n"
             "<host id=\"a\" speed=\"1Gf\"/>\n"
             "<router id=\"r1\"/>\n"
             "<host id=\"r2\" speed=\"1f\"><prop id=\"steady_kind\" value=\"router\"/></host>\n"
             "<host id=\"b\" speed=\"2Gf\"><prop id=\"steady_kind\" value=\"processor\"/>"
             "<prop id=\"colour\" value=\"blue\"/></host>\n"
             "<link id=\"l\" bandwidth=\"1GBps\"/>\n"
             "<route src=\"a\" dst=\"r1\"><link_ctn id=\"l\"/></route>\n"
             "<route src=\"r1\" dst=\"r2\"><link_ctn id=\"l\"/></route>\n"
             "<route src=\"r2\" dst=\"b\"><link_ctn id=\"l\"/></route>\n"
             "</zone>\n" TAIL,
        STEADY_FORMAT_SIMGRID);
    if (!p)
        return;
    const char *names[] = {"a", "r1", "r2", "b"};
    steady_node_kind_t kinds[] = {STEADY_PROCESSOR, STEADY_ROUTER, STEADY_ROUTER, STEADY_PROCESSOR};
    double speeds[] = {1e9, 0, 0, 2e9};
    CU_ASSERT_EQUAL_FATAL(steady_platform_node_count(p), 4);
    for (int v = 0; v < 4; v++) {
        CU_ASSERT_STRING_EQUAL(steady_platform_node(p, v)->name, names[v]);
        CU_ASSERT_EQUAL(steady_platform_node(p, v)->kind, kinds[v]);
        CU_ASSERT_EQUAL(steady_platform_node(p, v)->speed, speeds[v]);
    }
    CU_ASSERT_EQUAL(steady_platform_processor_count(p), 2);
    CU_ASSERT_EQUAL(steady_platform_edge_count(p), 6);
    steady_platform_destroy(p);
}

/* Full, Floyd, Dijkstra and DijkstraCache zones read the same; so does the
 * old name <AS>, version 4 files, and what SimGrid ignores or steady has no
 * use for: <config>, properties, comments, loopback routes. */
static void test_zones(void)
{
    const char *routings[] = {"Full", "Floyd", "Dijkstra", "DijkstraCache"};
    const char *zones[] = {"zone", "AS"};
    steady_platform_t *ref = NULL;
    for (int z = 0; z < 2; z++)
        for (int k = 0; k < 4; k++) {
            char text[2048];
            snprintf(text, sizeof text,
                     "<?xml version='1.0'?>\n"
                     "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
                     "<platform version=\"%s\">\n"
                     "<config id=\"General\"><prop id=\"network/model\" value=\"CM02\"/></config>\n"
                     "<!-- a comment -->\n"
                     "<%s id=\"site\" routing=\"%s\">\n"
                     "  <prop id=\"owner\" value=\"me\"/>\n"
                     "  <host id=\"a\" speed=\"1Gf\"/>\n"
                     "  <host id=\"b\" speed=\"1Gf\"/>\n"
                     "  <link id=\"lo\" bandwidth=\"10GBps\" latency=\"1us\" "
                     "sharing_policy=\"FATPIPE\"/>\n"
                     "  <link id=\"l\" bandwidth=\"1GBps\" latency=\"1ms\"><prop id=\"x\" "
                     "value=\"y\"/></link>\n"
                     "  <route src=\"a\" dst=\"a\"><link_ctn id=\"lo\"/></route>\n"
                     "  <route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n"
                     "</%s>\n" TAIL,
                     z ? "4" : "4.1", zones[z], routings[k], zones[z]);
            steady_platform_t *p = parse_ok(text, STEADY_FORMAT_AUTO);
            if (!p)
                continue;
            CU_ASSERT_STRING_EQUAL(steady_platform_name(p), "site");
            CU_ASSERT_EQUAL(steady_platform_node_count(p), 2);
            CU_ASSERT_EQUAL(steady_platform_edge_count(p), 2); /* no loopback edge */
            if (ref)
                ASSERT_PLATFORMS_EQUAL(ref, p);
            if (!ref)
                ref = p;
            else
                steady_platform_destroy(p);
        }
    steady_platform_destroy(ref);

    /* a zone id that is not a valid platform name keeps the default */
    steady_platform_t *p = parse_ok(HEAD "<zone id=\"my zone\" routing=\"Full\">\n"
                                         "<host id=\"a\" speed=\"1Gf\"/></zone>\n" TAIL,
                                    STEADY_FORMAT_SIMGRID);
    if (p)
        CU_ASSERT_STRING_EQUAL(steady_platform_name(p), "platform");
    steady_platform_destroy(p);
}

/* The props our exporter writes: steady_cost (every link of the route must
 * have one: the edge's cost is their sum) and steady_overhead (summed). */
static void test_cost_and_overhead_props(void)
{
    steady_platform_t *p = parse_ok(
        ABC("<link id=\"c1\" bandwidth=\"1MBps\" latency=\"1\">"
            "<prop id=\"steady_cost\" value=\"2\"/></link>\n"
            "<link id=\"c2\" bandwidth=\"1MBps\"><prop id=\"steady_cost\" value=\"0.5\"/></link>\n"
            "<route src=\"a\" dst=\"b\"><link_ctn id=\"c1\"/><link_ctn id=\"c2\"/></route>\n"
            "<route src=\"b\" dst=\"c\" symmetrical=\"NO\"><link_ctn id=\"c2\"/></route>\n"),
        STEADY_FORMAT_SIMGRID);
    if (p) {
        CU_ASSERT(steady_platform_is_abstract(p));
        const steady_edge_t *e = edge_between(p, "b", "a");
        CU_ASSERT_EQUAL(e->cost, 2.5);
        CU_ASSERT_EQUAL(e->bandwidth, 0);
        CU_ASSERT_EQUAL(e->latency, 1);
        CU_ASSERT_EQUAL(edge_between(p, "b", "c")->cost, 0.5);
    }
    steady_platform_destroy(p);

    /* a route with a link that has no cost is a bandwidth route */
    p = parse_ok(
        ABC("<link id=\"o1\" bandwidth=\"1MBps\"><prop id=\"steady_overhead\" "
            "value=\"1e-6\"/></link>\n"
            "<link id=\"o2\" bandwidth=\"2MBps\"><prop id=\"steady_overhead\" "
            "value=\"2us\"/><prop id=\"steady_cost\" value=\"3\"/></link>\n"
            "<route src=\"a\" dst=\"b\"><link_ctn id=\"o1\"/><link_ctn id=\"o2\"/></route>\n"),
        STEADY_FORMAT_SIMGRID);
    if (p) {
        CU_ASSERT(!steady_platform_is_abstract(p));
        const steady_edge_t *e = edge_between(p, "a", "b");
        CU_ASSERT_EQUAL(e->bandwidth, 1e6);
        CU_ASSERT_EQUAL(e->overhead, 1e-6 + 2e-6);
        CU_ASSERT_EQUAL(e->cost, 0);
    }
    steady_platform_destroy(p);
}

/* ---- writing ------------------------------------------------------------- */

static void test_write_text(void)
{
    steady_platform_t *p = parse_ok("platform tiny\n"
                                    "processor a speed=1e9\n"
                                    "router r\n"
                                    "edge a r bandwidth=125MBps latency=50us overhead=1us\n"
                                    "edge r a bandwidth=1e6 latency=0\n",
                                    STEADY_FORMAT_NATIVE);
    if (!p)
        return;
    char *text = write_string(p, STEADY_FORMAT_SIMGRID, NULL);
    const char *want =
        "<?xml version='1.0'?>\n"
        "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
        "<!-- steady platform export: one host per node (routers are hosts with\n"
        "     steady_kind=router so that an MPI rank can forward on them), one link and\n"
        "     one one-way route per edge.  Units: Bps, s, f. -->\n"
        "<platform version=\"4.1\">\n"
        "  <zone id=\"tiny\" routing=\"Floyd\">\n"
        "    <host id=\"a\" speed=\"1000000000f\"/>\n"
        "    <host id=\"r\" speed=\"1f\">\n"
        "      <prop id=\"steady_kind\" value=\"router\"/>\n"
        "    </host>\n"
        "    <link id=\"a-&gt;r\" bandwidth=\"125000000Bps\" latency=\"5e-05s\">\n"
        "      <prop id=\"steady_overhead\" value=\"1e-06\"/>\n"
        "    </link>\n"
        "    <link id=\"r-&gt;a\" bandwidth=\"1000000Bps\" latency=\"0s\"/>\n"
        "    <route src=\"a\" dst=\"r\" symmetrical=\"NO\"><link_ctn id=\"a-&gt;r\"/></route>\n"
        "    <route src=\"r\" dst=\"a\" symmetrical=\"NO\"><link_ctn id=\"r-&gt;a\"/></route>\n"
        "  </zone>\n"
        "</platform>\n";
    CU_ASSERT_STRING_EQUAL(text, want);
    if (text && strcmp(text, want) != 0)
        fprintf(stderr, "\n    got:\n%s", text);
    free(text);
    steady_platform_destroy(p);
}

/* native -> SimGrid -> native reproduces every double bit for bit. */
static void round_trip(const steady_platform_t *p, const steady_write_options_t *opts)
{
    char *text = write_string(p, STEADY_FORMAT_SIMGRID, opts);
    if (!text)
        return;
    steady_platform_t *q = parse_ok(text, STEADY_FORMAT_AUTO);
    if (q)
        ASSERT_PLATFORMS_EQUAL(p, q);
    else
        fprintf(stderr, "\n    exported text:\n%s", text);
    steady_platform_destroy(q);
    free(text);
}

static void add_node(steady_platform_t *p, const char *name, steady_node_kind_t kind, double speed)
{
    steady_error_t err = {0};
    CU_ASSERT_EQUAL_FATAL(steady_platform_add_node(p, name, kind, speed, NULL, &err), STEADY_OK);
}

static void add_edge(steady_platform_t *p, steady_edge_t e)
{
    steady_error_t err = {0};
    steady_err_t rc = steady_platform_add_edge(p, &e, NULL, &err);
    if (rc)
        fprintf(stderr, "\n    add_edge: %s\n", err.msg);
    CU_ASSERT_EQUAL_FATAL(rc, STEADY_OK);
}

static void test_round_trip_bandwidth(void)
{
    steady_platform_t *p;
    steady_error_t err = {0};
    CU_ASSERT_EQUAL_FATAL(steady_platform_create(&p, &err), STEADY_OK);
    CU_ASSERT_EQUAL(steady_platform_set_name(p, "awkward.doubles-1", &err), STEADY_OK);
    volatile double tenth = 0.1, third = 1.0 / 3; /* 0.1 + 0.2 computed at run time */
    add_node(p, "p0", STEADY_PROCESSOR, tenth + 0.2);
    add_node(p, "sw:1", STEADY_ROUTER, 0);
    add_node(p, "p/2", STEADY_PROCESSOR, third);
    add_node(p, "p-3@x", STEADY_PROCESSOR, 123456789.123);
    add_node(p, "p4", STEADY_PROCESSOR, 1e-6); /* the ranges' ends */
    add_node(p, "p5", STEADY_PROCESSOR, 6.02214076e20);
    add_edge(p, (steady_edge_t){.src = 0, .dst = 1, .bandwidth = 123456789.123, .latency = 1e-7});
    add_edge(p,
             (steady_edge_t){
                 .src = 1, .dst = 0, .bandwidth = third, .latency = tenth + 0.2, .overhead = 1e-7});
    add_edge(
        p, (steady_edge_t){.src = 1, .dst = 2, .bandwidth = 1e-3, .latency = 0, .overhead = third});
    add_edge(p, (steady_edge_t){.src = 2, .dst = 3, .bandwidth = 1e15, .latency = 4.9e-324});
    add_edge(p, (steady_edge_t){.src = 3,
                                .dst = 1,
                                .bandwidth = 0.0010000000000000002,
                                .latency = 123456.789123,
                                .overhead = 5e-324});
    add_edge(p, (steady_edge_t){.src = 4, .dst = 5, .bandwidth = 1e15 - 0.5, .latency = 1e6});
    add_edge(p, (steady_edge_t){.src = 5,
                                .dst = 4,
                                .bandwidth = 123456789012345.67,
                                .latency = 0.30000000000000004});
    round_trip(p, NULL);
    steady_platform_destroy(p);
}

static void test_round_trip_abstract(void)
{
    steady_platform_t *p;
    steady_error_t err = {0};
    CU_ASSERT_EQUAL_FATAL(steady_platform_create(&p, &err), STEADY_OK);
    volatile double tenth = 0.1, third = 1.0 / 3;
    add_node(p, "P1", STEADY_PROCESSOR, 1);
    add_node(p, "P2", STEADY_PROCESSOR, third);
    add_node(p, "R", STEADY_ROUTER, 0);
    add_node(p, "P3", STEADY_PROCESSOR, tenth + 0.2);
    add_edge(p, (steady_edge_t){.src = 0, .dst = 1, .cost = third});
    add_edge(p, (steady_edge_t){.src = 1, .dst = 0, .cost = tenth + 0.2, .latency = 1e-7});
    add_edge(p, (steady_edge_t){.src = 1, .dst = 2, .cost = 123456.789123});
    add_edge(p, (steady_edge_t){.src = 2, .dst = 3, .cost = 1e-6, .latency = third});
    add_edge(p, (steady_edge_t){.src = 3, .dst = 0, .cost = 7});
    round_trip(p, NULL);
    steady_write_options_t opts = {.msg_size = 1000};
    round_trip(p, &opts);

    /* one abstract time unit is one simulated second for msg_size bytes:
     * cost 7 -> bandwidth 1048576 / 7 (default msg_size 1 MiB) */
    char *text = write_string(p, STEADY_FORMAT_SIMGRID, NULL);
    char want[200];
    snprintf(want, sizeof want,
             "<link id=\"P3-&gt;P1\" bandwidth=\"%.17gBps\" latency=\"0s\">\n"
             "      <prop id=\"steady_cost\" value=\"7\"/>",
             1048576.0 / 7);
    CU_ASSERT_PTR_NOT_NULL(text ? strstr(text, want) : NULL);
    free(text);
    text = write_string(p, STEADY_FORMAT_SIMGRID, &opts);
    CU_ASSERT_PTR_NOT_NULL(text ? strstr(text, "<link id=\"P1-&gt;P2\" bandwidth=\"3000Bps\"")
                                : NULL);
    free(text);
    steady_platform_destroy(p);
}

static void test_round_trip_generated(void)
{
    for (int kind = STEADY_GEN_RANDOM; kind <= STEADY_GEN_STAR; kind++) {
        steady_platform_t *p = NULL;
        steady_error_t err = {0};
        steady_err_t rc = steady_platform_generate(kind, 12, 7, &p, &err);
        CU_ASSERT_EQUAL(rc, STEADY_OK);
        if (!rc)
            round_trip(p, NULL);
        steady_platform_destroy(p);
    }
}

static void test_write_errors(void)
{
    steady_platform_t *p = parse_ok("processor a speed=1\nprocessor b speed=1\n"
                                    "edge a b cost=1e6\n",
                                    STEADY_FORMAT_NATIVE);
    if (!p)
        return;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    steady_error_t err = {0};
    /* 100 bytes per million time units: below the smallest bandwidth */
    steady_write_options_t opts = {.msg_size = 100};
    CU_ASSERT_EQUAL(steady_platform_write(p, f, STEADY_FORMAT_SIMGRID, &opts, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "cannot export the cost of edge a -> b (1000000) as a SimGrid "
                                    "bandwidth for 100-byte messages");
    opts.msg_size = -1;
    CU_ASSERT_EQUAL(steady_platform_write(p, f, STEADY_FORMAT_SIMGRID, &opts, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "invalid message size for the SimGrid export (-1 bytes)");
    fclose(f);
    free(buf);
    steady_platform_destroy(p);
}

/* ---- errors -------------------------------------------------------------- */

typedef struct {
    const char *text;
    steady_err_t code;
    const char *msg;
} bad_case_t;

static void check_bad(const bad_case_t *cases, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        const char *got = parse_err(cases[k].text, STEADY_FORMAT_AUTO, cases[k].code);
        if (strcmp(got, cases[k].msg) != 0)
            fprintf(stderr, "\n    case %zu:\n      want: %s\n      got:  %s\n", k, cases[k].msg,
                    got);
        CU_ASSERT_STRING_EQUAL(got, cases[k].msg);
    }
}

static void test_document_errors(void)
{
    static const bad_case_t cases[] = {
        {HEAD "<zone id=\"z\" routing=\"Full\">\n<host id=\"a\" speed=\"1Gf\"/>\n", STEADY_EPARSE,
         "test:5:1: malformed XML (Premature end of data in tag zone line 3)"},
        {"<?xml version='1.0'?>\n<platform>\n</platform>\n", STEADY_EPARSE,
         "test:2: missing attribute version in <platform>: expected version=\"4.1\""},
        {"<?xml version='1.0'?>\n<platform version=\"3\">\n</platform>\n", STEADY_EUNSUPPORTED,
         "test:2: SimGrid platform version too old (3): upgrade the file with "
         "simgrid_update_xml"},
        {"<?xml version='1.0'?>\n<platform version=\"5.0\">\n</platform>\n", STEADY_EUNSUPPORTED,
         "test:2: unsupported SimGrid platform version (5.0): steady reads version 4.x"},
        {"<?xml version='1.0'?>\n<platform version=\"four\">\n</platform>\n", STEADY_EPARSE,
         "test:2: bad platform version (four): expected 4.1"},
        {"<?xml version='1.0'?>\n<platform version=\"4.1\" id=\"x\">\n</platform>\n", STEADY_EPARSE,
         "test:2: unknown attribute in <platform> (id): expected version"},
        {HEAD TAIL, STEADY_EINVAL, "test:2: empty platform: no <zone> in <platform>"},
        {HEAD "<zone id=\"nothing\" routing=\"Full\">\n</zone>\n" TAIL, STEADY_EINVAL,
         "test:3: empty platform: no <host> or <router> in <zone> (nothing)"},
        {HEAD "<zone id=\"z\" routing=\"Full\">\n<router id=\"r\"/>\n</zone>\n" TAIL, STEADY_EINVAL,
         "test:1: platform has no processor (1 routers only)"},
        {HEAD "<zone id=\"z1\" routing=\"Full\"><host id=\"a\" speed=\"1f\"/></zone>\n"
              "<zone id=\"z2\" routing=\"Full\"/>\n" TAIL,
         STEADY_EUNSUPPORTED,
         "test:4: more than one top-level zone (z2): steady reads platforms made of one zone"},
        {HEAD "<zone id=\"z\" routing=\"Cluster\">\n</zone>\n" TAIL, STEADY_EUNSUPPORTED,
         "test:3: unsupported routing in <zone> (Cluster): steady reads Full, Floyd, Dijkstra "
         "and DijkstraCache zones"},
        {HEAD "<AS id=\"z\" routing=\"Vivaldi\">\n</AS>\n" TAIL, STEADY_EUNSUPPORTED,
         "test:3: unsupported routing in <AS> (Vivaldi): steady reads Full, Floyd, Dijkstra "
         "and DijkstraCache zones"},
        {HEAD "<zone id=\"z\" routing=\"full\">\n</zone>\n" TAIL, STEADY_EPARSE,
         "test:3: unknown routing in <zone> (full): steady reads Full, Floyd, Dijkstra and "
         "DijkstraCache zones"},
        {HEAD "<zone id=\"z\">\n</zone>\n" TAIL, STEADY_EPARSE,
         "test:3: missing attribute routing in <zone> (z)"},
        {HEAD "<zone id=\"world\" routing=\"Full\">\n<zone id=\"site\" routing=\"Full\"/>\n"
              "</zone>\n" TAIL,
         STEADY_EUNSUPPORTED,
         "test:4: unsupported element (<zone>): nested zones are not supported: flatten the "
         "platform into one zone"},
        {HEAD "<zone id=\"z\" routing=\"Full\">\n<cluster id=\"c\" prefix=\"n\" suffix=\"\" "
              "radical=\"0-7\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\"/>\n</zone>\n" TAIL,
         STEADY_EUNSUPPORTED,
         "test:4: unsupported element (<cluster>): declare its hosts, links and routes one by "
         "one in a Full or Floyd zone"},
        {HEAD "<cluster id=\"c\"/>\n" TAIL, STEADY_EUNSUPPORTED,
         "test:3: unsupported element (<cluster>): declare its hosts, links and routes one by "
         "one in a Full or Floyd zone"},
        {HEAD "<zone id=\"z\" routing=\"Full\">\n<host id=\"a\" speed=\"1f\"/>\n"
              "<bypassRoute src=\"a\" dst=\"a\"/>\n</zone>\n" TAIL,
         STEADY_EUNSUPPORTED,
         "test:5: unsupported element (<bypassRoute>): steady reads the declared routes only"},
        {HEAD "<zone id=\"z\" routing=\"Full\">\n<host id=\"a\" speed=\"1f\"/>\n</zone>\n"
              "<actor host=\"a\" function=\"main\"/>\n" TAIL,
         STEADY_EUNSUPPORTED,
         "test:6: unsupported element (<actor>): deployment belongs in a separate file, not in "
         "the platform"},
        {HEAD "<zone id=\"z\" routing=\"Full\">\n<host id=\"a\" speed=\"1f\">"
              "<disk id=\"d\" read_bw=\"1\" write_bw=\"1\"/></host>\n</zone>\n" TAIL,
         STEADY_EUNSUPPORTED,
         "test:4: unsupported element (<disk>): steady does not model storage"},
        {HEAD "<zone id=\"z\" routing=\"Full\">\n<host id=\"a\" speed=\"1f\"/>\n"
              "<hots id=\"b\" speed=\"1f\"/>\n</zone>\n" TAIL,
         STEADY_EPARSE,
         "test:5: unknown element (<hots>) in <zone>: not a SimGrid platform element"},
        {HEAD "<host id=\"a\" speed=\"1f\"/>\n" TAIL, STEADY_EPARSE,
         "test:3: unexpected element (<host>) in <platform>"},
        {"<?xml version='1.0'?>\n<graphml/>\n", STEADY_EPARSE,
         "test:2: not a SimGrid platform (<graphml>): expected a <platform> root element"},
    };
    /* the last case is forced to SimGrid; AUTO would pick GraphML */
    check_bad(cases, sizeof cases / sizeof *cases - 1);
    const bad_case_t *last = &cases[sizeof cases / sizeof *cases - 1];
    CU_ASSERT_STRING_EQUAL(parse_err(last->text, STEADY_FORMAT_SIMGRID, last->code), last->msg);
}

static void test_host_errors(void)
{
    static const bad_case_t cases[] = {
        {ABC("<host id=\"d\"/>\n"), STEADY_EPARSE, "test:7: missing attribute speed in <host> (d)"},
        {ABC("<host speed=\"1f\"/>\n"), STEADY_EPARSE, "test:7: missing attribute id in <host>"},
        {ABC("<host id=\"d\" speed=\"NaNf\"/>\n"), STEADY_EINVAL,
         "test:7: speed is not a finite number (NaNf)"},
        {ABC("<host id=\"d\" speed=\"0f\"/>\n"), STEADY_EINVAL, "test:7: non-positive speed (0f)"},
        {ABC("<host id=\"d\" speed=\"-1Gf\"/>\n"), STEADY_EINVAL,
         "test:7: non-positive speed (-1Gf)"},
        {ABC("<host id=\"d\" speed=\"1GHz\"/>\n"), STEADY_EPARSE,
         "test:7: unknown speed unit (1GHz): use f, kf, Mf, Gf, Tf, Pf, Ef, or no unit for "
         "flop/s"},
        {ABC("<host id=\"d\" speed=\"100Mf,50Mx\"/>\n"), STEADY_EPARSE,
         "test:7: unknown speed unit (50Mx): use f, kf, Mf, Gf, Tf, Pf, Ef, or no unit for "
         "flop/s"},
        {ABC("<host id=\"d\" speed=\"100Mf,\"/>\n"), STEADY_EPARSE,
         "test:7: not a number (): use f, kf, Mf, Gf, Tf, Pf, Ef, or no unit for flop/s"},
        {ABC("<host id=\"d\" speed=\"100Mf,50Mf\" pstate=\"2\"/>\n"), STEADY_EINVAL,
         "test:7: pstate out of range in <host> (2): the speed list has 2 values"},
        {ABC("<host id=\"d\" speed=\"100Mf\" pstate=\"one\"/>\n"), STEADY_EPARSE,
         "test:7: bad pstate in <host> (one): expected an index into the speed list"},
        {ABC("<host id=\"d\" speed=\"1f\" speed_file=\"d.trace\"/>\n"), STEADY_EUNSUPPORTED,
         "test:7: unsupported attribute speed_file in <host> (d.trace): steady models constant "
         "bandwidths, latencies and speeds"},
        {ABC("<host id=\"d\" sped=\"1f\"/>\n"), STEADY_EPARSE,
         "test:7: unknown attribute in <host> (sped): expected id, speed, core, speed_file, "
         "availability_file, state_file, coordinates, pstate"},
        {ABC("<host id=\"a\" speed=\"1f\"/>\n"), STEADY_EINVAL, "test:7: duplicate node (a)"},
        {ABC("<router id=\"a b\"/>\n"), STEADY_EINVAL,
         "test:7: invalid node name (a b): use 1 to 255 characters from A-Z a-z 0-9 _ . : @ + "
         "/ -"},
        {ABC("<host id=\"d\" speed=\"1f\"><prop id=\"steady_kind\" value=\"switch\"/></host>\n"),
         STEADY_EINVAL, "test:7: unknown steady_kind (switch): expected router or processor"},
        {ABC("<host id=\"d\" speed=\"1f\"><prop id=\"steady_kind\"/></host>\n"), STEADY_EPARSE,
         "test:7: missing attribute value in <prop> (steady_kind)"},
        {ABC("<router id=\"r\"><prop id=\"x\" value=\"y\"/></router>\n"), STEADY_EPARSE,
         "test:7: unexpected element (<prop>) in <router>"},
    };
    check_bad(cases, sizeof cases / sizeof *cases);
}

static void test_link_errors(void)
{
    static const bad_case_t cases[] = {
        {ABC("<link id=\"l\" latency=\"1ms\"/>\n"), STEADY_EPARSE,
         "test:7: missing attribute bandwidth in <link> (l)"},
        {ABC("<link bandwidth=\"1GBps\"/>\n"), STEADY_EPARSE,
         "test:7: missing attribute id in <link>"},
        {ABC("<link id=\"l\" bandwidth=\"12Mxx\"/>\n"), STEADY_EPARSE,
         "test:7: unknown bandwidth unit (12Mxx): use Bps, kBps, MBps, GBps, KiBps, MiBps, "
         "GiBps, bps, kbps, Mbps, Gbps, or no unit for bytes/s"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\" latency=\"1 ms\"/>\n"), STEADY_EPARSE,
         "test:7: unknown time unit (1 ms): use s, ms, us, ns, ps, m, h, d, w, or no unit for "
         "seconds"},
        {ABC("<link id=\"l\" bandwidth=\"0Bps\"/>\n"), STEADY_EINVAL,
         "test:7: non-positive bandwidth (0Bps)"},
        {ABC("<link id=\"l\" bandwidth=\"infBps\"/>\n"), STEADY_EINVAL,
         "test:7: bandwidth is not a finite number (infBps)"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\" latency=\"-1ms\"/>\n"), STEADY_EINVAL,
         "test:7: negative latency (-1ms)"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\" latncy=\"10ms\"/>\n"), STEADY_EPARSE,
         "test:7: unknown attribute in <link> (latncy): expected id, bandwidth, latency, "
         "sharing_policy, bandwidth_file, latency_file, state_file"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\" sharing_policy=\"SPLIT\"/>\n"), STEADY_EPARSE,
         "test:7: unknown sharing_policy in <link> (SPLIT): expected SHARED, SPLITDUPLEX or "
         "FATPIPE"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\" sharing_policy=\"WIFI\"/>\n"), STEADY_EUNSUPPORTED,
         "test:7: unsupported sharing_policy in <link> (WIFI): wifi links need a Wifi zone, "
         "which steady does not read"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\" bandwidth_file=\"bw.trace\"/>\n"),
         STEADY_EUNSUPPORTED,
         "test:7: unsupported attribute bandwidth_file in <link> (bw.trace): steady models "
         "constant bandwidths, latencies and speeds"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\"/>\n<link id=\"l\" bandwidth=\"2GBps\"/>\n"),
         STEADY_EINVAL, "test:8: duplicate link (l)"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\"><prop id=\"steady_cost\" value=\"0\"/></link>\n"),
         STEADY_EINVAL, "test:7: non-positive cost (0)"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\"><prop id=\"steady_cost\" value=\"2s\"/>"
             "</link>\n"),
         STEADY_EPARSE, "test:7: not a number (2s): this field is a plain number"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\"><prop id=\"steady_overhead\" value=\"-1us\"/>"
             "</link>\n"),
         STEADY_EINVAL, "test:7: negative overhead (-1us)"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\"><prop id=\"steady_cost\" value=\"1\"/>"
             "<prop id=\"steady_cost\" value=\"2\"/></link>\n"),
         STEADY_EINVAL, "test:7: duplicate <prop> (steady_cost)"},
        {ABC("<link id=\"l\" bandwidth=\"1GBps\"><link_ctn id=\"l\"/></link>\n"), STEADY_EPARSE,
         "test:7: unexpected element (<link_ctn>) in <link>"},
    };
    check_bad(cases, sizeof cases / sizeof *cases);
}

#define LINKS                                                                                      \
    "<link id=\"l\" bandwidth=\"1GBps\" latency=\"1ms\"/>\n"                                       \
    "<link id=\"d\" bandwidth=\"1GBps\" sharing_policy=\"SPLITDUPLEX\"/>\n"

static void test_route_errors(void)
{
    static const bad_case_t cases[] = {
        {ABC(LINKS "<route src=\"a\" dst=\"x\"><link_ctn id=\"l\"/></route>\n"), STEADY_EINVAL,
         "test:9: unknown host or router in <route> dst (x): declare it with <host> or <router> "
         "before the route"},
        {ABC(LINKS "<route dst=\"a\"><link_ctn id=\"l\"/></route>\n"), STEADY_EPARSE,
         "test:9: missing attribute src in <route>"},
        {ABC(LINKS "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/><link_ctn id=\"m\"/>"
                   "</route>\n"),
         STEADY_EINVAL, "test:9: unknown link in <route> (m)"},
        {ABC(LINKS "<route src=\"a\" dst=\"b\"><link_ctn/></route>\n"), STEADY_EPARSE,
         "test:9: missing attribute id in <link_ctn>"},
        {ABC(LINKS "<route src=\"a\" dst=\"b\">\n</route>\n"), STEADY_EINVAL,
         "test:9: route with no <link_ctn> (a -> b)"},
        {ABC(LINKS "<route src=\"a\" dst=\"a\"/>\n"), STEADY_EINVAL,
         "test:9: route with no <link_ctn> (a -> a)"},
        {ABC(LINKS "<route src=\"a\" dst=\"b\" symmetrical=\"MAYBE\"><link_ctn id=\"l\"/>"
                   "</route>\n"),
         STEADY_EPARSE, "test:9: bad symmetrical in <route> (MAYBE): expected YES or NO"},
        {ABC(LINKS "<route src=\"a\" dst=\"b\" symmetrical=\"NO\"><link_ctn id=\"l\"/></route>\n"
                   "<route src=\"a\" dst=\"b\" symmetrical=\"NO\"><link_ctn id=\"l\"/></route>\n"),
         STEADY_EINVAL,
         "test:10: duplicate edge (a -> b): already declared by the route at line 9"},
        {ABC(LINKS "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n"
                   "<route src=\"b\" dst=\"a\"><link_ctn id=\"l\"/></route>\n"),
         STEADY_EINVAL,
         "test:10: duplicate edge (b -> a): already declared by the route at line 9, which is "
         "symmetrical (SimGrid's default): add symmetrical=\"NO\" to one-way routes"},
        {ABC(LINKS "<route src=\"b\" dst=\"a\" symmetrical=\"NO\"><link_ctn id=\"l\"/></route>\n"
                   "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n"),
         STEADY_EINVAL,
         "test:10: duplicate edge (b -> a): already declared by the route at line 9, and this "
         "route is symmetrical (SimGrid's default): add symmetrical=\"NO\" to one-way routes"},
        {ABC(LINKS "<route src=\"a\" dst=\"b\"><link_ctn id=\"d\"/></route>\n"), STEADY_EINVAL,
         "test:9: missing direction in <link_ctn> to the SPLITDUPLEX link (d): use "
         "direction=\"UP\" or \"DOWN\""},
        {ABC(LINKS "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\" direction=\"UP\"/></route>\n"),
         STEADY_EINVAL, "test:9: direction UP in <link_ctn> to a link that is not SPLITDUPLEX (l)"},
        {ABC(LINKS "<route src=\"a\" dst=\"b\"><link_ctn id=\"d\" direction=\"up\"/></route>\n"),
         STEADY_EPARSE, "test:9: unknown direction in <link_ctn> (up): expected UP, DOWN or NONE"},
        {ABC(LINKS "<route src=\"a\" dst=\"b\"><prop id=\"x\" value=\"y\"/></route>\n"),
         STEADY_EPARSE, "test:9: unexpected element (<prop>) in <route>"},
        {ABC("<link id=\"c\" bandwidth=\"1GBps\"><prop id=\"steady_cost\" "
             "value=\"1\"/></link>\n" LINKS
             "<route src=\"a\" dst=\"b\"><link_ctn id=\"c\"/></route>\n"
             "<route src=\"a\" dst=\"c\"><link_ctn id=\"l\"/></route>\n"),
         STEADY_EINVAL,
         "test:11: edge a -> c uses a bandwidth but the platform's first edge uses a cost: a "
         "platform uses abstract costs or bandwidths, not both"},
    };
    check_bad(cases, sizeof cases / sizeof *cases);
}

void suite_simgrid(void)
{
    static const CU_TestInfo tests[] = {
        {"units and pstates", test_units},
        {"multi-link route: min bandwidth, summed latency", test_multi_link_route},
        {"symmetrical routes", test_symmetrical},
        {"SPLITDUPLEX links", test_splitduplex},
        {"routers", test_routers},
        {"zone routings, <AS>, ignored elements", test_zones},
        {"steady_cost and steady_overhead props", test_cost_and_overhead_props},
        {"written text", test_write_text},
        {"round trip, bandwidth platform", test_round_trip_bandwidth},
        {"round trip, abstract platform", test_round_trip_abstract},
        {"round trip, generated platforms", test_round_trip_generated},
        {"writer errors", test_write_errors},
        {"document errors", test_document_errors},
        {"host errors", test_host_errors},
        {"link errors", test_link_errors},
        {"route errors", test_route_errors},
        CU_TEST_INFO_NULL,
    };
    add_suite("simgrid", tests);
}
