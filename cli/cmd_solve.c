/*
 * cmd_solve.c — `steady solve`: the optimal steady-state throughput of a
 * series of scatters, gossips, reduces or broadcasts, with the binding
 * constraints and how busy each hop and shared resource is.
 */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "steady/decompose.h"
#include "steady/lp.h"

void help_solve(FILE *out)
{
    fprintf(out,
            "usage: steady solve --op OP [OP FLAGS] [--msg-size BYTES] [--task-cost FLOP]\n"
            "                    [--json] [--write-lp FILE] [--approx] [--threads N]\n"
            "                    [--from FORMAT]\n"
            "                    PLATFORM\n"
            "\n"
            "Solves the steady-state linear program of a series of operations on PLATFORM\n"
            "(docs/linear-programs.md) and prints the optimal throughput TP — operations\n"
            "per second, or per abstract time unit on a platform with cost edges — as an\n"
            "exact fraction and a decimal, the saturated ports, processors and shared\n"
            "links (channels), how busy each hop is (an edge between two ranks, or a path\n"
            "through switches, shown with \"via\"), and how busy each channel is.\n"
            "\n"
            "%s"
            "  --json                machine-readable output (docs/solve-json.md)\n"
            "  --write-lp FILE       also write the LP in CPLEX LP format (glpsol --lp FILE)\n"
            "  --approx              skip the exact rational recovery\n"
            "  -h, --help            this help\n"
            "\n"
            "Exit status: 0 solved, 2 bad input (unknown node, unreachable target, ...),\n"
            "1 solver failure (with GLPK's reason).\n",
            problem_help);
}

static char *q_str(const mpq_t q)
{
    return mpq_get_str(NULL, 10, q);
}

static void q_free(char *s)
{
    void (*freefunc)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &freefunc);
    freefunc(s, strlen(s) + 1);
}

/* {"exact": "p/q", "value": x} */
static json_t *q_json(const mpq_t q)
{
    char *s = q_str(q);
    json_t *j = json_pack("{s:s, s:f}", "exact", s, "value", mpq_get_d(q));
    q_free(s);
    return j;
}

/* "1/4 = 0.25"; a fraction too long to read is summarised by its size */
static void print_q(const char *label, const mpq_t q, const char *suffix)
{
    char *s = q_str(q);
    if (strlen(s) <= 40) {
        printf("%-13s%s = %.10g%s\n", label, s, mpq_get_d(q), suffix);
    } else {
        printf("%-13s%.10g%s\n%-13s(exact fraction of %zu / %zu digits; --json prints it)\n", label,
               mpq_get_d(q), suffix, "", mpz_sizeinbase(mpq_numref(q), 10),
               mpz_sizeinbase(mpq_denref(q), 10));
    }
    q_free(s);
}

/* Which of node v's send port, receive port and processor are busy all the
 * time (the binding constraints). */
static void saturated(const steady_solution_t *s, int v, bool full[3])
{
    mpq_t busy[3];
    mpq_inits(busy[0], busy[1], busy[2], NULL);
    steady_solution_node_busy(s, v, busy[0], busy[1], busy[2]);
    for (int k = 0; k < 3; k++)
        full[k] = mpq_cmp_ui(busy[k], 1, 1) >= 0;
    mpq_clears(busy[0], busy[1], busy[2], NULL);
}

/* "a -> b", or "a -> b via s1,s2" for a hop through switches. */
static void hop_label(const steady_platform_t *p, const steady_hop_t *h, char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "%s -> %s", steady_platform_node(p, h->src)->name,
                                  steady_platform_node(p, h->dst)->name);
    for (int k = 1; k < h->nedges && len < n; k++)
        len += (size_t)snprintf(
            buf + len, n - len, "%s%s", k == 1 ? " via " : ",",
            steady_platform_node(p, steady_platform_edge(p, h->edges[k])->src)->name);
}

/* The busy fraction of each shared resource (NULL when the platform has
 * none, or memory runs out: then no resource is shown). */
static mpq_t *resource_busy(const steady_solution_t *s)
{
    int nr = steady_platform_resource_count(steady_solution_platform(s));
    mpq_t *busy = nr > 0 ? malloc((size_t)nr * sizeof *busy) : NULL;
    if (!busy)
        return NULL;
    for (int r = 0; r < nr; r++)
        mpq_init(busy[r]);
    steady_solution_resource_busy(s, busy);
    return busy;
}

static void resource_busy_free(const steady_solution_t *s, mpq_t *busy)
{
    if (!busy)
        return;
    for (int r = 0; r < steady_platform_resource_count(steady_solution_platform(s)); r++)
        mpq_clear(busy[r]);
    free(busy);
}

/* A multicast's achievable throughput: the weights of the trees steady
 * builds from the LP (steady_trees_decompose), at most its bound; false
 * when they cannot be built (an approximate solution). */
static bool achievable(const steady_solution_t *s, mpq_t tp)
{
    steady_trees_t *t = NULL;
    if (!steady_solution_is_exact(s) || steady_trees_decompose(s, &t, NULL) != STEADY_OK)
        return false;
    mpq_set_ui(tp, 0, 1);
    for (int i = 0; i < t->ntrees; i++)
        mpq_add(tp, tp, t->trees[i].weight);
    steady_trees_destroy(t);
    return true;
}

static void describe_problem(const steady_solution_t *s, char *buf, size_t n)
{
    const steady_platform_t *p = steady_solution_platform(s);
    int ns, nt;
    const int *src = steady_solution_sources(s, &ns);
    const int *dst = steady_solution_targets(s, &nt);
    const char *op = steady_op_name(steady_solution_op(s));
    switch (steady_solution_op(s)) {
    case STEADY_OP_SCATTER:
    case STEADY_OP_BROADCAST:
        snprintf(buf, n, "%s from %s to %d target%s", op, steady_platform_node(p, src[0])->name, nt,
                 nt == 1 ? "" : "s");
        break;
    case STEADY_OP_GOSSIP:
        snprintf(buf, n, "gossip (personalized all-to-all) from %d source%s to %d target%s", ns,
                 ns == 1 ? "" : "s", nt, nt == 1 ? "" : "s");
        break;
    case STEADY_OP_REDUCE:
        snprintf(buf, n, "reduce of %d participants to %s (non-commutative operator)", ns,
                 steady_platform_node(p, dst[0])->name);
        break;
    }
}

static void print_text(const steady_solution_t *s)
{
    const steady_platform_t *p = steady_solution_platform(s);
    bool abstract = steady_platform_is_abstract(p);
    char buf[256];
    describe_problem(s, buf, sizeof buf);
    printf("%-13s%s on %s\n", "operation", buf, steady_platform_name(p));
    if (abstract) {
        printf("%-13sabstract costs (one message per edge cost, time in abstract units)\n",
               "messages");
    } else {
        char size[64];
        bytes_text(size, sizeof size, steady_solution_msg_size(s), true);
        printf("%-13s%s per message\n", "messages", size);
    }
    if (steady_solution_op(s) == STEADY_OP_REDUCE)
        printf("%-13s%.17g %s per task\n", "tasks", steady_solution_task_cost(s),
               abstract ? "work units" : "flop");

    mpq_t tp, a, b, c;
    mpq_inits(tp, a, b, c, NULL);
    steady_solution_throughput(s, tp);
    print_q("throughput", tp, abstract ? " operations per time unit" : " operations/s");
    if (!steady_solution_is_exact(s))
        printf("%-13sAPPROXIMATE: %s (floating-point values from GLPK)\n", "",
               steady_solution_note(s));
    else
        printf("%-13sexact: the rational optimum, verified\n", "");
    if (steady_solution_is_bound(s)) {
        printf("%-13sUPPER BOUND: the targets are a subset of the ranks (a multicast, whose\n"
               "%-13sexact optimum is not computed); the LP value may not be achievable\n",
               "", "");
        if (achievable(s, a))
            print_q("achievable", a,
                    abstract ? " operations per time unit: the multicast trees steady plans"
                             : " operations/s: the multicast trees steady plans");
    }
    if (mpq_sgn(tp) > 0) {
        mpq_inv(a, tp);
        printf("%-13sone operation every %.6g %s\n", "", mpq_get_d(a),
               abstract ? "time units" : "s");
    }

    printf("%-13s", "bottlenecks");
    int nb = 0;
    for (int v = 0; v < steady_platform_node_count(p); v++) {
        bool full[3];
        saturated(s, v, full);
        static const char *const kinds[3] = {"send port", "receive port", "cpu"};
        for (int k = 0; k < 3; k++)
            if (full[k])
                printf("%s%s of %s", nb++ ? ", " : "", kinds[k], steady_platform_node(p, v)->name);
    }
    mpq_t *rbusy = resource_busy(s);
    int nr = rbusy ? steady_platform_resource_count(p) : 0;
    for (int r = 0; r < nr; r++)
        if (mpq_cmp_ui(rbusy[r], 1, 1) >= 0) {
            steady_platform_resource_name(p, r, buf, sizeof buf);
            printf("%s%s", nb++ ? ", " : "", buf);
        }
    printf("%s\n", nb ? " (saturated)" : "none saturated");

    const steady_hop_graph_t *hg = steady_solution_hops(s);
    int width = 28; /* the widest label of a busy hop */
    for (int h = 0; h < steady_hop_graph_count(hg); h++) {
        steady_solution_hop_busy(s, h, a);
        if (mpq_sgn(a) == 0)
            continue;
        hop_label(p, steady_hop_graph_hop(hg, h), buf, sizeof buf);
        width = (int)strlen(buf) > width ? (int)strlen(buf) : width;
    }
    printf("\n%-*s %-10s %s\n", width, "hop", "busy", "messages per time unit");
    for (int h = 0; h < steady_hop_graph_count(hg); h++) {
        steady_solution_hop_busy(s, h, a);
        if (mpq_sgn(a) == 0)
            continue;
        hop_label(p, steady_hop_graph_hop(hg, h), buf, sizeof buf);
        printf("%-*s %-10.4g", width, buf, mpq_get_d(a));
        int shown = 0;
        for (int t = 0; t < steady_solution_type_count(s); t++) {
            steady_solution_send(s, h, t, b);
            if (mpq_sgn(b) == 0)
                continue;
            if (shown++ == 6) {
                printf(" ...");
                break;
            }
            steady_solution_type_name(s, t, buf, sizeof buf);
            char *r = q_str(b);
            printf(" %s:%s", buf, r);
            q_free(r);
        }
        putchar('\n');
    }
    if (nr > 0) {
        printf("\n%-*s %s\n", width, "shared link", "busy");
        for (int r = 0; r < nr; r++) {
            steady_platform_resource_name(p, r, buf, sizeof buf);
            printf("%-*s %.4g\n", width, buf, mpq_get_d(rbusy[r]));
        }
    }
    resource_busy_free(s, rbusy);
    if (steady_solution_op(s) == STEADY_OP_REDUCE) {
        printf("\n%-16s %-10s %s\n", "processor", "cpu busy", "tasks T(k,l,m) per time unit");
        for (int v = 0; v < steady_platform_node_count(p); v++) {
            steady_solution_node_busy(s, v, a, b, c);
            if (mpq_sgn(c) == 0)
                continue;
            printf("%-16s %-10.4g", steady_platform_node(p, v)->name, mpq_get_d(c));
            for (int q = 0; q < steady_solution_task_count(s); q++) {
                steady_solution_cons(s, v, q, b);
                if (mpq_sgn(b) == 0)
                    continue;
                int k, l, m;
                steady_solution_task(s, q, &k, &l, &m);
                char *r = q_str(b);
                printf(" T(%d,%d,%d):%s", k, l, m, r);
                q_free(r);
            }
            putchar('\n');
        }
    }
    steady_lp_stats_t st;
    steady_solution_stats(s, &st);
    printf("\nLP: %d rows, %d columns, %d nonzeros; build %.3f s, simplex %.3f s, exact %.3f s\n",
           st.rows, st.cols, st.nonzeros, st.build_s, st.solve_s, st.exact_s);
    printf("    %s formulation, %s simplex",
           steady_formulation_name(steady_solution_formulation(s)),
           steady_simplex_name(st.simplex));
    if (st.rounds > 1)
        printf(", %d rounds", st.rounds);
    if (steady_solution_formulation(s) == STEADY_FORMULATION_CUTS)
        printf(", %d cuts", st.cuts);
    putchar('\n');
    mpq_clears(tp, a, b, c, NULL);
}

static int print_json(const steady_solution_t *s)
{
    const steady_platform_t *p = steady_solution_platform(s);
    bool abstract = steady_platform_is_abstract(p);
    mpq_t tp, a, b, c;
    mpq_inits(tp, a, b, c, NULL);
    steady_solution_throughput(s, tp);
    json_t *thr = q_json(tp);
    json_object_set_new(thr, "unit", json_string(abstract ? "ops/time-unit" : "ops/s"));
    json_t *sources = json_array(), *targets = json_array();
    int ns, nt;
    const int *src = steady_solution_sources(s, &ns);
    const int *dst = steady_solution_targets(s, &nt);
    for (int i = 0; i < ns; i++)
        json_array_append_new(sources, json_string(steady_platform_node(p, src[i])->name));
    for (int i = 0; i < nt; i++)
        json_array_append_new(targets, json_string(steady_platform_node(p, dst[i])->name));
    steady_lp_stats_t st;
    steady_solution_stats(s, &st);
    json_t *j = json_pack(
        "{s:s, s:s, s:b, s:f, s:f, s:o, s:b, s:s, s:b, s:o, s:o, "
        "s:{s:i, s:i, s:i, s:f, s:f, s:f, s:s, s:s, s:i, s:i}}",
        "op", steady_op_name(steady_solution_op(s)), "platform", steady_platform_name(p),
        "abstract", abstract, "msg_size", steady_solution_msg_size(s), "task_cost",
        steady_solution_task_cost(s), "throughput", thr, "exact", steady_solution_is_exact(s),
        "note", steady_solution_note(s), "upper_bound", steady_solution_is_bound(s),
        steady_solution_op(s) == STEADY_OP_REDUCE ? "participants" : "sources", sources, "targets",
        targets, "lp", "rows", st.rows, "cols", st.cols, "nonzeros", st.nonzeros, "build_s",
        st.build_s, "solve_s", st.solve_s, "exact_s", st.exact_s, "formulation",
        steady_formulation_name(steady_solution_formulation(s)), "simplex",
        steady_simplex_name(st.simplex), "rounds", st.rounds, "cuts", st.cuts);
    if (!j) {
        mpq_clears(tp, a, b, c, NULL);
        return EXIT_FAIL;
    }

    json_t *bottlenecks = json_array(), *nodes = json_array(), *hops = json_array();
    json_t *resources = json_array();
    for (int v = 0; v < steady_platform_node_count(p); v++) {
        const char *name = steady_platform_node(p, v)->name;
        bool full[3];
        saturated(s, v, full);
        static const char *const kinds[3] = {"send", "recv", "cpu"};
        for (int k = 0; k < 3; k++)
            if (full[k])
                json_array_append_new(bottlenecks,
                                      json_pack("{s:s, s:s}", "kind", kinds[k], "node", name));
        steady_solution_node_busy(s, v, a, b, c);
        json_array_append_new(nodes, json_pack("{s:s, s:o, s:o, s:o}", "name", name, "send",
                                               q_json(a), "recv", q_json(b), "cpu", q_json(c)));
    }
    mpq_t *rbusy = resource_busy(s);
    int nr = rbusy ? steady_platform_resource_count(p) : 0;
    char rname[2 * STEADY_NAME_MAX + 32];
    for (int r = 0; r < nr; r++) {
        steady_platform_resource_name(p, r, rname, sizeof rname);
        if (mpq_cmp_ui(rbusy[r], 1, 1) >= 0)
            json_array_append_new(bottlenecks,
                                  json_pack("{s:s, s:s}", "kind", "link", "resource", rname));
        json_array_append_new(resources,
                              json_pack("{s:s, s:o}", "name", rname, "busy", q_json(rbusy[r])));
    }
    resource_busy_free(s, rbusy);
    const steady_hop_graph_t *hg = steady_solution_hops(s);
    for (int h = 0; h < steady_hop_graph_count(hg); h++) {
        const steady_hop_t *hop = steady_hop_graph_hop(hg, h);
        steady_solution_hop_busy(s, h, a);
        steady_solution_hop_time(s, h, c);
        json_t *rates = json_array(), *via = json_array();
        for (int k = 1; k < hop->nedges; k++)
            json_array_append_new(
                via,
                json_string(
                    steady_platform_node(p, steady_platform_edge(p, hop->edges[k])->src)->name));
        for (int t = 0; t < steady_solution_type_count(s); t++) {
            steady_solution_send(s, h, t, b);
            if (mpq_sgn(b) == 0)
                continue;
            char name[2 * STEADY_NAME_MAX + 2];
            steady_solution_type_name(s, t, name, sizeof name);
            json_t *r = q_json(b);
            json_object_set_new(r, "type", json_string(name));
            json_array_append_new(rates, r);
        }
        json_array_append_new(hops,
                              json_pack("{s:s, s:s, s:o, s:o, s:o, s:o}", "from",
                                        steady_platform_node(p, hop->src)->name, "to",
                                        steady_platform_node(p, hop->dst)->name, "via", via, "time",
                                        q_json(c), "busy", q_json(a), "rates", rates));
    }
    json_object_set_new(j, "bottlenecks", bottlenecks);
    if (steady_solution_is_bound(s))
        json_object_set_new(j, "achievable", achievable(s, a) ? q_json(a) : json_null());
    json_object_set_new(j, "nodes", nodes);
    json_object_set_new(j, "hops", hops);
    json_object_set_new(j, "resources", resources);
    if (steady_solution_op(s) == STEADY_OP_REDUCE) {
        json_t *tasks = json_array();
        for (int v = 0; v < steady_platform_node_count(p); v++)
            for (int q = 0; q < steady_solution_task_count(s); q++) {
                steady_solution_cons(s, v, q, b);
                if (mpq_sgn(b) == 0)
                    continue;
                int k, l, m;
                steady_solution_task(s, q, &k, &l, &m);
                json_t *r = q_json(b);
                json_object_set_new(r, "node", json_string(steady_platform_node(p, v)->name));
                json_object_set_new(r, "task", json_pack("[i,i,i]", k, l, m));
                json_array_append_new(tasks, r);
            }
        json_object_set_new(j, "tasks", tasks);
    }
    int rc =
        json_dumpf(j, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) == 0 ? EXIT_OK : EXIT_FAIL;
    putchar('\n');
    json_decref(j);
    mpq_clears(tp, a, b, c, NULL);
    return rc;
}

int cmd_solve(int argc, char **argv)
{
    enum { O_JSON = O_PROBLEM_END, O_WRITE, O_APPROX };
    static const struct option opts[] = {PROBLEM_OPTIONS,
                                         {"json", no_argument, NULL, O_JSON},
                                         {"write-lp", required_argument, NULL, O_WRITE},
                                         {"approx", no_argument, NULL, O_APPROX},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    problem_args_t a;
    problem_args_init(&a, "solve");
    bool json = false;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        int st = problem_option(&a, c, optarg);
        if (st == EXIT_USAGE)
            return st;
        if (st == EXIT_OK)
            continue;
        switch (c) {
        case O_JSON: json = true; break;
        case O_WRITE: a.sopts.write_lp = optarg; break;
        case O_APPROX: a.sopts.exact = false; break;
        case 'h': help_solve(stdout); return EXIT_OK;
        case ':': return usage_error("solve", "option needs a value (%s)", argv[optind - 1]);
        default: return usage_error("solve", "unknown option (%s)", argv[optind - 1]);
        }
    }
    if (!one_platform("solve", argc, argv))
        return EXIT_USAGE;
    steady_platform_t *p = NULL;
    steady_solution_t *sol = NULL;
    int status = problem_solve(&a, argv[optind], &p, &sol);
    if (status == EXIT_OK)
        status = json ? print_json(sol) : (print_text(sol), EXIT_OK);
    steady_solution_destroy(sol);
    steady_platform_destroy(p);
    return status;
}
