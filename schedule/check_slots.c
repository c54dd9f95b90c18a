/*
 * check_slots.c — the validator's checks of the slots: durations, one-port
 * matchings, transfers, coverage of each send's messages, and same-period
 * forwarding (check.c has the rules).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* ---- slots, ports, coverage --------------------------------------------- */

typedef struct {
    const steady_sched_transfer_t *tr;
    int slot;
} part_t;

static int cmp_part(const void *a, const void *b)
{
    const part_t *x = a, *y = b;
    int c = mpq_cmp(x->tr->from, y->tr->from);
    return c ? c : (x->slot > y->slot) - (x->slot < y->slot);
}

/* A transfer that refers to a well-formed send step, or NULL. */
static const steady_sched_step_t *transfer_step(const ctx_t *x, const steady_sched_transfer_t *tr)
{
    const steady_schedule_t *sc = x->sc;
    if (tr->tree < 0 || tr->tree >= sc->ntrees || tr->step < 0 ||
        tr->step >= sc->trees[tr->tree].nsteps)
        return NULL;
    const steady_sched_step_t *s = &sc->trees[tr->tree].steps[tr->step];
    if (s->kind != STEADY_STEP_SEND || !x->step_ok[x->tree_off[tr->tree] + tr->step])
        return NULL;
    return s;
}

/* One-port and the slot's length: in a slot a node sends to one peer and
 * receives from one peer, its transfers with that peer one after another;
 * every transfer, which lasts (to - from) times its hop's time, fits in
 * the slot, and so do each port's transfers together, and the load its
 * transfers put on each shared resource (they share it: the slot lasts at
 * least what its busiest resource needs). */
steady_err_t ck_slots(ctx_t *x)
{
    const steady_schedule_t *sc = x->sc;
    int nres = steady_platform_resource_count(x->p);
    int *send_at = malloc((size_t)x->nn * sizeof *send_at); /* transfer using the port */
    int *recv_at = malloc((size_t)x->nn * sizeof *recv_at);
    int *stamp_s = malloc((size_t)x->nn * sizeof *stamp_s);
    int *stamp_r = malloc((size_t)x->nn * sizeof *stamp_r);
    int *touched = malloc(((size_t)nres + 1) * sizeof *touched);
    mpq_t *load = malloc(((size_t)nres + 1) * sizeof *load);
    mpq_t *busy = malloc(2 * ((size_t)x->nn + 1) * sizeof *busy); /* send, receive port */
    mpq_t end, d, t, longest, need;
    mpq_inits(end, d, t, longest, need, NULL);
    steady_err_t rc = STEADY_ENOMEM;
    if (load)
        for (int r = 0; r < nres; r++)
            mpq_init(load[r]);
    if (busy)
        for (int v = 0; v < 2 * x->nn; v++)
            mpq_init(busy[v]);
    if (!send_at || !recv_at || !stamp_s || !stamp_r || !touched || !load || !busy)
        goto cleanup;
    for (int v = 0; v < x->nn; v++)
        stamp_s[v] = stamp_r[v] = -1;
    char desc[DESC_MAX], res[2 * STEADY_NAME_MAX + 32];
    for (int i = 0; i < sc->nslots; i++) {
        const steady_sched_slot_t *sl = &sc->slots[i];
        if (mpq_sgn(sl->duration) <= 0)
            ck_report(x, "slot %d: duration %Qd is not positive", i, sl->duration);
        if (mpq_sgn(sl->start) < 0)
            ck_report(x, "slot %d: starts at %Qd, before the period", i, sl->start);
        mpq_add(end, sl->start, sl->duration);
        if (x->period_ok && mpq_cmp(end, sc->period) > 0)
            ck_report(x, "slot %d: ends at %Qd, after the end of the period (%Qd)", i, end,
                      sc->period);
        if (i > 0) {
            mpq_add(d, sc->slots[i - 1].start, sc->slots[i - 1].duration);
            if (mpq_cmp(sl->start, d) < 0)
                ck_report(x, "slot %d: starts at %Qd, before slot %d ends (%Qd)", i, sl->start,
                          i - 1, d);
        }
        if (sl->ntransfers < 0 || (sl->ntransfers && !sl->transfers)) {
            ck_report(x, "slot %d: malformed transfer list", i);
            continue;
        }
        int ntouched = 0;
        mpq_set_ui(longest, 0, 1);
        for (int j = 0; j < sl->ntransfers; j++) {
            const steady_sched_transfer_t *tr = &sl->transfers[j];
            const steady_sched_step_t *s = transfer_step(x, tr);
            if (!s) {
                if (tr->tree < 0 || tr->tree >= sc->ntrees || tr->step < 0 ||
                    tr->step >= sc->trees[tr->tree].nsteps)
                    ck_report(x, "slot %d transfer %d: tree %d step %d does not exist", i, j,
                              tr->tree, tr->step);
                else if (sc->trees[tr->tree].steps[tr->step].kind != STEADY_STEP_SEND)
                    ck_report(x, "slot %d transfer %d: tree %d step %d is not a send", i, j,
                              tr->tree, tr->step);
                continue; /* a malformed send step is reported with the tree */
            }
            int src = ck_step_src(x, s), dst = ck_step_dst(x, s);
            ck_step_desc(x, s, desc, sizeof desc);
            long w = sc->trees[tr->tree].weight;
            if (mpq_sgn(tr->from) < 0 || mpq_cmp(tr->from, tr->to) >= 0 ||
                mpq_cmp_si(tr->to, w, 1) > 0)
                ck_report(x,
                          "slot %d: tree %d step %d (%s) carries [%Qd, %Qd), not a part of "
                          "[0, %ld]",
                          i, tr->tree, tr->step, desc, tr->from, tr->to, w);
            mpq_sub(d, tr->to, tr->from);
            ck_hop_time(x, s, t);
            mpq_mul(t, t, d);
            if (mpq_cmp(t, longest) > 0)
                mpq_set(longest, t);
            /* one peer per port, whose transfers fit in the slot together
             * (reported once, where they outgrow it) */
            int ends[2] = {src, dst}, peers[2] = {dst, src};
            int *stamp[2] = {stamp_s, stamp_r}, *at[2] = {send_at, recv_at};
            for (int e = 0; e < 2; e++) {
                int v = ends[e];
                mpq_ptr b = busy[2 * v + e];
                if (stamp[e][v] != i) {
                    stamp[e][v] = i;
                    at[e][v] = j;
                    mpq_set(b, t);
                    continue;
                }
                const steady_sched_step_t *o = transfer_step(x, &sl->transfers[at[e][v]]);
                int peer = e == 0 ? ck_step_dst(x, o) : ck_step_src(x, o);
                if (peer != peers[e])
                    ck_report(x,
                              e == 0 ? "slot %d: %s sends twice (to %s and to %s)"
                                     : "slot %d: %s receives twice (from %s and from %s)",
                              i, ck_nname(x, v), ck_nname(x, peer), ck_nname(x, peers[e]));
                bool fitted = mpq_cmp(b, sl->duration) <= 0;
                mpq_add(b, b, t);
                if (fitted && mpq_cmp(b, sl->duration) > 0)
                    ck_report(x, "slot %d: %s %s for %Qd in all, longer than the slot (%Qd)", i,
                              ck_nname(x, v), e == 0 ? "sends" : "receives", b, sl->duration);
            }
            /* what it puts on the shared resources of its edges */
            int n;
            const int *edges = steady_sched_step_edges(sc, s, &n);
            int edge;
            const steady_use_t *u;
            steady_loads_t it;
            steady_loads_start(&it, x->p, edges, n);
            while (steady_loads_next(&it, &edge, &u)) {
                int r = u->resource;
                if (mpq_sgn(load[r]) == 0)
                    touched[ntouched++] = r;
                steady_exact_use_time(x->p, edge, u, sc->msg_size, t);
                mpq_mul(t, t, d);
                mpq_add(load[r], load[r], t);
            }
        }
        /* the busiest shared resource fits in the slot, and so does every
         * transfer */
        int busiest = -1;
        mpq_set(need, sl->duration);
        for (int k = 0; k < ntouched; k++) {
            if (mpq_cmp(load[touched[k]], need) > 0) {
                mpq_set(need, load[touched[k]]);
                busiest = touched[k];
            }
            mpq_set_ui(load[touched[k]], 0, 1);
        }
        if (busiest >= 0) {
            steady_platform_resource_name(x->p, busiest, res, sizeof res);
            ck_report(x, "slot %d: lasts %Qd, but %s needs %Qd for its transfers", i, sl->duration,
                      res, need);
        }
        if (mpq_cmp(longest, sl->duration) <= 0)
            continue;
        for (int j = 0; j < sl->ntransfers; j++) {
            const steady_sched_transfer_t *tr = &sl->transfers[j];
            const steady_sched_step_t *s = transfer_step(x, tr);
            if (!s)
                continue;
            mpq_sub(d, tr->to, tr->from);
            ck_hop_time(x, s, t);
            mpq_mul(t, t, d);
            if (mpq_cmp(t, sl->duration) <= 0)
                continue;
            ck_step_desc(x, s, desc, sizeof desc);
            ck_report(x,
                      "slot %d: tree %d step %d (%s) carries [%Qd, %Qd) in %Qd, longer than the "
                      "slot (%Qd)",
                      i, tr->tree, tr->step, desc, tr->from, tr->to, t, sl->duration);
        }
    }
    rc = STEADY_OK;
cleanup:
    if (load)
        for (int r = 0; r < nres; r++)
            mpq_clear(load[r]);
    if (busy)
        for (int v = 0; v < 2 * x->nn; v++)
            mpq_clear(busy[v]);
    mpq_clears(end, d, t, longest, need, NULL);
    free(load);
    free(busy);
    free(touched);
    free(send_at);
    free(recv_at);
    free(stamp_s);
    free(stamp_r);
    return rc;
}

/* The transfers of the period grouped by flat step (a counting sort): the
 * parts of step f are (*parts)[(*start)[f] .. (*start)[f + 1]), in slot
 * order.  Transfers naming no valid step are left out, and with
 * well_formed so are those whose positions are not a range within their
 * tree's weight.  False when memory runs out (free both either way). */
static bool group_parts(const ctx_t *x, int nflat, bool well_formed, int **start, part_t **parts)
{
    const steady_schedule_t *sc = x->sc;
    size_t nparts = 0;
    for (int i = 0; i < sc->nslots; i++)
        if (sc->slots[i].ntransfers > 0 && sc->slots[i].transfers)
            nparts += (size_t)sc->slots[i].ntransfers;
    *start = calloc((size_t)nflat + 2, sizeof **start);
    *parts = malloc((nparts ? nparts : 1) * sizeof **parts);
    if (!*start || !*parts)
        return false;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < sc->nslots; i++) {
            const steady_sched_slot_t *sl = &sc->slots[i];
            if (sl->ntransfers <= 0 || !sl->transfers)
                continue;
            for (int j = 0; j < sl->ntransfers; j++) {
                const steady_sched_transfer_t *tr = &sl->transfers[j];
                if (!transfer_step(x, tr) ||
                    (well_formed && (mpq_sgn(tr->from) < 0 || mpq_cmp(tr->from, tr->to) >= 0 ||
                                     mpq_cmp_si(tr->to, sc->trees[tr->tree].weight, 1) > 0)))
                    continue;
                int f = x->tree_off[tr->tree] + tr->step;
                if (pass == 0)
                    (*start)[f + 2]++;
                else
                    (*parts)[(*start)[f + 1]++] = (part_t){tr, i};
            }
        }
        if (pass == 0)
            for (int f = 0; f <= nflat; f++)
                (*start)[f + 1] += (*start)[f];
    }
    return true;
}

/* Every send step's positions [0, weight) covered exactly once. */
steady_err_t ck_coverage(ctx_t *x, int nflat)
{
    const steady_schedule_t *sc = x->sc;
    int *start;
    part_t *parts;
    mpq_t at, hi;
    mpq_inits(at, hi, NULL);
    steady_err_t rc = STEADY_ENOMEM;
    if (!group_parts(x, nflat, true, &start, &parts))
        goto cleanup;
    /* now parts of flat step f are parts[start[f] .. start[f + 1]) */
    char desc[DESC_MAX];
    for (int t = 0; t < sc->ntrees; t++) {
        const steady_sched_tree_t *tree = &sc->trees[t];
        for (int i = 0; i < tree->nsteps; i++) {
            int f = x->tree_off[t] + i;
            if (tree->steps[i].kind != STEADY_STEP_SEND || !x->step_ok[f] || tree->weight <= 0)
                continue;
            ck_step_desc(x, &tree->steps[i], desc, sizeof desc);
            part_t *ps = parts + start[f];
            int n = start[f + 1] - start[f];
            qsort(ps, (size_t)n, sizeof *ps, cmp_part);
            mpq_set_ui(at, 0, 1);
            for (int k = 0; k < n; k++) {
                const steady_sched_transfer_t *tr = ps[k].tr;
                int c = mpq_cmp(tr->from, at);
                if (c > 0)
                    ck_report(x, "tree %d step %d (%s): positions [%Qd, %Qd) are never sent", t, i,
                              desc, at, tr->from);
                else if (c < 0) {
                    int prev = ps[k - 1].slot;
                    mpq_set(hi, mpq_cmp(tr->to, at) < 0 ? tr->to : at);
                    ck_report(x,
                              "tree %d step %d (%s): positions [%Qd, %Qd) are sent twice (slots "
                              "%d and %d)",
                              t, i, desc, tr->from, hi, prev, ps[k].slot);
                }
                if (mpq_cmp(tr->to, at) > 0)
                    mpq_set(at, tr->to);
            }
            if (mpq_cmp_si(at, tree->weight, 1) < 0) {
                mpq_set_si(hi, tree->weight, 1);
                ck_report(x, "tree %d step %d (%s): positions [%Qd, %Qd) are never sent", t, i,
                          desc, at, hi);
            }
        }
    }
    rc = STEADY_OK;
cleanup:
    mpq_clears(at, hi, NULL);
    free(start);
    free(parts);
    return rc;
}

/* Sends with the lag of the send producing their input (consume()): they
 * forward what the same period delivers, so each of their parts must start
 * once the producer's parts carrying any of the same message positions
 * have arrived, at the end of their slot plus the edge's latency.  Then a
 * timed execution of the period respects every dependency (the
 * self-timed one is never slower).  One line per offending pair of parts. */
steady_err_t ck_forwarding(ctx_t *x, int nflat)
{
    const steady_schedule_t *sc = x->sc;
    if (x->nsame == 0)
        return STEADY_OK;
    int *start;
    part_t *parts;
    mpq_t arrive, lo, hi, lat;
    mpq_inits(arrive, lo, hi, lat, NULL);
    steady_err_t rc = STEADY_ENOMEM;
    if (!group_parts(x, nflat, false, &start, &parts))
        goto cleanup;
    char desc[DESC_MAX];
    for (int k = 0; k < x->nsame; k++) {
        int t = x->same[k][0], i = x->same[k][1], j = x->same[k][2];
        int f = x->tree_off[t] + i, g = x->tree_off[t] + j;
        const steady_sched_step_t *ps = &sc->trees[t].steps[j];
        ck_hop_latency(x, ps, lat);
        for (int a = start[f]; a < start[f + 1]; a++) {
            const steady_sched_slot_t *sa = &sc->slots[parts[a].slot];
            for (int b = start[g]; b < start[g + 1]; b++) {
                const steady_sched_transfer_t *ta = parts[a].tr, *tb = parts[b].tr;
                if (mpq_cmp(tb->from, ta->to) >= 0 || mpq_cmp(ta->from, tb->to) >= 0)
                    continue;
                const steady_sched_slot_t *sb = &sc->slots[parts[b].slot];
                mpq_add(arrive, sb->start, sb->duration);
                mpq_add(arrive, arrive, lat);
                if (mpq_cmp(arrive, sa->start) <= 0)
                    continue;
                mpq_set(lo, mpq_cmp(ta->from, tb->from) > 0 ? ta->from : tb->from);
                mpq_set(hi, mpq_cmp(ta->to, tb->to) < 0 ? ta->to : tb->to);
                ck_step_desc(x, &sc->trees[t].steps[i], desc, sizeof desc);
                ck_report(x,
                          "tree %d step %d (%s): slot %d starts at %Qd and forwards messages "
                          "[%Qd, %Qd), which step %d (%s -> %s) delivers in slot %d only at %Qd "
                          "(slot end + latency), with the same lag %d",
                          t, i, desc, parts[a].slot, sa->start, lo, hi, j,
                          ck_nname(x, ck_step_src(x, ps)), ck_nname(x, ck_step_dst(x, ps)),
                          parts[b].slot, arrive, ps->lag);
            }
        }
    }
    rc = STEADY_OK;
cleanup:
    mpq_clears(arrive, lo, hi, lat, NULL);
    free(start);
    free(parts);
    return rc;
}
