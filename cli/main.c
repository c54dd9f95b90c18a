/*
 * main.c — the `steady` command: dispatches to one sub-command per job.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const cli_command_t commands[] = {
    {"info", "validate a platform file and summarise it", cmd_info, help_info},
    {"gen", "generate a platform (random, tiers, cluster, ring, star)", cmd_gen, help_gen},
    {"export", "write a platform as native text, GraphML or SimGrid XML", cmd_export, help_export},
    {"solve", "optimal steady-state throughput of a series of collectives (exact LP)", cmd_solve,
     help_solve},
    {"plan", "periodic schedule achieving it, written as a schedule file", cmd_plan, help_plan},
    {"check", "validate a schedule file against its platform", cmd_check, help_check},
    {"replay", "one-port discrete-event execution of a schedule", cmd_replay, help_replay},
    {"compare", "two-tree and classic algorithms next to the optimum", cmd_compare, help_compare},
    {"draw", "pictures: platform, LP solution, trees, Gantt charts (DOT, SVG, PNG)", cmd_draw,
     help_draw},
};
enum { NCOMMANDS = sizeof commands / sizeof *commands };

static void help_main(FILE *out)
{
    fprintf(out,
            "steady %s — throughput-optimal periodic schedules for series of collective\n"
            "operations (scatter, all-to-all, reduce, broadcast) on heterogeneous platforms.\n"
            "\n"
            "usage: steady COMMAND [OPTIONS] [ARGS]\n"
            "       steady help COMMAND | steady COMMAND --help\n"
            "\n"
            "commands:\n",
            STEADY_VERSION);
    for (int i = 0; i < NCOMMANDS; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n"
                 "Platforms are read from the native text format (docs/platform-format.md),\n"
                 "GraphML or SimGrid platform XML, chosen by content.\n"
                 "Exit status: 0 ok, 1 runtime failure, 2 bad input or usage.\n");
}

static const cli_command_t *find_command(const char *name)
{
    for (int i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

/* What every command prints goes to standard output, buffered: a write
 * that fails (a full disk, /dev/full, a closed pipe) shows at the end.  A
 * command that succeeded then fails (1), with one line; one that failed
 * has said why already. */
static int finish(const char *cmd, int status)
{
    errno = 0;
    bool failed = fflush(stdout) != 0 || ferror(stdout);
    failed = fclose(stdout) != 0 || failed;
    if (failed && status == EXIT_OK) {
        message("steady%s%s: standard output: write failed (%s)", cmd ? " " : "", cmd ? cmd : "",
                strerror(errno ? errno : EIO));
        return EXIT_FAIL;
    }
    return status;
}

static int dispatch(int argc, char **argv)
{
    if (argc < 2) {
        help_main(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0) {
        help_main(stdout);
        return EXIT_OK;
    }
    if (strcmp(name, "-V") == 0 || strcmp(name, "--version") == 0) {
        printf("steady %s\n", STEADY_VERSION);
        return EXIT_OK;
    }
    if (strcmp(name, "help") == 0) {
        if (argc < 3) {
            help_main(stdout);
            return EXIT_OK;
        }
        const cli_command_t *c = find_command(argv[2]);
        if (!c) {
            message("steady: unknown command (%s): see 'steady --help'", argv[2]);
            return EXIT_USAGE;
        }
        c->help(stdout);
        return EXIT_OK;
    }
    const cli_command_t *c = find_command(name);
    if (!c) {
        message("steady: unknown command (%s): see 'steady --help'", name);
        return EXIT_USAGE;
    }
    return c->run(argc - 1, argv + 1);
}

int main(int argc, char **argv)
{
    int status = dispatch(argc, argv);
    return finish(argc > 1 && find_command(argv[1]) ? argv[1] : NULL, status);
}

/* ---- shared helpers ------------------------------------------------------ */

void message(const char *fmt, ...)
{
    char raw[STEADY_ERROR_MSG_MAX], line[STEADY_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    fprintf(stderr, "%s\n", steady_error_escape(line, sizeof line, raw));
}

int usage_error(const char *cmd, const char *fmt, ...)
{
    char what[STEADY_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    message("steady %s: %s (see 'steady %s --help')", cmd, what, cmd);
    return EXIT_USAGE;
}

bool one_platform(const char *cmd, int argc, char **argv)
{
    if (optind == argc)
        usage_error(cmd, "missing PLATFORM");
    else if (optind < argc - 1)
        usage_error(cmd, "too many arguments (%s)", argv[optind + 1]);
    return optind == argc - 1;
}

steady_err_t read_platform(const char *cmd, const char *path, steady_format_t from, bool quiet,
                           steady_platform_t **p, steady_format_t *detected, steady_error_t *err)
{
    char prefix[64];
    snprintf(prefix, sizeof prefix, "steady %s", cmd);
    steady_progress_line_t line;
    steady_progress_line_init(&line, stderr, prefix, quiet);
    steady_read_options_t opts = {.progress = steady_progress_line_report, .progress_ctx = &line};
    steady_err_t rc = steady_platform_read_with(path, from, &opts, p, detected, err);
    steady_progress_line_clear(&line);
    return rc;
}

int report(const steady_error_t *err)
{
    fprintf(stderr, "%s\n", err->msg);
    return steady_err_exit_status(err->code);
}

bool parse_format(const char *cmd, const char *value, bool allow_auto, steady_format_t *f)
{
    int v = steady_format_from_name(value);
    if (v < 0 || (!allow_auto && v == STEADY_FORMAT_AUTO)) {
        usage_error(cmd, "unknown format (%s): use %snative, graphml or simgrid", value,
                    allow_auto ? "auto, " : "");
        return false;
    }
    *f = (steady_format_t)v;
    return true;
}

void bytes_text(char *buf, size_t n, double bytes, bool exact)
{
    int k = 0;
    while (k < 3 && bytes >= 1024 && (!exact || fmod(bytes, 1024) == 0)) {
        bytes /= 1024;
        k++;
    }
    snprintf(buf, n, exact ? "%.17g %s" : "%.4g %s", bytes,
             (exact ? (const char *[]){"bytes", "KiB", "MiB", "GiB"}
                    : (const char *[]){"B", "KiB", "MiB", "GiB"})[k]);
}

void calibration_note(FILE *f, const steady_platform_t *p, const double bytes[2])
{
    double lo, hi;
    if (!steady_platform_calibrated(p, &lo, &hi) || bytes[1] <= 0 ||
        (bytes[0] >= lo && bytes[1] <= hi))
        return;
    char a[32], b[32], c[32], d[32];
    bytes_text(a, sizeof a, bytes[0], false);
    bytes_text(b, sizeof b, bytes[1], false);
    bytes_text(c, sizeof c, lo, false);
    bytes_text(d, sizeof d, hi, false);
    fprintf(f,
            "note         MPI messages of %s%s%s, on a platform calibrated over %s to %s:\n"
            "             its values beyond those sizes extrapolate the fit; calibrate over\n"
            "             the sizes sent (steady-run --calibrate --sizes)\n",
            a, bytes[1] > bytes[0] ? " to " : "", bytes[1] > bytes[0] ? b : "", c, d);
}

void human(char *buf, size_t n, double value, const char *unit)
{
    static const struct {
        double scale;
        const char *prefix;
    } prefixes[] = {{1e12, "T"}, {1e9, "G"},  {1e6, "M"},  {1e3, "k"},  {1, ""},
                    {1e-3, "m"}, {1e-6, "u"}, {1e-9, "n"}, {1e-12, "p"}};
    int i = 0;
    if (value != 0 && isfinite(value))
        while (i < (int)(sizeof prefixes / sizeof *prefixes) - 1 &&
               fabs(value) < prefixes[i].scale * 0.9995)
            i++;
    else
        i = 4;
    snprintf(buf, n, "%.4g %s%s", value / prefixes[i].scale, prefixes[i].prefix, unit);
}
