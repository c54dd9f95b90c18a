/*
 * test_replay.c — the one-port discrete-event replay of a schedule.
 *
 * Hand-built schedules on a chain A -> B -> C (unit costs) whose makespans
 * are worked out by hand: a pipelined broadcast (N + 1), a scatter limited
 * by the source's send port (2N + 1), an edge latency (exactly + 5), a
 * partial last batch, messages split across slots and clipped, a reduce
 * limited by the target's CPU; latencies, rings, messages and shared
 * channels; malformed schedules refused; a long series extrapolated piece
 * by piece.  Real schedules: test_replay_series.c.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "steady/schedule.h"
#include "tests.h"

#define EPS 1e-9

static const char *CHAIN = "processor A speed=1\nprocessor B speed=1\nprocessor C speed=1\n"
                           "edge A B cost=1\nedge B C cost=1\n";

/* ---- hand-built schedules ------------------------------------------------ */

/* An empty schedule for p with period `period`, K operations per period and
 * the given types and sources; the optimum and throughput are set to
 * `optimum` and K / period; the paper's cost model, in which latency holds
 * no port (eager).  Freed with steady_schedule_destroy (everything is on
 * the heap, as it owns). */
static steady_schedule_t *sched_new(const steady_platform_t *p, steady_op_t op, long K,
                                    const char *period, const char *optimum, const char *types,
                                    const char *sources)
{
    steady_schedule_t *sc = calloc(1, sizeof *sc);
    mpq_inits(sc->optimum, sc->throughput, sc->period, sc->loss, sc->loss_bound, NULL);
    sc->platform_name = strdup(steady_platform_name(p));
    sc->platform_nodes = steady_platform_node_count(p);
    sc->platform_edges = steady_platform_edge_count(p);
    sc->op = op;
    sc->abstract = true;
    sc->msg_size = 1;
    sc->task_cost = 1;
    sc->segments = 1;
    sc->cost_model = STEADY_COST_EAGER;
    sc->ops_per_period = K;
    mpq_set_str(sc->period, period, 10);
    mpq_canonicalize(sc->period);
    mpq_set_str(sc->optimum, optimum, 10);
    mpq_canonicalize(sc->optimum);
    mpq_set_si(sc->throughput, K, 1);
    mpq_div(sc->throughput, sc->throughput, sc->period);
    /* space-separated lists */
    char buf[256];
    snprintf(buf, sizeof buf, "%s", types);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        sc->types = realloc(sc->types, (size_t)(sc->ntypes + 1) * sizeof *sc->types);
        sc->types[sc->ntypes++] = strdup(t);
    }
    snprintf(buf, sizeof buf, "%s", sources);
    for (char *t = strtok(buf, " "); t; t = strtok(NULL, " ")) {
        sc->sources = realloc(sc->sources, (size_t)(sc->nsources + 1) * sizeof *sc->sources);
        sc->sources[sc->nsources++] = steady_platform_find_node(p, t);
    }
    return sc;
}

static int add_tree(steady_schedule_t *sc, long weight, long first)
{
    sc->trees = realloc(sc->trees, (size_t)(sc->ntrees + 1) * sizeof *sc->trees);
    sc->trees[sc->ntrees] = (steady_sched_tree_t){.weight = weight, .first = first};
    return sc->ntrees++;
}

static int type_id(const steady_schedule_t *sc, const char *name)
{
    for (int t = 0; t < sc->ntypes; t++)
        if (strcmp(sc->types[t], name) == 0)
            return t;
    CU_FAIL("no such type");
    return 0;
}

static void add_step(steady_schedule_t *sc, int tree, steady_sched_step_t st)
{
    steady_sched_tree_t *tr = &sc->trees[tree];
    tr->steps = realloc(tr->steps, (size_t)(tr->nsteps + 1) * sizeof *tr->steps);
    tr->steps[tr->nsteps++] = st;
    if (st.lag > sc->max_lag)
        sc->max_lag = st.lag;
}

/* Appends "send `type` over u -> v" to the tree. */
static void add_send(steady_schedule_t *sc, const steady_platform_t *p, int tree, const char *u,
                     const char *v, const char *type, int lag)
{
    int e = steady_platform_find_edge(p, steady_platform_find_node(p, u),
                                      steady_platform_find_node(p, v));
    CU_ASSERT_FATAL(e >= 0);
    add_step(sc, tree,
             (steady_sched_step_t){.kind = STEADY_STEP_SEND,
                                   .hop = -1,
                                   .edge = e,
                                   .type = type_id(sc, type),
                                   .node = -1,
                                   .lag = lag});
}

/* Appends the task T(k,l,m) on `node`, and its compute entry (weight tasks
 * per period). */
static void add_task(steady_schedule_t *sc, const steady_platform_t *p, int tree, const char *node,
                     int k, int l, int m, int lag)
{
    int v = steady_platform_find_node(p, node);
    add_step(sc, tree,
             (steady_sched_step_t){.kind = STEADY_STEP_COMPUTE,
                                   .hop = -1,
                                   .edge = -1,
                                   .type = -1,
                                   .node = v,
                                   .k = k,
                                   .l = l,
                                   .m = m,
                                   .lag = lag});
    sc->compute = realloc(sc->compute, (size_t)(sc->ncompute + 1) * sizeof *sc->compute);
    sc->compute[sc->ncompute++] = (steady_sched_compute_t){.node = v,
                                                           .tree = tree,
                                                           .step = sc->trees[tree].nsteps - 1,
                                                           .count = sc->trees[tree].weight};
}

static void add_slot(steady_schedule_t *sc, const char *start, const char *duration)
{
    sc->slots = realloc(sc->slots, (size_t)(sc->nslots + 1) * sizeof *sc->slots);
    steady_sched_slot_t *sl = &sc->slots[sc->nslots++];
    memset(sl, 0, sizeof *sl);
    mpq_inits(sl->start, sl->duration, NULL);
    mpq_set_str(sl->start, start, 10);
    mpq_canonicalize(sl->start);
    mpq_set_str(sl->duration, duration, 10);
    mpq_canonicalize(sl->duration);
}

/* Adds to the last slot the part [from, to) of tree's step. */
static void add_transfer(steady_schedule_t *sc, int tree, int step, const char *from,
                         const char *to)
{
    steady_sched_slot_t *sl = &sc->slots[sc->nslots - 1];
    sl->transfers = realloc(sl->transfers, (size_t)(sl->ntransfers + 1) * sizeof *sl->transfers);
    steady_sched_transfer_t *tf = &sl->transfers[sl->ntransfers++];
    tf->tree = tree;
    tf->step = step;
    mpq_inits(tf->from, tf->to, NULL);
    mpq_set_str(tf->from, from, 10);
    mpq_canonicalize(tf->from);
    mpq_set_str(tf->to, to, 10);
    mpq_canonicalize(tf->to);
}

/* The broadcast of A's message down the chain, one operation per period
 * of 1: A -> B (lag 0) and B -> C (lag 1) in the same slot, a matching.
 * Operation i crosses A -> B during [i, i + 1] and B -> C during
 * [i + 1, i + 2]: N operations take N + 1.  With slots = 2 (edges that
 * share a channel), a period of 2: A -> B in [0, 1], B -> C in [1, 2]. */
static steady_schedule_t *chain_broadcast_slots(const steady_platform_t *p, int slots)
{
    steady_schedule_t *sc = sched_new(p, STEADY_OP_BROADCAST, 1, slots == 1 ? "1" : "2",
                                      slots == 1 ? "1" : "1/2", "msg", "A");
    int t = add_tree(sc, 1, 0);
    add_send(sc, p, t, "A", "B", "msg", 0);
    add_send(sc, p, t, "B", "C", "msg", 1);
    add_slot(sc, "0", "1");
    add_transfer(sc, t, 0, "0", "1");
    if (slots == 2)
        add_slot(sc, "1", "1");
    add_transfer(sc, t, 1, "0", "1");
    return sc;
}

static steady_schedule_t *chain_broadcast(const steady_platform_t *p)
{
    return chain_broadcast_slots(p, 1);
}

static void test_broadcast_pipeline(void)
{
    steady_platform_t *p = parse_ok(CHAIN, STEADY_FORMAT_NATIVE);
    steady_schedule_t *sc = chain_broadcast(p);
    steady_replay_t r = replay_ok(sc, p, 1);
    CU_ASSERT_DOUBLE_EQUAL(r.makespan, 2, EPS);
    CU_ASSERT_EQUAL(r.transfers, 2);
    long ns[] = {2, 5, 1000};
    for (int i = 0; i < 3; i++) {
        r = replay_ok(sc, p, ns[i]);
        CU_ASSERT_EQUAL(r.ops, ns[i]);
        CU_ASSERT_DOUBLE_EQUAL(r.makespan, ns[i] + 1, EPS);
        CU_ASSERT_EQUAL(r.transfers, 2 * ns[i]);
        CU_ASSERT_EQUAL(r.tasks, 0);
        CU_ASSERT_DOUBLE_EQUAL(r.achieved, ns[i] / (ns[i] + 1.0), EPS);
        CU_ASSERT_DOUBLE_EQUAL(r.optimum, 1, EPS);
        CU_ASSERT_DOUBLE_EQUAL(r.planned, 1, EPS);
        CU_ASSERT_DOUBLE_EQUAL(r.ratio, ns[i] / (ns[i] + 1.0), EPS);
    }
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
}

/* A scatter from A to B and C: A's send port carries two messages per
 * operation, TP = 1/2, period 2.  Slot 1: A -> B (message for B) and
 * B -> C (message for C, lag 1); slot 2: A -> B (message for C).  A sends
 * without a break; the last message for C leaves B one unit after A's last
 * send: 2N + 1. */
static void test_scatter_send_port(void)
{
    steady_platform_t *p = parse_ok(CHAIN, STEADY_FORMAT_NATIVE);
    steady_schedule_t *sc = sched_new(p, STEADY_OP_SCATTER, 1, "2", "1/2", "B C", "A");
    int tb = add_tree(sc, 1, 0), tc = add_tree(sc, 1, 0);
    add_send(sc, p, tb, "A", "B", "B", 0);
    add_send(sc, p, tc, "A", "B", "C", 0);
    add_send(sc, p, tc, "B", "C", "C", 1);
    add_slot(sc, "0", "1");
    add_transfer(sc, tb, 0, "0", "1");
    add_transfer(sc, tc, 1, "0", "1");
    add_slot(sc, "1", "1");
    add_transfer(sc, tc, 0, "0", "1");
    for (long n = 1; n <= 4; n++) {
        steady_replay_t r = replay_ok(sc, p, n);
        CU_ASSERT_DOUBLE_EQUAL(r.makespan, 2 * n + 1, EPS);
        CU_ASSERT_EQUAL(r.transfers, 3 * n);
        CU_ASSERT_DOUBLE_EQUAL(r.ratio, 2.0 * n / (2 * n + 1), EPS);
    }
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
}

/* Eager: latency delays delivery without holding a port: 5 time units on
 * either edge of the pipelined broadcast add exactly 5 to the makespan.
 * Rendezvous: each message holds both ports through its latency, 1 + 5 per
 * message on the edge with the latency, which the other edge's messages
 * wait for: 1 + 10 x 6 for 10 operations, 6 + 10 x 6 with both. */
static void test_latency(void)
{
    const char *texts[] = {"processor A speed=1\nprocessor B speed=1\nprocessor C speed=1\n"
                           "edge A B cost=1\nedge B C cost=1 latency=5\n",
                           "processor A speed=1\nprocessor B speed=1\nprocessor C speed=1\n"
                           "edge A B cost=1 latency=5\nedge B C cost=1\n"};
    for (int i = 0; i < 2; i++) {
        steady_platform_t *p = parse_ok(texts[i], STEADY_FORMAT_NATIVE);
        steady_schedule_t *sc = chain_broadcast(p);
        CU_ASSERT_DOUBLE_EQUAL(replay_ok(sc, p, 1).makespan, 2 + 5, EPS);
        CU_ASSERT_DOUBLE_EQUAL(replay_ok(sc, p, 10).makespan, 11 + 5, EPS);
        sc->cost_model = STEADY_COST_RENDEZVOUS;
        CU_ASSERT_DOUBLE_EQUAL(replay_ok(sc, p, 1).makespan, 2 + 5, EPS);
        CU_ASSERT_DOUBLE_EQUAL(replay_ok(sc, p, 10).makespan, 1 + 10 * 6, EPS);
        steady_schedule_destroy(sc);
        steady_platform_destroy(p);
    }
    /* both: the delays add up */
    steady_platform_t *p =
        parse_ok("processor A speed=1\nprocessor B speed=1\nprocessor C speed=1\n"
                 "edge A B cost=1 latency=5\nedge B C cost=1 latency=5\n",
                 STEADY_FORMAT_NATIVE);
    steady_schedule_t *sc = chain_broadcast(p);
    CU_ASSERT_DOUBLE_EQUAL(replay_ok(sc, p, 10).makespan, 11 + 10, EPS);
    sc->cost_model = STEADY_COST_RENDEZVOUS;
    CU_ASSERT_DOUBLE_EQUAL(replay_ok(sc, p, 10).makespan, 6 + 10 * 6, EPS);
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
}

/* An edge's recv-factor (SimGrid's cross traffic): B -> C moves at half
 * its speed while B receives.  In the pipelined broadcast A sends without
 * a break, so B receives through [0, N]: B -> C's message k ends at
 * 1 + 2k while that is before N; at N = 10 the fifth is half done at 10,
 * ends at 10.5, and the five left take 1 each: 15.5.  One operation: B's
 * reception has ended when B -> C starts, 2.  The same factor on A -> B
 * changes nothing (A never receives): N + 1. */
static void test_recv_factor(void)
{
    const char *texts[] = {"processor A speed=1\nprocessor B speed=1\nprocessor C speed=1\n"
                           "edge A B cost=1\nedge B C cost=1 recv-factor=0.5\n",
                           "processor A speed=1\nprocessor B speed=1\nprocessor C speed=1\n"
                           "edge A B cost=1 recv-factor=0.5\nedge B C cost=1\n"};
    for (int i = 0; i < 2; i++) {
        steady_platform_t *p = parse_ok(texts[i], STEADY_FORMAT_NATIVE);
        steady_schedule_t *sc = chain_broadcast(p);
        CU_ASSERT_DOUBLE_EQUAL(replay_ok(sc, p, 1).makespan, 2, EPS);
        CU_ASSERT_DOUBLE_EQUAL(replay_ok(sc, p, 10).makespan, i == 0 ? 15.5 : 11, EPS);
        CU_ASSERT_DOUBLE_EQUAL(replay_ok(sc, p, 100).makespan, i == 0 ? 150.5 : 101, EPS);
        steady_schedule_destroy(sc);
        steady_platform_destroy(p);
    }
}

/* The ends of A -> B's batch 2 and B -> C's batch 0 (observed). */
typedef struct {
    double ab2, bc0;
} ends_t;

/* When A -> B (step 0) and A -> D (step 1) start, and when A -> B's
 * batch is in B, by batch. */
typedef struct {
    double ab[16], ad[16], ab_done[16];
} starts_t;

static void record_starts(void *ctx, const steady_replay_event_t *ev)
{
    starts_t *st = ctx;
    if (ev->kind == STEADY_STEP_SEND && ev->batch >= 0 && ev->batch < 16 && ev->step < 2)
        (ev->step == 0 ? st->ab : st->ad)[ev->batch] = ev->start;
    if (ev->kind == STEADY_STEP_SEND && ev->batch >= 0 && ev->batch < 16 && ev->step == 0)
        st->ab_done[ev->batch] = ev->done;
}

/* When each tree's transfer of each batch is delivered (trees 0 and 1). */
typedef struct {
    double t[2][16];
} done_t;

static void record_done(void *ctx, const steady_replay_event_t *ev)
{
    done_t *d = ctx;
    if (ev->kind == STEADY_STEP_SEND && ev->tree < 2 && ev->batch >= 0 && ev->batch < 16)
        d->t[ev->tree][ev->batch] = ev->done;
}

static void record_ends(void *ctx, const steady_replay_event_t *ev)
{
    ends_t *e = ctx;
    if (ev->kind == STEADY_STEP_SEND && ev->step == 0 && ev->batch == 2)
        e->ab2 = ev->end;
    if (ev->kind == STEADY_STEP_SEND && ev->step == 1 && ev->batch == 0)
        e->bc0 = ev->end;
}

/* The chain broadcast A -> B -> C in two slots on the platform `text`,
 * three operations replayed: A -> B's third message ends at ab2, B -> C's
 * first at bc0. */
static void assert_chain_ends(const char *text, double ab2, double bc0)
{
    steady_platform_t *p = parse_ok(text, STEADY_FORMAT_NATIVE);
    if (!p)
        return;
    steady_schedule_t *sc = chain_broadcast_slots(p, 2);
    ends_t e = {0};
    steady_replay_observer_t obs = {.event = record_ends, .ctx = &e};
    steady_replay_t r;
    CU_ASSERT_EQUAL(steady_schedule_replay_observed(sc, p, 3, &obs, &r, NULL), STEADY_OK);
    CU_ASSERT_DOUBLE_EQUAL(e.ab2, ab2, EPS);
    CU_ASSERT_DOUBLE_EQUAL(e.bc0, bc0, EPS);
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
}

/* Flows crossing a channel at once share it by penalty (SimGrid's rule,
 * docs/network.md).  The chain's two edges cross one shared channel L of
 * cost 1 (a period of 2, its two slots); A -> B has latency 1, B -> C latency 3; eager.  A sends at
 * 0 and 1 alone; from 2 A -> B's third message and B -> C's first (in B at 2) share L.  Fair: 1/2
 * each, both end at 4.  By penalty, weights 1 and 1/3: A -> B moves at 3/4 and ends at 2 + 4/3, B
 * -> C at 1/4, then alone: it ends at 4 (L never idles).  An edge penalty of 1/2 on A -> B: weights
 * 2 and 1/3, A -> B at 6/7, ends at 2 + 7/6.  Without latencies every
 * route has SimGrid's penalty 1 (not 0: no weight is infinite), and the
 * shares are fair: from 1 A -> B's second message and B -> C's first
 * share L, both end at 3; the third and the second then end at 5.
 * With L a FATPIPE, which bounds each flow alone: SimGrid's lmm still
 * weighs the flows crossing one, by the heaviest (maxmin.cpp: its usage is
 * the max of their weights, not the sum).  By penalty with weight-S 0
 * (weights 1 and 1/3), from 2 L is full when A -> B moves at its full
 * speed, and B -> C then gets 1/3 of it: A -> B ends at 3, B -> C has
 * moved 1/3, then alone the rest in 2/3: it ends at 11/3.  Fairly, each
 * flow has L's whole bandwidth: B -> C ends at 3. */
static void test_penalty_sharing(void)
{
    const char *head = "processor A speed=1\nprocessor B speed=1\nprocessor C speed=1\n"
                       "channel L cost=1";
    const struct {
        const char *flows, *sharing, *ab, *bc;
        double ab2, bc0;
    } cases[] = {
        {"", "", "latency=1", "latency=3", 4, 4},
        {"flows penalty weight-S=100\n", "", "latency=1", "latency=3", 2 + 4.0 / 3, 4},
        {"flows penalty weight-S=0\n", "", "latency=1 penalty=0.5", "latency=3", 2 + 7.0 / 6, 4},
        {"flows penalty weight-S=0\n", "", "", "", 5, 3},
        {"flows penalty weight-S=0\n", " sharing=fatpipe", "latency=1", "latency=3", 3, 11.0 / 3},
        {"flows fair\n", " sharing=fatpipe", "latency=1", "latency=3", 3, 3},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "%s%s%s\nedge A B cost=1 %s crosses=L\nedge B C cost=1 %s crosses=L\n",
                 cases[i].flows, head, cases[i].sharing, cases[i].ab, cases[i].bc);
        assert_chain_ends(text, cases[i].ab2, cases[i].bc0);
    }
}

/* Cross traffic (SimGrid's acknowledgements, docs/platform-format.md):
 * the chain A -> B -> C of cost 1 over each node's own SPLITDUPLEX link
 * (cost 1), every edge with its reverse, in two slots: A -> B's messages
 * run from 0, 1, 2, B -> C's from 1, 2 (the second and the first, then
 * the third and the second at once).  Without cross traffic they share
 * nothing: A -> B's third ends at 3, B -> C's first at 2.  With 0.05,
 * B's down link carries A -> B and 5% of B -> C, its up link B -> C and
 * 5% of A -> B: two at once move at 1 / 1.05 each, so B -> C's first
 * ends at 1 + 1.05 and A -> B's third at 1 + 2 x 1.05.  Over one SHARED
 * channel that every edge crosses both ways (test_penalty_sharing's, by
 * fair sharing), a message's own share is in its edge's bandwidth
 * already and not charged again: both end at 4, as without. */
static void test_crosstraffic(void)
{
    const char *split = "%sprocessor A speed=1\nprocessor B speed=1\nprocessor C speed=1\n"
                        "channel LA cost=1 sharing=splitduplex\n"
                        "channel LB cost=1 sharing=splitduplex\n"
                        "channel LC cost=1 sharing=splitduplex\n"
                        "edge A B cost=1 crosses=LA:up,LB:down\n"
                        "edge B A cost=1 crosses=LB:up,LA:down\n"
                        "edge B C cost=1 crosses=LB:up,LC:down\n"
                        "edge C B cost=1 crosses=LC:up,LB:down\n";
    const char *shared = "%sprocessor A speed=1\nprocessor B speed=1\nprocessor C speed=1\n"
                         "channel L cost=1\nlink A B cost=1 latency=1 crosses=L\n"
                         "link B C cost=1 latency=3 crosses=L\n";
    const struct {
        const char *fmt, *flows;
        double ab2, bc0;
    } cases[] = {
        {split, "", 3, 2},
        {split, "flows fair crosstraffic=0.05\n", 3.1, 2.05},
        {split, "flows penalty weight-S=0 crosstraffic=0.05\n", 3.1, 2.05},
        {shared, "flows fair crosstraffic=0.05\n", 4, 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[768];
        snprintf(text, sizeof text, cases[i].fmt, cases[i].flows);
        assert_chain_ends(text, cases[i].ab2, cases[i].bc0);
    }
}

/* A platform in the native format whose text has one "%s": with
 * fluid, a recv-factor of 0.5 there (on an edge whose sender never
 * receives, so that it never applies: it only takes the replay to the
 * fluid engine), else nothing. */
static steady_platform_t *parse_engine(const char *fmt, bool fluid)
{
    char text[512];
    snprintf(text, sizeof text, fmt, fluid ? " recv-factor=0.5" : "");
    return parse_ok(text, STEADY_FORMAT_NATIVE);
}

/* Channels that only one port's transfers cross (a Vivaldi peer's up and
 * down links, a crossbar host's) bind no two transfers at once: the
 * program-order engine replays them, exactly as the fluid one.  A's own
 * channel UA (cost 2) carries A -> B (cost 1), B's own UB (cost 3) B -> C
 * (cost 1), chain broadcast in two slots: A -> B runs [0, 2], [2, 4],
 * [4, 6]; B -> C's first [2, 5].  The fluid engine (a recv-factor on
 * A -> B, whose sender never receives) gives the same.  With B -> C
 * crossing UA too, UA has two senders and two receivers: shared. */
static void test_port_private_channels(void)
{
    steady_replay_t r[2];
    for (int fluid = 0; fluid < 2; fluid++) {
        steady_platform_t *p = parse_engine("processor A speed=1\nprocessor B speed=1\n"
                                            "processor C speed=1\nchannel UA cost=2\n"
                                            "channel UB cost=3\nedge A B cost=1 crosses=UA%s\n"
                                            "edge B C cost=1 crosses=UB\n",
                                            fluid);
        steady_schedule_t *sc = chain_broadcast_slots(p, 2);
        ends_t e = {0};
        steady_replay_observer_t obs = {.event = record_ends, .ctx = &e};
        CU_ASSERT_EQUAL(steady_schedule_replay_observed(sc, p, 1000, &obs, &r[fluid], NULL),
                        STEADY_OK);
        CU_ASSERT_DOUBLE_EQUAL(e.ab2, 6, EPS);
        CU_ASSERT_DOUBLE_EQUAL(e.bc0, 5, EPS);
        /* the slowest hop, B -> C, one message every 3 from 2 */
        CU_ASSERT_DOUBLE_EQUAL(r[fluid].makespan, 2 + 3 * 1000, EPS);
        steady_schedule_destroy(sc);
        steady_platform_destroy(p);
    }
    CU_ASSERT_EQUAL(r[0].makespan, r[1].makespan);
    CU_ASSERT_EQUAL(r[0].transfers, r[1].transfers);
    /* UA crossed by A -> B and B -> A: two senders, two receivers */
    steady_platform_t *p = parse_ok("processor A speed=1\nprocessor B speed=1\n"
                                    "processor C speed=1\nchannel UA cost=2\n"
                                    "edge A B cost=1 crosses=UA\nedge B C cost=1 crosses=UA\n",
                                    STEADY_FORMAT_NATIVE);
    if (p) {
        /* A -> B [0, 2] alone; from 2 A -> B's second message and B -> C's
         * first share UA fairly, each at half its speed: both end at 6 */
        steady_schedule_t *sc = chain_broadcast_slots(p, 2);
        ends_t e = {0};
        steady_replay_observer_t obs = {.event = record_ends, .ctx = &e};
        steady_replay_t rs;
        CU_ASSERT_EQUAL(steady_schedule_replay_observed(sc, p, 3, &obs, &rs, NULL), STEADY_OK);
        CU_ASSERT_DOUBLE_EQUAL(e.bc0, 6, EPS);
        steady_schedule_destroy(sc);
        steady_platform_destroy(p);
    }
}

/* A message is posted once every part's input is there (the executor's
 * send port).  A -> B sends the source's data in two messages, [0, 1/2)
 * in slot 0 and [1/2, 1) in slot 2 (A sends nothing in slot 1); B
 * forwards the period after, [0, 1/2) in slot 0 and [1/2, 1) in slot 1:
 * one message (B -> C has latency 1).  A's halves are in B at 1/2 and 1;
 * B's message starts at 1, not at 1/2 when its first half is there.
 * Rendezvous: latency [1, 2], halves [2, 2.5] and [2.5, 3]: one operation
 * takes 3 (2.5 if the message started with its first half).  Eager:
 * halves [1, 1.5] and [1.5, 2], delivered 1 later: 3 as well.  The same
 * in the fluid engine (a recv-factor on A -> B, never applied). */
static void test_message_posted(void)
{
    for (int fluid = 0; fluid < 2; fluid++) {
        steady_platform_t *p = parse_engine("processor A speed=1\nprocessor B speed=1\n"
                                            "processor C speed=1\nedge A B cost=1%s\n"
                                            "edge B C cost=1 latency=1\n",
                                            fluid);
        steady_schedule_t *sc = sched_new(p, STEADY_OP_BROADCAST, 1, "3/2", "1/2", "msg", "A");
        int t = add_tree(sc, 1, 0);
        add_send(sc, p, t, "A", "B", "msg", 0);
        add_send(sc, p, t, "B", "C", "msg", 1);
        add_slot(sc, "0", "1/2");
        add_transfer(sc, t, 0, "0", "1/2");
        add_transfer(sc, t, 1, "0", "1/2");
        add_slot(sc, "1/2", "1/2");
        add_transfer(sc, t, 1, "1/2", "1");
        add_slot(sc, "1", "1/2");
        add_transfer(sc, t, 0, "1/2", "1");
        int msg[4], n = 0;
        CU_ASSERT_EQUAL(steady_schedule_message_ids(sc, p, msg, &n, NULL), STEADY_OK);
        CU_ASSERT(n == 3 && msg[1] == msg[2] && msg[0] != msg[3]);
        for (int model = 0; model < 2; model++) {
            sc->cost_model = model ? STEADY_COST_EAGER : STEADY_COST_RENDEZVOUS;
            CU_ASSERT_DOUBLE_EQUAL(replay_ok(sc, p, 1).makespan, 3, EPS);
        }
        steady_schedule_destroy(sc);
        steady_platform_destroy(p);
    }
}

/* The executor keeps what a node forwards in a ring of (furthest lag of
 * a reader past the step's) + 2 batches, and under rendezvous a reception
 * waits for its entry (runner/program.c): the forwarder's batch b - 2 must
 * have been posted on.  A broadcast from A, one operation a period: A -> B
 * (cost 1), A -> D (1), B -> C (3, the bottleneck), all of lag 0, B
 * forwarding in a later slot.  B posts B -> C's batch k at 3k + 1 (when
 * its port is free), so A -> B's batch k waits for 3(k - 2) + 1: it
 * starts at max(2k, 3k - 5) (A's port alone would start it at 2k), and
 * A -> D follows it, [3k - 4, 3k - 3] from batch 6 on.  The makespan, B ->
 * C's last end, stays 3N + 1.  The same in the fluid engine (a
 * recv-factor on A -> D, which A's receiving nothing never applies,
 * takes the replay there).  Under eager A is not held back: A -> B's
 * batch k leaves at 2k + 1 and waits in MPI's buffers until B posts its
 * receive, once the entry is free, at 3k - 5 (in B at max(2k + 1,
 * 3k - 5); under rendezvous at max(2k, 3k - 5) + 1). */
static void test_rings(void)
{
    for (int fluid = 0; fluid < 2; fluid++) {
        steady_platform_t *p = parse_engine(
            "processor A speed=1\nprocessor B speed=1\nprocessor C speed=1\n"
            "processor D speed=1\nedge A B cost=1\nedge A D cost=1%s\nedge B C cost=3\n",
            fluid);
        steady_schedule_t *sc = sched_new(p, STEADY_OP_BROADCAST, 1, "5", "1/3", "msg", "A");
        int t = add_tree(sc, 1, 0);
        add_send(sc, p, t, "A", "B", "msg", 0);
        add_send(sc, p, t, "A", "D", "msg", 0);
        add_send(sc, p, t, "B", "C", "msg", 0);
        add_slot(sc, "0", "1");
        add_transfer(sc, t, 0, "0", "1");
        add_slot(sc, "1", "1");
        add_transfer(sc, t, 1, "0", "1");
        add_slot(sc, "2", "3");
        add_transfer(sc, t, 2, "0", "1");
        for (int model = 0; model < 2; model++) {
            sc->cost_model = model ? STEADY_COST_EAGER : STEADY_COST_RENDEZVOUS;
            starts_t st = {0};
            steady_replay_observer_t obs = {.event = record_starts, .ctx = &st};
            steady_replay_t r;
            CU_ASSERT_EQUAL(steady_schedule_replay_observed(sc, p, 10, &obs, &r, NULL), STEADY_OK);
            CU_ASSERT_DOUBLE_EQUAL(r.makespan, 31, EPS);
            for (int k = 0; k < 10; k++) {
                double held = 3.0 * k - 5 > 2.0 * k && !model ? 3.0 * k - 5 : 2.0 * k;
                CU_ASSERT_DOUBLE_EQUAL(st.ab[k], held, EPS);
                CU_ASSERT_DOUBLE_EQUAL(st.ad[k], held + 1, EPS);
                double in_b = model ? fmax(2.0 * k + 1, 3.0 * k - 5) : held + 1;
                CU_ASSERT_DOUBLE_EQUAL(st.ab_done[k], in_b, EPS);
            }
        }
        steady_schedule_destroy(sc);
        steady_platform_destroy(p);
    }
}

/* Under eager a receiver posts one receive at a time, in its program's
 * order (runner/execute.c): a message that arrives early waits for the
 * one before it.  C receives from A (cost 1, latency 10) in [0, 1], then
 * from B (cost 1, no latency) in [1, 2], every period of 2.  A's batch k
 * leaves A at 2k + 1 and is in C at 2k + 11; B's leaves at 2k + 2 but C
 * posts its receive only once A's completed: in C at 2k + 11 too (2k + 2
 * if C took it as it came).  The makespan, 8 operations: 25.  The same
 * in the fluid engine (a recv-factor on B -> A, which nothing sends on,
 * takes the replay there). */
static void test_receives_in_order(void)
{
    for (int fluid = 0; fluid < 2; fluid++) {
        steady_platform_t *p =
            parse_engine("processor A speed=1\nprocessor B speed=1\nprocessor C speed=1\n"
                         "edge A C cost=1 latency=10\nedge B C cost=1\nedge B A cost=1%s\n",
                         fluid);
        steady_schedule_t *sc = sched_new(p, STEADY_OP_GOSSIP, 1, "2", "1/2", "A>C B>C", "A B");
        sc->cost_model = STEADY_COST_EAGER;
        int ac = add_tree(sc, 1, 0), bc = add_tree(sc, 1, 0);
        add_send(sc, p, ac, "A", "C", "A>C", 0);
        add_send(sc, p, bc, "B", "C", "B>C", 0);
        add_slot(sc, "0", "1");
        add_transfer(sc, ac, 0, "0", "1");
        add_slot(sc, "1", "1");
        add_transfer(sc, bc, 0, "0", "1");
        done_t d = {0};
        steady_replay_observer_t obs = {.event = record_done, .ctx = &d};
        steady_replay_t r;
        CU_ASSERT_EQUAL(steady_schedule_replay_observed(sc, p, 8, &obs, &r, NULL), STEADY_OK);
        CU_ASSERT_DOUBLE_EQUAL(r.makespan, 25, EPS);
        for (int k = 0; k < 8; k++) {
            CU_ASSERT_DOUBLE_EQUAL(d.t[0][k], 2.0 * k + 11, EPS);
            CU_ASSERT_DOUBLE_EQUAL(d.t[1][k], 2.0 * k + 11, EPS);
        }
        steady_schedule_destroy(sc);
        steady_platform_destroy(p);
    }
}

/* A message is delivered whole, and under rendezvous pays its latency
 * first.  A -> B (latency 5) sends the source's data in two consecutive
 * slots, one message; B forwards each half to C the period after, two
 * messages (B -> C has no latency).  Rendezvous: A's ports wait [0, 5],
 * the halves move in [5, 5.5] and [5.5, 6], the message is in B at 6, B
 * forwards in [6, 6.5] and [6.5, 7]: one operation takes 7 (6.5 if the
 * first half were in B on its own).  Eager: the halves move in [0, 1], the
 * message is in B at 1 + 5: 7 as well. */
static void test_message_whole(void)
{
    steady_platform_t *p =
        parse_ok("processor A speed=1\nprocessor B speed=1\nprocessor C speed=1\n"
                 "edge A B cost=1 latency=5\nedge B C cost=1\n",
                 STEADY_FORMAT_NATIVE);
    steady_schedule_t *sc = sched_new(p, STEADY_OP_BROADCAST, 1, "2", "1/2", "msg", "A");
    int t = add_tree(sc, 1, 0);
    add_send(sc, p, t, "A", "B", "msg", 0);
    add_send(sc, p, t, "B", "C", "msg", 1);
    const char *at[] = {"0", "1/2", "1", "3/2"};
    for (int k = 0; k < 4; k++) {
        add_slot(sc, at[k], "1/2");
        add_transfer(sc, t, k / 2, k % 2 ? "1/2" : "0", k % 2 ? "1" : "1/2");
    }
    int msg[4], n = 0;
    CU_ASSERT_EQUAL(steady_schedule_message_ids(sc, p, msg, &n, NULL), STEADY_OK);
    CU_ASSERT(n == 3 && msg[0] == msg[1] && msg[2] != msg[3]);
    sc->cost_model = STEADY_COST_RENDEZVOUS;
    CU_ASSERT_DOUBLE_EQUAL(replay_ok(sc, p, 1).makespan, 7, EPS);
    sc->cost_model = STEADY_COST_EAGER;
    CU_ASSERT_DOUBLE_EQUAL(replay_ok(sc, p, 1).makespan, 7, EPS);
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
}

/* The executor's messages (steady_schedule_message_ids).  A -> B cut into
 * two consecutive slots with a latency of 5 is one message: under
 * rendezvous each operation holds A's port 1 + 5, 10 take 60 (as two
 * messages, 2 x (1/2 + 5) each).  Parts that are not consecutive, or that
 * forward a producer's data and whose latency is small against them, or
 * that forward what the period itself delivers, are messages of their
 * own; the source's own parts join whatever their latency. */
static void test_messages(void)
{
    steady_platform_t *p =
        parse_ok("processor A speed=1\nprocessor B speed=1\nprocessor C speed=1\n"
                 "edge A B cost=1 latency=5\nedge A C cost=1 latency=0.01\n"
                 "edge B C cost=1 latency=5\nedge C B cost=1 latency=0.01\n",
                 STEADY_FORMAT_NATIVE);
    steady_schedule_t *sc = sched_new(p, STEADY_OP_SCATTER, 1, "1", "1", "B", "A");
    sc->cost_model = STEADY_COST_RENDEZVOUS;
    int t = add_tree(sc, 1, 0);
    add_send(sc, p, t, "A", "B", "B", 0);
    add_slot(sc, "0", "1/2");
    add_transfer(sc, t, 0, "0", "1/2");
    add_slot(sc, "1/2", "1/2");
    add_transfer(sc, t, 0, "1/2", "1");
    int msg[2], n = 0;
    steady_error_t err = {0};
    CU_ASSERT_EQUAL(steady_schedule_message_ids(sc, p, msg, &n, &err), STEADY_OK);
    CU_ASSERT_EQUAL(n, 1);
    CU_ASSERT(msg[0] == 0 && msg[1] == 0);
    CU_ASSERT_DOUBLE_EQUAL(replay_ok(sc, p, 10).makespan, 10 * 6, EPS);
    sc->cost_model = STEADY_COST_EAGER;
    CU_ASSERT_DOUBLE_EQUAL(replay_ok(sc, p, 10).makespan, 10 + 5, EPS);
    steady_schedule_destroy(sc);

    /* A -> B, A -> C, A -> B: three messages */
    sc = sched_new(p, STEADY_OP_SCATTER, 1, "2", "1/2", "B C", "A");
    int tb = add_tree(sc, 1, 0), tc = add_tree(sc, 1, 0);
    add_send(sc, p, tb, "A", "B", "B", 0);
    add_send(sc, p, tc, "A", "C", "C", 0);
    add_slot(sc, "0", "1/2");
    add_transfer(sc, tb, 0, "0", "1/2");
    add_slot(sc, "1/2", "1");
    add_transfer(sc, tc, 0, "0", "1");
    add_slot(sc, "3/2", "1/2");
    add_transfer(sc, tb, 0, "1/2", "1");
    int msg3[3];
    CU_ASSERT_EQUAL(steady_schedule_message_ids(sc, p, msg3, &n, &err), STEADY_OK);
    CU_ASSERT_EQUAL(n, 3);
    steady_schedule_destroy(sc);

    /* A -> C in two slots, a latency of 1% of a part: the source's own
     * data, there from the start, waits for nothing: one message */
    sc = sched_new(p, STEADY_OP_SCATTER, 1, "1", "1", "C", "A");
    t = add_tree(sc, 1, 0);
    add_send(sc, p, t, "A", "C", "C", 0);
    add_slot(sc, "0", "1/2");
    add_transfer(sc, t, 0, "0", "1/2");
    add_slot(sc, "1/2", "1/2");
    add_transfer(sc, t, 0, "1/2", "1");
    CU_ASSERT_EQUAL(steady_schedule_message_ids(sc, p, msg, &n, &err), STEADY_OK);
    CU_ASSERT_EQUAL(n, 1);
    steady_schedule_destroy(sc);

    /* C -> B in two slots forwards what A -> C brought the period before:
     * a latency of 1% of a part is not worth a wait, two messages (and
     * A -> C's one) */
    sc = sched_new(p, STEADY_OP_SCATTER, 1, "2", "1/2", "B", "A");
    t = add_tree(sc, 1, 0);
    add_send(sc, p, t, "A", "C", "B", 0);
    add_send(sc, p, t, "C", "B", "B", 1);
    add_slot(sc, "0", "1");
    add_transfer(sc, t, 0, "0", "1");
    add_slot(sc, "1", "1/2");
    add_transfer(sc, t, 1, "0", "1/2");
    add_slot(sc, "3/2", "1/2");
    add_transfer(sc, t, 1, "1/2", "1");
    CU_ASSERT_EQUAL(steady_schedule_message_ids(sc, p, msg3, &n, &err), STEADY_OK);
    CU_ASSERT_EQUAL(n, 3);
    CU_ASSERT(msg3[1] != msg3[2]);
    steady_schedule_destroy(sc);

    /* B forwards in slot 1 what slot 0 brought (the same period): B -> C
     * waits for A -> B's part, so A -> B's second part, in slot 1 with B ->
     * C's first, must not hold the first back */
    sc = sched_new(p, STEADY_OP_BROADCAST, 1, "1", "1", "msg", "A");
    t = add_tree(sc, 1, 0);
    add_send(sc, p, t, "A", "B", "msg", 0);
    add_send(sc, p, t, "B", "C", "msg", 0);
    add_slot(sc, "0", "1/2");
    add_transfer(sc, t, 0, "0", "1/2");
    add_slot(sc, "1/2", "1/2");
    add_transfer(sc, t, 0, "1/2", "1");
    add_transfer(sc, t, 1, "0", "1/2");
    add_slot(sc, "1", "1/2");
    add_transfer(sc, t, 1, "1/2", "1");
    int msg4[4];
    CU_ASSERT_EQUAL(steady_schedule_message_ids(sc, p, msg4, &n, &err), STEADY_OK);
    CU_ASSERT_EQUAL(n, 3); /* A -> B's parts joined; B -> C's second forwards slot 1's */
    CU_ASSERT(msg4[0] == msg4[1] && msg4[2] != msg4[3]);
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
}

/* Two operations per period (period 2), each edge's two messages in two
 * slots.  With N = 3 the second batch holds one operation: the part [1, 2)
 * of batch 1 does not exist and is skipped on both edges.  A part waits
 * for the parts carrying its messages, not for the whole batch: B forwards
 * message 0 of batch 0 while message 1 still crosses A -> B.
 *   period 0: A->B b0 [0,1]   A->B b0 [1,2]
 *   period 1: A->B b1 [2,3]   B->C b0 msg 0 [1,2]   (A->B b1 [1,2) skipped)
 *             B->C b0 msg 1 [2,3]
 *   period 2: B->C b1 [3,4]                         (B->C b1 [1,2) skipped)
 * makespan 4 with 6 transfers; N = 4 (two full batches) takes 5 with 8
 * (A->B b1 msg 1 at [3,4], B->C b1 at [3,4] and [4,5]). */
static void test_partial_batch(void)
{
    steady_platform_t *p = parse_ok(CHAIN, STEADY_FORMAT_NATIVE);
    steady_schedule_t *sc = sched_new(p, STEADY_OP_BROADCAST, 2, "2", "1", "msg", "A");
    int t = add_tree(sc, 2, 0);
    add_send(sc, p, t, "A", "B", "msg", 0);
    add_send(sc, p, t, "B", "C", "msg", 1);
    add_slot(sc, "0", "1");
    add_transfer(sc, t, 0, "0", "1");
    add_transfer(sc, t, 1, "0", "1");
    add_slot(sc, "1", "1");
    add_transfer(sc, t, 0, "1", "2");
    add_transfer(sc, t, 1, "1", "2");
    steady_replay_t r = replay_ok(sc, p, 3);
    CU_ASSERT_DOUBLE_EQUAL(r.makespan, 4, EPS);
    CU_ASSERT_EQUAL(r.transfers, 6);
    r = replay_ok(sc, p, 4);
    CU_ASSERT_DOUBLE_EQUAL(r.makespan, 5, EPS);
    CU_ASSERT_EQUAL(r.transfers, 8);
    /* a single operation: one message per edge, the batch's second skipped */
    r = replay_ok(sc, p, 1);
    CU_ASSERT_DOUBLE_EQUAL(r.makespan, 2, EPS);
    CU_ASSERT_EQUAL(r.transfers, 2);
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
}

/* Messages split across slots: each edge moves [0, 1/2), [1/2, 3/2) and
 * [3/2, 2) of its two messages in slots of 1/2, 1, 1/2.  With N = 1 the
 * middle part is clipped to [1/2, 1) (half a message, half a unit) and the
 * last one skipped: 4 transfers; B -> C forwards [0, 1/2) at [1/2, 1] as
 * soon as it is in, then [1/2, 1) at [1, 3/2]: 3/2 units.  With N = 2,
 * B -> C moves [0, 1/2) at [1/2, 1], [1/2, 3/2) once A -> B's middle part
 * is in, at [3/2, 5/2], and [3/2, 2) at [5/2, 3]: 3 units. */
static void test_split_and_clipped(void)
{
    steady_platform_t *p = parse_ok(CHAIN, STEADY_FORMAT_NATIVE);
    steady_schedule_t *sc = sched_new(p, STEADY_OP_BROADCAST, 2, "2", "1", "msg", "A");
    int t = add_tree(sc, 2, 0);
    add_send(sc, p, t, "A", "B", "msg", 0);
    add_send(sc, p, t, "B", "C", "msg", 1);
    const char *bounds[] = {"0", "1/2", "3/2", "2"};
    const char *starts[] = {"0", "1/2", "3/2"}, *durations[] = {"1/2", "1", "1/2"};
    for (int s = 0; s < 3; s++) {
        add_slot(sc, starts[s], durations[s]);
        add_transfer(sc, t, 0, bounds[s], bounds[s + 1]);
        add_transfer(sc, t, 1, bounds[s], bounds[s + 1]);
    }
    steady_replay_t r = replay_ok(sc, p, 1);
    CU_ASSERT_DOUBLE_EQUAL(r.makespan, 1.5, EPS);
    CU_ASSERT_EQUAL(r.transfers, 4);
    r = replay_ok(sc, p, 2);
    CU_ASSERT_DOUBLE_EQUAL(r.makespan, 3, EPS);
    CU_ASSERT_EQUAL(r.transfers, 6);
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
}

/* A reduce of v0 (on A) and v1 (on B) onto B: A sends v[0,0] to B, B
 * computes T(0,0,1) in 2 units (speed 1/2).  The CPU is the bottleneck,
 * TP = 1/2: the tasks run back to back from time 1, N of them end at
 * 2N + 1.  B's own v[1,1] is there from the start. */
static void test_reduce_cpu(void)
{
    steady_platform_t *p = parse_ok("processor A speed=1\nprocessor B speed=0.5\n"
                                    "edge A B cost=1\n",
                                    STEADY_FORMAT_NATIVE);
    steady_schedule_t *sc =
        sched_new(p, STEADY_OP_REDUCE, 1, "2", "1/2", "[0,0] [1,1] [0,1]", "A B");
    sc->ntargets = 1;
    sc->targets = malloc(sizeof *sc->targets);
    sc->targets[0] = steady_platform_find_node(p, "B");
    int t = add_tree(sc, 1, 0);
    add_send(sc, p, t, "A", "B", "[0,0]", 0);
    add_task(sc, p, t, "B", 0, 0, 1, 1);
    add_slot(sc, "0", "1");
    add_transfer(sc, t, 0, "0", "1");
    for (long n = 1; n <= 5; n += 2) {
        steady_replay_t r = replay_ok(sc, p, n);
        CU_ASSERT_DOUBLE_EQUAL(r.makespan, 2 * n + 1, EPS);
        CU_ASSERT_EQUAL(r.transfers, n);
        CU_ASSERT_EQUAL(r.tasks, n);
        CU_ASSERT_DOUBLE_EQUAL(r.ratio, 2.0 * n / (2 * n + 1), EPS);
    }
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
}

static void expect_refused(const steady_schedule_t *sc, const steady_platform_t *p, long ops,
                           const char *needle)
{
    steady_replay_t r;
    steady_error_t err = {0};
    CU_ASSERT_EQUAL(steady_schedule_replay(sc, p, ops, &r, &err), STEADY_EINVAL);
    if (!strstr(err.msg, needle))
        fprintf(stderr, "\n    message \"%s\" lacks \"%s\"\n", err.msg, needle);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, needle));
}

/* Schedules the replay cannot run are refused with a message, not run. */
static void test_refused(void)
{
    steady_platform_t *p = parse_ok(CHAIN, STEADY_FORMAT_NATIVE);
    steady_schedule_t *sc = chain_broadcast(p);
    expect_refused(sc, p, 0, "positive");
    expect_refused(sc, p, -3, "positive");

    /* B -> C in the same period as the A -> B that feeds it, in the
     * same slot */
    sc->trees[0].steps[1].lag = 0;
    expect_refused(sc, p, 5, "lag 0, the lag of step 0, but its slot 0 does not come after");
    sc->trees[0].steps[1].lag = 1;

    /* half of each message never leaves A */
    mpq_set_ui(sc->slots[0].transfers[0].to, 1, 2);
    expect_refused(sc, p, 5, "do not carry its weight 1 of messages, each position once");
    mpq_set_ui(sc->slots[0].transfers[0].to, 1, 1);

    /* a transfer of a step that does not exist */
    sc->slots[0].transfers[1].step = 7;
    expect_refused(sc, p, 5, "not a part of a send step");
    sc->slots[0].transfers[1].step = 1;
    CU_ASSERT_DOUBLE_EQUAL(replay_ok(sc, p, 5).makespan, 6, EPS);
    steady_schedule_destroy(sc);

    /* B forwards a message that nothing brought to B */
    sc = sched_new(p, STEADY_OP_BROADCAST, 1, "1", "1", "msg", "A");
    int t = add_tree(sc, 1, 0);
    add_send(sc, p, t, "B", "C", "msg", 0);
    add_slot(sc, "0", "1");
    add_transfer(sc, t, 0, "0", "1");
    expect_refused(sc, p, 5, "nothing produces its input (msg on B)");
    steady_schedule_destroy(sc);

    /* a schedule for another platform */
    steady_platform_t *q = parse_ok("processor A speed=1\nprocessor B speed=1\nedge A B cost=1\n",
                                    STEADY_FORMAT_NATIVE);
    sc = chain_broadcast(p);
    expect_refused(sc, q, 5, "platform of 3 nodes");
    steady_schedule_destroy(sc);
    steady_platform_destroy(q);
    steady_platform_destroy(p);
}

/* ---- long series ------------------------------------------------------ */

/* Two gossips that share no port: A -> B takes 1 per operation, C -> D 1/2
 * with a latency of 50, so N operations take max(N, N / 2 + 50): the
 * latency decides up to N = 100, A's port beyond.  Runs of 2, 4 and 6
 * operations see only the second line; each piece extrapolated on its own
 * gives the first: 10 000 operations take 10 000 (the makespans alone, 51,
 * 52 and 53, would say 5 050). */
static void test_series_crossing(void)
{
    steady_platform_t *p =
        parse_ok("processor A speed=1\nprocessor B speed=1\nprocessor C speed=1\n"
                 "processor D speed=1\nedge A B cost=1\nedge C D cost=0.5 latency=50\n",
                 STEADY_FORMAT_NATIVE);
    steady_schedule_t *sc = sched_new(p, STEADY_OP_GOSSIP, 1, "1", "1", "A>B C>D", "A C");
    int ab = add_tree(sc, 1, 0), cd = add_tree(sc, 1, 0);
    add_send(sc, p, ab, "A", "B", "A>B", 0);
    add_send(sc, p, cd, "C", "D", "C>D", 0);
    add_slot(sc, "0", "1/2");
    add_transfer(sc, ab, 0, "0", "1/2");
    add_transfer(sc, cd, 0, "0", "1");
    add_slot(sc, "1/2", "1/2");
    add_transfer(sc, ab, 0, "1/2", "1");
    CU_ASSERT_DOUBLE_EQUAL(replay_ok(sc, p, 6).makespan, 53, EPS);
    CU_ASSERT_DOUBLE_EQUAL(replay_ok(sc, p, 10000).makespan, 10000, EPS);
    double m = 0;
    bool ex = false;
    CU_ASSERT_EQUAL(steady_schedule_series_makespan(sc, p, 10000, 1, &m, &ex, NULL), STEADY_OK);
    CU_ASSERT(ex);
    CU_ASSERT_DOUBLE_EQUAL(m, 10000, EPS);
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
}

void suite_replay(void)
{
    static const CU_TestInfo tests[] = {
        {"broadcast pipeline: N + 1", test_broadcast_pipeline},
        {"scatter: source send port, 2N + 1", test_scatter_send_port},
        {"latency: eager delays, rendezvous holds the ports", test_latency},
        {"recv-factor: a hop slows while its sender receives", test_recv_factor},
        {"a shared channel: flows share it by penalty; a FATPIPE by the heaviest",
         test_penalty_sharing},
        {"cross traffic: a message loads its reverse edge's channels", test_crosstraffic},
        {"a message is delivered whole, its latency first", test_message_whole},
        {"a message is posted once every part's input is there", test_message_posted},
        {"channels of one port's transfers: the program-order engine", test_port_private_channels},
        {"the executor's rings hold a forwarder's input", test_rings},
        {"eager: a receiver posts one receive at a time", test_receives_in_order},
        {"the executor's messages", test_messages},
        {"partial last batch", test_partial_batch},
        {"split messages, clipped", test_split_and_clipped},
        {"reduce bounded by the CPU", test_reduce_cpu},
        {"malformed schedules refused", test_refused},
        {"long series: pieces extrapolated one by one", test_series_crossing},
        CU_TEST_INFO_NULL};
    add_suite("replay", tests);
}
