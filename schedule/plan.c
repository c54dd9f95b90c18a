/*
 * plan.c — from an exact LP solution to a periodic schedule: the driver
 * (candidates built and replayed, whole counts, segments); the steps live in
 * plan_period.c, plan_trees.c, plan_slots.c, plan_order.c, plan_phases.c
 * (docs/schedule-format.md; paper §3.3-3.4, §4.3-4.6).
 *
 *  1. The solution is decomposed into weighted trees (reduction trees,
 *     arborescences, routes): rates w_i, operations per time unit.
 *  2. The period.  Exact: the smallest T in which every tree runs a whole
 *     number of operations, T = lcm(den w_i) / gcd(w_i * lcm(den w_i)).
 *     Fixed (§4.6): the user's T, each tree running floor(w_i T) operations;
 *     the loss TP - K/T is at most #trees / T.  Automatic (the default): a
 *     few short periods, built and replayed, the fastest kept (see
 *     plan_choose_period()), beside other solutions in their exact periods
 *     (whole counts; a broadcast's or a reduce's single chain and two
 *     shallow trees, at the optimum or below it).
 *  3. Lags.  A step works on the batch of period p - lag.  A task runs
 *     after its period's slots, in list order, so its lag is at least its
 *     producers'; a send after a task needs a later period; a send after a
 *     send has the same lag when its slots start once the parts it forwards
 *     have arrived (same-period forwarding, see plan_order_slots() and
 *     docs/schedule-format.md), a larger one otherwise.  This is the
 *     paper's initialisation / steady state / clean-up (§3.4): the first
 *     max_lag periods fill the pipeline, the last ones drain it.
 *  4. The period's communications (every tree's sends, weight x c(e) each)
 *     form a bipartite graph senders x receivers, decomposed into matchings
 *     (§3.3): the slots, in the order that forwards the most hops within a
 *     period (plan_order_slots()).  Each slot moves a part [from, to) of each of its
 *     messages: a message may be split across slots (the paper's Figure
 *     4(a)).  Multiplying the period to avoid splits (its Figure 4(b)) would
 *     multiply the operations per period, and with them the time the
 *     pipeline takes to fill and drain: splitting is cheaper.
 */
#define _POSIX_C_SOURCE 200809L
#include "plan.h"
#include "replay.h"
#include "steady/compare.h"

#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void steady_schedule_destroy(steady_schedule_t *sc)
{
    if (!sc)
        return;
    free(sc->platform_name);
    free(sc->sources);
    free(sc->targets);
    mpq_clears(sc->optimum, sc->throughput, sc->period, sc->loss, sc->loss_bound, NULL);
    for (int t = 0; t < sc->ntypes; t++)
        free(sc->types[t]);
    free(sc->types);
    for (int i = 0; i < sc->ntrees; i++)
        free(sc->trees[i].steps);
    free(sc->trees);
    for (int k = 0; k < sc->nslots; k++) {
        steady_sched_slot_t *sl = &sc->slots[k];
        for (int x = 0; x < sl->ntransfers; x++)
            mpq_clears(sl->transfers[x].from, sl->transfers[x].to, NULL);
        free(sl->transfers);
        mpq_clears(sl->start, sl->duration, NULL);
    }
    free(sc->slots);
    free(sc->compute);
    free(sc->buffers);
    for (int h = 0; h < sc->nhops; h++)
        free(sc->hops[h].edges);
    free(sc->hops);
    free(sc);
}

/* A new schedule with its rationals initialised (0). */
static steady_schedule_t *schedule_new(void)
{
    steady_schedule_t *sc = calloc(1, sizeof *sc);
    if (sc)
        mpq_inits(sc->optimum, sc->throughput, sc->period, sc->loss, sc->loss_bound, NULL);
    return sc;
}

/* The header: platform, problem, types. */
static steady_err_t fill_header(steady_schedule_t *sc, const steady_solution_t *s,
                                const steady_plan_options_t *opts, steady_error_t *err)
{
    const steady_platform_t *p = steady_solution_platform(s);
    steady_err_t rc = steady_platform_hash(p, &sc->platform_hash, err);
    if (rc)
        return rc;
    sc->platform_name = strdup(steady_platform_name(p));
    sc->platform_nodes = steady_platform_node_count(p);
    sc->platform_edges = steady_platform_edge_count(p);
    sc->op = steady_solution_op(s);
    const int *src = steady_solution_sources(s, &sc->nsources);
    const int *dst = steady_solution_targets(s, &sc->ntargets);
    sc->sources = malloc((size_t)sc->nsources * sizeof *sc->sources);
    sc->targets = malloc((size_t)sc->ntargets * sizeof *sc->targets);
    sc->ntypes = steady_solution_type_count(s);
    sc->types = calloc((size_t)sc->ntypes, sizeof *sc->types);
    if (!sc->platform_name || !sc->sources || !sc->targets || !sc->types)
        return oom(err);
    memcpy(sc->sources, src, (size_t)sc->nsources * sizeof *src);
    memcpy(sc->targets, dst, (size_t)sc->ntargets * sizeof *dst);
    for (int t = 0; t < sc->ntypes; t++) {
        char name[2 * STEADY_NAME_MAX + 2];
        steady_solution_type_name(s, t, name, sizeof name);
        if (!(sc->types[t] = strdup(name)))
            return oom(err);
    }
    sc->msg_size = steady_solution_msg_size(s);
    sc->task_cost = steady_solution_task_cost(s);
    sc->segments = 1;
    sc->abstract = steady_platform_is_abstract(p);
    sc->cost_model = opts ? opts->cost_model : STEADY_COST_RENDEZVOUS;
    steady_solution_throughput(s, sc->optimum);
    return STEADY_OK;
}

/* The replay decides among the automatic period's candidates: the estimate
 * that ranked them only guesses how long the pipeline takes to fill.  A
 * series that would take more than REPLAY_EVENTS events is extrapolated
 * from shorter runs (steady_schedule_series_makespan): ring-80's scatter
 * has 46 932 transfers per period (REPLAY_EVENTS, plan.h). */

/* The makespan of x's series, as replayed, and (msgs not NULL) its MPI
 * messages per operation. */
static steady_err_t series_replay(const steady_schedule_t *x, const steady_platform_t *p,
                                  long series, double *makespan, double *msgs, steady_error_t *err)
{
    long count = 0;
    *makespan = 0;
    steady_err_t rc = replay_series(x, p, series, REPLAY_EVENTS, makespan, NULL, &count, err);
    if (msgs)
        *msgs = x->ops_per_period > 0
                    ? (double)count * (double)x->segments / (double)x->ops_per_period
                    : 0;
    return rc;
}

/* Operations per time unit of x over the series, as replayed, and (msgs
 * not NULL) its MPI messages per operation. */
steady_err_t plan_series_rate(const steady_schedule_t *x, const steady_platform_t *p, long series,
                              double *rate, double *msgs, steady_error_t *err)
{
    double makespan = 0;
    steady_err_t rc = series_replay(x, p, series, &makespan, msgs, err);
    *rate = makespan > 0 ? (double)series / makespan : 0;
    return rc;
}

/* The candidates built and replayed: each one's series rate and MPI
 * messages per operation. */
typedef struct {
    int n;
    steady_schedule_t *x[3 * NCAND];
    double rate[3 * NCAND], msgs[3 * NCAND];
} built_t;

/* Whether pick_fewest_messages() takes candidate j before candidate i when
 * both are within the slack: fewer messages, then faster, then earlier. */
static bool preferred(const built_t *b, int j, int i)
{
    return b->msgs[j] < b->msgs[i] ||
           (b->msgs[j] == b->msgs[i] &&
            (b->rate[j] > b->rate[i] || (b->rate[j] == b->rate[i] && j < i)));
}

/* Destroys the candidates pick_fewest_messages() can no longer take: below
 * the slack of the fastest, or behind a candidate at least as fast that it
 * takes first (which stays within the slack as long as they do).  The
 * plan holds fewer schedules at once: a 1,000-node period has 10^5..10^6
 * transfers, two rationals each. */
static void prune(built_t *b)
{
    double fastest = 0;
    bool out[3 * NCAND];
    for (int i = 0; i < b->n; i++)
        fastest = b->rate[i] > fastest ? b->rate[i] : fastest;
    for (int i = 0; i < b->n; i++) {
        /* nothing replayed at a positive rate: the first is taken */
        out[i] =
            fastest > 0 ? b->rate[i] <= 0 || b->rate[i] < fastest * (1 - MESSAGE_SLACK) : i > 0;
        for (int j = 0; j < b->n && !out[i]; j++)
            out[i] = j != i && b->rate[j] >= b->rate[i] && preferred(b, j, i);
    }
    int n = 0;
    for (int i = 0; i < b->n; i++) {
        if (out[i]) {
            steady_schedule_destroy(b->x[i]);
            continue;
        }
        b->x[n] = b->x[i];
        b->rate[n] = b->rate[i];
        b->msgs[n++] = b->msgs[i];
    }
    b->n = n;
}

/* Adds x, replayed at `rate` with `msgs` MPI messages per operation, to b
 * (x belongs to b from then on) while it may be taken. */
static void keep(built_t *b, steady_schedule_t *x, double rate, double msgs)
{
    b->x[b->n] = x;
    b->rate[b->n] = rate;
    b->msgs[b->n++] = msgs;
    prune(b);
}

/* The message objective (docs/schedule-format.md): among the candidates
 * whose replayed rate is within MESSAGE_SLACK of the fastest, the one with
 * the fewest MPI messages per operation (the faster one on a tie); the
 * others are destroyed. */
static steady_schedule_t *pick_fewest_messages(built_t *b, double *rate, double *msgs)
{
    double fastest = 0;
    for (int i = 0; i < b->n; i++)
        fastest = b->rate[i] > fastest ? b->rate[i] : fastest;
    int pick = -1;
    for (int i = 0; i < b->n; i++)
        if (b->rate[i] > 0 && b->rate[i] >= fastest * (1 - MESSAGE_SLACK) &&
            (pick < 0 || preferred(b, i, pick)))
            pick = i;
    if (pick < 0) /* nothing replayed at a positive rate: the first */
        pick = 0;
    steady_schedule_t *x = b->n ? b->x[pick] : NULL;
    *rate = b->n ? b->rate[pick] : -1;
    *msgs = b->n ? b->msgs[pick] : 0;
    for (int i = 0; i < b->n; i++)
        if (i != pick)
            steady_schedule_destroy(b->x[i]);
    b->n = 0;
    return x;
}

static steady_err_t build(const steady_solution_t *s, const steady_trees_t *given,
                          const steady_plan_options_t *opts, steady_schedule_t **out, double *rate,
                          double *msgs, steady_error_t *err);

/* Whether a message on some hop of x costs more than its bytes: a
 * latency, or an overhead. */
static bool pays_per_message(const steady_solution_t *x)
{
    const steady_platform_t *p = steady_solution_platform(x);
    const steady_hop_graph_t *g = steady_solution_hops(x);
    for (int h = 0; h < steady_hop_graph_count(g); h++) {
        const int *types;
        const mpq_t *rates;
        if (steady_solution_hop_rates(x, h, &types, &rates) == 0)
            continue;
        const steady_hop_t *hop = steady_hop_graph_hop(g, h);
        if (steady_hop_latency(p, hop) > 0)
            return true;
        for (int k = 0; k < hop->nedges; k++)
            if (steady_platform_edge(p, hop->edges[k])->overhead > 0)
                return true;
    }
    return false;
}

static steady_err_t whole_schedule(const steady_solution_t *s, int ntrees,
                                   const steady_solution_t *x, long repeat,
                                   const steady_plan_options_t *opts, steady_schedule_t **out,
                                   steady_error_t *err)
{
    steady_plan_options_t exact = {.period = -(double)repeat, /* repeat exact periods */
                                   .cost_model = opts ? opts->cost_model : STEADY_COST_RENDEZVOUS};
    steady_err_t rc = build(x, NULL, &exact, out, NULL, NULL, err);
    if (rc == STEADY_EINVAL)
        return STEADY_OK;
    if (rc)
        return rc;
    steady_schedule_t *sc = *out;
    steady_solution_throughput(s, sc->optimum);
    sc->fixed_period = true;
    plan_set_rates(sc, ntrees > sc->ntrees ? ntrees : sc->ntrees);
    if (mpq_cmp(sc->loss, sc->loss_bound) > 0) {
        steady_schedule_destroy(sc);
        *out = NULL;
    }
    return STEADY_OK;
}

/* x's throughput over s's. */
static double share_of(const steady_solution_t *s, const steady_solution_t *x)
{
    return steady_solution_throughput_d(x) / steady_solution_throughput_d(s);
}

/* Offers x, a few trees of s's problem, as whole candidates (w takes it)
 * when `worth`, else destroys it: in 1, 2, 4 and 8 times its exact period
 * where a message costs more than its bytes (else in one: merging buys
 * nothing). */
static void offer_tree(whole_cands_t *w, const steady_solution_t *s, steady_solution_t *x,
                       bool worth)
{
    int repeats = !worth ? 0 : pays_per_message(x) ? CHAIN_REPEATS : 1;
    for (int r = 0; r < repeats; r++) {
        w->sol[w->n] = x;
        w->repeat[w->n] = 1L << r;
        w->score[w->n++] = share_of(s, x);
    }
    if (repeats == 0)
        steady_solution_destroy(x);
}

/* Two shallow trees, each carrying half, into *out (NULL when they are
 * not a solution: a scatter or a gossip, a pair of ranks no hop joins, a
 * reduce's target in the middle of its order), and their height in hops:
 * a broadcast's in TwoTreeC's shape (compare/collective.c) over the ranks
 * in platform order, rooted at the source (steady_lp_broadcast_trees); a
 * reduce's in-order pair (steady_lp_reduce_trees). */
static steady_err_t two_trees(const steady_solution_t *s, steady_solution_t **out, int *height,
                              steady_error_t *err)
{
    *out = NULL;
    *height = 0;
    if (steady_solution_op(s) == STEADY_OP_REDUCE)
        return steady_lp_reduce_trees(s, out, height, err);
    if (steady_solution_op(s) != STEADY_OP_BROADCAST)
        return STEADY_OK;
    const steady_platform_t *p = steady_solution_platform(s);
    int nv = steady_platform_node_count(p), n = 0, root = -1, ns;
    int source = steady_solution_sources(s, &ns)[0];
    int *rank = malloc((size_t)nv * sizeof *rank);
    int *parent = malloc(2 * (size_t)nv * sizeof *parent);
    steady_collective_t *c = NULL;
    steady_err_t rc = rank && parent ? STEADY_OK : oom(err);
    for (int v = 0; !rc && v < nv; v++)
        if (steady_platform_node(p, v)->kind != STEADY_SWITCH) {
            root = v == source ? n : root;
            rank[n++] = v;
        }
    if (!rc && n >= 3 && root >= 0)
        rc = steady_collective_create(STEADY_ALGO_TWOTREEC, STEADY_COLL_BROADCAST, n, root, 1, &c,
                                      err);
    for (int t = 0; !rc && c && t < 2; t++)
        for (int r = 0; r < n; r++) {
            int h = 0, up = steady_collective_parent(c, t, r);
            for (int a = up; a >= 0; a = steady_collective_parent(c, t, a))
                h++;
            *height = h > *height ? h : *height;
            parent[t * nv + rank[r]] = up < 0 ? -1 : rank[up];
        }
    if (!rc && c) {
        const int *trees[2] = {parent, parent + nv};
        rc = steady_lp_broadcast_trees(s, 2, trees, out, err);
    }
    steady_collective_destroy(c);
    free(rank);
    free(parent);
    return rc;
}

/* A candidate's schedules, built and replayed by whichever thread took it:
 * a period candidate's with its matchings kept from round to round, then,
 * on a small period, taken afresh each round (another slot structure,
 * kept only when it sends fewer messages); a whole candidate's. */
typedef struct {
    int n;
    steady_schedule_t *x[2];
    double rate[2], msgs[2];
    steady_err_t rc;
    steady_error_t err;
    bool done;
} job_t;

/* The candidates shared by the threads; `lock` guards what follows it. */
typedef struct {
    const steady_solution_t *s;
    const steady_plan_options_t *opts;
    const steady_trees_t *tr;
    const int *interval;
    const candidates_t *cands;
    const whole_cands_t *whole;
    long series;
    int njobs;
    job_t *job;
    pthread_mutex_t lock;
    pthread_cond_t change; /* a job is done, or a thread has stopped */
    int working;           /* the threads still taking jobs */
    int next;              /* the next job to start */
    int finished;          /* jobs done */
    int taken;             /* jobs 0 .. taken - 1 are in b, in their order */
    bool failed;           /* a job failed: no more start */
    built_t b;
} pool_t;

/* Whether period candidates a and b run the same operations of every
 * tree. */
static bool same_operations(const candidates_t *c, int ntrees, int a, int b)
{
    return c->ops[a] == c->ops[b] &&
           memcmp(c->weight[a], c->weight[b], (size_t)ntrees * sizeof *c->weight[a]) == 0;
}

/* ... in the same period (the two ways of filling a period can agree). */
static bool same_candidate(const candidates_t *c, int ntrees, int a, int b)
{
    return same_operations(c, ntrees, a, b) && mpq_equal(c->period[a], c->period[b]);
}

/* Period candidate c's schedule under `rule` (*out NULL on error). */
static steady_err_t candidate_schedule(const pool_t *pl, int c, steady_matching_rule_t rule,
                                       steady_schedule_t **out, steady_error_t *err)
{
    steady_schedule_t *x = *out = schedule_new();
    steady_err_t rc = x ? fill_header(x, pl->s, pl->opts, err) : oom(err);
    if (!rc) {
        mpq_set(x->period, pl->cands->period[c]);
        x->ops_per_period = pl->cands->ops[c];
        x->fixed_period = true;
        plan_set_rates(x, pl->tr->ntrees);
        rc = plan_assemble(x, pl->s, pl->tr, pl->cands->weight[c], pl->interval, rule, err);
    }
    if (rc) {
        steady_schedule_destroy(x);
        *out = NULL;
    }
    return rc;
}

/* *same: x, candidate c's schedule with its matchings kept, is an earlier
 * candidate's: one that runs the same operations of every tree in another
 * period, which the slots outgrow as they outgrow c's (built again here
 * and compared whole).  A 300-host broadcast over three clusters had 4
 * such candidates of 8, each replayed for 9 s. */
static steady_err_t built_before(const pool_t *pl, int c, const steady_schedule_t *x, bool *same,
                                 steady_error_t *err)
{
    steady_err_t rc = STEADY_OK;
    *same = false;
    for (int e = 0; e < c && !*same && !rc; e++) {
        if (!same_operations(pl->cands, pl->tr->ntrees, e, c))
            continue;
        steady_schedule_t *y = NULL;
        if (!(rc = candidate_schedule(pl, e, STEADY_MATCHING_KEEP, &y, err)))
            *same = steady_schedule_equal(x, y);
        steady_schedule_destroy(y);
    }
    return rc;
}

/* Builds and replays period candidate c (see job_t); nothing when an
 * earlier candidate is the same, or builds the same schedule (on a period
 * too large for a fresh slot structure: built_before). */
static steady_err_t period_job(const pool_t *pl, int c, job_t *j, steady_error_t *err)
{
    const steady_platform_t *p = steady_solution_platform(pl->s);
    steady_err_t rc = STEADY_OK;
    double keep_msgs = -1;
    for (int e = 0; e < c; e++)
        if (same_candidate(pl->cands, pl->tr->ntrees, e, c))
            return STEADY_OK;
    for (int rule = STEADY_MATCHING_KEEP; rule <= STEADY_MATCHING_FRESH && !rc; rule++) {
        steady_schedule_t *x = NULL;
        rc = candidate_schedule(pl, c, (steady_matching_rule_t)rule, &x, err);
        long ncomms = 0, count = 0;
        bool same = false;
        for (int i = 0; !rc && i < x->ntrees; i++)
            for (int k = 0; k < x->trees[i].nsteps; k++)
                ncomms += x->trees[i].steps[k].kind == STEADY_STEP_SEND;
        if (!rc && rule == STEADY_MATCHING_FRESH)
            rc = steady_schedule_message_count(x, p, &count, NULL, err);
        else if (!rc && ncomms > FRESH_MAX_COMMS)
            rc = built_before(pl, c, x, &same, err);
        if (!rc && !same &&
            (rule == STEADY_MATCHING_KEEP ||
             (double)count * (double)x->segments / (double)x->ops_per_period < keep_msgs)) {
            j->x[j->n] = x;
            rc = plan_series_rate(x, p, pl->series, &j->rate[j->n], &j->msgs[j->n], err);
            keep_msgs = j->msgs[j->n++];
        } else {
            steady_schedule_destroy(x);
        }
        if (ncomms > FRESH_MAX_COMMS)
            break;
    }
    return rc;
}

/* Builds and replays whole candidate c. */
static steady_err_t whole_job(const pool_t *pl, int c, job_t *j, steady_error_t *err)
{
    steady_schedule_t *x = NULL;
    steady_err_t rc = whole_schedule(pl->s, pl->tr->ntrees, pl->whole->sol[c],
                                     pl->whole->repeat[c], pl->opts, &x, err);
    if (rc || !x)
        return rc;
    int k = j->n++;
    j->x[k] = x;
    return plan_series_rate(x, steady_solution_platform(pl->s), pl->series, &j->rate[k],
                            &j->msgs[k], err);
}

/* Adds the jobs done in order to pl->b (pl->lock held); a failed one
 * stops it. */
static void take_done(pool_t *pl)
{
    for (; !pl->failed && pl->taken < pl->njobs && pl->job[pl->taken].done; pl->taken++) {
        job_t *j = &pl->job[pl->taken];
        if (j->rc) {
            pl->failed = true;
            break;
        }
        for (int k = 0; k < j->n; k++)
            keep(&pl->b, j->x[k], j->rate[k], j->msgs[k]);
        j->n = 0;
    }
}

static void report_built(const pool_t *pl, int finished)
{
    progress(pl->opts, "period candidates, built and replayed", finished, pl->njobs);
}

/* A thread's work: jobs until none is left (or one failed), each one's
 * schedules added to pl->b as soon as the jobs before it are, so that the
 * choice and the schedules held at once do not depend on the threads.
 * Progress is the caller's (report: the calling thread works alone). */
static void work_on(pool_t *pl, bool report)
{
    for (;;) {
        pthread_mutex_lock(&pl->lock);
        int c = pl->failed ? pl->njobs : pl->next++, finished = pl->finished;
        pthread_mutex_unlock(&pl->lock);
        if (c >= pl->njobs)
            break;
        if (report)
            report_built(pl, finished);
        job_t *j = &pl->job[c];
        j->rc = c < pl->cands->n ? period_job(pl, c, j, &j->err)
                                 : whole_job(pl, c - pl->cands->n, j, &j->err);
        pthread_mutex_lock(&pl->lock);
        j->done = true;
        pl->finished++;
        take_done(pl);
        pthread_cond_signal(&pl->change);
        pthread_mutex_unlock(&pl->lock);
    }
    pthread_mutex_lock(&pl->lock);
    pl->working--;
    pthread_cond_signal(&pl->change);
    pthread_mutex_unlock(&pl->lock);
}

static void *worker(void *arg)
{
    work_on(arg, false);
    return NULL;
}

/* The calling thread while the others work: progress as jobs are done,
 * every count in turn (0, 1, ... as one thread would report). */
static void watch(pool_t *pl)
{
    int next = 0; /* the next count to report */
    pthread_mutex_lock(&pl->lock);
    for (;;) {
        if (next <= pl->finished && next < pl->njobs) {
            pthread_mutex_unlock(&pl->lock);
            report_built(pl, next++);
            pthread_mutex_lock(&pl->lock);
        } else if (pl->working > 0) {
            pthread_cond_wait(&pl->change, &pl->lock);
        } else {
            break;
        }
    }
    pthread_mutex_unlock(&pl->lock);
}

/* The threads for n jobs: opts->threads, or one per online processor, at
 * most one per job. */
static int thread_count(const steady_plan_options_t *opts, int n)
{
    long t = opts && opts->threads > 0 ? opts->threads : sysconf(_SC_NPROCESSORS_ONLN);
    if (t > n)
        t = n;
    return t < 1 ? 1 : (int)t;
}

/* Builds and replays every candidate of both kinds, side by side in
 * threads (opts->threads), and keeps the one pick_fewest_messages()
 * chooses.  An error is the first failed candidate's. */
static steady_err_t pick_by_replay(const steady_solution_t *s, const steady_plan_options_t *opts,
                                   const steady_trees_t *tr, const int *interval,
                                   const candidates_t *cands, const whole_cands_t *whole,
                                   long series, steady_schedule_t **best, double *best_rate,
                                   double *best_msgs, steady_error_t *err)
{
    *best_rate = -1;
    *best = NULL;
    pool_t pl = {.s = s,
                 .opts = opts,
                 .tr = tr,
                 .interval = interval,
                 .cands = cands,
                 .whole = whole,
                 .series = series,
                 .njobs = cands->n + whole->n};
    int nt = thread_count(opts, pl.njobs), started = 0;
    pl.job = calloc((size_t)pl.njobs + 1, sizeof *pl.job);
    pthread_t *tid = malloc((size_t)nt * sizeof *tid);
    bool locks = pthread_mutex_init(&pl.lock, NULL) == 0;
    if (locks && pthread_cond_init(&pl.change, NULL)) {
        pthread_mutex_destroy(&pl.lock);
        locks = false;
    }
    if (!pl.job || !tid || !locks) {
        if (locks) {
            pthread_mutex_destroy(&pl.lock);
            pthread_cond_destroy(&pl.change);
        }
        free(pl.job);
        free(tid);
        return oom(err);
    }
    /* one thread: the caller; more: they work, it reports (fewer if the
     * system has no more to give) */
    pl.working = nt > 1 ? nt : 1;
    while (nt > 1 && started < nt && pthread_create(&tid[started], NULL, worker, &pl) == 0)
        started++;
    if (started > 0) {
        pthread_mutex_lock(&pl.lock);
        pl.working -= nt - started;
        pthread_mutex_unlock(&pl.lock);
        watch(&pl);
    } else {
        pl.working = 1;
        work_on(&pl, true);
    }
    for (int k = 0; k < started; k++)
        pthread_join(tid[k], NULL);
    steady_err_t rc = STEADY_OK;
    for (int c = 0; c < pl.njobs; c++) {
        job_t *j = &pl.job[c];
        if (!rc && j->done && j->rc) {
            rc = j->rc;
            if (err)
                *err = j->err;
        }
        for (int k = 0; k < j->n; k++) /* not taken: behind a failed job */
            steady_schedule_destroy(j->x[k]);
    }
    *best = pick_fewest_messages(&pl.b, best_rate, best_msgs);
    if (rc) {
        steady_schedule_destroy(*best);
        *best = NULL;
    }
    pthread_mutex_destroy(&pl.lock);
    pthread_cond_destroy(&pl.change);
    free(pl.job);
    free(tid);
    return rc;
}

/* steady_schedule_build without the tree phases, from s's trees `given`
 * (NULL: s decomposed here); *rate and *msgs (if not NULL) get the rate
 * the series was replayed at and the MPI messages per message when
 * candidates were compared, else 0. */
static steady_err_t build(const steady_solution_t *s, const steady_trees_t *given,
                          const steady_plan_options_t *opts, steady_schedule_t **out, double *rate,
                          double *msgs, steady_error_t *err)
{
    *out = NULL;
    if (!steady_solution_is_exact(s))
        return steady_error_set(err, STEADY_EINVAL,
                                "the solution is approximate (%s): a schedule needs the exact "
                                "optimum",
                                steady_solution_note(s));
    double period = opts ? opts->period : 0;
    if (isnan(period) || period > 1e15)
        return steady_error_set(err, STEADY_EINVAL, "invalid period (%g)", period);
    long series = series_of(opts);
    steady_trees_t *own = NULL;
    const steady_trees_t *tr = given;
    long *weight = NULL;
    candidates_t cands = {0};
    whole_cands_t whole = {0};
    int N = 0; /* reduce: the number of participants */
    steady_solution_sources(s, &N);
    int *interval = malloc((size_t)(N * N > 0 ? N * N : 1) * sizeof *interval);
    steady_schedule_t *sc = schedule_new();
    steady_err_t rc = sc && interval ? STEADY_OK : oom(err);
    for (int t = 0;
         !rc && steady_solution_op(s) == STEADY_OP_REDUCE && t < steady_solution_type_count(s);
         t++) {
        int k, m;
        steady_solution_type_ends(s, t, &k, &m);
        interval[k * N + m] = t;
    }
    if (!rc)
        rc = fill_header(sc, s, opts, err);
    if (!rc && !tr) {
        progress(opts, "trees", -1, 0);
        if (!(rc = steady_trees_decompose(s, &own, err)))
            tr = own;
    }
    if (!rc && !(weight = calloc((size_t)(tr->ntrees ? tr->ntrees : 1), sizeof *weight)))
        rc = oom(err);
    /* the deepest tree's lag, for the automatic period: every tree once */
    int depth = 0;
    for (int i = 0; !rc && i < tr->ntrees; i++)
        weight[i] = 1;
    if (!rc && (rc = plan_copy_trees(sc, s, tr, weight, interval, err)) == STEADY_OK) {
        depth = sc->max_lag;
        for (int i = 0; i < sc->ntrees; i++)
            free(sc->trees[i].steps);
        free(sc->trees);
        sc->trees = NULL;
        sc->ntrees = sc->max_lag = 0;
    }
    if (!rc)
        rc = plan_choose_period(sc, s, tr, period, series, depth, weight, &cands, err);
    if (!rc && period == STEADY_PERIOD_AUTO && cands.score[0] < 1)
        rc = plan_whole_search(s, opts, series, depth, cands.score[0], &whole, err);
    /* a vertex of several trees: one chain, at the throughput it carries
     * if that is no less than the best period's estimate (its replay can
     * only be lower) */
    steady_solution_t *one = NULL;
    if (!rc && period == STEADY_PERIOD_AUTO && tr->ntrees > 1 &&
        (rc = steady_lp_single_tree(s, &one, err)) == 0 && one)
        offer_tree(&whole, s, one, cands.n == 0 || share_of(s, one) >= cands.score[0]);
    /* a broadcast or a reduce: two shallow trees, which may carry the
     * optimum too and fill their pipeline sooner than a deep vertex;
     * offered when their share, discounted by their fill, beats the
     * vertex's whole throughput discounted by its own (as the period
     * candidates' estimates are, in operations: half the lag of the deepest
     * tree, in periods of the best candidate's operations; the two trees' a
     * period of two operations per hop) */
    steady_solution_t *pair = NULL;
    int height = 0;
    if (!rc && period == STEADY_PERIOD_AUTO && (rc = two_trees(s, &pair, &height, err)) == 0 &&
        pair) {
        double b = (double)series, ops = cands.n > 0 ? (double)cands.ops[0] : 1;
        offer_tree(&whole, s, pair,
                   share_of(s, pair) * b / (b + height + 1.0) > b / (b + (depth + 1) / 2.0 * ops));
    }
    double best_rate = 0, best_msgs = 0;
    if (!rc && cands.n + whole.n > 0) {
        steady_schedule_t *best;
        if (!(rc = pick_by_replay(s, opts, tr, interval, &cands, &whole, series, &best, &best_rate,
                                  &best_msgs, err))) {
            steady_schedule_destroy(sc);
            sc = best;
        }
    } else if (!rc) {
        rc = plan_assemble(sc, s, tr, weight, interval, STEADY_MATCHING_KEEP, err);
    }
    plan_candidates_free(&cands);
    plan_whole_free(&whole);
    free(interval);
    free(weight);
    steady_trees_destroy(own);
    if (rc) {
        steady_schedule_destroy(sc);
        return rc;
    }
    *out = sc;
    if (rate)
        *rate = best_rate > 0 ? best_rate : 0;
    if (msgs)
        *msgs = best_rate > 0 ? best_msgs : 0;
    return STEADY_OK;
}

/* steady_schedule_build; *rate and *msgs as build()'s, for the schedule
 * after its tree phases. */
static steady_err_t build_phased(const steady_solution_t *s, const steady_trees_t *given,
                                 const steady_plan_options_t *opts, steady_schedule_t **out,
                                 double *rate, double *msgs, steady_error_t *err)
{
    steady_err_t rc = build(s, given, opts, out, rate, msgs, err);
    if (rc)
        return rc;
    progress(opts, "tree phases", -1, 0);
    rc = plan_shift_trees(*out, steady_solution_platform(s), series_of(opts), rate, msgs, err);
    if (rc) {
        steady_schedule_destroy(*out);
        *out = NULL;
    }
    return rc;
}

steady_err_t steady_schedule_build(const steady_solution_t *s, const steady_plan_options_t *opts,
                                   steady_schedule_t **out, steady_error_t *err)
{
    double rate = 0, msgs = 0;
    return build_phased(s, NULL, opts, out, &rate, &msgs, err);
}

/* Whether a message of `size` bytes cuts into m segments of whole 8-byte
 * words (the words the executor's payloads and reductions work on). */
static bool cuts_into(double size, long m)
{
    double seg = size / (double)m;
    return seg >= 8 && seg == floor(seg) && fmod(seg, 8) == 0;
}

/* The schedule of s's series in m segments, with the series' makespan and
 * MPI messages per operation as the choice of its period replayed them
 * (0: it replayed nothing).  With `base`, s's trees are decomposed once,
 * kept there for the next count, and scaled to the segments' solution
 * when it is s's rates scaled (no LP solved: the same trees). */
static steady_err_t plan_segments(const steady_solution_t *s, long m,
                                  const steady_solve_options_t *sopts,
                                  const steady_plan_options_t *opts, steady_trees_t **base,
                                  steady_schedule_t **out, double *makespan, double *msgs,
                                  steady_error_t *err)
{
    *makespan = *msgs = 0;
    steady_solution_t *seg = NULL;
    steady_trees_t *scaled = NULL;
    steady_plan_options_t o = opts ? *opts : (steady_plan_options_t){0};
    o.series = series_of(opts) * m;
    double rate = 0, per_msg = 0;
    steady_err_t rc = m == 1 ? STEADY_OK : steady_lp_solve_segment(s, m, sopts, &seg, err);
    if (!rc && base && (m == 1 || steady_solution_scale(seg) == m)) {
        if (!*base) {
            progress(opts, "trees", -1, 0);
            rc = steady_trees_decompose(s, base, err);
        }
        if (!rc && m > 1)
            rc = steady_trees_scale(seg, *base, m, &scaled, err);
    }
    if (!rc)
        rc = build_phased(m == 1 ? s : seg, m == 1 && base ? *base : scaled, &o, out, &rate,
                          &per_msg, err);
    if (!rc)
        (*out)->segments = m;
    steady_trees_destroy(scaled);
    steady_solution_destroy(seg);
    /* the rate is per message, and so were the messages counted */
    if (!rc && rate > 0) {
        *makespan = (double)o.series / rate;
        *msgs = per_msg * (double)m;
    }
    return rc;
}

/* Keeps with sc what the plan replayed of its series (makespan > 0), for
 * its summary (steady_schedule_t.replayed_*). */
static void note_replayed(steady_schedule_t *sc, long series, double makespan, double msgs)
{
    if (!sc || makespan <= 0)
        return;
    sc->replayed_series = series;
    sc->replayed_makespan = makespan;
    sc->replayed_messages = msgs;
}

steady_err_t steady_schedule_plan(const steady_solution_t *s, const steady_solve_options_t *sopts,
                                  const steady_plan_options_t *opts, steady_schedule_t **out,
                                  steady_error_t *err)
{
    *out = NULL;
    const steady_platform_t *p = steady_solution_platform(s);
    double size = steady_solution_msg_size(s);
    long want = opts ? opts->segments : 0;
    if (want < 0 || want > STEADY_SEGMENTS_LIMIT)
        return steady_error_set(err, STEADY_EINVAL, "segments: %ld is not from 1 to %d", want,
                                STEADY_SEGMENTS_LIMIT);
    if (want > 1 && !steady_platform_is_abstract(p) && !cuts_into(size, want))
        return steady_error_set(err, STEADY_EINVAL,
                                "segments: %ld segments of a %.0f-byte message are not whole "
                                "8-byte words",
                                want, size);
    long series = series_of(opts);
    double makespan = 0, msgs = 0;
    if (want > 0) {
        steady_err_t rc = plan_segments(s, want, sopts, opts, NULL, out, &makespan, &msgs, err);
        if (!rc)
            note_replayed(*out, series, makespan, msgs);
        return rc;
    }
    /* the most segments allowed, then half as many down to one, each
     * count's plan replayed; of those within MESSAGE_SLACK of the fastest,
     * the fewest MPI messages per operation (the message objective, as
     * among a count's candidates) */
    long most = 1;
    if ((!opts || opts->period == STEADY_PERIOD_AUTO) && !steady_platform_is_abstract(p))
        while (2 * most <= STEADY_MAX_SEGMENTS && size / (double)(2 * most) >= STEADY_MIN_SEGMENT &&
               cuts_into(size, 2 * most))
            most *= 2;
    built_t b = {0};
    steady_trees_t *base = NULL;
    steady_err_t rc = STEADY_OK;
    for (long m = most; !rc && m >= 1; m /= 2) {
        steady_schedule_t *sc = NULL;
        rc = plan_segments(s, m, sopts, opts, &base, &sc, &makespan, &msgs, err);
        if (!rc && most > 1 && makespan <= 0)
            rc = series_replay(sc, p, series, &makespan, &msgs, err);
        if (rc)
            steady_schedule_destroy(sc);
        else
            keep(&b, sc, makespan > 0 ? (double)series / makespan : 0, msgs);
    }
    steady_trees_destroy(base);
    if (rc) {
        for (int i = 0; i < b.n; i++)
            steady_schedule_destroy(b.x[i]);
        return rc;
    }
    double rate = 0;
    *out = pick_fewest_messages(&b, &rate, &msgs);
    note_replayed(*out, series, rate > 0 ? (double)series / rate : 0, msgs);
    return rc;
}
