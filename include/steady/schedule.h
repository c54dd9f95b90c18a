/*
 * steady/schedule.h — periodic schedules (docs/schedule-format.md): built
 * from an exact LP solution (paper §3.3-3.4, §4.3-4.6), written and read as
 * JSON, validated independently, and replayed under the one-port model.
 *
 * A schedule is a document: its structs are transparent and read-only for
 * the caller; steady_schedule_destroy() frees everything.
 */
#ifndef STEADY_SCHEDULE_H
#define STEADY_SCHEDULE_H

#include <stdio.h> /* before gmp.h, which declares gmp_fprintf only after it */

#include <gmp.h>
#include <stdbool.h>
#include <stdint.h>

#include "steady/decompose.h"
#include "steady/error.h"
#include "steady/lp.h"
#include "steady/platform.h"
#include "steady/progress.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    steady_step_kind_t kind;
    int edge;    /* SEND: platform edge id: the first edge of the message's hop */
    int hop;     /* SEND: index into the schedule's hops when the message crosses switches
                    (a path of several edges), -1 when it is the edge alone */
    int type;    /* SEND: index into the schedule's type names */
    int node;    /* COMPUTE: processor id */
    int k, l, m; /* COMPUTE: task T(k,l,m), participant indices */
    int lag;     /* works on the batch of period p - lag */
} steady_sched_step_t;

typedef struct {
    long weight; /* operations of each batch that follow this tree */
    long first;  /* position of its first operation in the batch */
    int nsteps;
    steady_sched_step_t *steps; /* dependency order */
} steady_sched_tree_t;

typedef struct {
    int tree, step; /* a SEND step */
    mpq_t from, to; /* message positions [from, to) within [0, weight] */
} steady_sched_transfer_t;

typedef struct {
    mpq_t start, duration; /* within the period */
    int ntransfers;
    steady_sched_transfer_t *transfers;
} steady_sched_slot_t;

typedef struct {
    int node, tree, step; /* a COMPUTE step */
    long count;           /* tasks per period */
} steady_sched_compute_t;

typedef struct {
    int node, type;
    long messages; /* the most messages of that type held at once */
} steady_sched_buffer_t;

/* What a message's latency holds (docs/schedule-format.md, "Cost model"):
 * the replay and the planner's choices follow it; the LP's optimum, a
 * bound on throughput, holds for both. */
typedef enum {
    /* both ports, for the latency, before the transfer (SimGrid pays it
     * first): an MPI rendezvous send completes when its data has arrived.
     * What steady-run does: every send under SMPI, the large ones on MPI
     * libraries. */
    STEADY_COST_RENDEZVOUS = 0,
    /* no port: the latency delays the delivery only (the paper's model; an
     * eager send, buffered by the library) */
    STEADY_COST_EAGER
} steady_cost_model_t;

/* "rendezvous", "eager" -> model, or -1; and back. */
int steady_cost_model_from_name(const char *name);
const char *steady_cost_model_name(steady_cost_model_t m);

typedef struct {
    /* the platform it was made for */
    char *platform_name;
    uint64_t platform_hash;
    int platform_nodes, platform_edges;
    /* the problem */
    steady_op_t op;
    int nsources, *sources; /* node ids */
    int ntargets, *targets;
    /* the messages the schedule moves, and the operations of the series:
     * each operation of segments * msg_size bytes is `segments` consecutive
     * messages (segment j of operation k is message k segments + j, bytes
     * [j msg_size, (j + 1) msg_size) of it); every count and rate below is
     * per message */
    double msg_size, task_cost;
    long segments;
    bool abstract;
    steady_cost_model_t cost_model; /* what the replay charges a message's latency */
    /* the period */
    mpq_t optimum;    /* the LP's TP */
    mpq_t throughput; /* ops_per_period / period */
    mpq_t period;     /* length of a period */
    long ops_per_period;
    bool fixed_period;
    mpq_t loss, loss_bound; /* fixed period: optimum - throughput, and #trees / period */
    int max_lag;
    /* message type names ("P3", "P0>P3", "[1,4]", "msg") */
    int ntypes;
    char **types;
    int ntrees;
    steady_sched_tree_t *trees;
    int nslots;
    steady_sched_slot_t *slots;
    int ncompute;
    steady_sched_compute_t *compute;
    int nbuffers;
    steady_sched_buffer_t *buffers;
    /* the hops through switches that send steps take (platform.h) */
    int nhops;
    steady_hop_t *hops;
    /* what steady_schedule_plan's replays found for the series it planned
     * (steady_schedule_series_makespan with a budget of 2·10^7 events),
     * 0 when it replayed none; not in the file: its makespan and steady-run's
     * MPI messages per operation */
    long replayed_series;
    double replayed_makespan, replayed_messages;
} steady_schedule_t;

/* The edges a SEND step's message crosses, from its sender to its
 * receiver: its hop's path, or its edge alone (*n gets their number). */
const int *steady_sched_step_edges(const steady_schedule_t *sc, const steady_sched_step_t *st,
                                   int *n);
/* The sender and the receiver of a SEND step (ranks). */
int steady_sched_step_src(const steady_schedule_t *sc, const steady_platform_t *p,
                          const steady_sched_step_t *st);
/* The MPI messages of a period as steady-run sends them: the transfers of
 * one slot from one rank to one peer are one message, continued in the
 * next slot by that rank's transfers to the same peer when each continues
 * one of them (the same step, its positions starting where that one's
 * end) and forwards what was made before the message starts (in an earlier
 * period, or in a slot before its first): the parts of a long transfer that
 * the matchings cut into consecutive slots go as one message, paying one
 * latency, and wait for nothing more than the first part does.  A slot is a
 * matching, so the receiver keeps to that sender alike.  msg[t] receives
 * the message of transfer t (the period's transfers numbered slot by
 * slot), the messages numbered in the order of their first transfer, and
 * *count their number.  Errors: those of steady_schedule_replay on a
 * schedule it cannot follow; out of memory. */
steady_err_t steady_schedule_message_ids(const steady_schedule_t *sc, const steady_platform_t *p,
                                         int *msg, int *count, steady_error_t *err);
/* The number of those MPI messages in a period (*count), and per operation
 * (*per_op: count x segments / ops_per_period, what `steady plan` and
 * steady-run report; NULL if not wanted).  Errors: as
 * steady_schedule_message_ids. */
steady_err_t steady_schedule_message_count(const steady_schedule_t *sc, const steady_platform_t *p,
                                           long *count, double *per_op, steady_error_t *err);
/* The smallest and the largest of those MPI messages in bytes, in a
 * period of full batches (0 and 0 without any).  Errors: as
 * steady_schedule_message_ids. */
steady_err_t steady_schedule_message_bytes(const steady_schedule_t *sc, const steady_platform_t *p,
                                           double *min, double *max, steady_error_t *err);
int steady_sched_step_dst(const steady_schedule_t *sc, const steady_platform_t *p,
                          const steady_sched_step_t *st);

/* steady_plan_options_t.period: */
#define STEADY_PERIOD_AUTO    0.0  /* T = K / TP, K <= 128 chosen for the series length */
#define STEADY_PERIOD_EXACT   -1.0 /* the smallest T in which every tree runs whole operations */
#define STEADY_DEFAULT_SERIES 10000

typedef struct {
    /* STEADY_PERIOD_AUTO (the default), STEADY_PERIOD_EXACT, or > 0: the
     * paper's fixed period (§4.6) of that length, each tree running
     * floor(rate * period) operations, plus what the ports still fit. */
    double period;
    /* the automatic period is chosen to run a series of this many
     * operations fastest (0: STEADY_DEFAULT_SERIES) */
    long series;
    /* steady_schedule_plan: segments per operation (0: automatic) */
    long segments;
    /* the schedule's cost model, which the replays that choose the period
     * and the segments follow (default: STEADY_COST_RENDEZVOUS) */
    steady_cost_model_t cost_model;
    /* threads that build and replay the period's candidates side by side
     * (0: one per online processor); the schedule is the same whatever
     * the count */
    int threads;
    /* if set, called with the stage ("trees", "whole counts, K",
     * "period candidates, built and replayed") and how far it is
     * (steady/progress.h) */
    steady_progress_fn progress;
    void *progress_ctx;
} steady_plan_options_t;

/* Builds the periodic schedule of an exact solution: trees
 * (steady_trees_decompose), the period, lags, the period's communications
 * decomposed into matchings (steady_matchings_decompose), compute lists and
 * buffers.  opts may be NULL.  Errors: an approximate solution, a fixed
 * period too short for any operation -> EINVAL. */
steady_err_t steady_schedule_build(const steady_solution_t *s, const steady_plan_options_t *opts,
                                   steady_schedule_t **out, steady_error_t *err);

/* The automatic segments are at least this many bytes (against the costs
 * per message that the model does not see: docs/schedule-format.md,
 * "Segments"), and at most: */
#define STEADY_MIN_SEGMENT  262144.0
#define STEADY_MAX_SEGMENTS 64
/* The most segments steady_schedule_plan plans (opts->segments) and a
 * schedule file may hold: each is a message with its per-message costs, and
 * a tampered count would make a short run endless. */
#define STEADY_SEGMENTS_LIMIT 4096

/* The schedule of s's series with every operation's message cut into
 * segments (docs/schedule-format.md, "Segments").  s is the LP of whole
 * messages.  For m segments, the LP of messages of msg_size / m bytes and
 * tasks of task_cost / m flop (steady_lp_solve_segment, with sopts, which
 * may be NULL), its schedule built by steady_schedule_build for a series of
 * m opts->series messages, and sc->segments set to m.  opts->segments = m
 * >= 1 plans that m; 0 (automatic) takes m = 1 for a fixed or exact period
 * and on an abstract platform, else the most segments allowed (a power of
 * two, at most STEADY_MAX_SEGMENTS, segments of at least STEADY_MIN_SEGMENT
 * bytes and whole 8-byte words), then half as many while the series of
 * opts->series operations replays no slower.  Errors: m > 1 on an abstract
 * platform, or segments that are not whole 8-byte words -> STEADY_EINVAL;
 * those of the solver and of steady_schedule_build. */
steady_err_t steady_schedule_plan(const steady_solution_t *s, const steady_solve_options_t *sopts,
                                  const steady_plan_options_t *opts, steady_schedule_t **out,
                                  steady_error_t *err);

void steady_schedule_destroy(steady_schedule_t *sc);

/* What sc's counts (ops_per_period, weights) count: "operations", or
 * "segments" for a schedule in segments. */
const char *steady_schedule_unit(const steady_schedule_t *sc);

/* One of sc's rates (optimum, throughput, loss: per message) in operations
 * per time unit. */
double steady_schedule_per_operation(const steady_schedule_t *sc, const mpq_t rate);

/* *msgs: the messages of `ops` operations, ops * sc->segments.  ops not
 * positive, or too many messages for a long -> STEADY_EINVAL. */
steady_err_t steady_schedule_messages(const steady_schedule_t *sc, long ops, long *msgs,
                                      steady_error_t *err);

/* Whether a and b are the same schedule: the same problem, period, trees
 * (steps, hops, lags), slots, tasks and buffers, rationals exactly (what
 * their files say; not what a plan replayed of them). */
bool steady_schedule_equal(const steady_schedule_t *a, const steady_schedule_t *b);

/* Writes the JSON document (docs/schedule-format.md). */
steady_err_t steady_schedule_write(const steady_schedule_t *sc, const steady_platform_t *p,
                                   FILE *out, steady_error_t *err);

/* Reads a schedule file for platform p: JSON syntax, the format and
 * version, the platform hash, and that every name, index and number is
 * well-formed and refers to something that exists -> STEADY_EPARSE /
 * STEADY_EINVAL with "FILE: what (value)".  Whether the schedule is
 * *valid* is steady_schedule_check()'s business. */
steady_err_t steady_schedule_read(const char *path, const steady_platform_t *p,
                                  steady_schedule_t **out, steady_error_t *err);

/* The same from the len bytes at text, named origin in messages. */
steady_err_t steady_schedule_parse(const char *text, size_t len, const char *origin,
                                   const steady_platform_t *p, steady_schedule_t **out,
                                   steady_error_t *err);

/* ---- validation ---------------------------------------------------------- */

/* Violations found by the validator, one line each ("slot 3: P1 sends twice
 * (to P2 and to P4)"): at most 100 lines, then "... and N more". */
typedef struct {
    int count;  /* lines */
    long total; /* violations found */
    char **lines;
} steady_violations_t;

void steady_violations_free(steady_violations_t *v);

/* Independent validation of sc against p: one port per direction per node
 * in every slot; slots inside the period, disjoint, of positive duration;
 * transfer durations equal to their slot's; transfers on platform edges;
 * every send step's message positions covered exactly once per period;
 * dependencies (lags) and tree structure; processor load within the
 * period; weights adding up to ops_per_period and ops_per_period / period
 * equal to the claimed throughput, at most the optimum.  Fills v (possibly
 * empty); returns an error only when it cannot run (out of memory). */
steady_err_t steady_schedule_check(const steady_schedule_t *sc, const steady_platform_t *p,
                                   steady_violations_t *v, steady_error_t *err);

/* ---- replay ------------------------------------------------------------ */

typedef struct {
    long ops;
    double makespan;       /* time from the first start to the last completion */
    double achieved;       /* ops / makespan */
    double optimum;        /* the LP's TP */
    double planned;        /* the schedule's throughput */
    double ratio;          /* achieved / optimum */
    long transfers, tasks; /* events simulated */
} steady_replay_t;

/* Discrete-event execution of ops operations under the one-port model:
 * every node works through its sends, receives and tasks in schedule order
 * (period, slot, transfer), self-timed (no global clock): a transfer starts
 * when its sender's send port and its receiver's receive port are free and
 * its data has arrived, takes (to - from) * c(e) and delivers after the
 * edge's latency; a task takes w(i) once its operands are there. */
steady_err_t steady_schedule_replay(const steady_schedule_t *sc, const steady_platform_t *p,
                                    long ops, steady_replay_t *res, steady_error_t *err);

/* The makespan of `ops` operations of sc, as steady_schedule_replay finds
 * it, simulating at most about max_events events (transfers and compute
 * entries; 0: no limit).  A longer series is extrapolated.  Once the
 * execution is periodic, each piece of the period (a transfer, a compute
 * entry) completes its batch later by the same time per period.  The
 * series is replayed period after period until every piece's increment
 * has been the same (to 10^-9 of its time) for P1 periods in a row (P1 >=
 * 16, >= 2 (max_lag + 1) and >= a third of the periods max_events
 * allows); the run then goes on as the run of the series' last P' batches
 * (it agrees with it so far) and the makespan is
 *     max over pieces of  d(P') + (P - P') increment,
 * d the piece's last completion in it.  A run that is not periodic within
 * max_events has the series replayed whole, unless that takes more than 8
 * max_events: the last increments then give the estimate.  On platforms
 * whose messages share channels, runs of P1, 2 P1 and 3 P1 batches instead,
 * whose increments must agree, P1 doubling while they fit max_events.
 * Exact once periodic; a transient that looks periodic for P1 periods
 * makes it an estimate.  *extrapolated (may be NULL) tells whether the
 * makespan was extrapolated. */
steady_err_t steady_schedule_series_makespan(const steady_schedule_t *sc,
                                             const steady_platform_t *p, long ops, long max_events,
                                             double *makespan, bool *extrapolated,
                                             steady_error_t *err);

/* One event of the replay, as simulated (times in seconds or abstract
 * units from the start of the run). */
typedef struct {
    steady_step_kind_t kind; /* SEND: a transfer; COMPUTE: tasks of a compute entry */
    long period;             /* the program's period q (0 .. P + max_lag - 1) */
    long batch;              /* the batch of operations it works on: q - lag */
    int slot, transfer;      /* SEND: sc->slots[slot].transfers[transfer] */
    int compute;             /* COMPUTE: sc->compute[compute] */
    int tree, step;
    int node, peer;    /* SEND: sender, receiver; COMPUTE: processor, -1 */
    double amount;     /* messages (SEND) or tasks (COMPUTE) */
    double start, end; /* ports (SEND) or CPU (COMPUTE) busy in [start, end) */
    double done;       /* data delivered (SEND: end + latency) or result ready */
} steady_replay_event_t;

/* Optional observers of steady_schedule_replay_observed; any may be NULL. */
typedef struct {
    /* every event, as the replay simulates it */
    void (*event)(void *ctx, const steady_replay_event_t *ev);
    /* after each simulated period q of `periods` */
    steady_progress_fn progress;
    void *ctx;
} steady_replay_observer_t;

/* steady_schedule_replay, calling obs's functions as it goes (obs may be
 * NULL); the results are the same. */
steady_err_t steady_schedule_replay_observed(const steady_schedule_t *sc,
                                             const steady_platform_t *p, long ops,
                                             const steady_replay_observer_t *obs,
                                             steady_replay_t *res, steady_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* STEADY_SCHEDULE_H */
