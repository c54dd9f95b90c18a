/*
 * progress.c — the terminal status line of steady/progress.h.
 *
 * Drawn with a carriage return and erased with spaces, so that it works on
 * any terminal without escape sequences; never drawn when standard error is
 * redirected (a log file would fill with partial lines) or under --quiet.
 */
#define _POSIX_C_SOURCE 200809L
#include "steady/progress.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { LINE_MAX_WIDTH = 79 };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void steady_progress_line_init(steady_progress_line_t *pl, FILE *out, const char *prefix,
                               bool quiet)
{
    memset(pl, 0, sizeof *pl);
    pl->out = !quiet && out && isatty(fileno(out)) ? out : NULL;
    pl->prefix = prefix ? prefix : "steady";
    pl->start = now();
}

/* 1234567 -> "1.23M", 12345 -> "12345" */
static void count(char *buf, size_t n, double x)
{
    if (x >= 1e7)
        snprintf(buf, n, "%.3gM", x / 1e6);
    else
        snprintf(buf, n, "%.0f", x);
}

void steady_progress_line_report(void *ctx, const char *stage, double done, double total)
{
    steady_progress_line_t *pl = ctx;
    if (!pl || !pl->out)
        return;
    double t = now();
    bool new_stage = !pl->stage || strcmp(pl->stage, stage) != 0;
    if (t - pl->start < 0.3 || (!new_stage && t - pl->last < 0.1))
        return;
    char line[256], a[32], b[32];
    count(a, sizeof a, done);
    if (done < 0) {
        snprintf(line, sizeof line, "%s: %s, %.1f s", pl->prefix, stage, t - pl->start);
    } else if (total > 0) {
        count(b, sizeof b, total);
        snprintf(line, sizeof line, "%s: %s %s/%s (%.0f%%), %.1f s", pl->prefix, stage, a, b,
                 100 * done / total, t - pl->start);
    } else {
        snprintf(line, sizeof line, "%s: %s %s, %.1f s", pl->prefix, stage, a, t - pl->start);
    }
    int w = (int)strlen(line);
    if (w > LINE_MAX_WIDTH) {
        line[LINE_MAX_WIDTH] = '\0';
        w = LINE_MAX_WIDTH;
    }
    fprintf(pl->out, "\r%s%*s", line, pl->width > w ? pl->width - w : 0, "");
    fflush(pl->out);
    pl->width = w;
    pl->stage = stage;
    pl->last = t;
}

void steady_progress_line_clear(steady_progress_line_t *pl)
{
    if (!pl || !pl->out || pl->width == 0)
        return;
    fprintf(pl->out, "\r%*s\r", pl->width, "");
    fflush(pl->out);
    pl->width = 0;
    pl->stage = NULL;
}
