/*
 * runner.h — the pieces of steady-run, the MPI executor of periodic
 * schedules (docs/running.md): payloads and their verification
 * (payload.c), the program one rank runs, built from the schedule
 * (program.c), its self-timed execution over MPI (execute.c), a rank's
 * death told (supervise.c), and the command itself (main.c).  Only
 * runner/ uses MPI; payload.c (payload.h, which the unit tests build
 * without MPI) and program.c do not.
 */
#ifndef STEADY_RUNNER_H
#define STEADY_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "payload.h"
#include "steady/compare.h"
#include "steady/progress.h"
#include "steady/schedule.h"

/* Exit statuses, as the steady CLI: 0 ok, 1 runtime or verification
 * failure, 2 bad input or usage. */
enum { RUN_OK = 0, RUN_FAIL = 1, RUN_USAGE = 2 };

/* ---- the program of one rank (program.c) ----------------------------------
 *
 * The schedule's period, flattened: steps, and *pieces* — a transfer of a
 * slot, or a compute entry — each on message positions [from, to) of its
 * tree's batch, with the producer pieces it depends on.  The rank's three
 * streams (send port, receive port, CPU) are lists of messages and tasks
 * per period, repeated for every period of the run. */

/* The batch a step's output holds in one ring entry, and its bookkeeping. */
typedef struct {
    long batch;          /* -1: none yet */
    int pieces_left;     /* producer pieces of that batch still to come */
    int readers_left;    /* consumer pieces that have not read it yet */
    unsigned char *done; /* per producer piece of the step: its bytes are in */
    unsigned char *data; /* weight x S bytes: message j at j S */
} entry_t;

typedef struct {
    int tree, step, lag;
    int node;         /* where its output lives: the receiver of a send, the processor of a task */
    int sender;       /* a send: the node it leaves */
    int in[2], nin;   /* producing steps (flat indices); -1: an initial value */
    value_t value;    /* what it carries or makes */
    bool final;       /* its output is a delivered result (verified where it arrives) */
    int first, count; /* its pieces: by_step[first .. first + count) */
    int rfirst, rcount; /* pieces reading its output: readers[rfirst .. rfirst + rcount) */
    /* on the rank that holds its output: */
    int depth;     /* ring entries (0: nothing kept) */
    entry_t *ring; /* batch b in ring[b % depth] */
    long seen;     /* final: the batch the counters below are for, -1 none yet */
    size_t *got;   /* final: bytes delivered per message position of that batch */
} pstep_t;

typedef struct {
    int flat;        /* its step */
    int index;       /* its rank among its step's pieces (entry_t.done) */
    long lo, hi;     /* message positions [lo, hi) it touches */
    size_t off, end; /* transfer: from byte off of message lo to byte end of message hi - 1 */
    int dep, ndep;   /* the producer pieces it waits for: deps[dep .. dep + ndep) */
} piece_t;

typedef struct {
    int piece; /* a producer piece */
    long from; /* floor of the first position it shares with the consumer */
} dep_t;

/* One MPI message of a period: the transfers to (from) one peer in slots
 * slot .. last. */
typedef struct {
    int slot, last, peer;
    int first, count; /* parts[first .. first + count): piece indices, in slot order */
    size_t bytes;     /* in a full batch */
} pmsg_t;

typedef struct {
    const steady_schedule_t *sc;
    const steady_platform_t *p;
    int me;
    long ops, K, L, P; /* messages (operations x m), per period, max lag, batches */
    long m;            /* segments: messages per operation */
    size_t S;          /* message size in bytes (an operation has m S) */
    int nflat;
    pstep_t *steps;
    int *base; /* flat index of tree i's step 0 */
    int npieces;
    piece_t *pieces;
    int *by_step; /* piece indices grouped by step */
    int *readers; /* piece indices reading each step's output, grouped by step */
    int ndeps;
    dep_t *deps;
    int *parts; /* piece indices of the messages */
    int nsend, nrecv, ntask;
    pmsg_t *send, *recv; /* this rank's messages of a period, in slot order */
    int *task;           /* this rank's compute pieces, in the compute list's order */
    size_t max_msg;      /* largest message of a full batch */
    size_t buffers;      /* bytes of ring entries on this rank */
    unsigned char *pool; /* their data */
} program_t;

/* Builds rank `me`'s program for a run of `ops` operations, each
 * sc->segments messages of S bytes, and allocates its ring entries
 * (program_t.buffers bytes).
 * Errors: a schedule the executor cannot follow -> EINVAL, EUNSUPPORTED;
 * out of memory -> ENOMEM.  Free with program_free (also after a failure).
 * O(pieces^2 / steps + slots) time. */
steady_err_t program_build(const steady_schedule_t *sc, const steady_platform_t *p, int me,
                           long ops, size_t S, program_t *pg, steady_error_t *err);
void program_free(program_t *pg);

/* Message positions of tree t's batch b that exist: [0, n). */
long program_batch_size(const program_t *pg, int tree, long b);

/* The message at position j of tree t's batch b (messages are numbered
 * over the run: batch b holds b K .. b K + K - 1). */
long program_msg(const program_t *pg, int tree, long b, long j);

/* The operation that message position j of tree t's batch b belongs to,
 * and (at, if not NULL) where the message starts in the operation's m S
 * bytes: message i is segment i mod m of operation i / m. */
long program_op(const program_t *pg, int tree, long b, long j, size_t *at);

/* ---- execution (execute.c) ------------------------------------------------ */

/* STEADY_RUN_FAULT=RANK:KIND@OP (docs/running.md): rank RANK dies
 * (SIGKILL), stalls forever, or flips one byte of the first message it
 * sends that carries operation OP, when it reaches that operation; or
 * its first reduction of OP's values combines them in the reverse order
 * (swap). */
typedef enum { FAULT_NONE = 0, FAULT_DIE, FAULT_STALL, FAULT_CORRUPT, FAULT_SWAP } fault_kind_t;

typedef struct {
    fault_kind_t kind;
    int rank;
    long op;
} fault_t;

/* Whether rank `rank` is to swap the operands of its reduction of
 * operation op (the swap fault, fired once: *fired is set). */
bool fault_swaps(const fault_t *fault, bool *fired, int rank, long op);

/* Per-operation verification flags (one byte per operation on each rank,
 * OR-ed over the ranks at the end). */
enum { FLAG_CORRUPT = 1, FLAG_LOST = 2, FLAG_DUPLICATED = 4 };

/* What one rank measured. */
typedef struct {
    double elapsed; /* from the common start to its last completion */
    double busy, send, recv,
        cpu; /* seconds with: anything, a send, a receive, a task in progress */
    double messages, bytes, tasks; /* sent messages and bytes, tasks run */
} run_stats_t;

/* ---- a rank's death (supervise.c) -----------------------------------------
 *
 * Plain MPI: supervise_start, first thing in main, forks; the parent waits
 * for the child, which returns and runs the rank, and when the child dies
 * of a signal prints "steady-run: NODE (rank r): died (signal 9, Killed) at
 * period q of P, T s into the run" and dies of the same signal.  The child
 * tells its rank, its node and the start of the run (watch_start), and its
 * progress (watch_tick).  Under SMPI these do nothing. */
void supervise_start(void);
void supervise_rank(int rank);
void supervise_run(const char *node);
void supervise_progress(const char *stage, double done, double total);

/* How much slower than the platform file says a wait may be before a rank
 * calls it a stall, on top of --timeout: SimGrid's default latency
 * factors reach 14 and its bandwidth factors 0.34 (docs/calibration.md). */
#define SLOWDOWN_ALLOWED 16

/* ---- the progress watch (--timeout) ----------------------------------------
 *
 * A rank that makes no progress (no event of its own starts or completes)
 * for `timeout` seconds prints what it waits for — "steady-run: NODE (rank
 * r): no progress for S s: the receive of period q slot s from PEER" — and
 * ends the job.  Plain MPI: its waits poll and look at the clock
 * (MPI_Wtime), then MPI_Abort.  SMPI: a watchdog actor on its host sleeps
 * until the timeout would expire, in simulated seconds, and ends the
 * simulation with status 1. */
typedef struct {
    const steady_platform_t *p; /* for the rank's node name */
    int me;
    double timeout;
    double grace;    /* seconds allowed on top of timeout for the wait at hand (a
                        peer's long calibration experiment), 0 by default */
    double progress; /* MPI_Wtime of the last progress */
    /* the execution in progress, which says what it waits for; or NULL */
    void (*describe)(const void *ctx, char *buf, size_t size);
    const void *ctx;
    const char *what;             /* otherwise, what the rank is doing */
    void *actor;                  /* SMPI: the watchdog */
    steady_progress_line_t *line; /* rank 0: the progress line on stderr, or NULL */
} watch_t;

/* line: rank 0's progress line (steady_progress_line_init: only on a
 * terminal, not under --quiet), or NULL. */
void watch_start(watch_t *w, const steady_platform_t *p, int me, double timeout,
                 steady_progress_line_t *line);
void watch_stop(watch_t *w);

/* An event of the rank started or completed at MPI_Wtime `now`: resets
 * the timeout, and redraws the progress line ("steady-run: period 120/530
 * (23%), 4.2 s"; at most 10 times a second) on rank 0. */
void watch_tick(watch_t *w, double now, const char *stage, double done, double total);

/* The rank has done its part (measured in *st) and is about to wait for
 * the slowest rank in the final gathering: a long wait there is no stall
 * of its own.  Under SMPI the watch is off from then on (a rank that
 * stalls still runs its own watchdog, which ends the simulation); with
 * plain MPI a rank that took part allows the time the run took it on top
 * of the timeout (it may be the only one to notice a peer that stalled
 * after its last message), one that had nothing to do (a router no route
 * uses, every router under --algo mpi) waits without a limit. */
void watch_done(watch_t *w, const run_stats_t *st);

/* Prints "steady-run: NODE (rank r): why: what it waits for" and aborts
 * the job (does not return). */
void watch_fail(const watch_t *w, const char *why);

/* Runs the program from the common start (the caller's barrier) to the
 * end, under watch w.  Fills flags[0 .. ops) and *st.  A rank that cannot
 * progress with nothing in flight (an invalid schedule), or sees no
 * progress for the watch's timeout, fails the job (watch_fail).  Returns
 * ENOMEM on allocation failure, STEADY_OK otherwise. */
steady_err_t program_execute(program_t *pg, const fault_t *fault, watch_t *w, uint8_t *flags,
                             run_stats_t *st, steady_error_t *err);

/* Waits for one of n requests under watch w (SMPI: MPI_Waitany; plain MPI:
 * MPI_Testany polling, failing the job after the watch's timeout); returns
 * its index. */
int run_wait_any(int n, MPI_Request *reqs, MPI_Status *status, watch_t *w);

/* The time of a computation of `flops`: under SMPI charged at the host's
 * speed, poll(ctx) being called TASK_POLLS times meanwhile so that the
 * ports keep working; with plain MPI the real computation, done before,
 * was it, and poll(ctx) is called once. */
void run_task_time(double flops, void (*poll)(void *), void *ctx);

/* SMPI: RUN_USAGE and a one-line message in msg (n bytes) when p, read
 * from the SimGrid file at path, has two ranks without a route between
 * them (steady_platform_unjoined): SimGrid would abort the run at MPI's
 * first collective that needs it.  RUN_OK otherwise, and always with
 * plain MPI. */
int run_check_routes(const steady_platform_t *p, const char *path, steady_format_t format,
                     char *msg, size_t n);

/* SMPI: the simulation settings the executor relies on (smpi/test 0,
 * smpi/send-is-detached-thresh 0; docs/running.md).  No-op otherwise. */
void run_configure(void);

/* SMPI: no simulated time for the CPU time the program spends between MPI
 * calls (smpi/simulate-computation no), in every mode: called right after
 * MPI_Init.  No-op otherwise. */
void run_untimed_harness(void);

/* Waits for n requests under watch w; `what` names the wait in the
 * message. */
void run_wait_all(int n, MPI_Request *reqs, watch_t *w, const char *what);

/* ---- the program of one rank for a comparison algorithm (algo.c) ----------
 *
 * steady-run --algo (docs/running.md): the algorithm's ranks are the
 * platform's processors in node order (compare.h); MPI rank = node id, as
 * for schedules, routers included.  A transfer of a chunk between two
 * algorithm ranks follows the model's route (steady_routes_path): every
 * hop is one MPI message between adjacent nodes, forwarded by the nodes in
 * between.  One operation is a list of *events* per node — sends,
 * receives and combines of chunks — in three streams (send port, receive
 * port, CPU), the same for every operation; events of one operation
 * depend on earlier events of the same operation on the same node. */

typedef enum { EV_SEND = 0, EV_RECV, EV_COMBINE } ev_kind_t;

/* What an event checks when it completes. */
typedef enum { CHECK_NONE = 0, CHECK_BCAST, CHECK_RESULT } ev_check_t;

typedef struct {
    ev_kind_t kind;
    int peer;      /* send, receive: the adjacent node */
    int phase;     /* steady_phase_t */
    int chunk;     /* 0 .. chunks - 1 */
    size_t lo, hi; /* the chunk's bytes in the message */
    long data;     /* offset in the chunk's buffer of what is sent / received into;
                      -1: a send generated on the fly (the broadcast root's message) */
    long partial;  /* combine: offset of the partial result received (the
                      accumulator is at offset 0) */
    int side;      /* combine: -1 result = partial (+) acc, +1 acc (+) partial, 0 commutative */
    ev_check_t check;
    int dep[2]; /* events of the same chunk that must be done first; -1 none */
    int depth;  /* hops and combines before it in its chunk's dependency graph */
    int t, h;   /* its transfer in the global order and hop (finds its slot) */
} ev_t;

/* A stream (send port, receive port, CPU): its events in the order
 * (offset mod chunks, slot of the hop in its bucket, hop) with offset =
 * chunk + depth (algo.c, order_hops), bucket b holding those of offsets =
 * b mod chunks: ev[list[start[b] .. start[b+1])). */
typedef struct {
    int n;
    int *list;
    int *start; /* chunks + 1 */
} stream_t;

typedef struct {
    const steady_platform_t *p;
    steady_algo_t algo;
    steady_collop_t op;
    int me;           /* node id */
    int rank;         /* algorithm rank of me, -1 for a router */
    int nranks, root; /* algorithm ranks, root rank */
    int root_node;
    int chunks;
    long ops;
    size_t S;
    double task_cost; /* flop to combine two whole messages */
    bool commutative; /* the operator (payload.c): the trees do not keep rank order */
    int nev;
    ev_t *ev; /* one operation's events on me */
    stream_t send, recv, cpu;
    int max_offset;        /* the largest chunk + depth */
    int *chunk_events;     /* per chunk: its events on me */
    size_t *chunk_checked; /* per chunk: bytes verified on me */
    bool has_acc;          /* an accumulator at offset 0 (reduce phase) */
    size_t unit_bytes;     /* buffer bytes per chunk of an operation */
    size_t max_chunk;
    int depth; /* chunks of operations whose buffers are held at once */
} algo_program_t;

/* Builds node `me`'s program for `ops` operations of coll (whose ranks are
 * p's processors in node order) with messages of S bytes, routes r.
 * Errors: EINVAL (a chunk count the message cannot be split into, a route
 * missing), ENOMEM.  Free with algo_program_free (also after a failure). */
steady_err_t algo_program_build(const steady_collective_t *coll, const steady_platform_t *p,
                                const steady_routes_t *r, int me, long ops, size_t S,
                                double task_cost, algo_program_t *ap, steady_error_t *err);
void algo_program_free(algo_program_t *ap);

/* The bytes [lo, hi) of chunk j of C of an S-byte message: element-aligned
 * (8 bytes) when `elements`, the last chunk taking the rest. */
void algo_chunk_bytes(size_t S, int C, int j, bool elements, size_t *lo, size_t *hi);

/* Runs the program from the common start (the caller's barrier) to the
 * end under watch w; fills flags[0 .. ops) and *st. */
steady_err_t algo_execute(algo_program_t *ap, const fault_t *fault, watch_t *w, uint8_t *flags,
                          run_stats_t *st, steady_error_t *err);

/* ---- the --algo mode's routes and model, per process (algo_shared.c) ------
 *
 * Computed by the first rank that asks, on a copy of its platform, and
 * handed to every rank of the process that asks for the same problem
 * (under SMPI with -no-privatize, all the job's ranks); the last
 * algo_shared_put frees them.  Errors: those of steady_routes_create and
 * steady_model_evaluate, EINVAL when a rank of the process asks for
 * another problem while they are held, ENOMEM. */
steady_err_t algo_shared_get(const steady_platform_t *p, steady_algo_t algo, steady_collop_t op,
                             int root, const steady_model_options_t *mo,
                             const steady_routes_t **routes, steady_model_t *model,
                             steady_error_t *err);
void algo_shared_put(const steady_routes_t *routes);

/* ---- MPI's own collectives (mpicoll.c) ------------------------------------ */

/* steady-run --algo mpi: K MPI_Bcast / MPI_Reduce / MPI_Allreduce over the
 * processors (routers idle), root = processor rank `root`, messages of S
 * bytes, the reduce operator a user MPI_Op (non-commutative composition,
 * or the commutative operator); verified at every receiver.  Fills flags
 * and *st like algo_execute. */
steady_err_t mpicoll_execute(const steady_platform_t *p, steady_collop_t op, int root, long ops,
                             size_t S, bool commutative, const fault_t *fault, watch_t *w,
                             uint8_t *flags, run_stats_t *st, steady_error_t *err);

#endif /* STEADY_RUNNER_H */
