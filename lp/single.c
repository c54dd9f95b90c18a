/*
 * single.c — steady_lp_single_tree(): a broadcast's optimum carried by one
 * tree, when one simple tree can carry it.
 *
 * The LP's vertex mixes trees: on SimGrid's 16-host fat tree every hop
 * between two hosts carries some flow, and the planner schedules what it
 * is given, 25 trees whose transfers share the fat tree's links slot after
 * slot (51% of the optimum planned, 55% replayed).  A tree that carries TP
 * alone is another optimal solution, far simpler to schedule: its
 * transfers are few and each rank's ports carry one message each way.  The
 * tree tried is the chain through the ranks in the platform's order from
 * the source — SimGrid numbers a cluster's hosts along its switches, so on
 * a flat cluster, a fat tree, a torus's rings, consecutive hosts are
 * neighbours and the chain crosses each uplink once — and it is taken when
 * every capacity row of the LP (ports, shared resources) holds TP times
 * its load, in exact arithmetic.  The planner offers it as one more
 * candidate, replayed beside the others (schedule/plan.c).
 */
#include "internal.h"

#include <stdlib.h>

/* The chain's hops: from the source through the other ranks in the
 * platform's order, each hop the first from one rank to the next; false
 * when some pair has no hop. */
static bool chain_hops(const steady_solution_t *s, int *chain, int *n)
{
    int nv = steady_platform_node_count(s->p), prev = s->sources[0];
    *n = 0;
    for (int v = 0; v < nv; v++) {
        if (v == s->sources[0] || steady_platform_node(s->p, v)->kind == STEADY_SWITCH)
            continue;
        int nout, hop = -1;
        const int *out = steady_hop_graph_out(s->hops, prev, &nout);
        for (int k = 0; k < nout && hop < 0; k++)
            if (steady_hop_graph_hop(s->hops, out[k])->dst == v)
                hop = out[k];
        if (hop < 0)
            return false;
        chain[(*n)++] = hop;
        prev = v;
    }
    return true;
}

/* Whether the hops h with cols[h] = 0 carry tp: each capacity row's load,
 * summed over its entries, times tp within its bound. */
static bool carries(const steady_solution_t *s, const int *cols, const mpq_t tp, bool *oom)
{
    lp_model_t m;
    lp_model_init(&m);
    lp_add_col(&m, "chain");
    lp_capacity_rows(s, &m, cols, 1);
    *oom = m.oom;
    mpq_t *load = m.oom ? NULL : malloc((size_t)(m.nrows ? m.nrows : 1) * sizeof *load);
    bool fits = load != NULL;
    *oom = *oom || !load;
    for (int r = 0; r < m.nrows && load; r++)
        mpq_init(load[r]);
    for (int k = 0; k < m.nnz && load; k++)
        mpq_add(load[m.a[k].row], load[m.a[k].row], m.a[k].val);
    for (int r = 0; r < m.nrows && load; r++) {
        mpq_mul(load[r], load[r], tp);
        fits = fits && mpq_cmp_si(load[r], m.row_bound[r], 1) <= 0;
        mpq_clear(load[r]);
    }
    free(load);
    lp_model_free(&m);
    return fits;
}

steady_err_t steady_lp_single_tree(const steady_solution_t *lp, steady_solution_t **out,
                                   steady_error_t *err)
{
    *out = NULL;
    if (lp->op != STEADY_OP_BROADCAST || lp->bound || !lp->exact || lp->nhops == 0)
        return STEADY_OK;
    int nv = steady_platform_node_count(lp->p), n = 0;
    int *chain = malloc((size_t)nv * sizeof *chain);
    int *cols = malloc((size_t)lp->nhops * sizeof *cols);
    bool oom = !chain || !cols;
    steady_err_t rc = STEADY_OK;
    if (!oom && chain_hops(lp, chain, &n)) {
        for (int h = 0; h < lp->nhops; h++)
            cols[h] = -1;
        for (int k = 0; k < n; k++)
            cols[chain[k]] = 0;
        if (carries(lp, cols, lp->tp, &oom) && !oom) {
            steady_problem_t prob = lp_problem_of(lp);
            steady_solution_t *s;
            if (!(rc = lp_solution_prepare(lp->p, &prob, &s, err))) {
                lp_rate_builder_t send;
                lp_rb_init(&send);
                for (int k = 0; k < n; k++)
                    lp_rb_add(&send, chain[k], 0, lp->tp);
                mpq_set(s->tp, lp->tp);
                s->exact = true;
                s->note = "";
                s->formulation = lp->formulation;
                lp_rates_free(&s->send);
                if (lp_rb_finish(&send, s->nhops, &s->send))
                    *out = s;
                else {
                    steady_solution_destroy(s);
                    oom = true;
                }
            }
        }
    }
    free(chain);
    free(cols);
    return oom ? steady_error_set(err, STEADY_ENOMEM, "out of memory") : rc;
}
