/*
 * problem.c — the operation flags shared by `steady solve` and `steady
 * plan`: parsed, resolved against the platform, and solved.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "cli.h"
#include "steady/schedule.h"

const char *const problem_help =
    "  --op OP               scatter, gossip, reduce or broadcast (required)\n"
    "  --source S            scatter, broadcast: the source (default: the first\n"
    "                        processor)\n"
    "  --sources A,B,...     gossip: the senders (default: every processor)\n"
    "  --targets A,B,...     scatter: default every other processor; gossip: default\n"
    "                        every processor; broadcast: default every other\n"
    "                        processor (targets that leave out a rank, a router\n"
    "                        by default, make TP an upper bound)\n"
    "  --participants A,B..  reduce: processors in the operator's order (the operator\n"
    "                        is associative, not commutative; default: every\n"
    "                        processor in platform order)\n"
    "  --target T            reduce: receives the result (default: first participant)\n"
    "  --msg-size BYTES      message size, e.g. 65536, 64KiB, 1MB, from 1 B to 1e12 B\n"
    "                        (default 1MiB); ignored by abstract cost edges\n"
    "  --task-cost FLOP      reduce: flop per reduction task, from 1e-6 to 1e21\n"
    "                        (default: one flop per byte of message; 1 on abstract\n"
    "                        platforms)\n"
    "  --time-limit SEC      give up (exit 1) when the whole command takes longer\n"
    "                        (reading, the LP, planning, writing; within the\n"
    "                        limit plus max(1 s, 10%)), naming the stage it was\n"
    "                        in (an exact recovery cut short leaves the solution\n"
    "                        approximate)\n"
    "  --formulation F       full: the per-type LPs of docs/linear-programs.md;\n"
    "                        compact: scatter as one flow from the source, gossip\n"
    "                        as one flow per source, broadcast by generating its\n"
    "                        spanning arborescences (every rank but the source a\n"
    "                        target) or else its cuts, reduce by generating its\n"
    "                        reduction trees (same exact optimum, smaller); auto\n"
    "                        (default): full up to 20000 columns (hops x types, +\n"
    "                        processors x tasks for a reduce), else compact;\n"
    "                        broadcast: cuts or arborescences, either of those\n"
    "                        alone\n"
    "  --simplex S           auto (default), glpk or clp: the floating-point simplex\n"
    "                        before the exact recovery (clp only in a build with\n"
    "                        STEADY_CLP=1; auto takes it on large LPs, but for\n"
    "                        the broadcast's cut rounds; the rounds of generated\n"
    "                        trees and arborescences always use GLPK)\n"
    "  --threads N           threads for the reduce's trees (each round prices the\n"
    "                        intervals of a length side by side) and, in steady\n"
    "                        plan, the candidates (default: one per online\n"
    "                        processor); the result is the same for every N\n"
    "  --quiet               no progress line on standard error\n"
    "  --from FORMAT         platform format: auto (default), native, graphml or\n"
    "                        simgrid\n";

void problem_args_init(problem_args_t *a, const char *cmd)
{
    memset(a, 0, sizeof *a);
    a->cmd = cmd;
    a->sopts.exact = true;
    a->from = STEADY_FORMAT_AUTO;
}

/* A positive decimal number in [min, max], or -1. */
static double positive(const char *text, double min, double max)
{
    double x;
    return steady_parse_number(text, &x) && x > 0 && x >= min && x <= max ? x : -1;
}

bool parse_period(const char *arg, double *period)
{
    if (strcmp(arg, "auto") == 0)
        *period = STEADY_PERIOD_AUTO;
    else if (strcmp(arg, "exact") == 0)
        *period = STEADY_PERIOD_EXACT;
    else if ((*period = positive(arg, 0, 1e15)) < 0)
        return false;
    return true;
}

bool parse_segments(const char *arg, long *segments)
{
    if (strcmp(arg, "auto") == 0) {
        *segments = 0;
        return true;
    }
    char *end;
    *segments = strtol(arg, &end, 10);
    return !*end && end != arg && *segments >= 1 && *segments <= STEADY_SEGMENTS_LIMIT;
}

/* --time-limit bounds the whole command: the LP watches the limit itself
 * (its own message, with what it was building or solving), and an alarm
 * at the limit plus a grace (DEADLINE_GRACE: the LP checks its clock
 * between chunks of work, later under load) ends the command wherever it
 * is (planning, the trees, writing) with the stage it was in.  Only async-signal-safe
 * calls in the handler: the message's start is written beforehand. */
static char deadline_msg[160];
static size_t deadline_len;
static volatile const char *deadline_stage;
/* max(1 s, 10% of the limit) */
#define DEADLINE_GRACE(sec) ((sec) / 10 > 1 ? (sec) / 10 : 1.0)

static void deadline_hit(int sig)
{
    (void)sig;
    const char *st = (const char *)deadline_stage;
    ssize_t w = write(STDERR_FILENO, deadline_msg, deadline_len);
    if (st) {
        w = write(STDERR_FILENO, " (", 2);
        w = write(STDERR_FILENO, st, strlen(st));
        w = write(STDERR_FILENO, ")", 1);
    }
    w = write(STDERR_FILENO, "\n", 1);
    (void)w;
    _exit(EXIT_FAILURE);
}

static void deadline_arm(const char *cmd, double sec)
{
    deadline_len = (size_t)snprintf(deadline_msg, sizeof deadline_msg,
                                    "steady %s: time limit of %g s reached", cmd, sec);
    if (deadline_len >= sizeof deadline_msg)
        deadline_len = sizeof deadline_msg - 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = deadline_hit;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    double t = sec + DEADLINE_GRACE(sec);
    struct itimerval it = {
        .it_value = {.tv_sec = (time_t)t, .tv_usec = (suseconds_t)((t - (double)(time_t)t) * 1e6)}};
    setitimer(ITIMER_REAL, &it, NULL);
}

void problem_progress_report(void *ctx, const char *stage, double done, double total)
{
    deadline_stage = stage;
    steady_progress_line_report(ctx, stage, done, total);
}

int problem_option(problem_args_t *a, int c, const char *arg)
{
    steady_error_t err = {0};
    switch (c) {
    case O_OP: a->op_name = arg; return EXIT_OK;
    case O_SOURCE: a->source = arg; return EXIT_OK;
    case O_SOURCES: a->sources = arg; return EXIT_OK;
    case O_TARGETS: a->targets = arg; return EXIT_OK;
    case O_PART: a->parts = arg; return EXIT_OK;
    case O_TARGET: a->target = arg; return EXIT_OK;
    case O_SIZE:
        if (steady_parse_size(arg, &a->prob.msg_size, &err))
            return usage_error(a->cmd, "--msg-size: %s", err.msg);
        return EXIT_OK;
    case O_TASK:
        if ((a->prob.task_cost = positive(arg, STEADY_TASK_COST_MIN, STEADY_TASK_COST_MAX)) < 0)
            return usage_error(a->cmd, "--task-cost takes a number from 1e-6 to 1e21 (%s)", arg);
        return EXIT_OK;
    case O_TIME: {
        double sec = positive(arg, 0, 2e6);
        if (sec < 0)
            return usage_error(a->cmd, "--time-limit takes a positive number of seconds (%s)", arg);
        a->sopts.time_limit_ms = sec * 1000 < 1 ? 1 : (int)(sec * 1000);
        deadline_arm(a->cmd, sec);
        return EXIT_OK;
    }
    case O_THREADS: {
        char *end;
        long t = strtol(arg, &end, 10);
        if (*end || end == arg || t < 1 || t > 1024)
            return usage_error(a->cmd, "--threads takes an integer from 1 to 1024 (%s)", arg);
        a->sopts.threads = (int)t;
        return EXIT_OK;
    }
    case O_FROM: return parse_format(a->cmd, arg, true, &a->from) ? EXIT_OK : EXIT_USAGE;
    case O_QUIET: a->quiet = true; return EXIT_OK;
    case O_FORMULATION: {
        int f = steady_formulation_from_name(arg);
        if (f < 0)
            return usage_error(
                a->cmd, "--formulation takes auto, full, compact, cuts or arborescences (%s)", arg);
        a->sopts.formulation = (steady_formulation_t)f;
        return EXIT_OK;
    }
    case O_SIMPLEX: {
        int s = steady_simplex_from_name(arg);
        if (s < 0)
            return usage_error(a->cmd, "--simplex takes auto, glpk or clp (%s)", arg);
        if (s == STEADY_SIMPLEX_CLP && !steady_simplex_clp_available())
            return usage_error(a->cmd, "--simplex clp: this steady was built without Clp (make "
                                       "STEADY_CLP=1, with coinor-libclp-dev installed)");
        a->sopts.simplex = (steady_simplex_t)s;
        return EXIT_OK;
    }
    default: return -1;
    }
}

typedef struct {
    int *ids;
    int n;
} id_set_t;

/* "A,B,C" -> node ids; false after printing a usage error. */
static bool parse_names(const char *cmd, const steady_platform_t *p, const char *flag,
                        const char *list, id_set_t *out)
{
    out->n = 0;
    out->ids = malloc((strlen(list) + 1) * sizeof *out->ids);
    char *copy = strdup(list);
    if (!out->ids || !copy) {
        free(copy);
        fprintf(stderr, "steady %s: out of memory\n", cmd);
        return false;
    }
    bool ok = true;
    /* every comma separates two names: "P1,,P2" or "P1," names nothing
     * between or after */
    for (char *tok = copy, *next; tok && ok; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = '\0';
        int v = *tok ? steady_platform_find_node(p, tok) : -1;
        if (!*tok) {
            usage_error(cmd, "empty node name in %s (%s)", flag, list);
            ok = false;
        } else if (v < 0) {
            usage_error(cmd, "unknown node in %s (%s)", flag, tok);
            ok = false;
        } else {
            out->ids[out->n++] = v;
        }
    }
    free(copy);
    return ok;
}

int problem_need_exact(const char *cmd, const steady_solve_options_t *sopts,
                       const steady_solution_t *sol, const char *what)
{
    if (steady_solution_is_exact(sol))
        return EXIT_OK;
    steady_lp_stats_t st;
    steady_solution_stats(sol, &st);
    if (st.timed_out)
        message("steady %s: time limit of %g s reached in the exact recovery: no %s without the "
                "exact optimum",
                cmd, sopts->time_limit_ms / 1000.0, what);
    else
        message("steady %s: the exact recovery failed (%s): no %s without the exact optimum", cmd,
                steady_solution_note(sol), what);
    return EXIT_FAIL;
}

int problem_solve(problem_args_t *a, const char *path, steady_platform_t **pp,
                  steady_solution_t **sol)
{
    const char *cmd = a->cmd;
    *pp = NULL;
    *sol = NULL;
    if (!a->op_name)
        return usage_error(cmd, "missing --op");
    int op = steady_op_from_name(a->op_name);
    if (op < 0)
        return usage_error(cmd, "unknown operation (%s): use scatter, gossip, reduce or broadcast",
                           a->op_name);
    a->prob.op = (steady_op_t)op;
    /* each flag belongs to some operations only */
    if (a->source && op != STEADY_OP_SCATTER && op != STEADY_OP_BROADCAST)
        return usage_error(cmd, "--source goes with --op scatter or broadcast");
    if (a->sources && op != STEADY_OP_GOSSIP)
        return usage_error(cmd, "--sources goes with --op gossip");
    if (a->targets && op == STEADY_OP_REDUCE)
        return usage_error(cmd, "--targets does not go with --op reduce (use --target)");
    if ((a->parts || a->target) && op != STEADY_OP_REDUCE)
        return usage_error(cmd, "--%s goes with --op reduce", a->parts ? "participants" : "target");
    if (a->prob.task_cost > 0 && op != STEADY_OP_REDUCE)
        return usage_error(cmd, "--task-cost goes with --op reduce");
    if ((a->sopts.formulation == STEADY_FORMULATION_CUTS ||
         a->sopts.formulation == STEADY_FORMULATION_ARBORESCENCES) &&
        op != STEADY_OP_BROADCAST)
        return usage_error(cmd, "--formulation %s goes with --op broadcast",
                           steady_formulation_name(a->sopts.formulation));

    steady_error_t err = {0};
    steady_platform_t *p = NULL;
    if (read_platform(a->cmd, path, a->from, a->quiet, &p, NULL, &err))
        return report(&err);
    int status = EXIT_USAGE;
    id_set_t s_set = {0}, t_set = {0}, p_set = {0}, one = {0};
    const char *single = a->source ? a->source : a->target;
    const char *single_flag = a->source ? "--source" : "--target";
    if ((a->sources && !parse_names(cmd, p, "--sources", a->sources, &s_set)) ||
        (a->targets && !parse_names(cmd, p, "--targets", a->targets, &t_set)) ||
        (a->parts && !parse_names(cmd, p, "--participants", a->parts, &p_set)) ||
        (single && !parse_names(cmd, p, single_flag, single, &one)))
        goto done;
    if (one.n > 1) {
        usage_error(cmd, "%s takes one node (%s)", single_flag, single);
        goto done;
    }
    a->prob.sources = s_set.ids;
    a->prob.nsources = s_set.n;
    a->prob.targets = t_set.ids;
    a->prob.ntargets = t_set.n;
    a->prob.participants = p_set.ids;
    a->prob.nparticipants = p_set.n;
    /* defaults: the first processor as source, the first participant as target */
    int first = 0;
    while (steady_platform_node(p, first)->kind != STEADY_PROCESSOR)
        first++;
    a->prob.source = one.n ? one.ids[0] : first;
    a->prob.target = one.n ? one.ids[0] : p_set.n ? p_set.ids[0] : first;
    problem_progress_start(a);
    steady_err_t rc = steady_lp_solve(p, &a->prob, &a->sopts, sol, &err);
    problem_progress_clear(a);
    status = rc ? report(&err) : EXIT_OK;

done:
    free(s_set.ids);
    free(t_set.ids);
    free(p_set.ids);
    free(one.ids);
    if (status != EXIT_OK) {
        steady_platform_destroy(p);
        p = NULL;
    }
    *pp = p;
    return status;
}

void problem_progress_start(problem_args_t *a)
{
    if (a->sopts.progress)
        return; /* already started */
    snprintf(a->prefix, sizeof a->prefix, "steady %s", a->cmd);
    steady_progress_line_init(&a->progress, stderr, a->prefix, a->quiet);
    a->sopts.progress = problem_progress_report;
    a->sopts.progress_ctx = &a->progress;
}

void problem_progress_clear(problem_args_t *a)
{
    steady_progress_line_clear(&a->progress);
}
