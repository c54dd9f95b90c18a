/*
 * cmd_compare.c — `steady compare`: the steady-state throughput of TwoTreeC,
 * TwoTreeS, binomial, pipelined binary, chain and flat trees on a platform
 * under the one-port model, next to the LP optimum (docs/comparison.md).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "steady/compare.h"
#include "steady/schedule.h"

extern char **environ;

void help_compare(FILE *out)
{
    fprintf(out,
            "usage: steady compare --op broadcast|reduce|allreduce [--root NAME]\n"
            "                      [--msg-size BYTES] [--task-cost FLOP] [--chunks C|auto]\n"
            "                      [--measure smpi [--ops K]] [--json] [-o CHART.svg]\n"
            "                      [--approx] [--time-limit SEC] [--from FORMAT] [--quiet]\n"
            "                      PLATFORM\n"
            "\n"
            "Compares the algorithms MPI libraries use for series of broadcasts, reduces\n"
            "and allreduces — TwoTreeC (and TwoTreeC+C, TwoTreeC+S for allreduce),\n"
            "TwoTreeS, binomial tree, pipelined binary tree, chain, flat tree — with the\n"
            "optimal steady-state throughput of the LP (steady solve).  Ranks are the\n"
            "platform's processors in platform order; a message between two processors\n"
            "follows the shortest route by port occupation, every hop charging its\n"
            "sender's send port and its receiver's receive port (one-port model); the\n"
            "model throughput of an algorithm is 1 / the busiest port's or processor's\n"
            "time per operation, what a long series reaches when operations pipeline.\n"
            "With --measure smpi every algorithm is also run under SimGrid SMPI on the\n"
            "exported platform (steady-run-smpi, next to steady; smpirun, in PATH), as\n"
            "are the LP's periodic schedule (row lp-schedule; broadcast and reduce) and\n"
            "the MPI library's own collective with a few SMPI algorithms (rows mpi:NAME,\n"
            "no model); the measured throughput and its ratio to the optimum fill the\n"
            "table.  A run that fails or does not verify every operation is an error.\n"
            "\n"
            "  --op OP               broadcast, reduce or allreduce (required)\n"
            "  --root NAME           the root processor (default: the first processor);\n"
            "                        --source (broadcast) and --target (reduce) are synonyms\n"
            "  --msg-size BYTES      message size, e.g. 65536, 64KiB, 1MB (default 1MiB);\n"
            "                        ignored by abstract cost edges\n"
            "  --task-cost FLOP      reduce, allreduce: flop to combine two messages\n"
            "                        (default: one flop per byte; 1 on abstract platforms)\n"
            "  --chunks C|auto       chunks per message; auto (default) takes, per algorithm,\n"
            "                        the count up to 64 with the best model throughput, then\n"
            "                        the shortest single operation (simulated)\n"
            "  --measure smpi        measure every row under SMPI (see above); with an\n"
            "                        abstract platform one cost unit is --msg-size bytes\n"
            "                        (1 MiB) and one simulated second\n"
            "  --ops K               operations per measured row (default 200)\n"
            "  --json                machine-readable output\n"
            "  -o, --output FILE     also write an SVG bar chart to FILE\n"
            "  --approx              skip the exact rational recovery of the LPs\n"
            "  --time-limit SEC      give up (exit 1) when an LP's solve takes longer\n"
            "  --from FORMAT         auto (default), native, graphml or simgrid\n"
            "  --quiet               no progress line on standard error (drawn only when\n"
            "                        it is a terminal)\n"
            "  -h, --help            this help\n"
            "\n"
            "The reduce optimum (SSR) is for an associative, non-commutative operator;\n"
            "algorithms that need a commutative one are marked, and the bound for\n"
            "commutative reduces is printed too.  The allreduce optimum is\n"
            "min(reduce optimum, broadcast optimum), an upper bound.\n"
            "\n"
            "Exit status: 0 done, 2 bad input (unknown node, router as root, unreachable\n"
            "processor, ...), 1 solver failure or a failed measurement.\n");
}

static const char *resource_name(steady_resource_t r)
{
    static const char *const names[3] = {"send port", "receive port", "cpu"};
    return names[r];
}

static void bottleneck(const steady_platform_t *p, const steady_model_t *m, char *buf, size_t n)
{
    if (m->bottleneck < 0)
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%s of %s", resource_name(m->bottleneck_resource),
                 steady_platform_node(p, m->bottleneck)->name);
}

static const char *operator_needed(const steady_comparison_t *c, const steady_model_t *m)
{
    if (c->op == STEADY_COLL_BROADCAST)
        return "-";
    return m->order_preserving ? "any" : "commutative";
}

/* lp-schedule: the SSR schedule keeps the rank order; mpi:NAME reduces
 * with a commutative MPI_Op (see mpi_algos below). */
static const char *extra_operator(const steady_comparison_t *c, const char *name)
{
    if (c->op == STEADY_COLL_BROADCAST)
        return "-";
    return strncmp(name, "mpi:", 4) == 0 ? "commutative" : "any";
}

static void print_size(double bytes, char *buf, size_t n)
{
    int k = 0;
    while (k < 3 && bytes >= 1024 && fmod(bytes, 1024) == 0) {
        bytes /= 1024;
        k++;
    }
    snprintf(buf, n, "%.17g %s", bytes, (const char *[]){"bytes", "KiB", "MiB", "GiB"}[k]);
}

static void print_text(const steady_comparison_t *c, const steady_platform_t *p, int chunks,
                       long ops)
{
    bool abstract = steady_platform_is_abstract(p);
    const char *unit = abstract ? "operations per time unit" : "operations/s";
    const char *root = steady_platform_node(p, c->root)->name;
    char buf[160];
    switch (c->op) {
    case STEADY_COLL_BROADCAST:
        snprintf(buf, sizeof buf, "broadcast from %s to the other %d processors", root,
                 c->ranks - 1);
        break;
    case STEADY_COLL_REDUCE:
        snprintf(buf, sizeof buf, "reduce of %d processors to %s", c->ranks, root);
        break;
    case STEADY_COLL_ALLREDUCE:
        snprintf(buf, sizeof buf, "allreduce of %d processors through %s", c->ranks, root);
        break;
    }
    printf("%-13s%s on %s\n", "operation", buf, steady_platform_name(p));
    if (abstract) {
        printf("%-13sabstract costs (a chunk of 1/C of a message costs cost/C)\n", "messages");
    } else {
        print_size(c->msg_size, buf, sizeof buf);
        printf("%-13s%s per message\n", "messages", buf);
    }
    if (c->op != STEADY_COLL_BROADCAST)
        printf("%-13s%.17g %s per combine of two messages\n", "tasks", c->task_cost,
               abstract ? "work units" : "flop");
    if (chunks > 0)
        printf("%-13s%d per message\n", "chunks", chunks);
    else
        printf("%-13sauto: per algorithm, the count up to 64 with the best model TP, then\n"
               "%-13sthe shortest single operation\n",
               "chunks", "");

    const char *what = c->op == STEADY_COLL_BROADCAST ? "SSB LP, every other processor a target"
                       : c->op == STEADY_COLL_REDUCE
                           ? "SSR LP, non-commutative operator in platform order"
                           : "min of the reduce and broadcast LP optima";
    printf("%-13s%.10g %s (%s%s)\n", "optimum", c->optimum, unit, what,
           c->optimum_exact ? "" : ", approximate");
    if (c->optimum_is_bound && c->op == STEADY_COLL_BROADCAST)
        printf("%-13sUPPER BOUND: routers need not receive the message (a multicast); the\n"
               "%-13sLP value may not be achievable\n",
               "", "");
    if (c->op == STEADY_COLL_ALLREDUCE) {
        printf("%-13sUPPER BOUND for algorithms that reduce to the root then broadcast\n", "");
        printf("%-13sreduce %.10g, broadcast %.10g; the LP schedules taking turns reach %.10g\n",
               "", c->reduce_optimum, c->broadcast_optimum, c->time_shared);
    }
    if (c->op != STEADY_COLL_BROADCAST)
        printf("%-13s%.10g %s for a commutative operator (upper bound)\n", "commutative",
               c->commutative_bound, unit);

    int w = 12;
    for (int i = 0; i < c->nextra; i++)
        if ((int)strlen(c->extra[i].name) > w)
            w = (int)strlen(c->extra[i].name);
    if (ops > 0)
        printf("%-13s%ld operations per row under SMPI (steady-run-smpi, latencies as the\n"
               "%-13splatform gives them)\n",
               "measured", ops, "");
    printf("\n%-*s %6s  %-12s %-7s %-12s ", w, "algorithm", "chunks", "model TP", "ratio",
           ops > 0 ? "measured" : "measured ");
    if (ops > 0)
        printf("%-8s ", "m. ratio");
    printf("%-10s %-12s %s\n", "one op", "operator", "bottleneck");
    for (int i = 0; i < c->nalgos + c->nextra; i++) {
        bool extra = i >= c->nalgos;
        const steady_model_t *m = extra ? NULL : &c->algos[i];
        double model = extra ? c->extra[i - c->nalgos].model : m->throughput;
        double measured = extra ? c->extra[i - c->nalgos].measured : c->measured[i];
        char chunk_s[16] = "-", model_s[24] = "-", ratio_s[16] = "-", meas_s[24] = "-",
             mratio_s[16] = "-", one_s[24] = "-";
        if (!extra) {
            snprintf(chunk_s, sizeof chunk_s, "%d", m->chunks);
            snprintf(one_s, sizeof one_s, "%.4g", m->makespan);
            bottleneck(p, m, buf, sizeof buf);
        } else {
            snprintf(buf, sizeof buf, "-");
        }
        if (isfinite(model)) {
            snprintf(model_s, sizeof model_s, "%.6g", model);
            snprintf(ratio_s, sizeof ratio_s, "%.4f", model / c->optimum);
        }
        if (isfinite(measured)) {
            snprintf(meas_s, sizeof meas_s, "%.6g", measured);
            snprintf(mratio_s, sizeof mratio_s, "%.4f", measured / c->optimum);
        }
        printf("%-*s %6s  %-12s %-7s %-12s ", w,
               extra ? c->extra[i - c->nalgos].name : steady_algo_name(m->algo), chunk_s, model_s,
               ratio_s, meas_s);
        if (ops > 0)
            printf("%-8s ", mratio_s);
        printf("%-10s %-12s %s\n", one_s,
               extra ? extra_operator(c, c->extra[i - c->nalgos].name) : operator_needed(c, m),
               buf);
    }
    printf("\n(model TP: a long series, operations pipelined; one op: a single operation\n"
           "simulated alone, in %s%s)\n",
           abstract ? "time units" : "s",
           ops > 0
               ? ";\nmeasured: achieved under SMPI, m. ratio = measured / optimum; lp-schedule:\n"
                 "the LP's periodic schedule (steady plan), its model TP the planned one;\n"
                 "mpi:NAME: the MPI library's own collective, SMPI algorithm NAME, routed by\n"
                 "SimGrid and not held to the one-port model"
               : "");
}

static json_t *number_or_null(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

static int print_json(const steady_comparison_t *c, const steady_platform_t *p, long ops)
{
    bool abstract = steady_platform_is_abstract(p);
    json_t *algos = json_array();
    for (int i = 0; i < c->nalgos; i++) {
        const steady_model_t *m = &c->algos[i];
        char buf[2 * STEADY_NAME_MAX + 32];
        bottleneck(p, m, buf, sizeof buf);
        json_array_append_new(
            algos, json_pack("{s:s, s:o, s:o, s:o, s:o, s:i, s:o, s:s, s:s}", "name",
                             steady_algo_name(m->algo), "model_throughput",
                             number_or_null(m->throughput), "measured_throughput",
                             number_or_null(c->measured[i]), "ratio", number_or_null(c->ratio[i]),
                             "measured_ratio", number_or_null(c->measured[i] / c->optimum),
                             "chunks", m->chunks, "makespan_estimate", number_or_null(m->makespan),
                             "operator", operator_needed(c, m), "bottleneck", buf));
    }
    /* the measured rows without an algorithm: lp-schedule, mpi:NAME */
    for (int i = 0; i < c->nextra; i++)
        json_array_append_new(
            algos,
            json_pack("{s:s, s:o, s:o, s:o, s:o, s:n, s:n, s:s, s:n}", "name", c->extra[i].name,
                      "model_throughput", number_or_null(c->extra[i].model), "measured_throughput",
                      number_or_null(c->extra[i].measured), "ratio",
                      number_or_null(c->extra[i].model / c->optimum), "measured_ratio",
                      number_or_null(c->extra[i].measured / c->optimum), "chunks",
                      "makespan_estimate", "operator", extra_operator(c, c->extra[i].name),
                      "bottleneck"));
    json_t *j = json_pack(
        "{s:s, s:s, s:s, s:i, s:b, s:f, s:f, s:s, s:o, s:b, s:b, s:o, s:o, s:o, s:o, s:o}", "op",
        steady_collop_name(c->op), "platform", steady_platform_name(p), "root",
        steady_platform_node(p, c->root)->name, "ranks", c->ranks, "abstract", abstract, "msg_size",
        c->msg_size, "task_cost", c->task_cost, "unit", abstract ? "ops/time-unit" : "ops/s",
        "optimum", number_or_null(c->optimum), "optimum_is_bound", c->optimum_is_bound, "exact",
        c->optimum_exact, "reduce_optimum", number_or_null(c->reduce_optimum), "broadcast_optimum",
        number_or_null(c->broadcast_optimum), "commutative_bound",
        number_or_null(c->commutative_bound), "time_shared", number_or_null(c->time_shared),
        "algorithms", algos);
    if (!j)
        return EXIT_FAIL;
    json_object_set_new(j, "measured_ops", ops > 0 ? json_integer(ops) : json_null());
    int rc =
        json_dumpf(j, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) == 0 ? EXIT_OK : EXIT_FAIL;
    putchar('\n');
    json_decref(j);
    return rc;
}

/* ---- --measure smpi ---------------------------------------------------------
 *
 * Every row is one SMPI run of the executor (docs/running.md): the platform
 * exported to a temporary SimGrid XML and hostfile, one rank per node
 * (routers included), with the --cfg flags that make SimGrid follow the
 * one-port model (tests/e2e/smpi_export.sh explains each).  smpirun is a
 * launcher script, so each run is a child process, spawned without a shell;
 * its report is its standard output (JSON), its standard error goes to a file
 * that the error message names and that is kept when a run fails.  A run
 * that fails or does not verify every operation stops the comparison: a
 * blank in the table would read as "not measured". */

static const char *const smpi_cfg[] = {"--cfg=smpi/simulate-computation:no",
                                       "--cfg=smpi/bw-factor:0:1",
                                       "--cfg=smpi/lat-factor:0:1",
                                       "--cfg=network/TCP-gamma:0",
                                       "--cfg=network/crosstraffic:0",
                                       "--cfg=smpi/wtime:0",
                                       "--log=root.thres:warning"};

/* The MPI library's own collective, with a few of SMPI's selectable
 * algorithms (--cfg=smpi/bcast:NAME ...) per operation.  Left out: bcast
 * ompi_split_bintree, which never completes a broadcast here (SimGrid
 * 3.x).  Reduces and allreduces run with
 * a commutative MPI_Op (steady-run --commutative): with the non-commutative
 * one SMPI's reduce ompi_chain and allreduce lr and ompi_ring_segmented
 * combine out of rank order and the results do not verify (SimGrid 3.x). */
static const char *const mpi_algos[3][5] = {
    {"binomial_tree", "scatter_rdb_allgather", "ompi_pipeline", "NTSL", NULL},
    {"binomial", "ompi_chain", "ompi_in_order_binary", NULL},
    {"redbcast", "rdb", "ompi_ring_segmented", NULL}};
static const char *const mpi_cfg_key[3] = {"bcast", "reduce", "allreduce"};

typedef struct {
    char dir[PATH_MAX - 32]; /* the temporary directory, "" before it exists */
    char xml[PATH_MAX], hosts[PATH_MAX], plat[PATH_MAX], sched[PATH_MAX], out[PATH_MAX],
        err[PATH_MAX];
    char run[PATH_MAX];     /* steady-run-smpi, next to this program */
    char smpirun[PATH_MAX]; /* from PATH */
    char np[16], ops[24], bytes[32];
    long nops;
    steady_progress_line_t *line; /* the command's progress line */
    int rows, done;               /* runs to make, made */
    bool keep;                    /* a run failed: keep the files its error names */
} measure_t;

static int measure_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int measure_error(const char *fmt, ...)
{
    char what[STEADY_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    message("steady compare: --measure smpi: %s", what);
    return EXIT_FAIL;
}

/* Finds the two programs: steady-run-smpi in the directory of this very
 * executable (the build puts them side by side), smpirun in PATH. */
static int measure_locate(measure_t *m)
{
    ssize_t n = readlink("/proc/self/exe", m->run, sizeof m->run - 32);
    if (n <= 0)
        return measure_error("cannot find this program (/proc/self/exe: %s)", strerror(errno));
    m->run[n] = '\0';
    char *slash = strrchr(m->run, '/');
    strcpy(slash ? slash + 1 : m->run, "steady-run-smpi");
    if (access(m->run, X_OK) != 0)
        return measure_error("steady-run-smpi not found next to steady (%s; 'make' builds it)",
                             m->run);
    const char *path = getenv("PATH");
    for (const char *d = path; d && *d;) {
        size_t len = strcspn(d, ":");
        if (len > 0 && len + sizeof "/smpirun" < sizeof m->smpirun) {
            snprintf(m->smpirun, sizeof m->smpirun, "%.*s/smpirun", (int)len, d);
            if (access(m->smpirun, X_OK) == 0)
                return EXIT_OK;
        }
        d += len + (d[len] == ':');
    }
    return measure_error("smpirun not found in PATH (install SimGrid: scripts/bootstrap)");
}

/* The first line of the run's standard error that says something: the
 * executor's own message if there is one, else the first line that is not a
 * SimGrid warning, else the first line. */
static void first_error_line(const char *path, char *buf, size_t n)
{
    snprintf(buf, n, "(nothing on standard error)");
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[512];
    int rank = 0; /* 3: steady-run's line, 2: not a warning, 1: any */
    while (rank < 3 && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!line[0])
            continue;
        int r = strncmp(line, "steady-run", 10) == 0 ? 3 : !strstr(line, "WARNING") ? 2 : 1;
        if (r > rank) {
            rank = r;
            snprintf(buf, n, "%.300s", line);
        }
    }
    fclose(f);
}

/* Runs smpirun ... steady-run-smpi --json --ops K --msg-bytes B ARGS PLATFORM
 * (cfg: one more --cfg, or NULL) and stores the achieved throughput.  label
 * names the row in errors. */
static int measure_run(measure_t *m, const char *label, const char *cfg, const char *const *args,
                       double *achieved)
{
    const char *argv[64];
    int n = 0;
    argv[n++] = m->smpirun;
    argv[n++] = "-no-privatize";
    for (size_t i = 0; i < sizeof smpi_cfg / sizeof *smpi_cfg; i++)
        argv[n++] = smpi_cfg[i];
    if (cfg)
        argv[n++] = cfg;
    const char *fixed[] = {"-platform", m->xml,   "-hostfile", m->hosts, "-np",         m->np,
                           m->run,      "--json", "--ops",     m->ops,   "--msg-bytes", m->bytes};
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        argv[n++] = fixed[i];
    for (; *args; args++)
        argv[n++] = *args;
    argv[n++] = m->plat;
    argv[n] = NULL;

    steady_progress_line_report(m->line, "measuring under SMPI, run", m->done++, m->rows);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, m->out, O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, m->err, O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
    pid_t pid;
    int rc = posix_spawn(&pid, m->smpirun, &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return measure_error("%s: cannot start %s (%s)", label, m->smpirun, strerror(rc));
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return measure_error("%s: waitpid: %s", label, strerror(errno));

    char why[96] = "", line[304];
    json_error_t jerr;
    json_t *j = json_load_file(m->out, JSON_DISABLE_EOF_CHECK, &jerr);
    json_int_t verified = -1, bad = 0;
    double tp = NAN;
    if (j) {
        verified = json_integer_value(json_object_get(j, "verified"));
        bad = json_integer_value(json_object_get(j, "lost")) +
              json_integer_value(json_object_get(j, "duplicated")) +
              json_integer_value(json_object_get(j, "corrupt"));
        tp = json_number_value(json_object_get(j, "achieved"));
        json_decref(j);
    }
    if (WIFSIGNALED(st))
        snprintf(why, sizeof why, "smpirun killed by signal %d", WTERMSIG(st));
    else if (WEXITSTATUS(st) != 0 && !j)
        snprintf(why, sizeof why, "smpirun exited with status %d", WEXITSTATUS(st));
    else if (!j)
        snprintf(why, sizeof why, "no JSON report");
    else if (verified != m->nops || bad != 0)
        snprintf(why, sizeof why, "verified %lld of %ld operations", (long long)verified, m->nops);
    else if (WEXITSTATUS(st) != 0)
        snprintf(why, sizeof why, "smpirun exited with status %d", WEXITSTATUS(st));
    else if (!(tp > 0))
        snprintf(why, sizeof why, "no achieved throughput in the report");
    if (why[0]) {
        m->keep = true;
        first_error_line(m->err, line, sizeof line);
        return measure_error("%s: %s: %s (see %s)", label, why, line, m->err);
    }
    *achieved = tp;
    return EXIT_OK;
}

/* Writes the exported platform, hostfile and native copy into m->dir. */
static int measure_files(measure_t *m, const steady_platform_t *p, double msg_size,
                         steady_error_t *err)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(m->dir, sizeof m->dir, "%s/steady-compare-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(m->dir)) {
        int e = errno;
        char d[PATH_MAX];
        snprintf(d, sizeof d, "%s", m->dir);
        m->dir[0] = '\0';
        return measure_error("%s: cannot create (%s)", d, strerror(e));
    }
    snprintf(m->xml, sizeof m->xml, "%s/platform.xml", m->dir);
    snprintf(m->hosts, sizeof m->hosts, "%s/platform.hosts", m->dir);
    snprintf(m->plat, sizeof m->plat, "%s/platform.plat", m->dir);
    snprintf(m->sched, sizeof m->sched, "%s/lp.sched", m->dir);
    snprintf(m->out, sizeof m->out, "%s/run.json", m->dir);
    snprintf(m->err, sizeof m->err, "%s/run.stderr", m->dir);
    steady_write_options_t wo = {.msg_size = msg_size};
    const char *paths[3] = {m->xml, m->hosts, m->plat};
    for (int k = 0; k < 3; k++) {
        FILE *f = fopen(paths[k], "w");
        if (!f)
            return measure_error("%s: cannot create (%s)", paths[k], strerror(errno));
        steady_err_t rc = k == 1   ? steady_platform_write_hostfile(p, f, err)
                          : k == 0 ? steady_platform_write(p, f, STEADY_FORMAT_SIMGRID, &wo, err)
                                   : steady_platform_write(p, f, STEADY_FORMAT_NATIVE, NULL, err);
        if (fclose(f) != 0 && !rc)
            return measure_error("%s: cannot write (%s)", paths[k], strerror(errno));
        if (rc)
            return report(err);
    }
    return EXIT_OK;
}

/* Plans the LP's periodic schedule for the comparison's problem (as `steady
 * plan --series K` does) into m->sched; *planned is its throughput. */
static int measure_plan(measure_t *m, const steady_comparison_t *c, const steady_platform_t *p,
                        const steady_solve_options_t *sopts, double *planned, steady_error_t *err)
{
    int nv = steady_platform_node_count(p), nothers = 0;
    int *others = malloc((size_t)nv * sizeof *others);
    if (!others)
        return measure_error("out of memory");
    for (int v = 0; v < nv; v++)
        if (v != c->root && steady_platform_node(p, v)->kind == STEADY_PROCESSOR)
            others[nothers++] = v;
    steady_problem_t prob = {.msg_size = c->msg_size};
    if (c->op == STEADY_COLL_BROADCAST) {
        prob.op = STEADY_OP_BROADCAST;
        prob.source = c->root;
        prob.targets = others;
        prob.ntargets = nothers;
    } else {
        prob.op = STEADY_OP_REDUCE;
        prob.target = c->root;
        prob.task_cost = c->task_cost;
    }
    steady_solution_t *sol = NULL;
    steady_schedule_t *sc = NULL;
    steady_plan_options_t po = {.period = STEADY_PERIOD_AUTO, .series = m->nops};
    int status = EXIT_OK;
    if (steady_lp_solve(p, &prob, sopts, &sol, err) ||
        steady_schedule_plan(sol, sopts, &po, &sc, err)) {
        status = report(err);
    } else {
        FILE *f = fopen(m->sched, "w");
        if (!f) {
            status = measure_error("%s: cannot create (%s)", m->sched, strerror(errno));
        } else {
            steady_err_t rc = steady_schedule_write(sc, p, f, err);
            if (fclose(f) != 0 && !rc)
                status = measure_error("%s: cannot write (%s)", m->sched, strerror(errno));
            else if (rc)
                status = report(err);
        }
        *planned = steady_schedule_per_operation(sc, sc->throughput);
    }
    steady_schedule_destroy(sc);
    steady_solution_destroy(sol);
    free(others);
    return status;
}

static void measure_cleanup(measure_t *m)
{
    if (!m->dir[0] || m->keep)
        return;
    const char *paths[] = {m->xml, m->hosts, m->plat, m->sched, m->out, m->err};
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
        unlink(paths[i]);
    rmdir(m->dir);
}

/* Measures every row of c under SMPI, ops operations each: the LP's
 * schedule (broadcast, reduce: allreduce has no LP schedule of its own), every
 * algorithm with the model's chunk count, and MPI's own collective with a few
 * of SMPI's algorithms.  Fills c->measured and c->extra. */
static int measure_smpi(steady_comparison_t *c, const steady_platform_t *p, problem_args_t *pa,
                        long ops)
{
    const steady_solve_options_t *sopts = &pa->sopts;
    int nmpi = 0;
    while (mpi_algos[c->op][nmpi])
        nmpi++;
    measure_t m = {.nops = ops,
                   .line = &pa->progress,
                   .rows = (c->op != STEADY_COLL_ALLREDUCE) + c->nalgos + nmpi};
    steady_error_t err = {0};
    int status = measure_locate(&m);
    if (status != EXIT_OK)
        return status;
    snprintf(m.np, sizeof m.np, "%d", steady_platform_node_count(p));
    snprintf(m.ops, sizeof m.ops, "%ld", ops);
    snprintf(m.bytes, sizeof m.bytes, "%.0f", c->msg_size);
    if ((status = measure_files(&m, p, c->msg_size, &err)) != EXIT_OK)
        goto done;

    const char *op = steady_collop_name(c->op), *root = steady_platform_node(p, c->root)->name;
    char optimum[32], task[32], chunks[16];
    snprintf(optimum, sizeof optimum, "%.17g", c->optimum);
    snprintf(task, sizeof task, "%.17g", c->task_cost);
    bool tasks = c->op != STEADY_COLL_BROADCAST;
    c->nextra = 0;
    if (c->op != STEADY_COLL_ALLREDUCE) {
        double planned = NAN, got;
        if ((status = measure_plan(&m, c, p, sopts, &planned, &err)) != EXIT_OK)
            goto done;
        const char *args[] = {m.sched, NULL};
        if ((status = measure_run(&m, "lp-schedule", NULL, args, &got)) != EXIT_OK)
            goto done;
        snprintf(c->extra[0].name, sizeof c->extra[0].name, "lp-schedule");
        c->extra[0].model = planned;
        c->extra[0].measured = got;
        c->nextra = 1;
    }
    for (int i = 0; i < c->nalgos; i++) {
        const char *name = steady_algo_name(c->algos[i].algo);
        snprintf(chunks, sizeof chunks, "%d", c->algos[i].chunks);
        const char *args[] = {"--algo",
                              name,
                              "--op",
                              op,
                              "--chunks",
                              chunks,
                              "--root",
                              root,
                              "--optimum",
                              optimum,
                              tasks ? "--task-cost" : NULL,
                              task,
                              NULL};
        if ((status = measure_run(&m, name, NULL, args, &c->measured[i])) != EXIT_OK)
            goto done;
    }
    for (const char *const *a = mpi_algos[c->op]; *a && c->nextra < STEADY_COMPARE_EXTRA_MAX; a++) {
        char cfg[96], label[48];
        snprintf(cfg, sizeof cfg, "--cfg=smpi/%s:%s", mpi_cfg_key[c->op], *a);
        snprintf(label, sizeof label, "mpi:%s", *a);
        const char *args[] = {"--algo",    "mpi",    "--op",
                              op,          "--root", root,
                              "--optimum", optimum,  tasks ? "--commutative" : NULL,
                              NULL};
        double got;
        if ((status = measure_run(&m, label, cfg, args, &got)) != EXIT_OK)
            goto done;
        snprintf(c->extra[c->nextra].name, sizeof c->extra[0].name, "%s", label);
        c->extra[c->nextra].model = NAN;
        c->extra[c->nextra++].measured = got;
    }
done:
    measure_cleanup(&m);
    return status;
}

int cmd_compare(int argc, char **argv)
{
    enum { O_ROOT = O_PROBLEM_END, O_JSON, O_CHUNKS, O_APPROX, O_MEASURE, O_OPS };
    static const struct option opts[] = {{"op", required_argument, NULL, O_OP},
                                         {"root", required_argument, NULL, O_ROOT},
                                         {"source", required_argument, NULL, O_SOURCE},
                                         {"target", required_argument, NULL, O_TARGET},
                                         {"msg-size", required_argument, NULL, O_SIZE},
                                         {"task-cost", required_argument, NULL, O_TASK},
                                         {"time-limit", required_argument, NULL, O_TIME},
                                         {"quiet", no_argument, NULL, O_QUIET},
                                         {"from", required_argument, NULL, O_FROM},
                                         {"chunks", required_argument, NULL, O_CHUNKS},
                                         {"json", no_argument, NULL, O_JSON},
                                         {"output", required_argument, NULL, 'o'},
                                         {"approx", no_argument, NULL, O_APPROX},
                                         {"measure", required_argument, NULL, O_MEASURE},
                                         {"ops", required_argument, NULL, O_OPS},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    problem_args_t a; /* --op, --source, --target, --msg-size, --task-cost, --time-limit, --from */
    problem_args_init(&a, "compare");
    const char *root_flag = NULL, *root_name = NULL, *chart = NULL;
    bool json = false, measure = false;
    long ops = 0;
    int chunks = 0, c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
        if (c == O_ROOT || c == O_SOURCE || c == O_TARGET) {
            const char *flag = c == O_ROOT ? "--root" : c == O_SOURCE ? "--source" : "--target";
            if (root_flag)
                return usage_error("compare", "give the root once (%s, then %s)", root_flag, flag);
            root_flag = flag;
            root_name = optarg;
            continue;
        }
        int st = problem_option(&a, c, optarg);
        if (st == EXIT_USAGE)
            return st;
        if (st == EXIT_OK)
            continue;
        switch (c) {
        case O_JSON: json = true; break;
        case O_APPROX: a.sopts.exact = false; break;
        case 'o': chart = optarg; break;
        case O_MEASURE:
            if (strcmp(optarg, "smpi") != 0)
                return usage_error("compare", "--measure takes smpi (%s)", optarg);
            measure = true;
            break;
        case O_OPS: {
            char *end;
            ops = strtol(optarg, &end, 10);
            if (*end || end == optarg || ops < 1 || ops > 1000000000L)
                return usage_error("compare", "--ops takes a positive integer (%s)", optarg);
            break;
        }
        case O_CHUNKS: {
            char *end;
            long n = strtol(optarg, &end, 10);
            if (strcmp(optarg, "auto") == 0)
                chunks = 0;
            else if (*end || end == optarg || n < 1 || n > 1000000)
                return usage_error("compare", "--chunks takes a positive integer or auto (%s)",
                                   optarg);
            else
                chunks = (int)n;
            break;
        }
        case 'h': help_compare(stdout); return EXIT_OK;
        case ':': return usage_error("compare", "option needs a value (%s)", argv[optind - 1]);
        default: return usage_error("compare", "unknown option (%s)", argv[optind - 1]);
        }
    }
    if (!a.op_name)
        return usage_error("compare", "missing --op");
    int op = steady_collop_from_name(a.op_name);
    if (op < 0)
        return usage_error("compare", "unknown operation (%s): use broadcast, reduce or allreduce",
                           a.op_name);
    if (root_flag && strcmp(root_flag, "--source") == 0 && op != STEADY_COLL_BROADCAST)
        return usage_error("compare", "--source goes with --op broadcast (use --root)");
    if (root_flag && strcmp(root_flag, "--target") == 0 && op != STEADY_COLL_REDUCE)
        return usage_error("compare", "--target goes with --op reduce (use --root)");
    if (a.prob.task_cost > 0 && op == STEADY_COLL_BROADCAST)
        return usage_error("compare", "--task-cost goes with --op reduce or allreduce");
    if (ops && !measure)
        return usage_error("compare", "--ops goes with --measure smpi");
    if (measure && !a.sopts.exact)
        return usage_error("compare", "--measure smpi plans the LP schedule, which needs the "
                                      "exact LP (drop --approx)");
    if (!one_platform("compare", argc, argv))
        return EXIT_USAGE;

    steady_error_t err = {0};
    steady_platform_t *p = NULL;
    if (steady_platform_read(argv[optind], a.from, &p, NULL, &err))
        return report(&err);
    int status = EXIT_OK, root = -1;
    if (root_name) {
        root = steady_platform_find_node(p, root_name);
        if (root < 0) {
            status = usage_error("compare", "unknown node in %s (%s)", root_flag, root_name);
            goto done;
        }
    } else {
        for (root = 0; steady_platform_node(p, root)->kind != STEADY_PROCESSOR; root++)
            ;
    }
    steady_model_options_t mo = {
        .msg_size = a.prob.msg_size, .task_cost = a.prob.task_cost, .chunks = chunks};
    steady_comparison_t cmp;
    problem_progress_start(&a);
    steady_err_t rc = steady_compare_run(p, (steady_collop_t)op, root, &mo, &a.sopts, &cmp, &err);
    if (!rc && measure)
        status = measure_smpi(&cmp, p, &a, ops ? ops : 200);
    problem_progress_clear(&a);
    if (rc)
        status = report(&err);
    if (status != EXIT_OK)
        goto done;
    if (chart) {
        output_t o;
        if (!output_open(&o, chart, &err)) {
            status = report(&err);
            goto done;
        }
        bool ok = steady_compare_write_svg(&cmp, p, o.f, &err) == STEADY_OK;
        if (!output_close(&o, ok, &err) || !ok) {
            status = report(&err);
            goto done;
        }
    }
    if (json)
        status = print_json(&cmp, p, measure ? (ops ? ops : 200) : 0);
    else
        print_text(&cmp, p, chunks, measure ? (ops ? ops : 200) : 0);
done:
    steady_platform_destroy(p);
    return status;
}
