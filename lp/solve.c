/*
 * solve.c — steady_lp_solve: the problem checked (problem.c), the
 * formulation chosen (docs/linear-programs.md, "Formulations": full.c,
 * aggregate.c, cuts.c), one model solved by a simplex (glpk.c, or clp.c)
 * and recovered exactly (exact.c); and the LPs derived from a solution:
 * whole counts per period, segments.
 */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"

/* The largest per-type LP (hops x types columns, and processors x tasks
 * for a reduce) that --formulation auto solves as it is
 * (docs/linear-programs.md, "Formulations"). */
#define AUTO_FULL_MAX 20000

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The exact recovery, as the simplex's accept callback: values go straight
 * into `value`; the time it takes is kept apart from the simplex's. */
struct exact_ctx {
    mpq_t *value, *dual;
    const char **why;
    double seconds;
    lp_watch_t *watch;
};

static bool accept_exact(const lp_model_t *m, const lp_status_t *row_stat,
                         const lp_status_t *col_stat, void *arg)
{
    struct exact_ctx *ctx = arg;
    double t = lp_now();
    bool ok = lp_exact_solution(m, row_stat, col_stat, ctx->value, ctx->dual, ctx->watch, ctx->why);
    ctx->seconds += lp_now() - t;
    return ok;
}

/* Clp pays on large LPs only (docs/performance.md): GLPK's start is
 * cheaper below this many columns. */
#define CLP_MIN_COLS 20000

static bool use_clp(const lp_model_t *m, const steady_solve_options_t *opts)
{
    steady_simplex_t want = opts ? opts->simplex : STEADY_SIMPLEX_AUTO;
    if (!lp_clp_available() || want == STEADY_SIMPLEX_GLPK)
        return false;
    return want == STEADY_SIMPLEX_CLP || m->ncols >= CLP_MIN_COLS;
}

steady_err_t lp_built(steady_solution_t *s, const lp_model_t *m, steady_err_t rc,
                      const lp_watch_t *watch, steady_error_t *err)
{
    if (watch->expired)
        return steady_error_set(err, STEADY_ESOLVER,
                                "time limit of %g s reached while building the LP (%d rows and %d "
                                "columns so far)",
                                watch->limit_s, m->nrows, m->ncols);
    if (rc || m->oom)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory building the LP");
    s->stats.rows = m->nrows;
    s->stats.cols = m->ncols;
    s->stats.nonzeros = m->nnz;
    s->stats.build_s = lp_now() - watch->start;
    s->stats.rounds = 1;
    return STEADY_OK;
}

steady_err_t lp_run(const lp_model_t *m, const steady_solve_options_t *opts, lp_watch_t *watch,
                    lp_run_t *run, mpq_t *values, steady_error_t *err)
{
    steady_err_t rc = STEADY_OK;
    lp_status_t *row_stat = run->row_stat, *col_stat = run->col_stat;
    double *x = run->x;
    bool own_rs = !row_stat, own_cs = !col_stat, own_x = !x;
    if (own_rs)
        row_stat = malloc((size_t)(m->nrows ? m->nrows : 1) * sizeof *row_stat);
    if (own_cs)
        col_stat = malloc((size_t)(m->ncols ? m->ncols : 1) * sizeof *col_stat);
    if (own_x)
        x = malloc((size_t)(m->ncols ? m->ncols : 1) * sizeof *x);
    if (!row_stat || !col_stat || !x) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto done;
    }
    const char *why = "";
    struct exact_ctx ctx = {.value = values, .dual = run->exact_dual, .why = &why, .watch = watch};
    bool accepted = false;
    double t0 = lp_now();
    run->simplex = use_clp(m, opts) ? STEADY_SIMPLEX_CLP : STEADY_SIMPLEX_GLPK;
    if (run->simplex == STEADY_SIMPLEX_CLP) {
        if ((rc = lp_clp_solve(m, watch, run->start, row_stat, col_stat, x, err)))
            goto done;
        if (run->want_exact) {
            accepted = accept_exact(m, row_stat, col_stat, &ctx);
            if (!accepted) {
                /* GLPK's exact simplex goes on from Clp's basis */
                lp_start_t from = {row_stat, col_stat, m->nrows, m->ncols, false};
                steady_solve_options_t glpk = opts ? *opts : (steady_solve_options_t){0};
                glpk.write_lp = NULL;
                rc = lp_glpk_solve(m, &glpk, watch, &from, accept_exact, &ctx, row_stat, col_stat,
                                   x, NULL, &accepted, &why, err);
                if (rc)
                    goto done;
            }
        }
    } else {
        if ((rc = lp_glpk_solve(m, opts, watch, run->start, run->want_exact ? accept_exact : NULL,
                                &ctx, row_stat, col_stat, x, run->dual, &accepted, &why, err)))
            goto done;
    }
    run->simplex_s = lp_now() - t0 - ctx.seconds;
    run->exact_s = ctx.seconds;
    run->exact = accepted;
    if (!accepted) {
        run->note = run->want_exact ? why : "exact recovery not requested";
        for (int j = 0; j < m->ncols; j++)
            mpq_set_d(values[j], x[j] > 0 ? x[j] : 0.0);
    } else {
        run->note = "";
    }
done:
    if (own_rs)
        free(row_stat);
    if (own_cs)
        free(col_stat);
    if (own_x)
        free(x);
    return rc;
}

steady_err_t lp_store_values(steady_solution_t *s, const lp_model_t *m, mpq_t *values,
                             steady_error_t *err)
{
    lp_rate_builder_t send, cons, flow;
    lp_rb_init(&send);
    lp_rb_init(&cons);
    lp_rb_init(&flow);
    s->has_flows = false;
    for (int j = 0; j < m->ncols; j++) {
        const lp_col_t *c = &m->col[j];
        switch (c->kind) {
        case COL_TP: mpq_set(s->tp, values[j]); break;
        case COL_SEND: lp_rb_add(&send, c->a, c->b, values[j]); break;
        case COL_CONS: lp_rb_add(&cons, c->a, c->b, values[j]); break;
        case COL_FLOW:
            lp_rb_add(&flow, c->a, c->b, values[j]);
            s->has_flows = true;
            break;
        default: break;
        }
    }
    lp_rates_free(&s->send);
    lp_rates_free(&s->cons);
    lp_rates_free(&s->flow);
    bool ok = lp_rb_finish(&send, s->nhops, &s->send);
    ok = lp_rb_finish(&cons, steady_platform_node_count(s->p), &s->cons) && ok;
    ok = lp_rb_finish(&flow, s->nhops, &s->flow) && ok;
    return ok ? STEADY_OK : steady_error_set(err, STEADY_ENOMEM, "out of memory");
}

steady_err_t steady_lp_solve(const steady_platform_t *p, const steady_problem_t *prob,
                             const steady_solve_options_t *opts, steady_solution_t **out,
                             steady_error_t *err)
{
    *out = NULL;
    lp_watch_t watch = lp_watch_of(opts);
    steady_solution_t *s;
    steady_err_t rc = lp_solution_prepare(p, prob, &s, err);
    if (rc)
        return rc;
    s->stats.simplex = STEADY_SIMPLEX_GLPK;
    steady_formulation_t f = opts ? opts->formulation : STEADY_FORMULATION_AUTO;
    if (f != STEADY_FORMULATION_AUTO && f != STEADY_FORMULATION_FULL &&
        f != STEADY_FORMULATION_COMPACT &&
        (s->op != STEADY_OP_BROADCAST ||
         (f != STEADY_FORMULATION_CUTS && f != STEADY_FORMULATION_ARBORESCENCES))) {
        steady_solution_destroy(s);
        if (f == STEADY_FORMULATION_CUTS || f == STEADY_FORMULATION_ARBORESCENCES)
            return steady_error_set(err, STEADY_EINVAL, "the %s formulation is a broadcast's",
                                    steady_formulation_name(f));
        return steady_error_set(err, STEADY_EINVAL, "unknown formulation (%d)", (int)f);
    }
    if (f == STEADY_FORMULATION_ARBORESCENCES && !lp_arbgen_applies(s)) {
        steady_solution_destroy(s);
        return steady_error_set(err, STEADY_EINVAL,
                                "the arborescences formulation needs every rank but the source "
                                "as a target (use cuts)");
    }
    if (opts && opts->simplex == STEADY_SIMPLEX_CLP && !lp_clp_available()) {
        steady_solution_destroy(s);
        return steady_error_set(err, STEADY_EUNSUPPORTED,
                                "this steady was built without Clp (make STEADY_CLP=1)");
    }
    /* auto: the per-type LP while it is small (it solves in well under a
     * second, and its vertices give the plans the planner's tests and
     * benchmarks were measured on), the smaller formulations beyond */
    double full_cols = (double)s->nhops * (s->op == STEADY_OP_BROADCAST ? s->ntargets : s->ntypes);
    if (s->op == STEADY_OP_REDUCE)
        full_cols += (double)steady_platform_processor_count(p) * s->ntasks;
    if (f == STEADY_FORMULATION_FULL ||
        (f == STEADY_FORMULATION_AUTO && full_cols <= AUTO_FULL_MAX))
        rc = lp_solve_full(s, opts, &watch, err);
    else if (s->op == STEADY_OP_BROADCAST)
        rc = lp_arbgen_applies(s) && f != STEADY_FORMULATION_CUTS
                 ? lp_solve_arbgen(s, opts, &watch, err)
                 : lp_solve_cuts(s, opts, &watch, err);
    else if (s->op == STEADY_OP_REDUCE)
        rc = lp_solve_treegen(s, opts, &watch, err);
    else
        rc = lp_solve_aggregate(s, opts, &watch, err);
    s->stats.timed_out = !s->exact && watch.expired;
    if (rc) {
        steady_solution_destroy(s);
        return rc;
    }
    *out = s;
    return STEADY_OK;
}

/* A copy of lp's problem and results: its TP and rates times m (0: no
 * rates), for the message size and task cost divided by m. */
static steady_err_t scaled_copy(const steady_solution_t *lp, long m, steady_solution_t **out,
                                steady_error_t *err)
{
    steady_problem_t prob = lp_problem_of(lp);
    prob.msg_size = lp->msg_size / (double)m;
    prob.task_cost = lp->task_cost / (double)m;
    steady_solution_t *s;
    steady_err_t rc = lp_solution_prepare(lp->p, &prob, &s, err);
    if (rc)
        return rc;
    mpq_t mq;
    mpq_init(mq);
    mpq_set_si(mq, m, 1);
    mpq_mul(s->tp, lp->tp, mq);
    const lp_rates_t *from[3] = {&lp->send, &lp->cons, &lp->flow};
    lp_rates_t *to[3] = {&s->send, &s->cons, &s->flow};
    bool ok = true;
    for (int k = 0; k < 3 && ok; k++) {
        if (!from[k]->start)
            continue;
        lp_rate_builder_t b;
        lp_rb_init(&b);
        for (int r = 0; r < from[k]->nrows; r++)
            for (int i = from[k]->start[r]; i < from[k]->start[r + 1]; i++) {
                mpq_t v;
                mpq_init(v);
                mpq_mul(v, from[k]->val[i], mq);
                lp_rb_add(&b, r, from[k]->key[i], v);
                mpq_clear(v);
            }
        ok = lp_rb_finish(&b, from[k]->nrows, to[k]);
    }
    mpq_clear(mq);
    if (!ok) {
        steady_solution_destroy(s);
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    }
    s->has_flows = lp->has_flows;
    s->exact = lp->exact;
    s->note = lp->note;
    s->formulation = lp->formulation;
    s->stats = lp->stats;
    s->scale = m;
    *out = s;
    return STEADY_OK;
}

steady_err_t steady_lp_solve_segment(const steady_solution_t *lp, long m,
                                     const steady_solve_options_t *opts, steady_solution_t **out,
                                     steady_error_t *err)
{
    *out = NULL;
    if (m < 1)
        return steady_error_set(err, STEADY_EINVAL, "segments: %ld is not positive", m);
    if (steady_platform_is_abstract(lp->p))
        return steady_error_set(err, STEADY_EINVAL,
                                "segments: an abstract platform's costs are per message, which "
                                "cannot be cut (%ld segments)",
                                m);
    bool overhead = false;
    for (int e = 0; e < steady_platform_edge_count(lp->p); e++)
        overhead = overhead || steady_platform_edge(lp->p, e)->overhead > 0;
    if (overhead) {
        steady_problem_t prob = lp_problem_of(lp);
        prob.msg_size = lp->msg_size / (double)m;
        prob.task_cost = lp->task_cost / (double)m;
        steady_solve_options_t o = opts ? *opts : (steady_solve_options_t){.exact = true};
        if (o.formulation == STEADY_FORMULATION_AUTO && lp->formulation == STEADY_FORMULATION_FULL)
            o.formulation = STEADY_FORMULATION_FULL;
        return steady_lp_solve(lp->p, &prob, &o, out, err);
    }
    /* every cost is lp's divided by m: the rates times m are optimal */
    double t0 = lp_now();
    steady_err_t rc = scaled_copy(lp, m, out, err);
    if (!rc)
        (*out)->stats.build_s = lp_now() - t0;
    return rc;
}

/* The counts n (integers, one per column, TP's = k) as an exact solution
 * of m: T = the largest load of a capacity row, each rate n / T, with row
 * (nrows initialised mpq_t, zero) as scratch.  Every row is checked
 * exactly; false if one fails (GLPK's tolerances). */
static bool whole_values(const lp_model_t *m, const double *x, mpq_t *row, mpq_t *value)
{
    mpq_t q, T;
    mpq_inits(q, T, NULL);
    bool ok = true;
    for (int j = 0; j < m->ncols && ok; j++) {
        double r = nearbyint(x[j]);
        ok = isfinite(x[j]) && fabs(x[j] - r) < 1e-6 && r >= 0 && r < 1e15;
        if (ok)
            mpq_set_d(value[j], r);
    }
    for (int k = 0; ok && k < m->nnz; k++) {
        mpq_mul(q, m->a[k].val, value[m->a[k].col]);
        mpq_add(row[m->a[k].row], row[m->a[k].row], q);
    }
    for (int i = 0; ok && i < m->nrows; i++)
        if (m->row_kind[i] == ROW_UP && m->row_bound[i] == 1) {
            if (mpq_cmp(row[i], T) > 0)
                mpq_set(T, row[i]);
        } else {
            int c = mpq_cmp_si(row[i], 0, 1);
            ok = m->row_kind[i] == ROW_FX ? c == 0 : c <= 0;
        }
    ok = ok && mpq_sgn(T) > 0;
    for (int j = 0; ok && j < m->ncols; j++)
        mpq_div(value[j], value[j], T);
    mpq_clears(q, T, NULL);
    return ok;
}

steady_err_t steady_lp_solve_whole(const steady_solution_t *lp, long k, long node_limit,
                                   const steady_solve_options_t *opts, steady_solution_t **out,
                                   long *nodes, steady_error_t *err)
{
    *out = NULL;
    if (nodes)
        *nodes = 0;
    if (k < 1)
        return steady_error_set(err, STEADY_EINVAL,
                                "whole counts need at least one operation per period (%ld)", k);
    long examined = 0;
    lp_watch_t watch = lp_watch_of(opts);
    steady_problem_t prob = lp_problem_of(lp);
    lp_model_t m;
    lp_model_init(&m);
    m.watch = &watch;
    steady_solution_t *s;
    double *x = NULL;
    mpq_t *value = NULL;
    bool found = false;
    steady_err_t rc = lp_solution_prepare(lp->p, &prob, &s, err);
    if (rc)
        return rc;
    /* the per-type model: its whole counts decompose into whole routes
     * and trees directly */
    if ((rc = lp_build_full(s, &m)) || m.oom) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory building the LP");
        goto fail;
    }
    if (watch.expired) {
        rc = steady_error_set(err, STEADY_ESOLVER, "time limit of %g s reached", watch.limit_s);
        goto fail;
    }
    double t1 = lp_now();
    s->stats.build_s = t1 - watch.start;
    s->stats.rows = m.nrows;
    s->stats.cols = m.ncols;
    s->stats.nonzeros = m.nnz;
    s->stats.rounds = 1;
    if (!(x = malloc((size_t)m.ncols * sizeof *x))) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto fail;
    }
    if ((rc = lp_glpk_solve_whole(&m, k, node_limit, &watch, x, &found, &examined, err)))
        goto fail;
    s->stats.solve_s = lp_now() - t1;
    if (found) {
        mpq_t *row = malloc((size_t)(m.nrows ? m.nrows : 1) * sizeof *row);
        value = malloc((size_t)m.ncols * sizeof *value);
        if (!row || !value) {
            free(row);
            free(value);
            value = NULL;
            rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
            goto fail;
        }
        for (int i = 0; i < m.nrows; i++)
            mpq_init(row[i]);
        for (int j = 0; j < m.ncols; j++)
            mpq_init(value[j]);
        bool ok = whole_values(&m, x, row, value);
        for (int i = 0; i < m.nrows; i++)
            mpq_clear(row[i]);
        free(row);
        if (!ok) {
            rc = steady_error_set(err, STEADY_EINTERNAL,
                                  "GLPK's whole counts for %ld operations per period do not "
                                  "satisfy the LP exactly",
                                  k);
            goto fail;
        }
        if ((rc = lp_store_values(s, &m, value, err)))
            goto fail;
        s->exact = true;
        s->note = "";
        s->formulation = STEADY_FORMULATION_FULL;
        *out = s;
        s = NULL;
    }

fail:
    if (nodes)
        *nodes = examined;
    if (value)
        for (int j = 0; j < m.ncols; j++)
            mpq_clear(value[j]);
    free(value);
    free(x);
    lp_model_free(&m);
    steady_solution_destroy(s);
    return rc;
}
