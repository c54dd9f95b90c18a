/*
 * schedule/plan.h — the planner's shared pieces (not installed): the
 * candidates of the automatic period, the search state of the slot order,
 * and the steps plan.c's driver calls (plan_period.c, plan_trees.c,
 * plan_slots.c, plan_order.c, plan_phases.c).
 */
#ifndef STEADY_SCHEDULE_PLAN_H
#define STEADY_SCHEDULE_PLAN_H

#include "steady/schedule.h"

static inline steady_err_t oom(steady_error_t *err)
{
    return steady_error_set(err, STEADY_ENOMEM, "out of memory");
}

/* Scatter and gossip trees are routes of one message type each, and each
 * type carries every operation once: the types are the groups whose counts
 * must be equal.  Reduce and broadcast trees form one group. */
static inline bool per_type(const steady_schedule_t *sc)
{
    return sc->op == STEADY_OP_SCATTER || sc->op == STEADY_OP_GOSSIP;
}

static inline int group_count(const steady_schedule_t *sc)
{
    return per_type(sc) ? sc->ntypes : 1;
}

static inline int tree_group(const steady_schedule_t *sc, const steady_tree_t *t)
{
    return per_type(sc) ? t->steps[0].type : 0;
}

/* The automatic period's best few candidates by the estimate of
 * choose_period(); the planner builds each one and keeps the one its
 * replay runs fastest. */
#define NCAND 4

/* Operations per period the automatic period tries at most. */
#define AUTO_MAX_OPS 128

typedef struct {
    int n;
    long *weight[NCAND];
    mpq_t period[NCAND];
    long ops[NCAND];
    double score[NCAND];
} candidates_t;

/* A broadcast's or a reduce's single chain and two shallow trees are
 * tried in 1, 2, 4 and 8 operations per period where a message costs more
 * than its bytes: messages that merge several operations pay a latency or
 * an overhead once for them all, a longer period fills the pipeline
 * later. */
#define CHAIN_REPEATS 4

/* Other solutions of the same TP or less, each scheduled in `repeat`
 * times its exact period: whole-count solutions (steady_lp_solve_whole),
 * best first, once each, then a broadcast's or a reduce's single chain
 * (steady_lp_single_tree) and its two trees (steady_lp_broadcast_trees,
 * steady_lp_reduce_trees), up to CHAIN_REPEATS times each (the same
 * solution). */
typedef struct {
    int n;
    steady_solution_t *sol[NCAND + 2 * CHAIN_REPEATS];
    double score[NCAND + 2 * CHAIN_REPEATS];
    long repeat[NCAND + 2 * CHAIN_REPEATS];
} whole_cands_t;

/* The replay decides among the automatic period's candidates; a series
 * that would take more than REPLAY_EVENTS events is extrapolated from
 * shorter runs (steady_schedule_series_makespan). */
#define REPLAY_EVENTS 20000000L

/* The message objective: the share of the fastest candidate's replayed
 * rate a candidate (period, segments) may give up for fewer MPI messages
 * per operation (docs/schedule-format.md). */
#define MESSAGE_SLACK 0.005

/* Periods of at most this many comms are also built with the matchings
 * of STEADY_MATCHING_FRESH (quadratic), one more candidate when it sends
 * fewer messages. */
#define FRESH_MAX_COMMS 500

/* The series the plan is made for. */
static inline long series_of(const steady_plan_options_t *opts)
{
    return opts && opts->series > 0 ? opts->series : STEADY_DEFAULT_SERIES;
}

/* Tells the caller how far the plan is (opts->progress). */
static inline void progress(const steady_plan_options_t *opts, const char *stage, double done,
                            double total)
{
    if (opts && opts->progress)
        opts->progress(opts->progress_ctx, stage, done, total);
}

/* What order_slots() works on: the period's comms and matchings, with
 * doubles for the search, and scratch space for one evaluation. */
typedef struct {
    int nslots, ncomms, nflat;
    const steady_schedule_t *sc;
    const int *base, (*prod)[2];
    const int *tree_of;        /* flat step -> tree */
    const int *comm_of;        /* flat step -> comm, -1 for a task */
    const int *sfirst, *scomm; /* slot x's comms: scomm[sfirst[x] .. sfirst[x + 1]) */
    const double *stime;       /* scomm[y]'s time in its matching, which sets its part */
    const double *dur;         /* slot: its length (stretched for shared resources) */
    const double *cost, *lat;  /* comm: its hop's time and latency */
    const int *pfirst;         /* comm c's pieces: pfirst[c] .. pfirst[c + 1] */
    const double *work;        /* task step: its tasks' time per period; send: 0 */
    const int *node;           /* task step: its processor */
    double period;
    int nnodes;
    /* the exact decision of set_lags(), or NULL while searching */
    const steady_platform_t *p;
    const int *xfirst, (*xpiece)[2];
    const double (*xpos)[2];  /* piece: its positions [from, to) as doubles */
    const double (*xslot)[2]; /* slot: its start and end as doubles */
    /* scratch */
    double *start, *pos, *ps, *pe, *pf, *pt; /* slot start; comm position; piece times, parts */
    int *pn, *lag, *tlag;
    int *pr, *dpos;     /* piece: its slot's position; the latest position of a part it waits for */
    bool *fwd;          /* step: something forwards its output in the same period */
    double *done, *cpu; /* step: when its output is complete (in its period); node: CPU free */
} search_t;

/* plan_period.c */
void plan_set_rates(steady_schedule_t *sc, int ntrees);
void plan_candidates_free(candidates_t *c);
/* period: STEADY_PERIOD_AUTO, a length > 0, or -K for K whole times the
 * exact period (STEADY_PERIOD_EXACT: K = 1). */
steady_err_t plan_choose_period(steady_schedule_t *sc, const steady_solution_t *s,
                                const steady_trees_t *tr, double period, long series, int depth,
                                long *weight, candidates_t *cands, steady_error_t *err);
/* Destroys w's solutions (each once). */
void plan_whole_free(whole_cands_t *w);
steady_err_t plan_whole_search(const steady_solution_t *s, const steady_plan_options_t *opts,
                               long series, int depth, double best_score, whole_cands_t *w,
                               steady_error_t *err);

/* plan_trees.c */
void plan_step_io(const steady_schedule_t *sc, const steady_platform_t *p, const int *interval,
                  int N, const steady_sched_step_t *st, int ins[2][2], int *nin, int *out_node,
                  int *out_type);
steady_err_t plan_copy_trees(steady_schedule_t *sc, const steady_solution_t *s,
                             const steady_trees_t *tr, const long *weight, const int *interval,
                             steady_error_t *err);
steady_err_t plan_assemble(steady_schedule_t *sc, const steady_solution_t *s,
                           const steady_trees_t *tr, const long *weight, const int *interval,
                           steady_matching_rule_t rule, steady_error_t *err);

/* plan_slots.c */
steady_err_t plan_build_slots(steady_schedule_t *sc, const steady_platform_t *p,
                              const int *interval, steady_matching_rule_t rule,
                              steady_error_t *err);

/* plan_order.c */
steady_err_t plan_step_producers(const steady_schedule_t *sc, const steady_platform_t *p,
                                 const int *interval, const int *base, int (*prod)[2],
                                 steady_error_t *err);
steady_err_t plan_order_slots(search_t *s, const int *depth, int *order, steady_error_t *err);
steady_err_t plan_set_lags(steady_schedule_t *sc, const steady_platform_t *p, search_t *s,
                           const int *order, steady_error_t *err);

/* plan_phases.c; *rate and *msgs: the series' replayed rate and MPI
 * messages per operation, in (rate 0: unknown) and out (unchanged when the
 * budget allows no phase) */
steady_err_t plan_shift_trees(steady_schedule_t *sc, const steady_platform_t *p, long series,
                              double *rate, double *msgs, steady_error_t *err);

/* plan.c */
steady_err_t plan_series_rate(const steady_schedule_t *x, const steady_platform_t *p, long series,
                              double *rate, double *msgs, steady_error_t *err);

#endif
