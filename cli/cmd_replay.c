/*
 * cmd_replay.c — `steady replay`: execute a schedule under the one-port
 * model (discrete events) and measure the throughput it reaches.
 */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>

#include "cli.h"
#include "steady/schedule.h"

void help_replay(FILE *out)
{
    fprintf(out,
            "usage: steady replay [--ops K] [--json] [--quiet] [--from FORMAT] SCHED PLATFORM\n"
            "\n"
            "Runs K operations of the schedule SCHED in a discrete-event simulation of\n"
            "the one-port model: every node works through its sends, receives and tasks\n"
            "in schedule order, self-timed (no global clock); a transfer takes c(i,j) per\n"
            "message and delivers after the edge's latency (under the rendezvous cost\n"
            "model the ports wait through it), a task takes w(i).  What a node forwards\n"
            "or reduces is kept in steady-run's rings of a few batches, and under\n"
            "rendezvous a reception waits for its entry (under eager the message waits\n"
            "in MPI's buffers: a node receives one message at a time, in its program's\n"
            "order, each once its entry is free).  The transfers running at once\n"
            "share the channels they cross, max-min, as the platform's flow sharing\n"
            "rule says (fair, or SimGrid's penalty: docs/network.md).  Prints\n"
            "the makespan, the throughput reached K / makespan, and its ratio to the\n"
            "optimum TP, which tends to 1 as K grows (the paper's Proposition 1).  A\n"
            "schedule that `steady check` rejects is refused (exit status 2).\n"
            "\n"
            "  --ops K        number of operations (default 1000)\n"
            "  --json         {\"ops\", \"makespan\", \"achieved\", \"optimum\", \"planned\",\n"
            "                 \"ratio\", \"messages_per_period\", \"messages_per_operation\"}\n"
            "                 (throughputs in operations per second, or per time unit\n"
            "                 on an abstract platform; messages: steady-run's MPI\n"
            "                 messages, docs/schedule-format.md)\n"
            "  --from FORMAT  platform format: auto (default), native, graphml, simgrid\n"
            "  --quiet        no progress line on standard error (there is one only on a\n"
            "                 terminal, for runs longer than a fraction of a second)\n"
            "  -h, --help     this help\n");
}

int cmd_replay(int argc, char **argv)
{
    enum { O_OPS = O_PROBLEM_END, O_JSON };
    static const struct option opts[] = {
        {"ops", required_argument, NULL, O_OPS},   {"json", no_argument, NULL, O_JSON},
        {"from", required_argument, NULL, O_FROM}, {"quiet", no_argument, NULL, O_QUIET},
        {"help", no_argument, NULL, 'h'},          {NULL, 0, NULL, 0}};
    steady_format_t from = STEADY_FORMAT_AUTO;
    long ops = 1000;
    bool json = false, quiet = false;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case O_OPS: {
            char *end;
            errno = 0;
            ops = strtol(optarg, &end, 10);
            if (errno || *end || end == optarg || ops <= 0 || ops > 1000000000L)
                return usage_error("replay", "--ops takes a positive integer (%s)", optarg);
            break;
        }
        case O_JSON: json = true; break;
        case O_QUIET: quiet = true; break;
        case O_FROM:
            if (!parse_format("replay", optarg, true, &from))
                return EXIT_USAGE;
            break;
        case 'h': help_replay(stdout); return EXIT_OK;
        case ':': return usage_error("replay", "option needs a value (%s)", argv[optind - 1]);
        default: return usage_error("replay", "unknown option (%s)", argv[optind - 1]);
        }
    }
    if (argc - optind != 2)
        return usage_error("replay", "expected SCHED PLATFORM");
    steady_platform_t *p;
    steady_schedule_t *sc;
    int status = read_schedule("replay", argv[optind], argv[optind + 1], from, true, quiet, &p,
                               &sc);
    if (status != EXIT_OK)
        return status;
    steady_replay_t r;
    steady_error_t err = {0};
    steady_progress_line_t pl;
    steady_progress_line_init(&pl, stderr, "steady replay", quiet);
    steady_replay_observer_t obs = {.progress = steady_progress_line_report, .ctx = &pl};
    steady_err_t rc = steady_schedule_replay_observed(sc, p, ops, &obs, &r, &err);
    steady_progress_line_clear(&pl);
    long nmsg = 0;
    double per_op = 0;
    if (!rc)
        rc = steady_schedule_message_count(sc, p, &nmsg, &per_op, &err);
    if (rc) {
        status = report(&err);
    } else if (json) {
        json_t *j =
            json_pack("{s:I, s:f, s:f, s:f, s:f, s:f, s:I, s:I, s:I, s:f}", "ops",
                      (json_int_t)r.ops, "makespan", r.makespan, "achieved", r.achieved, "optimum",
                      r.optimum, "planned", r.planned, "ratio", r.ratio, "transfers",
                      (json_int_t)r.transfers, "tasks", (json_int_t)r.tasks, "messages_per_period",
                      (json_int_t)nmsg, "messages_per_operation", per_op);
        status = j && json_dumpf(j, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) == 0
                     ? EXIT_OK
                     : EXIT_FAIL;
        putchar('\n');
        json_decref(j);
    } else {
        const char *u = sc->abstract ? "time units" : "s";
        printf("operations   %ld (%ld transfers, %ld tasks simulated)\n", r.ops, r.transfers,
               r.tasks);
        printf("makespan     %.10g %s\n", r.makespan, u);
        printf("achieved     %.10g operations per %s\n", r.achieved,
               sc->abstract ? "time unit" : "second");
        printf("planned      %.10g (the schedule's throughput)\n", r.planned);
        printf("optimum      %.10g (the LP's TP)\n", r.optimum);
        printf("ratio        %.6f of the optimum\n", r.ratio);
        printf("messages     %ld per period, %.4g per operation (steady-run's MPI messages)\n",
               nmsg, per_op);
    }
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
    return status;
}
