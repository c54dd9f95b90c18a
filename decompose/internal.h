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

/* arborescence.c: the broadcast case of steady_trees_decompose(): weighted
 * arborescences rooted at the source, packed into the LP's edge rates n(e),
 * reaching every target; each tree's steps are SEND steps of type 0 in an
 * order where every edge's tail is already reached.  Their weights add up
 * to TP when every other node is a target (Edmonds' theorem). */
steady_err_t broadcast_trees(const steady_solution_t *s, steady_trees_t *out, steady_error_t *err);

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
