/*
 * cuts.c — the broadcast LP by cut generation (docs/linear-programs.md,
 * "Formulations").
 *
 * SSB's per-target flows x(h, k) <= n(h) only say that under the
 * capacities n every target k receives a flow of TP from the source s.
 * By max-flow min-cut that is
 *     n(δin X) >= TP    for every set X of nodes that holds a target and not s
 * so the LP over n and TP alone, with one row per such cut, has exactly
 * the full LP's optimum (its solutions are the full LP's n).  There are
 * exponentially many cuts, and few matter: the LP starts with the cuts
 * {k} of each target, and each round solves it, then looks for cuts that
 * its n violates, adds them and solves again from the last basis (dual
 * simplex), until none is violated.
 *
 * Finding violated cuts.  A target the source does not reach through
 * hops with n > 0 gets the cut of the nodes that reach it there (its n is
 * 0).  For the others, most need no flow: a node whose in-hops from
 * nodes already known to get TP (the set C, grown from {s}) carry TP
 * together gets TP too (lp_flow_certify: a cut X containing it either
 * contains a node of C, whose flow bounds it, or takes in every one of
 * those hops).  The rest get a maximum flow from s, and when it stays
 * below TP the sink side of its minimum cut is added.
 *
 * Exactness.  When no cut is violated in floating point, the restricted
 * LP's basis is recovered exactly and verified optimal for the restricted
 * LP (exact.c: primal and dual in rationals).  The restricted LP has fewer
 * rows than the full one, so its optimum bounds the full one's from above.
 * Its exact n then meets every cut, which is checked exactly: the
 * propagation above in rationals, and an exact maximum flow for each
 * target it does not reach.  So n is feasible for the full LP and TP is
 * its optimum; the restricted LP's dual, zero on the cuts never
 * generated, is the dual certificate.  A cut the exact check finds
 * violated (floating-point tolerances) is added and the rounds go on.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    steady_solution_t *s;
    lp_model_t *m;
    int narcs;
    int *tail, *head; /* arcs: the hops into every node but the source */
    int *hop, *col;   /* their hop and column */
    lp_graph_t g;
    lp_flow_t *flow;
    int *in_start, *in_arc;   /* arcs entering each node */
    int *out_start, *out_arc; /* arcs leaving each node */
    bool *target;
    bool *flowed; /* targets given a flow of their own */
    int *xcol;    /* scratch: a target's flow column per hop */
    int tp;
    int ncuts, nflows;
    int flows_per_round; /* targets given a flow per round (FLOWS_PER_ROUND) */
} cuts_t;

/* Each round gives its first violated target a flow of its own (the others
 * get their minimum cuts): measured on random and tiers platforms of 200
 * nodes (docs/performance.md), cuts alone take ~100 rounds on the large
 * optimal face of a broadcast (TP is right from the first round, n wanders
 * from one optimal vertex to the next), one flow per round ends them in a
 * few; doubling the flows each round made tiers-200 25x slower.  A target
 * that n does not reach at all is the first to get one: its cut (every
 * node reaching it) is dense. */
#define FLOWS_PER_ROUND 1

static void cuts_free(cuts_t *c)
{
    lp_flow_free(c->flow);
    free(c->tail);
    free(c->head);
    free(c->hop);
    free(c->col);
    free(c->in_start);
    free(c->in_arc);
    free(c->out_start);
    free(c->out_arc);
    free(c->target);
    free(c->flowed);
    free(c->xcol);
}

/* The row TP - n(δin X) <= 0 of the cut X (sink[v]). */
static void add_cut(cuts_t *c, const bool *sink)
{
    int row = lp_add_row(c->m, ROW_UP, 0, "cut%d", c->ncuts);
    lp_add_entry_si(c->m, row, c->tp, 1);
    int nv = c->g.n;
    for (int v = 0; v < nv; v++) {
        if (!sink[v])
            continue;
        for (int i = c->in_start[v]; i < c->in_start[v + 1]; i++) {
            int a = c->in_arc[i];
            if (!sink[c->tail[a]])
                lp_add_entry_si(c->m, row, c->col[a], -1);
        }
    }
    c->ncuts++;
}

/* Target k's own flow, as in the full LP: x(h, k) on every hop that does
 * not enter the source, conservation with TP arriving at k, and
 * x(h, k) <= n(h).  Then no later n violates a cut of k: the rounds end
 * after at most one flow per target, where cuts alone can take many
 * rounds when the optimal face is large (TP is found at once, n moves
 * from one vertex of it to the next). */
static void add_target_flow(cuts_t *c, int k)
{
    steady_solution_t *s = c->s;
    lp_model_t *m = c->m;
    int nh = s->nhops, nv = c->g.n, src = s->sources[0];
    for (int h = 0; h < nh; h++)
        c->xcol[h] = -1;
    for (int a = 0; a < c->narcs; a++) {
        int h = c->hop[a];
        c->xcol[h] = lp_add_col(m, "x(%d,%s)", h, lp_node_name(s, k));
        int row = lp_add_row(m, ROW_UP, 0, "use%d_%s", h, lp_node_name(s, k));
        lp_add_entry_si(m, row, c->xcol[h], 1);
        lp_add_entry_si(m, row, c->col[a], -1);
    }
    char label[STEADY_NAME_MAX + 8];
    snprintf(label, sizeof label, "x%s", lp_node_name(s, k));
    for (int v = 0; v < nv; v++)
        if (v != src)
            lp_flow_row(s, m, v, c->xcol, 1, 0, v == k ? c->tp : -1, -1, label);
    c->flowed[k] = true;
    c->nflows++;
}

static steady_err_t build(cuts_t *c)
{
    steady_solution_t *s = c->s;
    lp_model_t *m = c->m;
    int nh = s->nhops, nv = steady_platform_node_count(s->p), src = s->sources[0];
    c->tail = malloc((size_t)(nh + 1) * sizeof *c->tail);
    c->head = malloc((size_t)(nh + 1) * sizeof *c->head);
    c->hop = malloc((size_t)(nh + 1) * sizeof *c->hop);
    c->col = malloc((size_t)(nh + 1) * sizeof *c->col);
    c->in_start = calloc((size_t)nv + 1, sizeof *c->in_start);
    c->in_arc = malloc((size_t)(nh + 1) * sizeof *c->in_arc);
    c->out_start = calloc((size_t)nv + 1, sizeof *c->out_start);
    c->out_arc = malloc((size_t)(nh + 1) * sizeof *c->out_arc);
    c->target = calloc((size_t)nv, sizeof *c->target);
    c->flowed = calloc((size_t)nv, sizeof *c->flowed);
    c->xcol = malloc((size_t)(nh + 1) * sizeof *c->xcol);
    int *hopcol = malloc((size_t)(nh + 1) * sizeof *hopcol);
    bool *one = calloc((size_t)nv, sizeof *one);
    if (!c->tail || !c->head || !c->hop || !c->col || !c->in_start || !c->in_arc || !c->out_start ||
        !c->out_arc || !c->target || !hopcol || !one) {
        free(hopcol);
        free(one);
        return STEADY_ENOMEM;
    }
    for (int i = 0; i < s->ntargets; i++)
        c->target[s->targets[i]] = true;
    c->tp = lp_add_tagged_col(m, COL_TP, -1, -1, "TP");
    m->obj = c->tp;
    char via[512];
    for (int h = 0; h < nh; h++) {
        const steady_hop_t *hop = steady_hop_graph_hop(s->hops, h);
        hopcol[h] = -1;
        if (hop->dst == src)
            continue;
        hopcol[h] = lp_add_tagged_col(m, COL_SEND, h, 0, "n(%s,%s%s)", lp_node_name(s, hop->src),
                                      lp_node_name(s, hop->dst),
                                      m->names ? lp_via_label(s, hop, via, sizeof via) : "");
        int a = c->narcs++;
        c->tail[a] = hop->src;
        c->head[a] = hop->dst;
        c->hop[a] = h;
        c->col[a] = hopcol[h];
        c->in_start[hop->dst + 1]++;
        c->out_start[hop->src + 1]++;
    }
    for (int v = 0; v < nv; v++) {
        c->in_start[v + 1] += c->in_start[v];
        c->out_start[v + 1] += c->out_start[v];
    }
    int *fill = malloc((size_t)(2 * nv + 1) * sizeof *fill);
    if (!fill) {
        free(hopcol);
        free(one);
        return STEADY_ENOMEM;
    }
    memcpy(fill, c->in_start, (size_t)nv * sizeof *fill);
    memcpy(fill + nv, c->out_start, (size_t)nv * sizeof *fill);
    for (int a = 0; a < c->narcs; a++) {
        c->in_arc[fill[c->head[a]]++] = a;
        c->out_arc[fill[nv + c->tail[a]]++] = a;
    }
    free(fill);
    lp_capacity_rows(s, m, hopcol, 1);
    free(hopcol);
    c->g = (lp_graph_t){.n = nv, .m = c->narcs, .tail = c->tail, .head = c->head};
    /* the cut {k} of each target */
    for (int i = 0; i < s->ntargets; i++) {
        one[s->targets[i]] = true;
        add_cut(c, one);
        one[s->targets[i]] = false;
    }
    free(one);
    c->flow = lp_flow_new(&c->g);
    return c->flow ? STEADY_OK : STEADY_ENOMEM;
}

/* Nodes that reach v through arcs of positive capacity, inside `allowed`
 * (sink gets them; sink must be all false). */
static void ancestors(const cuts_t *c, const double *capd, const mpq_t *capq, const bool *allowed,
                      int v, bool *sink, int *queue)
{
    int qh = 0, qt = 0;
    sink[v] = true;
    queue[qt++] = v;
    while (qh < qt) {
        int w = queue[qh++];
        for (int i = c->in_start[w]; i < c->in_start[w + 1]; i++) {
            int a = c->in_arc[i], u = c->tail[a];
            bool pos = capq ? mpq_sgn(capq[a]) > 0 : capd[a] > 0;
            if (pos && allowed[u] && !sink[u]) {
                sink[u] = true;
                queue[qt++] = u;
            }
        }
    }
}

/* Adds the cuts that capacities cap (capd in doubles, or capq exact: one
 * is NULL) violate for throughput tp; *added gets their number. */
static steady_err_t separate(cuts_t *c, const double *capd, const mpq_t *capq, double tpd,
                             const mpq_t tpq, int *added)
{
    int nv = c->g.n, src = c->s->sources[0];
    *added = 0;
    bool *in_c = malloc((size_t)nv * sizeof *in_c);
    bool *covered = calloc((size_t)nv, sizeof *covered);
    bool *sink = malloc((size_t)nv * sizeof *sink);
    bool *unreached = malloc((size_t)nv * sizeof *unreached);
    int *queue = malloc((size_t)nv * sizeof *queue);
    mpq_t value;
    mpq_init(value);
    steady_err_t rc = STEADY_OK;
    if (!in_c || !covered || !sink || !unreached || !queue) {
        rc = STEADY_ENOMEM;
        goto done;
    }
    /* nodes the source does not reach through positive capacities */
    memset(in_c, 0, (size_t)nv * sizeof *in_c);
    int qh = 0, qt = 0;
    in_c[src] = true;
    queue[qt++] = src;
    while (qh < qt) {
        int u = queue[qh++];
        for (int i = c->out_start[u]; i < c->out_start[u + 1]; i++) {
            int a = c->out_arc[i], w = c->head[a];
            bool pos = capq ? mpq_sgn(capq[a]) > 0 : capd[a] > 0;
            if (pos && !in_c[w]) {
                in_c[w] = true;
                queue[qt++] = w;
            }
        }
    }
    for (int v = 0; v < nv; v++)
        unreached[v] = !in_c[v];
    int flows_left = c->flows_per_round;
    for (int i = 0; i < c->s->ntargets; i++) {
        int k = c->s->targets[i];
        if (!unreached[k] || covered[k])
            continue;
        if (!c->flowed[k] && flows_left > 0) {
            flows_left--;
            add_target_flow(c, k);
            (*added)++;
            continue;
        }
        memset(sink, 0, (size_t)nv * sizeof *sink);
        ancestors(c, capd, capq, unreached, k, sink, queue);
        add_cut(c, sink);
        (*added)++;
        for (int v = 0; v < nv; v++)
            covered[v] = covered[v] || sink[v];
    }
    /* the others: propagation, then flows */
    lp_flow_certify(c->flow, capd, capq, src, tpd, tpq, in_c);
    double limit = tpd * (1 - 1e-9);
    for (int i = 0; i < c->s->ntargets; i++) {
        int k = c->s->targets[i];
        if (in_c[k] || covered[k] || unreached[k])
            continue;
        bool below;
        if (capq) {
            if (!lp_flow_max_q(c->flow, capq, src, k, tpq, value, sink)) {
                rc = STEADY_ENOMEM;
                goto done;
            }
            below = mpq_cmp(value, tpq) < 0;
        } else {
            below = lp_flow_max_d(c->flow, capd, src, k, tpd, sink) < limit;
        }
        if (!below)
            continue;
        if (!c->flowed[k] && flows_left > 0) {
            flows_left--;
            add_target_flow(c, k);
            (*added)++;
            continue;
        }
        add_cut(c, sink);
        (*added)++;
        for (int v = 0; v < nv; v++)
            covered[v] = covered[v] || sink[v];
    }
done:
    mpq_clear(value);
    free(in_c);
    free(covered);
    free(sink);
    free(unreached);
    free(queue);
    return rc;
}

steady_err_t lp_solve_cuts(steady_solution_t *s, const steady_solve_options_t *opts,
                           lp_watch_t *watch, steady_error_t *err)
{
    lp_model_t m;
    lp_model_init(&m);
    m.watch = watch;
    m.names = opts && opts->write_lp;
    cuts_t c = {.s = s, .m = &m, .flows_per_round = FLOWS_PER_ROUND};
    lp_status_t *row_stat = NULL, *col_stat = NULL;
    double *x = NULL, *capd = NULL;
    mpq_t *values = NULL, *capq = NULL;
    int nvalues = 0;
    s->formulation = STEADY_FORMULATION_CUTS;
    steady_solve_options_t o = opts ? *opts : (steady_solve_options_t){.exact = true};
    o.write_lp = NULL;
    steady_err_t rc = build(&c);
    if (rc || m.oom) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory building the LP");
        goto done;
    }
    capd = malloc((size_t)(c.narcs + 1) * sizeof *capd);
    capq = malloc((size_t)(c.narcs + 1) * sizeof *capq);
    if (!capd || !capq) {
        free(capq);
        capq = NULL;
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto done;
    }
    for (int a = 0; a < c.narcs; a++)
        mpq_init(capq[a]);
    s->stats.build_s = lp_now() - watch->start;
    bool want_exact = !opts || opts->exact, exact_round = false;
    int basis_rows = 0, basis_cols = 0;
    for (int round = 1;; round++) {
        if (!lp_watch_tick(watch, "broadcast cuts, round", round, 0)) {
            rc = steady_error_set(err, STEADY_ESOLVER,
                                  "time limit of %g s reached in the cut generation (round %d, "
                                  "%d cuts, LP of %d rows and %d columns)",
                                  watch->limit_s, round, c.ncuts, m.nrows, m.ncols);
            goto done;
        }
        /* room for this round's model and its results (rows and columns
         * only grow) */
        lp_status_t *rs = realloc(row_stat, (size_t)m.nrows * sizeof *rs);
        if (rs)
            row_stat = rs;
        lp_status_t *cs = realloc(col_stat, (size_t)m.ncols * sizeof *cs);
        if (cs)
            col_stat = cs;
        double *xs = realloc(x, (size_t)m.ncols * sizeof *xs);
        if (xs)
            x = xs;
        mpq_t *vs = realloc(values, (size_t)m.ncols * sizeof *vs);
        if (vs)
            for (values = vs; nvalues < m.ncols; nvalues++)
                mpq_init(values[nvalues]);
        if (!rs || !cs || !xs || !vs) {
            rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
            goto done;
        }
        lp_start_t start = {row_stat, col_stat, basis_rows, basis_cols, true};
        lp_run_t run = {.start = round > 1 ? &start : NULL,
                        .want_exact = exact_round,
                        .row_stat = row_stat,
                        .col_stat = col_stat,
                        .x = x};
        if ((rc = lp_run(&m, &o, watch, &run, values, err)))
            goto done;
        basis_rows = m.nrows;
        basis_cols = m.ncols;
        s->stats.solve_s += run.simplex_s;
        s->stats.exact_s += run.exact_s;
        s->stats.rounds = round;
        int added = 0;
        if (!exact_round) {
            for (int a = 0; a < c.narcs; a++)
                capd[a] = x[c.col[a]];
            if ((rc = separate(&c, capd, NULL, x[c.tp], NULL, &added)))
                goto nomem;
            if (added == 0 && want_exact)
                exact_round = true; /* solve again (no pivot) and recover exactly */
            else if (added == 0) {
                s->exact = false;
                s->note = "exact recovery not requested";
                break;
            }
            continue;
        }
        if (!run.exact) {
            s->exact = false;
            s->note = run.note;
            break;
        }
        double t0 = lp_now();
        for (int a = 0; a < c.narcs; a++)
            mpq_set(capq[a], values[c.col[a]]);
        rc = separate(&c, NULL, capq, 0, values[c.tp], &added);
        s->stats.exact_s += lp_now() - t0;
        if (rc)
            goto nomem;
        if (added == 0) {
            s->exact = true;
            s->note = "";
            break;
        }
        exact_round = false; /* a cut the tolerances missed: go on */
    }
    s->stats.rows = m.nrows;
    s->stats.cols = m.ncols;
    s->stats.nonzeros = m.nnz;
    s->stats.cuts = c.ncuts;
    if ((rc = lp_store_values(s, &m, values, err)))
        goto done;
    if (opts && opts->write_lp)
        rc = lp_glpk_write(&m, opts->write_lp, err);
    goto done;
nomem:
    rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
done:
    if (values)
        for (int j = 0; j < nvalues; j++)
            mpq_clear(values[j]);
    if (capq)
        for (int a = 0; a < c.narcs; a++)
            mpq_clear(capq[a]);
    free(values);
    free(capq);
    free(capd);
    free(row_stat);
    free(col_stat);
    free(x);
    cuts_free(&c);
    lp_model_free(&m);
    return rc;
}
