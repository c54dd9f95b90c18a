/*
 * pairing.c — the arcs a broadcast is packed on (broadcast_arcs).
 *
 * Without switches the arcs are the platform's edges with their rates
 * n(e), in edge order.  A switch is a crossbar: it forwards every message it gets once
 * and copies none (the LP conserves n at switches, lp/solve.c), but which
 * message leaving it is which message entering it the LP does not say.
 * The packing needs hops — a message from rank u to rank v through the
 * switches — so the flow of messages through each group of switches must
 * be cut into paths from an edge entering it to an edge leaving it.  Any
 * such decomposition keeps every edge's and channel's load; they differ in
 * which ranks end up joined, hence in the trees that can be packed.
 *
 * Edmonds' theorem gives the choice: if the ranks can be ordered so that
 * every target gets, from ranks earlier in the order, arcs of capacity at
 * least TP, then every set X of ranks without the source is entered with
 * capacity TP (through its earliest rank) and the arborescences carry TP.
 * So the pairing follows a broadcast wave: starting from the source, it
 * repeatedly takes the rank that the ranks already reached can feed most
 * (their remaining messages into the switches, and direct edges), pairs
 * the messages it gets from the switches with messages sent into them by
 * ranks already reached (the earliest first), and adds the rank's own
 * messages into the switches to what the next ranks can be fed from.  What
 * is left once no rank can be fed this way is paired in any order (arcs
 * backwards in the wave, which the packing may still use).  On a crossbar
 * cluster the LP's pipelines come out as pipelines; where the wave cannot
 * feed a rank TP from earlier ranks the packing finds less than TP, and
 * steady reports the broadcast it builds next to the LP's bound.
 *
 * A path from the switch a message enters to the switch it leaves by goes
 * along edges between switches with rate left; there is one
 * (steady_platform_validate), found by breadth-first search.  Each step of
 * the pairing exhausts a message entering, a message leaving or an edge
 * between switches, so there are at most |E| steps; choosing the next rank
 * costs O(V + E): O(V (V + E)) in all.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    const steady_platform_t *p;
    arcs_t *g;
    int cap_arcs, cap_path;
    long long *keys; /* hop key (first edge * nv + last node) -> arc, open addressing */
    int *arc_of;
    int key_cap;
} builder_t;

void arcs_free(arcs_t *g)
{
    if (g->cap)
        for (int a = 0; a < g->m; a++)
            mpq_clear(g->cap[a]);
    free(g->tail);
    free(g->head);
    free(g->cap);
    free(g->path_start);
    free(g->path);
    memset(g, 0, sizeof *g);
}

static size_t key_slot(const builder_t *b, long long key)
{
    unsigned long long x = (unsigned long long)key * 0x9E3779B97F4A7C15ull;
    size_t mask = (size_t)b->key_cap - 1, i = (size_t)(x >> 20) & mask;
    while (b->keys[i] >= 0 && b->keys[i] != key)
        i = (i + 1) & mask;
    return i;
}

static bool grow_keys(builder_t *b)
{
    if (2 * (b->g->m + 1) <= b->key_cap)
        return true;
    int ncap = b->key_cap ? 2 * b->key_cap : 64;
    long long *keys = malloc((size_t)ncap * sizeof *keys), *old = b->keys;
    int *arc_of = malloc((size_t)ncap * sizeof *arc_of), *old_arc = b->arc_of, old_cap = b->key_cap;
    if (!keys || !arc_of) {
        free(keys);
        free(arc_of);
        return false;
    }
    b->keys = keys;
    b->arc_of = arc_of;
    b->key_cap = ncap;
    for (int i = 0; i < ncap; i++)
        keys[i] = -1;
    for (int i = 0; i < old_cap; i++)
        if (old[i] >= 0) {
            size_t j = key_slot(b, old[i]);
            keys[j] = old[i];
            arc_of[j] = old_arc[i];
        }
    free(old);
    free(old_arc);
    return true;
}

/* Adds amount to the arc of the hop along edges[0 .. n - 1], creating it
 * when new.  False when memory runs out. */
static bool add_arc(builder_t *b, const int *edges, int n, const mpq_t amount)
{
    const steady_platform_t *p = b->p;
    arcs_t *g = b->g;
    int dst = steady_platform_edge(p, edges[n - 1])->dst;
    long long key = (long long)edges[0] * steady_platform_node_count(p) + dst;
    if (!grow_keys(b))
        return false;
    size_t i = key_slot(b, key);
    if (b->keys[i] >= 0) {
        mpq_add(g->cap[b->arc_of[i]], g->cap[b->arc_of[i]], amount);
        return true;
    }
    if (g->m + 1 >= b->cap_arcs) {
        int ncap = b->cap_arcs ? 2 * b->cap_arcs : 16;
        int *tail = realloc(g->tail, (size_t)ncap * sizeof *tail);
        if (tail)
            g->tail = tail;
        int *head = realloc(g->head, (size_t)ncap * sizeof *head);
        if (head)
            g->head = head;
        mpq_t *cap = realloc(g->cap, (size_t)ncap * sizeof *cap);
        if (cap)
            g->cap = cap;
        int *start = realloc(g->path_start, (size_t)(ncap + 1) * sizeof *start);
        if (start)
            g->path_start = start;
        if (!tail || !head || !cap || !start)
            return false;
        b->cap_arcs = ncap;
    }
    int used = g->path_start[g->m];
    if (used + n > b->cap_path) {
        int ncap = b->cap_path ? 2 * b->cap_path : 64;
        while (ncap < used + n)
            ncap *= 2;
        int *path = realloc(g->path, (size_t)ncap * sizeof *path);
        if (!path)
            return false;
        g->path = path;
        b->cap_path = ncap;
    }
    memcpy(&g->path[used], edges, (size_t)n * sizeof *edges);
    int a = g->m++;
    g->path_start[g->m] = used + n;
    g->tail[a] = steady_platform_rank_of(p, steady_platform_edge(p, edges[0])->src);
    g->head[a] = steady_platform_rank_of(p, dst);
    mpq_init(g->cap[a]);
    mpq_set(g->cap[a], amount);
    b->keys[i] = key;
    b->arc_of[i] = a;
    return true;
}

/* The pairing's state. */
typedef struct {
    const steady_platform_t *p;
    int nv, ne, root;
    mpq_t *left;      /* per edge: the rate not yet paired (entries, exits, between switches) */
    bool *reached;    /* per node (ranks) */
    int *entries;     /* edges from reached ranks into switches, in the order reached */
    int nentries;
    int *pred, *queue; /* BFS over switches: the edge that reached each switch */
    int *stamp;
    int bfs;
    int *path;
    int nleft; /* how many of left are initialised */
} wave_t;

static bool is_switch(const steady_platform_t *p, int v)
{
    return steady_platform_node(p, v)->kind == STEADY_SWITCH;
}

/* The path through switches from switch a to switch z along edges between
 * switches with rate left, into w->path (returns its length, -1 if none). */
static int switch_path(wave_t *w, int a, int z)
{
    w->bfs++;
    int head = 0, tail = 0;
    w->queue[tail++] = a;
    w->stamp[a] = w->bfs;
    w->pred[a] = -1;
    while (head < tail && w->stamp[z] != w->bfs) {
        int u = w->queue[head++], n;
        const int *out = steady_platform_out_edges(w->p, u, &n);
        for (int k = 0; k < n; k++) {
            int v = steady_platform_edge(w->p, out[k])->dst;
            if (!is_switch(w->p, v) || w->stamp[v] == w->bfs || mpq_sgn(w->left[out[k]]) <= 0)
                continue;
            w->stamp[v] = w->bfs;
            w->pred[v] = out[k];
            w->queue[tail++] = v;
        }
    }
    if (w->stamp[z] != w->bfs)
        return -1;
    int len = 0;
    for (int v = z; w->pred[v] >= 0; v = steady_platform_edge(w->p, w->pred[v])->src)
        len++;
    int k = len;
    for (int v = z; w->pred[v] >= 0; v = steady_platform_edge(w->p, w->pred[v])->src)
        w->path[--k] = w->pred[v];
    return len;
}

/* Pairs exit x (switch -> rank) with the entries that can reach it, the
 * earliest first (only those of reached ranks when `reached_only`), until
 * x or the entries are exhausted. */
static bool feed_exit(wave_t *w, builder_t *b, int x, const int *entries, int nentries,
                      mpq_t amount)
{
    const steady_platform_t *p = w->p;
    int sw = steady_platform_edge(p, x)->src;
    int *hop = malloc((size_t)(w->nv + 2) * sizeof *hop);
    if (!hop)
        return false;
    for (int i = 0; i < nentries && mpq_sgn(w->left[x]) > 0; i++) {
        int e = entries[i];
        if (mpq_sgn(w->left[e]) <= 0 || steady_platform_edge(p, e)->src == steady_platform_edge(p, x)->dst)
            continue;
        int len = switch_path(w, steady_platform_edge(p, e)->dst, sw);
        if (len < 0)
            continue;
        mpq_set(amount, w->left[e]);
        if (mpq_cmp(w->left[x], amount) < 0)
            mpq_set(amount, w->left[x]);
        for (int k = 0; k < len; k++)
            if (mpq_cmp(w->left[w->path[k]], amount) < 0)
                mpq_set(amount, w->left[w->path[k]]);
        int n = 0;
        hop[n++] = e;
        for (int k = 0; k < len; k++)
            hop[n++] = w->path[k];
        hop[n++] = x;
        for (int k = 0; k < n; k++)
            mpq_sub(w->left[hop[k]], w->left[hop[k]], amount);
        if (!add_arc(b, hop, n, amount)) {
            free(hop);
            return false;
        }
    }
    free(hop);
    return true;
}

/* What the reached ranks can feed v with: its direct edges from them, and
 * its exits from switches, each up to the messages the reached ranks still
 * send into switches (an optimistic count: paths are not checked). */
static void coverage(const wave_t *w, int v, const mpq_t supply, mpq_t cov, mpq_t q)
{
    int n;
    const int *in = steady_platform_in_edges(w->p, v, &n);
    mpq_set_ui(cov, 0, 1);
    for (int k = 0; k < n; k++) {
        int e = in[k], u = steady_platform_edge(w->p, e)->src;
        if (is_switch(w->p, u)) {
            mpq_set(q, w->left[e]);
            if (mpq_cmp(supply, q) < 0)
                mpq_set(q, supply);
            mpq_add(cov, cov, q);
        } else if (w->reached[u]) {
            mpq_add(cov, cov, w->left[e]);
        }
    }
}

/* The rate v sends into switches and along direct edges: what it brings. */
static void brings(const wave_t *w, int v, mpq_t out)
{
    int n;
    const int *es = steady_platform_out_edges(w->p, v, &n);
    mpq_set_ui(out, 0, 1);
    for (int k = 0; k < n; k++)
        mpq_add(out, out, w->left[es[k]]);
}

/* Reaches v: its direct edges from reached ranks become arcs, its exits
 * are fed, and its own entries join the list. */
static bool reach(wave_t *w, builder_t *b, int v, mpq_t q)
{
    int n;
    const int *in = steady_platform_in_edges(w->p, v, &n);
    for (int k = 0; k < n; k++) {
        int e = in[k], u = steady_platform_edge(w->p, e)->src;
        if (is_switch(w->p, u)) {
            if (!feed_exit(w, b, e, w->entries, w->nentries, q))
                return false;
        } else if (w->reached[u] && mpq_sgn(w->left[e]) > 0) {
            if (!add_arc(b, &e, 1, w->left[e]))
                return false;
            mpq_set_ui(w->left[e], 0, 1);
        }
    }
    w->reached[v] = true;
    const int *out = steady_platform_out_edges(w->p, v, &n);
    for (int k = 0; k < n; k++)
        if (is_switch(w->p, steady_platform_edge(w->p, out[k])->dst) &&
            mpq_sgn(w->left[out[k]]) > 0)
            w->entries[w->nentries++] = out[k];
    return true;
}

steady_err_t broadcast_arcs(const steady_solution_t *s, arcs_t *g, steady_error_t *err)
{
    const steady_platform_t *p = steady_solution_platform(s);
    int ns, nv = steady_platform_node_count(p), ne = steady_platform_edge_count(p);
    memset(g, 0, sizeof *g);
    g->n = steady_platform_rank_count(p);
    builder_t b = {.p = p, .g = g};
    wave_t w = {.p = p, .nv = nv, .ne = ne, .root = steady_solution_sources(s, &ns)[0]};
    mpq_t q, cov, best, supply, bring, best_bring;
    mpq_inits(q, cov, best, supply, bring, best_bring, NULL);
    steady_err_t rc = STEADY_ENOMEM;
    g->path_start = calloc(1, sizeof *g->path_start);
    w.left = malloc((size_t)(ne ? ne : 1) * sizeof *w.left);
    w.reached = calloc((size_t)nv, sizeof *w.reached);
    w.entries = malloc((size_t)(ne ? ne : 1) * sizeof *w.entries);
    w.pred = malloc((size_t)nv * sizeof *w.pred);
    w.queue = malloc((size_t)nv * sizeof *w.queue);
    w.stamp = calloc((size_t)nv, sizeof *w.stamp);
    w.path = malloc((size_t)nv * sizeof *w.path);
    if (!g->path_start || !w.left || !w.reached || !w.entries || !w.pred || !w.queue ||
        !w.stamp || !w.path)
        goto cleanup;
    for (; w.nleft < ne; w.nleft++) {
        mpq_init(w.left[w.nleft]);
        if (steady_platform_edge(p, w.nleft)->dst != w.root)
            steady_solution_send(s, w.nleft, 0, w.left[w.nleft]);
    }
    if (steady_platform_switch_count(p) == 0) {
        /* every edge an arc, in edge order (those into the source with
         * capacity 0): the packing then works on the platform itself */
        for (int e = 0; e < ne; e++)
            if (!add_arc(&b, &e, 1, w.left[e]))
                goto cleanup;
        rc = STEADY_OK;
        goto cleanup;
    }
    if (!reach(&w, &b, w.root, q))
        goto cleanup;
    for (;;) {
        mpq_set_ui(supply, 0, 1);
        for (int i = 0; i < w.nentries; i++)
            mpq_add(supply, supply, w.left[w.entries[i]]);
        int pick = -1;
        for (int v = 0; v < nv; v++) {
            if (w.reached[v] || is_switch(p, v))
                continue;
            coverage(&w, v, supply, cov, q);
            if (mpq_sgn(cov) <= 0)
                continue;
            brings(&w, v, bring);
            int c = pick < 0 ? 1 : mpq_cmp(cov, best);
            if (c > 0 || (c == 0 && mpq_cmp(bring, best_bring) > 0)) {
                pick = v;
                mpq_set(best, cov);
                mpq_set(best_bring, bring);
            }
        }
        if (pick < 0)
            break;
        if (!reach(&w, &b, pick, q))
            goto cleanup;
    }
    /* what is left: any entry with any exit it can reach, and the direct
     * edges not used yet */
    w.nentries = 0;
    for (int e = 0; e < ne; e++) {
        const steady_edge_t *ed = steady_platform_edge(p, e);
        if (mpq_sgn(w.left[e]) > 0 && !is_switch(p, ed->src) && is_switch(p, ed->dst))
            w.entries[w.nentries++] = e;
    }
    for (int e = 0; e < ne; e++) {
        const steady_edge_t *ed = steady_platform_edge(p, e);
        if (mpq_sgn(w.left[e]) <= 0 || is_switch(p, ed->dst))
            continue;
        if (is_switch(p, ed->src)) {
            if (!feed_exit(&w, &b, e, w.entries, w.nentries, q))
                goto cleanup;
        } else if (!add_arc(&b, &e, 1, w.left[e])) {
            goto cleanup;
        }
    }
    rc = STEADY_OK;
cleanup:
    if (rc)
        steady_error_set(err, STEADY_ENOMEM, "out of memory");
    for (int e = 0; e < w.nleft; e++)
        mpq_clear(w.left[e]);
    free(w.left);
    free(w.reached);
    free(w.entries);
    free(w.pred);
    free(w.queue);
    free(w.stamp);
    free(w.path);
    free(b.keys);
    free(b.arc_of);
    mpq_clears(q, cov, best, supply, bring, best_bring, NULL);
    return rc;
}
