/*
 * glpk.c — the only file of steady that calls GLPK.
 *
 * GLPK reports a fatal error (bad argument, exhausted memory, internal
 * failure) by printing and calling abort().  As igraph does
 * (src/internal/glpk_support.c), a terminal hook collects the message and an
 * error hook frees GLPK's environment and longjmps back here, so that the
 * failure becomes STEADY_ESOLVER with GLPK's reason and the process goes on.
 * After such an error every GLPK object is gone: the problem must not be
 * deleted again.
 */
#include "internal.h"

#include <glpk.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    jmp_buf jmp;
    char msg[512];
    size_t len;
    lp_watch_t *watch; /* progress: GLPK's iteration lines are parsed */
    const char *stage; /* "simplex" or "exact simplex" */
} glpk_guard_t;

static _Thread_local glpk_guard_t guard;

/* GLPK's progress lines start with the iteration count: "*  1234: obj = ..."
 * (primal simplex) or "  1234:   objval = ..." (glp_exact).  GLPK has no
 * progress callback, so with a progress function the simplex prints at
 * GLP_MSG_ON into this hook, which turns those lines into reports. */
static void iteration_line(const char *s)
{
    while (*s == ' ' || *s == '*')
        s++;
    char *end;
    long it = strtol(s, &end, 10);
    if (end != s && *end == ':')
        lp_watch_tick(guard.watch, guard.stage, (double)it, 0);
}

static int term_hook(void *info, const char *s)
{
    (void)info;
    if (glp_at_error()) {
        for (; *s && guard.len < sizeof guard.msg - 1; s++)
            guard.msg[guard.len++] = *s == '\n' ? ' ' : *s;
        guard.msg[guard.len] = '\0';
    } else if (guard.watch && guard.watch->progress) {
        iteration_line(s);
    }
    return 1; /* never print */
}

static void error_hook(void *info)
{
    (void)info;
    glp_free_env();
    longjmp(guard.jmp, 1);
}

static const char *simplex_error(int rc)
{
    switch (rc) {
    case GLP_EBADB: return "invalid initial basis";
    case GLP_ESING: return "singular basis matrix";
    case GLP_ECOND: return "ill-conditioned basis matrix";
    case GLP_EBOUND: return "incorrect bounds";
    case GLP_EFAIL: return "solver failure";
    case GLP_EITLIM: return "iteration limit exceeded";
    case GLP_ETMLIM: return "time limit exceeded";
    case GLP_ENOPFS: return "no primal feasible solution";
    case GLP_ENODFS: return "no dual feasible solution";
    default: return "unknown error";
    }
}

/* Everything between the setjmp and the end of the GLPK work lives here so
 * that no automatic variable of the caller is modified after setjmp. */
static void read_basis(glp_prob *P, const lp_model_t *m, lp_status_t *row_stat,
                       lp_status_t *col_stat, double *x, double *dual)
{
    for (int i = 0; i < m->nrows; i++) {
        row_stat[i] = glp_get_row_stat(P, i + 1) == GLP_BS ? LP_BASIC : LP_AT_BOUND;
        if (dual)
            dual[i] = glp_get_row_dual(P, i + 1);
    }
    for (int j = 0; j < m->ncols; j++) {
        col_stat[j] = glp_get_col_stat(P, j + 1) == GLP_BS ? LP_BASIC : LP_AT_BOUND;
        x[j] = glp_get_col_prim(P, j + 1);
    }
}

/* Loads m's coefficients into P, or their transpose (m's rows as P's
 * columns). */
static steady_err_t load_matrix(glp_prob *P, const lp_model_t *m, bool transposed,
                                steady_error_t *err)
{
    /* glp_load_matrix takes 1-based triplets */
    int *ia = malloc(((size_t)m->nnz + 1) * sizeof *ia);
    int *ja = malloc(((size_t)m->nnz + 1) * sizeof *ja);
    double *ar = malloc(((size_t)m->nnz + 1) * sizeof *ar);
    if (!ia || !ja || !ar) {
        free(ia);
        free(ja);
        free(ar);
        return steady_error_set(err, STEADY_ENOMEM, "out of memory loading the LP");
    }
    for (int k = 0; k < m->nnz; k++) {
        ia[k + 1] = (transposed ? m->a[k].col : m->a[k].row) + 1;
        ja[k + 1] = (transposed ? m->a[k].row : m->a[k].col) + 1;
        ar[k + 1] = mpq_get_d(m->a[k].val);
    }
    glp_load_matrix(P, m->nnz, ia, ja, ar);
    free(ia);
    free(ja);
    free(ar);
    return STEADY_OK;
}

/* Loads m into P (maximise x[obj], rows and columns as lp_model_t says). */
static steady_err_t load(glp_prob *P, const lp_model_t *m, steady_error_t *err)
{
    glp_set_obj_dir(P, GLP_MAX);
    glp_add_rows(P, m->nrows);
    for (int i = 0; i < m->nrows; i++) {
        if (m->row_name && m->row_name[i])
            glp_set_row_name(P, i + 1, m->row_name[i]);
        if (m->row_kind[i] == ROW_FX)
            glp_set_row_bnds(P, i + 1, GLP_FX, m->row_bound[i], m->row_bound[i]);
        else
            glp_set_row_bnds(P, i + 1, GLP_UP, 0.0, m->row_bound[i]);
    }
    glp_add_cols(P, m->ncols);
    for (int j = 0; j < m->ncols; j++) {
        if (m->col_name && m->col_name[j])
            glp_set_col_name(P, j + 1, m->col_name[j]);
        glp_set_col_bnds(P, j + 1, GLP_LO, 0.0, 0.0);
    }
    glp_set_obj_coef(P, m->obj + 1, 1.0);
    return load_matrix(P, m, false, err);
}

/* Sets P's basis from start: its rows and columns as given (a row at
 * bound is at its upper bound, or fixed; a column at its lower bound 0),
 * later rows basic, later columns at 0.  The basis must be square, which
 * holds when start's was and every later row is basic. */
static void set_basis(glp_prob *P, const lp_model_t *m, const lp_start_t *start)
{
    for (int i = 0; i < m->nrows; i++) {
        int st = GLP_BS;
        if (i < start->nrows && start->row_stat[i] == LP_AT_BOUND)
            st = m->row_kind[i] == ROW_FX ? GLP_NS : GLP_NU;
        glp_set_row_stat(P, i + 1, st);
    }
    for (int j = 0; j < m->ncols; j++)
        glp_set_col_stat(P, j + 1,
                         j < start->ncols && start->col_stat[j] == LP_BASIC ? GLP_BS : GLP_NL);
}

/* Rows and columns from which a cold simplex is presolved (run()). */
#define PRESOLVE_MIN 40000

static steady_err_t run(glp_prob *P, const lp_model_t *m, const steady_solve_options_t *opts,
                        lp_watch_t *watch, const lp_start_t *start, lp_accept_fn accept, void *ctx,
                        lp_status_t *row_stat, lp_status_t *col_stat, double *x, double *dual,
                        bool *accepted, const char **why, steady_error_t *err)
{
    steady_err_t lrc = load(P, m, err);
    if (lrc)
        return lrc;
    if (opts && opts->write_lp && glp_write_lp(P, NULL, opts->write_lp) != 0)
        return steady_error_set(err, STEADY_EIO, "%s: cannot write the LP", opts->write_lp);

    glp_smcp parm;
    glp_init_smcp(&parm);
    bool progress = watch && watch->progress;
    parm.msg_lev = progress ? GLP_MSG_ON : GLP_MSG_OFF;
    parm.out_frq = 100;
    /* GLPK's presolver takes out what a large LP does not need, such as the
     * port rows of one hop (bounds in disguise: half of a tiers platform's
     * rows), and gives the final basis back on the whole LP, which the
     * exact recovery checks: the tiers-10000 scatter's simplex went from
     * 35 s to 5.5 s.  It ignores a starting basis, so a warm start (the
     * broadcast's cut rounds) goes without it, and so do the LPs below
     * PRESOLVE_MIN, whose optimal vertices (another basis may be another
     * optimal vertex) the plans were measured on (docs/performance.md). */
    parm.presolve =
        !(start && start->row_stat) && m->nrows + m->ncols >= PRESOLVE_MIN ? GLP_ON : GLP_OFF;
    glp_scale_prob(P, GLP_SF_AUTO);
    if (start && start->row_stat) {
        set_basis(P, m, start);
        if (start->dual)
            parm.meth = GLP_DUALP;
    }
    /* the time limit bounds the whole solve: the simplex gets what the
     * building left of it */
    if (watch && watch->deadline > 0 && !lp_watch_tick(watch, "simplex, iteration", 0, 0))
        return steady_error_set(err, STEADY_ESOLVER,
                                "time limit of %g s reached before the simplex (LP of %d rows, %d "
                                "columns)",
                                watch->limit_s, m->nrows, m->ncols);
    parm.tm_lim = lp_watch_left_ms(watch) > 0 ? lp_watch_left_ms(watch) : parm.tm_lim;
    guard.stage = "simplex, iteration";
    int rc = glp_simplex(P, &parm);
    if (rc == GLP_ETMLIM)
        return steady_error_set(err, STEADY_ESOLVER,
                                "time limit of %g s reached in the simplex (LP of %d rows, %d "
                                "columns)",
                                watch ? watch->limit_s : 0.0, m->nrows, m->ncols);
    if (rc != 0)
        return steady_error_set(err, STEADY_ESOLVER, "GLPK simplex failed: %s", simplex_error(rc));
    int status = glp_get_status(P);
    if (status == GLP_UNBND)
        return steady_error_set(err, STEADY_EINTERNAL,
                                "the LP is unbounded: the problem has no throughput limit");
    if (status != GLP_OPT)
        return steady_error_set(err, STEADY_ESOLVER, "GLPK found no optimal solution (status %d)",
                                status);
    read_basis(P, m, row_stat, col_stat, x, dual);
    *accepted = accept && accept(m, row_stat, col_stat, ctx);
    if (accept && !*accepted) {
        /* The floating-point basis is not exactly optimal: glp_exact goes on
         * from it in rational arithmetic.  It rounds non-integer input
         * numbers to nearby fractions (relative 1e-9), so its basis is
         * checked again against the exact coefficients. */
        if (watch && watch->deadline > 0 && !lp_watch_tick(watch, "exact simplex", 0, 0)) {
            *why = "the exact recovery ran out of time";
            return STEADY_OK;
        }
        parm.tm_lim = lp_watch_left_ms(watch) > 0 ? lp_watch_left_ms(watch) : parm.tm_lim;
        guard.stage = "exact simplex, iteration";
        rc = glp_exact(P, &parm);
        if (rc != 0 || glp_get_status(P) != GLP_OPT) {
            *why =
                rc == GLP_ETMLIM ? "the exact simplex ran out of time" : "the exact simplex failed";
            return STEADY_OK;
        }
        read_basis(P, m, row_stat, col_stat, x, dual);
        *accepted = accept(m, row_stat, col_stat, ctx);
    }
    return STEADY_OK;
}

/* Branch and cut stops after node_limit subproblems: a deterministic
 * budget, where a time limit would make the plan depend on the machine. */
typedef struct {
    long nodes, limit;
} node_budget_t;

static void count_nodes(glp_tree *T, void *info)
{
    node_budget_t *b = info;
    if (glp_ios_reason(T) == GLP_ISELECT && ++b->nodes > b->limit)
        glp_ios_terminate(T);
}

static steady_err_t run_whole(glp_prob *P, const lp_model_t *m, long k, long node_limit,
                              lp_watch_t *watch, double *x, bool *found, long *nodes,
                              steady_error_t *err)
{
    steady_err_t lrc = load(P, m, err);
    if (lrc)
        return lrc;
    /* the period T, a new column: minimised, bounding every capacity row */
    int tcol = glp_add_cols(P, 1), n = 0;
    int *ind = malloc(((size_t)m->nrows + 1) * sizeof *ind);
    double *val = malloc(((size_t)m->nrows + 1) * sizeof *val);
    if (!ind || !val) {
        free(ind);
        free(val);
        return steady_error_set(err, STEADY_ENOMEM, "out of memory loading the LP");
    }
    for (int i = 0; i < m->nrows; i++)
        if (m->row_kind[i] == ROW_UP && m->row_bound[i] == 1) {
            glp_set_row_bnds(P, i + 1, GLP_UP, 0.0, 0.0);
            ind[++n] = i + 1;
            val[n] = -1.0;
        }
    glp_set_mat_col(P, tcol, n, ind, val);
    free(ind);
    free(val);
    glp_set_col_bnds(P, tcol, GLP_LO, 0.0, 0.0);
    glp_set_obj_dir(P, GLP_MIN);
    glp_set_obj_coef(P, m->obj + 1, 0.0);
    glp_set_obj_coef(P, tcol, 1.0);
    glp_set_col_bnds(P, m->obj + 1, GLP_FX, (double)k, (double)k);
    for (int j = 0; j < m->ncols; j++)
        glp_set_col_kind(P, j + 1, GLP_IV);
    glp_scale_prob(P, GLP_SF_AUTO);

    node_budget_t budget = {.limit = node_limit};
    glp_iocp parm;
    glp_init_iocp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.presolve = GLP_ON;
    parm.mip_gap = 1e-4;
    parm.cb_func = count_nodes;
    parm.cb_info = &budget;
    if (watch && watch->deadline > 0) {
        if (!lp_watch_tick(watch, "whole counts", 0, 0))
            return steady_error_set(err, STEADY_ESOLVER, "time limit of %g s reached",
                                    watch->limit_s);
        parm.tm_lim = lp_watch_left_ms(watch);
    }
    guard.stage = "whole counts";
    glp_intopt(P, &parm);
    *nodes = budget.nodes < node_limit ? budget.nodes : node_limit;
    int status = glp_mip_status(P);
    *found = status == GLP_OPT || status == GLP_FEAS;
    for (int j = 0; *found && j < m->ncols; j++)
        x[j] = glp_mip_col_val(P, j + 1);
    return STEADY_OK;
}

/* Runs work(P, arg) on a new GLPK problem P, with GLPK's aborts turned
 * into STEADY_ESOLVER. */
typedef steady_err_t (*glpk_work_fn)(glp_prob *P, void *arg);

static steady_err_t guarded(lp_watch_t *watch, glpk_work_fn work, void *arg, steady_error_t *err)
{
    guard.len = 0;
    guard.msg[0] = '\0';
    guard.watch = watch;
    guard.stage = "simplex, iteration";
    glp_term_hook(term_hook, NULL);
    glp_error_hook(error_hook, NULL);
    glp_prob *volatile P = NULL;
    steady_err_t rc;
    if (setjmp(guard.jmp) == 0) {
        P = glp_create_prob();
        rc = work(P, arg);
        glp_delete_prob(P);
    } else {
        /* glp_free_env() has already released P */
        rc = steady_error_set(err, STEADY_ESOLVER, "GLPK error: %s",
                              guard.len ? guard.msg : "unknown");
    }
    glp_error_hook(NULL, NULL);
    glp_term_hook(NULL, NULL);
    guard.watch = NULL;
    return rc;
}

typedef struct {
    const lp_model_t *m;
    const steady_solve_options_t *opts;
    lp_watch_t *watch;
    const lp_start_t *start;
    lp_accept_fn accept;
    void *ctx;
    lp_status_t *row_stat, *col_stat;
    double *x, *dual;
    bool *accepted;
    const char **why;
    steady_error_t *err;
} lp_args_t;

static steady_err_t lp_work(glp_prob *P, void *arg)
{
    lp_args_t *a = arg;
    return run(P, a->m, a->opts, a->watch, a->start, a->accept, a->ctx, a->row_stat, a->col_stat,
               a->x, a->dual, a->accepted, a->why, a->err);
}

steady_err_t lp_glpk_solve(const lp_model_t *m, const steady_solve_options_t *opts,
                           lp_watch_t *watch, const lp_start_t *start, lp_accept_fn accept,
                           void *ctx, lp_status_t *row_stat, lp_status_t *col_stat, double *x,
                           double *dual, bool *accepted, const char **why, steady_error_t *err)
{
    *accepted = false;
    lp_args_t a = {m,        opts, watch, start,    accept, ctx, row_stat,
                   col_stat, x,    dual,  accepted, why,    err};
    return guarded(watch, lp_work, &a, err);
}

typedef struct {
    const lp_model_t *m;
    long k, node_limit;
    lp_watch_t *watch;
    double *x;
    bool *found;
    long *nodes;
    steady_error_t *err;
} whole_args_t;

static steady_err_t whole_work(glp_prob *P, void *arg)
{
    whole_args_t *a = arg;
    return run_whole(P, a->m, a->k, a->node_limit, a->watch, a->x, a->found, a->nodes, a->err);
}

steady_err_t lp_glpk_solve_whole(const lp_model_t *m, long k, long node_limit, lp_watch_t *watch,
                                 double *x, bool *found, long *nodes, steady_error_t *err)
{
    *found = false;
    *nodes = 0;
    whole_args_t a = {m, k, node_limit, watch, x, found, nodes, err};
    return guarded(watch, whole_work, &a, err);
}

typedef struct {
    const lp_model_t *m;
    const char *path;
    steady_error_t *err;
} write_args_t;

static steady_err_t write_work(glp_prob *P, void *arg)
{
    write_args_t *a = arg;
    steady_err_t rc = load(P, a->m, a->err);
    if (rc)
        return rc;
    if (glp_write_lp(P, NULL, a->path) != 0)
        return steady_error_set(a->err, STEADY_EIO, "%s: cannot write the LP", a->path);
    return STEADY_OK;
}

steady_err_t lp_glpk_write(const lp_model_t *m, const char *path, steady_error_t *err)
{
    write_args_t a = {m, path, err};
    return guarded(NULL, write_work, &a, err);
}

typedef struct {
    const lp_model_t *m;
    double *dual;
    bool *found;
    steady_error_t *err;
} interior_args_t;

/* The master's dual, min sum_i b_i y_i subject to sum_i a_ij y_j >= c_j
 * per column (y_i >= 0 on UP rows, free on fixed ones), whose columns are
 * m's rows: its interior point's normal matrix is one row per column of
 * m, few in a generated master with many rows. */
static steady_err_t interior_work(glp_prob *P, void *arg)
{
    interior_args_t *a = arg;
    const lp_model_t *m = a->m;
    glp_set_obj_dir(P, GLP_MIN);
    glp_add_rows(P, m->ncols);
    for (int j = 0; j < m->ncols; j++)
        glp_set_row_bnds(P, j + 1, GLP_LO, j == m->obj ? 1.0 : 0.0, 0.0);
    glp_add_cols(P, m->nrows);
    for (int i = 0; i < m->nrows; i++) {
        glp_set_col_bnds(P, i + 1, m->row_kind[i] == ROW_FX ? GLP_FR : GLP_LO, 0.0, 0.0);
        glp_set_obj_coef(P, i + 1, m->row_bound[i]);
    }
    steady_err_t rc = load_matrix(P, m, true, a->err);
    if (rc)
        return rc;
    glp_iptcp parm;
    glp_init_iptcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    guard.stage = "interior point";
    *a->found = glp_interior(P, &parm) == 0 && glp_ipt_status(P) == GLP_OPT;
    for (int i = 0; *a->found && i < m->nrows; i++)
        a->dual[i] = glp_ipt_col_prim(P, i + 1);
    return STEADY_OK;
}

steady_err_t lp_glpk_interior_duals(const lp_model_t *m, lp_watch_t *watch, double *dual,
                                    bool *found, steady_error_t *err)
{
    *found = false;
    interior_args_t a = {m, dual, found, err};
    return guarded(watch, interior_work, &a, err);
}
