/*
 * hops.c — the hops of a decomposition: a message crossing switches is one
 * transfer from rank to rank (platform.h), so the trees found edge by edge
 * on the platform's graph are rewritten hop by hop, and each hop is listed
 * once in the trees' table.
 *
 * The table is an open-addressing hash of (first edge, last node): by
 * steady_platform_validate, that pair determines the path.  A scatter on a
 * 1000-node platform has hundreds of thousands of steps and thousands of
 * hops, too many for a linear search per step.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

void hop_table_init(hop_table_t *h, steady_trees_t *t, const steady_platform_t *p)
{
    memset(h, 0, sizeof *h);
    h->t = t;
    h->nv = steady_platform_node_count(p);
}

void hop_table_free(hop_table_t *h)
{
    free(h->keys);
    free(h->index);
    h->keys = NULL;
    h->index = NULL;
    h->cap = 0;
}

static size_t slot_of(const hop_table_t *h, long long key)
{
    unsigned long long x = (unsigned long long)key * 0x9E3779B97F4A7C15ull;
    size_t mask = (size_t)h->cap - 1, i = (size_t)(x >> 20) & mask;
    while (h->keys[i] >= 0 && h->keys[i] != key)
        i = (i + 1) & mask;
    return i;
}

/* Keeps the table at most half full. */
static bool reserve(hop_table_t *h)
{
    if (2 * (h->t->nhops + 1) <= h->cap)
        return true;
    int ncap = h->cap ? 2 * h->cap : 64;
    long long *keys = malloc((size_t)ncap * sizeof *keys);
    int *index = malloc((size_t)ncap * sizeof *index);
    if (!keys || !index) {
        free(keys);
        free(index);
        return false;
    }
    long long *old_keys = h->keys;
    int *old_index = h->index, old_cap = h->cap;
    h->keys = keys;
    h->index = index;
    h->cap = ncap;
    for (int i = 0; i < ncap; i++)
        h->keys[i] = -1;
    for (int i = 0; i < old_cap; i++)
        if (old_keys[i] >= 0) {
            size_t j = slot_of(h, old_keys[i]);
            h->keys[j] = old_keys[i];
            h->index[j] = old_index[i];
        }
    free(old_keys);
    free(old_index);
    return true;
}

int hop_table_add(hop_table_t *h, const steady_platform_t *p, const int *edges, int n)
{
    int dst = steady_platform_edge(p, edges[n - 1])->dst;
    long long key = (long long)edges[0] * h->nv + dst;
    if (!reserve(h))
        return -1;
    size_t i = slot_of(h, key);
    if (h->keys[i] >= 0)
        return h->index[i];
    steady_trees_t *t = h->t;
    steady_hop_t *grown = realloc(t->hops, (size_t)(t->nhops + 1) * sizeof *grown);
    if (!grown)
        return -1;
    t->hops = grown;
    int *copy = malloc((size_t)n * sizeof *copy);
    if (!copy)
        return -1;
    memcpy(copy, edges, (size_t)n * sizeof *copy);
    t->hops[t->nhops] = (steady_hop_t){
        .src = steady_platform_edge(p, edges[0])->src, .dst = dst, .nedges = n, .edges = copy};
    h->keys[i] = key;
    h->index[i] = t->nhops;
    return t->nhops++;
}

/* A message of one type waiting in a switch: the last send that brought it
 * there (steps before it in its hop are chained by `prev`). */
typedef struct {
    int node, type, step;
} waiting_t;

steady_err_t hops_contract(hop_table_t *h, const steady_platform_t *p, steady_step_t *steps,
                           int *nsteps, steady_error_t *err)
{
    int n = *nsteps;
    /* prev[i]: the send before step i in its hop; edge_of[i]: step i's edge
     * (steps[] is overwritten from the front as hops are emitted) */
    int *prev = malloc((size_t)(n ? n : 1) * sizeof *prev);
    int *edge_of = malloc((size_t)(n ? n : 1) * sizeof *edge_of);
    int *path = malloc((size_t)(n ? n : 1) * sizeof *path);
    waiting_t *wait = malloc((size_t)(n ? n : 1) * sizeof *wait);
    steady_err_t rc = STEADY_OK;
    if (!prev || !edge_of || !path || !wait) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto cleanup;
    }
    for (int i = 0; i < n; i++)
        edge_of[i] = steps[i].edge;
    int nwait = 0, out = 0;
    for (int i = 0; i < n && !rc; i++) {
        steady_step_t st = steps[i];
        if (st.kind != STEADY_STEP_SEND) {
            steps[out++] = st;
            continue;
        }
        const steady_edge_t *e = steady_platform_edge(p, st.edge);
        prev[i] = -1;
        if (steady_platform_node(p, e->src)->kind == STEADY_SWITCH) {
            int w = 0;
            while (w < nwait && (wait[w].node != e->src || wait[w].type != st.type))
                w++;
            if (w == nwait) {
                rc = steady_error_set(err, STEADY_EINTERNAL,
                                      "hops: a message leaves switch %s that never entered it "
                                      "(a bug)",
                                      steady_platform_node(p, e->src)->name);
                break;
            }
            prev[i] = wait[w].step;
            wait[w] = wait[--nwait];
        }
        if (steady_platform_node(p, e->dst)->kind == STEADY_SWITCH) {
            wait[nwait++] = (waiting_t){e->dst, st.type, i};
            continue;
        }
        /* the hop ends here: its edges, from the first */
        int len = 0;
        for (int j = i; j >= 0; j = prev[j])
            len++;
        int k = len;
        for (int j = i; j >= 0; j = prev[j])
            path[--k] = edge_of[j];
        int hop = hop_table_add(h, p, path, len);
        if (hop < 0) {
            rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
            break;
        }
        st.hop = hop;
        st.edge = path[0];
        steps[out++] = st;
    }
    if (!rc && nwait > 0)
        rc = steady_error_set(err, STEADY_EINTERNAL,
                              "hops: a message enters switch %s and never leaves it (a bug)",
                              steady_platform_node(p, wait[0].node)->name);
    *nsteps = out;
cleanup:
    free(prev);
    free(edge_of);
    free(path);
    free(wait);
    return rc;
}
