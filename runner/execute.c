/*
 * execute.c — the self-timed execution of one rank's program over MPI
 * (runner.h, docs/running.md).
 *
 * Semantics: those of the one-port replay (schedule/replay.c).  The rank
 * owns three resources, each working through its list in program order
 * (period by period, in slot order, the tasks in the compute list's
 * order), and nothing else orders them — no clock, no barrier:
 *   send port     one message in flight at a time: a message starts
 *                 (MPI_Isend) when the previous one has completed and every
 *                 part it carries is available;
 *   receive port  one receive posted at a time (MPI_Irecv), posted when the
 *                 previous one has completed and the ring entries it fills
 *                 are free; a slot is a matching, so the sender of the
 *                 posted message is the only one transferring to us;
 *   CPU           a task runs when its inputs are available and its output
 *                 entry is free, one after another.
 * A part is available when the producer pieces overlapping its positions
 * have completed for the same batch (program.c), or at once for an initial
 * value, which is generated on the fly.  Waits use MPI_Waitany (SMPI: the
 * simulated clock must not be driven by polling) or MPI_Testany polling
 * (plain MPI: so that a stalled peer is noticed after --timeout seconds);
 * during a task the ports are polled (task_time), and under SMPI a
 * watchdog actor stands for the timeout (the progress watch below).
 *
 * No deadlock for a valid schedule.  Every event waits only for events
 * earlier in the global program (the previous message of its port, the
 * producer pieces, which a valid schedule places earlier, and the readers
 * of the batch an entry held, which run in earlier periods).  The earliest
 * unfinished event of the whole run therefore always can start — for a
 * transfer, both ends reach it: the sender's earlier sends and the
 * receiver's earlier receives are done — so the run always progresses.  A
 * rank that cannot progress with nothing in flight has been given an
 * invalid schedule: it says what it waits for and aborts the job, as does
 * a rank that sees no progress for --timeout seconds (a dead or stalled
 * peer).
 *
 * Checking.  A delivered result (a message at its destination, the
 * broadcast at each target, v[0,N-1] at the target — received or computed
 * there) is compared with the recomputed payload, part by part, and its
 * bytes are counted per message position of the batch: a position that got
 * fewer than S bytes was lost, more than S duplicated.  The outcome goes to
 * one flag byte per operation (FLAG_*), OR-ed over the ranks by the caller.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

/* smpicc builds include SimGrid's mpi.h, which includes smpi/smpi.h */
#ifdef SMPI_H
#define RUN_SMPI 1
#include <simgrid/actor.h>
#include <simgrid/engine.h>
#include <simgrid/exec.h>
#include <simgrid/host.h>
#include <unistd.h>
#include <xbt/config.h>
#else
#define RUN_SMPI 0
#endif

/* SMPI: how many times the ports are looked at during one task. */
#define TASK_POLLS 16

/* Messages of period q carry tag q mod STALL_TAG; the stall fault waits
 * for STALL_TAG, which nothing sends (MPI guarantees tags up to 32767). */
#define STALL_TAG 32767

enum { A_SEND, A_RECV, A_CPU, A_KINDS };

/* A position in a list of a period: the event of index i in period q. */
typedef struct {
    long q;
    int i;
    bool more; /* false once the list is exhausted for the whole run */
} cursor_t;

struct exec {
    program_t *pg;
    const fault_t *fault;
    bool fired; /* the fault has happened */
    watch_t *w;
    uint8_t *flags;
    run_stats_t *st;
    double t0, last; /* start, last completion (MPI_Wtime) */
    int nactive;
    double since[A_KINDS], any_since;
    cursor_t send, recv, cpu;  /* the next message or task of each stream */
    MPI_Request req[2];        /* the send in flight, the posted receive */
    cursor_t inflight, posted; /* their messages */
    size_t rlen;
    unsigned char *sbuf, *rbuf, *scratch, *in[2], *out;
};
typedef struct exec exec_t;

/* ---- positions, bytes and entries ---------------------------------------- */

/* The batch piece x works on in period q; *n receives the number of
 * positions of that batch, or 0 when the piece has nothing to do in q. */
static long piece_batch(const program_t *pg, const piece_t *x, long q, long *n)
{
    const pstep_t *ps = &pg->steps[x->flat];
    long b = q - ps->lag;
    *n = 0;
    if (b >= 0 && b < pg->P) {
        long m = program_batch_size(pg, ps->tree, b);
        if (x->lo < m)
            *n = m;
    }
    return b;
}

/* The bytes [*lo, *hi) of the batch's value that transfer x carries when
 * the batch has n positions. */
static void piece_span(const program_t *pg, const piece_t *x, long n, size_t *lo, size_t *hi)
{
    *lo = (size_t)x->lo * pg->S + x->off;
    *hi = n >= x->hi ? (size_t)(x->hi - 1) * pg->S + x->end : (size_t)n * pg->S;
}

static entry_t *entry_of(const program_t *pg, int flat, long b)
{
    const pstep_t *ps = &pg->steps[flat];
    return &ps->ring[b % ps->depth];
}

/* Pieces of step f, or pieces reading its output, that exist in a batch
 * of n positions. */
static int count_existing(const program_t *pg, const int *list, int count, long n)
{
    int c = 0;
    for (int i = 0; i < count; i++)
        c += pg->pieces[list[i]].lo < n;
    return c;
}

/* True when step f's entry for batch b holds it or may take it: the batch
 * it held is complete and read by all its readers. */
static bool claimable(const program_t *pg, int f, long b)
{
    const entry_t *e = entry_of(pg, f, b);
    return e->batch == b || (e->pieces_left == 0 && e->readers_left == 0);
}

static void claim(const program_t *pg, int f, long b, long n)
{
    entry_t *e = entry_of(pg, f, b);
    const pstep_t *ps = &pg->steps[f];
    if (e->batch == b)
        return;
    e->batch = b;
    e->pieces_left = count_existing(pg, pg->by_step + ps->first, ps->count, n);
    e->readers_left = count_existing(pg, pg->readers + ps->rfirst, ps->rcount, n);
    memset(e->done, 0, (size_t)ps->count);
}

/* True when the producer pieces that piece x needs for batch b (n
 * positions) have completed. */
static bool inputs_ready(const program_t *pg, const piece_t *x, long b, long n)
{
    for (int d = 0; d < x->ndep; d++) {
        const dep_t *dp = &pg->deps[x->dep + d];
        if (dp->from >= n)
            continue; /* the common positions do not exist in this batch */
        const piece_t *y = &pg->pieces[dp->piece];
        const entry_t *e = entry_of(pg, y->flat, b);
        if (e->batch != b || !e->done[y->index])
            return false;
    }
    return true;
}

/* Marks batch b of step f read by one more of its readers. */
static void release(const program_t *pg, int f, long b)
{
    entry_of(pg, f, b)->readers_left--;
}

/* ---- the run's bookkeeping ------------------------------------------------- */

static void activity(exec_t *x, int kind, bool on)
{
    double now = MPI_Wtime();
    long q = x->pg->P + x->pg->L; /* the period of the stream furthest behind */
    const cursor_t *c[] = {&x->send, &x->recv, &x->cpu};
    for (int k = 0; k < 3; k++)
        if (c[k]->more && c[k]->q < q)
            q = c[k]->q;
    watch_tick(x->w, now, "period", (double)q, (double)(x->pg->P + x->pg->L));
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

/* Closes final step f's counters for batch b: positions with fewer bytes
 * than a message were lost, with more duplicated. */
static void close_batch(exec_t *x, int f, long b)
{
    const program_t *pg = x->pg;
    pstep_t *ps = &pg->steps[f];
    long n = program_batch_size(pg, ps->tree, b);
    for (long j = 0; j < n; j++) {
        if (ps->got[j] < pg->S)
            x->flags[program_op(pg, ps->tree, b, j, NULL)] |= FLAG_LOST;
        else if (ps->got[j] > pg->S)
            x->flags[program_op(pg, ps->tree, b, j, NULL)] |= FLAG_DUPLICATED;
        ps->got[j] = 0;
    }
}

/* Final step f delivers batch b: the batches since the one it delivered
 * last are closed (those it skipped entirely count as lost). */
static void deliver_batch(exec_t *x, int f, long b)
{
    pstep_t *ps = &x->pg->steps[f];
    if (ps->seen == b)
        return;
    for (long c = ps->seen < 0 ? 0 : ps->seen; c < b; c++)
        close_batch(x, f, c);
    ps->seen = b;
}

/* Checks bytes [lo, hi) of final step f's batch b, received in data, and
 * counts them per position. */
static void check_span(exec_t *x, int f, long b, size_t lo, size_t hi, const unsigned char *data)
{
    const program_t *pg = x->pg;
    pstep_t *ps = &pg->steps[f];
    deliver_batch(x, f, b);
    for (size_t j = lo / pg->S; lo < hi && j * pg->S < hi; j++) {
        size_t a = j * pg->S > lo ? j * pg->S : lo;
        size_t c = (j + 1) * pg->S < hi ? (j + 1) * pg->S : hi;
        size_t at;
        long op = program_op(pg, ps->tree, b, (long)j, &at);
        if (!payload_check(ps->value, op, pg->m * pg->S, at + a - j * pg->S, at + c - j * pg->S,
                           data + (a - lo), x->scratch))
            x->flags[op] |= FLAG_CORRUPT;
        ps->got[j] += c - a;
    }
}

/* Bytes [lo, hi) of batch b of the initial value that step f sends. */
static void fill_span(const program_t *pg, int f, long b, size_t lo, size_t hi, unsigned char *out)
{
    const pstep_t *ps = &pg->steps[f];
    value_t v = ps->value;
    for (size_t j = lo / pg->S; lo < hi && j * pg->S < hi; j++) {
        size_t a = j * pg->S > lo ? j * pg->S : lo;
        size_t c = (j + 1) * pg->S < hi ? (j + 1) * pg->S : hi;
        size_t at;
        long op = program_op(pg, ps->tree, b, (long)j, &at);
        payload_fill(v, op, pg->m * pg->S, at + a - j * pg->S, at + c - j * pg->S, out + (a - lo));
    }
}

/* ---- faults ---------------------------------------------------------------- */

/* True when piece x touches operation op (one of its segments) in batch b
 * of n positions; *j receives the first such position. */
static bool touches(const program_t *pg, const piece_t *x, long b, long n, long op, long *j)
{
    long lo = op * pg->m - program_msg(pg, pg->steps[x->flat].tree, b, 0), hi = lo + pg->m;
    *j = lo > x->lo ? lo : x->lo;
    return *j < hi && *j < x->hi && *j < n;
}

/* The die and stall faults, when this rank reaches the operation. */
static void maybe_fail(exec_t *x, const piece_t *piece, long b, long n)
{
    long j;
    if (x->fired || x->fault->rank != steady_platform_rank_of(x->pg->p, x->pg->me) ||
        (x->fault->kind != FAULT_DIE && x->fault->kind != FAULT_STALL) ||
        !touches(x->pg, piece, b, n, x->fault->op, &j))
        return;
    x->fired = true;
    fflush(stdout);
    if (x->fault->kind == FAULT_DIE)
        raise(SIGKILL);
    unsigned char never;
    MPI_Recv(&never, 1, MPI_BYTE, MPI_ANY_SOURCE, STALL_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

/* ---- the progress watch ------------------------------------------------------ */

/* Appends "what period q slot s to|from PEER" for the message at cursor c. */
static void describe_msg(const program_t *pg, char *buf, size_t size, const char *what,
                         const pmsg_t *list, const cursor_t *c)
{
    const pmsg_t *m = &list[c->i];
    size_t len = strlen(buf);
    snprintf(buf + len, size - len, "%s%s period %ld slot %d %s %s", len ? "; " : "", what, c->q,
             m->slot, list == pg->send ? "to" : "from", steady_platform_node(pg->p, m->peer)->name);
}

/* What the execution waits for, on one line (watch_t.describe). */
static void describe_exec(const void *ctx, char *buf, size_t size)
{
    const exec_t *x = ctx;
    const program_t *pg = x->pg;
    buf[0] = '\0';
    if (x->fired && x->fault->kind == FAULT_STALL) {
        snprintf(buf, size, "stalled on purpose at operation %ld (STEADY_RUN_FAULT)", x->fault->op);
        return;
    }
    if (x->req[0] != MPI_REQUEST_NULL)
        describe_msg(pg, buf, size, "the send of", pg->send, &x->inflight);
    else if (x->send.more)
        describe_msg(pg, buf, size, "a send waiting for its data:", pg->send, &x->send);
    if (x->req[1] != MPI_REQUEST_NULL)
        describe_msg(pg, buf, size, "the receive of", pg->recv, &x->posted);
    else if (x->recv.more)
        describe_msg(pg, buf, size, "a receive waiting for a free buffer:", pg->recv, &x->recv);
    if (x->cpu.more) {
        const pstep_t *ps = &pg->steps[pg->pieces[pg->task[x->cpu.i]].flat];
        size_t len = strlen(buf);
        snprintf(buf + len, size - len, "%sa task of period %ld (tree %d step %d) waiting",
                 len ? "; " : "", x->cpu.q, ps->tree, ps->step);
    }
}

/* Prints "steady-run: NODE (rank r): why: what it waits for". */
static void watch_report(const watch_t *w, const char *why)
{
    char buf[1024];
    if (w->describe)
        w->describe(w->ctx, buf, sizeof buf);
    else
        snprintf(buf, sizeof buf, "%s", w->what);
    steady_progress_line_clear(w->line);
    fprintf(stderr, "steady-run: %s (rank %d): %s: %s\n",
            steady_platform_node(w->p, steady_platform_rank_node(w->p, w->me))->name, w->me, why,
            buf);
    fflush(stderr);
}

void watch_fail(const watch_t *w, const char *why)
{
    watch_report(w, why);
    MPI_Abort(MPI_COMM_WORLD, RUN_FAIL);
}

#if RUN_SMPI
/* The watchdog of an SMPI rank: an actor on the rank's host, asleep until
 * the timeout would expire.  When every rank is blocked it is the only
 * activity left, so the simulated clock jumps to it; it then ends the
 * simulation itself (SimGrid would stop on the deadlock with status 0).
 * A daemon: the simulation does not wait for it. */
static void watchdog(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    watch_t *w = sg_actor_self_get_data();
    sg_actor_daemonize(sg_actor_self());
    for (;;) {
        double due = w->progress + w->timeout + w->grace;
        if (!isfinite(due)) { /* watch_done: asleep until watch_stop kills it */
            sg_actor_suspend(sg_actor_self());
            continue;
        }
        if (simgrid_get_clock() >= due) {
            char why[64];
            snprintf(why, sizeof why, "no progress for %g simulated s", w->timeout + w->grace);
            watch_report(w, why);
            fflush(stdout);
            _exit(RUN_FAIL);
        }
        sg_actor_sleep_until(due);
    }
}
#endif

void watch_start(watch_t *w, const steady_platform_t *p, int me, double timeout,
                 steady_progress_line_t *line)
{
    *w = (watch_t){.p = p,
                   .me = me,
                   .timeout = timeout,
                   .progress = MPI_Wtime(),
                   .what = "starting",
                   .line = line};
    supervise_run(steady_platform_node(p, me)->name);
#if RUN_SMPI
    sg_actor_t a = sg_actor_init("watchdog", sg_host_self());
    sg_actor_set_data(a, w);
    sg_actor_start(a, watchdog, 0, NULL);
    w->actor = a;
#endif
}

void watch_tick(watch_t *w, double now, const char *stage, double done, double total)
{
    w->progress = now;
    supervise_progress(stage, done, total);
    steady_progress_line_report(w->line, stage, done, total);
}

void watch_done(watch_t *w, const run_stats_t *st)
{
#if RUN_SMPI
    (void)st;
    w->timeout = INFINITY;
#else
    w->timeout = st->busy > 0 ? w->timeout + st->elapsed : INFINITY;
#endif
}

void watch_stop(watch_t *w)
{
#if RUN_SMPI
    sg_actor_kill(w->actor);
#endif
    w->actor = NULL;
}

#if !RUN_SMPI
/* Plain MPI, between two polls: ends the job when the timeout expired. */
static void watch_check(const watch_t *w)
{
    if (MPI_Wtime() - w->progress > w->timeout + w->grace) {
        char why[64];
        snprintf(why, sizeof why, "no progress for %g s", w->timeout + w->grace);
        watch_fail(w, why);
    }
}
#endif

/* ---- the three streams ----------------------------------------------------- */

static bool msg_exists(const program_t *pg, const pmsg_t *m, long q)
{
    for (int k = 0; k < m->count; k++) {
        long n;
        piece_batch(pg, &pg->pieces[pg->parts[m->first + k]], q, &n);
        if (n > 0)
            return true;
    }
    return false;
}

/* Moves c to the next message of the list (len per period) that exists,
 * from c on. */
static void next_msg(const program_t *pg, const pmsg_t *list, int len, cursor_t *c)
{
    for (; c->q < pg->P + pg->L; c->q++, c->i = 0)
        for (; c->i < len; c->i++)
            if (msg_exists(pg, &list[c->i], c->q))
                return;
    c->more = false;
}

static void next_task(const program_t *pg, cursor_t *c)
{
    for (; c->q < pg->P + pg->L; c->q++, c->i = 0)
        for (; c->i < pg->ntask; c->i++) {
            long n;
            piece_batch(pg, &pg->pieces[pg->task[c->i]], c->q, &n);
            if (n > 0)
                return;
        }
    c->more = false;
}

/* Starts the next send if the port is free and its data is there. */
static bool try_send(exec_t *x)
{
    program_t *pg = x->pg;
    if (x->req[0] != MPI_REQUEST_NULL || !x->send.more)
        return false;
    const pmsg_t *m = &pg->send[x->send.i];
    long q = x->send.q, b, n;
    for (int k = 0; k < m->count; k++) {
        const piece_t *pc = &pg->pieces[pg->parts[m->first + k]];
        b = piece_batch(pg, pc, q, &n);
        if (n > 0 && !inputs_ready(pg, pc, b, n))
            return false;
    }
    size_t len = 0;
    for (int k = 0; k < m->count; k++) {
        const piece_t *pc = &pg->pieces[pg->parts[m->first + k]];
        b = piece_batch(pg, pc, q, &n);
        if (n == 0)
            continue;
        maybe_fail(x, pc, b, n);
        size_t lo, hi;
        piece_span(pg, pc, n, &lo, &hi);
        int in = pg->steps[pc->flat].in[0];
        if (in < 0) {
            fill_span(pg, pc->flat, b, lo, hi, x->sbuf + len);
        } else {
            memcpy(x->sbuf + len, entry_of(pg, in, b)->data + lo, hi - lo);
            release(pg, in, b);
        }
        long j;
        if (x->fault->kind == FAULT_CORRUPT && !x->fired &&
            x->fault->rank == steady_platform_rank_of(pg->p, pg->me) &&
            touches(pg, pc, b, n, x->fault->op, &j) && (size_t)(j + 1) * pg->S > lo) {
            size_t at = (size_t)j * pg->S > lo ? (size_t)j * pg->S : lo;
            if (at < hi) {
                x->sbuf[len + (at - lo)] ^= 1;
                x->fired = true;
            }
        }
        len += hi - lo;
    }
    MPI_Isend(x->sbuf, (int)len, MPI_BYTE, steady_platform_rank_of(pg->p, m->peer),
              (int)(q % STALL_TAG), MPI_COMM_WORLD, &x->req[0]);
    x->st->messages++;
    x->st->bytes += (double)len;
    x->inflight = x->send;
    activity(x, A_SEND, true);
    x->send.i++;
    next_msg(pg, pg->send, pg->nsend, &x->send);
    return true;
}

/* Posts the next receive if the port is free and its entries are. */
static bool try_recv(exec_t *x)
{
    program_t *pg = x->pg;
    if (x->req[1] != MPI_REQUEST_NULL || !x->recv.more)
        return false;
    const pmsg_t *m = &pg->recv[x->recv.i];
    long q = x->recv.q, b, n;
    for (int k = 0; k < m->count; k++) {
        const piece_t *pc = &pg->pieces[pg->parts[m->first + k]];
        b = piece_batch(pg, pc, q, &n);
        if (n > 0 && pg->steps[pc->flat].depth > 0 && !claimable(pg, pc->flat, b))
            return false;
    }
    size_t len = 0;
    for (int k = 0; k < m->count; k++) {
        const piece_t *pc = &pg->pieces[pg->parts[m->first + k]];
        b = piece_batch(pg, pc, q, &n);
        if (n == 0)
            continue;
        maybe_fail(x, pc, b, n);
        if (pg->steps[pc->flat].depth > 0)
            claim(pg, pc->flat, b, n);
        size_t lo, hi;
        piece_span(pg, pc, n, &lo, &hi);
        len += hi - lo;
    }
    MPI_Irecv(x->rbuf, (int)len, MPI_BYTE, steady_platform_rank_of(pg->p, m->peer),
              (int)(q % STALL_TAG), MPI_COMM_WORLD, &x->req[1]);
    x->rlen = len;
    x->posted = x->recv;
    activity(x, A_RECV, true);
    x->recv.i++;
    next_msg(pg, pg->recv, pg->nrecv, &x->recv);
    return true;
}

/* The posted receive has completed: its parts go to their entries and
 * delivered results are checked. */
static void received(exec_t *x, MPI_Status *status)
{
    program_t *pg = x->pg;
    int count;
    MPI_Get_count(status, MPI_BYTE, &count);
    if ((size_t)count != x->rlen) {
        char why[96];
        snprintf(why, sizeof why, "received %d bytes instead of %zu", count, x->rlen);
        watch_fail(x->w, why);
    }
    activity(x, A_RECV, false);
    const pmsg_t *m = &pg->recv[x->posted.i];
    long q = x->posted.q, b, n;
    size_t at = 0;
    for (int k = 0; k < m->count; k++) {
        const piece_t *pc = &pg->pieces[pg->parts[m->first + k]];
        b = piece_batch(pg, pc, q, &n);
        if (n == 0)
            continue;
        const pstep_t *ps = &pg->steps[pc->flat];
        size_t lo, hi;
        piece_span(pg, pc, n, &lo, &hi);
        if (ps->depth > 0) {
            entry_t *e = entry_of(pg, pc->flat, b);
            memcpy(e->data + lo, x->rbuf + at, hi - lo);
            e->done[pc->index] = 1;
            e->pieces_left--;
        }
        if (ps->final)
            check_span(x, pc->flat, b, lo, hi, x->rbuf + at);
        at += hi - lo;
    }
}

/* Handles the completion of request idx (0: the send, 1: the receive). */
static void complete(exec_t *x, int idx, MPI_Status *status)
{
    if (idx == 0)
        activity(x, A_SEND, false);
    else if (idx == 1)
        received(x, status);
}

/* During and between tasks: handles what completed meanwhile and starts
 * what the ports can start, so that communication overlaps computation
 * (the CPU is a resource of its own). */
static void poll_ports(exec_t *x)
{
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

static void poll_cb(void *ctx)
{
    poll_ports(ctx);
}

void run_task_time(double flops, void (*poll)(void *), void *ctx)
{
#if RUN_SMPI
    sg_exec_t e = sg_actor_exec_async(flops);
    double slice = flops / sg_host_get_speed(sg_host_self()) / TASK_POLLS;
    while (sg_exec_wait_for(e, slice) != SG_OK)
        poll(ctx);
#else
    (void)flops;
#endif
    poll(ctx);
}

static void task_time(exec_t *x, double flops)
{
    run_task_time(flops, poll_cb, x);
}

/* Runs the next task if its inputs are there and its output entry is
 * free: v[k,m] = v[k,l] (+) v[l+1,m] for each of its positions, one
 * after another. */
static bool try_task(exec_t *x)
{
    program_t *pg = x->pg;
    if (!x->cpu.more)
        return false;
    const piece_t *pc = &pg->pieces[pg->task[x->cpu.i]];
    const pstep_t *ps = &pg->steps[pc->flat];
    long n, b = piece_batch(pg, pc, x->cpu.q, &n);
    if (!inputs_ready(pg, pc, b, n) || (ps->depth > 0 && !claimable(pg, pc->flat, b)))
        return false;
    maybe_fail(x, pc, b, n);
    activity(x, A_CPU, true);
    if (ps->depth > 0)
        claim(pg, pc->flat, b, n);
    const steady_sched_step_t *st = &pg->sc->trees[ps->tree].steps[ps->step];
    value_t inv[2] = {{STEADY_OP_REDUCE, st->k, st->l, false},
                      {STEADY_OP_REDUCE, st->l + 1, st->m, false}};
    long end = pc->hi < n ? pc->hi : n;
    for (long j = pc->lo; j < end; j++) {
        size_t at;
        long op = program_op(pg, ps->tree, b, j, &at);
        const unsigned char *in[2];
        for (int k = 0; k < 2; k++) {
            if (ps->in[k] < 0) {
                payload_fill(inv[k], op, pg->m * pg->S, at, at + pg->S, x->in[k]);
                in[k] = x->in[k];
            } else {
                in[k] = entry_of(pg, ps->in[k], b)->data + (size_t)j * pg->S;
            }
        }
        unsigned char *out =
            ps->depth > 0 ? entry_of(pg, pc->flat, b)->data + (size_t)j * pg->S : x->out;
        bool swap = fault_swaps(x->fault, &x->fired, steady_platform_rank_of(pg->p, pg->me), op);
        payload_combine(in[swap], in[!swap], pg->S, false, out);
        if (ps->final)
            check_span(x, pc->flat, b, (size_t)j * pg->S, (size_t)(j + 1) * pg->S, out);
        task_time(x, pg->sc->task_cost);
    }
    for (int k = 0; k < 2; k++)
        if (ps->in[k] >= 0)
            release(pg, ps->in[k], b);
    if (ps->depth > 0) {
        entry_t *e = entry_of(pg, pc->flat, b);
        e->done[pc->index] = 1;
        e->pieces_left--;
    }
    x->st->tasks += (double)(end - pc->lo);
    activity(x, A_CPU, false);
    x->cpu.i++;
    next_task(pg, &x->cpu);
    return true;
}

int run_wait_any(int n, MPI_Request *reqs, MPI_Status *status, watch_t *w)
{
    int idx = MPI_UNDEFINED;
#if RUN_SMPI
    (void)w;
    MPI_Waitany(n, reqs, &idx, status);
#else
    for (int done = 0; !done;) {
        MPI_Testany(n, reqs, &idx, &done, status);
        if (!done) {
            watch_check(w);
            sched_yield();
        }
    }
#endif
    return idx;
}

/* Waits for the send in flight or the posted receive to complete. */
static void wait_one(exec_t *x)
{
    MPI_Status status;
    int idx = run_wait_any(2, x->req, &status, x->w);
    complete(x, idx, &status);
}

void run_untimed_harness(void)
{
#if RUN_SMPI
    /* SMPI charges the CPU time spent between two MPI calls to the
     * simulated host, at its speed (smpi/simulate-computation, on by
     * default).  Here that time is the harness's — making and checking
     * payloads, bookkeeping — not the platform's computation, which is
     * charged explicitly (run_task_time); charging it made a run on
     * SimGrid's default configuration hundreds of times slower than the
     * platform, more so on slow hosts. */
    sg_cfg_set_boolean("smpi/simulate-computation", "no");
#endif
}

int run_check_routes(const steady_platform_t *p, const char *path, steady_format_t format,
                     char *msg, size_t n)
{
#if RUN_SMPI
    int a, b;
    steady_error_t err = {0};
    if (format != STEADY_FORMAT_SIMGRID)
        return RUN_OK; /* steady's exports route every two hosts */
    if (steady_platform_unjoined(p, &a, &b, &err)) {
        snprintf(msg, n, "steady-run: %s", err.msg);
        return RUN_FAIL;
    }
    if (a < 0)
        return RUN_OK;
    snprintf(msg, n,
             "steady-run: %s: no route from %s to %s: SimGrid aborts when MPI's own collectives "
             "(steady-run's start and its gathering of results) send between two hosts without "
             "one; declare a route between every two hosts",
             path, steady_platform_node(p, a)->name, steady_platform_node(p, b)->name);
    return RUN_USAGE;
#else
    (void)p, (void)path, (void)format, (void)msg, (void)n;
    return RUN_OK;
#endif
}

void run_configure(void)
{
#if RUN_SMPI
    /* Two SMPI settings the execution relies on, for the whole simulation:
     * poll_ports tests requests between tasks, which SMPI would charge
     * smpi/test seconds each (1e-4, growing with every failed test); and a
     * send must hold the send port until its data has arrived (one port),
     * which SMPI does only for messages above
     * smpi/send-is-detached-thresh (65536 bytes: below, MPI_Isend
     * completes at once and a node would send to several peers at once). */
    sg_cfg_set_double("smpi/test", 0.0);
    sg_cfg_set_int("smpi/send-is-detached-thresh", 0);
#endif
}

void run_wait_all(int n, MPI_Request *reqs, watch_t *w, const char *what)
{
    w->what = what;
    w->progress = MPI_Wtime();
#if RUN_SMPI
    MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
#else
    /* MPI_Test one by one rather than MPI_Testall: MPICH's
     * MPI_STATUSES_IGNORE, (MPI_Status *)1, trips GCC's
     * -Wstringop-overflow on MPI_Testall's array parameter. */
    for (bool done = false; !done;) {
        done = true;
        for (int i = 0; i < n; i++) {
            int flag = 1;
            if (reqs[i] != MPI_REQUEST_NULL)
                MPI_Test(&reqs[i], &flag, MPI_STATUS_IGNORE);
            done = done && flag;
        }
        if (!done) {
            watch_check(w);
            sched_yield();
        }
    }
#endif
}

steady_err_t program_execute(program_t *pg, const fault_t *fault, watch_t *w, uint8_t *flags,
                             run_stats_t *st, steady_error_t *err)
{
    exec_t x = {.pg = pg, .fault = fault, .w = w, .flags = flags, .st = st};
    steady_err_t rc = STEADY_OK;
    memset(st, 0, sizeof *st);
    x.req[0] = x.req[1] = MPI_REQUEST_NULL;
    x.sbuf = malloc(pg->max_msg + 1);
    x.rbuf = malloc(pg->max_msg + 1);
    x.scratch = malloc(PAYLOAD_CHUNK);
    for (int k = 0; k < 2; k++)
        x.in[k] = malloc(pg->S);
    x.out = malloc(pg->S);
    if (!x.sbuf || !x.rbuf || !x.scratch || !x.in[0] || !x.in[1] || !x.out) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto cleanup;
    }
    run_configure();
    x.send = x.recv = x.cpu = (cursor_t){0, 0, true};
    next_msg(pg, pg->send, pg->nsend, &x.send);
    next_msg(pg, pg->recv, pg->nrecv, &x.recv);
    next_task(pg, &x.cpu);

    x.t0 = x.last = w->progress = MPI_Wtime();
    w->describe = describe_exec;
    w->ctx = &x;
    for (;;) {
        while (try_send(&x) || try_recv(&x) || try_task(&x))
            ;
        if (x.req[0] == MPI_REQUEST_NULL && x.req[1] == MPI_REQUEST_NULL) {
            if (!x.send.more && !x.recv.more && !x.cpu.more)
                break;
            watch_fail(w, "cannot progress (is the schedule valid?)");
        }
        wait_one(&x);
    }
    st->elapsed = x.last - x.t0;
    w->describe = NULL;
    w->ctx = NULL;

    /* close the delivered results' last batches; batches never delivered
     * were lost */
    for (int f = 0; f < pg->nflat; f++)
        if (pg->steps[f].node == pg->me && pg->steps[f].final)
            deliver_batch(&x, f, pg->P);
cleanup:
    free(x.sbuf);
    free(x.rbuf);
    free(x.scratch);
    free(x.in[0]);
    free(x.in[1]);
    free(x.out);
    return rc;
}
