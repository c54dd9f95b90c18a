/*
 * plan_order.c — the order of the period's slots and the lags it allows
 * (same-period forwarding).
 */
#define _POSIX_C_SOURCE 200809L
#include "../common/exact.h"
#include "plan.h"
#include "replay.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
 * several depths), so plan_order_slots() searches: a few orders by the slots'
 * hop depths, then moves of one slot at a time while the pipeline gets
 * shorter (the largest lag, then the trees' lags weighted by their
 * operations).  The search uses doubles; plan_set_lags() then decides each lag
 * exactly, as `steady check` does. */

/* The producers of each step's inputs (flat indices base[i] + j, -1 for an
 * initial value), at most two. */
steady_err_t plan_step_producers(const steady_schedule_t *sc, const steady_platform_t *p,
                                 const int *interval, const int *base, int (*prod)[2],
                                 steady_error_t *err)
{
    int nv = steady_platform_node_count(p), nt = sc->ntypes;
    int *producer = malloc((size_t)nv * nt * sizeof *producer + 1);
    if (!producer)
        return oom(err);
    /* set once, then reset where each tree wrote: O(steps), not
     * O(trees x nodes x types) (a scatter has a type per target) */
    for (size_t x = 0; x < (size_t)nv * nt; x++)
        producer[x] = -1;
    for (int i = 0; i < sc->ntrees; i++) {
        const steady_sched_tree_t *tr = &sc->trees[i];
        int ins[2][2], nin, out_node, out_type;
        for (int j = 0; j < tr->nsteps; j++) {
            plan_step_io(sc, p, interval, sc->nsources, &tr->steps[j], ins, &nin, &out_node,
                         &out_type);
            prod[base[i] + j][0] = prod[base[i] + j][1] = -1;
            for (int x = 0; x < nin; x++)
                prod[base[i] + j][x] = producer[ins[x][0] * nt + ins[x][1]];
            producer[out_node * nt + out_type] = base[i] + j;
        }
        for (int j = 0; j < tr->nsteps; j++) {
            plan_step_io(sc, p, interval, sc->nsources, &tr->steps[j], ins, &nin, &out_node,
                         &out_type);
            producer[out_node * nt + out_type] = -1;
        }
    }
    free(producer);
    return STEADY_OK;
}

/* True when every part of send step f starts after the parts of send step
 * g carrying the same message positions have arrived (exact; the doubles
 * of s->xpos and s->xslot settle most comparisons, common/exact.h). */
static bool same_period_ok(const search_t *s, int f, int g, const steady_sched_step_t *gs)
{
    const steady_schedule_t *sc = s->sc;
    mpq_t arrive, lat;
    mpq_inits(arrive, lat, NULL);
    steady_hop_t h = {.nedges = 0};
    h.edges = (int *)steady_sched_step_edges(sc, gs, &h.nedges);
    steady_exact_hop_latency(s->p, &h, lat);
    double dlat = mpq_get_d(lat);
    bool ok = true;
    /* both steps' parts tile the positions, in order: walk them together */
    for (int a = s->xfirst[f], b = s->xfirst[g];
         ok && a < s->xfirst[f + 1] && b < s->xfirst[g + 1];) {
        const steady_sched_slot_t *sa = &sc->slots[s->xpiece[a][0]];
        const steady_sched_transfer_t *ta = &sa->transfers[s->xpiece[a][1]];
        const steady_sched_slot_t *sb = &sc->slots[s->xpiece[b][0]];
        const steady_sched_transfer_t *tb = &sb->transfers[s->xpiece[b][1]];
        if (qcmp_d(tb->from, s->xpos[b][0], ta->to, s->xpos[a][1]) < 0 &&
            qcmp_d(ta->from, s->xpos[a][0], tb->to, s->xpos[b][1]) < 0) {
            int sign = qsum_sign(s->xslot[s->xpiece[b][0]][1] + dlat, s->xslot[s->xpiece[a][0]][0]);
            if (sign == 0) {
                mpq_add(arrive, sb->start, sb->duration);
                mpq_add(arrive, arrive, lat);
                sign = mpq_cmp(arrive, sa->start);
            }
            ok = sign <= 0;
        }
        if (qcmp_d(ta->to, s->xpos[a][1], tb->to, s->xpos[b][1]) <= 0)
            a++;
        else
            b++;
    }
    mpq_clears(arrive, lat, NULL);
    return ok;
}

typedef struct {
    int max_lag;
    /* rendezvous: the latency the period's messages hold ports for, each
     * comm paying its hop's latency once per message (below) */
    double latency;
    /* the MPI messages of the period (steady_schedule_message_ids): runs
     * of consecutive slots that carry a comm, cut where a part waits for a
     * producer's part that is not sent before the run starts */
    long runs;
    long tree_lags; /* sum over trees of weight x the tree's largest lag */
    long step_lags; /* sum over steps of weight x lag */
} order_score_t;

/* Fewer periods of lag first (the buffers), then less latency held (the
 * throughput, under rendezvous), then fewer messages (the cost each one
 * has beyond the model: docs/schedule-format.md), then the lags' sums. */
static bool score_better(order_score_t a, order_score_t b)
{
    if (a.max_lag != b.max_lag)
        return a.max_lag < b.max_lag;
    if (a.runs != b.runs)
        return a.runs < b.runs;
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
    }
    order_score_t sc = {0, 0, 0, 0, 0};
    bool rendezvous = s->sc->cost_model == STEADY_COST_RENDEZVOUS;
    for (int r = 0; r < s->nslots; r++) {
        int x = order[r];
        for (int y = s->sfirst[x]; y < s->sfirst[x + 1]; y++) {
            int c = s->scomm[y], k = s->pfirst[c] + s->pn[c]++;
            s->pr[k] = r;
            s->dpos[k] = -1;
            s->ps[k] = s->start[x];
            s->pe[k] = s->start[x] + s->dur[x];
            s->pf[k] = s->pos[c];
            s->pos[c] += s->stime[y] / s->cost[c];
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
                        s, f, g, &s->sc->trees[s->tree_of[g]].steps[g - s->base[s->tree_of[g]]]);
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
        /* a part that waits for a producer's part of the same period, in
         * the slot at dpos or before (steady_schedule_message_ids) */
        for (int k = 0; k < 2 && cf >= 0; k++) {
            int g = s->prod[f][k], cg = g >= 0 ? s->comm_of[g] : -1;
            if (cg < 0 || s->lag[g] != lag)
                continue;
            for (int a = s->pfirst[cf], b = s->pfirst[cg];
                 a < s->pfirst[cf + 1] && b < s->pfirst[cg + 1];) {
                if (s->pf[b] < s->pt[a] - 1e-9 && s->pf[a] < s->pt[b] - 1e-9 &&
                    s->pr[b] > s->dpos[a])
                    s->dpos[a] = s->pr[b];
                if (s->pt[a] <= s->pt[b])
                    a++;
                else
                    b++;
            }
        }
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
    /* the messages (replay_prepare.c's joins()): a comm's part in the slot after
     * its previous part continues that part's message when the latency is
     * worth it (JOIN_LATENCY_SHARE) or it sends the source's data, which
     * nothing forwards in the same period, over a hop with a latency; and
     * it waits for no producer's part of the same period that is not sent
     * before the message starts */
    for (int f = 0; f < s->nflat; f++)
        s->fwd[f] = false;
    for (int g = 0; g < s->nflat; g++)
        for (int k = 0; k < 2; k++)
            if (s->prod[g][k] >= 0 && s->lag[s->prod[g][k]] == s->lag[g])
                s->fwd[s->prod[g][k]] = true;
    for (int f = 0; f < s->nflat; f++) {
        int c = s->comm_of[f];
        if (c < 0)
            continue;
        bool initial = s->prod[f][0] < 0 && s->prod[f][1] < 0 && !s->fwd[f] && s->lat[c] > 0;
        for (int k = s->pfirst[c], at = -1; k < s->pfirst[c + 1]; k++) {
            if (k > s->pfirst[c] && s->pr[k] == s->pr[k - 1] + 1 && s->dpos[k] < at &&
                (initial ||
                 s->lat[c] >= JOIN_LATENCY_SHARE * s->cost[c] *
                                  fmin(s->pt[k] - s->pf[k], s->pt[k - 1] - s->pf[k - 1])))
                continue;
            at = s->pr[k];
            sc.runs++;
            if (rendezvous)
                sc.latency += s->lat[c];
        }
    }
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
 * evaluation looks at every piece and every overlapping pair): about 25 ms
 * per candidate period, which the planner builds a dozen of per segment
 * count (4·10^7 took more than half of a 12-node broadcast's plan; with
 * a quarter of it, the plans of tests/e2e/messages.sh and plan.sh keep
 * their messages and replay ratios). */
#define ORDER_BUDGET 10000000L

/* Chooses the order of the slots (order[position] = slot).  depth[f] is
 * the step's hop depth (one period per send, the rule without
 * forwarding). */
steady_err_t plan_order_slots(search_t *s, const int *depth, int *order, steady_error_t *err)
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
    /* local search: move one slot elsewhere while it helps, when the
     * budget lets it try every place for a slot (a partial sweep moves the
     * first slot a few places at most: on a 1,000-node period, 4 of 15 000,
     * a tenth of the plan's time) */
    long work = 0, per = 1;
    for (int c = 0; c < s->ncomms; c++)
        per += (long)(s->pfirst[c + 1] - s->pfirst[c]) * 4;
    bool improved = (double)per * n <= (double)ORDER_BUDGET;
    while (improved && (bs.max_lag > 0 || bs.latency > 0 || bs.runs > s->ncomms) &&
           work < ORDER_BUDGET) {
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
steady_err_t plan_set_lags(steady_schedule_t *sc, const steady_platform_t *p, search_t *s,
                           const int *order, steady_error_t *err)
{
    int nflat = s->nflat;
    int *pfirst = calloc((size_t)nflat + 2, sizeof *pfirst);
    int npieces = 0;
    for (int x = 0; x < sc->nslots; x++)
        npieces += sc->slots[x].ntransfers;
    int(*piece)[2] = malloc((size_t)(npieces + 1) * sizeof *piece);
    double(*xpos)[2] = malloc((size_t)(npieces + 1) * sizeof *xpos);
    double(*xslot)[2] = malloc((size_t)(sc->nslots + 1) * sizeof *xslot);
    if (!pfirst || !piece || !xpos || !xslot) {
        free(pfirst);
        free(piece);
        free(xpos);
        free(xslot);
        return oom(err);
    }
    for (int x = 0; x < sc->nslots; x++) {
        xslot[x][0] = mpq_get_d(sc->slots[x].start);
        xslot[x][1] = xslot[x][0] + mpq_get_d(sc->slots[x].duration);
    }
    for (int pass = 0; pass < 2; pass++) {
        for (int x = 0; x < sc->nslots; x++)
            for (int y = 0; y < sc->slots[x].ntransfers; y++) {
                const steady_sched_transfer_t *tf = &sc->slots[x].transfers[y];
                int f = s->base[tf->tree] + tf->step;
                if (pass == 0) {
                    pfirst[f + 2]++;
                } else {
                    int k = pfirst[f + 1]++;
                    piece[k][0] = x;
                    piece[k][1] = y;
                    xpos[k][0] = mpq_get_d(tf->from);
                    xpos[k][1] = mpq_get_d(tf->to);
                }
            }
        if (pass == 0)
            for (int f = 0; f <= nflat; f++)
                pfirst[f + 1] += pfirst[f];
    }
    s->p = p;
    s->xfirst = pfirst;
    s->xpiece = (const int(*)[2])piece;
    s->xpos = (const double(*)[2])xpos;
    s->xslot = (const double(*)[2])xslot;
    evaluate_order(s, order);
    s->xfirst = NULL;
    s->xpiece = NULL;
    s->xpos = s->xslot = NULL;
    sc->max_lag = 0;
    for (int f = 0; f < nflat; f++) {
        steady_sched_step_t *st = &sc->trees[s->tree_of[f]].steps[f - s->base[s->tree_of[f]]];
        st->lag = s->lag[f];
        if (st->lag > sc->max_lag)
            sc->max_lag = st->lag;
    }
    free(pfirst);
    free(piece);
    free(xpos);
    free(xslot);
    return STEADY_OK;
}
