/*
 * hopgraph.c — every hop of a platform: the graph of ranks whose arcs are
 * the transfers a message can make (platform.h), on which the LPs, the
 * trees and the schedules are written.
 *
 * The hops are each edge between two ranks, in edge order (so that on a
 * platform without switches hop h is edge h, and everything written on
 * the paper's platforms stays as it was), then, for each rank in node
 * order and each of its edges into a switch in edge order, the paths
 * through switches to every rank they reach, in depth-first order.  By
 * steady_platform_validate a node is reached from a switch along one
 * path through switches at most, so the search from an entry edge visits
 * each node once and the hops are the paths, without repetition: a star
 * of k hosts has k (k - 1).  A path back to the rank it left is no hop.
 * A first search only counts them, so that a platform with more than
 * STEADY_HOPS_MAX hops (or STEADY_HOP_EDGES_MAX edges along them) is
 * refused before memory goes to them.
 */
#include "internal.h"

#include "../common/array.h"

#include <stdlib.h>
#include <string.h>

struct steady_hop_graph {
    int nodes;
    bool counting; /* count the hops and their edges, up to the limits; store none */
    int count, cap, first_cap;
    steady_hop_t *hops; /* hops[h].edges points into path */
    int *first;         /* hop h's edges are path[first[h] .. first[h] + nedges) */
    int *path;
    int npath, path_cap;
    int *out_start, *out_list; /* hops leaving node v: out_list[out_start[v] .. out_start[v + 1]) */
    int *in_start, *in_list;
    /* by (first edge, last node), which determine a hop: open addressing,
     * at most half full */
    int *table;
    size_t mask;
};

static bool add_hop(steady_hop_graph_t *g, int src, int dst, const int *edges, int n)
{
    if (g->counting) {
        g->npath += n; /* n <= nodes: no overflow below the limit */
        return ++g->count <= STEADY_HOPS_MAX && g->npath <= STEADY_HOP_EDGES_MAX;
    }
    if (!array_grow((void **)&g->hops, &g->cap, g->count + 1, sizeof *g->hops, 64) ||
        !array_grow((void **)&g->first, &g->first_cap, g->count + 1, sizeof *g->first, 64) ||
        !array_grow((void **)&g->path, &g->path_cap, g->npath + n, sizeof *g->path, 256))
        return false;
    g->first[g->count] = g->npath;
    memcpy(g->path + g->npath, edges, (size_t)n * sizeof *edges);
    g->npath += n;
    g->hops[g->count++] = (steady_hop_t){.src = src, .dst = dst, .nedges = n};
    return true;
}

/* The hops from rank u that start with edge e into a switch: a depth-first
 * search through switches; path[] holds the edges from u, on_path the
 * switches on it. */
static bool hops_through(steady_hop_graph_t *g, const steady_platform_t *p, int u, int e, int *path,
                         int *next, char *on_path)
{
    int depth = 1;
    path[0] = e;
    next[0] = 0;
    on_path[steady_platform_edge(p, e)->dst] = 1;
    bool ok = true;
    while (depth > 0 && ok) {
        int w = steady_platform_edge(p, path[depth - 1])->dst, n;
        const int *out = steady_platform_out_edges(p, w, &n);
        if (next[depth - 1] == n) {
            on_path[w] = 0;
            depth--;
            continue;
        }
        int f = out[next[depth - 1]++], x = steady_platform_edge(p, f)->dst;
        if (on_path[x])
            continue;
        path[depth] = f;
        if (steady_platform_node(p, x)->kind == STEADY_SWITCH) {
            on_path[x] = 1;
            next[depth++] = 0;
        } else if (x != u) {
            ok = add_hop(g, u, x, path, depth + 1);
        }
    }
    while (depth > 0) /* after a failure: leave on_path clean */
        on_path[steady_platform_edge(p, path[--depth])->dst] = 0;
    return ok;
}

/* Adds every hop of p to g (or counts them): false when memory ran out or
 * the count passed STEADY_HOPS_MAX or STEADY_HOP_EDGES_MAX. */
static bool list_hops(steady_hop_graph_t *g, const steady_platform_t *p, int *path, int *next,
                      char *on_path)
{
    int nv = steady_platform_node_count(p), ne = steady_platform_edge_count(p);
    bool ok = true;
    for (int e = 0; e < ne && ok; e++) {
        const steady_edge_t *ed = steady_platform_edge(p, e);
        if (steady_platform_rank_of(p, ed->src) >= 0 && steady_platform_rank_of(p, ed->dst) >= 0)
            ok = add_hop(g, ed->src, ed->dst, &e, 1);
    }
    for (int u = 0; u < nv && ok; u++) {
        if (steady_platform_rank_of(p, u) < 0)
            continue;
        int n;
        const int *es = steady_platform_out_edges(p, u, &n);
        for (int k = 0; k < n && ok; k++)
            if (steady_platform_node(p, steady_platform_edge(p, es[k])->dst)->kind == STEADY_SWITCH)
                ok = hops_through(g, p, u, es[k], path, next, on_path);
    }
    return ok;
}

static size_t key_slot(const steady_hop_graph_t *g, int first_edge, int dst)
{
    unsigned long long x = ((unsigned long long)first_edge * (unsigned)g->nodes + (unsigned)dst) *
                           0x9E3779B97F4A7C15ull;
    return (size_t)(x >> 17) & g->mask;
}

static bool index_keys(steady_hop_graph_t *g)
{
    size_t cap = 64;
    while (cap < 2 * (size_t)g->count)
        cap *= 2;
    g->table = malloc(cap * sizeof *g->table);
    if (!g->table)
        return false;
    g->mask = cap - 1;
    for (size_t i = 0; i < cap; i++)
        g->table[i] = -1;
    for (int h = 0; h < g->count; h++) {
        size_t i = key_slot(g, g->hops[h].edges[0], g->hops[h].dst);
        while (g->table[i] >= 0)
            i = (i + 1) & g->mask;
        g->table[i] = h;
    }
    return true;
}

/* Adjacency by counting: start[v] .. start[v + 1] in list. */
static bool index_by(steady_hop_graph_t *g, bool out, int **start_out, int **list_out)
{
    int *start = calloc((size_t)g->nodes + 2, sizeof *start);
    int *list = malloc((size_t)(g->count ? g->count : 1) * sizeof *list);
    if (!start || !list) {
        free(start);
        free(list);
        return false;
    }
    for (int h = 0; h < g->count; h++)
        start[(out ? g->hops[h].src : g->hops[h].dst) + 2]++;
    for (int v = 0; v <= g->nodes; v++)
        start[v + 1] += start[v];
    for (int h = 0; h < g->count; h++)
        list[start[(out ? g->hops[h].src : g->hops[h].dst) + 1]++] = h;
    *start_out = start;
    *list_out = list;
    return true;
}

steady_err_t steady_hop_graph_build(const steady_platform_t *p, steady_hop_graph_t **out,
                                    steady_error_t *err)
{
    *out = NULL;
    int nv = steady_platform_node_count(p);
    steady_hop_graph_t *g = calloc(1, sizeof *g);
    int *path = malloc((size_t)(nv + 1) * sizeof *path);
    int *next = malloc((size_t)(nv + 1) * sizeof *next);
    char *on_path = calloc((size_t)nv + 1, 1);
    bool ok = g && path && next && on_path, too_many = false;
    if (ok) {
        g->nodes = nv;
        g->counting = true;
        too_many = !list_hops(g, p, path, next, on_path);
        g->counting = false;
        g->count = g->npath = 0;
        ok = !too_many && list_hops(g, p, path, next, on_path);
    }
    if (ok) {
        for (int h = 0; h < g->count; h++)
            g->hops[h].edges = g->path + g->first[h];
        ok = index_by(g, true, &g->out_start, &g->out_list) &&
             index_by(g, false, &g->in_start, &g->in_list) && index_keys(g);
    }
    free(path);
    free(next);
    free(on_path);
    if (!ok) {
        steady_hop_graph_destroy(g);
        if (too_many)
            return steady_error_set(
                err, STEADY_EUNSUPPORTED,
                "%s (%d ranks): more than %d hops or %d edges along them, steady's limits: "
                "ranks that reach each other through switches are joined pairwise (k ranks "
                "around one switch make k (k - 1) hops) and the LPs are written over hops "
                "(docs/network.md)",
                steady_platform_name(p), steady_platform_rank_count(p), STEADY_HOPS_MAX,
                STEADY_HOP_EDGES_MAX);
        return steady_error_set(err, STEADY_ENOMEM, "out of memory listing the hops");
    }
    *out = g;
    return STEADY_OK;
}

void steady_hop_graph_destroy(steady_hop_graph_t *g)
{
    if (!g)
        return;
    free(g->hops);
    free(g->first);
    free(g->path);
    free(g->out_start);
    free(g->out_list);
    free(g->in_start);
    free(g->in_list);
    free(g->table);
    free(g);
}

int steady_hop_graph_count(const steady_hop_graph_t *g)
{
    return g->count;
}

const steady_hop_t *steady_hop_graph_hop(const steady_hop_graph_t *g, int h)
{
    return &g->hops[h];
}

bool steady_hop_copy(steady_hop_t *out, const steady_hop_t *h)
{
    int *edges = malloc((size_t)h->nedges * sizeof *edges);
    if (!edges)
        return false;
    memcpy(edges, h->edges, (size_t)h->nedges * sizeof *edges);
    *out = *h;
    out->edges = edges;
    return true;
}

const int *steady_hop_graph_out(const steady_hop_graph_t *g, int v, int *count)
{
    *count = g->out_start[v + 1] - g->out_start[v];
    return g->out_list + g->out_start[v];
}

const int *steady_hop_graph_in(const steady_hop_graph_t *g, int v, int *count)
{
    *count = g->in_start[v + 1] - g->in_start[v];
    return g->in_list + g->in_start[v];
}

int steady_hop_graph_find(const steady_hop_graph_t *g, int first_edge, int dst)
{
    if (dst < 0 || dst >= g->nodes || first_edge < 0)
        return -1;
    for (size_t i = key_slot(g, first_edge, dst); g->table[i] >= 0; i = (i + 1) & g->mask) {
        const steady_hop_t *h = &g->hops[g->table[i]];
        if (h->edges[0] == first_edge && h->dst == dst)
            return g->table[i];
    }
    return -1;
}

/* From each rank, a search through switches marks the ranks it reaches
 * (seen[v] == u + 1: reached from u); the first rank left unmarked makes
 * the pair. */
steady_err_t steady_platform_unjoined(const steady_platform_t *p, int *a, int *b,
                                      steady_error_t *err)
{
    int n = steady_platform_node_count(p);
    int *seen = calloc((size_t)n + 1, sizeof *seen),
        *stack = malloc(((size_t)n + 1) * sizeof *stack);
    *a = *b = -1;
    if (!seen || !stack) {
        free(seen);
        free(stack);
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    }
    int ranks = steady_platform_rank_count(p);
    for (int u = 0; u < n && *a < 0; u++) {
        if (steady_platform_node(p, u)->kind == STEADY_SWITCH)
            continue;
        int top = 0, reached = 0;
        seen[u] = u + 1;
        stack[top++] = u;
        while (top > 0) {
            int v = stack[--top], count;
            const int *out = steady_platform_out_edges(p, v, &count);
            for (int k = 0; k < count; k++) {
                int w = steady_platform_edge(p, out[k])->dst;
                if (seen[w] == u + 1)
                    continue;
                seen[w] = u + 1;
                if (steady_platform_node(p, w)->kind == STEADY_SWITCH)
                    stack[top++] = w;
                else
                    reached++; /* a rank ends a hop */
            }
        }
        for (int v = 0; v < n && *a < 0 && reached < ranks - 1; v++)
            if (v != u && seen[v] != u + 1 && steady_platform_node(p, v)->kind != STEADY_SWITCH) {
                *a = u;
                *b = v;
            }
    }
    free(seen);
    free(stack);
    return STEADY_OK;
}
