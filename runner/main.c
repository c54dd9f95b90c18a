/*
 * main.c — `steady-run`: runs a periodic schedule on MPI, one rank per
 * platform node, with real payloads, and reports the throughput reached
 * (docs/running.md).
 *
 * Start-up.  Every rank reads the platform and the schedule (the reader
 * checks the platform hash); rank 0 also validates the schedule
 * (steady_schedule_check).  Every rank builds its program and allocates
 * its buffers, then the ranks agree (MPI_Allreduce of their statuses)
 * before anything runs: on an error the lowest failing rank prints one
 * line "steady-run: FILE: what (value)" and every rank exits with the
 * same non-zero status (2 for bad input or usage, 1 otherwise).
 *
 * The run.  One barrier, then program_execute (execute.c) on every rank,
 * self-timed; then the ranks' measurements are gathered on rank 0
 * (MPI_Igather, and an MPI_Ireduce OR of the per-operation verification
 * flags), which prints the report.  Exit status 1 when an operation was
 * lost, duplicated or corrupt.
 *
 * No mutable globals: under SMPI the ranks may share one address space
 * (the options, options.c, are parsed by hand for the same reason).
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate.h"
#include "options.h"
#include "runner.h"

bool fault_swaps(const fault_t *fault, bool *fired, int rank, long op)
{
    if (*fired || fault->kind != FAULT_SWAP || fault->rank != rank || fault->op != op)
        return false;
    *fired = true;
    return true;
}

/* Reads the platform and checks that SimGrid routes every two of its
 * hosts: failures every rank meets alike (memory aside). */
static int read_platform(const options_t *o, steady_platform_t **p, failure_t *f)
{
    steady_error_t err = {0};
    steady_format_t format;
    char msg[STEADY_ERROR_MSG_MAX + 512];
    int status;
    if (steady_platform_read(o->plat, o->from, p, &format, &err)) {
        f->alike = err.code != STEADY_ENOMEM;
        return fail(f, steady_err_exit_status(err.code), "steady-run: %s", err.msg);
    }
    if ((status = run_check_routes(*p, o->plat, format, msg, sizeof msg))) {
        f->alike = true;
        return fail(f, status, "%s", msg);
    }
    return RUN_OK;
}

/* Reads the platform and the schedule, checks the job against them, and
 * (rank 0) validates the schedule.  Sets *bytes to the message size. */
static int load(const options_t *o, int rank, int size, steady_platform_t **p,
                steady_schedule_t **sc, size_t *bytes, failure_t *f)
{
    steady_error_t err = {0};
    int status = read_platform(o, p, f);
    if (status)
        return status;
    if (steady_schedule_read(o->sched, *p, sc, &err)) {
        f->alike = err.code != STEADY_ENOMEM;
        return fail(f, steady_err_exit_status(err.code), "steady-run: %s", err.msg);
    }
    int ranks = steady_platform_rank_count(*p);
    if (ranks != size)
        return fail(f, RUN_USAGE,
                    "steady-run: %s: the schedule has %d %s but the job has %d ranks (start "
                    "one rank per %s: -np %d)",
                    o->sched, ranks,
                    steady_platform_switch_count(*p) ? "processors and routers" : "nodes", size,
                    steady_platform_switch_count(*p) ? "processor and router" : "node", ranks);
    if ((*sc)->abstract && o->msg_bytes == 0)
        return fail(f, RUN_USAGE,
                    "steady-run: %s: the schedule is for an abstract platform (costs in time "
                    "units): give the message size with --msg-bytes (%s)",
                    o->sched, (*sc)->platform_name);
    double b = o->msg_bytes > 0 ? o->msg_bytes : (*sc)->msg_size;
    if (!(b >= 0.5 && b <= MAX_MSG_BYTES))
        return fail(f, RUN_USAGE,
                    "steady-run: %s: messages of %g bytes: steady-run sends from 1 byte to 2^31 - "
                    "1 bytes per message (plan another --msg-size or more --segments)",
                    o->sched, b);
    *bytes = (size_t)llround(b);
    if (rank == 0) {
        steady_violations_t v = {0};
        if (steady_schedule_check(*sc, *p, &v, &err))
            return fail(f, steady_err_exit_status(err.code), "steady-run: %s", err.msg);
        if (v.count > 0) {
            fail(f, RUN_USAGE,
                 "steady-run: %s: invalid schedule (%ld violation%s, see 'steady check'): %s",
                 o->sched, v.total, v.total == 1 ? "" : "s", v.lines[0]);
            steady_violations_free(&v);
            return f->status;
        }
        steady_violations_free(&v);
    }
    return RUN_OK;
}

/* Every rank learns the worst status; the lowest failing rank prints its
 * message.  Returns the common status. */
static int agree(const failure_t *f, int rank, int size)
{
    if (f->alike) {
        if (rank == 0)
            fprintf(stderr, "%s\n", f->msg);
        return f->status;
    }
    int status, first, mine = f->status ? rank : size;
    MPI_Allreduce(&f->status, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (status && first == rank) {
        fprintf(stderr, "%s\n", f->msg);
        fflush(stderr);
    }
    return status;
}

/* ---- --algo mode --------------------------------------------------------- */

typedef struct {
    steady_collective_t *coll;
    const steady_routes_t *routes; /* algo_shared_get's */
    algo_program_t ap;
    int root_node, root_rank;
    int chunks;
    double task_cost;
    double planned; /* the model's TP; NAN for --algo mpi */
    bool commutative;
} algo_run_t;

static void algo_run_free(algo_run_t *ar)
{
    algo_program_free(&ar->ap);
    steady_collective_destroy(ar->coll);
    algo_shared_put(ar->routes);
}

/* Reads the platform, checks the job against it, builds the algorithm,
 * its model and this rank's program. */
static int load_algo(const options_t *o, int rank, int size, steady_platform_t **p, algo_run_t *ar,
                     size_t *bytes, failure_t *f)
{
    steady_error_t err = {0};
    int status = read_platform(o, p, f);
    if (status)
        return status;
    int ranks = steady_platform_rank_count(*p), procs = steady_platform_processor_count(*p);
    if (ranks != size)
        return fail(f, RUN_USAGE,
                    "steady-run: %s: the platform has %d %s but the job has %d ranks (start "
                    "one rank per %s: -np %d)",
                    o->plat, ranks,
                    steady_platform_switch_count(*p) ? "processors and routers" : "nodes", size,
                    steady_platform_switch_count(*p) ? "processor and router"
                                                     : "node, routers included",
                    ranks);
    if (procs < 2)
        return fail(f, RUN_USAGE, "steady-run: %s: a collective needs 2 processors (%d)", o->plat,
                    procs);
    bool abstract = steady_platform_is_abstract(*p);
    if (abstract && o->msg_bytes == 0)
        return fail(f, RUN_USAGE,
                    "steady-run: %s: an abstract platform (costs in time units): give the "
                    "message size with --msg-bytes, the export's --msg-size",
                    o->plat);
    *bytes = (size_t)llround(o->msg_bytes > 0 ? o->msg_bytes : 1048576);
    if (o->root) {
        ar->root_node = steady_platform_find_node(*p, o->root);
        if (ar->root_node < 0)
            return fail(f, RUN_USAGE, "steady-run: %s: unknown node in --root (%s)", o->plat,
                        o->root);
        if (steady_platform_node(*p, ar->root_node)->kind != STEADY_PROCESSOR)
            return fail(f, RUN_USAGE, "steady-run: %s: --root must be a processor (%s is a router)",
                        o->plat, o->root);
    } else {
        for (ar->root_node = 0; steady_platform_node(*p, ar->root_node)->kind != STEADY_PROCESSOR;
             ar->root_node++)
            ;
    }
    ar->root_rank = 0;
    for (int v = 0; v < ar->root_node; v++)
        ar->root_rank += steady_platform_node(*p, v)->kind == STEADY_PROCESSOR;
    ar->task_cost = o->task_cost > 0 ? o->task_cost : abstract ? 1 : (double)*bytes;
    ar->planned = NAN;
    if (o->algo == ALGO_MPI) {
        ar->commutative = o->commutative;
        if (o->op != STEADY_COLL_BROADCAST && *bytes % 8)
            return fail(f, RUN_USAGE,
                        "steady-run: --algo mpi --op %s: the message is 8-byte elements, "
                        "--msg-bytes must be a multiple of 8 (%zu)",
                        steady_collop_name((steady_collop_t)o->op), *bytes);
    } else {
        steady_model_options_t mo = {
            .msg_size = (double)*bytes, .task_cost = ar->task_cost, .chunks = o->chunks};
        steady_model_t model;
        if (algo_shared_get(*p, (steady_algo_t)o->algo, (steady_collop_t)o->op, ar->root_node, &mo,
                            &ar->routes, &model, &err) ||
            steady_collective_create((steady_algo_t)o->algo, (steady_collop_t)o->op, procs,
                                     ar->root_rank, model.chunks, &ar->coll, &err))
            return fail(f, steady_err_exit_status(err.code), "steady-run: %s: %s", o->plat,
                        err.msg);
        ar->planned = model.throughput;
        ar->chunks = model.chunks;
        int node = steady_platform_rank_node(*p, rank);
        if (algo_program_build(ar->coll, *p, ar->routes, node, o->ops, *bytes, ar->task_cost,
                               &ar->ap, &err))
            return fail(f, steady_err_exit_status(err.code), "steady-run: %s: %s (on %s)", o->plat,
                        err.msg, steady_platform_node(*p, node)->name);
        ar->commutative = ar->ap.commutative;
    }
    return RUN_OK;
}

/* The longest the LP optimum of a report is solved for. */
#define OPTIMUM_TIME_LIMIT_S 60

/* Rank 0, after the run: the LP optimum the report's ratio is taken
 * against when nothing gives it — with --algo, steady compare's (unless
 * --optimum gives it or says none); for a schedule run with messages of
 * another size than it was planned for (--msg-bytes), its problem solved
 * again for that size, per operation (tasks keep the schedule's cost, as
 * the run does).  Solved in floating point within OPTIMUM_TIME_LIMIT_S,
 * its stages on `line`; after the run, so that a long solve (a reduce of
 * hundreds of participants) delays no rank's start.  NAN, and the reason
 * in why, when it is not known. */
static double solve_optimum(const options_t *o, const steady_platform_t *p,
                            const steady_schedule_t *sc, const algo_run_t *ar, size_t bytes,
                            steady_progress_line_t *line, char *why, size_t n)
{
    if (o->optimum > 0)
        return o->optimum;
    if (o->optimum < 0) {
        snprintf(why, n, "not solved: --optimum none");
        return NAN;
    }
    steady_solve_options_t so = {.exact = false,
                                 .time_limit_ms = OPTIMUM_TIME_LIMIT_S * 1000,
                                 .progress = steady_progress_line_report,
                                 .progress_ctx = line};
    steady_error_t err = {0};
    double tp = NAN;
    if (sc) {
        steady_problem_t prob = {
            .op = sc->op, .msg_size = (double)bytes, .task_cost = sc->task_cost};
        if (sc->op == STEADY_OP_REDUCE) {
            prob.participants = sc->sources;
            prob.nparticipants = sc->nsources;
            prob.target = sc->targets[0];
        } else if (sc->op == STEADY_OP_GOSSIP) {
            prob.sources = sc->sources;
            prob.nsources = sc->nsources;
            prob.targets = sc->targets;
            prob.ntargets = sc->ntargets;
        } else {
            prob.source = sc->sources[0];
            prob.targets = sc->targets;
            prob.ntargets = sc->ntargets;
        }
        steady_solution_t *s;
        if (steady_lp_solve(p, &prob, &so, &s, &err) == STEADY_OK) {
            tp = steady_solution_throughput_d(s) / (double)sc->segments;
            steady_solution_destroy(s);
        }
    } else {
        steady_model_options_t mo = {.msg_size = (double)bytes, .task_cost = ar->task_cost};
        steady_comparison_t cmp;
        if (steady_compare_optimum(p, (steady_collop_t)o->op, ar->root_node, &mo, &so, &cmp,
                                   &err) == STEADY_OK)
            tp = cmp.optimum;
    }
    steady_progress_line_clear(line);
    if (!isfinite(tp))
        snprintf(why, n, "not solved: %s; steady solve gives it, --optimum TP takes it", err.msg);
    return tp;
}

/* The measurements of one rank, as doubles for MPI_Igather. */
enum { M_ELAPSED, M_BUSY, M_SEND, M_RECV, M_CPU, M_MESSAGES, M_BYTES, M_TASKS, M_BUFFERS, M_COUNT };

/* What the report says about the run besides the measurements. */
typedef struct {
    char what[320]; /* "scatter on NAME" / "chain broadcast from P0 on NAME, 16 chunks" */
    double planned; /* NAN: none */
    const char *planned_what;
    double optimum;
    const char *optimum_what;
    const options_t *o;
    const algo_run_t *ar; /* --algo mode, else NULL */
    const char *root;
    double plan_messages; /* the schedule's MPI messages per operation; NAN: none */
} report_info_t;

static const char *operator_name(const options_t *o, const algo_run_t *ar)
{
    if (o->op == STEADY_COLL_BROADCAST)
        return "none";
    return ar->commutative ? "commutative" : "non-commutative";
}

/* Rank 0: prints the report from the gathered measurements m[rank][M_*]
 * and the OR-ed flags; returns the exit status. */
static int report(const report_info_t *ri, const steady_platform_t *p, const double *m,
                  const uint8_t *flags, int size)
{
    const options_t *o = ri->o;
    long counts[3] = {0}, verified = 0; /* lost, duplicated, corrupt */
    for (long op = 0; op < o->ops; op++) {
        counts[0] += (flags[op] & FLAG_LOST) != 0;
        counts[1] += (flags[op] & FLAG_DUPLICATED) != 0;
        counts[2] += (flags[op] & FLAG_CORRUPT) != 0;
        verified += flags[op] == 0;
    }
    double elapsed = 0, messages = 0, bytes = 0, tasks = 0, buffers = 0;
    for (int r = 0; r < size; r++) {
        const double *mr = m + (size_t)r * M_COUNT;
        elapsed = fmax(elapsed, mr[M_ELAPSED]);
        buffers = fmax(buffers, mr[M_BUFFERS]);
        messages += mr[M_MESSAGES];
        bytes += mr[M_BYTES];
        tasks += mr[M_TASKS];
    }
    double achieved = elapsed > 0 ? (double)o->ops / elapsed : 0;
    double per_op = o->ops > 0 ? messages / (double)o->ops : 0;
    double optimum = ri->optimum, planned = ri->planned;
    double ratio = optimum > 0 ? achieved / optimum : NAN; /* NAN: no optimum */
    long completed = o->ops - counts[0];
    int status = verified == o->ops ? RUN_OK : RUN_FAIL;
    const algo_run_t *ar = ri->ar;
    if (o->json) {
        json_t *nodes = json_array();
        for (int r = 0; r < size && nodes; r++) {
            const double *mr = m + (size_t)r * M_COUNT;
            double e = elapsed > 0 ? elapsed : 1;
            json_array_append_new(
                nodes, json_pack("{s:s, s:f, s:f, s:f, s:f, s:f}", "name",
                                 steady_platform_node(p, steady_platform_rank_node(p, r))->name,
                                 "busy", mr[M_BUSY] / e, "send", mr[M_SEND] / e, "recv",
                                 mr[M_RECV] / e, "cpu", mr[M_CPU] / e, "buffers", mr[M_BUFFERS]));
        }
        json_t *j = json_pack(
            "{s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:o, s:o, s:o, s:f, s:f, s:f, s:o*}", "ops",
            (json_int_t)o->ops, "completed", (json_int_t)completed, "verified",
            (json_int_t)verified, "lost", (json_int_t)counts[0], "duplicated",
            (json_int_t)counts[1], "corrupt", (json_int_t)counts[2], "elapsed", elapsed, "achieved",
            achieved, "planned", isfinite(planned) ? json_real(planned) : json_null(), "optimum",
            isfinite(optimum) ? json_real(optimum) : json_null(), "ratio",
            isfinite(ratio) ? json_real(ratio) : json_null(), "messages", messages, "bytes", bytes,
            "tasks", tasks, "nodes", nodes);
        if (j) {
            json_object_set_new(j, "messages_per_operation", json_real(per_op));
            json_object_set_new(j, "planned_messages_per_operation",
                                isfinite(ri->plan_messages) ? json_real(ri->plan_messages)
                                                            : json_null());
        }
        if (j && ar) {
            json_object_set_new(j, "algo",
                                json_string(o->algo == ALGO_MPI
                                                ? "mpi"
                                                : steady_algo_name((steady_algo_t)o->algo)));
            json_object_set_new(j, "op", json_string(steady_collop_name((steady_collop_t)o->op)));
            json_object_set_new(j, "root", json_string(ri->root));
            json_object_set_new(j, "chunks",
                                o->algo == ALGO_MPI ? json_null() : json_integer(ar->chunks));
            json_object_set_new(j, "operator", json_string(operator_name(o, ar)));
            json_object_set_new(j, "model_ratio",
                                isfinite(planned) && planned > 0 ? json_real(achieved / planned)
                                                                 : json_null());
        }
        if (!j || json_dumpf(j, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) != 0)
            status = RUN_FAIL;
        putchar('\n');
        json_decref(j);
    } else {
        printf("run          %ld operations of %s, %d ranks\n", o->ops, ri->what, size);
        if (ar && o->op != STEADY_COLL_BROADCAST)
            printf("operator     %s (%s)\n", operator_name(o, ar),
                   ar->commutative ? "(alpha, beta) (+) (alpha', beta') = (alpha alpha', "
                                     "beta + beta') mod 2^32"
                                   : "composition of affine maps mod 2^32, in rank order");
        printf("operations   %ld completed: %ld verified, %ld lost, %ld duplicated, %ld corrupt\n",
               completed, verified, counts[0], counts[1], counts[2]);
        printf("elapsed      %.10g s (the slowest rank, from the common start)\n", elapsed);
        printf("achieved     %.10g operations per second\n", achieved);
        if (isfinite(planned))
            printf("planned      %.10g (%s)\n", planned, ri->planned_what);
        else
            printf("planned      - (%s)\n", ri->planned_what);
        if (isfinite(optimum)) {
            printf("optimum      %.10g (%s)\n", optimum, ri->optimum_what);
            printf("ratio        %.6f of the optimum", ratio);
        } else {
            printf("optimum      - (%s)\n", ri->optimum_what);
            printf("ratio        -");
        }
        if (ar && isfinite(planned) && planned > 0)
            printf(", %.6f of the model", achieved / planned);
        printf("\n");
        printf("traffic      %.0f messages, %.0f bytes, %.0f %s; buffers of at most %.0f "
               "bytes on a node\n",
               messages, bytes, tasks, ar ? "combines" : "tasks", buffers);
        printf("messages     %.4g per operation", per_op);
        if (isfinite(ri->plan_messages))
            printf(" (the schedule: %.4g per operation in the steady state)", ri->plan_messages);
        printf("\n");
        printf("busy        ");
        for (int r = 0; r < size; r++)
            printf(" %s %.1f%%%s", steady_platform_node(p, steady_platform_rank_node(p, r))->name,
                   elapsed > 0 ? 100 * m[(size_t)r * M_COUNT + M_BUSY] / elapsed : 0,
                   r + 1 < size ? "," : "\n");
    }
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "steady-run: standard output: write failed (%s)\n",
                strerror(errno ? errno : EIO));
        status = RUN_FAIL;
    }
    return status;
}

#if defined(SMPI_H) && defined(RUN_INTERP)
/* steady-run-smpi is a shared object that smpirun loads.  Run directly, the
 * dynamic loader named here starts it at run_standalone (the Makefile's
 * -e), which has no argc and argv: they are in /proc/self/cmdline. */
const char run_interp[] __attribute__((section(".interp"))) = RUN_INTERP;

__attribute__((force_align_arg_pointer, noreturn)) void run_standalone(void);
void run_standalone(void)
{
    char args[4096] = "";
    FILE *f = fopen("/proc/self/cmdline", "rb");
    size_t n = f ? fread(args, 1, sizeof args - 1, f) : 0;
    if (f)
        fclose(f);
    for (size_t i = 0; i < n; i += strlen(args + i) + 1)
        if (i > 0 && (strcmp(args + i, "--help") == 0 || strcmp(args + i, "-h") == 0)) {
            help(stdout);
            /* _exit: libsimgrid's exit handlers expect a simulation */
            _exit(fflush(stdout) == 0 ? RUN_OK : RUN_FAIL);
        }
    fputs("steady-run-smpi: runs under SimGrid's smpirun, e.g. smpirun -np N -platform P.xml "
          "-hostfile P.hosts steady-run-smpi --ops K SCHED PLATFORM (see 'steady-run-smpi "
          "--help', docs/running.md)\n",
          stderr);
    _exit(RUN_USAGE);
}
#endif

#ifdef SMPI_H
/* What a rank of the run may wait beyond --timeout for its next event
 * under SMPI, whose simulated seconds are the platform file's:
 * SLOWDOWN_ALLOWED times what the file's model lets it wait.  A
 * schedule: max lag + 1 periods, each with the latencies its transfers
 * pay; an algorithm (sc NULL): a message of `bytes` through every rank
 * in turn, along the slowest edge (its time and its latency). */
static double run_grace(const steady_platform_t *p, const steady_schedule_t *sc, size_t bytes)
{
    double t = 0;
    if (sc) {
        double latency = 0;
        for (int i = 0; i < sc->nslots; i++)
            for (int j = 0; j < sc->slots[i].ntransfers; j++) {
                const steady_sched_transfer_t *tx = &sc->slots[i].transfers[j];
                steady_hop_t h = {0};
                h.edges = (int *)steady_sched_step_edges(sc, &sc->trees[tx->tree].steps[tx->step],
                                                         &h.nedges);
                latency += steady_hop_latency(p, &h);
            }
        t = (double)(sc->max_lag + 1) * (mpq_get_d(sc->period) + latency);
    } else {
        for (int e = 0; e < steady_platform_edge_count(p); e++)
            t = fmax(t, steady_platform_edge_time(p, e, (double)bytes) +
                            steady_platform_edge_latency(p, e));
        t *= steady_platform_rank_count(p);
    }
    return SLOWDOWN_ALLOWED * t;
}
#endif

int main(int argc, char **argv)
{
    supervise_start(); /* a rank that dies says so (supervise.c) */
    MPI_Init(&argc, &argv);
    run_untimed_harness();
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    supervise_rank(rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    options_t o;
    failure_t f = {0};
    fault_t fault;
    steady_platform_t *p = NULL;
    steady_schedule_t *sc = NULL;
    program_t pg = {0};
    algo_run_t ar = {0};
    uint8_t *flags = NULL;
    double *all = NULL;
    size_t bytes = 0;
    int status = parse_options(argc, argv, &o, &f);
    if (!status && o.help) {
        if (rank == 0)
            help(stdout);
        goto done;
    }
    if (!status && o.calibrate) {
        calib_cmd_t cmd = {.platform = o.plat,
                           .output = o.out,
                           .sizes = o.sizes,
                           .from = o.from,
                           .reps = o.reps,
                           .cost_model = o.cost_model < 0 ? STEADY_COST_RENDEZVOUS
                                                          : (steady_cost_model_t)o.cost_model,
                           .timeout = o.timeout,
                           .json = o.json,
                           .quiet = o.quiet};
        status = calibrate_command(&cmd, rank, size);
        goto done;
    }
    if (!status)
        status = parse_fault(getenv("STEADY_RUN_FAULT"), &fault, &f);
    /* a fault that cannot fire is a mistake, not a quiet run */
    if (!status && fault.kind != FAULT_NONE && fault.rank >= size)
        status =
            fail(&f, RUN_USAGE, "steady-run: STEADY_RUN_FAULT=%s: no rank %d in a job of %d ranks",
                 getenv("STEADY_RUN_FAULT"), fault.rank, size);
    else if (!status && fault.kind != FAULT_NONE && fault.op >= o.ops)
        status = fail(&f, RUN_USAGE,
                      "steady-run: STEADY_RUN_FAULT=%s: no operation %ld in a run of %ld (0 to "
                      "%ld)",
                      getenv("STEADY_RUN_FAULT"), fault.op, o.ops, o.ops - 1);
    f.alike = status != 0; /* the same arguments and environment on every rank */
    if (!status && o.algo == ALGO_NONE)
        status = load(&o, rank, size, &p, &sc, &bytes, &f);
    else if (!status)
        status = load_algo(&o, rank, size, &p, &ar, &bytes, &f);
    if (!status && o.algo == ALGO_NONE) {
        steady_error_t err = {0};
        int node = steady_platform_rank_node(p, rank);
        if (program_build(sc, p, node, o.ops, bytes, &pg, &err))
            status = fail(&f, steady_err_exit_status(err.code), "steady-run: %s: %s (on %s)",
                          o.sched, err.msg, steady_platform_node(p, node)->name);
    }
    if (!status) {
        flags = calloc((size_t)o.ops, 1);
        all = calloc((size_t)size * M_COUNT, sizeof *all);
        if (!flags || !all)
            status = fail(&f, RUN_FAIL, "steady-run: out of memory for %ld operations", o.ops);
    }
    status = agree(&f, rank, size);
    if (status)
        goto done;

    watch_t w;
    steady_progress_line_t line;
    steady_progress_line_init(&line, stderr, "steady-run", o.quiet || rank != 0);
    watch_start(&w, p, rank, o.timeout, &line);
#ifdef SMPI_H /* simulated seconds are the platform file's */
    w.grace = run_grace(p, o.algo == ALGO_NONE ? sc : NULL, bytes);
#endif
    MPI_Barrier(MPI_COMM_WORLD);
    run_stats_t st;
    steady_error_t err = {0};
    steady_err_t rc;
    if (o.algo == ALGO_NONE)
        rc = program_execute(&pg, &fault, &w, flags, &st, &err);
    else if (o.algo == ALGO_MPI)
        rc = mpicoll_execute(p, (steady_collop_t)o.op, ar.root_rank, o.ops, bytes, ar.commutative,
                             &fault, &w, flags, &st, &err);
    else
        rc = algo_execute(&ar.ap, &fault, &w, flags, &st, &err);
    if (rc) {
        fprintf(stderr, "steady-run: %s (rank %d): %s\n",
                steady_platform_node(p, steady_platform_rank_node(p, rank))->name, rank, err.msg);
        MPI_Abort(MPI_COMM_WORLD, RUN_FAIL);
    }
    double held = o.algo == ALGO_NONE  ? (double)pg.buffers
                  : o.algo == ALGO_MPI ? 0
                                       : (double)ar.ap.unit_bytes * ar.ap.depth;
    double mine[M_COUNT] = {
        [M_ELAPSED] = st.elapsed, [M_BUSY] = st.busy,   [M_SEND] = st.send,
        [M_RECV] = st.recv,       [M_CPU] = st.cpu,     [M_MESSAGES] = st.messages,
        [M_BYTES] = st.bytes,     [M_TASKS] = st.tasks, [M_BUFFERS] = held};
    MPI_Request reqs[2];
    MPI_Igather(mine, M_COUNT, MPI_DOUBLE, all, M_COUNT, MPI_DOUBLE, 0, MPI_COMM_WORLD, &reqs[0]);
    MPI_Ireduce(rank == 0 ? MPI_IN_PLACE : flags, flags, (int)o.ops, MPI_UNSIGNED_CHAR, MPI_BOR, 0,
                MPI_COMM_WORLD, &reqs[1]);
    watch_done(&w, &st);
    run_wait_all(2, reqs, &w, "gathering the results on rank 0");
    watch_stop(&w);
    steady_progress_line_clear(&line);
    if (rank == 0) {
        report_info_t ri = {.o = &o, .plan_messages = NAN};
        char why[STEADY_ERROR_MSG_MAX + 64];
        steady_progress_line_init(&line, stderr, "steady-run: the LP optimum", o.quiet);
        if (o.algo == ALGO_NONE) {
            int n = snprintf(ri.what, sizeof ri.what, "%s on %s", steady_op_name(sc->op),
                             sc->platform_name);
            if (sc->segments > 1 && n > 0 && (size_t)n < sizeof ri.what)
                snprintf(ri.what + n, sizeof ri.what - (size_t)n, ", %ld segments of %zu bytes",
                         sc->segments, bytes);
            ri.planned = steady_schedule_per_operation(sc, sc->throughput);
            ri.planned_what = "the schedule's throughput";
            long nmsg = 0;
            double per_op = 0;
            steady_error_t merr = {0};
            ri.plan_messages =
                steady_schedule_message_count(sc, p, &nmsg, &per_op, &merr) == STEADY_OK ? per_op
                                                                                         : NAN;
            ri.optimum = steady_schedule_per_operation(sc, sc->optimum);
            ri.optimum_what = "the LP's TP";
            if (!sc->abstract && (double)bytes != sc->msg_size) {
                /* the schedule's figures are for another size */
                ri.planned = NAN;
                ri.planned_what = "the schedule was planned for other messages";
                ri.optimum = solve_optimum(&o, p, sc, NULL, bytes, &line, why, sizeof why);
                ri.optimum_what =
                    isfinite(ri.optimum) ? "the LP's TP for these messages (--msg-bytes)" : why;
            }
        } else {
            ri.ar = &ar;
            ri.root = steady_platform_node(p, ar.root_node)->name;
            char chunks[48] = "";
            if (o.algo != ALGO_MPI)
                snprintf(chunks, sizeof chunks, ", %d chunk%s of a %zu-byte message", ar.chunks,
                         ar.chunks == 1 ? "" : "s", bytes);
            else
                snprintf(chunks, sizeof chunks, ", %zu-byte messages", bytes);
            snprintf(ri.what, sizeof ri.what, "%s %s %s %s on %s%s",
                     o.algo == ALGO_MPI ? "MPI's own" : steady_algo_name((steady_algo_t)o.algo),
                     steady_collop_name((steady_collop_t)o.op),
                     o.op == STEADY_COLL_BROADCAST ? "from" : "through", ri.root,
                     steady_platform_name(p), chunks);
            ri.planned = ar.planned;
            ri.planned_what = o.algo == ALGO_MPI ? "no model of MPI's own algorithms"
                                                 : "the model's throughput, steady compare";
            ri.optimum = solve_optimum(&o, p, NULL, &ar, bytes, &line, why, sizeof why);
            ri.optimum_what = !isfinite(ri.optimum)           ? why
                              : o.op == STEADY_COLL_BROADCAST ? "the broadcast LP's TP"
                              : o.op == STEADY_COLL_REDUCE ? "the reduce LP's TP (non-commutative)"
                                                           : "min of the reduce and broadcast LPs";
        }
        status = report(&ri, p, all, flags, size);
    }
done:
    free(all);
    free(flags);
    program_free(&pg);
    algo_run_free(&ar);
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
    MPI_Finalize();
    return status;
}
