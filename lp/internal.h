/*
 * lp/internal.h — the LP module's private pieces: an exact LP model, the
 * GLPK bridge (the only file that calls glp_*), the exact recovery.
 */
#ifndef STEADY_LP_INTERNAL_H
#define STEADY_LP_INTERNAL_H

#include "steady/lp.h"

#include "../common/numbers.h"

/* The clock and progress of one steady_lp_solve: the deadline bounds the
 * whole solve (building, simplex, exact recovery), and long loops report
 * their progress through it. */
typedef struct {
    double start;    /* lp_now() when the solve began */
    double deadline; /* lp_now() value after which the solve gives up; 0: none */
    double limit_s;  /* the limit, for messages */
    steady_progress_fn progress;
    void *ctx;
    bool expired;
} lp_watch_t;

/* Monotonic wall-clock seconds. */
double lp_now(void);
/* Reports (stage, done, total) and checks the deadline; false (and
 * w->expired) once it has passed.  w may be NULL.  Costs a clock read:
 * call it every few thousand elements, not per element. */
bool lp_watch_tick(lp_watch_t *w, const char *stage, double done, double total);
/* Milliseconds left before the deadline (at least 1), or 0 without one. */
int lp_watch_left_ms(const lp_watch_t *w);

/* A linear program in the form GLPK uses:
 *     maximise   x[obj]
 *     subject to r_i = sum_j a_ij x_j,  r_i <= bound_i (ROW_UP) or r_i = bound_i (ROW_FX)
 *                x_j >= 0
 * The coefficients are exact rationals; GLPK is given their nearest doubles. */
typedef enum { ROW_UP, ROW_FX } row_kind_t;

typedef struct {
    int row, col;
    mpq_t val;
} lp_entry_t;

typedef struct {
    int nrows, ncols, nnz;
    int row_cap, col_cap, nnz_cap;
    row_kind_t *row_kind;
    int *row_bound; /* bounds are 0 or 1 in every steady LP */
    char **row_name, **col_name;
    lp_entry_t *a;
    int obj;  /* the TP column */
    bool oom; /* an allocation failed while building */
    /* building stops (every add is ignored) once the watch has expired */
    lp_watch_t *watch;
    unsigned ticks;
    bool stopped;
} lp_model_t;

void lp_model_init(lp_model_t *m);

/* Refuses (STEADY_EINVAL) a message size or task cost outside its range
 * (steady/lp.h), and port times c(e) for msg_size that differ by more than
 * STEADY_SPREAD_MAX (range.c). */
steady_err_t lp_check_ranges(const steady_platform_t *p, double msg_size, double task_cost,
                             steady_error_t *err);
void lp_model_free(lp_model_t *m);
/* Adds a column / row named by printf; returns its index (-1 after OOM). */
int lp_add_col(lp_model_t *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int lp_add_row(lp_model_t *m, row_kind_t kind, int bound, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void lp_add_entry(lp_model_t *m, int row, int col, const mpq_t val);
void lp_add_entry_si(lp_model_t *m, int row, int col, long val);

/* Basis status of a row or column, as GLPK leaves it. */
typedef enum { LP_BASIC, LP_AT_BOUND } lp_status_t;

/* Called with a basis GLPK found optimal in floating point; returns true to
 * accept it (the exact recovery succeeded). */
typedef bool (*lp_accept_fn)(const lp_model_t *m, const lp_status_t *row_stat,
                             const lp_status_t *col_stat, void *ctx);

/* GLPK bridge (glpk.c): solves m with the simplex method and fills the
 * basis statuses and GLPK's primal values (arrays sized nrows / ncols).
 * With an accept callback that refuses the floating-point basis, GLPK's
 * exact simplex (glp_exact) continues from it and the callback is asked
 * again; *accepted tells whether it finally said yes, and *why (when not)
 * explains.  The simplex runs within the watch's deadline (GLP_ETMLIM:
 * STEADY_ESOLVER, "time limit ... reached in the simplex"); glp_exact
 * too, but running out there only leaves the basis unaccepted. */
steady_err_t lp_glpk_solve(const lp_model_t *m, const steady_solve_options_t *opts,
                           lp_watch_t *watch, lp_accept_fn accept, void *ctx, lp_status_t *row_stat,
                           lp_status_t *col_stat, double *x, bool *accepted, const char **why,
                           steady_error_t *err);

/* GLPK bridge, whole counts per period (glpk.c): m with the TP column
 * fixed at k, every capacity row (ROW_UP with bound 1: one-port and
 * processor) bounded by a new column T instead of 1, T minimised, and every
 * column of m integer.  Branch and cut stops at a relative gap of 1e-4,
 * after node_limit subproblems, or at the watch's deadline (which the root
 * relaxation, solved by GLPK's presolver, does not watch).  *found tells
 * whether it found an integer solution; x (ncols) gets its values; *nodes
 * the subproblems it examined. */
steady_err_t lp_glpk_solve_whole(const lp_model_t *m, long k, long node_limit, lp_watch_t *watch,
                                 double *x, bool *found, long *nodes, steady_error_t *err);
/* Exact recovery (exact.c): from a basis, computes the basic solution in
 * rationals and checks exactly that it is primal feasible and optimal.
 * Returns true and fills x (ncols initialised mpq_t) when it is; otherwise
 * false with *why set (also when the watch expires during the
 * elimination: "the exact recovery ran out of time"). */
bool lp_exact_solution(const lp_model_t *m, const lp_status_t *row_stat,
                       const lp_status_t *col_stat, mpq_t *x, lp_watch_t *watch, const char **why);

#endif
