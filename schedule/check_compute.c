/*
 * check_compute.c — the validator's checks of the compute lists (processor
 * loads) and of the buffers (check.c has the rules).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* ---- compute lists and processor loads --------------------------------- */

steady_err_t ck_compute(ctx_t *x, int nflat)
{
    const steady_schedule_t *sc = x->sc;
    int *entry = malloc(((size_t)nflat + 1) * sizeof *entry); /* flat step -> compute entry */
    mpq_t *load = malloc((size_t)x->nn * sizeof *load);
    mpq_t q;
    if (!entry || !load) {
        free(entry);
        free(load);
        return STEADY_ENOMEM;
    }
    mpq_init(q);
    for (int v = 0; v < x->nn; v++)
        mpq_init(load[v]);
    for (int f = 0; f < nflat; f++)
        entry[f] = -1;
    char desc[DESC_MAX];
    for (int c = 0; c < sc->ncompute; c++) {
        const steady_sched_compute_t *ce = &sc->compute[c];
        if (ce->tree < 0 || ce->tree >= sc->ntrees || ce->step < 0 ||
            ce->step >= sc->trees[ce->tree].nsteps) {
            ck_report(x, "compute %d: tree %d step %d does not exist", c, ce->tree, ce->step);
            continue;
        }
        const steady_sched_tree_t *tr = &sc->trees[ce->tree];
        const steady_sched_step_t *s = &tr->steps[ce->step];
        int f = x->tree_off[ce->tree] + ce->step;
        if (s->kind != STEADY_STEP_COMPUTE) {
            ck_report(x, "compute %d: tree %d step %d is not a task", c, ce->tree, ce->step);
            continue;
        }
        if (ce->node < 0 || ce->node >= x->nn)
            ck_report(x, "compute %d: node %d does not exist", c, ce->node);
        else if (!ck_is_processor(x, ce->node))
            ck_report(x, "compute %d: tasks on the %s %s", c,
                      steady_node_kind_name(steady_platform_node(x->p, ce->node)->kind),
                      ck_nname(x, ce->node));
        if (!x->step_ok[f])
            continue;
        ck_step_desc(x, s, desc, sizeof desc);
        if (ce->node != s->node)
            ck_report(x, "compute %d: tree %d step %d (%s) listed on %s", c, ce->tree, ce->step,
                      desc, ck_nname(x, ce->node));
        if (ce->count != tr->weight)
            ck_report(x,
                      "compute %d: tree %d step %d (%s) runs %ld tasks per period, listed with "
                      "count %ld",
                      c, ce->tree, ce->step, desc, tr->weight, ce->count);
        if (entry[f] >= 0)
            ck_report(x, "compute %d: tree %d step %d (%s) is already listed as compute %d", c,
                      ce->tree, ce->step, desc, entry[f]);
        else
            entry[f] = c;
    }
    /* tasks of a period run in list order: a tree's tasks must be listed in
     * step (dependency) order, so that a task of a lag runs after the tasks
     * of the same lag it uses */
    for (int t = 0; t < sc->ntrees; t++) {
        int last = -1, last_step = -1;
        for (int i = 0; i < sc->trees[t].nsteps; i++) {
            int f = x->tree_off[t] + i;
            if (sc->trees[t].steps[i].kind != STEADY_STEP_COMPUTE || entry[f] < 0)
                continue;
            if (entry[f] < last)
                ck_report(x,
                          "compute %d: tree %d step %d is listed before step %d (compute %d), "
                          "which comes earlier in the tree",
                          entry[f], t, i, last_step, last);
            last = entry[f];
            last_step = i;
        }
    }
    /* the load is what the trees run, whatever the list says */
    for (int t = 0; t < sc->ntrees; t++) {
        const steady_sched_tree_t *tr = &sc->trees[t];
        for (int i = 0; i < tr->nsteps; i++) {
            const steady_sched_step_t *s = &tr->steps[i];
            int f = x->tree_off[t] + i;
            if (s->kind != STEADY_STEP_COMPUTE || !x->step_ok[f])
                continue;
            if (entry[f] < 0) {
                ck_step_desc(x, s, desc, sizeof desc);
                ck_report(x, "tree %d step %d (%s): missing from the compute list", t, i, desc);
            }
            if (tr->weight > 0) {
                mpq_set_si(q, tr->weight, 1);
                mpq_mul(q, q, x->w[s->node]);
                mpq_add(load[s->node], load[s->node], q);
            }
        }
    }
    for (int v = 0; v < x->nn && x->period_ok; v++)
        if (mpq_cmp(load[v], sc->period) > 0)
            ck_report(x, "%s: its tasks take %Qd per period, more than the period (%Qd)",
                      ck_nname(x, v), load[v], sc->period);
    mpq_clear(q);
    for (int v = 0; v < x->nn; v++)
        mpq_clear(load[v]);
    free(load);
    free(entry);
    return STEADY_OK;
}

/* ---- buffers ---------------------------------------------------------------- */

static int cmp_need(const void *a, const void *b)
{
    const need_t *x = a, *y = b;
    if (x->node != y->node)
        return (x->node > y->node) - (x->node < y->node);
    return (x->key > y->key) - (x->key < y->key);
}

steady_err_t ck_buffers(ctx_t *x, needs_t *needs)
{
    const steady_schedule_t *sc = x->sc;
    /* merge the needs per (node, value) */
    if (needs->n > 0)
        qsort(needs->a, needs->n, sizeof *needs->a, cmp_need);
    size_t m = 0;
    for (size_t i = 0; i < needs->n; i++) {
        if (m > 0 && cmp_need(&needs->a[m - 1], &needs->a[i]) == 0)
            needs->a[m - 1].messages += needs->a[i].messages;
        else
            needs->a[m++] = needs->a[i];
    }
    needs->n = m;
    /* the listed buffers, as (node, value) */
    need_t *listed = malloc((sc->nbuffers > 0 ? (size_t)sc->nbuffers : 1) * sizeof *listed);
    if (!listed)
        return STEADY_ENOMEM;
    size_t nl = 0;
    for (int b = 0; b < sc->nbuffers; b++) {
        const steady_sched_buffer_t *bu = &sc->buffers[b];
        if (bu->node < 0 || bu->node >= x->nn || bu->type < 0 || bu->type >= sc->ntypes) {
            ck_report(x, "buffer %d: node %d or type %d does not exist", b, bu->node, bu->type);
            continue;
        }
        if (x->tkey[bu->type] < 0)
            continue; /* reported with the type */
        if (bu->messages < 0)
            ck_report(x, "buffer %d (%s, type %s): negative size %ld", b, ck_nname(x, bu->node),
                      sc->types[bu->type], bu->messages);
        listed[nl++] = (need_t){bu->node, x->tkey[bu->type], bu->messages};
    }
    if (nl > 0)
        qsort(listed, nl, sizeof *listed, cmp_need);
    char val[DESC_MAX];
    for (size_t i = 1; i < nl; i++)
        if (cmp_need(&listed[i - 1], &listed[i]) == 0) {
            ck_value_name(x, listed[i].key, val, sizeof val);
            ck_report(x, "buffers: %s (%s) listed twice", ck_nname(x, listed[i].node), val);
        }
    for (size_t i = 0; i < needs->n; i++) {
        const need_t *n = &needs->a[i];
        need_t *l = bsearch(n, listed, nl, sizeof *listed, cmp_need);
        if (l && l->messages >= n->messages)
            continue;
        ck_value_name(x, n->key, val, sizeof val);
        if (!l)
            ck_report(x, "buffers: %s holds %ld messages (%s) across periods, not listed",
                      ck_nname(x, n->node), n->messages, val);
        else
            ck_report(x, "buffers: %s holds %ld messages (%s) across periods, listed with %ld",
                      ck_nname(x, n->node), n->messages, val, l->messages);
    }
    free(listed);
    return STEADY_OK;
}
