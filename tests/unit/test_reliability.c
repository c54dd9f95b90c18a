/*
 * test_reliability.c — regressions of issue 18 (defects found with hand-made
 * bad inputs and the fuzzers) that belong to no single reader: numbers at
 * the edges of a double, the model's ranges, negative zero, format
 * detection, the LP's range check; and an output file that a failure
 * leaves as it was.
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/strmap.h"
#include "steady/output.h"
#include "tests.h"

static uint64_t hash_of(const steady_platform_t *p)
{
    uint64_t h = 0;
    steady_error_t err = {0};
    CU_ASSERT_EQUAL(steady_platform_hash(p, &h, &err), STEADY_OK);
    return h;
}

/* Exponents that overflow a long, a double or the decimal prefix's power
 * of ten give the right reason (this was signed overflow in units.c). */
static void test_numbers(void)
{
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"processor a speed=1e99999999999999999999999Gf\n",
         "test:1:13: speed is not a finite number (1e99999999999999999999999Gf)"},
        {"processor a speed=1e-99999999999999999999999Ef\n",
         "test:1:13: speed out of range (1e-99999999999999999999999Ef): from 1e-6 to 1e21"},
        {"processor a speed=-1e-400\n", "test:1:13: non-positive speed (-1e-400)"},
        {"processor a speed=0x10\n",
         "test:1:13: not a number (0x10): use f, kf, Mf, Gf, Tf, Pf, Ef, or no unit for flop/s"},
        {"processor a speed=1.2.3\n",
         "test:1:13: unknown speed unit (1.2.3): use f, kf, Mf, Gf, Tf, Pf, Ef, or no unit for "
         "flop/s"},
        {"processor a speed=.\n",
         "test:1:13: not a number (.): use f, kf, Mf, Gf, Tf, Pf, Ef, or no unit for flop/s"},
        {"processor a speed=1\nprocessor b speed=1\nedge a b bandwidth=1 latency=1e-99999999999s\n"
         "edge b a bandwidth=1e-400\n",
         "test:4:10: bandwidth out of range (1e-400): from 0.001 to 1e15 B/s"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *msg = parse_err(
            cases[i].text, STEADY_FORMAT_NATIVE,
            strstr(cases[i].msg, "not a number") || strstr(cases[i].msg, "unit") ? STEADY_EPARSE
                                                                                 : STEADY_EINVAL);
        if (strcmp(msg, cases[i].msg) != 0)
            fprintf(stderr, "\n    case %zu: %s\n", i, msg);
        CU_ASSERT_STRING_EQUAL(msg, cases[i].msg);
    }
    /* what is read: a latency too small for a double is 0, decimal
     * prefixes are exact powers of ten */
    steady_platform_t *p = parse_ok("processor a speed=+2.5e-3Gf\nprocessor b speed=.5\n"
                                    "edge a b bandwidth=1e1kBps latency=1e-99999999s\n",
                                    STEADY_FORMAT_NATIVE);
    if (p) {
        CU_ASSERT_EQUAL(steady_platform_node(p, 0)->speed, 2.5e6);
        CU_ASSERT_EQUAL(steady_platform_node(p, 1)->speed, 0.5);
        CU_ASSERT_EQUAL(steady_platform_edge(p, 0)->bandwidth, 1e4);
        CU_ASSERT(steady_platform_edge(p, 0)->latency >= 0 &&
                  steady_platform_edge(p, 0)->latency < 1e-300);
    }
    steady_platform_destroy(p);
    double x = 0;
    CU_ASSERT_TRUE(steady_parse_number("-2.5e3", &x) && x == -2500);
    CU_ASSERT_FALSE(steady_parse_number("0x10", &x));
    CU_ASSERT_FALSE(steady_parse_number(" 1", &x));
    CU_ASSERT_FALSE(steady_parse_number("1s", &x));
    CU_ASSERT_FALSE(steady_parse_number("", &x));
}

/* The model's ranges: bounds included, beyond refused. */
static void test_ranges(void)
{
    steady_platform_t *p = parse_ok("processor a speed=1e-6\nprocessor b speed=1e21\n"
                                    "edge a b bandwidth=0.001 latency=1e6 overhead=1e6\n"
                                    "edge b a bandwidth=1e15\n",
                                    STEADY_FORMAT_NATIVE);
    steady_platform_destroy(p);
    p = parse_ok("processor a speed=1\nprocessor b speed=1\nlink a b cost=1e-6\n",
                 STEADY_FORMAT_NATIVE);
    steady_platform_destroy(p);
    CU_ASSERT_STRING_EQUAL(parse_err("processor a speed=1\nprocessor b speed=1\n"
                                     "edge a b cost=1000000.0000000001\n",
                                     STEADY_FORMAT_NATIVE, STEADY_EINVAL),
                           "test:3:10: cost out of range (1000000.0000000001): from 1e-6 to 1e6");
    CU_ASSERT_STRING_EQUAL(parse_err("processor a speed=1\nprocessor b speed=1\n"
                                     "edge a b bandwidth=1 overhead=12d\n",
                                     STEADY_FORMAT_NATIVE, STEADY_EINVAL),
                           "test:3:22: overhead out of range (12d): from 0 to 1e6 s");
    /* the model itself, for platforms built in memory */
    CU_ASSERT_EQUAL_FATAL(steady_platform_create(&p, NULL), STEADY_OK);
    steady_error_t err = {0};
    CU_ASSERT_EQUAL(steady_platform_add_node(p, "a", STEADY_PROCESSOR, 1e300, NULL, &err),
                    STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "speed out of range (1e+300): from 1e-6 to 1e21");
    steady_platform_add_node(p, "a", STEADY_PROCESSOR, 1, NULL, NULL);
    steady_platform_add_node(p, "b", STEADY_PROCESSOR, 1, NULL, NULL);
    steady_edge_t e = {.src = 0, .dst = 1, .bandwidth = 1e-300};
    CU_ASSERT_EQUAL(steady_platform_add_edge(p, &e, NULL, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "bandwidth out of range (1e-300): from 0.001 to 1e15 B/s");
    steady_platform_destroy(p);
    double b;
    CU_ASSERT_EQUAL(steady_parse_size("1e300", &b, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "message size out of range (1e300): from 1 byte to 1e12 bytes");
    CU_ASSERT_EQUAL(steady_parse_size("0.5", &b, &err), STEADY_EINVAL);
    CU_ASSERT_EQUAL(steady_parse_size("1TB", &b, &err), STEADY_OK);
}

/* -0 is 0 in every format: a native -> SimGrid -> native round trip keeps
 * the hash (a negative zero latency was written "-0" by one writer and
 * left out by another). */
static void test_negative_zero(void)
{
    static const char *const texts[] = {
        "processor a speed=1\nprocessor b speed=1\nedge a b cost=1 latency=-0\n"
        "edge b a cost=2 latency=-0.0e7\n",
        "processor a speed=1\nprocessor b speed=1\nedge a b bandwidth=1 latency=-0ms "
        "overhead=-0\nedge b a bandwidth=2\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        steady_platform_t *p = parse_ok(texts[i], STEADY_FORMAT_NATIVE);
        if (!p)
            continue;
        CU_ASSERT_FALSE(signbit(steady_platform_edge(p, 0)->latency));
        CU_ASSERT_FALSE(signbit(steady_platform_edge(p, 0)->overhead));
        uint64_t h = hash_of(p);
        for (steady_format_t f = STEADY_FORMAT_NATIVE; f <= STEADY_FORMAT_SIMGRID; f++) {
            char *text = write_string(p, f, NULL);
            CU_ASSERT_PTR_NULL(strstr(text, "-0"));
            steady_platform_t *q = parse_ok(text, f);
            if (q)
                CU_ASSERT_EQUAL(hash_of(q), h);
            steady_platform_destroy(q);
            free(text);
        }
        steady_platform_destroy(p);
    }
    /* and in memory */
    steady_platform_t *p = NULL;
    CU_ASSERT_EQUAL_FATAL(steady_platform_create(&p, NULL), STEADY_OK);
    steady_platform_add_node(p, "a", STEADY_PROCESSOR, 1, NULL, NULL);
    steady_platform_add_node(p, "r", STEADY_ROUTER, -0.0, NULL, NULL);
    steady_edge_t e = {.src = 0, .dst = 1, .bandwidth = 1, .latency = -0.0, .cost = -0.0};
    CU_ASSERT_EQUAL(steady_platform_add_edge(p, &e, NULL, NULL), STEADY_OK);
    CU_ASSERT_FALSE(signbit(steady_platform_node(p, 1)->speed));
    CU_ASSERT_FALSE(signbit(steady_platform_edge(p, 0)->latency));
    CU_ASSERT_FALSE(signbit(steady_platform_edge(p, 0)->cost));
    steady_platform_destroy(p);
}

/* Format detection looks past a DOCTYPE's internal subset, processing
 * instructions and comments that contain '>'. */
static void test_detection(void)
{
    static const struct {
        const char *prologue;
        steady_format_t format;
    } cases[] = {
        {"<?xml version=\"1.0\"?>\n<?tool a > b?>\n", STEADY_FORMAT_GRAPHML},
        {"<!-- x > y -->\n<!DOCTYPE graphml [\n<!ELEMENT graphml ANY>\n"
         "<!ATTLIST node id CDATA \"a>b\">\n<!-- ]> -->\n<?pi ]>?>\n]>\n",
         STEADY_FORMAT_GRAPHML},
        {"<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\" [ <!ATTLIST host "
         "core CDATA \"]>\"> ]>\n",
         STEADY_FORMAT_SIMGRID},
    };
    static const char *const graphml =
        "<graphml><key id=\"s\" for=\"node\" attr.name=\"speed\"/><graph><node id=\"a\">"
        "<data key=\"s\">1</data></node></graph></graphml>\n";
    static const char *const simgrid = "<platform version=\"4.1\"><zone id=\"z\" "
                                       "routing=\"Full\"><host id=\"a\" speed=\"1f\"/></zone>"
                                       "</platform>\n";
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[1024];
        snprintf(text, sizeof text, "%s%s", cases[i].prologue,
                 cases[i].format == STEADY_FORMAT_GRAPHML ? graphml : simgrid);
        steady_platform_t *p = NULL;
        steady_format_t got = STEADY_FORMAT_AUTO;
        steady_error_t err = {0};
        steady_err_t rc =
            steady_platform_parse(text, strlen(text), "test", STEADY_FORMAT_AUTO, &p, &got, &err);
        if (rc)
            fprintf(stderr, "\n    case %zu: %s\n", i, err.msg);
        CU_ASSERT_EQUAL(rc, STEADY_OK);
        CU_ASSERT_EQUAL(got, cases[i].format);
        steady_platform_destroy(p);
    }
}

/* The LP refuses what GLPK cannot weigh, before GLPK sees it. */
static void test_lp_ranges(void)
{
    steady_platform_t *p = parse_ok("processor a speed=1\nprocessor b speed=1\nprocessor c "
                                    "speed=1\nlink a b bandwidth=0.001\nlink b c bandwidth=1e15\n",
                                    STEADY_FORMAT_NATIVE);
    if (!p)
        return;
    steady_problem_t prob = {.op = STEADY_OP_BROADCAST, .source = 0, .msg_size = 1};
    steady_solution_t *s = NULL;
    steady_error_t err = {0};
    CU_ASSERT_EQUAL(steady_lp_solve(p, &prob, NULL, &s, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg,
                           "the port times of one message span more than 12 orders of magnitude "
                           "(1e-15 on b -> c, 1000 on a -> b): the LP solver cannot weigh them "
                           "together (docs/linear-programs.md, \"Ranges\")");
    prob.msg_size = 1e300;
    CU_ASSERT_EQUAL(steady_lp_solve(p, &prob, NULL, &s, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg,
                           "message size out of range (1e+300 bytes): from 1 byte to 1e12 bytes");
    prob = (steady_problem_t){.op = STEADY_OP_REDUCE, .target = 0, .task_cost = 1e22};
    CU_ASSERT_EQUAL(steady_lp_solve(p, &prob, NULL, &s, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "task cost out of range (1e+22): from 1e-6 to 1e21 flop");
    CU_ASSERT_PTR_NULL(s);
    steady_platform_destroy(p);
}

/* The GraphML reader streams the graph: edges before their nodes, the
 * graph's name after its nodes, comments, instructions and CDATA inside
 * values, renamed nodes, line numbers past 65535. */
static void test_graphml_streamed(void)
{
    static const char *const doc =
        "<?xml version=\"1.0\"?>\n<graphml>\n<key id=\"s\" for=\"node\" attr.name=\"speed\"/>\n"
        "<key id=\"b\" for=\"edge\" attr.name=\"bandwidth\"/>\n<key id=\"n\" for=\"graph\" "
        "attr.name=\"name\"/>\n<key id=\"m\" for=\"node\" attr.name=\"name\"/>\n"
        "<graph edgedefault=\"undirected\">\ntext<!-- c --><?pi x?>\n"
        "<edge source=\"a&amp;\" target=\"b\"><data key=\"b\"><![CDATA[ 1e6 ]]></data></edge>\n"
        "<node id=\"a&amp;\"><data key=\"s\"> 1<!-- c --><?p q?>e9 </data>"
        "<data key=\"m\">alpha</data></node>\n<node id=\"b\"><data key=\"s\">2</data></node>\n"
        "<node id=\"alpha\"><data key=\"s\">3</data><data key=\"m\">c</data></node>\n"
        "<edge source=\"alpha\" target=\"b\" directed=\"true\"><data key=\"b\">5</data></edge>\n"
        "<data key=\"n\">named-late</data>\n</graph>\n</graphml>\n";
    steady_platform_t *p = parse_ok(doc, STEADY_FORMAT_GRAPHML);
    if (p) {
        CU_ASSERT_STRING_EQUAL(steady_platform_name(p), "named-late");
        CU_ASSERT_EQUAL(steady_platform_node_count(p), 3);
        CU_ASSERT_STRING_EQUAL(steady_platform_node(p, 0)->name, "alpha");
        CU_ASSERT_EQUAL(steady_platform_node(p, 0)->speed, 1e9);
        CU_ASSERT_EQUAL(steady_platform_edge_count(p), 3);
        /* edge 0 waited for its nodes, and keeps its place */
        CU_ASSERT(steady_platform_edge(p, 0)->src == 0 && steady_platform_edge(p, 0)->dst == 1);
        CU_ASSERT_EQUAL(steady_platform_edge(p, 0)->bandwidth, 1e6);
        CU_ASSERT(steady_platform_edge(p, 2)->src == 2 && steady_platform_edge(p, 2)->dst == 1);
    }
    steady_platform_destroy(p);
    /* the id "alpha" is node 2's, not the name of node 0 */
    CU_ASSERT_STRING_EQUAL(
        parse_err("<graphml><key id=\"s\" for=\"node\" attr.name=\"speed\"/><key id=\"m\" "
                  "for=\"node\" attr.name=\"name\"/><graph>\n<node id=\"x\"><data key=\"s\">1"
                  "</data><data key=\"m\">y</data></node>\n<node id=\"y\"><data key=\"s\">1"
                  "</data></node>\n</graph></graphml>",
                  STEADY_FORMAT_GRAPHML, STEADY_EINVAL),
        "test:3: duplicate node (y)");
    CU_ASSERT_STRING_EQUAL(
        parse_err("<graphml><graph>\n<node id=\"a\"/>\n</graph>\n<key id=\"k\" for=\"node\"/>"
                  "</graphml>",
                  STEADY_FORMAT_GRAPHML, STEADY_EPARSE),
        "test:2: missing speed for processor (a)");
    CU_ASSERT_STRING_EQUAL(
        parse_err("<graphml><key id=\"s\" for=\"node\" attr.name=\"speed\"/><graph>\n<node "
                  "id=\"a\"><data key=\"s\">1</data></node>\n</graph>\n<key id=\"k\" "
                  "for=\"node\"/></graphml>",
                  STEADY_FORMAT_GRAPHML, STEADY_EPARSE),
        "test:4: <key> after the <graph> (k): declare every key before the graph, as GraphML "
        "requires");
    CU_ASSERT_STRING_EQUAL(parse_err("<!DOCTYPE graphml [\n<!ENTITY x \"y\">\n]>\n<graphml/>",
                                     STEADY_FORMAT_GRAPHML, STEADY_EUNSUPPORTED),
                           "test:2: entity declarations are not supported (x)");
    /* a line number beyond 16 bits, which libxml2's nodes do not hold */
    size_t n = 70000;
    char *big = malloc(n + 256);
    CU_ASSERT_PTR_NOT_NULL_FATAL(big);
    strcpy(big, "<graphml><key id=\"s\" for=\"node\" attr.name=\"speed\"/><graph>");
    size_t len = strlen(big);
    memset(big + len, '\n', n);
    strcpy(big + len + n, "<node id=\"a\"><data key=\"s\">-1</data></node></graph></graphml>");
    CU_ASSERT_STRING_EQUAL(parse_err(big, STEADY_FORMAT_GRAPHML, STEADY_EINVAL),
                           "test:70001: non-positive speed (-1)");
    free(big);
}

/* The string map of the readers: short keys live in their slot, long ones
 * in a buffer; growth keeps every key. */
static void test_strmap(void)
{
    strmap_t m = {0};
    CU_ASSERT_EQUAL(strmap_get(&m, "x"), -1);
    char key[64];
    for (int i = 0; i < 5000; i++) {
        snprintf(key, sizeof key, i % 2 ? "n%d" : "a-rather-long-node-identifier-%d", i);
        CU_ASSERT_EQUAL(strmap_put(&m, key, i), 1);
    }
    CU_ASSERT_EQUAL(strmap_put(&m, "n1", 7), 0); /* already there: unchanged */
    CU_ASSERT_EQUAL(strmap_put(&m, "", 5000), 1);
    CU_ASSERT_EQUAL(strmap_put(&m, "exactly-15-char", 5001), 1);
    CU_ASSERT_EQUAL(strmap_put(&m, "exactly-16-chars", 5002), 1);
    int wrong = 0;
    for (int i = 0; i < 5000; i++) {
        snprintf(key, sizeof key, i % 2 ? "n%d" : "a-rather-long-node-identifier-%d", i);
        wrong += strmap_get(&m, key) != i;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    CU_ASSERT_EQUAL(strmap_get(&m, ""), 5000);
    CU_ASSERT_EQUAL(strmap_get(&m, "exactly-15-char"), 5001);
    CU_ASSERT_EQUAL(strmap_get(&m, "exactly-16-chars"), 5002);
    CU_ASSERT_EQUAL(strmap_get(&m, "n5000"), -1);
    CU_ASSERT_EQUAL(strmap_get(&m, "a-rather-long-node-identifier-1"), -1);
    strmap_free(&m);
    CU_ASSERT_EQUAL(strmap_get(&m, "n1"), -1);
}

static char *slurp(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    size_t len = f ? fread(buf, 1, n - 1, f) : 0;
    buf[len] = '\0';
    if (f)
        fclose(f);
    return buf;
}

static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));)
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

/* steady_output: a failed write (steady-run --calibrate killed or timed
 * out among them) leaves the previous file as it was and no temporary
 * file; a complete one replaces it; a directory is refused. */
static void test_output(void)
{
    char dir[] = "/tmp/steady-output-XXXXXX", path[64], buf[64];
    CU_ASSERT_FATAL(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/calibrated.plat", dir);
    FILE *f = fopen(path, "w");
    CU_ASSERT_FATAL(f != NULL);
    fputs("previous\n", f);
    fclose(f);
    steady_output_t o;
    steady_error_t err = {0};
    CU_ASSERT_FATAL(steady_output_open(&o, path, &err));
    CU_ASSERT_PTR_NOT_NULL(o.tmp);
    fputs("half", o.f);
    CU_ASSERT_STRING_EQUAL(slurp(path, buf, sizeof buf), "previous\n");
    CU_ASSERT_EQUAL(entries(dir), 2);
    CU_ASSERT(steady_output_close(&o, false, &err));
    CU_ASSERT_STRING_EQUAL(slurp(path, buf, sizeof buf), "previous\n");
    CU_ASSERT_EQUAL(entries(dir), 1);
    CU_ASSERT_FATAL(steady_output_open(&o, path, &err));
    fputs("new\n", o.f);
    CU_ASSERT(steady_output_close(&o, true, &err));
    CU_ASSERT_STRING_EQUAL(slurp(path, buf, sizeof buf), "new\n");
    CU_ASSERT_EQUAL(entries(dir), 1);
    CU_ASSERT_FALSE(steady_output_open(&o, dir, &err));
    CU_ASSERT_EQUAL(err.code, STEADY_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "cannot write: it is a directory"));
    remove(path);
    remove(dir);
}

void suite_reliability(void)
{
    static const CU_TestInfo tests[] = {
        {"numbers at a double's limits", test_numbers},
        {"the model's ranges", test_ranges},
        {"negative zero", test_negative_zero},
        {"format detection past a DOCTYPE", test_detection},
        {"the LP's ranges", test_lp_ranges},
        {"GraphML, streamed", test_graphml_streamed},
        {"string map", test_strmap},
        {"an output a failure leaves as it was", test_output},
        CU_TEST_INFO_NULL,
    };
    add_suite("reliability (issue 18)", tests);
}
