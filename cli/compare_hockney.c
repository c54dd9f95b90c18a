/*
 * compare_hockney.c — `steady compare`'s model-based columns: each
 * algorithm's Hockney prediction for one operation and for a series (a
 * message of x bytes on a hop costs overhead + latency + x / bandwidth,
 * compare/hockney.c), next to the measurement when there is one; the
 * Hoefler-Moor memory and energy per algorithm; and the algorithm the model
 * picks per message size (Nuriyev et al.'s model-based selection),
 * docs/comparison.md.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare_hockney.h"

void hockney_init(hockney_report_t *h)
{
    memset(h, 0, sizeof *h);
    h->hm = STEADY_HM_DEFAULTS;
}

int hockney_parse_sizes(hockney_report_t *h, const char *arg)
{
    char buf[256];
    if (strlen(arg) >= sizeof buf)
        return usage_error("compare", "--sizes: the list is too long (%.40s...)", arg);
    strcpy(buf, arg);
    h->nsizes = 0;
    for (char *w = buf, *next; w; w = next) {
        steady_error_t err = {0};
        if ((next = strchr(w, ',')))
            *next++ = 0;
        if (h->nsizes == HOCKNEY_SIZES_MAX)
            return usage_error("compare", "--sizes takes at most %d sizes (%s)", HOCKNEY_SIZES_MAX,
                               arg);
        if (steady_parse_size(w, &h->sizes[h->nsizes++], &err))
            return usage_error("compare", "--sizes: %s", err.msg);
    }
    return EXIT_OK;
}

int hockney_parse_constant(const char *flag, const char *arg, double *out)
{
    char *end;
    double v = strtod(arg, &end);
    if (*end || end == arg || !(v >= 0) || v > 1e12)
        return usage_error("compare", "%s takes a number from 0 to 1e12 (%s)", flag, arg);
    *out = v;
    return EXIT_OK;
}

/* The best of every algorithm for one size, per pick. */
static steady_err_t select_size(hockney_report_t *h, const steady_comparison_t *c,
                                const steady_platform_t *p, double size, int k, steady_error_t *err)
{
    steady_routes_t *r = NULL;
    steady_err_t rc = steady_routes_create(p, size, &r, err);
    h->sel[k].size = size;
    for (int pick = 0; !rc && pick < 3; pick++) {
        hockney_pick_t *s = &h->sel[k].pick[pick];
        double v[STEADY_ALGO_COUNT];
        s->value = INFINITY;
        for (int i = 0; !rc && i < c->nalgos; i++) {
            steady_hockney_t best;
            rc = steady_hockney_best(r, c->algos[i].algo, c->op, c->root, size, c->task_cost,
                                     h->ops, &h->hm, (steady_pick_t)pick, 0, &best, err);
            if (rc)
                break;
            v[i] = pick == STEADY_PICK_ONE_OP   ? best.one_op
                   : pick == STEADY_PICK_SERIES ? best.series
                                                : best.energy_series;
            s->chunks[i] = best.chunks;
            if (v[i] < s->value)
                s->value = v[i];
        }
        s->mask = 0;
        for (int i = 0; !rc && i < c->nalgos; i++)
            if (v[i] <= s->value * (1 + 1e-9))
                s->mask |= 1u << i;
    }
    steady_routes_destroy(r);
    return rc;
}

steady_err_t hockney_run(hockney_report_t *h, const steady_comparison_t *c,
                         const steady_platform_t *p, steady_error_t *err)
{
    steady_routes_t *r = NULL;
    steady_err_t rc = steady_routes_create(p, c->msg_size, &r, err);
    for (int i = 0; !rc && i < c->nalgos; i++)
        rc = steady_hockney_evaluate(r, c->algos[i].algo, c->op, c->root, c->msg_size, c->task_cost,
                                     c->algos[i].chunks, h->ops, &h->hm, &h->algos[i], err);
    steady_routes_destroy(r);
    if (h->nsizes == 0) {
        h->sizes[0] = c->msg_size;
        h->nsizes = 1;
    }
    h->nsel = 0;
    for (int k = 0; !rc && k < h->nsizes; k++, h->nsel++)
        rc = select_size(h, c, p, h->sizes[k], k, err);
    return rc;
}

/* human() without the blank it leaves after a number with no unit */
static void quantity(char *buf, size_t n, double value, const char *unit)
{
    human(buf, n, value, unit);
    size_t len = strlen(buf);
    while (len > 0 && buf[len - 1] == ' ')
        buf[--len] = 0;
}

/* "binomial (1)" or "twotreec (4) = chain (4)" */
static void pick_names(const hockney_pick_t *s, const steady_comparison_t *c, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; i < c->nalgos && len < n; i++)
        if (s->mask & (1u << i))
            len += (size_t)snprintf(buf + len, n - len, "%s%s (%d)", len ? " = " : "",
                                    steady_algo_name(c->algos[i].algo), s->chunks[i]);
}

void hockney_print(const hockney_report_t *h, const steady_comparison_t *c,
                   const steady_platform_t *p, bool measured)
{
    bool abstract = steady_platform_is_abstract(p);
    const char *tu = abstract ? "" : "s";
    char a[32], b[32], e1[32], e2[32];
    human(a, sizeof a, h->hm.energy_per_message, "J");
    human(b, sizeof b, h->hm.energy_per_byte, "J");
    human(e1, sizeof e1, h->hm.power, "W");
    printf("\nHockney model: a message of x bytes on a hop holds both ports for overhead +\n"
           "latency + x / bandwidth%s\n"
           "series of %ld operations; energy %s per message, %s per byte per hop,\n"
           "%s per rank%s; %g bytes per send descriptor\n",
           abstract ? "; abstract costs: a chunk takes cost / chunks + latency" : "", h->ops, a, b,
           e1, abstract ? " (a time unit taken as a second)" : "", h->hm.descriptor_bytes);
    printf("\n%-12s %6s  %-11s %-11s ", "algorithm", "chunks", "one op", "series/op");
    if (measured)
        printf("%-11s %-9s ", "measured/op", "meas/pred");
    printf("%-11s %-11s %s\n", "memory/rank", "energy 1 op", "energy/op");
    for (int i = 0; i < c->nalgos; i++) {
        const steady_hockney_t *m = &h->algos[i];
        char t1[32], ts[32], mem[32], meas[32] = "-", ratio[32] = "-";
        quantity(t1, sizeof t1, m->one_op, tu);
        quantity(ts, sizeof ts, m->series, tu);
        bytes_text(mem, sizeof mem, m->memory, false);
        human(e1, sizeof e1, m->energy_one_op, "J");
        human(e2, sizeof e2, m->energy_series, "J");
        printf("%-12s %6d  %-11s %-11s ", steady_algo_name(m->algo), m->chunks, t1, ts);
        if (measured) {
            double mt = 1 / c->measured[i];
            if (isfinite(c->measured[i]) && c->measured[i] > 0) {
                quantity(meas, sizeof meas, mt, tu);
                snprintf(ratio, sizeof ratio, "%.4f", mt / m->series);
            }
            printf("%-11s %-9s ", meas, ratio);
        }
        printf("%-11s %-11s %s\n", mem, e1, e2);
    }
    printf("\n(one op: A + L - L n/C, A the first chunk through the trees, L the busiest\n"
           "port per operation, n trees; series/op: (A + K L - L n/C) / K%s;\n"
           "memory/rank: the busiest rank's data buffers + a descriptor per message it\n"
           "sends; energy: e x messages + E x bytes + power x ranks x time)\n",
           measured
               ? ";\nmeasured/op: 1 / the measured throughput, meas/pred its ratio to series/op"
               : "");
    printf("\nselection (Hockney model; chunks in parentheses; '=' ties)\n");
    for (int k = 0; k < h->nsel; k++) {
        static const char *const what[3] = {"one op", "series", "least energy"};
        char size[32];
        bytes_text(size, sizeof size, h->sel[k].size, false);
        if (abstract)
            snprintf(size, sizeof size, "abstract");
        for (int q = 0; q < 3; q++) {
            char names[256], v[32];
            pick_names(&h->sel[k].pick[q], c, names, sizeof names);
            if (q == STEADY_PICK_ENERGY)
                human(v, sizeof v, h->sel[k].pick[q].value, "J/op");
            else
                quantity(v, sizeof v, h->sel[k].pick[q].value,
                         q == 1 ? (abstract ? "units/op" : "s/op") : tu);
            printf("%-10s %-13s %-40s %s\n", q ? "" : size, what[q], names, v);
        }
    }
}

json_t *hockney_json_algo(const hockney_report_t *h, int i, double measured)
{
    const steady_hockney_t *m = &h->algos[i];
    bool meas = isfinite(measured) && measured > 0;
    return json_pack(
        "{s:i, s:f, s:f, s:f, s:I, s:f, s:o, s:o, s:f, s:f, s:f, s:f, s:f, s:f, "
        "s:f}",
        "chunks", m->chunks, "fill", m->fill, "load", m->load, "one_op", m->one_op, "series_ops",
        (json_int_t)m->series_ops, "series_per_op", m->series, "measured_per_op",
        meas ? json_real(1 / measured) : json_null(), "measured_over_predicted",
        meas ? json_real(1 / measured / m->series) : json_null(), "messages", m->messages, "bytes",
        m->bytes, "buffer_bytes", m->buffer_bytes, "descriptors", m->descriptors, "memory",
        m->memory, "energy_one_op", m->energy_one_op, "energy_per_op", m->energy_series);
}

json_t *hockney_json(const hockney_report_t *h, const steady_comparison_t *c)
{
    json_t *sel = json_array();
    static const char *const key[3] = {"one_op", "series", "energy"};
    for (int k = 0; k < h->nsel; k++) {
        json_t *row = json_pack("{s:f}", "msg_size", h->sel[k].size);
        for (int q = 0; q < 3; q++) {
            const hockney_pick_t *s = &h->sel[k].pick[q];
            json_t *names = json_array();
            for (int i = 0; i < c->nalgos; i++)
                if (s->mask & (1u << i))
                    json_array_append_new(names, json_pack("{s:s, s:i}", "name",
                                                           steady_algo_name(c->algos[i].algo),
                                                           "chunks", s->chunks[i]));
            json_object_set_new(row, key[q],
                                json_pack("{s:o, s:f}", "algorithms", names, "value", s->value));
        }
        json_array_append_new(sel, row);
    }
    return json_pack("{s:I, s:f, s:f, s:f, s:f, s:o}", "series_ops", (json_int_t)h->ops,
                     "energy_per_message", h->hm.energy_per_message, "energy_per_byte",
                     h->hm.energy_per_byte, "power", h->hm.power, "descriptor_bytes",
                     h->hm.descriptor_bytes, "selection", sel);
}
