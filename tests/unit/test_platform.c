/*
 * test_platform.c — the platform model's rules, queries and cost helpers.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tests.h"

static steady_platform_t *fresh(void)
{
    steady_platform_t *p = NULL;
    CU_ASSERT_EQUAL(steady_platform_create(&p, NULL), STEADY_OK);
    return p;
}

static void test_node_rules(void)
{
    steady_platform_t *p = fresh();
    steady_error_t err = {0};
    int id = -1;
    CU_ASSERT_EQUAL(steady_platform_add_node(p, "P0", STEADY_PROCESSOR, 2e9, &id, &err), 0);
    CU_ASSERT_EQUAL(id, 0);
    CU_ASSERT_EQUAL(steady_platform_add_node(p, "P0", STEADY_ROUTER, 0, NULL, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "duplicate node (P0)");
    CU_ASSERT_EQUAL(steady_platform_add_node(p, "P1", STEADY_PROCESSOR, 0, NULL, &err),
                    STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "non-positive speed (0)");
    CU_ASSERT_EQUAL(steady_platform_add_node(p, "P1", STEADY_PROCESSOR, -1.5, NULL, &err),
                    STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "non-positive speed (-1.5)");
    CU_ASSERT_EQUAL(steady_platform_add_node(p, "P1", STEADY_PROCESSOR, NAN, NULL, &err),
                    STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "speed is not a finite number (nan)");
    CU_ASSERT_EQUAL(steady_platform_add_node(p, "P1", STEADY_PROCESSOR, INFINITY, NULL, &err),
                    STEADY_EINVAL);
    CU_ASSERT_EQUAL(steady_platform_add_node(p, "R", STEADY_ROUTER, 1, NULL, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "a router has no speed (1)");
    CU_ASSERT_EQUAL(steady_platform_add_node(p, "", STEADY_PROCESSOR, 1, NULL, &err),
                    STEADY_EINVAL);
    /* blanks within a name (SimGrid's "Host 26"), not at its ends */
    CU_ASSERT_EQUAL(steady_platform_add_node(p, " a", STEADY_PROCESSOR, 1, NULL, &err),
                    STEADY_EINVAL);
    CU_ASSERT_EQUAL(strncmp(err.msg, "invalid node name ( a)", 22), 0);
    CU_ASSERT_EQUAL(steady_platform_add_node(p, "a ", STEADY_PROCESSOR, 1, NULL, &err),
                    STEADY_EINVAL);
    CU_ASSERT_EQUAL(steady_platform_add_node(p, "a\tb", STEADY_PROCESSOR, 1, NULL, &err),
                    STEADY_EINVAL);
    CU_ASSERT_EQUAL(steady_platform_add_node(p, "Host 26", STEADY_PROCESSOR, 1, NULL, &err),
                    STEADY_OK);
    char longname[300];
    memset(longname, 'x', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    CU_ASSERT_EQUAL(steady_platform_add_node(p, longname, STEADY_PROCESSOR, 1, NULL, &err),
                    STEADY_EINVAL);
    CU_ASSERT_EQUAL(steady_platform_add_node(p, "n-1.a:b@c+d/e_f", STEADY_PROCESSOR, 1, NULL, &err),
                    STEADY_OK);
    /* failed additions leave nothing behind */
    CU_ASSERT_EQUAL(steady_platform_node_count(p), 3);
    CU_ASSERT_EQUAL(steady_platform_processor_count(p), 3);
    steady_platform_destroy(p);
}

static void test_edge_rules(void)
{
    steady_platform_t *p = fresh();
    steady_error_t err = {0};
    steady_platform_add_node(p, "A", STEADY_PROCESSOR, 1, NULL, NULL);
    steady_platform_add_node(p, "B", STEADY_PROCESSOR, 1, NULL, NULL);
    steady_platform_add_node(p, "C", STEADY_PROCESSOR, 1, NULL, NULL);
    steady_edge_t e = {.src = 0, .dst = 1, .bandwidth = 1e6, .latency = 1e-3};
    int id = -1;
    CU_ASSERT_EQUAL(steady_platform_add_edge(p, &e, &id, &err), STEADY_OK);
    CU_ASSERT_EQUAL(id, 0);
    CU_ASSERT_EQUAL(steady_platform_add_edge(p, &e, NULL, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "duplicate edge (A -> B)");
    e.dst = 0;
    CU_ASSERT_EQUAL(steady_platform_add_edge(p, &e, NULL, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "self-loop (A -> A)");
    e = (steady_edge_t){.src = 1, .dst = 0, .bandwidth = 0};
    CU_ASSERT_EQUAL(steady_platform_add_edge(p, &e, NULL, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "edge has neither a bandwidth nor a cost (B -> A)");
    e.bandwidth = -3;
    CU_ASSERT_EQUAL(steady_platform_add_edge(p, &e, NULL, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "non-positive bandwidth (-3)");
    e.bandwidth = NAN;
    CU_ASSERT_EQUAL(steady_platform_add_edge(p, &e, NULL, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "bandwidth is not a finite number (nan)");
    e.bandwidth = 1e6;
    e.latency = -1e-6;
    CU_ASSERT_EQUAL(steady_platform_add_edge(p, &e, NULL, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "negative latency (-1e-06)");
    e.latency = 0;
    e.overhead = INFINITY;
    CU_ASSERT_EQUAL(steady_platform_add_edge(p, &e, NULL, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "overhead is not a finite number (inf)");
    e.overhead = 0;
    e.cost = 1;
    CU_ASSERT_EQUAL(steady_platform_add_edge(p, &e, NULL, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "edge has both a bandwidth and a cost (B -> A)");
    e.bandwidth = 0;
    CU_ASSERT_EQUAL(steady_platform_add_edge(p, &e, NULL, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg,
                           "edge B -> A uses a cost but the platform's first edge uses a "
                           "bandwidth: a platform uses abstract costs or bandwidths, not both");
    e = (steady_edge_t){.src = 7, .dst = 0, .bandwidth = 1};
    CU_ASSERT_EQUAL(steady_platform_add_edge(p, &e, NULL, &err), STEADY_EINVAL);
    CU_ASSERT_EQUAL(steady_platform_edge_count(p), 1);
    steady_platform_destroy(p);

    /* an abstract platform: costs only, no overhead */
    p = fresh();
    steady_platform_add_node(p, "A", STEADY_PROCESSOR, 1, NULL, NULL);
    steady_platform_add_node(p, "B", STEADY_PROCESSOR, 1, NULL, NULL);
    e = (steady_edge_t){.src = 0, .dst = 1, .cost = 2, .overhead = 1};
    CU_ASSERT_EQUAL(steady_platform_add_edge(p, &e, NULL, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "an overhead has no meaning on a cost edge (A -> B)");
    e.overhead = 0;
    e.cost = -2;
    CU_ASSERT_EQUAL(steady_platform_add_edge(p, &e, NULL, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "non-positive cost (-2)");
    e.cost = 2;
    CU_ASSERT_EQUAL(steady_platform_add_edge(p, &e, NULL, &err), STEADY_OK);
    CU_ASSERT_TRUE(steady_platform_is_abstract(p));
    steady_platform_destroy(p);
}

static void test_validate(void)
{
    steady_platform_t *p = fresh();
    steady_error_t err = {0};
    CU_ASSERT_EQUAL(steady_platform_validate(p, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "empty platform: no node is declared");
    steady_platform_add_node(p, "R", STEADY_ROUTER, 0, NULL, NULL);
    CU_ASSERT_EQUAL(steady_platform_validate(p, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "platform has no processor (1 routers only)");
    steady_platform_add_node(p, "P", STEADY_PROCESSOR, 1, NULL, NULL);
    CU_ASSERT_EQUAL(steady_platform_validate(p, &err), STEADY_OK);
    steady_platform_destroy(p);
}

/* c(i,j) = overhead + s / bandwidth, or the abstract cost; w(i) = f / speed. */
static void test_costs(void)
{
    steady_platform_t *p = fresh();
    steady_platform_add_node(p, "A", STEADY_PROCESSOR, 4e9, NULL, NULL);
    steady_platform_add_node(p, "R", STEADY_ROUTER, 0, NULL, NULL);
    steady_edge_t e = {.src = 0, .dst = 1, .bandwidth = 125e6, .latency = 1e-3, .overhead = 2e-6};
    steady_platform_add_edge(p, &e, NULL, NULL);
    CU_ASSERT_DOUBLE_EQUAL(steady_platform_comm_time(p, 0, 1048576), 2e-6 + 1048576 / 125e6, 1e-18);
    CU_ASSERT_EQUAL(steady_platform_comm_time(p, 0, 0), 2e-6); /* latency never counts */
    CU_ASSERT_EQUAL(steady_platform_task_time(p, 0, 8e9), 2.0);
    CU_ASSERT_TRUE(isinf(steady_platform_task_time(p, 1, 8e9)));
    CU_ASSERT_FALSE(steady_platform_is_abstract(p));
    steady_platform_destroy(p);

    p = parse_ok("processor A speed=2\nprocessor B speed=1\nedge A B cost=3\n",
                 STEADY_FORMAT_NATIVE);
    CU_ASSERT_EQUAL(steady_platform_comm_time(p, 0, 1e9), 3.0); /* size ignored */
    CU_ASSERT_EQUAL(steady_platform_task_time(p, 0, 1), 0.5);
    steady_platform_destroy(p);
}

/* The name index and the adjacency lists stay right through many inserts
 * (the hash table grows several times). */
static void test_many_nodes(void)
{
    enum { N = 5000 };
    steady_platform_t *p = fresh();
    char name[32];
    for (int v = 0; v < N; v++) {
        snprintf(name, sizeof name, "n%d", v);
        CU_ASSERT_EQUAL_FATAL(steady_platform_add_node(p, name, STEADY_PROCESSOR, 1, NULL, NULL),
                              STEADY_OK);
    }
    for (int v = 0; v < N; v++) {
        steady_edge_t e = {.src = v, .dst = (v + 1) % N, .bandwidth = 1};
        CU_ASSERT_EQUAL_FATAL(steady_platform_add_edge(p, &e, NULL, NULL), STEADY_OK);
        e.dst = (v + 7) % N;
        CU_ASSERT_EQUAL_FATAL(steady_platform_add_edge(p, &e, NULL, NULL), STEADY_OK);
    }
    int bad = 0;
    for (int v = 0; v < N; v++) {
        snprintf(name, sizeof name, "n%d", v);
        bad += steady_platform_find_node(p, name) != v;
        int nout, nin;
        const int *out = steady_platform_out_edges(p, v, &nout);
        const int *in = steady_platform_in_edges(p, v, &nin);
        bad += nout != 2 || nin != 2;
        bad += steady_platform_edge(p, out[0])->dst != (v + 1) % N;
        bad += steady_platform_edge(p, in[0])->dst != v;
        bad += steady_platform_find_edge(p, v, (v + 7) % N) != 2 * v + 1;
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_EQUAL(steady_platform_find_node(p, "n5000"), -1);
    CU_ASSERT_EQUAL(steady_platform_find_edge(p, 0, 2), -1);
    steady_platform_destroy(p);
}

static void test_sizes(void)
{
    double b = 0;
    steady_error_t err = {0};
    CU_ASSERT_EQUAL(steady_parse_size("1MiB", &b, &err), STEADY_OK);
    CU_ASSERT_EQUAL(b, 1048576.0);
    CU_ASSERT_EQUAL(steady_parse_size("4096", &b, &err), STEADY_OK);
    CU_ASSERT_EQUAL(b, 4096.0);
    CU_ASSERT_EQUAL(steady_parse_size("2.5kB", &b, &err), STEADY_OK);
    CU_ASSERT_EQUAL(b, 2500.0);
    CU_ASSERT_EQUAL(steady_parse_size("0", &b, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "message size must be positive (0)");
    CU_ASSERT_EQUAL(steady_parse_size("3 MB", &b, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg,
                           "unknown size unit (3 MB): use B, kB, MB, GB, KiB, MiB, GiB, or "
                           "no unit for bytes");
}

/* Two ranks no hop joins (steady_platform_unjoined): SimGrid's dogbone, in
 * which S1 and S2 reach each other only through C1; none around a switch,
 * whose paths join every two ranks; a router is a rank of its own. */
static void test_unjoined(void)
{
    static const struct {
        const char *text;
        const char *a, *b; /* NULL: none */
    } cases[] = {
        {"processor S1 speed=1\nprocessor C1 speed=1\nprocessor S2 speed=1\n"
         "link S1 C1 bandwidth=1e6\nlink S2 C1 bandwidth=1e6\n",
         "S1", "S2"},
        {"processor a speed=1\nprocessor b speed=1\nprocessor c speed=1\nswitch s\n"
         "link a s bandwidth=1e6\nlink b s bandwidth=1e6\nlink c s bandwidth=1e6\n",
         NULL, NULL},
        {"processor a speed=1\nprocessor b speed=1\nrouter r\n"
         "link a r bandwidth=1e6\nlink r b bandwidth=1e6\n",
         "a", "b"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        steady_platform_t *p = parse_ok(cases[i].text, STEADY_FORMAT_NATIVE);
        if (!p)
            continue;
        int a, b;
        CU_ASSERT_EQUAL(steady_platform_unjoined(p, &a, &b, NULL), STEADY_OK);
        if (!cases[i].a) {
            CU_ASSERT(a < 0 && b < 0);
        } else {
            CU_ASSERT(a == steady_platform_find_node(p, cases[i].a));
            CU_ASSERT(b == steady_platform_find_node(p, cases[i].b));
        }
        steady_platform_destroy(p);
    }
}

static void test_error_prefix(void)
{
    steady_error_t err = {0};
    steady_error_set(&err, STEADY_EPARSE, "bad (%d)", 3);
    steady_error_prefix(&err, "%s:%d: ", "f.plat", 7);
    CU_ASSERT_STRING_EQUAL(err.msg, "f.plat:7: bad (3)");
    CU_ASSERT_EQUAL(err.code, STEADY_EPARSE);
    char big[2000];
    memset(big, 'y', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    steady_error_set(&err, STEADY_EPARSE, "%s", big);
    steady_error_prefix(&err, "here: ");
    CU_ASSERT_EQUAL(strlen(err.msg), STEADY_ERROR_MSG_MAX - 1);
    CU_ASSERT_EQUAL(strncmp(err.msg, "here: yyy", 9), 0);
    CU_ASSERT_EQUAL(steady_err_exit_status(STEADY_EPARSE), 2);
    CU_ASSERT_EQUAL(steady_err_exit_status(STEADY_EIO), 1);
    CU_ASSERT_EQUAL(steady_err_exit_status(STEADY_OK), 0);
    CU_ASSERT_EQUAL(steady_error_set(NULL, STEADY_EINVAL, "x"), STEADY_EINVAL);
}

/* Whatever a message quotes, it stays one line of plain text. */
static void test_error_escape(void)
{
    char buf[64];
    CU_ASSERT_STRING_EQUAL(steady_error_escape(buf, sizeof buf, "a\nb\rc\td"), "a\\nb\\rc\\td");
    CU_ASSERT_STRING_EQUAL(steady_error_escape(buf, sizeof buf, "\x1b[2J\x01\x7f"),
                           "\\x1b[2J\\x01\\x7f");
    /* UTF-8 is kept, C1 controls and invalid bytes are not */
    CU_ASSERT_STRING_EQUAL(steady_error_escape(buf, sizeof buf, "caf\xc3\xa9 \xe2\x82\xac"),
                           "caf\xc3\xa9 \xe2\x82\xac");
    CU_ASSERT_STRING_EQUAL(steady_error_escape(buf, sizeof buf, "\xc2\x9b[1m"), "\\u009b[1m");
    CU_ASSERT_STRING_EQUAL(steady_error_escape(buf, sizeof buf, "\xff\xc3(\xed\xa0\x80"),
                           "\\xff\\xc3(\\xed\\xa0\\x80");
    CU_ASSERT_STRING_EQUAL(steady_error_escape(buf, sizeof buf, "back\\slash"), "back\\slash");
    /* cut before an escape, never inside one */
    CU_ASSERT_STRING_EQUAL(steady_error_escape(buf, 6, "abc\x1b"), "abc");
    CU_ASSERT_STRING_EQUAL(steady_error_escape(buf, 5, "ab\xe2\x82\xac"), "ab");
    /* the error record escapes its message and its prefix */
    steady_error_t err = {0};
    steady_error_set(&err, STEADY_EINVAL, "bad name (%s)", "x\ny");
    steady_error_prefix(&err, "%s:1: ", "odd\rfile");
    CU_ASSERT_STRING_EQUAL(err.msg, "odd\\rfile:1: bad name (x\\ny)");
}

/* The hash is kept once computed, and forgotten by whatever changes the
 * platform's text: after each change it is the hash of the platform read
 * from that text. */
static void test_hash_kept(void)
{
    steady_platform_t *p = parse_ok("processor A speed=1\nprocessor B speed=1\nlink A B cost=1\n",
                                    STEADY_FORMAT_NATIVE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    steady_edge_t e = {.src = 0, .dst = 2, .cost = 1, .ncross = 1,
                       .cross = &(steady_crossing_t){.channel = 0}};
    const char *text[] = {
        "processor A speed=1\nprocessor B speed=1\nlink A B cost=1\n",
        "processor A speed=1\nprocessor B speed=1\nprocessor C speed=1\nlink A B cost=1\n",
        "processor A speed=1\nprocessor B speed=1\nprocessor C speed=1\nchannel K cost=2\n"
        "link A B cost=1\n",
        "processor A speed=1\nprocessor B speed=1\nprocessor C speed=1\nchannel K cost=2\n"
        "link A B cost=1\nedge A C cost=1 crosses=K\n",
        "platform renamed\nprocessor A speed=1\nprocessor B speed=1\nprocessor C speed=1\n"
        "channel K cost=2\nlink A B cost=1\nedge A C cost=1 crosses=K\n"};
    uint64_t h = 0, again = 0, fresh = 0;
    for (int k = 0; k < 5; k++) {
        steady_err_t rc = k == 1   ? steady_platform_add_node(p, "C", STEADY_PROCESSOR, 1, NULL, NULL)
                          : k == 2 ? steady_platform_add_channel(
                                         p, &(steady_channel_t){.name = "K", .cost = 2}, NULL, NULL)
                          : k == 3 ? steady_platform_add_edge(p, &e, NULL, NULL)
                          : k == 4 ? steady_platform_set_name(p, "renamed", NULL)
                                   : STEADY_OK;
        CU_ASSERT_EQUAL(rc, STEADY_OK);
        uint64_t before = h;
        CU_ASSERT_EQUAL(steady_platform_hash(p, &h, NULL), STEADY_OK);
        CU_ASSERT_EQUAL(steady_platform_hash(p, &again, NULL), STEADY_OK);
        CU_ASSERT_EQUAL(h, again);
        if (k > 0)
            CU_ASSERT_NOT_EQUAL(h, before);
        steady_platform_t *q = parse_ok(text[k], STEADY_FORMAT_NATIVE);
        CU_ASSERT_PTR_NOT_NULL_FATAL(q);
        CU_ASSERT_EQUAL(steady_platform_hash(q, &fresh, NULL), STEADY_OK);
        CU_ASSERT_EQUAL(h, fresh);
        steady_platform_destroy(q);
    }
    steady_platform_destroy(p);
}

void suite_platform(void)
{
    static const CU_TestInfo tests[] = {{"node rules", test_node_rules},
                                        {"edge rules", test_edge_rules},
                                        {"whole-platform validation", test_validate},
                                        {"c(i,j) and w(i)", test_costs},
                                        {"name index and adjacency, 5000 nodes", test_many_nodes},
                                        {"message sizes", test_sizes},
                                        {"ranks no hop joins", test_unjoined},
                                        {"error records", test_error_prefix},
                                        {"one-line messages", test_error_escape},
                                        {"the hash, kept until a change", test_hash_kept},
                                        CU_TEST_INFO_NULL};
    add_suite("platform model", tests);
}
