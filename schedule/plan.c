/*
 * plan.c — from an exact LP solution to a periodic schedule
 * (docs/schedule-format.md; paper §3.3-3.4, §4.3-4.6).
 *
 *  1. The solution is decomposed into weighted trees (reduction trees,
 *     arborescences, routes): rates w_i, operations per time unit.
 *  2. The period.  Exact: the smallest T in which every tree runs a whole
 *     number of operations, T = lcm(den w_i) / gcd(w_i * lcm(den w_i)).
 *     Fixed (§4.6): the user's T, each tree running floor(w_i T) operations;
 *     the loss TP - K/T is at most #trees / T.  Automatic (the default): a
 *     few short periods, built and replayed, the fastest kept (see
 *     choose_period()).
 *  3. Lags.  A step works on the batch of period p - lag.  A task runs
 *     after its period's slots, in list order, so its lag is at least its
 *     producers'; a send after a task needs a later period; a send after a
 *     send has the same lag when its slots start once the parts it forwards
 *     have arrived (same-period forwarding, see order_slots() and
 *     docs/schedule-format.md), a larger one otherwise.  This is the
 *     paper's initialisation / steady state / clean-up (§3.4): the first
 *     max_lag periods fill the pipeline, the last ones drain it.
 *  4. The period's communications (every tree's sends, weight x c(e) each)
 *     form a bipartite graph senders x receivers, decomposed into matchings
 *     (§3.3): the slots, in the order that forwards the most hops within a
 *     period (order_slots()).  Each slot moves a part [from, to) of each of its
 *     messages: a message may be split across slots (the paper's Figure
 *     4(a)).  Multiplying the period to avoid splits (its Figure 4(b)) would
 *     multiply the operations per period, and with them the time the
 *     pipeline takes to fill and drain: splitting is cheaper.
 */
#define _POSIX_C_SOURCE 200809L
#include "steady/schedule.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

static steady_err_t oom(steady_error_t *err)
{
    return steady_error_set(err, STEADY_ENOMEM, "out of memory");
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

/* Scatter and gossip trees are routes of one message type each, and each
 * type carries every operation once: the types are the groups whose counts
 * must be equal.  Reduce and broadcast trees form one group. */
static bool per_type(const steady_schedule_t *sc)
{
    return sc->op == STEADY_OP_SCATTER || sc->op == STEADY_OP_GOSSIP;
}

static int group_count(const steady_schedule_t *sc)
{
    return per_type(sc) ? sc->ntypes : 1;
}

static int tree_group(const steady_schedule_t *sc, const steady_tree_t *t)
{
    return per_type(sc) ? t->steps[0].type : 0;
}

/* What one operation of a tree costs each resource: the send port of node
 * u (index u), the receive port of v (nv + v), the processor of v
 * (2 nv + v), shared resource r (3 nv + r, platform.h), in time per
 * period.  A message holds its sender's and its receiver's ports for its
 * hop's time (the slowest of its edges and channels: a transfer through a
 * slower link is that slow) and each shared resource for its own time. */
typedef struct {
    int n;
    int *port;
    mpq_t *amount;
} tree_load_t;

static int load_count(const steady_platform_t *p)
{
    return 3 * steady_platform_node_count(p) + steady_platform_resource_count(p);
}

static void loads_free(tree_load_t *loads, int ntrees)
{
    if (!loads)
        return;
    for (int i = 0; i < ntrees; i++) {
        for (int k = 0; k < loads[i].n; k++)
            mpq_clear(loads[i].amount[k]);
        free(loads[i].port);
        free(loads[i].amount);
    }
    free(loads);
}

static tree_load_t *tree_loads(const steady_solution_t *s, const steady_trees_t *tr)
{
    const steady_platform_t *p = steady_solution_platform(s);
    int nv = steady_platform_node_count(p), np = load_count(p);
    double size = steady_solution_msg_size(s);
    tree_load_t *loads = calloc((size_t)(tr->ntrees ? tr->ntrees : 1), sizeof *loads);
    mpq_t *dense = malloc((size_t)np * sizeof *dense);
    if (!loads || !dense) {
        free(loads);
        free(dense);
        return NULL;
    }
    mpq_t c;
    mpq_init(c);
    for (int x = 0; x < np; x++)
        mpq_init(dense[x]);
    bool ok = true;
    for (int i = 0; i < tr->ntrees && ok; i++) {
        for (int j = 0; j < tr->trees[i].nsteps; j++) {
            const steady_step_t *st = &tr->trees[i].steps[j];
            if (st->kind == STEADY_STEP_SEND) {
                const steady_hop_t *h = &tr->hops[st->hop];
                steady_exact_hop_time(p, h, size, c);
                mpq_add(dense[h->src], dense[h->src], c);
                mpq_add(dense[nv + h->dst], dense[nv + h->dst], c);
                for (int k = 0; k < h->nedges; k++) {
                    int nu;
                    const steady_use_t *u = steady_platform_edge_uses(p, h->edges[k], &nu);
                    for (int x = 0; x < nu; x++) {
                        steady_exact_use_time(p, h->edges[k], &u[x], size, c);
                        mpq_add(dense[3 * nv + u[x].resource], dense[3 * nv + u[x].resource], c);
                    }
                }
            } else {
                steady_exact_task_time(p, st->node, steady_solution_task_cost(s), c);
                mpq_add(dense[2 * nv + st->node], dense[2 * nv + st->node], c);
            }
        }
        int n = 0;
        for (int x = 0; x < np; x++)
            n += mpq_sgn(dense[x]) != 0;
        loads[i].port = malloc((size_t)(n ? n : 1) * sizeof(int));
        loads[i].amount = malloc((size_t)(n ? n : 1) * sizeof(mpq_t));
        ok = loads[i].port && loads[i].amount;
        for (int x = 0; x < np && ok; x++)
            if (mpq_sgn(dense[x]) != 0) {
                loads[i].port[loads[i].n] = x;
                mpq_init(loads[i].amount[loads[i].n]);
                mpq_swap(loads[i].amount[loads[i].n++], dense[x]);
                mpq_set_ui(dense[x], 0, 1);
            }
    }
    for (int x = 0; x < np; x++)
        mpq_clear(dense[x]);
    free(dense);
    mpq_clear(c);
    if (!ok) {
        loads_free(loads, tr->ntrees);
        return NULL;
    }
    return loads;
}

/* Operations per period of each tree in a period of length T: §4.6's
 * floor(w_i T), made equal across groups (each scatter/gossip type carries
 * every operation once), then one more operation at a time while every
 * port and processor still fits in the period: the floors leave up to one
 * operation per tree unused, and the ports that are not saturated can
 * often take it.  Returns the operations per period (-1: out of memory). */
static long fill_period(const steady_schedule_t *sc, const steady_trees_t *tr,
                        const tree_load_t *loads, int nports, const mpq_t T, long *weight)
{
    int ngroups = group_count(sc);
    long *group_ops = calloc((size_t)ngroups, sizeof *group_ops);
    int *pick = malloc((size_t)ngroups * sizeof *pick);
    mpq_t *used = malloc((size_t)nports * sizeof *used);
    if (!group_ops || !pick || !used) {
        free(group_ops);
        free(pick);
        free(used);
        return -1;
    }
    mpq_t q, best, room;
    mpz_t f;
    mpq_inits(q, best, room, NULL);
    mpz_init(f);
    for (int x = 0; x < nports; x++)
        mpq_init(used[x]);
    for (int i = 0; i < tr->ntrees; i++) {
        mpq_mul(q, tr->trees[i].weight, T);
        mpz_fdiv_q(f, mpq_numref(q), mpq_denref(q));
        weight[i] = mpz_get_si(f);
        group_ops[tree_group(sc, &tr->trees[i])] += weight[i];
    }
    long k = group_ops[0];
    for (int g = 1; g < ngroups; g++)
        if (group_ops[g] < k)
            k = group_ops[g];
    for (int i = tr->ntrees - 1; i >= 0; i--) {
        long *surplus = &group_ops[tree_group(sc, &tr->trees[i])];
        long cut = *surplus - k < weight[i] ? *surplus - k : weight[i];
        weight[i] -= cut;
        *surplus -= cut;
    }
    for (int i = 0; i < tr->ntrees; i++)
        for (int x = 0; x < loads[i].n; x++) {
            mpq_set_si(q, weight[i], 1);
            mpq_mul(q, q, loads[i].amount[x]);
            mpq_add(used[loads[i].port[x]], used[loads[i].port[x]], q);
        }
    for (;;) {
        /* one more operation: in each group, the fitting tree furthest
         * below its share w_i T, taken tentatively */
        int ng = 0;
        for (int grp = 0; grp < ngroups; grp++, ng++) {
            pick[grp] = -1;
            for (int i = 0; i < tr->ntrees; i++) {
                if (tree_group(sc, &tr->trees[i]) != grp)
                    continue;
                bool fits = true;
                for (int x = 0; x < loads[i].n && fits; x++) {
                    mpq_add(room, used[loads[i].port[x]], loads[i].amount[x]);
                    fits = mpq_cmp(room, T) <= 0;
                }
                mpq_mul(q, tr->trees[i].weight, T);
                mpq_set_si(room, weight[i], 1);
                mpq_sub(q, q, room);
                if (fits && (pick[grp] < 0 || mpq_cmp(q, best) > 0)) {
                    pick[grp] = i;
                    mpq_set(best, q);
                }
            }
            if (pick[grp] < 0)
                break;
            for (int x = 0; x < loads[pick[grp]].n; x++)
                mpq_add(used[loads[pick[grp]].port[x]], used[loads[pick[grp]].port[x]],
                        loads[pick[grp]].amount[x]);
        }
        if (ng < ngroups) { /* some group has no room: undo the round */
            for (int grp = 0; grp < ng; grp++)
                for (int x = 0; x < loads[pick[grp]].n; x++)
                    mpq_sub(used[loads[pick[grp]].port[x]], used[loads[pick[grp]].port[x]],
                            loads[pick[grp]].amount[x]);
            break;
        }
        for (int grp = 0; grp < ngroups; grp++)
            weight[pick[grp]]++;
        k++;
    }
    for (int x = 0; x < nports; x++)
        mpq_clear(used[x]);
    mpq_clears(q, best, room, NULL);
    mpz_clear(f);
    free(used);
    free(group_ops);
    free(pick);
    return k;
}

/* Exactly k operations per period: each group's k shared by its trees in
 * proportion to their rates (largest remainders), and the period as short
 * as those counts allow, the largest load of a port or processor.  Near the
 * optimum's K / TP, it avoids fill_period's loss of up to one operation per
 * tree; false when memory runs out. */
static bool round_period(const steady_schedule_t *sc, const steady_trees_t *tr,
                         const tree_load_t *loads, int nports, long k, long *weight, mpq_t T)
{
    mpq_t share, frac, best_frac, load;
    mpq_inits(share, frac, best_frac, load, NULL);
    mpq_t *used = malloc((size_t)nports * sizeof *used);
    int ngroups = group_count(sc);
    long *left = malloc((size_t)ngroups * sizeof *left);
    bool *bumped = calloc((size_t)(tr->ntrees ? tr->ntrees : 1), sizeof *bumped);
    bool ok = used && left && bumped;
    for (int g = 0; ok && g < ngroups; g++)
        left[g] = k;
    for (int i = 0; ok && i < tr->ntrees; i++) { /* floor(w_i k / TP) */
        mpq_set_si(share, k, 1);
        mpq_mul(share, share, tr->trees[i].weight);
        mpq_div(share, share, sc->optimum);
        mpz_fdiv_q(mpq_numref(frac), mpq_numref(share), mpq_denref(share));
        weight[i] = mpz_get_si(mpq_numref(frac));
        left[tree_group(sc, &tr->trees[i])] -= weight[i];
    }
    for (int g = 0; ok && g < ngroups; g++)
        while (left[g] > 0) { /* the largest remainders get one more */
            int pick = -1;
            for (int i = 0; i < tr->ntrees; i++) {
                if (bumped[i] || tree_group(sc, &tr->trees[i]) != g)
                    continue;
                mpq_set_si(share, k, 1);
                mpq_mul(share, share, tr->trees[i].weight);
                mpq_div(share, share, sc->optimum);
                mpq_set_si(frac, weight[i], 1);
                mpq_sub(frac, share, frac);
                if (pick < 0 || mpq_cmp(frac, best_frac) > 0) {
                    pick = i;
                    mpq_set(best_frac, frac);
                }
            }
            if (pick < 0)
                break;
            weight[pick]++;
            bumped[pick] = true;
            left[g]--;
        }
    if (ok) {
        for (int x = 0; x < nports; x++)
            mpq_init(used[x]);
        for (int i = 0; i < tr->ntrees; i++)
            for (int x = 0; x < loads[i].n; x++) {
                mpq_set_si(load, weight[i], 1);
                mpq_mul(load, load, loads[i].amount[x]);
                mpq_add(used[loads[i].port[x]], used[loads[i].port[x]], load);
            }
        mpq_set_ui(T, 0, 1);
        for (int x = 0; x < nports; x++) {
            if (mpq_cmp(used[x], T) > 0)
                mpq_set(T, used[x]);
            mpq_clear(used[x]);
        }
    }
    free(used);
    free(left);
    free(bumped);
    mpq_clears(share, frac, best_frac, load, NULL);
    return ok;
}

/* The rates that follow from period and ops_per_period. */
static void set_rates(steady_schedule_t *sc, int ntrees)
{
    mpq_set_si(sc->throughput, sc->ops_per_period, 1);
    mpq_div(sc->throughput, sc->throughput, sc->period);
    if (sc->fixed_period) {
        mpq_sub(sc->loss, sc->optimum, sc->throughput);
        mpq_set_si(sc->loss_bound, ntrees, 1);
        mpq_div(sc->loss_bound, sc->loss_bound, sc->period);
    }
}

/* The automatic period's best few candidates by the estimate below; the
 * planner builds each one and keeps the one its replay runs fastest. */
#define NCAND 4

typedef struct {
    int n;
    long *weight[NCAND];
    mpq_t period[NCAND];
    long ops[NCAND];
    double score[NCAND];
} candidates_t;

static void candidates_free(candidates_t *c)
{
    for (int i = 0; i < c->n; i++) {
        free(c->weight[i]);
        mpq_clear(c->period[i]);
    }
    c->n = 0;
}

/* Keeps (weight, T, ops) if it is among the NCAND best scores; false when
 * memory runs out. */
static bool candidates_offer(candidates_t *c, int ntrees, const long *weight, const mpq_t T,
                             long ops, double score)
{
    int at = c->n;
    while (at > 0 && c->score[at - 1] < score)
        at--;
    if (at >= NCAND)
        return true;
    if (c->n == NCAND) { /* drop the worst */
        c->n--;
        free(c->weight[c->n]);
        mpq_clear(c->period[c->n]);
    }
    long *w = malloc((size_t)(ntrees ? ntrees : 1) * sizeof *w);
    if (!w)
        return false;
    memcpy(w, weight, (size_t)ntrees * sizeof *w);
    for (int i = c->n; i > at; i--) {
        c->weight[i] = c->weight[i - 1];
        c->period[i][0] = c->period[i - 1][0]; /* moves the mpq, no copy */
        c->ops[i] = c->ops[i - 1];
        c->score[i] = c->score[i - 1];
    }
    c->weight[at] = w;
    mpq_init(c->period[at]);
    mpq_set(c->period[at], T);
    c->ops[at] = ops;
    c->score[at] = score;
    c->n++;
    return true;
}

/* The period (docs/schedule-format.md and `steady plan --help`):
 *   exact   the smallest T in which every tree runs a whole number of
 *           operations: T = lcm(den w_i) / gcd(w_i lcm(den w_i));
 *   fixed   the user's T (§4.6), filled by fill_period();
 *   auto    K <= AUTO_MAX_OPS operations per period, in the period K / TP
 *           filled by fill_period() or in the shortest period that holds
 *           exactly K (round_period()).  Candidates are ranked by
 *               (throughput / TP) * P / (P + (L + 1) / 2),  P = series / K,
 *           L the deepest tree's lag: the throughput, discounted by the
 *           periods the pipeline takes to fill and drain; the best NCAND are
 *           then built and replayed, which measures what the estimate
 *           guesses.  Few operations per period keep the pipeline short;
 *           many let the integer counts follow the optimum's mix of trees;
 *           and the exact period of a platform with measured bandwidths
 *           often holds billions of operations. */
#define AUTO_MAX_OPS 128

static steady_err_t choose_period(steady_schedule_t *sc, const steady_solution_t *s,
                                  const steady_trees_t *tr, double period, long series, int depth,
                                  long *weight, candidates_t *cands, steady_error_t *err)
{
    steady_err_t rc = STEADY_OK;
    int nports = load_count(steady_solution_platform(s));
    tree_load_t *loads = NULL;
    long *trial = malloc((size_t)(tr->ntrees ? tr->ntrees : 1) * sizeof *trial);
    mpz_t l, g, c;
    mpq_t q, T;
    mpz_inits(l, g, c, NULL);
    mpq_inits(q, T, NULL);
    if (!trial) {
        rc = oom(err);
        goto cleanup;
    }
    if (period < 0) { /* exact */
        mpz_set_ui(l, 1);
        for (int i = 0; i < tr->ntrees; i++)
            mpz_lcm(l, l, mpq_denref(tr->trees[i].weight));
        mpz_set_ui(g, 0);
        for (int i = 0; i < tr->ntrees; i++) {
            mpz_divexact(c, l, mpq_denref(tr->trees[i].weight));
            mpz_mul(c, c, mpq_numref(tr->trees[i].weight));
            mpz_gcd(g, g, c);
        }
        mpq_set_num(sc->period, l);
        mpq_set_den(sc->period, g);
        mpq_canonicalize(sc->period);
        long k = 0;
        int group = -1;
        for (int i = 0; i < tr->ntrees; i++) {
            mpq_mul(q, tr->trees[i].weight, sc->period); /* an integer */
            if (!mpz_fits_slong_p(mpq_numref(q)) || mpz_sizeinbase(mpq_numref(q), 2) > 40) {
                rc = steady_error_set(err, STEADY_EINVAL,
                                      "the exact period holds more than 2^40 operations of one "
                                      "tree: use --period auto or a fixed period");
                goto cleanup;
            }
            weight[i] = mpz_get_si(mpq_numref(q));
            if (group < 0)
                group = tree_group(sc, &tr->trees[i]);
            if (tree_group(sc, &tr->trees[i]) == group)
                k += weight[i];
        }
        sc->ops_per_period = k;
    } else {
        if (!(loads = tree_loads(s, tr))) {
            rc = oom(err);
            goto cleanup;
        }
        sc->fixed_period = true;
        if (period > 0) {
            steady_exact_decimal(sc->period, period);
            sc->ops_per_period = fill_period(sc, tr, loads, nports, sc->period, weight);
        } else {
            /* for each K, two candidates: the period K / TP filled with
             * whole operations, and exactly K operations in the shortest
             * period they fit (kept only within §4.6's loss bound) */
            double best_score = -1;
            long best = -1;
            for (long k = 1; k <= AUTO_MAX_OPS && best_score < 1; k++) {
                for (int kind = 0; kind < 2; kind++) {
                    long got;
                    if (kind == 0) {
                        mpq_set_si(T, k, 1);
                        mpq_div(T, T, sc->optimum);
                        got = fill_period(sc, tr, loads, nports, T, trial);
                    } else {
                        got = round_period(sc, tr, loads, nports, k, trial, T) ? k : -1;
                        mpq_set_si(q, k, 1); /* loss = TP - k / T <= #trees / T */
                        mpq_div(q, q, T);
                        mpq_sub(q, sc->optimum, q);
                        mpq_mul(q, q, T);
                        if (got > 0 && mpq_cmp_si(q, tr->ntrees, 1) > 0)
                            continue;
                    }
                    if (got < 0) {
                        rc = oom(err);
                        goto cleanup;
                    }
                    if (got == 0)
                        continue;
                    /* the share of the optimum, discounted by the pipeline's fill */
                    mpq_set_si(q, got, 1);
                    mpq_div(q, q, T);
                    mpq_div(q, q, sc->optimum);
                    double batches = (double)series / (double)got;
                    double score = mpq_get_d(q) * batches / (batches + (depth + 1) / 2.0);
                    if (mpq_cmp_ui(q, 1, 1) == 0)
                        score = 1; /* the optimum itself: no longer period is better */
                    if (!candidates_offer(cands, tr->ntrees, trial, T, got, score)) {
                        rc = oom(err);
                        goto cleanup;
                    }
                    if (score > best_score) {
                        best_score = score;
                        best = got;
                        mpq_set(sc->period, T);
                        memcpy(weight, trial, (size_t)tr->ntrees * sizeof *weight);
                    }
                }
            }
            sc->ops_per_period = best;
        }
        if (sc->ops_per_period < 0) {
            rc = oom(err);
            goto cleanup;
        }
    }
    if (sc->ops_per_period <= 0) {
        mpq_inv(q, sc->optimum);
        rc = steady_error_set(err, STEADY_EINVAL,
                              "period %g is too short for a single operation (the optimum "
                              "runs one every %.6g)",
                              period, mpq_get_d(q));
        goto cleanup;
    }
    set_rates(sc, tr->ntrees);

cleanup:
    loads_free(loads, tr->ntrees);
    free(trial);
    mpz_clears(l, g, c, NULL);
    mpq_clears(q, T, NULL);
    return rc;
}

/* The (node, type) inputs of a step and the (node, type) it produces.
 * interval[k * N + m] is the type of v[k,m] (reduce). */
static void step_io(const steady_schedule_t *sc, const steady_platform_t *p, const int *interval,
                    int N, const steady_sched_step_t *st, int ins[2][2], int *nin, int *out_node,
                    int *out_type)
{
    if (st->kind == STEADY_STEP_SEND) {
        ins[0][0] = steady_sched_step_src(sc, p, st);
        ins[0][1] = st->type;
        *nin = 1;
        *out_node = steady_sched_step_dst(sc, p, st);
        *out_type = st->type;
    } else { /* T(k,l,m): v[k,l] and v[l+1,m] into v[k,m] */
        ins[0][0] = ins[1][0] = *out_node = st->node;
        ins[0][1] = interval[st->k * N + st->l];
        ins[1][1] = interval[(st->l + 1) * N + st->m];
        *nin = 2;
        *out_type = interval[st->k * N + st->m];
    }
}

/* Appends a copy of hop h (through switches) to sc's hops; *index gets
 * its place. */
static steady_err_t add_hop(steady_schedule_t *sc, const steady_hop_t *h, int *index,
                            steady_error_t *err)
{
    steady_hop_t *grown = realloc(sc->hops, (size_t)(sc->nhops + 1) * sizeof *grown);
    if (!grown)
        return oom(err);
    sc->hops = grown;
    int *edges = malloc((size_t)h->nedges * sizeof *edges);
    if (!edges)
        return oom(err);
    memcpy(edges, h->edges, (size_t)h->nedges * sizeof *edges);
    sc->hops[sc->nhops] = *h;
    sc->hops[sc->nhops].edges = edges;
    *index = sc->nhops++;
    return STEADY_OK;
}

/* Copies the trees that run at least one operation, with lags and the
 * per-type "first" offsets. */
static steady_err_t copy_trees(steady_schedule_t *sc, const steady_solution_t *s,
                               const steady_trees_t *tr, const long *weight, const int *interval,
                               steady_error_t *err)
{
    const steady_platform_t *p = steady_solution_platform(s);
    int nv = steady_platform_node_count(p), nt = sc->ntypes;
    int N = sc->nsources; /* reduce: participants */
    steady_err_t rc = STEADY_OK;
    sc->trees = calloc((size_t)(tr->ntrees ? tr->ntrees : 1), sizeof *sc->trees);
    long *first = calloc((size_t)nt, sizeof *first);
    int *producer = malloc((size_t)nv * nt * sizeof *producer);     /* (node, type) -> step */
    int *hop_of = malloc((size_t)(tr->nhops + 1) * sizeof *hop_of); /* trees' hop -> sc's */
    if (!sc->trees || !first || !producer || !hop_of) {
        rc = oom(err);
        goto cleanup;
    }
    for (int h = 0; h < tr->nhops; h++)
        hop_of[h] = -1;
    for (int i = 0; i < tr->ntrees; i++) {
        if (weight[i] == 0)
            continue;
        const steady_tree_t *in = &tr->trees[i];
        steady_sched_tree_t *out = &sc->trees[sc->ntrees++];
        out->weight = weight[i];
        int g = tree_group(sc, in);
        out->first = first[g];
        first[g] += weight[i];
        out->nsteps = in->nsteps;
        out->steps = calloc((size_t)in->nsteps, sizeof *out->steps);
        if (!out->steps) {
            rc = oom(err);
            goto cleanup;
        }
        for (int x = 0; x < nv * nt; x++)
            producer[x] = -1;
        for (int j = 0; j < in->nsteps; j++) {
            const steady_step_t *st = &in->steps[j];
            steady_sched_step_t *o = &out->steps[j];
            o->kind = st->kind;
            o->edge = o->node = o->type = -1;
            o->hop = -1;
            if (st->kind == STEADY_STEP_SEND) {
                o->edge = st->edge;
                o->type = st->type;
                const steady_hop_t *h = &tr->hops[st->hop];
                if (h->nedges > 1 && hop_of[st->hop] < 0 &&
                    (rc = add_hop(sc, h, &hop_of[st->hop], err)))
                    goto cleanup;
                o->hop = hop_of[st->hop];
            } else {
                steady_solution_task(s, st->task, &o->k, &o->l, &o->m);
                o->node = st->node;
            }
            int ins[2][2], nin, out_node, out_type;
            step_io(sc, p, interval, N, o, ins, &nin, &out_node, &out_type);
            /* one period per send: the hop depth that order_slots() starts
             * from (build_slots() sets the lags once the slots exist); a
             * task runs after its period's slots and the earlier tasks */
            int lag = 0, gap = st->kind == STEADY_STEP_SEND ? 1 : 0;
            for (int x = 0; x < nin; x++) {
                int pj = producer[ins[x][0] * nt + ins[x][1]];
                if (pj >= 0 && out->steps[pj].lag + gap > lag)
                    lag = out->steps[pj].lag + gap;
            }
            o->lag = lag;
            if (lag > sc->max_lag)
                sc->max_lag = lag;
            producer[out_node * nt + out_type] = j;
        }
    }

cleanup:
    free(first);
    free(producer);
    free(hop_of);
    return rc;
}

/* Per (node, type), weight x (lag of the user - lag of the producer), over
 * the trees' producer / consumer pairs (docs/schedule-format.md). */
static steady_err_t compute_buffers(steady_schedule_t *sc, const steady_platform_t *p,
                                    const int *interval, steady_error_t *err)
{
    int nv = steady_platform_node_count(p), nt = sc->ntypes, N = sc->nsources;
    long *need = calloc((size_t)nv * nt, sizeof *need);
    int *producer = malloc((size_t)nv * nt * sizeof *producer);
    int *last = malloc((size_t)nv * nt * sizeof *last); /* latest lag that uses it */
    if (!need || !producer || !last) {
        free(need);
        free(producer);
        free(last);
        return oom(err);
    }
    for (int i = 0; i < sc->ntrees; i++) {
        const steady_sched_tree_t *tr = &sc->trees[i];
        for (int x = 0; x < nv * nt; x++)
            producer[x] = last[x] = -1;
        /* a value is held from the period it is produced in to its last use
         * (a broadcast node forwarding one message to several children
         * holds it once); in a tree each value is produced once */
        for (int j = 0; j < tr->nsteps; j++) {
            int ins[2][2], nin, out_node, out_type;
            step_io(sc, p, interval, N, &tr->steps[j], ins, &nin, &out_node, &out_type);
            for (int x = 0; x < nin; x++) {
                int key = ins[x][0] * nt + ins[x][1];
                if (producer[key] >= 0 && tr->steps[j].lag > last[key])
                    last[key] = tr->steps[j].lag;
            }
            producer[out_node * nt + out_type] = j;
        }
        for (int j = 0; j < tr->nsteps; j++) {
            int ins[2][2], nin, out_node, out_type;
            step_io(sc, p, interval, N, &tr->steps[j], ins, &nin, &out_node, &out_type);
            int key = out_node * nt + out_type;
            if (last[key] >= 0)
                need[key] += tr->weight * (last[key] - tr->steps[j].lag);
        }
    }
    int n = 0;
    for (int x = 0; x < nv * nt; x++)
        n += need[x] > 0;
    sc->buffers = calloc((size_t)(n ? n : 1), sizeof *sc->buffers);
    if (sc->buffers)
        for (int x = 0; x < nv * nt; x++)
            if (need[x] > 0)
                sc->buffers[sc->nbuffers++] =
                    (steady_sched_buffer_t){.node = x / nt, .type = x % nt, .messages = need[x]};
    free(need);
    free(producer);
    free(last);
    return sc->buffers ? STEADY_OK : oom(err);
}

/* ---- same-period forwarding: slot order and lags ---------------------------
 *
 * A send may work on the batch its producer worked on in the same period
 * (the same lag) when the period's timeline allows it: every part of the
 * send starts after the parts of its producer that carry the same message
 * positions have arrived (slot end + the edge's latency).  Then the period
 * has a timed execution that respects every dependency, so the self-timed
 * execution is never slower than the period, and the message crosses
 * several hops in one period instead of one hop per period: the pipeline
 * fills and drains in fewer periods.  A task runs after the period's slots,
 * so a send that uses a task's result needs an earlier period's (lag + 1).
 *
 * The matchings can run in any order, and a comm's messages are handed out
 * along its slots in that order, so the order decides which hops forward
 * in the same period.  No order serves every tree (a slot carries comms of
 * several depths), so order_slots() searches: a few orders by the slots'
 * hop depths, then moves of one slot at a time while the pipeline gets
 * shorter (the largest lag, then the trees' lags weighted by their
 * operations).  The search uses doubles; set_lags() then decides each lag
 * exactly, as `steady check` does. */

/* The producers of each step's inputs (flat indices base[i] + j, -1 for an
 * initial value), at most two. */
static steady_err_t step_producers(const steady_schedule_t *sc, const steady_platform_t *p,
                                   const int *interval, const int *base, int (*prod)[2],
                                   steady_error_t *err)
{
    int nv = steady_platform_node_count(p), nt = sc->ntypes;
    int *producer = malloc((size_t)nv * nt * sizeof *producer + 1);
    if (!producer)
        return oom(err);
    for (int i = 0; i < sc->ntrees; i++) {
        const steady_sched_tree_t *tr = &sc->trees[i];
        for (int x = 0; x < nv * nt; x++)
            producer[x] = -1;
        for (int j = 0; j < tr->nsteps; j++) {
            int ins[2][2], nin, out_node, out_type;
            step_io(sc, p, interval, sc->nsources, &tr->steps[j], ins, &nin, &out_node, &out_type);
            prod[base[i] + j][0] = prod[base[i] + j][1] = -1;
            for (int x = 0; x < nin; x++)
                prod[base[i] + j][x] = producer[ins[x][0] * nt + ins[x][1]];
            producer[out_node * nt + out_type] = base[i] + j;
        }
    }
    free(producer);
    return STEADY_OK;
}

/* True when every part of send step f starts after the parts of send step
 * g carrying the same message positions have arrived (exact). */
static bool same_period_ok(const steady_schedule_t *sc, const steady_platform_t *p,
                           const int *pfirst, const int (*piece)[2], int f, int g,
                           const steady_sched_step_t *gs)
{
    mpq_t arrive, lat;
    mpq_inits(arrive, lat, NULL);
    steady_hop_t h = {.nedges = 0};
    h.edges = (int *)steady_sched_step_edges(sc, gs, &h.nedges);
    steady_exact_hop_latency(p, &h, lat);
    bool ok = true;
    for (int a = pfirst[f]; ok && a < pfirst[f + 1]; a++) {
        const steady_sched_slot_t *sa = &sc->slots[piece[a][0]];
        const steady_sched_transfer_t *ta = &sa->transfers[piece[a][1]];
        for (int b = pfirst[g]; ok && b < pfirst[g + 1]; b++) {
            const steady_sched_slot_t *sb = &sc->slots[piece[b][0]];
            const steady_sched_transfer_t *tb = &sb->transfers[piece[b][1]];
            if (mpq_cmp(tb->from, ta->to) >= 0 || mpq_cmp(ta->from, tb->to) >= 0)
                continue;
            mpq_add(arrive, sb->start, sb->duration);
            mpq_add(arrive, arrive, lat);
            ok = mpq_cmp(arrive, sa->start) <= 0;
        }
    }
    mpq_clears(arrive, lat, NULL);
    return ok;
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
    const double *dur;         /* slot: its length (stretched for shared resources) */
    const double *mdur;        /* slot: the matching's length, which sets the parts */
    const double *cost, *lat;  /* comm: its hop's time and latency */
    const int *pfirst;         /* comm c's pieces: pfirst[c] .. pfirst[c + 1] */
    const double *work;        /* task step: its tasks' time per period; send: 0 */
    const int *node;           /* task step: its processor */
    double period;
    int nnodes;
    /* the exact decision of set_lags(), or NULL while searching */
    const steady_platform_t *p;
    const int *xfirst, (*xpiece)[2];
    /* scratch */
    double *start, *pos, *ps, *pe, *pf, *pt; /* slot start; comm position; piece times, parts */
    int *pn, *lag, *tlag;
    int *last;          /* comm: the position of the last slot that carried it */
    double *done, *cpu; /* step: when its output is complete (in its period); node: CPU free */
} search_t;

typedef struct {
    int max_lag;
    /* rendezvous: the latency the period's messages hold ports for, each
     * comm paying its hop's latency once per run of consecutive slots that
     * carry it (the executor's messages, steady_schedule_message_ids) */
    double latency;
    long tree_lags; /* sum over trees of weight x the tree's largest lag */
    long step_lags; /* sum over steps of weight x lag */
} order_score_t;

/* Fewer periods of lag first (the buffers), then less latency held (the
 * throughput, under rendezvous), then the lags' sums. */
static bool score_better(order_score_t a, order_score_t b)
{
    if (a.max_lag != b.max_lag)
        return a.max_lag < b.max_lag;
    if (a.latency != b.latency)
        return a.latency < b.latency * (1 - 1e-12);
    if (a.tree_lags != b.tree_lags)
        return a.tree_lags < b.tree_lags;
    return a.step_lags < b.step_lags;
}

/* Lags of the slot order `order` (position -> slot), in doubles. */
static order_score_t evaluate_order(search_t *s, const int *order)
{
    double t = 0;
    for (int r = 0; r < s->nslots; r++) {
        s->start[order[r]] = t;
        t += s->dur[order[r]];
    }
    double eps = 1e-9 * (t > 0 ? t : 1);
    for (int c = 0; c < s->ncomms; c++) {
        s->pn[c] = 0;
        s->pos[c] = 0;
        s->last[c] = -2;
    }
    order_score_t sc = {0, 0, 0, 0};
    bool rendezvous = s->sc->cost_model == STEADY_COST_RENDEZVOUS;
    for (int r = 0; r < s->nslots; r++) {
        int x = order[r];
        for (int y = s->sfirst[x]; y < s->sfirst[x + 1]; y++) {
            int c = s->scomm[y], k = s->pfirst[c] + s->pn[c]++;
            if (rendezvous && s->last[c] != r - 1)
                sc.latency += s->lat[c];
            s->last[c] = r;
            s->ps[k] = s->start[x];
            s->pe[k] = s->start[x] + s->dur[x];
            s->pf[k] = s->pos[c];
            s->pos[c] += s->mdur[x] / s->cost[c];
            s->pt[k] = s->pos[c];
        }
    }
    for (int i = 0; i < s->sc->ntrees; i++)
        s->tlag[i] = 0;
    for (int v = 0; v < s->nnodes; v++)
        s->cpu[v] = 0;
    double T = s->period;
    for (int f = 0; f < s->nflat; f++) {
        int lag = 0, cf = s->comm_of[f];
        /* a send: its earliest part (its parts are in slot order) */
        double first = cf >= 0 && s->pfirst[cf] < s->pfirst[cf + 1] ? s->ps[s->pfirst[cf]] : 1e300;
        for (int k = 0; k < 2; k++) {
            int g = s->prod[f][k];
            if (g < 0)
                continue;
            int cand = s->lag[g], cg = s->comm_of[g];
            if (cf >= 0 && cg >= 0) {
                /* after a send: the same period when every part arrives in
                 * time; else as many periods as the latest part needs.  The
                 * parts of both comms that carry the same messages: both
                 * tile the positions in order, so walk them together */
                double late = -1e300; /* the latest arrival after its part starts */
                for (int a = s->pfirst[cf], b = s->pfirst[cg];
                     a < s->pfirst[cf + 1] && b < s->pfirst[cg + 1];) {
                    if (s->pf[b] < s->pt[a] - 1e-9 && s->pf[a] < s->pt[b] - 1e-9 &&
                        s->pe[b] + s->lat[cg] - s->ps[a] > late)
                        late = s->pe[b] + s->lat[cg] - s->ps[a];
                    if (s->pt[a] <= s->pt[b])
                        a++;
                    else
                        b++;
                }
                bool same = late <= eps;
                if (s->xfirst)
                    same = same_period_ok(
                        s->sc, s->p, s->xfirst, s->xpiece, f, g,
                        &s->sc->trees[s->tree_of[g]].steps[g - s->base[s->tree_of[g]]]);
                int d = same ? 0 : (int)ceil(late / T - 1e-9);
                cand += same ? 0 : d > 1 ? d : 1;
            } else if (cf >= 0) {
                /* after a task: a later period, once the task is done (the
                 * tasks of a period come after its slots) */
                int d = (int)ceil((s->done[g] - first) / T - 1e-9);
                cand += d > 1 ? d : 1;
            }
            if (cand > lag)
                lag = cand;
        }
        s->lag[f] = lag;
        if (cf >= 0) {
            s->done[f] = 0;
            for (int a = s->pfirst[cf]; a < s->pfirst[cf + 1]; a++)
                if (s->pe[a] + s->lat[cf] > s->done[f])
                    s->done[f] = s->pe[a] + s->lat[cf];
        } else {
            /* a task: once its inputs are in and its processor is free (in
             * the compute list's order, which is this one) */
            double ready = 0;
            for (int k = 0; k < 2; k++) {
                int g = s->prod[f][k];
                if (g >= 0 && s->done[g] - (lag - s->lag[g]) * T > ready)
                    ready = s->done[g] - (lag - s->lag[g]) * T;
            }
            int v = s->node[f];
            s->done[f] = (ready > s->cpu[v] ? ready : s->cpu[v]) + s->work[f];
            s->cpu[v] = s->done[f];
        }
        long w = s->sc->trees[s->tree_of[f]].weight;
        sc.step_lags += w * lag;
        if (lag > s->tlag[s->tree_of[f]])
            s->tlag[s->tree_of[f]] = lag;
        if (lag > sc.max_lag)
            sc.max_lag = lag;
    }
    for (int i = 0; i < s->sc->ntrees; i++)
        sc.tree_lags += s->sc->trees[i].weight * s->tlag[i];
    return sc;
}

typedef struct {
    const double *key;
    int slot;
} slot_key_t;

static int cmp_slot_key(const void *a, const void *b)
{
    const slot_key_t *x = a, *y = b;
    double u = x->key[x->slot], v = y->key[y->slot];
    if (u != v)
        return (u > v) - (u < v);
    return (x->slot > y->slot) - (x->slot < y->slot);
}

/* Evaluations the local search may spend, in pieces examined (each
 * evaluation looks at every piece and every overlapping pair): about a
 * tenth of a second per candidate period. */
#define ORDER_BUDGET 40000000L

/* Chooses the order of the slots (order[position] = slot).  depth[f] is
 * the step's hop depth (one period per send, the rule without
 * forwarding). */
static steady_err_t order_slots(search_t *s, const int *depth, int *order, steady_error_t *err)
{
    int n = s->nslots;
    double *key = malloc((size_t)(3 * n + 1) * sizeof *key);
    slot_key_t *sk = malloc((size_t)(n + 1) * sizeof *sk);
    int *trial = malloc((size_t)(n + 1) * sizeof *trial);
    int *best = malloc((size_t)(n + 1) * sizeof *best);
    if (!key || !sk || !trial || !best) {
        free(key);
        free(sk);
        free(trial);
        free(best);
        return oom(err);
    }
    /* the slots' depths: mean, smallest, largest of their comms' steps */
    int *flat_of = malloc((size_t)(s->ncomms + 1) * sizeof *flat_of);
    if (!flat_of) {
        free(key);
        free(sk);
        free(trial);
        free(best);
        return oom(err);
    }
    for (int f = 0; f < s->nflat; f++)
        if (s->comm_of[f] >= 0)
            flat_of[s->comm_of[f]] = f;
    for (int x = 0; x < n; x++) {
        double sum = 0, lo = 1e300, hi = -1;
        int cnt = s->sfirst[x + 1] - s->sfirst[x];
        for (int y = s->sfirst[x]; y < s->sfirst[x + 1]; y++) {
            double d = depth[flat_of[s->scomm[y]]];
            sum += d;
            lo = d < lo ? d : lo;
            hi = d > hi ? d : hi;
        }
        key[x] = cnt ? sum / cnt : 0;
        key[n + x] = lo;
        key[2 * n + x] = hi;
    }
    free(flat_of);
    for (int x = 0; x < n; x++)
        best[x] = x;
    order_score_t bs = evaluate_order(s, best);
    for (int k = 0; k < 3; k++) {
        for (int x = 0; x < n; x++)
            sk[x] = (slot_key_t){key + (size_t)k * n, x};
        qsort(sk, (size_t)n, sizeof *sk, cmp_slot_key);
        for (int x = 0; x < n; x++)
            trial[x] = sk[x].slot;
        order_score_t ts = evaluate_order(s, trial);
        if (score_better(ts, bs)) {
            bs = ts;
            memcpy(best, trial, (size_t)n * sizeof *best);
        }
    }
    /* local search: move one slot elsewhere while it helps */
    long work = 0, per = 1;
    for (int c = 0; c < s->ncomms; c++)
        per += (long)(s->pfirst[c + 1] - s->pfirst[c]) * 4;
    bool improved = true;
    while (improved && (bs.max_lag > 0 || bs.latency > 0) && work < ORDER_BUDGET) {
        improved = false;
        for (int i = 0; i < n && work < ORDER_BUDGET; i++)
            for (int j = 0; j < n && work < ORDER_BUDGET; j++) {
                if (j == i)
                    continue;
                /* slot best[i] to position j */
                int moved = best[i];
                for (int r = 0, q = 0; r < n; r++) {
                    if (r == i)
                        continue;
                    if (q == j)
                        trial[q++] = moved;
                    trial[q++] = best[r];
                }
                if (j == n - 1)
                    trial[n - 1] = moved;
                work += per;
                order_score_t ts = evaluate_order(s, trial);
                if (score_better(ts, bs)) {
                    bs = ts;
                    memcpy(best, trial, (size_t)n * sizeof *best);
                    improved = true;
                }
            }
    }
    memcpy(order, best, (size_t)n * sizeof *order);
    free(key);
    free(sk);
    free(trial);
    free(best);
    return STEADY_OK;
}

/* The lags, once the slots exist (exact where it decides a same-period
 * send): evaluate_order() on the final order. */
static steady_err_t set_lags(steady_schedule_t *sc, const steady_platform_t *p, search_t *s,
                             const int *order, steady_error_t *err)
{
    int nflat = s->nflat;
    int *pfirst = calloc((size_t)nflat + 2, sizeof *pfirst);
    int npieces = 0;
    for (int x = 0; x < sc->nslots; x++)
        npieces += sc->slots[x].ntransfers;
    int(*piece)[2] = malloc((size_t)(npieces + 1) * sizeof *piece);
    if (!pfirst || !piece) {
        free(pfirst);
        free(piece);
        return oom(err);
    }
    for (int pass = 0; pass < 2; pass++) {
        for (int x = 0; x < sc->nslots; x++)
            for (int y = 0; y < sc->slots[x].ntransfers; y++) {
                const steady_sched_transfer_t *tf = &sc->slots[x].transfers[y];
                int f = s->base[tf->tree] + tf->step;
                if (pass == 0)
                    pfirst[f + 2]++;
                else {
                    piece[pfirst[f + 1]][0] = x;
                    piece[pfirst[f + 1]++][1] = y;
                }
            }
        if (pass == 0)
            for (int f = 0; f <= nflat; f++)
                pfirst[f + 1] += pfirst[f];
    }
    s->p = p;
    s->xfirst = pfirst;
    s->xpiece = (const int(*)[2])piece;
    evaluate_order(s, order);
    s->xfirst = NULL;
    s->xpiece = NULL;
    sc->max_lag = 0;
    for (int f = 0; f < nflat; f++) {
        steady_sched_step_t *st = &sc->trees[s->tree_of[f]].steps[f - s->base[s->tree_of[f]]];
        st->lag = s->lag[f];
        if (st->lag > sc->max_lag)
            sc->max_lag = st->lag;
    }
    free(pfirst);
    free(piece);
    return STEADY_OK;
}

/* How much longer than its matching slot x must last for the shared
 * resources its comms cross (exact): the largest, over the resources, of
 * the time they need per unit of the slot, sum over the slot's comms c of
 * t_r(c) / d(c) (a comm moves duration / d(c) messages, each holding r for
 * t_r(c)), and at least 1.  acc and touched have one entry per resource. */
static void slot_stretch(const steady_platform_t *p, const steady_schedule_t *sc,
                         const steady_slot_t *slot, const int *tree, const int *step,
                         const mpq_t *comm, mpq_t *acc, int *touched, mpq_t factor)
{
    int nt = 0;
    mpq_t q;
    mpq_init(q);
    mpq_set_ui(factor, 1, 1);
    for (int y = 0; y < slot->ncomms; y++) {
        int c = slot->comms[y], n;
        const int *edges = steady_sched_step_edges(sc, &sc->trees[tree[c]].steps[step[c]], &n);
        for (int k = 0; k < n; k++) {
            int nu;
            const steady_use_t *u = steady_platform_edge_uses(p, edges[k], &nu);
            for (int x = 0; x < nu; x++) {
                int r = u[x].resource;
                if (mpq_sgn(acc[r]) == 0)
                    touched[nt++] = r;
                steady_exact_use_time(p, edges[k], &u[x], sc->msg_size, q);
                mpq_div(q, q, comm[c]);
                mpq_add(acc[r], acc[r], q);
            }
        }
    }
    for (int i = 0; i < nt; i++) {
        if (mpq_cmp(acc[touched[i]], factor) > 0)
            mpq_set(factor, acc[touched[i]]);
        mpq_set_ui(acc[touched[i]], 0, 1);
    }
    mpq_clear(q);
}

/* The slots: the period's sends as a bipartite graph decomposed into
 * matchings, run in the order order_slots() chooses, each comm's messages
 * handed out in order along its slots; then the lags (set_lags()).  A
 * comm lasts its weight times its hop's time.  A slot whose comms load a
 * shared resource (a channel, a link between switches) beyond the slot's
 * length is stretched to what the resource needs: its transfers share the
 * resource and take longer, and the period grows by as much (the
 * schedule's throughput then falls below the LP's, which `steady plan`
 * reports). */
static steady_err_t build_slots(steady_schedule_t *sc, const steady_platform_t *p,
                                const int *interval, steady_error_t *err)
{
    int ncomms = 0, nflat = 0;
    for (int i = 0; i < sc->ntrees; i++)
        for (int j = 0; j < sc->trees[i].nsteps; j++, nflat++)
            ncomms += sc->trees[i].steps[j].kind == STEADY_STEP_SEND;
    steady_err_t rc = STEADY_OK;
    size_t nc1 = (size_t)(ncomms ? ncomms : 1), nf1 = (size_t)nflat + 1;
    int *src = malloc(nc1 * sizeof *src);
    int *dst = malloc(nc1 * sizeof *dst);
    int *tree = malloc(nc1 * sizeof *tree);
    int *step = malloc(nc1 * sizeof *step);
    mpq_t *dur = malloc(nc1 * sizeof *dur);
    mpq_t *comm = malloc(nc1 * sizeof *comm);
    mpq_t *pos = malloc(nc1 * sizeof *pos);
    int *base = malloc(((size_t)sc->ntrees + 1) * sizeof *base);
    int(*prod)[2] = malloc(nf1 * sizeof *prod);
    int *tree_of = malloc(nf1 * sizeof *tree_of);
    int *comm_of = malloc(nf1 * sizeof *comm_of);
    int *depth = malloc(nf1 * sizeof *depth);
    int *tnode = malloc(nf1 * sizeof *tnode);
    double *work = malloc(nf1 * sizeof *work);
    double *cost = malloc(nc1 * sizeof *cost), *lat = malloc(nc1 * sizeof *lat);
    int *pfirst = calloc(nc1 + 1, sizeof *pfirst);
    steady_matchings_t *mt = NULL;
    int *order = NULL, *sfirst = NULL, *scomm = NULL, *touched = NULL;
    mpq_t *stretched = NULL, *acc = NULL;
    int nstretched = 0, nacc = 0;
    search_t s = {0};
    int k = 0;
    mpq_t at, amount;
    mpq_inits(at, amount, NULL);
    if (!src || !dst || !tree || !step || !dur || !comm || !pos || !base || !prod || !tree_of ||
        !comm_of || !depth || !tnode || !work || !cost || !lat || !pfirst) {
        free(dur);
        free(comm);
        free(pos);
        dur = comm = pos = NULL;
        rc = oom(err);
        goto cleanup;
    }
    for (int i = 0, f = 0; i < sc->ntrees; i++) {
        base[i] = f;
        for (int j = 0; j < sc->trees[i].nsteps; j++, f++) {
            const steady_sched_step_t *st = &sc->trees[i].steps[j];
            tree_of[f] = i;
            depth[f] = st->lag; /* copy_trees(): one period per send */
            comm_of[f] = -1;
            tnode[f] = 0;
            work[f] = 0;
            if (st->kind != STEADY_STEP_SEND) {
                steady_exact_task_time(p, st->node, sc->task_cost, amount);
                work[f] = mpq_get_d(amount) * (double)sc->trees[i].weight;
                tnode[f] = st->node;
                continue;
            }
            steady_hop_t h = {.src = steady_sched_step_src(sc, p, st),
                              .dst = steady_sched_step_dst(sc, p, st)};
            h.edges = (int *)steady_sched_step_edges(sc, st, &h.nedges);
            mpq_inits(dur[k], comm[k], pos[k], NULL);
            steady_exact_hop_time(p, &h, sc->msg_size, comm[k]);
            mpq_set_si(dur[k], sc->trees[i].weight, 1);
            mpq_mul(dur[k], dur[k], comm[k]);
            cost[k] = mpq_get_d(comm[k]);
            lat[k] = steady_hop_latency(p, &h);
            src[k] = h.src;
            dst[k] = h.dst;
            tree[k] = i;
            comm_of[f] = k;
            step[k++] = j;
        }
    }
    base[sc->ntrees] = nflat;
    if ((rc = step_producers(sc, p, interval, base, prod, err)))
        goto cleanup;
    if ((rc = steady_matchings_decompose(steady_platform_node_count(p), ncomms, src, dst,
                                         (const mpq_t *)dur, &mt, err)))
        goto cleanup;

    /* the order of the matchings */
    int n = mt->nslots, npieces = 0, nres = steady_platform_resource_count(p);
    for (int x = 0; x < n; x++)
        npieces += mt->slots[x].ncomms;
    size_t n1 = (size_t)n + 1, np1 = (size_t)npieces + 1;
    order = malloc(n1 * sizeof *order);
    sfirst = malloc((n1 + 1) * sizeof *sfirst);
    scomm = malloc(np1 * sizeof *scomm);
    double *sdur = malloc(n1 * sizeof *sdur), *mdur = malloc(n1 * sizeof *mdur);
    stretched = malloc(n1 * sizeof *stretched);
    acc = malloc(((size_t)nres + 1) * sizeof *acc);
    touched = malloc(((size_t)nres + 1) * sizeof *touched);
    if (stretched)
        for (; nstretched < n; nstretched++)
            mpq_init(stretched[nstretched]);
    if (acc)
        for (; nacc < nres; nacc++)
            mpq_init(acc[nacc]);
    s = (search_t){.nslots = n,
                   .ncomms = ncomms,
                   .nflat = nflat,
                   .sc = sc,
                   .base = base,
                   .prod = (const int(*)[2])prod,
                   .tree_of = tree_of,
                   .comm_of = comm_of,
                   .sfirst = sfirst,
                   .scomm = scomm,
                   .dur = sdur,
                   .mdur = mdur,
                   .cost = cost,
                   .lat = lat,
                   .pfirst = pfirst,
                   .work = work,
                   .node = tnode,
                   .period = mpq_get_d(sc->period),
                   .nnodes = steady_platform_node_count(p)};
    s.start = malloc(n1 * sizeof *s.start);
    s.pos = malloc(nc1 * sizeof *s.pos);
    s.ps = malloc(np1 * sizeof *s.ps);
    s.pe = malloc(np1 * sizeof *s.pe);
    s.pf = malloc(np1 * sizeof *s.pf);
    s.pt = malloc(np1 * sizeof *s.pt);
    s.pn = malloc(nc1 * sizeof *s.pn);
    s.last = malloc(nc1 * sizeof *s.last);
    s.lag = malloc(nf1 * sizeof *s.lag);
    s.tlag = malloc(((size_t)sc->ntrees + 1) * sizeof *s.tlag);
    s.done = malloc(nf1 * sizeof *s.done);
    s.cpu = malloc(((size_t)s.nnodes + 1) * sizeof *s.cpu);
    if (!order || !sfirst || !scomm || !sdur || !mdur || !stretched || !acc || !touched ||
        !s.start || !s.pos || !s.ps || !s.pe || !s.pf || !s.pt || !s.pn || !s.last || !s.lag ||
        !s.tlag || !s.done || !s.cpu) {
        rc = oom(err);
        goto cleanup;
    }
    for (int x = 0, y = 0; x < n; x++) {
        sfirst[x] = y;
        slot_stretch(p, sc, &mt->slots[x], tree, step, (const mpq_t *)comm, acc, touched,
                     stretched[x]);
        mpq_mul(stretched[x], stretched[x], mt->slots[x].duration);
        sdur[x] = mpq_get_d(stretched[x]);
        mdur[x] = mpq_get_d(mt->slots[x].duration);
        for (int z = 0; z < mt->slots[x].ncomms; z++) {
            scomm[y++] = mt->slots[x].comms[z];
            pfirst[mt->slots[x].comms[z] + 1]++;
        }
        sfirst[x + 1] = y;
    }
    for (int c = 0; c < ncomms; c++)
        pfirst[c + 1] += pfirst[c];
    if ((rc = order_slots(&s, depth, order, err)))
        goto cleanup;

    sc->slots = calloc(n1, sizeof *sc->slots);
    if (!sc->slots) {
        rc = oom(err);
        goto cleanup;
    }
    for (int r = 0; r < n; r++) {
        const steady_slot_t *in = &mt->slots[order[r]];
        steady_sched_slot_t *out = &sc->slots[sc->nslots++];
        mpq_inits(out->start, out->duration, NULL);
        mpq_set(out->start, at);
        mpq_set(out->duration, stretched[order[r]]);
        mpq_add(at, at, stretched[order[r]]);
        out->transfers = calloc((size_t)in->ncomms, sizeof *out->transfers);
        if (!out->transfers) {
            rc = oom(err);
            goto cleanup;
        }
        for (int y = 0; y < in->ncomms; y++) {
            int c = in->comms[y];
            steady_sched_transfer_t *tf = &out->transfers[out->ntransfers++];
            tf->tree = tree[c];
            tf->step = step[c];
            mpq_inits(tf->from, tf->to, NULL);
            mpq_div(amount, in->duration, comm[c]);
            mpq_set(tf->from, pos[c]);
            mpq_add(pos[c], pos[c], amount);
            mpq_set(tf->to, pos[c]);
        }
    }
    /* a schedule whose messages take longer than the LP's ports say (a
     * slow link on a hop, a stretched slot) needs a longer period */
    if (mpq_cmp(at, sc->period) > 0) {
        /* the bound's trees over the longer period (§4.6's bound is the
         * paper's platforms', whose periods never grow: check asks it of
         * them only) */
        mpq_mul(sc->loss_bound, sc->loss_bound, sc->period);
        mpq_set(sc->period, at);
        mpq_div(sc->loss_bound, sc->loss_bound, sc->period);
        s.period = mpq_get_d(at);
        mpq_set_si(sc->throughput, sc->ops_per_period, 1);
        mpq_div(sc->throughput, sc->throughput, sc->period);
        if (sc->fixed_period)
            mpq_sub(sc->loss, sc->optimum, sc->throughput);
    }
    rc = set_lags(sc, p, &s, order, err);

cleanup:
    for (int x = 0; x < nstretched; x++)
        mpq_clear(stretched[x]);
    for (int x = 0; x < nacc; x++)
        mpq_clear(acc[x]);
    free(stretched);
    free(acc);
    free(touched);
    free((void *)s.mdur);
    steady_matchings_destroy(mt);
    if (dur)
        for (int x = 0; x < k; x++)
            mpq_clears(dur[x], comm[x], pos[x], NULL);
    mpq_clears(at, amount, NULL);
    free(src);
    free(dst);
    free(tree);
    free(step);
    free(dur);
    free(comm);
    free(pos);
    free(base);
    free(prod);
    free(tree_of);
    free(comm_of);
    free(depth);
    free(cost);
    free(lat);
    free(pfirst);
    free(order);
    free(sfirst);
    free(scomm);
    free((void *)s.dur);
    free(s.start);
    free(s.pos);
    free(s.ps);
    free(s.pe);
    free(s.pf);
    free(s.pt);
    free(s.pn);
    free(s.last);
    free(s.lag);
    free(s.tlag);
    free(s.done);
    free(s.cpu);
    free(tnode);
    free(work);
    return rc;
}

/* Everything after the period: trees with their lags, slots, compute list,
 * buffers, for these operation counts. */
static steady_err_t assemble(steady_schedule_t *sc, const steady_solution_t *s,
                             const steady_trees_t *tr, const long *weight, const int *interval,
                             steady_error_t *err)
{
    const steady_platform_t *p = steady_solution_platform(s);
    steady_err_t rc = copy_trees(sc, s, tr, weight, interval, err);
    if (!rc)
        rc = build_slots(sc, p, interval, err);
    if (!rc) {
        int n = 0;
        for (int i = 0; i < sc->ntrees; i++)
            for (int j = 0; j < sc->trees[i].nsteps; j++)
                n += sc->trees[i].steps[j].kind == STEADY_STEP_COMPUTE;
        sc->compute = calloc((size_t)(n ? n : 1), sizeof *sc->compute);
        if (!sc->compute)
            rc = oom(err);
        for (int i = 0; i < sc->ntrees && !rc; i++)
            for (int j = 0; j < sc->trees[i].nsteps; j++)
                if (sc->trees[i].steps[j].kind == STEADY_STEP_COMPUTE)
                    sc->compute[sc->ncompute++] =
                        (steady_sched_compute_t){.node = sc->trees[i].steps[j].node,
                                                 .tree = i,
                                                 .step = j,
                                                 .count = sc->trees[i].weight};
    }
    if (!rc)
        rc = compute_buffers(sc, p, interval, err);
    return rc;
}

/* The replay decides among the automatic period's candidates: the estimate
 * that ranked them only guesses how long the pipeline takes to fill.  A
 * series that would take more than REPLAY_EVENTS events is extrapolated
 * from shorter runs (steady_schedule_series_makespan): ring-80's scatter
 * has 46 932 transfers per period. */
#define REPLAY_EVENTS 20000000L

/* The series the plan is made for. */
static long series_of(const steady_plan_options_t *opts)
{
    return opts && opts->series > 0 ? opts->series : STEADY_DEFAULT_SERIES;
}

/* Tells the caller how far the plan is (opts->progress). */
static void progress(const steady_plan_options_t *opts, const char *stage, double done,
                     double total)
{
    if (opts && opts->progress)
        opts->progress(opts->progress_ctx, stage, done, total);
}

/* Operations per time unit of x over the series, as replayed. */
static steady_err_t series_rate(const steady_schedule_t *x, const steady_platform_t *p, long series,
                                double *rate, steady_error_t *err)
{
    double makespan = 0;
    steady_err_t rc =
        steady_schedule_series_makespan(x, p, series, REPLAY_EVENTS, &makespan, NULL, err);
    *rate = makespan > 0 ? (double)series / makespan : 0;
    return rc;
}

/* x replaces *best when it runs the series faster (else it is
 * destroyed). */
static steady_err_t keep_faster(steady_schedule_t *x, const steady_platform_t *p, long series,
                                steady_schedule_t **best, double *best_rate, steady_error_t *err)
{
    double rate = 0;
    steady_err_t rc = series_rate(x, p, series, &rate, err);
    if (!rc && rate > *best_rate) {
        *best_rate = rate;
        steady_schedule_destroy(*best);
        *best = x;
    } else {
        steady_schedule_destroy(x);
    }
    return rc;
}

/* Tree phases.  Moving every step of one tree by the same number of
 * periods keeps the lag relations inside the tree, which are all that
 * validity, buffers and the executor's rings depend on: the tree only
 * works on its batches a period earlier or later than the other trees.
 * The steady state does not change, the fill and the drain do: a tree
 * whose last hops are short can run its last batch last, while the
 * bottleneck still works on the others (broadcast on random-6-s4: 0.9762
 * -> 0.9799 of the optimum for 2000 operations, max lag unchanged).
 * Greedy: each tree in turn, a period later, else a period earlier, kept
 * when the series replays faster (by more than 10^-9) with every lag in
 * [0, max_lag]; rounds until one changes nothing, or PHASE_TRIES replays,
 * or PHASE_EVENTS replayed events in all (deterministic: counts, not
 * time).  Each replay costs about as much as one candidate's: the budget
 * keeps the search to a fraction of the plan on small platforms, and a
 * large one (ring-80's scatter: 2.4·10^8 events per series) skips it. */
#define PHASE_EVENTS REPLAY_EVENTS
#define PHASE_TRIES  16

static void shift_tree(steady_sched_tree_t *t, int by)
{
    for (int j = 0; j < t->nsteps; j++)
        t->steps[j].lag += by;
}

static steady_err_t shift_trees(steady_schedule_t *sc, const steady_platform_t *p, long series,
                                double best, steady_error_t *err)
{
    long events = sc->ncompute, K = sc->ops_per_period;
    for (int i = 0; i < sc->nslots; i++)
        events += sc->slots[i].ntransfers;
    long per = (series / K + 1 + sc->max_lag) * events; /* one replay's events */
    long left = PHASE_EVENTS - per;                     /* the first replay, to compare with */
    int tries = PHASE_TRIES;
    if (left < per)
        return STEADY_OK;
    /* best: the series' rate when the candidates' replays gave it, else 0 */
    steady_err_t rc = best > 0 ? STEADY_OK : series_rate(sc, p, series, &best, err);
    for (bool again = true; again && !rc;) {
        again = false;
        for (int i = 0; i < sc->ntrees && !rc; i++) {
            steady_sched_tree_t *t = &sc->trees[i];
            int lo = t->steps[0].lag, hi = lo;
            for (int j = 1; j < t->nsteps; j++) {
                lo = t->steps[j].lag < lo ? t->steps[j].lag : lo;
                hi = t->steps[j].lag > hi ? t->steps[j].lag : hi;
            }
            for (int by = 1; by >= -1 && !rc; by -= 2) {
                if ((by > 0 ? hi + by > sc->max_lag : lo + by < 0) || left < per || tries == 0)
                    continue;
                left -= per;
                tries--;
                double rate = 0;
                shift_tree(t, by);
                rc = series_rate(sc, p, series, &rate, err);
                if (!rc && rate > best * (1 + 1e-9)) {
                    best = rate;
                    again = true;
                    break;
                }
                shift_tree(t, -by);
            }
        }
    }
    /* the deepest tree may have moved a period earlier */
    sc->max_lag = 0;
    for (int i = 0; i < sc->ntrees; i++)
        for (int j = 0; j < sc->trees[i].nsteps; j++)
            if (sc->trees[i].steps[j].lag > sc->max_lag)
                sc->max_lag = sc->trees[i].steps[j].lag;
    return rc;
}

/* Whole counts per period (steady_lp_solve_whole): for K = 1, 2, ..., the
 * shortest period in which a whole number of every message carries
 * exactly K operations.  Unlike the candidates of choose_period(), which
 * round the optimum's trees, these follow no fixed set of trees: where
 * rounding loses a few percent at every short period, a few operations per
 * period can come within 1% of the optimum.  K grows while the estimate of
 * choose_period() could still beat best_score.  The work is bounded in
 * branch-and-cut subproblems, a deterministic budget (a time limit would
 * make the plan depend on the machine): at most WHOLE_NODES per K, and
 * WHOLE_BUDGET / (LP columns) subproblems in all, each K's relaxation
 * counted as WHOLE_SOLVE subproblems; LPs of more than WHOLE_MAX_COLS
 * columns are not tried (each relaxation then costs seconds).  The search
 * takes under a second on the platforms it is tried on.
 * Broadcast and scatter only: on random platforms the branch and cut of
 * the reduce LP took seconds per K and found no counts better than the
 * rounded trees, and that of the gossip LP (one flow per pair) found
 * hardly any counts within its budget (docs/schedule-format.md). */
#define WHOLE_NODES    200
#define WHOLE_SOLVE    10 /* the relaxation of each K, counted as subproblems */
#define WHOLE_BUDGET   300000L
#define WHOLE_MAX_COLS 1000

typedef struct {
    int n;
    steady_solution_t *sol[NCAND];
    double score[NCAND];
} whole_cands_t;

static void whole_free(whole_cands_t *w)
{
    for (int i = 0; i < w->n; i++)
        steady_solution_destroy(w->sol[i]);
    w->n = 0;
}

static steady_err_t whole_search(const steady_solution_t *s, const steady_plan_options_t *opts,
                                 long series, int depth, double best_score, whole_cands_t *w,
                                 steady_error_t *err)
{
    steady_lp_stats_t st;
    steady_solution_stats(s, &st);
    long left = WHOLE_BUDGET / (st.cols > 0 ? st.cols : 1);
    steady_op_t op = steady_solution_op(s);
    if ((op != STEADY_OP_BROADCAST && op != STEADY_OP_SCATTER) || st.cols > WHOLE_MAX_COLS)
        return STEADY_OK;
    mpq_t tp, q;
    mpq_inits(tp, q, NULL);
    steady_solution_throughput(s, tp);
    steady_err_t rc = STEADY_OK;
    for (long k = 1; k <= AUTO_MAX_OPS && !rc && best_score < 1 && left > 0; k++) {
        double batches = (double)series / (double)k;
        double fill = batches / (batches + (depth + 1) / 2.0);
        if (fill <= best_score)
            break;
        steady_solution_t *x;
        long nodes;
        progress(opts, "whole counts, K", (double)k, 0);
        rc = steady_lp_solve_whole(s, k, left < WHOLE_NODES ? left : WHOLE_NODES, NULL, &x, &nodes,
                                   err);
        left -= nodes + WHOLE_SOLVE;
        if (rc != STEADY_ENOMEM)
            rc = STEADY_OK; /* a K that GLPK fails on only gives no candidate */
        if (rc || !x)
            continue;
        steady_solution_throughput(x, q);
        mpq_div(q, q, tp);
        double score = mpq_cmp_ui(q, 1, 1) == 0 ? 1 : mpq_get_d(q) * fill;
        int at = w->n;
        while (at > 0 && w->score[at - 1] < score)
            at--;
        if (at >= NCAND) {
            steady_solution_destroy(x);
            continue;
        }
        if (w->n == NCAND)
            steady_solution_destroy(w->sol[--w->n]);
        memmove(&w->sol[at + 1], &w->sol[at], (size_t)(w->n - at) * sizeof w->sol[0]);
        memmove(&w->score[at + 1], &w->score[at], (size_t)(w->n - at) * sizeof w->score[0]);
        w->sol[at] = x;
        w->score[at] = score;
        w->n++;
        if (score > best_score)
            best_score = score;
    }
    mpq_clears(tp, q, NULL);
    return rc;
}

/* The schedule of a whole-count solution x (its exact period) as a
 * fixed-period schedule of s's problem: the throughput against s's
 * optimum, and §4.6's bound with the larger of the two decompositions'
 * tree counts.  *out is NULL when the loss exceeds that bound, or when the
 * decomposition's weights make the exact period too long (2^40: the only
 * STEADY_EINVAL of an exact solution's schedule). */
static steady_err_t build(const steady_solution_t *s, const steady_plan_options_t *opts,
                          steady_schedule_t **out, double *rate, steady_error_t *err);

static steady_err_t whole_schedule(const steady_solution_t *s, int ntrees,
                                   const steady_solution_t *x, const steady_plan_options_t *opts,
                                   steady_schedule_t **out, steady_error_t *err)
{
    steady_plan_options_t exact = {.period = STEADY_PERIOD_EXACT,
                                   .cost_model = opts ? opts->cost_model : STEADY_COST_RENDEZVOUS};
    steady_err_t rc = build(x, &exact, out, NULL, err);
    if (rc == STEADY_EINVAL)
        return STEADY_OK;
    if (rc)
        return rc;
    steady_schedule_t *sc = *out;
    steady_solution_throughput(s, sc->optimum);
    sc->fixed_period = true;
    set_rates(sc, ntrees > sc->ntrees ? ntrees : sc->ntrees);
    if (mpq_cmp(sc->loss, sc->loss_bound) > 0) {
        steady_schedule_destroy(sc);
        *out = NULL;
    }
    return STEADY_OK;
}

/* Builds and replays every candidate of both kinds, and keeps the fastest. */
static steady_err_t pick_by_replay(const steady_solution_t *s, const steady_plan_options_t *opts,
                                   const steady_trees_t *tr, const int *interval,
                                   const candidates_t *cands, const whole_cands_t *whole,
                                   long series, steady_schedule_t **best, double *best_rate,
                                   steady_error_t *err)
{
    const steady_platform_t *p = steady_solution_platform(s);
    steady_err_t rc = STEADY_OK;
    *best_rate = -1;
    *best = NULL;
    double total = cands->n + whole->n;
    for (int c = 0; c < cands->n && !rc; c++) {
        progress(opts, "period candidates, built and replayed", c, total);
        steady_schedule_t *x = schedule_new();
        rc = x ? fill_header(x, s, opts, err) : oom(err);
        if (!rc) {
            mpq_set(x->period, cands->period[c]);
            x->ops_per_period = cands->ops[c];
            x->fixed_period = true;
            set_rates(x, tr->ntrees);
            rc = assemble(x, s, tr, cands->weight[c], interval, err);
        }
        if (rc)
            steady_schedule_destroy(x);
        else
            rc = keep_faster(x, p, series, best, best_rate, err);
    }
    for (int c = 0; c < whole->n && !rc; c++) {
        progress(opts, "period candidates, built and replayed", cands->n + c, total);
        steady_schedule_t *x;
        if (!(rc = whole_schedule(s, tr->ntrees, whole->sol[c], opts, &x, err)) && x)
            rc = keep_faster(x, p, series, best, best_rate, err);
    }
    if (rc) {
        steady_schedule_destroy(*best);
        *best = NULL;
    }
    return rc;
}

/* steady_schedule_build without the tree phases; *rate (if not NULL) gets
 * the rate the series was replayed at when candidates were compared, else
 * 0. */
static steady_err_t build(const steady_solution_t *s, const steady_plan_options_t *opts,
                          steady_schedule_t **out, double *rate, steady_error_t *err)
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
    steady_trees_t *tr = NULL;
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
    progress(opts, "trees", -1, 0);
    if (!rc)
        rc = steady_trees_decompose(s, &tr, err);
    if (!rc && !(weight = calloc((size_t)(tr->ntrees ? tr->ntrees : 1), sizeof *weight)))
        rc = oom(err);
    /* the deepest tree's lag, for the automatic period: every tree once */
    int depth = 0;
    for (int i = 0; !rc && i < tr->ntrees; i++)
        weight[i] = 1;
    if (!rc && (rc = copy_trees(sc, s, tr, weight, interval, err)) == STEADY_OK) {
        depth = sc->max_lag;
        for (int i = 0; i < sc->ntrees; i++)
            free(sc->trees[i].steps);
        free(sc->trees);
        sc->trees = NULL;
        sc->ntrees = sc->max_lag = 0;
    }
    if (!rc)
        rc = choose_period(sc, s, tr, period, series, depth, weight, &cands, err);
    if (!rc && period == STEADY_PERIOD_AUTO && cands.score[0] < 1)
        rc = whole_search(s, opts, series, depth, cands.score[0], &whole, err);
    double best_rate = 0;
    if (!rc && cands.n + whole.n > 1) {
        steady_schedule_t *best;
        if (!(rc = pick_by_replay(s, opts, tr, interval, &cands, &whole, series, &best, &best_rate,
                                  err))) {
            steady_schedule_destroy(sc);
            sc = best;
        }
    } else if (!rc) {
        rc = assemble(sc, s, tr, weight, interval, err);
    }
    candidates_free(&cands);
    whole_free(&whole);
    free(interval);
    free(weight);
    steady_trees_destroy(tr);
    if (rc) {
        steady_schedule_destroy(sc);
        return rc;
    }
    *out = sc;
    if (rate)
        *rate = best_rate > 0 ? best_rate : 0;
    return STEADY_OK;
}

steady_err_t steady_schedule_build(const steady_solution_t *s, const steady_plan_options_t *opts,
                                   steady_schedule_t **out, steady_error_t *err)
{
    double rate = 0;
    steady_err_t rc = build(s, opts, out, &rate, err);
    if (rc)
        return rc;
    progress(opts, "tree phases", -1, 0);
    rc = shift_trees(*out, steady_solution_platform(s), series_of(opts), rate, err);
    if (rc) {
        steady_schedule_destroy(*out);
        *out = NULL;
    }
    return rc;
}

/* Whether a message of `size` bytes cuts into m segments of whole 8-byte
 * words (the words the executor's payloads and reductions work on). */
static bool cuts_into(double size, long m)
{
    double seg = size / (double)m;
    return seg >= 8 && seg == floor(seg) && fmod(seg, 8) == 0;
}

/* The schedule of s's series in m segments. */
static steady_err_t plan_segments(const steady_solution_t *s, long m,
                                  const steady_solve_options_t *sopts,
                                  const steady_plan_options_t *opts, steady_schedule_t **out,
                                  steady_error_t *err)
{
    steady_solution_t *seg = NULL;
    steady_plan_options_t o = opts ? *opts : (steady_plan_options_t){0};
    o.series = series_of(opts) * m;
    steady_err_t rc = m == 1 ? STEADY_OK : steady_lp_solve_segment(s, m, sopts, &seg, err);
    if (!rc)
        rc = steady_schedule_build(m == 1 ? s : seg, &o, out, err);
    if (!rc)
        (*out)->segments = m;
    steady_solution_destroy(seg);
    return rc;
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
    if (want > 0)
        return plan_segments(s, want, sopts, opts, out, err);
    /* the most segments allowed, then fewer while the series is not slower */
    long most = 1;
    if ((!opts || opts->period == STEADY_PERIOD_AUTO) && !steady_platform_is_abstract(p))
        while (2 * most <= STEADY_MAX_SEGMENTS && size / (double)(2 * most) >= STEADY_MIN_SEGMENT &&
               cuts_into(size, 2 * most))
            most *= 2;
    long series = series_of(opts);
    double best_makespan = 0;
    steady_err_t rc = STEADY_OK;
    for (long m = most; !rc && m >= 1; m /= 2) {
        steady_schedule_t *sc = NULL;
        double makespan = 0;
        rc = plan_segments(s, m, sopts, opts, &sc, err);
        if (!rc && most > 1)
            rc =
                steady_schedule_series_makespan(sc, p, series, REPLAY_EVENTS, &makespan, NULL, err);
        bool keep = !rc && (!*out || makespan <= best_makespan * (1 + 1e-9));
        if (keep) {
            steady_schedule_destroy(*out);
            *out = sc;
            best_makespan = makespan;
        } else {
            steady_schedule_destroy(sc);
        }
        if (!keep)
            break;
    }
    if (rc) {
        steady_schedule_destroy(*out);
        *out = NULL;
    }
    return rc;
}
