/*
 * test_graphml.c — the GraphML reader and writer: what each field means,
 * undirected edges, defaults, foreign keys, exact round trips, and
 * interoperability with igraph, used here as the independent GraphML
 * implementation (it reads what we write and writes what we read).
 */
#define _POSIX_C_SOURCE 200809L
#include <igraph.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"

/* Nine lines before the first node, so that the line numbers in the
 * expected messages are easy to count: the body starts on line 10. */
#define PRE                                                                                        \
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"                                                 \
    "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"                                  \
    "<key id=\"k\" for=\"node\" attr.name=\"kind\" attr.type=\"string\"/>\n"                       \
    "<key id=\"s\" for=\"node\" attr.name=\"speed\" attr.type=\"double\"/>\n"                      \
    "<key id=\"b\" for=\"edge\" attr.name=\"bandwidth\" attr.type=\"double\"/>\n"                  \
    "<key id=\"l\" for=\"edge\" attr.name=\"latency\" attr.type=\"double\"/>\n"                    \
    "<key id=\"o\" for=\"edge\" attr.name=\"overhead\" attr.type=\"double\"/>\n"                   \
    "<key id=\"c\" for=\"edge\" attr.name=\"cost\" attr.type=\"double\"/>\n"                       \
    "<graph id=\"g\" edgedefault=\"directed\">\n"
#define POST   "</graph>\n</graphml>\n"
#define NODE_A "<node id=\"a\"><data key=\"s\">1</data></node>\n"
#define NODE_B "<node id=\"b\"><data key=\"s\">2</data></node>\n"

static steady_platform_t *gml_ok(const char *doc)
{
    return parse_ok(doc, STEADY_FORMAT_GRAPHML);
}

static int same_double(double x, double y)
{
    return memcmp(&x, &y, sizeof x) == 0;
}

/* The edge src -> dst by names (-1 if absent). */
static const steady_edge_t *edge_between(const steady_platform_t *p, const char *src,
                                         const char *dst)
{
    int s = steady_platform_find_node(p, src), d = steady_platform_find_node(p, dst);
    int e = s >= 0 && d >= 0 ? steady_platform_find_edge(p, s, d) : -1;
    return e >= 0 ? steady_platform_edge(p, e) : NULL;
}

/* ---- reading ------------------------------------------------------------------ */

static void test_read_fields(void)
{
    steady_platform_t *p = gml_ok(
        PRE NODE_A
        "<node id=\"r\"><data key=\"k\">router</data></node>\n"
        "<node id=\"b\"><data key=\"k\">processor</data><data key=\"s\">1.5e9</data></node>\n"
        "<edge source=\"a\" target=\"r\"><data key=\"b\">1.25e8</data>"
        "<data key=\"l\">1e-5</data><data key=\"o\">2e-6</data></edge>\n"
        "<edge source=\"r\" target=\"b\"><data key=\"b\">1e9</data></edge>\n" POST);
    if (!p)
        return;
    CU_ASSERT_STRING_EQUAL(steady_platform_name(p), "g");
    CU_ASSERT_EQUAL(steady_platform_node_count(p), 3);
    CU_ASSERT_EQUAL(steady_platform_processor_count(p), 2);
    const steady_node_t *a = steady_platform_node(p, 0), *r = steady_platform_node(p, 1),
                        *b = steady_platform_node(p, 2);
    CU_ASSERT_STRING_EQUAL(a->name, "a");
    CU_ASSERT_EQUAL(a->kind, STEADY_PROCESSOR); /* no kind: a processor */
    CU_ASSERT(same_double(a->speed, 1));
    CU_ASSERT_STRING_EQUAL(r->name, "r");
    CU_ASSERT_EQUAL(r->kind, STEADY_ROUTER);
    CU_ASSERT(same_double(r->speed, 0));
    CU_ASSERT_EQUAL(b->kind, STEADY_PROCESSOR);
    CU_ASSERT(same_double(b->speed, 1.5e9));

    CU_ASSERT_EQUAL(steady_platform_edge_count(p), 2);
    CU_ASSERT_FALSE(steady_platform_is_abstract(p));
    const steady_edge_t *e0 = steady_platform_edge(p, 0), *e1 = steady_platform_edge(p, 1);
    CU_ASSERT(e0->src == 0 && e0->dst == 1);
    CU_ASSERT(same_double(e0->bandwidth, 1.25e8));
    CU_ASSERT(same_double(e0->latency, 1e-5));
    CU_ASSERT(same_double(e0->overhead, 2e-6));
    CU_ASSERT(same_double(e0->cost, 0));
    CU_ASSERT(e1->src == 1 && e1->dst == 2);
    CU_ASSERT(same_double(e1->bandwidth, 1e9));
    CU_ASSERT(same_double(e1->latency, 0)); /* absent, and no <default>: 0 */
    CU_ASSERT(same_double(e1->overhead, 0));
    steady_platform_destroy(p);
}

/* A key's <default> fills in what a node or edge leaves out; a default
 * speed is for processors and does not make routers compute; a key without
 * for= applies to every element; a missing edgedefault means directed. */
static void test_read_defaults(void)
{
    steady_platform_t *p =
        gml_ok("<?xml version=\"1.0\"?>\n"
               "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
               "<key id=\"k\" for=\"node\" attr.name=\"kind\"><default>router</default></key>\n"
               "<key id=\"s\" for=\"node\" attr.name=\"speed\" attr.type=\"double\">"
               "<default>\n  4e9\n</default></key>\n"
               "<key id=\"b\" for=\"edge\" attr.name=\"bandwidth\"><default>1GBps</default></key>\n"
               "<key id=\"l\" attr.name=\"latency\"><default>1ms</default></key>\n"
               "<graph id=\"defaults\">\n"
               "<node id=\"p\"><data key=\"k\">processor</data></node>\n"
               "<node id=\"q\"><data key=\"k\">processor</data><data key=\"s\">1e9</data></node>\n"
               "<node id=\"sw\"/>\n"
               "<edge source=\"p\" target=\"sw\"/>\n"
               "<edge source=\"sw\" target=\"q\"><data key=\"l\">0</data></edge>\n"
               "</graph>\n</graphml>\n");
    if (!p)
        return;
    CU_ASSERT_STRING_EQUAL(steady_platform_name(p), "defaults");
    CU_ASSERT_EQUAL(steady_platform_node(p, 0)->kind, STEADY_PROCESSOR);
    CU_ASSERT(same_double(steady_platform_node(p, 0)->speed, 4e9));
    CU_ASSERT(same_double(steady_platform_node(p, 1)->speed, 1e9));
    CU_ASSERT_EQUAL(steady_platform_node(p, 2)->kind, STEADY_ROUTER);
    CU_ASSERT(same_double(steady_platform_node(p, 2)->speed, 0));
    CU_ASSERT_EQUAL(steady_platform_edge_count(p), 2); /* directed: one edge each */
    const steady_edge_t *e0 = edge_between(p, "p", "sw"), *e1 = edge_between(p, "sw", "q");
    CU_ASSERT_FATAL(e0 && e1);
    CU_ASSERT(same_double(e0->bandwidth, 1e9));
    CU_ASSERT(same_double(e0->latency, 0.001));
    CU_ASSERT(same_double(e1->bandwidth, 1e9));
    CU_ASSERT(same_double(e1->latency, 0));
    steady_platform_destroy(p);
}

/* An undirected edge is a duplex link: u->v then v->u, same attributes;
 * directed="true" keeps one edge inside an undirected graph. */
static void test_read_undirected(void)
{
    steady_platform_t *p = gml_ok(
        "<?xml version=\"1.0\"?>\n"
        "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
        "<key id=\"s\" for=\"node\" attr.name=\"speed\" attr.type=\"double\"/>\n"
        "<key id=\"b\" for=\"edge\" attr.name=\"bandwidth\" attr.type=\"double\"/>\n"
        "<key id=\"l\" for=\"edge\" attr.name=\"latency\" attr.type=\"double\"/>\n"
        "<graph id=\"u\" edgedefault=\"undirected\">\n"
        "<node id=\"a\"><data key=\"s\">1</data></node>\n"
        "<node id=\"b\"><data key=\"s\">2</data></node>\n"
        "<node id=\"c\"><data key=\"s\">3</data></node>\n"
        "<edge source=\"a\" target=\"b\"><data key=\"b\">10</data><data "
        "key=\"l\">0.5</data></edge>\n"
        "<edge source=\"c\" target=\"b\" directed=\"true\"><data key=\"b\">20</data></edge>\n"
        "<edge source=\"a\" target=\"c\"><data key=\"b\">30</data></edge>\n"
        "</graph>\n</graphml>\n");
    if (!p)
        return;
    CU_ASSERT_EQUAL(steady_platform_edge_count(p), 5);
    /* document order, the reverse edge right after its undirected edge */
    int order[][2] = {{0, 1}, {1, 0}, {2, 1}, {0, 2}, {2, 0}};
    double bw[] = {10, 10, 20, 30, 30};
    for (int k = 0; k < 5 && k < steady_platform_edge_count(p); k++) {
        const steady_edge_t *e = steady_platform_edge(p, k);
        CU_ASSERT(e->src == order[k][0] && e->dst == order[k][1]);
        CU_ASSERT(same_double(e->bandwidth, bw[k]));
    }
    CU_ASSERT(same_double(steady_platform_edge(p, 0)->latency, 0.5));
    CU_ASSERT(same_double(steady_platform_edge(p, 1)->latency, 0.5));
    steady_platform_destroy(p);
}

static void test_read_directed_false(void)
{
    steady_platform_t *p =
        gml_ok(PRE NODE_A NODE_B
               "<edge source=\"a\" target=\"b\" directed=\"false\"><data key=\"b\">5</data>"
               "<data key=\"o\">0.25</data></edge>\n" POST);
    if (!p)
        return;
    CU_ASSERT_EQUAL(steady_platform_edge_count(p), 2);
    const steady_edge_t *ab = edge_between(p, "a", "b"), *ba = edge_between(p, "b", "a");
    CU_ASSERT_FATAL(ab && ba);
    CU_ASSERT(same_double(ba->bandwidth, 5) && same_double(ba->overhead, 0.25));
    CU_ASSERT_EQUAL(steady_platform_edge(p, 0), ab);
    steady_platform_destroy(p);
}

/* GraphML lets an edge come before the nodes it joins. */
static void test_read_nodes_after_edges(void)
{
    steady_platform_t *p = gml_ok(
        PRE "<edge source=\"b\" target=\"a\"><data key=\"b\">7</data></edge>\n"
            "<edge source=\"a\" target=\"b\"><data key=\"b\">8</data></edge>\n" NODE_A NODE_B POST);
    if (!p)
        return;
    CU_ASSERT_STRING_EQUAL(steady_platform_node(p, 0)->name, "a");
    CU_ASSERT_STRING_EQUAL(steady_platform_node(p, 1)->name, "b");
    CU_ASSERT_EQUAL(steady_platform_edge_count(p), 2);
    CU_ASSERT(steady_platform_edge(p, 0)->src == 1 && steady_platform_edge(p, 0)->dst == 0);
    CU_ASSERT(same_double(steady_platform_edge(p, 1)->bandwidth, 8));
    steady_platform_destroy(p);
}

/* A "name" data value names the node (igraph writes ids n0, n1, ... and
 * the vertex attribute "name" that way); edges still refer to ids.  A graph
 * "name" data value names the platform. */
static void test_read_name_data(void)
{
    steady_platform_t *p = gml_ok(
        "<?xml version=\"1.0\"?>\n"
        "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
        "<key id=\"g_name\" for=\"graph\" attr.name=\"name\" attr.type=\"string\"/>\n"
        "<key id=\"v_name\" for=\"node\" attr.name=\"name\" attr.type=\"string\"/>\n"
        "<key id=\"v_speed\" for=\"node\" attr.name=\"speed\" attr.type=\"double\"/>\n"
        "<key id=\"e_cost\" for=\"edge\" attr.name=\"cost\" attr.type=\"double\"/>\n"
        "<graph id=\"G\" edgedefault=\"directed\">\n"
        "<data key=\"g_name\">grid-5000</data>\n"
        "<node id=\"n0\"><data key=\"v_name\">alpha</data><data key=\"v_speed\">1</data></node>\n"
        "<node id=\"n1\"><data key=\"v_name\"> beta </data><data key=\"v_speed\">2</data></node>\n"
        "<node id=\"n2\"><data key=\"v_speed\">3</data></node>\n"
        "<edge source=\"n0\" target=\"n1\"><data key=\"e_cost\">1</data></edge>\n"
        "<edge source=\"n1\" target=\"n2\"><data key=\"e_cost\">2</data></edge>\n"
        "</graph>\n</graphml>\n");
    if (!p)
        return;
    CU_ASSERT_STRING_EQUAL(steady_platform_name(p), "grid-5000");
    CU_ASSERT_STRING_EQUAL(steady_platform_node(p, 0)->name, "alpha");
    CU_ASSERT_STRING_EQUAL(steady_platform_node(p, 1)->name, "beta");
    CU_ASSERT_STRING_EQUAL(steady_platform_node(p, 2)->name, "n2");
    CU_ASSERT_PTR_NOT_NULL(edge_between(p, "alpha", "beta"));
    CU_ASSERT_PTR_NOT_NULL(edge_between(p, "beta", "n2"));
    steady_platform_destroy(p);

    /* a graph id that is not a valid name leaves the default name */
    p = gml_ok("<graphml><key id=\"s\" for=\"node\" attr.name=\"speed\"/>"
               "<graph id=\"my*graph\"><node id=\"a\"><data key=\"s\">1</data></node></graph>"
               "</graphml>");
    if (p) {
        CU_ASSERT_STRING_EQUAL(steady_platform_name(p), "platform");
    }
    steady_platform_destroy(p);
}

/* Plain numbers are base units; SimGrid suffixes are accepted too. */
static void test_read_units(void)
{
    steady_platform_t *p =
        gml_ok(PRE "<node id=\"a\"><data key=\"s\">2Gf</data></node>\n"
                   "<node id=\"b\"><data key=\"s\">1.5e9</data></node>\n"
                   "<edge source=\"a\" target=\"b\"><data key=\"b\">1Gbps</data>"
                   "<data key=\"l\">50us</data><data key=\"o\">2ms</data></edge>\n"
                   "<edge source=\"b\" target=\"a\"><data key=\"b\">10MiBps</data></edge>\n" POST);
    if (!p)
        return;
    CU_ASSERT(same_double(steady_platform_node(p, 0)->speed, 2e9));
    CU_ASSERT(same_double(steady_platform_node(p, 1)->speed, 1.5e9));
    const steady_edge_t *e = steady_platform_edge(p, 0);
    CU_ASSERT(same_double(e->bandwidth, 1.25e8)); /* bits: 1 Gbps = 125 MB/s */
    CU_ASSERT(same_double(e->latency, 5e-5));     /* the double nearest to 5e-5 */
    CU_ASSERT(same_double(e->overhead, 0.002));
    CU_ASSERT(same_double(steady_platform_edge(p, 1)->bandwidth, 10 * 1048576.0));
    steady_platform_destroy(p);
}

/* What yEd, Gephi and friends add is ignored: keys without attr.name,
 * unknown attr.names, nested foreign elements, <desc>, top-level data.
 * Numeric fields may be declared with any numeric type or as strings. */
static void test_read_foreign_keys(void)
{
    steady_platform_t *p =
        gml_ok("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
               "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\" "
               "xmlns:y=\"http://www.yworks.com/xml/graphml\">\n"
               "<key for=\"graphml\" id=\"d0\" yfiles.type=\"resources\"/>\n"
               "<key for=\"node\" id=\"d1\" yfiles.type=\"nodegraphics\"/>\n"
               "<key attr.name=\"label\" attr.type=\"string\" for=\"node\" id=\"label\"/>\n"
               "<key attr.name=\"weight\" attr.type=\"double\" for=\"edge\" id=\"weight\"/>\n"
               "<key attr.name=\"speed\" attr.type=\"long\" for=\"node\" id=\"sp\"/>\n"
               "<key attr.name=\"bandwidth\" attr.type=\"int\" for=\"edge\" id=\"bw\"/>\n"
               "<key attr.name=\"latency\" attr.type=\"string\" for=\"edge\" id=\"lat\"/>\n"
               "<key attr.name=\"overhead\" attr.type=\"float\" for=\"edge\" id=\"ovh\"/>\n"
               "<graph edgedefault=\"directed\" id=\"yed\">\n"
               "<desc>drawn in yEd</desc>\n"
               "<node id=\"n0\"><data key=\"d1\"><y:ShapeNode><y:Geometry x=\"1\" y=\"2\"/>"
               "<y:NodeLabel>speed 9</y:NodeLabel></y:ShapeNode></data>"
               "<data key=\"label\">Node 0</data><data key=\"sp\">1000</data></node>\n"
               "<node id=\"n1\"><desc>second</desc><data key=\"sp\">\n\t2000\n</data></node>\n"
               "<edge id=\"e0\" source=\"n0\" target=\"n1\"><data key=\"weight\">-3</data>"
               "<data key=\"bw\">100</data><data key=\"lat\">1e-3</data>"
               "<data key=\"ovh\">0.5</data></edge>\n"
               "</graph>\n"
               "<data key=\"d0\"><y:Resources/></data>\n"
               "</graphml>\n");
    if (!p)
        return;
    CU_ASSERT_STRING_EQUAL(steady_platform_name(p), "yed");
    CU_ASSERT_EQUAL(steady_platform_node_count(p), 2);
    CU_ASSERT(same_double(steady_platform_node(p, 1)->speed, 2000));
    CU_ASSERT_EQUAL(steady_platform_edge_count(p), 1);
    const steady_edge_t *e = steady_platform_edge(p, 0);
    CU_ASSERT(same_double(e->bandwidth, 100) && same_double(e->latency, 1e-3) &&
              same_double(e->overhead, 0.5));
    steady_platform_destroy(p);
}

/* The paper's abstract platforms: a cost per message instead of a
 * bandwidth; an explicit speed 0 on a router is accepted. */
static void test_read_cost_platform(void)
{
    steady_platform_t *p =
        gml_ok(PRE NODE_A "<node id=\"r\"><data key=\"k\">router</data><data key=\"s\">0</data>"
                          "</node>\n" NODE_B
                          "<edge source=\"a\" target=\"r\"><data key=\"c\">3</data></edge>\n"
                          "<edge source=\"r\" target=\"b\"><data key=\"c\">0.5</data>"
                          "<data key=\"l\">2</data></edge>\n" POST);
    if (!p)
        return;
    CU_ASSERT_TRUE(steady_platform_is_abstract(p));
    CU_ASSERT_EQUAL(steady_platform_node(p, 1)->kind, STEADY_ROUTER);
    const steady_edge_t *e = steady_platform_edge(p, 1);
    CU_ASSERT(same_double(e->cost, 0.5) && same_double(e->latency, 2) &&
              same_double(e->bandwidth, 0));
    CU_ASSERT(same_double(steady_platform_comm_time(p, 0, 1e6), 3));
    steady_platform_destroy(p);
}

/* Detection by content: <graphml> (with or without a namespace prefix). */
static void test_read_auto_detect(void)
{
    const char *doc = "<!-- a platform -->\n<g:graphml xmlns:g=\"http://graphml.graphdrawing.org/"
                      "xmlns\"><g:key id=\"s\" for=\"node\" attr.name=\"speed\"/><g:graph>"
                      "<g:node id=\"x\"><g:data key=\"s\">1</g:data></g:node></g:graph>"
                      "</g:graphml>";
    steady_platform_t *p = NULL;
    steady_format_t detected = STEADY_FORMAT_AUTO;
    steady_error_t err = {0};
    CU_ASSERT_EQUAL(
        steady_platform_parse(doc, strlen(doc), "t", STEADY_FORMAT_AUTO, &p, &detected, &err),
        STEADY_OK);
    CU_ASSERT_EQUAL(detected, STEADY_FORMAT_GRAPHML);
    if (p) {
        CU_ASSERT_STRING_EQUAL(steady_platform_node(p, 0)->name, "x");
    }
    steady_platform_destroy(p);
}

/* ---- writing and round trips -------------------------------------------------- */

/* The file a user sees: every key declared, one data element per value. */
static void test_write_exact_text(void)
{
    steady_platform_t *p = parse_ok("platform tiny\n"
                                    "processor a speed=1e9\n"
                                    "router r\n"
                                    "edge a r bandwidth=1.25e8 latency=1e-5 overhead=2e-6\n"
                                    "edge r a bandwidth=1e8 latency=0\n",
                                    STEADY_FORMAT_NATIVE);
    if (!p)
        return;
    char *text = write_string(p, STEADY_FORMAT_GRAPHML, NULL);
    const char *expected =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<!-- steady platform: bandwidth in B/s, latency and overhead in s, speed in flop/s -->\n"
        "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\"\n"
        "         xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n"
        "         xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns "
        "http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n"
        "  <key id=\"kind\" for=\"node\" attr.name=\"kind\" attr.type=\"string\">"
        "<default>processor</default></key>\n"
        "  <key id=\"speed\" for=\"node\" attr.name=\"speed\" attr.type=\"double\"/>\n"
        "  <key id=\"bandwidth\" for=\"edge\" attr.name=\"bandwidth\" attr.type=\"double\"/>\n"
        "  <key id=\"latency\" for=\"edge\" attr.name=\"latency\" attr.type=\"double\">"
        "<default>0</default></key>\n"
        "  <key id=\"overhead\" for=\"edge\" attr.name=\"overhead\" attr.type=\"double\">"
        "<default>0</default></key>\n"
        "  <graph id=\"tiny\" edgedefault=\"directed\">\n"
        "    <node id=\"a\">\n"
        "      <data key=\"kind\">processor</data>\n"
        "      <data key=\"speed\">1000000000</data>\n"
        "    </node>\n"
        "    <node id=\"r\">\n"
        "      <data key=\"kind\">router</data>\n"
        "    </node>\n"
        "    <edge source=\"a\" target=\"r\">\n"
        "      <data key=\"bandwidth\">125000000</data>\n"
        "      <data key=\"latency\">1e-05</data>\n"
        "      <data key=\"overhead\">2e-06</data>\n"
        "    </edge>\n"
        "    <edge source=\"r\" target=\"a\">\n"
        "      <data key=\"bandwidth\">100000000</data>\n"
        "      <data key=\"latency\">0</data>\n"
        "    </edge>\n"
        "  </graph>\n"
        "</graphml>\n";
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    if (strcmp(text, expected) != 0)
        fprintf(stderr, "\n    got:\n%s", text);
    CU_ASSERT_STRING_EQUAL(text, expected);
    free(text);
    steady_platform_destroy(p);
}

/* A platform whose every double needs 16 or 17 digits (or is tiny). */
static steady_platform_t *awkward_platform(void)
{
    steady_platform_t *p = NULL;
    steady_error_t err = {0};
    int a, b, r, c;
    volatile double tenth = 0.1, third = 1.0; /* computed at run time, not folded */
    int ok = steady_platform_create(&p, &err) == STEADY_OK &&
             steady_platform_set_name(p, "awkward", &err) == STEADY_OK &&
             steady_platform_add_node(p, "p.0", STEADY_PROCESSOR, tenth + 0.2, &a, &err) == 0 &&
             steady_platform_add_node(p, "sw@1", STEADY_ROUTER, 0, &r, &err) == 0 &&
             steady_platform_add_node(p, "p-1", STEADY_PROCESSOR, 123456789.123, &b, &err) == 0 &&
             steady_platform_add_node(p, "host:2/x", STEADY_PROCESSOR, third / 3, &c, &err) == 0;
    steady_edge_t edges[] = {
        {.src = a, .dst = r, .bandwidth = third / 3, .latency = 1e-7, .overhead = tenth + 0.2},
        {.src = r, .dst = a, .bandwidth = 123456789.123, .latency = 0, .overhead = 1e-7},
        {.src = r, .dst = b, .bandwidth = 1e-3, .latency = tenth + 0.2},
        {.src = b, .dst = c, .bandwidth = 6.02214076e14, .latency = 2.5e-10, .recv_factor = third},
        {.src = c,
         .dst = a,
         .bandwidth = 2.0 / 3,
         .latency = third / 3,
         .overhead = 1e-300,
         .penalty = tenth + 0.2},
    };
    for (size_t k = 0; ok && k < sizeof edges / sizeof *edges; k++)
        ok = steady_platform_add_edge(p, &edges[k], NULL, &err) == STEADY_OK;
    ok = ok && steady_platform_set_flow_sharing(p, STEADY_FLOWS_PENALTY, third / 3, &err) == 0;
    if (!ok)
        fprintf(stderr, "\n    awkward_platform: %s\n", err.msg);
    CU_ASSERT_FATAL(ok);
    return p;
}

/* native -> GraphML -> native, and GraphML -> GraphML: bit for bit. */
static void test_round_trip_exact(void)
{
    steady_platform_t *p = awkward_platform();
    char *native = write_string(p, STEADY_FORMAT_NATIVE, NULL);
    steady_platform_t *from_native = parse_ok(native, STEADY_FORMAT_NATIVE);
    ASSERT_PLATFORMS_EQUAL(p, from_native);
    char *gml = write_string(from_native, STEADY_FORMAT_GRAPHML, NULL);
    steady_platform_t *from_gml = parse_ok(gml, STEADY_FORMAT_AUTO);
    ASSERT_PLATFORMS_EQUAL(p, from_gml);
    char *native2 = write_string(from_gml, STEADY_FORMAT_NATIVE, NULL);
    CU_ASSERT_STRING_EQUAL(native, native2);
    char *gml2 = write_string(from_gml, STEADY_FORMAT_GRAPHML, NULL);
    CU_ASSERT_STRING_EQUAL(gml, gml2);
    /* the values really are the awkward ones, not rounded on the way */
    CU_ASSERT(strstr(gml, "<data key=\"speed\">0.30000000000000004</data>") != NULL);
    CU_ASSERT(strstr(gml, "<data key=\"speed\">123456789.123</data>") != NULL);
    CU_ASSERT(strstr(gml, "<data key=\"bandwidth\">0.3333333333333333</data>") != NULL);
    CU_ASSERT(strstr(gml, "<data key=\"overhead\">1e-07</data>") != NULL);
    free(native);
    free(native2);
    free(gml);
    free(gml2);
    steady_platform_destroy(p);
    steady_platform_destroy(from_native);
    steady_platform_destroy(from_gml);
}

static void test_round_trip_cost(void)
{
    steady_platform_t *p = parse_ok("platform paper\n"
                                    "processor P0 speed=1\n"
                                    "processor P1 speed=2\n"
                                    "router R\n"
                                    "link P0 R cost=0.1\n"
                                    "edge R P1 cost=3 latency=0.30000000000000004\n",
                                    STEADY_FORMAT_NATIVE);
    if (!p)
        return;
    char *gml = write_string(p, STEADY_FORMAT_GRAPHML, NULL);
    CU_ASSERT(strstr(gml, "attr.name=\"bandwidth\"") == NULL); /* only the keys it uses */
    CU_ASSERT(strstr(gml, "attr.name=\"cost\"") != NULL);
    steady_platform_t *q = parse_ok(gml, STEADY_FORMAT_GRAPHML);
    ASSERT_PLATFORMS_EQUAL(p, q);
    free(gml);
    steady_platform_destroy(p);
    steady_platform_destroy(q);
}

/* ---- interoperability with igraph -------------------------------------------- */

/* igraph keeps attributes only with an attribute table installed, and by
 * default aborts on error; both are global, so each test installs them and
 * puts the previous ones back. */
typedef struct {
    igraph_attribute_table_t *table;
    igraph_error_handler_t *handler;
} igraph_state_t;

static igraph_state_t igraph_enter(void)
{
    igraph_state_t s;
    s.table = igraph_set_attribute_table(&igraph_cattribute_table);
    s.handler = igraph_set_error_handler(igraph_error_handler_printignore);
    return s;
}

static void igraph_leave(igraph_state_t s)
{
    igraph_set_attribute_table(s.table);
    igraph_set_error_handler(s.handler);
}

/* igraph reads what we write: same vertices in the same order, same
 * directed edges, every value exactly the platform's double. */
static void check_igraph_reads(const steady_platform_t *p)
{
    char *gml = write_string(p, STEADY_FORMAT_GRAPHML, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(gml);
    FILE *f = fmemopen(gml, strlen(gml), "r");
    igraph_t g;
    igraph_error_t rc = igraph_read_graph_graphml(&g, f, 0);
    fclose(f);
    free(gml);
    CU_ASSERT_EQUAL_FATAL(rc, IGRAPH_SUCCESS);

    bool abstract = steady_platform_is_abstract(p);
    CU_ASSERT_TRUE(igraph_is_directed(&g));
    CU_ASSERT_EQUAL(igraph_vcount(&g), steady_platform_node_count(p));
    CU_ASSERT_EQUAL(igraph_ecount(&g), steady_platform_edge_count(p));
    for (int v = 0; v < steady_platform_node_count(p) && v < igraph_vcount(&g); v++) {
        const steady_node_t *n = steady_platform_node(p, v);
        CU_ASSERT_STRING_EQUAL(VAS(&g, "id", v), n->name);
        CU_ASSERT_STRING_EQUAL(VAS(&g, "kind", v),
                               n->kind == STEADY_ROUTER ? "router" : "processor");
        if (n->kind == STEADY_PROCESSOR) {
            CU_ASSERT(same_double(VAN(&g, "speed", v), n->speed));
        } else {
            CU_ASSERT(isnan(VAN(&g, "speed", v))); /* no value */
        }
    }
    for (int k = 0; k < steady_platform_edge_count(p) && k < igraph_ecount(&g); k++) {
        const steady_edge_t *e = steady_platform_edge(p, k);
        igraph_integer_t from, to;
        igraph_edge(&g, k, &from, &to);
        CU_ASSERT(from == e->src && to == e->dst);
        /* latency and overhead left out when 0 come back through the keys'
         * <default>0</default> */
        CU_ASSERT(same_double(EAN(&g, "latency", k), e->latency));
        if (abstract) {
            CU_ASSERT(same_double(EAN(&g, "cost", k), e->cost));
        } else {
            CU_ASSERT(same_double(EAN(&g, "bandwidth", k), e->bandwidth));
            CU_ASSERT(same_double(EAN(&g, "overhead", k), e->overhead));
        }
    }
    igraph_destroy(&g);
}

static void test_igraph_reads_ours(void)
{
    igraph_state_t s = igraph_enter();
    steady_platform_t *p = awkward_platform();
    check_igraph_reads(p);
    steady_platform_destroy(p);
    p = parse_ok("processor a speed=1\nprocessor b speed=0.1\nrouter r\n"
                 "link a r cost=0.30000000000000004\nedge r b cost=2 latency=1e-7\n",
                 STEADY_FORMAT_NATIVE);
    if (p)
        check_igraph_reads(p);
    steady_platform_destroy(p);
    igraph_leave(s);
}

/* We read what igraph writes: ids n0.., the vertex attribute "name" as a
 * <data>, a router without speed (igraph skips NaN values), a graph
 * attribute "name".  igraph prints 15 significant digits, so the values
 * are ones that 15 digits represent. */
static char *igraph_written(igraph_bool_t directed)
{
    igraph_t g;
    igraph_small(&g, 3, directed, 0, 1, 1, 2, 2, 0, -1);
    SETGAS(&g, "name", "from-igraph");
    const char *names[] = {"alpha", "sw", "beta"}, *kinds[] = {"processor", "router", "processor"};
    double speeds[] = {2.5e9, IGRAPH_NAN, 1e6};
    for (int v = 0; v < 3; v++) {
        SETVAS(&g, "name", v, names[v]);
        SETVAS(&g, "kind", v, kinds[v]);
        SETVAN(&g, "speed", v, speeds[v]);
    }
    double bws[] = {1.25e8, 1e9, 0.1}, lats[] = {1e-5, 0, 0.25};
    for (int k = 0; k < 3; k++) {
        SETEAN(&g, "bandwidth", k, bws[k]);
        SETEAN(&g, "latency", k, lats[k]);
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_EQUAL(igraph_write_graph_graphml(&g, f, 1), IGRAPH_SUCCESS);
    fclose(f);
    igraph_destroy(&g);
    return buf;
}

static void test_we_read_igraph(void)
{
    igraph_state_t s = igraph_enter();
    char *gml = igraph_written(IGRAPH_DIRECTED);
    steady_platform_t *p = parse_ok(gml, STEADY_FORMAT_AUTO);
    steady_platform_t *expected = parse_ok("platform from-igraph\n"
                                           "processor alpha speed=2.5e9\n"
                                           "router sw\n"
                                           "processor beta speed=1e6\n"
                                           "edge alpha sw bandwidth=1.25e8 latency=1e-5\n"
                                           "edge sw beta bandwidth=1e9\n"
                                           "edge beta alpha bandwidth=0.1 latency=0.25\n",
                                           STEADY_FORMAT_NATIVE);
    if (p && expected)
        ASSERT_PLATFORMS_EQUAL(p, expected);
    free(gml);
    steady_platform_destroy(p);
    steady_platform_destroy(expected);

    /* an undirected igraph graph: each edge is a duplex link (igraph writes
     * an undirected edge with the lower vertex id as its source) */
    gml = igraph_written(IGRAPH_UNDIRECTED);
    CU_ASSERT(strstr(gml, "edgedefault=\"undirected\"") != NULL);
    p = parse_ok(gml, STEADY_FORMAT_GRAPHML);
    expected = parse_ok("platform from-igraph\n"
                        "processor alpha speed=2.5e9\n"
                        "router sw\n"
                        "processor beta speed=1e6\n"
                        "link alpha sw bandwidth=1.25e8 latency=1e-5\n"
                        "link sw beta bandwidth=1e9\n"
                        "link alpha beta bandwidth=0.1 latency=0.25\n",
                        STEADY_FORMAT_NATIVE);
    if (p && expected)
        ASSERT_PLATFORMS_EQUAL(p, expected);
    free(gml);
    steady_platform_destroy(p);
    steady_platform_destroy(expected);
    igraph_leave(s);
}

/* ---- errors: every message, exactly ------------------------------------------- */

typedef struct {
    const char *doc;
    steady_err_t code;
    const char *msg;
} bad_case_t;

static void check_errors(const bad_case_t *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *msg = parse_err(cases[i].doc, STEADY_FORMAT_GRAPHML, cases[i].code);
        if (strcmp(msg, cases[i].msg) != 0)
            fprintf(stderr, "\n    case %zu:\n    expected: %s\n    got:      %s\n", i,
                    cases[i].msg, msg);
        CU_ASSERT_STRING_EQUAL(msg, cases[i].msg);
    }
}

#define CHECK_ERRORS(cases) check_errors(cases, sizeof cases / sizeof *cases)

static void test_errors_document(void)
{
    static const bad_case_t cases[] = {
        {"<?xml version=\"1.0\"?>\n<graphml>\n<graph id=\"g\">\n<node id=\"a\"", STEADY_EPARSE,
         "test:4:13: malformed XML (attributes construct error)"},
        {"<?xml version=\"1.0\"?>\n<graphml>\n<graph id=\"g\">\n", STEADY_EPARSE,
         "test:4:1: malformed XML (Premature end of data in tag graph line 3)"},
        {"<platform version=\"4.1\"/>\n", STEADY_EPARSE,
         "test:1: not a GraphML document (root element <platform>)"},
        {"<?xml version=\"1.0\"?>\n<graphml>\n</graphml>\n", STEADY_EINVAL,
         "test:2: empty platform: no <graph> element"},
        {PRE POST, STEADY_EINVAL, "test:9: empty platform: no node is declared"},
        {PRE NODE_A "</graph>\n<graph id=\"h\">\n" NODE_B POST, STEADY_EUNSUPPORTED,
         "test:12: second <graph>: a file holds one platform (the first graph is on line 9)"},
        {PRE "<node id=\"a\">\n<graph id=\"inner\"/>\n</node>\n" POST, STEADY_EUNSUPPORTED,
         "test:11: nested graphs are not supported (a <graph> inside <node>)"},
        {PRE NODE_A "<graph id=\"inner\"/>\n" POST, STEADY_EUNSUPPORTED,
         "test:11: nested graphs are not supported (a <graph> inside <graph>)"},
        {PRE NODE_A NODE_B "<edge source=\"a\" target=\"b\"><data key=\"b\">1</data>\n"
                           "<graph id=\"inner\"/></edge>\n" POST,
         STEADY_EUNSUPPORTED, "test:13: nested graphs are not supported (a <graph> inside <edge>)"},
        {PRE NODE_A NODE_B "<hyperedge>\n<endpoint node=\"a\"/><endpoint node=\"b\"/>\n"
                           "</hyperedge>\n" POST,
         STEADY_EUNSUPPORTED, "test:12: hyperedges are not supported: use one <edge> per link"},
        {PRE "<node id=\"a\"><data key=\"s\">1</data>\n<port name=\"p0\"/></node>\n" POST,
         STEADY_EUNSUPPORTED, "test:11: ports are not supported (a <port> inside <node>)"},
        {PRE NODE_A NODE_B "<edge source=\"a\" target=\"b\" sourceport=\"p0\"/>\n" POST,
         STEADY_EUNSUPPORTED, "test:12: ports are not supported (port p0)"},
        {PRE "<locator xlink:href=\"other.graphml\" "
             "xmlns:xlink=\"http://www.w3.org/1999/xlink\"/>\n" POST,
         STEADY_EUNSUPPORTED, "test:10: <locator> is not supported: put the content in this file"},
        {"<graphml>\n<graph edgedefault=\"both\">\n</graph></graphml>", STEADY_EPARSE,
         "test:2: bad edgedefault (both): expected directed or undirected"},
    };
    CHECK_ERRORS(cases);
}

static void test_errors_keys_and_data(void)
{
    static const bad_case_t cases[] = {
        {"<graphml>\n<key for=\"node\" attr.name=\"speed\"/>\n</graphml>", STEADY_EPARSE,
         "test:2: missing id attribute in <key>"},
        {"<graphml>\n<key id=\"s\" for=\"nodes\" attr.name=\"speed\"/>\n</graphml>", STEADY_EPARSE,
         "test:2: bad key domain for=\"nodes\": expected node, edge, graph or all"},
        {"<graphml>\n<key id=\"s\" for=\"node\"/>\n<key id=\"s\" for=\"edge\"/>\n</graphml>",
         STEADY_EPARSE, "test:3: duplicate key id (s)"},
        {"<graphml>\n<key id=\"s\" for=\"node\" attr.name=\"speed\" attr.type=\"boolean\"/>\n"
         "</graphml>",
         STEADY_EPARSE,
         "test:2: bad attr.type for node speed (boolean): expected int, long, float, double or "
         "string"},
        {"<graphml>\n<key id=\"s\" for=\"node\" attr.name=\"speed\"/>\n"
         "<key id=\"t\" for=\"all\" attr.name=\"speed\"/>\n</graphml>",
         STEADY_EPARSE, "test:3: second key for node speed (t): the first is on line 2"},
        {PRE "<node id=\"a\"><data>1</data></node>\n" POST, STEADY_EPARSE,
         "test:10: missing key attribute in <data>"},
        {PRE "<node id=\"a\"><data key=\"speed\">1</data></node>\n" POST, STEADY_EPARSE,
         "test:10: undeclared key in <data> (speed): declare it with <key id=\"speed\" "
         "for=\"node\" attr.name=...>"},
        {PRE "<node id=\"a\"><data key=\"b\">1</data></node>\n" POST, STEADY_EPARSE,
         "test:10: node data uses a key declared for=\"edge\" (b)"},
        {PRE "<node id=\"a\"><data key=\"s\">1</data>\n<data key=\"s\">2</data></node>\n" POST,
         STEADY_EPARSE, "test:11: speed given twice (the first on line 10)"},
        {"<graphml><key id=\"n\" for=\"graph\" attr.name=\"name\"/>\n"
         "<graph>\n<data key=\"n\">my*platform</data></graph></graphml>",
         STEADY_EINVAL, "test:3: invalid platform name (my*platform)"},
    };
    CHECK_ERRORS(cases);
}

static void test_errors_nodes(void)
{
    static const bad_case_t cases[] = {
        {PRE "<node><data key=\"s\">1</data></node>\n" POST, STEADY_EPARSE,
         "test:10: missing id attribute in <node>"},
        {PRE NODE_A "<node id=\"a\"><data key=\"s\">2</data></node>\n" POST, STEADY_EINVAL,
         "test:11: duplicate node id (a)"},
        {"<graphml><key id=\"n\" for=\"node\" attr.name=\"name\"/>"
         "<key id=\"s\" for=\"node\" attr.name=\"speed\"/><graph>\n"
         "<node id=\"n0\"><data key=\"n\">x</data><data key=\"s\">1</data></node>\n"
         "<node id=\"n1\"><data key=\"n\">x</data><data key=\"s\">1</data></node>\n"
         "</graph></graphml>",
         STEADY_EINVAL, "test:3: duplicate node (x)"},
        {PRE "<node id=\"a*b\"><data key=\"s\">1</data></node>\n" POST, STEADY_EINVAL,
         "test:10: invalid node name (a*b): use 1 to 255 characters from A-Z a-z 0-9 _ . : @ + "
         "/ - and blanks within"},
        {PRE "<node id=\"a\"/>\n" POST, STEADY_EPARSE, "test:10: missing speed for processor (a)"},
        {PRE "<node id=\"a\">\n<data key=\"k\">Router</data></node>\n" POST, STEADY_EPARSE,
         "test:11: bad node kind (Router): expected processor, router, switch or channel"},
        {PRE "<node id=\"a\">\n<data key=\"s\">fast</data></node>\n" POST, STEADY_EPARSE,
         "test:11: bad speed (fast): not a number; use f, kf, Mf, Gf, Tf, Pf, Ef, or no unit for "
         "flop/s"},
        {PRE "<node id=\"a\">\n<data key=\"s\">3GHz</data></node>\n" POST, STEADY_EPARSE,
         "test:11: bad speed (3GHz): unknown speed unit; use f, kf, Mf, Gf, Tf, Pf, Ef, or no "
         "unit for flop/s"},
        {PRE "<node id=\"a\">\n<data key=\"s\">NaN</data></node>\n" POST, STEADY_EINVAL,
         "test:11: speed is not a finite number (NaN)"},
        {PRE "<node id=\"a\">\n<data key=\"s\">0</data></node>\n" POST, STEADY_EINVAL,
         "test:11: non-positive speed (0)"},
        {PRE NODE_A "<node id=\"r\"><data key=\"k\">router</data>\n<data key=\"s\">1Gf</data>"
                    "</node>\n" POST,
         STEADY_EINVAL, "test:12: a router has no speed (1Gf)"},
        /* a bad default is reported where it is written */
        {"<graphml>\n<key id=\"s\" for=\"node\" attr.name=\"speed\">\n<default>-1</default>"
         "</key>\n<graph><node id=\"a\"/></graph></graphml>",
         STEADY_EINVAL, "test:3: non-positive speed (-1)"},
    };
    CHECK_ERRORS(cases);
}

static void test_errors_edges(void)
{
    static const bad_case_t cases[] = {
        {PRE NODE_A "<edge target=\"a\"/>\n" POST, STEADY_EPARSE,
         "test:11: missing source attribute in <edge>"},
        {PRE NODE_A "<edge source=\"a\"/>\n" POST, STEADY_EPARSE,
         "test:11: missing target attribute in <edge>"},
        {PRE NODE_A "<edge source=\"a\" target=\"x\"><data key=\"b\">1</data></edge>\n" POST,
         STEADY_EINVAL, "test:11: unknown node in edge (x)"},
        {PRE "<edge source=\"a\" target=\"b\"/>\n" POST, STEADY_EINVAL,
         "test:10: unknown node in edge (a)"},
        {PRE NODE_A NODE_B "<edge source=\"a\" target=\"b\" directed=\"yes\"/>\n" POST,
         STEADY_EPARSE, "test:12: bad directed attribute (yes): expected true or false"},
        {PRE NODE_A "<edge source=\"a\" target=\"a\"><data key=\"b\">1</data></edge>\n" POST,
         STEADY_EINVAL, "test:11: self-loop (a -> a)"},
        {PRE NODE_A NODE_B "<edge source=\"a\" target=\"b\"><data key=\"b\">1</data></edge>\n"
                           "<edge source=\"a\" target=\"b\"><data key=\"b\">2</data></edge>\n" POST,
         STEADY_EINVAL, "test:13: duplicate edge (a -> b)"},
        {PRE NODE_A NODE_B "<edge source=\"b\" target=\"a\"><data key=\"b\">1</data></edge>\n"
                           "<edge source=\"a\" target=\"b\" directed=\"false\">"
                           "<data key=\"b\">2</data></edge>\n" POST,
         STEADY_EINVAL, "test:13: duplicate edge (b -> a)"},
        {PRE NODE_A NODE_B "<edge source=\"a\" target=\"b\">\n<data key=\"b\">fast</data>"
                           "</edge>\n" POST,
         STEADY_EPARSE,
         "test:13: bad bandwidth (fast): not a number; use Bps, kBps, MBps, GBps, KiBps, MiBps, "
         "GiBps, bps, kbps, Mbps, Gbps, or no unit for bytes/s"},
        {PRE NODE_A NODE_B "<edge source=\"a\" target=\"b\">\n<data key=\"b\">10MB</data>"
                           "</edge>\n" POST,
         STEADY_EPARSE,
         "test:13: bad bandwidth (10MB): unknown bandwidth unit; use Bps, kBps, MBps, GBps, "
         "KiBps, MiBps, GiBps, bps, kbps, Mbps, Gbps, or no unit for bytes/s"},
        {PRE NODE_A NODE_B "<edge source=\"a\" target=\"b\">\n<data key=\"b\">-5MBps</data>"
                           "</edge>\n" POST,
         STEADY_EINVAL, "test:13: non-positive bandwidth (-5MBps)"},
        {PRE NODE_A NODE_B "<edge source=\"a\" target=\"b\"><data key=\"b\">1</data>\n"
                           "<data key=\"l\">-1ms</data></edge>\n" POST,
         STEADY_EINVAL, "test:13: negative latency (-1ms)"},
        {PRE NODE_A NODE_B "<edge source=\"a\" target=\"b\"><data key=\"b\">1</data>\n"
                           "<data key=\"o\">inf</data></edge>\n" POST,
         STEADY_EINVAL, "test:13: overhead is not a finite number (inf)"},
        {PRE NODE_A NODE_B "<edge source=\"a\" target=\"b\">\n<data key=\"c\">1s</data>"
                           "</edge>\n" POST,
         STEADY_EPARSE, "test:13: bad cost (1s): not a number; this field is a plain number"},
        {PRE NODE_A NODE_B "<edge source=\"a\" target=\"b\"><data key=\"l\">1</data></edge>\n" POST,
         STEADY_EINVAL, "test:12: edge has neither a bandwidth nor a cost (a -> b)"},
        {PRE NODE_A NODE_B "<edge source=\"a\" target=\"b\"><data key=\"b\">1</data>"
                           "<data key=\"c\">1</data></edge>\n" POST,
         STEADY_EINVAL, "test:12: edge has both a bandwidth and a cost (a -> b)"},
        {PRE NODE_A NODE_B "<edge source=\"a\" target=\"b\"><data key=\"c\">1</data>"
                           "<data key=\"o\">1</data></edge>\n" POST,
         STEADY_EINVAL, "test:12: an overhead has no meaning on a cost edge (a -> b)"},
        {PRE NODE_A NODE_B "<edge source=\"a\" target=\"b\"><data key=\"c\">1</data></edge>\n"
                           "<edge source=\"b\" target=\"a\"><data key=\"b\">1</data></edge>\n" POST,
         STEADY_EINVAL,
         "test:13: edge b -> a uses a bandwidth but the platform's first edge uses a cost: a "
         "platform uses abstract costs or bandwidths, not both"},
    };
    CHECK_ERRORS(cases);
}

/* Switches and channels: a channel is a <node> of kind channel, which
 * edges cross (crosses data) and never join. */
#define NET_PRE                                                                                    \
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"                                                 \
    "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"                                  \
    "<key id=\"k\" for=\"node\" attr.name=\"kind\"/>\n"                                            \
    "<key id=\"s\" for=\"node\" attr.name=\"speed\"/>\n"                                           \
    "<key id=\"cb\" for=\"node\" attr.name=\"bandwidth\"/>\n"                                      \
    "<key id=\"sh\" for=\"node\" attr.name=\"sharing\"/>\n"                                        \
    "<key id=\"b\" for=\"edge\" attr.name=\"bandwidth\"/>\n"                                       \
    "<key id=\"x\" for=\"edge\" attr.name=\"crosses\"/>\n"                                         \
    "<graph id=\"g\" edgedefault=\"directed\">\n"
#define CH_UP                                                                                      \
    "<node id=\"up\"><data key=\"k\">channel</data><data key=\"cb\">1e8</data>"                    \
    "<data key=\"sh\">splitduplex</data></node>\n"
#define SW "<node id=\"sw\"><data key=\"k\">switch</data></node>\n"

static void test_switches_channels(void)
{
    /* an undirected edge crossing a splitduplex channel: the way back
     * crosses its other half; the edge's bandwidth is the channel's */
    steady_platform_t *p =
        gml_ok(NET_PRE CH_UP SW NODE_A "<edge source=\"a\" target=\"sw\" directed=\"false\">"
                                       "<data key=\"x\">up:up</data></edge>\n" POST);
    if (!p)
        return;
    CU_ASSERT_EQUAL(steady_platform_node_count(p), 2);
    CU_ASSERT_EQUAL(steady_platform_switch_count(p), 1);
    CU_ASSERT_EQUAL(steady_platform_channel_count(p), 1);
    CU_ASSERT_EQUAL(steady_platform_channel(p, 0)->sharing, STEADY_SPLITDUPLEX);
    const steady_edge_t *e = edge_between(p, "a", "sw"), *back = edge_between(p, "sw", "a");
    CU_ASSERT_FATAL(e && back);
    CU_ASSERT(e->ncross == 1 && !e->cross[0].down && e->bandwidth == 1e8);
    CU_ASSERT(back->ncross == 1 && back->cross[0].down);
    /* exactly back, and a channel that has a node's name */
    char *gml = write_string(p, STEADY_FORMAT_GRAPHML, NULL);
    steady_platform_t *q = parse_ok(gml, STEADY_FORMAT_AUTO);
    if (q)
        ASSERT_PLATFORMS_EQUAL(p, q);
    free(gml);
    steady_platform_destroy(q);
    steady_platform_destroy(p);
    p = parse_ok("processor a speed=1\nprocessor b speed=1\nswitch s\n"
                 "channel a bandwidth=1MBps latency=1us sharing=fatpipe\n"
                 "link a s crosses=a\nlink b s bandwidth=2MBps\n",
                 STEADY_FORMAT_NATIVE);
    gml = p ? write_string(p, STEADY_FORMAT_GRAPHML, NULL) : NULL;
    q = gml ? parse_ok(gml, STEADY_FORMAT_AUTO) : NULL;
    if (q)
        ASSERT_PLATFORMS_EQUAL(p, q);
    CU_ASSERT(gml && strstr(gml, "<node id=\"a~channel\">") && strstr(gml, "<data key=\"name\">a"));
    free(gml);
    steady_platform_destroy(q);
    steady_platform_destroy(p);

    static const bad_case_t cases[] = {
        {NET_PRE "<node id=\"c\"><data key=\"k\">channel</data></node>\n" POST, STEADY_EPARSE,
         "test:10: missing bandwidth or cost for channel (c)"},
        {NET_PRE "<node id=\"c\"><data key=\"k\">channel</data><data key=\"cb\">1</data>\n"
                 "<data key=\"sh\">half</data></node>\n" POST,
         STEADY_EPARSE, "test:11: bad sharing (half): expected shared, splitduplex or fatpipe"},
        {NET_PRE "<node id=\"a\"><data key=\"s\">1</data>\n<data key=\"cb\">1</data></node>\n" POST,
         STEADY_EINVAL, "test:11: bandwidth on a node that is not a channel (a)"},
        {NET_PRE
         "<node id=\"sw\"><data key=\"k\">switch</data>\n<data key=\"s\">1</data></node>\n" POST,
         STEADY_EINVAL, "test:11: a switch has no speed (1)"},
        {NET_PRE CH_UP NODE_A "<edge source=\"a\" target=\"up\"/>\n" POST, STEADY_EINVAL,
         "test:12: edge to a channel (up): an edge crosses channels (crosses data), it joins "
         "nodes"},
        {NET_PRE CH_UP SW NODE_A "<edge source=\"a\" target=\"sw\">\n<data key=\"x\">up</data>"
                                 "</edge>\n" POST,
         STEADY_EINVAL,
         "test:14: missing direction of a splitduplex channel (up): use CHANNEL:up or "
         "CHANNEL:down"},
        {NET_PRE SW NODE_A "<edge source=\"a\" target=\"sw\">\n<data key=\"x\">wan</data>"
                           "</edge>\n" POST,
         STEADY_EINVAL, "test:13: unknown channel (wan): declare it first"},
    };
    CHECK_ERRORS(cases);
}

/* With a router only, the reader succeeds and the model's whole-platform
 * check speaks (prefixed with the input's name). */
static void test_errors_validation(void)
{
    const char *msg = parse_err(PRE "<node id=\"r\"><data key=\"k\">router</data></node>\n" POST,
                                STEADY_FORMAT_GRAPHML, STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(msg, "test:1: platform has no processor (1 routers only)");
}

void suite_graphml(void)
{
    static const CU_TestInfo tests[] = {
        {"read: every field", test_read_fields},
        {"read: key defaults", test_read_defaults},
        {"read: undirected graph", test_read_undirected},
        {"read: directed=false edge", test_read_directed_false},
        {"read: nodes after edges", test_read_nodes_after_edges},
        {"read: name data", test_read_name_data},
        {"read: unit suffixes", test_read_units},
        {"read: foreign keys ignored", test_read_foreign_keys},
        {"read: cost platform", test_read_cost_platform},
        {"read: auto-detected", test_read_auto_detect},
        {"write: exact text", test_write_exact_text},
        {"round trip: bit-exact", test_round_trip_exact},
        {"round trip: cost platform", test_round_trip_cost},
        {"igraph reads ours", test_igraph_reads_ours},
        {"we read igraph's", test_we_read_igraph},
        {"errors: document", test_errors_document},
        {"errors: keys and data", test_errors_keys_and_data},
        {"errors: nodes", test_errors_nodes},
        {"errors: edges", test_errors_edges},
        {"errors: validation", test_errors_validation},
        {"switches and channels", test_switches_channels},
        CU_TEST_INFO_NULL,
    };
    add_suite("graphml", tests);
}
