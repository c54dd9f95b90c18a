/*
 * common/blocks.c — the blocks (biconnected components) of a graph seen
 * from a source: the broadcast's cuts (lp/cuts.c) and its arborescences
 * (decompose/arborescence.c) work block by block.
 *
 * Arcs are taken as undirected edges.  Two blocks share at most one node,
 * an articulation point, and a simple path never leaves a block and comes
 * back to it (it would pass that point twice).  So every path from the
 * source s to a node v goes through the same chain of blocks, each entered
 * at its node nearest s (its entry) and left at the next block's entry,
 * and a flow from s to v is a flow inside each of those blocks, from its
 * entry to where the chain leaves it.
 *
 * Tarjan's algorithm with a stack of edges, from s, iterative (a chain of
 * 10^6 nodes would overflow the C stack).
 */
#include "blocks.h"

#include <stdlib.h>

void blocks_free(blocks_t *b)
{
    free(b->arc_block);
    free(b->node_block);
    free(b->entry);
    *b = (blocks_t){0};
}

bool blocks_find(int n, int m, const int *tail, const int *head, int s, blocks_t *b)
{
    *b = (blocks_t){0};
    b->arc_block = malloc((size_t)(m + 1) * sizeof *b->arc_block);
    b->node_block = malloc((size_t)n * sizeof *b->node_block);
    b->entry = malloc((size_t)(m + 1) * sizeof *b->entry);
    int *adj_start = calloc((size_t)n + 1, sizeof *adj_start);
    int *adj = malloc((size_t)(2 * m + 1) * sizeof *adj);
    int *disc = malloc((size_t)n * sizeof *disc);
    int *low = malloc((size_t)n * sizeof *low);
    int *up = malloc((size_t)n * sizeof *up); /* the arc from the DFS parent */
    int *next = malloc((size_t)n * sizeof *next);
    int *stack = malloc((size_t)n * sizeof *stack);
    int *edges = malloc((size_t)(m + 1) * sizeof *edges);
    bool ok = b->arc_block && b->node_block && b->entry && adj_start && adj && disc && low && up &&
              next && stack && edges;
    if (!ok)
        goto done;
    for (int a = 0; a < m; a++) {
        b->arc_block[a] = -1;
        adj_start[tail[a] + 1]++;
        adj_start[head[a] + 1]++;
    }
    for (int v = 0; v < n; v++) {
        adj_start[v + 1] += adj_start[v];
        next[v] = adj_start[v];
        disc[v] = -1;
        b->node_block[v] = -1;
    }
    for (int a = 0; a < m; a++) {
        adj[next[tail[a]]++] = a;
        adj[next[head[a]]++] = a;
    }
    int time = 0, sp = 0, ep = 0;
    disc[s] = low[s] = time++;
    up[s] = -1;
    next[s] = adj_start[s];
    stack[sp++] = s;
    while (sp > 0) {
        int u = stack[sp - 1];
        if (next[u] < adj_start[u + 1]) {
            int a = adj[next[u]++];
            int w = tail[a] == u ? head[a] : tail[a];
            if (a == up[u] || w == u)
                continue;
            if (disc[w] < 0) { /* a tree edge */
                edges[ep++] = a;
                up[w] = a;
                disc[w] = low[w] = time++;
                next[w] = adj_start[w];
                stack[sp++] = w;
            } else if (disc[w] < disc[u]) { /* a back edge (seen once, from below) */
                edges[ep++] = a;
                if (disc[w] < low[u])
                    low[u] = disc[w];
            }
            continue;
        }
        if (--sp == 0)
            break;
        int p = stack[sp - 1];
        if (low[u] < low[p])
            low[p] = low[u];
        if (low[u] >= disc[p]) { /* p separates u's subtree: a block */
            int blk = b->nblocks++, e;
            b->entry[blk] = p;
            do {
                e = edges[--ep];
                b->arc_block[e] = blk;
            } while (e != up[u]);
        }
    }
    for (int v = 0; v < n; v++)
        if (v != s && disc[v] >= 0)
            b->node_block[v] = b->arc_block[up[v]];
done:
    free(adj_start);
    free(adj);
    free(disc);
    free(low);
    free(up);
    free(next);
    free(stack);
    free(edges);
    if (!ok)
        blocks_free(b);
    return ok;
}

int blocks_exits(const blocks_t *b, int n, int s, const int *targets, int nt, int *exit_block)
{
    int unreached = -1;
    for (int v = 0; v < n; v++)
        exit_block[v] = -1;
    for (int i = 0; i < nt; i++) {
        int v = targets[i];
        if (b->node_block[v] < 0 && unreached < 0)
            unreached = v;
        for (; v != s && exit_block[v] < 0 && b->node_block[v] >= 0; v = b->entry[b->node_block[v]])
            exit_block[v] = b->node_block[v];
    }
    return unreached;
}
