/*
 * algo_exec.c — the self-timed execution of a comparison algorithm's
 * program (algo.c) over MPI: steady-run --algo (docs/running.md).
 *
 * The discipline is the schedule executor's (execute.c), so that both
 * measure under the same rules — the one-port model's:
 *   send port     one message in flight at a time (MPI_Isend), in stream
 *                 order, started when the previous one has completed and
 *                 its data is there (the chunk received from the parent, the
 *                 accumulator after its last combine, the previous hop);
 *   receive port  one receive posted at a time (MPI_Irecv), in stream order;
 *   CPU           combines one after another, in stream order, charged
 *                 task_cost / chunks flop at the node's speed under SMPI.
 * Every stream is ordered by "period", as in the model's throughput
 * argument: chunk j of operation k at hop depth d (in its tree) belongs to
 * period k C + j + d, so a port interleaves the chunks of consecutive
 * operations as a pipelined tree does, without any barrier.  A node holds
 * the buffers of `depth` chunks (a ring by chunk number k C + j, see
 * algo.c); a chunk's events wait until those of the chunk `depth` earlier
 * on the node are all done.
 *
 * Checking.  Broadcast: every chunk, where it arrives at an algorithm rank,
 * against the root's message recomputed (payload.c).  Reduce: the root's
 * accumulator after the last combine of each chunk against v_0 (+) ... (+)
 * v_{P-1} recomputed directly; allreduce: that, and every chunk of the
 * result where a rank receives it.  The bytes checked per operation on a
 * node must add up to the message (FLAG_LOST / FLAG_DUPLICATED otherwise).
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

/* as in execute.c: the stall fault waits for a tag nothing sends */
#define STALL_TAG 32767

enum { A_SEND, A_RECV, A_CPU, A_KINDS };

/* The buffers of one chunk of one operation (unit = op * chunks + chunk). */
typedef struct {
    long unit; /* -1: none yet */
    int left;  /* its events on this node still to complete */
    size_t checked;
    unsigned char *done; /* per event */
    unsigned char *data; /* unit_bytes */
} aslot_t;

/* A position in a stream: period q, index i in its bucket; ev and op: the
 * event there and its operation. */
typedef struct {
    long q;
    int i;
    bool more;
    int ev;
    long op;
} acur_t;

typedef struct {
    algo_program_t *ap;
    const fault_t *fault;
    bool fired;
    watch_t *w;
    uint8_t *flags;
    run_stats_t *st;
    double t0, last;
    int nactive;
    double since[A_KINDS], any_since;
    acur_t send, recv, cpu;
    MPI_Request req[2];
    acur_t inflight, posted;
    aslot_t *slots;
    unsigned char *sbuf, *scratch;
} aexec_t;

static void activity(aexec_t *x, int kind, bool on)
{
    double now = MPI_Wtime();
    long op = x->ap->ops; /* the operation of the stream furthest behind */
    const acur_t *c[] = {&x->send, &x->recv, &x->cpu};
    for (int k = 0; k < 3; k++)
        if (c[k]->more && c[k]->op < op)
            op = c[k]->op;
    watch_tick(x->w, now, "operation", (double)op, (double)x->ap->ops);
    if (on) {
        if (x->nactive++ == 0)
            x->any_since = now;
        x->since[kind] = now;
        return;
    }
    double *acc = kind == A_SEND ? &x->st->send : kind == A_RECV ? &x->st->recv : &x->st->cpu;
    *acc += now - x->since[kind];
    if (--x->nactive == 0)
        x->st->busy += now - x->any_since;
    x->last = now;
}

/* Moves c to the next event of stream st that exists, from c on: in
 * period q, the events of bucket q mod C, each for operation (q - offset)
 * / C when that is one of the run's. */
static void seek(const algo_program_t *ap, const stream_t *st, acur_t *c)
{
    int C = ap->chunks;
    long qmax = (ap->ops - 1) * C + ap->max_offset;
    for (; c->q <= qmax; c->q++, c->i = 0) {
        int b = (int)(c->q % C), len = st->start[b + 1] - st->start[b];
        for (; c->i < len; c->i++) {
            int e = st->list[st->start[b] + c->i];
            long off = ap->ev[e].chunk + ap->ev[e].depth, op = (c->q - off) / C;
            if (c->q >= off && op < ap->ops) {
                c->ev = e;
                c->op = op;
                return;
            }
        }
    }
    c->more = false;
}

static void advance(const algo_program_t *ap, const stream_t *st, acur_t *c)
{
    c->i++;
    seek(ap, st, c);
}

/* The slot of event e of operation op, claimed if it is free; NULL while
 * the chunk `depth` earlier still uses it.  Claiming puts the rank's own
 * value in the accumulator.  An event that waits for another of its chunk
 * (e->dep) never claims: that one claims first.  Otherwise a port running
 * `depth` chunks ahead of another (a send stream ahead of the receive
 * stream that feeds it) would take the slot of a chunk its node has not
 * finished, and wait for it forever — only the earliest unfinished event
 * may take a slot, which is what the no-deadlock argument assumes. */
static aslot_t *slot_for(aexec_t *x, const ev_t *e, long op)
{
    const algo_program_t *ap = x->ap;
    long unit = op * ap->chunks + e->chunk;
    aslot_t *s = &x->slots[unit % ap->depth];
    if (s->unit == unit)
        return s;
    if ((s->unit >= 0 && s->left > 0) || e->dep[0] >= 0 || e->dep[1] >= 0)
        return NULL;
    s->unit = unit;
    s->left = ap->chunk_events[e->chunk];
    s->checked = 0;
    memset(s->done, 0, (size_t)ap->nev);
    if (ap->has_acc)
        payload_fill((value_t){STEADY_OP_REDUCE, ap->rank, ap->rank, ap->commutative}, op, ap->S,
                     e->lo, e->hi, s->data);
    return s;
}

/* Event i of slot s is done; the chunk is closed with its last event
 * here: the bytes it checked must be the chunk's. */
static void event_done(aexec_t *x, aslot_t *s, int i)
{
    const algo_program_t *ap = x->ap;
    s->done[i] = 1;
    if (--s->left > 0)
        return;
    long op = s->unit / ap->chunks;
    size_t want = ap->chunk_checked[s->unit % ap->chunks];
    if (s->checked < want)
        x->flags[op] |= FLAG_LOST;
    else if (s->checked > want)
        x->flags[op] |= FLAG_DUPLICATED;
}

static bool deps_done(const aslot_t *s, const ev_t *e)
{
    return (e->dep[0] < 0 || s->done[e->dep[0]]) && (e->dep[1] < 0 || s->done[e->dep[1]]);
}

/* Checks a chunk that reached an algorithm rank. */
static void check_chunk(aexec_t *x, aslot_t *s, const ev_t *e, const unsigned char *data)
{
    const algo_program_t *ap = x->ap;
    value_t v = e->check == CHECK_BCAST
                    ? (value_t){STEADY_OP_BROADCAST, ap->root, 0, false}
                    : (value_t){STEADY_OP_REDUCE, 0, ap->nranks - 1, ap->commutative};
    long op = s->unit / ap->chunks;
    if (!payload_check(v, op, ap->S, e->lo, e->hi, data, x->scratch))
        x->flags[op] |= FLAG_CORRUPT;
    s->checked += e->hi - e->lo;
}

/* The die and stall faults, when this node reaches the operation. */
static void maybe_fail(aexec_t *x, long op)
{
    if (x->fired || x->fault->rank != steady_platform_rank_of(x->ap->p, x->ap->me) ||
        x->fault->op != op ||
        (x->fault->kind != FAULT_DIE && x->fault->kind != FAULT_STALL))
        return;
    x->fired = true;
    fflush(stdout);
    if (x->fault->kind == FAULT_DIE)
        raise(SIGKILL);
    unsigned char never;
    MPI_Recv(&never, 1, MPI_BYTE, MPI_ANY_SOURCE, STALL_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static bool try_send(aexec_t *x)
{
    algo_program_t *ap = x->ap;
    if (x->req[0] != MPI_REQUEST_NULL || !x->send.more)
        return false;
    const ev_t *e = &ap->ev[x->send.ev];
    long op = x->send.op;
    aslot_t *s = slot_for(x, e, op);
    if (!s || !deps_done(s, e))
        return false;
    maybe_fail(x, op);
    size_t len = e->hi - e->lo;
    unsigned char *buf;
    if (e->data < 0) {
        payload_fill((value_t){STEADY_OP_BROADCAST, ap->root, 0, false}, op, ap->S, e->lo, e->hi,
                     x->sbuf);
        buf = x->sbuf;
    } else {
        buf = s->data + e->data;
    }
    if (x->fault->kind == FAULT_CORRUPT && !x->fired &&
        x->fault->rank == steady_platform_rank_of(ap->p, ap->me) &&
        x->fault->op == op) {
        if (buf != x->sbuf)
            memcpy(x->sbuf, buf, len);
        buf = x->sbuf;
        buf[0] ^= 1;
        x->fired = true;
    }
    MPI_Isend(buf, (int)len, MPI_BYTE, steady_platform_rank_of(ap->p, e->peer),
              (int)(op % STALL_TAG), MPI_COMM_WORLD, &x->req[0]);
    x->st->messages++;
    x->st->bytes += (double)len;
    x->inflight = x->send;
    activity(x, A_SEND, true);
    advance(ap, &ap->send, &x->send);
    return true;
}

static bool try_recv(aexec_t *x)
{
    algo_program_t *ap = x->ap;
    if (x->req[1] != MPI_REQUEST_NULL || !x->recv.more)
        return false;
    const ev_t *e = &ap->ev[x->recv.ev];
    long op = x->recv.op;
    aslot_t *s = slot_for(x, e, op);
    if (!s)
        return false;
    maybe_fail(x, op);
    MPI_Irecv(s->data + e->data, (int)(e->hi - e->lo), MPI_BYTE,
              steady_platform_rank_of(ap->p, e->peer), (int)(op % STALL_TAG),
              MPI_COMM_WORLD, &x->req[1]);
    x->posted = x->recv;
    activity(x, A_RECV, true);
    advance(ap, &ap->recv, &x->recv);
    return true;
}

static void complete(aexec_t *x, int idx, MPI_Status *status)
{
    algo_program_t *ap = x->ap;
    if (idx == 0) {
        activity(x, A_SEND, false);
        int i = x->inflight.ev;
        event_done(x, slot_for(x, &ap->ev[i], x->inflight.op), i);
    } else if (idx == 1) {
        int i = x->posted.ev, count;
        const ev_t *e = &ap->ev[i];
        MPI_Get_count(status, MPI_BYTE, &count);
        if ((size_t)count != e->hi - e->lo) {
            char why[96];
            snprintf(why, sizeof why, "received %d bytes instead of %zu", count, e->hi - e->lo);
            watch_fail(x->w, why);
        }
        activity(x, A_RECV, false);
        aslot_t *s = slot_for(x, e, x->posted.op);
        if (e->check != CHECK_NONE)
            check_chunk(x, s, e, s->data + e->data);
        event_done(x, s, i);
    }
}

static void poll_ports(void *ctx)
{
    aexec_t *x = ctx;
    for (;;) {
        int idx, done;
        MPI_Status status;
        MPI_Testany(2, x->req, &idx, &done, &status);
        if (!done || idx == MPI_UNDEFINED)
            break;
        complete(x, idx, &status);
    }
    while (try_send(x) || try_recv(x))
        ;
}

static bool try_cpu(aexec_t *x)
{
    algo_program_t *ap = x->ap;
    if (!x->cpu.more)
        return false;
    int i = x->cpu.ev;
    const ev_t *e = &ap->ev[i];
    long op = x->cpu.op;
    aslot_t *s = slot_for(x, e, op);
    if (!s || !deps_done(s, e))
        return false;
    maybe_fail(x, op);
    activity(x, A_CPU, true);
    advance(ap, &ap->cpu, &x->cpu);
    unsigned char *acc = s->data, *part = s->data + e->partial;
    size_t len = e->hi - e->lo;
    bool swap = fault_swaps(x->fault, &x->fired, steady_platform_rank_of(ap->p, ap->me), op);
    if ((e->side < 0) != swap)
        payload_combine(part, acc, len, ap->commutative, acc);
    else
        payload_combine(acc, part, len, ap->commutative, acc);
    if (e->check != CHECK_NONE)
        check_chunk(x, s, e, acc);
    run_task_time(ap->task_cost / ap->chunks, poll_ports, x);
    x->st->tasks++;
    activity(x, A_CPU, false);
    event_done(x, s, i);
    return true;
}

static void describe(const void *ctx, char *buf, size_t size)
{
    const aexec_t *x = ctx;
    const algo_program_t *ap = x->ap;
    size_t len = 0;
    buf[0] = '\0';
    if (x->fired && x->fault->kind == FAULT_STALL) {
        snprintf(buf, size, "stalled on purpose at operation %ld (STEADY_RUN_FAULT)", x->fault->op);
        return;
    }
    const struct {
        const char *what;
        const acur_t *c;
        bool busy;
    } parts[3] = {
        {"the send", x->req[0] != MPI_REQUEST_NULL ? &x->inflight : &x->send,
         x->req[0] != MPI_REQUEST_NULL},
        {"the receive", x->req[1] != MPI_REQUEST_NULL ? &x->posted : &x->recv,
         x->req[1] != MPI_REQUEST_NULL},
        {"the combine", &x->cpu, false},
    };
    for (int k = 0; k < 3 && len + 1 < size; k++) {
        const acur_t *c = parts[k].c;
        if (!parts[k].busy && !c->more)
            continue;
        const ev_t *e = &ap->ev[c->ev];
        snprintf(buf + len, size - len, "%s%s%s of operation %ld chunk %d %s %s", len ? "; " : "",
                 parts[k].busy || k == 2 ? "" : "(waiting) ", parts[k].what, c->op, e->chunk,
                 k == 0   ? "to"
                 : k == 1 ? "from"
                          : "of the partial result of rank",
                 k == 2 ? steady_platform_node(ap->p, ap->me)->name
                        : steady_platform_node(ap->p, e->peer)->name);
        len = strlen(buf);
    }
}

steady_err_t algo_execute(algo_program_t *ap, const fault_t *fault, watch_t *w, uint8_t *flags,
                          run_stats_t *st, steady_error_t *err)
{
    aexec_t x = {.ap = ap, .fault = fault, .w = w, .flags = flags, .st = st};
    steady_err_t rc = STEADY_OK;
    memset(st, 0, sizeof *st);
    x.req[0] = x.req[1] = MPI_REQUEST_NULL;
    x.slots = calloc((size_t)ap->depth, sizeof *x.slots);
    x.sbuf = malloc(ap->max_chunk + 1);
    x.scratch = malloc(PAYLOAD_CHUNK);
    if (!x.slots || !x.sbuf || !x.scratch)
        goto nomem;
    for (int k = 0; k < ap->depth; k++) {
        x.slots[k].unit = -1;
        x.slots[k].done = malloc((size_t)ap->nev + 1);
        x.slots[k].data = malloc(ap->unit_bytes + 1);
        if (!x.slots[k].done || !x.slots[k].data)
            goto nomem;
    }
    run_configure();
    x.send = x.recv = x.cpu = (acur_t){.more = true};
    seek(ap, &ap->send, &x.send);
    seek(ap, &ap->recv, &x.recv);
    seek(ap, &ap->cpu, &x.cpu);

    x.t0 = x.last = w->progress = MPI_Wtime();
    w->describe = describe;
    w->ctx = &x;
    for (;;) {
        while (try_send(&x) || try_recv(&x) || try_cpu(&x))
            ;
        if (x.req[0] == MPI_REQUEST_NULL && x.req[1] == MPI_REQUEST_NULL) {
            if (!x.send.more && !x.recv.more && !x.cpu.more)
                break;
            watch_fail(w, "cannot progress (an executor bug)");
        }
        MPI_Status status;
        int idx = run_wait_any(2, x.req, &status, w);
        complete(&x, idx, &status);
    }
    st->elapsed = x.last - x.t0;
    w->describe = NULL;
    w->ctx = NULL;
    goto cleanup;
nomem:
    rc = steady_error_set(err, STEADY_ENOMEM, "out of memory for %d chunks of %zu bytes", ap->depth,
                          ap->unit_bytes);
cleanup:
    if (x.slots)
        for (int k = 0; k < ap->depth; k++) {
            free(x.slots[k].done);
            free(x.slots[k].data);
        }
    free(x.slots);
    free(x.sbuf);
    free(x.scratch);
    return rc;
}
