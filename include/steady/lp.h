/*
 * steady/lp.h — the steady-state linear programs (docs/linear-programs.md):
 * series of scatters (SSSP), gossips (SSPA2A), reduces (SSR) and broadcasts
 * (SSB) on a platform, solved with GLPK and recovered as exact rationals.
 *
 * A solution gives, per time unit, the number of messages of each type on
 * each hop (an edge between two ranks, or a path from a rank through
 * switches to another: steady_hop_graph_build; on a platform without
 * switches the hops are the edges, numbered alike), the number of
 * reduction tasks of each kind on each processor, and the throughput TP
 * (operations per time unit).  Values are exact GMP
 * rationals when steady_solution_is_exact(); otherwise they are GLPK's
 * doubles converted to rationals, and the note says why.
 */
#ifndef STEADY_LP_H
#define STEADY_LP_H

#include <gmp.h>
#include <stdbool.h>

#include "steady/error.h"
#include "steady/platform.h"
#include "steady/progress.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    STEADY_OP_SCATTER = 0,
    STEADY_OP_GOSSIP,
    STEADY_OP_REDUCE,
    STEADY_OP_BROADCAST
} steady_op_t;

/* "scatter", "gossip", "reduce", "broadcast" -> op, or -1. */
int steady_op_from_name(const char *name);
const char *steady_op_name(steady_op_t op);

/* The task costs the LPs accept (flop, or work units on abstract
 * platforms; message sizes: steady/platform.h), and how much the port
 * times c(e) of one message may differ on one platform: beyond, GLPK cannot
 * weigh them together (lp/range.c). */
#define STEADY_TASK_COST_MIN 1e-6
#define STEADY_TASK_COST_MAX 1e21
#define STEADY_SPREAD_MAX    1e12

/* What to solve.  Node sets are arrays of node ids; a NULL set (count 0)
 * takes the default given with each field.  The arrays are borrowed. */
typedef struct {
    steady_op_t op;
    int source;         /* scatter, broadcast: the source node (a processor) */
    const int *sources; /* gossip: senders (default: every processor) */
    int nsources;
    const int *targets; /* scatter: default every other processor; gossip: default every
                           processor; broadcast: default every other processor */
    int ntargets;
    const int *participants; /* reduce: processors in the operator's order (default: every
                                processor in node order) */
    int nparticipants;
    int target;       /* reduce: the node that receives the result (a processor) */
    double msg_size;  /* bytes per message; 0 means 1 MiB; ignored on abstract platforms */
    double task_cost; /* reduce: flop per task T(k,l,m); 0 means the default: 1 on
                         abstract platforms, msg_size (one flop per byte) otherwise */
} steady_problem_t;

/* How the LP of a problem is written (docs/linear-programs.md,
 * "Formulations"); every formulation gives the same exact optimum. */
typedef enum {
    /* FULL while the per-type LP is small (hops x types, plus processors x
     * tasks for a reduce, <= 20000 columns), COMPACT beyond */
    STEADY_FORMULATION_AUTO = 0,
    /* the per-type LPs as the paper writes them: one flow per message type,
     * one flow per broadcast target */
    STEADY_FORMULATION_FULL,
    /* as solved (steady_solution_formulation): */
    STEADY_FORMULATION_AGGREGATED, /* scatter, gossip: one flow per origin */
    STEADY_FORMULATION_CUTS,       /* broadcast: n(h) and the cuts it needs */
    /* the smallest exact one whatever the size: scatter as one flow from
     * the source, gossip as one flow per source (both decomposed back into
     * per-type rates), broadcast by cut generation, reduce by generating
     * its reduction trees */
    STEADY_FORMULATION_COMPACT,
    /* as solved, too: reduce by reduction trees, generated */
    STEADY_FORMULATION_TREES,
    /* broadcast to every other rank by spanning arborescences, generated
     * (COMPACT's broadcast when every rank but the source is a target);
     * CUTS and ARBORESCENCES may be asked for a broadcast */
    STEADY_FORMULATION_ARBORESCENCES
} steady_formulation_t;

/* "auto", "full", "compact", "cuts", "arborescences" -> formulation, or
 * -1; and back ("aggregated", "trees" too). */
int steady_formulation_from_name(const char *name);
const char *steady_formulation_name(steady_formulation_t f);

/* The simplex that solves the LP in floating point before the exact
 * recovery (docs/performance.md): GLPK always, or COIN-OR Clp when steady
 * is built with it (make STEADY_CLP=1). */
typedef enum {
    STEADY_SIMPLEX_AUTO = 0, /* Clp when built in and the LP is large, else GLPK */
    STEADY_SIMPLEX_GLPK,
    STEADY_SIMPLEX_CLP
} steady_simplex_t;

/* "auto", "glpk", "clp" -> simplex, or -1; and back. */
int steady_simplex_from_name(const char *name);
const char *steady_simplex_name(steady_simplex_t s);
/* True when this build of steady has Clp. */
bool steady_simplex_clp_available(void);

typedef struct {
    bool exact;                       /* recover the exact rational optimum (default true) */
    steady_formulation_t formulation; /* AUTO (default) or FULL */
    steady_simplex_t simplex;         /* AUTO (default), GLPK or CLP */
    /* A bound on the whole of steady_lp_solve, in milliseconds (0: none):
     * building the LP, GLPK's simplex and the exact recovery.  Running out
     * while building or in the simplex is STEADY_ESOLVER ("time limit of
     * 10 s reached while building the LP ..."); running out in the exact
     * recovery keeps GLPK's floating-point optimum, marked approximate. */
    int time_limit_ms;
    /* threads pricing the reduce's trees, the intervals of each length
     * side by side (0: one per online processor); the result is the same
     * for every count */
    int threads;
    const char *write_lp; /* if set, write the LP in CPLEX LP format to this file */
    /* if set, called now and then with the stage ("building the LP",
     * "simplex", "exact recovery") and how far it is (steady/progress.h) */
    steady_progress_fn progress;
    void *progress_ctx;
} steady_solve_options_t;

typedef struct steady_solution steady_solution_t;

/* Builds and solves the LP of prob on p.  Checks the problem first: a
 * message size or task cost out of range, port times spread beyond
 * STEADY_SPREAD_MAX, unknown or duplicate nodes, a router where a processor
 * is needed, an empty target set, a target that the source cannot reach
 * (TP would be 0: the message names it) -> STEADY_EINVAL.  A GLPK failure
 * -> STEADY_ESOLVER with GLPK's reason; GLPK never aborts the process.  On
 * success *out owns a new solution (caller destroys it).  opts may be NULL. */
steady_err_t steady_lp_solve(const steady_platform_t *p, const steady_problem_t *prob,
                             const steady_solve_options_t *opts, steady_solution_t **out,
                             steady_error_t *err);

/* One tree of a broadcast or a reduce (lp/single.c): a chain through the
 * ranks in the platform's order — for a broadcast from the source through
 * the others; for a reduce through the participants in the operator's
 * order, towards the target — at the largest throughput every one-port,
 * resource and processor constraint holds it at, up to lp's TP, computed
 * exactly.  *out is a new exact solution of the same problem at that
 * throughput, that tree alone, or NULL (not a broadcast to every rank nor
 * a reduce, or no hop between two consecutive ranks). */
steady_err_t steady_lp_single_tree(const steady_solution_t *lp, steady_solution_t **out,
                                   steady_error_t *err);

/* A broadcast's ntrees given trees, each carrying 1 / ntrees of the
 * throughput (lp/single.c): parent[t][v] is v's parent in tree t, every
 * node but the source and switches in each.  At the largest throughput
 * the constraints hold them at, up to lp's TP, computed exactly; *out as
 * steady_lp_single_tree's, NULL when lp is not a broadcast to every rank,
 * a tree leaves a rank out or joins two nodes no hop joins. */
steady_err_t steady_lp_broadcast_trees(const steady_solution_t *lp, int ntrees,
                                       const int *const *parent, steady_solution_t **out,
                                       steady_error_t *err);

/* A reduce's two in-order binary trees (lp/single.c), each carrying half
 * of the throughput: over the participants in the operator's order (but
 * the target when it is the first or the last, which then combines its
 * own value with the trees' results), every subtree rooted at its
 * position with the most trailing zero bits, of the position itself in
 * one tree and of the position plus one in the other, so that no
 * participant is interior in both; every root sends its result to the
 * target.  Priced as steady_lp_single_tree's chain; *height gets the
 * deepest participant's hops to the target.  *out NULL when lp is not a
 * reduce, the target is a participant other than the first or the last,
 * fewer than three participants are left to combine, or two ranks have
 * no hop. */
steady_err_t steady_lp_reduce_trees(const steady_solution_t *lp, steady_solution_t **out,
                                    int *height, steady_error_t *err);

/* Whole counts per period (docs/linear-programs.md, "Whole counts per
 * period"): the LP of lp's problem for a period of exactly k operations in
 * which every message and task runs a whole number of times, with the
 * shortest period T that GLPK's branch and cut finds within node_limit
 * subproblems (opts: its time limit bounds the branch and cut, may be
 * NULL).  k must be at least 1 (else STEADY_EINVAL).  On success
 * *out is a new exact solution of the same problem whose rates are the
 * counts / T and whose throughput is k / T (at most lp's), or NULL when no
 * such counts were found within the budget.  *nodes (if not NULL) gets
 * the subproblems examined. */
steady_err_t steady_lp_solve_whole(const steady_solution_t *lp, long k, long node_limit,
                                   const steady_solve_options_t *opts, steady_solution_t **out,
                                   long *nodes, steady_error_t *err);

/* The LP of lp's problem for messages of 1/m of lp's size and tasks of 1/m
 * of its cost: one segment of an operation cut into m (steady plan
 * --segments).  When no edge has a per-message overhead every cost is lp's
 * divided by m, so lp's exact optimum with every rate multiplied by m is
 * optimal (TP times m, the same trees) and no LP is solved; else it is
 * solved (opts may be NULL).  m < 1 or an abstract platform (costs per
 * message) -> STEADY_EINVAL. */
steady_err_t steady_lp_solve_segment(const steady_solution_t *lp, long m,
                                     const steady_solve_options_t *opts, steady_solution_t **out,
                                     steady_error_t *err);
/* m when s is the copy steady_lp_solve_segment(lp, m) made of lp, its
 * rates lp's times m (lp's trees, their weights times m, decompose it:
 * steady_trees_scale); 0 when s was solved. */
long steady_solution_scale(const steady_solution_t *s);

void steady_solution_destroy(steady_solution_t *s);

/* ---- the problem as solved -------------------------------------------- */

const steady_platform_t *steady_solution_platform(const steady_solution_t *s);
/* The hops the rates are on (owned by the solution). */
const steady_hop_graph_t *steady_solution_hops(const steady_solution_t *s);
steady_op_t steady_solution_op(const steady_solution_t *s);
/* Message size and task cost actually used (defaults resolved). */
double steady_solution_msg_size(const steady_solution_t *s);
double steady_solution_task_cost(const steady_solution_t *s);

/* The resolved node sets: sources (scatter and broadcast: the source alone;
 * reduce: the participants in operator order), targets (reduce: the target
 * alone).  Arrays belong to the solution. */
const int *steady_solution_sources(const steady_solution_t *s, int *count);
const int *steady_solution_targets(const steady_solution_t *s, int *count);

/* Broadcast only: true when the targets are a strict subset of the other
 * ranks (processors and routers), so that TP is an upper bound of the
 * multicast throughput. */
bool steady_solution_is_bound(const steady_solution_t *s);

/* ---- the optimum --------------------------------------------------------- */

bool steady_solution_is_exact(const steady_solution_t *s);
/* Why the values are approximate ("" when exact). */
const char *steady_solution_note(const steady_solution_t *s);

/* TP in operations per time unit (per second on physical platforms). */
void steady_solution_throughput(const steady_solution_t *s, mpq_t tp);
double steady_solution_throughput_d(const steady_solution_t *s);

/* ---- message types and rates -------------------------------------------- */

/* Message types: scatter, one per target; gossip, one per (source, target)
 * pair; reduce, one per interval [k,m]; broadcast, one (the message). */
int steady_solution_type_count(const steady_solution_t *s);
/* A readable name: "P3" (scatter: the destination), "P0>P3" (gossip),
 * "[1,4]" (reduce), "msg" (broadcast).  Written to buf (n bytes). */
void steady_solution_type_name(const steady_solution_t *s, int type, char *buf, size_t n);
/* Type details: scatter (-1, dest), gossip (src, dest) as node ids; reduce
 * (k, m) as participant indices; broadcast (-1, -1). */
void steady_solution_type_ends(const steady_solution_t *s, int type, int *a, int *b);

/* Messages of that type sent on the hop per time unit. */
void steady_solution_send(const steady_solution_t *s, int hop, int type, mpq_t rate);

/* Reduce: the tasks T(k,l,m), k <= l < m, participant indices. */
int steady_solution_task_count(const steady_solution_t *s);
void steady_solution_task(const steady_solution_t *s, int task, int *k, int *l, int *m);
/* Tasks of that kind computed on the node per time unit (0 on routers). */
void steady_solution_cons(const steady_solution_t *s, int node, int task, mpq_t rate);

/* The positive rates on hop h: *count types, increasing, in types[i] with
 * the rate rates[i] (arrays owned by the solution); every other type's
 * rate on h is 0.  The solution keeps only these: its size is its
 * support's, not hops x types.  O(1). */
int steady_solution_hop_rates(const steady_solution_t *s, int hop, const int **types,
                              const mpq_t **rates);
/* Reduce: the tasks with a positive rate on node v, likewise. */
int steady_solution_node_tasks(const steady_solution_t *s, int node, const int **tasks,
                               const mpq_t **rates);

/* Broadcast: per-target flow x(h, k) (target index into the targets), when
 * steady_solution_has_flows(): the full formulation solves them; the cut
 * formulation has none (every target's flow exists, by max-flow min-cut,
 * and is checked exactly, but is not kept), and then this gives 0. */
bool steady_solution_has_flows(const steady_solution_t *s);
void steady_solution_flow(const steady_solution_t *s, int hop, int target, mpq_t rate);

/* How the LP was written and solved (never STEADY_FORMULATION_AUTO). */
steady_formulation_t steady_solution_formulation(const steady_solution_t *s);

/* ---- occupation -------------------------------------------------------- */

/* Removes every directed cycle from flow (one non-negative rational per
 * hop of g): while a cycle of positive values exists, subtracts its
 * smallest value along it (the first cycle a depth-first search meets,
 * from the nodes in increasing order).  Net flows at every node are
 * unchanged, no value grows, and the result is acyclic.  Returns the
 * number of cycles cancelled (at most one per hop: each one zeroes a hop),
 * -1 when memory runs out.  O(H) to find the positive values, then
 * O(P log P) per cycle, P of them, and once more to find none.  (The
 * aggregated formulations' flows.) */
int steady_hop_flow_cancel_cycles(const steady_hop_graph_t *g, mpq_t *flow);
/* The same when flow is 0 but on the distinct hops hop[0 .. n): O(n log n)
 * per cycle, whatever the graph's size.  (The per-type rates of
 * decompose/trees.c: a reduce on N ranks has N (N + 1) / 2 types, each on
 * a few hops of N (N - 1).) */
int steady_hop_flow_cancel_cycles_in(const steady_hop_graph_t *g, mpq_t *flow, const int *hop,
                                     int n);

/* The exact time of one message on hop h (steady_exact_hop_time), for
 * which it holds both ports. */
void steady_solution_hop_time(const steady_solution_t *s, int hop, mpq_t c);
/* Fraction of time hop h is busy: s(h) = sum over types of rate * time(h). */
void steady_solution_hop_busy(const steady_solution_t *s, int hop, mpq_t busy);
/* The fraction of time each shared resource of the platform is busy
 * (<= 1 each): busy[r] for r < steady_platform_resource_count, initialised
 * by the caller.  O(hops x path length). */
void steady_solution_resource_busy(const steady_solution_t *s, mpq_t *busy);
/* Fractions of time node v sends, receives, computes (<= 1 each). */
void steady_solution_node_busy(const steady_solution_t *s, int node, mpq_t send, mpq_t recv,
                               mpq_t cpu);

/* Sets q to the decimal value of x as steady writes it (the shortest
 * decimal that reads back to x): 1e-05 gives 1/100000, not the binary
 * fraction nearest to it.  x must be finite. */
void steady_exact_decimal(mpq_t q, double x);

/* The exact c(e) for a message of msg_size bytes, and w(v) for a task of
 * task_cost flop (0 on a router), computed from the platform's values as
 * their shortest decimals: bandwidth=125MBps is 125000000, latency 1e-05 is
 * 1/100000, not the binary fractions nearest to them. */
void steady_exact_comm_time(const steady_platform_t *p, int edge, double msg_size, mpq_t c);
/* The exact steady_platform_use_time, steady_platform_edge_time and
 * steady_platform_edge_latency (platform.h). */
void steady_exact_use_time(const steady_platform_t *p, int edge, const steady_use_t *u,
                           double msg_size, mpq_t t);
void steady_exact_edge_time(const steady_platform_t *p, int edge, double msg_size, mpq_t t);
void steady_exact_edge_latency(const steady_platform_t *p, int edge, mpq_t l);
/* The exact steady_hop_time and steady_hop_latency (platform.h). */
void steady_exact_hop_time(const steady_platform_t *p, const steady_hop_t *h, double msg_size,
                           mpq_t t);
void steady_exact_hop_latency(const steady_platform_t *p, const steady_hop_t *h, mpq_t l);
void steady_exact_task_time(const steady_platform_t *p, int node, double task_cost, mpq_t w);

/* ---- statistics -------------------------------------------------------- */

typedef struct {
    int rows, cols, nonzeros;         /* of the (last) LP given to the simplex */
    double build_s, solve_s, exact_s; /* wall seconds: building, simplex, exact recovery */
    int rounds;                       /* LPs solved: cut generation's rounds (1 otherwise) */
    int cuts;                         /* broadcast by cuts: the cut rows generated */
    steady_simplex_t simplex;         /* the simplex that ran (GLPK or CLP) */
    bool timed_out; /* the time limit cut the exact recovery short: the optimum is GLPK's,
                       marked approximate (steady_solve_options_t.time_limit_ms) */
} steady_lp_stats_t;

void steady_solution_stats(const steady_solution_t *s, steady_lp_stats_t *stats);

#ifdef __cplusplus
}
#endif

#endif /* STEADY_LP_H */
