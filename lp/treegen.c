/*
 * treegen.c — the reduce by column generation over reduction trees
 * (docs/linear-programs.md, "Reduce: reduction trees").
 *
 * A reduction tree brings one operation's result to the target: each
 * interval v[k,m] it needs is formed once, by a task T(k,l,m) on one
 * processor (or, for v[k,k], at its owner), and carried along a path of
 * hops to where it is used.  Every solution of SSR is a weighted sum of
 * such trees (decompose/trees.c takes them apart again) and every weighted
 * sum of trees within the capacities is a solution, so SSR has the optimum
 * of the packing LP (the master)
 *
 *     maximise TP,   TP - sum_T lambda_T = 0,
 *     every capacity row (ports, shared resources, processors):
 *                    sum_T lambda_T * load_T(row) <= 1,   lambda >= 0
 *
 * whose columns are generated.  Under the master's row prices y, a tree
 * costs the priced loads of its hops and tasks, and the cheapest one is
 * found by dynamic programming over (node, interval): for each interval,
 * by increasing length, its price where a task can form it (the cheapest
 * split of its two operands already there, plus the task), then shortest
 * paths (Dijkstra) over the hops.  It enters while it costs less than 1,
 * and around a switch so do the cheapest that form the whole interval
 * elsewhere and send it to the target on one hop (extra_trees).
 *
 * The DP's values pi(v, [k,m]) are SSR's conservation duals: with them,
 * every send satisfies pi(w) <= pi(u) + price(hop), every task pi(v,[k,m])
 * <= pi(v,[k,l]) + pi(v,[l+1,m]) + price(task), the owners' values are 0,
 * and pi(target, [0,N-1]) >= 1 is the TP column's condition.  So once the
 * master's optimum is recovered exactly (exact.c, with its exact duals y)
 * and the DP, redone exactly (in integers over the prices' common
 * denominator: integer_pricing, else exact_interval), shows that no tree
 * costs less than 1,
 * (y, pi) is a feasible dual solution of SSR whose value is the master's
 * optimum: the exact certificate.  A tree the exact DP finds cheaper
 * enters and the rounds go on.
 */
#define _POSIX_C_SOURCE 200809L /* sysconf */
#include "internal.h"

#include "../common/array.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* how[] of a (node, interval): the hop it arrived by (>= 0), or these */
#define HOW_NONE    (-1)       /* unreachable */
#define HOW_OWNER   (-2)       /* v[k,k] at its owner */
#define HOW_TASK(l) (-3 - (l)) /* formed here, split after l */

/* one step of a tree: a send of type b on hop a, or (a < 0) the task b on
 * node -1 - a */
typedef struct {
    int a, b;
} item_t;

/* Dijkstra's binary heap of nodes, by cost, and each node's place in it
 * (-1: not in, -2: settled): one per pricing thread. */
typedef struct {
    int *heap, *hpos;
} heap_t;

/* The pricing's threads at most, and the work (operands read) below which
 * an interval length is priced in one. */
#define PRICING_THREADS_MAX   64
#define PRICING_PARALLEL_WORK (1 << 19)

typedef struct {
    steady_solution_t *s;
    lp_model_t m; /* the master */
    int N, nv, nh, nint, target, full;
    lp_loads_t ld; /* each hop's loads on the master's capacity rows */
    int *cpu_row;  /* per node: its processor row, -1 */
    int tp_row;
    /* the trees: column 1 + i has items[trees.start[i] .. start[i + 1]) */
    item_t *items;
    int nitems, items_cap;
    lp_colset_t trees;
    /* the pricing, in doubles: prices, then (interval, node) tables */
    double *out_price, *task_price;
    double *cost;
    int *how;
    int *order, *norder; /* each interval's nodes as Dijkstra settled them */
    heap_t *heaps;       /* per pricing thread (nthreads) */
    int nthreads;
    /* the hops out of each node v, at [out_start[v], out_start[v + 1]):
     * each one's index, head and price (the pricing's inner loop reads
     * them in order) */
    int *out_start, *out_hop, *out_dst;
    double *min_out; /* each node's cheapest hop out (infinite: none) */
    bool *has_in;    /* whether a hop leads to the node */
    /* when every two of the nodes hops join are joined by one hop, each
     * way (ranks around a switch): the nodes (hnodes, nhn), each node's
     * index among them (hidx, -1: none) and each hop's place in out_* at
     * hidx[u] * nhn + hidx[w] (pos_of; else NULL).  If the prices then
     * split into a sender's part and a receiver's, price(u -> w) =
     * sep_a[u] + sep_b[w] within sep_tol of the largest (0: exactly, for
     * the integer pricing), one hop is a cheapest path (separable) */
    int *pos_of, *hnodes, *hidx, nhn;
    double *sep_a, *sep_b, sep_tol;
    /* the exact pricing: the prices as rationals, then as integers over
     * their common denominator L (zprice, ztask), and the values pi over
     * L too (a sum of integers: no gcd; on a homogeneous cluster nearly
     * every condition is a tie that the doubles cannot settle) */
    mpq_t *qprice, *qtask;
    mpz_t *zprice, *ztask, *pi, L;
    bool *qfinite, priced; /* priced: qprice .. L initialised */
    lp_column_t col; /* a new column's loads */
    /* the smoothing's row prices (y_sep: the exact pricing's doubles too) */
    lp_smooth_t sm;
    int *stack; /* extract()'s: 4 (N + 1) */
} tg_t;

static size_t at(const tg_t *g, int interval, int v)
{
    return (size_t)interval * g->nv + v;
}

/* ---- building ------------------------------------------------------------ */

/* The master's rows: the capacity rows (with each hop's loads on them),
 * the processors' rows, and TP's. */
static steady_err_t build(tg_t *g)
{
    steady_solution_t *s = g->s;
    lp_model_t *m = &g->m;
    int tp = lp_add_tagged_col(m, COL_TP, -1, -1, "TP");
    if (lp_loads_build(s, m, &g->ld))
        return STEADY_ENOMEM;
    g->cpu_row = malloc((size_t)g->nv * sizeof *g->cpu_row);
    if (!g->cpu_row)
        return STEADY_ENOMEM;
    for (int v = 0; v < g->nv; v++) {
        g->cpu_row[v] = -1;
        if (steady_platform_node(s->p, v)->kind == STEADY_PROCESSOR)
            g->cpu_row[v] = lp_add_row(m, ROW_UP, 1, "cpu_%s", lp_node_name(s, v));
    }
    g->tp_row = lp_add_row(m, ROW_FX, 0, "tp");
    lp_add_entry_si(m, g->tp_row, tp, 1);
    m->obj = tp;
    return m->oom ? STEADY_ENOMEM : STEADY_OK;
}

/* pos_of, hnodes and sep_* when every two of the nodes hops leave are
 * joined by one hop each way and no hop enters another node (a platform
 * of ranks around switches); nothing otherwise. */
static steady_err_t complete_hops(tg_t *g)
{
    int nv = g->nv, m = 0;
    if (!(g->hidx = malloc((size_t)nv * sizeof *g->hidx)))
        return STEADY_ENOMEM;
    for (int v = 0; v < nv; v++) {
        bool out = g->out_start[v + 1] > g->out_start[v];
        if (out != g->has_in[v])
            return STEADY_OK;
        g->hidx[v] = out ? m++ : -1;
    }
    if (m < 3 || (size_t)g->out_start[nv] != (size_t)m * (m - 1))
        return STEADY_OK;
    g->pos_of = malloc((size_t)m * m * sizeof *g->pos_of);
    g->hnodes = malloc((size_t)m * sizeof *g->hnodes);
    g->sep_a = malloc((size_t)nv * sizeof *g->sep_a);
    g->sep_b = malloc((size_t)nv * sizeof *g->sep_b);
    if (!g->pos_of || !g->hnodes || !g->sep_a || !g->sep_b)
        return STEADY_ENOMEM;
    for (size_t k = 0; k < (size_t)m * m; k++)
        g->pos_of[k] = -1;
    for (int v = 0; v < nv; v++) {
        if (g->hidx[v] >= 0)
            g->hnodes[g->nhn++] = v;
        for (int j = g->out_start[v]; j < g->out_start[v + 1]; j++) {
            size_t k = (size_t)g->hidx[v] * m + g->hidx[g->out_dst[j]];
            /* a hop to itself or two hops u -> w: m (m - 1) hops miss a pair */
            if (g->out_dst[j] == v || g->pos_of[k] >= 0) {
                free(g->pos_of);
                g->pos_of = NULL;
                return STEADY_OK;
            }
            g->pos_of[k] = j;
        }
    }
    return STEADY_OK;
}

static steady_err_t alloc_pricing(tg_t *g)
{
    size_t cells = (size_t)g->nint * g->nv;
    size_t nh = (size_t)(g->nh ? g->nh : 1);
    g->out_price = malloc(nh * sizeof *g->out_price);
    g->out_start = malloc((size_t)(g->nv + 1) * sizeof *g->out_start);
    g->out_hop = malloc(nh * sizeof *g->out_hop);
    g->out_dst = malloc(nh * sizeof *g->out_dst);
    g->min_out = malloc((size_t)g->nv * sizeof *g->min_out);
    g->has_in = calloc((size_t)g->nv, sizeof *g->has_in);
    g->task_price = malloc((size_t)g->nv * sizeof *g->task_price);
    g->cost = malloc(cells * sizeof *g->cost);
    g->how = malloc(cells * sizeof *g->how);
    g->order = malloc(cells * sizeof *g->order);
    g->norder = malloc((size_t)g->nint * sizeof *g->norder);
    g->heaps = calloc((size_t)g->nthreads, sizeof *g->heaps);
    for (int t = 0; g->heaps && t < g->nthreads; t++) {
        g->heaps[t].heap = malloc((size_t)g->nv * sizeof *g->heaps[t].heap);
        g->heaps[t].hpos = malloc((size_t)g->nv * sizeof *g->heaps[t].hpos);
        if (!g->heaps[t].heap || !g->heaps[t].hpos)
            return STEADY_ENOMEM; /* tg_free frees them */
    }
    g->stack = malloc((size_t)4 * (g->N + 1) * sizeof *g->stack);
    bool col = lp_column_init(&g->col, g->m.nrows),
         sm = lp_smooth_init(&g->sm, g->m.nrows, g->tp_row);
    if (!g->out_price || !g->out_start || !g->out_hop || !g->out_dst || !g->min_out || !g->has_in ||
        !g->task_price || !g->cost || !g->how || !g->order || !g->norder || !g->heaps || !col ||
        !sm || !g->stack)
        return STEADY_ENOMEM;
    int j = 0;
    for (int v = 0; v < g->nv; v++) {
        int no;
        const int *out = steady_hop_graph_out(g->s->hops, v, &no);
        g->out_start[v] = j;
        for (int i = 0; i < no; i++, j++) {
            g->out_hop[j] = out[i];
            g->out_dst[j] = steady_hop_graph_hop(g->s->hops, out[i])->dst;
            g->has_in[g->out_dst[j]] = true;
        }
    }
    g->out_start[g->nv] = j;
    return complete_hops(g);
}

static void tg_free(tg_t *g)
{
    lp_loads_free(&g->ld);
    lp_column_free(&g->col);
    lp_smooth_free(&g->sm);
    if (g->pi)
        for (size_t k = 0; k < (size_t)g->nint * g->nv; k++)
            mpz_clear(g->pi[k]);
    if (g->priced) {
        for (int h = 0; h < g->nh; h++) {
            mpq_clear(g->qprice[h]);
            mpz_clear(g->zprice[h]);
        }
        for (int v = 0; v < g->nv; v++) {
            mpq_clear(g->qtask[v]);
            mpz_clear(g->ztask[v]);
        }
        mpz_clear(g->L);
    }
    free(g->pi);
    free(g->qprice);
    free(g->qtask);
    free(g->zprice);
    free(g->ztask);
    free(g->qfinite);
    free(g->cpu_row);
    free(g->items);
    lp_colset_free(&g->trees);
    free(g->out_price);
    free(g->task_price);
    free(g->cost);
    free(g->how);
    free(g->order);
    free(g->norder);
    for (int t = 0; g->heaps && t < g->nthreads; t++) {
        free(g->heaps[t].heap);
        free(g->heaps[t].hpos);
    }
    free(g->heaps);
    free(g->out_start);
    free(g->out_hop);
    free(g->out_dst);
    free(g->min_out);
    free(g->has_in);
    free(g->pos_of);
    free(g->hnodes);
    free(g->hidx);
    free(g->sep_a);
    free(g->sep_b);
    free(g->stack);
    lp_model_free(&g->m);
}

/* ---- the cheapest tree, in doubles ---------------------------------------- */

static void heap_up(heap_t *h, const double *c, int i)
{
    int v = h->heap[i];
    while (i > 0) {
        int p = (i - 1) / 2;
        if (c[h->heap[p]] <= c[v])
            break;
        h->heap[i] = h->heap[p];
        h->hpos[h->heap[i]] = i;
        i = p;
    }
    h->heap[i] = v;
    h->hpos[v] = i;
}

static void heap_down(heap_t *h, const double *c, int n, int i)
{
    int v = h->heap[i];
    for (;;) {
        int l = 2 * i + 1;
        if (l >= n)
            break;
        if (l + 1 < n && c[h->heap[l + 1]] < c[h->heap[l]])
            l++;
        if (c[v] <= c[h->heap[l]])
            break;
        h->heap[i] = h->heap[l];
        h->hpos[h->heap[i]] = i;
        i = l;
    }
    h->heap[i] = v;
    h->hpos[v] = i;
}

/* A hop's price beyond its priced loads while the trees are sought: ports
 * that nothing saturates are priced 0, and among the many paths of price 0
 * Dijkstra would take any, long ones too (random-1000, 16 participants:
 * 774 049 transfers per period); this takes the fewest hops among paths
 * of equal price.  Far below the 1e-9 by which a tree must be cheaper than
 * TP's price, and never in the exact pricing. */
#define HOP_TIE 1e-13

/* The prices of the hops and tasks under the row prices y (doubles), each
 * hop's plus `tie`. */
static void set_prices(tg_t *g, const double *y, double tie)
{
    g->sep_tol = 1e-12;
    for (int j = 0; j < g->out_start[g->nv]; j++)
        g->out_price[j] = tie + lp_loads_price(&g->ld, g->out_hop[j], y);
    for (int v = 0; v < g->nv; v++)
        g->task_price[v] =
            g->cpu_row[v] < 0 ? INFINITY : mpq_get_d(g->s->work[v]) * fmax(y[g->cpu_row[v]], 0.0);
}

/* Whether the hops' prices split into sep_a[sender] + sep_b[receiver]
 * (within sep_tol of the largest), with sep_a[v] + sep_b[v] >= 0: then a
 * path u -> x -> w costs price(u -> w) + sep_a[x] + sep_b[x], no less than
 * the hop u -> w, and one hop is a cheapest path (a crossbar: a hop's
 * price is its sender's send port and links plus its receiver's). */
static bool separable(tg_t *g)
{
    if (!g->pos_of)
        return false;
    int nv = g->nv, m = g->nhn, r0 = g->hnodes[0];
    const int *hn = g->hnodes;
    double *a = g->sep_a, *b = g->sep_b, big = 0;
#define PRICE(u, w) g->out_price[g->pos_of[(size_t)g->hidx[u] * m + g->hidx[w]]]
    a[r0] = 0;
    for (int i = 1; i < m; i++)
        b[hn[i]] = PRICE(r0, hn[i]);
    for (int i = 1; i < m; i++) {
        int w = i == 1 ? hn[2] : hn[1];
        a[hn[i]] = PRICE(hn[i], w) - b[w];
    }
    b[r0] = PRICE(hn[1], r0) - a[hn[1]];
    for (int j = 0; j < g->out_start[nv]; j++)
        big = fmax(big, g->out_price[j]);
    double tol = g->sep_tol * big;
    for (int i = 0; i < m; i++) {
        int u = hn[i];
        if (a[u] + b[u] < -tol)
            return false;
        for (int j = g->out_start[u]; j < g->out_start[u + 1]; j++)
            if (fabs(g->out_price[j] - a[u] - b[g->out_dst[j]]) > tol)
                return false;
    }
#undef PRICE
    return true;
}

/* Interval I's cheapest paths when one hop is a cheapest path
 * (separable): the node u1 of the least c[u] + sep_a[u] sends to every
 * other, where that is cheaper (nothing is cheaper for u1 itself: from u,
 * c[u] + sep_a[u] + sep_b[u1] >= c[u1] + sep_a[u1] + sep_b[u1] >= c[u1]).
 * The settling order: the nodes that keep a value of their own, then
 * those reached by the hops. */
static void one_hop_paths(tg_t *g, int I)
{
    int nv = g->nv, u1 = -1, settled = 0;
    double *c = &g->cost[at(g, I, 0)], best = INFINITY;
    int *how = &g->how[at(g, I, 0)], *order = &g->order[at(g, I, 0)];
    for (int i = 0; i < g->nhn; i++) {
        int u = g->hnodes[i];
        if (c[u] + g->sep_a[u] < best) {
            best = c[u] + g->sep_a[u];
            u1 = u;
        }
    }
    for (int i = 0; i < g->nhn && u1 >= 0; i++) {
        int w = g->hnodes[i], j = g->pos_of[(size_t)g->hidx[u1] * g->nhn + i];
        double t = w == u1 ? INFINITY : c[u1] + g->out_price[j];
        if (t < c[w]) {
            c[w] = t;
            how[w] = g->out_hop[j];
        }
    }
    for (int pass = 0; pass < 2; pass++)
        for (int v = 0; v < nv; v++)
            if (isfinite(c[v]) && (how[v] >= 0) == pass)
                order[settled++] = v;
    g->norder[I] = settled;
}

/* The cheapest way to have interval [k, mm] on each node (cost, how, and
 * the settling order), the shorter ones known: on one_hop platforms one
 * hop from one node (separable), else Dijkstra with the heap h. */
static void price_interval(tg_t *g, heap_t *h, bool one_hop, int k, int mm)
{
    int N = g->N, nv = g->nv, I = lp_interval(N, k, mm), n = 0;
    double *c = &g->cost[at(g, I, 0)];
    int *how = &g->how[at(g, I, 0)];
    for (int v = 0; v < nv; v++) {
        c[v] = INFINITY;
        how[v] = HOW_NONE;
        h->hpos[v] = -1;
    }
    if (k == mm) {
        c[g->s->sources[k]] = 0;
        how[g->s->sources[k]] = HOW_OWNER;
    } else {
        /* the cheapest split on every node, the first l of the least sum
         * (split by split: each operand's row is read in order) */
        for (int l = k; l < mm; l++) {
            const double *a = &g->cost[at(g, lp_interval(N, k, l), 0)],
                         *b = &g->cost[at(g, lp_interval(N, l + 1, mm), 0)];
            for (int v = 0; v < nv; v++) {
                double t = a[v] + b[v];
                if (t < c[v]) {
                    c[v] = t;
                    how[v] = HOW_TASK(l);
                }
            }
        }
        for (int v = 0; v < nv; v++)
            if (g->cpu_row[v] < 0) {
                c[v] = INFINITY;
                how[v] = HOW_NONE;
            } else {
                c[v] += g->task_price[v];
            }
    }
    if (one_hop) {
        one_hop_paths(g, I);
        return;
    }
    for (int v = 0; v < nv; v++)
        if (isfinite(c[v])) {
            h->heap[n] = v;
            heap_up(h, c, n++);
        }
    /* no hop lowers a value from u when even u's cheapest hop reaches the
     * largest value a hop could lower */
    double cap = 0;
    for (int v = 0; v < nv; v++)
        if (g->has_in[v])
            cap = fmax(cap, c[v]);
    int *order = &g->order[at(g, I, 0)], settled = 0;
    while (n > 0) {
        int u = h->heap[0];
        h->hpos[u] = -2; /* settled */
        order[settled++] = u;
        if (--n > 0) {
            h->heap[0] = h->heap[n];
            h->hpos[h->heap[0]] = 0;
            heap_down(h, c, n, 0);
        }
        if (c[u] + g->min_out[u] >= cap)
            continue;
        for (int j = g->out_start[u]; j < g->out_start[u + 1]; j++) {
            int w = g->out_dst[j];
            double t = c[u] + g->out_price[j];
            if (t >= c[w] || h->hpos[w] == -2)
                continue;
            c[w] = t;
            how[w] = g->out_hop[j];
            if (h->hpos[w] < 0) {
                h->heap[n] = w;
                heap_up(h, c, n++);
            } else {
                heap_up(h, c, h->hpos[w]);
            }
        }
    }
    g->norder[I] = settled;
}

/* One pricing thread's share of an interval length: [k, k + len] for k =
 * first, first + step, ... */
typedef struct {
    tg_t *g;
    heap_t *h;
    bool one_hop;
    int len, first, step;
} share_t;

static void *price_share(void *arg)
{
    const share_t *sh = arg;
    for (int k = sh->first; k + sh->len < sh->g->N; k += sh->step)
        price_interval(sh->g, sh->h, sh->one_hop, k, k + sh->len);
    return NULL;
}

/* The cheapest way to have each interval on each node, interval by
 * interval in order of length: the intervals of a length depend only on
 * shorter ones, and where they are many and long, nthreads threads price
 * them side by side (each writes its intervals' rows alone: the same
 * values for every count of threads). */
static void cheapest(tg_t *g)
{
    int N = g->N, nv = g->nv;
    for (int v = 0; v < nv; v++) {
        g->min_out[v] = INFINITY;
        for (int j = g->out_start[v]; j < g->out_start[v + 1]; j++)
            g->min_out[v] = fmin(g->min_out[v], g->out_price[j]);
    }
    bool one_hop = separable(g);
    for (int len = 0; len < N; len++) {
        int count = N - len, T = g->nthreads < count ? g->nthreads : count;
        if ((double)count * (len + 1) * nv < PRICING_PARALLEL_WORK)
            T = 1;
        share_t sh[PRICING_THREADS_MAX];
        pthread_t tid[PRICING_THREADS_MAX];
        bool started[PRICING_THREADS_MAX];
        for (int t = 0; t < T; t++) {
            sh[t] = (share_t){g, &g->heaps[t], one_hop, len, t, T};
            /* a thread that cannot start: its share is priced below */
            started[t] = t > 0 && pthread_create(&tid[t], NULL, price_share, &sh[t]) == 0;
        }
        for (int t = 0; t < T; t++)
            if (!started[t])
                price_share(&sh[t]);
        for (int t = 1; t < T; t++)
            if (started[t])
                pthread_join(tid[t], NULL);
    }
}

/* ---- the trees -------------------------------------------------------------- */

static bool push_item(tg_t *g, int a, int b)
{
    if (!array_grow((void **)&g->items, &g->items_cap, g->nitems + 1, sizeof *g->items, 1024))
        return false;
    g->items[g->nitems++] = (item_t){a, b};
    return true;
}

/* Appends the items of the tree that how[] gives for the whole interval
 * on node v0 (a depth-first walk over (node, interval) pairs on g->stack,
 * which holds 4 (N + 1) ints: the same how[] gives the same items). */
static bool extract(tg_t *g, int v0)
{
    int N = g->N, *stack = g->stack, top = 0;
    stack[top++] = v0;
    stack[top++] = g->full;
    while (top > 0) {
        int I = stack[--top], v = stack[--top];
        int how = g->how[at(g, I, v)];
        while (how >= 0) { /* back along the hops to where it was formed */
            if (!push_item(g, how, I))
                return false;
            v = steady_hop_graph_hop(g->s->hops, how)->src;
            how = g->how[at(g, I, v)];
        }
        if (how == HOW_OWNER)
            continue;
        int k = g->s->type_a[I], mm = g->s->type_b[I], l = -3 - how;
        if (!push_item(g, -1 - v, lp_task(N, k, l, mm)))
            return false;
        stack[top++] = v;
        stack[top++] = lp_interval(N, k, l);
        stack[top++] = v;
        stack[top++] = lp_interval(N, l + 1, mm);
    }
    return true;
}

/* Takes the tree extracted last (items from `first` on) into the master
 * as a new column; *added false when it is one of its columns already. */
static steady_err_t add_tree(tg_t *g, int first, bool *added)
{
    *added = false;
    int known = lp_colset_add(&g->trees, g->items, sizeof *g->items, first, g->nitems);
    if (known < 0)
        return STEADY_ENOMEM;
    if (known) {
        g->nitems = first;
        return STEADY_OK;
    }
    for (int q = first; q < g->nitems; q++) { /* its loads, row by row */
        const item_t *it = &g->items[q];
        if (it->a >= 0)
            lp_column_add_hop(&g->col, &g->ld, it->a);
        else
            lp_column_add(&g->col, g->cpu_row[-1 - it->a], g->s->work[-1 - it->a]);
    }
    int col = lp_add_col(&g->m, "tree%d", g->trees.n);
    lp_column_put(&g->col, &g->m, col);
    lp_add_entry_si(&g->m, g->tp_row, col, -1);
    *added = true;
    return g->m.oom ? STEADY_ENOMEM : STEADY_OK;
}

/* ---- the exact pricing ------------------------------------------------------ */

/* Whether a sum is less than a value, from their doubles (within a
 * relative 1e-11 of the rationals they stand for): -1 surely, 1 surely
 * not, 0 too near to tell without the rationals. */
static int less_d(double sum, double value)
{
    double tol = 1e-9 * (fabs(sum) + fabs(value));
    return sum < value - tol ? -1 : sum > value + tol ? 1 : 0;
}

static steady_err_t alloc_prices(tg_t *g)
{
    size_t nh = (size_t)(g->nh ? g->nh : 1);
    g->qprice = malloc(nh * sizeof *g->qprice);
    g->zprice = malloc(nh * sizeof *g->zprice);
    g->qtask = malloc((size_t)g->nv * sizeof *g->qtask);
    g->ztask = malloc((size_t)g->nv * sizeof *g->ztask);
    if (!g->qprice || !g->zprice || !g->qtask || !g->ztask)
        return STEADY_ENOMEM; /* tg_free frees them */
    for (int h = 0; h < g->nh; h++) {
        mpq_init(g->qprice[h]);
        mpz_init(g->zprice[h]);
    }
    for (int v = 0; v < g->nv; v++) {
        mpq_init(g->qtask[v]);
        mpz_init(g->ztask[v]);
    }
    mpz_init(g->L);
    g->priced = true;
    return STEADY_OK;
}

static steady_err_t alloc_values(tg_t *g)
{
    size_t cells = (size_t)g->nint * g->nv;
    g->qfinite = malloc(cells * sizeof *g->qfinite);
    if (!g->qfinite || !(g->pi = malloc(cells * sizeof *g->pi)))
        return STEADY_ENOMEM;
    for (size_t k = 0; k < cells; k++)
        mpz_init(g->pi[k]);
    return STEADY_OK;
}

/* z / L as a double (the two may pass a double's range apart) */
static double over_L(const tg_t *g, const mpz_t z)
{
    long ez, eL;
    double dz = mpz_get_d_2exp(&ez, z), dL = mpz_get_d_2exp(&eL, g->L);
    return ldexp(dz / dL, (int)(ez - eL));
}

/* Interval I's exact values from how[] (the double DP's choices, in their
 * settling order), then every send and task condition checked exactly; a
 * condition violated lowers the value and changes how[], until none is
 * (label correcting: only the doubles' near ties can be violated).  The
 * first pass skips the conditions how[] itself chose, equalities by
 * construction until a value changes. */
static void exact_interval(tg_t *g, int I, mpz_t t)
{
    int N = g->N, nv = g->nv, k = g->s->type_a[I], mm = g->s->type_b[I];
    mpz_t *pi = &g->pi[at(g, I, 0)];
    bool *fin = &g->qfinite[at(g, I, 0)];
    int *how = &g->how[at(g, I, 0)];
    double *c = &g->cost[at(g, I, 0)]; /* kept near pi for the filters */
    for (int v = 0; v < nv; v++)
        fin[v] = false;
    for (int i = 0; i < g->norder[I]; i++) {
        int v = g->order[at(g, I, i)], h = how[v];
        fin[v] = true;
        if (h == HOW_OWNER) {
            mpz_set_ui(pi[v], 0);
        } else if (h >= 0) {
            mpz_add(pi[v], pi[steady_hop_graph_hop(g->s->hops, h)->src], g->zprice[h]);
        } else {
            int l = -3 - h;
            mpz_add(pi[v], g->pi[at(g, lp_interval(N, k, l), v)],
                    g->pi[at(g, lp_interval(N, l + 1, mm), v)]);
            mpz_add(pi[v], pi[v], g->ztask[v]);
        }
    }
    bool strict = false;
    for (bool changed = true; changed; strict = true) {
        changed = false;
        for (int v = 0; v < nv; v++) {
            for (int l = k; l < mm && g->cpu_row[v] >= 0; l++) {
                size_t a = at(g, lp_interval(N, k, l), v), b = at(g, lp_interval(N, l + 1, mm), v);
                if (!g->qfinite[a] || !g->qfinite[b] || (!strict && how[v] == HOW_TASK(l)))
                    continue;
                int d = fin[v] ? less_d(g->cost[a] + g->task_price[v] + g->cost[b], c[v]) : -1;
                if (d > 0)
                    continue;
                mpz_add(t, g->pi[a], g->ztask[v]);
                mpz_add(t, t, g->pi[b]);
                if (d == 0 && mpz_cmp(t, pi[v]) >= 0)
                    continue;
                mpz_set(pi[v], t);
                c[v] = over_L(g, pi[v]);
                fin[v] = changed = true;
                how[v] = HOW_TASK(l);
            }
            if (!fin[v])
                continue;
            for (int j = g->out_start[v]; j < g->out_start[v + 1]; j++) {
                int w = g->out_dst[j], hop = g->out_hop[j];
                if (how[w] == HOW_OWNER || (!strict && how[w] == hop))
                    continue;
                int d = fin[w] ? less_d(c[v] + g->out_price[j], c[w]) : -1;
                if (d > 0)
                    continue;
                mpz_add(t, pi[v], g->zprice[hop]);
                if (d == 0 && mpz_cmp(t, pi[w]) >= 0)
                    continue;
                mpz_set(pi[w], t);
                c[w] = over_L(g, pi[w]);
                fin[w] = changed = true;
                how[w] = hop;
            }
        }
    }
}

/* Every price times L is an integer: below 2^53 a double holds it
 * exactly, and sums of such integers that stay below 2^53 are exact too.
 * So when every price is one (below 2^52) and every value the double DP
 * keeps is below 2^51 (a sum that passed it and was rounded is kept only
 * as a value above it, rounding being monotone; and a value plus a
 * sender's part of a separable price, less than 2^52 either way, stays
 * below 2^53), the DP in doubles over the prices times L is the exact
 * DP: its values are the exact least costs times L, and how[] gives the
 * cheapest tree, without a check in rationals (on a homogeneous cluster,
 * where every condition is a tie, those checks cost most of the time).
 * False (the values then meaningless) otherwise. */
static bool integer_pricing(tg_t *g)
{
    const double limit = 0x1p51;
    g->sep_tol = 0;
    for (int j = 0; j < g->out_start[g->nv]; j++) {
        const mpz_t *z = &g->zprice[g->out_hop[j]];
        if (mpz_sgn(*z) < 0 || mpz_sizeinbase(*z, 2) > 52)
            return false;
        g->out_price[j] = mpz_get_d(*z);
    }
    for (int v = 0; v < g->nv; v++) {
        g->task_price[v] = INFINITY;
        if (g->cpu_row[v] < 0)
            continue;
        if (mpz_sgn(g->ztask[v]) < 0 || mpz_sizeinbase(g->ztask[v], 2) > 52)
            return false;
        g->task_price[v] = mpz_get_d(g->ztask[v]);
    }
    cheapest(g);
    for (size_t i = 0; i < (size_t)g->nint * g->nv; i++)
        if (isfinite(g->cost[i]) && g->cost[i] >= limit)
            return false;
    return true;
}

/* The exact cheapest tree under the exact row prices y: *cheaper is
 * whether it costs less than TP's price y[tp] (1 while TP is basic); how[]
 * then gives it.  False when the watch expires first. */
static bool exact_pricing(tg_t *g, mpq_t *y, bool *cheaper, bool *nomem)
{
    mpq_t t;
    mpz_t z;
    mpq_init(t);
    mpz_init(z);
    double *yd = g->sm.y_sep; /* the doubles of y, for the filters */
    for (int i = 0; i < g->m.nrows; i++)
        yd[i] = mpq_get_d(y[i]);
    mpz_set_ui(g->L, 1);
    for (int h = 0; h < g->nh; h++) {
        lp_loads_price_q(&g->ld, h, y, g->qprice[h], t);
        mpz_lcm(g->L, g->L, mpq_denref(g->qprice[h]));
    }
    for (int v = 0; v < g->nv; v++)
        if (g->cpu_row[v] >= 0) {
            mpq_mul(g->qtask[v], g->s->work[v], y[g->cpu_row[v]]);
            mpz_lcm(g->L, g->L, mpq_denref(g->qtask[v]));
        }
    for (int h = 0; h < g->nh; h++) { /* price x L: an integer */
        mpz_divexact(z, g->L, mpq_denref(g->qprice[h]));
        mpz_mul(g->zprice[h], z, mpq_numref(g->qprice[h]));
    }
    for (int v = 0; v < g->nv; v++) {
        mpz_divexact(z, g->L, mpq_denref(g->qtask[v]));
        mpz_mul(g->ztask[v], z, mpq_numref(g->qtask[v]));
    }
    bool in_time = true, reached;
    size_t r = at(g, g->full, g->target);
    if (integer_pricing(g)) { /* the tree's price cost / L */
        reached = isfinite(g->cost[r]);
        if (reached)
            mpz_set_d(z, g->cost[r]);
    } else {
        if (!g->pi && alloc_values(g)) {
            *nomem = true;
            in_time = false;
            goto done;
        }
        set_prices(g, yd, 0);
        cheapest(g);
        for (int len = 0; len < g->N && in_time; len++) {
            for (int k = 0; k + len < g->N; k++)
                exact_interval(g, lp_interval(g->N, k, k + len), z);
            in_time = lp_watch_tick(g->m.watch, "reduction trees, exact pricing", len + 1, g->N);
        }
        reached = g->qfinite[r];
        mpz_set(z, g->pi[r]);
    }
    if (in_time && reached) { /* against TP's price */
        mpq_set_num(t, z);
        mpq_set_den(t, g->L);
        mpq_canonicalize(t);
    }
    *cheaper = in_time && reached && mpq_cmp(t, y[g->tp_row]) < 0;
done:
    mpz_clear(z);
    mpq_clear(t);
    return in_time;
}

/* The cost of the tree whose items start at `first` under the row prices
 * y (doubles). */
static double tree_cost(const tg_t *g, int first, const double *y)
{
    double c = 0;
    for (int q = first; q < g->nitems; q++) {
        const item_t *it = &g->items[q];
        if (it->a < 0) {
            int v = -1 - it->a;
            c += mpq_get_d(g->s->work[v]) * fmax(y[g->cpu_row[v]], 0.0);
        } else {
            c += lp_loads_price(&g->ld, it->a, y);
        }
    }
    return c;
}

/* The most trees that enter a round beside the cheapest, where every two
 * hop nodes are joined by a hop (ranks around a switch): the whole
 * interval formed on another node and sent on one hop to the target.  A
 * flat cluster's optimum mixes about as many trees as it has ranks, and
 * one tree a round took as many rounds (docs/performance.md: 151 rounds
 * on 150 hosts, 5 with 64 trees a round; 16 trees: 12, 256: 3 and no
 * faster). */
#define EXTRA_TREES 64

/* After cheapest(): of the trees that form the whole interval on a node
 * other than the target and send it on one hop to the target, the
 * EXTRA_TREES of the least price under the pricing's prices, into the
 * master when they cost less than TP's price under y (and are new). */
static steady_err_t extra_trees(tg_t *g, const double *y)
{
    int pick[EXTRA_TREES], npick = 0, m = g->nhn, t = g->hidx[g->target];
    double price[EXTRA_TREES];
    const double *c = &g->cost[at(g, g->full, 0)];
    const int *how = &g->how[at(g, g->full, 0)];
    for (int i = 0; i < m && t >= 0; i++) {
        int v = g->hnodes[i];
        if (v == g->target || how[v] > HOW_TASK(0))
            continue;
        double p = c[v] + g->out_price[g->pos_of[(size_t)i * m + t]];
        if (npick == EXTRA_TREES && p >= price[npick - 1])
            continue;
        int k = npick < EXTRA_TREES ? npick++ : npick - 1; /* in order of price */
        for (; k > 0 && price[k - 1] > p; k--) {
            price[k] = price[k - 1];
            pick[k] = pick[k - 1];
        }
        price[k] = p;
        pick[k] = i;
    }
    for (int k = 0; k < npick; k++) {
        int first = g->nitems, v = g->hnodes[pick[k]];
        bool added;
        if (!push_item(g, g->out_hop[g->pos_of[(size_t)pick[k] * m + t]], g->full) ||
            !extract(g, v))
            return STEADY_ENOMEM;
        if (tree_cost(g, first, y) >= y[g->tp_row] - 1e-9)
            g->nitems = first;
        else if (add_tree(g, first, &added))
            return STEADY_ENOMEM;
    }
    return STEADY_OK;
}

/* The round's new tree (*added false when no tree is cheaper than TP's
 * price under y, or the cheapest is in the master already), and the extra
 * trees that enter with it. */
static steady_err_t smoothed_tree(tg_t *g, const double *y, bool *added)
{
    *added = false;
    for (double alpha = isfinite(g->sm.bound_in) ? LP_SMOOTHING : 0;; alpha = 0) {
        double sum = lp_smooth_prices(&g->sm, y, alpha);
        set_prices(g, g->sm.y_sep, HOP_TIE);
        cheapest(g);
        lp_smooth_seen(&g->sm, sum, g->cost[at(g, g->full, g->target)]);
        int first = g->nitems;
        if (!extract(g, g->target))
            return STEADY_ENOMEM;
        if (tree_cost(g, first, y) < y[g->tp_row] - 1e-9) {
            steady_err_t rc = add_tree(g, first, added);
            if (!rc && *added && g->pos_of)
                rc = extra_trees(g, y);
            if (rc || *added)
                return rc;
            /* a column already: within GLPK's tolerances of its price */
        } else {
            g->nitems = first;
        }
        if (alpha == 0)
            return STEADY_OK;
    }
}

/* ---- the rounds ------------------------------------------------------------ */

static steady_err_t store(tg_t *g, mpq_t *values, steady_error_t *err)
{
    steady_solution_t *s = g->s;
    lp_rate_builder_t send, cons;
    lp_rb_init(&send);
    lp_rb_init(&cons);
    mpq_set(s->tp, values[g->m.obj]);
    for (int i = 0; i < g->trees.n; i++) {
        const mpq_t *lambda = &values[1 + i];
        if (mpq_sgn(*lambda) == 0)
            continue;
        for (int q = g->trees.start[i]; q < g->trees.start[i + 1]; q++) {
            const item_t *it = &g->items[q];
            if (it->a >= 0)
                lp_rb_add(&send, it->a, it->b, *lambda);
            else
                lp_rb_add(&cons, -1 - it->a, it->b, *lambda);
        }
    }
    lp_rates_free(&s->send);
    lp_rates_free(&s->cons);
    bool ok = lp_rb_finish(&send, s->nhops, &s->send);
    ok = lp_rb_finish(&cons, g->nv, &s->cons) && ok;
    return ok ? STEADY_OK : steady_error_set(err, STEADY_ENOMEM, "out of memory");
}

/* The rounds' step (rounds.c): the cheapest tree, when cheaper than TP's
 * price, from the floating-point duals or, in the exact round, the exact
 * ones. */
static steady_err_t tree_step(void *ctx, const lp_round_t *r, bool *added, const char **unverified,
                              steady_error_t *err)
{
    tg_t *g = ctx;
    *added = false;
    if (!r->exact)
        return smoothed_tree(g, r->dual, added)
                   ? steady_error_set(err, STEADY_ENOMEM, "out of memory")
                   : STEADY_OK;
    bool cheaper, nomem = false;
    if (!g->priced && alloc_prices(g))
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    if (!exact_pricing(g, r->exact_dual, &cheaper, &nomem)) {
        if (nomem)
            return steady_error_set(err, STEADY_ENOMEM, "out of memory");
        *unverified = "the exact recovery ran out of time";
        return STEADY_OK;
    }
    if (!cheaper)
        return STEADY_OK;
    int first = g->nitems;
    if (!extract(g, g->target) || add_tree(g, first, added))
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    if (!*added) /* the master's exact optimum prices its own columns at least TP's price */
        return steady_error_set(err, STEADY_EINTERNAL,
                                "the exact pricing found a tree of the master cheaper than TP");
    return STEADY_OK;
}

static steady_err_t tree_store(void *ctx, mpq_t *values, steady_error_t *err)
{
    return store(ctx, values, err);
}

steady_err_t lp_solve_treegen(steady_solution_t *s, const steady_solve_options_t *opts,
                              lp_watch_t *watch, steady_error_t *err)
{
    tg_t g = {.s = s};
    steady_solve_options_t o = lp_master_init(&g.m, opts, watch);
    g.N = s->nsources;
    g.nv = steady_platform_node_count(s->p);
    g.nh = s->nhops;
    g.nint = s->ntypes;
    g.target = s->targets[0];
    g.full = lp_interval(g.N, 0, g.N - 1);
    long threads = opts && opts->threads > 0 ? opts->threads : sysconf(_SC_NPROCESSORS_ONLN);
    g.nthreads = threads < 1                     ? 1
                 : threads > PRICING_THREADS_MAX ? PRICING_THREADS_MAX
                                                 : (int)threads;
    s->formulation = STEADY_FORMULATION_TREES;
    steady_err_t rc = build(&g);
    if (!rc)
        rc = alloc_pricing(&g);
    if (rc) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory building the LP");
        goto done;
    }
    /* the first tree: the least loaded, every row priced 1 */
    double *y = g.sm.y_sep;
    for (int i = 0; i < g.m.nrows; i++)
        y[i] = 1;
    set_prices(&g, y, HOP_TIE);
    cheapest(&g);
    bool added;
    if (!extract(&g, g.target) || add_tree(&g, 0, &added)) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto done;
    }
    lp_rounds_t how = {.what = "tree generation",
                       .stage = "reduction trees, round",
                       .duals = true,
                       .step = tree_step,
                       .store = tree_store,
                       .ctx = &g};
    rc = lp_rounds(s, &g.m, &o, watch, &how, err);
done:
    tg_free(&g);
    return rc;
}
