/*
 * test_trees.c — reduction trees (the paper's EXTRACT_TREES, §4.4) and
 * scatter / gossip routes.  Every tree is replayed step by step (a reduce
 * tree from the participants' values to v[0,N-1] on the target, a route from
 * the message's origin to its destination); the weights must add up to TP
 * exactly; the weighted steps must stay within the solution's rates and
 * match them exactly except for circulations, which carry nothing.
 * Platforms: the paper's reduce example, a line that needs two trees, random
 * platforms, two optima of GLPK 5.0 that contain circulations, and cycle
 * cancelling on a hand-made flow.
 */
#include <stdlib.h>
#include <string.h>

#include "../../decompose/internal.h"
#include "steady/decompose.h"
#include "tests.h"

static const char *node(const steady_solution_t *s, int v)
{
    return steady_platform_node(steady_solution_platform(s), v)->name;
}

/* ---- replaying one tree ----------------------------------------------------- */

/* Replays a reduce tree: v[k,k] starts on r_k; a SEND moves a value its
 * edge's source holds along that platform edge; a COMPUTE T(k,l,m) on node
 * i merges v[k,l] and v[l+1,m] held by i into v[k,m] on i; at the end only
 * v[0,N-1] on the target is left (every value produced is used exactly
 * once, every participant's value is used).  Returns the number of faults,
 * describing the first. */
static int reduce_tree_faults(const steady_solution_t *s, const steady_tree_t *tr)
{
    const steady_platform_t *p = steady_solution_platform(s);
    int nv = steady_platform_node_count(p), ne = steady_platform_edge_count(p), N, one;
    const int *part = steady_solution_sources(s, &N);
    int target = steady_solution_targets(s, &one)[0];
    /* held[(v * N + k) * N + m]: copies of v[k,m] on node v */
    int *held = calloc((size_t)nv * N * N, sizeof *held), faults = 0;
    CU_ASSERT_PTR_NOT_NULL_FATAL(held);
#define HELD(v, k, m) held[((size_t)(v)*N + (k)) * N + (m)]
    for (int k = 0; k < N; k++)
        HELD(part[k], k, k) = 1;
    int computes = 0;
    for (int j = 0; j < tr->nsteps; j++) {
        const steady_step_t *st = &tr->steps[j];
        if (st->kind == STEADY_STEP_SEND) {
            if (st->edge < 0 || st->edge >= ne || st->type < 0 ||
                st->type >= steady_solution_type_count(s)) {
                faults++;
                continue;
            }
            const steady_edge_t *e = steady_platform_edge(p, st->edge);
            int k, m;
            steady_solution_type_ends(s, st->type, &k, &m);
            if (HELD(e->src, k, m) <= 0) {
                if (!faults++)
                    fprintf(stderr, "\n    step %d: %s sends v[%d,%d], which it does not hold\n", j,
                            node(s, e->src), k, m);
                continue;
            }
            HELD(e->src, k, m)--;
            HELD(e->dst, k, m)++;
        } else if (st->kind == STEADY_STEP_COMPUTE) {
            int k, l, m, v = st->node;
            if (v < 0 || v >= nv || st->task < 0 || st->task >= steady_solution_task_count(s) ||
                steady_platform_node(p, v)->kind != STEADY_PROCESSOR) {
                faults++;
                continue;
            }
            steady_solution_task(s, st->task, &k, &l, &m);
            if (HELD(v, k, l) <= 0 || HELD(v, l + 1, m) <= 0) {
                if (!faults++)
                    fprintf(stderr, "\n    step %d: T(%d,%d,%d) on %s without its operands\n", j, k,
                            l, m, node(s, v));
                continue;
            }
            HELD(v, k, l)--;
            HELD(v, l + 1, m)--;
            HELD(v, k, m)++;
            computes++;
        } else {
            faults++;
        }
    }
    for (int v = 0; v < nv; v++)
        for (int k = 0; k < N; k++)
            for (int m = k; m < N; m++) {
                int want = v == target && k == 0 && m == N - 1;
                if (HELD(v, k, m) != want && !faults++)
                    fprintf(stderr, "\n    at the end %s holds %d copies of v[%d,%d], want %d\n",
                            node(s, v), HELD(v, k, m), k, m, want);
            }
#undef HELD
    faults += computes != N - 1; /* N values, N - 1 merges */
    free(held);
    return faults;
}

/* Replays a route: one message type, from its origin along platform edges
 * to its destination.  Returns the number of faults; *type receives the
 * route's type. */
static int route_faults(const steady_solution_t *s, const steady_tree_t *tr, int *type)
{
    const steady_platform_t *p = steady_solution_platform(s);
    int ns, faults = 0, o, d;
    *type = tr->nsteps > 0 ? tr->steps[0].type : -1;
    if (*type < 0 || *type >= steady_solution_type_count(s))
        return 1;
    steady_solution_type_ends(s, *type, &o, &d);
    int at = o >= 0 ? o : steady_solution_sources(s, &ns)[0];
    for (int j = 0; j < tr->nsteps; j++) {
        const steady_step_t *st = &tr->steps[j];
        if (st->kind != STEADY_STEP_SEND || st->type != *type || st->edge < 0 ||
            st->edge >= steady_platform_edge_count(p) ||
            steady_platform_edge(p, st->edge)->src != at) {
            faults++;
            continue;
        }
        at = steady_platform_edge(p, st->edge)->dst;
    }
    return faults + (at != d);
}

/* ---- the whole decomposition ------------------------------------------------- */

/* Checks every tree (replayed), the weights (positive; adding up to TP, per
 * message type for routes) and the rates: with U = sum of weight * steps,
 * U <= the solution's rates, U = them on every task, and the rest a
 * circulation per message type.  *waste receives the total rate that no
 * tree uses.  Returns the number of faults. */
static int decomposition_faults(const steady_solution_t *s, const steady_trees_t *t, mpq_t waste)
{
    const steady_platform_t *p = steady_solution_platform(s);
    int nv = steady_platform_node_count(p), ne = steady_platform_edge_count(p);
    int ntypes = steady_solution_type_count(s), ntasks = steady_solution_task_count(s);
    bool reduce = steady_solution_op(s) == STEADY_OP_REDUCE;
    if (!reduce)
        ntasks = 0;
    mpq_t *used = malloc(((size_t)ne * ntypes + (size_t)nv * ntasks) * sizeof *used);
    mpq_t *sum = malloc((size_t)ntypes * sizeof *sum);
    CU_ASSERT_PTR_NOT_NULL_FATAL(used);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sum);
    size_t nused = (size_t)ne * ntypes + (size_t)nv * ntasks;
    for (size_t i = 0; i < nused; i++)
        mpq_init(used[i]);
    for (int ty = 0; ty < ntypes; ty++)
        mpq_init(sum[ty]);
    mpq_t tp, a, net;
    mpq_inits(tp, a, net, NULL);
    steady_solution_throughput(s, tp);
    int faults = 0;

    for (int i = 0; i < t->ntrees; i++) {
        const steady_tree_t *tr = &t->trees[i];
        int ty = 0;
        faults += mpq_sgn(tr->weight) <= 0;
        faults += reduce ? reduce_tree_faults(s, tr) : route_faults(s, tr, &ty);
        if (ty >= 0)
            mpq_add(sum[ty], sum[ty], tr->weight);
        for (int j = 0; j < tr->nsteps; j++) {
            const steady_step_t *st = &tr->steps[j];
            size_t at = st->kind == STEADY_STEP_SEND
                            ? (size_t)st->edge * ntypes + st->type
                            : (size_t)ne * ntypes + (size_t)st->node * ntasks + st->task;
            if (at < nused)
                mpq_add(used[at], used[at], tr->weight);
        }
    }
    for (int ty = 0; ty < (reduce ? 1 : ntypes); ty++)
        if (!mpq_equal(sum[ty], tp)) {
            gmp_fprintf(stderr, "\n    type %d: the weights add up to %Qd, TP = %Qd\n", ty, sum[ty],
                        tp);
            faults++;
        }
    /* tasks: used exactly at their rate */
    for (int v = 0; v < nv; v++)
        for (int q = 0; q < ntasks; q++) {
            steady_solution_cons(s, v, q, a);
            faults += !mpq_equal(a, used[(size_t)ne * ntypes + (size_t)v * ntasks + q]);
        }
    /* sends: used <= rate; the difference (stored in used) is the waste */
    mpq_set_ui(waste, 0, 1);
    for (int e = 0; e < ne; e++)
        for (int ty = 0; ty < ntypes; ty++) {
            mpq_ptr u = used[(size_t)e * ntypes + ty];
            steady_solution_send(s, e, ty, a);
            mpq_sub(u, a, u);
            faults += mpq_sgn(u) < 0;
            mpq_add(waste, waste, u);
        }
    /* ... and it is a circulation: in = out at every node, for every type */
    for (int ty = 0; ty < ntypes; ty++)
        for (int v = 0; v < nv; v++) {
            mpq_set_ui(net, 0, 1);
            for (int e = 0; e < ne; e++) {
                const steady_edge_t *ed = steady_platform_edge(p, e);
                if (ed->dst == v)
                    mpq_add(net, net, used[(size_t)e * ntypes + ty]);
                if (ed->src == v)
                    mpq_sub(net, net, used[(size_t)e * ntypes + ty]);
            }
            faults += mpq_sgn(net) != 0;
        }
    for (size_t i = 0; i < nused; i++)
        mpq_clear(used[i]);
    for (int ty = 0; ty < ntypes; ty++)
        mpq_clear(sum[ty]);
    free(used);
    free(sum);
    mpq_clears(tp, a, net, NULL);
    return faults;
}

/* Solves, decomposes, checks; returns the trees (caller destroys) and the
 * rate left out of every tree in waste. */
static steady_trees_t *checked_trees(const steady_solution_t *s, mpq_t waste)
{
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_TRUE(steady_solution_is_exact(s));
    steady_trees_t *t = trees_ok(s);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT(t->ntrees > 0);
    CU_ASSERT_EQUAL(decomposition_faults(s, t, waste), 0);
    return t;
}

static bool same_tree(const steady_tree_t *a, const steady_tree_t *b)
{
    if (a->nsteps != b->nsteps)
        return false;
    for (int j = 0; j < a->nsteps; j++) {
        const steady_step_t *x = &a->steps[j], *y = &b->steps[j];
        if (x->kind != y->kind ||
            (x->kind == STEADY_STEP_SEND ? x->edge != y->edge || x->type != y->type
                                         : x->node != y->node || x->task != y->task))
            return false;
    }
    return true;
}

static void assert_tp(const steady_solution_t *s, long num, unsigned long den)
{
    mpq_t tp, want;
    mpq_inits(tp, want, NULL);
    steady_solution_throughput(s, tp);
    mpq_set_si(want, num, den);
    mpq_canonicalize(want);
    CU_ASSERT(mpq_equal(tp, want));
    mpq_clears(tp, want, NULL);
}

/* ---- the paper's example and a line ---------------------------------------- */

static const char *paper_reduce = "processor P0 speed=2\nprocessor P1 speed=1\n"
                                  "processor P2 speed=1\nlink P0 P1 cost=1\nlink P0 P2 cost=1\n"
                                  "link P1 P2 cost=1\n";

/* Figure 6: TP = 1.  The paper's optimum needs two trees (Figure 7, weights
 * 1/3 and 2/3); GLPK finds another optimal vertex, which one tree carries:
 * P1 sends v1 to P2, P2 computes v[1,2] and sends it to P0, P0 computes
 * v[0,2].  Whatever the vertex, the trees must be valid and add up to 1. */
static void test_paper_reduce(void)
{
    steady_platform_t *p = parse_ok(paper_reduce, STEADY_FORMAT_NATIVE);
    steady_solution_t *s = solve_ok(p, (steady_problem_t){.op = STEADY_OP_REDUCE,
                                                          .participants = (int[]){0, 1, 2},
                                                          .nparticipants = 3,
                                                          .target = 0,
                                                          .task_cost = 1});
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    assert_tp(s, 1, 1);
    mpq_t waste;
    mpq_init(waste);
    steady_trees_t *t = checked_trees(s, waste);
    CU_ASSERT_EQUAL(mpq_sgn(waste), 0);
    for (int i = 0; i < t->ntrees; i++) /* each tree reduces 3 values with 2 tasks */
        CU_ASSERT(mpq_cmp_ui(t->trees[i].weight, 1, 1) <= 0);
    steady_trees_destroy(t);
    mpq_clear(waste);
    steady_solution_destroy(s);
    steady_platform_destroy(p);
}

/* A line A - B - C, values in the order v0 on B, v1 on A, v2 on C, reduced
 * to A; unit costs and speeds.  TP = 2/3, but no single tree does better
 * than 1/2: v2 must come through B, and either B computes both merges (2
 * time units of CPU per operation), or B forwards two messages to A (v0 and
 * v2, or v0 and v[1,2], or v[0,1] and v2: 2 time units of B's send port).
 * So the optimum needs at least two distinct trees, none heavier than 1/2. */
static void test_line_needs_two_trees(void)
{
    steady_platform_t *p = parse_ok("processor A speed=1\nprocessor B speed=1\n"
                                    "processor C speed=1\nlink A B cost=1\nlink B C cost=1\n",
                                    STEADY_FORMAT_NATIVE);
    steady_solution_t *s = solve_ok(p, (steady_problem_t){.op = STEADY_OP_REDUCE,
                                                          .participants = (int[]){1, 0, 2},
                                                          .nparticipants = 3,
                                                          .target = 0,
                                                          .task_cost = 1});
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    assert_tp(s, 2, 3);
    mpq_t waste;
    mpq_init(waste);
    steady_trees_t *t = checked_trees(s, waste);
    CU_ASSERT(t->ntrees >= 2);
    for (int i = 0; i < t->ntrees; i++) {
        CU_ASSERT(mpq_cmp_ui(t->trees[i].weight, 1, 2) <= 0);
        for (int j = 0; j < i; j++)
            CU_ASSERT_FALSE(same_tree(&t->trees[i], &t->trees[j]));
    }
    steady_trees_destroy(t);
    mpq_clear(waste);
    steady_solution_destroy(s);
    steady_platform_destroy(p);
}

/* A scatter from S to A and B over two disjoint two-hop paths each: the
 * routes of each message add up to TP on their own. */
static void test_scatter_routes(void)
{
    steady_platform_t *p = parse_ok("processor S speed=1\nprocessor X speed=1\n"
                                    "processor Y speed=1\nprocessor A speed=1\n"
                                    "processor B speed=1\nedge S X cost=1\nedge S Y cost=1\n"
                                    "edge X A cost=1\nedge Y A cost=1\nedge X B cost=1\n"
                                    "edge Y B cost=1\n",
                                    STEADY_FORMAT_NATIVE);
    /* S sends 2 messages per operation, at most 1 per time unit: TP = 1/2 */
    steady_solution_t *s = solve_ok(
        p, (steady_problem_t){
               .op = STEADY_OP_SCATTER, .source = 0, .targets = (int[]){3, 4}, .ntargets = 2});
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    assert_tp(s, 1, 2);
    mpq_t waste;
    mpq_init(waste);
    steady_trees_t *t = checked_trees(s, waste);
    CU_ASSERT_EQUAL(mpq_sgn(waste), 0);
    for (int i = 0; i < t->ntrees; i++)
        CU_ASSERT_EQUAL(t->trees[i].nsteps, 2); /* S -> X or Y -> target */
    steady_trees_destroy(t);
    mpq_clear(waste);
    steady_solution_destroy(s);
    steady_platform_destroy(p);
}

/* ---- random platforms ---------------------------------------------------------- */

/* The reduce of seed `seed` on n processors: 3 or 4 participants in a
 * scrambled order, another processor as the target. */
static steady_problem_t random_reduce(uint64_t seed, int n, int parts[4])
{
    parts[0] = (int)(seed % n);
    parts[1] = (int)((seed + 2) % n);
    parts[2] = (int)((seed + 3) % n);
    parts[3] = (int)((seed + 4) % n);
    return (steady_problem_t){.op = STEADY_OP_REDUCE,
                              .participants = parts,
                              .nparticipants = 3 + (int)(seed % 2),
                              .target = (int)((seed + 1) % n)};
}

/* Reduce, scatter and gossip on random platforms of 5 to 7 processors. */
static void test_random(void)
{
    for (uint64_t seed = 1; seed <= 12; seed++) {
        int n = 5 + (int)(seed % 3), parts[4];
        steady_platform_t *p = NULL;
        CU_ASSERT_EQUAL_FATAL(steady_platform_generate(STEADY_GEN_RANDOM, n, seed, &p, NULL), 0);
        steady_problem_t probs[] = {
            random_reduce(seed, n, parts),
            {.op = STEADY_OP_SCATTER, .source = (int)(seed % n)},
            {.op = STEADY_OP_GOSSIP},
        };
        for (size_t i = 0; i < sizeof probs / sizeof *probs; i++) {
            steady_solution_t *s = solve_ok(p, probs[i]);
            mpq_t waste;
            mpq_init(waste);
            steady_trees_t *t = checked_trees(s, waste);
            /* Theorem 1: every tree zeroes a rate, so there are no more trees
             * than positive rates (sends, plus tasks for a reduce) */
            int positive = 0;
            mpq_t r;
            mpq_init(r);
            for (int e = 0; e < steady_platform_edge_count(p); e++)
                for (int ty = 0; ty < steady_solution_type_count(s); ty++) {
                    steady_solution_send(s, e, ty, r);
                    positive += mpq_sgn(r) > 0;
                }
            if (probs[i].op == STEADY_OP_REDUCE)
                for (int v = 0; v < n; v++)
                    for (int q = 0; q < steady_solution_task_count(s); q++) {
                        steady_solution_cons(s, v, q, r);
                        positive += mpq_sgn(r) > 0;
                    }
            CU_ASSERT(t->ntrees <= positive);
            mpq_clear(r);
            mpq_clear(waste);
            steady_trees_destroy(t);
            steady_solution_destroy(s);
        }
        steady_platform_destroy(p);
    }
}

/* ---- circulations -------------------------------------------------------------- */

/* Two optima of GLPK 5.0 that contain a circulation: on random seed 153 (5
 * processors) the reduce solution sends the final result v[0,3] back and
 * forth between P2 and P3 (it is only ever produced on P0), and on seed 26
 * (7 processors) the scatter sends the message for P4 both ways between P1
 * and P2.  Such flows conserve, so the LP keeps them, but they carry
 * nothing: the trees must leave them out (waste > 0) and still be exact.
 * Both come from the per-type LPs (--formulation full): the aggregated
 * scatter cancels its circulations before it splits the flow by type.
 * Without the cycle cancelling, the route of P4's messages on seed 26 goes
 * round P1 -> P2 -> P1 and the decomposition fails.
 * Another GLPK may pick another vertex; then waste is 0 here and these
 * seeds no longer exercise the cycle cancelling end to end (the hand-made
 * flow below still does). */
static void test_circulations_in_optima(void)
{
    struct {
        uint64_t seed;
        int n;
        steady_op_t op;
    } cases[] = {{153, 5, STEADY_OP_REDUCE}, {26, 7, STEADY_OP_SCATTER}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        steady_platform_t *p = NULL;
        int parts[4];
        CU_ASSERT_EQUAL_FATAL(
            steady_platform_generate(STEADY_GEN_RANDOM, cases[i].n, cases[i].seed, &p, NULL), 0);
        steady_problem_t prob =
            cases[i].op == STEADY_OP_REDUCE
                ? random_reduce(cases[i].seed, cases[i].n, parts)
                : (steady_problem_t){.op = STEADY_OP_SCATTER,
                                     .source = (int)(cases[i].seed % cases[i].n)};
        steady_solution_t *s = solve_full_ok(p, prob);
        mpq_t waste;
        mpq_init(waste);
        steady_trees_t *t = checked_trees(s, waste);
        if (mpq_sgn(waste) == 0)
            fprintf(stderr, "\n    seed %lu: no circulation in this GLPK's optimum\n",
                    (unsigned long)cases[i].seed);
        CU_ASSERT(mpq_sgn(waste) > 0);
        steady_trees_destroy(t);
        mpq_clear(waste);
        steady_solution_destroy(s);
        steady_platform_destroy(p);
    }
}

/* Net flow of every node (in - out) into net[]. */
static void net_flows(const steady_platform_t *p, mpq_t *flow, mpq_t *net)
{
    for (int v = 0; v < steady_platform_node_count(p); v++)
        mpq_set_ui(net[v], 0, 1);
    for (int e = 0; e < steady_platform_edge_count(p); e++) {
        const steady_edge_t *ed = steady_platform_edge(p, e);
        mpq_add(net[ed->dst], net[ed->dst], flow[e]);
        mpq_sub(net[ed->src], net[ed->src], flow[e]);
    }
}

/* True when the edges of positive flow form no directed cycle (Kahn: peel
 * nodes without incoming positive flow). */
static bool acyclic(const steady_platform_t *p, mpq_t *flow)
{
    int nv = steady_platform_node_count(p), ne = steady_platform_edge_count(p), peeled = 0;
    int indeg[16] = {0};
    bool gone[16] = {false};
    for (int e = 0; e < ne; e++)
        indeg[steady_platform_edge(p, e)->dst] += mpq_sgn(flow[e]) > 0;
    for (bool progress = true; progress;) {
        progress = false;
        for (int v = 0; v < nv; v++)
            if (!gone[v] && indeg[v] == 0) {
                gone[v] = progress = true;
                peeled++;
                for (int e = 0; e < ne; e++)
                    if (steady_platform_edge(p, e)->src == v && mpq_sgn(flow[e]) > 0)
                        indeg[steady_platform_edge(p, e)->dst]--;
            }
    }
    return peeled == nv;
}

/* A ring A -> B -> C -> D -> A with chords B <-> D: one unit from A to D
 * through B, plus 2 units around the ring and 1/2 unit round B <-> D.
 * Cancelling keeps every node's net flow, never raises an edge, leaves no
 * cycle, and so keeps exactly one unit from A to D. */
static void test_cancel_cycles(void)
{
    steady_platform_t *p = parse_ok("processor A speed=1\nprocessor B speed=1\n"
                                    "processor C speed=1\nprocessor D speed=1\n"
                                    "edge A B cost=1\nedge B C cost=1\nedge C D cost=1\n"
                                    "edge D A cost=1\nedge B D cost=1\nedge D B cost=1\n",
                                    STEADY_FORMAT_NATIVE);
    const char *given[] = {"3", "2", "2", "2", "3/2", "1/2"}; /* per edge, in order */
    enum { NE = 6, NV = 4 };
    mpq_t flow[NE], orig[NE], net[NV], net0[NV];
    for (int e = 0; e < NE; e++) {
        mpq_inits(flow[e], orig[e], NULL);
        mpq_set_str(orig[e], given[e], 10);
        mpq_set(flow[e], orig[e]);
    }
    for (int v = 0; v < NV; v++)
        mpq_inits(net[v], net0[v], NULL);
    net_flows(p, orig, net0);
    CU_ASSERT_FALSE(acyclic(p, orig));
    steady_hop_graph_t *g = NULL;
    steady_error_t err = {0};
    CU_ASSERT_EQUAL_FATAL(steady_hop_graph_build(p, &g, &err), STEADY_OK);
    CU_ASSERT_EQUAL(steady_hop_graph_count(g), NE); /* no switch: hop e is edge e */
    int n = steady_hop_flow_cancel_cycles(g, flow);
    CU_ASSERT(n >= 2 && n <= NE); /* the ring and B <-> D at least */
    CU_ASSERT_TRUE(acyclic(p, flow));
    net_flows(p, flow, net);
    for (int v = 0; v < NV; v++)
        CU_ASSERT(mpq_equal(net[v], net0[v]));
    for (int e = 0; e < NE; e++)
        CU_ASSERT(mpq_sgn(flow[e]) >= 0 && mpq_cmp(flow[e], orig[e]) <= 0);
    /* acyclic with one unit out of A: A -> B carries exactly 1, D -> A nothing */
    CU_ASSERT(mpq_cmp_ui(flow[0], 1, 1) == 0);
    CU_ASSERT_EQUAL(mpq_sgn(flow[3]), 0);
    /* an acyclic flow is left alone */
    CU_ASSERT_EQUAL(steady_hop_flow_cancel_cycles(g, flow), 0);
    net_flows(p, flow, net);
    for (int v = 0; v < NV; v++)
        CU_ASSERT(mpq_equal(net[v], net0[v]));
    /* over its support listed in any order: the same cycles cancelled, the
     * same result; the ring alone (the chords' hops not listed, their flow
     * 0) is one cycle, 2 units round, gone */
    mpq_t again[NE];
    const int every[NE] = {5, 4, 3, 2, 1, 0}, ring[4] = {3, 1, 0, 2};
    for (int e = 0; e < NE; e++) {
        mpq_init(again[e]);
        mpq_set(again[e], orig[e]);
    }
    CU_ASSERT_EQUAL(steady_hop_flow_cancel_cycles_in(g, again, every, NE), n);
    for (int e = 0; e < NE; e++) {
        CU_ASSERT(mpq_equal(again[e], flow[e]));
        mpq_set_si(again[e], e < 4 ? 2 : 0, 1);
    }
    CU_ASSERT_EQUAL(steady_hop_flow_cancel_cycles_in(g, again, ring, 4), 1);
    for (int e = 0; e < NE; e++) {
        CU_ASSERT_EQUAL(mpq_sgn(again[e]), 0);
        mpq_clear(again[e]);
    }
    for (int e = 0; e < NE; e++)
        mpq_clears(flow[e], orig[e], NULL);
    for (int v = 0; v < NV; v++)
        mpq_clears(net[v], net0[v], NULL);
    steady_hop_graph_destroy(g);
    steady_platform_destroy(p);
}

/* ---- the container and refusals --------------------------------------------- */

static void test_append(void)
{
    steady_trees_t *t = calloc(1, sizeof *t);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    steady_step_t steps[3] = {{.kind = STEADY_STEP_SEND, .edge = 4, .type = 1},
                              {.kind = STEADY_STEP_COMPUTE, .node = 2, .task = 3},
                              {.kind = STEADY_STEP_SEND, .edge = 0, .type = 5}};
    mpq_t w;
    mpq_init(w);
    for (int i = 1; i <= 3; i++) {
        mpq_set_ui(w, 1, (unsigned long)i + 1);
        CU_ASSERT_TRUE(trees_append(t, w, steps, i));
    }
    steps[0].edge = 99; /* the steps were copied */
    CU_ASSERT_EQUAL(t->ntrees, 3);
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(t->trees[i].nsteps, i + 1);
        CU_ASSERT_EQUAL(t->trees[i].steps[0].edge, 4);
        mpq_set_ui(w, 1, (unsigned long)i + 2);
        CU_ASSERT(mpq_equal(t->trees[i].weight, w));
    }
    CU_ASSERT_EQUAL(t->trees[2].steps[1].task, 3);
    CU_ASSERT_EQUAL(t->trees[2].steps[2].type, 5);
    mpq_clear(w);
    steady_trees_destroy(t);
    steady_trees_destroy(NULL);
}

/* Without the exact optimum the rates do not conserve exactly, and no
 * decomposition can add up to them: refused, not a bug. */
static void test_approximate_refused(void)
{
    steady_platform_t *p = parse_ok(paper_reduce, STEADY_FORMAT_NATIVE);
    steady_problem_t prob = {.op = STEADY_OP_SCATTER, .source = 0};
    steady_solve_options_t opts = {.exact = false};
    steady_solution_t *s = NULL;
    CU_ASSERT_EQUAL_FATAL(steady_lp_solve(p, &prob, &opts, &s, NULL), STEADY_OK);
    CU_ASSERT_FALSE(steady_solution_is_exact(s));
    steady_trees_t dummy, *t = &dummy; /* must be reset to NULL */
    steady_error_t err = {0};
    CU_ASSERT_EQUAL(steady_trees_decompose(s, &t, &err), STEADY_EUNSUPPORTED);
    CU_ASSERT_PTR_NULL(t);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "approximate"));
    steady_solution_destroy(s);
    steady_platform_destroy(p);
}

void suite_trees(void)
{
    static const CU_TestInfo tests[] = {
        {"paper reduce example: valid trees adding up to TP = 1", test_paper_reduce},
        {"line: TP = 2/3 needs two trees", test_line_needs_two_trees},
        {"scatter routes per message", test_scatter_routes},
        {"random platforms: reduce, scatter, gossip", test_random},
        {"circulations in GLPK's optima are left out", test_circulations_in_optima},
        {"cycle cancelling on a hand-made flow", test_cancel_cycles},
        {"trees_append copies, destroy frees", test_append},
        {"approximate solutions are refused", test_approximate_refused},
        CU_TEST_INFO_NULL};
    add_suite("trees", tests);
}
