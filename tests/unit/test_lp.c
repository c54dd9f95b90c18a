/*
 * test_lp.c — the steady-state LPs: throughputs from the paper and from hand
 * derivations, checked as exact fractions; every solution re-checked against
 * the constraints through the public accessors (independently of the exact
 * recovery's own check); problem errors.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../lp/internal.h"
#include "steady/decompose.h"
#include "steady/lp.h"
#include "tests.h"

/* in - out of type t at v, over the edges */
static void net_inflow(const steady_solution_t *s, int v, int t, mpq_t net)
{
    const steady_platform_t *p = steady_solution_platform(s);
    mpq_t r;
    mpq_init(r);
    mpq_set_ui(net, 0, 1);
    for (int e = 0; e < steady_platform_edge_count(p); e++) {
        const steady_edge_t *ed = steady_platform_edge(p, e);
        if (ed->dst != v && ed->src != v)
            continue;
        steady_solution_send(s, e, t, r);
        if (ed->dst == v)
            mpq_add(net, net, r);
        else
            mpq_sub(net, net, r);
    }
    mpq_clear(r);
}

/* Exact maximum flow from s to t under the capacities n(e) of a
 * broadcast (Edmonds-Karp in rationals, on the edges and their reverses):
 * the cut formulation keeps no per-target flow, so each target's is
 * recomputed here. */
static void max_flow_n(const steady_solution_t *s, int src, int dst, mpq_t value)
{
    const steady_platform_t *p = steady_solution_platform(s);
    int ne = steady_platform_edge_count(p), nv = steady_platform_node_count(p);
    mpq_t *res = malloc((size_t)(2 * ne + 1) * sizeof *res); /* 2e: e forward, 2e+1 back */
    int *pred = malloc((size_t)nv * sizeof *pred), *queue = malloc((size_t)nv * sizeof *queue);
    mpq_t b;
    mpq_init(b);
    for (int e = 0; e < ne; e++) {
        mpq_inits(res[2 * e], res[2 * e + 1], NULL);
        steady_solution_send(s, e, 0, res[2 * e]);
    }
    mpq_set_ui(value, 0, 1);
    for (;;) {
        for (int v = 0; v < nv; v++)
            pred[v] = -1;
        int qh = 0, qt = 0;
        queue[qt++] = src;
        pred[src] = 2 * ne;
        while (qh < qt && pred[dst] < 0) {
            int u = queue[qh++];
            for (int a = 0; a < 2 * ne; a++) {
                const steady_edge_t *ed = steady_platform_edge(p, a / 2);
                int from = a % 2 ? ed->dst : ed->src, to = a % 2 ? ed->src : ed->dst;
                if (from == u && pred[to] < 0 && mpq_sgn(res[a]) > 0) {
                    pred[to] = a;
                    queue[qt++] = to;
                }
            }
        }
        if (pred[dst] < 0)
            break;
        int first = 1;
        for (int v = dst; v != src;) {
            int a = pred[v];
            if (first || mpq_cmp(res[a], b) < 0)
                mpq_set(b, res[a]);
            first = 0;
            const steady_edge_t *ed = steady_platform_edge(p, a / 2);
            v = a % 2 ? ed->dst : ed->src;
        }
        for (int v = dst; v != src;) {
            int a = pred[v];
            mpq_sub(res[a], res[a], b);
            mpq_add(res[a ^ 1], res[a ^ 1], b);
            const steady_edge_t *ed = steady_platform_edge(p, a / 2);
            v = a % 2 ? ed->dst : ed->src;
        }
        mpq_add(value, value, b);
    }
    for (int e = 0; e < 2 * ne; e++)
        mpq_clear(res[e]);
    mpq_clear(b);
    free(res);
    free(pred);
    free(queue);
}

/* Re-checks a solution against docs/linear-programs.md with the public
 * accessors only: one-port limits, non-negative rates, conservation and the
 * throughput at each destination.  Returns the number of violations. */
static int violations(const steady_solution_t *s)
{
    const steady_platform_t *p = steady_solution_platform(s);
    int bad = 0, nv = steady_platform_node_count(p), ns, nt;
    const int *src = steady_solution_sources(s, &ns);
    const int *dst = steady_solution_targets(s, &nt);
    mpq_t tp, a, b, c;
    mpq_inits(tp, a, b, c, NULL);
    steady_solution_throughput(s, tp);
    for (int v = 0; v < nv; v++) {
        steady_solution_node_busy(s, v, a, b, c);
        bad += mpq_cmp_ui(a, 1, 1) > 0 || mpq_cmp_ui(b, 1, 1) > 0 || mpq_cmp_ui(c, 1, 1) > 0;
    }
    for (int e = 0; e < steady_platform_edge_count(p); e++)
        for (int t = 0; t < steady_solution_type_count(s); t++) {
            steady_solution_send(s, e, t, a);
            bad += mpq_sgn(a) < 0;
        }
    steady_op_t op = steady_solution_op(s);
    if (op == STEADY_OP_SCATTER || op == STEADY_OP_GOSSIP) {
        for (int t = 0; t < steady_solution_type_count(s); t++) {
            int o, d;
            steady_solution_type_ends(s, t, &o, &d);
            if (o < 0)
                o = src[0];
            for (int v = 0; v < nv; v++) {
                net_inflow(s, v, t, a);
                if (v == d)
                    bad += !mpq_equal(a, tp);
                else if (v == o)
                    bad += mpq_sgn(a) > 0;
                else
                    bad += mpq_sgn(a) != 0;
            }
        }
    } else if (op == STEADY_OP_BROADCAST && !steady_solution_has_flows(s)) {
        for (int k = 0; k < nt; k++) { /* max-flow min-cut: each target gets TP under n */
            max_flow_n(s, src[0], dst[k], a);
            bad += mpq_cmp(a, tp) < 0;
        }
    } else if (op == STEADY_OP_BROADCAST) {
        for (int k = 0; k < nt; k++)
            for (int v = 0; v < nv; v++) {
                mpq_set_ui(a, 0, 1);
                for (int e = 0; e < steady_platform_edge_count(p); e++) {
                    const steady_edge_t *ed = steady_platform_edge(p, e);
                    steady_solution_flow(s, e, k, b);
                    steady_solution_send(s, e, 0, c);
                    bad += mpq_cmp(b, c) > 0; /* x(e,k) <= n(e) */
                    if (ed->dst == v)
                        mpq_add(a, a, b);
                    if (ed->src == v)
                        mpq_sub(a, a, b);
                }
                if (v == dst[k])
                    bad += !mpq_equal(a, tp);
                else if (v != src[0])
                    bad += mpq_sgn(a) != 0;
            }
    } else { /* reduce: eq. (10) and (11) */
        int N = ns;
        for (int t = 0; t < steady_solution_type_count(s); t++) {
            int k, m;
            steady_solution_type_ends(s, t, &k, &m);
            for (int v = 0; v < nv; v++) {
                net_inflow(s, v, t, a);
                for (int q = 0; q < steady_solution_task_count(s); q++) {
                    int tk, tl, tm;
                    steady_solution_task(s, q, &tk, &tl, &tm);
                    steady_solution_cons(s, v, q, b);
                    if (tk == k && tm == m)
                        mpq_add(a, a, b);
                    if ((tk == k && tl == m) || (tl == k - 1 && tm == m))
                        mpq_sub(a, a, b);
                }
                if (k == m && v == src[k])
                    bad += mpq_sgn(a) > 0;
                else if (v == dst[0] && k == 0 && m == N - 1)
                    bad += !mpq_equal(a, tp);
                else
                    bad += mpq_sgn(a) != 0;
            }
        }
    }
    mpq_clears(tp, a, b, c, NULL);
    return bad;
}

/* TP must be exactly num/den, and the solution must pass violations(). */
static void assert_tp(steady_solution_t *s, long num, unsigned long den)
{
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    mpq_t tp, want;
    mpq_inits(tp, want, NULL);
    steady_solution_throughput(s, tp);
    mpq_set_si(want, num, den);
    mpq_canonicalize(want);
    if (!mpq_equal(tp, want))
        gmp_fprintf(stderr, "\n    TP = %Qd, want %Qd\n", tp, want);
    CU_ASSERT(mpq_equal(tp, want));
    CU_ASSERT_TRUE(steady_solution_is_exact(s));
    CU_ASSERT_EQUAL(violations(s), 0);
    mpq_clears(tp, want, NULL);
    steady_solution_destroy(s);
}

/* The paper's Figure 6: TP = 1 with v0 ⊕ v1 ⊕ v2 reduced to P0. */
static void test_paper_reduce(void)
{
    steady_platform_t *p = parse_ok(paper_reduce_text, STEADY_FORMAT_NATIVE);
    int parts[] = {0, 1, 2};
    steady_problem_t prob = {.op = STEADY_OP_REDUCE,
                             .participants = parts,
                             .nparticipants = 3,
                             .target = 0,
                             .task_cost = 1};
    steady_solution_t *s = solve_ok(p, prob);
    CU_ASSERT_EQUAL(steady_solution_type_count(s), 6);
    CU_ASSERT_EQUAL(steady_solution_task_count(s), 4);
    assert_tp(s, 1, 1);
    /* the default task cost on an abstract platform is 1 as well */
    prob.task_cost = 0;
    assert_tp(solve_ok(p, prob), 1, 1);
    /* tasks of cost 2: an operation needs 2 tasks = 4 work, the CPUs offer
     * 2 + 1 + 1 = 4 work per time unit, so the CPUs allow TP = 1 as well */
    prob.task_cost = 2;
    assert_tp(solve_ok(p, prob), 1, 1);
    /* with tasks of cost 4 the compute capacity binds: 2 tasks of 4 work per
     * operation on 4 work per time unit in all -> TP = 1/2 */
    prob.task_cost = 4;
    assert_tp(solve_ok(p, prob), 1, 2);
    /* the same three by reduction trees (lp/treegen.c) */
    long cost[] = {1, 2, 4}, den[] = {1, 1, 2};
    for (int i = 0; i < 3; i++) {
        prob.task_cost = (double)cost[i];
        s = solve_formulation_ok(p, prob, STEADY_FORMULATION_COMPACT);
        CU_ASSERT_PTR_NOT_NULL_FATAL(s);
        CU_ASSERT_EQUAL(steady_solution_formulation(s), STEADY_FORMULATION_TREES);
        assert_tp(s, 1, (unsigned long)den[i]);
    }
    steady_platform_destroy(p);
}

static void test_homogeneous(void)
{
    steady_platform_t *p = read_ok("examples/platforms/homogeneous-complete.plat");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    /* scatter: the source's send port carries 4 messages per operation */
    assert_tp(solve_ok(p, (steady_problem_t){.op = STEADY_OP_SCATTER, .source = 0}), 1, 4);
    /* broadcast on a complete graph of cost c: 1/c */
    assert_tp(solve_ok(p, (steady_problem_t){.op = STEADY_OP_BROADCAST, .source = 2}), 1, 1);
    /* all-to-all: every node sends 4 of its own messages per operation */
    assert_tp(solve_ok(p, (steady_problem_t){.op = STEADY_OP_GOSSIP}), 1, 4);
    /* reduce of 5: the target receives at least one message per operation
     * and the 4 tasks (4 work) spread over 5 unit-speed processors: TP = 1 */
    assert_tp(solve_ok(p, (steady_problem_t){.op = STEADY_OP_REDUCE, .target = 0}), 1, 1);
    steady_platform_destroy(p);
}

/* x's nonzero (edge, type) and (node, task) rates on p (none when x is
 * NULL). */
static void rates_of(const steady_platform_t *p, const steady_solution_t *x, int *sends, int *tasks)
{
    *sends = *tasks = 0;
    mpq_t r;
    mpq_init(r);
    for (int e = 0; x && e < steady_platform_edge_count(p); e++)
        for (int t = 0; t < steady_solution_type_count(x); t++) {
            steady_solution_send(x, e, t, r);
            *sends += mpq_sgn(r) != 0;
        }
    for (int v = 0; x && v < steady_platform_node_count(p); v++)
        for (int q = 0; q < steady_solution_task_count(x); q++) {
            steady_solution_cons(x, v, q, r);
            *tasks += mpq_sgn(r) != 0;
        }
    mpq_clear(r);
}

/* steady_lp_single_tree of prob on p: the chain's solution (NULL when
 * none is offered), with *sends and *tasks its nonzero rates. */
static steady_solution_t *single_of(const steady_platform_t *p, steady_problem_t prob, int *sends,
                                    int *tasks)
{
    steady_solution_t *s = solve_ok(p, prob), *one = NULL;
    steady_error_t err = {0};
    CU_ASSERT_EQUAL(steady_lp_single_tree(s, &one, &err), STEADY_OK);
    steady_solution_destroy(s);
    rates_of(p, one, sends, tasks);
    return one;
}

/* steady_lp_broadcast_trees of a broadcast from P0 on p with the trees
 * parent[t][v] (5 nodes): the solution (NULL when none), *sends its
 * nonzero (edge, type) rates. */
static steady_solution_t *trees_of(const steady_platform_t *p, int ntrees, const int (*parent)[5],
                                   int *sends)
{
    steady_solution_t *s = solve_ok(p, (steady_problem_t){.op = STEADY_OP_BROADCAST}), *x = NULL;
    steady_error_t err = {0};
    const int *trees[2] = {parent[0], parent[ntrees > 1]};
    CU_ASSERT_EQUAL(steady_lp_broadcast_trees(s, ntrees, trees, &x, &err), STEADY_OK);
    steady_solution_destroy(s);
    int tasks;
    rates_of(p, x, sends, &tasks);
    return x;
}

/* Two trees of a broadcast from P0 on the complete graph of 5 (unit
 * costs), each carrying half of the throughput. */
static void test_broadcast_trees(void)
{
    steady_platform_t *p = read_ok("examples/platforms/homogeneous-complete.plat");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    int sends;
    /* P0 -> P1 -> P2 -> P3 -> P4 and P0 -> P1 -> P3 -> P2 -> P4: P0 -> P1
     * in both, every rank sends and receives one message per operation in
     * all: TP = 1, the optimum, over 7 edges */
    const int share[2][5] = {{-1, 0, 1, 2, 3}, {-1, 0, 3, 1, 2}};
    assert_tp(trees_of(p, 2, share, &sends), 1, 1);
    CU_ASSERT_EQUAL(sends, 7);
    /* P1 parent of P2, P3, P4 in one, P2 of P1, P3, P4 in the other: each
     * sends 3 messages of half an operation: TP = 2/3 */
    const int stars[2][5] = {{-1, 0, 1, 1, 1}, {-1, 2, 0, 2, 2}};
    assert_tp(trees_of(p, 2, stars, &sends), 2, 3);
    CU_ASSERT_EQUAL(sends, 8);
    /* one tree, the chain: TP = 1 */
    assert_tp(trees_of(p, 1, share, &sends), 1, 1);
    CU_ASSERT_EQUAL(sends, 4);
    /* a rank left out, a cycle away from the source: none */
    const int out[2][5] = {{-1, 0, 1, 2, -1}, {-1, 0, 3, 1, 2}};
    CU_ASSERT_PTR_NULL(trees_of(p, 2, out, &sends));
    const int cycle[2][5] = {{-1, 0, 1, 4, 3}, {-1, 0, 3, 1, 2}};
    CU_ASSERT_PTR_NULL(trees_of(p, 2, cycle, &sends));
    steady_platform_destroy(p);
    /* a star from S: no hop between two leaves */
    p = parse_ok("processor S speed=1\nprocessor A speed=1\nprocessor B speed=1\n"
                 "processor C speed=1\nprocessor D speed=1\n"
                 "link S A cost=1\nlink S B cost=1\nlink S C cost=1\nlink S D cost=1\n",
                 STEADY_FORMAT_NATIVE);
    CU_ASSERT_PTR_NULL(trees_of(p, 2, share, &sends));
    const int flat[2][5] = {{-1, 0, 0, 0, 0}, {-1, 0, 0, 0, 0}};
    assert_tp(trees_of(p, 2, flat, &sends), 1, 4); /* S sends 4 per operation */
    CU_ASSERT_EQUAL(sends, 4);
    steady_platform_destroy(p);
}

/* steady_lp_reduce_trees of prob on p: the two trees' solution (NULL when
 * none), *sends and *tasks its nonzero rates, *height their height. */
static steady_solution_t *reduce_trees_of(const steady_platform_t *p, steady_problem_t prob,
                                          int *sends, int *tasks, int *height)
{
    steady_solution_t *s = solve_ok(p, prob), *x = NULL;
    steady_error_t err = {0};
    CU_ASSERT_EQUAL(steady_lp_reduce_trees(s, &x, height, &err), STEADY_OK);
    steady_solution_destroy(s);
    rates_of(p, x, sends, tasks);
    return x;
}

/* A reduce's two in-order trees on the complete graph of 5 (unit costs,
 * unit tasks unless said), each carrying half of the throughput. */
static void test_reduce_pair(void)
{
    steady_platform_t *p = read_ok("examples/platforms/homogeneous-complete.plat");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    int sends, tasks, height;
    /* to P0, over P1 .. P4 (positions 1 .. 4): the first tree's root is
     * P4 (4 has the most trailing zeros), over P2, over P1 and P3; the
     * second's P3 (3 + 1 = 4), over P1 (over P2) and P4.  P1 .. P4 send
     * one message per operation, P0 receives one, P2 two per operation of
     * the first tree and P3 of the second; P2 computes v[1,2] and v[1,3] in
     * the first, P3 v[1,3] and v[1,4] in the second, P0 v[0,4] in both:
     * TP = 1, the optimum, over 8 transfers and 7 (node, task) pairs; the
     * leaves P1, P3, P2 are 3 hops from P0 */
    steady_problem_t prob = {.op = STEADY_OP_REDUCE, .target = 0};
    assert_tp(reduce_trees_of(p, prob, &sends, &tasks, &height), 1, 1);
    CU_ASSERT_EQUAL(sends, 8);
    CU_ASSERT_EQUAL(tasks, 7);
    CU_ASSERT_EQUAL(height, 3);
    /* tasks of cost 4: P0 computes one per operation, P2 two per
     * operation of the first tree: TP = 1/4, below the optimum 5/16 */
    prob.task_cost = 4;
    assert_tp(solve_ok(p, prob), 5, 16);
    assert_tp(reduce_trees_of(p, prob, &sends, &tasks, &height), 1, 4);
    /* to P4, over P0 .. P3, the mirror image: TP = 1 */
    prob = (steady_problem_t){.op = STEADY_OP_REDUCE, .target = 4};
    assert_tp(reduce_trees_of(p, prob, &sends, &tasks, &height), 1, 1);
    CU_ASSERT_EQUAL(sends, 8);
    CU_ASSERT_EQUAL(tasks, 7);
    /* to P0, of P1 .. P4 alone: the same trees, P0 computes nothing */
    const int four[] = {1, 2, 3, 4};
    prob = (steady_problem_t){
        .op = STEADY_OP_REDUCE, .target = 0, .participants = four, .nparticipants = 4};
    assert_tp(reduce_trees_of(p, prob, &sends, &tasks, &height), 1, 1);
    CU_ASSERT_EQUAL(sends, 8);
    CU_ASSERT_EQUAL(tasks, 6);
    /* to P2, in the middle of the order: none; to P0 of P0 .. P2, two
     * participants left to combine: none */
    prob = (steady_problem_t){.op = STEADY_OP_REDUCE, .target = 2};
    CU_ASSERT_PTR_NULL(reduce_trees_of(p, prob, &sends, &tasks, &height));
    const int three[] = {0, 1, 2};
    prob = (steady_problem_t){
        .op = STEADY_OP_REDUCE, .target = 0, .participants = three, .nparticipants = 3};
    CU_ASSERT_PTR_NULL(reduce_trees_of(p, prob, &sends, &tasks, &height));
    /* a broadcast: none */
    CU_ASSERT_PTR_NULL(
        reduce_trees_of(p, (steady_problem_t){.op = STEADY_OP_BROADCAST}, &sends, &tasks, &height));
    steady_platform_destroy(p);
}

/* The single chains on the complete graph of 5 (unit costs, unit tasks),
 * whose optimum is 1 for each op below. */
static void test_single_chain(void)
{
    steady_platform_t *p = read_ok("examples/platforms/homogeneous-complete.plat");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    int sends, tasks;
    /* reduce to P0: v[i,4] comes down from P4 to P0, one message on each
     * port and one task on P0 .. P3 per operation: TP = 1, the optimum */
    assert_tp(single_of(p, (steady_problem_t){.op = STEADY_OP_REDUCE, .target = 0}, &sends, &tasks),
              1, 1);
    CU_ASSERT_EQUAL(sends, 4);
    CU_ASSERT_EQUAL(tasks, 4);
    /* reduce to P2: v[0,1] climbs to P2, v[3,4] comes down to it; P2
     * receives both and computes v[0,2] and v[0,4]: TP = 1/2 */
    assert_tp(single_of(p, (steady_problem_t){.op = STEADY_OP_REDUCE, .target = 2}, &sends, &tasks),
              1, 2);
    CU_ASSERT_EQUAL(sends, 4);
    CU_ASSERT_EQUAL(tasks, 4);
    /* broadcast from P2: P2 -> P0 -> P1 -> P3 -> P4, TP = 1 */
    assert_tp(single_of(p, (steady_problem_t){.op = STEADY_OP_BROADCAST, .source = 2}, &sends,
                        &tasks),
              1, 1);
    CU_ASSERT_EQUAL(sends, 4);
    CU_ASSERT_EQUAL(tasks, 0);
    steady_platform_destroy(p);
    /* links of cost 2: TP = 1/2 (P0 receives a message per operation),
     * which the chain carries, its tasks (1 each) within their processors */
    p = parse_ok("processor P0 speed=1\nprocessor P1 speed=1\nprocessor P2 speed=1\n"
                 "link P0 P1 cost=2\nlink P1 P2 cost=2\nlink P0 P2 cost=2\n",
                 STEADY_FORMAT_NATIVE);
    assert_tp(single_of(p, (steady_problem_t){.op = STEADY_OP_REDUCE, .target = 0}, &sends, &tasks),
              1, 2);
    CU_ASSERT_EQUAL(sends, 2);
    CU_ASSERT_EQUAL(tasks, 2);
    steady_platform_destroy(p);
    /* P1 - P0 of cost 10, the other links 1: the optimum is 1 (P1 sends
     * v[1,1] to P2, which sends v[1,2] to P0), the chain P2 -> P1 -> P0
     * carries 1/10 (the planner would not offer it) */
    p = parse_ok("processor P0 speed=1\nprocessor P1 speed=1\nprocessor P2 speed=1\n"
                 "link P0 P1 cost=10\nlink P1 P2 cost=1\nlink P0 P2 cost=1\n",
                 STEADY_FORMAT_NATIVE);
    assert_tp(solve_ok(p, (steady_problem_t){.op = STEADY_OP_REDUCE, .target = 0}), 1, 1);
    assert_tp(single_of(p, (steady_problem_t){.op = STEADY_OP_REDUCE, .target = 0}, &sends, &tasks),
              1, 10);
    steady_platform_destroy(p);
    /* a star: no hop between two leaves, no chain */
    p = parse_ok("processor S speed=1\nprocessor A speed=1\nprocessor B speed=1\n"
                 "link S A cost=1\nlink S B cost=1\n",
                 STEADY_FORMAT_NATIVE);
    CU_ASSERT_PTR_NULL(
        single_of(p, (steady_problem_t){.op = STEADY_OP_REDUCE, .target = 0}, &sends, &tasks));
    steady_platform_destroy(p);
}

/* A star of costs 1, 2, 3 from S: scatter TP = 1 / (1 + 2 + 3). */
static void test_star(void)
{
    steady_platform_t *p = parse_ok("processor S speed=1\nprocessor A speed=1\n"
                                    "processor B speed=1\nprocessor C speed=1\n"
                                    "link S A cost=1\nlink S B cost=2\nlink S C cost=3\n",
                                    STEADY_FORMAT_NATIVE);
    assert_tp(solve_ok(p, (steady_problem_t){.op = STEADY_OP_SCATTER, .source = 0}), 1, 6);
    /* broadcast: S must send the message to each leaf itself: 1/6 too */
    assert_tp(solve_ok(p, (steady_problem_t){.op = STEADY_OP_BROADCAST, .source = 0}), 1, 6);
    /* scatter to A and C only: 1 / (1 + 3) */
    int tg[] = {1, 3};
    assert_tp(solve_ok(p,
                       (steady_problem_t){
                           .op = STEADY_OP_SCATTER, .source = 0, .targets = tg, .ntargets = 2}),
              1, 4);
    steady_platform_destroy(p);
}

/* A one-way chain A -> B -> C of unit costs: a broadcast pipelines at 1, a
 * scatter sends two messages through A's port per operation. */
static void test_chain(void)
{
    steady_platform_t *p = parse_ok("processor A speed=1\nprocessor B speed=1\n"
                                    "processor C speed=1\nedge A B cost=1\nedge B C cost=1\n",
                                    STEADY_FORMAT_NATIVE);
    assert_tp(solve_ok(p, (steady_problem_t){.op = STEADY_OP_BROADCAST, .source = 0}), 1, 1);
    assert_tp(solve_ok(p, (steady_problem_t){.op = STEADY_OP_SCATTER, .source = 0}), 1, 2);
    steady_platform_destroy(p);
}

/* Two paths S -> A -> T (costs 1, 2) and S -> B -> T (costs 2, 1): either
 * path alone loads one port with 2 per message (TP = 1/2); splitting 1/3,
 * 1/3 loads S's send port and T's receive port with 1*1/3 + 2*1/3 = 1,
 * so the LP's multi-path routing reaches TP = 2/3. */
static void test_multipath(void)
{
    steady_platform_t *p = parse_ok("processor S speed=1\nrouter A\nrouter B\n"
                                    "processor T speed=1\nedge S A cost=1\nedge A T cost=2\n"
                                    "edge S B cost=2\nedge B T cost=1\n",
                                    STEADY_FORMAT_NATIVE);
    steady_solution_t *s = solve_ok(p, (steady_problem_t){.op = STEADY_OP_SCATTER, .source = 0});
    mpq_t r, third;
    mpq_inits(r, third, NULL);
    mpq_set_ui(third, 1, 3);
    for (int e = 0; e < 4; e++) {
        steady_solution_send(s, e, 0, r);
        CU_ASSERT(mpq_equal(r, third));
    }
    mpq_clears(r, third, NULL);
    assert_tp(s, 2, 3);
    /* the broadcast bound is the same here: one target */
    assert_tp(solve_ok(p, (steady_problem_t){.op = STEADY_OP_BROADCAST,
                                             .source = 0,
                                             .targets = (int[]){3},
                                             .ntargets = 1}),
              2, 3);
    steady_platform_destroy(p);
}

/* Physical units: c = size / bandwidth as exact decimals.  A 1 MiB message
 * on 125 MB/s takes 1048576/125000000 s: a scatter to 2 targets over such
 * links gives TP = 125000000 / (2 * 1048576) = 1953125/32768 ops/s. */
static void test_units(void)
{
    steady_platform_t *p = parse_ok("processor S speed=1Gf\nprocessor A speed=1Gf\n"
                                    "processor B speed=1Gf\nlink S A bandwidth=125MBps\n"
                                    "link S B bandwidth=125MBps latency=1ms\n",
                                    STEADY_FORMAT_NATIVE);
    assert_tp(solve_ok(p, (steady_problem_t){.op = STEADY_OP_SCATTER, .source = 0}), 1953125,
              32768);
    /* an overhead of 1 ms adds to each message: c = 0.008388608 + 0.001 */
    steady_platform_destroy(p);
    p = parse_ok("processor S speed=1Gf\nprocessor A speed=1Gf\n"
                 "link S A bandwidth=125MBps overhead=1ms\n",
                 STEADY_FORMAT_NATIVE);
    assert_tp(
        solve_ok(p, (steady_problem_t){.op = STEADY_OP_SCATTER, .source = 0, .msg_size = 1e6}),
        1000, 9); /* c = 1e6/125e6 + 0.001 = 0.009 */
    steady_platform_destroy(p);
}

/* On random platforms every op solves exactly and passes the re-check. */
static void test_random_exact(void)
{
    for (uint64_t seed = 1; seed <= 4; seed++) {
        steady_platform_t *p = NULL;
        CU_ASSERT_EQUAL_FATAL(steady_platform_generate(STEADY_GEN_RANDOM, 6, seed, &p, NULL), 0);
        for (int op = 0; op < 4; op++) {
            steady_problem_t prob = {.op = (steady_op_t)op, .source = 1, .target = 2};
            steady_solution_t *s = solve_ok(p, prob);
            CU_ASSERT_PTR_NOT_NULL_FATAL(s);
            CU_ASSERT_TRUE(steady_solution_is_exact(s));
            CU_ASSERT(steady_solution_throughput_d(s) > 0);
            CU_ASSERT_EQUAL(violations(s), 0);
            steady_solution_destroy(s);
        }
        steady_platform_destroy(p);
    }
}

/* The reduce by reduction trees (--formulation compact, lp/treegen.c; the
 * paper's example is in test_paper_reduce): on random platforms the
 * per-type LP's exact TP, the solution re-checked against SSR's rows and
 * decomposed into trees; and the task numbering the trees use, against
 * the solution's own. */
static void test_reduce_trees(void)
{
    steady_platform_t *p = NULL;
    mpq_t a, b;
    mpq_inits(a, b, NULL);
    for (uint64_t seed = 1; seed <= 4; seed++) {
        CU_ASSERT_EQUAL_FATAL(steady_platform_generate(STEADY_GEN_RANDOM, 8, seed, &p, NULL), 0);
        int some[] = {5, 1, 7, 2}; /* a subset, out of order, the target outside */
        steady_problem_t probs[] = {
            {.op = STEADY_OP_REDUCE, .target = 3},
            {.op = STEADY_OP_REDUCE, .participants = some, .nparticipants = 4, .target = 0}};
        for (int i = 0; i < 2; i++) {
            steady_solution_t *t = solve_formulation_ok(p, probs[i], STEADY_FORMULATION_COMPACT);
            steady_solution_t *f = solve_full_ok(p, probs[i]);
            CU_ASSERT_PTR_NOT_NULL_FATAL(t);
            CU_ASSERT_PTR_NOT_NULL_FATAL(f);
            steady_solution_throughput(t, a);
            steady_solution_throughput(f, b);
            CU_ASSERT(mpq_equal(a, b));
            CU_ASSERT_TRUE(steady_solution_is_exact(t));
            /* without the exact pricing: the same TP, within the tolerances */
            steady_solve_options_t approx = {.formulation = STEADY_FORMULATION_COMPACT};
            steady_solution_t *x = NULL;
            steady_error_t err = {0};
            CU_ASSERT_EQUAL_FATAL(steady_lp_solve(p, &probs[i], &approx, &x, &err), STEADY_OK);
            CU_ASSERT_FALSE(steady_solution_is_exact(x));
            CU_ASSERT(fabs(steady_solution_throughput_d(x) - mpq_get_d(a)) <= 1e-9 * mpq_get_d(a));
            steady_solution_destroy(x);
            CU_ASSERT_EQUAL(violations(t), 0);
            steady_trees_destroy(trees_ok(t));
            if (i == 0 && seed == 1) {
                int n, q = 0;
                steady_solution_sources(t, &n);
                for (int k = 0; k < n; k++)
                    for (int l = k; l < n; l++)
                        for (int m = l + 1; m < n; m++, q++) {
                            int tk, tl, tm;
                            steady_solution_task(t, lp_task(n, k, l, m), &tk, &tl, &tm);
                            CU_ASSERT(tk == k && tl == l && tm == m && lp_task(n, k, l, m) == q);
                        }
            }
            steady_solution_destroy(t);
            steady_solution_destroy(f);
        }
        steady_platform_destroy(p);
    }
    mpq_clears(a, b, NULL);
}

static void test_errors(void)
{
    steady_platform_t *p = parse_ok("processor A speed=1\nprocessor B speed=1\nrouter R\n"
                                    "processor C speed=1\nedge A B cost=1\nlink B R cost=1\n"
                                    "edge C A cost=1\n",
                                    STEADY_FORMAT_NATIVE);
    const struct {
        steady_problem_t prob;
        const char *msg;
    } cases[] = {
        {{.op = STEADY_OP_SCATTER, .source = 0},
         "A cannot reach C along the platform's edges: the throughput would be 0"},
        {{.op = STEADY_OP_SCATTER, .source = 2}, "source: R is a router, and routers only forward"},
        {{.op = STEADY_OP_SCATTER, .source = 0, .targets = (int[]){1, 1}, .ntargets = 2},
         "duplicate node in targets (B)"},
        {{.op = STEADY_OP_SCATTER, .source = 0, .targets = (int[]){0}, .ntargets = 1},
         "the source cannot be one of the targets (A)"},
        {{.op = STEADY_OP_SCATTER, .source = 9}, "unknown node id in source (9)"},
        {{.op = STEADY_OP_REDUCE, .participants = (int[]){0}, .nparticipants = 1, .target = 0},
         "a reduce needs at least 2 participants (got 1)"},
        {{.op = STEADY_OP_REDUCE, .participants = (int[]){0, 2}, .nparticipants = 2, .target = 0},
         "participants: R is a router, and routers only forward"},
        {{.op = STEADY_OP_REDUCE, .participants = (int[]){0, 1}, .nparticipants = 2, .target = 3},
         "A cannot reach C along the platform's edges: the throughput would be 0"},
        {{.op = STEADY_OP_GOSSIP,
          .sources = (int[]){1},
          .nsources = 1,
          .targets = (int[]){1},
          .ntargets = 1},
         "no message to send: the only source is the only target (B)"},
        {{.op = STEADY_OP_BROADCAST, .source = 1},
         "B cannot reach A along the platform's edges: the throughput would be 0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        steady_solution_t *s = NULL;
        steady_error_t err = {0};
        CU_ASSERT_EQUAL(steady_lp_solve(p, &cases[i].prob, NULL, &s, &err), STEADY_EINVAL);
        CU_ASSERT_PTR_NULL(s);
        if (strcmp(err.msg, cases[i].msg) != 0)
            fprintf(stderr, "\n    case %zu: got \"%s\"\n", i, err.msg);
        CU_ASSERT_STRING_EQUAL(err.msg, cases[i].msg);
    }
    steady_platform_destroy(p);
}

/* A broadcast to a subset is flagged as an upper bound; to every other node
 * it is not. */
static void test_broadcast_bound(void)
{
    steady_platform_t *p = parse_ok(paper_reduce_text, STEADY_FORMAT_NATIVE);
    steady_solution_t *s = solve_ok(p, (steady_problem_t){.op = STEADY_OP_BROADCAST, .source = 0});
    CU_ASSERT_FALSE(steady_solution_is_bound(s));
    assert_tp(s, 1, 1);
    s = solve_ok(p,
                 (steady_problem_t){
                     .op = STEADY_OP_BROADCAST, .source = 0, .targets = (int[]){1}, .ntargets = 1});
    CU_ASSERT_TRUE(steady_solution_is_bound(s));
    assert_tp(s, 1, 1);
    steady_platform_destroy(p);
}

/* The broadcast by generated arborescences (lp/arbgen.c): on random
 * platforms of 12 processors, every source, the per-type LP's exact TP and
 * the cuts', verified exact and within the capacities; the formulation
 * asked for where it does not apply is refused. */
static void test_broadcast_arborescences(void)
{
    mpq_t a, b, c;
    mpq_inits(a, b, c, NULL);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        steady_platform_t *p = NULL;
        CU_ASSERT_EQUAL_FATAL(steady_platform_generate(STEADY_GEN_RANDOM, 12, seed, &p, NULL), 0);
        for (int src = 0; src < 12; src += 5) {
            steady_problem_t prob = {.op = STEADY_OP_BROADCAST, .source = src};
            steady_solution_t *g = solve_formulation_ok(p, prob, STEADY_FORMULATION_COMPACT);
            steady_solution_t *x = solve_formulation_ok(p, prob, STEADY_FORMULATION_CUTS);
            steady_solution_t *f = solve_full_ok(p, prob);
            CU_ASSERT_PTR_NOT_NULL_FATAL(g);
            CU_ASSERT_PTR_NOT_NULL_FATAL(x);
            CU_ASSERT_PTR_NOT_NULL_FATAL(f);
            CU_ASSERT_EQUAL(steady_solution_formulation(g), STEADY_FORMULATION_ARBORESCENCES);
            CU_ASSERT_EQUAL(steady_solution_formulation(x), STEADY_FORMULATION_CUTS);
            CU_ASSERT_TRUE(steady_solution_is_exact(g));
            CU_ASSERT_EQUAL(violations(g), 0);
            steady_solution_throughput(g, a);
            steady_solution_throughput(x, b);
            steady_solution_throughput(f, c);
            CU_ASSERT(mpq_equal(a, b) && mpq_equal(a, c));
            steady_solution_destroy(g);
            steady_solution_destroy(x);
            steady_solution_destroy(f);
        }
        /* a multicast: the arborescences would be Steiner trees */
        steady_problem_t sub = {
            .op = STEADY_OP_BROADCAST, .source = 0, .targets = (int[]){3, 4}, .ntargets = 2};
        steady_solve_options_t o = {.exact = true, .formulation = STEADY_FORMULATION_ARBORESCENCES};
        steady_solution_t *s = NULL;
        steady_error_t err = {0};
        CU_ASSERT_EQUAL(steady_lp_solve(p, &sub, &o, &s, &err), STEADY_EINVAL);
        CU_ASSERT_PTR_NULL(s);
        /* and the cuts are a broadcast's */
        steady_problem_t sc = {.op = STEADY_OP_SCATTER, .source = 0};
        o.formulation = STEADY_FORMULATION_CUTS;
        CU_ASSERT_EQUAL(steady_lp_solve(p, &sc, &o, &s, &err), STEADY_EINVAL);
        steady_platform_destroy(p);
    }
    mpq_clears(a, b, c, NULL);
}

/* steady_lp_solve_whole for k operations per period: an exact solution
 * that passes violations(), whose throughput is at most s's, and whose
 * rates are whole counts per period T = k / throughput. */
static steady_solution_t *whole_ok(const steady_solution_t *s, long k)
{
    steady_solution_t *x = NULL;
    steady_error_t err = {0};
    long nodes = -1;
    CU_ASSERT_EQUAL(steady_lp_solve_whole(s, k, 1000, NULL, &x, &nodes, &err), STEADY_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(x);
    CU_ASSERT(nodes >= 0 && nodes <= 1000);
    CU_ASSERT_TRUE(steady_solution_is_exact(x));
    CU_ASSERT_EQUAL(violations(x), 0);
    const steady_platform_t *p = steady_solution_platform(x);
    int nv = steady_platform_node_count(p), ne = steady_platform_edge_count(p), nt;
    steady_solution_targets(x, &nt);
    mpq_t T, tp, r;
    mpq_inits(T, tp, r, NULL);
    steady_solution_throughput(s, tp);
    steady_solution_throughput(x, T);
    CU_ASSERT(mpq_cmp(T, tp) <= 0);
    mpq_inv(T, T);
    mpq_set_si(r, k, 1);
    mpq_mul(T, T, r);
    int fractional = 0;
    for (int e = 0; e < ne; e++) {
        for (int t = 0; t < steady_solution_type_count(x); t++) {
            steady_solution_send(x, e, t, r);
            mpq_mul(r, r, T);
            fractional += mpz_cmp_ui(mpq_denref(r), 1) != 0;
        }
        for (int t = 0; steady_solution_op(x) == STEADY_OP_BROADCAST && t < nt; t++) {
            steady_solution_flow(x, e, t, r);
            mpq_mul(r, r, T);
            fractional += mpz_cmp_ui(mpq_denref(r), 1) != 0;
        }
    }
    for (int v = 0; v < nv; v++)
        for (int q = 0; q < steady_solution_task_count(x); q++) {
            steady_solution_cons(x, v, q, r);
            mpq_mul(r, r, T);
            fractional += mpz_cmp_ui(mpq_denref(r), 1) != 0;
        }
    CU_ASSERT_EQUAL(fractional, 0);
    mpq_clears(T, tp, r, NULL);
    return x;
}

/* Whole counts on the two paths of test_multipath (S -> A -> T costs 1, 2;
 * S -> B -> T costs 2, 1): one message per period takes one path, 2 per
 * period (TP 1/2); two take one path each, 3 per period (2/3, the
 * optimum); three put two on one path, 5 per period (3/5); four, 6 (2/3). */
static void test_whole_counts(void)
{
    steady_platform_t *p = parse_ok("processor S speed=1\nrouter A\nrouter B\n"
                                    "processor T speed=1\nedge S A cost=1\nedge A T cost=2\n"
                                    "edge S B cost=2\nedge B T cost=1\n",
                                    STEADY_FORMAT_NATIVE);
    steady_solution_t *s = solve_ok(p, (steady_problem_t){.op = STEADY_OP_SCATTER, .source = 0});
    assert_tp(whole_ok(s, 1), 1, 2);
    assert_tp(whole_ok(s, 2), 2, 3);
    assert_tp(whole_ok(s, 3), 3, 5);
    assert_tp(whole_ok(s, 4), 2, 3);
    steady_solution_t *none = NULL;
    steady_error_t err = {0};
    CU_ASSERT_EQUAL(steady_lp_solve_whole(s, 0, 10, NULL, &none, NULL, &err), STEADY_EINVAL);
    CU_ASSERT_PTR_NULL(none);
    steady_solution_destroy(s);
    steady_platform_destroy(p);
    /* the paper's reduce: one tree (P2 sends v2 to P1, P1 combines and
     * sends v[1,2] to P0) already loads no port beyond 1: TP = 1 for every
     * count */
    p = parse_ok(paper_reduce_text, STEADY_FORMAT_NATIVE);
    s = solve_ok(p, (steady_problem_t){.op = STEADY_OP_REDUCE, .target = 0, .task_cost = 1});
    for (long k = 1; k <= 3; k++)
        assert_tp(whole_ok(s, k), 1, 1);
    steady_solution_destroy(s);
    steady_platform_destroy(p);
}

/* On random platforms, whole counts for 1..6 operations per period. */
static void test_whole_random(void)
{
    for (uint64_t seed = 1; seed <= 3; seed++) {
        steady_platform_t *p = NULL;
        CU_ASSERT_EQUAL_FATAL(steady_platform_generate(STEADY_GEN_RANDOM, 6, seed, &p, NULL), 0);
        for (int op = 0; op < 4; op++) {
            if (op == STEADY_OP_GOSSIP)
                continue; /* its branch and cut may find nothing in 1000 subproblems */
            steady_solution_t *s =
                solve_ok(p, (steady_problem_t){.op = (steady_op_t)op, .source = 1, .target = 2});
            CU_ASSERT_PTR_NOT_NULL_FATAL(s);
            for (long k = 1; k <= (op == STEADY_OP_REDUCE ? 1 : 6); k++)
                steady_solution_destroy(whole_ok(s, k));
            steady_solution_destroy(s);
        }
        steady_platform_destroy(p);
    }
}

void suite_lp(void)
{
    static const CU_TestInfo tests[] = {
        {"paper reduce example: TP = 1", test_paper_reduce},
        {"homogeneous complete graph", test_homogeneous},
        {"single chains: reduce, broadcast", test_single_chain},
        {"two trees of a broadcast, half each", test_broadcast_trees},
        {"two in-order trees of a reduce, half each", test_reduce_pair},
        {"star scatter: 1 / sum of costs", test_star},
        {"chain", test_chain},
        {"multi-path beats every single path", test_multipath},
        {"physical units, exact decimals", test_units},
        {"random platforms, every op, exact", test_random_exact},
        {"reduce by reduction trees", test_reduce_trees},
        {"problem errors", test_errors},
        {"broadcast upper bound flag", test_broadcast_bound},
        {"broadcast by generated arborescences", test_broadcast_arborescences},
        {"whole counts per period, by hand", test_whole_counts},
        {"whole counts on random platforms", test_whole_random},
        CU_TEST_INFO_NULL};
    add_suite("linear programs", tests);
}
