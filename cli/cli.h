/*
 * cli.h — shared pieces of the steady command-line program.  The CLI uses
 * only the public headers in include/steady/.
 */
#ifndef STEADY_CLI_H
#define STEADY_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "steady/platform.h"

#define STEADY_VERSION "0.1.0"

/* Exit statuses (STYLE.md): 0 ok, 1 runtime failure, 2 bad input or usage. */
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

/* Prints "steady CMD: message (see 'steady CMD --help')" and returns 2. */
int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints err->msg on one line and returns the exit status for its code. */
int report(const steady_error_t *err);

/* Parses a --from/--format value; false after printing a usage error. */
bool parse_format(const char *cmd, const char *value, bool allow_auto, steady_format_t *f);

/* Output to a file, atomically: written to PATH.tmp and renamed on success,
 * removed on failure.  path "-" or NULL is standard output. */
typedef struct {
    FILE *f;
    const char *path;
    char *tmp;
} output_t;

bool output_open(output_t *o, const char *path, steady_error_t *err);
/* Closes and renames (ok) or closes and removes (!ok); false on a failed close. */
bool output_close(output_t *o, bool ok, steady_error_t *err);

/* Human-readable quantities: "125 MB/s", "10 us", "2.5 Gflop/s". */
void human(char *buf, size_t n, double value, const char *unit);

#endif
