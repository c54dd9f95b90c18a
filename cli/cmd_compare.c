/*
 * cmd_compare.c — `steady compare`: the steady-state throughput of TwoTreeC,
 * TwoTreeS, binomial, pipelined binary, chain and flat trees on a platform
 * under the one-port model, next to the LP optimum (docs/comparison.md).
 */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "steady/compare.h"

void help_compare(FILE *out)
{
    fprintf(out,
            "usage: steady compare --op broadcast|reduce|allreduce [--root NAME]\n"
            "                      [--msg-size BYTES] [--task-cost FLOP] [--chunks C|auto]\n"
            "                      [--json] [-o CHART.svg] [--approx] [--time-limit SEC]\n"
            "                      [--from FORMAT] PLATFORM\n"
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
            "The measured column stays empty for now: measure an algorithm with\n"
            "'steady-run --algo ALGO --op OP' under SMPI (docs/running.md).\n"
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
            "  --json                machine-readable output\n"
            "  -o, --output FILE     also write an SVG bar chart to FILE\n"
            "  --approx              skip the exact rational recovery of the LPs\n"
            "  --time-limit SEC      give up (exit 1) when a simplex takes longer\n"
            "  --from FORMAT         auto (default), native, graphml or simgrid\n"
            "  -h, --help            this help\n"
            "\n"
            "The reduce optimum (SSR) is for an associative, non-commutative operator;\n"
            "algorithms that need a commutative one are marked, and the bound for\n"
            "commutative reduces is printed too.  The allreduce optimum is\n"
            "min(reduce optimum, broadcast optimum), an upper bound.\n"
            "\n"
            "Exit status: 0 done, 2 bad input (unknown node, router as root, unreachable\n"
            "processor, ...), 1 solver failure.\n");
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

static void print_size(double bytes, char *buf, size_t n)
{
    int k = 0;
    while (k < 3 && bytes >= 1024 && fmod(bytes, 1024) == 0) {
        bytes /= 1024;
        k++;
    }
    snprintf(buf, n, "%.17g %s", bytes, (const char *[]){"bytes", "KiB", "MiB", "GiB"}[k]);
}

static void print_text(const steady_comparison_t *c, const steady_platform_t *p, int chunks)
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

    printf("\n%-12s %6s  %-12s %-7s %-9s %-10s %-12s %s\n", "algorithm", "chunks", "model TP",
           "ratio", "measured", "one op", "operator", "bottleneck");
    for (int i = 0; i < c->nalgos; i++) {
        const steady_model_t *m = &c->algos[i];
        bottleneck(p, m, buf, sizeof buf);
        printf("%-12s %6d  %-12.6g %-7.4f %-9s %-10.4g %-12s %s\n", steady_algo_name(m->algo),
               m->chunks, m->throughput, c->ratio[i], "-", m->makespan, operator_needed(c, m), buf);
    }
    printf("\n(model TP: a long series, operations pipelined; one op: a single operation\n"
           "simulated alone, in %s)\n",
           abstract ? "time units" : "s");
}

static json_t *number_or_null(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

static int print_json(const steady_comparison_t *c, const steady_platform_t *p)
{
    bool abstract = steady_platform_is_abstract(p);
    json_t *algos = json_array();
    for (int i = 0; i < c->nalgos; i++) {
        const steady_model_t *m = &c->algos[i];
        char buf[2 * STEADY_NAME_MAX + 32];
        bottleneck(p, m, buf, sizeof buf);
        json_array_append_new(algos,
                              json_pack("{s:s, s:o, s:n, s:o, s:i, s:o, s:s, s:s}", "name",
                                        steady_algo_name(m->algo), "model_throughput",
                                        number_or_null(m->throughput), "measured_throughput",
                                        "ratio", number_or_null(c->ratio[i]), "chunks", m->chunks,
                                        "makespan_estimate", number_or_null(m->makespan),
                                        "operator", operator_needed(c, m), "bottleneck", buf));
    }
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
    int rc =
        json_dumpf(j, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) == 0 ? EXIT_OK : EXIT_FAIL;
    putchar('\n');
    json_decref(j);
    return rc;
}

int cmd_compare(int argc, char **argv)
{
    enum { O_ROOT = O_PROBLEM_END, O_JSON, O_CHUNKS, O_APPROX };
    static const struct option opts[] = {{"op", required_argument, NULL, O_OP},
                                         {"root", required_argument, NULL, O_ROOT},
                                         {"source", required_argument, NULL, O_SOURCE},
                                         {"target", required_argument, NULL, O_TARGET},
                                         {"msg-size", required_argument, NULL, O_SIZE},
                                         {"task-cost", required_argument, NULL, O_TASK},
                                         {"time-limit", required_argument, NULL, O_TIME},
                                         {"from", required_argument, NULL, O_FROM},
                                         {"chunks", required_argument, NULL, O_CHUNKS},
                                         {"json", no_argument, NULL, O_JSON},
                                         {"output", required_argument, NULL, 'o'},
                                         {"approx", no_argument, NULL, O_APPROX},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    problem_args_t a; /* --op, --source, --target, --msg-size, --task-cost, --time-limit, --from */
    problem_args_init(&a, "compare");
    const char *root_flag = NULL, *root_name = NULL, *chart = NULL;
    bool json = false;
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
    if (steady_compare_run(p, (steady_collop_t)op, root, &mo, &a.sopts, &cmp, &err)) {
        status = report(&err);
        goto done;
    }
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
        status = print_json(&cmp, p);
    else
        print_text(&cmp, p, chunks);
done:
    steady_platform_destroy(p);
    return status;
}
