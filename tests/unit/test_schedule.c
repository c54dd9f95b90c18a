/*
 * test_schedule.c — the planner (solution -> periodic schedule) and the
 * schedule file: the paper's example, periods, exact file round trips,
 * errors.  Validity itself is check.c's (test_check.c); here every plan is
 * also passed through it.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_util.h"
#include "steady/schedule.h"
#include "tests.h"

static const char *paper_reduce = "platform paper-reduce\nprocessor P0 speed=2\n"
                                  "processor P1 speed=1\nprocessor P2 speed=1\n"
                                  "link P0 P1 cost=1\nlink P0 P2 cost=1\nlink P1 P2 cost=1\n";

static steady_schedule_t *plan(const steady_platform_t *p, steady_problem_t prob, double period)
{
    steady_solution_t *s = NULL;
    steady_schedule_t *sc = NULL;
    steady_error_t err = {0};
    CU_ASSERT_EQUAL_FATAL(steady_lp_solve(p, &prob, NULL, &s, &err), STEADY_OK);
    steady_plan_options_t o = {.period = period};
    steady_err_t rc = steady_schedule_build(s, &o, &sc, &err);
    if (rc)
        fprintf(stderr, "\n    unexpected plan error: %s\n", err.msg);
    CU_ASSERT_EQUAL(rc, STEADY_OK);
    steady_solution_destroy(s);
    return sc;
}

/* The paper's Figure 6-7: TP = 1.  With the exact period, the trees'
 * weights over the period add up to 1 operation per time unit, every tree
 * reduces v0 ⊕ v1 ⊕ v2 onto P0, and the schedule is valid. */
static void test_paper_reduce(void)
{
    steady_platform_t *p = parse_ok(paper_reduce, STEADY_FORMAT_NATIVE);
    int parts[] = {0, 1, 2};
    steady_problem_t prob = {.op = STEADY_OP_REDUCE,
                             .participants = parts,
                             .nparticipants = 3,
                             .target = 0,
                             .task_cost = 1};
    steady_schedule_t *sc = plan(p, prob, STEADY_PERIOD_EXACT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    mpq_t one;
    mpq_init(one);
    mpq_set_ui(one, 1, 1);
    CU_ASSERT(mpq_equal(sc->throughput, one));
    CU_ASSERT(mpq_equal(sc->optimum, one));
    CU_ASSERT_FALSE(sc->fixed_period);
    long total = 0;
    for (int i = 0; i < sc->ntrees; i++) {
        total += sc->trees[i].weight;
        /* the last step produces v[0,2] on P0: a compute there or a reception */
        const steady_sched_step_t *last = &sc->trees[i].steps[sc->trees[i].nsteps - 1];
        CU_ASSERT(last->kind == STEADY_STEP_COMPUTE
                      ? last->node == 0 && last->k == 0 && last->m == 2
                      : steady_platform_edge(p, last->edge)->dst == 0);
    }
    CU_ASSERT_EQUAL(total, sc->ops_per_period);
    CU_ASSERT(mpq_cmp_si(sc->period, sc->ops_per_period, 1) == 0); /* TP = 1 */
    CU_ASSERT_EQUAL(sched_violations(sc, p), 0);
    /* one port per direction: the slots fill at most the period */
    mpq_t sum;
    mpq_init(sum);
    for (int k = 0; k < sc->nslots; k++)
        mpq_add(sum, sum, sc->slots[k].duration);
    CU_ASSERT(mpq_cmp(sum, sc->period) <= 0);
    mpq_clears(one, sum, NULL);
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
}

/* A fixed period T (§4.6): throughput K / T, loss = optimum - throughput
 * at most #trees / T, on random platforms and every op. */
static void test_fixed_period(void)
{
    for (uint64_t seed = 1; seed <= 3; seed++) {
        steady_platform_t *p = NULL;
        CU_ASSERT_EQUAL_FATAL(steady_platform_generate(STEADY_GEN_RANDOM, 6, seed, &p, NULL), 0);
        for (int op = 0; op < 4; op++) {
            steady_schedule_t *sc = plan(p, (steady_problem_t){.op = (steady_op_t)op}, 100);
            CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
            CU_ASSERT_TRUE(sc->fixed_period);
            CU_ASSERT(mpq_cmp_si(sc->period, 100, 1) == 0);
            mpq_t q;
            mpq_init(q);
            mpq_sub(q, sc->optimum, sc->throughput);
            CU_ASSERT(mpq_equal(q, sc->loss));
            CU_ASSERT(mpq_sgn(sc->loss) >= 0);
            CU_ASSERT(mpq_cmp(sc->loss, sc->loss_bound) <= 0);
            mpq_set_si(q, sc->ops_per_period, 100);
            mpq_canonicalize(q);
            CU_ASSERT(mpq_equal(q, sc->throughput));
            mpq_clear(q);
            CU_ASSERT_EQUAL(sched_violations(sc, p), 0);
            steady_schedule_destroy(sc);
        }
        steady_platform_destroy(p);
    }
}

/* The automatic period on the examples reaches the optimum exactly with few
 * operations per period, and is valid. */
static void test_auto_period(void)
{
    const char *files[] = {"examples/platforms/two-cluster-grid.plat",
                           "examples/platforms/tiers.plat",
                           "examples/platforms/homogeneous-complete.plat"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        steady_platform_t *p = NULL;
        CU_ASSERT_EQUAL_FATAL(steady_platform_read(files[f], STEADY_FORMAT_AUTO, &p, NULL, NULL),
                              0);
        for (int op = 0; op < 4; op++) {
            steady_schedule_t *sc = plan(p, (steady_problem_t){.op = (steady_op_t)op}, 0);
            CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
            CU_ASSERT(sc->ops_per_period <= 128);
            /* >= 99.5% of the optimum */
            mpq_t q;
            mpq_init(q);
            mpq_set_ui(q, 995, 1000);
            mpq_mul(q, q, sc->optimum);
            CU_ASSERT(mpq_cmp(sc->throughput, q) >= 0);
            CU_ASSERT(mpq_cmp(sc->throughput, sc->optimum) <= 0);
            mpq_clear(q);
            CU_ASSERT_EQUAL(sched_violations(sc, p), 0);
            steady_schedule_destroy(sc);
        }
        steady_platform_destroy(p);
    }
}

/* write -> read gives back the same schedule, rationals exactly. */
static void test_file_round_trip(void)
{
    steady_platform_t *p = NULL;
    CU_ASSERT_EQUAL_FATAL(steady_platform_read("examples/platforms/two-cluster-grid.plat",
                                               STEADY_FORMAT_AUTO, &p, NULL, NULL),
                          0);
    char path[] = "/tmp/steady-test-XXXXXX";
    int fd = mkstemp(path);
    CU_ASSERT_FATAL(fd >= 0);
    close(fd);
    for (int op = 0; op < 4; op++)
        for (int exact = 0; exact < 2; exact++) {
            steady_schedule_t *sc = plan(p, (steady_problem_t){.op = (steady_op_t)op},
                                         exact ? STEADY_PERIOD_EXACT : 7.5);
            CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
            FILE *f = fopen(path, "w");
            CU_ASSERT_EQUAL(steady_schedule_write(sc, p, f, NULL), STEADY_OK);
            fclose(f);
            steady_schedule_t *back = NULL;
            steady_error_t err = {0};
            CU_ASSERT_EQUAL(steady_schedule_read(path, p, &back, &err), STEADY_OK);
            CU_ASSERT_PTR_NOT_NULL_FATAL(back);
            CU_ASSERT_TRUE(steady_schedule_equal(sc, back));
            /* one lag, one position, one slot's start: another schedule */
            back->trees[0].steps[0].lag++;
            CU_ASSERT_FALSE(steady_schedule_equal(sc, back));
            back->trees[0].steps[0].lag--;
            steady_sched_transfer_t *tf = &back->slots[back->nslots - 1].transfers[0];
            mpq_add(tf->to, tf->to, tf->to);
            CU_ASSERT_FALSE(steady_schedule_equal(sc, back));
            mpq_set(tf->to, sc->slots[sc->nslots - 1].transfers[0].to);
            mpq_set_si(back->slots[0].start, 1, 3);
            CU_ASSERT_EQUAL(steady_schedule_equal(sc, back),
                            mpq_cmp_si(sc->slots[0].start, 1, 3) == 0);
            mpq_set(back->slots[0].start, sc->slots[0].start);
            CU_ASSERT_TRUE(steady_schedule_equal(sc, back));
            steady_schedule_destroy(back);
            steady_schedule_destroy(sc);
        }
    /* a schedule is refused by another platform */
    steady_platform_t *q = parse_ok(paper_reduce, STEADY_FORMAT_NATIVE);
    steady_schedule_t *sc = NULL;
    steady_error_t err = {0};
    CU_ASSERT_EQUAL(steady_schedule_read(path, q, &sc, &err), STEADY_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "made for another platform (two-cluster-grid"));
    CU_ASSERT_PTR_NULL(sc);
    unlink(path);
    CU_ASSERT_EQUAL(steady_schedule_read(path, q, &sc, &err), STEADY_EINPUT);
    steady_platform_destroy(q);
    steady_platform_destroy(p);
}

/* What the planner reports (opts->progress): the trees first, then, on
 * random-6-s4's broadcast, whole counts for K = 1, 2, ..., every
 * candidate built and replayed, done counting up below its total, and the
 * tree phases last; the same schedule as without a callback. */
typedef struct {
    int trees, whole, built, phases;
    double last_k, last_built, total;
    bool ordered;
} seen_t;

static void note_progress(void *ctx, const char *stage, double done, double total)
{
    seen_t *s = ctx;
    if (strcmp(stage, "trees") == 0) {
        s->ordered = s->ordered && s->whole == 0 && s->built == 0;
        s->trees++;
    } else if (strcmp(stage, "whole counts, K") == 0) {
        s->ordered = s->ordered && s->trees == 1 && s->built == 0 && done == s->last_k + 1;
        s->last_k = done;
        s->whole++;
    } else if (strcmp(stage, "tree phases") == 0) {
        s->ordered = s->ordered && s->built > 0 && s->phases == 0;
        s->phases++;
    } else if (strcmp(stage, "period candidates, built and replayed") == 0) {
        s->ordered = s->ordered && s->phases == 0 && done == s->last_built + 1 && done < total &&
                     (s->total == 0 || total == s->total);
        s->last_built = done;
        s->total = total;
        s->built++;
    } else {
        s->ordered = false;
    }
}

static void test_progress(void)
{
    steady_platform_t *p = NULL;
    CU_ASSERT_EQUAL_FATAL(steady_platform_generate(STEADY_GEN_RANDOM, 6, 4, &p, NULL), STEADY_OK);
    steady_solution_t *s = NULL;
    steady_problem_t prob = {.op = STEADY_OP_BROADCAST};
    CU_ASSERT_EQUAL_FATAL(steady_lp_solve(p, &prob, NULL, &s, NULL), STEADY_OK);
    seen_t seen = {.last_k = 0, .last_built = -1, .ordered = true};
    steady_plan_options_t o = {.series = 2000, .progress = note_progress, .progress_ctx = &seen};
    steady_schedule_t *a = NULL, *b = NULL;
    CU_ASSERT_EQUAL_FATAL(steady_schedule_build(s, &o, &a, NULL), STEADY_OK);
    CU_ASSERT(seen.ordered);
    CU_ASSERT_EQUAL(seen.trees, 1);
    CU_ASSERT(seen.whole >= 2);
    CU_ASSERT(seen.built >= 2);
    CU_ASSERT_EQUAL(seen.built, (int)seen.total);
    CU_ASSERT_EQUAL(seen.phases, 1);
    o.progress = NULL;
    CU_ASSERT_EQUAL_FATAL(steady_schedule_build(s, &o, &b, NULL), STEADY_OK);
    CU_ASSERT(steady_schedule_equal(a, b));
    steady_schedule_destroy(a);
    steady_schedule_destroy(b);
    steady_solution_destroy(s);
    steady_platform_destroy(p);
}

/* Segments.  The LP of a segment: without overheads the message's optimum
 * scaled (TP times m exactly, as GLPK finds it for that size), with an
 * overhead solved again (below m times).  A plan in m segments moves
 * messages of 1/m, is valid, and N of its operations replay as its N m
 * messages; automatic segments on random-6 seed 2's reduce, where the
 * unsegmented pipeline costs most (0.9643 at 2000 operations), take the
 * most allowed and reach 98% of the optimum; errors. */
static double replay_makespan(const steady_schedule_t *sc, const steady_platform_t *p, long ops)
{
    steady_replay_t r = {0};
    CU_ASSERT_EQUAL(steady_schedule_replay(sc, p, ops, &r, NULL), STEADY_OK);
    return r.makespan;
}

/* Two sites joined by a WAN of 10 MB/s and 5 ms (examples/platforms/
 * sg-two-sites.xml): a broadcast's segments each pay the WAN's latency
 * under rendezvous, so the automatic choice keeps the message whole, which
 * replays at 95% of the optimum or more.  The eager model is blind to it:
 * 4 segments replay as fast as 1 there, and run no faster than the
 * automatic choice under rendezvous (0.837 of the optimum before the
 * single chain, whose 2 operations per period pay the WAN's latency once
 * for 8 segments: 0.975); its automatic choice keeps the message whole too
 * since the message objective (within 0.5% of the fastest, the fewest
 * messages per operation). */
static void test_segments_cost_model(void)
{
    steady_platform_t *p = read_ok("examples/platforms/sg-two-sites.xml");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    steady_error_t err = {0};
    steady_problem_t prob = {.op = STEADY_OP_BROADCAST, .source = 0};
    steady_solution_t *s = NULL;
    CU_ASSERT_EQUAL_FATAL(steady_lp_solve(p, &prob, NULL, &s, &err), STEADY_OK);
    steady_plan_options_t o = {.series = 1000};
    steady_schedule_t *sc = NULL;
    CU_ASSERT_EQUAL_FATAL(steady_schedule_plan(s, NULL, &o, &sc, &err), STEADY_OK);
    CU_ASSERT_EQUAL(sc->cost_model, STEADY_COST_RENDEZVOUS);
    CU_ASSERT_EQUAL(sc->segments, 1);
    steady_replay_t r = {0};
    CU_ASSERT_EQUAL(steady_schedule_replay(sc, p, 1000, &r, NULL), STEADY_OK);
    CU_ASSERT(r.ratio >= 0.95);
    double rendezvous = r.ratio;
    steady_schedule_destroy(sc);
    o.cost_model = STEADY_COST_EAGER;
    CU_ASSERT_EQUAL_FATAL(steady_schedule_plan(s, NULL, &o, &sc, &err), STEADY_OK);
    CU_ASSERT_EQUAL(sc->segments, 1);
    steady_replay_t one = {0};
    CU_ASSERT_EQUAL(steady_schedule_replay(sc, p, 1000, &one, NULL), STEADY_OK);
    long m1 = 0, m4 = 0;
    double per1 = 0, per4 = 0;
    CU_ASSERT_EQUAL(steady_schedule_message_count(sc, p, &m1, &per1, NULL), STEADY_OK);
    steady_schedule_destroy(sc);
    o.segments = 4;
    CU_ASSERT_EQUAL_FATAL(steady_schedule_plan(s, NULL, &o, &sc, &err), STEADY_OK);
    CU_ASSERT_EQUAL(sc->segments, 4);
    CU_ASSERT_EQUAL(steady_schedule_replay(sc, p, 1000, &r, NULL), STEADY_OK);
    CU_ASSERT(one.ratio >= r.ratio * (1 - 0.005)); /* within the message objective's slack */
    CU_ASSERT_EQUAL(steady_schedule_message_count(sc, p, &m4, &per4, NULL), STEADY_OK);
    CU_ASSERT(per4 > per1);
    sc->cost_model = STEADY_COST_RENDEZVOUS; /* what it would run at */
    CU_ASSERT_EQUAL(steady_schedule_replay(sc, p, 1000, &r, NULL), STEADY_OK);
    CU_ASSERT(r.ratio <= rendezvous);
    steady_schedule_destroy(sc);
    steady_solution_destroy(s);
    steady_platform_destroy(p);
}

static void test_segments(void)
{
    steady_platform_t *p = NULL;
    CU_ASSERT_EQUAL_FATAL(steady_platform_generate(STEADY_GEN_RANDOM, 6, 2, &p, NULL), STEADY_OK);
    steady_problem_t prob = {.op = STEADY_OP_REDUCE};
    steady_solution_t *s = NULL, *seg = NULL, *direct = NULL;
    steady_error_t err = {0};
    CU_ASSERT_EQUAL_FATAL(steady_lp_solve(p, &prob, NULL, &s, &err), STEADY_OK);
    mpq_t tp, tp4, want;
    mpq_inits(tp, tp4, want, NULL);
    steady_solution_throughput(s, tp);
    CU_ASSERT_EQUAL_FATAL(steady_lp_solve_segment(s, 4, NULL, &seg, &err), STEADY_OK);
    CU_ASSERT_EQUAL(steady_solution_msg_size(seg), 262144.0);
    CU_ASSERT_EQUAL(steady_solution_task_cost(seg), 262144.0);
    steady_solution_throughput(seg, tp4);
    mpq_set_ui(want, 4, 1);
    mpq_mul(want, want, tp);
    CU_ASSERT(mpq_equal(tp4, want));
    prob.msg_size = 262144;
    CU_ASSERT_EQUAL_FATAL(steady_lp_solve(p, &prob, NULL, &direct, &err), STEADY_OK);
    steady_solution_throughput(direct, want);
    CU_ASSERT(mpq_equal(tp4, want));
    steady_solution_destroy(direct);
    /* the copy's trees: s's, their weights 4 times, adding up to its TP;
     * scaled by another factor they fail the exact check */
    CU_ASSERT_EQUAL(steady_solution_scale(s), 0);
    CU_ASSERT_EQUAL(steady_solution_scale(seg), 4);
    steady_trees_t *t = NULL, *t4 = NULL, *t2 = NULL;
    CU_ASSERT_EQUAL_FATAL(steady_trees_decompose(s, &t, &err), STEADY_OK);
    CU_ASSERT_EQUAL_FATAL(steady_trees_scale(seg, t, 4, &t4, &err), STEADY_OK);
    CU_ASSERT_EQUAL_FATAL(t4->ntrees, t->ntrees);
    CU_ASSERT_EQUAL(t4->nhops, t->nhops);
    mpq_set_ui(want, 0, 1);
    for (int i = 0; i < t->ntrees; i++) {
        mpq_t w;
        mpq_init(w);
        mpq_mul_2exp(w, t->trees[i].weight, 2);
        CU_ASSERT(mpq_equal(w, t4->trees[i].weight));
        CU_ASSERT_EQUAL(t4->trees[i].nsteps, t->trees[i].nsteps);
        mpq_add(want, want, w);
        mpq_clear(w);
    }
    CU_ASSERT(mpq_equal(want, tp4));
    CU_ASSERT_EQUAL(steady_trees_scale(seg, t, 2, &t2, &err), STEADY_EINTERNAL);
    CU_ASSERT_PTR_NULL(t2);
    steady_trees_destroy(t);
    steady_trees_destroy(t4);

    /* a plan in 4 segments */
    steady_plan_options_t o = {.series = 2000, .segments = 4, .cost_model = STEADY_COST_EAGER};
    steady_schedule_t *sc = NULL;
    CU_ASSERT_EQUAL_FATAL(steady_schedule_plan(s, NULL, &o, &sc, &err), STEADY_OK);
    CU_ASSERT_EQUAL(sc->segments, 4);
    CU_ASSERT_EQUAL(sc->msg_size, 262144.0);
    CU_ASSERT(mpq_equal(sc->optimum, tp4));
    CU_ASSERT_EQUAL(sched_violations(sc, p), 0);
    char path[] = "/tmp/steady-test-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(steady_schedule_write(sc, p, f, NULL), STEADY_OK);
    fclose(f);
    steady_schedule_t *back = NULL;
    CU_ASSERT_EQUAL(steady_schedule_read(path, p, &back, &err), STEADY_OK);
    CU_ASSERT(back && steady_schedule_equal(sc, back));
    steady_schedule_destroy(back);
    unlink(path);
    steady_replay_t r = {0};
    CU_ASSERT_EQUAL(steady_schedule_replay(sc, p, 500, &r, NULL), STEADY_OK);
    CU_ASSERT_EQUAL(r.ops, 500);
    CU_ASSERT_DOUBLE_EQUAL(r.optimum, mpq_get_d(tp), 1e-9 * r.optimum);
    CU_ASSERT_DOUBLE_EQUAL(r.achieved, 500 / r.makespan, 1e-12);
    double makespan;
    CU_ASSERT_EQUAL(steady_schedule_series_makespan(sc, p, 500, 0, &makespan, NULL, NULL),
                    STEADY_OK);
    CU_ASSERT_EQUAL(makespan, r.makespan);
    sc->segments = 1;
    CU_ASSERT_EQUAL(replay_makespan(sc, p, 2000), r.makespan);
    steady_schedule_destroy(sc);

    /* automatic: the most segments (4 of 256 KiB), 98% at 2000 operations,
     * where one segment reaches 96.4% */
    o.segments = 0;
    CU_ASSERT_EQUAL_FATAL(steady_schedule_plan(s, NULL, &o, &sc, &err), STEADY_OK);
    CU_ASSERT_EQUAL(sc->segments, 4);
    CU_ASSERT_EQUAL(sched_violations(sc, p), 0);
    CU_ASSERT_EQUAL(steady_schedule_replay(sc, p, 2000, &r, NULL), STEADY_OK);
    CU_ASSERT(r.ratio >= 0.98);
    steady_schedule_destroy(sc);
    o.segments = 1;
    CU_ASSERT_EQUAL_FATAL(steady_schedule_plan(s, NULL, &o, &sc, &err), STEADY_OK);
    CU_ASSERT_EQUAL(steady_schedule_replay(sc, p, 2000, &r, NULL), STEADY_OK);
    CU_ASSERT(r.ratio < 0.97);
    steady_schedule_destroy(sc);
    /* a fixed period: one segment */
    o = (steady_plan_options_t){.period = 2};
    CU_ASSERT_EQUAL_FATAL(steady_schedule_plan(s, NULL, &o, &sc, &err), STEADY_OK);
    CU_ASSERT_EQUAL(sc->segments, 1);
    steady_schedule_destroy(sc);
    /* what does not cut into 8-byte words */
    o = (steady_plan_options_t){.segments = 3};
    CU_ASSERT_EQUAL(steady_schedule_plan(s, NULL, &o, &sc, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "segments: 3 segments of a 1048576-byte message are not "
                                    "whole 8-byte words");
    CU_ASSERT_PTR_NULL(sc);
    steady_solution_destroy(seg);
    CU_ASSERT_EQUAL(steady_lp_solve_segment(s, 0, NULL, &seg, &err), STEADY_EINVAL);
    CU_ASSERT_PTR_NULL(seg);
    steady_solution_destroy(s);
    steady_platform_destroy(p);

    /* an overhead per message: solved again, below 4 times the optimum */
    p = parse_ok("platform o\nprocessor A speed=1e9\nprocessor B speed=1e9\n"
                 "edge A B bandwidth=1e8 overhead=1e-3\nedge B A bandwidth=1e8\n",
                 STEADY_FORMAT_NATIVE);
    prob = (steady_problem_t){.op = STEADY_OP_BROADCAST};
    CU_ASSERT_EQUAL_FATAL(steady_lp_solve(p, &prob, NULL, &s, &err), STEADY_OK);
    steady_solution_throughput(s, tp);
    CU_ASSERT_EQUAL_FATAL(steady_lp_solve_segment(s, 4, NULL, &seg, &err), STEADY_OK);
    steady_solution_throughput(seg, tp4);
    /* c = 1e-3 + 2^18 / 1e8 per segment */
    mpq_set_ui(want, 100000000, 100000 + 262144);
    mpq_canonicalize(want);
    CU_ASSERT(mpq_equal(tp4, want));
    CU_ASSERT_EQUAL(steady_solution_scale(seg), 0);
    steady_solution_destroy(seg);
    steady_solution_destroy(s);
    steady_platform_destroy(p);

    /* an abstract platform: one segment, never more */
    p = parse_ok(paper_reduce, STEADY_FORMAT_NATIVE);
    prob = (steady_problem_t){.op = STEADY_OP_REDUCE};
    CU_ASSERT_EQUAL_FATAL(steady_lp_solve(p, &prob, NULL, &s, &err), STEADY_OK);
    o = (steady_plan_options_t){0};
    CU_ASSERT_EQUAL_FATAL(steady_schedule_plan(s, NULL, &o, &sc, &err), STEADY_OK);
    CU_ASSERT_EQUAL(sc->segments, 1);
    steady_schedule_destroy(sc);
    o.segments = 2;
    CU_ASSERT_EQUAL(steady_schedule_plan(s, NULL, &o, &sc, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "segments: an abstract platform's costs are per message, "
                                    "which cannot be cut (2 segments)");
    steady_solution_destroy(s);
    steady_platform_destroy(p);
    mpq_clears(tp, tp4, want, NULL);
}

static void test_errors(void)
{
    steady_platform_t *p = parse_ok(paper_reduce, STEADY_FORMAT_NATIVE);
    steady_solution_t *s = NULL;
    steady_schedule_t *sc = NULL;
    steady_error_t err = {0};
    steady_problem_t prob = {.op = STEADY_OP_REDUCE, .target = 0};
    steady_solve_options_t approx = {.exact = false};
    CU_ASSERT_EQUAL_FATAL(steady_lp_solve(p, &prob, &approx, &s, &err), STEADY_OK);
    CU_ASSERT_EQUAL(steady_schedule_build(s, NULL, &sc, &err), STEADY_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "the solution is approximate"));
    steady_solution_destroy(s);
    CU_ASSERT_EQUAL_FATAL(steady_lp_solve(p, &prob, NULL, &s, &err), STEADY_OK);
    steady_plan_options_t o = {.period = 0.5};
    CU_ASSERT_EQUAL(steady_schedule_build(s, &o, &sc, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "period 0.5 is too short for a single operation (the "
                                    "optimum runs one every 1)");
    CU_ASSERT_PTR_NULL(sc);
    steady_solution_destroy(s);
    steady_platform_destroy(p);
}

void suite_schedule(void)
{
    static const CU_TestInfo tests[] = {
        {"paper reduce example: TP = 1", test_paper_reduce},
        {"fixed period: loss within #trees / T", test_fixed_period},
        {"auto period on the examples", test_auto_period},
        {"file round trip, platform hash", test_file_round_trip},
        {"progress reports", test_progress},
        {"segments", test_segments},
        {"automatic segments follow the cost model", test_segments_cost_model},
        {"errors", test_errors},
        CU_TEST_INFO_NULL};
    add_suite("schedules", tests);
}
