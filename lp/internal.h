/*
 * lp/internal.h — the LP module's private pieces: the solution object, an
 * exact LP model, the formulations (full.c: the per-type LPs; aggregate.c:
 * scatter and gossip as one flow per origin; cuts.c: broadcast by cut
 * generation; treegen.c: reduce by generating its trees; rounds.c: the
 * rounds of those two), the maximum flows' certificates (maxflow.c), the solver bridges
 * (glpk.c, the only file that calls glp_*; clp.c, the only one that calls
 * Clp), the exact recovery (exact.c).
 */
#ifndef STEADY_LP_INTERNAL_H
#define STEADY_LP_INTERNAL_H

#include "steady/lp.h"

#include "../common/flow.h"
#include "../common/numbers.h"

#include <stdint.h>

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
/* The watch of a solve with these options (may be NULL), started now. */
lp_watch_t lp_watch_of(const steady_solve_options_t *opts);

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

/* What a column of a model stands for, so that its value can be put where
 * the solution keeps it: TP, send(hop a, type b), cons(node a, task b),
 * the broadcast flow x(hop a, target b), or a formulation's own variable
 * (an aggregated flow on hop a of origin b, n(h) of hop a). */
typedef enum { COL_OTHER = 0, COL_TP, COL_SEND, COL_CONS, COL_FLOW, COL_AGG } col_kind_t;

typedef struct {
    unsigned char kind; /* col_kind_t */
    int a, b;
} lp_col_t;

typedef struct {
    int nrows, ncols, nnz;
    int row_cap, col_cap, nnz_cap;
    row_kind_t *row_kind;
    int *row_bound; /* bounds are 0 or 1 in every steady LP */
    char **row_name, **col_name;
    lp_col_t *col; /* what each column stands for */
    lp_entry_t *a;
    int obj;    /* the TP column */
    bool names; /* name rows and columns (only --write-lp needs them) */
    bool oom;   /* an allocation failed while building */
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
/* Adds a column / row named by printf (names only when m->names); returns
 * its index (-1 after OOM).  A column stands for COL_OTHER until set. */
int lp_add_col(lp_model_t *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int lp_add_row(lp_model_t *m, row_kind_t kind, int bound, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* lp_add_col, standing for (kind, a, b). */
int lp_add_tagged_col(lp_model_t *m, col_kind_t kind, int a, int b, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void lp_add_entry(lp_model_t *m, int row, int col, const mpq_t val);
void lp_add_entry_si(lp_model_t *m, int row, int col, long val);

/* Basis status of a row or column, as the solver leaves it. */
typedef enum { LP_BASIC, LP_AT_BOUND } lp_status_t;

/* Called with a basis the solver found optimal in floating point; returns
 * true to accept it (the exact recovery succeeded). */
typedef bool (*lp_accept_fn)(const lp_model_t *m, const lp_status_t *row_stat,
                             const lp_status_t *col_stat, void *ctx);

/* Where a simplex starts: a basis of the first nrows rows and ncols
 * columns of the model (the rows and columns beyond are basic and at
 * bound respectively: rows added since, such as new cuts), or none (the
 * solver's standard basis); and the method. */
typedef struct {
    const lp_status_t *row_stat, *col_stat;
    int nrows, ncols;
    bool dual; /* the dual simplex: after adding rows to an optimal basis */
} lp_start_t;

/* GLPK bridge (glpk.c): solves m with the simplex method and fills the
 * basis statuses and GLPK's primal values (arrays sized nrows / ncols).
 * With an accept callback that refuses the floating-point basis, GLPK's
 * exact simplex (glp_exact) continues from it and the callback is asked
 * again; *accepted tells whether it finally said yes, and *why (when not)
 * explains.  dual (nrows, may be NULL) gets GLPK's row duals: prices
 * >= 0 on tight UP rows, reduced costs c_j - sum_i a_ij dual_i.  The
 * simplex runs within the watch's deadline (GLP_ETMLIM: STEADY_ESOLVER,
 * "time limit ... reached in the simplex"); glp_exact too, but running
 * out there only leaves the basis unaccepted.  start may be NULL. */
steady_err_t lp_glpk_solve(const lp_model_t *m, const steady_solve_options_t *opts,
                           lp_watch_t *watch, const lp_start_t *start, lp_accept_fn accept,
                           void *ctx, lp_status_t *row_stat, lp_status_t *col_stat, double *x,
                           double *dual, bool *accepted, const char **why, steady_error_t *err);

/* GLPK bridge, whole counts per period (glpk.c): m with the TP column
 * fixed at k, every capacity row (ROW_UP with bound 1: one-port and
 * processor) bounded by a new column T instead of 1, T minimised, and every
 * column of m integer.  Branch and cut stops at a relative gap of 1e-4,
 * after node_limit subproblems, or at the watch's deadline (which the root
 * relaxation, solved by GLPK's presolver, does not watch).  *found tells
 * whether it found an integer solution; x (ncols) gets its values; *nodes
 * the subproblems it examined. */
/* GLPK bridge, interior point (glpk.c): the row duals of an optimum of m
 * near the centre of the optimal face (glp_interior), where a simplex
 * gives a vertex; *found false when GLPK did not reach an optimum. */
steady_err_t lp_glpk_interior_duals(const lp_model_t *m, lp_watch_t *watch, double *dual,
                                    bool *found, steady_error_t *err);

/* Writes m in CPLEX LP format to path (glpk.c). */
steady_err_t lp_glpk_write(const lp_model_t *m, const char *path, steady_error_t *err);

steady_err_t lp_glpk_solve_whole(const lp_model_t *m, long k, long node_limit, lp_watch_t *watch,
                                 double *x, bool *found, long *nodes, steady_error_t *err);

/* Clp bridge (clp.c, built with STEADY_CLP=1): the floating-point simplex
 * of m by COIN-OR Clp (primal, or dual with start->dual), its final basis
 * and values; the exact recovery then runs on that basis, and when it
 * refuses it GLPK's exact simplex takes over from the same basis
 * (lp_glpk_solve with that start).  Without Clp in the build,
 * STEADY_EUNSUPPORTED. */
bool lp_clp_available(void);
steady_err_t lp_clp_solve(const lp_model_t *m, lp_watch_t *watch, const lp_start_t *start,
                          lp_status_t *row_stat, lp_status_t *col_stat, double *x,
                          steady_error_t *err);

/* Exact recovery (exact.c): from a basis, computes the basic solution in
 * rationals and checks exactly that it is primal feasible and optimal.
 * Returns true and fills x (ncols initialised mpq_t) and, when not NULL,
 * dual (nrows initialised mpq_t: the row prices y, >= 0 on UP rows, with
 * reduced costs c_j - sum_i a_ij y_i <= 0) when it is; otherwise false
 * with *why set (also when the watch expires during the elimination: "the
 * exact recovery ran out of time"). */
bool lp_exact_solution(const lp_model_t *m, const lp_status_t *row_stat,
                       const lp_status_t *col_stat, mpq_t *x, mpq_t *dual, lp_watch_t *watch,
                       const char **why);

/* ---- rates kept by the solution: sparse, by row --------------------------- */

/* Row r (a hop, or a node) has the keys key[start[r] .. start[r + 1]),
 * increasing, each with a positive value. */
typedef struct {
    int nrows, nnz;
    int *start; /* nrows + 1 */
    int *key;
    mpq_t *val;
} lp_rates_t;

void lp_rates_free(lp_rates_t *r);
/* The value at (row, key), 0 when absent.  O(log row length). */
void lp_rates_get(const lp_rates_t *r, int row, int key, mpq_t out);

/* Collects (row, key, value) triplets in any order, duplicates summed. */
typedef struct {
    int *row, *key;
    mpq_t *val;
    int n, cap, ninit;
    bool oom;
} lp_rate_builder_t;

void lp_rb_init(lp_rate_builder_t *b);
void lp_rb_free(lp_rate_builder_t *b);
/* Adds v at (row, key) (nothing when v is 0). */
void lp_rb_add(lp_rate_builder_t *b, int row, int key, const mpq_t v);
/* Sorts, sums duplicates, drops zeros, into out (nrows rows); frees b.
 * False when memory runs out (out is then empty). */
bool lp_rb_finish(lp_rate_builder_t *b, int nrows, lp_rates_t *out);

/* ---- the solution ------------------------------------------------------- */

struct steady_solution {
    const steady_platform_t *p;
    steady_hop_graph_t *hops; /* the LP's graph */
    int nhops;
    steady_op_t op;
    double msg_size, task_cost;
    int *sources, nsources; /* scatter/broadcast: source; gossip: senders; reduce: participants */
    int *targets, ntargets; /* reduce: the target */
    bool bound;             /* broadcast to a subset: TP is an upper bound */
    /* message types: ends (a, b) as documented in lp.h */
    int ntypes;
    int *type_a, *type_b;
    /* reduce tasks (k, l, m) */
    int ntasks;
    int *task_k, *task_l, *task_m;
    mpq_t tp;
    lp_rates_t send; /* by hop: type -> messages per time unit */
    lp_rates_t cons; /* by node: task -> tasks per time unit (reduce) */
    lp_rates_t flow; /* by hop: target index -> x(h, k) (broadcast, per-target flows) */
    bool has_flows;
    mpq_t *comm; /* per hop: its time, for which both ports are held */
    /* the exact times of one message: per platform edge its own
     * (steady_exact_comm_time), per channel its (lp_use_time); the
     * platform's cross traffic share, exactly (set with them) */
    mpq_t *edge_time, *chan_time, cross;
    int nedges, nchannels;
    mpq_t *work; /* w(i) per node (0 for routers: unused) */
    bool exact;
    const char *note;
    steady_formulation_t formulation; /* as solved (never AUTO) */
    long scale;                       /* steady_solution_scale */
    steady_lp_stats_t stats;
};

/* A new solution of prob on p, before its LP: the problem checked (sets,
 * reachability, ranges), its hops and costs set, its types and tasks
 * listed.  *out is new (steady_solution_destroy). */
steady_err_t lp_solution_prepare(const steady_platform_t *p, const steady_problem_t *prob,
                                 steady_solution_t **out, steady_error_t *err);
/* The problem checks of lp_solution_prepare (problem.c). */
steady_err_t lp_check_problem(steady_solution_t *s, const steady_problem_t *prob,
                              steady_error_t *err);
/* Reduce: the index of the type v[k,m] among the N(N+1)/2 intervals
 * (k <= m < N), and of the task T(k,l,m) (k <= l < m < N) among the
 * N(N^2-1)/6, as the solution lists them. */
static inline int lp_interval(int n, int k, int m)
{
    return k * n - k * (k - 1) / 2 + (m - k);
}
int lp_task(int n, int k, int l, int m);
/* The exact time use u (of edge `edge`) holds its resource for one
 * message: steady_exact_use_time, from s's per-edge and per-channel
 * values (a hop repeats its edges' values: on a flat cluster of N hosts
 * N (N - 1) hops are made of 2 N edges). */
void lp_use_time(const steady_solution_t *s, int edge, const steady_use_t *u, mpq_t t);
/* A copy of s's problem (its node sets borrowed from s). */
steady_problem_t lp_problem_of(const steady_solution_t *s);
const char *lp_node_name(const steady_solution_t *s, int v);

/* ---- building and solving one model -------------------------------------- */

/* The rows every formulation shares (docs/linear-programs.md, "The
 * network model"): one-port on every rank and one row per shared
 * resource, over the columns cols[h * stride + j] (j < stride; -1 for
 * none) that send messages on hop h. */
void lp_capacity_rows(const steady_solution_t *s, lp_model_t *m, const int *cols, int stride);
/* Conservation of the flow cols[h * stride + j] at node v:
 * in - out - rhs_col = 0 (rhs_col -1: none), skipped when no variable
 * takes part and rhs_col < 0; returns the row or -1. */
int lp_flow_row(const steady_solution_t *s, lp_model_t *m, int v, const int *cols, int stride,
                int j, int rhs_col, long rhs_coef, const char *label);
/* ",via:S1:S2" for a hop through switches S1, S2 (unique LP names), ""
 * for an edge; buf of n bytes. */
const char *lp_via_label(const steady_solution_t *s, const steady_hop_t *h, char *buf, size_t n);

/* Solves m once (GLPK, or Clp when opts asks and it is built in), with the
 * exact recovery when opts->exact: values (ncols initialised mpq_t) get
 * the exact optimum or the floating-point one (then *exact false and *note
 * says why).  start may be NULL; row_stat / col_stat (may be NULL) get the
 * final basis; x (may be NULL) the floating-point values. */
typedef struct {
    const lp_start_t *start;
    bool want_exact; /* recover the exact optimum (else only floats) */
    lp_status_t *row_stat, *col_stat;
    double *x;
    /* the row duals (nrows, may be NULL; GLPK only: the caller forces it):
     * floating-point, and exact with the exact recovery */
    double *dual;
    mpq_t *exact_dual;
    /* results */
    bool exact;
    const char *note;
    double simplex_s, exact_s;
    steady_simplex_t simplex; /* the floating-point simplex that ran */
} lp_run_t;

steady_err_t lp_run(const lp_model_t *m, const steady_solve_options_t *opts, lp_watch_t *watch,
                    lp_run_t *run, mpq_t *values, steady_error_t *err);

/* After building the single model m of a formulation (rc: the builder's
 * status): the time-limit or out-of-memory error if building stopped,
 * else STEADY_OK with s's model statistics (one round) filled in. */
steady_err_t lp_built(steady_solution_t *s, const lp_model_t *m, steady_err_t rc,
                      const lp_watch_t *watch, steady_error_t *err);

/* ---- generated formulations (rounds.c) -------------------------------- */

/* What a round's solve gives its formulation: the floating-point values x
 * and (when asked) row duals, or, in the exact round, the exact ones. */
typedef struct {
    int round; /* 1, 2, ... */
    bool exact;
    const double *x, *dual;
    mpq_t *values, *exact_dual;
} lp_round_t;

typedef struct {
    const char *what;  /* in the time limit's message: "cut generation" */
    const char *stage; /* on the progress line: "broadcast cuts, round" */
    bool dual_simplex; /* warm starts by the dual simplex (rows added) or the primal */
    bool duals;        /* the steps read the row duals */
    /* Adds to the model what the round's solution lacks (*added); in the
     * exact round, *unverified (when nothing is added) says why the
     * solution stays unproven. */
    steady_err_t (*step)(void *ctx, const lp_round_t *r, bool *added, const char **unverified,
                         steady_error_t *err);
    /* The final exact (or floating-point) values of m's columns into s. */
    steady_err_t (*store)(void *ctx, mpq_t *values, steady_error_t *err);
    void *ctx;
} lp_rounds_t;

/* Solves m round after round as `how` says, from each round's basis, until
 * a round adds nothing; then once more with the exact recovery (when opts
 * asks it), whose step may add again.  Fills s's statistics, exact flag
 * and note, stores the values, writes the LP when opts asks. */
steady_err_t lp_rounds(steady_solution_t *s, lp_model_t *m, const steady_solve_options_t *opts,
                       lp_watch_t *watch, const lp_rounds_t *how, steady_error_t *err);

/* Puts the values of m's tagged columns (TP, send, cons, flow) into s. */
steady_err_t lp_store_values(steady_solution_t *s, const lp_model_t *m, mpq_t *values,
                             steady_error_t *err);

/* The formulations: each builds its model(s), solves, and fills s's TP
 * and rates (exact when it could), stats and note. */
steady_err_t lp_solve_full(steady_solution_t *s, const steady_solve_options_t *opts,
                           lp_watch_t *watch, steady_error_t *err);
/* The full model alone (for the whole counts), columns tagged. */
steady_err_t lp_build_full(steady_solution_t *s, lp_model_t *m);
steady_err_t lp_solve_aggregate(steady_solution_t *s, const steady_solve_options_t *opts,
                                lp_watch_t *watch, steady_error_t *err);
steady_err_t lp_solve_cuts(steady_solution_t *s, const steady_solve_options_t *opts,
                           lp_watch_t *watch, steady_error_t *err);
steady_err_t lp_solve_treegen(steady_solution_t *s, const steady_solve_options_t *opts,
                              lp_watch_t *watch, steady_error_t *err);
/* Broadcast to every other node by generating arborescences (arbgen.c):
 * true when s is such a problem. */
bool lp_arbgen_applies(const steady_solution_t *s);
steady_err_t lp_solve_arbgen(steady_solution_t *s, const steady_solve_options_t *opts,
                             lp_watch_t *watch, steady_error_t *err);

/* ---- generated columns (colgen.c: what treegen.c and arbgen.c share) ---- */

/* Each hop's loads on the master's capacity rows (lp_capacity_rows over
 * one column per hop): hop h loads row[k] by val[k] (vald: its double) for
 * k in [start[h], start[h + 1]). */
typedef struct {
    int nh, nnz;
    int *start, *row;
    mpq_t *val;
    double *vald;
} lp_loads_t;

/* Appends the capacity rows to the master m and fills l. */
steady_err_t lp_loads_build(const steady_solution_t *s, lp_model_t *m, lp_loads_t *l);
void lp_loads_free(lp_loads_t *l);
/* Hop h's price under the row prices y: in doubles (negative prices as 0),
 * or exactly into out (tmp: scratch). */
double lp_loads_price(const lp_loads_t *l, int h, const double *y);
void lp_loads_price_q(const lp_loads_t *l, int h, mpq_t *y, mpq_t out, mpq_t tmp);

/* A new column's loads, summed row by row (rows < nrows). */
typedef struct {
    mpq_t *acc;
    int *touched;
    bool *in;
    int n, nrows;
} lp_column_t;

bool lp_column_init(lp_column_t *c, int nrows);
void lp_column_free(lp_column_t *c);
void lp_column_add(lp_column_t *c, int row, const mpq_t v);
/* Adds hop h's loads. */
void lp_column_add_hop(lp_column_t *c, const lp_loads_t *l, int h);
/* Puts the sums into column col of m, and empties c. */
void lp_column_put(lp_column_t *c, lp_model_t *m, int col);

/* A generated formulation's master m, initialised (its watch, names when
 * the LP is to be written), and the options its rounds solve with: GLPK,
 * whose row duals price the columns. */
steady_solve_options_t lp_master_init(lp_model_t *m, const steady_solve_options_t *opts,
                                      lp_watch_t *watch);

/* The generated columns, each a run of items in an array the caller
 * keeps (column i: items start[i] .. start[i + 1]), known by a hash. */
typedef struct {
    int *start;
    uint64_t *hash;
    int n, start_cap, hash_cap;
} lp_colset_t;

/* The items [first, end) of `items` (size bytes each), just appended
 * after the last column's: 1 when they make a column of s already, 0 when
 * they are recorded as column s->n - 1, -1 when memory runs out. */
int lp_colset_add(lp_colset_t *s, const void *items, size_t size, int first, int end);
void lp_colset_free(lp_colset_t *s);

/* Smoothing (Wentges): the columns are sought at prices between the
 * master's duals y and the best prices seen so far, y_in, whose bound is
 * the lowest: every column costs at least c*(p) under prices p, so TP is
 * at most sum_rows p / c*(p).  Prices that jump from round to round make
 * column generation slow to settle; a column found there enters when it
 * is cheaper than TP's price under y too, or the columns are sought at y
 * itself.  LP_SMOOTHING of the way to y_in took the fewest rounds on the
 * reduces measured (random-100 with 64 participants: 738 rounds without,
 * 71 with; docs/performance.md). */
#define LP_SMOOTHING 0.9

typedef struct {
    double *y_in, *y_sep, bound_in;
    int nrows, tp_row;
} lp_smooth_t;

bool lp_smooth_init(lp_smooth_t *w, int nrows, int tp_row);
void lp_smooth_free(lp_smooth_t *w);
/* y_sep = alpha of the way from max(y, 0) to y_in; returns the sum of
 * y_sep over the rows but TP's. */
double lp_smooth_prices(lp_smooth_t *w, const double *y, double alpha);
/* The cheapest column under y_sep costs `cost`: keeps y_sep as y_in when
 * its bound sum / cost is the lowest yet. */
void lp_smooth_seen(lp_smooth_t *w, double sum, double cost);

/* ---- reduce: what the LP can leave out (reduce.c) ------------------------ */

/* v[k,m] can only be held by a node that every participant r_k .. r_m
 * reaches and that reaches the target: nothing else can ever form it or
 * bring it to the result.  lo[v * N + m] is the smallest k such that
 * r_k .. r_m all reach v (m + 1 when r_m does not), or N + 1 everywhere on
 * a node that cannot reach the target. */
typedef struct {
    const steady_solution_t *s;
    int N;
    int *lo;
} lp_reduce_prune_t;

bool lp_reduce_prune(const steady_solution_t *s, lp_reduce_prune_t *pr);
void lp_reduce_prune_free(lp_reduce_prune_t *pr);
/* Whether v[type] may cross hop h / task q may run on processor v. */
bool lp_reduce_can_send(const lp_reduce_prune_t *pr, int h, int type);
bool lp_reduce_can_compute(const lp_reduce_prune_t *pr, int v, int task);

/* ---- maximum flows (maxflow.c; the flows are common/flow.c's) ----------- */

/* The nodes that every cut of capacity < need lets through, grown as a set
 * C: a node joins C when added (its flow from the source is known to reach
 * need) or when its arcs from C carry need together (then every cut
 * separating the source from it has capacity >= need: a cut that leaves
 * out a node of C is one of that node's cuts, one that takes in no node of
 * C is crossed by all those arcs).  in_c (f's n entries, cleared by
 * lp_certify_new) holds C.  Floating point (capd) or exact (capq: one of
 * them NULL; need_q and capq are borrowed).  NULL when memory runs out. */
typedef struct lp_certify lp_certify_t;
lp_certify_t *lp_certify_new(const flow_t *f, const double *capd, const mpq_t *capq, double need_d,
                             const mpq_t need_q, bool *in_c);
/* Puts v in C and every node that then qualifies. */
void lp_certify_add(lp_certify_t *c, int v);
void lp_certify_free(lp_certify_t *c);

#endif
