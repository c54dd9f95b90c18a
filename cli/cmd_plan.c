/*
 * cmd_plan.c — `steady plan`: the periodic schedule of a series of
 * operations, written as a schedule file (docs/schedule-format.md).
 */
#define _POSIX_C_SOURCE 200809L
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "steady/output.h"
#include "steady/schedule.h"

void help_plan(FILE *out)
{
    fprintf(out,
            "usage: steady plan --op OP [OP FLAGS] [--msg-size BYTES] [--task-cost FLOP]\n"
            "                   [--period auto|exact|T] [--series N] [--segments auto|M]\n"
            "                   [--cost-model rendezvous|eager] [--threads N] [--json]\n"
            "                   [-o SCHED] PLATFORM\n"
            "\n"
            "Solves the steady-state LP exactly (as `steady solve`), decomposes the optimum\n"
            "into weighted trees (reduction trees, broadcast arborescences, routes) and the\n"
            "communications of a period into matchings, and writes the periodic schedule\n"
            "(docs/schedule-format.md).  A summary goes to standard output (to standard\n"
            "error when the schedule does): the throughput, the replay, the period, and\n"
            "the MPI messages steady-run sends per period and per operation, which the\n"
            "planner keeps few (docs/schedule-format.md, \"Messages\").\n"
            "\n"
            "%s"
            "  --period auto         (default) K <= 128 operations per period: the best\n"
            "                        candidates (the optimum's trees rounded to K, and\n"
            "                        for broadcast and scatter whole counts per period\n"
            "                        solved with GLPK's branch and cut; ranked with the\n"
            "                        latencies a period holds under rendezvous, which\n"
            "                        longer periods amortise) are built and\n"
            "                        replayed for --series operations; of those within\n"
            "                        0.5%% of the fastest, the one with the fewest MPI\n"
            "                        messages per operation is kept\n"
            "  --series N            the series length --period auto plans for (default\n"
            "                        10000)\n"
            "  --period exact        the smallest period in which every tree runs a whole\n"
            "                        number of operations: the optimum exactly, but on\n"
            "                        measured platforms often billions of operations long\n"
            "  --period T            a fixed period of length T (seconds, or abstract time\n"
            "                        units): the paper's §4.6, loss <= number of trees / T\n"
            "  --segments auto       (default) with --period auto on a platform of\n"
            "                        bandwidths: the most segments of at least 256 KiB (a\n"
            "                        power of two, at most 64), then half as many down\n"
            "                        to 1, each replayed; of those within 0.5%% of the\n"
            "                        fastest, the fewest messages per operation; else 1\n"
            "  --segments M          cut each operation's message into M segments (at most\n"
            "                        4096), each planned as a message of its own (the LP\n"
            "                        of that size): a shorter period, a shorter pipeline\n"
            "                        fill\n"
            "  --cost-model rendezvous  (default) a message holds its sender's and its\n"
            "                        receiver's ports until its data has arrived, through\n"
            "                        the latency after the transfer: an MPI rendezvous\n"
            "                        send, what steady-run does (every message under\n"
            "                        SMPI, the large ones under MPI libraries)\n"
            "  --cost-model eager    latency delays a message's delivery and holds no port\n"
            "                        (the paper's model; an eager, buffered send)\n"
            "                        The ranking and the replays that choose the period\n"
            "                        and the segments, and steady replay, follow the\n"
            "                        schedule's cost model; the optimum (the LP's, which\n"
            "                        counts no latency: a period's messages on a hop can\n"
            "                        share one) bounds both\n"
            "  --json                the summary as JSON: {\"optimum\", \"throughput\",\n"
            "                        \"replayed\", \"period\", \"ops_per_period\", \"segments\",\n"
            "                        \"trees\", \"slots\", \"transfers\", \"max_lag\",\n"
            "                        \"messages_per_period\", \"messages_per_operation\",\n"
            "                        \"message_bytes\": [smallest, largest] MPI message}\n"
            "                        (rates in operations per second, or per time unit)\n"
            "  -o, --output SCHED    the schedule file (default: standard output)\n"
            "  -h, --help            this help\n",
            problem_help);
}

/* The largest latency / time of a message over the hops sc sends on: what
 * an executor that holds a port for the latency too (SMPI's rendezvous)
 * loses against the model, docs/schedule-format.md "Segments". */
static double latency_share(const steady_schedule_t *sc, const steady_platform_t *p)
{
    double worst = 0;
    for (int t = 0; t < sc->ntrees; t++)
        for (int i = 0; i < sc->trees[t].nsteps; i++) {
            const steady_sched_step_t *st = &sc->trees[t].steps[i];
            if (st->kind != STEADY_STEP_SEND)
                continue;
            steady_hop_t h = {.src = steady_sched_step_src(sc, p, st),
                              .dst = steady_sched_step_dst(sc, p, st)};
            h.edges = (int *)steady_sched_step_edges(sc, st, &h.nedges);
            double share = steady_hop_latency(p, &h) / steady_hop_time(p, &h, sc->msg_size);
            worst = share > worst ? share : worst;
        }
    return worst;
}

/* The summary as JSON (--json); false when it cannot be written.  bytes:
 * the smallest and largest MPI message (0 when not counted). */
static bool print_json(FILE *f, const steady_schedule_t *sc, double replayed, long nmsg,
                       double per_op, const double bytes[2])
{
    int transfers = 0;
    for (int k = 0; k < sc->nslots; k++)
        transfers += sc->slots[k].ntransfers;
    json_t *j = json_pack(
        "{s:f, s:f, s:o, s:f, s:I, s:I, s:i, s:i, s:i, s:i, s:I, s:f}", "optimum",
        steady_schedule_per_operation(sc, sc->optimum), "throughput",
        steady_schedule_per_operation(sc, sc->throughput), "replayed",
        replayed > 0 ? json_real(replayed) : json_null(), "period", mpq_get_d(sc->period),
        "ops_per_period", (json_int_t)sc->ops_per_period, "segments", (json_int_t)sc->segments,
        "trees", sc->ntrees, "slots", sc->nslots, "transfers", transfers, "max_lag", sc->max_lag,
        "messages_per_period", (json_int_t)nmsg, "messages_per_operation", per_op);
    if (j)
        json_object_set_new(j, "message_bytes",
                            bytes[1] > 0 ? json_pack("[f, f]", bytes[0], bytes[1]) : json_null());
    bool ok = j && json_dumpf(j, f, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) == 0 &&
              fputc('\n', f) != EOF;
    json_decref(j);
    return ok;
}

/* The series' makespan and steady-run's MPI messages (per period, per
 * operation; *nmsg -1 if they cannot be counted): as the plan replayed
 * them, else replayed now. */
static double replayed(const steady_schedule_t *sc, const steady_platform_t *p, long series,
                       long *nmsg, double *per_op)
{
    steady_error_t err = {0};
    if (sc->replayed_series == series && sc->replayed_makespan > 0) {
        *per_op = sc->replayed_messages;
        *nmsg = llround(*per_op * (double)sc->ops_per_period / (double)sc->segments);
        return sc->replayed_makespan;
    }
    if (steady_schedule_message_count(sc, p, nmsg, per_op, &err) != STEADY_OK)
        *nmsg = -1;
    double makespan = 0;
    if (steady_schedule_series_makespan(sc, p, series, 4000000, &makespan, NULL, &err) != STEADY_OK)
        makespan = 0;
    return makespan;
}

static bool print_summary(FILE *f, const steady_schedule_t *sc, const steady_platform_t *p,
                          long series, bool json)
{
    long nmsg = 0;
    double per_op = 0, bytes[2] = {0, 0};
    double makespan = replayed(sc, p, series, &nmsg, &per_op);
    steady_error_t err = {0};
    if (!sc->abstract && steady_schedule_message_bytes(sc, p, &bytes[0], &bytes[1], &err))
        bytes[0] = bytes[1] = 0;
    if (json)
        return print_json(f, sc, makespan > 0 ? (double)series / makespan : 0, nmsg, per_op,
                          bytes);
    const char *unit = sc->abstract ? "time units" : "s";
    const char *per = sc->abstract ? "time unit" : "second";
    /* in operations: the schedule's rates are per message */
    mpq_t optimum, tp;
    mpq_inits(optimum, tp, NULL);
    mpq_set_si(tp, sc->segments, 1);
    mpq_div(optimum, sc->optimum, tp);
    mpq_div(tp, sc->throughput, tp);
    gmp_fprintf(f, "optimum      %Qd = %.10g operations per %s\n", optimum, mpq_get_d(optimum),
                per);
    fprintf(f, "schedule     %.10g operations per %s (%.4f%% of the optimum)\n", mpq_get_d(tp), per,
            100 * mpq_get_d(tp) / mpq_get_d(optimum));
    mpq_clears(optimum, tp, NULL);
    if (sc->segments > 1) {
        fprintf(f, "segments     %ld per operation, of %.0f bytes, scheduled as messages\n",
                sc->segments, sc->msg_size);
        double share = latency_share(sc, p);
        if (share >= 0.05 && sc->cost_model == STEADY_COST_EAGER)
            fprintf(f,
                    "note         a latency is %.0f%% of a segment's transfer: an executor whose "
                    "ports wait out\n             each message's latency (SMPI) loses more "
                    "with segments (--segments 1,\n             or overhead= on the edges)\n",
                    100 * share);
    }
    if (makespan > 0) {
        double rate = (double)series / makespan;
        fprintf(f, "replayed     %.10g operations per %s over %ld (%.4f%% of the optimum; %s)\n",
                rate, per, series, 100 * rate / steady_schedule_per_operation(sc, sc->optimum),
                steady_cost_model_name(sc->cost_model));
    }
    fprintf(f, "period       %.6g %s, %ld %s per period%s\n", mpq_get_d(sc->period), unit,
            sc->ops_per_period, steady_schedule_unit(sc),
            sc->fixed_period ? "" : " (exact period)");
    if (sc->fixed_period)
        fprintf(f,
                "loss         %.6g operations per %s (bound %.6g: the decomposition's "
                "trees\n             / period%s)\n",
                steady_schedule_per_operation(sc, sc->loss), per,
                steady_schedule_per_operation(sc, sc->loss_bound),
                sc->segments > 1 ? " / segments" : "");
    int transfers = 0;
    for (int k = 0; k < sc->nslots; k++)
        transfers += sc->slots[k].ntransfers;
    fprintf(f,
            "structure    %d trees, %d slots (%d transfers), %d compute entries, max lag %d "
            "periods\n",
            sc->ntrees, sc->nslots, transfers, sc->ncompute, sc->max_lag);
    if (nmsg >= 0)
        fprintf(f, "messages     %ld per period, %.4g per operation (steady-run's MPI messages)\n",
                nmsg, per_op);
    calibration_note(f, p, bytes);
    return true;
}

int cmd_plan(int argc, char **argv)
{
    enum { O_PERIOD = O_PROBLEM_END, O_SERIES, O_SEGMENTS, O_COST, O_JSON };
    static const struct option opts[] = {PROBLEM_OPTIONS,
                                         {"period", required_argument, NULL, O_PERIOD},
                                         {"series", required_argument, NULL, O_SERIES},
                                         {"segments", required_argument, NULL, O_SEGMENTS},
                                         {"cost-model", required_argument, NULL, O_COST},
                                         {"json", no_argument, NULL, O_JSON},
                                         {"output", required_argument, NULL, 'o'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    problem_args_t a;
    problem_args_init(&a, "plan");
    steady_plan_options_t popts = {.period = STEADY_PERIOD_AUTO};
    const char *output = NULL;
    bool json = false;
    steady_error_t err = {0};
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
        int st = problem_option(&a, c, optarg);
        if (st == EXIT_USAGE)
            return st;
        if (st == EXIT_OK)
            continue;
        switch (c) {
        case O_PERIOD:
            if (!parse_period(optarg, &popts.period))
                return usage_error("plan", "--period takes auto, exact or a positive length (%s)",
                                   optarg);
            break;
        case O_SERIES: {
            char *end;
            popts.series = strtol(optarg, &end, 10);
            if (*end || end == optarg || popts.series <= 0 || popts.series > 1000000000L)
                return usage_error("plan", "--series takes a positive integer (%s)", optarg);
            break;
        }
        case O_SEGMENTS:
            if (!parse_segments(optarg, &popts.segments))
                return usage_error("plan", "--segments takes auto or a positive integer (%s)",
                                   optarg);
            break;
        case O_COST: {
            int m = steady_cost_model_from_name(optarg);
            if (m < 0)
                return usage_error("plan", "--cost-model takes rendezvous or eager (%s)", optarg);
            popts.cost_model = (steady_cost_model_t)m;
            break;
        }
        case O_JSON: json = true; break;
        case 'o': output = optarg; break;
        case 'h': help_plan(stdout); return EXIT_OK;
        case ':': return usage_error("plan", "option needs a value (%s)", argv[optind - 1]);
        default: return usage_error("plan", "unknown option (%s)", argv[optind - 1]);
        }
    }
    if (!one_platform("plan", argc, argv))
        return EXIT_USAGE;
    steady_platform_t *p = NULL;
    steady_solution_t *sol = NULL;
    steady_schedule_t *sc = NULL;
    int status = problem_solve(&a, argv[optind], &p, &sol);
    if (status != EXIT_OK)
        return status;
    if ((status = problem_need_exact("plan", &a.sopts, sol, "schedule")) != EXIT_OK) {
        steady_solution_destroy(sol);
        steady_platform_destroy(p);
        return status;
    }
    popts.progress = problem_progress_report;
    popts.progress_ctx = &a.progress;
    popts.threads = a.sopts.threads;
    steady_err_t rc = steady_schedule_plan(sol, &a.sopts, &popts, &sc, &err);
    problem_progress_clear(&a);
    if (rc) {
        status = report(&err);
    } else {
        steady_output_t o;
        bool ok = steady_output_open(&o, output, &err);
        if (ok) {
            ok = steady_schedule_write(sc, p, o.f, &err) == STEADY_OK;
            ok = steady_output_close(&o, ok, &err) && ok;
        }
        bool said = !ok || print_summary(
                               o.tmp || (output && strcmp(output, "-") != 0) ? stdout : stderr, sc,
                               p, popts.series > 0 ? popts.series : STEADY_DEFAULT_SERIES, json);
        status = ok ? said ? EXIT_OK : EXIT_FAIL : report(&err);
    }
    steady_schedule_destroy(sc);
    steady_solution_destroy(sol);
    steady_platform_destroy(p);
    return status;
}
