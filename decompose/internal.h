/*
 * decompose/internal.h — pieces shared by the decomposition files.  Not
 * installed.
 */
#ifndef STEADY_DECOMPOSE_INTERNAL_H
#define STEADY_DECOMPOSE_INTERNAL_H

#include "steady/decompose.h"

/* trees.c: appends a tree of the given steps and weight to *t (the steps
 * are copied); false when memory runs out. */
bool trees_append(steady_trees_t *t, const mpq_t weight, const steady_step_t *steps, int nsteps);

/* hops.c: the hops of a decomposition, each listed once.  A table indexes
 * t->hops by (first edge, last node) while the trees are built. */
typedef struct {
    steady_trees_t *t;
    int nv;
    long long *keys; /* first edge * nv + last node, or -1 */
    int *index;      /* into t->hops */
    int cap;         /* a power of 2, at least twice t->nhops */
} hop_table_t;

void hop_table_init(hop_table_t *h, steady_trees_t *t, const steady_platform_t *p);
void hop_table_free(hop_table_t *h);
/* The index in h->t->hops of the hop along edges[0 .. n - 1] (added when
 * new: the edges are copied), or -1 when memory runs out. */
int hop_table_add(hop_table_t *h, const steady_platform_t *p, const int *edges, int n);

/* hops.c: rewrites the steps of a tree found edge by edge into steps of
 * hops: the sends of a message through switches (a send into a switch,
 * then the send of the same type out of it, ...) become one SEND step
 * whose hop is their path, placed where its last edge was.  steps[] is
 * rewritten in place, *nsteps shrinks.  STEADY_EINTERNAL when a message
 * enters a switch and does not leave it (a bug), STEADY_ENOMEM. */
steady_err_t hops_contract(hop_table_t *h, const steady_platform_t *p, steady_step_t *steps,
                           int *nsteps, steady_error_t *err);

/* The graph the broadcast packing works on (pairing.c): the ranks
 * (numbered as steady_platform_rank_of numbers them) and arcs between
 * them, each a hop with a capacity in messages per time unit. */
typedef struct {
    int n, m;         /* ranks, arcs */
    int *tail, *head; /* ranks */
    mpq_t *cap;
    int *path_start; /* arc a is the hop path[path_start[a] .. path_start[a + 1]) */
    int *path;
} arcs_t;

/* pairing.c: the arcs of a broadcast solution s.  Without switches, its
 * edges with n(e) > 0 (except those into the source).  Through a switch,
 * the messages that enter and the messages that leave it must be paired
 * into hops, which the LP does not do: the pairing follows a broadcast
 * wave from the source, so that each rank, in the order it is reached,
 * gets its messages from ranks reached before it where it can (then
 * Edmonds' condition holds on the arcs and the packing reaches TP).
 * arcs_free(g) once, whatever the result. */
steady_err_t broadcast_arcs(const steady_solution_t *s, arcs_t *g, steady_error_t *err);
void arcs_free(arcs_t *g);

/* arborescence.c: the broadcast case of steady_trees_decompose(): weighted
 * arborescences rooted at the source, packed into the LP's edge rates n(e),
 * reaching every target; each tree's steps are SEND steps of type 0 (hops
 * in `hops`) in an order where every hop's first node is already reached.
 * Their weights add up to TP when every other rank is a target and there
 * is no switch (Edmonds' theorem). */
steady_err_t broadcast_trees(const steady_solution_t *s, steady_trees_t *out, hop_table_t *hops,
                             steady_error_t *err);

/* trees.c: removes every directed cycle from flow (one non-negative
 * rational per edge of p) without changing any node's net flow; returns the
 * number of cycles cancelled, -1 when memory runs out. */
int trees_cancel_cycles(const steady_platform_t *p, mpq_t *flow);

/* arborescence.c: the maximum flow value from s to t over the m edges
 * tail[e] -> head[e] with capacities cap[e] >= 0, exactly (Edmonds-Karp on
 * GMP integers); false when memory runs out. */
bool exact_maxflow(int n, int m, const int *tail, const int *head, const mpz_t *cap, int s, int t,
                   mpz_t value);

#endif
