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

/* hops.c: the hops of a decomposition, each listed once in t->hops (its
 * edges copied) when a tree first uses it.  While trees are built their
 * SEND steps name hops of the solution's hop graph; steps_to_table
 * rewrites them to the table's indices. */
typedef struct {
    steady_trees_t *t;
    const steady_hop_graph_t *g;
    int *index; /* per hop of g: its index in t->hops, or -1 */
    int cap;    /* of t->hops */
} hop_table_t;

bool hop_table_init(hop_table_t *h, steady_trees_t *t, const steady_hop_graph_t *g);
void hop_table_free(hop_table_t *h);
/* Rewrites each SEND step's hop (a hop of h->g) to its index in the table
 * (added when new) and sets its edge to the hop's first; false when memory
 * runs out. */
bool steps_to_table(hop_table_t *h, steady_step_t *steps, int nsteps);

/* The graph the broadcast packing works on: the ranks (numbered as
 * steady_platform_rank_of numbers them) and, as arcs, the solution's hops
 * with n(h) > 0, each with n(h) as its capacity. */
typedef struct {
    int n, m;         /* ranks, arcs */
    int *tail, *head; /* ranks */
    mpq_t *cap;
    int *hop; /* the hop of the solution's graph */
} arcs_t;

/* arborescence.c: the broadcast case of steady_trees_decompose(): weighted
 * arborescences rooted at the source, packed into the LP's hop rates n(h),
 * reaching every target; each tree's steps are SEND steps of type 0 (hops
 * in `hops`) in an order where every hop's first node is already reached.
 * Their weights add up to TP when every other rank is a target (Edmonds'
 * theorem). */
steady_err_t broadcast_trees(const steady_solution_t *s, steady_trees_t *out, hop_table_t *hops,
                             steady_error_t *err);

/* arborescence.c: the maximum flow value from s to t over the m edges
 * tail[e] -> head[e] with capacities cap[e] >= 0, exactly (Edmonds-Karp on
 * GMP integers); false when memory runs out. */
bool exact_maxflow(int n, int m, const int *tail, const int *head, const mpz_t *cap, int s, int t,
                   mpz_t value);

/* matching_check.c: checks m, the decomposition of the ncomms comms
 * src[c] -> dst[c] of duration[c] among n nodes, whose largest port load
 * is `load`, and sets m->total (STEADY_EINTERNAL when it is wrong: every
 * slot non-empty and positive, a matching whose ports' times fit it, every
 * comm covered exactly, the total equal to load, at most max_slots slots). */
steady_err_t matchings_verify(int n, int ncomms, const int *src, const int *dst,
                              const mpq_t *duration, const mpq_t load, int max_slots,
                              steady_matchings_t *m, steady_error_t *err);

#endif
