/*
 * cmd_compare.c — `steady compare`: the steady-state throughput of TwoTreeC,
 * TwoTreeS, binomial, pipelined binary, chain and flat trees on a platform
 * under the one-port model, next to the LP optimum (docs/comparison.md):
 * options and report; --measure smpi is compare_smpi.c.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare_hockney.h"
#include "compare_smpi.h"
#include "steady/compare.h"
#include "steady/output.h"

void help_compare(FILE *out)
{
    fprintf(out,
            "usage: steady compare --op broadcast|reduce|allreduce [--root NAME]\n"
            "                      [--msg-size BYTES] [--task-cost FLOP] [--cost-model M]\n"
            "                      [--chunks C|auto]\n"
            "                      [--ops K] [--sizes LIST] [--energy-per-message J]\n"
            "                      [--energy-per-byte J] [--power W] [--descriptor-bytes B]\n"
            "                      [--measure smpi [--segments auto|M]\n"
            "                      [--smpi-cfg tuned|default|FLAGS] [--row-timeout S]\n"
            "                      [--calibrated FILE] [--rows LIST]]\n"
            "                      [--json] [-o CHART.svg] [--approx] [--time-limit SEC]\n"
            "                      [--threads N] [--from FORMAT] [--quiet] PLATFORM\n"
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
            "With --measure smpi every algorithm is also run under SimGrid SMPI on\n"
            "PLATFORM itself when it is a SimGrid file, else on its export to SimGrid\n"
            "XML (steady-run-smpi, next to steady; smpirun, in PATH), as\n"
            "are the LP's periodic schedule (row lp-schedule, broadcast and reduce: the\n"
            "schedule steady plan --series K writes, run as steady-run-smpi runs that\n"
            "file) and the MPI library's own collective, with SMPI's default selection\n"
            "(row mpi:default) and a few SMPI algorithms (rows mpi:NAME), which have no\n"
            "model; the measured throughput and its ratio to the optimum fill the table.\n"
            "A run that fails or does not verify every operation is an error.\n"
            "\n"
            "A second table predicts every algorithm under the Hockney model (a message\n"
            "of x bytes on a hop holds both ports for overhead + latency + x/bandwidth,\n"
            "the values a calibrated platform holds): one operation alone and the time per\n"
            "operation in a series of K, next to the measured time per operation with\n"
            "--measure; and Hoefler and Moor's metrics: the memory of the busiest rank\n"
            "(data buffers and a descriptor per message it sends) and the energy (per\n"
            "message, per byte per hop, static power per rank).  Then, per message size,\n"
            "the algorithm (and chunk count) the model picks for one operation, for a\n"
            "series and for the least energy.\n"
            "\n"
            "  --op OP               broadcast, reduce or allreduce (required)\n"
            "  --root NAME           the root processor (default: the first processor);\n"
            "                        --source (broadcast) and --target (reduce) are synonyms\n"
            "  --msg-size BYTES      message size, e.g. 65536, 64KiB, 1MB (default 1MiB);\n"
            "                        ignored by abstract cost edges\n"
            "  --task-cost FLOP      reduce, allreduce: flop to combine two messages\n"
            "                        (default: one flop per byte; 1 on abstract platforms)\n"
            "  --cost-model M        what a chunk's latency holds in the rows' model:\n"
            "                        rendezvous (default) its two ports, until it has\n"
            "                        arrived, as steady-run's sends under SMPI; eager\n"
            "                        nothing (the paper's model).  The LP's bound is the\n"
            "                        same under both (docs/comparison.md)\n"
            "  --chunks C|auto       chunks per message; auto (default) takes, per algorithm,\n"
            "                        the count up to 64 with the best model throughput, then\n"
            "                        the shortest single operation (simulated)\n"
            "  --measure smpi        measure every row under SMPI (see above); with an\n"
            "                        abstract platform one cost unit is --msg-size bytes\n"
            "                        (1 MiB) and one simulated second\n"
            "  --ops K               operations in a series: the Hockney prediction's and\n"
            "                        each measured row's (default %d)\n"
            "  --sizes LIST          message sizes for the selection, e.g.\n"
            "                        4KiB,64KiB,1MiB,16MiB (default: --msg-size)\n"
            "  --energy-per-message J  energy of one message (default 16.5e-12, Hoefler-Moor)\n"
            "  --energy-per-byte J   energy per byte per hop (default 8.1e-9, Hoefler-Moor)\n"
            "  --power W             static power per rank (default 0.5, Hoefler-Moor)\n"
            "  --descriptor-bytes B  memory per send descriptor (default 32, Hoefler-Moor)\n"
            "  --segments auto|M     the lp-schedule's segments per operation, as steady\n"
            "                        plan --segments (default auto)\n"
            "  --smpi-cfg CFG        SimGrid's configuration for every run: tuned (default:\n"
            "                        the network held to the one-port model, docs/running.md),\n"
            "                        default (SimGrid's own), or --cfg=NAME:VALUE flags in\n"
            "                        one argument, e.g. \"--cfg=smpi/bw-factor:0:1 --cfg=...\"\n"
            "  --row-timeout S       stop a row's run after S seconds of wall time and report\n"
            "                        the row as timed out; the others still run (default\n"
            "                        %d; 0: no limit)\n"
            "  --calibrated FILE     plan the lp-schedule row on FILE, a calibration of\n"
            "                        PLATFORM under the same SMPI configuration (steady-run\n"
            "                        --calibrate -o FILE), and run it with FILE as its\n"
            "                        platform: the LP schedule for the network as SMPI\n"
            "                        simulates it (the other rows run as they are)\n"
            "  --rows LIST           run only these rows, names separated by commas, e.g.\n"
            "                        lp-schedule,mpi:default,twotreec,twotrees (default:\n"
            "                        all); an algorithm not run keeps its model, an\n"
            "                        lp-schedule or mpi:NAME row not run is left out\n"
            "  --json                machine-readable output\n"
            "  -o, --output FILE     also write an SVG bar chart to FILE\n"
            "  --approx              skip the exact rational recovery of the LPs\n"
            "  --time-limit SEC      give up (exit 1) when an LP's solve takes longer\n"
            "  --threads N           threads for the reduce's trees and the lp-schedule row's\n"
            "                        plan (default: one per online processor; the result\n"
            "                        is the same for every N)\n"
            "  --from FORMAT         auto (default), native, graphml or simgrid\n"
            "  --quiet               no progress line on standard error (drawn only when\n"
            "                        it is a terminal: the LP's stages, then the row under\n"
            "                        SMPI, its number and its time so far)\n"
            "  -h, --help            this help\n"
            "\n"
            "The reduce optimum (SSR) is for an associative, non-commutative operator;\n"
            "algorithms that need a commutative one are marked, and the bound for\n"
            "commutative reduces is printed too.  The allreduce optimum is\n"
            "min(reduce optimum, broadcast optimum), an upper bound.\n"
            "\n"
            "Exit status: 0 done, 2 bad input (unknown node, router as root, unreachable\n"
            "processor, ...), 1 solver failure, a failed measurement, or a row that timed\n"
            "out (the table is printed, the row marked).  Interrupted (SIGINT, SIGTERM,\n"
            "SIGHUP), it stops the running simulation, removes its temporary files and\n"
            "dies of the signal.\n",
            SMPI_DEFAULT_OPS, SMPI_DEFAULT_ROW_TIMEOUT);
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
    else if (m->bottleneck_resource == STEADY_RES_LINK)
        steady_platform_resource_name(p, m->bottleneck, buf, n);
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

/* The --cfg flags, as many per line as fit in 80 columns, indented. */
static void print_flags(const char *const *flags, int n)
{
    int col = 13;
    printf("%-13s", "");
    for (int i = 0; i < n; i++) {
        int len = (int)strlen(flags[i]);
        if (col > 13 && col + 1 + len > 80) {
            printf("\n%-13s", "");
            col = 13;
        }
        printf("%s%s", col > 13 ? " " : "", flags[i]);
        col += (col > 13) + len;
    }
    putchar('\n');
}

/* The node of rank r, NULL past the last rank. */
static const steady_node_t *rank_node(const steady_platform_t *p, int r)
{
    return r < steady_platform_rank_count(p)
               ? steady_platform_node(p, steady_platform_rank_node(p, r))
               : NULL;
}

/* --calibrated FILE: read into s->cal, which must have p's ranks (its
 * processors and routers, by name, in order: the hostfile's, which
 * steady-run maps MPI ranks to).  EXIT_OK, or the status after the error. */
static int read_calibrated(smpi_measure_t *s, const steady_platform_t *p, steady_format_t from,
                           bool quiet)
{
    steady_error_t err = {0};
    if (read_platform("compare", s->calibrated, from, quiet, &s->cal, NULL, &err))
        return report(&err);
    for (int r = 0; r < steady_platform_rank_count(p) || r < steady_platform_rank_count(s->cal);
         r++) {
        const steady_node_t *n = rank_node(p, r), *m = rank_node(s->cal, r);
        if (!n || !m || strcmp(n->name, m->name) != 0 || n->kind != m->kind)
            return usage_error("compare",
                               "--calibrated: %s does not have the compared platform's ranks "
                               "(rank %d: %s there, %s here): calibrate it with steady-run "
                               "--calibrate",
                               s->calibrated, r, m ? m->name : "none", n ? n->name : "none");
    }
    return EXIT_OK;
}

/* The measurement's settings, below the optimum. */
static void print_measure_header(const smpi_measure_t *s, const steady_platform_t *p)
{
    char buf[64];
    printf("%-13s%ld operations per row under SMPI (steady-run-smpi, latencies as the\n"
           "%-13splatform gives them), ",
           "measured", s->ops, "");
    if (s->row_timeout > 0)
        printf("at most %g s of wall time per row\n", s->row_timeout);
    else
        printf("no time limit per row\n");
    if (s->simgrid_file)
        printf("%-13sthe SimGrid file itself (%s)\n", "smpi on", s->simgrid_file);
    else
        printf("%-13ssteady's SimGrid export of the platform\n", "smpi on");
    if (strcmp(s->cfg_name, "tuned") == 0)
        printf("%-13stuned: SimGrid's network held to the one-port model\n", "smpi config");
    else if (strcmp(s->cfg_name, "default") == 0)
        printf("%-13sdefault: SimGrid's own, no --cfg flag\n", "smpi config");
    else
        printf("%-13suser: given by --smpi-cfg\n", "smpi config");
    if (s->ncfg > 0)
        print_flags(s->cfg, s->ncfg);
    if (s->rows) {
        printf("%-13s", "rows run");
        for (int i = 0; i < s->nrows; i++)
            printf("%s%s", i ? ", " : "", s->rows[i]);
        printf(" (--rows; the others: -)\n");
    }
    if (s->lp_segments > 0) {
        if (steady_platform_is_abstract(p))
            snprintf(buf, sizeof buf, "1 segment");
        else {
            char size[48];
            bytes_text(size, sizeof size, s->lp_segment_size, true);
            snprintf(buf, sizeof buf, "%ld segment%s of %s", s->lp_segments,
                     s->lp_segments == 1 ? "" : "s", size);
        }
        printf("%-13s%s per operation (steady plan --series %ld%s%s)\n", "lp-schedule", buf, s->ops,
               s->calibrated ? " on " : "", s->calibrated ? s->calibrated : "");
        if (s->cal)
            calibration_note(stdout, s->cal, s->lp_message_bytes);
    }
}

static void print_text(const steady_comparison_t *c, const steady_platform_t *p, int chunks,
                       const smpi_measure_t *s)
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
        bytes_text(buf, sizeof buf, c->msg_size, true);
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
    if (s)
        print_measure_header(s, p);
    printf("\n%-*s %6s  %-12s %-7s %-12s ", w, "algorithm", "chunks", "model TP", "ratio",
           s ? "measured" : "measured ");
    if (s)
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
        } else if (s && (extra ? s->extra_timed_out[i - c->nalgos] : s->algo_timed_out[i])) {
            snprintf(meas_s, sizeof meas_s, "timed out");
        }
        printf("%-*s %6s  %-12s %-7s %-12s ", w,
               extra ? c->extra[i - c->nalgos].name : steady_algo_name(m->algo), chunk_s, model_s,
               ratio_s, meas_s);
        if (s)
            printf("%-8s ", mratio_s);
        printf("%-10s %-12s %s\n", one_s,
               extra ? extra_operator(c, c->extra[i - c->nalgos].name) : operator_needed(c, m),
               buf);
    }
    printf("\n(model TP: a long series, operations pipelined; one op: a single operation\n"
           "simulated alone, in %s%s)\n",
           abstract ? "time units" : "s",
           s ? ";\nmeasured: achieved under SMPI, m. ratio = measured / optimum; lp-schedule:\n"
               "the LP's periodic schedule (steady plan), its model TP the planned one;\n"
               "mpi:NAME: the MPI library's own collective, SMPI algorithm NAME (default:\n"
               "SMPI's own selection), routed by SimGrid and not held to the one-port model"
             : "");
    if (s && s->timed_out > 0)
        printf("(timed out: the row's run was stopped after %g s of wall time, --row-timeout)\n",
               s->row_timeout);
}

static json_t *number_or_null(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

/* true, false, or null without a measurement */
static json_t *flag_or_null(const smpi_measure_t *s, bool flag)
{
    return s ? json_boolean(flag) : json_null();
}

static int print_json(const steady_comparison_t *c, const steady_platform_t *p,
                      const smpi_measure_t *s, const hockney_report_t *hr)
{
    bool abstract = steady_platform_is_abstract(p);
    json_t *algos = json_array();
    for (int i = 0; i < c->nalgos; i++) {
        const steady_model_t *m = &c->algos[i];
        char buf[2 * STEADY_NAME_MAX + 32];
        bottleneck(p, m, buf, sizeof buf);
        json_array_append_new(
            algos,
            json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:i, s:n, s:o, s:s, s:s}", "name",
                      steady_algo_name(m->algo), "model_throughput", number_or_null(m->throughput),
                      "measured_throughput", number_or_null(c->measured[i]), "ratio",
                      number_or_null(c->ratio[i]), "measured_ratio",
                      number_or_null(c->measured[i] / c->optimum), "timed_out",
                      flag_or_null(s, s && s->algo_timed_out[i]), "chunks", m->chunks, "segments",
                      "makespan_estimate", number_or_null(m->makespan), "operator",
                      operator_needed(c, m), "bottleneck", buf));
        json_object_set_new(json_array_get(algos, (size_t)i), "hockney",
                            hockney_json_algo(hr, i, c->measured[i]));
        json_object_set_new(json_array_get(algos, (size_t)i), "message_bytes", json_null());
    }
    /* the measured rows without an algorithm: lp-schedule, mpi:NAME */
    for (int i = 0; i < c->nextra; i++) {
        bool lp = strcmp(c->extra[i].name, "lp-schedule") == 0;
        json_array_append_new(
            algos,
            json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:n, s:o, s:n, s:s, s:n}", "name",
                      c->extra[i].name, "model_throughput", number_or_null(c->extra[i].model),
                      "measured_throughput", number_or_null(c->extra[i].measured), "ratio",
                      number_or_null(c->extra[i].model / c->optimum), "measured_ratio",
                      number_or_null(c->extra[i].measured / c->optimum), "timed_out",
                      flag_or_null(s, s && s->extra_timed_out[i]), "chunks", "segments",
                      lp && s ? json_integer(s->lp_segments) : json_null(), "makespan_estimate",
                      "operator", extra_operator(c, c->extra[i].name), "bottleneck"));
        json_t *row = json_array_get(algos, (size_t)(c->nalgos + i));
        json_object_set_new(row, "hockney", json_null());
        json_object_set_new(row, "message_bytes",
                            lp && s && s->lp_message_bytes[1] > 0
                                ? json_pack("[f, f]", s->lp_message_bytes[0], s->lp_message_bytes[1])
                                : json_null());
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
    json_t *cfg = json_null();
    if (s) {
        json_t *flags = json_array();
        for (int i = 0; i < s->ncfg; i++)
            json_array_append_new(flags, json_string(s->cfg[i]));
        cfg = json_pack("{s:s, s:o}", "name", s->cfg_name, "flags", flags);
    }
    json_object_set_new(j, "measured_ops", s ? json_integer(s->ops) : json_null());
    json_object_set_new(j, "smpi_cfg", cfg);
    json_object_set_new(j, "smpi_platform",
                        !s                ? json_null()
                        : s->simgrid_file ? json_string(s->simgrid_file)
                                          : json_string("export"));
    json_object_set_new(j, "lp_platform",
                        s && s->calibrated ? json_string(s->calibrated) : json_null());
    json_object_set_new(j, "row_timeout", s ? json_real(s->row_timeout) : json_null());
    json_t *run = json_null();
    if (s && s->rows) {
        run = json_array();
        for (int i = 0; i < s->nrows; i++)
            json_array_append_new(run, json_string(s->rows[i]));
    }
    json_object_set_new(j, "rows", run);
    json_object_set_new(j, "timed_out", s ? json_integer(s->timed_out) : json_null());
    json_object_set_new(j, "hockney", hockney_json(hr, c));
    int rc =
        json_dumpf(j, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) == 0 ? EXIT_OK : EXIT_FAIL;
    putchar('\n');
    json_decref(j);
    return rc;
}

int cmd_compare(int argc, char **argv)
{
    enum {
        O_ROOT = O_PROBLEM_END,
        O_JSON,
        O_CHUNKS,
        O_APPROX,
        O_MEASURE,
        O_OPS,
        O_SEGMENTS,
        O_SMPI_CFG,
        O_ROW_TIMEOUT,
        O_SIZES,
        O_E_MSG,
        O_E_BYTE,
        O_POWER,
        O_DESC,
        O_COST_MODEL,
        O_CALIBRATED,
        O_ROWS
    };
    static const struct option opts[] = {{"op", required_argument, NULL, O_OP},
                                         {"root", required_argument, NULL, O_ROOT},
                                         {"source", required_argument, NULL, O_SOURCE},
                                         {"target", required_argument, NULL, O_TARGET},
                                         {"msg-size", required_argument, NULL, O_SIZE},
                                         {"task-cost", required_argument, NULL, O_TASK},
                                         {"time-limit", required_argument, NULL, O_TIME},
                                         {"threads", required_argument, NULL, O_THREADS},
                                         {"quiet", no_argument, NULL, O_QUIET},
                                         {"from", required_argument, NULL, O_FROM},
                                         {"cost-model", required_argument, NULL, O_COST_MODEL},
                                         {"chunks", required_argument, NULL, O_CHUNKS},
                                         {"json", no_argument, NULL, O_JSON},
                                         {"output", required_argument, NULL, 'o'},
                                         {"approx", no_argument, NULL, O_APPROX},
                                         {"measure", required_argument, NULL, O_MEASURE},
                                         {"ops", required_argument, NULL, O_OPS},
                                         {"segments", required_argument, NULL, O_SEGMENTS},
                                         {"smpi-cfg", required_argument, NULL, O_SMPI_CFG},
                                         {"row-timeout", required_argument, NULL, O_ROW_TIMEOUT},
                                         {"calibrated", required_argument, NULL, O_CALIBRATED},
                                         {"rows", required_argument, NULL, O_ROWS},
                                         {"sizes", required_argument, NULL, O_SIZES},
                                         {"energy-per-message", required_argument, NULL, O_E_MSG},
                                         {"energy-per-byte", required_argument, NULL, O_E_BYTE},
                                         {"power", required_argument, NULL, O_POWER},
                                         {"descriptor-bytes", required_argument, NULL, O_DESC},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    problem_args_t a; /* --op, --source, --target, --msg-size, --task-cost, --time-limit,
                         --threads, --from */
    problem_args_init(&a, "compare");
    smpi_measure_t sm; /* --ops, --segments, --smpi-cfg, --row-timeout */
    smpi_measure_init(&sm);
    hockney_report_t hr; /* --sizes, --energy-per-message, --energy-per-byte, --power, ... */
    hockney_init(&hr);
    bool sizes = false;
    const char *root_flag = NULL, *root_name = NULL, *chart = NULL, *cfg = NULL, *rows = NULL;
    const char *measure_flag = NULL; /* a flag of --measure smpi, given without it */
    bool json = false, measure = false;
    int chunks = 0, c;
    steady_cost_model_t cost_model = STEADY_COST_RENDEZVOUS;
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
        char *end;
        switch (c) {
        case O_JSON: json = true; break;
        case O_APPROX: a.sopts.exact = false; break;
        case 'o': chart = optarg; break;
        case O_MEASURE:
            if (strcmp(optarg, "smpi") != 0)
                return usage_error("compare", "--measure takes smpi (%s)", optarg);
            measure = true;
            break;
        case O_SIZES:
            if (hockney_parse_sizes(&hr, optarg) != EXIT_OK)
                return EXIT_USAGE;
            sizes = true;
            break;
        case O_E_MSG:
        case O_E_BYTE:
        case O_POWER:
        case O_DESC: {
            double *v = c == O_E_MSG    ? &hr.hm.energy_per_message
                        : c == O_E_BYTE ? &hr.hm.energy_per_byte
                        : c == O_POWER  ? &hr.hm.power
                                        : &hr.hm.descriptor_bytes;
            const char *flag = c == O_E_MSG    ? "--energy-per-message"
                               : c == O_E_BYTE ? "--energy-per-byte"
                               : c == O_POWER  ? "--power"
                                               : "--descriptor-bytes";
            if (hockney_parse_constant(flag, optarg, v) != EXIT_OK)
                return EXIT_USAGE;
            break;
        }
        case O_OPS:
            sm.ops = strtol(optarg, &end, 10);
            if (*end || end == optarg || sm.ops < 1 || sm.ops > 1000000000L)
                return usage_error("compare", "--ops takes a positive integer (%s)", optarg);
            break;
        case O_SEGMENTS:
            measure_flag = "--segments";
            if (!parse_segments(optarg, &sm.segments))
                return usage_error("compare", "--segments takes auto or a count from 1 to %d (%s)",
                                   1 << 20, optarg);
            break;
        case O_SMPI_CFG:
            measure_flag = "--smpi-cfg";
            cfg = optarg;
            break;
        case O_CALIBRATED:
            measure_flag = "--calibrated";
            sm.calibrated = optarg;
            break;
        case O_ROWS:
            measure_flag = "--rows";
            rows = optarg;
            break;
        case O_ROW_TIMEOUT:
            measure_flag = "--row-timeout";
            sm.row_timeout = strtod(optarg, &end);
            if (*end || end == optarg || !(sm.row_timeout >= 0) || sm.row_timeout > 1e7)
                return usage_error("compare",
                                   "--row-timeout takes a number of seconds, 0 for no limit (%s)",
                                   optarg);
            break;
        case O_COST_MODEL: {
            int m = steady_cost_model_from_name(optarg);
            if (m < 0)
                return usage_error("compare", "--cost-model takes rendezvous or eager (%s)",
                                   optarg);
            cost_model = (steady_cost_model_t)m;
            break;
        }
        case O_CHUNKS: {
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
    if (measure_flag && !measure)
        return usage_error("compare", "%s goes with --measure smpi", measure_flag);
    if (sm.segments && op == STEADY_COLL_ALLREDUCE)
        return usage_error("compare", "--segments goes with --op broadcast or reduce (the "
                                      "lp-schedule row; allreduce has none)");
    if (measure && !a.sopts.exact)
        return usage_error("compare", "--measure smpi plans the LP schedule, which needs the "
                                      "exact LP (drop --approx)");
    if (!one_platform("compare", argc, argv))
        return EXIT_USAGE;

    steady_error_t err = {0};
    steady_platform_t *p = NULL;
    int status = cfg ? smpi_measure_parse_cfg(&sm, cfg) : EXIT_OK, root = -1;
    if (status == EXIT_OK && rows)
        status = smpi_measure_parse_rows(&sm, rows, (steady_collop_t)op);
    if (status != EXIT_OK)
        goto done;
    steady_format_t format;
    if (read_platform("compare", argv[optind], a.from, a.quiet, &p, &format, &err)) {
        status = report(&err);
        goto done;
    }
    if (sizes && steady_platform_is_abstract(p)) {
        status = usage_error("compare",
                             "--sizes needs a platform with bandwidths (%s has "
                             "abstract costs, the same for every size)",
                             argv[optind]);
        goto done;
    }
    if (sm.calibrated && (status = read_calibrated(&sm, p, a.from, a.quiet)) != EXIT_OK)
        goto done;
    /* a SimGrid file is measured as it is, not as steady exports it */
    if (measure && format == STEADY_FORMAT_SIMGRID && strcmp(argv[optind], "-") != 0 &&
        !(sm.simgrid_file = realpath(argv[optind], NULL))) {
        message("steady compare: %s: %s", argv[optind], strerror(errno));
        status = EXIT_FAIL;
        goto done;
    }
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
    steady_model_options_t mo = {.msg_size = a.prob.msg_size,
                                 .task_cost = a.prob.task_cost,
                                 .chunks = chunks,
                                 .cost_model = cost_model};
    steady_comparison_t cmp;
    problem_progress_start(&a);
    steady_err_t rc = steady_compare_run(p, (steady_collop_t)op, root, &mo, &a.sopts, &cmp, &err);
    if (!rc && measure)
        status = smpi_measure(&sm, &cmp, p, &a);
    hr.ops = sm.ops;
    if (!rc && status == EXIT_OK && (rc = hockney_run(&hr, &cmp, p, &err)))
        status = EXIT_FAIL;
    problem_progress_clear(&a);
    if (rc)
        status = report(&err);
    if (status != EXIT_OK)
        goto done;
    if (chart) {
        steady_output_t o;
        if (!steady_output_open(&o, chart, &err)) {
            status = report(&err);
            goto done;
        }
        bool ok = steady_compare_write_svg(&cmp, p, o.f, &err) == STEADY_OK;
        if (!steady_output_close(&o, ok, &err) || !ok) {
            status = report(&err);
            goto done;
        }
    }
    if (json)
        status = print_json(&cmp, p, measure ? &sm : NULL, &hr);
    else {
        print_text(&cmp, p, chunks, measure ? &sm : NULL);
        hockney_print(&hr, &cmp, p, measure);
    }
    if (status == EXIT_OK && measure && sm.timed_out > 0) {
        fflush(stdout);
        fprintf(stderr, "steady compare: --measure smpi: %d row%s timed out (--row-timeout %g):",
                sm.timed_out, sm.timed_out == 1 ? "" : "s", sm.row_timeout);
        for (int i = 0; i < cmp.nalgos; i++)
            if (sm.algo_timed_out[i])
                fprintf(stderr, " %s", steady_algo_name(cmp.algos[i].algo));
        for (int i = 0; i < cmp.nextra; i++)
            if (sm.extra_timed_out[i])
                fprintf(stderr, " %s", cmp.extra[i].name);
        fputc('\n', stderr);
        status = EXIT_FAIL;
    }
done:
    smpi_measure_free(&sm);
    free(sm.simgrid_file);
    steady_platform_destroy(sm.cal);
    steady_platform_destroy(p);
    return status;
}
