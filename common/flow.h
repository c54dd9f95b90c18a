/*
 * common/flow.h — maximum flows (Dinic's algorithm) in three arithmetics,
 * shared by libsteady's modules: doubles and rationals for the
 * broadcast's cuts (lp/cuts.c), integers for the packing of its
 * arborescences (decompose/arborescence.c).  Not installed.
 */
#ifndef STEADY_COMMON_FLOW_H
#define STEADY_COMMON_FLOW_H

#include <gmp.h>
#include <stdbool.h>

/* The residual network of a directed graph of n nodes and m arcs tail[a]
 * -> head[a]: residual arc 2a is arc a, 2a + 1 its reverse. */
typedef struct {
    int n, m;
    int *head;  /* of each of the 2m residual arcs */
    int *start; /* residual arcs leaving v: adj[start[v] .. start[v + 1]) */
    int *adj;
    int *level, *iter, *queue, *path;
    double *resd;
    /* the exact residuals, allocated on first use: an arc's holds its
     * value only when its stamp is the run's; any other arc still has its
     * capacity (a reverse arc 0), so a run starts without copying them */
    mpq_t *resq;
    mpz_t *resz;
    unsigned *stamp;
    unsigned run;
    const void *cap; /* this run's capacities (mpq_t or mpz_t) */
    mpq_t augq, roomq; /* an augmentation's bottleneck, and what the limit leaves */
    mpz_t augz, roomz;
} flow_t;

/* Working space for maximum flows on the graph, with the integer
 * residuals when `integers` (flow_max_z needs them); NULL when memory runs
 * out. */
flow_t *flow_new(int n, int m, const int *tail, const int *head, bool integers);
void flow_free(flow_t *f);

/* Maximum flow from s to t (s != t) under cap (one per arc, >= 0),
 * stopping as soon as it reaches `limit` (<= 0 / NULL: none).  When the
 * flow stays below the limit and sink_side is given (n entries),
 * sink_side[v] tells whether v is on t's side of a minimum cut, the
 * smallest one (the nodes that still reach t).  Floating point: returns
 * the value.  Rationals: the value in *value, false when memory runs out
 * (for their residuals, on the first run).  Integers (f made with
 * `integers`): the value in *value. */
double flow_max_d(flow_t *f, const double *cap, int s, int t, double limit, bool *sink_side);
bool flow_max_q(flow_t *f, const mpq_t *cap, int s, int t, const mpq_t limit, mpq_t value,
                bool *sink_side);
void flow_max_z(flow_t *f, const mpz_t *cap, int s, int t, mpz_srcptr limit, mpz_t value,
                bool *sink_side);

#endif
