/*
 * plan_slots.c — the period's slots: its sends as a bipartite graph
 * decomposed into matchings (decompose/matching.c), stretched for shared
 * resources, each comm's messages handed out along the slots in order.
 */
#define _POSIX_C_SOURCE 200809L
#include "plan.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* How long slot x must last for the shared resources its comms cross
 * (exact): the largest, over the resources, of the time its comms hold
 * them, sum over the slot's comms c of t_r(c) times the messages c moves
 * in the slot (its time / d(c)), and at least the matching's duration.
 * acc and touched have one entry per resource. */
static void slot_stretch(const steady_platform_t *p, const steady_schedule_t *sc,
                         const steady_slot_t *slot, const int *tree, const int *step,
                         const mpq_t *comm, mpq_t *acc, int *touched, mpq_t length)
{
    int nt = 0;
    mpq_t q, msgs;
    mpq_inits(q, msgs, NULL);
    mpq_set(length, slot->duration);
    for (int y = 0; y < slot->ncomms; y++) {
        int c = slot->comms[y], n;
        const int *edges = steady_sched_step_edges(sc, &sc->trees[tree[c]].steps[step[c]], &n);
        bool moved = false; /* msgs holds what c moves in the slot */
        int edge;
        const steady_use_t *u;
        steady_loads_t it;
        steady_loads_start(&it, p, edges, n);
        while (steady_loads_next(&it, &edge, &u)) {
            if (!moved) {
                mpq_div(msgs, slot->time[y], comm[c]);
                moved = true;
            }
            int r = u->resource;
            if (mpq_sgn(acc[r]) == 0)
                touched[nt++] = r;
            steady_exact_use_time(p, edge, u, sc->msg_size, q);
            mpq_mul(q, q, msgs);
            mpq_add(acc[r], acc[r], q);
        }
    }
    for (int i = 0; i < nt; i++) {
        if (mpq_cmp(acc[touched[i]], length) > 0)
            mpq_set(length, acc[touched[i]]);
        mpq_set_ui(acc[touched[i]], 0, 1);
    }
    mpq_clears(q, msgs, NULL);
}

/* The denominators' size beyond which the comms' durations are rounded up
 * to a grid (bits).  The lcm of a platform's edge times grows with its
 * distinct bandwidths: 110 bits on examples/platforms/tiers.plat, 360 on
 * 100-node random and tiers platforms, 1,050 at 1,000 nodes, where every
 * slot boundary and message position of the matchings carried it (a
 * 483 MB schedule file for random-1000's scatter, 78 MB on the grid). */
#define GRID_BITS 256

/* The grid's step then: 2^-GRID_STEP_BITS of the period's order of
 * magnitude. */
#define GRID_STEP_BITS 48

/* Rounds the comms' durations up onto a grid: 1/D when the lcm D of their
 * denominators fits in GRID_BITS bits (the durations stay exact), else
 * 2^(e - GRID_STEP_BITS) with 2^(e-1) <= period < 2^e.  A comm then lasts
 * at most 2^-47 of the period longer than its messages need, a port at
 * most its comms' count times that, and the period grows by as much when
 * a port outgrows it (plan_build_slots()). */
static void round_to_grid(mpq_t *dur, int n, const mpq_t period)
{
    mpz_t d;
    mpz_init_set_ui(d, 1);
    for (int c = 0; c < n && mpz_sizeinbase(d, 2) <= GRID_BITS; c++)
        mpz_lcm(d, d, mpq_denref(dur[c]));
    if (mpz_sizeinbase(d, 2) > GRID_BITS) {
        int e = 0;
        frexp(mpq_get_d(period), &e);
        mpz_set_ui(d, 1);
        mpz_mul_2exp(d, d, (mp_bitcnt_t)(GRID_STEP_BITS - e > 0 ? GRID_STEP_BITS - e : 0));
        for (int c = 0; c < n; c++) {
            mpz_mul(mpq_numref(dur[c]), mpq_numref(dur[c]), d);
            mpz_cdiv_q(mpq_numref(dur[c]), mpq_numref(dur[c]), mpq_denref(dur[c]));
            mpz_set(mpq_denref(dur[c]), d);
            mpq_canonicalize(dur[c]);
        }
    }
    mpz_clear(d);
}

/* The slots: the period's sends as a bipartite graph decomposed into
 * matchings, run in the order plan_order_slots() chooses, each comm's messages
 * handed out in order along its slots; then the lags (plan_set_lags()).  A
 * comm lasts its weight times its hop's time.  A slot whose comms load a
 * shared resource (a channel, a link between switches) beyond the slot's
 * length is stretched to what the resource needs: its transfers share the
 * resource and take longer, and the period grows by as much (the
 * schedule's throughput then falls below the LP's, which `steady plan`
 * reports). */
steady_err_t plan_build_slots(steady_schedule_t *sc, const steady_platform_t *p,
                              const int *interval, steady_matching_rule_t rule, steady_error_t *err)
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
            depth[f] = st->lag; /* plan_copy_trees(): one period per send */
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
            lat[k] = steady_hop_latency(p, &h);
            src[k] = h.src;
            dst[k] = h.dst;
            tree[k] = i;
            comm_of[f] = k;
            step[k++] = j;
        }
    }
    base[sc->ntrees] = nflat;
    /* a comm moves its weight in its (rounded) duration: comm[] becomes the
     * time the slots give each message, at least its hop's */
    round_to_grid(dur, k, sc->period);
    for (int c = 0; c < k; c++) {
        mpq_set_si(amount, sc->trees[tree[c]].weight, 1);
        mpq_div(comm[c], dur[c], amount);
        cost[c] = mpq_get_d(comm[c]);
    }
    if ((rc = plan_step_producers(sc, p, interval, base, prod, err)))
        goto cleanup;
    if ((rc = steady_matchings_decompose_rule(steady_platform_node_count(p), ncomms, src, dst,
                                              (const mpq_t *)dur, rule, &mt, err)))
        goto cleanup;

    /* the order of the matchings */
    int n = mt->nslots, npieces = 0, nres = steady_platform_resource_count(p);
    for (int x = 0; x < n; x++)
        npieces += mt->slots[x].ncomms;
    size_t n1 = (size_t)n + 1, np1 = (size_t)npieces + 1;
    order = malloc(n1 * sizeof *order);
    sfirst = malloc((n1 + 1) * sizeof *sfirst);
    scomm = malloc(np1 * sizeof *scomm);
    double *sdur = malloc(n1 * sizeof *sdur), *stime = malloc(np1 * sizeof *stime);
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
                   .stime = stime,
                   .dur = sdur,
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
    s.pr = malloc(np1 * sizeof *s.pr);
    s.dpos = malloc(np1 * sizeof *s.dpos);
    s.lag = malloc(nf1 * sizeof *s.lag);
    s.tlag = malloc(((size_t)sc->ntrees + 1) * sizeof *s.tlag);
    s.done = malloc(nf1 * sizeof *s.done);
    s.fwd = malloc(nf1 * sizeof *s.fwd);
    s.cpu = malloc(((size_t)s.nnodes + 1) * sizeof *s.cpu);
    if (!order || !sfirst || !scomm || !sdur || !stime || !stretched || !acc || !touched ||
        !s.start || !s.pos || !s.ps || !s.pe || !s.pf || !s.pt || !s.pn || !s.pr || !s.dpos ||
        !s.lag || !s.tlag || !s.done || !s.fwd || !s.cpu) {
        rc = oom(err);
        goto cleanup;
    }
    for (int x = 0, y = 0; x < n; x++) {
        sfirst[x] = y;
        slot_stretch(p, sc, &mt->slots[x], tree, step, (const mpq_t *)comm, acc, touched,
                     stretched[x]);
        sdur[x] = mpq_get_d(stretched[x]);
        for (int z = 0; z < mt->slots[x].ncomms; z++) {
            stime[y] = mpq_get_d(mt->slots[x].time[z]);
            scomm[y++] = mt->slots[x].comms[z];
            pfirst[mt->slots[x].comms[z] + 1]++;
        }
        sfirst[x + 1] = y;
    }
    for (int c = 0; c < ncomms; c++)
        pfirst[c + 1] += pfirst[c];
    if ((rc = plan_order_slots(&s, depth, order, err)))
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
            mpq_div(amount, in->time[y], comm[c]);
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
    rc = plan_set_lags(sc, p, &s, order, err);

cleanup:
    for (int x = 0; x < nstretched; x++)
        mpq_clear(stretched[x]);
    for (int x = 0; x < nacc; x++)
        mpq_clear(acc[x]);
    free(stretched);
    free(acc);
    free(touched);
    free((void *)s.stime);
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
    free(s.pr);
    free(s.dpos);
    free(s.lag);
    free(s.tlag);
    free(s.done);
    free(s.fwd);
    free(s.cpu);
    free(tnode);
    free(work);
    return rc;
}
