/*
 * cli.h — shared pieces of the steady command-line program.  The CLI uses
 * only the public headers in include/steady/.
 */
#ifndef STEADY_CLI_H
#define STEADY_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include <getopt.h>

#include "steady/lp.h"
#include "steady/platform.h"
#include "steady/progress.h"
#include "steady/schedule.h"

#define STEADY_VERSION "0.1.0"

/* Exit statuses (docs/design.md): 0 ok, 1 runtime failure, 2 bad input or
 * usage. */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

typedef struct {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
    void (*help)(FILE *out);
} cli_command_t;

int cmd_info(int argc, char **argv);
void help_info(FILE *out);
int cmd_gen(int argc, char **argv);
void help_gen(FILE *out);
int cmd_export(int argc, char **argv);
void help_export(FILE *out);
int cmd_solve(int argc, char **argv);
void help_solve(FILE *out);
int cmd_plan(int argc, char **argv);
void help_plan(FILE *out);
int cmd_check(int argc, char **argv);
void help_check(FILE *out);
int cmd_replay(int argc, char **argv);
void help_replay(FILE *out);
int cmd_compare(int argc, char **argv);
void help_compare(FILE *out);
int cmd_draw(int argc, char **argv);
void help_draw(FILE *out);

/* Prints a printf-style message and a newline on standard error, as one
 * line: control characters in it are escaped (steady_error_escape). */
void message(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Prints "steady CMD: message (see 'steady CMD --help')" and returns 2. */
int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* True when exactly one argument (PLATFORM) is left after the options at
 * optind; otherwise prints the usage error. */
bool one_platform(const char *cmd, int argc, char **argv);

/* Reads PLATFORM then the schedule file made for it (check, replay, draw);
 * with `valid`, refuses a schedule that steady_schedule_check rejects (exit
 * 2, its first violation), as steady-run does; the platform with
 * read_platform's progress line unless quiet.  On failure prints the error
 * and returns the exit status. */
int read_schedule(const char *cmd, const char *sched, const char *plat, steady_format_t from,
                  bool valid, bool quiet, steady_platform_t **p, steady_schedule_t **sc);

/* steady_platform_read with a progress line on standard error while it
 * reads ("steady CMD: reading the platform 120M/405M (29%), 1.2 s"), on a
 * terminal, after 0.3 s, unless quiet (steady/progress.h); the line is
 * erased once the platform is read. */
steady_err_t read_platform(const char *cmd, const char *path, steady_format_t from, bool quiet,
                           steady_platform_t **p, steady_format_t *detected, steady_error_t *err);

/* Prints err->msg on one line and returns the exit status for its code. */
int report(const steady_error_t *err);

/* Parses a --from/--format value; false after printing a usage error. */
bool parse_format(const char *cmd, const char *value, bool allow_auto, steady_format_t *f);

/* ---- the operation flags of solve and plan (problem.c) ------------------ */

enum {
    O_OP = 256,
    O_SOURCE,
    O_SOURCES,
    O_TARGETS,
    O_PART,
    O_TARGET,
    O_SIZE,
    O_TASK,
    O_TIME,
    O_FROM,
    O_QUIET,
    O_FORMULATION,
    O_SIMPLEX,
    O_THREADS,
    O_PROBLEM_END
};

#define PROBLEM_OPTIONS                                                                            \
    {"op", required_argument, NULL, O_OP}, {"source", required_argument, NULL, O_SOURCE},          \
        {"sources", required_argument, NULL, O_SOURCES},                                           \
        {"targets", required_argument, NULL, O_TARGETS},                                           \
        {"participants", required_argument, NULL, O_PART},                                         \
        {"target", required_argument, NULL, O_TARGET},                                             \
        {"msg-size", required_argument, NULL, O_SIZE},                                             \
        {"task-cost", required_argument, NULL, O_TASK},                                            \
        {"time-limit", required_argument, NULL, O_TIME}, {"quiet", no_argument, NULL, O_QUIET},    \
        {"formulation", required_argument, NULL, O_FORMULATION},                                   \
        {"simplex", required_argument, NULL, O_SIMPLEX},                                           \
        {"threads", required_argument, NULL, O_THREADS},                                           \
    {                                                                                              \
        "from", required_argument, NULL, O_FROM                                                    \
    }

typedef struct {
    const char *cmd;
    /* node names, resolved once the platform is read */
    const char *op_name, *source, *sources, *targets, *parts, *target;
    steady_problem_t prob;
    steady_solve_options_t sopts;
    steady_format_t from;
    bool quiet;                      /* --quiet: no progress line */
    steady_progress_line_t progress; /* on standard error, see problem_progress_start */
    char prefix[32];                 /* "steady solve" */
} problem_args_t;

/* The help lines of the flags above. */
extern const char *const problem_help;

void problem_args_init(problem_args_t *a, const char *cmd);
/* Takes option c (a getopt_long value): EXIT_OK if it was a problem flag,
 * EXIT_USAGE after printing a usage error, -1 if c is not a problem flag. */
int problem_option(problem_args_t *a, int c, const char *arg);
/* --period of plan and draw: "auto", "exact" or a length in (0, 1e15] into
 * *period (steady_plan_options_t's values); false if arg is none of them. */
bool parse_period(const char *arg, double *period);
/* "auto" (0) or a segment count from 1 to STEADY_SEGMENTS_LIMIT; false when
 * it is neither. */
bool parse_segments(const char *arg, long *segments);
/* Checks the flags against the operation, reads the platform, resolves the
 * names and solves.  On success *p and *sol are the caller's; otherwise the
 * error is printed and the exit status returned. */
int problem_solve(problem_args_t *a, const char *path, steady_platform_t **p,
                  steady_solution_t **sol);
/* EXIT_OK when sol is exact; otherwise prints why not ("steady CMD: time
 * limit of S s reached in the exact recovery: no WHAT without the exact
 * optimum", or the recovery's failure) and returns EXIT_FAIL. */
int problem_need_exact(const char *cmd, const steady_solve_options_t *sopts,
                       const steady_solution_t *sol, const char *what);
/* The progress line of a long solve on standard error ("steady CMD: simplex,
 * iteration 12000, 3.1 s"), unless --quiet or standard error is not a
 * terminal: start hooks it into a->sopts (problem_solve does it), clear
 * erases it before anything else is printed. */
void problem_progress_start(problem_args_t *a);
void problem_progress_clear(problem_args_t *a);
/* The progress callback of the commands that take the problem flags: the
 * progress line, and the stage remembered for --time-limit's message. */
void problem_progress_report(void *ctx, const char *stage, double done, double total);

/* Human-readable quantities: "125 MB/s", "10 us", "2.5 Gflop/s". */
void human(char *buf, size_t n, double value, const char *unit);
/* A message size: exact, in the largest of bytes, KiB, MiB, GiB that
 * divides it ("64 KiB", "65537 bytes"); or to 4 digits, in the largest of
 * B, KiB, MiB, GiB it reaches ("96.5 KiB"). */
void bytes_text(char *buf, size_t n, double bytes, bool exact);
/* A calibrated platform's values are a fit of the sizes it was measured
 * over (docs/calibration.md): a "note" line when a schedule's MPI messages
 * (bytes: the smallest and largest; 0 and 0 when not counted) leave them;
 * nothing else. */
void calibration_note(FILE *f, const steady_platform_t *p, const double bytes[2]);

#endif
