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
 * No mutable globals: under SMPI the ranks may share one address space.
 * The options are parsed by hand for the same reason (getopt keeps its
 * state in globals).
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

#define DEFAULT_TIMEOUT 60.0

typedef struct {
    long ops;
    bool json, help;
    double timeout;
    double msg_bytes; /* 0: the schedule's */
    steady_format_t from;
    const char *sched, *plat;
} options_t;

/* A failure before the run: its exit status and its one-line message. */
typedef struct {
    int status;
    char msg[STEADY_ERROR_MSG_MAX + 256];
} failure_t;

static int fail(failure_t *f, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(failure_t *f, int status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->msg, sizeof f->msg, fmt, ap);
    va_end(ap);
    return f->status = status;
}

static void help(FILE *out)
{
    fprintf(
        out,
        "usage: steady-run --ops K [--json] [--timeout S] [--msg-bytes B] [--from FORMAT]\n"
        "                  SCHED PLATFORM\n"
        "\n"
        "Runs K operations of the periodic schedule SCHED (steady plan) on MPI, one rank\n"
        "per node of PLATFORM in platform order (routers forward), self-timed: every\n"
        "rank sends, receives and computes its part of each period in schedule order\n"
        "as soon as its data is there, with real payloads of the planned size that are\n"
        "checked where they are delivered.  Prints the operations verified, lost,\n"
        "duplicated and corrupt, the time, the throughput reached and its ratio to the\n"
        "optimum TP, and each node's busy fraction.\n"
        "\n"
        "  mpirun -np N steady-run --ops K SCHED PLATFORM\n"
        "  smpirun -np N -platform P.xml -hostfile P.hosts [--cfg=...] \\\n"
        "      steady-run-smpi --ops K SCHED PLATFORM      (docs/running.md)\n"
        "\n"
        "  --ops K          operations to run (required)\n"
        "  --json           {\"ops\", \"completed\", \"verified\", \"lost\", \"duplicated\",\n"
        "                   \"corrupt\", \"elapsed\", \"achieved\", \"planned\", \"optimum\",\n"
        "                   \"ratio\", \"messages\", \"bytes\", \"tasks\", \"nodes\": [{\"name\",\n"
        "                   \"busy\", \"send\", \"recv\", \"cpu\", \"buffers\"}]}\n"
        "  --timeout S      a rank that sees no progress for S seconds says what it\n"
        "                   waits for and ends the job (default %g; simulated seconds\n"
        "                   under SMPI)\n"
        "  --msg-bytes B    message size, e.g. 65536 or 64KiB (default: the schedule's;\n"
        "                   required for a schedule of an abstract platform)\n"
        "  --from FORMAT    platform format: auto (default), native, graphml, simgrid\n"
        "  -h, --help       this help\n"
        "\n"
        "STEADY_RUN_FAULT=RANK:die@OP, RANK:stall@OP or RANK:corrupt@OP makes rank RANK\n"
        "die, stall, or damage one byte when it reaches operation OP (for tests).\n"
        "Exit status: 0 all verified, 1 a runtime or verification failure, 2 bad input\n"
        "or usage.\n",
        DEFAULT_TIMEOUT);
}

static int usage(failure_t *f, const char *what, const char *value)
{
    return fail(f, RUN_USAGE, "steady-run: %s (%s) (see 'steady-run --help')", what, value);
}

/* Parses argv into *o ("--opt VALUE" or "--opt=VALUE", anywhere). */
static int parse_options(int argc, char **argv, options_t *o, failure_t *f)
{
    *o = (options_t){.timeout = DEFAULT_TIMEOUT, .from = STEADY_FORMAT_AUTO};
    const char *pos[2];
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *eq = strncmp(a, "--", 2) == 0 ? strchr(a, '=') : NULL;
        char name[32];
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        if (a[0] != '-' || strcmp(a, "-") == 0) {
            if (npos == 2)
                return usage(f, "too many arguments", a);
            pos[npos++] = a;
            continue;
        }
        if (len >= sizeof name)
            return usage(f, "unknown option", a);
        memcpy(name, a, len);
        name[len] = '\0';
        if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0) {
            o->help = true;
            return RUN_OK;
        }
        if (strcmp(name, "--json") == 0) {
            if (eq)
                return usage(f, "--json takes no value", a);
            o->json = true;
            continue;
        }
        if (strcmp(name, "--ops") && strcmp(name, "--timeout") && strcmp(name, "--msg-bytes") &&
            strcmp(name, "--from"))
            return usage(f, "unknown option", a);
        const char *v = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
        if (!v)
            return usage(f, "option needs a value", name);
        char *end;
        errno = 0;
        if (strcmp(name, "--ops") == 0) {
            o->ops = strtol(v, &end, 10);
            if (errno || *end || end == v || o->ops <= 0 || o->ops > 1000000000L)
                return usage(f, "--ops takes a positive integer up to 10^9", v);
        } else if (strcmp(name, "--timeout") == 0) {
            o->timeout = strtod(v, &end);
            if (errno || *end || end == v || !(o->timeout > 0) || !isfinite(o->timeout))
                return usage(f, "--timeout takes a positive number of seconds", v);
        } else if (strcmp(name, "--msg-bytes") == 0) {
            steady_error_t err = {0};
            if (steady_parse_size(v, &o->msg_bytes, &err) || o->msg_bytes < 1 ||
                o->msg_bytes > 1e15)
                return usage(f, "--msg-bytes takes a size of at least one byte", v);
        } else {
            int fmt = steady_format_from_name(v);
            if (fmt < 0)
                return usage(f, "--from: unknown format, use auto, native, graphml or simgrid", v);
            o->from = (steady_format_t)fmt;
        }
    }
    if (npos != 2)
        return fail(f, RUN_USAGE, "steady-run: expected SCHED PLATFORM (see 'steady-run --help')");
    if (o->ops == 0)
        return fail(f, RUN_USAGE, "steady-run: --ops K is required (see 'steady-run --help')");
    o->sched = pos[0];
    o->plat = pos[1];
    return RUN_OK;
}

/* STEADY_RUN_FAULT=RANK:KIND@OP (unset: no fault). */
static int parse_fault(const char *text, fault_t *fault, failure_t *f)
{
    *fault = (fault_t){FAULT_NONE, -1, -1};
    if (!text || !*text)
        return RUN_OK;
    char kind[16];
    int end = -1;
    if (sscanf(text, "%d:%15[a-z]@%ld%n", &fault->rank, kind, &fault->op, &end) != 3 || end < 0 ||
        text[end] != '\0' || fault->rank < 0 || fault->op < 0)
        return usage(f, "STEADY_RUN_FAULT: expected RANK:die@OP, RANK:stall@OP or RANK:corrupt@OP",
                     text);
    fault->kind = strcmp(kind, "die") == 0       ? FAULT_DIE
                  : strcmp(kind, "stall") == 0   ? FAULT_STALL
                  : strcmp(kind, "corrupt") == 0 ? FAULT_CORRUPT
                                                 : FAULT_NONE;
    if (fault->kind == FAULT_NONE)
        return usage(f, "STEADY_RUN_FAULT: the fault is die, stall or corrupt", text);
    return RUN_OK;
}

/* Reads the platform and the schedule, checks the job against them, and
 * (rank 0) validates the schedule.  Sets *bytes to the message size. */
static int load(const options_t *o, int rank, int size, steady_platform_t **p,
                steady_schedule_t **sc, size_t *bytes, failure_t *f)
{
    steady_error_t err = {0};
    if (steady_platform_read(o->plat, o->from, p, NULL, &err) ||
        steady_schedule_read(o->sched, *p, sc, &err))
        return fail(f, steady_err_exit_status(err.code), "steady-run: %s", err.msg);
    int nodes = steady_platform_node_count(*p);
    if (nodes != size)
        return fail(f, RUN_USAGE,
                    "steady-run: %s: the schedule has %d nodes but the job has %d ranks (start "
                    "one rank per node: -np %d)",
                    o->sched, nodes, size, nodes);
    if ((*sc)->abstract && o->msg_bytes == 0)
        return fail(f, RUN_USAGE,
                    "steady-run: %s: the schedule is for an abstract platform (costs in time "
                    "units): give the message size with --msg-bytes (%s)",
                    o->sched, (*sc)->platform_name);
    double b = o->msg_bytes > 0 ? o->msg_bytes : (*sc)->msg_size;
    *bytes = (size_t)llround(b);
    if (*bytes < 1 || b > 1e15)
        return fail(f, RUN_USAGE, "steady-run: %s: a message size of %g bytes", o->sched, b);
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
    int status, first, mine = f->status ? rank : size;
    MPI_Allreduce(&f->status, &status, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (status && first == rank) {
        fprintf(stderr, "%s\n", f->msg);
        fflush(stderr);
    }
    return status;
}

/* The measurements of one rank, as doubles for MPI_Igather. */
enum { M_ELAPSED, M_BUSY, M_SEND, M_RECV, M_CPU, M_MESSAGES, M_BYTES, M_TASKS, M_BUFFERS, M_COUNT };

/* Rank 0: prints the report from the gathered measurements m[rank][M_*]
 * and the OR-ed flags; returns the exit status. */
static int report(const options_t *o, const steady_schedule_t *sc, const steady_platform_t *p,
                  const double *m, const uint8_t *flags, int size)
{
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
    double optimum = mpq_get_d(sc->optimum), planned = mpq_get_d(sc->throughput);
    double ratio = optimum > 0 ? achieved / optimum : 0;
    long completed = o->ops - counts[0];
    int status = verified == o->ops ? RUN_OK : RUN_FAIL;
    if (o->json) {
        json_t *nodes = json_array();
        for (int r = 0; r < size && nodes; r++) {
            const double *mr = m + (size_t)r * M_COUNT;
            double e = elapsed > 0 ? elapsed : 1;
            json_array_append_new(nodes, json_pack("{s:s, s:f, s:f, s:f, s:f, s:f}", "name",
                                                   steady_platform_node(p, r)->name, "busy",
                                                   mr[M_BUSY] / e, "send", mr[M_SEND] / e, "recv",
                                                   mr[M_RECV] / e, "cpu", mr[M_CPU] / e, "buffers",
                                                   mr[M_BUFFERS]));
        }
        json_t *j = json_pack(
            "{s:I, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:o*}", "ops",
            (json_int_t)o->ops, "completed", (json_int_t)completed, "verified",
            (json_int_t)verified, "lost", (json_int_t)counts[0], "duplicated",
            (json_int_t)counts[1], "corrupt", (json_int_t)counts[2], "elapsed", elapsed, "achieved",
            achieved, "planned", planned, "optimum", optimum, "ratio", ratio, "messages", messages,
            "bytes", bytes, "tasks", tasks, "nodes", nodes);
        if (!j || json_dumpf(j, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) != 0)
            status = RUN_FAIL;
        putchar('\n');
        json_decref(j);
    } else {
        printf("run          %ld operations of %s on %s, %d ranks\n", o->ops,
               steady_op_name(sc->op), sc->platform_name, size);
        printf("operations   %ld completed: %ld verified, %ld lost, %ld duplicated, %ld corrupt\n",
               completed, verified, counts[0], counts[1], counts[2]);
        printf("elapsed      %.10g s (the slowest rank, from the common start)\n", elapsed);
        printf("achieved     %.10g operations per second\n", achieved);
        printf("planned      %.10g (the schedule's throughput)\n", planned);
        printf("optimum      %.10g (the LP's TP)\n", optimum);
        printf("ratio        %.6f of the optimum\n", ratio);
        printf("traffic      %.0f messages, %.0f bytes, %.0f tasks; buffers of at most %.0f "
               "bytes on a node\n",
               messages, bytes, tasks, buffers);
        printf("busy        ");
        for (int r = 0; r < size; r++)
            printf(" %s %.1f%%%s", steady_platform_node(p, r)->name,
                   elapsed > 0 ? 100 * m[(size_t)r * M_COUNT + M_BUSY] / elapsed : 0,
                   r + 1 < size ? "," : "\n");
    }
    fflush(stdout);
    return status;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    options_t o;
    failure_t f = {0};
    fault_t fault;
    steady_platform_t *p = NULL;
    steady_schedule_t *sc = NULL;
    program_t pg = {0};
    uint8_t *flags = NULL;
    double *all = NULL;
    size_t bytes = 0;
    int status = parse_options(argc, argv, &o, &f);
    if (!status && o.help) {
        if (rank == 0)
            help(stdout);
        goto done;
    }
    if (!status)
        status = parse_fault(getenv("STEADY_RUN_FAULT"), &fault, &f);
    if (!status)
        status = load(&o, rank, size, &p, &sc, &bytes, &f);
    if (!status) {
        steady_error_t err = {0};
        if (program_build(sc, p, rank, o.ops, bytes, &pg, &err))
            status = fail(&f, steady_err_exit_status(err.code), "steady-run: %s: %s (on %s)",
                          o.sched, err.msg, steady_platform_node(p, rank)->name);
        flags = calloc((size_t)o.ops, 1);
        all = calloc((size_t)size * M_COUNT, sizeof *all);
        if (!status && (!flags || !all))
            status = fail(&f, RUN_FAIL, "steady-run: out of memory for %ld operations", o.ops);
    }
    status = agree(&f, rank, size);
    if (status)
        goto done;

    watch_t w;
    watch_start(&w, &pg, o.timeout);
    MPI_Barrier(MPI_COMM_WORLD);
    run_stats_t st;
    steady_error_t err = {0};
    if (program_execute(&pg, &fault, &w, flags, &st, &err)) {
        fprintf(stderr, "steady-run: %s (rank %d): %s\n", steady_platform_node(p, rank)->name, rank,
                err.msg);
        MPI_Abort(MPI_COMM_WORLD, RUN_FAIL);
    }
    double mine[M_COUNT] = {
        [M_ELAPSED] = st.elapsed, [M_BUSY] = st.busy,   [M_SEND] = st.send,
        [M_RECV] = st.recv,       [M_CPU] = st.cpu,     [M_MESSAGES] = st.messages,
        [M_BYTES] = st.bytes,     [M_TASKS] = st.tasks, [M_BUFFERS] = (double)pg.buffers};
    MPI_Request reqs[2];
    MPI_Igather(mine, M_COUNT, MPI_DOUBLE, all, M_COUNT, MPI_DOUBLE, 0, MPI_COMM_WORLD, &reqs[0]);
    MPI_Ireduce(rank == 0 ? MPI_IN_PLACE : flags, flags, (int)o.ops, MPI_UNSIGNED_CHAR, MPI_BOR, 0,
                MPI_COMM_WORLD, &reqs[1]);
    run_wait_all(2, reqs, &w, "gathering the results on rank 0");
    watch_stop(&w);
    if (rank == 0)
        status = report(&o, sc, p, all, flags, size);
done:
    free(all);
    free(flags);
    program_free(&pg);
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
    MPI_Finalize();
    return status;
}
