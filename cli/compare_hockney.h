/*
 * compare_hockney.h — the model-based part of `steady compare`
 * (compare_hockney.c): every algorithm's Hockney prediction for one
 * operation and for a series, the Hoefler-Moor memory and energy columns,
 * and the algorithm the model picks per message size (docs/comparison.md,
 * "Model-based selection").
 */
#ifndef STEADY_COMPARE_HOCKNEY_H
#define STEADY_COMPARE_HOCKNEY_H

#include <jansson.h>
#include <stdbool.h>

#include "steady/compare.h"

#define HOCKNEY_SIZES_MAX 32

/* One pick: the algorithms tied at the best value (a bit per index into
 * the comparison's algos), each with its chunk count. */
typedef struct {
    unsigned mask;
    int chunks[STEADY_ALGO_COUNT];
    double value;
} hockney_pick_t;

typedef struct {
    /* the options */
    steady_hm_params_t hm;
    double sizes[HOCKNEY_SIZES_MAX]; /* --sizes; none: the comparison's message size */
    int nsizes;
    long ops; /* the series' length */
    /* the results */
    steady_hockney_t algos[STEADY_ALGO_COUNT]; /* per comparison algorithm, its chunk count */
    int nsel;
    struct {
        double size;
        hockney_pick_t pick[3]; /* steady_pick_t */
    } sel[HOCKNEY_SIZES_MAX];
} hockney_report_t;

void hockney_init(hockney_report_t *h);
/* --sizes LIST: sizes separated by commas.  EXIT_OK or EXIT_USAGE (printed). */
int hockney_parse_sizes(hockney_report_t *h, const char *arg);
/* --energy-per-message and the other constants: a number >= 0 (e-notation
 * allowed) into *out.  EXIT_OK or EXIT_USAGE (printed). */
int hockney_parse_constant(const char *flag, const char *arg, double *out);

/* Evaluates every algorithm of c (its chunk counts) and the selection per
 * size on p. */
steady_err_t hockney_run(hockney_report_t *h, const steady_comparison_t *c,
                         const steady_platform_t *p, steady_error_t *err);

/* The text tables, below compare's own. */
void hockney_print(const hockney_report_t *h, const steady_comparison_t *c,
                   const steady_platform_t *p, bool measured);
/* The "hockney" object of algorithm i's JSON row (measured: NAN if not). */
json_t *hockney_json_algo(const hockney_report_t *h, int i, double measured);
/* The top-level "hockney" object: the constants and the selection. */
json_t *hockney_json(const hockney_report_t *h, const steady_comparison_t *c);

#endif
