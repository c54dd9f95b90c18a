/*
 * test_arborescence.c — broadcast solutions as weighted arborescences
 * (decompose/arborescence.c, through steady_trees_decompose): on the paper's
 * and hand-computed platforms the trees carry exactly TP, every tree is an
 * arborescence rooted at the source reaching every target, the weighted
 * edge use stays within n(e), and there are at most |E+| + 1 trees.  Each
 * property is re-checked here from the public accessors, independently of
 * the library's own check.  Plus the exact max flow on graphs whose value
 * is known, and the blocks the packing works in.
 */
#include <gmp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../../common/blocks.h"
#include "../../decompose/internal.h"
#include "steady/decompose.h"
#include "steady/lp.h"
#include "tests.h"

/* ---- the exact max flow ------------------------------------------------- */

/* Max flow of the graph given by (tail, head, capacity as a decimal
 * string) triples, compared with the expected decimal value. */
static void assert_maxflow(int n, int m, const int *tail, const int *head, const char *const *cap,
                           int s, int t, const char *want)
{
    mpz_t *c = malloc((size_t)m * sizeof *c);
    mpz_t v, w;
    mpz_inits(v, w, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    for (int e = 0; e < m; e++)
        mpz_init_set_str(c[e], cap[e], 10);
    mpz_set_str(w, want, 10);
    CU_ASSERT_TRUE(exact_maxflow(n, m, tail, head, (const mpz_t *)c, s, t, v));
    if (mpz_cmp(v, w) != 0)
        gmp_fprintf(stderr, "\n    max flow %Zd, want %Zd\n", v, w);
    CU_ASSERT(mpz_cmp(v, w) == 0);
    for (int e = 0; e < m; e++)
        mpz_clear(c[e]);
    mpz_clears(v, w, NULL);
    free(c);
}

static void test_maxflow(void)
{
    /* the textbook network (Cormen et al., Figure 26.1): 23, and 23 needs
     * flow pushed back along 2 -> 1 */
    int t1[] = {0, 0, 1, 2, 2, 3, 3, 4, 4}, h1[] = {1, 2, 3, 1, 4, 2, 5, 3, 5};
    const char *c1[] = {"16", "13", "12", "4", "14", "9", "20", "7", "4"};
    assert_maxflow(6, 9, t1, h1, c1, 0, 5, "23");
    /* the reverse direction: nothing enters 0 */
    assert_maxflow(6, 9, t1, h1, c1, 5, 0, "0");
    /* 1 -> 5: 12 directly into 3, plus nothing else leaves 1 */
    assert_maxflow(6, 9, t1, h1, c1, 1, 5, "12");

    /* s -> a -> t and s -> b -> t crossing through a -> b: the shortest
     * paths take 2, a greedy long path s-a-b-t would block it without the
     * residual arcs */
    int t2[] = {0, 0, 1, 1, 2}, h2[] = {1, 2, 2, 3, 3};
    const char *c2[] = {"1", "1", "1", "1", "1"};
    assert_maxflow(4, 5, t2, h2, c2, 0, 3, "2");

    /* capacities beyond 2^64, where doubles would round: two disjoint
     * paths with bottlenecks 2^100 + 1 and 3^70, one shared final edge of
     * 2^100 + 3^70 + 1 (not the bottleneck) */
    int t3[] = {0, 1, 0, 2, 3}, h3[] = {1, 3, 2, 3, 4};
    const char *c3[] = {"1267650600228229401496703205377",    /* 2^100 + 1 */
                        "5000000000000000000000000000000000", /* large */
                        "2503155504993241601315571986085849", /* 3^70 */
                        "2503155504993241601315571986085849",
                        "2504423155593470000000000000000000"}; /* > the sum */
    assert_maxflow(5, 5, t3, h3, c3, 0, 4, "2504423155593469830717068689291226");
    /* the shared edge one below the sum becomes the bottleneck */
    c3[4] = "2504423155593469830717068689291225";
    assert_maxflow(5, 5, t3, h3, c3, 0, 4, "2504423155593469830717068689291225");

    /* a pair of opposite edges (a platform link) and zero capacities */
    int t4[] = {0, 1, 1, 2}, h4[] = {1, 0, 2, 3};
    const char *c4[] = {"3", "5", "2", "0"};
    assert_maxflow(4, 4, t4, h4, c4, 0, 2, "2");
    assert_maxflow(4, 4, t4, h4, c4, 0, 3, "0");
    assert_maxflow(4, 4, t4, h4, c4, 1, 0, "5");
}

/* ---- broadcast arborescences ------------------------------------------ */

/* Re-checks trees against s from the public accessors: every tree a list
 * of SEND steps of type 0, each edge leaving a node already reached and
 * entering a new one (an arborescence rooted at the source, in order),
 * reaching every target (every node when the solution is not a bound);
 * positive weights; the weighted use of every edge within n(e); at most
 * |E+| + 1 trees (E+: edges with n(e) > 0 not entering the source).  The
 * total weight goes to *total.  Returns the number of violations. */
static int violations(const steady_solution_t *s, const steady_trees_t *t, mpq_t total)
{
    const steady_platform_t *p = steady_solution_platform(s);
    int nv = steady_platform_node_count(p), ne = steady_platform_edge_count(p), ns, nt, bad = 0;
    int src = steady_solution_sources(s, &ns)[0];
    const int *tg = steady_solution_targets(s, &nt);
    bool *reached = calloc((size_t)nv, sizeof *reached);
    mpq_t *use = malloc((size_t)ne * sizeof *use);
    mpq_t n;
    mpq_init(n);
    mpq_set_ui(total, 0, 1);
    for (int e = 0; e < ne; e++)
        mpq_init(use[e]);
    for (int i = 0; i < t->ntrees; i++) {
        const steady_tree_t *tr = &t->trees[i];
        bad += mpq_sgn(tr->weight) <= 0;
        memset(reached, 0, (size_t)nv * sizeof *reached);
        reached[src] = true;
        for (int j = 0; j < tr->nsteps; j++) {
            const steady_step_t *st = &tr->steps[j];
            if (st->kind != STEADY_STEP_SEND || st->type != 0 || st->edge < 0 || st->edge >= ne) {
                bad++;
                continue;
            }
            const steady_edge_t *ed = steady_platform_edge(p, st->edge);
            bad += !reached[ed->src] || reached[ed->dst];
            reached[ed->dst] = true;
            mpq_add(use[st->edge], use[st->edge], tr->weight);
        }
        for (int k = 0; k < nt; k++)
            bad += !reached[tg[k]];
        if (!steady_solution_is_bound(s))
            for (int v = 0; v < nv; v++)
                bad += !reached[v];
        mpq_add(total, total, tr->weight);
    }
    int eplus = 0;
    for (int e = 0; e < ne; e++) {
        steady_solution_send(s, e, 0, n);
        bad += mpq_cmp(use[e], n) > 0;
        eplus += mpq_sgn(n) > 0 && steady_platform_edge(p, e)->dst != src;
        mpq_clear(use[e]);
    }
    if (!steady_solution_is_bound(s) && t->ntrees > eplus + 1) {
        fprintf(stderr, "\n    %d trees, |E+| = %d\n", t->ntrees, eplus);
        bad++;
    }
    mpq_clear(n);
    free(use);
    free(reached);
    return bad;
}

/* Decomposes the broadcast from `source` to every other node, routers
 * included (Edmonds' theorem needs every rank a target); the trees must
 * pass violations() and carry exactly TP, which must be num/den when
 * den > 0.  Returns the number of trees. */
static int assert_broadcast(const steady_platform_t *p, int source, long num, unsigned long den)
{
    int nv = steady_platform_node_count(p), nt = 0;
    int *targets = malloc((size_t)nv * sizeof *targets);
    for (int v = 0; v < nv; v++)
        if (v != source)
            targets[nt++] = v;
    steady_solution_t *s = solve_ok(
        p, (steady_problem_t){
               .op = STEADY_OP_BROADCAST, .source = source, .targets = targets, .ntargets = nt});
    free(targets);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_FALSE(steady_solution_is_bound(s));
    steady_trees_t *t = trees_ok(s);
    int ntrees = t ? t->ntrees : -1;
    mpq_t tp, total, want;
    mpq_inits(tp, total, want, NULL);
    steady_solution_throughput(s, tp);
    if (den > 0) {
        mpq_set_si(want, num, den);
        mpq_canonicalize(want);
        if (!mpq_equal(tp, want))
            gmp_fprintf(stderr, "\n    TP = %Qd, want %Qd\n", tp, want);
        CU_ASSERT(mpq_equal(tp, want));
    }
    if (t) {
        CU_ASSERT_EQUAL(violations(s, t, total), 0);
        if (!mpq_equal(total, tp))
            gmp_fprintf(stderr, "\n    %s from %d: trees carry %Qd, TP = %Qd\n",
                        steady_platform_name(p), source, total, tp);
        CU_ASSERT(mpq_equal(total, tp));
    }
    mpq_clears(tp, total, want, NULL);
    steady_trees_destroy(t);
    steady_solution_destroy(s);
    return ntrees;
}

static steady_platform_t *read_example(const char *path)
{
    steady_platform_t *p = NULL;
    steady_error_t err = {0};
    if (steady_platform_read(path, STEADY_FORMAT_AUTO, &p, NULL, &err))
        fprintf(stderr, "\n    cannot read %s: %s\n", path, err.msg);
    return p;
}

/* Five unit-cost processors, all pairs linked: TP = 1/c = 1. */
static void test_homogeneous(void)
{
    steady_platform_t *p = read_example("examples/platforms/homogeneous-complete.plat");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    assert_broadcast(p, 0, 1, 1);
    assert_broadcast(p, 3, 1, 1);
    steady_platform_destroy(p);
}

/* The paper's three processors joined by unit links: P0 must send each
 * message at least once, and P1 and P2 can forward to each other, so TP =
 * 1 (e.g. P0->P1->P2 and P0->P2->P1, 1/2 each). */
static void test_paper_triangle(void)
{
    steady_platform_t *p = parse_ok("processor P0 speed=2\nprocessor P1 speed=1\n"
                                    "processor P2 speed=1\nlink P0 P1 cost=1\nlink P0 P2 cost=1\n"
                                    "link P1 P2 cost=1\n",
                                    STEADY_FORMAT_NATIVE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    assert_broadcast(p, 0, 1, 1);
    assert_broadcast(p, 2, 1, 1);
    steady_platform_destroy(p);
}

/* A one-way chain pipelines at 1: one tree, the chain itself, in order. */
static void test_chain(void)
{
    steady_platform_t *p = parse_ok("processor A speed=1\nprocessor B speed=1\n"
                                    "processor C speed=1\nprocessor D speed=1\n"
                                    "edge A B cost=1\nedge B C cost=1\nedge C D cost=1\n",
                                    STEADY_FORMAT_NATIVE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    steady_solution_t *s = solve_ok(p, (steady_problem_t){.op = STEADY_OP_BROADCAST, .source = 0});
    steady_trees_t *t = trees_ok(s);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL_FATAL(t->ntrees, 1);
    CU_ASSERT(mpq_cmp_ui(t->trees[0].weight, 1, 1) == 0);
    CU_ASSERT_EQUAL_FATAL(t->trees[0].nsteps, 3);
    for (int j = 0; j < 3; j++) /* A->B, B->C, C->D: edges 0, 1, 2 */
        CU_ASSERT_EQUAL(t->trees[0].steps[j].edge, j);
    steady_trees_destroy(t);
    steady_solution_destroy(s);
    steady_platform_destroy(p);
}

/* A star of costs 1, 2, 3: the source sends every message to each leaf
 * itself, TP = 1/6, one tree of three sends. */
static void test_star(void)
{
    steady_platform_t *p = parse_ok("processor S speed=1\nprocessor A speed=1\n"
                                    "processor B speed=1\nprocessor C speed=1\n"
                                    "link S A cost=1\nlink S B cost=2\nlink S C cost=3\n",
                                    STEADY_FORMAT_NATIVE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_EQUAL(assert_broadcast(p, 0, 1, 6), 1);
    /* from a leaf, everything goes through S: S forwards each message to
     * two leaves at cost 1 + 2 (from C) -> TP = 1/3, still one tree */
    CU_ASSERT_EQUAL(assert_broadcast(p, 3, 1, 3), 1);
    steady_platform_destroy(p);
}

/* Routers are targets by default: the trees span them too, and carry TP. */
static void test_routers(void)
{
    const char *files[] = {"examples/platforms/two-cluster-grid.plat",
                           "examples/platforms/tiers.plat"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        steady_platform_t *p = read_example(files[i]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        int n = steady_platform_node_count(p);
        for (int src = 0; src < n; src += 3)
            if (steady_platform_node(p, src)->kind == STEADY_PROCESSOR)
                assert_broadcast(p, src, 0, 0);
        steady_platform_destroy(p);
    }
}

/* Random heterogeneous platforms of 4 to 12 processors, several sources. */
static void test_random(void)
{
    for (int nodes = 4; nodes <= 12; nodes += 2)
        for (uint64_t seed = 1; seed <= 3; seed++) {
            steady_platform_t *p = NULL;
            CU_ASSERT_EQUAL_FATAL(
                steady_platform_generate(STEADY_GEN_RANDOM, nodes, seed, &p, NULL), 0);
            assert_broadcast(p, 0, 0, 0);
            assert_broadcast(p, nodes / 2, 0, 0);
            assert_broadcast(p, nodes - 1, 0, 0);
            steady_platform_destroy(p);
        }
    /* a larger one, where a tree's maximal weight (c(δin X) - k) / (m_X - 1)
     * is not an integer in the current scale, so the packing rescales */
    steady_platform_t *p = NULL;
    CU_ASSERT_EQUAL_FATAL(steady_platform_generate(STEADY_GEN_RANDOM, 24, 3, &p, NULL), 0);
    assert_broadcast(p, 0, 0, 0);
    steady_platform_destroy(p);
}

/* Same solution, same trees. */
static void test_deterministic(void)
{
    steady_platform_t *p = NULL;
    CU_ASSERT_EQUAL_FATAL(steady_platform_generate(STEADY_GEN_RANDOM, 9, 7, &p, NULL), 0);
    steady_solution_t *s = solve_ok(p, (steady_problem_t){.op = STEADY_OP_BROADCAST, .source = 2});
    steady_trees_t *a = trees_ok(s), *b = trees_ok(s);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_EQUAL_FATAL(a->ntrees, b->ntrees);
    for (int i = 0; i < a->ntrees; i++) {
        CU_ASSERT(mpq_equal(a->trees[i].weight, b->trees[i].weight));
        CU_ASSERT_EQUAL_FATAL(a->trees[i].nsteps, b->trees[i].nsteps);
        for (int j = 0; j < a->trees[i].nsteps; j++)
            CU_ASSERT_EQUAL(a->trees[i].steps[j].edge, b->trees[i].steps[j].edge);
    }
    steady_trees_destroy(a);
    steady_trees_destroy(b);
    steady_solution_destroy(s);
    steady_platform_destroy(p);
}

/* The blocks of a graph seen from node 0: the triangle 0 1 2, the bridge
 * 2 -> 3, the triangle 3 4 5 (arcs both ways) and 1 -> 6, with 7 alone
 * and a loop on 4. */
static void test_blocks(void)
{
    /*                 triangle 0 1 2       bridge  triangle 3 4 5       1->6  loop */
    const int tail[] = {0, 1, 1, 2, 2, 0, 2, 3, 4, 4, 5, 5, 3, 1, 4};
    const int head[] = {1, 0, 2, 1, 0, 2, 3, 4, 3, 5, 4, 3, 5, 6, 4};
    int m = (int)(sizeof tail / sizeof *tail);
    blocks_t b;
    CU_ASSERT_TRUE_FATAL(blocks_find(8, m, tail, head, 0, &b));
    CU_ASSERT_EQUAL(b.nblocks, 4);
    int t1 = b.arc_block[0], bridge = b.arc_block[6], t2 = b.arc_block[7], leaf = b.arc_block[13];
    for (int a = 0; a < 6; a++)
        CU_ASSERT_EQUAL(b.arc_block[a], t1);
    for (int a = 7; a < 13; a++)
        CU_ASSERT_EQUAL(b.arc_block[a], t2);
    CU_ASSERT(t1 != bridge && t1 != t2 && t1 != leaf && bridge != t2 && bridge != leaf &&
              t2 != leaf);
    CU_ASSERT_EQUAL(b.arc_block[14], -1); /* the loop */
    CU_ASSERT_EQUAL(b.entry[t1], 0);
    CU_ASSERT_EQUAL(b.entry[bridge], 2);
    CU_ASSERT_EQUAL(b.entry[t2], 3);
    CU_ASSERT_EQUAL(b.entry[leaf], 1);
    int want[] = {-1, t1, t1, bridge, t2, t2, leaf, -1};
    for (int v = 0; v < 8; v++)
        CU_ASSERT_EQUAL(b.node_block[v], want[v]);
    blocks_free(&b);
}

/* Two unit triangles joined at P2, one link of the second one slower
 * (TP = 3/4 from P0, 2/3 from P4): each block is packed on its own and
 * their trees are put together, still carrying exactly TP within n(e). */
static void test_joined_blocks(void)
{
    steady_platform_t *p = parse_ok("processor P0 speed=1\nprocessor P1 speed=1\n"
                                    "processor P2 speed=1\nprocessor P3 speed=1\n"
                                    "processor P4 speed=1\nlink P0 P1 cost=1\n"
                                    "link P0 P2 cost=1\nlink P1 P2 cost=1\nlink P2 P3 cost=1\n"
                                    "link P2 P4 cost=1\nlink P3 P4 cost=2\n",
                                    STEADY_FORMAT_NATIVE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT(assert_broadcast(p, 0, 3, 4) >= 2);
    CU_ASSERT(assert_broadcast(p, 4, 2, 3) >= 2);
    steady_platform_destroy(p);
}

/* A multicast (targets a strict subset): trees reaching every target, the
 * total at most the LP bound, within n(e).  Returns the total in total. */
static void assert_multicast(const steady_platform_t *p, int source, const int *targets,
                             int ntargets, mpq_t total)
{
    steady_solution_t *s = solve_ok(p, (steady_problem_t){.op = STEADY_OP_BROADCAST,
                                                          .source = source,
                                                          .targets = targets,
                                                          .ntargets = ntargets});
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_TRUE(steady_solution_is_bound(s));
    steady_trees_t *t = trees_ok(s);
    mpq_set_ui(total, 0, 1);
    if (t) {
        mpq_t tp;
        mpq_init(tp);
        steady_solution_throughput(s, tp);
        CU_ASSERT_EQUAL(violations(s, t, total), 0);
        CU_ASSERT(mpq_cmp(total, tp) <= 0);
        CU_ASSERT(mpq_sgn(total) > 0);
        mpq_clear(tp);
    }
    steady_trees_destroy(t);
    steady_solution_destroy(s);
}

static void test_multicast(void)
{
    mpq_t total, want;
    mpq_inits(total, want, NULL);
    /* one target behind two router paths of costs (1, 2) and (2, 1): the
     * bound 2/3 is reached by the two paths, 1/3 each */
    steady_platform_t *p = parse_ok("processor S speed=1\nrouter A\nrouter B\n"
                                    "processor T speed=1\nedge S A cost=1\nedge A T cost=2\n"
                                    "edge S B cost=2\nedge B T cost=1\n",
                                    STEADY_FORMAT_NATIVE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    assert_multicast(p, 0, (int[]){3}, 1, total);
    mpq_set_ui(want, 2, 3);
    CU_ASSERT(mpq_equal(total, want));
    steady_platform_destroy(p);

    /* the two-cluster grid from a0 to the B cluster only: everything
     * crosses the 10 MB/s WAN link once, so the bound is reached */
    p = read_example("examples/platforms/two-cluster-grid.plat");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    int tg[] = {4, 5, 6, 7};
    assert_multicast(p, 0, tg, 4, total);
    steady_solution_t *s = solve_ok(
        p,
        (steady_problem_t){.op = STEADY_OP_BROADCAST, .source = 0, .targets = tg, .ntargets = 4});
    steady_solution_throughput(s, want);
    CU_ASSERT(mpq_equal(total, want));
    steady_solution_destroy(s);
    steady_platform_destroy(p);

    /* random platforms, the odd-numbered processors as targets; (11, 1)
     * is a case where no arc keeps every target's connectivity and the
     * greedy packing falls back to a bottleneck weight (and ends a little
     * below TP), (16, 2) one with a fractional tree weight */
    const struct {
        int nodes;
        uint64_t seed;
    } cases[] = {{10, 1}, {10, 2}, {10, 3}, {10, 4}, {11, 1}, {16, 2}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        p = NULL;
        CU_ASSERT_EQUAL_FATAL(
            steady_platform_generate(STEADY_GEN_RANDOM, cases[i].nodes, cases[i].seed, &p, NULL),
            0);
        int sub[8], ns = 0;
        for (int v = 1; v < cases[i].nodes; v += 2)
            sub[ns++] = v;
        assert_multicast(p, 0, sub, ns, total);
        steady_platform_destroy(p);
    }
    mpq_clears(total, want, NULL);
}

void suite_arborescence(void)
{
    static const CU_TestInfo tests[] = {
        {"exact max flow: known values, big capacities", test_maxflow},
        {"homogeneous complete graph: TP = 1", test_homogeneous},
        {"paper's triangle: TP = 1", test_paper_triangle},
        {"chain: one tree, in order", test_chain},
        {"star: one tree", test_star},
        {"routers are spanned, total = TP", test_routers},
        {"random platforms, several sources", test_random},
        {"deterministic", test_deterministic},
        {"multicast: trees reach the targets, total <= TP", test_multicast},
        {"blocks of a graph: arcs, entries, nodes", test_blocks},
        {"blocks packed apart and put together: total = TP", test_joined_blocks},
        CU_TEST_INFO_NULL};
    add_suite("broadcast arborescences", tests);
}
