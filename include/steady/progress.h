/*
 * steady/progress.h — progress of long computations (LP building, simplex,
 * exact recovery, decomposition, replay), and a one-line terminal display
 * of it for the command-line programs.
 *
 * The library never prints: a long computation calls the caller's
 * steady_progress_fn now and then (at most a few hundred times a second,
 * never per element) with a short static stage name.  The CLI passes
 * steady_progress_line_report, which redraws one line of standard error
 * ("\r...") when it is a terminal.
 */
#ifndef STEADY_PROGRESS_H
#define STEADY_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Called by a long computation: `stage` is a short static description
 * ("building the LP", "simplex", ...), `done` how far it is in its own unit
 * (columns, iterations, pivots, periods), negative when it cannot say,
 * and `total` the end of the stage, or 0 when unknown.  Must not call back into the computation. */
typedef void (*steady_progress_fn)(void *ctx, const char *stage, double done, double total);

/* A status line on a terminal: "steady solve: simplex, iteration 12000 (3.1 s)".
 * Zero-initialise or use steady_progress_line_init; no allocation. */
typedef struct {
    FILE *out;          /* NULL: disabled (not a terminal, or quiet) */
    const char *prefix; /* "steady solve" */
    double start;       /* when init was called (monotonic seconds) */
    double last;        /* when the line was last drawn */
    const char *stage;  /* the stage last drawn */
    int width;          /* characters on the line, to erase it */
} steady_progress_line_t;

/* Enables the line on `out` only when !quiet and out is a terminal
 * (isatty).  The line first shows after 0.3 s, so that quick runs print
 * nothing, and is redrawn at most 10 times a second or when the stage
 * changes.  O(1). */
void steady_progress_line_init(steady_progress_line_t *pl, FILE *out, const char *prefix,
                               bool quiet);

/* A steady_progress_fn: ctx is a steady_progress_line_t.  Does nothing
 * when the line is disabled. */
void steady_progress_line_report(void *ctx, const char *stage, double done, double total);

/* Erases the line (before printing results or an error). */
void steady_progress_line_clear(steady_progress_line_t *pl);

#ifdef __cplusplus
}
#endif

#endif /* STEADY_PROGRESS_H */
