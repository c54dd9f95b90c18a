/*
 * reduce.c — what the reduce LP (SSR, docs/linear-programs.md) can leave
 * out without changing its optimum.
 *
 * A partial result v[k,m] combines the values of r_k .. r_m: a node can
 * hold it only if every one of them reaches the node along the platform's
 * hops (nothing else can ever bring their values together there), and it
 * is of use only on a node that reaches the target (a value that cannot
 * get there never takes part in a result).  So the send of v[k,m] on hop
 * u -> w needs both u and w to qualify, and a task T(k,l,m) on processor v
 * needs v to qualify for v[k,m] (its operands then qualify too).  Every
 * variable left out is 0 in every solution of the full LP that carries
 * no circulation, and a circulation carries nothing: the optimum is the
 * same.  On a strongly connected platform nothing is pruned.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Breadth-first search over hops, forwards from v (or backwards). */
static void bfs(const steady_hop_graph_t *g, int nv, int v, bool backwards, bool *seen, int *queue)
{
    memset(seen, 0, (size_t)nv * sizeof *seen);
    int head = 0, tail = 0;
    seen[v] = true;
    queue[tail++] = v;
    while (head < tail) {
        int u = queue[head++], n;
        const int *hs = backwards ? steady_hop_graph_in(g, u, &n) : steady_hop_graph_out(g, u, &n);
        for (int k = 0; k < n; k++) {
            const steady_hop_t *h = steady_hop_graph_hop(g, hs[k]);
            int w = backwards ? h->src : h->dst;
            if (!seen[w]) {
                seen[w] = true;
                queue[tail++] = w;
            }
        }
    }
}

bool lp_reduce_prune(const steady_solution_t *s, lp_reduce_prune_t *pr)
{
    memset(pr, 0, sizeof *pr);
    int nv = steady_platform_node_count(s->p), N = s->nsources;
    pr->s = s;
    pr->N = N;
    pr->lo = malloc((size_t)nv * N * sizeof *pr->lo);
    bool *seen = malloc((size_t)nv * sizeof *seen);
    bool *to_target = malloc((size_t)nv * sizeof *to_target);
    int *queue = malloc((size_t)nv * sizeof *queue);
    if (!pr->lo || !seen || !to_target || !queue) {
        free(seen);
        free(to_target);
        free(queue);
        lp_reduce_prune_free(pr);
        return false;
    }
    bfs(s->hops, nv, s->targets[0], true, to_target, queue);
    /* lo[v, m] = k: r_k .. r_m reach v, r_{k-1} does not (or k = 0) */
    for (int m = 0; m < N; m++) {
        bfs(s->hops, nv, s->sources[m], false, seen, queue);
        for (int v = 0; v < nv; v++) {
            int *lo = &pr->lo[(size_t)v * N];
            if (!to_target[v])
                lo[m] = N + 1;
            else if (!seen[v])
                lo[m] = m + 1;
            else
                lo[m] = m > 0 && lo[m - 1] <= m - 1 ? lo[m - 1] : m;
        }
    }
    free(seen);
    free(to_target);
    free(queue);
    return true;
}

void lp_reduce_prune_free(lp_reduce_prune_t *pr)
{
    free(pr->lo);
    pr->lo = NULL;
}

static bool holds(const lp_reduce_prune_t *pr, int v, int k, int m)
{
    return pr->lo[(size_t)v * pr->N + m] <= k;
}

bool lp_reduce_can_send(const lp_reduce_prune_t *pr, int h, int type)
{
    const steady_hop_t *hop = steady_hop_graph_hop(pr->s->hops, h);
    int k = pr->s->type_a[type], m = pr->s->type_b[type];
    return holds(pr, hop->src, k, m) && holds(pr, hop->dst, k, m);
}

bool lp_reduce_can_compute(const lp_reduce_prune_t *pr, int v, int task)
{
    return holds(pr, v, pr->s->task_k[task], pr->s->task_m[task]);
}
