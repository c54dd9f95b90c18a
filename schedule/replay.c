/*
 * replay.c — discrete-event replay of a periodic schedule under the
 * one-port model (steady_schedule_replay, docs/schedule-format.md).
 *
 * What is simulated.  N operations are N m messages (m = segments: an
 * operation's message cut into m, docs/schedule-format.md), which make
 * P = ceil(N m / K) batches (K = ops_per_period, counted in messages like
 * every quantity of the schedule; the last batch may be partial), and the
 * run P + L periods (L = max_lag); below, N counts messages.  The
 * *program* is the global sequence of events in schedule order: for each
 * period q, the slots in order and the transfers of each slot in order —
 * except that the later parts of an MPI message follow its first part at
 * once, as in the executor (replay_t.xorder; they forward nothing made
 * after the message starts, so nothing they wait for moves after them) —
 * then the compute entries of sc->compute in their order.  In period q a
 * step of lag λ works on batch b = q - λ when 0 <= b < P.  Tree i's
 * messages in batch b are b K + first + j, 0 <= j < weight; those >= N do
 * not exist, so batch b of tree i has
 *     n(i, b) = clamp(N - b K - first, 0, weight)
 * message positions, a transfer part [from, to) is clipped to
 * [from, min(to, n)) and skipped when nothing is left, and a compute entry
 * runs only the tasks of positions that exist.
 *
 * Self-timed, no global clock: the period and the slot starts are not used
 * as dates, only as an order.  A transfer of a messages over e = (u, v)
 * starts at the latest of
 *     the time u's send port is free, the time v's receive port is free,
 *     the time its input is available at u, and under rendezvous the time
 *     v's ring entry for its batch is free,
 * holds both ports for a c(e).  The rings are the executor's
 * (runner/program.c, replay_t.depth): a step's output that its node reads
 * is kept in depth batches, and the entry of batch b is free once batch
 * b - depth is done (its pieces delivered) and passed on by each reader (a
 * send once posted, at the latest of its input's arrival and its port's
 * release, the executor copying its bytes then; a task once ended); a
 * task waits for its own entry too.  So a sender upstream of a slow node
 * is held to its pace, as in a run.  The executor sends the parts of a
 * long transfer in consecutive slots as one MPI message, which pays one
 * latency and is delivered whole (steady_schedule_message_ids): it is
 * posted once every part's input is there (its first part waits for the
 * latest of them, and for every part's entry), its later parts follow at
 * once, and a part's data is at v when the message's last part has ended
 * (run_periods gathers a message's parts, then runs them).  Under the
 * rendezvous cost model (the default, steady_cost_model_t) the latency
 * comes first: the message holds both ports for latency(e) before its
 * bytes move, as SimGrid pays a communication's latency before its bytes
 * (and an MPI rendezvous's handshake precedes its data); under the eager
 * model latency delays the delivery and occupies no port.  A compute
 * entry of n tasks on processor x starts when x's CPU is free, all its
 * inputs are there and its ring entry is free, and keeps the CPU for
 * n w(x): tasks run one
 * after another on the processor's single CPU, in parallel with its ports
 * (the paper's full overlap).  A task may use what its period's
 * transfers, or the tasks listed before it, produced for the same batch:
 * its lag may equal its producers'; so may a send's, after a send whose
 * parts carrying its messages come in earlier slots (same-period
 * forwarding, whose timing `steady check` validates); a send after a task
 * needs an earlier period's result.
 *
 * Availability.  Each piece (a transfer, a compute entry) has its own
 * availability per batch, and a piece waits for the pieces of its
 * producer that carry some of its message positions: message j is
 * forwarded as soon as message j is in, as steady-run does.
 * A step's input is the value its producer made on the same node for the
 * same batch: the previous hop of a route, the parent edge of a broadcast
 * arborescence, the reception or task that made v[k,m] on that node in a
 * reduction tree; or an initial value, there at time 0 (the source's
 * messages, participant r_k's own v[k,k]).
 *
 * No deadlock.  Events are processed once each, in the program's total
 * order, and an event's start is the maximum of quantities set by EARLIER
 * events only (port and CPU release times, and availabilities of batches
 * produced earlier in the program: in earlier periods, or in the same one
 * by an earlier slot's transfer or an earlier task, which inbox_layout()
 * checks).  So every start is well-defined: the replay cannot block,
 * whatever the schedule.
 *
 * Completion.  An operation is done when the last step of its tree(s)
 * completes (the final reduction or reception of v[0,N-1], the last hop of
 * each route, the last delivery of an arborescence).  Every step of a tree
 * feeds its final steps, so the makespan, the time the last operation is
 * done counted from 0, is the latest completion of any event.
 *
 * Inboxes.  A piece's producers deliver to it: when producer z of step s
 * completes batch b (in period b + λ(s)), it raises the time in its
 * consumer c's inbox place for b to its own arrival, and c takes the
 * place's time as its input's readiness when it runs batch b (period
 * b + λ(c), the same one when s forwards in it), leaving it at 0.  The
 * loop reads its own inboxes in program order, and its accesses anywhere
 * in the period's state are the deliveries, which nothing in the loop
 * waits for (reading each producer's availability instead, an event
 * waiting on a load anywhere per dependency, took 22% longer on the
 * 1,000-node broadcast plan of docs/performance.md).  Nothing is
 * allocated per operation or per batch:
 * c's inbox is a ring of d >= λ(c) - λ(s) + 1 places for every producer
 * step s, indexed by b mod d (the place of batch b is reused by batch
 * b + d, delivered in period b + d + λ(s) > b + λ(c)), d a power of two:
 * mostly 1 or 2, where a ring of L + 1 per piece made the 1,000-node
 * periods' state (10^5..10^6 pieces) outgrow the caches.
 *
 * Cost: O(S^2) to find the producers (S steps; trees are small) and
 * O((P + L) (S + X + C)) time for the events, X transfers and C compute
 * entries per period; O(S + V + (X + C) (L + 1)) memory at most.  The run
 * is linear in N, a few nanoseconds per event: 10^6 operations of the reduce of
 * examples/platforms/tiers.plat (64 events per operation) take 0.3 s, of
 * its gossip (1165 transfers per operation) 6 s.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

/* A step in the current period. */
typedef struct {
    long n;     /* message positions of its batch that exist; 0: no batch */
    long batch; /* which batch */
} cur_t;

/* Messages of tree t in batch b that exist: positions [0, n). */
long batch_size(const steady_schedule_t *sc, int t, long b, long msgs)
{
    long n = msgs - b * sc->ops_per_period - sc->trees[t].first;
    if (n < 0)
        return 0;
    return n < sc->trees[t].weight ? n : sc->trees[t].weight;
}

steady_err_t steady_schedule_replay(const steady_schedule_t *sc, const steady_platform_t *p,
                                    long ops, steady_replay_t *res, steady_error_t *err)
{
    return steady_schedule_replay_observed(sc, p, ops, NULL, res, err);
}

/* Tells the observer about an event (kept out of the loop's way). */
void observe(const steady_replay_observer_t *obs, const replay_t *r, long q, int flat,
             const rtransfer_t *x, const rcompute_t *c, int compute, double amount, double start,
             double end, double done)
{
    const rstep_t *rs = &r->steps[flat];
    steady_replay_event_t ev = {
        .kind = x ? STEADY_STEP_SEND : STEADY_STEP_COMPUTE,
        .period = q,
        .batch = q - rs->lag,
        .slot = x ? x->slot : -1,
        .transfer = x ? x->index : -1,
        .compute = x ? -1 : compute,
        .tree = rs->tree,
        .step = rs->step,
        .node = x ? x->from_node : c->node,
        .peer = x ? x->to_node : -1,
        .amount = amount,
        .start = start,
        .end = end,
        .done = done,
    };
    obs->event(obs->ctx, &ev);
}

/* The inboxes (replay_t.inbox, out, ofirst): a piece's depth is the
 * smallest power of two above the lag it adds to its producers'; and
 * every producer comes before its consumer in the program (an earlier
 * period, or earlier in the same one). */
static steady_err_t inbox_layout(replay_t *r, steady_error_t *err)
{
    int np = r->nx + r->nc;
    r->inbox = calloc((size_t)np + 1, sizeof *r->inbox);
    r->out = malloc(((size_t)r->ndep + 1) * sizeof *r->out);
    r->ofirst = calloc((size_t)np + 2, sizeof *r->ofirst);
    if (!r->inbox || !r->out || !r->ofirst)
        return steady_error_set(err, STEADY_ENOMEM, "replay: out of memory");
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < np; i++) {
            const rdeps_t *in = i < r->nx ? &r->x[i].in : r->cp[i - r->nx].in;
            int lag = r->steps[piece_flat(r, i)].lag;
            for (int g = 0; g < (i < r->nx ? 1 : 2); g++)
                for (int d = in[g].first; d < in[g].first + in[g].n; d++) {
                    int z = r->dep[d];
                    long add = lag - r->steps[piece_flat(r, z)].lag;
                    if (pass == 1) {
                        /* ofirst[z + 1]: z's deliveries so far, then its end */
                        r->out[r->ofirst[z + 1]++] = r->inbox[i];
                        continue;
                    }
                    if (add < 0 || (add == 0 && z >= i))
                        return steady_error_set(
                            err, STEADY_EINVAL,
                            "replay: a transfer or task uses messages that its period "
                            "delivers later (a send with its producer's lag must come in a "
                            "later slot; the compute list must follow each tree's steps)");
                    while (r->inbox[i].mask < add)
                        r->inbox[i].mask = 2 * r->inbox[i].mask + 1;
                    r->ofirst[z + 2]++;
                }
        }
        if (pass == 1)
            break;
        /* in the executor's order, in which the program-order engine
         * reads them */
        r->nbox = 0;
        for (int k = 0; k < np; k++) {
            int i = k < r->nx ? r->xorder[k] : k;
            r->inbox[i].off = r->nbox;
            r->nbox += (size_t)r->inbox[i].mask + 1;
        }
        for (int i = 0; i < np; i++)
            r->ofirst[i + 2] += r->ofirst[i + 1];
    }
    return STEADY_OK;
}

/* The executor's rings (replay_t.depth): each step's pieces and readers,
 * its depth as runner/program.c sizes it (the furthest lag of a reader
 * past the step's, plus 2), and the program-order engine's places for
 * when a batch left it: a power of two above the depth (the place of
 * batch b is reused by batch b + depth + 1 or later, whose pieces run
 * after those of batch b + depth, which read it). */
static steady_err_t ring_layout(replay_t *r, steady_error_t *err)
{
    int np = r->nx + r->nc, nf = r->nflat;
    r->depth = calloc((size_t)nf + 1, sizeof *r->depth);
    r->sfirst = calloc((size_t)nf + 2, sizeof *r->sfirst);
    r->rfirst = calloc((size_t)nf + 2, sizeof *r->rfirst);
    r->spieces = malloc(((size_t)np + 1) * sizeof *r->spieces);
    r->readers = malloc((2 * (size_t)np + 1) * sizeof *r->readers);
    r->left = calloc((size_t)nf + 1, sizeof *r->left);
    if (!r->depth || !r->sfirst || !r->rfirst || !r->spieces || !r->readers || !r->left)
        return steady_error_set(err, STEADY_ENOMEM, "replay: out of memory");
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < np; i++) {
            const rstep_t *g = &r->steps[piece_flat(r, i)];
            if (pass == 0)
                r->sfirst[piece_flat(r, i) + 2]++;
            else
                r->spieces[r->sfirst[piece_flat(r, i) + 1]++] = i;
            for (int k = 0; k < g->nin; k++) {
                int f = g->in[k];
                if (f < 0)
                    continue;
                if (pass == 0) {
                    r->rfirst[f + 2]++;
                    int reach = g->lag - r->steps[f].lag + 2;
                    r->depth[f] = reach > r->depth[f] ? reach : r->depth[f];
                } else {
                    r->readers[r->rfirst[f + 1]++] = i;
                }
            }
        }
        if (pass == 1)
            break;
        for (int f = 0; f <= nf; f++) {
            r->sfirst[f + 1] += r->sfirst[f];
            r->rfirst[f + 1] += r->rfirst[f];
        }
    }
    for (int i = 0; i < r->nx; i++) {
        rtransfer_t *x = &r->x[i];
        int in = r->steps[x->flat].in[0];
        x->ring_out = r->depth[x->flat] ? x->flat : -1;
        x->ring_in = in >= 0 && r->depth[in] ? in : -1;
    }
    for (int i = 0; i < r->nc; i++) {
        rcompute_t *c = &r->cp[i];
        const rstep_t *st = &r->steps[c->flat];
        c->ring_out = r->depth[c->flat] ? c->flat : -1;
        for (int k = 0; k < 2; k++)
            c->ring_in[k] = k < st->nin && st->in[k] >= 0 && r->depth[st->in[k]] ? st->in[k] : -1;
    }
    r->nleft = 0;
    for (int f = 0; f < nf; f++) {
        r->left[f].off = r->nleft;
        while (r->left[f].mask < r->depth[f])
            r->left[f].mask = 2 * r->left[f].mask + 1;
        r->nleft += (size_t)r->left[f].mask + 1;
    }
    return STEADY_OK;
}

/* The program-order engine's copy of the transfers (replay_t.xrun). */
static steady_err_t run_layout(replay_t *r, steady_error_t *err)
{
    if (r->fluid)
        return STEADY_OK;
    if (!(r->xrun = malloc(((size_t)r->nx + 1) * sizeof *r->xrun)))
        return steady_error_set(err, STEADY_ENOMEM, "replay: out of memory");
    for (int k = 0; k < r->nx; k++) {
        const rtransfer_t *x = &r->x[r->xorder[k]];
        r->xrun[k] = (rrun_t){r->xorder[k], x->flat, x->msg, x->from_node, x->to_node, x->ring_out,
                              x->ring_in,   x->from, x->to,  x->c,         x->latency};
    }
    return STEADY_OK;
}

/* Checks sc's header against p and prepares r for the engines. */
static steady_err_t replay_open(const steady_schedule_t *sc, const steady_platform_t *p,
                                replay_t *r, steady_error_t *err)
{
    *r = (replay_t){.sc = sc, .p = p};
    if (sc->ops_per_period <= 0 || sc->max_lag < 0 || sc->ntrees <= 0)
        return steady_error_set(err, STEADY_EINVAL,
                                "replay: empty schedule (%ld operations per period, %d trees)",
                                sc->ops_per_period, sc->ntrees);
    if (sc->platform_nodes != steady_platform_node_count(p) ||
        sc->platform_edges != steady_platform_edge_count(p))
        return steady_error_set(err, STEADY_EINVAL,
                                "replay: the schedule is for a platform of %d nodes and %d "
                                "edges, not %d and %d",
                                sc->platform_nodes, sc->platform_edges,
                                steady_platform_node_count(p), steady_platform_edge_count(p));
    for (int i = 0; i < sc->nsources; i++)
        if (sc->sources[i] < 0 || sc->sources[i] >= sc->platform_nodes)
            return steady_error_set(err, STEADY_EINVAL, "replay: source %d is no node (%d)", i,
                                    sc->sources[i]);
    steady_err_t rc = replay_prepare(r, err);
    if (!rc)
        rc = inbox_layout(r, err);
    if (!rc)
        rc = ring_layout(r, err);
    return rc ? rc : run_layout(r, err);
}

/* A part of the message being gathered (run_periods). */
typedef struct {
    int i, flat, ring_in, ring_out;
    long batch;
    double amount;
} rpart_t;

/* When batch b left a ring entry (b -1: none yet). */
typedef struct {
    long b;
    double t;
} rleft_t;

/* The program-order engine's state between two periods: a run can stop
 * after any period and go on (settle()). */
typedef struct {
    double *box;   /* the inboxes (replay_t.inbox): 0 when read */
    rleft_t *left; /* when a batch left its step's ring entry (replay_t.left) */
    cur_t *cur;    /* scratch: what each step does this period */
    /* node: send port, receive port, CPU free, and under eager when its
     * last reception completed (4 per node) */
    double *free_at;
    rpart_t *parts; /* scratch: the parts of the message being gathered */
    double *last;   /* piece: its latest completion, or NULL */
    double makespan;
    long ntransfers, ntasks;
    long q; /* the next period */
} run_t;

static void run_free(run_t *s)
{
    free(s->box);
    free(s->left);
    free(s->cur);
    free(s->free_at);
    free(s->parts);
}

/* A run before its first period (last: NULL, or zeroed by the caller). */
static bool run_init(run_t *s, const replay_t *r, double *last)
{
    int nv = steady_platform_node_count(r->p);
    *s = (run_t){.last = last};
    s->box = calloc(r->nbox + 1, sizeof *s->box);
    s->left = malloc((r->nleft + 1) * sizeof *s->left);
    s->cur = malloc(((size_t)r->nflat + 1) * sizeof *s->cur);
    s->free_at = calloc(4 * (size_t)nv + 1, sizeof *s->free_at);
    s->parts = malloc(((size_t)r->nx + 1) * sizeof *s->parts);
    if (s->box && s->left && s->cur && s->free_at && s->parts) {
        for (size_t k = 0; k < r->nleft; k++)
            s->left[k] = (rleft_t){-1, 0};
        return true;
    }
    run_free(s);
    return false;
}

/* When piece i's input for batch b is ready (0: at the start, or nothing
 * delivered: positions the batch does not have), its inbox's place
 * emptied for batch b + its depth. */
static inline double take(const replay_t *r, double *box, int i, long b)
{
    double *at = &box[box_at(r->inbox[i], b)];
    double ready = *at;
    *at = 0;
    return ready;
}

/* Piece z's output for batch b is there at time t: its consumers' inboxes
 * get it. */
static inline void deliver(const replay_t *r, double *box, int z, long b, double t)
{
    for (int o = r->ofirst[z]; o < r->ofirst[z + 1]; o++) {
        double *at = &box[box_at(r->out[o], b)];
        *at = later(*at, t);
    }
}

/* When step f's ring entry for batch b is free: batch b - depth has left
 * it (0 when f < 0, a step without a ring, or for the first batches). */
static inline double entry_free(const replay_t *r, const run_t *s, int f, long b)
{
    if (f < 0)
        return 0;
    long old = b - r->depth[f];
    const rleft_t *e = &s->left[box_at(r->left[f], old)];
    return old >= 0 && e->b == old ? e->t : 0;
}

/* Batch b of step f (a producing piece done, or a reader past it) is in
 * its ring entry until t at least (f < 0: no ring). */
static inline void leave(const replay_t *r, run_t *s, int f, long b, double t)
{
    if (f < 0)
        return;
    rleft_t *e = &s->left[box_at(r->left[f], b)];
    if (e->b != b)
        *e = (rleft_t){b, t};
    else
        e->t = later(e->t, t);
}

/* Periods s->q .. until - 1 of the replay of `msgs` messages. */
static void run_periods(const replay_t *rp, run_t *s, long msgs, long until,
                        const steady_replay_observer_t *obs)
{
    const replay_t r = *rp;
    const steady_schedule_t *sc = r.sc;
    const steady_replay_observer_t *on_event = obs && obs->event ? obs : NULL;
    long K = sc->ops_per_period;
    long P = msgs / K + (msgs % K != 0);
    cur_t *cur = s->cur;
    double *box = s->box, *last = s->last;
    double makespan = s->makespan;
    bool rendezvous = sc->cost_model == STEADY_COST_RENDEZVOUS;
    for (; s->q < until; s->q++) {
        long q = s->q;
        /* What each step does this period: its batch's size (0: none) and
         * where the batch sits in the inboxes. */
        for (int f = 0; f < r.nflat; f++) {
            const rstep_t *rs = &r.steps[f];
            long b = q - rs->lag;
            cur[f].n = b >= 0 && b < P ? batch_size(sc, rs->tree, b, msgs) : 0;
            cur[f].batch = b;
        }
        /* the transfers, message by message (their parts are together in
         * xrun): the sender posts a message once every part's input is
         * there, and its bytes then leave their ring entries; the receiver
         * takes it once its port and, under rendezvous, every part's entry
         * are free (an eager message waits for its entry in MPI's buffers,
         * which the sender does not wait for); its parts follow one
         * another, and it is delivered whole when the last one ends */
        int nparts = 0;
        double inputs = 0;       /* when the gathered parts' inputs are all there */
        const rrun_t *x0 = NULL; /* the first part */
        for (int k = 0; k <= r.nx; k++) {
            const rrun_t *x = k < r.nx ? &r.xrun[k] : NULL;
            if (nparts > 0 && (!x || x->msg != x0->msg)) {
                double *send_free = &s->free_at[4 * x0->from_node];
                double *recv_free = &s->free_at[4 * x0->to_node + 1];
                /* (parts of one step share their entries: one look each) */
                const rpart_t *pt = s->parts;
                double post = later(inputs, *send_free), entries = 0;
                for (int j = 0; j < nparts; j++) {
                    if (j > 0 && pt[j].flat == pt[j - 1].flat)
                        continue;
                    leave(&r, s, pt[j].ring_in, pt[j].batch, post);
                    entries = later(entries, entry_free(&r, s, pt[j].ring_out, pt[j].batch));
                }
                /* under rendezvous the latency first, holding both ports */
                double t = later(post, rendezvous ? later(*recv_free, entries) : *recv_free);
                double end = t + (rendezvous ? x0->latency : 0);
                for (int j = 0; j < nparts; j++)
                    end += pt[j].amount * x0->c;
                double arrival = end + (rendezvous ? 0 : x0->latency);
                if (!rendezvous) {
                    /* the receiver posts one receive at a time, once the
                     * one before completed and every part's entry is
                     * free: the message waits in MPI's buffers until then */
                    double *recv_done = &s->free_at[4 * x0->to_node + 3];
                    arrival = *recv_done = later(arrival, later(*recv_done, entries));
                }
                for (int j = 0; j < nparts; j++) {
                    int i = pt[j].i;
                    double begin = t;
                    t += (j == 0 && rendezvous ? x0->latency : 0) + pt[j].amount * x0->c;
                    if (j == 0 || pt[j].flat != pt[j - 1].flat)
                        leave(&r, s, pt[j].ring_out, pt[j].batch, arrival);
                    deliver(&r, box, i, pt[j].batch, arrival);
                    if (last)
                        last[i] = later(last[i], arrival);
                    if (on_event)
                        observe(on_event, &r, q, pt[j].flat, &r.x[i], NULL, -1, pt[j].amount, begin,
                                t, arrival);
                }
                *send_free = *recv_free = end;
                makespan = later(makespan, arrival);
                s->ntransfers += nparts;
                nparts = 0;
                inputs = 0;
            }
            if (!x)
                break;
            int i = x->i;
            const cur_t *cs = &cur[x->flat];
            if (cs->n <= 0)
                continue;
            double in = take(&r, box, i, cs->batch);
            double amount = earlier(x->to, (double)cs->n) - x->from;
            if (amount <= 0)
                continue;
            inputs = later(inputs, in);
            x0 = nparts ? x0 : x;
            s->parts[nparts++] = (rpart_t){i, x->flat, x->ring_in, x->ring_out, cs->batch, amount};
        }
        for (int i = 0; i < r.nc; i++) {
            const rcompute_t *c = &r.cp[i];
            const cur_t *cs = &cur[c->flat];
            if (cs->n <= 0)
                continue;
            double ready = take(&r, box, r.nx + i, cs->batch);
            long n = cs->n - c->offset;
            if (n <= 0)
                continue;
            if (n > c->count)
                n = c->count;
            double *cpu_free = &s->free_at[4 * c->node + 2];
            double start =
                later(later(*cpu_free, ready), entry_free(&r, s, c->ring_out, cs->batch));
            double end = start + (double)n * c->w;
            *cpu_free = end;
            leave(&r, s, c->ring_in[0], cs->batch, end);
            leave(&r, s, c->ring_in[1], cs->batch, end);
            leave(&r, s, c->ring_out, cs->batch, end);
            deliver(&r, box, r.nx + i, cs->batch, end);
            makespan = later(makespan, end);
            if (last)
                last[r.nx + i] = later(last[r.nx + i], end);
            s->ntasks += n;
            if (on_event)
                observe(on_event, &r, q, c->flat, NULL, c, i, (double)n, start, end, end);
        }
        if (obs && obs->progress && (q & 255) == 255)
            obs->progress(obs->ctx, "replay, period", (double)(q + 1), (double)(P + sc->max_lag));
    }
    s->makespan = makespan;
}

/* The replay of `msgs` messages of the prepared r (replay_open); res
 * counts them as messages too; last (may be NULL) as replay_fluid's. */
static steady_err_t replay_run(const replay_t *r, long msgs, const steady_replay_observer_t *obs,
                               double *last, steady_replay_t *res, steady_error_t *err)
{
    memset(res, 0, sizeof *res);
    if (r->fluid)
        return replay_fluid(r, msgs, obs, last, res, err);
    long K = r->sc->ops_per_period, L = r->sc->max_lag;
    long P = msgs / K + (msgs % K != 0);
    run_t s;
    if (!run_init(&s, r, last))
        return steady_error_set(err, STEADY_ENOMEM, "replay: out of memory");
    run_periods(r, &s, msgs, P + L, obs);
    res->ops = msgs;
    res->makespan = s.makespan;
    res->transfers = s.ntransfers;
    res->tasks = s.ntasks;
    run_free(&s);
    return STEADY_OK;
}

/* replay_run of a schedule not prepared yet. */
static steady_err_t replay_messages(const steady_schedule_t *sc, const steady_platform_t *p,
                                    long msgs, const steady_replay_observer_t *obs,
                                    steady_replay_t *res, steady_error_t *err)
{
    replay_t r;
    memset(res, 0, sizeof *res);
    steady_err_t rc = replay_open(sc, p, &r, err);
    if (!rc)
        rc = replay_run(&r, msgs, obs, NULL, res, err);
    replay_free(&r);
    return rc;
}

steady_err_t steady_schedule_replay_observed(const steady_schedule_t *sc,
                                             const steady_platform_t *p, long ops,
                                             const steady_replay_observer_t *obs,
                                             steady_replay_t *res, steady_error_t *err)
{
    long msgs = 0;
    memset(res, 0, sizeof *res);
    steady_err_t rc = steady_schedule_messages(sc, ops, &msgs, err);
    if (!rc)
        rc = replay_messages(sc, p, msgs, obs, res, err);
    if (rc)
        return rc;
    res->ops = ops;
    res->achieved = res->makespan > 0 ? (double)ops / res->makespan : INFINITY;
    res->optimum = steady_schedule_per_operation(sc, sc->optimum);
    res->planned = steady_schedule_per_operation(sc, sc->throughput);
    res->ratio = res->optimum > 0 ? res->achieved / res->optimum : 0;
    return STEADY_OK;
}

/* The shortest runs steady_schedule_series_makespan() extrapolates from,
 * in batches: on the random platforms of the unit tests, runs of
 * 2 (max_lag + 1) batches (often fewer than 10) saw 5 of 47 transients
 * as periodic (estimates within 1%). */
#define SERIES_WINDOW 16

/* Runs that still disagree within the budget give the estimate, rather
 * than a replay of the whole series, beyond this many times the budget
 * (the 1,000-node plans of bench/scale.sh: a 162 597-transfer period,
 * 20 000 batches, 81 s to replay whole). */
#define SERIES_WHOLE 8

/* The fluid engine's estimate: runs of p1, 2 p1 and 3 p1 of the series' P
 * batches, *periodic when every piece's two increments agree, and then
 * the extrapolated *makespan. */
static steady_err_t extrapolate(const replay_t *r, long msgs, long P, long p1, double *makespan,
                                bool *periodic, steady_error_t *err)
{
    size_t n = (size_t)r->nx + (size_t)r->nc;
    double *done = calloc(3 * n + 1, sizeof *done);
    if (!done)
        return steady_error_set(err, STEADY_ENOMEM, "replay: out of memory");
    steady_replay_t res;
    steady_err_t rc = STEADY_OK;
    for (int k = 0; k < 3 && !rc; k++)
        rc = replay_run(r, msgs - (P - (k + 1) * p1) * r->sc->ops_per_period, NULL, done + k * n,
                        &res, err);
    *periodic = !rc;
    *makespan = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        double a = done[n + i] - done[i], b = done[2 * n + i] - done[n + i];
        *periodic = *periodic && fabs(a - b) <= 1e-9 * done[2 * n + i];
        *makespan = later(*makespan, done[2 * n + i] + (double)(P - 3 * p1) * b / (double)p1);
    }
    free(done);
    return rc;
}

/* The program-order engine's estimate: one run of the series, period
 * after period, until every piece has completed its batch the same time
 * after its previous one, period after period, `streak` times in a row
 * (*periodic); there, at period q, the run goes on as the run of the
 * series' last P' = q + 2 batches (the two agree up to period q: full
 * batches), and each piece's last completion in it, moved on by its
 * increment per period for the P - P' batches left, gives the *makespan.
 * Not periodic by period `most`: with `whole`, the run goes on to the
 * series' end, still looking, and gives the *makespan replayed (*exact
 * when it never settled); without, the same estimate from the last
 * increments. */
static steady_err_t settle(const replay_t *r, long msgs, long P, long most, long streak, bool whole,
                           double *makespan, bool *periodic, bool *exact, steady_error_t *err)
{
    size_t n = (size_t)r->nx + (size_t)r->nc;
    long K = r->sc->ops_per_period, L = r->sc->max_lag;
    double *t = malloc((3 * n + 1) * sizeof *t), *done = calloc(2 * n + 1, sizeof *done);
    /* each piece's latest completion: its batch of the period just run
     * (a piece's events end later period after period) */
    double *latest = done + n;
    run_t s;
    bool ok = t && done && run_init(&s, r, latest);
    steady_err_t rc =
        ok ? STEADY_OK : steady_error_set(err, STEADY_ENOMEM, "replay: out of memory");
    *periodic = *exact = false;
    *makespan = 0;
    /* t: this period's completions, then the two periods before */
    double *now = t, *before = t + n, *older = t + 2 * n;
    long q = 0, agreed = 0;
    for (; ok && q + 2 < P && (q < most || whole) && agreed < streak; q++) {
        run_periods(r, &s, msgs, q + 1, NULL);
        if (q < L)
            continue;
        memcpy(now, latest, n * sizeof *now);
        bool same = q >= L + 2;
        for (size_t i = 0; i < n && same; i++)
            same = fabs((now[i] - before[i]) - (before[i] - older[i])) <= 1e-9 * now[i];
        agreed = same ? agreed + 1 : 0;
        double *x = older;
        older = before;
        before = now;
        now = x;
    }
    if (ok && whole && agreed < streak) {
        run_periods(r, &s, msgs, P + L, NULL);
        *makespan = s.makespan;
        *exact = true;
    } else if (ok && q >= L + 2) {
        /* before: period q - 1's completions, older: q - 2's */
        long rest = P - (q + 1);
        s.last = done;
        run_periods(r, &s, msgs - rest * K, q + 1 + L, NULL);
        for (size_t i = 0; i < n; i++)
            *makespan = later(*makespan, done[i] + (double)rest * (before[i] - older[i]));
        *periodic = agreed >= streak;
    }
    if (ok)
        run_free(&s);
    free(t);
    free(done);
    return rc;
}

steady_err_t replay_series(const steady_schedule_t *sc, const steady_platform_t *p, long ops,
                           long max_events, double *makespan, bool *extrapolated, long *messages,
                           steady_error_t *err)
{
    *makespan = 0;
    if (extrapolated)
        *extrapolated = false;
    long msgs = 0;
    replay_t r;
    steady_err_t rc = steady_schedule_messages(sc, ops, &msgs, err);
    if (rc)
        return rc;
    if ((rc = replay_open(sc, p, &r, err))) {
        replay_free(&r);
        return rc;
    }
    if (messages)
        *messages = r.nmsg;
    bool periodic = false;
    long K = sc->ops_per_period, L = sc->max_lag, events = r.nx + r.nc;
    if (r.fluid)
        max_events /= FLUID_EVENT_WEIGHT;
    long P = msgs / K + (msgs % K != 0);
    /* the program-order engine: one run until it is periodic for a third
     * of max_events' periods in a row (at least p1: SERIES_WINDOW and a
     * batch's whole pipeline twice), going on to the series' end when that
     * takes at most SERIES_WHOLE times max_events; the fluid engine: runs
     * of p1 batches, doubling while they disagree and their events stay
     * within max_events, then the whole series within SERIES_WHOLE times
     * max_events; that series at once when the three first runs would
     * replay at least half as many periods as it (runs that agree save less than they
     * cost when they do not: a 300-host chain's, 1 194 batches deep, took
     * 13.5 s before its whole series of 5 000 batches).  Beyond: the
     * estimate */
    long p1 = 2 * (L + 1) > SERIES_WINDOW ? 2 * (L + 1) : SERIES_WINDOW;
    bool over = max_events > 0 && (P + L) * events > max_events;
    bool whole = (double)(P + L) * (double)events <= SERIES_WHOLE * (double)max_events;
    bool tried = false, exact = false;
    if (over && !r.fluid) {
        long most = max_events / events - (L + 1);
        rc = settle(&r, msgs, P, most > 3 * p1 + L ? most : 3 * p1 + L,
                    most / 3 > p1 ? most / 3 : p1, whole, makespan, &periodic, &exact, err);
        tried = *makespan > 0; /* not on a series too short to settle */
    } else if (over && !(whole && 2 * (6 * p1 + 3 * L) >= P + L)) {
        long most = max_events / events > 3 * L ? (max_events / events - 3 * L) / 6 : 0;
        for (; !rc && !periodic && 3 * p1 < P; p1 *= 2) {
            rc = extrapolate(&r, msgs, P, p1, makespan, &periodic, err);
            tried = true;
            if (2 * p1 > most)
                break;
        }
    }
    bool estimate = tried && !whole && !periodic;
    if (!rc && !periodic && !estimate && !exact) {
        steady_replay_t res;
        rc = replay_run(&r, msgs, NULL, NULL, &res, err);
        *makespan = res.makespan;
    }
    replay_free(&r);
    if (extrapolated)
        *extrapolated = !rc && (periodic || estimate);
    return rc;
}

steady_err_t steady_schedule_series_makespan(const steady_schedule_t *sc,
                                             const steady_platform_t *p, long ops, long max_events,
                                             double *makespan, bool *extrapolated,
                                             steady_error_t *err)
{
    return replay_series(sc, p, ops, max_events, makespan, extrapolated, NULL, err);
}
