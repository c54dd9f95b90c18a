/*
 * svg.c — steady_compare_write_svg(): the comparison as an SVG bar chart.
 *
 * Written by hand: the document is one fixed template (axes, one bar per
 * algorithm, one or two horizontal lines) whose only free text is the
 * platform name and numbers, so a few fprintf calls with XML escaping are
 * simpler than building a tree with libxml2.  The tests parse the output
 * with an XML parser.
 */
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { WIDTH = 900, HEIGHT = 440, LEFT = 80, RIGHT = 170, TOP = 56, BOTTOM = 64 };

/* Writes text with the five XML special characters escaped. */
static void escaped(FILE *out, const char *text)
{
    for (const char *s = text; *s; s++)
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&apos;", out); break;
        default: fputc(*s, out);
        }
}

/* A round tick step (1, 2 or 5 times a power of ten) giving about 5 ticks
 * up to max. */
static double tick_step(double max)
{
    double raw = max / 5, mag = pow(10, floor(log10(raw)));
    double f = raw / mag;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

static double y_pixel(double y, double ymax)
{
    return TOP + (HEIGHT - TOP - BOTTOM) * (1 - y / ymax);
}

/* A horizontal line across the plot at value y with a label on the right,
 * shifted by dy pixels. */
static void hline(FILE *out, double y, double ymax, const char *colour, const char *dash,
                  const char *label, double dy)
{
    double py = y_pixel(y, ymax);
    fprintf(out,
            "  <line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"%s\" "
            "stroke-width=\"2\" stroke-dasharray=\"%s\"/>\n",
            LEFT, py, WIDTH - RIGHT, py, colour, dash);
    fprintf(out, "  <text x=\"%d\" y=\"%.2f\" fill=\"%s\">", WIDTH - RIGHT + 6, py + 4 + dy,
            colour);
    escaped(out, label);
    fputs("</text>\n", out);
}

steady_err_t steady_compare_write_svg(const steady_comparison_t *c, const steady_platform_t *p,
                                      FILE *out, steady_error_t *err)
{
    bool abstract = steady_platform_is_abstract(p);
    const char *unit = abstract ? "operations per time unit" : "operations/s";
    bool show_comm = isfinite(c->commutative_bound) &&
                     fabs(c->commutative_bound - c->optimum) > 1e-9 * c->optimum;
    double top = c->optimum;
    if (show_comm && c->commutative_bound > top)
        top = c->commutative_bound;
    for (int i = 0; i < c->nalgos; i++)
        if (isfinite(c->algos[i].throughput) && c->algos[i].throughput > top)
            top = c->algos[i].throughput;
    if (!(top > 0) || !isfinite(top))
        top = 1;
    double step = tick_step(top * 1.08);
    double ymax = ceil(top * 1.08 / step) * step;
    double plot_w = WIDTH - LEFT - RIGHT, plot_h = HEIGHT - TOP - BOTTOM;

    fprintf(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
            "  <rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
            WIDTH, HEIGHT, WIDTH, HEIGHT, WIDTH, HEIGHT);
    fprintf(out, "  <text x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"bold\">", LEFT);
    fprintf(out, "%s of %d processors %s ", steady_collop_name(c->op), c->ranks,
            c->op == STEADY_COLL_BROADCAST ? "from"
            : c->op == STEADY_COLL_REDUCE  ? "to"
                                           : "through");
    escaped(out, steady_platform_node(p, c->root)->name);
    fputs(" on ", out);
    escaped(out, steady_platform_name(p));
    fputs("</text>\n", out);
    fprintf(out, "  <text x=\"%d\" y=\"40\" fill=\"#555555\">steady-state model throughput (%s)",
            LEFT, unit);
    if (!abstract) {
        double size = c->msg_size;
        int k = 0;
        while (k < 3 && size >= 1024 && fmod(size, 1024) == 0) {
            size /= 1024;
            k++;
        }
        fprintf(out, ", %.15g-%s messages", size, (const char *[]){"byte", "KiB", "MiB", "GiB"}[k]);
    }
    fputs("</text>\n", out);

    /* axes and ticks */
    for (double y = 0; y <= ymax * (1 + 1e-9); y += step) {
        double py = y_pixel(y, ymax);
        fprintf(out,
                "  <line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"#dddddd\"/>\n"
                "  <text x=\"%d\" y=\"%.2f\" text-anchor=\"end\">%.4g</text>\n",
                LEFT, py, WIDTH - RIGHT, py, LEFT - 6, py + 4, y);
    }
    fprintf(out,
            "  <line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n"
            "  <line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n",
            LEFT, TOP, LEFT, HEIGHT - BOTTOM, LEFT, HEIGHT - BOTTOM, WIDTH - RIGHT,
            HEIGHT - BOTTOM);

    /* bars: blue when any operator will do, orange when it must commute */
    double slot = c->nalgos ? plot_w / c->nalgos : plot_w;
    for (int i = 0; i < c->nalgos; i++) {
        const steady_model_t *m = &c->algos[i];
        double tp = isfinite(m->throughput) ? m->throughput : ymax;
        double h = plot_h * tp / ymax, x = LEFT + slot * i + slot * 0.2;
        const char *fill = m->order_preserving ? "#4878a8" : "#e49444";
        fprintf(out,
                "  <rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\">"
                "<title>%s: %.6g %s (%.1f%% of the optimum)</title></rect>\n",
                x, HEIGHT - BOTTOM - h, slot * 0.6, h, fill, steady_algo_name(m->algo),
                m->throughput, unit, 100 * c->ratio[i]);
        fprintf(
            out,
            "  <text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%.4g</text>\n"
            "  <text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n"
            "  <text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555555\">%.1f%%</text>\n",
            x + slot * 0.3, HEIGHT - BOTTOM - h - 5, m->throughput, x + slot * 0.3,
            HEIGHT - BOTTOM + 18, steady_algo_name(m->algo), x + slot * 0.3, HEIGHT - BOTTOM + 34,
            100 * c->ratio[i]);
    }

    char label[96];
    snprintf(label, sizeof label, "%s %.4g", c->optimum_is_bound ? "LP bound" : "LP optimum",
             c->optimum);
    /* two labels closer than a line of text: the higher value's above */
    double gap = y_pixel(c->optimum, ymax) - y_pixel(c->commutative_bound, ymax);
    bool apart = show_comm && fabs(gap) < 14;
    hline(out, c->optimum, ymax, "#c03030", "6,4", label, apart ? (gap > 0 ? 8 : -8) : 0);
    if (show_comm) {
        snprintf(label, sizeof label, "commutative bound %.4g", c->commutative_bound);
        hline(out, c->commutative_bound, ymax, "#707070", "2,3", label,
              apart ? (gap > 0 ? -8 : 8) : 0);
    }
    /* legend */
    int ly = HEIGHT - BOTTOM + 52;
    fprintf(out,
            "  <rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"#4878a8\"/>\n"
            "  <text x=\"%d\" y=\"%d\">any associative operator</text>\n"
            "  <rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"#e49444\"/>\n"
            "  <text x=\"%d\" y=\"%d\">needs a commutative operator</text>\n"
            "</svg>\n",
            LEFT, ly - 10, LEFT + 16, ly, LEFT + 200, ly - 10, LEFT + 216, ly);
    if (ferror(out))
        return steady_error_set(err, STEADY_EIO, "cannot write the chart");
    return STEADY_OK;
}
