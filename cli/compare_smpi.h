/*
 * compare_smpi.h — `steady compare --measure smpi` (compare_smpi.c): every
 * row of a comparison run under SimGrid SMPI, docs/comparison.md.
 */
#ifndef STEADY_COMPARE_SMPI_H
#define STEADY_COMPARE_SMPI_H

#include <stdbool.h>

#include "cli.h"
#include "steady/compare.h"

#define SMPI_DEFAULT_OPS         200 /* operations per row */
#define SMPI_DEFAULT_ROW_TIMEOUT 600 /* wall seconds a row may take */

typedef struct {
    /* the options */
    long ops;               /* operations per row */
    long segments;          /* the lp-schedule's segments per operation (steady plan
                               --segments); 0: automatic */
    double row_timeout;     /* wall seconds one row's run may take; 0: no limit */
    const char *cfg_name;   /* the SMPI configuration: "tuned", "default" or "user" */
    const char *const *cfg; /* its --cfg flags, given to smpirun */
    int ncfg;
    char *cfg_copy;         /* --smpi-cfg's words, split in place (owned) */
    const char **cfg_words; /* the user's flags (owned) */
    /* the platform SMPI runs on: the user's own SimGrid file when the
     * platform was read from one (an absolute path, owned), else NULL and
     * steady's export of it */
    char *simgrid_file;
    /* --calibrated: the platform the lp-schedule row is planned on and
     * steady-run reads for it, a calibration of the compared one (its
     * ranks, steady-run --calibrate), NULL: the compared platform */
    const char *calibrated; /* its path, as given */
    steady_platform_t *cal; /* read (owned) */
    /* --rows: the rows to run, NULL: all */
    char *rows_copy;   /* --rows' names, split in place (owned) */
    const char **rows; /* the names (owned) */
    int nrows;
    /* the results, besides the comparison's measured values */
    bool algo_timed_out[STEADY_ALGO_COUNT];
    bool extra_timed_out[STEADY_COMPARE_EXTRA_MAX];
    int timed_out;          /* rows killed after row_timeout */
    long lp_segments;       /* the lp-schedule's segments per operation, 0 without it */
    double lp_segment_size; /* and a segment's size (bytes, or cost units) */
    double lp_message_bytes[2]; /* its smallest and largest MPI message (0: not counted) */
} smpi_measure_t;

/* The defaults: SMPI_DEFAULT_OPS, automatic segments, the tuned
 * configuration, SMPI_DEFAULT_ROW_TIMEOUT. */
void smpi_measure_init(smpi_measure_t *s);
/* --smpi-cfg: "tuned", "default", or --cfg=NAME:VALUE flags separated by
 * blanks.  EXIT_OK, or the exit status after printing the error. */
int smpi_measure_parse_cfg(smpi_measure_t *s, const char *arg);
/* --rows: names of rows, separated by commas, for operation op (the
 * lp-schedule, an algorithm supporting op, mpi:default or mpi:NAME).
 * EXIT_OK, or the exit status after printing the error. */
int smpi_measure_parse_rows(smpi_measure_t *s, const char *arg, steady_collop_t op);
/* Whether the row is run: it is in --rows, or --rows was not given. */
bool smpi_measure_wants(const smpi_measure_t *s, const char *row);
void smpi_measure_free(smpi_measure_t *s);

/* Measures the rows of c under SMPI (those --rows names, else all): the
 * LP's periodic schedule (broadcast and reduce), every algorithm with the
 * model's chunk count, the MPI library's own collective with SMPI's default
 * selection and with a few of SMPI's algorithms.  Fills c->measured (NAN
 * for an algorithm not run) and c->extra (the rows run), and s's results.
 * A row that outlasts s->row_timeout is killed and counted in s->timed_out
 * (its measured value stays NAN); any other failure stops the measurement:
 * the error is printed and the exit status returned.  The temporary files
 * are removed on return and when a SIGINT, SIGTERM or SIGHUP ends the
 * program meanwhile. */
int smpi_measure(smpi_measure_t *s, steady_comparison_t *c, const steady_platform_t *p,
                 problem_args_t *pa);

#endif
