/*
 * test_check_built.c — the validator (steady_schedule_check) on the
 * schedules the builder makes: for every operation on random and example
 * platforms they must pass, and each mutant of them (one thing broken at a
 * time: a transfer dropped, a port booked twice, a lag, a weight, a count,
 * a part, slots that overlap, ...) must fail with the expected line.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_util.h"
#include "steady/schedule.h"
#include "tests.h"

/* A deep copy of sc that steady_schedule_destroy frees, to mutate. */
static steady_schedule_t *sched_copy(const steady_schedule_t *sc)
{
    steady_schedule_t *c = malloc(sizeof *c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    *c = *sc;
    mpq_t *q[] = {&c->optimum, &c->throughput, &c->period, &c->loss, &c->loss_bound};
    const mpq_t *o[] = {&sc->optimum, &sc->throughput, &sc->period, &sc->loss, &sc->loss_bound};
    for (size_t i = 0; i < sizeof q / sizeof *q; i++) {
        mpq_init(*q[i]);
        mpq_set(*q[i], *o[i]);
    }
    c->platform_name = strdup(sc->platform_name);
    c->sources = malloc((size_t)(sc->nsources + 1) * sizeof *c->sources);
    memcpy(c->sources, sc->sources, (size_t)sc->nsources * sizeof *c->sources);
    c->targets = malloc((size_t)(sc->ntargets + 1) * sizeof *c->targets);
    memcpy(c->targets, sc->targets, (size_t)sc->ntargets * sizeof *c->targets);
    c->types = malloc((size_t)(sc->ntypes + 1) * sizeof *c->types);
    for (int t = 0; t < sc->ntypes; t++)
        c->types[t] = strdup(sc->types[t]);
    c->trees = malloc((size_t)(sc->ntrees + 1) * sizeof *c->trees);
    for (int t = 0; t < sc->ntrees; t++) {
        c->trees[t] = sc->trees[t];
        c->trees[t].steps = malloc((size_t)(sc->trees[t].nsteps + 1) * sizeof(steady_sched_step_t));
        memcpy(c->trees[t].steps, sc->trees[t].steps,
               (size_t)sc->trees[t].nsteps * sizeof(steady_sched_step_t));
    }
    c->slots = malloc((size_t)(sc->nslots + 1) * sizeof *c->slots);
    for (int i = 0; i < sc->nslots; i++) {
        const steady_sched_slot_t *a = &sc->slots[i];
        steady_sched_slot_t *b = &c->slots[i];
        mpq_inits(b->start, b->duration, NULL);
        mpq_set(b->start, a->start);
        mpq_set(b->duration, a->duration);
        b->ntransfers = a->ntransfers;
        b->transfers = malloc((size_t)(a->ntransfers + 1) * sizeof *b->transfers);
        for (int x = 0; x < a->ntransfers; x++) {
            b->transfers[x].tree = a->transfers[x].tree;
            b->transfers[x].step = a->transfers[x].step;
            mpq_inits(b->transfers[x].from, b->transfers[x].to, NULL);
            mpq_set(b->transfers[x].from, a->transfers[x].from);
            mpq_set(b->transfers[x].to, a->transfers[x].to);
        }
    }
    c->compute = malloc((size_t)(sc->ncompute + 1) * sizeof *c->compute);
    memcpy(c->compute, sc->compute, (size_t)sc->ncompute * sizeof *c->compute);
    c->buffers = malloc((size_t)(sc->nbuffers + 1) * sizeof *c->buffers);
    memcpy(c->buffers, sc->buffers, (size_t)sc->nbuffers * sizeof *c->buffers);
    return c;
}

/* ---- the builder's schedules --------------------------------------------- */

/* Builds the schedule of prob on p; NULL (and no failure) only when the
 * exact period is too long to build. */
static steady_schedule_t *build(const steady_platform_t *p, steady_problem_t prob, double period)
{
    steady_solution_t *s = NULL;
    steady_error_t err = {0};
    CU_ASSERT_EQUAL_FATAL(steady_lp_solve(p, &prob, NULL, &s, &err), STEADY_OK);
    steady_schedule_t *sc = NULL;
    steady_plan_options_t o = {.period = period};
    steady_err_t rc = steady_schedule_build(s, &o, &sc, &err);
    steady_solution_destroy(s);
    if (rc == STEADY_EINVAL && period == STEADY_PERIOD_EXACT)
        return NULL; /* "the exact period holds more than 2^40 operations" */
    if (rc)
        fprintf(stderr, "\n    build failed: %s\n", err.msg);
    CU_ASSERT_EQUAL(rc, STEADY_OK);
    return sc;
}

enum {
    M_DROP,
    M_SEND2,
    M_RECV2,
    M_LAG,
    M_WEIGHT,
    M_COUNT,
    M_OPS,
    M_SHRINK,
    M_OVERLAP,
    M_BEYOND,
    M_NONEDGE,
    M_ROUTER,
    M_CPU,
    M_ABOVE,
    M_BUFFER,
    NMUTANTS
};

static int sender(const steady_schedule_t *sc, const steady_platform_t *p,
                  const steady_sched_transfer_t *t, int recv)
{
    const steady_edge_t *e = steady_platform_edge(p, sc->trees[t->tree].steps[t->step].edge);
    return recv ? e->dst : e->src;
}

/* Moves a transfer into another slot where its sender (receiver) works
 * with another peer; returns the slot, or -1 if there is none. */
static int double_book(steady_schedule_t *sc, const steady_platform_t *p, int recv, int *who)
{
    for (int j = 0; j < sc->nslots; j++)
        for (int y = 0; y < sc->slots[j].ntransfers; y++) {
            int u = sender(sc, p, &sc->slots[j].transfers[y], recv);
            int peer = sender(sc, p, &sc->slots[j].transfers[y], !recv);
            for (int i = 0; i < sc->nslots; i++) {
                if (i == j)
                    continue;
                for (int x = 0; x < sc->slots[i].ntransfers; x++)
                    if (sender(sc, p, &sc->slots[i].transfers[x], recv) == u &&
                        sender(sc, p, &sc->slots[i].transfers[x], !recv) != peer) {
                        sched_move_transfer(sc, j, y, i);
                        *who = u;
                        return i;
                    }
            }
        }
    return -1;
}

/* What step i of tree t works on: (node, message type), the interval
 * "[k,m]" of a reduce task.  An input when in, else the output. */
static void step_value(const steady_schedule_t *sc, const steady_platform_t *p,
                       const steady_sched_step_t *st, int in, int *node, char *what, size_t n)
{
    if (st->kind == STEADY_STEP_SEND) {
        const steady_edge_t *e = steady_platform_edge(p, st->edge);
        *node = in ? e->src : e->dst;
        snprintf(what, n, "%s", sc->types[st->type]);
    } else {
        *node = st->node;
        snprintf(what, n, "[%d,%d]", st->k, in ? st->l : st->m);
    }
}

/* The step producing the (first) input of step i of tree t, or -1 for an
 * initial value. */
static int producer(const steady_schedule_t *sc, const steady_platform_t *p, int t, int i)
{
    const steady_sched_tree_t *tr = &sc->trees[t];
    int v, u;
    char in[64], out[64];
    step_value(sc, p, &tr->steps[i], 1, &v, in, sizeof in);
    for (int j = i - 1; j >= 0; j--) {
        step_value(sc, p, &tr->steps[j], 0, &u, out, sizeof out);
        if (u == v && strcmp(in, out) == 0)
            return j;
    }
    return -1;
}

/* Applies mutant m; fills the text that a violation line must contain
 * (a, and b unless empty).  Returns 0 when m does not apply. */
static int mutate(steady_schedule_t *sc, const steady_platform_t *p, int m, char *a, char *b)
{
    b[0] = '\0';
    switch (m) {
    case M_DROP:
        for (int i = 0; i < sc->nslots; i++)
            if (sc->slots[i].ntransfers > 0) {
                steady_sched_transfer_t *t = &sc->slots[i].transfers[0];
                sprintf(a, "tree %d step %d (", t->tree, t->step);
                strcpy(b, "are never sent");
                sched_drop_transfer(sc, i, 0);
                return 1;
            }
        return 0;
    case M_SEND2:
    case M_RECV2: {
        int who, i = double_book(sc, p, m == M_RECV2, &who);
        if (i < 0)
            return 0;
        sprintf(a, "slot %d: %s %s twice", i, steady_platform_node(p, who)->name,
                m == M_RECV2 ? "receives" : "sends");
        return 1;
    }
    case M_LAG:
        /* a step given a lag below its producer's; else (every producer
         * at lag 0) a step after a producer given the producer's lag 0:
         * a send after a task, or after a send whose slots do not deliver
         * in time.  (A step without a producer may take any lag: the
         * planner moves whole trees.) */
        for (int pass = 0; pass < 2; pass++)
            for (int t = 0; t < sc->ntrees; t++)
                for (int i = 0; i < sc->trees[t].nsteps; i++) {
                    steady_sched_step_t *st = &sc->trees[t].steps[i];
                    int j = producer(sc, p, t, i);
                    if (j < 0 || st->lag == 0 || (pass == 0 && sc->trees[t].steps[j].lag == 0))
                        continue;
                    st->lag = pass == 0 ? sc->trees[t].steps[j].lag - 1 : 0;
                    sprintf(a, "tree %d step %d (", t, i);
                    strcpy(b, "lag");
                    return 1;
                }
        return 0;
    case M_WEIGHT:
        sc->trees[0].weight++;
        strcpy(a, "operations per period, ops_per_period is");
        return 1;
    case M_COUNT:
        if (sc->ncompute == 0)
            return 0;
        sc->compute[0].count++;
        strcpy(a, "compute 0: ");
        strcpy(b, "listed with count");
        return 1;
    case M_OPS:
        sc->ops_per_period++;
        strcpy(a, "operations per period, ops_per_period is");
        return 1;
    case M_SHRINK:
        for (int i = 0; i < sc->nslots; i++)
            if (sc->slots[i].ntransfers > 0) {
                mpq_div_2exp(sc->slots[i].duration, sc->slots[i].duration, 1);
                sprintf(a, "slot %d: ", i);
                strcpy(b, "longer than the slot");
                return 1;
            }
        return 0;
    case M_OVERLAP:
        if (sc->nslots < 2)
            return 0;
        mpq_set(sc->slots[1].start, sc->slots[0].start);
        strcpy(a, "slot 1: starts at");
        strcpy(b, "before slot 0 ends");
        return 1;
    case M_BEYOND:
        if (sc->nslots < 1)
            return 0;
        mpq_add(sc->slots[sc->nslots - 1].start, sc->slots[sc->nslots - 1].start, sc->period);
        sprintf(a, "slot %d: ends at", sc->nslots - 1);
        strcpy(b, "after the end of the period");
        return 1;
    case M_NONEDGE:
        for (int t = 0; t < sc->ntrees; t++)
            for (int i = 0; i < sc->trees[t].nsteps; i++)
                if (sc->trees[t].steps[i].kind == STEADY_STEP_SEND) {
                    sc->trees[t].steps[i].edge = steady_platform_edge_count(p);
                    sprintf(a, "tree %d step %d: edge %d does not exist", t, i,
                            steady_platform_edge_count(p));
                    return 1;
                }
        return 0;
    case M_ROUTER: {
        int r = -1;
        for (int v = 0; v < steady_platform_node_count(p) && r < 0; v++)
            if (steady_platform_node(p, v)->kind == STEADY_ROUTER)
                r = v;
        if (r < 0 || sc->ncompute == 0)
            return 0;
        steady_sched_compute_t *c = &sc->compute[0];
        sc->trees[c->tree].steps[c->step].node = r;
        c->node = r;
        sprintf(a, "tree %d step %d: compute T(", c->tree, c->step);
        sprintf(b, "on the router %s", steady_platform_node(p, r)->name);
        return 1;
    }
    case M_CPU:
        if (sc->ncompute == 0)
            return 0;
        sc->task_cost *= 1e12;
        strcpy(a, ": its tasks take");
        strcpy(b, "more than the period");
        return 1;
    case M_ABOVE:
        mpq_div_2exp(sc->optimum, sc->throughput, 1);
        strcpy(a, "is above the optimum");
        return 1;
    case M_BUFFER:
        if (sc->nbuffers == 0)
            return 0;
        sc->buffers[0].messages = 0;
        sprintf(a, "buffers: %s holds", steady_platform_node(p, sc->buffers[0].node)->name);
        strcpy(b, "listed with 0");
        return 1;
    }
    return 0;
}

/* Every op on p (source, target and participants defaulted around node
 * `from`), in the exact, auto and one fixed period: valid; each mutant
 * rejected.  Counts the mutants that applied. */
static void build_and_mutate(const steady_platform_t *p, int from, int *applied)
{
    int to = from;
    for (int v = steady_platform_node_count(p) - 1; v >= 0 && to == from; v--)
        if (steady_platform_node(p, v)->kind == STEADY_PROCESSOR && v != from)
            to = v;
    for (int op = 0; op < 4; op++) {
        steady_problem_t prob = {.op = (steady_op_t)op, .source = from, .target = to};
        /* auto, exact, then a fixed period of 7 operations at the optimum's pace */
        double periods[] = {STEADY_PERIOD_AUTO, STEADY_PERIOD_EXACT, 0};
        for (int k = 0; k < 3; k++) {
            steady_schedule_t *sc = build(p, prob, periods[k]);
            if (!sc)
                continue;
            if (k == 0)
                periods[2] = 7 / mpq_get_d(sc->optimum);
            if (sched_violations(sc, p)) {
                fprintf(stderr, "    (%s on %s, period %g)\n", steady_op_name(prob.op),
                        steady_platform_name(p), periods[k]);
                steady_schedule_destroy(sc);
                continue;
            }
            for (int m = 0; m < NMUTANTS; m++) {
                char a[600], b[600];
                steady_schedule_t *mu = sched_copy(sc);
                if (mutate(mu, p, m, a, b)) {
                    applied[m]++;
                    int ok = sched_has_line(mu, p, a, b[0] ? b : NULL, 0);
                    if (!ok)
                        fprintf(stderr, "    (mutant %d of %s on %s, period %g)\n", m,
                                steady_op_name(prob.op), steady_platform_name(p), periods[k]);
                    CU_ASSERT(ok);
                }
                steady_schedule_destroy(mu);
            }
            steady_schedule_destroy(sc);
        }
    }
}

static void test_built_random(void)
{
    int applied[NMUTANTS] = {0};
    for (int n = 5; n <= 7; n++)
        for (uint64_t seed = 1; seed <= 2; seed++) {
            steady_platform_t *p = NULL;
            CU_ASSERT_EQUAL_FATAL(steady_platform_generate(STEADY_GEN_RANDOM, n, seed, &p, NULL),
                                  STEADY_OK);
            build_and_mutate(p, (int)seed % n, applied);
            steady_platform_destroy(p);
        }
    /* every mutant but the router one (no routers here) was tried */
    for (int m = 0; m < NMUTANTS; m++)
        if (m != M_ROUTER)
            CU_ASSERT(applied[m] > 0);
}

static void test_built_examples(void)
{
    static const char *files[] = {
        "examples/platforms/paper-reduce.plat", "examples/platforms/homogeneous-complete.plat",
        "examples/platforms/two-cluster-grid.plat", "examples/platforms/tiers.plat"};
    int applied[NMUTANTS] = {0};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        steady_platform_t *p = NULL;
        CU_ASSERT_EQUAL_FATAL(steady_platform_read(files[i], STEADY_FORMAT_AUTO, &p, NULL, NULL),
                              STEADY_OK);
        build_and_mutate(p, 0, applied);
        steady_platform_destroy(p);
    }
    for (int m = 0; m < NMUTANTS; m++)
        CU_ASSERT(applied[m] > 0);
}

/* The builder's schedule of the paper's example is the paper's: TP = 1. */
static void test_built_paper(void)
{
    steady_platform_t *p = parse_ok(paper_reduce_text, STEADY_FORMAT_NATIVE);
    steady_schedule_t *sc = build(p, paper_reduce_to_p0, STEADY_PERIOD_EXACT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    CU_ASSERT_EQUAL(sched_violations(sc, p), 0);
    CU_ASSERT_EQUAL(mpq_cmp_ui(sc->throughput, 1, 1), 0);
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
}

void suite_check_built(void)
{
    static const CU_TestInfo tests[] = {
        {"builder: paper example", test_built_paper},
        {"builder: random platforms, every op, mutants", test_built_random},
        {"builder: example platforms, every op, mutants", test_built_examples},
        CU_TEST_INFO_NULL};
    add_suite("schedule check: the builder's schedules", tests);
}
