/*
 * svg.c — steady_compare_write_svg(): the comparison as an SVG bar chart.
 *
 * Written by hand: the document is one fixed template (axes, one bar per
 * algorithm, one or two horizontal lines) whose only free text is the
 * platform name and numbers, so a few fprintf calls with XML escaping are
 * simpler than building a tree with libxml2.  The tests parse the output
 * with an XML parser.
 */
#include "../common/xml.h"
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { WIDTH = 900, HEIGHT = 440, LEFT = 80, RIGHT = 170, TOP = 56, BOTTOM = 64 };

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
    xml_escaped(out, label);
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
    for (int i = 0; i < c->nalgos; i++) {
        if (isfinite(c->algos[i].throughput) && c->algos[i].throughput > top)
            top = c->algos[i].throughput;
        if (isfinite(c->measured[i]) && c->measured[i] > top)
            top = c->measured[i];
    }
    bool any_measured = c->nextra > 0;
    for (int i = 0; i < c->nalgos; i++)
        any_measured = any_measured || isfinite(c->measured[i]);
    for (int i = 0; i < c->nextra; i++) {
        if (isfinite(c->extra[i].model) && c->extra[i].model > top)
            top = c->extra[i].model;
        if (isfinite(c->extra[i].measured) && c->extra[i].measured > top)
            top = c->extra[i].measured;
    }
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
    xml_escaped(out, steady_platform_node(p, c->root)->name);
    fputs(" on ", out);
    xml_escaped(out, steady_platform_name(p));
    fputs("</text>\n", out);
    fprintf(out, "  <text x=\"%d\" y=\"40\" fill=\"#555555\">steady-state %s throughput (%s)", LEFT,
            any_measured ? "model and measured" : "model", unit);
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

    /* bars: blue when any operator will do, orange when it must commute,
     * purple for the LP schedule's plan; measured bars green, to the right
     * of their model bar */
    int nslots = c->nalgos + c->nextra;
    double slot = nslots ? plot_w / nslots : plot_w;
    for (int i = 0; i < nslots; i++) {
        bool extra = i >= c->nalgos;
        const char *name =
            extra ? c->extra[i - c->nalgos].name : steady_algo_name(c->algos[i].algo);
        double model = extra ? c->extra[i - c->nalgos].model : c->algos[i].throughput;
        double measured = extra ? c->extra[i - c->nalgos].measured : c->measured[i];
        double ratio = extra ? model / c->optimum : c->ratio[i];
        const char *fill = extra ? "#8c6bb1" : c->algos[i].order_preserving ? "#4878a8" : "#e49444";
        bool has_model = !extra || isfinite(model), has_measured = isfinite(measured);
        double x0 = LEFT + slot * i, centre = x0 + slot * 0.5;
        double w = has_model && has_measured ? slot * 0.3 : slot * 0.6;
        double x = centre - (has_model && has_measured ? w : w / 2);
        if (has_model) {
            double tp = isfinite(model) ? model : ymax;
            double h = plot_h * tp / ymax;
            fprintf(out,
                    "  <rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\">"
                    "<title>%s: model %.6g %s (%.1f%% of the optimum)</title></rect>\n"
                    "  <text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%.4g</text>\n",
                    x, HEIGHT - BOTTOM - h, w, h, fill, name, model, unit, 100 * ratio, x + w / 2,
                    HEIGHT - BOTTOM - h - 5, model);
            x += w;
        }
        if (has_measured) {
            double h = plot_h * measured / ymax;
            fprintf(out,
                    "  <rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
                    "fill=\"#5a9e4b\"><title>%s: measured %.6g %s (%.1f%% of the optimum)"
                    "</title></rect>\n"
                    "  <text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" fill=\"#3c6e32\">"
                    "%.4g</text>\n",
                    x, HEIGHT - BOTTOM - h, w, h, name, measured, unit, 100 * measured / c->optimum,
                    x + w / 2, HEIGHT - BOTTOM - h - (has_model ? 17 : 5), measured);
        }
        fprintf(out, "  <text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\"%s>%s</text>\n", centre,
                HEIGHT - BOTTOM + 18, nslots > 10 ? " font-size=\"9\"" : "", name);
        double shown = has_model ? ratio : measured / c->optimum;
        fprintf(out,
                "  <text x=\"%.2f\" y=\"%d\" text-anchor=\"middle\" fill=\"#555555\">"
                "%.1f%%</text>\n",
                centre, HEIGHT - BOTTOM + 34, 100 * shown);
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
            "  <text x=\"%d\" y=\"%d\">needs a commutative operator</text>\n",
            LEFT, ly - 10, LEFT + 16, ly, LEFT + 200, ly - 10, LEFT + 216, ly);
    if (any_measured)
        fprintf(out,
                "  <rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"#5a9e4b\"/>\n"
                "  <text x=\"%d\" y=\"%d\">measured (SMPI)</text>\n",
                LEFT + 420, ly - 10, LEFT + 436, ly);
    fputs("</svg>\n", out);
    if (ferror(out))
        return steady_error_set(err, STEADY_EIO, "cannot write the chart");
    return STEADY_OK;
}
