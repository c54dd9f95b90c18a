/*
 * plan_period.c — the period and the operations each tree runs in it:
 * exact, fixed (§4.6) or automatic (a few candidates by an estimate, and
 * whole counts per period from the LP), see plan_choose_period() below.
 */
#define _POSIX_C_SOURCE 200809L
#include "plan.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    double *approx; /* amount, in doubles */
    /* under the rendezvous cost model: the latency the tree's sends hold
     * each port for, once per period (a step's messages of a period go as
     * one MPI message at best): nlat (port, latency) pairs */
    int nlat;
    int *lport;
    double *lat;
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
        free(loads[i].approx);
        free(loads[i].lport);
        free(loads[i].lat);
    }
    free(loads);
}

static tree_load_t *tree_loads(const steady_schedule_t *sc, const steady_solution_t *s,
                               const steady_trees_t *tr)
{
    const steady_platform_t *p = steady_solution_platform(s);
    int nv = steady_platform_node_count(p), np = load_count(p);
    double size = steady_solution_msg_size(s);
    bool rendezvous = sc->cost_model == STEADY_COST_RENDEZVOUS;
    tree_load_t *loads = calloc((size_t)(tr->ntrees ? tr->ntrees : 1), sizeof *loads);
    mpq_t *dense = malloc((size_t)np * sizeof *dense);
    double *dlat = calloc((size_t)np, sizeof *dlat);
    if (!loads || !dense || !dlat) {
        free(loads);
        free(dense);
        free(dlat);
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
                if (rendezvous) {
                    double l = steady_hop_latency(p, h);
                    dlat[h->src] += l;
                    dlat[nv + h->dst] += l;
                }
                int edge;
                const steady_use_t *u;
                steady_loads_t it;
                steady_loads_start(&it, p, h->edges, h->nedges);
                while (steady_loads_next(&it, &edge, &u)) {
                    steady_exact_use_time(p, edge, u, size, c);
                    mpq_add(dense[3 * nv + u->resource], dense[3 * nv + u->resource], c);
                }
            } else {
                steady_exact_task_time(p, st->node, steady_solution_task_cost(s), c);
                mpq_add(dense[2 * nv + st->node], dense[2 * nv + st->node], c);
            }
        }
        int n = 0, nl = 0;
        for (int x = 0; x < np; x++) {
            n += mpq_sgn(dense[x]) != 0;
            nl += dlat[x] > 0;
        }
        loads[i].port = malloc((size_t)(n ? n : 1) * sizeof(int));
        loads[i].amount = malloc((size_t)(n ? n : 1) * sizeof(mpq_t));
        loads[i].approx = malloc((size_t)(n ? n : 1) * sizeof(double));
        loads[i].lport = malloc((size_t)(nl ? nl : 1) * sizeof(int));
        loads[i].lat = malloc((size_t)(nl ? nl : 1) * sizeof(double));
        ok = loads[i].port && loads[i].amount && loads[i].approx && loads[i].lport && loads[i].lat;
        for (int x = 0; x < np && ok; x++) {
            if (mpq_sgn(dense[x]) != 0) {
                loads[i].port[loads[i].n] = x;
                loads[i].approx[loads[i].n] = mpq_get_d(dense[x]);
                mpq_init(loads[i].amount[loads[i].n]);
                mpq_swap(loads[i].amount[loads[i].n++], dense[x]);
                mpq_set_ui(dense[x], 0, 1);
            }
            if (dlat[x] > 0) {
                loads[i].lport[loads[i].nlat] = x;
                loads[i].lat[loads[i].nlat++] = dlat[x];
                dlat[x] = 0;
            }
        }
    }
    for (int x = 0; x < np; x++)
        mpq_clear(dense[x]);
    free(dense);
    free(dlat);
    mpq_clear(c);
    if (!ok) {
        loads_free(loads, tr->ntrees);
        return NULL;
    }
    return loads;
}

/* The trees of each group: tree[first[g] .. first[g + 1]) (a scatter has
 * a group per target: scanning every tree per group would be quadratic). */
typedef struct {
    int *first, *tree;
} groups_t;

static bool groups_init(groups_t *g, const steady_schedule_t *sc, const steady_trees_t *tr)
{
    int ng = group_count(sc);
    g->first = calloc((size_t)ng + 2, sizeof *g->first);
    g->tree = malloc((size_t)(tr->ntrees ? tr->ntrees : 1) * sizeof *g->tree);
    if (!g->first || !g->tree)
        return false;
    for (int i = 0; i < tr->ntrees; i++)
        g->first[tree_group(sc, &tr->trees[i]) + 2]++;
    for (int x = 0; x < ng; x++)
        g->first[x + 2] += g->first[x + 1];
    for (int i = 0; i < tr->ntrees; i++)
        g->tree[g->first[tree_group(sc, &tr->trees[i]) + 1]++] = i;
    return true;
}

static void groups_free(groups_t *g)
{
    free(g->first);
    free(g->tree);
}

/* Each port's loads: loads[tree[y]].amount[at[y]] for y in first[x] ..
 * first[x + 1], to sum a port's load exactly (port_load()) when the
 * doubles cannot decide. */
typedef struct {
    int *first, *tree, *at;
} port_index_t;

static void port_index_free(port_index_t *ix)
{
    free(ix->first);
    free(ix->tree);
    free(ix->at);
}

static bool port_index_init(port_index_t *ix, const tree_load_t *loads, int ntrees, int nports)
{
    size_t n = 0;
    for (int i = 0; i < ntrees; i++)
        n += (size_t)loads[i].n;
    ix->first = calloc((size_t)nports + 2, sizeof *ix->first);
    ix->tree = malloc((n + 1) * sizeof *ix->tree);
    ix->at = malloc((n + 1) * sizeof *ix->at);
    if (!ix->first || !ix->tree || !ix->at)
        return false;
    for (int i = 0; i < ntrees; i++)
        for (int x = 0; x < loads[i].n; x++)
            ix->first[loads[i].port[x] + 2]++;
    for (int x = 0; x < nports; x++)
        ix->first[x + 2] += ix->first[x + 1];
    for (int i = 0; i < ntrees; i++)
        for (int x = 0; x < loads[i].n; x++) {
            int y = ix->first[loads[i].port[x] + 1]++;
            ix->tree[y] = i;
            ix->at[y] = x;
        }
    return true;
}

/* Port loads summed in doubles (truncated rationals, up to a port's trees
 * of them) decide a comparison beyond this relative margin; within it,
 * the exact load does.  A 1,000-node scatter's loads are rationals of
 * 300 digits: summing them exactly for every candidate K was a sixth of
 * its plan. */
#define LOAD_SLACK 1e-9

/* Port x's exact load under `weight`, plus `extra` (may be NULL). */
static void port_load(const port_index_t *ix, const tree_load_t *loads, const long *weight, int x,
                      mpq_srcptr extra, mpq_t load, mpq_t scratch)
{
    if (extra)
        mpq_set(load, extra);
    else
        mpq_set_ui(load, 0, 1);
    for (int y = ix->first[x]; y < ix->first[x + 1]; y++) {
        mpq_set_si(scratch, weight[ix->tree[y]], 1);
        mpq_mul(scratch, scratch, loads[ix->tree[y]].amount[ix->at[y]]);
        mpq_add(load, load, scratch);
    }
}

/* Whether port x, whose load under `weight` plus `extra` is `with` in
 * doubles, fits in T (Td in doubles). */
static bool port_fits(const port_index_t *ix, const tree_load_t *loads, const long *weight, int x,
                      double with, mpq_srcptr extra, const mpq_t T, double Td, mpq_t load,
                      mpq_t scratch)
{
    if (with <= Td * (1 - LOAD_SLACK))
        return true;
    if (with >= Td * (1 + LOAD_SLACK))
        return false;
    port_load(ix, loads, weight, x, extra, load, scratch);
    return mpq_cmp(load, T) <= 0;
}

/* Operations per period of each tree in a period of length T: §4.6's
 * floor(w_i T), made equal across groups (each scatter/gossip type carries
 * every operation once), then one more operation at a time while every
 * port and processor still fits in the period: the floors leave up to one
 * operation per tree unused, and the ports that are not saturated can
 * often take it.  Returns the operations per period (-1: out of memory). */
static long fill_period(const steady_schedule_t *sc, const steady_trees_t *tr,
                        const tree_load_t *loads, const groups_t *gr, const port_index_t *ix,
                        int nports, const mpq_t T, long *weight)
{
    int ngroups = group_count(sc), nt = tr->ntrees;
    long *group_ops = calloc((size_t)ngroups, sizeof *group_ops);
    int *pick = malloc((size_t)ngroups * sizeof *pick);
    double *used = calloc((size_t)nports + 1, sizeof *used);
    mpq_t *share = malloc((size_t)(nt ? nt : 1) * sizeof *share); /* w_i T */
    double *dshare = malloc((size_t)(nt ? nt : 1) * sizeof *dshare);
    if (!group_ops || !pick || !used || !share || !dshare) {
        free(group_ops);
        free(pick);
        free(used);
        free(share);
        free(dshare);
        return -1;
    }
    mpq_t q, room;
    mpz_t f;
    mpq_inits(q, room, NULL);
    mpz_init(f);
    double Td = mpq_get_d(T);
    for (int i = 0; i < nt; i++) {
        mpq_init(share[i]);
        mpq_mul(share[i], tr->trees[i].weight, T);
        dshare[i] = mpq_get_d(share[i]);
        mpz_fdiv_q(f, mpq_numref(share[i]), mpq_denref(share[i]));
        weight[i] = mpz_get_si(f);
        group_ops[tree_group(sc, &tr->trees[i])] += weight[i];
    }
    long k = group_ops[0];
    for (int g = 1; g < ngroups; g++)
        if (group_ops[g] < k)
            k = group_ops[g];
    for (int i = nt - 1; i >= 0; i--) {
        long *surplus = &group_ops[tree_group(sc, &tr->trees[i])];
        long cut = *surplus - k < weight[i] ? *surplus - k : weight[i];
        weight[i] -= cut;
        *surplus -= cut;
    }
    for (int i = 0; i < nt; i++)
        for (int x = 0; x < loads[i].n; x++)
            used[loads[i].port[x]] += (double)weight[i] * loads[i].approx[x];
    for (;;) {
        /* one more operation: in each group, the fitting tree furthest
         * below its share w_i T, taken tentatively */
        int ng = 0;
        for (int grp = 0; grp < ngroups; grp++, ng++) {
            int best = -1;
            for (int y = gr->first[grp]; y < gr->first[grp + 1]; y++) {
                int i = gr->tree[y];
                bool fits = true;
                for (int x = 0; x < loads[i].n && fits; x++)
                    fits = port_fits(ix, loads, weight, loads[i].port[x],
                                     used[loads[i].port[x]] + loads[i].approx[x],
                                     loads[i].amount[x], T, Td, room, q);
                if (!fits)
                    continue;
                double d = dshare[i] - (double)weight[i];
                double db = best < 0 ? 0 : dshare[best] - (double)weight[best];
                double margin =
                    LOAD_SLACK * (fabs(dshare[i]) + (best < 0 ? 0 : fabs(dshare[best])) + 1);
                bool better = best < 0 || d - db > margin;
                if (best >= 0 && !better && db - d <= margin) {
                    mpq_set_si(q, weight[i], 1);
                    mpq_sub(q, share[i], q);
                    mpq_set_si(room, weight[best], 1);
                    mpq_sub(room, share[best], room);
                    better = mpq_cmp(q, room) > 0;
                }
                if (better)
                    best = i;
            }
            if ((pick[grp] = best) < 0)
                break;
            weight[best]++;
            for (int x = 0; x < loads[best].n; x++)
                used[loads[best].port[x]] += loads[best].approx[x];
        }
        if (ng < ngroups) { /* some group has no room: undo the round */
            for (int grp = 0; grp < ng; grp++) {
                weight[pick[grp]]--;
                for (int x = 0; x < loads[pick[grp]].n; x++)
                    used[loads[pick[grp]].port[x]] -= loads[pick[grp]].approx[x];
            }
            break;
        }
        k++;
    }
    for (int i = 0; i < nt; i++)
        mpq_clear(share[i]);
    mpq_clears(q, room, NULL);
    mpz_clear(f);
    free(share);
    free(dshare);
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
                         const tree_load_t *loads, const groups_t *gr, const port_index_t *ix,
                         int nports, long k, long *weight, mpq_t T)
{
    mpq_t share, frac, best_frac, load;
    mpq_inits(share, frac, best_frac, load, NULL);
    double *used = calloc((size_t)nports + 1, sizeof *used);
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
            for (int y = gr->first[g]; y < gr->first[g + 1]; y++) {
                int i = gr->tree[y];
                if (bumped[i])
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
    if (ok) { /* the busiest port: in doubles, then exactly among the near-busiest */
        double most = 0;
        for (int i = 0; i < tr->ntrees; i++)
            for (int x = 0; x < loads[i].n; x++)
                used[loads[i].port[x]] += (double)weight[i] * loads[i].approx[x];
        for (int x = 0; x < nports; x++)
            most = used[x] > most ? used[x] : most;
        mpq_set_ui(T, 0, 1);
        for (int x = 0; x < nports; x++) {
            if (used[x] < most * (1 - LOAD_SLACK))
                continue;
            port_load(ix, loads, weight, x, NULL, load, share);
            if (mpq_cmp(load, T) > 0)
                mpq_set(T, load);
        }
    }
    free(used);
    free(left);
    free(bumped);
    mpq_clears(share, frac, best_frac, load, NULL);
    return ok;
}

/* The period that `weight` operations per tree take when, under the
 * rendezvous cost model, every port also holds the latency of each send
 * step a tree with operations makes through it (one MPI message per step
 * per period, at best), in doubles: at least T, the transfers' period.
 * busy: nports doubles, scratch. */
static double latency_period(const tree_load_t *loads, int ntrees, const long *weight, int nports,
                             const mpq_t T, double *busy)
{
    double period = mpq_get_d(T);
    bool any = false;
    for (int i = 0; i < ntrees && !any; i++)
        any = weight[i] > 0 && loads[i].nlat > 0;
    if (!any)
        return period;
    for (int x = 0; x < nports; x++)
        busy[x] = 0;
    for (int i = 0; i < ntrees; i++) {
        if (weight[i] <= 0)
            continue;
        for (int x = 0; x < loads[i].n; x++)
            busy[loads[i].port[x]] += (double)weight[i] * loads[i].approx[x];
        for (int x = 0; x < loads[i].nlat; x++)
            busy[loads[i].lport[x]] += loads[i].lat[x];
    }
    for (int x = 0; x < nports; x++)
        period = busy[x] > period ? busy[x] : period;
    return period;
}

/* The rates that follow from period and ops_per_period. */
void plan_set_rates(steady_schedule_t *sc, int ntrees)
{
    mpq_set_si(sc->throughput, sc->ops_per_period, 1);
    mpq_div(sc->throughput, sc->throughput, sc->period);
    if (sc->fixed_period) {
        mpq_sub(sc->loss, sc->optimum, sc->throughput);
        mpq_set_si(sc->loss_bound, ntrees, 1);
        mpq_div(sc->loss_bound, sc->loss_bound, sc->period);
    }
}

void plan_candidates_free(candidates_t *c)
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
 *           L the deepest tree's lag: the throughput (under rendezvous,
 *           with each port holding once per period the latency of every
 *           send step through it: latency_period()), discounted by the
 *           periods the pipeline takes to fill and drain; the best NCAND are
 *           then built and replayed, which measures what the estimate
 *           guesses.  Few operations per period keep the pipeline short;
 *           many let the integer counts follow the optimum's mix of trees;
 *           and the exact period of a platform with measured bandwidths
 *           often holds billions of operations. */
steady_err_t plan_choose_period(steady_schedule_t *sc, const steady_solution_t *s,
                                const steady_trees_t *tr, double period, long series, int depth,
                                long *weight, candidates_t *cands, steady_error_t *err)
{
    steady_err_t rc = STEADY_OK;
    int nports = load_count(steady_solution_platform(s));
    tree_load_t *loads = NULL;
    groups_t groups = {0};
    port_index_t ports = {0};
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
        long times = period <= -1 ? lround(-period) : 1; /* -K: K exact periods */
        mpz_mul_si(l, l, times);
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
        if (!(loads = tree_loads(sc, s, tr)) || !groups_init(&groups, sc, tr) ||
            !port_index_init(&ports, loads, tr->ntrees, nports)) {
            rc = oom(err);
            goto cleanup;
        }
        sc->fixed_period = true;
        if (period > 0) {
            steady_exact_decimal(sc->period, period);
            sc->ops_per_period =
                fill_period(sc, tr, loads, &groups, &ports, nports, sc->period, weight);
        } else {
            /* for each K, two candidates: the period K / TP filled with
             * whole operations, and exactly K operations in the shortest
             * period they fit (kept only within §4.6's loss bound) */
            double best_score = -1, tp = mpq_get_d(sc->optimum);
            long best = -1;
            double *busy = malloc((size_t)nports * sizeof *busy);
            if (!busy) {
                rc = oom(err);
                goto cleanup;
            }
            for (long k = 1; k <= AUTO_MAX_OPS; k++) {
                /* no candidate of k operations scores above its fill */
                double batches = (double)series / (double)k;
                double fill = batches / (batches + (depth + 1) / 2.0);
                if (fill <= best_score)
                    break;
                for (int kind = 0; kind < 2; kind++) {
                    long got;
                    if (kind == 0) {
                        mpq_set_si(T, k, 1);
                        mpq_div(T, T, sc->optimum);
                        got = fill_period(sc, tr, loads, &groups, &ports, nports, T, trial);
                    } else {
                        got = round_period(sc, tr, loads, &groups, &ports, nports, k, trial, T)
                                  ? k
                                  : -1;
                        mpq_set_si(q, k, 1); /* loss = TP - k / T <= #trees / T */
                        mpq_div(q, q, T);
                        mpq_sub(q, sc->optimum, q);
                        mpq_mul(q, q, T);
                        if (got > 0 && mpq_cmp_si(q, tr->ntrees, 1) > 0)
                            continue;
                    }
                    if (got < 0) {
                        free(busy);
                        rc = oom(err);
                        goto cleanup;
                    }
                    if (got == 0)
                        continue;
                    /* the share of the optimum, the latencies held counted,
                     * discounted by the pipeline's fill */
                    mpq_set_si(q, got, 1);
                    mpq_div(q, q, T);
                    mpq_div(q, q, sc->optimum);
                    double held = latency_period(loads, tr->ntrees, trial, nports, T, busy);
                    double share = held > mpq_get_d(T) ? (double)got / held / tp : mpq_get_d(q);
                    double b = (double)series / (double)got;
                    double score = share * b / (b + (depth + 1) / 2.0);
                    if (held <= mpq_get_d(T) && mpq_cmp_ui(q, 1, 1) == 0)
                        score = 1; /* the optimum itself: no longer period is better */
                    if (!candidates_offer(cands, tr->ntrees, trial, T, got, score)) {
                        free(busy);
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
            free(busy);
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
    plan_set_rates(sc, tr->ntrees);

cleanup:
    loads_free(loads, tr->ntrees);
    groups_free(&groups);
    port_index_free(&ports);
    free(trial);
    mpz_clears(l, g, c, NULL);
    mpq_clears(q, T, NULL);
    return rc;
}

/* Whole counts per period (steady_lp_solve_whole): for K = 1, 2, ..., the
 * shortest period in which a whole number of every message carries
 * exactly K operations.  Unlike the candidates of plan_choose_period(), which
 * round the optimum's trees, these follow no fixed set of trees: where
 * rounding loses a few percent at every short period, a few operations per
 * period can come within 1% of the optimum.  K grows while the estimate of
 * plan_choose_period() could still beat best_score.  The work is bounded in
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

void plan_whole_free(whole_cands_t *w)
{
    for (int i = 0; i < w->n; i++)
        if (i == 0 || w->sol[i] != w->sol[i - 1])
            steady_solution_destroy(w->sol[i]);
    w->n = 0;
}

steady_err_t plan_whole_search(const steady_solution_t *s, const steady_plan_options_t *opts,
                               long series, int depth, double best_score, whole_cands_t *w,
                               steady_error_t *err)
{
    /* the branch and cut runs on the per-type LP, whatever formulation
     * s was solved in: hops x types columns */
    int ntargets = 0;
    steady_solution_targets(s, &ntargets);
    steady_op_t op = steady_solution_op(s);
    long cols = (long)steady_hop_graph_count(steady_solution_hops(s)) *
                (op == STEADY_OP_BROADCAST ? ntargets : steady_solution_type_count(s));
    long left = WHOLE_BUDGET / (cols > 0 ? cols : 1);
    if ((op != STEADY_OP_BROADCAST && op != STEADY_OP_SCATTER) || cols > WHOLE_MAX_COLS)
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
        memmove(&w->repeat[at + 1], &w->repeat[at], (size_t)(w->n - at) * sizeof w->repeat[0]);
        w->sol[at] = x;
        w->score[at] = score;
        w->repeat[at] = 1;
        w->n++;
        if (score > best_score)
            best_score = score;
    }
    mpq_clears(tp, q, NULL);
    return rc;
}
