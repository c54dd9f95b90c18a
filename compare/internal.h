/*
 * compare/internal.h — the structures behind steady/compare.h, shared by
 * the files of compare/.  Not installed.
 */
#ifndef STEADY_COMPARE_INTERNAL_H
#define STEADY_COMPARE_INTERNAL_H

#include "steady/compare.h"

struct steady_collective {
    steady_algo_t algo;
    steady_collop_t op;
    int n; /* ranks */
    int root;
    int chunks;
    int ntrees;
    /* trees of each phase: phase_first[ph] .. phase_first[ph] + phase_count[ph] - 1;
     * phase_count 0 when the operation has no such phase */
    int phase_first[2], phase_count[2];
    int *parent;  /* [tree * n + rank]: -1 for the root */
    int *colour;  /* [tree * n + rank]: TwoTreeS edge colour of parent -> rank, else -1 */
    int *cstart;  /* [tree * (n + 1) + rank]: rank's children are kids[tree * n + cstart[..]
                     .. tree * n + cstart[.. + 1]) */
    int *kids;    /* per tree, the children of rank 0, then of rank 1, ... in send order */
    int *lo, *hi; /* [tree * n + rank]: rank's subtree as an interval, or -1 */
    int *astart;  /* rank r's actions are acts[astart[r] .. astart[r + 1]) */
    steady_action_t *acts;
    int *scratch; /* n ints for the construction */
};

/* collective.c: steady_collective_order_preserving() for a message split
 * into `chunks` chunks instead of c's own count (only the trees that carry
 * a chunk matter). */
bool collective_order_preserving(const steady_collective_t *c, int chunks);

struct steady_routes {
    const steady_platform_t *p;
    double msg_size;
    int nnodes;
    int nproc;
    int *proc;      /* rank -> node id (the processors in node order) */
    int *rank;      /* node id -> rank, -1 for a router or a switch */
    steady_hop_graph_t *hops; /* the routes' steps: messages from rank to rank */
    int *pred_hop; /* [rank * nnodes + v]: last hop of the route from proc[rank] to v, -1 */
};

#endif
