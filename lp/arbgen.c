/*
 * arbgen.c — the broadcast by column generation over spanning
 * arborescences (docs/linear-programs.md, "Broadcast to every rank").
 *
 * When every rank but the source is a target, SSB's solutions are the
 * weighted sums of spanning arborescences rooted at the source that fit
 * the capacities (Edmonds' branching theorem: n decomposes into them), so
 * SSB has the optimum of the packing LP (the master)
 *
 *     maximise TP,   TP - sum_A lambda_A = 0,
 *     every capacity row (ports, shared resources):
 *                    sum_A lambda_A * load_A(row) <= 1,   lambda >= 0
 *
 * whose columns are generated, as the reduce's trees are (treegen.c,
 * colgen.c).  Under the master's row prices y a hop costs its priced
 * loads, an arborescence the sum over its hops, and the cheapest one is a
 * minimum spanning arborescence: Edmonds' algorithm, here Tarjan's form
 * (each node's entering hops in a mergeable heap, cycles contracted with a
 * union-find that can be rolled back to take the tree apart again),
 * O(E log E) for the E hops.  It enters while it costs less than TP's price.
 * The master has one row per port and shared resource, whatever the hop
 * count: on a flat cluster of N hosts, whose N (N - 1) hops make the cuts
 * wander (cuts.c), it stays at 4 N + 1 rows.
 *
 * Few rounds.  The trees are sought at the master's duals from an interior
 * point (glpk.c), near the centre of the optimal face: the simplex's are a
 * vertex of a degenerate master that prices one port alone, and the
 * cheapest tree then avoids it, a star from another node, one round per
 * rank.  Each round also offers a depth-first tree (depth_first()), of
 * small out-degree, which a packing that fills every port evenly needs.
 *
 * Exactness.  Edmonds' algorithm also gives a dual: each set X it
 * contracts (every single node but the source, and every cycle) gets
 * z_X >= 0, the reduced price of the hop it picked to enter X, with
 * sum_{X entered by h} z_X <= price(h) for every hop h; then every
 * arborescence, which enters each X at least once, costs at least
 * sum_X z_X.  In the exact round the hops' prices are computed in
 * rationals from the master's exact duals, the algorithm runs on their
 * doubles, and the z of its sets are computed again in rationals, each
 * the exact minimum over the hops entering X (found among the doubles'
 * near ties), so the condition above holds exactly.  When sum_X z_X is not
 * below TP's price, (y, z) is a feasible dual of SSB's cut LP (cuts.c:
 * z on the cuts) whose value is the master's optimum: the certificate.
 * Otherwise the tree found costs less than TP's price exactly and enters,
 * or (near ties the doubles got wrong) the solution stays unproven.
 */
#include "internal.h"

#include "../common/array.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Edmonds' workspace.  Heaps are leftist heaps of hops (by key, with a
 * lazy addition per subtree); laminar sets are numbered from nv (the
 * single nodes are their own numbers). */
typedef struct {
    int nv, nh;
    /* per hop: its heap node */
    double *key, *lazy;
    int *left, *right, *rank;
    /* per node (union-find representative) */
    int *heap, *seen, *path, *q, *in, *lam;
    int *uf, *ufsize, *hist, nhist; /* union by size, no compression: undoable */
    /* the contracted cycles: representative, union-find time, picked hops */
    int *cyc_u, *cyc_time, *cyc_start, *cyc_hop, ncyc, ncychop;
    /* laminar sets: their parent (-1 at the top) */
    int *lam_parent, nlam;
} edmonds_t;

typedef struct {
    steady_solution_t *s;
    lp_model_t m;
    lp_loads_t ld;
    lp_column_t col;
    lp_smooth_t sm;
    int nv, nh, root, tp_row;
    bool *rank;    /* the nodes the arborescences span (hop graph nodes) */
    bool *reached; /* depth_first()'s */
    /* column 1 + i: the hops thop[trees.start[i] .. start[i + 1]), in
     * node order */
    int *thop, nthop, thop_cap;
    lp_colset_t trees;
    edmonds_t ed;
    double *w;  /* the hops' prices, the pricing's */
    double *yc; /* the master's central duals */
    /* the exact certificate */
    mpq_t *qw, *qd, *qz;
    double *dd;
    bool qinit; /* the rationals above are initialised */
    int *order, *lo, *hi, *pos, *kids, *kstart;
} ag_t;

/* ---- Edmonds' algorithm --------------------------------------------------- */

/* Whether laminar set X stands for something: a cycle, or a rank other
 * than the root (for a node: whether an arborescence enters it). */
static bool is_set(const ag_t *g, int X)
{
    return X >= g->nv || (g->rank[X] && X != g->root);
}

static bool ed_alloc(edmonds_t *e, int nv, int nh)
{
    e->nv = nv;
    e->nh = nh;
    size_t h = nh ? (size_t)nh : 1, v = (size_t)nv, l = 2 * v + 1;
    e->key = malloc(h * sizeof *e->key);
    e->lazy = malloc(h * sizeof *e->lazy);
    e->left = malloc(h * sizeof *e->left);
    e->right = malloc(h * sizeof *e->right);
    e->rank = malloc(h * sizeof *e->rank);
    e->heap = malloc(v * sizeof *e->heap);
    e->seen = malloc(v * sizeof *e->seen);
    e->path = malloc(v * sizeof *e->path);
    e->q = malloc(v * sizeof *e->q);
    e->in = malloc(v * sizeof *e->in);
    e->lam = malloc(v * sizeof *e->lam);
    e->uf = malloc(v * sizeof *e->uf);
    e->ufsize = malloc(v * sizeof *e->ufsize);
    e->hist = malloc(v * sizeof *e->hist);
    e->cyc_u = malloc(v * sizeof *e->cyc_u);
    e->cyc_time = malloc(v * sizeof *e->cyc_time);
    e->cyc_start = malloc((v + 1) * sizeof *e->cyc_start);
    e->cyc_hop = malloc(l * sizeof *e->cyc_hop);
    e->lam_parent = malloc(l * sizeof *e->lam_parent);
    return e->key && e->lazy && e->left && e->right && e->rank && e->heap && e->seen && e->path &&
           e->q && e->in && e->lam && e->uf && e->ufsize && e->hist && e->cyc_u && e->cyc_time &&
           e->cyc_start && e->cyc_hop && e->lam_parent;
}

static void ed_free(edmonds_t *e)
{
    void *p[] = {e->key,   e->lazy,     e->left,      e->right,   e->rank,      e->heap,   e->seen,
                 e->path,  e->q,        e->in,        e->lam,     e->uf,        e->ufsize, e->hist,
                 e->cyc_u, e->cyc_time, e->cyc_start, e->cyc_hop, e->lam_parent};
    for (size_t k = 0; k < sizeof p / sizeof *p; k++)
        free(p[k]);
}

static void push_lazy(edmonds_t *e, int a)
{
    double d = e->lazy[a];
    if (d == 0)
        return;
    e->key[a] += d;
    if (e->left[a] >= 0)
        e->lazy[e->left[a]] += d;
    if (e->right[a] >= 0)
        e->lazy[e->right[a]] += d;
    e->lazy[a] = 0;
}

static int rank_of(const edmonds_t *e, int a)
{
    return a < 0 ? 0 : e->rank[a];
}

/* Merges two leftist heaps (recursion as deep as their right spines,
 * O(log) each); ties go to the lower hop, so runs are repeatable. */
static int merge(edmonds_t *e, int a, int b)
{
    if (a < 0)
        return b;
    if (b < 0)
        return a;
    push_lazy(e, a);
    push_lazy(e, b);
    if (e->key[b] < e->key[a] || (e->key[b] == e->key[a] && b < a)) {
        int t = a;
        a = b;
        b = t;
    }
    e->right[a] = merge(e, e->right[a], b);
    if (rank_of(e, e->left[a]) < rank_of(e, e->right[a])) {
        int t = e->left[a];
        e->left[a] = e->right[a];
        e->right[a] = t;
    }
    e->rank[a] = rank_of(e, e->right[a]) + 1;
    return a;
}

static int find(const edmonds_t *e, int v)
{
    while (e->uf[v] != v)
        v = e->uf[v];
    return v;
}

/* Joins the sets of a and b; false when they are one already. */
static bool join(edmonds_t *e, int a, int b)
{
    a = find(e, a);
    b = find(e, b);
    if (a == b)
        return false;
    if (e->ufsize[a] < e->ufsize[b]) {
        int t = a;
        a = b;
        b = t;
    }
    e->uf[b] = a;
    e->ufsize[a] += e->ufsize[b];
    e->hist[e->nhist++] = b;
    return true;
}

static void rollback(edmonds_t *e, int time)
{
    while (e->nhist > time) {
        int b = e->hist[--e->nhist], a = e->uf[b];
        e->ufsize[a] -= e->ufsize[b];
        e->uf[b] = b;
    }
}

/* The minimum spanning arborescence of the rank nodes rooted at root, the
 * hops priced w: tree[v] = the hop entering v (-1 for the root and the
 * nodes outside `rank`), and the laminar sets it contracted (exact_duals()
 * prices them).  Returns its price, or -1 when some rank is unreachable. */
static double edmonds(ag_t *g, const double *w, int *tree)
{
    edmonds_t *e = &g->ed;
    const steady_hop_graph_t *hg = g->s->hops;
    int nv = g->nv;
    for (int v = 0; v < nv; v++) {
        e->heap[v] = -1;
        e->seen[v] = g->rank[v] ? -1 : v;
        e->uf[v] = v;
        e->ufsize[v] = 1;
        e->in[v] = -1;
        e->lam[v] = v;
        e->lam_parent[v] = -1;
    }
    e->seen[g->root] = g->root;
    e->nhist = e->ncyc = e->ncychop = 0;
    e->nlam = nv;
    e->cyc_start[0] = 0;
    for (int v = 0; v < nv; v++) {
        if (e->seen[v] >= 0)
            continue;
        int n;
        const int *hs = steady_hop_graph_in(hg, v, &n);
        for (int k = 0; k < n; k++) {
            int h = hs[k];
            if (!g->rank[steady_hop_graph_hop(hg, h)->src])
                continue;
            e->key[h] = w[h];
            e->lazy[h] = 0;
            e->left[h] = e->right[h] = -1;
            e->rank[h] = 1;
            e->heap[v] = merge(e, e->heap[v], h);
        }
    }
    double cost = 0;
    for (int s = 0; s < nv; s++) {
        int u = s, qi = 0;
        while (e->seen[u] < 0) {
            int top = e->heap[u];
            for (;; top = e->heap[u]) { /* the cheapest hop from outside u's set */
                if (top < 0)
                    return -1;
                push_lazy(e, top);
                e->heap[u] = merge(e, e->left[top], e->right[top]);
                if (find(e, steady_hop_graph_hop(hg, top)->src) != u)
                    break;
            }
            double wr = e->key[top];
            if (e->heap[u] >= 0)
                e->lazy[e->heap[u]] -= wr;
            e->q[qi] = top;
            e->path[qi++] = u;
            e->seen[u] = s;
            cost += wr;
            u = find(e, steady_hop_graph_hop(hg, top)->src);
            if (e->seen[u] == s) { /* a cycle: contract it */
                int cyc = -1, end = qi, time = e->nhist, L = e->nlam++, x;
                e->lam_parent[L] = -1;
                do {
                    x = e->path[--qi];
                    cyc = merge(e, cyc, e->heap[x]);
                    e->lam_parent[e->lam[x]] = L;
                } while (join(e, u, x));
                u = find(e, u);
                e->heap[u] = cyc;
                e->seen[u] = -1;
                e->lam[u] = L;
                e->cyc_u[e->ncyc] = u;
                e->cyc_time[e->ncyc] = time;
                for (int k = qi; k < end; k++)
                    e->cyc_hop[e->ncychop++] = e->q[k];
                e->cyc_start[++e->ncyc] = e->ncychop;
            }
        }
        for (int i = 0; i < qi; i++)
            e->in[find(e, steady_hop_graph_hop(hg, e->q[i])->dst)] = e->q[i];
    }
    for (int c = e->ncyc - 1; c >= 0; c--) { /* the cycles taken apart, last first */
        rollback(e, e->cyc_time[c]);
        int enter = e->in[e->cyc_u[c]];
        for (int k = e->cyc_start[c]; k < e->cyc_start[c + 1]; k++) {
            int h = e->cyc_hop[k];
            e->in[find(e, steady_hop_graph_hop(hg, h)->dst)] = h;
        }
        e->in[find(e, steady_hop_graph_hop(hg, enter)->dst)] = enter;
    }
    for (int v = 0; v < nv; v++)
        tree[v] = is_set(g, v) ? e->in[v] : -1;
    return cost;
}

/* ---- the master ------------------------------------------------------------ */

/* Takes tree[] (the hop entering each node) into the master as a new
 * column; *added false when it is one of its columns already. */
static steady_err_t add_tree(ag_t *g, const int *tree, bool *added)
{
    *added = false;
    int first = g->nthop;
    if (!array_grow((void **)&g->thop, &g->thop_cap, g->nthop + g->nv, sizeof *g->thop, 1024))
        return STEADY_ENOMEM;
    for (int v = 0; v < g->nv; v++)
        if (tree[v] >= 0)
            g->thop[g->nthop++] = tree[v];
    int known = lp_colset_add(&g->trees, g->thop, sizeof *g->thop, first, g->nthop);
    if (known < 0)
        return STEADY_ENOMEM;
    if (known) {
        g->nthop = first;
        return STEADY_OK;
    }
    for (int k = first; k < g->nthop; k++)
        lp_column_add_hop(&g->col, &g->ld, g->thop[k]);
    int col = lp_add_col(&g->m, "arb%d", g->trees.n);
    lp_column_put(&g->col, &g->m, col);
    lp_add_entry_si(&g->m, g->tp_row, col, -1);
    *added = true;
    return g->m.oom ? STEADY_ENOMEM : STEADY_OK;
}

static steady_err_t build(ag_t *g)
{
    lp_model_t *m = &g->m;
    int tp = lp_add_tagged_col(m, COL_TP, -1, -1, "TP");
    if (lp_loads_build(g->s, m, &g->ld))
        return STEADY_ENOMEM;
    g->tp_row = lp_add_row(m, ROW_FX, 0, "tp");
    lp_add_entry_si(m, g->tp_row, tp, 1);
    m->obj = tp;
    g->rank = malloc((size_t)g->nv * sizeof *g->rank);
    g->reached = malloc((size_t)g->nv * sizeof *g->reached);
    g->w = malloc((size_t)(g->nh ? g->nh : 1) * sizeof *g->w);
    g->yc = malloc((size_t)m->nrows * sizeof *g->yc);
    if (m->oom || !g->rank || !g->reached || !g->w || !g->yc || !ed_alloc(&g->ed, g->nv, g->nh) ||
        !lp_column_init(&g->col, m->nrows) || !lp_smooth_init(&g->sm, m->nrows, g->tp_row))
        return STEADY_ENOMEM;
    for (int v = 0; v < g->nv; v++)
        g->rank[v] = steady_platform_node(g->s->p, v)->kind != STEADY_SWITCH;
    return STEADY_OK;
}

/* ---- the rounds -------------------------------------------------------------- */

static double tree_price(const ag_t *g, const int *tree, const double *y)
{
    double c = 0;
    for (int v = 0; v < g->nv; v++)
        if (tree[v] >= 0)
            c += lp_loads_price(&g->ld, tree[v], y);
    return c;
}

/* A depth-first arborescence from the root, each node going on to its
 * cheapest out-hop (under w) to a node not reached yet, back up when it
 * has none: tree[v] gets the hop it was reached by.  Edmonds' arborescence
 * takes for each node its cheapest entering hop, and under prices that
 * make one sender the cheapest that is a star; a packing that fills every
 * port evenly needs trees of small degrees, which this gives (a chain
 * where every hop exists, the optimum of a flat cluster in one tree).
 * False when some rank is not reached. */
static bool depth_first(ag_t *g, const double *w, int *tree)
{
    const steady_hop_graph_t *hg = g->s->hops;
    int *stack = g->ed.path, top = 0, reached = 1, need = 0;
    for (int v = 0; v < g->nv; v++) {
        tree[v] = -1;
        need += is_set(g, v);
    }
    bool *in = g->reached;
    memset(in, 0, (size_t)g->nv * sizeof *in);
    in[g->root] = true;
    stack[top++] = g->root;
    while (top > 0) {
        int u = stack[top - 1], n, best = -1;
        const int *hs = steady_hop_graph_out(hg, u, &n);
        for (int k = 0; k < n; k++) {
            int v = steady_hop_graph_hop(hg, hs[k])->dst;
            if (!in[v] && is_set(g, v) && (best < 0 || w[hs[k]] < w[best]))
                best = hs[k];
        }
        if (best < 0) {
            top--;
            continue;
        }
        int v = steady_hop_graph_hop(hg, best)->dst;
        in[v] = true;
        tree[v] = best;
        stack[top++] = v;
        reached++;
    }
    return reached == need + 1;
}

/* The round's new arborescence, sought at the smoothed prices and then,
 * when that one is not cheaper under y, at y itself. */
static steady_err_t smoothed_tree(ag_t *g, const double *y, int *tree, bool *added)
{
    *added = false;
    for (double alpha = isfinite(g->sm.bound_in) ? LP_SMOOTHING : 0;; alpha = 0) {
        double sum = lp_smooth_prices(&g->sm, y, alpha);
        for (int h = 0; h < g->nh; h++)
            g->w[h] = lp_loads_price(&g->ld, h, g->sm.y_sep);
        lp_smooth_seen(&g->sm, sum, edmonds(g, g->w, tree));
        bool cheaper = tree_price(g, tree, y) < y[g->tp_row] - 1e-9, more;
        steady_err_t rc = cheaper ? add_tree(g, tree, added) : STEADY_OK;
        if (!rc && cheaper && depth_first(g, g->w, tree) &&
            tree_price(g, tree, y) < y[g->tp_row] - 1e-9)
            rc = add_tree(g, tree, &more);
        if (rc || *added)
            return rc;
        if (alpha == 0)
            return STEADY_OK;
    }
}

/* ---- the exact certificate ------------------------------------------------------ */

static bool alloc_exact(ag_t *g)
{
    size_t v = (size_t)g->nv, l = 2 * v + 1;
    g->qw = malloc((size_t)(g->nh ? g->nh : 1) * sizeof *g->qw);
    g->qd = malloc(v * sizeof *g->qd);
    g->dd = malloc(v * sizeof *g->dd);
    g->qz = malloc(l * sizeof *g->qz);
    g->order = malloc(v * sizeof *g->order);
    g->pos = malloc(v * sizeof *g->pos);
    g->lo = malloc(l * sizeof *g->lo);
    g->hi = malloc(l * sizeof *g->hi);
    g->kids = malloc(l * sizeof *g->kids);
    g->kstart = malloc((l + 1) * sizeof *g->kstart);
    if (!g->qw || !g->qd || !g->dd || !g->qz || !g->order || !g->pos || !g->lo || !g->hi ||
        !g->kids || !g->kstart)
        return false;
    for (int h = 0; h < g->nh; h++)
        mpq_init(g->qw[h]);
    for (size_t k = 0; k < v; k++)
        mpq_init(g->qd[k]);
    for (size_t k = 0; k < l; k++)
        mpq_init(g->qz[k]);
    g->qinit = true;
    return true;
}

/* Numbers the laminar forest's leaves depth first, so that the nodes of
 * each cycle X are order[lo[X] .. hi[X]) and a node v is order[pos[v]]. */
static void number_sets(ag_t *g)
{
    const edmonds_t *e = &g->ed;
    int nl = e->nlam, nv = g->nv, *kst = g->kstart, n = 0;
    memset(kst, 0, ((size_t)nl + 1) * sizeof *kst);
    for (int X = 0; X < nl; X++)
        if (e->lam_parent[X] >= 0)
            kst[e->lam_parent[X] + 1]++;
    for (int X = 0; X < nl; X++)
        kst[X + 1] += kst[X];
    for (int X = 0; X < nl; X++)
        g->lo[X] = kst[X]; /* the fill's cursors */
    for (int X = 0; X < nl; X++)
        if (e->lam_parent[X] >= 0)
            g->kids[g->lo[e->lam_parent[X]]++] = X;
    for (int v = 0; v < nv; v++)
        g->pos[v] = -1;
    for (int X = 0; X < nl; X++) {
        if (e->lam_parent[X] >= 0 || !is_set(g, X))
            continue;
        /* depth first from the top set X; hi[] is a cycle's cursor over
         * its children until it is done */
        for (int cur = X, c = X;;) {
            if (c >= 0) { /* entering c */
                if (c < nv) {
                    g->pos[c] = n;
                    g->order[n++] = c;
                } else {
                    g->lo[c] = n;
                    g->hi[c] = kst[c];
                }
                cur = c;
            }
            if (cur >= nv && g->hi[cur] < kst[cur + 1]) {
                c = g->kids[g->hi[cur]++];
                continue;
            }
            if (cur >= nv)
                g->hi[cur] = n;
            if (cur == X)
                break;
            cur = e->lam_parent[cur];
            c = -1;
        }
    }
}

/* The exact z of every laminar set, bottom up (leaves, then the cycles in
 * the order they were formed), each the exact minimum, over the hops h =
 * (u, v) entering X, of qw(h) minus the z of the sets below X holding v;
 * their sum into zsum.  False when the watch expires. */
static bool exact_duals(ag_t *g, mpq_t zsum)
{
    const edmonds_t *e = &g->ed;
    const steady_hop_graph_t *hg = g->s->hops;
    mpq_t t;
    mpq_init(t);
    mpq_set_ui(zsum, 0, 1);
    for (int v = 0; v < g->nv; v++)
        mpq_set_ui(g->qd[v], 0, 1);
    double *dd = g->dd; /* the doubles of qd */
    for (int v = 0; v < g->nv; v++)
        dd[v] = 0;
    bool in_time = true;
    for (int X = 0; X < e->nlam && in_time; X++) {
        if (!is_set(g, X))
            continue;
        int lo = X < g->nv ? g->pos[X] : g->lo[X], hi = X < g->nv ? g->pos[X] + 1 : g->hi[X];
        double dmin = INFINITY, scale = 0;
        for (int pass = 0; pass < 2; pass++) {
            bool found = false;
            for (int i = lo; i < hi; i++) {
                int v = g->order[i], n;
                const int *hs = steady_hop_graph_in(hg, v, &n);
                for (int k = 0; k < n; k++) {
                    int u = steady_hop_graph_hop(hg, hs[k])->src;
                    if (!g->rank[u] || (g->pos[u] >= lo && g->pos[u] < hi))
                        continue;
                    double r = mpq_get_d(g->qw[hs[k]]) - dd[v];
                    if (pass == 0) {
                        dmin = fmin(dmin, r);
                        scale = fmax(scale, fabs(mpq_get_d(g->qw[hs[k]])) + fabs(dd[v]));
                        continue;
                    }
                    if (r > dmin + 1e-9 * scale)
                        continue;
                    mpq_sub(t, g->qw[hs[k]], g->qd[v]);
                    if (!found || mpq_cmp(t, g->qz[X]) < 0)
                        mpq_set(g->qz[X], t);
                    found = true;
                }
            }
            if (pass == 1 && !found)
                mpq_set_ui(g->qz[X], 0, 1);
        }
        mpq_add(zsum, zsum, g->qz[X]);
        for (int i = lo; i < hi; i++) {
            int v = g->order[i];
            mpq_add(g->qd[v], g->qd[v], g->qz[X]);
            dd[v] = mpq_get_d(g->qd[v]);
        }
        if (X % 256 == 0)
            in_time =
                lp_watch_tick(g->m.watch, "broadcast arborescences, exact pricing", X, e->nlam);
    }
    mpq_clear(t);
    return in_time;
}

/* The exact round's step: the certificate, or the tree it finds cheaper. */
static steady_err_t exact_step(ag_t *g, mpq_t *y, int *tree, bool *added, const char **unverified)
{
    *added = false;
    if (!g->qinit && !alloc_exact(g))
        return STEADY_ENOMEM;
    mpq_t t, zsum;
    mpq_inits(t, zsum, NULL);
    for (int h = 0; h < g->nh; h++) {
        lp_loads_price_q(&g->ld, h, y, g->qw[h], t);
        g->w[h] = mpq_get_d(g->qw[h]);
    }
    steady_err_t rc = STEADY_OK;
    if (edmonds(g, g->w, tree) < 0) {
        rc = STEADY_EINTERNAL;
        goto done;
    }
    number_sets(g);
    if (!exact_duals(g, zsum)) {
        *unverified = "the exact recovery ran out of time";
        goto done;
    }
    if (mpq_cmp(zsum, y[g->tp_row]) >= 0)
        goto done; /* no arborescence costs less than TP's price */
    mpq_set_ui(zsum, 0, 1);
    for (int v = 0; v < g->nv; v++)
        if (tree[v] >= 0)
            mpq_add(zsum, zsum, g->qw[tree[v]]);
    if (mpq_cmp(zsum, y[g->tp_row]) >= 0) {
        *unverified = "the arborescence pricing met ties it could not decide exactly";
        goto done;
    }
    if ((rc = add_tree(g, tree, added)) == STEADY_OK && !*added)
        rc = STEADY_EINTERNAL; /* the master's exact optimum prices its own columns */
done:
    mpq_clears(t, zsum, NULL);
    return rc;
}

typedef struct {
    ag_t *g;
    int *tree;
} ag_rounds_t;

static steady_err_t arb_step(void *ctx, const lp_round_t *r, bool *added, const char **unverified,
                             steady_error_t *err)
{
    ag_rounds_t *ar = ctx;
    steady_err_t rc;
    if (r->exact) {
        rc = exact_step(ar->g, r->exact_dual, ar->tree, added, unverified);
    } else {
        const double *y = r->dual;
        bool found;
        if ((rc = lp_glpk_interior_duals(&ar->g->m, ar->g->m.watch, ar->g->yc, &found, err)))
            return rc;
        if (found)
            y = ar->g->yc;
        rc = smoothed_tree(ar->g, y, ar->tree, added);
    }
    if (rc == STEADY_EINTERNAL)
        return steady_error_set(err, rc,
                                "the exact pricing found an arborescence of the master "
                                "cheaper than TP, or a rank unreachable");
    return rc ? steady_error_set(err, rc, "out of memory") : STEADY_OK;
}

static steady_err_t arb_store(void *ctx, mpq_t *values, steady_error_t *err)
{
    ag_t *g = ((ag_rounds_t *)ctx)->g;
    steady_solution_t *s = g->s;
    lp_rate_builder_t send;
    lp_rb_init(&send);
    mpq_set(s->tp, values[g->m.obj]);
    for (int i = 0; i < g->trees.n; i++)
        if (mpq_sgn(values[1 + i]) != 0)
            for (int k = g->trees.start[i]; k < g->trees.start[i + 1]; k++)
                lp_rb_add(&send, g->thop[k], 0, values[1 + i]);
    lp_rates_free(&s->send);
    return lp_rb_finish(&send, s->nhops, &s->send)
               ? STEADY_OK
               : steady_error_set(err, STEADY_ENOMEM, "out of memory");
}

bool lp_arbgen_applies(const steady_solution_t *s)
{
    return s->op == STEADY_OP_BROADCAST && !s->bound;
}

steady_err_t lp_solve_arbgen(steady_solution_t *s, const steady_solve_options_t *opts,
                             lp_watch_t *watch, steady_error_t *err)
{
    ag_t g = {
        .s = s, .nv = steady_platform_node_count(s->p), .nh = s->nhops, .root = s->sources[0]};
    steady_solve_options_t o = lp_master_init(&g.m, opts, watch);
    s->formulation = STEADY_FORMULATION_ARBORESCENCES;
    int *tree = malloc((size_t)g.nv * sizeof *tree);
    steady_err_t rc = tree ? build(&g) : STEADY_ENOMEM;
    if (rc) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory building the LP");
        goto done;
    }
    /* the first arborescence: the least loaded, every row priced 1 */
    double *y = g.sm.y_sep;
    for (int i = 0; i < g.m.nrows; i++)
        y[i] = 1;
    for (int h = 0; h < g.nh; h++)
        g.w[h] = lp_loads_price(&g.ld, h, y);
    bool added;
    if (edmonds(&g, g.w, tree) < 0) {
        rc = steady_error_set(err, STEADY_EINTERNAL, "a rank is unreachable from the source");
        goto done;
    }
    if ((rc = add_tree(&g, tree, &added)) ||
        (depth_first(&g, g.w, tree) && (rc = add_tree(&g, tree, &added)))) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto done;
    }
    ag_rounds_t ar = {&g, tree};
    lp_rounds_t how = {.what = "arborescence generation",
                       .stage = "broadcast arborescences, round",
                       .duals = true,
                       .step = arb_step,
                       .store = arb_store,
                       .ctx = &ar};
    rc = lp_rounds(s, &g.m, &o, watch, &how, err);
done:
    if (g.qinit) {
        for (int h = 0; h < g.nh; h++)
            mpq_clear(g.qw[h]);
        for (int v = 0; v < g.nv; v++)
            mpq_clear(g.qd[v]);
        for (int k = 0; k < 2 * g.nv + 1; k++)
            mpq_clear(g.qz[k]);
    }
    free(g.qw);
    free(g.qd);
    free(g.qz);
    free(g.dd);
    free(g.order);
    free(g.pos);
    free(g.lo);
    free(g.hi);
    free(g.kids);
    free(g.kstart);
    free(tree);
    free(g.rank);
    free(g.reached);
    free(g.w);
    free(g.yc);
    free(g.thop);
    lp_colset_free(&g.trees);
    ed_free(&g.ed);
    lp_column_free(&g.col);
    lp_smooth_free(&g.sm);
    lp_loads_free(&g.ld);
    lp_model_free(&g.m);
    return rc;
}
