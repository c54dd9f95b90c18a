/*
 * plan_trees.c — the schedule's trees: the decomposition's trees copied
 * with their operation counts, hops and first lags, the buffers their lags
 * need, and the assembly of a schedule for given counts (trees, slots,
 * compute list, buffers).
 */
#define _POSIX_C_SOURCE 200809L
#include "plan.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The (node, type) inputs of a step and the (node, type) it produces.
 * interval[k * N + m] is the type of v[k,m] (reduce). */
void plan_step_io(const steady_schedule_t *sc, const steady_platform_t *p, const int *interval,
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
    if (!steady_hop_copy(&sc->hops[sc->nhops], h))
        return oom(err);
    *index = sc->nhops++;
    return STEADY_OK;
}

/* Copies the trees that run at least one operation, with lags and the
 * per-type "first" offsets. */
steady_err_t plan_copy_trees(steady_schedule_t *sc, const steady_solution_t *s,
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
    /* set once, reset where each tree wrote (O(steps) per tree) */
    for (size_t x = 0; x < (size_t)nv * nt; x++)
        producer[x] = -1;
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
            plan_step_io(sc, p, interval, N, o, ins, &nin, &out_node, &out_type);
            /* one period per send: the hop depth that plan_order_slots() starts
             * from (plan_build_slots() sets the lags once the slots exist); a
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
        for (int j = 0; j < in->nsteps; j++) {
            int ins[2][2], nin, out_node, out_type;
            plan_step_io(sc, p, interval, N, &out->steps[j], ins, &nin, &out_node, &out_type);
            producer[out_node * nt + out_type] = -1;
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
    for (size_t x = 0; x < (size_t)nv * nt; x++)
        producer[x] = last[x] = -1;
    for (int i = 0; i < sc->ntrees; i++) {
        const steady_sched_tree_t *tr = &sc->trees[i];
        /* a value is held from the period it is produced in to its last use
         * (a broadcast node forwarding one message to several children
         * holds it once); in a tree each value is produced once */
        for (int j = 0; j < tr->nsteps; j++) {
            int ins[2][2], nin, out_node, out_type;
            plan_step_io(sc, p, interval, N, &tr->steps[j], ins, &nin, &out_node, &out_type);
            for (int x = 0; x < nin; x++) {
                int key = ins[x][0] * nt + ins[x][1];
                if (producer[key] >= 0 && tr->steps[j].lag > last[key])
                    last[key] = tr->steps[j].lag;
            }
            producer[out_node * nt + out_type] = j;
        }
        for (int j = 0; j < tr->nsteps; j++) {
            int ins[2][2], nin, out_node, out_type;
            plan_step_io(sc, p, interval, N, &tr->steps[j], ins, &nin, &out_node, &out_type);
            int key = out_node * nt + out_type;
            if (last[key] >= 0)
                need[key] += tr->weight * (last[key] - tr->steps[j].lag);
        }
        for (int j = 0; j < tr->nsteps; j++) { /* reset what this tree wrote */
            int ins[2][2], nin, out_node, out_type;
            plan_step_io(sc, p, interval, N, &tr->steps[j], ins, &nin, &out_node, &out_type);
            producer[out_node * nt + out_type] = -1;
            for (int x = 0; x < nin; x++)
                last[ins[x][0] * nt + ins[x][1]] = -1;
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

/* Everything after the period: trees with their lags, slots, compute list,
 * buffers, for these operation counts. */
steady_err_t plan_assemble(steady_schedule_t *sc, const steady_solution_t *s,
                           const steady_trees_t *tr, const long *weight, const int *interval,
                           steady_matching_rule_t rule, steady_error_t *err)
{
    const steady_platform_t *p = steady_solution_platform(s);
    steady_err_t rc = plan_copy_trees(sc, s, tr, weight, interval, err);
    if (!rc)
        rc = plan_build_slots(sc, p, interval, rule, err);
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
