/*
 * steady/compare.h — the algorithms steady compares its optimum with
 * (docs/comparison.md): TwoTreeC (and its allreduce variants TwoTreeC+C and
 * TwoTreeC+S), TwoTreeS, binomial tree, pipelined binary tree, chain and flat
 * tree, for series of broadcasts, reduces and allreduces; their steady-state
 * throughput on a platform under the one-port model; and the comparison
 * with the LP optimum.
 *
 * Three layers, each usable alone:
 *
 *   collectives  the constructions: for an algorithm, P ranks, a root and C
 *                chunks, every rank's parent and children in each tree, the
 *                chunk -> tree assignment, the edge colouring of TwoTreeS,
 *                and each rank's ordered list of sends, receives and
 *                combines for one operation.  Pure combinatorics (no
 *                platform): this is what an executor runs.
 *   model        the steady-state throughput of an algorithm on a platform:
 *                ranks are the platform's processors in node order, a
 *                message between two processors follows a fixed shortest
 *                route (steady_routes_t), every hop charges the sender's send
 *                port and the receiver's receive port, reduce combines charge
 *                the processor; TP = 1 / (the largest per-operation busy
 *                time of any port or processor).
 *   comparison   every algorithm's model next to the LP optimum of lp.h.
 *
 * Ranks.  Algorithms number their P participants 0..P-1; rank r is the r-th
 * processor of the platform in node order (routers are not ranks).  Trees
 * are built on ranks relative to the root, (rank - root) mod P, as the
 * TwoTreeC paper does for a root other than 0, and translated back: every
 * rank reported by this header is an absolute rank.
 */
#ifndef STEADY_COMPARE_H
#define STEADY_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "steady/error.h"
#include "steady/lp.h"
#include "steady/platform.h"
#include "steady/schedule.h" /* steady_cost_model_t */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- algorithms and operations ------------------------------------------ */

typedef enum {
    STEADY_ALGO_TWOTREEC = 0, /* TwoTreeC (Algorithm 1 of the seed): two complete binary trees */
    STEADY_ALGO_TWOTREEC_C,   /* allreduce only: reduce on TwoTreeC, broadcast on its T3/T4 */
    STEADY_ALGO_TWOTREEC_S,   /* allreduce only: reduce on TwoTreeC, broadcast on TwoTreeS */
    STEADY_ALGO_TWOTREES,     /* Sanders-Speck-Traff: in-order tree and its mirror / shift */
    STEADY_ALGO_BINOMIAL,     /* binomial tree */
    STEADY_ALGO_BINARY,       /* pipelined binary tree (heap numbering) */
    STEADY_ALGO_CHAIN,        /* linear pipeline */
    STEADY_ALGO_FLAT          /* the root talks to every rank directly */
} steady_algo_t;

#define STEADY_ALGO_COUNT 8

/* "twotreec", "twotreec+c", "twotreec+s", "twotrees", "binomial", "binary",
 * "chain", "flat" -> algorithm, or -1. */
int steady_algo_from_name(const char *name);
const char *steady_algo_name(steady_algo_t algo);

typedef enum {
    STEADY_COLL_BROADCAST = 0,
    STEADY_COLL_REDUCE,
    STEADY_COLL_ALLREDUCE /* a reduce to the root followed by a broadcast from it */
} steady_collop_t;

/* "broadcast", "reduce", "allreduce" -> operation, or -1. */
int steady_collop_from_name(const char *name);
const char *steady_collop_name(steady_collop_t op);

/* False only for TwoTreeC+C and TwoTreeC+S outside allreduce. */
bool steady_algo_supports(steady_algo_t algo, steady_collop_t op);

/* ---- constructions ----------------------------------------------------- */

/* The two phases of an operation: a reduce moves chunks towards the root
 * and combines them, a broadcast moves them away from it.  An allreduce has
 * both (the reduce of chunk j, then its broadcast). */
typedef enum { STEADY_PHASE_REDUCE = 0, STEADY_PHASE_BROADCAST = 1 } steady_phase_t;

typedef enum {
    STEADY_ACT_RECV,    /* receive chunk `chunk` of `tree` from `peer` */
    STEADY_ACT_COMBINE, /* reduce: combine the partial result just received from `peer` */
    STEADY_ACT_SEND     /* send chunk `chunk` of `tree` to `peer` */
} steady_action_kind_t;

typedef struct {
    steady_action_kind_t kind;
    steady_phase_t phase;
    int chunk; /* 0 .. chunks-1 */
    int tree;  /* 0 .. tree_count-1 */
    int peer;  /* the other rank */
    /* COMBINE: -1 when peer's partial result covers ranks below this
     * rank's accumulator (result = partial (+) accumulator), +1 above
     * (accumulator (+) partial), 0 when the tree does not keep rank order
     * (the operator must then be commutative). */
    int side;
} steady_action_t;

typedef struct steady_collective steady_collective_t;

/* Builds algorithm `algo` for operation `op` on nranks >= 1 ranks rooted at
 * rank `root`, the message split into chunks >= 1 chunks.  Errors (EINVAL):
 * an algorithm that does not support op, root out of range, a rank or chunk
 * count below 1 or so large that the action lists would overflow.
 * *out is new (steady_collective_destroy).  O(chunks * nranks). */
steady_err_t steady_collective_create(steady_algo_t algo, steady_collop_t op, int nranks, int root,
                                      int chunks, steady_collective_t **out, steady_error_t *err);
void steady_collective_destroy(steady_collective_t *c);

steady_algo_t steady_collective_algo(const steady_collective_t *c);
steady_collop_t steady_collective_op(const steady_collective_t *c);
int steady_collective_ranks(const steady_collective_t *c);
int steady_collective_root(const steady_collective_t *c);
int steady_collective_chunks(const steady_collective_t *c);

/* Trees, numbered 0 .. count-1.  Every tree spans all ranks and is rooted
 * at the root: for the two-tree algorithms the root sits on top of each
 * tree with one child (the paper's root of T1 / T2).  TwoTreeC, TwoTreeS:
 * 2 trees (T1, T2); TwoTreeC+C: 4 (T1, T2 reduce, T3, T4 broadcast);
 * TwoTreeC+S: 4 (TwoTreeC's T1, T2 reduce, TwoTreeS's broadcast); the
 * others: 1. */
int steady_collective_tree_count(const steady_collective_t *c);

/* The parent of rank in tree (-1 for the root). */
int steady_collective_parent(const steady_collective_t *c, int tree, int rank);

/* Rank's children in tree, in the order a broadcast sends to them (the
 * algorithm's order: TwoTreeC leftChild[0], leftChild[1] ...; TwoTreeS by
 * edge colour, see steady_collective_colour; binomial farthest first).
 * Returns their number; *children (may be NULL) points into c. */
int steady_collective_children(const steady_collective_t *c, int tree, int rank,
                               const int **children);

/* TwoTreeS (and TwoTreeC+S's broadcast trees) and TwoTreeC: the colour (0
 * or 1) of the edge parent -> rank in tree; -1 for the root and for every
 * other algorithm.  The colouring is Sanders, Speck and Traff's: the two
 * edges into a rank (one per tree) differ, and so do the edges out of a
 * rank, so that in the synchronous schedule (colour-0 edges in even steps,
 * colour-1 edges in odd ones) every port serves one chunk per step and the
 * pair of trees moves two chunks every two steps: the full bandwidth the
 * model counts.  TwoTreeC's trees admit the same colouring (no rank sends
 * on more than two edges); the paper itself runs them unsynchronised.
 * TwoTreeS lists a rank's children with the child whose edge colour
 * differs from its own in-edge colour first: it is the one served in the
 * step after a chunk arrives; TwoTreeC keeps the paper's order. */
int steady_collective_colour(const steady_collective_t *c, int tree, int rank);

/* The tree that carries chunk j in phase ph, or -1 when the operation has
 * no such phase.  Two trees per phase: even chunks in the first (T1, the
 * seed's left tree), odd chunks in the second. */
int steady_collective_chunk_tree(const steady_collective_t *c, steady_phase_t ph, int chunk);

/* When rank's subtree in tree is a contiguous interval of ranks, stores it
 * in *lo, *hi and returns true; false otherwise. */
bool steady_collective_subtree(const steady_collective_t *c, int tree, int rank, int *lo, int *hi);

/* True when the reduce phase (if any) computes v_0 (+) v_1 (+) ... (+)
 * v_{P-1} in rank order with the COMBINE sides given in the actions, so
 * that the operator may be non-commutative: every subtree of every reduce
 * tree that carries a chunk is an interval of ranks.  True for an
 * operation without a reduce. */
bool steady_collective_order_preserving(const steady_collective_t *c);

/* Rank's actions for one operation, in an order that respects the data
 * dependencies (for each chunk in increasing order: the reduce phase —
 * receive and combine each child's partial result, send to the parent —
 * then the broadcast phase — receive from the parent, send to the children
 * in order).  Executed one after the other with blocking point-to-point
 * calls by every rank, they cannot deadlock; an executor may also post them
 * as non-blocking calls in this order (the seed's Algorithm 2).  Returns
 * their number; *actions (may be NULL) points into c. */
int steady_collective_actions(const steady_collective_t *c, int rank,
                              const steady_action_t **actions);

/* ---- routes --------------------------------------------------------------
 *
 * A message from processor a to processor b follows one fixed shortest path
 * by c(e) for a message of msg_size bytes (the cost on abstract platforms):
 * Dijkstra from a over the platform's hops (steady_hop_graph_build: a
 * message from rank to rank, directly or through switches), each weighing
 * its time; among equally short paths the one with fewer hops, then the
 * one whose last hop leaves the node of smaller id (applied at every node,
 * so the routes from a form a tree).  Intermediate ranks — routers or
 * processors — forward the message: each hop occupies its sender's send
 * port and its receiver's receive port for its time, and the shared
 * resources of its path. */
typedef struct steady_routes steady_routes_t;

/* Routes between every pair of processors of p.  msg_size 0 means 1 MiB.
 * *out is new (steady_routes_destroy) and borrows p, which must outlive it.
 * O(P (V + E) log V). */
steady_err_t steady_routes_create(const steady_platform_t *p, double msg_size,
                                  steady_routes_t **out, steady_error_t *err);
void steady_routes_destroy(steady_routes_t *r);

/* The route from node `from` to node `to` (both processors): writes its hop
 * ids (of steady_routes_hops), in order, to hops (room for
 * steady_platform_node_count(p) - 1) and returns their number: 0 when from
 * == to, -1 when `to` cannot be reached or a node is not a processor. */
int steady_routes_path(const steady_routes_t *r, int from, int to, int *hops);
/* The hops the routes are made of (owned by the routes). */
const steady_hop_graph_t *steady_routes_hops(const steady_routes_t *r);

/* ---- the model ----------------------------------------------------------- */

typedef struct {
    double msg_size;  /* bytes per message; 0 means 1 MiB; ignored on abstract platforms */
    double task_cost; /* flop to combine two whole messages; 0 means the default of
                         steady_problem_t: 1 on abstract platforms, msg_size otherwise */
    int chunks;       /* chunks per message; 0: chosen per algorithm (see makespan) */
    int max_chunks;   /* the largest count that choice considers; 0 means 64 */
    /* what a chunk's latency holds (docs/comparison.md): rendezvous (the
     * default) both ports, until the chunk has arrived, as every send of
     * steady-run's algorithms under SMPI; eager, none (the paper's model) */
    steady_cost_model_t cost_model;
} steady_model_options_t;

/* What bounds an algorithm: a node's send or receive port or processor, or
 * a shared resource of the network (a channel, a channel's direction, the
 * private link between two switches: platform.h). */
typedef enum {
    STEADY_RES_SEND = 0,
    STEADY_RES_RECV,
    STEADY_RES_CPU,
    STEADY_RES_LINK
} steady_resource_t;

/* An algorithm's model on a platform.  A chunk of a message of s bytes
 * split into C holds the ports of hop h for its time with s/C bytes
 * (steady_hop_time; cost/C on abstract platforms), plus the hop's latency
 * under the rendezvous cost model, and each shared resource
 * of its path for that resource's time; combining two chunks takes
 * (task_cost/C)/speed(i) on processor i.  Per operation, every chunk of
 * every phase crosses every hop of its tree's route and every reduce
 * child's chunk is combined once. */
typedef struct {
    steady_algo_t algo;
    steady_collop_t op;
    int chunks;
    double throughput; /* operations per time unit in a long series: 1 / busy;
                          +infinity with a single rank */
    double busy;       /* per-operation busy time of the bottleneck */
    int bottleneck;    /* its node id, or resource id for a link (-1 with a single rank) */
    steady_resource_t bottleneck_resource;
    /* One operation run alone, simulated event by event under the same
     * model (model.c): ports and processors serve hops and combines in the
     * order they become ready.  It ignores the series; it only informs the
     * chunk count.  With chunks = 0 the count is chosen among 1, 2, 3, 4, 6,
     * 8, 12, ... below max_chunks, and max_chunks (at least 2 for the
     * two-tree algorithms): the best throughput, then the shortest
     * makespan, then the fewest chunks. */
    double makespan;
    bool order_preserving; /* see steady_collective_order_preserving */
} steady_model_t;

/* The model of algo for op rooted at processor `root` (a node id) on the
 * platform the routes were made for.  Errors (EINVAL): root not a
 * processor, an unsupported algorithm, a pair of ranks the algorithm needs
 * that has no route (TP would be 0: the message names it), a bad option.
 * O(chunk counts tried * trees * P * route length). */
steady_err_t steady_model_evaluate(const steady_routes_t *r, steady_algo_t algo, steady_collop_t op,
                                   int root, const steady_model_options_t *opts,
                                   steady_model_t *out, steady_error_t *err);

/* ---- the Hockney model and the Hoefler-Moor metrics ----------------------
 *
 * Closed-form predictions (docs/comparison.md, "Model-based selection"):
 * a message of x bytes on hop h costs tau_h(x) = alpha_h + beta_h x, with
 * alpha_h = overhead + latency and beta_h = 1 / bandwidth (the Hockney
 * model, what steady-run --calibrate fits per edge), and holds both ports
 * that long; a route costs the sum of its hops (store and forward).  With
 * the message in C chunks of x = s/C bytes:
 *   fill A     the first chunk's time through the trees (each rank sends to
 *              its children one after the other, in send order; a reduce
 *              rank receives, then combines, child after child);
 *   load L     the busiest port's or processor's time per operation;
 *   one op     T1 = A + L - L n / C (n: trees per phase carrying chunks):
 *              the pipeline formula, (P + C - 2) tau for the chain, the
 *              seeds' binomial, binary and double-tree models on uniform
 *              alpha, beta;
 *   series     K operations back to back: TK = A + K L - L n / C.
 * The Hoefler-Moor columns: per operation, messages (hop transfers) and
 * bytes moved; energy = e messages + E bytes + power x ranks x time; the
 * memory of the busiest rank = its data buffers + d x the messages it
 * sends (one descriptor each). */
typedef struct {
    double energy_per_message; /* e, joules per message */
    double energy_per_byte;    /* E, joules per byte moved over a hop */
    double power;              /* static watts per rank */
    double descriptor_bytes;   /* d, bytes per message descriptor */
} steady_hm_params_t;

/* The defaults, Hoefler and Moor's InfiniBand example (their section 4.2):
 * e = 16.5 pJ, E = 8.1 nJ/B, 0.5 W, d = 32 B. */
#define STEADY_HM_DEFAULTS ((steady_hm_params_t){16.5e-12, 8.1e-9, 0.5, 32})

typedef struct {
    steady_algo_t algo;
    steady_collop_t op;
    int chunks;
    double fill;          /* A */
    double load;          /* L: per operation, time units */
    double one_op;        /* T1 */
    long series_ops;      /* K */
    double series;        /* TK / K: time per operation in the series */
    double messages;      /* per operation (hop transfers) */
    double bytes;         /* per operation, bytes over hops */
    double buffer_bytes;  /* data buffers of the rank with the most memory */
    double descriptors;   /* messages that rank sends per operation */
    double memory;        /* its buffers + d x descriptors, bytes */
    int memory_rank;      /* that rank (node id) */
    double energy_one_op; /* joules, one operation alone */
    double energy_series; /* joules per operation in the series */
} steady_hockney_t;

/* The Hockney prediction of algo for op rooted at node `root`, the message
 * of msg_size bytes (0: 1 MiB) in `chunks` >= 1 chunks, combines of
 * task_cost flop (0: the default of steady_model_options_t), a series of
 * series_ops >= 1 operations, the energy and memory constants hm (NULL:
 * STEADY_HM_DEFAULTS).  Errors (EINVAL): as steady_model_evaluate. */
steady_err_t steady_hockney_evaluate(const steady_routes_t *r, steady_algo_t algo,
                                     steady_collop_t op, int root, double msg_size,
                                     double task_cost, int chunks, long series_ops,
                                     const steady_hm_params_t *hm, steady_hockney_t *out,
                                     steady_error_t *err);

/* What steady_hockney_best minimises. */
typedef enum {
    STEADY_PICK_ONE_OP = 0, /* T1 */
    STEADY_PICK_SERIES,     /* TK / K */
    STEADY_PICK_ENERGY      /* energy per operation in the series */
} steady_pick_t;

/* steady_hockney_evaluate with the chunk count, among 1, 2, 3, 4, 6, 8, 12,
 * 16, 24, 32, 48 below max_chunks (0: 64; at most one chunk per byte) and
 * max_chunks itself, at least 2 for the two-tree algorithms, that
 * minimises `pick` (ties: the fewest chunks). */
steady_err_t steady_hockney_best(const steady_routes_t *r, steady_algo_t algo, steady_collop_t op,
                                 int root, double msg_size, double task_cost, long series_ops,
                                 const steady_hm_params_t *hm, steady_pick_t pick, int max_chunks,
                                 steady_hockney_t *out, steady_error_t *err);

/* ---- the comparison ---------------------------------------------------- */

#define STEADY_COMPARE_EXTRA_MAX 12

typedef struct {
    steady_collop_t op;
    int root;         /* node id */
    int ranks;        /* processors */
    double msg_size;  /* resolved (bytes; 1 MiB by default) */
    double task_cost; /* resolved */
    /* The LP value the ratios are taken against (operations per time unit):
     *   broadcast  SSB, source = root, every other processor a target;
     *   reduce     SSR, every processor in node order (an associative,
     *              non-commutative operator), target = root;
     *   allreduce  min(reduce optimum, broadcast optimum): an upper bound on
     *              any reduce-to-the-root-then-broadcast algorithm. */
    double optimum;
    bool optimum_is_bound;    /* not necessarily achievable (see docs/comparison.md) */
    bool optimum_exact;       /* the LPs were solved exactly */
    double reduce_optimum;    /* SSR (reduce, allreduce; NAN otherwise) */
    double broadcast_optimum; /* SSB (broadcast, allreduce; NAN otherwise) */
    /* reduce and allreduce: an upper bound on the throughput of any reduce
     * when the operator is also commutative, min(SSB on the reversed
     * platform, sum of speeds / ((P-1) task_cost)); NAN for a broadcast. */
    double commutative_bound;
    /* allreduce: 1 / (1/reduce_optimum + 1/broadcast_optimum), what the
     * LP's reduce and broadcast schedules reach when they take turns; NAN
     * otherwise. */
    double time_shared;
    int nalgos;
    steady_model_t algos[STEADY_ALGO_COUNT]; /* the algorithms supporting op, in enum order */
    double ratio[STEADY_ALGO_COUNT];         /* algos[i].throughput / optimum */
    /* Measured throughput of algos[i] (e.g. `steady compare --measure smpi`,
     * which runs the executor); NAN when not measured — steady_compare_run
     * leaves every entry NAN and nextra 0, the caller fills them in. */
    double measured[STEADY_ALGO_COUNT];
    /* Measured rows that are not one of the algorithms: the LP's periodic
     * schedule ("lp-schedule"), the MPI library's own collective
     * ("mpi:binomial_tree"...).  model is what a model predicts (the
     * schedule's planned throughput) or NAN. */
    int nextra;
    struct {
        char name[48];
        double model;
        double measured;
    } extra[STEADY_COMPARE_EXTRA_MAX];
} steady_comparison_t;

/* Solves the LPs of op rooted at processor `root` of p (msg_size and
 * task_cost of the model options; the rest is not used) into out's
 * op, root, ranks, msg_size, task_cost and optimum fields: the
 * broadcast's, the reduce's, or both and their minimum for an allreduce;
 * no algorithm evaluated (nalgos 0), commutative_bound, time_shared but
 * for an allreduce, and measured[] NAN.  The checks and errors of
 * steady_compare_run. */
steady_err_t steady_compare_optimum(const steady_platform_t *p, steady_collop_t op, int root,
                                    const steady_model_options_t *opts,
                                    const steady_solve_options_t *sopts, steady_comparison_t *out,
                                    steady_error_t *err);

/* Solves the LPs for op rooted at processor `root` of p and evaluates every
 * algorithm supporting op with the model options (msg_size and task_cost
 * apply to the LPs too).  The platform needs at least 2 processors.
 * sopts (may be NULL) is passed to steady_lp_solve.  Errors: those of
 * steady_lp_solve and steady_model_evaluate. */
steady_err_t steady_compare_run(const steady_platform_t *p, steady_collop_t op, int root,
                                const steady_model_options_t *opts,
                                const steady_solve_options_t *sopts, steady_comparison_t *out,
                                steady_error_t *err);

/* Writes an SVG bar chart of c: one bar per algorithm (model throughput),
 * next to it a green bar for its measured throughput when there is one, one
 * green bar per extra measured row, a line at the optimum (and at the
 * commutative bound when it differs).
 * p is the platform c was computed on (for its name).  EIO on a write
 * error. */
steady_err_t steady_compare_write_svg(const steady_comparison_t *c, const steady_platform_t *p,
                                      FILE *out, steady_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* STEADY_COMPARE_H */
