/*
 * cmd_info.c — `steady info`: validate a platform and summarise it.
 */
#include <getopt.h>
#include <jansson.h>
#include <string.h>

#include "cli.h"

void help_info(FILE *out)
{
    fprintf(out, "usage: steady info [--from FORMAT] [--list] [--json] [--quiet] PLATFORM\n"
                 "\n"
                 "Reads and validates PLATFORM ('-' for standard input) and prints a summary:\n"
                 "nodes (processors, routers, switches), channels, directed edges and duplex\n"
                 "pairs, whether the graph is strongly connected, the ranges of bandwidth,\n"
                 "latency, overhead (or abstract cost) and processor speed, and for a\n"
                 "calibrated platform the message sizes it was measured over.\n"
                 "\n"
                 "  --from FORMAT  auto (default: by content), native, graphml or simgrid\n"
                 "  --list         also list every node and edge\n"
                 "  --json         print the summary as JSON\n"
                 "  --quiet        no progress line on standard error (drawn only on a\n"
                 "                 terminal, while a large platform is read)\n"
                 "  -h, --help     this help\n"
                 "\n"
                 "A malformed platform gets one line FILE:LINE[:COL]: what is wrong (the value)\n"
                 "on standard error and exit status 2.\n");
}

/* One range line: physical quantities with SI prefixes, abstract ones plain. */
static void print_range(const char *label, steady_range_t r, const char *unit, bool abstract,
                        const char *abstract_unit)
{
    char lo[32], hi[32];
    if (abstract) {
        snprintf(lo, sizeof lo, "%.6g", r.min);
        snprintf(hi, sizeof hi, "%.6g", r.max);
    } else {
        human(lo, sizeof lo, r.min, unit);
        human(hi, sizeof hi, r.max, unit);
    }
    if (r.min == r.max)
        printf("%-12s %s%s\n", label, lo, abstract ? abstract_unit : "");
    else
        printf("%-12s %s .. %s%s\n", label, lo, hi, abstract ? abstract_unit : "");
}

static void print_text(const steady_platform_t *p, const steady_platform_summary_t *s,
                       const char *path, steady_format_t format, bool list)
{
    printf("platform     %s (%s, %s format)\n", steady_platform_name(p), path,
           steady_format_name(format));
    printf("nodes        %d (%d processors, %d routers", s->nodes, s->processors, s->routers);
    if (s->switches > 0)
        printf(", %d switches", s->switches);
    printf(")\n");
    printf("edges        %d directed (%d duplex pairs, %d one-way)\n", s->edges, s->duplex_pairs,
           s->edges - 2 * s->duplex_pairs);
    if (s->channels > 0) {
        int crossing = 0;
        for (int k = 0; k < s->edges; k++)
            crossing += steady_platform_edge(p, k)->ncross > 0;
        printf("channels     %d, crossed by %d edges (%d shared resources)\n", s->channels, crossing,
               steady_platform_resource_count(p));
        double weight_s;
        if (steady_platform_flow_sharing(p, &weight_s) == STEADY_FLOWS_PENALTY)
            printf("flows        share a channel by penalty, weight-S %g B (SimGrid's rule)\n",
                   weight_s);
        else
            printf("flows        share a channel fairly\n");
        if (steady_platform_crosstraffic(p) > 0)
            printf("crosstraffic %g of a message's load on its reverse edge's channels "
                   "(SimGrid's acknowledgements)\n",
                   steady_platform_crosstraffic(p));
    }
    double cal[2];
    if (steady_platform_calibrated(p, &cal[0], &cal[1])) {
        char lo[32], hi[32];
        bytes_text(lo, sizeof lo, cal[0], false);
        bytes_text(hi, sizeof hi, cal[1], false);
        printf("calibrated   over messages of %s to %s (steady-run --calibrate)\n", lo, hi);
    }
    if (s->strongly_connected)
        printf("connected    strongly connected\n");
    else
        printf("connected    NOT strongly connected (%d strongly connected components): some "
               "node cannot reach another\n",
               s->components);
    printf("degree       max out %d, max in %d\n", s->max_out_degree, s->max_in_degree);
    if (s->edges > 0) {
        if (s->abstract) {
            print_range("cost", s->cost, "", true, " (abstract time units per message)");
        } else {
            print_range("bandwidth", s->bandwidth, "B/s", false, NULL);
            print_range("overhead", s->overhead, "s", false, NULL);
        }
        print_range("latency", s->latency, "s", s->abstract, " (abstract time units)");
    }
    print_range("speed", s->speed, "flop/s", s->abstract, " (abstract tasks per time unit)");
    if (!list)
        return;
    printf("\n%-5s %-20s %-9s %s\n", "id", "node", "kind", "speed");
    for (int v = 0; v < steady_platform_node_count(p); v++) {
        const steady_node_t *n = steady_platform_node(p, v);
        char sp[32] = "-";
        if (n->kind == STEADY_PROCESSOR)
            snprintf(sp, sizeof sp, "%.17g", n->speed);
        printf("%-5d %-20s %-9s %s\n", v, n->name, steady_node_kind_name(n->kind), sp);
    }
    if (steady_platform_channel_count(p) > 0) {
        printf("\n%-5s %-20s %-12s %-12s %s\n", "id", "channel", s->abstract ? "cost" : "bandwidth",
               "latency", "sharing");
        for (int k = 0; k < steady_platform_channel_count(p); k++) {
            const steady_channel_t *c = steady_platform_channel(p, k);
            printf("%-5d %-20s %-12.6g %-12.6g %s\n", k, c->name,
                   s->abstract ? c->cost : c->bandwidth, c->latency,
                   steady_sharing_name(c->sharing));
        }
    }
    printf("\n%-5s %-20s %-20s %-12s %-12s %-12s%s\n", "id", "from", "to",
           s->abstract ? "cost" : "bandwidth", "latency", "overhead",
           s->channels > 0 ? " crosses" : "");
    for (int k = 0; k < steady_platform_edge_count(p); k++) {
        const steady_edge_t *e = steady_platform_edge(p, k);
        printf("%-5d %-20s %-20s %-12.6g %-12.6g %-12.6g", k, steady_platform_node(p, e->src)->name,
               steady_platform_node(p, e->dst)->name, s->abstract ? e->cost : e->bandwidth,
               e->latency, e->overhead);
        for (int j = 0; j < e->ncross; j++) {
            const steady_channel_t *c = steady_platform_channel(p, e->cross[j].channel);
            printf("%s%s%s", j ? "," : " ", c->name,
                   c->sharing != STEADY_SPLITDUPLEX ? ""
                   : e->cross[j].down               ? ":down"
                                                    : ":up");
        }
        putchar('\n');
    }
}

static json_t *range_json(steady_range_t r)
{
    return json_pack("{s:f, s:f}", "min", r.min, "max", r.max);
}

static int print_json(const steady_platform_t *p, const steady_platform_summary_t *s,
                      const char *path, steady_format_t format, bool list)
{
    json_t *j = json_pack(
        "{s:s, s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:b, s:i, s:b, s:i, s:i}", "name",
        steady_platform_name(p), "file", path, "format", steady_format_name(format), "nodes",
        s->nodes, "processors", s->processors, "routers", s->routers, "switches", s->switches,
        "edges", s->edges, "channels", s->channels, "duplex_pairs", s->duplex_pairs,
        "strongly_connected", s->strongly_connected, "components", s->components, "abstract",
        s->abstract, "max_out_degree", s->max_out_degree, "max_in_degree", s->max_in_degree);
    if (!j)
        return EXIT_FAIL;
    double weight_s;
    bool penalty = steady_platform_flow_sharing(p, &weight_s) == STEADY_FLOWS_PENALTY;
    json_object_set_new(j, "flows", json_string(penalty ? "penalty" : "fair"));
    if (penalty)
        json_object_set_new(j, "weight_s", json_real(weight_s));
    json_object_set_new(j, "crosstraffic", json_real(steady_platform_crosstraffic(p)));
    double cal[2];
    json_object_set_new(j, "calibrated",
                        steady_platform_calibrated(p, &cal[0], &cal[1])
                            ? json_pack("{s:f, s:f}", "min_size", cal[0], "max_size", cal[1])
                            : json_null());
    json_object_set_new(j, "latency", range_json(s->latency));
    json_object_set_new(j, "speed", range_json(s->speed));
    if (s->abstract) {
        json_object_set_new(j, "cost", range_json(s->cost));
    } else {
        json_object_set_new(j, "bandwidth", range_json(s->bandwidth));
        json_object_set_new(j, "overhead", range_json(s->overhead));
    }
    if (list) {
        json_t *nodes = json_array(), *edges = json_array();
        for (int v = 0; v < steady_platform_node_count(p); v++) {
            const steady_node_t *n = steady_platform_node(p, v);
            json_array_append_new(nodes, json_pack("{s:s, s:s, s:f}", "name", n->name, "kind",
                                                   steady_node_kind_name(n->kind), "speed",
                                                   n->speed));
        }
        json_t *channels = json_array();
        for (int k = 0; k < steady_platform_channel_count(p); k++) {
            const steady_channel_t *c = steady_platform_channel(p, k);
            json_array_append_new(channels, json_pack("{s:s, s:f, s:f, s:f, s:s}", "name", c->name,
                                                      "bandwidth", c->bandwidth, "latency",
                                                      c->latency, "cost", c->cost, "sharing",
                                                      steady_sharing_name(c->sharing)));
        }
        for (int k = 0; k < steady_platform_edge_count(p); k++) {
            const steady_edge_t *e = steady_platform_edge(p, k);
            json_t *cross = json_array();
            for (int x = 0; x < e->ncross; x++)
                json_array_append_new(
                    cross, json_pack("{s:s, s:b}", "channel",
                                     steady_platform_channel(p, e->cross[x].channel)->name, "down",
                                     e->cross[x].down));
            json_array_append_new(edges, json_pack("{s:s, s:s, s:f, s:f, s:f, s:f, s:o}", "from",
                                                   steady_platform_node(p, e->src)->name, "to",
                                                   steady_platform_node(p, e->dst)->name,
                                                   "bandwidth", e->bandwidth, "latency", e->latency,
                                                   "overhead", e->overhead, "cost", e->cost,
                                                   "crosses", cross));
        }
        json_object_set_new(j, "node_list", nodes);
        json_object_set_new(j, "channel_list", channels);
        json_object_set_new(j, "edge_list", edges);
    }
    int rc =
        json_dumpf(j, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) == 0 ? EXIT_OK : EXIT_FAIL;
    putchar('\n');
    json_decref(j);
    return rc;
}

int cmd_info(int argc, char **argv)
{
    static const struct option opts[] = {{"from", required_argument, NULL, 'f'},
                                         {"list", no_argument, NULL, 'l'},
                                         {"json", no_argument, NULL, 'j'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    steady_format_t format = STEADY_FORMAT_AUTO;
    bool json = false, list = false, quiet = false;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hlj", opts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if (!parse_format("info", optarg, true, &format))
                return EXIT_USAGE;
            break;
        case 'l': list = true; break;
        case 'j': json = true; break;
        case 'q': quiet = true; break;
        case 'h': help_info(stdout); return EXIT_OK;
        case ':': return usage_error("info", "option needs a value (%s)", argv[optind - 1]);
        default: return usage_error("info", "unknown option (%s)", argv[optind - 1]);
        }
    }
    if (!one_platform("info", argc, argv))
        return EXIT_USAGE;
    const char *path = argv[optind];

    steady_error_t err = {0};
    steady_platform_t *p = NULL;
    steady_format_t detected;
    steady_platform_summary_t s;
    if (read_platform("info", path, format, quiet, &p, &detected, &err) ||
        steady_platform_summarize(p, &s, &err)) {
        steady_platform_destroy(p);
        return report(&err);
    }
    int rc = EXIT_OK;
    if (json)
        rc = print_json(p, &s, path, detected, list);
    else
        print_text(p, &s, path, detected, list);
    steady_platform_destroy(p);
    return rc;
}
