/*
 * draw/internal.h — pieces shared by the DOT pictures (graph.c, trees.c)
 * and the SVG charts (gantt.c).  Not installed.
 */
#ifndef STEADY_DRAW_INTERNAL_H
#define STEADY_DRAW_INTERNAL_H

#include <gmp.h>
#include <stdio.h>

#include "../common/xml.h"
#include "steady/draw.h"

enum { DRAW_MAX_TREES = 24, DRAW_MAX_LABELS = 6 };
#define DRAW_MAX_BARS 20000L

/* Writes text inside a DOT double-quoted string ('"' and '\' escaped; a
 * newline becomes the centred line break \n). */
void dot_escaped(FILE *out, const char *text);

/* "3/4" when the fraction is short, otherwise a 4-digit decimal. */
void draw_rational(char *buf, size_t n, const mpq_t q);
/* A quantity with an SI prefix: "125 MB/s", "10 us", "2.5 Gflop/s". */
void draw_human(char *buf, size_t n, double value, const char *unit);

/* opts (may be NULL) with the defaults filled in, in *buf. */
const steady_draw_options_t *draw_defaults(const steady_draw_options_t *opts,
                                           steady_draw_options_t *buf);
/* STEADY_EIO when out has had a write error. */
steady_err_t draw_finish(FILE *out, steady_error_t *err);
/* "digraph NAME {" with the graph title and the default fonts. */
void draw_dot_header(FILE *out, const char *name, const char *title);

/* Pastel fill colours, cycled. */
const char *draw_colour(long i);

/* ---- trees, whichever their source (trees.c) ---------------------------- */

typedef struct {
    steady_step_kind_t kind;
    int src, dst; /* SEND: the edge's ends */
    int type;     /* SEND: index into the forest's type names */
    int node;     /* COMPUTE: the processor */
    int k, l, m;  /* COMPUTE: task T(k,l,m) */
} dstep_t;

typedef struct {
    char weight[128]; /* "weight 1/9 (50% of TP)" */
    int nsteps;
    dstep_t *steps;
} dtree_t;

typedef struct {
    const steady_platform_t *p;
    steady_op_t op;
    int ntypes;
    char **types;   /* names, owned */
    int (*ends)[2]; /* reduce: [k, m] of each type; others: origin node, -1 */
    int nparts;
    const int *parts; /* reduce: participant nodes; scatter/broadcast: the source */
    int ntrees, total_trees;
    dtree_t *trees; /* owned */
    char title[512];
} dforest_t;

void dforest_free(dforest_t *f);
steady_err_t dforest_write(const dforest_t *f, FILE *out, steady_error_t *err);

#endif
