/*
 * test_check.c — the independent schedule validator (steady_schedule_check).
 *
 * Small valid schedules are written by hand, as the paper draws them: the
 * reduce of Figure 6 (one tree, and the paper's two trees of period 3), a
 * scatter along a chain, a scatter and a gossip through one port, a
 * broadcast arborescence.  Each passes with no violation; then one thing
 * is broken at a time (a mutant) and the validator must name it with the
 * expected line (check_util.h runs the validator).  The builder's
 * schedules and their mutants: test_check_built.c.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "steady/schedule.h"
#include "tests.h"

/* ---- building schedules by hand ------------------------------------------ */

static void set_q(mpq_t q, const char *s)
{
    CU_ASSERT_EQUAL_FATAL(mpq_set_str(q, s, 10), 0);
    mpq_canonicalize(q);
}

static int node(const steady_platform_t *p, const char *name)
{
    int v = steady_platform_find_node(p, name);
    CU_ASSERT_FATAL(v >= 0);
    return v;
}

static int edge(const steady_platform_t *p, const char *a, const char *b)
{
    int e = steady_platform_find_edge(p, node(p, a), node(p, b));
    CU_ASSERT_FATAL(e >= 0);
    return e;
}

/* The LP's optimum for prob, which must be want. */
static void set_optimum(steady_schedule_t *sc, const steady_platform_t *p, steady_problem_t prob,
                        const char *want)
{
    steady_solution_t *s = NULL;
    CU_ASSERT_EQUAL_FATAL(steady_lp_solve(p, &prob, NULL, &s, NULL), STEADY_OK);
    steady_solution_throughput(s, sc->optimum);
    steady_solution_destroy(s);
    mpq_t w;
    mpq_init(w);
    set_q(w, want);
    CU_ASSERT(mpq_equal(w, sc->optimum));
    mpq_clear(w);
}

/* A schedule header for p (freed by steady_schedule_destroy, like the
 * builder's: every array malloc'd). */
static steady_schedule_t *sched_new(const steady_platform_t *p, steady_op_t op, int ns,
                                    const int *src, int nt, const int *tgt)
{
    steady_schedule_t *sc = calloc(1, sizeof *sc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    mpq_inits(sc->optimum, sc->throughput, sc->period, sc->loss, sc->loss_bound, NULL);
    CU_ASSERT_EQUAL(steady_platform_hash(p, &sc->platform_hash, NULL), STEADY_OK);
    sc->platform_name = strdup(steady_platform_name(p));
    sc->platform_nodes = steady_platform_node_count(p);
    sc->platform_edges = steady_platform_edge_count(p);
    sc->op = op;
    sc->nsources = ns;
    sc->sources = malloc((size_t)ns * sizeof *sc->sources);
    memcpy(sc->sources, src, (size_t)ns * sizeof *src);
    sc->ntargets = nt;
    sc->targets = malloc((size_t)nt * sizeof *sc->targets);
    memcpy(sc->targets, tgt, (size_t)nt * sizeof *tgt);
    sc->msg_size = 1;
    sc->task_cost = 1;
    sc->abstract = steady_platform_is_abstract(p);
    return sc;
}

/* period, operations per period, throughput = ops / period */
static void set_period(steady_schedule_t *sc, const char *period, long ops)
{
    set_q(sc->period, period);
    sc->ops_per_period = ops;
    sc->segments = 1;
    mpq_set_si(sc->throughput, ops, 1);
    mpq_div(sc->throughput, sc->throughput, sc->period);
}

static void add_types(steady_schedule_t *sc, int n, const char *const *names)
{
    sc->ntypes = n;
    sc->types = malloc((size_t)n * sizeof *sc->types);
    for (int i = 0; i < n; i++)
        sc->types[i] = strdup(names[i]);
}

static steady_sched_step_t send(const steady_platform_t *p, const char *a, const char *b, int type,
                                int lag)
{
    return (steady_sched_step_t){.kind = STEADY_STEP_SEND,
                                 .edge = edge(p, a, b),
                                 .hop = -1,
                                 .type = type,
                                 .node = -1,
                                 .lag = lag};
}

static steady_sched_step_t task(const steady_platform_t *p, const char *on, int k, int l, int m,
                                int lag)
{
    return (steady_sched_step_t){.kind = STEADY_STEP_COMPUTE,
                                 .hop = -1,
                                 .edge = -1,
                                 .type = -1,
                                 .node = node(p, on),
                                 .k = k,
                                 .l = l,
                                 .m = m,
                                 .lag = lag};
}

static void add_tree(steady_schedule_t *sc, long weight, long first, int n,
                     const steady_sched_step_t *steps)
{
    sc->trees = realloc(sc->trees, (size_t)(sc->ntrees + 1) * sizeof *sc->trees);
    steady_sched_tree_t *t = &sc->trees[sc->ntrees++];
    t->weight = weight;
    t->first = first;
    t->nsteps = n;
    t->steps = malloc((size_t)n * sizeof *t->steps);
    memcpy(t->steps, steps, (size_t)n * sizeof *steps);
    for (int i = 0; i < n; i++)
        if (steps[i].lag > sc->max_lag)
            sc->max_lag = steps[i].lag;
}

typedef struct {
    int tree, step;
    const char *from, *to;
} xfer_t;

static void add_slot(steady_schedule_t *sc, const char *start, const char *duration, int n,
                     const xfer_t *x)
{
    sc->slots = realloc(sc->slots, (size_t)(sc->nslots + 1) * sizeof *sc->slots);
    steady_sched_slot_t *s = &sc->slots[sc->nslots++];
    mpq_inits(s->start, s->duration, NULL);
    set_q(s->start, start);
    set_q(s->duration, duration);
    s->ntransfers = n;
    s->transfers = malloc((size_t)(n ? n : 1) * sizeof *s->transfers);
    for (int i = 0; i < n; i++) {
        s->transfers[i].tree = x[i].tree;
        s->transfers[i].step = x[i].step;
        mpq_inits(s->transfers[i].from, s->transfers[i].to, NULL);
        set_q(s->transfers[i].from, x[i].from);
        set_q(s->transfers[i].to, x[i].to);
    }
}

static void add_compute(steady_schedule_t *sc, int on, int tree, int step, long count)
{
    sc->compute = realloc(sc->compute, (size_t)(sc->ncompute + 1) * sizeof *sc->compute);
    sc->compute[sc->ncompute++] =
        (steady_sched_compute_t){.node = on, .tree = tree, .step = step, .count = count};
}

static void add_buffer(steady_schedule_t *sc, int on, int type, long messages)
{
    sc->buffers = realloc(sc->buffers, (size_t)(sc->nbuffers + 1) * sizeof *sc->buffers);
    sc->buffers[sc->nbuffers++] =
        (steady_sched_buffer_t){.node = on, .type = type, .messages = messages};
}

/* ---- the paper's reduce (Figure 6) ---------------------------------------- */

/* One reduction tree of weight 1, period 1: P1 sends v[1,1] to P2 (lag
 * 0), P2 computes v[1,2] = T(1,1,2) (lag 1) and sends it to P0 (lag 2),
 * P0 computes v[0,2] = T(0,0,2) (lag 3).  Both sends share the period's one
 * slot: different senders, different receivers.  From one period to the
 * next P2 holds one v[1,1] and the v[1,2] it computed, P0 one v[1,2]. */
static steady_schedule_t *reduce_one_tree(const steady_platform_t *p)
{
    int P0 = node(p, "P0"), P1 = node(p, "P1"), P2 = node(p, "P2");
    steady_schedule_t *sc = sched_new(p, STEADY_OP_REDUCE, 3, (int[]){P0, P1, P2}, 1, &P0);
    set_optimum(sc, p, paper_reduce_to_p0, "1");
    set_period(sc, "1", 1);
    add_types(sc, 2, (const char *[]){"[1,1]", "[1,2]"});
    add_tree(sc, 1, 0, 4,
             (steady_sched_step_t[]){send(p, "P1", "P2", 0, 0), task(p, "P2", 1, 1, 2, 1),
                                     send(p, "P2", "P0", 1, 2), task(p, "P0", 0, 0, 2, 3)});
    add_slot(sc, "0", "1", 2, (xfer_t[]){{0, 0, "0", "1"}, {0, 2, "0", "1"}});
    add_compute(sc, P2, 0, 1, 1);
    add_compute(sc, P0, 0, 3, 1);
    add_buffer(sc, P2, 0, 1);
    add_buffer(sc, P2, 1, 1);
    add_buffer(sc, P0, 1, 1);
    return sc;
}

/* The paper's two trees (Figure 7) in its period T = 3 (Figure 6(b)): the
 * first, of weight 2, reduces through P2 as above; the second, of weight
 * 1, sends v[2,2] to P1, which computes v[1,2] and sends it to P0.  Per
 * period P1 and P2 each send 3 messages and P0 receives 3: three slots of
 * length 1, the first tree's messages split over the first two. */
static steady_schedule_t *reduce_figure6(const steady_platform_t *p)
{
    int P0 = node(p, "P0"), P1 = node(p, "P1"), P2 = node(p, "P2");
    steady_schedule_t *sc = sched_new(p, STEADY_OP_REDUCE, 3, (int[]){P0, P1, P2}, 1, &P0);
    set_optimum(sc, p, paper_reduce_to_p0, "1");
    set_period(sc, "3", 3);
    add_types(sc, 3, (const char *[]){"[1,1]", "[1,2]", "[2,2]"});
    add_tree(sc, 2, 0, 4,
             (steady_sched_step_t[]){send(p, "P1", "P2", 0, 0), task(p, "P2", 1, 1, 2, 1),
                                     send(p, "P2", "P0", 1, 2), task(p, "P0", 0, 0, 2, 3)});
    add_tree(sc, 1, 2, 4,
             (steady_sched_step_t[]){send(p, "P2", "P1", 2, 0), task(p, "P1", 1, 1, 2, 1),
                                     send(p, "P1", "P0", 1, 2), task(p, "P0", 0, 0, 2, 3)});
    add_slot(sc, "0", "1", 2, (xfer_t[]){{0, 0, "0", "1"}, {0, 2, "0", "1"}});
    add_slot(sc, "1", "1", 2, (xfer_t[]){{0, 0, "1", "2"}, {0, 2, "1", "2"}});
    add_slot(sc, "2", "1", 2, (xfer_t[]){{1, 0, "0", "1"}, {1, 2, "0", "1"}});
    add_compute(sc, P2, 0, 1, 2);
    add_compute(sc, P0, 0, 3, 2);
    add_compute(sc, P1, 1, 1, 1);
    add_compute(sc, P0, 1, 3, 1);
    add_buffer(sc, P2, 0, 2);
    add_buffer(sc, P2, 1, 2);
    add_buffer(sc, P0, 1, 3);
    add_buffer(sc, P1, 2, 1);
    add_buffer(sc, P1, 1, 1);
    return sc;
}

/* Figure 6(b) with the first tree's two messages per hop back to back in
 * one slot of length 2 (version 6: a sender's transfers to its one peer
 * one after another), then the second tree's in a slot of length 1. */
static steady_schedule_t *reduce_figure6_edges(const steady_platform_t *p)
{
    steady_schedule_t *sc = reduce_figure6(p);
    for (int x = 0; x < 2; x++)
        sched_move_transfer(sc, 1, 0, 0);
    set_q(sc->slots[0].duration, "2");
    set_q(sc->slots[1].start, "2");
    sched_move_transfer(sc, 2, 0, 1);
    sched_move_transfer(sc, 2, 0, 1);
    steady_sched_slot_t *last = &sc->slots[--sc->nslots];
    mpq_clears(last->start, last->duration, NULL);
    free(last->transfers);
    return sc;
}

static void test_reduce_valid(void)
{
    steady_platform_t *p = parse_ok(paper_reduce_text, STEADY_FORMAT_NATIVE);
    steady_schedule_t *sc = reduce_one_tree(p);
    CU_ASSERT_EQUAL(sched_violations(sc, p), 0);
    steady_schedule_destroy(sc);
    sc = reduce_figure6(p);
    CU_ASSERT_EQUAL(sched_violations(sc, p), 0);
    /* the same with the paper's fixed period T = 3 (§4.6): no loss, and
     * the bound is 2 trees / 3 */
    sc->fixed_period = true;
    set_q(sc->loss_bound, "2/3");
    CU_ASSERT_EQUAL(sched_violations(sc, p), 0);
    /* the first two slots merged into one of length 2; a slot of length 0;
     * then the last slot halved, which leaves half of tree 1's messages */
    steady_schedule_destroy(sc);
    sc = reduce_figure6(p);
    sched_drop_transfer(sc, 1, 1);
    sched_drop_transfer(sc, 1, 0);
    set_q(sc->slots[0].duration, "2");
    set_q(sc->slots[0].transfers[0].to, "2");
    set_q(sc->slots[0].transfers[1].to, "2");
    set_q(sc->slots[1].duration, "0");
    sc->slots[1].ntransfers = 0;
    CU_ASSERT(sched_has_line(sc, p, "slot 1: duration 0 is not positive", NULL, 1));
    set_q(sc->slots[1].start, "2");
    set_q(sc->slots[1].duration, "1/2"); /* an idle half slot is harmless */
    set_q(sc->slots[2].start, "5/2");
    set_q(sc->slots[2].duration, "1/2");
    set_q(sc->slots[2].transfers[0].to, "1/2");
    set_q(sc->slots[2].transfers[1].to, "1/2");
    EXPECT_LINE(sc, p, "tree 1 step 0 (P2 -> P1, type [2,2]): positions [1/2, 1) are never sent");
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
}

/* ---- mutants of the reduce ------------------------------------------------ */

static void test_reduce_mutants(void)
{
    steady_platform_t *p = parse_ok(paper_reduce_text, STEADY_FORMAT_NATIVE);
    steady_schedule_t *sc;

    /* a transfer dropped: v[1,2] never reaches P0 */
    sc = reduce_one_tree(p);
    sched_drop_transfer(sc, 0, 1);
    EXPECT_LINE(sc, p, "tree 0 step 2 (P2 -> P0, type [1,2]): positions [0, 1) are never sent");
    steady_schedule_destroy(sc);

    /* two lags swapped: P2 computes before v[1,1] arrives */
    sc = reduce_one_tree(p);
    sc->trees[0].steps[0].lag = 1;
    sc->trees[0].steps[1].lag = 0;
    EXPECT_LINE(sc, p,
                "tree 0 step 1 (compute T(1,1,2) on P2): lag 0 is smaller than the lag 1 of "
                "step 0, which produces v[1,1] on P2");
    steady_schedule_destroy(sc);

    /* a send in the same period as the task that produces what it sends
     * (a task may use its period's receptions, a send may not use its
     * period's tasks: they run after the slots) */
    sc = reduce_one_tree(p);
    sc->trees[0].steps[2].lag = 1;
    EXPECT_LINE(sc, p,
                "tree 0 step 2 (P2 -> P0, type [1,2]): lag 1 is not larger than the lag 1 of "
                "step 1, which produces v[1,2] on P2");
    steady_schedule_destroy(sc);

    /* the last task in the same period as the send that feeds it: valid */
    sc = reduce_one_tree(p);
    sc->trees[0].steps[3].lag = 2;
    sc->max_lag = 2;
    CU_ASSERT_EQUAL(sched_violations(sc, p), 0);
    steady_schedule_destroy(sc);

    /* a tree's tasks listed against their order */
    sc = reduce_one_tree(p);
    steady_sched_compute_t first = sc->compute[0];
    sc->compute[0] = sc->compute[1];
    sc->compute[1] = first;
    EXPECT_LINE(sc, p,
                "compute 0: tree 0 step 3 is listed before step 1 (compute 1), which comes "
                "earlier in the tree");
    steady_schedule_destroy(sc);

    /* steps out of dependency order: the task listed before the send */
    sc = reduce_one_tree(p);
    steady_sched_step_t t0 = sc->trees[0].steps[0];
    sc->trees[0].steps[0] = sc->trees[0].steps[1];
    sc->trees[0].steps[1] = t0;
    EXPECT_LINE(sc, p,
                "tree 0 step 0 (compute T(1,1,2) on P2): uses v[1,1] on P2, which no earlier step "
                "of the tree produces there");
    steady_schedule_destroy(sc);

    /* the second send from P1 instead of P2: P1 never holds v[1,2] */
    sc = reduce_one_tree(p);
    sc->trees[0].steps[2].edge = edge(p, "P1", "P0");
    EXPECT_LINE(sc, p,
                "tree 0 step 2 (P1 -> P0, type [1,2]): uses v[1,2] on P1, which no earlier step "
                "of the tree produces there");
    EXPECT_LINE(sc, p, "tree 0 step 1: v[1,2] produced on P2 is never used");
    EXPECT_LINE(sc, p, "slot 0: P1 sends twice (to P2 and to P0)");
    steady_schedule_destroy(sc);

    /* a transfer on an edge the platform does not have */
    sc = reduce_one_tree(p);
    sc->trees[0].steps[2].edge = 99;
    EXPECT_LINE(sc, p, "tree 0 step 2: edge 99 does not exist (the platform has 6 edges)");
    steady_schedule_destroy(sc);

    /* the final task on P1: v[0,2] ends away from the target */
    sc = reduce_one_tree(p);
    sc->trees[0].steps[3].node = node(p, "P1");
    sc->compute[1].node = node(p, "P1");
    EXPECT_LINE(sc, p,
                "tree 0 step 3 (compute T(0,0,2) on P1): uses v[0,0] on P1, which no earlier step "
                "of the tree produces there");
    EXPECT_LINE(sc, p, "tree 0: v[0,2] does not end on P0");
    steady_schedule_destroy(sc);

    /* a task merging intervals that are not adjacent */
    sc = reduce_one_tree(p);
    sc->trees[0].steps[3].m = 3;
    EXPECT_LINE(sc, p, "tree 0 step 3: T(0,0,3) on P0 is not a task of 3 participants");
    steady_schedule_destroy(sc);

    /* the CPU: tasks of cost 2 take P2 2 time units per period of 1 */
    sc = reduce_one_tree(p);
    sc->task_cost = 2;
    EXPECT_LINE(sc, p, "P2: its tasks take 2 per period, more than the period (1)");
    steady_schedule_destroy(sc);

    /* a throughput above the LP's optimum */
    sc = reduce_one_tree(p);
    set_q(sc->optimum, "1/2");
    EXPECT_LINE(sc, p, "schedule: throughput 1 is above the optimum 1/2");
    steady_schedule_destroy(sc);

    /* an exact period below the optimum: something is missing */
    sc = reduce_one_tree(p);
    set_q(sc->optimum, "2");
    EXPECT_LINE(sc, p, "schedule: the exact period gives throughput 1, below the optimum 2");
    steady_schedule_destroy(sc);

    /* max_lag and the buffers are recomputed */
    sc = reduce_one_tree(p);
    sc->max_lag = 2;
    sc->nbuffers = 1;
    EXPECT_LINE(sc, p, "schedule: max_lag is 2, the largest lag of the steps is 3");
    EXPECT_LINE(sc, p, "buffers: P0 holds 1 messages (v[1,2]) across periods, not listed");
    steady_schedule_destroy(sc);

    /* one type named twice, one buffer listed twice */
    sc = reduce_one_tree(p);
    free(sc->types[1]);
    sc->types[1] = strdup("[1,1]");
    EXPECT_LINE(sc, p, "type 1 ([1,1]): the same as type 0");
    steady_schedule_destroy(sc);
    sc = reduce_one_tree(p);
    add_buffer(sc, node(p, "P2"), 0, 1);
    EXPECT_LINE(sc, p, "buffers: P2 (v[1,1]) listed twice");
    steady_schedule_destroy(sc);

    /* a task missing from the compute list */
    sc = reduce_one_tree(p);
    sc->ncompute = 1;
    EXPECT_LINE(sc, p, "tree 0 step 3 (compute T(0,0,2) on P0): missing from the compute list");
    steady_schedule_destroy(sc);

    /* a schedule for another platform */
    sc = reduce_one_tree(p);
    steady_platform_t *q = parse_ok("processor P0 speed=2\nprocessor P1 speed=1\n"
                                    "processor P2 speed=1\nlink P0 P1 cost=1\nlink P0 P2 cost=2\n"
                                    "link P1 P2 cost=1\n",
                                    STEADY_FORMAT_NATIVE);
    EXPECT_MATCH(sc, q, "platform: the schedule is for the platform of hash fnv1a64:", NULL);
    steady_platform_destroy(q);
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
}

static void test_figure6_mutants(void)
{
    steady_platform_t *p = parse_ok(paper_reduce_text, STEADY_FORMAT_NATIVE);
    steady_schedule_t *sc;

    /* P1 sends v[1,1] to P2 in the slot where it sends v[1,2] to P0 */
    sc = reduce_figure6(p);
    sched_move_transfer(sc, 1, 0, 2);
    EXPECT_LINE(sc, p, "slot 2: P1 sends twice (to P0 and to P2)");
    steady_schedule_destroy(sc);

    /* P0 receives from P1 and from P2 at once */
    sc = reduce_figure6(p);
    sched_move_transfer(sc, 2, 1, 1);
    EXPECT_LINE(sc, p, "slot 1: P0 receives twice (from P2 and from P1)");
    steady_schedule_destroy(sc);

    /* two transfers of a port to the same peer in a slot, one after the
     * other: valid where they fit together, reported where they do not */
    sc = reduce_figure6_edges(p);
    CU_ASSERT_EQUAL(sc->slots[0].ntransfers, 4);
    CU_ASSERT_EQUAL(sched_violations(sc, p), 0);
    set_q(sc->slots[0].duration, "3/2");
    EXPECT_LINE(sc, p, "slot 0: P1 sends for 2 in all, longer than the slot (3/2)");
    EXPECT_LINE(sc, p, "slot 0: P2 receives for 2 in all, longer than the slot (3/2)");
    EXPECT_LINE(sc, p, "slot 0: P2 sends for 2 in all, longer than the slot (3/2)");
    EXPECT_LINE(sc, p, "slot 0: P0 receives for 2 in all, longer than the slot (3/2)");
    steady_schedule_destroy(sc);

    /* a weight changed: 4 operations in a batch of 3 */
    sc = reduce_figure6(p);
    sc->trees[0].weight = 3;
    EXPECT_LINE(sc, p, "schedule: the trees carry 4 operations per period, ops_per_period is 3");
    EXPECT_LINE(sc, p,
                "tree 1: first is 2, but the trees before it take operations [0, 3) of the "
                "batch");
    EXPECT_LINE(sc, p, "tree 0 step 0 (P1 -> P2, type [1,1]): positions [2, 3) are never sent");
    steady_schedule_destroy(sc);

    /* a count changed */
    sc = reduce_figure6(p);
    sc->compute[0].count = 1;
    EXPECT_LINE(sc, p,
                "compute 0: tree 0 step 1 (compute T(1,1,2) on P2) runs 2 tasks per period, "
                "listed with count 1");
    steady_schedule_destroy(sc);

    /* ops_per_period changed: the throughput no longer follows */
    sc = reduce_figure6(p);
    sc->ops_per_period = 4;
    EXPECT_LINE(sc, p, "schedule: the trees carry 3 operations per period, ops_per_period is 4");
    EXPECT_LINE(sc, p, "schedule: throughput is 1, but 4 operations per period of 3 give 4/3");
    EXPECT_LINE(sc, p, "schedule: throughput 4/3 is above the optimum 1");
    steady_schedule_destroy(sc);

    /* a part shrunk: half a message fewer (a transfer may be shorter
     * than its slot, the coverage sees it) */
    sc = reduce_figure6(p);
    set_q(sc->slots[1].transfers[0].to, "3/2");
    EXPECT_LINE(sc, p, "tree 0 step 0 (P1 -> P2, type [1,1]): positions [3/2, 2) are never sent");
    steady_schedule_destroy(sc);

    /* a slot shrunk: its transfer no longer fits */
    sc = reduce_figure6(p);
    set_q(sc->slots[1].duration, "1/2");
    EXPECT_LINE(sc, p,
                "slot 1: tree 0 step 0 (P1 -> P2, type [1,1]) carries [1, 2) in 1, longer than "
                "the slot (1/2)");
    steady_schedule_destroy(sc);

    /* the same positions sent twice */
    sc = reduce_figure6(p);
    set_q(sc->slots[1].transfers[0].from, "0");
    set_q(sc->slots[1].transfers[0].to, "1");
    EXPECT_LINE(sc, p,
                "tree 0 step 0 (P1 -> P2, type [1,1]): positions [0, 1) are sent twice (slots 0 "
                "and 1)");
    EXPECT_LINE(sc, p, "tree 0 step 0 (P1 -> P2, type [1,1]): positions [1, 2) are never sent");
    steady_schedule_destroy(sc);

    /* a part beyond the tree's weight */
    sc = reduce_figure6(p);
    set_q(sc->slots[2].transfers[0].from, "1");
    set_q(sc->slots[2].transfers[0].to, "2");
    EXPECT_LINE(
        sc, p, "slot 2: tree 1 step 0 (P2 -> P1, type [2,2]) carries [1, 2), not a part of [0, 1]");
    steady_schedule_destroy(sc);

    /* two slots overlapping */
    sc = reduce_figure6(p);
    set_q(sc->slots[1].start, "1/2");
    EXPECT_LINE(sc, p, "slot 1: starts at 1/2, before slot 0 ends (1)");
    steady_schedule_destroy(sc);

    /* a slot beyond the period */
    sc = reduce_figure6(p);
    set_q(sc->slots[2].start, "5/2");
    EXPECT_LINE(sc, p, "slot 2: ends at 7/2, after the end of the period (3)");
    steady_schedule_destroy(sc);

    /* a transfer naming a task, or nothing */
    sc = reduce_figure6(p);
    sc->slots[0].transfers[0].step = 1;
    sc->slots[0].transfers[1].tree = 7;
    EXPECT_LINE(sc, p, "slot 0 transfer 0: tree 0 step 1 is not a send");
    EXPECT_LINE(sc, p, "slot 0 transfer 1: tree 7 step 2 does not exist");
    steady_schedule_destroy(sc);

    /* the fixed period's loss and bound */
    sc = reduce_figure6(p);
    sc->fixed_period = true;
    set_q(sc->loss, "1/3");
    set_q(sc->loss_bound, "1/2");
    EXPECT_LINE(sc, p, "schedule: loss is 1/3, optimum - throughput is 0");
    EXPECT_LINE(sc, p,
                "schedule: loss_bound is 1/2, not a number of trees (at least 2) / period 3");
    steady_schedule_destroy(sc);

    /* a fixed period that loses more than its bound */
    sc = reduce_figure6(p);
    sc->fixed_period = true;
    set_period(sc, "3", 2);
    sc->trees[1].weight = 0;
    set_q(sc->loss, "1/3");
    set_q(sc->loss_bound, "0");
    EXPECT_LINE(sc, p, "schedule: the loss 1/3 exceeds the bound 0 (paper §4.6)");
    EXPECT_LINE(sc, p, "tree 1: weight 0 is not positive");
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
}

/* A router where a task is placed. */
static void test_router_task(void)
{
    char text[512];
    snprintf(text, sizeof text, "%srouter R\nlink P2 R cost=1\n", paper_reduce_text);
    steady_platform_t *p = parse_ok(text, STEADY_FORMAT_NATIVE);
    steady_schedule_t *sc = reduce_one_tree(p);
    CU_ASSERT_EQUAL(sched_violations(sc, p), 0);
    int R = node(p, "R");
    sc->trees[0].steps[1].node = R;
    sc->compute[0].node = R;
    EXPECT_LINE(sc, p, "tree 0 step 1: compute T(1,1,2) on the router R");
    EXPECT_LINE(sc, p, "compute 0: tasks on the router R");
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
}

/* ---- scatter, gossip, broadcast ------------------------------------------ */

/* A one-way chain A -> B -> C: the scatter from A sends B's message on
 * A -> B and C's along A -> B -> C (lags 0 then 1); A's port sends two
 * messages per operation: period 2.  B holds C's message across a period. */
static const char *chain = "processor A speed=1\nprocessor B speed=1\nprocessor C speed=1\n"
                           "edge A B cost=1\nedge B C cost=1\n";

static steady_schedule_t *scatter_chain(const steady_platform_t *p)
{
    int A = node(p, "A"), B = node(p, "B"), C = node(p, "C");
    steady_schedule_t *sc = sched_new(p, STEADY_OP_SCATTER, 1, &A, 2, (int[]){B, C});
    set_optimum(sc, p, (steady_problem_t){.op = STEADY_OP_SCATTER, .source = A}, "1/2");
    set_period(sc, "2", 1);
    add_types(sc, 2, (const char *[]){"B", "C"});
    add_tree(sc, 1, 0, 1, (steady_sched_step_t[]){send(p, "A", "B", 0, 0)});
    add_tree(sc, 1, 0, 2,
             (steady_sched_step_t[]){send(p, "A", "B", 1, 0), send(p, "B", "C", 1, 1)});
    add_slot(sc, "0", "1", 2, (xfer_t[]){{0, 0, "0", "1"}, {1, 1, "0", "1"}});
    add_slot(sc, "1", "1", 1, (xfer_t[]){{1, 0, "0", "1"}});
    add_buffer(sc, B, 1, 1);
    return sc;
}

/* The same scatter with C's message forwarded by B in the period it
 * reaches B: A -> B (type C) in slot 0, B -> C in slot 1 with the same lag
 * 0; B's message crosses A -> B in slot 1.  latency is A -> B's. */
static steady_schedule_t *scatter_forward(const steady_platform_t *p)
{
    int A = node(p, "A"), B = node(p, "B"), C = node(p, "C");
    steady_schedule_t *sc = sched_new(p, STEADY_OP_SCATTER, 1, &A, 2, (int[]){B, C});
    set_optimum(sc, p, (steady_problem_t){.op = STEADY_OP_SCATTER, .source = A}, "1/2");
    set_period(sc, "2", 1);
    add_types(sc, 2, (const char *[]){"B", "C"});
    add_tree(sc, 1, 0, 1, (steady_sched_step_t[]){send(p, "A", "B", 0, 0)});
    add_tree(sc, 1, 0, 2,
             (steady_sched_step_t[]){send(p, "A", "B", 1, 0), send(p, "B", "C", 1, 0)});
    add_slot(sc, "0", "1", 1, (xfer_t[]){{1, 0, "0", "1"}});
    add_slot(sc, "1", "1", 2, (xfer_t[]){{0, 0, "0", "1"}, {1, 1, "0", "1"}});
    return sc;
}

/* Same-period forwarding: valid when the part forwarded has arrived (slot
 * end + latency) before the forwarding slot starts, and only then. */
static void test_forwarding(void)
{
    steady_platform_t *p = parse_ok(chain, STEADY_FORMAT_NATIVE);
    steady_schedule_t *sc = scatter_forward(p);
    CU_ASSERT_EQUAL(sched_violations(sc, p), 0);
    steady_schedule_destroy(sc);

    /* the slots swapped: B forwards before A's message is in */
    sc = scatter_forward(p);
    set_q(sc->slots[0].start, "1");
    set_q(sc->slots[1].start, "0");
    steady_sched_slot_t tmp = sc->slots[0];
    sc->slots[0] = sc->slots[1];
    sc->slots[1] = tmp;
    EXPECT_LINE(sc, p,
                "tree 1 step 1 (B -> C, type C): slot 0 starts at 0 and forwards messages [0, 1), "
                "which step 0 (A -> B) delivers in slot 1 only at 2 (slot end + latency), with "
                "the same lag 0");
    steady_schedule_destroy(sc);

    /* in the same slot */
    sc = scatter_forward(p);
    sched_move_transfer(sc, 1, 1, 0);
    EXPECT_MATCH(sc, p, "tree 1 step 1 (B -> C, type C): slot 0 starts at 0 and forwards",
                 "delivers in slot 0 only at 1");
    steady_schedule_destroy(sc);

    /* a latency of 1/2 on A -> B: the message reaches B at 3/2, after the
     * forwarding slot starts; with a gap of 1/2 before that slot it is in
     * time again */
    steady_platform_t *q = parse_ok("processor A speed=1\nprocessor B speed=1\n"
                                    "processor C speed=1\nedge A B cost=1 latency=0.5\n"
                                    "edge B C cost=1\n",
                                    STEADY_FORMAT_NATIVE);
    sc = scatter_forward(q);
    EXPECT_LINE(sc, q,
                "tree 1 step 1 (B -> C, type C): slot 1 starts at 1 and forwards messages [0, 1), "
                "which step 0 (A -> B) delivers in slot 0 only at 3/2 (slot end + latency), with "
                "the same lag 0");
    set_period(sc, "5/2", 1);
    sc->fixed_period = true;
    set_q(sc->loss, "1/10");
    set_q(sc->loss_bound, "4/5");
    set_q(sc->slots[1].start, "3/2");
    CU_ASSERT_EQUAL(sched_violations(sc, q), 0);
    steady_schedule_destroy(sc);
    steady_platform_destroy(q);
    steady_platform_destroy(p);
}

static void test_scatter(void)
{
    steady_platform_t *p = parse_ok(chain, STEADY_FORMAT_NATIVE);
    steady_schedule_t *sc = scatter_chain(p);
    CU_ASSERT_EQUAL(sched_violations(sc, p), 0);
    /* lags swapped along the path */
    sc->trees[1].steps[0].lag = 1;
    sc->trees[1].steps[1].lag = 0;
    EXPECT_LINE(sc, p,
                "tree 1 step 1 (B -> C, type C): lag 0 is smaller than the lag 1 of step 0, "
                "which produces the message for C on B");
    steady_schedule_destroy(sc);

    /* C's route claiming operations that B's route does not shift */
    sc = scatter_chain(p);
    sc->trees[1].first = 1;
    EXPECT_LINE(sc, p,
                "tree 1: first is 1, but the trees of type C before it take operations "
                "[0, 0) of the batch");
    steady_schedule_destroy(sc);

    /* the route stops at B */
    sc = scatter_chain(p);
    sc->trees[1].nsteps = 1;
    sched_drop_transfer(sc, 0, 1);
    sc->max_lag = 0;
    sc->nbuffers = 0;
    EXPECT_LINE(sc, p, "tree 1: the message for C does not end on C");
    steady_schedule_destroy(sc);

    /* a message type that is not a target */
    sc = scatter_chain(p);
    free(sc->types[0]);
    sc->types[0] = strdup("A");
    EXPECT_LINE(sc, p, "type 0 (A): is not one of the targets");
    EXPECT_LINE(sc, p,
                "schedule: the trees of type B carry 0 operations per period, "
                "ops_per_period is 1");
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
}

/* A star S -> A, S -> B: S's send port is the bottleneck (TP = 1/2). */
static void test_scatter_send_port(void)
{
    steady_platform_t *p = parse_ok("processor S speed=1\nprocessor A speed=1\n"
                                    "processor B speed=1\nlink S A cost=1\nlink S B cost=1\n"
                                    "link A B cost=1\n",
                                    STEADY_FORMAT_NATIVE);
    int S = node(p, "S"), A = node(p, "A"), B = node(p, "B");
    steady_schedule_t *sc = sched_new(p, STEADY_OP_SCATTER, 1, &S, 2, (int[]){A, B});
    set_optimum(sc, p, (steady_problem_t){.op = STEADY_OP_SCATTER, .source = S}, "1/2");
    set_period(sc, "2", 1);
    add_types(sc, 2, (const char *[]){"A", "B"});
    add_tree(sc, 1, 0, 1, (steady_sched_step_t[]){send(p, "S", "A", 0, 0)});
    add_tree(sc, 1, 0, 1, (steady_sched_step_t[]){send(p, "S", "B", 1, 0)});
    add_slot(sc, "0", "1", 1, (xfer_t[]){{0, 0, "0", "1"}});
    add_slot(sc, "1", "1", 1, (xfer_t[]){{1, 0, "0", "1"}});
    CU_ASSERT_EQUAL(sched_violations(sc, p), 0);
    sched_move_transfer(sc, 1, 0, 0);
    EXPECT_LINE(sc, p, "slot 0: S sends twice (to A and to B)");
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
}

/* A gossip from A and B to C: C's receive port is the bottleneck. */
static void test_gossip_recv_port(void)
{
    steady_platform_t *p = parse_ok("processor A speed=1\nprocessor B speed=1\n"
                                    "processor C speed=1\nlink A C cost=1\nlink B C cost=1\n",
                                    STEADY_FORMAT_NATIVE);
    int A = node(p, "A"), B = node(p, "B"), C = node(p, "C");
    steady_schedule_t *sc = sched_new(p, STEADY_OP_GOSSIP, 2, (int[]){A, B}, 1, &C);
    set_optimum(sc, p,
                (steady_problem_t){.op = STEADY_OP_GOSSIP,
                                   .sources = (int[]){A, B},
                                   .nsources = 2,
                                   .targets = &C,
                                   .ntargets = 1},
                "1/2");
    set_period(sc, "2", 1);
    add_types(sc, 2, (const char *[]){"A>C", "B>C"});
    add_tree(sc, 1, 0, 1, (steady_sched_step_t[]){send(p, "A", "C", 0, 0)});
    add_tree(sc, 1, 0, 1, (steady_sched_step_t[]){send(p, "B", "C", 1, 0)});
    add_slot(sc, "0", "1", 1, (xfer_t[]){{0, 0, "0", "1"}});
    add_slot(sc, "1", "1", 1, (xfer_t[]){{1, 0, "0", "1"}});
    CU_ASSERT_EQUAL(sched_violations(sc, p), 0);
    sched_move_transfer(sc, 1, 0, 0);
    EXPECT_LINE(sc, p, "slot 0: C receives twice (from A and from B)");
    steady_schedule_destroy(sc);

    /* a route that carries B's message from A */
    sc = sched_new(p, STEADY_OP_GOSSIP, 2, (int[]){A, B}, 1, &C);
    set_q(sc->optimum, "1/2");
    set_period(sc, "2", 1);
    add_types(sc, 2, (const char *[]){"A>C", "B>C"});
    add_tree(sc, 1, 0, 1, (steady_sched_step_t[]){send(p, "A", "C", 0, 0)});
    add_tree(sc, 1, 0, 1, (steady_sched_step_t[]){send(p, "A", "C", 1, 0)});
    add_slot(sc, "0", "1", 1, (xfer_t[]){{0, 0, "0", "1"}});
    add_slot(sc, "1", "1", 1, (xfer_t[]){{1, 0, "0", "1"}});
    EXPECT_LINE(sc, p,
                "tree 1 step 0 (A -> C, type B>C): uses the message B>C on A, which no earlier "
                "step of the tree produces there");
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
}

/* A broadcast from P0 on the paper's triangle: the arborescence P0 -> P1
 * -> P2 pipelines at TP = 1, both sends in one slot. */
static void test_broadcast(void)
{
    steady_platform_t *p = parse_ok(paper_reduce_text, STEADY_FORMAT_NATIVE);
    int P0 = node(p, "P0"), P1 = node(p, "P1"), P2 = node(p, "P2");
    steady_schedule_t *sc = sched_new(p, STEADY_OP_BROADCAST, 1, &P0, 2, (int[]){P1, P2});
    set_optimum(sc, p, (steady_problem_t){.op = STEADY_OP_BROADCAST, .source = P0}, "1");
    set_period(sc, "1", 1);
    add_types(sc, 1, (const char *[]){"msg"});
    add_tree(sc, 1, 0, 2,
             (steady_sched_step_t[]){send(p, "P0", "P1", 0, 0), send(p, "P1", "P2", 0, 1)});
    add_slot(sc, "0", "1", 2, (xfer_t[]){{0, 0, "0", "1"}, {0, 1, "0", "1"}});
    add_buffer(sc, P1, 0, 1);
    CU_ASSERT_EQUAL(sched_violations(sc, p), 0);
    /* P1 forwards back to P0 instead of to P2 */
    sc->trees[0].steps[1].edge = edge(p, "P1", "P0");
    EXPECT_LINE(sc, p,
                "tree 0 step 1 (P1 -> P0, type msg): produces the message on P0, which holds it "
                "from the start");
    EXPECT_LINE(sc, p, "tree 0: the message never reaches the target P2");
    /* P2 reached twice */
    sc->trees[0].steps[1].edge = edge(p, "P1", "P2");
    sc->trees[0].nsteps = 2;
    steady_sched_step_t *st = realloc(sc->trees[0].steps, 3 * sizeof *st);
    sc->trees[0].steps = st;
    st[2] = send(p, "P0", "P2", 0, 0);
    sc->trees[0].nsteps = 3;
    EXPECT_LINE(sc, p,
                "tree 0 step 2 (P0 -> P2, type msg): produces the message on P2, which step 1 "
                "already produces");
    EXPECT_LINE(sc, p, "tree 0 step 2 (P0 -> P2, type msg): positions [0, 1) are never sent");
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
}

/* More than 100 violations: 100 lines and a summary. */
static void test_many(void)
{
    steady_platform_t *p = parse_ok(paper_reduce_text, STEADY_FORMAT_NATIVE);
    steady_schedule_t *sc = reduce_figure6(p);
    for (int i = 0; i < 120; i++)
        add_slot(sc, "3", "0", 0, NULL);
    steady_violations_t v = {0};
    CU_ASSERT_EQUAL(steady_schedule_check(sc, p, &v, NULL), STEADY_OK);
    CU_ASSERT_EQUAL(v.count, 101);
    if (v.count == 101 && strcmp(v.lines[100], "... and 20 more") != 0)
        sched_print_lines(&v, "101 lines");
    if (v.count == 101) {
        CU_ASSERT_STRING_EQUAL(v.lines[0], "slot 3: duration 0 is not positive");
        CU_ASSERT_STRING_EQUAL(v.lines[100], "... and 20 more");
    }
    steady_violations_free(&v);
    CU_ASSERT_EQUAL(v.count, 0);
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
}

void suite_check(void)
{
    static const CU_TestInfo tests[] = {
        {"paper reduce schedules are valid", test_reduce_valid},
        {"reduce mutants rejected", test_reduce_mutants},
        {"Figure 6 mutants: ports, weights, parts, slots", test_figure6_mutants},
        {"same-period forwarding: slot times and latency", test_forwarding},
        {"task on a router rejected", test_router_task},
        {"scatter along a chain", test_scatter},
        {"scatter: one send port", test_scatter_send_port},
        {"gossip: one receive port", test_gossip_recv_port},
        {"broadcast arborescence", test_broadcast},
        {"100 lines, then a summary", test_many},
        CU_TEST_INFO_NULL};
    add_suite("schedule check", tests);
}
