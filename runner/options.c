/*
 * options.c — `steady-run`'s command line: --help, the options of its three
 * modes and the checks of which go together, and STEADY_RUN_FAULT.  Parsed
 * by hand: getopt keeps its state in globals, and under SMPI the ranks may
 * share one address space.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

#define DEFAULT_TIMEOUT 60.0

int fail(failure_t *f, int status, const char *fmt, ...)
{
    char raw[sizeof f->msg];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    steady_error_escape(f->msg, sizeof f->msg, raw); /* one line, whatever it quotes */
    return f->status = status;
}

void help(FILE *out)
{
    fprintf(out,
            "usage: steady-run --ops K [--json] [--quiet] [--timeout S] [--msg-bytes B]\n"
            "                  [--from FORMAT] SCHED PLATFORM\n"
            "       steady-run --algo ALGO --op OP --ops K [--chunks C] [--root NAME]\n"
            "                  [--task-cost FLOP] [--optimum TP] [--commutative] [--json]\n"
            "                  [--quiet] [--timeout S] [--msg-bytes B] [--from FORMAT]\n"
            "                  PLATFORM\n"
            "       steady-run --calibrate -o OUT [--sizes LIST] [--reps R]\n"
            "                  [--cost-model rendezvous|eager] [--json] [--quiet]\n"
            "                  [--timeout S] [--from FORMAT] PLATFORM\n"
            "\n"
            "Runs K operations of the periodic schedule SCHED (steady plan) on MPI, one rank\n"
            "per processor and router of PLATFORM in platform order (routers forward;\n"
            "switches have no rank: steady export --hostfile lists the ranks), self-timed:\n"
            "every rank sends, receives and computes its part of each period in schedule\n"
            "order as soon as its data is there, with real payloads of the planned size\n"
            "that are checked where they are delivered (a schedule in M segments, steady\n"
            "plan --segments, moves each operation as M messages).  Prints the operations\n"
            "verified, lost, duplicated and corrupt, the time, the throughput reached and\n"
            "its ratio to the optimum TP, and each node's busy fraction.\n"
            "\n"
            "With --algo, runs K operations of a comparison algorithm instead (steady\n"
            "compare, docs/comparison.md): ALGO is twotreec, twotreec+c, twotreec+s (these\n"
            "two: allreduce only), twotrees, binomial, binary, chain, flat, or mpi (the MPI\n"
            "library's own MPI_Bcast / MPI_Reduce / MPI_Allreduce); OP is broadcast, reduce\n"
            "or allreduce.  The algorithm's ranks are the processors in platform order;\n"
            "every chunk follows the model's route, forwarded hop by hop by the ranks in\n"
            "between (through switches), one-port; every chunk is checked where it\n"
            "arrives.  'planned' is the model's throughput.\n"
            "\n"
            "  mpirun -np N steady-run --ops K SCHED PLATFORM\n"
            "  smpirun -np N -platform P.xml -hostfile P.hosts [--cfg=...] \\\n"
            "      steady-run-smpi --ops K SCHED PLATFORM      (docs/running.md)\n"
            "\n"
            "  --ops K          operations to run (required)\n"
            "  --json           {\"ops\", \"completed\", \"verified\", \"lost\", \"duplicated\",\n"
            "                   \"corrupt\", \"elapsed\", \"achieved\", \"planned\", \"optimum\",\n"
            "                   \"ratio\", \"messages\", \"messages_per_operation\",\n"
            "                   \"planned_messages_per_operation\" (the schedule's, in\n"
            "                   the steady state; null with --algo), \"bytes\", \"tasks\",\n"
            "                   \"nodes\": [{\"name\", \"busy\", \"send\", \"recv\", \"cpu\",\n"
            "                   \"buffers\"}]}\n"
            "  --quiet          no progress line (rank 0 draws one on standard error while\n"
            "                   the run lasts, when it is a terminal: under smpirun, or\n"
            "                   a launcher that gives rank 0 the terminal)\n"
            "  --timeout S      a rank that sees no progress for S seconds says what it\n"
            "                   waits for and ends the job (default %g; simulated seconds\n"
            "                   under SMPI); under SMPI a run's wait allows on top 16\n"
            "                   times max lag + 1 periods of the schedule with their\n"
            "                   latencies (with --algo, a message through every rank along\n"
            "                   the slowest edge), and a calibration's wait 16 times what\n"
            "                   the platform file gives the experiment at hand\n"
            "  --msg-bytes B    message size, 1 B to 2^31 - 1 B, e.g. 65536 or 64KiB\n"
            "                   (default: the schedule's, with --algo 1 MiB; required on an\n"
            "                   abstract platform); another size than a schedule's is\n"
            "                   measured against the LP optimum for it (rank 0 solves it\n"
            "                   after the run, in at most 60 s)\n"
            "  --from FORMAT    platform format: auto (default), native, graphml, simgrid\n"
            "  --algo ALGO      run a comparison algorithm (above) instead of a schedule\n"
            "  --op OP          with --algo: broadcast, reduce or allreduce (required)\n"
            "  --chunks C       with --algo: chunks per message (default: the model's choice,\n"
            "                   as steady compare's)\n"
            "  --root NAME      with --algo: the root processor (default: the first)\n"
            "  --task-cost FLOP with --algo: flop to combine two whole messages, 1e-6 to\n"
            "                   1e21 (default: one per byte; 1 on abstract platforms)\n"
            "  --optimum TP     with --algo: the LP optimum to report against, or none\n"
            "                   (default: rank 0 solves it after the run, in at most 60 s)\n"
            "  --commutative    with --algo mpi: declare the reduce operator commutative and\n"
            "                   use the commutative one (default: non-commutative)\n"
            "\n"
            "With --calibrate, measures every hop of PLATFORM (each pair of ranks a message\n"
            "crosses, through switches or not) with the executor's own sends: ping-pong and\n"
            "streams of one message in flight, alone and with the hops of a matching at\n"
            "once, for each size; fits alpha + beta s per hop and writes to OUT a calibrated\n"
            "platform (native format: one edge per hop, bandwidth 1 / beta, alpha as latency\n"
            "held once per MPI message (rendezvous) or as overhead (eager); the channels'\n"
            "bandwidths as measured under load; recv-factor, the rate a hop keeps while its\n"
            "sender receives; under SMPI, flows sharing a link by SimGrid's penalty with the\n"
            "run's network/weight-S, each hop's penalty from PLATFORM), with a comment\n"
            "header saying how and when\n"
            "(docs/calibration.md).  Plan on OUT (steady plan --cost-model the same) and run\n"
            "the schedule with PLATFORM = OUT.\n"
            "\n"
            "  --calibrate      measure the platform and write the calibrated one to -o OUT\n"
            "  -o, --output OUT with --calibrate: the calibrated platform, written once\n"
            "                   measured (a failed calibration leaves OUT as it was)\n"
            "  --sizes LIST     with --calibrate: message sizes, e.g. 4KiB,64KiB,1MiB (default\n"
            "                   1KiB to 4MiB by factors of 4; two at least)\n"
            "  --reps R         with --calibrate: repetitions per measurement, medians\n"
            "                   (default 5)\n"
            "  --cost-model M   with --calibrate: rendezvous (default; steady-run's sends, and\n"
            "                   steady plan's default) or eager, the cost model OUT is for\n"
            "  -h, --help       this help\n"
            "\n"
            "STEADY_RUN_FAULT=RANK:die@OP, RANK:stall@OP, RANK:corrupt@OP or RANK:swap@OP\n"
            "makes rank RANK die, stall, damage one byte, or combine the operands of its\n"
            "first reduction in the reverse order when it reaches operation OP (for tests).\n"
            "Exit status: 0 all verified, 1 a runtime or verification failure, 2 bad input\n"
            "or usage.\n",
            DEFAULT_TIMEOUT);
}

static int usage(failure_t *f, const char *what, const char *value)
{
    return fail(f, RUN_USAGE, "steady-run: %s (%s) (see 'steady-run --help')", what, value);
}

/* *out = the decimal integer v when it is one, from lo to hi. */
static bool integer(const char *v, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || *end || end == v || x < lo || x > hi)
        return false;
    *out = x;
    return true;
}

/* The first option given that goes with --algo only, or NULL. */
static const char *algo_option(const options_t *o)
{
    return o->op >= 0       ? "--op"
           : o->chunks      ? "--chunks"
           : o->root        ? "--root"
           : o->task_cost   ? "--task-cost"
           : o->optimum     ? "--optimum"
           : o->commutative ? "--commutative"
                            : NULL;
}

/* Parses argv into *o ("--opt VALUE" or "--opt=VALUE", anywhere). */
int parse_options(int argc, char **argv, options_t *o, failure_t *f)
{
    *o = (options_t){.timeout = DEFAULT_TIMEOUT,
                     .from = STEADY_FORMAT_AUTO,
                     .algo = ALGO_NONE,
                     .op = -1,
                     .cost_model = -1};
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
        if (strcmp(name, "--json") == 0 || strcmp(name, "--commutative") == 0 ||
            strcmp(name, "--quiet") == 0 || strcmp(name, "--calibrate") == 0) {
            if (eq)
                return usage(f, "this option takes no value", a);
            if (name[2] == 'j')
                o->json = true;
            else if (name[2] == 'q')
                o->quiet = true;
            else if (name[3] == 'a')
                o->calibrate = true;
            else
                o->commutative = true;
            continue;
        }
        static const char *const valued[] = {"--ops",       "--timeout", "--msg-bytes",  "--from",
                                             "--algo",      "--op",      "--chunks",     "--root",
                                             "--task-cost", "--optimum", "-o",           "--output",
                                             "--sizes",     "--reps",    "--cost-model", NULL};
        int known = 0;
        while (valued[known] && strcmp(name, valued[known]))
            known++;
        if (!valued[known])
            return usage(f, "unknown option", a);
        const char *v = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
        if (!v)
            return usage(f, "option needs a value", name);
        long x;
        if (strcmp(name, "--ops") == 0) {
            if (!integer(v, 1, 1000000000L, &o->ops))
                return usage(f, "--ops takes a positive integer up to 10^9", v);
        } else if (strcmp(name, "--timeout") == 0) {
            if (!steady_parse_number(v, &o->timeout) || !(o->timeout > 0) || o->timeout > 1e9)
                return usage(f, "--timeout takes a positive number of seconds up to 1e9", v);
        } else if (strcmp(name, "--msg-bytes") == 0) {
            steady_error_t err = {0};
            if (steady_parse_size(v, &o->msg_bytes, &err) || o->msg_bytes > MAX_MSG_BYTES)
                return usage(f, "--msg-bytes takes a size from 1 byte to 2^31 - 1 bytes", v);
        } else if (strcmp(name, "--algo") == 0) {
            o->algo = strcmp(v, "mpi") == 0 ? ALGO_MPI : steady_algo_from_name(v);
            if (o->algo == -1)
                return usage(f,
                             "--algo: unknown algorithm, use twotreec, twotreec+c, twotreec+s, "
                             "twotrees, binomial, binary, chain, flat or mpi",
                             v);
        } else if (strcmp(name, "--op") == 0) {
            o->op = steady_collop_from_name(v);
            if (o->op < 0)
                return usage(f, "--op: unknown operation, use broadcast, reduce or allreduce", v);
        } else if (strcmp(name, "--chunks") == 0) {
            if (!integer(v, 1, 1000000, &x))
                return usage(f, "--chunks takes a positive integer up to 10^6", v);
            o->chunks = (int)x;
        } else if (strcmp(name, "--root") == 0) {
            o->root = v;
        } else if (strcmp(name, "-o") == 0 || strcmp(name, "--output") == 0) {
            o->out = v;
        } else if (strcmp(name, "--cost-model") == 0) {
            o->cost_model = steady_cost_model_from_name(v);
            if (o->cost_model < 0)
                return usage(f, "--cost-model takes rendezvous or eager", v);
        } else if (strcmp(name, "--sizes") == 0) {
            o->sizes = v;
        } else if (strcmp(name, "--reps") == 0) {
            if (!integer(v, 1, 1000, &x))
                return usage(f, "--reps takes a positive integer up to 1000", v);
            o->reps = (int)x;
        } else if (strcmp(name, "--task-cost") == 0) {
            if (!steady_parse_number(v, &o->task_cost) || !(o->task_cost >= STEADY_TASK_COST_MIN) ||
                o->task_cost > STEADY_TASK_COST_MAX)
                return usage(f, "--task-cost takes a number of flop from 1e-6 to 1e21", v);
        } else if (strcmp(name, "--optimum") == 0) {
            if (strcmp(v, "none") == 0)
                o->optimum = -1;
            else if (!steady_parse_number(v, &o->optimum) || !(o->optimum > 0) ||
                     !isfinite(o->optimum))
                return usage(f, "--optimum takes a positive throughput or none", v);
        } else {
            int fmt = steady_format_from_name(v);
            if (fmt < 0)
                return usage(f, "--from: unknown format, use auto, native, graphml or simgrid", v);
            o->from = (steady_format_t)fmt;
        }
    }
    if (o->calibrate) {
        const char *stray = o->ops                 ? "--ops"
                            : o->algo != ALGO_NONE ? "--algo"
                            : algo_option(o)       ? algo_option(o)
                            : o->msg_bytes         ? "--msg-bytes"
                                                   : NULL;
        if (stray)
            return fail(f, RUN_USAGE,
                        "steady-run: %s does not go with --calibrate (see 'steady-run --help')",
                        stray);
        if (npos != 1)
            return fail(f, RUN_USAGE,
                        "steady-run: with --calibrate, expected PLATFORM only (see 'steady-run "
                        "--help')");
        if (!o->out)
            return fail(f, RUN_USAGE,
                        "steady-run: --calibrate needs -o OUT, the calibrated platform to write");
        if (strcmp(o->out, "-") == 0)
            return fail(f, RUN_USAGE,
                        "steady-run: -o -: the report goes to standard output; name a file for "
                        "the calibrated platform");
        o->plat = pos[0];
        return RUN_OK;
    }
    if (o->out || o->sizes || o->reps || o->cost_model >= 0) {
        return fail(f, RUN_USAGE, "steady-run: %s goes with --calibrate (see 'steady-run --help')",
                    o->out     ? "-o"
                    : o->sizes ? "--sizes"
                    : o->reps  ? "--reps"
                               : "--cost-model");
    }
    if (o->algo == ALGO_NONE) {
        const char *stray = algo_option(o);
        if (stray)
            return fail(f, RUN_USAGE,
                        "steady-run: %s goes with --algo (a schedule says it all) (see "
                        "'steady-run --help')",
                        stray);
        if (npos != 2)
            return fail(f, RUN_USAGE,
                        "steady-run: expected SCHED PLATFORM (see 'steady-run --help')");
    } else {
        if (npos != 1)
            return fail(f, RUN_USAGE,
                        "steady-run: with --algo, expected PLATFORM only (see 'steady-run "
                        "--help')");
        if (o->op < 0)
            return fail(f, RUN_USAGE, "steady-run: --algo needs --op broadcast|reduce|allreduce");
        if (o->algo >= 0 && !steady_algo_supports((steady_algo_t)o->algo, (steady_collop_t)o->op))
            return fail(f, RUN_USAGE,
                        "steady-run: --algo %s does not support --op %s (allreduce only)",
                        steady_algo_name((steady_algo_t)o->algo),
                        steady_collop_name((steady_collop_t)o->op));
        if (o->algo == ALGO_MPI && o->chunks)
            return fail(f, RUN_USAGE,
                        "steady-run: --chunks does not apply to --algo mpi (the MPI library "
                        "splits messages itself)");
        if (o->algo != ALGO_MPI && o->commutative)
            return fail(f, RUN_USAGE,
                        "steady-run: --commutative goes with --algo mpi (steady's algorithms "
                        "use the commutative operator exactly when their trees need it)");
        if (o->task_cost && o->op == STEADY_COLL_BROADCAST)
            return fail(f, RUN_USAGE, "steady-run: --task-cost goes with reduce or allreduce");
    }
    if (o->ops == 0)
        return fail(f, RUN_USAGE, "steady-run: --ops K is required (see 'steady-run --help')");
    o->sched = o->algo == ALGO_NONE ? pos[0] : NULL;
    o->plat = pos[npos - 1];
    return RUN_OK;
}

/* STEADY_RUN_FAULT=RANK:KIND@OP (unset: no fault). */
int parse_fault(const char *text, fault_t *fault, failure_t *f)
{
    *fault = (fault_t){FAULT_NONE, -1, -1};
    if (!text || !*text)
        return RUN_OK;
    char kind[16];
    int end = -1;
    if (sscanf(text, "%d:%15[a-z]@%ld%n", &fault->rank, kind, &fault->op, &end) != 3 || end < 0 ||
        text[end] != '\0' || fault->rank < 0 || fault->op < 0)
        return usage(f,
                     "STEADY_RUN_FAULT: expected RANK:die@OP, RANK:stall@OP, RANK:corrupt@OP or "
                     "RANK:swap@OP",
                     text);
    fault->kind = strcmp(kind, "die") == 0       ? FAULT_DIE
                  : strcmp(kind, "stall") == 0   ? FAULT_STALL
                  : strcmp(kind, "corrupt") == 0 ? FAULT_CORRUPT
                  : strcmp(kind, "swap") == 0    ? FAULT_SWAP
                                                 : FAULT_NONE;
    if (fault->kind == FAULT_NONE)
        return usage(f, "STEADY_RUN_FAULT: the fault is die, stall, corrupt or swap", text);
    return RUN_OK;
}
