/*
 * graph.c — the platform and the LP solution as Graphviz DOT
 * (steady_draw_platform, steady_draw_solution), and the helpers shared by
 * the pictures.
 *
 * DOT is written by hand, not through libcgraph: the documents are flat
 * lists of nodes and edges with attributes, and the only text that needs
 * care is a quoted string, which dot_escaped handles.  The tests parse the
 * output with dot itself.
 */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void dot_escaped(FILE *out, const char *text)
{
    for (const char *s = text; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        if (*s == '\n')
            fputs("\\n", out);
        else
            fputc(*s, out);
    }
}

void draw_rational(char *buf, size_t n, const mpq_t q)
{
    size_t len = mpz_sizeinbase(mpq_numref(q), 10) + mpz_sizeinbase(mpq_denref(q), 10) + 3;
    if (len <= 12)
        gmp_snprintf(buf, n, "%Qd", q);
    else
        snprintf(buf, n, "%.4g", mpq_get_d(q));
}

void draw_human(char *buf, size_t n, double value, const char *unit)
{
    static const struct {
        double scale;
        const char *prefix;
    } prefixes[] = {{1e12, "T"}, {1e9, "G"},  {1e6, "M"},  {1e3, "k"},  {1, ""},
                    {1e-3, "m"}, {1e-6, "u"}, {1e-9, "n"}, {1e-12, "p"}};
    int i = 4;
    if (value != 0 && isfinite(value)) {
        i = 0;
        while (i < 8 && fabs(value) < prefixes[i].scale * 0.9995)
            i++;
    }
    snprintf(buf, n, "%.3g %s%s", value / prefixes[i].scale, prefixes[i].prefix, unit);
}

const char *draw_colour(long i)
{
    static const char *const palette[] = {"#8db3e2", "#f4b183", "#a9d18e", "#ffd966",
                                          "#c9a0dc", "#9dc3e6", "#f8cbad", "#c5e0b4",
                                          "#d9d9d9", "#ff9999", "#99e6e6", "#e6b8af"};
    long n = (long)(sizeof palette / sizeof *palette);
    return palette[((i % n) + n) % n];
}

const steady_draw_options_t *draw_defaults(const steady_draw_options_t *opts,
                                           steady_draw_options_t *buf)
{
    *buf = opts ? *opts : (steady_draw_options_t){0};
    if (buf->max_trees <= 0)
        buf->max_trees = DRAW_MAX_TREES;
    if (buf->max_labels <= 0)
        buf->max_labels = DRAW_MAX_LABELS;
    if (buf->max_bars <= 0)
        buf->max_bars = DRAW_MAX_BARS;
    return buf;
}

steady_err_t draw_finish(FILE *out, steady_error_t *err)
{
    if (ferror(out))
        return steady_error_set(err, STEADY_EIO, "cannot write the picture");
    return STEADY_OK;
}

void draw_dot_header(FILE *out, const char *name, const char *title)
{
    fprintf(out, "digraph \"%s\" {\n  graph [fontname=\"Helvetica\", labelloc=t, label=\"", name);
    dot_escaped(out, title);
    fputs("\"];\n  node [fontname=\"Helvetica\", fontsize=11];\n"
          "  edge [fontname=\"Helvetica\", fontsize=9];\n",
          out);
}

/* A node's speed as the paper labels it: "speed 2" (abstract) or
 * "2.91 Gflop/s". */
static void speed_label(const steady_platform_t *p, int v, char *buf, size_t n)
{
    const steady_node_t *nd = steady_platform_node(p, v);
    if (nd->kind == STEADY_ROUTER)
        snprintf(buf, n, "router");
    else if (steady_platform_is_abstract(p))
        snprintf(buf, n, "speed %.6g", nd->speed);
    else
        draw_human(buf, n, nd->speed, "flop/s");
}

static void node_line(FILE *out, const steady_platform_t *p, int v, const char *label,
                      const char *extra)
{
    const steady_node_t *nd = steady_platform_node(p, v);
    fputs("  \"", out);
    dot_escaped(out, nd->name);
    fprintf(out, "\" [shape=%s, style=\"%s\", fillcolor=\"%s\", label=\"",
            nd->kind == STEADY_PROCESSOR ? "box" : "ellipse",
            nd->kind == STEADY_PROCESSOR ? "rounded,filled" : "filled",
            nd->kind == STEADY_PROCESSOR ? "#d9d9d9" : "white");
    dot_escaped(out, label);
    fprintf(out, "\"%s%s];\n", extra && *extra ? ", " : "", extra ? extra : "");
}

static void edge_start(FILE *out, const steady_platform_t *p, int src, int dst)
{
    fputs("  \"", out);
    dot_escaped(out, steady_platform_node(p, src)->name);
    fputs("\" -> \"", out);
    dot_escaped(out, steady_platform_node(p, dst)->name);
    fputs("\" [", out);
}

/* "c=1" or "125 MB/s, 10 us" (+ overhead) */
static void edge_attrs(const steady_platform_t *p, int e, char *buf, size_t n)
{
    const steady_edge_t *ed = steady_platform_edge(p, e);
    if (ed->cost > 0) {
        snprintf(buf, n, "c=%.6g", ed->cost);
        return;
    }
    char bw[32], lat[32], ov[32];
    draw_human(bw, sizeof bw, ed->bandwidth, "B/s");
    draw_human(lat, sizeof lat, ed->latency, "s");
    if (ed->overhead > 0) {
        draw_human(ov, sizeof ov, ed->overhead, "s");
        snprintf(buf, n, "%s\n%s\n+%s/msg", bw, lat, ov);
    } else {
        snprintf(buf, n, "%s\n%s", bw, lat);
    }
}

steady_err_t steady_draw_platform(const steady_platform_t *p, const steady_draw_options_t *opts,
                                  FILE *out, steady_error_t *err)
{
    (void)opts;
    char title[512], label[2 * STEADY_NAME_MAX + 64], a[160], b[160];
    steady_platform_summary_t sum;
    steady_err_t rc = steady_platform_summarize(p, &sum, err);
    if (rc)
        return rc;
    snprintf(title, sizeof title, "%s: %d processors, %d routers, %d edges%s",
             steady_platform_name(p), sum.processors, sum.routers, sum.edges,
             sum.abstract ? " (abstract costs c per message)" : "");
    draw_dot_header(out, "platform", title);
    int nv = steady_platform_node_count(p), ne = steady_platform_edge_count(p);
    for (int v = 0; v < nv; v++) {
        speed_label(p, v, a, sizeof a);
        snprintf(label, sizeof label, "%s\n%s", steady_platform_node(p, v)->name, a);
        node_line(out, p, v, label, NULL);
    }
    for (int e = 0; e < ne; e++) {
        const steady_edge_t *ed = steady_platform_edge(p, e);
        int back = steady_platform_find_edge(p, ed->dst, ed->src);
        edge_attrs(p, e, a, sizeof a);
        bool pair = false;
        if (back >= 0) {
            edge_attrs(p, back, b, sizeof b);
            pair = strcmp(a, b) == 0;
            if (pair && back < e)
                continue; /* drawn with its twin */
        }
        edge_start(out, p, ed->src, ed->dst);
        fputs("label=\"", out);
        dot_escaped(out, a);
        fprintf(out, "\"%s];\n", pair ? ", dir=both" : "");
    }
    fputs("}\n", out);
    return draw_finish(out, err);
}

/* ---- the solution -------------------------------------------------------- */

static void describe(const steady_solution_t *s, char *buf, size_t n)
{
    const steady_platform_t *p = steady_solution_platform(s);
    int ns, nt;
    const int *src = steady_solution_sources(s, &ns);
    const int *dst = steady_solution_targets(s, &nt);
    const char *op = steady_op_name(steady_solution_op(s));
    switch (steady_solution_op(s)) {
    case STEADY_OP_SCATTER:
    case STEADY_OP_BROADCAST:
        snprintf(buf, n, "%s from %s to %d targets", op, steady_platform_node(p, src[0])->name, nt);
        break;
    case STEADY_OP_GOSSIP: snprintf(buf, n, "gossip of %d sources to %d targets", ns, nt); break;
    case STEADY_OP_REDUCE:
        snprintf(buf, n, "reduce of %d participants to %s", ns,
                 steady_platform_node(p, dst[0])->name);
        break;
    }
}

/* Appends to buf (capacity n, used *len). */
static void append(char *buf, size_t n, size_t *len, const char *fmt, const char *a, const char *b)
{
    if (*len < n) {
        int w = snprintf(buf + *len, n - *len, fmt, a, b);
        if (w > 0)
            *len += (size_t)w < n - *len ? (size_t)w : n - *len - 1;
    }
}

steady_err_t steady_draw_solution(const steady_solution_t *s, const steady_draw_options_t *opts,
                                  FILE *out, steady_error_t *err)
{
    steady_draw_options_t o;
    draw_defaults(opts, &o);
    const steady_platform_t *p = steady_solution_platform(s);
    int nv = steady_platform_node_count(p), ne = steady_platform_edge_count(p);
    int nt = steady_solution_type_count(s), nq = steady_solution_task_count(s);
    enum { LABEL = 4096 };
    char *label = malloc(LABEL);
    if (!label)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    char what[256], tp_text[64], rate[64], name[2 * STEADY_NAME_MAX + 2], title[512];
    mpq_t q, send, recv, cpu, busy;
    mpq_inits(q, send, recv, cpu, busy, NULL);
    steady_solution_throughput(s, q);
    draw_rational(tp_text, sizeof tp_text, q);
    describe(s, what, sizeof what);
    snprintf(title, sizeof title, "%s on %s\nTP = %s operations per %s%s%s", what,
             steady_platform_name(p), tp_text,
             steady_platform_is_abstract(p) ? "time unit" : "second",
             steady_solution_is_exact(s) ? "" : " (approximate)",
             steady_solution_is_bound(s) ? " (upper bound)" : "");
    draw_dot_header(out, "solution", title);

    for (int v = 0; v < nv; v++) {
        size_t len = 0;
        speed_label(p, v, what, sizeof what);
        append(label, LABEL, &len, "%s\n%s", steady_platform_node(p, v)->name, what);
        steady_solution_node_busy(s, v, send, recv, cpu);
        bool full[3] = {mpq_cmp_ui(send, 1, 1) >= 0, mpq_cmp_ui(recv, 1, 1) >= 0,
                        mpq_cmp_ui(cpu, 1, 1) >= 0};
        int shown = 0, more = 0;
        for (int t = 0; t < nq; t++) {
            steady_solution_cons(s, v, t, q);
            if (mpq_sgn(q) == 0)
                continue;
            if (shown++ >= o.max_labels) {
                more++;
                continue;
            }
            int k, l, m;
            steady_solution_task(s, t, &k, &l, &m);
            draw_rational(rate, sizeof rate, q);
            snprintf(name, sizeof name, "T(%d,%d,%d)", k, l, m);
            append(label, LABEL, &len, "\n%s: %s", name, rate);
        }
        if (more) {
            snprintf(name, sizeof name, "%d", more);
            append(label, LABEL, &len, "\n+%s more%s", name, "");
        }
        if (full[0] || full[1] || full[2]) {
            snprintf(name, sizeof name, "%s%s%s", full[0] ? " send" : "", full[1] ? " recv" : "",
                     full[2] ? " cpu" : "");
            append(label, LABEL, &len, "\nsaturated:%s%s", name, "");
        }
        node_line(out, p, v, label,
                  full[0] || full[1] || full[2] ? "color=\"#c00000\", penwidth=2.5" : NULL);
    }
    /* per edge, the messages of each type and the busy time of the hops
     * that cross it (on a platform without switches, each edge's own) */
    const steady_hop_graph_t *hg = steady_solution_hops(s);
    mpq_t *on = malloc(((size_t)ne * (nt + 1) + 1) * sizeof *on);
    if (!on) {
        mpq_clears(q, send, recv, cpu, busy, NULL);
        free(label);
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    }
    for (size_t k = 0; k < (size_t)ne * (nt + 1); k++)
        mpq_init(on[k]);
    for (int h = 0; h < steady_hop_graph_count(hg); h++) {
        const steady_hop_t *hop = steady_hop_graph_hop(hg, h);
        steady_solution_hop_busy(s, h, busy);
        for (int k = 0; k < hop->nedges; k++) {
            mpq_t *at = &on[(size_t)hop->edges[k] * (nt + 1)];
            mpq_add(at[nt], at[nt], busy);
            for (int t = 0; t < nt; t++) {
                steady_solution_send(s, h, t, q);
                mpq_add(at[t], at[t], q);
            }
        }
    }
    for (int e = 0; e < ne; e++) {
        const steady_edge_t *ed = steady_platform_edge(p, e);
        mpq_t *at = &on[(size_t)e * (nt + 1)];
        mpq_set(busy, at[nt]);
        edge_start(out, p, ed->src, ed->dst);
        if (mpq_sgn(busy) == 0) {
            fputs("style=dotted, color=\"#999999\", arrowsize=0.5];\n", out);
            continue;
        }
        size_t len = 0;
        int shown = 0, more = 0;
        label[0] = '\0';
        for (int t = 0; t < nt; t++) {
            mpq_set(q, at[t]);
            if (mpq_sgn(q) == 0)
                continue;
            if (shown++ >= o.max_labels) {
                more++;
                continue;
            }
            steady_solution_type_name(s, t, name, sizeof name);
            draw_rational(rate, sizeof rate, q);
            append(label, LABEL, &len, len ? "\n%s: %s" : "%s: %s", name, rate);
        }
        if (more) {
            snprintf(name, sizeof name, "%d", more);
            append(label, LABEL, &len, "\n+%s more types%s", name, "");
        }
        draw_rational(rate, sizeof rate, busy);
        append(label, LABEL, &len, "\nbusy %s%s", rate, "");
        bool full = mpq_cmp_ui(busy, 1, 1) >= 0;
        fprintf(out, "penwidth=%.2f, color=\"%s\", fontcolor=\"%s\", label=\"",
                1 + 3 * mpq_get_d(busy), full ? "#c00000" : "#1f4e79", full ? "#c00000" : "black");
        dot_escaped(out, label);
        fputs("\"];\n", out);
    }
    fputs("}\n", out);
    for (size_t k = 0; k < (size_t)ne * (nt + 1); k++)
        mpq_clear(on[k]);
    free(on);
    mpq_clears(q, send, recv, cpu, busy, NULL);
    free(label);
    return draw_finish(out, err);
}
