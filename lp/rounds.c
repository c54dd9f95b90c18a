/*
 * rounds.c — the rounds of a generated formulation (cuts.c: rows, the
 * broadcast's cuts; treegen.c: columns, the reduce's trees): solve the
 * model, let the formulation add what the solution lacks, solve again from
 * the last basis; once nothing is added, solve once more (no pivot) with
 * the exact recovery and let the formulation check the exact solution,
 * which may add again (what the tolerances missed) and go on.
 */
#include "internal.h"

#include "../common/array.h"

#include <stdlib.h>

steady_err_t lp_rounds(steady_solution_t *s, lp_model_t *m, const steady_solve_options_t *opts,
                       lp_watch_t *watch, const lp_rounds_t *how, steady_error_t *err)
{
    steady_solve_options_t o = opts ? *opts : (steady_solve_options_t){.exact = true};
    o.write_lp = NULL;
    bool want_exact = !opts || opts->exact, exact_round = false;
    lp_status_t *row_stat = NULL, *col_stat = NULL;
    double *x = NULL, *dual = NULL;
    mpq_t *values = NULL, *exact_dual = NULL;
    int nvalues = 0, nduals = 0, basis_rows = 0, basis_cols = 0;
    int rs_cap = 0, cs_cap = 0, x_cap = 0, v_cap = 0, d_cap = 0, qd_cap = 0;
    steady_err_t rc = STEADY_OK;
    s->stats.build_s = lp_now() - watch->start;
    for (int round = 1;; round++) {
        if (!lp_watch_tick(watch, how->stage, round, 0)) {
            rc = steady_error_set(err, STEADY_ESOLVER,
                                  "time limit of %g s reached in the %s (round %d, LP of %d rows "
                                  "and %d columns)",
                                  watch->limit_s, how->what, round, m->nrows, m->ncols);
            goto done;
        }
        /* room for this round's model and its results (rows and columns
         * only grow) */
        bool ok = array_grow((void **)&row_stat, &rs_cap, m->nrows, sizeof *row_stat, 64) &&
                  array_grow((void **)&col_stat, &cs_cap, m->ncols, sizeof *col_stat, 64) &&
                  array_grow((void **)&x, &x_cap, m->ncols, sizeof *x, 64) &&
                  array_grow((void **)&values, &v_cap, m->ncols, sizeof *values, 64);
        for (; ok && nvalues < m->ncols; nvalues++)
            mpq_init(values[nvalues]);
        if (ok && how->duals) {
            ok = array_grow((void **)&dual, &d_cap, m->nrows, sizeof *dual, 64) &&
                 array_grow((void **)&exact_dual, &qd_cap, m->nrows, sizeof *exact_dual, 64);
            for (; ok && nduals < m->nrows; nduals++)
                mpq_init(exact_dual[nduals]);
        }
        if (!ok)
            goto nomem;
        lp_start_t start = {row_stat, col_stat, basis_rows, basis_cols, how->dual_simplex};
        lp_run_t run = {.start = round > 1 ? &start : NULL,
                        .want_exact = exact_round,
                        .row_stat = row_stat,
                        .col_stat = col_stat,
                        .x = x,
                        .dual = dual,
                        .exact_dual = exact_dual};
        if ((rc = lp_run(m, &o, watch, &run, values, err)))
            goto done;
        basis_rows = m->nrows;
        basis_cols = m->ncols;
        s->stats.solve_s += run.simplex_s;
        if (run.simplex == STEADY_SIMPLEX_CLP) /* in any round */
            s->stats.simplex = STEADY_SIMPLEX_CLP;
        s->stats.exact_s += run.exact_s;
        s->stats.rounds = round;
        if (exact_round && !run.exact) {
            s->exact = false;
            s->note = run.note;
            break;
        }
        lp_round_t r = {round, exact_round, x, dual, values, exact_dual};
        bool added = false;
        const char *unverified = NULL;
        double t0 = lp_now();
        rc = how->step(how->ctx, &r, &added, &unverified, err);
        if (exact_round)
            s->stats.exact_s += lp_now() - t0;
        if (rc)
            goto done;
        if (added) {
            exact_round = false; /* in an exact round: what the tolerances missed */
        } else if (!exact_round && want_exact) {
            exact_round = true; /* solve again (no pivot) and recover exactly */
        } else {
            s->exact = exact_round && !unverified;
            s->note = !exact_round ? "exact recovery not requested" : unverified ? unverified : "";
            break;
        }
    }
    s->stats.rows = m->nrows;
    s->stats.cols = m->ncols;
    s->stats.nonzeros = m->nnz;
    if ((rc = how->store(how->ctx, values, err)))
        goto done;
    if (opts && opts->write_lp)
        rc = lp_glpk_write(m, opts->write_lp, err);
    goto done;
nomem:
    rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
done:
    for (int j = 0; j < nvalues; j++)
        mpq_clear(values[j]);
    for (int i = 0; i < nduals; i++)
        mpq_clear(exact_dual[i]);
    free(values);
    free(exact_dual);
    free(dual);
    free(x);
    free(row_stat);
    free(col_stat);
    return rc;
}
