/*
 * hockney.c — closed-form predictions of the comparison algorithms under the
 * Hockney model, and the Hoefler-Moor memory and energy metrics
 * (docs/comparison.md, "Model-based selection").
 *
 * The point-to-point model.  A message of x bytes on hop h takes
 * tau_h(x) = alpha_h + beta_h x, alpha_h = overhead + latency, beta_h =
 * 1 / bandwidth (steady_hop_time + steady_hop_latency; cost / C + latency
 * on abstract platforms), and holds the sender's send port and the
 * receiver's receive port that long: the Hockney model as Nuriyev et al.
 * use it for Open MPI's broadcasts, with the latency charged to the ports
 * (a rendezvous send: steady-run's executor, SMPI's detached threshold 0).
 * A route costs the sum of its hops (each forwarding node stores and
 * forwards).  This differs from the one-port model of model.c, where a
 * latency holds no port.
 *
 * The collective model.  The message is cut into C chunks of x = s / C.
 *   A  the fill: the time the first chunk of every tree takes, each rank
 *      sending a chunk to its children one after the other in send order
 *      (the seeds' non-blocking flat trees on one port: gamma(k + 1) = k),
 *      a reduce rank receiving then combining child after child, the root
 *      serving its trees one after the other; an allreduce's broadcast
 *      starts when its reduce ends.
 *   L  the busiest port's (or processor's) time per operation.
 *   With n trees per phase carrying chunks, a round of n chunks costs the
 *   bottleneck L n / C, and the last chunk leaves C / n - 1 rounds after
 *   the first: T1 = A + L - L n / C.  A series of K operations is one
 *   stream of K C chunks: TK = A + K L - L n / C.
 * Exact on a uniform platform for the chain ((P + C - 2) tau, the seeds'
 * pipeline), the binomial tree ((log2 P) tau for C = 1), the pipelined
 * binary tree and the flat tree; for the two-tree algorithms it takes
 * their trees as independent pipelines sharing the root, exact when C is
 * a multiple of 2 and the trees' forwarding does not collide.
 */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const steady_routes_t *r;
    const steady_collective_t *c;
    double chunk, scale; /* hop time: steady_hop_time(chunk) * scale + latency */
    double gamma_flop;   /* a combine: task_cost / C flop */
    int *path;
    double *send, *recv, *cpu, *sends; /* per node, per operation */
    double *t;                         /* per rank: arrival / readiness */
    int *order;                        /* per rank: BFS order of a tree */
} hctx_t;

static double hop_tau(const hctx_t *h, int hop)
{
    const steady_platform_t *p = h->r->p;
    const steady_hop_t *e = steady_hop_graph_hop(h->r->hops, hop);
    return steady_hop_time(p, e, h->chunk) * h->scale + steady_hop_latency(p, e);
}

/* The route time from rank a to rank b, or -1 without a route. */
static double route_tau(const hctx_t *h, int a, int b)
{
    int n = steady_routes_path(h->r, h->r->proc[a], h->r->proc[b], h->path);
    if (n < 0)
        return -1;
    double t = 0;
    for (int k = 0; k < n; k++)
        t += hop_tau(h, h->path[k]);
    return t;
}

/* BFS order of tree t from the root into h->order; returns its length. */
static int bfs(const hctx_t *h, int t)
{
    int n = 0, root = steady_collective_root(h->c);
    h->order[n++] = root;
    for (int i = 0; i < n; i++) {
        const int *kids;
        int k = steady_collective_children(h->c, t, h->order[i], &kids);
        for (int j = 0; j < k; j++)
            h->order[n++] = kids[j];
    }
    return n;
}

/* Fill of the broadcast phase starting at `start`: the latest arrival of a
 * tree's first chunk. */
static bool fill_broadcast(hctx_t *h, double start, int C, double *fill)
{
    const steady_collective_t *c = h->c;
    int first = c->phase_first[STEADY_PHASE_BROADCAST];
    int count = c->phase_count[STEADY_PHASE_BROADCAST], root = steady_collective_root(c);
    double clock = start, last = start;
    for (int i = 0; i < count && i < C; i++) {
        int t = first + i, n = bfs(h, t);
        for (int k = 0; k < n; k++) {
            int u = h->order[k];
            double at = u == root ? clock : h->t[u];
            const int *kids;
            int nk = steady_collective_children(c, t, u, &kids);
            for (int j = 0; j < nk; j++) {
                double d = route_tau(h, u, kids[j]);
                if (d < 0)
                    return false;
                at += d;
                h->t[kids[j]] = at;
                if (at > last)
                    last = at;
            }
            if (u == root)
                clock = at; /* the root serves its trees one after the other */
        }
    }
    *fill = last;
    return true;
}

/* Fill of the reduce phase: when the root has combined the first chunk of
 * every tree. */
static bool fill_reduce(hctx_t *h, int C, double *fill)
{
    const steady_collective_t *c = h->c;
    const steady_platform_t *p = h->r->p;
    int first = c->phase_first[STEADY_PHASE_REDUCE], count = c->phase_count[STEADY_PHASE_REDUCE];
    int root = steady_collective_root(c);
    double root_recv = 0, root_cpu = 0;
    for (int i = 0; i < count && i < C; i++) {
        int t = first + i, n = bfs(h, t);
        for (int k = n - 1; k >= 0; k--) { /* children before parents */
            int u = h->order[k];
            double recv = u == root ? root_recv : 0, cpu = u == root ? root_cpu : 0;
            double g = steady_platform_task_time(p, h->r->proc[u], h->gamma_flop);
            const int *kids;
            int nk = steady_collective_children(c, t, u, &kids);
            for (int j = 0; j < nk; j++) {
                double d = route_tau(h, kids[j], u);
                if (d < 0)
                    return false;
                recv = fmax(recv, h->t[kids[j]]) + d;
                cpu = fmax(cpu, recv) + g;
            }
            h->t[u] = cpu;
            if (u == root) {
                root_recv = recv;
                root_cpu = cpu;
            }
        }
    }
    *fill = root_cpu;
    return true;
}

/* Loads per operation and the Hoefler-Moor counts. */
static bool loads(hctx_t *h, int C, double msg, double *messages, double *bytes)
{
    const steady_collective_t *c = h->c;
    const steady_platform_t *p = h->r->p;
    int P = h->r->nproc;
    *messages = *bytes = 0;
    for (int ph = 0; ph < 2; ph++) {
        int count = c->phase_count[ph];
        for (int i = 0; i < count; i++) {
            int t = c->phase_first[ph] + i, nch = (C + count - 1 - i) / count;
            for (int x = 0; nch > 0 && x < P; x++) {
                int up = steady_collective_parent(c, t, x);
                if (up < 0)
                    continue;
                int a = ph == STEADY_PHASE_REDUCE ? x : up, b = ph == STEADY_PHASE_REDUCE ? up : x;
                int n = steady_routes_path(h->r, h->r->proc[a], h->r->proc[b], h->path);
                if (n < 0)
                    return false;
                for (int k = 0; k < n; k++) {
                    const steady_hop_t *e = steady_hop_graph_hop(h->r->hops, h->path[k]);
                    double d = hop_tau(h, h->path[k]);
                    h->send[e->src] += nch * d;
                    h->recv[e->dst] += nch * d;
                    h->sends[e->src] += nch;
                    *messages += nch;
                    *bytes += nch * (msg / C);
                }
                if (ph == STEADY_PHASE_REDUCE)
                    h->cpu[h->r->proc[up]] +=
                        nch * steady_platform_task_time(p, h->r->proc[up], h->gamma_flop);
            }
        }
    }
    return true;
}

/* Data buffers of rank x: the message (broadcast: the result; reduce: the
 * input), a reduce's partial result and one chunk's receive buffer where
 * x has children, an allreduce's result. */
static double buffers(const steady_collective_t *c, int x, double msg, int C)
{
    if (c->op == STEADY_COLL_BROADCAST)
        return msg;
    bool kids = false;
    int first = c->phase_first[STEADY_PHASE_REDUCE], count = c->phase_count[STEADY_PHASE_REDUCE];
    for (int i = 0; i < count && i < C; i++)
        kids = kids || steady_collective_children(c, first + i, x, NULL) > 0;
    if (c->op == STEADY_COLL_REDUCE)
        return msg + (kids ? msg + msg / C : 0);
    return 2 * msg + (kids ? msg / C : 0);
}

steady_err_t steady_hockney_evaluate(const steady_routes_t *r, steady_algo_t algo,
                                     steady_collop_t op, int root, double msg_size,
                                     double task_cost, int chunks, long series_ops,
                                     const steady_hm_params_t *hm, steady_hockney_t *out,
                                     steady_error_t *err)
{
    const steady_platform_t *p = r->p;
    steady_hm_params_t k = hm ? *hm : STEADY_HM_DEFAULTS;
    memset(out, 0, sizeof *out);
    out->algo = algo;
    out->op = op;
    if (root < 0 || root >= r->nnodes || r->rank[root] < 0)
        return steady_error_set(err, STEADY_EINVAL, "root: not a processor (%d)", root);
    if (!(msg_size >= 0) || !isfinite(msg_size) || !(task_cost >= 0) || !isfinite(task_cost))
        return steady_error_set(err, STEADY_EINVAL, "message size and task cost must be positive");
    if (chunks < 1 || series_ops < 1)
        return steady_error_set(err, STEADY_EINVAL,
                                "chunks and operations must be positive (%d, %ld)", chunks,
                                series_ops);
    if (!(k.energy_per_message >= 0) || !(k.energy_per_byte >= 0) || !(k.power >= 0) ||
        !(k.descriptor_bytes >= 0))
        return steady_error_set(err, STEADY_EINVAL, "energy and memory constants must be >= 0");
    bool abstract = steady_platform_is_abstract(p);
    double msg = msg_size > 0 ? msg_size : 1048576;
    double task = task_cost > 0 ? task_cost : abstract ? 1 : msg;
    int P = r->nproc, nv = r->nnodes;

    steady_collective_t *c = NULL;
    steady_err_t rc = steady_collective_create(algo, op, P, r->rank[root], chunks, &c, err);
    if (rc)
        return rc;
    hctx_t h = {.r = r,
                .c = c,
                .chunk = abstract ? msg : msg / chunks,
                .scale = abstract ? 1.0 / chunks : 1,
                .gamma_flop = task / chunks};
    h.path = malloc((size_t)nv * sizeof *h.path);
    h.send = calloc((size_t)nv, sizeof *h.send);
    h.recv = calloc((size_t)nv, sizeof *h.recv);
    h.cpu = calloc((size_t)nv, sizeof *h.cpu);
    h.sends = calloc((size_t)nv, sizeof *h.sends);
    h.t = calloc((size_t)P, sizeof *h.t);
    h.order = malloc((size_t)P * sizeof *h.order);
    if (!h.path || !h.send || !h.recv || !h.cpu || !h.sends || !h.t || !h.order) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto cleanup;
    }
    double fill = 0, fb = 0;
    bool ok = loads(&h, chunks, msg, &out->messages, &out->bytes);
    if (ok && op != STEADY_COLL_BROADCAST)
        ok = fill_reduce(&h, chunks, &fill);
    if (ok && op != STEADY_COLL_REDUCE) {
        ok = fill_broadcast(&h, fill, chunks, &fb);
        fill = fb;
    }
    if (!ok) {
        rc = steady_error_set(err, STEADY_EINVAL, "%s: two of its ranks have no route between them",
                              steady_algo_name(algo));
        goto cleanup;
    }
    double L = 0;
    for (int v = 0; v < nv; v++)
        L = fmax(L, fmax(h.send[v], fmax(h.recv[v], h.cpu[v])));
    int n = 1;
    for (int ph = 0; ph < 2; ph++)
        if (c->phase_count[ph] > n)
            n = c->phase_count[ph];
    if (n > chunks)
        n = chunks;
    double round = L * n / chunks;
    out->chunks = chunks;
    out->fill = fill;
    out->load = L;
    out->one_op = fill + L - round;
    out->series_ops = series_ops;
    out->series = (fill + (double)series_ops * L - round) / (double)series_ops;
    out->memory_rank = -1;
    for (int x = 0; x < P; x++) {
        int v = r->proc[x];
        double b = buffers(c, x, msg, chunks), mem = b + k.descriptor_bytes * h.sends[v];
        if (out->memory_rank < 0 || mem > out->memory) {
            out->memory = mem;
            out->memory_rank = v;
            out->buffer_bytes = b;
            out->descriptors = h.sends[v];
        }
    }
    double dynamic = k.energy_per_message * out->messages + k.energy_per_byte * out->bytes;
    out->energy_one_op = dynamic + k.power * P * out->one_op;
    out->energy_series = dynamic + k.power * P * out->series;
cleanup:
    free(h.path);
    free(h.send);
    free(h.recv);
    free(h.cpu);
    free(h.sends);
    free(h.t);
    free(h.order);
    steady_collective_destroy(c);
    return rc;
}

static double picked(const steady_hockney_t *h, steady_pick_t pick)
{
    switch (pick) {
    case STEADY_PICK_ONE_OP: return h->one_op;
    case STEADY_PICK_SERIES: return h->series;
    case STEADY_PICK_ENERGY: return h->energy_series;
    }
    return h->one_op;
}

steady_err_t steady_hockney_best(const steady_routes_t *r, steady_algo_t algo, steady_collop_t op,
                                 int root, double msg_size, double task_cost, long series_ops,
                                 const steady_hm_params_t *hm, steady_pick_t pick, int max_chunks,
                                 steady_hockney_t *out, steady_error_t *err)
{
    static const int ladder[] = {1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48};
    double msg = msg_size > 0 ? msg_size : 1048576;
    int cap = max_chunks > 0 ? max_chunks : 64;
    if (!steady_platform_is_abstract(r->p) && cap > msg)
        cap = msg >= 1 ? (int)msg : 1;
    int least = algo <= STEADY_ALGO_TWOTREES && cap >= 2 ? 2 : 1;
    steady_hockney_t cur;
    bool any = false;
    for (size_t i = 0; i <= sizeof ladder / sizeof *ladder; i++) {
        int C = i < sizeof ladder / sizeof *ladder ? ladder[i] : cap;
        if (C < least || (C >= cap && i < sizeof ladder / sizeof *ladder))
            continue;
        steady_err_t rc = steady_hockney_evaluate(r, algo, op, root, msg, task_cost, C, series_ops,
                                                  hm, &cur, err);
        if (rc)
            return rc;
        if (!any || picked(&cur, pick) < picked(out, pick) * (1 - 1e-12))
            *out = cur;
        any = true;
    }
    return STEADY_OK;
}
