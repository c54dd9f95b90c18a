/*
 * maxflow.c — maximum flows for the broadcast's cuts (cuts.c): Dinic's
 * algorithm in doubles to find violated cuts quickly, the same in exact
 * rationals to prove that none is left, and the propagation that spares
 * most of those flows (lp_certify_*).
 *
 * igraph's flows are doubles and the exact check needs rationals; both
 * versions share the residual network here: arc 2a is the graph's arc a,
 * arc 2a + 1 its reverse.
 */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct lp_flow {
    int n, m;
    int *head;  /* of each of the 2m residual arcs */
    int *start; /* residual arcs leaving v: adj[start[v] .. start[v + 1]) */
    int *adj;
    int *level, *iter, *queue, *path;
    double *resd;
    mpq_t *resq; /* initialised lazily (nresq of them) */
    int nresq;
    mpq_t aug;
};

lp_flow_t *lp_flow_new(const lp_graph_t *g)
{
    lp_flow_t *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    int n = g->n, m = g->m;
    f->n = n;
    f->m = m;
    mpq_init(f->aug);
    f->head = malloc((size_t)(2 * m + 1) * sizeof *f->head);
    f->start = calloc((size_t)n + 1, sizeof *f->start);
    f->adj = malloc((size_t)(2 * m + 1) * sizeof *f->adj);
    f->level = malloc((size_t)(n + 1) * sizeof *f->level);
    f->iter = malloc((size_t)(n + 1) * sizeof *f->iter);
    f->queue = malloc((size_t)(n + 1) * sizeof *f->queue);
    f->path = malloc((size_t)(n + 1) * sizeof *f->path);
    f->resd = malloc((size_t)(2 * m + 1) * sizeof *f->resd);
    if (!f->head || !f->start || !f->adj || !f->level || !f->iter || !f->queue || !f->path ||
        !f->resd) {
        lp_flow_free(f);
        return NULL;
    }
    for (int a = 0; a < m; a++) {
        f->head[2 * a] = g->head[a];
        f->head[2 * a + 1] = g->tail[a];
        f->start[g->tail[a] + 1]++;
        f->start[g->head[a] + 1]++;
    }
    for (int v = 0; v < n; v++)
        f->start[v + 1] += f->start[v];
    int *fill = f->iter;
    for (int v = 0; v < n; v++)
        fill[v] = f->start[v];
    for (int a = 0; a < m; a++) {
        f->adj[fill[g->tail[a]]++] = 2 * a;
        f->adj[fill[g->head[a]]++] = 2 * a + 1;
    }
    return f;
}

void lp_flow_free(lp_flow_t *f)
{
    if (!f)
        return;
    for (int a = 0; a < f->nresq; a++)
        mpq_clear(f->resq[a]);
    mpq_clear(f->aug);
    free(f->resq);
    free(f->head);
    free(f->start);
    free(f->adj);
    free(f->level);
    free(f->iter);
    free(f->queue);
    free(f->path);
    free(f->resd);
    free(f);
}

/* ---- the two arithmetics --------------------------------------------------- */

typedef struct {
    bool exact;
    double tol; /* doubles: residuals at most tol are 0 */
} arith_t;

static bool positive(const lp_flow_t *f, const arith_t *ar, int a)
{
    return ar->exact ? mpq_sgn(f->resq[a]) > 0 : f->resd[a] > ar->tol;
}

/* Breadth-first levels from s along positive residual arcs, up to t's
 * (the blocking flow only walks arcs to the next level, so nodes beyond
 * it play no part); true when t is reached. */
static bool levels(lp_flow_t *f, const arith_t *ar, int s, int t)
{
    for (int v = 0; v < f->n; v++)
        f->level[v] = -1;
    int qh = 0, qt = 0;
    f->level[s] = 0;
    f->queue[qt++] = s;
    while (qh < qt) {
        int u = f->queue[qh++];
        if (f->level[t] >= 0 && f->level[u] >= f->level[t])
            break;
        for (int i = f->start[u]; i < f->start[u + 1]; i++) {
            int a = f->adj[i], v = f->head[a];
            if (f->level[v] >= 0 || !positive(f, ar, a))
                continue;
            f->level[v] = f->level[u] + 1;
            f->queue[qt++] = v;
        }
    }
    return t >= 0 && f->level[t] >= 0;
}

/* Dinic: blocking flows along the level graph, until t is cut off or
 * the flow reaches the limit (limit_set).  The value accumulates in *vd
 * or vq. */
static void dinic(lp_flow_t *f, const arith_t *ar, int s, int t, bool limit_set, double limit_d,
                  const mpq_t limit_q, double *vd, mpq_t vq)
{
    mpq_t room;
    if (ar->exact)
        mpq_init(room);
    for (;;) {
        if (limit_set && (ar->exact ? mpq_cmp(vq, limit_q) >= 0 : *vd >= limit_d))
            break;
        if (!levels(f, ar, s, t))
            break;
        for (int v = 0; v < f->n; v++)
            f->iter[v] = f->start[v];
        int depth = 0, u = s;
        bool done = false;
        while (!done) {
            if (u == t) {
                /* augment along path[0 .. depth) by its bottleneck */
                int cut = 0;
                if (ar->exact) {
                    mpq_set(f->aug, f->resq[f->path[0]]);
                    for (int i = 1; i < depth; i++)
                        if (mpq_cmp(f->resq[f->path[i]], f->aug) < 0)
                            mpq_set(f->aug, f->resq[f->path[i]]);
                    if (limit_set) {
                        mpq_sub(room, limit_q, vq);
                        if (mpq_cmp(room, f->aug) < 0)
                            mpq_set(f->aug, room);
                    }
                    for (int i = 0; i < depth; i++) {
                        int a = f->path[i];
                        mpq_sub(f->resq[a], f->resq[a], f->aug);
                        mpq_add(f->resq[a ^ 1], f->resq[a ^ 1], f->aug);
                    }
                    mpq_add(vq, vq, f->aug);
                    for (cut = 0; cut < depth && mpq_sgn(f->resq[f->path[cut]]) > 0; cut++)
                        ;
                    if (limit_set && mpq_cmp(vq, limit_q) >= 0)
                        break;
                } else {
                    double b = f->resd[f->path[0]];
                    for (int i = 1; i < depth; i++)
                        if (f->resd[f->path[i]] < b)
                            b = f->resd[f->path[i]];
                    if (limit_set && limit_d - *vd < b)
                        b = limit_d - *vd;
                    for (int i = 0; i < depth; i++) {
                        int a = f->path[i];
                        f->resd[a] -= b;
                        f->resd[a ^ 1] += b;
                    }
                    *vd += b;
                    for (cut = 0; cut < depth && f->resd[f->path[cut]] > ar->tol; cut++)
                        ;
                    if (limit_set && *vd >= limit_d)
                        break;
                }
                /* go back to the tail of the first saturated arc */
                depth = cut < depth ? cut : depth;
                u = depth > 0 ? f->head[f->path[depth - 1]] : s;
                continue;
            }
            bool moved = false;
            for (; f->iter[u] < f->start[u + 1]; f->iter[u]++) {
                int a = f->adj[f->iter[u]], v = f->head[a];
                if (f->level[v] == f->level[u] + 1 && positive(f, ar, a)) {
                    f->path[depth++] = a;
                    u = v;
                    moved = true;
                    break;
                }
            }
            if (moved)
                continue;
            /* dead end: retreat */
            f->level[u] = -1;
            if (depth == 0) {
                done = true;
            } else {
                depth--;
                u = f->head[f->path[depth] ^ 1];
                f->iter[u]++;
            }
        }
    }
    if (ar->exact)
        mpq_clear(room);
}

/* The smallest sink side of a minimum cut, once the flow is maximum: the
 * nodes that still reach t through positive residual arcs (a breadth-first
 * search backwards from t: the residual arc r ^ 1 enters w from head[r]).
 * Small sets near the target make sparse cut rows. */
static void sink_side_of(lp_flow_t *f, const arith_t *ar, int t, bool *sink_side)
{
    memset(sink_side, 0, (size_t)f->n * sizeof *sink_side);
    int qh = 0, qt = 0;
    sink_side[t] = true;
    f->queue[qt++] = t;
    while (qh < qt) {
        int w = f->queue[qh++];
        for (int i = f->start[w]; i < f->start[w + 1]; i++) {
            int r = f->adj[i], u = f->head[r];
            if (!sink_side[u] && positive(f, ar, r ^ 1)) {
                sink_side[u] = true;
                f->queue[qt++] = u;
            }
        }
    }
}

double lp_flow_max_d(lp_flow_t *f, const double *cap, int s, int t, double limit, bool *sink_side)
{
    double top = 0;
    for (int a = 0; a < f->m; a++) {
        f->resd[2 * a] = cap[a] > 0 ? cap[a] : 0;
        f->resd[2 * a + 1] = 0;
        if (cap[a] > top)
            top = cap[a];
    }
    arith_t ar = {.exact = false, .tol = top * 1e-13};
    double value = 0;
    dinic(f, &ar, s, t, limit > 0, limit, NULL, &value, NULL);
    if (sink_side && !(limit > 0 && value >= limit))
        sink_side_of(f, &ar, t, sink_side);
    return value;
}

bool lp_flow_max_q(lp_flow_t *f, const mpq_t *cap, int s, int t, const mpq_t limit, mpq_t value,
                   bool *sink_side)
{
    if (!f->resq) {
        f->resq = malloc((size_t)(2 * f->m + 1) * sizeof *f->resq);
        if (!f->resq)
            return false;
        for (; f->nresq < 2 * f->m; f->nresq++)
            mpq_init(f->resq[f->nresq]);
    }
    for (int a = 0; a < f->m; a++) {
        mpq_set(f->resq[2 * a], cap[a]);
        mpq_set_ui(f->resq[2 * a + 1], 0, 1);
    }
    arith_t ar = {.exact = true};
    mpq_set_ui(value, 0, 1);
    dinic(f, &ar, s, t, limit != NULL, 0, limit, NULL, value);
    if (sink_side && !(limit && mpq_cmp(value, limit) >= 0))
        sink_side_of(f, &ar, t, sink_side);
    return true;
}

struct lp_certify {
    const lp_flow_t *f;
    const double *capd;
    const mpq_t *capq;
    double need_d;
    mpq_srcptr need_q;
    bool *in_c;
    double *accd; /* what the arcs from C bring each node so far */
    mpq_t *accq;
    int *queue;
};

lp_certify_t *lp_certify_new(const lp_flow_t *f, const double *capd, const mpq_t *capq,
                             double need_d, const mpq_t need_q, bool *in_c)
{
    int n = f->n;
    lp_certify_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    *c = (lp_certify_t){.f = f, .capd = capd, .capq = capq, .need_d = need_d, .in_c = in_c};
    c->need_q = capq ? need_q : NULL;
    c->queue = malloc((size_t)(n + 1) * sizeof *c->queue);
    if (capq) {
        c->accq = malloc((size_t)(n + 1) * sizeof *c->accq);
        if (c->accq)
            for (int v = 0; v < n; v++)
                mpq_init(c->accq[v]);
    } else {
        c->accd = calloc((size_t)n + 1, sizeof *c->accd);
    }
    if (!c->queue || (!c->accq && !c->accd)) {
        free(c->queue);
        free(c->accd);
        free(c);
        return NULL;
    }
    memset(in_c, 0, (size_t)n * sizeof *in_c);
    return c;
}

void lp_certify_add(lp_certify_t *c, int v)
{
    const lp_flow_t *f = c->f;
    if (c->in_c[v])
        return;
    int qh = 0, qt = 0, *queue = c->queue;
    c->in_c[v] = true;
    queue[qt++] = v;
    while (qh < qt) {
        int u = queue[qh++];
        for (int i = f->start[u]; i < f->start[u + 1]; i++) {
            int a = f->adj[i];
            if (a & 1)
                continue; /* a reverse arc */
            int w = f->head[a];
            if (c->in_c[w])
                continue;
            bool enough;
            if (c->accq) {
                mpq_add(c->accq[w], c->accq[w], c->capq[a / 2]);
                enough = mpq_cmp(c->accq[w], c->need_q) >= 0;
            } else {
                c->accd[w] += c->capd[a / 2];
                enough = c->accd[w] >= c->need_d;
            }
            if (enough) {
                c->in_c[w] = true;
                queue[qt++] = w;
            }
        }
    }
}

void lp_certify_free(lp_certify_t *c)
{
    if (!c)
        return;
    if (c->accq)
        for (int v = 0; v < c->f->n; v++)
            mpq_clear(c->accq[v]);
    free(c->accq);
    free(c->accd);
    free(c->queue);
    free(c);
}
