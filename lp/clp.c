/*
 * clp.c — the only file of steady that calls COIN-OR Clp, through its C
 * interface (coin/Clp_C_Interface.h), when built with STEADY_CLP=1.
 */
#include "internal.h"

#ifndef STEADY_CLP

bool lp_clp_available(void)
{
    return false;
}

steady_err_t lp_clp_solve(const lp_model_t *m, lp_watch_t *watch, const lp_start_t *start,
                          lp_status_t *row_stat, lp_status_t *col_stat, double *x,
                          steady_error_t *err)
{
    (void)m;
    (void)watch;
    (void)start;
    (void)row_stat;
    (void)col_stat;
    (void)x;
    return steady_error_set(err, STEADY_EUNSUPPORTED,
                            "this steady was built without Clp (make STEADY_CLP=1)");
}

#else /* STEADY_CLP */

#include <coin/Clp_C_Interface.h>
#include <float.h>
#include <stdlib.h>

/* Clp's status codes (ClpSimplex::Status) */
enum { CLP_BASIC = 1, CLP_AT_UPPER = 2, CLP_AT_LOWER = 3, CLP_FIXED = 5 };

bool lp_clp_available(void)
{
    return true;
}

steady_err_t lp_clp_solve(const lp_model_t *m, lp_watch_t *watch, const lp_start_t *start,
                          lp_status_t *row_stat, lp_status_t *col_stat, double *x,
                          steady_error_t *err)
{
    int nr = m->nrows, nc = m->ncols;
    /* column-major copy of the entries, in doubles */
    CoinBigIndex *cstart = calloc((size_t)nc + 1, sizeof *cstart);
    int *index = malloc((size_t)(m->nnz ? m->nnz : 1) * sizeof *index);
    double *value = malloc((size_t)(m->nnz ? m->nnz : 1) * sizeof *value);
    double *collb = calloc((size_t)(nc ? nc : 1), sizeof *collb);
    double *colub = malloc((size_t)(nc ? nc : 1) * sizeof *colub);
    double *obj = calloc((size_t)(nc ? nc : 1), sizeof *obj);
    double *rowlb = malloc((size_t)(nr ? nr : 1) * sizeof *rowlb);
    double *rowub = malloc((size_t)(nr ? nr : 1) * sizeof *rowub);
    CoinBigIndex *fill = malloc((size_t)(nc ? nc : 1) * sizeof *fill);
    steady_err_t rc = STEADY_OK;
    Clp_Simplex *clp = NULL;
    if (!cstart || !index || !value || !collb || !colub || !obj || !rowlb || !rowub || !fill) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory loading the LP into Clp");
        goto done;
    }
    for (int k = 0; k < m->nnz; k++)
        cstart[m->a[k].col + 1]++;
    for (int j = 0; j < nc; j++) {
        cstart[j + 1] += cstart[j];
        fill[j] = cstart[j];
        colub[j] = DBL_MAX;
    }
    for (int k = 0; k < m->nnz; k++) {
        CoinBigIndex at = fill[m->a[k].col]++;
        index[at] = m->a[k].row;
        value[at] = mpq_get_d(m->a[k].val);
    }
    for (int i = 0; i < nr; i++) {
        rowub[i] = m->row_bound[i];
        rowlb[i] = m->row_kind[i] == ROW_FX ? m->row_bound[i] : -DBL_MAX;
    }
    obj[m->obj] = 1.0;
    if (!(clp = Clp_newModel())) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory creating the Clp model");
        goto done;
    }
    Clp_setLogLevel(clp, 0);
    Clp_loadProblem(clp, nc, nr, cstart, index, value, collb, colub, obj, rowlb, rowub);
    Clp_setOptimizationDirection(clp, -1.0); /* maximise */
    if (watch && watch->deadline > 0) {
        if (!lp_watch_tick(watch, "simplex (Clp)", 0, 0)) {
            rc = steady_error_set(err, STEADY_ESOLVER,
                                  "time limit of %g s reached before the simplex (LP of %d rows, "
                                  "%d columns)",
                                  watch->limit_s, nr, nc);
            goto done;
        }
        Clp_setMaximumSeconds(clp, lp_watch_left_ms(watch) / 1000.0);
    }
    bool dual = start && start->dual;
    if (start && start->row_stat) {
        for (int i = 0; i < nr; i++) {
            int st = CLP_BASIC;
            if (i < start->nrows && start->row_stat[i] == LP_AT_BOUND)
                st = m->row_kind[i] == ROW_FX ? CLP_FIXED : CLP_AT_UPPER;
            Clp_setRowStatus(clp, i, st);
        }
        for (int j = 0; j < nc; j++)
            Clp_setColumnStatus(clp, j,
                                j < start->ncols && start->col_stat[j] == LP_BASIC ? CLP_BASIC
                                                                                   : CLP_AT_LOWER);
    }
    const char *env = getenv("STEADY_CLP_METHOD"); /* measurements: primal or dual */
    if (env && env[0] == 'p')
        dual = false;
    else if (env && env[0] == 'd')
        dual = true;
    int st = dual ? Clp_dual(clp, 0) : Clp_primal(clp, 0);
    (void)st;
    int status = Clp_status(clp);
    if (status == 3 && watch && watch->deadline > 0 && lp_now() >= watch->deadline) {
        rc = steady_error_set(err, STEADY_ESOLVER,
                              "time limit of %g s reached in the simplex (Clp, LP of %d rows, %d "
                              "columns)",
                              watch->limit_s, nr, nc);
        goto done;
    }
    if (status == 2) {
        rc = steady_error_set(err, STEADY_EINTERNAL,
                              "the LP is unbounded: the problem has no throughput limit");
        goto done;
    }
    if (status != 0) {
        rc = steady_error_set(err, STEADY_ESOLVER, "Clp found no optimal solution (status %d)",
                              status);
        goto done;
    }
    const double *sol = Clp_getColSolution(clp);
    for (int j = 0; j < nc; j++) {
        x[j] = sol[j];
        col_stat[j] = Clp_getColumnStatus(clp, j) == CLP_BASIC ? LP_BASIC : LP_AT_BOUND;
    }
    for (int i = 0; i < nr; i++)
        row_stat[i] = Clp_getRowStatus(clp, i) == CLP_BASIC ? LP_BASIC : LP_AT_BOUND;
done:
    if (clp)
        Clp_deleteModel(clp);
    free(cstart);
    free(index);
    free(value);
    free(collb);
    free(colub);
    free(obj);
    free(rowlb);
    free(rowub);
    free(fill);
    return rc;
}

#endif
