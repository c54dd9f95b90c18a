/*
 * steady/decompose.h — decompositions of a steady-state solution (paper
 * §3.3, §4.3-4.4 and the broadcast companion): weighted bipartite edge
 * colouring into matchings, reduction trees (EXTRACT_TREES), broadcast
 * arborescences, and scatter / gossip routes.
 *
 * All weights are exact GMP rationals: a decomposition reproduces its input
 * exactly, which the functions check before returning.
 */
#ifndef STEADY_DECOMPOSE_H
#define STEADY_DECOMPOSE_H

#include <gmp.h>

#include "steady/error.h"
#include "steady/lp.h"
#include "steady/platform.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- weighted bipartite edge colouring (paper §3.3) ----------------------
 *
 * Input: communications of one period as a bipartite multigraph, senders x
 * receivers (both numbered 0..n-1, a node's send and receive ports being
 * different vertices), comm k going from src[k] to dst[k] and lasting
 * duration[k] > 0.  Output: slots, each a matching of senders and
 * receivers with a duration: in a slot a sender sends to one receiver,
 * its comms to it one after another, each for a time of its own, and
 * their times add up to at most the slot's; every comm k runs for times
 * adding up to duration[k], and the slot durations add up to the largest
 * total duration at one port (the lower bound: no schedule is shorter). */
typedef struct {
    mpq_t duration;
    int ncomms;
    int *comms;  /* indices into the input comms, in the order they run: a sender's consecutive */
    mpq_t *time; /* how long comms[q] runs in the slot (> 0) */
} steady_slot_t;

typedef struct {
    int nslots;
    steady_slot_t *slots;
    mpq_t total; /* sum of the slot durations = the maximum port load */
} steady_matchings_t;

/* Decomposes; *out is new (caller frees with steady_matchings_destroy).
 * No slot is empty or of zero length, consecutive slots never run the same
 * comms, and nslots <= (distinct sender-receiver pairs) + max(#senders,
 * #receivers) - 1 <= ncomms + max(#senders, #receivers) - 1.
 * src, dst and duration may be NULL only when ncomms is 0.  Errors: a
 * non-positive duration, a node index out of range, src == dst -> EINVAL;
 * a failed self-check -> EINTERNAL (a bug).  Near-linear in the output
 * (decompose/matching.c). */
steady_err_t steady_matchings_decompose(int n, int ncomms, const int *src, const int *dst,
                                        const mpq_t *duration, steady_matchings_t **out,
                                        steady_error_t *err);
/* How the matchings are peeled: KEEP (steady_matchings_decompose) keeps
 * each round's matching for the next, repaired by augmenting paths where
 * comms end: near-linear, few runs per comm; FRESH takes a maximum
 * matching from scratch each round (igraph): O(rounds x comms), another
 * slot structure that the planner tries as well on small periods. */
typedef enum { STEADY_MATCHING_KEEP, STEADY_MATCHING_FRESH } steady_matching_rule_t;
steady_err_t steady_matchings_decompose_rule(int n, int ncomms, const int *src, const int *dst,
                                             const mpq_t *duration, steady_matching_rule_t rule,
                                             steady_matchings_t **out, steady_error_t *err);
void steady_matchings_destroy(steady_matchings_t *m);

/* ---- weighted trees and routes ------------------------------------------ */

/* One step of a tree or route. */
typedef enum {
    STEADY_STEP_SEND,   /* message `type` crosses `edge` */
    STEADY_STEP_COMPUTE /* reduce: task `task` runs on `node` */
} steady_step_kind_t;

typedef struct {
    steady_step_kind_t kind;
    int hop;  /* SEND: index into the trees' hops (the message goes from rank to rank) */
    int edge; /* SEND: the hop's first edge */
    int type; /* SEND: the message type (as in steady_solution_type_*) */
    int node; /* COMPUTE */
    int task; /* COMPUTE: as in steady_solution_task() */
} steady_step_t;

/* A weighted tree or route: `weight` operations per time unit follow it.
 * Steps are listed in an order that respects their dependencies (a step's
 * inputs are produced by earlier steps or are initial values). */
typedef struct {
    mpq_t weight;
    int nsteps;
    steady_step_t *steps;
} steady_tree_t;

/* The trees, and the hops their SEND steps take: on a platform without
 * switches every hop is one edge; through switches, a hop is the path of
 * edges a message follows from one rank to the next (platform.h).  Each
 * hop is listed once (no two hops have the same first edge and last
 * node). */
typedef struct {
    int ntrees;
    steady_tree_t *trees;
    int nhops;
    steady_hop_t *hops;
} steady_trees_t;

/* Decomposes a solution into weighted trees whose weights add up to TP and
 * whose steps, weighted, add up exactly to the solution's rates (a hop's
 * weight counts on each of its edges), except for circulations (flows
 * around a cycle, which carry nothing: GLPK's optimal vertices do contain
 * some), which no tree uses and a schedule drops:
 *   reduce     reduction trees, by the paper's EXTRACT_TREES / FIND_TREE
 *              (Figure 8): each tree reduces v[0,N-1] onto the target;
 *   broadcast  spanning arborescences rooted at the source (Edmonds'
 *              branching theorem) when every other rank is a target and
 *              the platform has no switch; for a subset of targets, or
 *              through switches (whose copies the LP forbids only in
 *              total, steady_solution_is_bound), arborescences of hops
 *              reaching every target, whose weights may add up to less
 *              than the LP bound;
 *   scatter,   one route per message type: for a scatter the trees are the
 *   gossip     paths of each type's flow (a flow decomposition), one tree
 *              per path, so that their weights add up to TP per type.
 * The decomposition is checked exactly before returning (STEADY_EINTERNAL if
 * the check fails: a bug).  An approximate solution (not exact) cannot be
 * decomposed: STEADY_EUNSUPPORTED.  *out is new (steady_trees_destroy). */
steady_err_t steady_trees_decompose(const steady_solution_t *s, steady_trees_t **out,
                                    steady_error_t *err);
/* The decomposition of s whose rates are those t decomposes times m (s
 * made by steady_lp_solve_segment without solving: steady_solution_scale):
 * t's trees, their weights times m, checked exactly as
 * steady_trees_decompose's are (the planner's segment counts: a 999-host
 * broadcast's arborescences take 49-61 s to find, once).  *out is new
 * (steady_trees_destroy). */
steady_err_t steady_trees_scale(const steady_solution_t *s, const steady_trees_t *t, long m,
                                steady_trees_t **out, steady_error_t *err);
void steady_trees_destroy(steady_trees_t *t);

#ifdef __cplusplus
}
#endif

#endif /* STEADY_DECOMPOSE_H */
