/*
 * hops.c — the hops of a decomposition: each hop a tree uses is listed
 * once in the trees' table (steady/decompose.h), in the order the trees
 * first use it, so that a schedule lists only the hops it needs.
 */
#include "internal.h"

#include "../common/array.h"

#include <stdlib.h>
#include <string.h>

bool hop_table_init(hop_table_t *h, steady_trees_t *t, const steady_hop_graph_t *g)
{
    int n = steady_hop_graph_count(g);
    h->t = t;
    h->g = g;
    h->cap = t->nhops;
    h->index = malloc((size_t)(n ? n : 1) * sizeof *h->index);
    if (!h->index)
        return false;
    for (int k = 0; k < n; k++)
        h->index[k] = -1;
    return true;
}

void hop_table_free(hop_table_t *h)
{
    free(h->index);
    h->index = NULL;
}

/* The table's index of hop `hop` of the graph, added when new; -1 when
 * memory runs out. */
static int table_index(hop_table_t *h, int hop)
{
    if (h->index[hop] >= 0)
        return h->index[hop];
    const steady_hop_t *src = steady_hop_graph_hop(h->g, hop);
    steady_trees_t *t = h->t;
    if (!array_grow((void **)&t->hops, &h->cap, t->nhops + 1, sizeof *t->hops, 16))
        return -1;
    if (!steady_hop_copy(&t->hops[t->nhops], src))
        return -1;
    return h->index[hop] = t->nhops++;
}

bool steps_to_table(hop_table_t *h, steady_step_t *steps, int nsteps)
{
    for (int i = 0; i < nsteps; i++) {
        if (steps[i].kind != STEADY_STEP_SEND)
            continue;
        int k = table_index(h, steps[i].hop);
        if (k < 0)
            return false;
        steps[i].hop = k;
        steps[i].edge = h->t->hops[k].edges[0];
    }
    return true;
}
