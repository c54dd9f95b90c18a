/*
 * model.c — routes between processors and the steady-state throughput of
 * the comparison algorithms under the one-port model (docs/comparison.md).
 *
 * Why 1 / (largest per-operation busy time) is the throughput of a series.
 * Every operation of the series moves the same chunks along the same routes
 * and runs the same combines, so each port and processor has a fixed amount
 * of work per operation: B(x) for resource x.  No schedule runs K
 * operations faster than K * max_x B(x), because resource x does one thing
 * at a time.  Conversely, pipelining across operations reaches that rate as
 * K grows: in a period of length T = max_x B(x), let every hop forward what
 * it received in the previous period (a chunk of operation k crosses its
 * h-th hop in period k + h); the hops of one period form a bipartite graph
 * senders x receivers whose weighted degrees are the B(x) <= T, and König's
 * edge-colouring theorem (as in decompose/matching.c) orders them into a
 * period of length T where no port does two things at once.  Computation
 * overlaps communication (full overlap), so processors only add their own
 * B(cpu).  This is exactly the argument behind the LP's one-port
 * constraints, which is why a tree's model can be compared with the LP
 * optimum: the tree's pattern is one feasible point of the LP (for the
 * reduce LP, when the tree keeps the rank order).
 *
 * What it ignores: the fill and drain of the pipeline (latency and the
 * depth of the trees), which a long series amortises; the makespan estimate
 * below accounts for them, and only chooses the chunk count.
 */
#include "internal.h"

#include "../common/array.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- routes ------------------------------------------------------------- */

typedef struct {
    double d;
    int hops;
    int v;
} qitem_t;

/* (d, hops, v) lexicographically: the order in which Dijkstra settles nodes */
static bool qless(const qitem_t *a, const qitem_t *b)
{
    if (a->d != b->d)
        return a->d < b->d;
    if (a->hops != b->hops)
        return a->hops < b->hops;
    return a->v < b->v;
}

static void qpush(qitem_t *q, int *nq, qitem_t it)
{
    int i = (*nq)++;
    while (i > 0 && qless(&it, &q[(i - 1) / 2])) {
        q[i] = q[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    q[i] = it;
}

static qitem_t qpop(qitem_t *q, int *nq)
{
    qitem_t top = q[0], last = q[--*nq];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= *nq)
            break;
        if (c + 1 < *nq && qless(&q[c + 1], &q[c]))
            c++;
        if (!qless(&q[c], &last))
            break;
        q[i] = q[c];
        i = c;
    }
    if (*nq > 0)
        q[i] = last;
    return top;
}

/* Dijkstra from node s over the platform's hops (messages from rank to
 * rank, through switches or not), written out rather than taken from
 * igraph because the tie-break decides which ports a route charges and
 * must be stated and stable: (distance, hops, id of the previous node),
 * smallest first.  Every hop costs its time > 0, so all the candidate
 * predecessors of a node are settled before it and the comparison at
 * relaxation time sees them all.  O((V + H) log H). */
static void dijkstra(const steady_platform_t *p, const steady_hop_graph_t *g, const double *w,
                     int s, double *dist, int *hops, int *pred, qitem_t *q)
{
    int nv = steady_platform_node_count(p), nq = 0;
    for (int v = 0; v < nv; v++) {
        dist[v] = INFINITY;
        hops[v] = 0;
        pred[v] = -1;
    }
    dist[s] = 0;
    qpush(q, &nq, (qitem_t){0, 0, s});
    while (nq) {
        qitem_t it = qpop(q, &nq);
        if (it.d != dist[it.v] || it.hops != hops[it.v])
            continue; /* stale */
        int u = it.v, nout;
        const int *out = steady_hop_graph_out(g, u, &nout);
        for (int k = 0; k < nout; k++) {
            int e = out[k], v = steady_hop_graph_hop(g, e)->dst;
            if (v == s)
                continue;
            double nd = dist[u] + w[e];
            int nh = hops[u] + 1;
            bool better = nd < dist[v] || (nd == dist[v] && nh < hops[v]);
            if (better) {
                dist[v] = nd;
                hops[v] = nh;
                pred[v] = e;
                qpush(q, &nq, (qitem_t){nd, nh, v});
            } else if (nd == dist[v] && nh == hops[v] &&
                       u < steady_hop_graph_hop(g, pred[v])->src) {
                pred[v] = e; /* same key: no new queue entry needed */
            }
        }
    }
}

void steady_routes_destroy(steady_routes_t *r)
{
    if (!r)
        return;
    free(r->proc);
    free(r->rank);
    free(r->pred_hop);
    steady_hop_graph_destroy(r->hops);
    free(r);
}

steady_err_t steady_routes_create(const steady_platform_t *p, double msg_size,
                                  steady_routes_t **out, steady_error_t *err)
{
    *out = NULL;
    if (!(msg_size >= 0) || !isfinite(msg_size))
        return steady_error_set(err, STEADY_EINVAL, "message size must be positive (%g)", msg_size);
    int nv = steady_platform_node_count(p);
    steady_routes_t *r = calloc(1, sizeof *r);
    if (!r)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    steady_err_t rc = steady_hop_graph_build(p, &r->hops, err);
    if (rc) {
        free(r);
        return rc;
    }
    int nh = steady_hop_graph_count(r->hops);
    double *w = malloc((size_t)(nh ? nh : 1) * sizeof *w);
    double *dist = malloc((size_t)(nv ? nv : 1) * sizeof *dist);
    int *hops = malloc((size_t)(nv ? nv : 1) * sizeof *hops);
    qitem_t *q = malloc((size_t)(nh + 1) * sizeof *q);
    if (!w || !dist || !hops || !q)
        goto nomem;
    r->p = p;
    r->msg_size = msg_size > 0 ? msg_size : 1048576;
    r->nnodes = nv;
    r->nproc = steady_platform_processor_count(p);
    r->proc = malloc((size_t)(r->nproc ? r->nproc : 1) * sizeof *r->proc);
    r->rank = malloc((size_t)(nv ? nv : 1) * sizeof *r->rank);
    size_t npred = (size_t)r->nproc * nv;
    r->pred_hop = malloc((npred ? npred : 1) * sizeof *r->pred_hop);
    if (!r->proc || !r->rank || !r->pred_hop)
        goto nomem;
    for (int v = 0, k = 0; v < nv; v++) {
        bool proc = steady_platform_node(p, v)->kind == STEADY_PROCESSOR;
        r->rank[v] = proc ? k : -1;
        if (proc)
            r->proc[k++] = v;
    }
    for (int h = 0; h < nh; h++)
        w[h] = steady_hop_time(p, steady_hop_graph_hop(r->hops, h), r->msg_size);
    for (int k = 0; k < r->nproc; k++)
        dijkstra(p, r->hops, w, r->proc[k], dist, hops, r->pred_hop + (size_t)k * nv, q);
    goto cleanup;
nomem:
    rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
cleanup:
    free(w);
    free(dist);
    free(hops);
    free(q);
    if (rc)
        steady_routes_destroy(r);
    else
        *out = r;
    return rc;
}

int steady_routes_path(const steady_routes_t *r, int from, int to, int *hops)
{
    if (from < 0 || from >= r->nnodes || to < 0 || to >= r->nnodes || r->rank[from] < 0 ||
        r->rank[to] < 0)
        return -1;
    const int *pred = r->pred_hop + (size_t)r->rank[from] * r->nnodes;
    int n = 0;
    for (int v = to; v != from; v = steady_hop_graph_hop(r->hops, pred[v])->src) {
        if (pred[v] < 0 || n == r->nnodes - 1)
            return -1;
        hops[n++] = pred[v];
    }
    for (int i = 0; i < n / 2; i++) {
        int t = hops[i];
        hops[i] = hops[n - 1 - i];
        hops[n - 1 - i] = t;
    }
    return n;
}

const steady_hop_graph_t *steady_routes_hops(const steady_routes_t *r)
{
    return r->hops;
}

/* ---- the model ------------------------------------------------------------- */

/* The routes of every tree edge of a collective, in the direction of its
 * phase's data (towards the root for a reduce tree, away for a broadcast
 * tree; a tree used in both phases of TwoTreeC's allreduce is stored per
 * phase).  Route of (slot s, rank x): hops[start[s * P + x] .. start[s * P
 * + x + 1]) where slot s = phase * ntrees + tree. */
typedef struct {
    const steady_routes_t *r;
    const steady_collective_t *c;
    int P, nslots;
    int *start;
    int *hops; /* capacity cap */
    int cap;
    bool rendezvous; /* a chunk's latency holds its ports (steady_cost_model_t) */
    /* per chunk count: */
    double *cc;                /* per hop: its time for one chunk, which holds both ports */
    double *send, *recv, *cpu; /* per node: busy time per operation */
    double *res;               /* per shared resource: busy time per operation */
} routed_t;

static void routed_free(routed_t *m)
{
    free(m->start);
    free(m->hops);
    free(m->cc);
    free(m->send);
    free(m->recv);
    free(m->cpu);
    free(m->res);
}

static steady_err_t routed_build(routed_t *m, const steady_routes_t *r,
                                 const steady_collective_t *c, steady_error_t *err)
{
    const steady_platform_t *p = r->p;
    int P = steady_collective_ranks(c), nt = steady_collective_tree_count(c);
    int nv = r->nnodes, nh = steady_hop_graph_count(r->hops);
    int nres = steady_platform_resource_count(p);
    memset(m, 0, sizeof *m);
    m->r = r;
    m->c = c;
    m->P = P;
    m->nslots = 2 * nt;
    size_t nroutes = (size_t)m->nslots * P;
    m->start = calloc(nroutes + 1, sizeof *m->start);
    int *path = malloc((size_t)(nv ? nv : 1) * sizeof *path);
    m->cc = malloc((size_t)(nh ? nh : 1) * sizeof *m->cc);
    m->send = malloc((size_t)nv * sizeof *m->send);
    m->recv = malloc((size_t)nv * sizeof *m->recv);
    m->cpu = malloc((size_t)nv * sizeof *m->cpu);
    m->res = malloc((size_t)(nres + 1) * sizeof *m->res);
    steady_err_t rc = STEADY_OK;
    if (!m->start || !path || !m->cc || !m->send || !m->recv || !m->cpu || !m->res)
        goto nomem;
    int used = 0;
    for (int ph = 0; ph < 2; ph++)
        for (int t = 0; t < nt; t++) {
            int s = ph * nt + t;
            bool in_phase = t >= c->phase_first[ph] && t < c->phase_first[ph] + c->phase_count[ph];
            for (int x = 0; x < P; x++) {
                m->start[(size_t)s * P + x] = used;
                int up = steady_collective_parent(c, t, x);
                if (!in_phase || up < 0)
                    continue;
                int a = r->proc[up], b = r->proc[x];
                if (ph == STEADY_PHASE_REDUCE) {
                    int tmp = a;
                    a = b;
                    b = tmp;
                }
                int n = steady_routes_path(r, a, b, path);
                if (n < 0) {
                    rc = steady_error_set(err, STEADY_EINVAL,
                                          "%s cannot reach %s along the platform's edges: the "
                                          "throughput would be 0",
                                          steady_platform_node(p, a)->name,
                                          steady_platform_node(p, b)->name);
                    goto cleanup;
                }
                if (!array_grow((void **)&m->hops, &m->cap, used + n, sizeof *m->hops, 64))
                    goto nomem;
                memcpy(m->hops + used, path, (size_t)n * sizeof *path);
                used += n;
            }
        }
    m->start[nroutes] = used;
    goto cleanup;
nomem:
    rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
cleanup:
    free(path);
    return rc;
}

static const int *route(const routed_t *m, int slot, int x, int *n)
{
    size_t i = (size_t)slot * m->P + x;
    *n = m->start[i + 1] - m->start[i];
    return m->hops + m->start[i];
}

/* Chunks of a message split into C that tree number i (of count) of a phase
 * carries: chunk j goes to tree j mod count. */
static int tree_chunks(int C, int i, int count)
{
    return (C + count - 1 - i) / count;
}

/* ---- one operation, event by event -------------------------------------------
 *
 * The makespan of a single operation under the same model, used to choose
 * the chunk count.  Events are the hops of every chunk along its tree
 * edges' routes and the combines of a reduce.  An event becomes ready when
 * its input is there (a hop: the previous hop's end plus that edge's
 * latency, or the chunk's arrival at the tree edge's sender; a combine: the
 * partial result's arrival).  Events are placed in the order they become
 * ready (ties: the order they were created — chunk by chunk, children in
 * send order), each at the earliest time from its ready time when its
 * resources are free — a hop needs its sender's send port and its
 * receiver's receive port together — possibly in a gap left between
 * earlier bookings (list scheduling with backfilling).  A rank forwards a
 * broadcast chunk as soon as it has it (the seed's Algorithm 2), sends its
 * partial result up once every child's has been combined, and an
 * allreduce's root starts broadcasting chunk j as soon as it is reduced. */

typedef enum { EV_HOP, EV_COMBINE } ev_kind_t;

typedef struct {
    double t; /* ready time */
    long seq; /* creation order */
    ev_kind_t kind;
    int ph; /* phase */
    int chunk;
    int x; /* HOP: the tree edge parent(x) - x; COMBINE: the rank that combines */
    int h; /* HOP: the hop along the route */
} event_t;

typedef struct {
    event_t *a;
    int n, cap;
    long seq;
} evq_t;

static bool ev_less(const event_t *a, const event_t *b)
{
    return a->t != b->t ? a->t < b->t : a->seq < b->seq;
}

static bool ev_push(evq_t *q, double t, ev_kind_t kind, int ph, int chunk, int x, int h)
{
    if (!array_grow((void **)&q->a, &q->cap, q->n + 1, sizeof *q->a, 64))
        return false;
    event_t ev = {t, q->seq++, kind, ph, chunk, x, h};
    int i = q->n++;
    while (i > 0 && ev_less(&ev, &q->a[(i - 1) / 2])) {
        q->a[i] = q->a[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    q->a[i] = ev;
    return true;
}

static event_t ev_pop(evq_t *q)
{
    event_t top = q->a[0], last = q->a[--q->n];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= q->n)
            break;
        if (c + 1 < q->n && ev_less(&q->a[c + 1], &q->a[c]))
            c++;
        if (!ev_less(&q->a[c], &last))
            break;
        q->a[i] = q->a[c];
        i = c;
    }
    if (q->n > 0)
        q->a[i] = last;
    return top;
}

/* The busy intervals of one port or processor, sorted and disjoint
 * (touching intervals are merged, which keeps back-to-back work short). */
typedef struct {
    double *s, *e;
    int n, cap;
} timeline_t;

/* The first interval that ends after t. */
static int tl_find(const timeline_t *tl, double t)
{
    int lo = 0, hi = tl->n;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (tl->e[mid] > t)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* The earliest start >= t at which [start, start + d) is free in a and,
 * if given, in b: work may fill a gap left between earlier bookings. */
static double tl_fit(const timeline_t *a, const timeline_t *b, double t, double d)
{
    for (;;) {
        bool moved = false;
        int i = tl_find(a, t);
        if (i < a->n && a->s[i] < t + d) {
            t = a->e[i];
            moved = true;
        }
        if (b) {
            i = tl_find(b, t);
            if (i < b->n && b->s[i] < t + d) {
                t = b->e[i];
                moved = true;
            }
        }
        if (!moved)
            return t;
    }
}

static bool tl_book(timeline_t *tl, double s, double e)
{
    int i = tl_find(tl, s); /* the new interval goes before i */
    bool left = i > 0 && tl->e[i - 1] == s, right = i < tl->n && tl->s[i] == e;
    if (left && right) {
        tl->e[i - 1] = tl->e[i];
        memmove(tl->s + i, tl->s + i + 1, (size_t)(tl->n - i - 1) * sizeof *tl->s);
        memmove(tl->e + i, tl->e + i + 1, (size_t)(tl->n - i - 1) * sizeof *tl->e);
        tl->n--;
        return true;
    }
    if (left) {
        tl->e[i - 1] = e;
        return true;
    }
    if (right) {
        tl->s[i] = s;
        return true;
    }
    int cap = tl->cap;
    if (!array_grow((void **)&tl->s, &cap, tl->n + 1, sizeof *tl->s, 16) ||
        !array_grow((void **)&tl->e, &tl->cap, tl->n + 1, sizeof *tl->e, 16))
        return false;
    memmove(tl->s + i + 1, tl->s + i, (size_t)(tl->n - i) * sizeof *tl->s);
    memmove(tl->e + i + 1, tl->e + i, (size_t)(tl->n - i) * sizeof *tl->e);
    tl->s[i] = s;
    tl->e[i] = e;
    tl->n++;
    return true;
}

/* Pushes the first hops of chunk j from rank u to its children in the
 * broadcast tree, ready at t. */
static bool send_down(const routed_t *m, evq_t *q, int j, int u, double t)
{
    int tree = steady_collective_chunk_tree(m->c, STEADY_PHASE_BROADCAST, j);
    if (tree < 0)
        return true;
    const int *kids;
    int k = steady_collective_children(m->c, tree, u, &kids);
    for (int i = 0; i < k; i++)
        if (!ev_push(q, t, EV_HOP, STEADY_PHASE_BROADCAST, j, kids[i], 0))
            return false;
    return true;
}

/* Rank u's partial result of chunk j is complete at t: up to the parent,
 * or, at the root, the end of the reduce (and the start of the broadcast). */
static bool reduced(const routed_t *m, evq_t *q, int j, int u, double t, double *last)
{
    if (u != steady_collective_root(m->c))
        return ev_push(q, t, EV_HOP, STEADY_PHASE_REDUCE, j, u, 0);
    if (t > *last)
        *last = t;
    return send_down(m, q, j, u, t);
}

/* Simulates one operation with C chunks (m->cc holds the chunk costs):
 * *makespan receives the time the last chunk arrives (or the root's last
 * combine ends).  False when memory runs out. */
static bool simulate(routed_t *m, int C, double task_cost, double *makespan)
{
    const steady_routes_t *r = m->r;
    const steady_platform_t *p = r->p;
    const steady_collective_t *c = m->c;
    int P = m->P, nt = steady_collective_tree_count(c), root = steady_collective_root(c);
    evq_t q = {0};
    int *pending = malloc((size_t)P * C * sizeof *pending);
    timeline_t *tl = calloc((size_t)3 * r->nnodes, sizeof *tl); /* send, recv, cpu per node */
    bool ok = pending && tl;
    double last = 0;
    for (int j = 0; ok && j < C; j++) {
        int tree = steady_collective_chunk_tree(c, STEADY_PHASE_REDUCE, j);
        if (tree < 0) {
            ok = send_down(m, &q, j, root, 0);
            continue;
        }
        for (int x = 0; ok && x < P; x++) {
            pending[x * C + j] = steady_collective_children(c, tree, x, NULL);
            if (pending[x * C + j] == 0 && x != root)
                ok = ev_push(&q, 0, EV_HOP, STEADY_PHASE_REDUCE, j, x, 0);
        }
    }
    while (ok && q.n) {
        event_t ev = ev_pop(&q);
        int tree = steady_collective_chunk_tree(c, (steady_phase_t)ev.ph, ev.chunk);
        if (ev.kind == EV_COMBINE) {
            int v = r->proc[ev.x];
            double d = steady_platform_task_time(p, v, task_cost / C);
            double start = tl_fit(&tl[3 * v + 2], NULL, ev.t, d);
            ok = tl_book(&tl[3 * v + 2], start, start + d);
            if (ok && --pending[ev.x * C + ev.chunk] == 0)
                ok = reduced(m, &q, ev.chunk, ev.x, start + d, &last);
            continue;
        }
        int n;
        const int *path = route(m, ev.ph * nt + tree, ev.x, &n);
        const steady_hop_t *e = steady_hop_graph_hop(r->hops, path[ev.h]);
        double d = m->cc[path[ev.h]];
        double start = tl_fit(&tl[3 * e->src], &tl[3 * e->dst + 1], ev.t, d);
        ok = tl_book(&tl[3 * e->src], start, start + d) &&
             tl_book(&tl[3 * e->dst + 1], start, start + d);
        double at = start + d + (m->rendezvous ? 0 : steady_hop_latency(p, e));
        if (!ok) {
            break;
        } else if (ev.h + 1 < n) {
            ok = ev_push(&q, at, EV_HOP, ev.ph, ev.chunk, ev.x, ev.h + 1);
        } else if (ev.ph == STEADY_PHASE_BROADCAST) {
            if (at > last)
                last = at;
            ok = send_down(m, &q, ev.chunk, ev.x, at);
        } else {
            ok = ev_push(&q, at, EV_COMBINE, ev.ph, ev.chunk,
                         steady_collective_parent(c, tree, ev.x), 0);
        }
    }
    for (int k = 0; tl && k < 3 * r->nnodes; k++) {
        free(tl[k].s);
        free(tl[k].e);
    }
    free(tl);
    free(q.a);
    free(pending);
    *makespan = last;
    return ok;
}

/* Evaluates the collective with C chunks: per-operation busy time of every
 * port and processor (the bottleneck goes to *out) and the simulated
 * makespan of one operation. */
static steady_err_t evaluate(routed_t *m, int C, double msg_size, double task_cost,
                             steady_model_t *out, steady_error_t *err)
{
    const steady_routes_t *r = m->r;
    const steady_platform_t *p = r->p;
    const steady_collective_t *c = m->c;
    int nv = r->nnodes, nh = steady_hop_graph_count(r->hops), nt = steady_collective_tree_count(c);
    int nres = steady_platform_resource_count(p);
    bool abstract = steady_platform_is_abstract(p);
    double chunk = abstract ? msg_size : msg_size / C, scale = abstract ? 1.0 / C : 1;
    for (int h = 0; h < nh; h++) {
        const steady_hop_t *e = steady_hop_graph_hop(r->hops, h);
        m->cc[h] =
            steady_hop_time(p, e, chunk) * scale + (m->rendezvous ? steady_hop_latency(p, e) : 0);
    }
    for (int v = 0; v < nv; v++)
        m->send[v] = m->recv[v] = m->cpu[v] = 0;
    for (int k = 0; k < nres; k++)
        m->res[k] = 0;

    /* loads: every chunk crosses every hop of its tree edges' routes (both
     * ports for the hop's time, each shared resource of its path for its
     * own), and a reduce rank combines each child's chunk */
    for (int ph = 0; ph < 2; ph++) {
        int count = c->phase_count[ph];
        for (int i = 0; i < count; i++) {
            int t = c->phase_first[ph] + i, nch = tree_chunks(C, i, count);
            for (int x = 0; nch > 0 && x < m->P; x++) {
                int n;
                const int *path = route(m, ph * nt + t, x, &n);
                for (int h = 0; h < n; h++) {
                    const steady_hop_t *e = steady_hop_graph_hop(r->hops, path[h]);
                    m->send[e->src] += nch * m->cc[path[h]];
                    m->recv[e->dst] += nch * m->cc[path[h]];
                    int edge;
                    const steady_use_t *u;
                    steady_loads_t it;
                    steady_loads_start(&it, p, e->edges, e->nedges);
                    while (steady_loads_next(&it, &edge, &u))
                        m->res[u->resource] +=
                            nch * steady_platform_use_time(p, edge, u, chunk) * scale;
                }
                int up = steady_collective_parent(c, t, x);
                if (ph == STEADY_PHASE_REDUCE && up >= 0)
                    m->cpu[r->proc[up]] +=
                        nch * steady_platform_task_time(p, r->proc[up], task_cost / C);
            }
        }
    }
    out->busy = 0;
    out->bottleneck = -1;
    out->bottleneck_resource = STEADY_RES_SEND;
    for (int v = 0; v < nv; v++) {
        const double load[3] = {m->send[v], m->recv[v], m->cpu[v]};
        for (int k = 0; k < 3; k++)
            if (load[k] > out->busy) {
                out->busy = load[k];
                out->bottleneck = v;
                out->bottleneck_resource = (steady_resource_t)k;
            }
    }
    for (int k = 0; k < nres; k++)
        if (m->res[k] > out->busy) {
            out->busy = m->res[k];
            out->bottleneck = k;
            out->bottleneck_resource = STEADY_RES_LINK;
        }
    out->chunks = C;
    out->throughput = out->busy > 0 ? 1 / out->busy : INFINITY;
    if (!simulate(m, C, task_cost, &out->makespan))
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    return STEADY_OK;
}

steady_err_t steady_model_evaluate(const steady_routes_t *r, steady_algo_t algo, steady_collop_t op,
                                   int root, const steady_model_options_t *opts,
                                   steady_model_t *out, steady_error_t *err)
{
    const steady_platform_t *p = r->p;
    steady_model_options_t o = opts ? *opts : (steady_model_options_t){0};
    memset(out, 0, sizeof *out);
    out->algo = algo;
    out->op = op;
    if (root < 0 || root >= r->nnodes)
        return steady_error_set(err, STEADY_EINVAL, "root: unknown node id (%d)", root);
    if (r->rank[root] < 0)
        return steady_error_set(err, STEADY_EINVAL,
                                "root: %s is a router, and routers only forward",
                                steady_platform_node(p, root)->name);
    if (!(o.msg_size >= 0) || !isfinite(o.msg_size))
        return steady_error_set(err, STEADY_EINVAL, "message size must be positive (%g)",
                                o.msg_size);
    if (!(o.task_cost >= 0) || !isfinite(o.task_cost))
        return steady_error_set(err, STEADY_EINVAL, "task cost must be positive (%g)", o.task_cost);
    if (o.chunks < 0 || o.max_chunks < 0)
        return steady_error_set(err, STEADY_EINVAL, "chunk counts must be positive (%d)",
                                o.chunks < 0 ? o.chunks : o.max_chunks);
    bool abstract = steady_platform_is_abstract(p);
    double msg = o.msg_size > 0 ? o.msg_size : 1048576;
    double task = o.task_cost > 0 ? o.task_cost : abstract ? 1 : msg;
    int cap = o.max_chunks > 0 ? o.max_chunks : 64;
    if (!abstract && cap > msg)
        cap = msg >= 1 ? (int)msg : 1;
    if (!abstract && o.chunks > msg)
        return steady_error_set(err, STEADY_EINVAL,
                                "%d chunks of a %.17g-byte message would be smaller than a byte",
                                o.chunks, msg);

    steady_collective_t *c = NULL;
    routed_t m = {0};
    steady_err_t rc = steady_collective_create(algo, op, r->nproc, r->rank[root], 1, &c, err);
    if (rc)
        return rc;
    if ((rc = routed_build(&m, r, c, err)))
        goto cleanup;
    m.rendezvous = o.cost_model == STEADY_COST_RENDEZVOUS;
    if (o.chunks > 0 || r->nproc == 1) { /* one rank: nothing to split */
        if ((rc = evaluate(&m, o.chunks > 0 ? o.chunks : 1, msg, task, out, err)))
            goto cleanup;
    } else {
        /* the candidate with the best series throughput, then the shortest
         * single operation, then the fewest chunks.  Candidates: a
         * geometric ladder below the cap, and the cap; at least 2 for the
         * two-tree algorithms (one chunk leaves the second tree idle). */
        static const int ladder[] = {1,  2,  3,  4,   6,   8,   12,  16,  24,  32,
                                     48, 64, 96, 128, 192, 256, 384, 512, 768, 1024};
        int cand[sizeof ladder / sizeof *ladder + 1], nc = 0;
        int least = algo <= STEADY_ALGO_TWOTREES && cap >= 2 ? 2 : 1;
        for (size_t i = 0; i < sizeof ladder / sizeof *ladder; i++)
            if (ladder[i] >= least && ladder[i] < cap)
                cand[nc++] = ladder[i];
        cand[nc++] = cap;
        steady_model_t best = *out, cur = *out;
        for (int i = 0; i < nc; i++) {
            if ((rc = evaluate(&m, cand[i], msg, task, &cur, err)))
                goto cleanup;
            bool faster = cur.throughput > best.throughput * (1 + 1e-9);
            bool as_fast = cur.throughput >= best.throughput * (1 - 1e-9);
            if (i == 0 || faster || (as_fast && cur.makespan < best.makespan * (1 - 1e-12)))
                best = cur;
        }
        *out = best;
    }
    out->order_preserving = collective_order_preserving(c, out->chunks);
cleanup:
    routed_free(&m);
    steady_collective_destroy(c);
    return rc;
}
