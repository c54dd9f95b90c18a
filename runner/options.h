/*
 * options.h — `steady-run`'s command line (options.c): the options of its
 * three modes (a schedule, --algo, --calibrate), the failure every rank
 * reports before a run, and STEADY_RUN_FAULT.
 */
#ifndef STEADY_RUN_OPTIONS_H
#define STEADY_RUN_OPTIONS_H

#include <stdio.h>

#include "runner.h"

/* MPI counts are ints: the most bytes of one message. */
#define MAX_MSG_BYTES 2147483647.0

/* options_t.algo besides the steady_algo_t values */
enum { ALGO_NONE = -2, ALGO_MPI = -3 };

typedef struct {
    long ops;
    bool json, help, quiet;
    double timeout;
    double msg_bytes; /* 0: the schedule's */
    steady_format_t from;
    const char *sched, *plat;
    /* --algo mode */
    int algo;   /* ALGO_NONE: a schedule; ALGO_MPI; or a steady_algo_t */
    int op;     /* steady_collop_t, -1 none */
    int chunks; /* 0: the model's choice */
    const char *root;
    double task_cost; /* 0: the default */
    double optimum;   /* 0: solved by rank 0, -1: none */
    bool commutative; /* --algo mpi: the commutative operator */
    /* --calibrate mode */
    bool calibrate;
    const char *out;   /* -o */
    const char *sizes; /* --sizes, NULL: the default */
    int reps;          /* --reps, 0: the default */
    int cost_model;    /* --cost-model, -1: the default (rendezvous) */
} options_t;

/* A failure before the run: its exit status and its one-line message;
 * `alike`: every rank fails the same way (the arguments, the environment,
 * the files: all read alike), and no collective may run to agree on it
 * (SimGrid would abort on a platform that misses a route). */
typedef struct {
    int status;
    bool alike;
    char msg[STEADY_ERROR_MSG_MAX + 256];
} failure_t;

/* Sets f's message (made one line) and status; returns the status. */
int fail(failure_t *f, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* `steady-run --help`. */
void help(FILE *out);

/* Parses argv into *o ("--opt VALUE" or "--opt=VALUE", anywhere); RUN_OK
 * or a usage failure in *f. */
int parse_options(int argc, char **argv, options_t *o, failure_t *f);

/* STEADY_RUN_FAULT=RANK:KIND@OP (NULL or empty: no fault) into *fault. */
int parse_fault(const char *text, fault_t *fault, failure_t *f);

#endif
