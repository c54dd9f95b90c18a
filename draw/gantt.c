/*
 * gantt.c — Gantt charts as SVG: one period of a schedule
 * (steady_draw_gantt, the paper's Figure 4) and the pipelined replay of a
 * few batches (steady_draw_replay, Figure 6(e)).
 *
 * Written by hand, like compare/svg.c: a chart is rows of rectangles at
 * given dates, which Graphviz cannot lay out, and the document is a fixed
 * template whose only free text (node and type names) is XML-escaped.
 * Bars are collected first, so that only the rows in use are drawn, in
 * node order (send, receive, CPU).
 */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { WIDTH = 1000, LEFT = 110, RIGHT = 20, TOP = 56, ROW = 20, AXIS = 34, LEGEND = 28 };
enum { PORT_SEND = 0, PORT_RECV = 1, PORT_CPU = 2 };

static const char *const row_kind[3] = {"send", "recv", "cpu"};

typedef struct {
    int node, port;
    double start, end;
    long colour;
    long amount; /* tasks of a CPU bar (data-n), messages of a transfer rounded */
    char label[64];
    char title[2 * STEADY_NAME_MAX + 160];
} bar_t;

typedef struct {
    const steady_platform_t *p;
    bar_t *bars;
    long nbars, cap, max_bars;
    bool overflow, oom;
    double tmax;
} chart_t;

static bar_t *add_bar(chart_t *c)
{
    if (c->nbars >= c->max_bars) {
        c->overflow = true;
        return NULL;
    }
    if (c->nbars == c->cap) {
        long ncap = c->cap ? 2 * c->cap : 256;
        bar_t *b = realloc(c->bars, (size_t)ncap * sizeof *b);
        if (!b) {
            c->oom = true;
            return NULL;
        }
        c->bars = b;
        c->cap = ncap;
    }
    bar_t *b = &c->bars[c->nbars++];
    memset(b, 0, sizeof *b);
    return b;
}

/* A round tick step (1, 2 or 5 times a power of ten), about 8 ticks. */
static double tick_step(double max)
{
    double raw = max / 8, mag = pow(10, floor(log10(raw)));
    double f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

/* Writes the chart.  `period` > 0 draws dashed lines at its multiples
 * (the replay); legend names what the colours mean ("tree", "batch"). */
static steady_err_t write_chart(chart_t *c, FILE *out, const char *title, const char *subtitle,
                                const char *legend, long ncolours, double period, const char *unit,
                                steady_error_t *err)
{
    int nv = steady_platform_node_count(c->p);
    int *row = malloc((size_t)nv * 3 * sizeof *row);
    if (!row)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    for (int i = 0; i < nv * 3; i++)
        row[i] = -1;
    for (long b = 0; b < c->nbars; b++)
        row[c->bars[b].node * 3 + c->bars[b].port] = 0;
    int nrows = 0, groups = 0;
    for (int v = 0; v < nv; v++) {
        bool any = false;
        for (int k = 0; k < 3; k++)
            if (row[v * 3 + k] == 0) {
                row[v * 3 + k] = nrows++;
                any = true;
            }
        groups += any;
    }
    double tmax = c->tmax > 0 ? c->tmax : 1;
    double plot_w = WIDTH - LEFT - RIGHT;
    double scale = plot_w / tmax;
    int plot_h = nrows * ROW;
    int height = TOP + plot_h + AXIS + LEGEND;
    fprintf(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">\n"
            "  <rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
            WIDTH, height, WIDTH, height, WIDTH, height);
    fprintf(out, "  <text x=\"%d\" y=\"20\" font-size=\"14\" font-weight=\"bold\">", 10);
    xml_escaped(out, title);
    fprintf(out, "</text>\n  <text x=\"%d\" y=\"38\" fill=\"#555555\">", 10);
    xml_escaped(out, subtitle);
    fputs("</text>\n", out);

    /* row labels and stripes */
    for (int v = 0; v < nv; v++)
        for (int k = 0; k < 3; k++) {
            int r = row[v * 3 + k];
            if (r < 0)
                continue;
            int y = TOP + r * ROW;
            if (r % 2 == 0)
                fprintf(out,
                        "  <rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%d\" "
                        "fill=\"#f4f4f4\"/>\n",
                        LEFT, y, plot_w, ROW);
            fprintf(out, "  <text class=\"row\" x=\"%d\" y=\"%d\" text-anchor=\"end\">", LEFT - 6,
                    y + ROW - 6);
            xml_escaped(out, steady_platform_node(c->p, v)->name);
            fprintf(out, " %s</text>\n", row_kind[k]);
        }
    /* time axis */
    double step = tick_step(tmax);
    int axis_y = TOP + plot_h;
    for (double t = 0; t <= tmax * (1 + 1e-9); t += step) {
        double x = LEFT + t * scale;
        fprintf(out,
                "  <line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"#dddddd\"/>\n"
                "  <text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\">%.4g</text>\n",
                x, TOP, x, axis_y + 4, x, axis_y + 16, t);
    }
    fprintf(out,
            "  <text x=\"%.0f\" y=\"%d\" text-anchor=\"end\" fill=\"#555555\">time (%s)</text>\n",
            LEFT + plot_w, axis_y + 30, unit);
    if (period > 0 && tmax / period <= 200)
        for (long q = 1; q * period <= tmax * (1 + 1e-9); q++) {
            double x = LEFT + q * period * scale;
            fprintf(out,
                    "  <line class=\"period\" x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" "
                    "stroke=\"#c03030\" stroke-dasharray=\"4,3\"/>\n",
                    x, TOP - 4, x, axis_y);
        }
    /* bars */
    for (long i = 0; i < c->nbars; i++) {
        const bar_t *b = &c->bars[i];
        int r = row[b->node * 3 + b->port];
        double x = LEFT + b->start * scale, w = (b->end - b->start) * scale;
        if (w < 0.5)
            w = 0.5;
        int y = TOP + r * ROW + 2;
        fprintf(out,
                "  <rect class=\"bar %s\" data-n=\"%ld\" x=\"%.2f\" y=\"%d\" width=\"%.2f\" "
                "height=\"%d\" fill=\"%s\" stroke=\"#404040\" stroke-width=\"0.5\"><title>",
                row_kind[b->port], b->amount, x, y, w, ROW - 4, draw_colour(b->colour));
        xml_escaped(out, b->title);
        fputs("</title></rect>\n", out);
        if (w > 6.5 * (double)strlen(b->label) + 4) {
            fprintf(out, "  <text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\" font-size=\"10\">",
                    x + w / 2, y + ROW - 8);
            xml_escaped(out, b->label);
            fputs("</text>\n", out);
        }
    }
    /* legend */
    int ly = axis_y + AXIS + 10;
    long shown = ncolours < 12 ? ncolours : 12;
    for (long i = 0; i < shown; i++) {
        int x = LEFT + (int)i * 70;
        fprintf(out,
                "  <rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>\n"
                "  <text x=\"%d\" y=\"%d\">%s %ld</text>\n",
                x, ly - 10, draw_colour(i), x + 16, ly, legend, i + (legend[0] == 't'));
    }
    if (ncolours > shown)
        fprintf(out, "  <text x=\"%d\" y=\"%d\">...</text>\n", LEFT + (int)shown * 70, ly);
    fputs("</svg>\n", out);
    free(row);
    (void)groups;
    return draw_finish(out, err);
}

static bool same_platform(const steady_schedule_t *sc, const steady_platform_t *p,
                          steady_error_t *err)
{
    if (sc->platform_nodes == steady_platform_node_count(p) &&
        sc->platform_edges == steady_platform_edge_count(p))
        return true;
    steady_error_set(err, STEADY_EINVAL, "the schedule is for a platform of %d nodes and %d edges",
                     sc->platform_nodes, sc->platform_edges);
    return false;
}

/* "[0,2]" and "T(0,1,2)" */
static void step_label(const steady_schedule_t *sc, int tree, int step, char *buf, size_t n)
{
    const steady_sched_step_t *st = &sc->trees[tree].steps[step];
    if (st->kind == STEADY_STEP_SEND)
        snprintf(buf, n, "%s", sc->types[st->type]);
    else
        snprintf(buf, n, "T(%d,%d,%d)", st->k, st->l, st->m);
}

/* The two bars of a transfer from u to v. */
static void transfer_bars(chart_t *c, int u, int v, double start, double end, long colour,
                          long amount, const char *label, const char *detail)
{
    for (int side = 0; side < 2; side++) {
        bar_t *b = add_bar(c);
        if (!b)
            return;
        b->node = side == 0 ? u : v;
        b->port = side == 0 ? PORT_SEND : PORT_RECV;
        b->start = start;
        b->end = end;
        b->colour = colour;
        b->amount = amount;
        snprintf(b->label, sizeof b->label, "%s", label);
        snprintf(b->title, sizeof b->title, "%s %s %s: %s, %s", steady_platform_node(c->p, u)->name,
                 side == 0 ? "->" : "=>", steady_platform_node(c->p, v)->name, label, detail);
    }
}

steady_err_t steady_draw_gantt(const steady_schedule_t *sc, const steady_platform_t *p,
                               const steady_draw_options_t *opts, FILE *out, steady_error_t *err)
{
    steady_draw_options_t o;
    draw_defaults(opts, &o);
    if (!same_platform(sc, p, err))
        return STEADY_EINVAL;
    chart_t c = {.p = p, .max_bars = o.max_bars, .tmax = mpq_get_d(sc->period)};
    int nv = steady_platform_node_count(p);
    double *cpu = calloc((size_t)nv + 1, sizeof *cpu);
    if (!cpu)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    char label[64], detail[160];
    mpq_t w;
    mpq_init(w);
    /* a sender's transfers in a slot (all to one peer) run one after
     * another: each gets its share of the slot, by the time it takes */
    double *busy = calloc((size_t)nv + 1, sizeof *busy), *at = calloc((size_t)nv + 1, sizeof *at);
    if (!busy || !at) {
        free(busy);
        free(at);
        free(cpu);
        mpq_clear(w);
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    }
    for (int i = 0; i < sc->nslots; i++) {
        const steady_sched_slot_t *sl = &sc->slots[i];
        double start = mpq_get_d(sl->start), length = mpq_get_d(sl->duration);
        for (int pass = 0; pass < 2; pass++)
            for (int j = 0; j < sl->ntransfers; j++) {
                const steady_sched_transfer_t *tx = &sl->transfers[j];
                const steady_sched_step_t *st = &sc->trees[tx->tree].steps[tx->step];
                int u = steady_sched_step_src(sc, p, st), v = steady_sched_step_dst(sc, p, st);
                steady_hop_t h = {.src = u, .dst = v};
                h.edges = (int *)steady_sched_step_edges(sc, st, &h.nedges);
                steady_exact_hop_time(p, &h, sc->msg_size, w);
                double t = mpq_get_d(w) * (mpq_get_d(tx->to) - mpq_get_d(tx->from));
                if (pass == 0) {
                    busy[u] += t;
                    continue;
                }
                double from = start + at[u], share = busy[u] > 0 ? length * t / busy[u] : length;
                at[u] += share;
                step_label(sc, tx->tree, tx->step, label, sizeof label);
                snprintf(detail, sizeof detail,
                         "tree %d, messages [%.6g, %.6g), slot %d, time [%.6g, %.6g)", tx->tree + 1,
                         mpq_get_d(tx->from), mpq_get_d(tx->to), i + 1, from, from + share);
                transfer_bars(&c, u, v, from, from + share, tx->tree,
                              (long)ceil(mpq_get_d(tx->to) - mpq_get_d(tx->from)), label, detail);
            }
        for (int j = 0; j < sl->ntransfers; j++) {
            const steady_sched_transfer_t *tx = &sl->transfers[j];
            int u = steady_sched_step_src(sc, p, &sc->trees[tx->tree].steps[tx->step]);
            busy[u] = at[u] = 0;
        }
    }
    free(busy);
    free(at);
    for (int i = 0; i < sc->ncompute; i++) {
        const steady_sched_compute_t *ce = &sc->compute[i];
        bar_t *b = add_bar(&c);
        if (!b)
            break;
        steady_exact_task_time(p, ce->node, sc->task_cost, w);
        b->node = ce->node;
        b->port = PORT_CPU;
        b->start = cpu[ce->node];
        b->end = cpu[ce->node] += (double)ce->count * mpq_get_d(w);
        b->colour = ce->tree;
        b->amount = ce->count;
        step_label(sc, ce->tree, ce->step, label, sizeof label);
        snprintf(b->label, sizeof b->label, "%s", label);
        if (ce->count > 1) {
            size_t len = strlen(b->label);
            snprintf(b->label + len, sizeof b->label - len, " x%ld", ce->count);
        }
        snprintf(b->title, sizeof b->title, "%s on %s: %ld task%s of tree %d, time [%.6g, %.6g)",
                 label, steady_platform_node(p, ce->node)->name, ce->count,
                 ce->count == 1 ? "" : "s", ce->tree + 1, b->start, b->end);
        if (b->end > c.tmax)
            c.tmax = b->end;
    }
    mpq_clear(w);
    free(cpu);
    steady_err_t rc;
    if (c.oom) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
    } else if (c.overflow) {
        rc = steady_error_set(err, STEADY_EINVAL,
                              "one period has more than %ld bars: too many to draw", c.max_bars);
    } else {
        char title[512], sub[512];
        snprintf(title, sizeof title, "One period of the %s schedule on %s", steady_op_name(sc->op),
                 steady_platform_name(p));
        snprintf(sub, sizeof sub, "period %.6g %s, %ld %s per period, %d slots, %d trees (colours)",
                 mpq_get_d(sc->period), sc->abstract ? "time units" : "s", sc->ops_per_period,
                 steady_schedule_unit(sc), sc->nslots, sc->ntrees);
        rc = write_chart(&c, out, title, sub, "tree", sc->ntrees, 0,
                         sc->abstract ? "time units" : "s", err);
    }
    free(c.bars);
    return rc;
}

/* ---- the replay -------------------------------------------------------- */

typedef struct {
    chart_t *c;
    const steady_schedule_t *sc;
} replay_ctx_t;

static void on_event(void *arg, const steady_replay_event_t *ev)
{
    replay_ctx_t *rc = arg;
    chart_t *c = rc->c;
    char label[64], detail[160];
    step_label(rc->sc, ev->tree, ev->step, label, sizeof label);
    if (ev->kind == STEADY_STEP_SEND) {
        snprintf(detail, sizeof detail,
                 "batch %ld (period %ld), %.6g message%s of tree %d, time [%.6g, %.6g)", ev->batch,
                 ev->period, ev->amount, ev->amount == 1 ? "" : "s", ev->tree + 1, ev->start,
                 ev->end);
        transfer_bars(c, ev->node, ev->peer, ev->start, ev->end, ev->batch, (long)ceil(ev->amount),
                      label, detail);
    } else {
        bar_t *b = add_bar(c);
        if (!b)
            return;
        b->node = ev->node;
        b->port = PORT_CPU;
        b->start = ev->start;
        b->end = ev->end;
        b->colour = ev->batch;
        b->amount = (long)ev->amount;
        snprintf(b->label, sizeof b->label, "%s", label);
        snprintf(b->title, sizeof b->title,
                 "%s on %s: batch %ld (period %ld), %ld task%s of tree %d, time [%.6g, %.6g)",
                 label, steady_platform_node(c->p, ev->node)->name, ev->batch, ev->period,
                 b->amount, b->amount == 1 ? "" : "s", ev->tree + 1, ev->start, ev->end);
    }
    if (ev->done > c->tmax)
        c->tmax = ev->done;
}

steady_err_t steady_draw_replay(const steady_schedule_t *sc, const steady_platform_t *p,
                                long periods, const steady_draw_options_t *opts, FILE *out,
                                steady_replay_t *res, steady_error_t *err)
{
    steady_draw_options_t o;
    draw_defaults(opts, &o);
    if (!same_platform(sc, p, err))
        return STEADY_EINVAL;
    if (periods <= 0 || sc->ops_per_period <= 0 || periods > 1000000000L / sc->ops_per_period)
        return steady_error_set(err, STEADY_EINVAL,
                                "the number of periods to replay must be positive and small "
                                "(%ld)",
                                periods);
    chart_t c = {.p = p, .max_bars = o.max_bars};
    replay_ctx_t ctx = {.c = &c, .sc = sc};
    steady_replay_observer_t obs = {.event = on_event, .ctx = &ctx};
    steady_replay_t r;
    /* the operations of `periods` batches of messages */
    long ops = (periods * sc->ops_per_period + sc->segments - 1) / sc->segments;
    steady_err_t rc = steady_schedule_replay_observed(sc, p, ops, &obs, &r, err);
    if (rc) {
        free(c.bars);
        return rc;
    }
    if (res)
        *res = r;
    if (c.oom) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
    } else if (c.overflow) {
        rc = steady_error_set(err, STEADY_EINVAL,
                              "the replay of %ld periods has more than %ld bars: too many to "
                              "draw (replay fewer periods)",
                              periods, c.max_bars);
    } else {
        char title[512], sub[512];
        snprintf(title, sizeof title,
                 "Replay of %ld operations (%ld batches) of the %s schedule on %s", ops, periods,
                 steady_op_name(sc->op), steady_platform_name(p));
        snprintf(sub, sizeof sub,
                 "self-timed one-port execution: makespan %.6g, %.4g operations per %s (%.1f%% of "
                 "TP); dashed lines every period (%.6g); colours are batches",
                 r.makespan, r.achieved, sc->abstract ? "time unit" : "s", 100 * r.ratio,
                 mpq_get_d(sc->period));
        rc = write_chart(&c, out, title, sub, "batch", periods, mpq_get_d(sc->period),
                         sc->abstract ? "time units" : "s", err);
    }
    free(c.bars);
    return rc;
}
