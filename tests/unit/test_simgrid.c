/*
 * test_simgrid.c — the SimGrid platform XML reader and writer: SimGrid's
 * units and routing semantics (bottleneck bandwidth, summed latency,
 * symmetrical routes, SPLITDUPLEX links), routers, exact round trips
 * native -> SimGrid -> native for bandwidth and abstract-cost platforms
 * (the reader's refusals: test_simgrid_errors.c).
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sg_text.h"
#include "tests.h"

static int edge_id(const steady_platform_t *p, const char *src, const char *dst)
{
    int s = steady_platform_find_node(p, src), d = steady_platform_find_node(p, dst);
    int e = s >= 0 && d >= 0 ? steady_platform_find_edge(p, s, d) : -1;
    CU_ASSERT_FATAL(e >= 0);
    return e;
}

static const steady_edge_t *edge_between(const steady_platform_t *p, const char *src,
                                         const char *dst)
{
    return steady_platform_edge(p, edge_id(p, src, dst));
}

/* The channels edge src -> dst crosses, in order, as "l1 d:down fat". */
static const char *crossings(const steady_platform_t *p, const char *src, const char *dst)
{
    static char buf[256];
    const steady_edge_t *e = edge_between(p, src, dst);
    buf[0] = '\0';
    for (int k = 0; k < e->ncross; k++) {
        size_t n = strlen(buf);
        snprintf(buf + n, sizeof buf - n, "%s%s%s", k ? " " : "",
                 steady_platform_channel(p, e->cross[k].channel)->name,
                 e->cross[k].down ? ":down" : "");
    }
    return buf;
}

static const steady_channel_t *channel_named(const steady_platform_t *p, const char *name)
{
    int c = steady_platform_find_channel(p, name);
    CU_ASSERT_FATAL(c >= 0);
    return steady_platform_channel(p, c);
}

/* ---- reading ------------------------------------------------------------- */

/* SimGrid's units; every link a channel, every route an edge crossing its
 * links: the edge's bandwidth is its slowest link's, its latency theirs. */
static void test_units(void)
{
    steady_platform_t *p =
        parse_ok(HEAD "<zone id=\"units\" routing=\"Full\">\n"
                      "<host id=\"a\" speed=\"1Gf\"/>\n"
                      "<host id=\"b\" speed=\"100Mf,50Mf,20Mf, 0f,0f\"/>\n"
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
    CU_ASSERT_EQUAL(steady_platform_node(p, 1)->speed, 1e8); /* first pstate; 0f: off */
    CU_ASSERT_EQUAL(steady_platform_node(p, 2)->speed, 5e7); /* pstate="1" */
    CU_ASSERT_EQUAL(steady_platform_node(p, 3)->speed, 2.5e6);
    CU_ASSERT_EQUAL(steady_platform_channel_count(p), 4);
    CU_ASSERT_EQUAL(channel_named(p, "l1")->bandwidth, 1.5e6);
    CU_ASSERT_EQUAL(channel_named(p, "l1")->latency, 1e-5);
    CU_ASSERT_EQUAL(channel_named(p, "l1")->sharing, STEADY_SHARED); /* SimGrid's default */
    CU_ASSERT_EQUAL(channel_named(p, "l2")->bandwidth, 2520);
    CU_ASSERT_EQUAL(channel_named(p, "l2")->latency, 3e-3);
    CU_ASSERT_EQUAL(channel_named(p, "l3")->bandwidth, 12.5e6); /* bits */
    CU_ASSERT_EQUAL(channel_named(p, "l3")->latency, 0);        /* SimGrid's default */
    CU_ASSERT_EQUAL(channel_named(p, "l4")->bandwidth, 1073741824.0);
    CU_ASSERT_EQUAL(channel_named(p, "l4")->latency, 0.25);
    CU_ASSERT_EQUAL(steady_platform_edge_count(p), 8);
    CU_ASSERT_STRING_EQUAL(crossings(p, "a", "b"), "l1");
    CU_ASSERT_STRING_EQUAL(crossings(p, "c", "b"), "l4");
    CU_ASSERT_EQUAL(edge_between(p, "a", "b")->bandwidth, 1.5e6);
    CU_ASSERT_EQUAL(steady_platform_edge_latency(p, edge_id(p, "a", "b")), 1e-5);
    CU_ASSERT_EQUAL(steady_platform_edge_latency(p, edge_id(p, "c", "a")), 3e-3);
    CU_ASSERT_EQUAL(steady_platform_edge_latency(p, edge_id(p, "b", "c")), 0.25);
    CU_ASSERT_EQUAL(edge_between(p, "c", "b")->overhead, 0);
    CU_ASSERT_EQUAL(edge_between(p, "c", "b")->cost, 0);
    steady_platform_destroy(p);
}

/* A multi-link route: one edge whose slowest link bounds a lone message and
 * whose links all delay it. */
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
    int e = edge_id(p, "a", "c");
    CU_ASSERT_STRING_EQUAL(crossings(p, "a", "c"), "fast slow mid");
    CU_ASSERT_EQUAL(steady_platform_edge(p, e)->bandwidth, 1e7);
    CU_ASSERT_EQUAL(steady_platform_edge(p, e)->latency, 0); /* the links hold it */
    CU_ASSERT_EQUAL(steady_platform_edge_latency(p, e), (1e-3 + 2e-3) + 0.5e-3);
    CU_ASSERT_EQUAL(steady_platform_edge_time(p, e, 1e6), 0.1);
    /* three SHARED links, three resources; no port-free private link */
    CU_ASSERT_EQUAL(steady_platform_resource_count(p), 3);
    steady_platform_destroy(p);
}

/* SimGrid routes are symmetrical unless they say otherwise; the reverse
 * edge crosses the same links in reverse order. */
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
    CU_ASSERT_EQUAL(steady_platform_edge_count(p), 6);
    CU_ASSERT_STRING_EQUAL(crossings(p, "a", "b"), "l1 l2");
    CU_ASSERT_STRING_EQUAL(crossings(p, "b", "a"), "l2 l1");
    CU_ASSERT_STRING_EQUAL(crossings(p, "b", "c"), "l2");
    CU_ASSERT_STRING_EQUAL(crossings(p, "c", "b"), "l1"); /* "no" is NO */
    CU_ASSERT_STRING_EQUAL(crossings(p, "c", "a"), "l3");
    CU_ASSERT_STRING_EQUAL(crossings(p, "a", "c"), "l3");
    CU_ASSERT_EQUAL(edge_between(p, "a", "b")->bandwidth, 1e9);
    CU_ASSERT_EQUAL(edge_between(p, "b", "a")->bandwidth, 1e9);
    CU_ASSERT_EQUAL(steady_platform_edge_latency(p, edge_id(p, "b", "a")), 3e-3);
    CU_ASSERT_EQUAL(edge_between(p, "b", "c")->bandwidth, 2e9);
    steady_platform_destroy(p);
}

/* A SPLITDUPLEX link is one channel with a capacity per direction; routes
 * name the direction, and a symmetrical route's reverse crosses the other.
 * FULLDUPLEX is its deprecated name. */
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
                     "<link_ctn id=\"d_DOWN\"/></route>\n"
                     "<route src=\"b\" dst=\"c\"><link_ctn id=\"old\" direction=\"UP\"/>"
                     "<link_ctn id=\"fat\" direction=\"NONE\"/></route>\n"),
                 STEADY_FORMAT_SIMGRID);
    if (!p)
        return;
    CU_ASSERT_EQUAL(steady_platform_edge_count(p), 4);
    CU_ASSERT_EQUAL(channel_named(p, "d")->sharing, STEADY_SPLITDUPLEX);
    CU_ASSERT_EQUAL(channel_named(p, "old")->sharing, STEADY_SPLITDUPLEX);
    CU_ASSERT_EQUAL(channel_named(p, "fat")->sharing, STEADY_FATPIPE);
    CU_ASSERT_STRING_EQUAL(crossings(p, "a", "b"), "d");
    CU_ASSERT_STRING_EQUAL(crossings(p, "b", "a"), "d:down");
    CU_ASSERT_STRING_EQUAL(crossings(p, "b", "c"), "old fat");
    CU_ASSERT_STRING_EQUAL(crossings(p, "c", "b"), "fat old:down");
    CU_ASSERT_EQUAL(edge_between(p, "b", "a")->bandwidth, 1e4);
    CU_ASSERT_EQUAL(steady_platform_edge_latency(p, edge_id(p, "b", "a")), 1e-2);
    CU_ASSERT_EQUAL(edge_between(p, "c", "b")->bandwidth, 2e4);
    /* d up, d down, old up, old down; FATPIPE is no resource */
    CU_ASSERT_EQUAL(steady_platform_resource_count(p), 4);
    steady_platform_destroy(p);
}

/* SimGrid's <router> only routes: it is no node (no rank runs on it), and
 * the routes through it cross its links.  A <host> marked steady_kind=router
 * (steady's exports) is a rank that forwards.  Nodes keep document order. */
static void test_routers(void)
{
    steady_platform_t *p = parse_ok(
        HEAD "<zone id=\"z\" routing=\"Floyd\">\n"
             "<host id=\"a\" speed=\"1Gf\"/>\n"
             "<router id=\"r1\"/>\n"
             "<host id=\"r2\" speed=\"1f\"><prop id=\"steady_kind\" value=\"router\"/></host>\n"
             "<host id=\"b\" speed=\"2Gf\"><prop id=\"steady_kind\" value=\"processor\"/>"
             "<prop id=\"colour\" value=\"blue\"/></host>\n"
             "<link id=\"l1\" bandwidth=\"1GBps\"/>\n"
             "<link id=\"l2\" bandwidth=\"1GBps\"/>\n"
             "<link id=\"l3\" bandwidth=\"1GBps\"/>\n"
             "<route src=\"a\" dst=\"r1\"><link_ctn id=\"l1\"/></route>\n"
             "<route src=\"r1\" dst=\"r2\"><link_ctn id=\"l2\"/></route>\n"
             "<route src=\"r2\" dst=\"b\"><link_ctn id=\"l3\"/></route>\n"
             "</zone>\n" TAIL,
        STEADY_FORMAT_SIMGRID);
    if (!p)
        return;
    const char *names[] = {"a", "r2", "b"};
    steady_node_kind_t kinds[] = {STEADY_PROCESSOR, STEADY_ROUTER, STEADY_PROCESSOR};
    double speeds[] = {1e9, 0, 2e9};
    CU_ASSERT_EQUAL_FATAL(steady_platform_node_count(p), 3);
    for (int v = 0; v < 3; v++) {
        CU_ASSERT_STRING_EQUAL(steady_platform_node(p, v)->name, names[v]);
        CU_ASSERT_EQUAL(steady_platform_node(p, v)->kind, kinds[v]);
        CU_ASSERT_EQUAL(steady_platform_node(p, v)->speed, speeds[v]);
    }
    CU_ASSERT_EQUAL(steady_platform_processor_count(p), 2);
    CU_ASSERT_EQUAL(steady_platform_rank_count(p), 3);
    CU_ASSERT_EQUAL(steady_platform_edge_count(p), 6); /* Floyd: every two hosts */
    CU_ASSERT_STRING_EQUAL(crossings(p, "a", "r2"), "l1 l2");
    CU_ASSERT_STRING_EQUAL(crossings(p, "a", "b"), "l1 l2 l3");
    CU_ASSERT_STRING_EQUAL(crossings(p, "b", "a"), "l3 l2 l1");
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
    steady_platform_t *p = parse_ok(HEAD "<zone id=\"my*zone\" routing=\"Full\">\n"
                                         "<host id=\"a\" speed=\"1Gf\"/></zone>\n" TAIL,
                                    STEADY_FORMAT_SIMGRID);
    if (p)
        CU_ASSERT_STRING_EQUAL(steady_platform_name(p), "platform");
    steady_platform_destroy(p);
}

/* steady_cost makes a link an abstract channel: an edge crossing several
 * has its slowest's cost (the largest) and their latencies. */
static void test_cost_props(void)
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
        CU_ASSERT_EQUAL(channel_named(p, "c1")->cost, 2);
        CU_ASSERT_EQUAL(channel_named(p, "c1")->bandwidth, 0);
        const steady_edge_t *e = edge_between(p, "b", "a");
        CU_ASSERT_EQUAL(e->cost, 2);
        CU_ASSERT_EQUAL(e->bandwidth, 0);
        CU_ASSERT_EQUAL(steady_platform_edge_latency(p, edge_id(p, "b", "a")), 1);
        CU_ASSERT_EQUAL(edge_between(p, "b", "c")->cost, 0.5);
    }
    steady_platform_destroy(p);
}

/* A cluster is a star: its hosts reach a switch at its centre, the way up
 * crossing the host's link and the backbone, the way down the host's link
 * (SimGrid's route between two hosts: link up, backbone, link down). */
static void test_cluster(void)
{
    steady_platform_t *p = parse_ok(
        HEAD "<cluster id=\"c\" prefix=\"n-\" suffix=\".x\" radical=\"0-2,5\" speed=\"1Gf\" "
             "bw=\"125MBps\" lat=\"50us\" bb_bw=\"250MBps\" bb_lat=\"10us\"/>\n" TAIL,
        STEADY_FORMAT_SIMGRID);
    if (!p)
        return;
    CU_ASSERT_EQUAL(steady_platform_processor_count(p), 4);
    CU_ASSERT_EQUAL(steady_platform_switch_count(p), 1);
    CU_ASSERT_EQUAL(steady_platform_rank_count(p), 4);
    CU_ASSERT_STRING_EQUAL(steady_platform_node(p, 3)->name, "n-5.x");
    CU_ASSERT_EQUAL(steady_platform_node(p, 4)->kind, STEADY_SWITCH);
    const char *centre = steady_platform_node(p, 4)->name;
    CU_ASSERT_EQUAL(steady_platform_edge_count(p), 8);
    CU_ASSERT_STRING_EQUAL(crossings(p, "n-5.x", centre), "c_link_5 c_backbone");
    CU_ASSERT_STRING_EQUAL(crossings(p, centre, "n-0.x"), "c_link_0:down");
    CU_ASSERT_EQUAL(channel_named(p, "c_link_0")->sharing, STEADY_SPLITDUPLEX);
    CU_ASSERT_EQUAL(channel_named(p, "c_link_0")->latency, 5e-5);
    CU_ASSERT_EQUAL(channel_named(p, "c_backbone")->sharing, STEADY_SHARED);
    CU_ASSERT_EQUAL(channel_named(p, "c_backbone")->bandwidth, 2.5e8);
    /* a message between two hosts: 50 + 10 + 50 us */
    int up = edge_id(p, "n-1.x", centre), down = edge_id(p, centre, "n-2.x");
    CU_ASSERT_DOUBLE_EQUAL(
        steady_platform_edge_latency(p, up) + steady_platform_edge_latency(p, down), 110e-6, 1e-18);
    /* 4 links x 2 directions + the backbone */
    CU_ASSERT_EQUAL(steady_platform_resource_count(p), 9);
    steady_platform_destroy(p);
}

/* Hops grow as the square of a switch's ranks: 2 049 hosts in one cluster
 * make 2 049 x 2 048 = 4 196 352 hops, more than STEADY_HOPS_MAX, and the
 * platform is refused when its hops are listed, before any is stored.
 * (2 048 hosts make 4 192 256, the most allowed; building them takes
 * 0.3 GB, so a built graph's count is checked on 64 hosts.) */
static void test_cluster_hop_limit(void)
{
    steady_platform_t *p = parse_ok(HEAD "<cluster id=\"big\" prefix=\"n\" suffix=\"\" "
                                         "radical=\"0-2048\" speed=\"1Gf\" bw=\"125MBps\" "
                                         "lat=\"50us\"/>\n" TAIL,
                                    STEADY_FORMAT_SIMGRID);
    steady_hop_graph_t *g = NULL;
    steady_error_t err = {0};
    if (p) {
        CU_ASSERT_EQUAL(steady_platform_rank_count(p), 2049);
        CU_ASSERT_EQUAL(steady_hop_graph_build(p, &g, &err), STEADY_EUNSUPPORTED);
        CU_ASSERT_PTR_NULL(g);
        CU_ASSERT_PTR_NOT_NULL(
            strstr(err.msg, "(2049 ranks): more than 4194304 hops or 67108864 edges along them"));
        steady_platform_destroy(p);
    }
    p = parse_ok(HEAD "<cluster id=\"small\" prefix=\"n\" suffix=\"\" radical=\"0-63\" "
                      "speed=\"1Gf\" bw=\"125MBps\" lat=\"50us\"/>\n" TAIL,
                 STEADY_FORMAT_SIMGRID);
    if (!p)
        return;
    CU_ASSERT_EQUAL_FATAL(steady_hop_graph_build(p, &g, &err), STEADY_OK);
    CU_ASSERT_EQUAL(steady_hop_graph_count(g), 64 * 63);
    steady_hop_graph_destroy(g);
    steady_platform_destroy(p);
}

/* A Vivaldi zone of three peers (SimGrid's VivaldiZone): a message from
 * one to another crosses the source's link up (bw_out) and the
 * destination's link down (bw_in), and its latency is the distance between
 * their coordinates, sqrt(dx^2 + dy^2) + |h1| + |h2| ms.  a at (0, 0, 1),
 * b at (3, 4, 0), c at (-6, -8, -2): a -> b 5 + 1 ms, a -> c 10 + 1 + 2,
 * b -> c 15 + 0 + 2.  Scatters of 1 MB: from a, b receives its message
 * over its 1 MB/s link down, TP = 1; from b, its two messages leave over
 * its 8 MB/s link up, 0.125 s each, TP = 4 (the links' directions
 * swapped would give 4 and 1/2). */
static void test_vivaldi(void)
{
    steady_platform_t *p =
        parse_ok(HEAD "<zone id=\"v\" routing=\"Vivaldi\">\n"
                      "<peer id=\"a\" coordinates=\"0 0 1\" speed=\"1Gf\" bw_in=\"8MBps\" "
                      "bw_out=\"8MBps\"/>\n"
                      "<peer id=\"b\" coordinates=\"3 4 0\" speed=\"1Gf\" bw_in=\"1MBps\" "
                      "bw_out=\"8MBps\" lat=\"1s\"/>\n"
                      "<peer id=\"c\" coordinates=\"-6 -8 -2\" speed=\"1Gf\" bw_in=\"8MBps\" "
                      "bw_out=\"8MBps\"/>\n"
                      "</zone>\n" TAIL,
                 STEADY_FORMAT_SIMGRID);
    if (!p)
        return;
    CU_ASSERT_EQUAL(steady_platform_processor_count(p), 3);
    CU_ASSERT_EQUAL(steady_platform_switch_count(p), 0);
    CU_ASSERT_EQUAL(steady_platform_edge_count(p), 6);
    CU_ASSERT_STRING_EQUAL(crossings(p, "a", "b"), "link_a_UP link_b_DOWN");
    CU_ASSERT_STRING_EQUAL(crossings(p, "c", "a"), "link_c_UP link_a_DOWN");
    CU_ASSERT_EQUAL(channel_named(p, "link_b_DOWN")->bandwidth, 1e6);
    CU_ASSERT_EQUAL(channel_named(p, "link_b_UP")->bandwidth, 8e6);
    CU_ASSERT_EQUAL(channel_named(p, "link_b_UP")->sharing, STEADY_SHARED);
    CU_ASSERT_EQUAL(channel_named(p, "link_b_UP")->latency, 0); /* lat: unused, as SimGrid */
    CU_ASSERT_DOUBLE_EQUAL(steady_platform_edge_latency(p, edge_id(p, "a", "b")), 0.006, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(steady_platform_edge_latency(p, edge_id(p, "b", "a")), 0.006, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(steady_platform_edge_latency(p, edge_id(p, "a", "c")), 0.013, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(steady_platform_edge_latency(p, edge_id(p, "c", "b")), 0.017, 1e-15);
    const long want[2][2] = {{1, 1}, {4, 1}};
    for (int src = 0; src < 2; src++) {
        steady_problem_t prob = {.op = STEADY_OP_SCATTER, .source = src, .msg_size = 1e6};
        steady_solution_t *sol = solve_ok(p, prob);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sol);
        mpq_t tp;
        mpq_init(tp);
        steady_solution_throughput(sol, tp);
        CU_ASSERT_EQUAL(mpz_cmp_si(mpq_numref(tp), want[src][0]), 0);
        CU_ASSERT_EQUAL(mpz_cmp_si(mpq_denref(tp), want[src][1]), 0);
        mpq_clear(tp);
        steady_solution_destroy(sol);
    }
    steady_platform_destroy(p);
    /* a Vivaldi zone of zones (SimGrid's cloud.xml): SimGrid 3.32 routes
     * inside each zone and aborts between two ("Bad gateways"), so there is
     * no edge between them */
    p = parse_ok(HEAD "<zone id=\"v\" routing=\"Vivaldi\">\n"
                      "<zone id=\"d1\" routing=\"Full\">\n"
                      "<host id=\"a1\" speed=\"1Gf\"/><host id=\"a2\" speed=\"1Gf\"/>\n"
                      "<link id=\"la\" bandwidth=\"1MBps\"/>\n"
                      "<route src=\"a1\" dst=\"a2\"><link_ctn id=\"la\"/></route>\n"
                      "</zone>\n"
                      "<zone id=\"d2\" routing=\"Full\">\n"
                      "<host id=\"b1\" speed=\"1Gf\"/>\n"
                      "<router id=\"router_d2\" coordinates=\"1 2 3\"/>\n"
                      "</zone>\n"
                      "</zone>\n" TAIL,
                 STEADY_FORMAT_SIMGRID);
    if (!p)
        return;
    CU_ASSERT_EQUAL(steady_platform_node_count(p), 3);
    CU_ASSERT_EQUAL(steady_platform_edge_count(p), 2);
    CU_ASSERT_STRING_EQUAL(crossings(p, "a2", "a1"), "la");
    steady_platform_destroy(p);
}

/* Zones of zones: a message from one cluster to the other crosses the
 * first's links up to its router, the zone route's link, and the second's
 * links down, as SimGrid's route does; no path leaves a zone it entered. */
static void test_nested_zones(void)
{
    steady_platform_t *p =
        parse_ok(HEAD "<zone id=\"world\" routing=\"Full\">\n"
                      "<cluster id=\"A\" prefix=\"a\" suffix=\"\" radical=\"0-1\" speed=\"1Gf\" "
                      "bw=\"1GBps\" lat=\"1us\" router_id=\"ra\"/>\n"
                      "<cluster id=\"B\" prefix=\"b\" suffix=\"\" radical=\"0-1\" speed=\"1Gf\" "
                      "bw=\"1GBps\" lat=\"1us\" router_id=\"rb\"/>\n"
                      "<link id=\"wan\" bandwidth=\"10MBps\" latency=\"10ms\"/>\n"
                      "<zoneRoute src=\"A\" dst=\"B\" gw_src=\"ra\" gw_dst=\"rb\">"
                      "<link_ctn id=\"wan\"/></zoneRoute>\n"
                      "</zone>\n" TAIL,
                 STEADY_FORMAT_SIMGRID);
    if (!p)
        return;
    CU_ASSERT_EQUAL(steady_platform_rank_count(p), 4);
    CU_ASSERT_EQUAL(steady_platform_switch_count(p), 4); /* ra, rb and their entries */
    /* a0 -> ra -> rb_in -> b1 */
    CU_ASSERT_STRING_EQUAL(crossings(p, "a0", "ra"), "A_link_0");
    CU_ASSERT_STRING_EQUAL(crossings(p, "ra", "rb_in"), "wan");
    CU_ASSERT_STRING_EQUAL(crossings(p, "rb_in", "b1"), "B_link_1:down");
    /* B's entry leads to B's hosts only */
    int n;
    const int *out = steady_platform_out_edges(p, steady_platform_find_node(p, "rb_in"), &n);
    CU_ASSERT_EQUAL(n, 2);
    for (int k = 0; k < n; k++)
        CU_ASSERT_EQUAL(steady_platform_node(p, steady_platform_edge(p, out[k])->dst)->name[0],
                        'b');
    steady_platform_destroy(p);
}

/* Bypass routes replace a zone's route between two of its vertices, one
 * way (SimGrid's get_bypass_route): between two hosts of a Full zone, and
 * between two zones, through other gateways and links. */
static void test_bypass(void)
{
    steady_platform_t *p =
        parse_ok(HEAD "<zone id=\"world\" routing=\"Full\">\n"
                      "<zone id=\"A\" routing=\"Full\">\n"
                      "<host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>\n"
                      "<router id=\"ra\"/><router id=\"ra2\"/>\n"
                      "<link id=\"l1\" bandwidth=\"1MBps\"/><link id=\"l2\" bandwidth=\"2MBps\"/>\n"
                      "<route src=\"a\" dst=\"b\"><link_ctn id=\"l1\"/></route>\n"
                      "<route src=\"a\" dst=\"ra\"><link_ctn id=\"l1\"/></route>\n"
                      "<route src=\"a\" dst=\"ra2\"><link_ctn id=\"l2\"/></route>\n"
                      "<bypassRoute src=\"a\" dst=\"b\"><link_ctn id=\"l2\"/></bypassRoute>\n"
                      "</zone>\n"
                      "<cluster id=\"B\" prefix=\"b\" suffix=\"\" radical=\"0-1\" speed=\"1Gf\" "
                      "bw=\"1GBps\" lat=\"1us\" router_id=\"rb\"/>\n"
                      "<link id=\"wan\" bandwidth=\"10MBps\" latency=\"10ms\"/>\n"
                      "<link id=\"wan2\" bandwidth=\"20MBps\" latency=\"1ms\"/>\n"
                      "<zoneRoute src=\"A\" dst=\"B\" gw_src=\"ra\" gw_dst=\"rb\">"
                      "<link_ctn id=\"wan\"/></zoneRoute>\n"
                      "<bypassZoneRoute src=\"A\" dst=\"B\" gw_src=\"ra2\" gw_dst=\"rb\">"
                      "<link_ctn id=\"wan2\"/></bypassZoneRoute>\n"
                      "</zone>\n" TAIL,
                 STEADY_FORMAT_SIMGRID);
    if (!p)
        return;
    CU_ASSERT_STRING_EQUAL(crossings(p, "a", "b"), "l2");
    CU_ASSERT_STRING_EQUAL(crossings(p, "b", "a"), "l1"); /* the route's way back */
    /* A -> B leaves through ra2 and wan2; B -> A comes back through wan and ra */
    CU_ASSERT_STRING_EQUAL(crossings(p, "a", "ra2_out"), "l2");
    CU_ASSERT_STRING_EQUAL(crossings(p, "ra2_out", "rb_in"), "wan2");
    CU_ASSERT_STRING_EQUAL(crossings(p, "rb", "ra_in"), "wan");
    CU_ASSERT_EQUAL(steady_platform_find_node(p, "ra_out"), -1); /* no A -> B through ra */
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
        "<!-- steady platform export: a host per processor and per router (with\n"
        "     steady_kind=router, so that an MPI rank can forward on it), a SimGrid router\n"
        "     per switch, a link per channel (steady_channel) and per edge that needs one,\n"
        "     a one-way route per edge, which steady reads back as the edge\n"
        "     (steady_routes=edges).  The other routes between hosts (Floyd's, or those\n"
        "     starting with the steady_completion link) carry the hops through switches\n"
        "     and the MPI runtime's own traffic.  Units: Bps, s, f. -->\n"
        "<platform version=\"4.1\">\n"
        "  <zone id=\"tiny\" routing=\"Floyd\">\n"
        "    <prop id=\"steady_routes\" value=\"edges\"/>\n"
        "    <prop id=\"steady_flows\" value=\"fair\"/>\n"
        "    <host id=\"a\" speed=\"1000000000f\"/>\n"
        "    <host id=\"r\" speed=\"1000000000f\">\n"
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

/* A platform with a switch and channels is a Full zone: a SimGrid router
 * per switch, a link per channel, a FATPIPE link of its own for an edge
 * slower than its channels, and the routes between ranks that no edge
 * joins, after the marker link. */
static void test_write_network(void)
{
    steady_platform_t *p = parse_ok("processor a speed=1\nprocessor b speed=1\nswitch s\n"
                                    "channel bb bandwidth=1GBps latency=1us\n"
                                    "channel up bandwidth=100MBps sharing=splitduplex\n"
                                    "edge a s bandwidth=10MBps crosses=up:up,bb\n"
                                    "edge s a crosses=up:down\n"
                                    "link b s crosses=bb\n",
                                    STEADY_FORMAT_NATIVE);
    if (!p)
        return;
    char *text = write_string(p, STEADY_FORMAT_SIMGRID, NULL);
    static const char *const want[] = {
        "<zone id=\"platform\" routing=\"Full\">",
        "<router id=\"s\"/>",
        "<link id=\"up\" bandwidth=\"100000000Bps\" latency=\"0s\" "
        "sharing_policy=\"SPLITDUPLEX\">\n      <prop id=\"steady_channel\" value=\"yes\"/>",
        "<link id=\"a-&gt;s\" bandwidth=\"10000000Bps\" latency=\"0s\" "
        "sharing_policy=\"FATPIPE\"/>",
        "<link id=\"steady-via\" bandwidth=\"1000000000Bps\" latency=\"0s\" "
        "sharing_policy=\"FATPIPE\">\n      <prop id=\"steady_completion\" value=\"yes\"/>",
        "<route src=\"a\" dst=\"s\" symmetrical=\"NO\"><link_ctn id=\"a-&gt;s\"/>"
        "<link_ctn id=\"up\" direction=\"UP\"/><link_ctn id=\"bb\"/></route>",
        "<route src=\"s\" dst=\"a\" symmetrical=\"NO\"><link_ctn id=\"up\" "
        "direction=\"DOWN\"/></route>",
        "<route src=\"a\" dst=\"b\" symmetrical=\"NO\"><link_ctn id=\"steady-via\"/>"
        "<link_ctn id=\"a-&gt;s\"/><link_ctn id=\"up\" direction=\"UP\"/><link_ctn id=\"bb\"/>"
        "<link_ctn id=\"bb\"/></route>",
    };
    for (size_t k = 0; text && k < sizeof want / sizeof *want; k++) {
        if (!strstr(text, want[k]))
            fprintf(stderr, "\n    missing: %s\n    in:\n%s", want[k], text);
        CU_ASSERT_PTR_NOT_NULL(strstr(text, want[k]));
    }
    CU_ASSERT_PTR_NULL(text ? strstr(text, "s-&gt;a") : ""); /* as fast as its channel */
    CU_ASSERT_PTR_NULL(text ? strstr(text, "b-&gt;s") : "");
    free(text);
    round_trip(p, NULL);
    steady_platform_destroy(p);
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
    add_edge(p,
             (steady_edge_t){
                 .src = 2, .dst = 3, .bandwidth = 1e15, .latency = 4.9e-324, .recv_factor = third});
    add_edge(p, (steady_edge_t){.src = 3,
                                .dst = 1,
                                .bandwidth = 0.0010000000000000002,
                                .latency = 123456.789123,
                                .overhead = 5e-324});
    add_edge(p, (steady_edge_t){
                    .src = 4, .dst = 5, .bandwidth = 1e15 - 0.5, .latency = 1e6, .penalty = third});
    CU_ASSERT_EQUAL(steady_platform_set_flow_sharing(p, STEADY_FLOWS_PENALTY, tenth + 0.2, &err),
                    STEADY_OK);
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

/* ---- flow sharing -------------------------------------------------------- */

/* How flows share links: SimGrid's penalty (the route's latency plus
 * weight-S / bandwidth over its links; 1 without latency) with smpirun's
 * SMPI model's weight-S unless <config> names another model or weight-S;
 * a model that does not share by penalty, or steady's export of a fair
 * platform, shares fairly. */
static void test_flow_sharing(void)
{
    const char *route = "<link id=\"fast\" bandwidth=\"1GBps\" latency=\"1ms\"/>\n"
                        "<link id=\"slow\" bandwidth=\"10MBps\" latency=\"2ms\"/>\n"
                        "<route src=\"a\" dst=\"c\"><link_ctn id=\"fast\"/>"
                        "<link_ctn id=\"slow\"/></route>\n";
    const struct {
        const char *config, *zone_prop;
        steady_flow_sharing_t flows;
        double weight_s;
    } cases[] = {
        {"", "", STEADY_FLOWS_PENALTY, 8775},
        {"<prop id=\"network/model\" value=\"LV08\"/>", "", STEADY_FLOWS_PENALTY, 20537},
        {"<prop id=\"network/weight-S\" value=\"100\"/><prop id=\"network/model\" "
         "value=\"CM02\"/>",
         "", STEADY_FLOWS_PENALTY, 100},
        {"<prop id=\"network/model\" value=\"raw\"/><prop id=\"smpi/async-small-thresh\" "
         "value=\"0\"/>",
         "", STEADY_FLOWS_PENALTY, 0},
        {"<prop id=\"network/model\" value=\"ns-3\"/>", "", STEADY_FLOWS_FAIR, 0},
        {"", "<prop id=\"steady_flows\" value=\"fair\"/>", STEADY_FLOWS_FAIR, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[2048];
        snprintf(text, sizeof text,
                 HEAD "<config>%s</config>\n<zone id=\"z\" routing=\"Full\">%s\n"
                      "<host id=\"a\" speed=\"1Gf\"/><host id=\"c\" speed=\"1Gf\"/>\n%s"
                      "</zone>\n" TAIL,
                 cases[i].config, cases[i].zone_prop, route);
        steady_platform_t *p = parse_ok(text, STEADY_FORMAT_SIMGRID);
        if (!p)
            continue;
        double w;
        CU_ASSERT_EQUAL(steady_platform_flow_sharing(p, &w), cases[i].flows);
        CU_ASSERT_EQUAL(w, cases[i].weight_s);
        steady_hop_t h = {.src = 0, .dst = 1, .nedges = 1, .edges = (int[]){edge_id(p, "a", "c")}};
        double want = cases[i].flows == STEADY_FLOWS_FAIR
                          ? 1
                          : (1e-3 + 2e-3) + cases[i].weight_s / 1e9 + cases[i].weight_s / 1e7;
        CU_ASSERT_DOUBLE_EQUAL(steady_hop_penalty(p, &h), want, 1e-15);
        steady_platform_destroy(p);
    }
    /* a route without latency: the penalty 1, whatever weight-S */
    steady_platform_t *p =
        parse_ok(ABC("<link id=\"l\" bandwidth=\"1MBps\"/>\n"
                     "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n"),
                 STEADY_FORMAT_SIMGRID);
    if (p) {
        steady_hop_t h = {.src = 0, .dst = 1, .nedges = 1, .edges = (int[]){edge_id(p, "a", "b")}};
        CU_ASSERT_EQUAL(steady_hop_penalty(p, &h), 1);
        steady_platform_destroy(p);
    }
    static const parse_case_t bad[] = {
        {HEAD "<config><prop id=\"network/weight-S\" value=\"x\"/></config>\n", STEADY_EPARSE,
         "test:3: not a number (x): this field is a plain number"},
        {HEAD "<config><prop id=\"network/weight-S\" value=\"-1\"/></config>\n", STEADY_EINVAL,
         "test:3: negative weight-S (-1)"},
        {HEAD "<config id=\"c\" x=\"1\"></config>\n", STEADY_EPARSE,
         "test:3: unknown attribute in <config> (x): expected id"},
        {HEAD "<zone id=\"z\" routing=\"Full\"><prop id=\"steady_flows\" value=\"rtt\"/>\n",
         STEADY_EINVAL, "test:3: unknown steady_flows (rtt): expected fair"},
    };
    check_parse_cases(bad, sizeof bad / sizeof *bad);
}

void suite_simgrid(void)
{
    static const CU_TestInfo tests[] = {
        {"units and pstates", test_units},
        {"multi-link route: min bandwidth, summed latency", test_multi_link_route},
        {"symmetrical routes", test_symmetrical},
        {"flows share links by SimGrid's penalty", test_flow_sharing},
        {"SPLITDUPLEX links", test_splitduplex},
        {"routers", test_routers},
        {"zone routings, <AS>, ignored elements", test_zones},
        {"steady_cost props", test_cost_props},
        {"clusters: a switch at the centre", test_cluster},
        {"clusters: at most STEADY_HOPS_MAX hops", test_cluster_hop_limit},
        {"zones of zones", test_nested_zones},
        {"bypass routes", test_bypass},
        {"Vivaldi zones: peers, distances as latencies", test_vivaldi},
        {"written text", test_write_text},
        {"written text, switches and channels", test_write_network},
        {"round trip, bandwidth platform", test_round_trip_bandwidth},
        {"round trip, abstract platform", test_round_trip_abstract},
        {"round trip, generated platforms", test_round_trip_generated},
        {"writer errors", test_write_errors},
        CU_TEST_INFO_NULL,
    };
    add_suite("simgrid", tests);
}
