/*
 * calibrate.h — `steady-run --calibrate` (docs/calibration.md): the
 * measurement of every hop on MPI (calibrate.c) and the Hockney fit and
 * calibrated platform written from it (calibrate_fit.c).
 */
#ifndef STEADY_CALIBRATE_H
#define STEADY_CALIBRATE_H

#include <stdio.h>

#include "runner.h"

/* The most message sizes a calibration measures. */
#define CALIB_MAX_SIZES 32

typedef struct {
    /* set by the caller */
    const steady_platform_t *p;
    int me;                        /* this rank */
    double sizes[CALIB_MAX_SIZES]; /* bytes, increasing */
    int nsizes;
    int reps;                       /* repetitions per measurement (medians) */
    steady_cost_model_t cost_model; /* what the written latency and overhead mean */
    /* calib_prepare */
    steady_hop_graph_t *g;
    int nhops;
    int *res_first, *res; /* hop h's shared resources: res[res_first[h] .. res_first[h + 1]) */
    int *match_of;        /* phase B: hop h's matching */
    int nmatch;
    int *set_hops, *set_first; /* phase C: resource r's hops: set_hops[set_first[r] .. [r + 1]) */
    int nsets;                 /* phase C experiments */
    int *feeder;               /* phase D: the hop that feeds hop h's sender, -1: none */
    /* calib_measure */
    int nresults;
    double *results;
    /* rank 0, after calib_measure: seconds per message, [h * nsizes + s] */
    double *pingpong;   /* half a round trip, alone */
    double *stream;     /* one in flight, alone */
    double *concurrent; /* one in flight, with the hop's matching at once (stream if alone) */
    double *loaded;     /* phase C, the largest size: [set index], as set_hops */
    double *fed;        /* phase D, the largest size: [h], alone but fed (0: not measured) */
} calib_t;

/* Every rank: the hops, their resources and the concurrent sets.
 * EINVAL: no hop; ENOMEM. */
steady_err_t calib_prepare(calib_t *c, steady_error_t *err);

/* Every rank, together: runs the experiments under watch w; rank 0 gets
 * the measurements.  ENOMEM. */
steady_err_t calib_measure(calib_t *c, watch_t *w, steady_error_t *err);

void calib_free(calib_t *c);

/* The shared resources of hop h, written to out (distinct); their number. */
int calib_hop_resources(const steady_platform_t *p, const steady_hop_t *h, int *out);

/* The Hockney fit t(s) = alpha + beta s of n points, ordinary least
 * squares, alpha >= 0; the largest and the root mean square relative
 * error of the fit over the points. */
typedef struct {
    double alpha, beta, max_err, rms_err;
} calib_fit_t;

/* False when the times do not grow with the size (beta <= 0). */
bool calib_fit(const double *sizes, const double *t, int n, calib_fit_t *fit);

/* What the header says about the measurement. */
typedef struct {
    const char *platform_path;
    const char *output_path;
    const char *date;     /* UTC, ISO 8601 */
    const char *launcher; /* the MPI library or SimGrid, and its configuration */
    const char *hosts;    /* where the ranks ran */
    bool json;
} calib_info_t;

/* Rank 0, after calib_measure: fits every hop, writes the calibrated
 * platform (native format, with its comment header) to out and the report
 * to standard output.  EINVAL: a fit that makes no platform (a value out
 * of range, times that do not grow); ENOMEM; EIO. */
steady_err_t calib_write(const calib_t *c, const calib_info_t *info, FILE *out,
                         steady_error_t *err);

/* The command: steady-run --calibrate [--sizes LIST] [--reps R] -o OUT
 * PLATFORM, on every rank; returns the exit status (the lowest failing
 * rank prints the one-line message). */
typedef struct {
    const char *platform, *output, *sizes; /* sizes: NULL, the default */
    steady_format_t from;
    int reps; /* 0: the default */
    steady_cost_model_t cost_model;
    double timeout;
    bool json, quiet;
} calib_cmd_t;

int calibrate_command(const calib_cmd_t *cmd, int rank, int size);

#endif
