/*
 * schedule/replay.h — the replay's shared pieces (not installed): the
 * schedule flattened into steps, the period's transfers and compute
 * entries with their dependencies (replay_prepare.c prepares them), and the two
 * engines that run them: replay.c's, in program order, for platforms whose
 * messages share nothing but ports, and fluid.c's, in simulated time, for
 * messages that share channels.
 */
#ifndef STEADY_SCHEDULE_REPLAY_H
#define STEADY_SCHEDULE_REPLAY_H

#include "steady/schedule.h"

/* A latency this share of the shorter of two consecutive parts' transfers
 * is worth their being one message when they forward a producer's data
 * (replay_prepare.c's joins(); the planner's count of messages,
 * plan_order.c, follows it). */
#define JOIN_LATENCY_SHARE 0.1

/* An event of the fluid engine costs about this many of the program-order
 * engine's (its rates: fluid_share.c; a 40-host torus' broadcast, 28
 * transfers running across 62 resources, 11 rounds of filling per event),
 * and counts so against the budgets of events (replay_series' max_events,
 * the planner's tree phases). */
#define FLUID_EVENT_WEIGHT 32

/* A step of the schedule, flattened over the trees. */
typedef struct {
    int tree, step;
    int lag;
    int in[2]; /* producing steps (flat indices); -1: an initial value (time 0) */
    int nin;
    long cover; /* compute step: tasks of the period given by the compute entries so far */
} rstep_t;

/* The producer pieces an input waits for: dep[first .. first + n). */
typedef struct {
    int first, n;
} rdeps_t;

/* A piece's inbox (replay_t.inbox): a place per batch in flight, batch b
 * at off + (b & mask). */
typedef struct {
    size_t off;
    long mask;
} rbox_t;

/* A transfer of the period, with what the loop needs at hand: what
 * replay.c's loop reads of it comes first, in 64 bytes. */
typedef struct {
    int flat; /* its step */
    int msg;  /* steady-run's MPI message it goes in (steady_schedule_message_ids) */
    int from_node, to_node;
    /* the steps whose rings it uses (replay_t.depth), -1 for none: the one
     * it fills (its own), the one it passes on (its input's) */
    int ring_out, ring_in;
    rdeps_t in;
    double from, to; /* message positions */
    double c, latency;
    int tree;
    int slot, index;     /* where it is in the schedule */
    int next_part;       /* the next part of its message, or -1 */
    int mfirst;          /* its message's first part (the executor posts the
                          * message once every part's input is there) */
    int use_first, nuse; /* its shared resources: use_res / use_time[use_first ..] */
    double rf;     /* the hop's rate factor while its sender receives (steady_hop_recv_factor) */
    double weight; /* its share of a resource, relative: 1 / steady_hop_penalty */
} rtransfer_t;

/* A transfer as the program-order engine's loop reads it, in the
 * executor's order (replay_t.xrun): rtransfer_t's fields, copied, and
 * its index i, in 64 bytes read one after the other. */
typedef struct {
    int i, flat, msg, from_node, to_node, ring_out, ring_in;
    double from, to, c, latency;
} rrun_t;

/* A compute entry of the period. */
typedef struct {
    int flat, tree, node;
    long offset, count; /* positions [offset, offset + count) of the step's tasks */
    double w;
    int ring_out, ring_in[2]; /* as rtransfer_t's */
    rdeps_t in[2];
} rcompute_t;

typedef struct {
    const steady_schedule_t *sc;
    const steady_platform_t *p;
    int nflat;
    int *base; /* flat index of tree i's step 0 */
    rstep_t *steps;
    int nx, nc;
    rtransfer_t *x; /* slot by slot */
    /* the transfers in the executor's order, which the ports follow: by
     * message, each where its first part is, its parts in slot order */
    int *xorder;
    rrun_t *xrun; /* the program-order engine's copy, in that order */
    int nmsg;     /* the MPI messages the transfers go in */
    rcompute_t *cp;
    int (*interval)[2]; /* reduce: [k, m] of each message type */
    int *origin;        /* gossip: the sender of each message type */
    int ndep;
    int *dep;      /* producer pieces: transfers 0 .. nx - 1, compute entries nx .. */
    double *dfrom; /* where each dep's positions start (it is absent from batches that end there) */
    /* the shared resources each transfer occupies: resource, and the time
     * one message holds it (its capacity is 1: a transfer at full speed,
     * 1 / c messages per unit of time, takes use_time / c of it) */
    int nuse;
    int *use_res;
    double *use_time;
    /* the resources: the platform's shared ones, then, under the penalty
     * rule, one per FATPIPE channel (R + channel), which SimGrid shares by
     * the max of its flows' weights rather than their sum (fluid.c's
     * share()): fat[res] */
    int nres;
    bool *fat;
    /* the rates depend on what runs at once: shared resources, or a hop
     * slower while its sender receives (rf < 1) — fluid.c's engine */
    bool fluid;
    /* the program-order engine's inboxes (replay.c): when piece i's input
     * for batch b is ready, the latest delivery of its producers, is in
     * inbox[i] until i reads it; producer z delivers to the inboxes
     * out[ofirst[z] .. ofirst[z + 1]) */
    size_t nbox;
    rbox_t *inbox, *out;
    int *ofirst;
    /* the executor's rings (runner/program.c): step f's output is kept
     * on its node in depth[f] entries, one batch each (0: nothing there
     * reads it), and a piece of f starts batch b only once batch
     * b - depth[f] has left its entry: its pieces done, each of its
     * readers past it (a send once posted, its bytes copied; a task once
     * ended).  Step f's pieces are spieces[sfirst[f] .. sfirst[f + 1]),
     * the pieces reading it readers[rfirst[f] .. rfirst[f + 1]); the
     * program-order engine keeps when batch b left step f's entry at
     * box_at(left[f], b) */
    int *depth;
    int *sfirst, *spieces, *rfirst, *readers;
    rbox_t *left;
    size_t nleft;
} replay_t;

/* Where batch b's place of an inbox is (replay_t.inbox, out). */
static inline size_t box_at(rbox_t g, long b)
{
    return g.off + (size_t)(b & g.mask);
}

/* The step of piece i (a transfer, then the compute entries). */
static inline int piece_flat(const replay_t *r, int i)
{
    return i < r->nx ? r->x[i].flat : r->cp[i - r->nx].flat;
}

/* Flattens sc for p into r (steps, pieces, dependencies), checking every
 * reference the engines follow.  replay_free(r) whatever the result. */
steady_err_t replay_prepare(replay_t *r, steady_error_t *err);
void replay_free(replay_t *r);

/* steady_schedule_series_makespan, which also counts the MPI messages of
 * a period (messages may be NULL): one preparation of the schedule. */
steady_err_t replay_series(const steady_schedule_t *sc, const steady_platform_t *p, long ops,
                           long max_events, double *makespan, bool *extrapolated, long *messages,
                           steady_error_t *err);

/* fmax / fmin without their NaN handling, which costs a library call on
 * the hot path (no time here is ever NaN). */
static inline double later(double a, double b)
{
    return a > b ? a : b;
}

static inline double earlier(double a, double b)
{
    return a < b ? a : b;
}

/* Messages of tree t in batch b that exist: positions [0, n). */
long batch_size(const steady_schedule_t *sc, int t, long b, long msgs);

/* Tells the observer about an event (x for a transfer, c for a compute
 * entry). */
void observe(const steady_replay_observer_t *obs, const replay_t *r, long q, int flat,
             const rtransfer_t *x, const rcompute_t *c, int compute, double amount, double start,
             double end, double done);

/* fluid.c: the replay of `msgs` messages when transfers share resources:
 * a simulation in time in which the transfers running at once share each
 * resource max-min fairly; res->makespan, transfers and tasks, and (last
 * not NULL) each piece's latest completion raised into last[piece]
 * (transfers 0 .. nx - 1, then compute entries). */
steady_err_t replay_fluid(const replay_t *r, long msgs, const steady_replay_observer_t *obs,
                          double *last, steady_replay_t *res, steady_error_t *err);

#endif
