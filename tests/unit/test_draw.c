/*
 * test_draw.c — the pictures (steady/draw.h) and the replay's observer
 * (steady_schedule_replay_observed), on the paper's reduce example: three
 * processors joined by unit-cost links, TP = 1, one reduction tree whose
 * period holds 2 transfers and 2 tasks (Figures 6 and 7), and whose
 * bottlenecks are P0's receive port, P1's send port and all of P2.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "steady/draw.h"
#include "steady/schedule.h"
#include "tests.h"

static const char *PAPER = "platform paper-reduce\n"
                           "processor P0 speed=2\nprocessor P1 speed=1\nprocessor P2 speed=1\n"
                           "link P0 P1 cost=1\nlink P0 P2 cost=1\nlink P1 P2 cost=1\n";

/* Runs a drawing function into a string (caller frees). */
#define DRAW(call)                                                                                 \
    ({                                                                                             \
        char *text_ = NULL;                                                                        \
        size_t len_ = 0;                                                                           \
        FILE *f_ = open_memstream(&text_, &len_);                                                  \
        steady_error_t err_ = {0};                                                                 \
        steady_err_t rc_ = call;                                                                   \
        fclose(f_);                                                                                \
        CU_ASSERT_EQUAL(rc_, STEADY_OK);                                                           \
        if (rc_)                                                                                   \
            fprintf(stderr, "\n    %s\n", err_.msg);                                               \
        text_;                                                                                     \
    })

static int count(const char *text, const char *needle)
{
    int n = 0;
    for (const char *s = text; s && (s = strstr(s, needle)); s += strlen(needle))
        n++;
    return n;
}

static steady_solution_t *paper_solution(steady_platform_t **p)
{
    *p = parse_ok(PAPER, STEADY_FORMAT_NATIVE);
    steady_problem_t prob = {.op = STEADY_OP_REDUCE, .target = 0, .task_cost = 1};
    return *p ? solve_ok(*p, prob) : NULL;
}

static void test_platform(void)
{
    steady_platform_t *p = parse_ok(PAPER, STEADY_FORMAT_NATIVE);
    if (!p)
        return;
    char *dot = DRAW(steady_draw_platform(p, NULL, f_, &err_));
    /* three duplex links of equal cost: three double-headed edges */
    CU_ASSERT_EQUAL(count(dot, " -> "), 3);
    CU_ASSERT_EQUAL(count(dot, "dir=both"), 3);
    CU_ASSERT_EQUAL(count(dot, "c=1"), 3);
    CU_ASSERT_PTR_NOT_NULL(strstr(dot, "label=\"P0\\nspeed 2\""));
    free(dot);
    steady_platform_destroy(p);
}

static void test_solution(void)
{
    steady_platform_t *p;
    steady_solution_t *s = paper_solution(&p);
    if (!s)
        return;
    char *dot = DRAW(steady_draw_solution(s, NULL, f_, &err_));
    /* every node has a saturated port; P1 -> P2 and P2 -> P0 are busy all the time */
    CU_ASSERT_EQUAL(count(dot, "penwidth=2.5"), 3);
    CU_ASSERT_PTR_NOT_NULL(strstr(dot, "saturated: send recv cpu"));
    CU_ASSERT_EQUAL(count(dot, "busy 1\""), 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(dot, "[1,1]: 1\\nbusy 1"));
    CU_ASSERT_PTR_NOT_NULL(strstr(dot, "T(1,1,2): 1"));
    /* the four unused edges are dotted */
    CU_ASSERT_EQUAL(count(dot, "style=dotted"), 4);
    free(dot);

    steady_trees_t *t = trees_ok(s);
    if (t) {
        dot = DRAW(steady_draw_trees(s, t, NULL, f_, &err_));
        CU_ASSERT_EQUAL(count(dot, "subgraph cluster_"), 1);
        CU_ASSERT_PTR_NOT_NULL(strstr(dot, "weight 1 (100% of TP)"));
        /* Figure 5's shape: 3 leaves, 2 transfers, 2 tasks, 6 arrows */
        CU_ASSERT_EQUAL(count(dot, "shape=ellipse"), 3);
        CU_ASSERT_EQUAL(count(dot, "style=rounded, label"), 2);
        CU_ASSERT_EQUAL(count(dot, "fillcolor=\"#d9d9d9\", label=\"T("), 2);
        CU_ASSERT_EQUAL(count(dot, "-> t0_"), 6);
        free(dot);
        steady_trees_destroy(t);
    }
    steady_solution_destroy(s);
    steady_platform_destroy(p);
}

typedef struct {
    long sends, tasks;
    double last_done;
    bool ordered;
} tally_t;

static void tally(void *ctx, const steady_replay_event_t *ev)
{
    tally_t *t = ctx;
    if (ev->kind == STEADY_STEP_SEND) {
        t->sends++;
        t->ordered &= ev->done >= ev->end && ev->peer >= 0;
    } else {
        t->tasks += (long)ev->amount;
        t->ordered &= ev->done == ev->end && ev->peer == -1;
    }
    t->ordered &= ev->end > ev->start && ev->batch >= 0 && ev->batch <= ev->period;
    if (ev->done > t->last_done)
        t->last_done = ev->done;
}

static void test_schedule_pictures(void)
{
    steady_platform_t *p;
    steady_solution_t *s = paper_solution(&p);
    if (!s)
        return;
    steady_plan_options_t po = {.period = STEADY_PERIOD_EXACT};
    steady_schedule_t *sc = NULL;
    steady_error_t err = {0};
    CU_ASSERT_EQUAL_FATAL(steady_schedule_build(s, &po, &sc, &err), STEADY_OK);
    int x = 0;
    for (int i = 0; i < sc->nslots; i++)
        x += sc->slots[i].ntransfers;
    char *svg = DRAW(steady_draw_gantt(sc, p, NULL, f_, &err_));
    CU_ASSERT_EQUAL(count(svg, "class=\"bar send\""), x);
    CU_ASSERT_EQUAL(count(svg, "class=\"bar recv\""), x);
    CU_ASSERT_EQUAL(count(svg, "class=\"bar cpu\""), sc->ncompute);
    CU_ASSERT_EQUAL(x, 2); /* [1,1] P1 -> P2 and [1,2] P2 -> P0 */
    free(svg);

    /* the observer sees every event, and the results do not change */
    steady_replay_t plain, seen;
    tally_t t = {.ordered = true};
    steady_replay_observer_t obs = {.event = tally, .ctx = &t};
    CU_ASSERT_EQUAL(steady_schedule_replay(sc, p, 10, &plain, &err), STEADY_OK);
    CU_ASSERT_EQUAL(steady_schedule_replay_observed(sc, p, 10, &obs, &seen, &err), STEADY_OK);
    CU_ASSERT_EQUAL(memcmp(&plain, &seen, sizeof plain), 0);
    CU_ASSERT_EQUAL(t.sends, plain.transfers);
    CU_ASSERT_EQUAL(t.tasks, plain.tasks);
    CU_ASSERT_DOUBLE_EQUAL(t.last_done, plain.makespan, 1e-12);
    CU_ASSERT(t.ordered);
    /* 10 operations, 2 transfers and 2 tasks each; pipelined, the makespan is
     * the 10 periods plus the pipeline's fill */
    CU_ASSERT_EQUAL(plain.transfers, 20);
    CU_ASSERT_EQUAL(plain.tasks, 20);

    steady_replay_t r;
    svg = DRAW(steady_draw_replay(sc, p, 4, NULL, f_, &r, &err_));
    CU_ASSERT_EQUAL(count(svg, "class=\"bar send\""), r.transfers);
    CU_ASSERT_EQUAL(count(svg, "class=\"bar recv\""), r.transfers);
    CU_ASSERT_EQUAL(count(svg, "class=\"bar cpu\""), r.tasks); /* one task per entry here */
    CU_ASSERT_EQUAL(r.ops, 4);
    free(svg);

    /* a bar limit refuses rather than writing a huge chart */
    steady_draw_options_t small = {.max_bars = 5};
    FILE *f = tmpfile();
    CU_ASSERT_EQUAL(steady_draw_replay(sc, p, 4, &small, f, NULL, &err), STEADY_EINVAL);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "more than 5 bars"));
    fclose(f);
    steady_schedule_destroy(sc);
    steady_solution_destroy(s);
    steady_platform_destroy(p);
}

void suite_draw(void)
{
    static const CU_TestInfo tests[] = {
        {"platform: duplex pairs, costs, speeds", test_platform},
        {"solution and trees of the paper's reduce", test_solution},
        {"gantt, replay observer and replay chart", test_schedule_pictures},
        CU_TEST_INFO_NULL};
    add_suite("draw", tests);
}
