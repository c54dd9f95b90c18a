/*
 * cmd_draw.c — `steady draw`: pictures of a platform, an LP solution, its
 * trees, and Gantt charts of a schedule's period and of its replay
 * (docs/drawing.md).  Graphs are DOT, rendered by Graphviz's `dot`
 * (spawned, DOT on its standard input); charts are SVG.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "steady/decompose.h"
#include "steady/draw.h"
#include "steady/output.h"

extern char **environ;

void help_draw(FILE *out)
{
    fprintf(out,
            "usage: steady draw platform [OPTIONS] PLATFORM\n"
            "       steady draw solution --op OP [OP FLAGS] [OPTIONS] PLATFORM\n"
            "       steady draw trees|gantt|replay SCHED PLATFORM [OPTIONS]\n"
            "       steady draw trees|gantt|replay --op OP [OP FLAGS] [OPTIONS] PLATFORM\n"
            "\n"
            "Draws (docs/drawing.md):\n"
            "  platform   processors (grey boxes, with speeds) and routers (white), edges\n"
            "             labelled with their cost or bandwidth and latency\n"
            "  solution   the LP optimum on the topology: message types and rates per\n"
            "             edge, how busy each edge is, reduce tasks per processor;\n"
            "             saturated ports and CPUs in red\n"
            "  trees      the weighted trees: reduction trees (one node per value,\n"
            "             transfer and task), broadcast arborescences, routes\n"
            "  gantt      one period of the schedule: rows send / recv / cpu per node,\n"
            "             a bar per transfer (on both ports) and per compute entry\n"
            "  replay     the pipelined one-port execution of the first --periods\n"
            "             batches, initialisation and clean-up included\n"
            "With SCHED, trees, gantt and replay draw that schedule file (one that `steady\n"
            "check` rejects is refused); with --op they solve and plan first (as `steady\n"
            "plan`); trees with --op shows the exact decomposition, weighted in operations\n"
            "per time unit.\n"
            "\n"
            "%s"
            "  --period auto|exact|T  the period when planning (as `steady plan`)\n"
            "  --segments auto|M     segments per operation when planning (as `steady plan`)\n"
            "  --periods P           replay: batches of operations to run (default 4)\n"
            "  --max-trees N         trees: draw the N heaviest (default 24)\n"
            "  -o, --output FILE     FILE.svg, FILE.png, FILE.pdf (rendered with Graphviz's\n"
            "                        dot) or FILE.dot; gantt and replay are SVG only.\n"
            "                        Default: standard output, DOT for graphs, SVG for charts\n"
            "  --format FMT          dot, svg, png or pdf, whatever the file name says\n"
            "  --layout ENGINE       Graphviz layout: dot (default), neato, fdp, circo, twopi\n"
            "  -h, --help            this help\n"
            "\n"
            "The comparison bar chart is `steady compare -o chart.svg`.\n"
            "Exit status: 0 drawn, 2 bad input or usage, 1 failure (dot missing or failing,\n"
            "solver failure, output not writable).\n",
            problem_help);
}

typedef enum { W_PLATFORM, W_SOLUTION, W_TREES, W_GANTT, W_REPLAY } what_t;

static const char *const what_names[] = {"platform", "solution", "trees", "gantt", "replay"};

/* Output formats: DOT is written as is, the others by dot -T. */
static const char *const formats[] = {"dot", "svg", "png", "pdf"};

static int format_of(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(name, formats[i]) == 0)
            return i;
    return -1;
}

/* Runs `dot -K layout -T format` with the DOT text on its standard input and
 * its standard output on out.  One-line errors. */
static bool render(const char *dot_text, size_t len, const char *layout, const char *format,
                   FILE *out, steady_error_t *err)
{
    int in[2], errp[2];
    if (fflush(out) != 0 || pipe(in) != 0)
        return steady_error_set(err, STEADY_EIO, "cannot run dot (%s)", strerror(errno)), false;
    if (pipe(errp) != 0) {
        close(in[0]);
        close(in[1]);
        return steady_error_set(err, STEADY_EIO, "cannot run dot (%s)", strerror(errno)), false;
    }
    char kopt[64], topt[16];
    snprintf(kopt, sizeof kopt, "-K%s", layout);
    snprintf(topt, sizeof topt, "-T%s", format);
    char *argv[] = {"dot", kopt, topt, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, fileno(out), 1);
    posix_spawn_file_actions_adddup2(&fa, errp[1], 2);
    posix_spawn_file_actions_addclose(&fa, in[1]);
    posix_spawn_file_actions_addclose(&fa, errp[0]);
    pid_t pid;
    int rc = posix_spawnp(&pid, "dot", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(errp[1]);
    if (rc != 0) {
        close(in[1]);
        close(errp[0]);
        if (rc == ENOENT)
            steady_error_set(err, STEADY_EIO,
                             "Graphviz's dot is not installed (apt-get install graphviz); "
                             "-o FILE.dot writes the DOT text");
        else
            steady_error_set(err, STEADY_EIO, "cannot run dot (%s)", strerror(rc));
        return false;
    }
    /* dot reads its whole input before it writes anything */
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    size_t off = 0;
    while (off < len) {
        ssize_t w = write(in[1], dot_text + off, len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    close(in[1]);
    signal(SIGPIPE, old);
    char msg[512];
    size_t n = 0;
    ssize_t r;
    while ((r = read(errp[0], msg + n, sizeof msg - 1 - n)) > 0 && n < sizeof msg - 1)
        n += (size_t)r;
    msg[n] = '\0';
    char drain[256];
    while (read(errp[0], drain, sizeof drain) > 0)
        ;
    close(errp[0]);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || off < len) {
        char *nl = strchr(msg, '\n');
        if (nl)
            *nl = '\0';
        steady_error_set(err, STEADY_EIO, "dot -K%s -T%s failed: %s", layout, format,
                         *msg ? msg : "no message");
        return false;
    }
    return true;
}

int cmd_draw(int argc, char **argv)
{
    enum { O_FORMAT = O_PROBLEM_END, O_LAYOUT, O_PERIODS, O_MAXTREES, O_PERIOD, O_SEGMENTS };
    static const struct option opts[] = {PROBLEM_OPTIONS,
                                         {"output", required_argument, NULL, 'o'},
                                         {"format", required_argument, NULL, O_FORMAT},
                                         {"layout", required_argument, NULL, O_LAYOUT},
                                         {"periods", required_argument, NULL, O_PERIODS},
                                         {"max-trees", required_argument, NULL, O_MAXTREES},
                                         {"period", required_argument, NULL, O_PERIOD},
                                         {"segments", required_argument, NULL, O_SEGMENTS},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    if (argc >= 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        help_draw(stdout);
        return EXIT_OK;
    }
    if (argc < 2 || argv[1][0] == '-')
        return usage_error("draw", "missing what to draw: platform, solution, trees, gantt or "
                                   "replay");
    int what = -1;
    for (int i = 0; i < 5; i++)
        if (strcmp(argv[1], what_names[i]) == 0)
            what = i;
    if (what < 0)
        return usage_error("draw",
                           "unknown picture (%s): use platform, solution, trees, gantt or replay",
                           argv[1]);
    problem_args_t a;
    problem_args_init(&a, "draw");
    steady_plan_options_t popts = {.period = STEADY_PERIOD_AUTO};
    steady_draw_options_t dopts = {0};
    const char *output = NULL, *layout = "dot";
    int format = -1;
    long periods = 4;
    int c;
    opterr = 0;
    optind = 2;
    while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
        int st = problem_option(&a, c, optarg);
        if (st == EXIT_USAGE)
            return st;
        if (st == EXIT_OK)
            continue;
        char *end;
        switch (c) {
        case 'o': output = optarg; break;
        case O_FORMAT:
            if ((format = format_of(optarg)) < 0)
                return usage_error("draw", "unknown format (%s): use dot, svg, png or pdf", optarg);
            break;
        case O_LAYOUT:
            if (strspn(optarg, "abcdefghijklmnopqrstuvwxyz_") != strlen(optarg) || !*optarg ||
                strlen(optarg) > 32)
                return usage_error("draw", "--layout takes a Graphviz engine name (%s)", optarg);
            layout = optarg;
            break;
        case O_PERIODS:
            periods = strtol(optarg, &end, 10);
            if (*end || end == optarg || periods <= 0 || periods > 10000)
                return usage_error("draw", "--periods takes an integer from 1 to 10000 (%s)",
                                   optarg);
            break;
        case O_MAXTREES:
            dopts.max_trees = (int)strtol(optarg, &end, 10);
            if (*end || end == optarg || dopts.max_trees <= 0 || dopts.max_trees > 10000)
                return usage_error("draw", "--max-trees takes an integer from 1 to 10000 (%s)",
                                   optarg);
            break;
        case O_SEGMENTS:
            if (!parse_segments(optarg, &popts.segments))
                return usage_error("draw", "--segments takes auto or a positive integer (%s)",
                                   optarg);
            break;
        case O_PERIOD:
            if (!parse_period(optarg, &popts.period))
                return usage_error("draw", "--period takes auto, exact or a positive length (%s)",
                                   optarg);
            break;
        case 'h': help_draw(stdout); return EXIT_OK;
        case ':': return usage_error("draw", "option needs a value (%s)", argv[optind - 1]);
        default: return usage_error("draw", "unknown option (%s)", argv[optind - 1]);
        }
    }
    int nargs = argc - optind;
    bool chart = what == W_GANTT || what == W_REPLAY;
    bool sched_file = nargs == 2;
    if (nargs == 0)
        return usage_error("draw", "missing PLATFORM");
    if (nargs > 2 || (nargs == 2 && (what == W_PLATFORM || what == W_SOLUTION)))
        return usage_error("draw", "too many arguments (%s)", argv[argc - 1]);
    if (what == W_PLATFORM && a.op_name)
        return usage_error("draw", "--op does not go with draw platform");
    if (sched_file && a.op_name)
        return usage_error("draw", "give either SCHED or --op, not both");
    if (!sched_file && what != W_PLATFORM && !a.op_name)
        return usage_error("draw", "draw %s needs --op OP or SCHED PLATFORM", what_names[what]);
    if (what != W_REPLAY && periods != 4)
        return usage_error("draw", "--periods goes with draw replay");

    /* the format: --format, else the file's extension, else DOT / SVG */
    if (format < 0 && output && strcmp(output, "-") != 0) {
        const char *dot = strrchr(output, '.');
        format = dot ? format_of(dot + 1) : -1;
        if (format < 0)
            return usage_error("draw",
                               "cannot tell the format from the file name (%s): use "
                               ".svg, .png, .pdf, .dot or --format",
                               output);
    }
    if (format < 0)
        format = chart ? 1 : 0;
    if (chart && format != 1)
        return usage_error("draw", "%s charts are SVG only (not %s)", what_names[what],
                           formats[format]);

    steady_error_t err = {0};
    steady_platform_t *p = NULL;
    steady_solution_t *sol = NULL;
    steady_schedule_t *sc = NULL;
    steady_trees_t *trees = NULL;
    char *text = NULL;
    size_t len = 0;
    int status = EXIT_OK;
    const char *plat_path = argv[argc - 1];
    if (sched_file) {
        if ((status = read_schedule("draw", argv[optind], plat_path, a.from, true, a.quiet, &p,
                                    &sc)) != EXIT_OK)
            return status;
    } else if (what == W_PLATFORM) {
        if (read_platform("draw", plat_path, a.from, a.quiet, &p, NULL, &err))
            return report(&err);
    } else {
        if ((status = problem_solve(&a, plat_path, &p, &sol)) != EXIT_OK)
            return status;
        if (what != W_SOLUTION &&
            (status = problem_need_exact("draw", &a.sopts, sol,
                                         what == W_TREES ? "trees" : "schedule")) != EXIT_OK)
            goto done;
        steady_err_t rc = STEADY_OK;
        if (what == W_TREES)
            rc = steady_trees_decompose(sol, &trees, &err);
        else if (what != W_SOLUTION) {
            problem_progress_start(&a);
            popts.progress = steady_progress_line_report;
            popts.progress_ctx = &a.progress;
            rc = steady_schedule_plan(sol, &a.sopts, &popts, &sc, &err);
            problem_progress_clear(&a);
        }
        if (rc) {
            status = report(&err);
            goto done;
        }
    }

    /* draw into memory: DOT goes through dot, and a failure writes nothing */
    FILE *mem = open_memstream(&text, &len);
    if (!mem) {
        fprintf(stderr, "steady draw: out of memory\n");
        status = EXIT_FAIL;
        goto done;
    }
    steady_err_t rc = STEADY_OK;
    switch ((what_t)what) {
    case W_PLATFORM: rc = steady_draw_platform(p, &dopts, mem, &err); break;
    case W_SOLUTION: rc = steady_draw_solution(sol, &dopts, mem, &err); break;
    case W_TREES:
        rc = trees ? steady_draw_trees(sol, trees, &dopts, mem, &err)
                   : steady_draw_schedule_trees(sc, p, &dopts, mem, &err);
        break;
    case W_GANTT: rc = steady_draw_gantt(sc, p, &dopts, mem, &err); break;
    case W_REPLAY: rc = steady_draw_replay(sc, p, periods, &dopts, mem, NULL, &err); break;
    }
    if (fclose(mem) != 0 && !rc)
        rc = steady_error_set(&err, STEADY_ENOMEM, "steady draw: out of memory");
    if (rc) {
        status = report(&err);
        goto done;
    }
    steady_output_t o;
    bool ok = steady_output_open(&o, output, &err);
    if (ok) {
        if (format == 0 || chart)
            ok = fwrite(text, 1, len, o.f) == len;
        else
            ok = render(text, len, layout, formats[format], o.f, &err);
        if (!ok && !err.msg[0])
            steady_error_set(&err, STEADY_EIO, "%s: write failed", output ? output : "stdout");
        ok = steady_output_close(&o, ok, &err) && ok;
    }
    if (!ok)
        status = report(&err);
done:
    free(text);
    steady_trees_destroy(trees);
    steady_schedule_destroy(sc);
    steady_solution_destroy(sol);
    steady_platform_destroy(p);
    return status;
}
