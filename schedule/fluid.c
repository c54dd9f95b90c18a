/*
 * fluid.c — the replay of a schedule whose messages share resources
 * (channels, links between switches: platform.h), or whose hops slow down
 * while their sender receives (an edge's recv-factor), simulated in time.
 *
 * The semantics are replay.c's (read its comment first): every port and
 * processor works through its pieces in program order, self-timed; a
 * piece starts once the previous piece of each of its ports has ended,
 * its inputs have arrived (a message's first part: every part's) and its
 * ring entry is free (the executor's rings: a send passes its input's
 * entry on when its sender posts it).  What changes is that a transfer's
 * duration is no longer known when it starts.  The transfers running at
 * once share each resource they cross as SimGrid's network model shares a
 * link among flows, max-min fairly (fluid_share.c).  A transfer that
 * opens a message under rendezvous (replay.c) holds its ports through the
 * latency first, sharing nothing meanwhile, then moves its bytes.  So the
 * replay advances from event to event in simulated time — a transfer or a
 * task ends, an input arrives, a latency runs out — recomputing the rates
 * whenever the set of running transfers changes.
 *
 * Because pieces now run in time order rather than in program order, a
 * piece may finish batches well ahead of the pieces that read them (a
 * source feeding a slow subtree).  Each piece keeps the arrival times of
 * its batches in a ring that grows when a batch would overwrite one that
 * is still to be read (the readers of each batch are counted when it is
 * written), so the replay needs no more memory than the execution's
 * spread in batches.
 *
 * Cost: per event, the rates when the running transfers change
 * (fluid_share.c), O(running transfers, tasks and latencies) to find the
 * next event (the tasks running are listed: a look at every node's CPU
 * took half of this loop's time on a 300-host broadcast, which has none)
 * and O(ports of the piece + readers) for what may start; the events are
 * the program's pieces, twice each.  Platforms whose transfers share
 * nothing but ports — a resource that only one sender's transfers cross,
 * or only one receiver's, carries one at a time — and whose hops keep
 * their rate while their sender receives (recv-factor 1) never come here
 * (replay_prepare.c's shares_resources; replay.c's loop is linear and
 * faster).
 */
#include "fluid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../common/array.h"

/* The arrival times of one piece's batches. */
typedef struct {
    double *time;
    long *batch;  /* -1: free */
    int *pending; /* reads still to come */
    int cap;
} ring_t;

/* A piece instance waiting until an input arrives. */
typedef struct {
    double t;
    long q;
    int i;
} wait_t;

/* A transfer that opens its message under rendezvous (the first part the
 * period has): its ports are held through the latency, until t, before
 * its bytes move. */
typedef struct {
    double t;
    run_t ru;
} held_t;

/* A part of a message done, delivered with the message's last part. */
typedef struct {
    long q;
    int i;
    double start, end, amount;
} part_t;

/* Under eager, a message whose receiver has not posted its receive yet
 * (its last part's q, i and times): it waits in MPI's buffers. */
typedef struct {
    long q;
    int i;
    double start, end, amount, done;
} parked_t;

/* A step's ring entry (replay_t.depth): the batch it holds, and what
 * must still happen before it leaves (its pieces to complete, its readers
 * to pass it); the batch left when 0. */
typedef struct {
    long batch;
    int pending;
} entry_t;

typedef struct {
    const replay_t *r;
    const steady_replay_observer_t *obs;
    double *last; /* (may be NULL) each piece's latest completion */
    long msgs, P, L;
    int nv, np, nports;
    int *pstart, *plist; /* port p's pieces in period order: plist[pstart[p] .. pstart[p + 1]) */
    long *cq;            /* port p's head: piece plist[pstart[p] + ck[p]] of period cq[p] */
    int *ck;
    bool *busy;          /* its head has started */
    int *rstart, *rlist; /* the deps naming piece y: rlist[rstart[y] .. rstart[y + 1]) */
    int *owner;          /* per dep: the piece that reads through it */
    ring_t *ring;
    entry_t *entry; /* step f's entries: entry[r->left[f].off + (b & r->left[f].mask)] */
    long *posted_q; /* per send port: the head (period, index) that has posted */
    int *posted_k;
    run_t *run;
    int nrun;
    long *cpu_q; /* per node: the compute piece running (period), -1 */
    int *cpu_i;
    double *cpu_start, *cpu_end, *cpu_n;
    int *computing, ncomputing; /* the nodes whose cpu_q >= 0 */
    int *ended;                 /* those whose tasks end now, in node order */
    wait_t *heap;
    int nheap, capheap;
    held_t *held; /* at most one per running transfer */
    int nheld;
    part_t *parts; /* parts of messages not yet delivered */
    int nparts, capparts;
    /* under eager, per node: when its last reception completed, the
     * messages waiting for it to post their receives (in arrival order,
     * parked[]), and unpark()'s scratch */
    double *rdone;
    int *nparked_at, *pstamp;
    parked_t *parked;
    int nparked, capparked, scan;
    bool park_stale; /* an entry was freed since unpark() looked */
    share_t sh;      /* the rates' scratch (fluid_share.c) */
    double now, makespan;
    long ntransfers, ntasks;
    bool rates_stale, oom;
} fluid_t;

/* ---- pieces ---------------------------------------------------------------- */

static int flat_of(const fluid_t *f, int i)
{
    return i < f->r->nx ? f->r->x[i].flat : f->r->cp[i - f->r->nx].flat;
}

/* The ports piece i uses: send and receive port (transfer), or the CPU. */
static int ports_of(const fluid_t *f, int i, int port[2])
{
    if (i < f->r->nx) {
        port[0] = f->r->x[i].from_node;
        port[1] = f->nv + f->r->x[i].to_node;
        return 2;
    }
    port[0] = 2 * f->nv + f->r->cp[i - f->r->nx].node;
    return 1;
}

/* The batch piece i of period q works on, and how much it does: messages
 * (transfer) or tasks (compute entry); 0 when nothing. */
static double amount_of(const fluid_t *f, long q, int i, long *batch, long *n)
{
    const replay_t *r = f->r;
    int flat = flat_of(f, i);
    long b = q - r->steps[flat].lag;
    *batch = b;
    *n = b >= 0 && b < f->P ? batch_size(r->sc, r->steps[flat].tree, b, f->msgs) : 0;
    if (*n <= 0)
        return 0;
    if (i < r->nx) {
        double a = earlier(r->x[i].to, (double)*n) - r->x[i].from;
        return a > 0 ? a : 0;
    }
    const rcompute_t *c = &r->cp[i - r->nx];
    long k = *n - c->offset;
    return k <= 0 ? 0 : (double)(k < c->count ? k : c->count);
}

/* The dependencies of piece i: one list for a transfer, two for a task. */
static int deps_of(const fluid_t *f, int i, rdeps_t d[2])
{
    if (i < f->r->nx) {
        d[0] = f->r->x[i].in;
        return 1;
    }
    d[0] = f->r->cp[i - f->r->nx].in[0];
    d[1] = f->r->cp[i - f->r->nx].in[1];
    return 2;
}

/* ---- rings ------------------------------------------------------------------ */

static bool ring_grow(ring_t *g)
{
    int ncap = 2 * g->cap;
    double *time = malloc((size_t)ncap * sizeof *time);
    long *batch = malloc((size_t)ncap * sizeof *batch);
    int *pending = malloc((size_t)ncap * sizeof *pending);
    if (!time || !batch || !pending) {
        free(time);
        free(batch);
        free(pending);
        return false;
    }
    for (int k = 0; k < ncap; k++)
        batch[k] = -1;
    for (int k = 0; k < g->cap; k++)
        if (g->batch[k] >= 0) {
            int s = (int)(g->batch[k] % ncap);
            time[s] = g->time[k];
            batch[s] = g->batch[k];
            pending[s] = g->pending[k];
        }
    free(g->time);
    free(g->batch);
    free(g->pending);
    g->time = time;
    g->batch = batch;
    g->pending = pending;
    g->cap = ncap;
    return true;
}

/* Piece y's batch b (of n messages) arrived at t; the reads of it to come
 * are counted: the deps naming y whose positions the batch has, of
 * readers that run that batch (try_start() reads the same). */
static bool ring_put(fluid_t *f, int y, long b, long n, double t)
{
    const replay_t *r = f->r;
    int readers = 0;
    for (int k = f->rstart[y]; k < f->rstart[y + 1]; k++) {
        int d = f->rlist[k], z = f->owner[d];
        long bz, nz;
        if (r->dfrom[d] < (double)n &&
            amount_of(f, b + r->steps[flat_of(f, z)].lag, z, &bz, &nz) > 0)
            readers++;
    }
    ring_t *g = &f->ring[y];
    for (;;) {
        int s = (int)(b % g->cap);
        if (g->batch[s] < 0 || g->pending[s] <= 0) {
            g->time[s] = t;
            g->batch[s] = b;
            g->pending[s] = readers;
            return true;
        }
        if (!ring_grow(g))
            return false;
    }
}

/* When piece y's batch b arrives, or -1 when it has not been produced. */
static double ring_get(const fluid_t *f, int y, long b)
{
    const ring_t *g = &f->ring[y];
    int s = (int)(b % g->cap);
    return g->batch[s] == b ? g->time[s] : -1;
}

static void ring_read(fluid_t *f, int y, long b)
{
    ring_t *g = &f->ring[y];
    int s = (int)(b % g->cap);
    if (g->batch[s] == b)
        g->pending[s]--;
}

/* ---- the executor's ring entries ------------------------------------------ */

static void retry(fluid_t *f, long q, int i);

/* Pieces of step g or readers of it (list[first .. last)) that exist in
 * batch b. */
static int existing(const fluid_t *f, const int *list, int first, int last, long b)
{
    int c = 0;
    for (int k = first; k < last; k++) {
        long bz, nz;
        c += amount_of(f, b + f->r->steps[flat_of(f, list[k])].lag, list[k], &bz, &nz) > 0;
    }
    return c;
}

/* The step whose ring piece i fills, or -1. */
static int ring_out(const fluid_t *f, int i)
{
    return i < f->r->nx ? f->r->x[i].ring_out : f->r->cp[i - f->r->nx].ring_out;
}

/* True when step g's entry may take batch b: batch b - depth has left it
 * (g < 0: no ring). */
static bool entry_free(const fluid_t *f, int g, long b)
{
    const replay_t *r = f->r;
    long old = g < 0 ? -1 : b - r->depth[g];
    if (old < 0)
        return true;
    const entry_t *e = &f->entry[box_at(r->left[g], old)];
    return e->batch == old && e->pending == 0;
}

/* One more piece of step g done with batch b, or one more reader past it;
 * when it is the last, the pieces of batch b + depth may take the entry. */
static void leave(fluid_t *f, int g, long b)
{
    const replay_t *r = f->r;
    if (g < 0)
        return;
    entry_t *e = &f->entry[box_at(r->left[g], b)];
    if (e->batch != b) {
        e->batch = b;
        e->pending = existing(f, r->spieces, r->sfirst[g], r->sfirst[g + 1], b) +
                     existing(f, r->readers, r->rfirst[g], r->rfirst[g + 1], b);
    }
    if (--e->pending > 0)
        return;
    f->park_stale = true;
    long next = b + r->depth[g];
    for (int k = r->sfirst[g]; k < r->sfirst[g + 1]; k++)
        retry(f, next + r->steps[g].lag, r->spieces[k]);
}

/* ---- waiting ----------------------------------------------------------------- */

static bool heap_push(fluid_t *f, double t, long q, int i)
{
    if (f->nheap == f->capheap) {
        int ncap = f->capheap ? 2 * f->capheap : 64;
        wait_t *h = realloc(f->heap, (size_t)ncap * sizeof *h);
        if (!h)
            return false;
        f->heap = h;
        f->capheap = ncap;
    }
    int k = f->nheap++;
    while (k > 0 && f->heap[(k - 1) / 2].t > t) {
        f->heap[k] = f->heap[(k - 1) / 2];
        k = (k - 1) / 2;
    }
    f->heap[k] = (wait_t){t, q, i};
    return true;
}

static wait_t heap_pop(fluid_t *f)
{
    wait_t top = f->heap[0], last = f->heap[--f->nheap];
    int k = 0;
    for (;;) {
        int c = 2 * k + 1;
        if (c >= f->nheap)
            break;
        if (c + 1 < f->nheap && f->heap[c + 1].t < f->heap[c].t)
            c++;
        if (f->heap[c].t >= last.t)
            break;
        f->heap[k] = f->heap[c];
        k = c;
    }
    if (f->nheap > 0)
        f->heap[k] = last;
    return top;
}

/* ---- starting and ending ---------------------------------------------------- */

static bool at_head(const fluid_t *f, int p, long q, int i)
{
    return f->cq[p] == q && f->cq[p] < f->P + f->L && f->plist[f->pstart[p] + f->ck[p]] == i;
}

static void advance(fluid_t *f, int p)
{
    f->busy[p] = false;
    if (++f->ck[p] == f->pstart[p + 1] - f->pstart[p]) {
        f->ck[p] = 0;
        f->cq[p]++;
    }
}

static void try_port(fluid_t *f, int p);
static void try_start(fluid_t *f, long q, int i);

/* When piece i's inputs for batch b (n positions) are all there, or -1
 * while a producer has not made its part. */
static double inputs_at(const fluid_t *f, int i, long b, long n)
{
    const replay_t *r = f->r;
    rdeps_t d[2];
    int nd = deps_of(f, i, d);
    double ready = 0;
    for (int k = 0; k < nd; k++)
        for (int x = d[k].first; x < d[k].first + d[k].n; x++) {
            if (r->dfrom[x] >= (double)n)
                continue;
            double a = ring_get(f, r->dep[x], b);
            if (a < 0)
                return -1;
            ready = later(ready, a);
        }
    return ready;
}

/* True when transfer i is the first part of its message that period q
 * has: the one that posts the message. */
static bool heads(const fluid_t *f, long q, int i)
{
    for (int y = f->r->x[i].mfirst; y != i; y = f->r->x[y].next_part) {
        long b, n;
        if (amount_of(f, q, y, &b, &n) > 0)
            return false;
    }
    return true;
}

/* Tries piece i of period q and, for a later part of a message, the parts
 * before it (the one that posts the message waits for every part). */
static void retry(fluid_t *f, long q, int i)
{
    const replay_t *r = f->r;
    for (int y = i < r->nx ? r->x[i].mfirst : i; y != i; y = r->x[y].next_part)
        try_start(f, q, y);
    try_start(f, q, i);
}

/* Starts piece i of period q if it heads each of its ports, is not running
 * yet, its inputs have arrived (else waits for the latest one) and its
 * step's ring entry is free (a transfer's under rendezvous: replay.c).  A
 * transfer whose sender is ready posts before its receiver is: its bytes
 * leave their entry then, as the executor copies them when it posts the
 * send. */
static void try_start(fluid_t *f, long q, int i)
{
    const replay_t *r = f->r;
    int port[2], nport = ports_of(f, i, port);
    if (!at_head(f, port[0], q, i) || f->busy[port[0]])
        return;
    bool both = nport == 1 || (at_head(f, port[1], q, i) && !f->busy[port[1]]);
    bool rendezvous = r->sc->cost_model == STEADY_COST_RENDEZVOUS;
    long b, n;
    double amount = amount_of(f, q, i, &b, &n);
    if (amount <= 0)
        return; /* try_port skips it */
    double ready = inputs_at(f, i, b, n);
    bool efree = entry_free(f, ring_out(f, i), b) || (i < r->nx && !rendezvous);
    bool head = i < r->nx && heads(f, q, i);
    for (int y = head ? r->x[i].next_part : -1; y >= 0 && ready >= 0; y = r->x[y].next_part) {
        long by, ny;
        if (amount_of(f, q, y, &by, &ny) <= 0)
            continue;
        double a = inputs_at(f, y, by, ny);
        ready = a < 0 ? a : later(ready, a);
        efree = efree && (entry_free(f, r->x[y].ring_out, by) || !rendezvous);
    }
    if (ready < 0)
        return; /* the producer's end will try again */
    if (ready > f->now) {
        if (!heap_push(f, ready, q, i))
            f->oom = true;
        return;
    }
    int p = port[0];
    if (head && (f->posted_q[p] != q || f->posted_k[p] != f->ck[p])) {
        f->posted_q[p] = q;
        f->posted_k[p] = f->ck[p];
        for (int y = i; y >= 0; y = r->x[y].next_part) {
            long by, ny;
            if (amount_of(f, q, y, &by, &ny) > 0)
                leave(f, r->x[y].ring_in, by);
        }
    }
    if (!both || !efree)
        return; /* the receiver's port, or leave(), will try again */
    rdeps_t d[2];
    int nd = deps_of(f, i, d);
    for (int k = 0; k < nd; k++)
        for (int x = d[k].first; x < d[k].first + d[k].n; x++)
            if (r->dfrom[x] < (double)n)
                ring_read(f, r->dep[x], b);
    for (int k = 0; k < nport; k++)
        f->busy[port[k]] = true;
    if (i < r->nx) {
        run_t ru = {.q = q, .i = i, .work = amount * r->x[i].c, .start = f->now, .amount = amount};
        if (head && rendezvous && r->x[i].latency > 0) {
            f->held[f->nheld++] = (held_t){f->now + r->x[i].latency, ru};
        } else {
            f->run[f->nrun++] = ru;
            f->rates_stale = true;
        }
    } else {
        const rcompute_t *c = &r->cp[i - r->nx];
        f->cpu_q[c->node] = q;
        f->cpu_i[c->node] = i;
        f->cpu_start[c->node] = f->now;
        f->cpu_n[c->node] = amount;
        f->cpu_end[c->node] = f->now + amount * c->w;
        f->computing[f->ncomputing++] = c->node;
    }
}

/* Skips the pieces heading port p that have nothing to do, then tries the
 * first that has. */
static void try_port(fluid_t *f, int p)
{
    while (f->cq[p] < f->P + f->L && !f->busy[p]) {
        long q = f->cq[p], b, n;
        int i = f->plist[f->pstart[p] + f->ck[p]];
        if (amount_of(f, q, i, &b, &n) > 0) {
            try_start(f, q, i);
            return;
        }
        advance(f, p);
    }
}

/* Piece i of period q's batch arrives at `done` (it ran in [start, end)):
 * what waited for it is tried. */
static void deliver(fluid_t *f, long q, int i, double start, double end, double amount, double done)
{
    const replay_t *r = f->r;
    long b, n;
    amount_of(f, q, i, &b, &n);
    if (!ring_put(f, i, b, n, done))
        f->oom = true;
    leave(f, ring_out(f, i), b);
    f->makespan = later(f->makespan, done);
    if (f->last)
        f->last[i] = later(f->last[i], done);
    if (f->obs)
        observe(f->obs, r, q, flat_of(f, i), i < r->nx ? &r->x[i] : NULL,
                i < r->nx ? NULL : &r->cp[i - r->nx], i < r->nx ? -1 : i - r->nx, amount, start,
                end, done);
    for (int k = f->rstart[i]; k < f->rstart[i + 1]; k++) {
        int z = f->owner[f->rlist[k]];
        retry(f, b + r->steps[flat_of(f, z)].lag, z);
    }
}

/* Transfer i, the last part of its message in period q, ran in [start,
 * end): the message's parts are delivered at `done`. */
static void deliver_message(fluid_t *f, long q, int i, double start, double end, double amount,
                            double done)
{
    const replay_t *r = f->r;
    for (int k = 0; k < f->nparts;) {
        part_t pt = f->parts[k];
        if (pt.q != q || r->x[pt.i].msg != r->x[i].msg) {
            k++;
            continue;
        }
        f->parts[k] = f->parts[--f->nparts];
        deliver(f, pt.q, pt.i, pt.start, pt.end, pt.amount, done);
        k = 0;
    }
    deliver(f, q, i, start, end, amount, done);
}

/* Whether the ring entry of every part of the message whose last part in
 * period q is transfer i is free. */
static bool entries_free(const fluid_t *f, long q, int i)
{
    const replay_t *r = f->r;
    for (int y = r->x[i].mfirst; y >= 0; y = y == i ? -1 : r->x[y].next_part) {
        long b, n;
        if (amount_of(f, q, y, &b, &n) > 0 && !entry_free(f, r->x[y].ring_out, b))
            return false;
    }
    return true;
}

/* Piece i of period q ended at f->now: its ports move on; its batch
 * arrives, a transfer's with the last part of its message that has
 * positions in the period (under eager, after the latency and once its
 * receiver posts the receive: replay.c). */
static void finish(fluid_t *f, long q, int i, double start, double amount)
{
    const replay_t *r = f->r;
    if (i < r->nx)
        f->ntransfers++;
    else
        f->ntasks += (long)amount;
    int port[2], nport = ports_of(f, i, port);
    for (int k = 0; k < nport; k++)
        advance(f, port[k]);
    for (int k = 0; k < nport; k++)
        try_port(f, port[k]);
    if (i >= r->nx) {
        const rcompute_t *c = &r->cp[i - r->nx];
        long b = q - r->steps[c->flat].lag;
        leave(f, c->ring_in[0], b);
        leave(f, c->ring_in[1], b);
        deliver(f, q, i, start, f->now, amount, f->now);
        return;
    }
    long b, n;
    int j = r->x[i].next_part;
    while (j >= 0 && amount_of(f, q, j, &b, &n) <= 0)
        j = r->x[j].next_part;
    if (j >= 0) { /* the message goes on */
        if (!array_grow((void **)&f->parts, &f->capparts, f->nparts + 1, sizeof *f->parts, 64))
            f->oom = true;
        else
            f->parts[f->nparts++] = (part_t){q, i, start, f->now, amount};
        return;
    }
    if (r->sc->cost_model == STEADY_COST_RENDEZVOUS) {
        deliver_message(f, q, i, start, f->now, amount, f->now);
        return;
    }
    /* eager: the receiver posts one receive at a time, once the one
     * before completed and every part's entry is free */
    int v = r->x[i].to_node;
    double done = f->now + r->x[i].latency;
    if (f->nparked_at[v] == 0 && entries_free(f, q, i)) {
        deliver_message(f, q, i, start, f->now, amount, f->rdone[v] = later(done, f->rdone[v]));
        return;
    }
    if (!array_grow((void **)&f->parked, &f->capparked, f->nparked + 1, sizeof *f->parked, 64)) {
        f->oom = true;
        return;
    }
    f->parked[f->nparked++] = (parked_t){q, i, start, f->now, amount, done};
    f->nparked_at[v]++;
}

/* Under eager, delivers the parked messages whose receivers post their
 * receives now: each node's first, once every part's entry is free. */
static void unpark(fluid_t *f)
{
    const replay_t *r = f->r;
    f->park_stale = false;
    f->scan++;
    for (int k = 0; k < f->nparked;) {
        parked_t pk = f->parked[k];
        int v = r->x[pk.i].to_node;
        if (f->pstamp[v] == f->scan || !entries_free(f, pk.q, pk.i)) {
            f->pstamp[v] = f->scan; /* v's later messages wait for this one */
            k++;
            continue;
        }
        memmove(&f->parked[k], &f->parked[k + 1], (size_t)(--f->nparked - k) * sizeof *f->parked);
        f->nparked_at[v]--;
        f->rdone[v] = later(later(pk.done, f->now), f->rdone[v]);
        deliver_message(f, pk.q, pk.i, pk.start, pk.end, pk.amount, f->rdone[v]);
    }
}

/* ---- rates: max-min fair sharing ----------------------------------------------- */

/* ---- the engine ------------------------------------------------------------------- */

static void fluid_free(fluid_t *f)
{
    if (f->ring)
        for (int y = 0; y < f->np; y++) {
            free(f->ring[y].time);
            free(f->ring[y].batch);
            free(f->ring[y].pending);
        }
    free(f->ring);
    free(f->entry);
    free(f->posted_q);
    free(f->posted_k);
    free(f->pstart);
    free(f->plist);
    free(f->cq);
    free(f->ck);
    free(f->busy);
    free(f->rstart);
    free(f->rlist);
    free(f->owner);
    free(f->run);
    free(f->cpu_q);
    free(f->cpu_i);
    free(f->cpu_start);
    free(f->cpu_end);
    free(f->cpu_n);
    free(f->computing);
    free(f->ended);
    free(f->heap);
    free(f->held);
    free(f->parts);
    free(f->rdone);
    free(f->nparked_at);
    free(f->pstamp);
    free(f->parked);
    share_free(&f->sh);
}

/* The ports' piece lists and the pieces' readers. */
static bool build(fluid_t *f)
{
    const replay_t *r = f->r;
    int np = f->np, nports = f->nports;
    f->pstart = calloc((size_t)nports + 2, sizeof *f->pstart);
    f->plist = malloc((size_t)(2 * np + 1) * sizeof *f->plist);
    f->rstart = calloc((size_t)np + 2, sizeof *f->rstart);
    f->rlist = malloc((size_t)(r->ndep + 1) * sizeof *f->rlist);
    f->owner = malloc((size_t)(r->ndep + 1) * sizeof *f->owner);
    f->cq = calloc((size_t)nports, sizeof *f->cq);
    f->ck = calloc((size_t)nports, sizeof *f->ck);
    f->busy = calloc((size_t)nports, sizeof *f->busy);
    f->ring = calloc((size_t)np + 1, sizeof *f->ring);
    f->entry = malloc((r->nleft + 1) * sizeof *f->entry);
    f->posted_q = malloc((size_t)nports * sizeof *f->posted_q);
    f->posted_k = calloc((size_t)nports, sizeof *f->posted_k);
    f->run = malloc((size_t)(r->nx + 1) * sizeof *f->run);
    f->held = malloc((size_t)(r->nx + 1) * sizeof *f->held);
    f->rdone = calloc((size_t)f->nv + 1, sizeof *f->rdone);
    f->nparked_at = calloc((size_t)f->nv + 1, sizeof *f->nparked_at);
    f->pstamp = calloc((size_t)f->nv + 1, sizeof *f->pstamp);
    f->cpu_q = malloc((size_t)f->nv * sizeof *f->cpu_q);
    f->cpu_i = malloc((size_t)f->nv * sizeof *f->cpu_i);
    f->cpu_start = malloc((size_t)f->nv * sizeof *f->cpu_start);
    f->cpu_end = malloc((size_t)f->nv * sizeof *f->cpu_end);
    f->cpu_n = malloc((size_t)f->nv * sizeof *f->cpu_n);
    f->computing = malloc((size_t)f->nv * sizeof *f->computing);
    f->ended = malloc((size_t)f->nv * sizeof *f->ended);
    bool shared = share_init(&f->sh, r, f->nv);
    if (!f->pstart || !f->plist || !f->rstart || !f->rlist || !f->owner || !f->cq || !f->ck ||
        !f->busy || !f->ring || !f->entry || !f->posted_q || !f->posted_k || !f->run || !f->held ||
        !f->rdone || !f->nparked_at || !f->pstamp || !f->cpu_q || !f->cpu_i || !f->cpu_start ||
        !f->cpu_end || !f->cpu_n || !f->computing || !f->ended || !shared)
        return false;
    for (int pass = 0; pass < 2; pass++) {
        for (int j = 0; j < np; j++) { /* the transfers in the executor's order */
            int i = j < r->nx ? r->xorder[j] : j, port[2], n = ports_of(f, i, port);
            for (int k = 0; k < n; k++) {
                if (pass == 0)
                    f->pstart[port[k] + 2]++;
                else
                    f->plist[f->pstart[port[k] + 1]++] = i;
            }
        }
        if (pass == 0)
            for (int p = 0; p <= nports; p++)
                f->pstart[p + 1] += f->pstart[p];
    }
    /* the deps, grouped by the producer they name, and their readers */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < np; i++) {
            rdeps_t d[2];
            int nd = deps_of(f, i, d);
            for (int k = 0; k < nd; k++)
                for (int x = d[k].first; x < d[k].first + d[k].n; x++) {
                    f->owner[x] = i;
                    if (pass == 0)
                        f->rstart[r->dep[x] + 2]++;
                    else
                        f->rlist[f->rstart[r->dep[x] + 1]++] = x;
                }
        }
        if (pass == 0)
            for (int y = 0; y <= np; y++)
                f->rstart[y + 1] += f->rstart[y];
    }
    int cap = (int)f->L + 2;
    for (int y = 0; y < np; y++) {
        ring_t *g = &f->ring[y];
        g->cap = cap;
        g->time = malloc((size_t)cap * sizeof *g->time);
        g->batch = malloc((size_t)cap * sizeof *g->batch);
        g->pending = malloc((size_t)cap * sizeof *g->pending);
        if (!g->time || !g->batch || !g->pending)
            return false;
        for (int k = 0; k < cap; k++)
            g->batch[k] = -1;
    }
    for (size_t k = 0; k < r->nleft; k++)
        f->entry[k] = (entry_t){-1, 0};
    for (int p = 0; p < nports; p++)
        f->posted_q[p] = -1;
    for (int v = 0; v < f->nv; v++)
        f->cpu_q[v] = -1;
    for (int p = 0; p < nports; p++) /* a port with no piece is done from the start */
        if (f->pstart[p] == f->pstart[p + 1])
            f->cq[p] = f->P + f->L;
    return true;
}

static int by_node(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

steady_err_t replay_fluid(const replay_t *r, long msgs, const steady_replay_observer_t *obs,
                          double *last, steady_replay_t *res, steady_error_t *err)
{
    const steady_schedule_t *sc = r->sc;
    fluid_t f = {.r = r,
                 .obs = obs && obs->event ? obs : NULL,
                 .last = last,
                 .msgs = msgs,
                 .L = sc->max_lag,
                 .nv = steady_platform_node_count(r->p),
                 .np = r->nx + r->nc};
    long K = sc->ops_per_period;
    f.P = msgs / K + (msgs % K != 0);
    f.nports = 3 * f.nv;
    steady_err_t rc = STEADY_OK;
    if (!build(&f)) {
        rc = steady_error_set(err, STEADY_ENOMEM, "replay: out of memory");
        goto cleanup;
    }
    for (int p = 0; p < f.nports; p++)
        try_port(&f, p);
    long events = 0;
    while (!f.oom) {
        if (f.rates_stale) {
            if (!share_rates(&f.sh, r, f.run, f.nrun)) {
                f.oom = true;
                break;
            }
            f.rates_stale = false;
        }
        double next = INFINITY;
        for (int a = 0; a < f.nrun; a++)
            if (f.run[a].rate > 0)
                next = earlier(next, f.now + f.run[a].work / f.run[a].rate);
        for (int k = 0; k < f.ncomputing; k++)
            next = earlier(next, f.cpu_end[f.computing[k]]);
        if (f.nheap > 0)
            next = earlier(next, f.heap[0].t);
        for (int k = 0; k < f.nheld; k++)
            next = earlier(next, f.held[k].t);
        if (next == INFINITY)
            break;
        double dt = next - f.now;
        f.now = next;
        /* the transfers that end now (a relative tolerance absorbs the
         * rounding of work - rate dt) */
        for (int a = 0; a < f.nrun; a++)
            f.run[a].work -= f.run[a].rate * dt;
        for (int a = 0; a < f.nrun;) {
            run_t ru = f.run[a];
            if (ru.work > 1e-12 * (ru.amount * r->x[ru.i].c + f.now)) {
                a++;
                continue;
            }
            f.run[a] = f.run[--f.nrun];
            f.rates_stale = true;
            finish(&f, ru.q, ru.i, ru.start, ru.amount);
            a = 0; /* finish() may have started transfers: look again */
        }
        for (int k = 0; k < f.nheld;) {
            if (f.held[k].t > f.now) {
                k++;
                continue;
            }
            f.run[f.nrun++] = f.held[k].ru; /* its latency paid, its bytes move */
            f.held[k] = f.held[--f.nheld];
            f.rates_stale = true;
        }
        int nended = 0;
        for (int k = 0; k < f.ncomputing;)
            if (f.cpu_end[f.computing[k]] <= f.now) {
                f.ended[nended++] = f.computing[k];
                f.computing[k] = f.computing[--f.ncomputing];
            } else {
                k++;
            }
        qsort(f.ended, (size_t)nended, sizeof *f.ended, by_node);
        for (int k = 0; k < nended; k++) {
            int v = f.ended[k];
            long q = f.cpu_q[v];
            f.cpu_q[v] = -1;
            finish(&f, q, f.cpu_i[v], f.cpu_start[v], f.cpu_n[v]);
        }
        while (f.nheap > 0 && f.heap[0].t <= f.now) {
            wait_t w = heap_pop(&f);
            try_start(&f, w.q, w.i);
        }
        while (f.park_stale && f.nparked > 0)
            unpark(&f);
        if (obs && obs->progress && (++events & 65535) == 0)
            obs->progress(obs->ctx, "replay, period", (double)f.cq[0] + 1, (double)(f.P + f.L));
    }
    if (f.oom) {
        rc = steady_error_set(err, STEADY_ENOMEM, "replay: out of memory");
        goto cleanup;
    }
    if (f.nparked > 0) {
        parked_t pk = f.parked[0];
        rc = steady_error_set(err, STEADY_EINVAL,
                              "replay: a message that its receiver never takes (period %ld, %s "
                              "-> %s): its ring entry is never free",
                              pk.q, steady_platform_node(r->p, r->x[pk.i].from_node)->name,
                              steady_platform_node(r->p, r->x[pk.i].to_node)->name);
        goto cleanup;
    }
    for (int p = 0; p < f.nports; p++)
        if (f.cq[p] < f.P + f.L) {
            rc = steady_error_set(err, STEADY_EINVAL,
                                  "replay: a transfer or task uses messages that are never "
                                  "delivered (period %ld of %s's %s)",
                                  f.cq[p], steady_platform_node(r->p, p % f.nv)->name,
                                  p < f.nv       ? "send port"
                                  : p < 2 * f.nv ? "receive port"
                                                 : "CPU");
            goto cleanup;
        }
    res->ops = msgs;
    res->makespan = f.makespan;
    res->transfers = f.ntransfers;
    res->tasks = f.ntasks;
cleanup:
    fluid_free(&f);
    return rc;
}
