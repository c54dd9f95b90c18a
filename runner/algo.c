/*
 * algo.c — what one node does for a comparison algorithm (steady-run
 * --algo, runner.h, docs/running.md).  No MPI here.
 *
 * The algorithm's ranks are the platform's processors in node order
 * (compare.h); the MPI job has one rank per processor and router (the
 * platform's ranks), as for schedules.  steady_collective_actions gives
 * each algorithm rank its RECV / COMBINE / SEND actions for one operation.
 * Two things turn them into what a node runs:
 *
 * Routes.  The model charges a transfer between two processors to every
 * hop of its route (steady_routes_path): each hop's sender's send port and
 * receiver's receive port.  The executor does the same: a transfer is one
 * MPI message per hop — between two ranks joined by an edge, or through
 * switches, which the network forwards (SimGrid routes the message over
 * exactly the hop's links: the export declares one route per edge and per
 * hop, and steady reads a SimGrid file's routes as its hops) — and the
 * ranks in between, routers or processors that are not the transfer's
 * ends, receive and forward it.
 *
 * Order.  Each node has three streams, each in a fixed order repeated every
 * operation: its send port, its receive port and its CPU.  The order comes
 * from one global order of the operation's transfers: the actions executed
 * as blocking calls, rank after rank, matching a SEND with the RECV at the
 * head of its peer's list (compare.h guarantees this cannot deadlock); each
 * transfer then appends its hops, in route order, to the streams of the
 * nodes involved.  An algorithm rank's own sends and receives thus keep the
 * order of its action list, and forwarding nodes serve transfers in the
 * order they are made.  Each stream is sorted by period: chunk j of
 * operation k at hop depth d belongs to period k C + j + d; within a
 * period, by the slot order_hops gives the hop (a list schedule of the
 * period's hops on every node, so that peers' orders do not cross).  A two-tree
 * broadcast (TwoTreeC, TwoTreeS) instead follows the synchronous schedule
 * of its edge colouring (steady_collective_colour): an edge of colour c
 * fires in periods of c's parity, the first one after the chunk's arrival,
 * so a hop's depth grows by one or two.  Plain depths there serialise the
 * ports: a rank interior in one tree sends both its children a chunk in
 * the same period and nothing in the next, so its peers' receive orders
 * (a chunk from one tree, then one from the other) cross its send order,
 * and on a homogeneous complete graph TwoTreeC reached 0.50 and TwoTreeS
 * 0.34 of the model; with the colouring every port serves one chunk per
 * period, as the model counts (docs/comparison.md).  A two-tree reduce
 * runs the same schedule reversed: the edge child -> parent of colour c
 * fires in the first period of c's parity after the child's partial result
 * is complete (its send port serves its two parents' edges, its receive
 * port its children's, each pair two-coloured); in period order the root
 * reached 0.51 (TwoTreeC) and 0.80 (TwoTreeS) of the model there.  An
 * allreduce keeps plain depths (its ports carry both phases, which
 * order_hops interleaves).  With operations in
 * sequence (operation-major), the
 * earliest unfinished event of the run can always start — its port's
 * previous events, its inputs and the buffers of the operation `depth`
 * earlier on its node are all earlier in that order — so the pipelined run
 * cannot deadlock either (the argument of execute.c).
 *
 * Buffers of one operation on a node, at offsets fixed here: the
 * accumulator (reduce phase: S bytes, the rank's own value, then combined
 * with its children's partial results), the broadcast message (non-root
 * ranks: S bytes, chunk j at its bytes), one chunk per partial result
 * received, one chunk per forwarded hop.
 */
#include <stdlib.h>
#include <string.h>

#include "runner.h"

/* Operations whose buffers a node holds at once: enough that a receive
 * port may run an operation or two ahead of its send port. */
#define ALGO_DEPTH 4

void algo_chunk_bytes(size_t S, int C, int j, bool elements, size_t *lo, size_t *hi)
{
    if (elements) {
        size_t E = S / 8;
        *lo = 8 * (E * (size_t)j / (size_t)C);
        *hi = j == C - 1 ? S : 8 * (E * (size_t)(j + 1) / (size_t)C);
    } else {
        *lo = S * (size_t)j / (size_t)C;
        *hi = S * (size_t)(j + 1) / (size_t)C;
    }
}

typedef struct {
    int from, to; /* algorithm ranks */
    int phase, chunk, tree;
    int side; /* reduce: the side of the receiver's COMBINE */
} transfer_t;

/* The operation's transfers in one global order: the action lists run as
 * blocking calls (a SEND completes with the RECV at the head of its peer's
 * list).  *out is new (free). */
static steady_err_t global_order(const steady_collective_t *c, transfer_t **out, int *count,
                                 steady_error_t *err)
{
    int n = steady_collective_ranks(c), total = 0, done = 0, cap = 0;
    int *ptr = calloc((size_t)n, sizeof *ptr);
    transfer_t *t = NULL;
    steady_err_t rc = STEADY_OK;
    if (!ptr)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    for (int r = 0; r < n; r++)
        total += steady_collective_actions(c, r, NULL);
    cap = total; /* at least the number of sends */
    t = malloc((size_t)(cap ? cap : 1) * sizeof *t);
    if (!t) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto cleanup;
    }
    while (done < total) {
        bool progress = false;
        for (int r = 0; r < n; r++) {
            const steady_action_t *a, *b;
            int k = steady_collective_actions(c, r, &a);
            while (ptr[r] < k) {
                const steady_action_t *x = &a[ptr[r]];
                if (x->kind == STEADY_ACT_COMBINE) {
                    ptr[r]++, done++, progress = true;
                    continue;
                }
                if (x->kind == STEADY_ACT_RECV)
                    break;
                int q = x->peer, kq = steady_collective_actions(c, q, &b);
                if (ptr[q] >= kq || b[ptr[q]].kind != STEADY_ACT_RECV || b[ptr[q]].peer != r ||
                    (int)b[ptr[q]].phase != (int)x->phase || b[ptr[q]].chunk != x->chunk)
                    break;
                int side = 0;
                if (ptr[q] + 1 < kq && b[ptr[q] + 1].kind == STEADY_ACT_COMBINE)
                    side = b[ptr[q] + 1].side;
                t[*count] = (transfer_t){r, q, (int)x->phase, x->chunk, x->tree, side};
                (*count)++;
                ptr[r]++, ptr[q]++, done += 2, progress = true;
            }
        }
        if (!progress) {
            rc = steady_error_set(err, STEADY_EINVAL, "%s: the action lists deadlock",
                                  steady_algo_name(steady_collective_algo(c)));
            goto cleanup;
        }
    }
cleanup:
    free(ptr);
    if (rc) {
        free(t);
        return rc;
    }
    *out = t;
    return STEADY_OK;
}

/* Appends an event; returns its index or -1 (out of memory). */
static int add_event(algo_program_t *ap, int *cap, const ev_t *e)
{
    if (ap->nev == *cap) {
        int nc = *cap ? 2 * *cap : 64;
        ev_t *ne = realloc(ap->ev, (size_t)nc * sizeof *ne);
        if (!ne)
            return -1;
        ap->ev = ne;
        *cap = nc;
    }
    ap->ev[ap->nev] = *e;
    return ap->nev++;
}

/* One hop of the operation, on any node: what orders a period's hops. */
typedef struct {
    int bucket, src, dst;
    double cost; /* the time it holds its ports */
    int slot;    /* its place among the hops of its bucket */
} hop_t;

/* Places the hops of each bucket (the residue of their period mod chunks)
 * in one order, the same on every node, so that the two ends of a hop list
 * the messages between them alike.  A period's hops form a bipartite graph
 * of send ports and receive ports whose weighted degrees are the model's
 * busy times (model.c), and the model counts a period as long as the
 * busiest port.  A fixed order per port reaches that only if the orders of
 * peers do not cross: with the transfers' global order (an allreduce's
 * reduce hops, then its broadcast hops), a port that receives a reduce
 * chunk from one peer and a broadcast chunk from another makes the
 * broadcast's sender wait for the reduce's, and that sender's other
 * children wait in turn.  So the period is list-scheduled as a whole:
 * repeatedly the hop that can start first given its two ports (greedy open
 * shop), ties to the hop whose ports have the most work left, then to the
 * global order.  The slots are that schedule's start order.  O(H^2) for H
 * hops per bucket. */
static steady_err_t order_hops(hop_t *hop, int nhop, int nodes, steady_error_t *err)
{
    double *sfree = calloc((size_t)nodes, sizeof *sfree),
           *rfree = calloc((size_t)nodes, sizeof *rfree);
    double *sleft = calloc((size_t)nodes, sizeof *sleft),
           *rleft = calloc((size_t)nodes, sizeof *rleft);
    int nb = 0;
    steady_err_t rc = STEADY_OK;
    if (!sfree || !rfree || !sleft || !rleft) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto cleanup;
    }
    for (int i = 0; i < nhop; i++) {
        hop[i].slot = -1;
        if (hop[i].bucket + 1 > nb)
            nb = hop[i].bucket + 1;
    }
    for (int b = 0; b < nb; b++) {
        int left = 0;
        for (int v = 0; v < nodes; v++)
            sfree[v] = rfree[v] = sleft[v] = rleft[v] = 0;
        for (int i = 0; i < nhop; i++)
            if (hop[i].bucket == b) {
                sleft[hop[i].src] += hop[i].cost;
                rleft[hop[i].dst] += hop[i].cost;
                left++;
            }
        for (int slot = 0; slot < left; slot++) {
            int best = -1;
            double bstart = 0, bwork = 0;
            for (int i = 0; i < nhop; i++) {
                const hop_t *x = &hop[i];
                if (x->bucket != b || x->slot >= 0)
                    continue;
                double start = sfree[x->src] > rfree[x->dst] ? sfree[x->src] : rfree[x->dst];
                double work = sleft[x->src] + rleft[x->dst];
                if (best < 0 || start < bstart || (start == bstart && work > bwork)) {
                    best = i;
                    bstart = start;
                    bwork = work;
                }
            }
            hop_t *x = &hop[best];
            x->slot = slot;
            sfree[x->src] = rfree[x->dst] = bstart + x->cost;
            sleft[x->src] -= x->cost;
            rleft[x->dst] -= x->cost;
        }
    }
cleanup:
    free(sfree);
    free(rfree);
    free(sleft);
    free(rleft);
    return rc;
}

/* A stream's sort key: the period's residue (offset mod chunks), then the
 * hop's slot (order_hops; a combine takes its receive's); both ends of a
 * hop compute the same key, so they list the messages between them in the
 * same order. */
typedef struct {
    int bucket, slot, h, idx;
} skey_t;

static int by_key(const void *pa, const void *pb)
{
    const skey_t *a = pa, *b = pb;
    if (a->bucket != b->bucket)
        return a->bucket < b->bucket ? -1 : 1;
    if (a->slot != b->slot)
        return a->slot < b->slot ? -1 : 1;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

static steady_err_t make_stream(algo_program_t *ap, ev_kind_t kind, const hop_t *hop,
                                const int *hop_base, stream_t *st)
{
    int C = ap->chunks;
    st->list = malloc((size_t)(ap->nev + 1) * sizeof *st->list);
    st->start = calloc((size_t)C + 1, sizeof *st->start);
    if (!st->list || !st->start)
        return STEADY_ENOMEM;
    skey_t *keys = malloc((size_t)(ap->nev + 1) * sizeof *keys);
    if (!keys)
        return STEADY_ENOMEM;
    st->n = 0;
    for (int i = 0; i < ap->nev; i++) {
        const ev_t *e = &ap->ev[i];
        if (e->kind == kind)
            keys[st->n++] =
                (skey_t){(e->chunk + e->depth) % C, hop[hop_base[e->t] + e->h].slot, e->h, i};
    }
    qsort(keys, (size_t)st->n, sizeof *keys, by_key);
    for (int k = 0; k < st->n; k++)
        st->list[k] = keys[k].idx;
    free(keys);
    for (int k = 0; k < st->n; k++) {
        const ev_t *e = &ap->ev[st->list[k]];
        st->start[(e->chunk + e->depth) % C + 1]++;
    }
    for (int b = 0; b < C; b++)
        st->start[b + 1] += st->start[b];
    return STEADY_OK;
}

steady_err_t algo_program_build(const steady_collective_t *coll, const steady_platform_t *p,
                                const steady_routes_t *r, int me, long ops, size_t S,
                                double task_cost, algo_program_t *ap, steady_error_t *err)
{
    memset(ap, 0, sizeof *ap);
    steady_collop_t op = steady_collective_op(coll);
    int n = steady_collective_ranks(coll), C = steady_collective_chunks(coll);
    int nodes = steady_platform_node_count(p), ntr = 0, cap = 0;
    int *node_of = NULL, *path = NULL, *last_combine = NULL, *bcast_recv = NULL;
    int *comb_depth = NULL, *recv_depth = NULL; /* [rank * C + chunk], every rank */
    size_t *cur = NULL;                         /* per chunk: next free byte of its buffer */
    transfer_t *tr = NULL;
    hop_t *hop = NULL; /* every hop of the operation, on every node */
    int *hop_base = NULL, nhop = 0, hop_cap = 0;
    steady_err_t rc = STEADY_OK;
    bool elements = op != STEADY_COLL_BROADCAST;
    *ap = (algo_program_t){.p = p,
                           .algo = steady_collective_algo(coll),
                           .op = op,
                           .me = me,
                           .rank = -1,
                           .nranks = n,
                           .root = steady_collective_root(coll),
                           .chunks = C,
                           .ops = ops,
                           .S = S,
                           .task_cost = task_cost};
    ap->commutative = op != STEADY_COLL_BROADCAST && !steady_collective_order_preserving(coll);
    if (elements ? S / 8 < (size_t)C : S < (size_t)C)
        return steady_error_set(err, STEADY_EINVAL,
                                "a message of %zu bytes cannot be split into %d chunks (%s)", S, C,
                                elements ? "a reduce needs 8 bytes, one element, per chunk"
                                         : "one byte per chunk at least");
    node_of = malloc((size_t)n * sizeof *node_of);
    path = malloc((size_t)nodes * sizeof *path);
    last_combine = malloc((size_t)C * sizeof *last_combine);
    bcast_recv = malloc((size_t)C * sizeof *bcast_recv);
    comb_depth = malloc((size_t)n * (size_t)C * sizeof *comb_depth);
    recv_depth = malloc((size_t)n * (size_t)C * sizeof *recv_depth);
    cur = calloc((size_t)C, sizeof *cur);
    ap->chunk_events = calloc((size_t)C, sizeof *ap->chunk_events);
    ap->chunk_checked = calloc((size_t)C, sizeof *ap->chunk_checked);
    if (!node_of || !path || !last_combine || !bcast_recv || !comb_depth || !recv_depth || !cur ||
        !ap->chunk_events || !ap->chunk_checked)
        goto nomem;
    for (int v = 0, k = 0; v < nodes; v++)
        if (steady_platform_node(p, v)->kind == STEADY_PROCESSOR) {
            if (v == me)
                ap->rank = k;
            node_of[k++] = v;
        }
    ap->root_node = node_of[ap->root];
    for (int j = 0; j < C; j++)
        last_combine[j] = bcast_recv[j] = -1;
    for (size_t i = 0; i < (size_t)n * (size_t)C; i++)
        comb_depth[i] = recv_depth[i] = -1;
    if ((rc = global_order(coll, &tr, &ntr, err)))
        goto cleanup;
    if (!(hop_base = malloc((size_t)(ntr + 1) * sizeof *hop_base)))
        goto nomem;

    /* the rank's own buffers, per chunk: the accumulator, then the
     * broadcast message's chunk */
    size_t base = 0;
    for (int j = 0; j < C; j++) {
        size_t lo, hi;
        algo_chunk_bytes(S, C, j, elements, &lo, &hi);
        if (hi - lo > ap->max_chunk)
            ap->max_chunk = hi - lo;
    }
    long msg = 0;
    if (ap->rank >= 0) {
        if (op != STEADY_COLL_BROADCAST) {
            ap->has_acc = true;
            base = ap->max_chunk;
        }
        if (op != STEADY_COLL_REDUCE && ap->rank != ap->root) {
            msg = (long)base;
            base += ap->max_chunk;
        }
        bool checks = op == STEADY_COLL_BROADCAST
                          ? ap->rank != ap->root
                          : op == STEADY_COLL_ALLREDUCE || ap->rank == ap->root;
        for (int j = 0; checks && j < C; j++) {
            size_t lo, hi;
            algo_chunk_bytes(S, C, j, elements, &lo, &hi);
            ap->chunk_checked[j] = hi - lo;
        }
    }
    for (int j = 0; j < C; j++)
        cur[j] = base;

    /* Every transfer's hops, in the global order, which respects each
     * chunk's dependencies: so the depths of what a hop waits for are known
     * when it comes (they are computed for every rank, as a hop's depth
     * depends on what happened elsewhere). */
    for (int t = 0; t < ntr; t++) {
        const transfer_t *x = &tr[t];
        int hops = steady_routes_path(r, node_of[x->from], node_of[x->to], path);
        if (hops <= 0) {
            rc = steady_error_set(err, STEADY_EINVAL, "no route from %s to %s",
                                  steady_platform_node(p, node_of[x->from])->name,
                                  steady_platform_node(p, node_of[x->to])->name);
            goto cleanup;
        }
        size_t lo, hi;
        algo_chunk_bytes(S, C, x->chunk, elements, &lo, &hi);
        size_t fx = (size_t)x->from * (size_t)C + (size_t)x->chunk;
        size_t tx = (size_t)x->to * (size_t)C + (size_t)x->chunk;
        /* the depth of the data the first hop sends */
        int d0 =
            x->phase == STEADY_PHASE_REDUCE || (x->from == ap->root && op == STEADY_COLL_ALLREDUCE)
                ? comb_depth[fx]
            : x->from == ap->root ? -1
                                  : recv_depth[fx];
        /* a coloured edge fires in the steps of its colour's parity: a
         * broadcast edge parent -> child the first one after the chunk's
         * arrival, a reduce edge child -> parent (the same edge reversed,
         * its colour) the first one after the child's partial result is
         * complete */
        int colour = op == STEADY_COLL_BROADCAST ? steady_collective_colour(coll, x->tree, x->to)
                     : op == STEADY_COLL_REDUCE  ? steady_collective_colour(coll, x->tree, x->from)
                                                 : -1;
        if (colour >= 0 && (x->chunk + d0 + 1) % 2 != colour)
            d0++;
        int prev = -1; /* this node's receive of the previous hop */
        hop_base[t] = nhop;
        for (int h = 0; h < hops; h++) {
            const steady_hop_t *e = steady_hop_graph_hop(steady_routes_hops(r), path[h]);
            int depth = d0 + 1 + h;
            if (nhop == hop_cap) {
                int nc = hop_cap ? 2 * hop_cap : 64;
                hop_t *nh = realloc(hop, (size_t)nc * sizeof *nh);
                if (!nh)
                    goto nomem;
                hop = nh;
                hop_cap = nc;
            }
            hop[nhop++] = (hop_t){(x->chunk + depth) % C, e->src, e->dst,
                                  steady_hop_time(p, e, (double)(hi - lo)), -1};
            ev_t ev = {.phase = x->phase,
                       .chunk = x->chunk,
                       .lo = lo,
                       .hi = hi,
                       .partial = -1,
                       .side = x->side,
                       .dep = {-1, -1},
                       .depth = depth,
                       .t = t,
                       .h = h};
            int idx;
            if (e->src == me) {
                ev.kind = EV_SEND;
                ev.peer = e->dst;
                if (h > 0) {
                    ev.data = ap->ev[prev].data;
                    ev.dep[0] = prev;
                } else if (x->phase == STEADY_PHASE_REDUCE ||
                           (x->from == ap->root && op == STEADY_COLL_ALLREDUCE)) {
                    ev.data = 0; /* the accumulator */
                    ev.dep[0] = last_combine[x->chunk];
                } else if (x->from == ap->root) {
                    ev.data = -1; /* the broadcast root's message, generated */
                } else {
                    ev.data = msg;
                    ev.dep[0] = bcast_recv[x->chunk];
                }
                if ((idx = add_event(ap, &cap, &ev)) < 0)
                    goto nomem;
            } else if (e->dst == me) {
                ev.kind = EV_RECV;
                ev.peer = e->src;
                if (h < hops - 1) {
                    ev.data = (long)cur[x->chunk];
                    cur[x->chunk] += hi - lo;
                    if ((prev = add_event(ap, &cap, &ev)) < 0)
                        goto nomem;
                } else if (x->phase == STEADY_PHASE_BROADCAST) {
                    ev.data = msg;
                    ev.check = op == STEADY_COLL_BROADCAST ? CHECK_BCAST : CHECK_RESULT;
                    if ((idx = add_event(ap, &cap, &ev)) < 0)
                        goto nomem;
                    bcast_recv[x->chunk] = idx;
                } else {
                    ev.data = (long)cur[x->chunk];
                    cur[x->chunk] += hi - lo;
                    if ((idx = add_event(ap, &cap, &ev)) < 0)
                        goto nomem;
                    /* its combine: after the receive and the chunk's
                     * previous combine (the construction's order, which
                     * a non-commutative operator needs) */
                    ev_t cb = ev;
                    cb.kind = EV_COMBINE;
                    cb.peer = -1;
                    cb.partial = ev.data;
                    cb.dep[0] = idx;
                    cb.dep[1] = last_combine[x->chunk];
                    cb.depth = (depth > comb_depth[tx] ? depth : comb_depth[tx]) + 1;
                    if ((idx = add_event(ap, &cap, &cb)) < 0)
                        goto nomem;
                    last_combine[x->chunk] = idx;
                }
            }
        }
        int last = d0 + hops;
        if (x->phase == STEADY_PHASE_BROADCAST)
            recv_depth[tx] = last;
        else
            comb_depth[tx] = (last > comb_depth[tx] ? last : comb_depth[tx]) + 1;
    }
    /* the root's reduce result is complete after its last combine of each
     * chunk */
    if (ap->rank == ap->root && op != STEADY_COLL_BROADCAST)
        for (int j = 0; j < C; j++)
            if (last_combine[j] >= 0)
                ap->ev[last_combine[j]].check = CHECK_RESULT;

    int dmin = 0, dmax = 0;
    for (int i = 0; i < ap->nev; i++) {
        const ev_t *e = &ap->ev[i];
        ap->chunk_events[e->chunk]++;
        if (i == 0 || e->depth < dmin)
            dmin = e->depth;
        if (i == 0 || e->depth > dmax)
            dmax = e->depth;
        if (e->chunk + e->depth > ap->max_offset)
            ap->max_offset = e->chunk + e->depth;
    }
    /* A chunk's buffers are reused by the chunk `depth` later (ring by
     * chunk number op * C + j), once its events here are done.  Every
     * event of chunk u here is in a period in [u + dmin, u + dmax]: with
     * depth > dmax - dmin they all come before those of chunk u + depth,
     * which is what the no-deadlock argument needs; one more lets this
     * node start a chunk while finishing the previous one. */
    ap->depth = dmax - dmin + 2;
    for (int j = 0; j < C; j++)
        if (cur[j] > ap->unit_bytes)
            ap->unit_bytes = cur[j];
    if ((rc = order_hops(hop, nhop, nodes, err)))
        goto cleanup;
    if (make_stream(ap, EV_SEND, hop, hop_base, &ap->send) ||
        make_stream(ap, EV_RECV, hop, hop_base, &ap->recv) ||
        make_stream(ap, EV_COMBINE, hop, hop_base, &ap->cpu))
        goto nomem;
    goto cleanup;
nomem:
    rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
cleanup:
    free(node_of);
    free(path);
    free(last_combine);
    free(bcast_recv);
    free(comb_depth);
    free(recv_depth);
    free(cur);
    free(tr);
    free(hop);
    free(hop_base);
    return rc;
}

static void stream_free(stream_t *st)
{
    free(st->list);
    free(st->start);
}

void algo_program_free(algo_program_t *ap)
{
    free(ap->ev);
    stream_free(&ap->send);
    stream_free(&ap->recv);
    stream_free(&ap->cpu);
    free(ap->chunk_events);
    free(ap->chunk_checked);
    memset(ap, 0, sizeof *ap);
}
