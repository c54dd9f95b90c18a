/*
 * test_native.c — the native text format: grammar, units, errors with line
 * and column, exact round trips.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"

/* The paper's reduce example (Legrand, Marchal, Robert §4.3, Figure 6):
 * three processors, all-to-all links of unit cost, P0 computes twice as
 * fast as P1 and P2. */
static const char *paper_reduce = "# the paper's reduce example\n"
                                  "platform paper-reduce\n"
                                  "processor P0 speed=2\n"
                                  "processor P1 speed=1\n"
                                  "processor P2 speed=1\n"
                                  "link P0 P1 cost=1\n"
                                  "link P0 P2 cost=1\n"
                                  "link P1 P2 cost=1\n";

static void test_paper_example(void)
{
    steady_platform_t *p = parse_ok(paper_reduce, STEADY_FORMAT_AUTO);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_STRING_EQUAL(steady_platform_name(p), "paper-reduce");
    CU_ASSERT_EQUAL(steady_platform_node_count(p), 3);
    CU_ASSERT_EQUAL(steady_platform_edge_count(p), 6);
    CU_ASSERT_TRUE(steady_platform_is_abstract(p));
    for (int e = 0; e < 6; e++)
        CU_ASSERT_EQUAL(steady_platform_comm_time(p, e, 1048576), 1.0);
    CU_ASSERT_EQUAL(steady_platform_task_time(p, 0, 1), 0.5);
    CU_ASSERT_EQUAL(steady_platform_task_time(p, 1, 1), 1.0);
    /* link A B adds A->B then B->A */
    CU_ASSERT_EQUAL(steady_platform_edge(p, 0)->src, 0);
    CU_ASSERT_EQUAL(steady_platform_edge(p, 1)->src, 1);
    CU_ASSERT_EQUAL(steady_platform_find_edge(p, 2, 1), 5);
    steady_platform_destroy(p);
}

static void test_syntax(void)
{
    steady_platform_t *p = parse_ok("\r\n  # comment line\r\n"
                                    "processor\tA  speed=1.5Gf   # trailing comment\r\n"
                                    "router R#no space before comment\n"
                                    "processor B speed=250Mflops\n"
                                    "edge A R bandwidth=1.5MBps latency=10us overhead=2ms\n"
                                    "edge A B bandwidth=2520Bps\n"
                                    "edge B A bandwidth=8Mbps latency=1.5\n"
                                    "link B R bandwidth=1KiBps latency=1m",
                                    STEADY_FORMAT_NATIVE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_STRING_EQUAL(steady_platform_name(p), "platform");
    CU_ASSERT_EQUAL(steady_platform_node(p, 0)->speed, 1.5e9);
    CU_ASSERT_EQUAL(steady_platform_node(p, 1)->kind, STEADY_ROUTER);
    CU_ASSERT_EQUAL(steady_platform_node(p, 1)->speed, 0);
    CU_ASSERT_EQUAL(steady_platform_node(p, 2)->speed, 250e6);
    const steady_edge_t *e = steady_platform_edge(p, 0);
    CU_ASSERT_EQUAL(e->bandwidth, 1.5e6);
    CU_ASSERT_EQUAL(e->latency, 1e-5);
    CU_ASSERT_EQUAL(e->overhead, 2e-3);
    e = steady_platform_edge(p, 1);
    CU_ASSERT_EQUAL(e->bandwidth, 2520);
    CU_ASSERT_EQUAL(e->latency, 0);
    CU_ASSERT_EQUAL(steady_platform_edge(p, 2)->bandwidth, 1e6);
    CU_ASSERT_EQUAL(steady_platform_edge(p, 2)->latency, 1.5);
    CU_ASSERT_EQUAL(steady_platform_edge(p, 3)->bandwidth, 1024);
    CU_ASSERT_EQUAL(steady_platform_edge(p, 3)->latency, 60);
    CU_ASSERT_EQUAL(steady_platform_edge(p, 4)->src, 1);
    CU_ASSERT_EQUAL(steady_platform_edge_count(p), 5);
    steady_platform_destroy(p);

    /* a decimal prefix shifts the decimal exponent before conversion: the
     * value is the double nearest to what was written */
    p = parse_ok("processor A speed=1.5e-3Gf\nprocessor B speed=0.1Tf\n"
                 "edge A B bandwidth=8kbps latency=1.461517ms\n"
                 "edge B A bandwidth=0.3MBps latency=2.5e1us\n",
                 STEADY_FORMAT_NATIVE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(steady_platform_node(p, 0)->speed, 1.5e6);
    CU_ASSERT_EQUAL(steady_platform_node(p, 1)->speed, 1e11);
    CU_ASSERT_EQUAL(steady_platform_edge(p, 0)->bandwidth, 1000);
    CU_ASSERT_EQUAL(steady_platform_edge(p, 0)->latency, 0.001461517);
    CU_ASSERT_EQUAL(steady_platform_edge(p, 1)->bandwidth, 300000);
    CU_ASSERT_EQUAL(steady_platform_edge(p, 1)->latency, 2.5e-5);
    steady_platform_destroy(p);
}

static void test_errors(void)
{
    static const struct {
        const char *text;
        steady_err_t code;
        const char *msg;
    } cases[] = {
        {"processor A speed=1\nedge A B cost=1\n", STEADY_EINVAL,
         "test:2:8: unknown node (B): declare it with 'processor', 'router' or 'switch' first"},
        {"processor A speed=1\n  processor A speed=2\n", STEADY_EINVAL,
         "test:2:13: duplicate node (A)"},
        {"processor A speed=1\nprocessor B speed=1\nedge A B cost=1\nedge A B cost=2\n",
         STEADY_EINVAL, "test:4:6: duplicate edge (A -> B)"},
        {"processor A speed=1\nedge A A cost=1\n", STEADY_EINVAL, "test:2:6: self-loop (A -> A)"},
        {"processor A speed=1\nprocessor B speed=1\nedge A B bandwidth=0\n", STEADY_EINVAL,
         "test:3:10: non-positive bandwidth (0)"},
        {"processor A speed=NaN\n", STEADY_EINVAL, "test:1:13: speed is not a finite number (NaN)"},
        {"processor A speed=-1Gf\n", STEADY_EINVAL, "test:1:13: non-positive speed (-1Gf)"},
        {"processor A speed=1Gflop\n", STEADY_EPARSE,
         "test:1:13: unknown speed unit (1Gflop): use f, kf, Mf, Gf, Tf, Pf, Ef, or no unit for "
         "flop/s"},
        {"processor A speed=1\nprocessor B speed=1\nedge A B cost=1x\n", STEADY_EPARSE,
         "test:3:10: not a number (1x): this field is a plain number"},
        {"processor A speed=1\nprocessor B speed=1\nedge A B cost=\n", STEADY_EPARSE,
         "test:3:10: not a number (): this field is a plain number"},
        {"processor A speed=1\nprocessor B speed=1\nedge A B =1\n", STEADY_EPARSE,
         "test:3:10: expected key=value (=1)"},
        {"", STEADY_EINVAL, "test:1: empty platform: no node is declared"},
        {"router R\n", STEADY_EINVAL, "test:1: platform has no processor (1 routers only)"},
        {"platform\n", STEADY_EPARSE, "test:1:1: missing operand (platform): platform NAME"},
        {"platform a b\n", STEADY_EPARSE, "test:1:12: unexpected token (b)"},
        {"processor A speed=1\nprocessor B speed=1\nedge A B cost=1 latency=1 overhead=1\n",
         STEADY_EINVAL, "test:3:6: an overhead has no meaning on a cost edge (A -> B)"},
        {"calibrated min-size=1KiB\n", STEADY_EPARSE,
         "test:1:12: missing attribute max-size= for calibrated (min-size): calibrated "
         "min-size=BYTES max-size=BYTES"},
        {"calibrated max-size=4MiB\n", STEADY_EPARSE,
         "test:1:12: missing attribute min-size= for calibrated (max-size): calibrated "
         "min-size=BYTES max-size=BYTES"},
        {"calibrated min-size=4MiB max-size=1KiB\n", STEADY_EINVAL,
         "test:1:12: calibrated over 4194304 to 1024 bytes: expected 1 <= min-size <= "
         "max-size <= 1e12"},
        {"calibrated min-size=1KiB max-size=4Mbit\n", STEADY_EPARSE,
         "test:1:26: unknown size unit (4Mbit): use B, kB, MB, GB, KiB, MiB, GiB, or no unit for "
         "bytes"},
        {"calibrated min-size=1 max-size=2\ncalibrated min-size=1 max-size=2\n", STEADY_EPARSE,
         "test:2:1: calibrated given twice (calibrated)"},
        {"processor A speed=1 speed=2\n", STEADY_EPARSE,
         "test:1:21: attribute given twice (speed)"},
        {"processor A speed=1 bandwidth=2\n", STEADY_EPARSE,
         "test:1:21: unknown attribute for a processor (bandwidth): expected speed"},
        {"PROCESSOR A speed=1\n", STEADY_EPARSE,
         "test:1:1: unknown statement (PROCESSOR): expected platform, flows, calibrated, processor, "
         "router, switch, channel, edge or link"},
        {"processor A speed=1 a b c d e f g h i j k l m n\n", STEADY_EPARSE,
         "test:1:47: too many tokens on one line"},
        {"processor \"Host 1 speed=1\n", STEADY_EPARSE,
         "test:1:11: unterminated quote (\"Host 1 speed=1)"},
        {"processor \"Host 1\"speed=1\n", STEADY_EPARSE,
         "test:1:11: text right after a quote (speed=1)"},
        {"processor \" Host\" speed=1\n", STEADY_EINVAL,
         "test:1:11: invalid node name ( Host): use 1 to 255 characters from A-Z a-z 0-9 _ . "
         ": @ + / - and blanks within"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *msg = parse_err(cases[i].text, STEADY_FORMAT_NATIVE, cases[i].code);
        if (strcmp(msg, cases[i].msg) != 0)
            fprintf(stderr, "\n    case %zu: got \"%s\"\n", i, msg);
        CU_ASSERT_STRING_EQUAL(msg, cases[i].msg);
    }
}

/* native -> native reproduces every double bit for bit, including values
 * that need 17 significant digits. */
static void test_round_trip(void)
{
    steady_platform_t *p = NULL;
    CU_ASSERT_EQUAL_FATAL(steady_platform_create(&p, NULL), STEADY_OK);
    steady_platform_set_name(p, "awkward", NULL);
    /* within the model's ranges: bandwidths are 7 times these, latencies these */
    const double speeds[] = {0.1 + 0.2, 1.0 / 3, 123456.789123, 1.2345e-3, 999999.99999999988};
    for (int v = 0; v < 5; v++) {
        char name[16];
        snprintf(name, sizeof name, "P%d", v);
        CU_ASSERT_EQUAL(steady_platform_add_node(p, name, STEADY_PROCESSOR, speeds[v], NULL, NULL),
                        STEADY_OK);
    }
    steady_platform_add_node(p, "R", STEADY_ROUTER, 0, NULL, NULL);
    for (int v = 0; v < 5; v++) {
        steady_edge_t e = {.src = v,
                           .dst = 5,
                           .bandwidth = speeds[4 - v] * 7,
                           .latency = speeds[v],
                           .overhead = v % 2 ? speeds[v] / 3 : 0,
                           .recv_factor = v % 2 ? 0 : speeds[1] + v / 10.0,
                           .penalty = v % 2 ? speeds[v] : 0};
        CU_ASSERT_EQUAL(steady_platform_add_edge(p, &e, NULL, NULL), STEADY_OK);
        e.src = 5;
        e.dst = v;
        e.latency = 0;
        CU_ASSERT_EQUAL(steady_platform_add_edge(p, &e, NULL, NULL), STEADY_OK);
    }
    CU_ASSERT_EQUAL(steady_platform_set_flow_sharing(p, STEADY_FLOWS_PENALTY, speeds[1], NULL),
                    STEADY_OK);
    CU_ASSERT_EQUAL(steady_platform_set_calibrated(p, 16384, 4194304.5, NULL), STEADY_OK);
    CU_ASSERT_EQUAL(steady_platform_set_crosstraffic(p, 0.05, NULL), STEADY_OK);
    CU_ASSERT_EQUAL(steady_platform_set_crosstraffic(p, 1.5, NULL), STEADY_EINVAL);
    /* GraphML, then the native format, carry it all (the calibration's
     * sizes and the cross traffic too) */
    char *text = NULL;
    steady_platform_t *q = NULL;
    for (int f = 0; f < 2; f++) {
        free(text);
        steady_platform_destroy(q);
        text = write_string(p, f ? STEADY_FORMAT_NATIVE : STEADY_FORMAT_GRAPHML, NULL);
        q = parse_ok(text, STEADY_FORMAT_AUTO);
        CU_ASSERT_PTR_NOT_NULL_FATAL(q);
        ASSERT_PLATFORMS_EQUAL(p, q);
    }
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "\ncalibrated min-size=16384 max-size=4194304.5\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, " crosstraffic=0.05\n"));
    /* and the output is a fixed point */
    char *again = write_string(q, STEADY_FORMAT_NATIVE, NULL);
    CU_ASSERT_STRING_EQUAL(text, again);
    free(text);
    free(again);
    steady_platform_destroy(q);

    /* names with blanks (SimGrid's "Host 26") are quoted, and read back */
    steady_platform_t *h = parse_ok("platform \"my grid\"\nprocessor \"Host 26\" speed=1\n"
                                    "processor B speed=1\nlink \"Host 26\" B cost=1 # a link\n",
                                    STEADY_FORMAT_NATIVE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(h);
    CU_ASSERT_STRING_EQUAL(steady_platform_name(h), "my grid");
    CU_ASSERT_STRING_EQUAL(steady_platform_node(h, 0)->name, "Host 26");
    CU_ASSERT_EQUAL(steady_platform_edge_count(h), 2);
    text = write_string(h, STEADY_FORMAT_NATIVE, NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "processor \"Host 26\" speed=1\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "edge \"Host 26\" B cost=1\n"));
    q = parse_ok(text, STEADY_FORMAT_NATIVE);
    ASSERT_PLATFORMS_EQUAL(h, q);
    free(text);
    steady_platform_destroy(q);
    steady_platform_destroy(h);

    /* channel names with ':' (SimGrid's link ids can hold one): a crossing
     * names a channel whole, or up to its last ':' and a direction; both
     * formats read back what they wrote */
    steady_platform_t *c = parse_ok("processor a speed=1\nprocessor b speed=1\nswitch s\n"
                                    "channel x:up bandwidth=1GBps\n"
                                    "channel https://w:1 bandwidth=1GBps sharing=splitduplex\n"
                                    "edge a s bandwidth=1MBps crosses=x:up,https://w:1:up\n"
                                    "edge s a bandwidth=1MBps crosses=https://w:1:down\n"
                                    "link b s bandwidth=1MBps\n",
                                    STEADY_FORMAT_NATIVE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    const steady_edge_t *as = steady_platform_edge(c, 0);
    CU_ASSERT(as->ncross == 2 && as->cross[0].channel == 0 && !as->cross[0].down &&
              as->cross[1].channel == 1 && !as->cross[1].down);
    CU_ASSERT(steady_platform_edge(c, 1)->cross[0].down);
    for (int f = 0; f < 2; f++) {
        text = write_string(c, f ? STEADY_FORMAT_GRAPHML : STEADY_FORMAT_NATIVE, NULL);
        q = parse_ok(text, STEADY_FORMAT_AUTO);
        if (q)
            ASSERT_PLATFORMS_EQUAL(c, q);
        free(text);
        steady_platform_destroy(q);
    }
    steady_platform_destroy(c);
    CU_ASSERT_STRING_EQUAL(
        parse_err("processor a speed=1\nswitch s\nchannel x bandwidth=1GBps sharing=splitduplex\n"
                  "channel x:up bandwidth=1GBps\nedge a s bandwidth=1MBps crosses=x:up\n",
                  STEADY_FORMAT_NATIVE, STEADY_EINVAL),
        "test:5:26: ambiguous crossing (x:up): a channel has that name, and another that name up "
        "to its last ':'");

    /* abstract costs */
    steady_platform_t *a = parse_ok(paper_reduce, STEADY_FORMAT_NATIVE);
    text = write_string(a, STEADY_FORMAT_NATIVE, NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "edge P0 P1 cost=1\n"));
    q = parse_ok(text, STEADY_FORMAT_NATIVE);
    ASSERT_PLATFORMS_EQUAL(a, q);
    free(text);
    steady_platform_destroy(q);
    steady_platform_destroy(a);
    steady_platform_destroy(p);
}

static void test_read_file(void)
{
    steady_platform_t *p = NULL;
    steady_error_t err = {0};
    steady_format_t f;
    CU_ASSERT_EQUAL(steady_platform_read("/nonexistent/x.plat", STEADY_FORMAT_AUTO, &p, &f, &err),
                    STEADY_EINPUT);
    CU_ASSERT_STRING_EQUAL(err.msg, "/nonexistent/x.plat: cannot open (No such file or directory)");
    CU_ASSERT_PTR_NULL(p);
    CU_ASSERT_EQUAL(steady_platform_read("examples/platforms/paper-reduce.plat", STEADY_FORMAT_AUTO,
                                         &p, &f, &err),
                    STEADY_OK);
    CU_ASSERT_EQUAL(f, STEADY_FORMAT_NATIVE);
    steady_platform_t *q = parse_ok(paper_reduce, STEADY_FORMAT_NATIVE);
    ASSERT_PLATFORMS_EQUAL(p, q);
    steady_platform_destroy(p);
    steady_platform_destroy(q);
    /* XML that is neither GraphML nor SimGrid */
    CU_ASSERT_STRING_EQUAL(
        parse_err("<?xml version='1.0'?>\n<svg/>", STEADY_FORMAT_AUTO, STEADY_EPARSE),
        "test:1: unknown XML document <svg>: expected <graphml> or a SimGrid "
        "<platform>");
}

void suite_native(void)
{
    static const CU_TestInfo tests[] = {{"paper reduce example", test_paper_example},
                                        {"syntax and units", test_syntax},
                                        {"error messages", test_errors},
                                        {"exact round trip", test_round_trip},
                                        {"reading files", test_read_file},
                                        CU_TEST_INFO_NULL};
    add_suite("native format", tests);
}
