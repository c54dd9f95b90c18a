/*
 * cmd_check.c — `steady check`: validate a schedule file against its
 * platform, independently of how it was made.
 */
#include <stdlib.h>

#include "cli.h"
#include "steady/schedule.h"

void help_check(FILE *out)
{
    fprintf(out, "usage: steady check [--from FORMAT] [--quiet] SCHED PLATFORM\n"
                 "\n"
                 "Validates the schedule file SCHED against PLATFORM without trusting what the\n"
                 "planner computed: one send and one receive per node in every slot, slots\n"
                 "inside the period and disjoint, transfers on platform edges lasting their\n"
                 "slot, every message of every step moved exactly once per period,\n"
                 "dependencies between steps (lags) and the trees' structure, processor loads,\n"
                 "and the throughput the file claims (at most the optimum).  Every violation\n"
                 "is printed with its slot, tree, step and nodes.\n"
                 "\n"
                 "  --from FORMAT  platform format: auto (default), native, graphml, simgrid\n"
                 "  --quiet        no progress line on standard error (drawn only on a\n"
                 "                 terminal, while a large platform is read)\n"
                 "  -h, --help     this help\n"
                 "\n"
                 "Exit status: 0 valid, 1 invalid, 2 unreadable schedule or platform (or a\n"
                 "schedule made for another platform).\n");
}

int read_schedule(const char *cmd, const char *sched, const char *plat, steady_format_t from,
                  bool valid, bool quiet, steady_platform_t **p, steady_schedule_t **sc)
{
    steady_error_t err = {0};
    steady_violations_t v = {0};
    int status = EXIT_OK;
    *sc = NULL;
    if (read_platform(cmd, plat, from, quiet, p, NULL, &err))
        return report(&err);
    if (steady_schedule_read(sched, *p, sc, &err) ||
        (valid && steady_schedule_check(*sc, *p, &v, &err)))
        status = report(&err);
    else if (v.count > 0) {
        message("%s: invalid schedule (%ld violation%s, see 'steady check'): %s", sched, v.total,
                v.total == 1 ? "" : "s", v.lines[0]);
        status = EXIT_USAGE;
    }
    steady_violations_free(&v);
    if (status != EXIT_OK) {
        steady_schedule_destroy(*sc);
        steady_platform_destroy(*p);
        *sc = NULL;
        *p = NULL;
    }
    return status;
}

int cmd_check(int argc, char **argv)
{
    static const struct option opts[] = {{"from", required_argument, NULL, O_FROM},
                                         {"quiet", no_argument, NULL, O_QUIET},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    steady_format_t from = STEADY_FORMAT_AUTO;
    bool quiet = false;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case O_FROM:
            if (!parse_format("check", optarg, true, &from))
                return EXIT_USAGE;
            break;
        case O_QUIET: quiet = true; break;
        case 'h': help_check(stdout); return EXIT_OK;
        case ':': return usage_error("check", "option needs a value (%s)", argv[optind - 1]);
        default: return usage_error("check", "unknown option (%s)", argv[optind - 1]);
        }
    }
    if (argc - optind != 2)
        return usage_error("check", "expected SCHED PLATFORM");
    steady_platform_t *p;
    steady_schedule_t *sc;
    int status = read_schedule("check", argv[optind], argv[optind + 1], from, false, quiet, &p,
                               &sc);
    if (status != EXIT_OK)
        return status;
    char name[STEADY_ERROR_MSG_MAX]; /* every line of the report is one line */
    steady_error_escape(name, sizeof name, argv[optind]);
    steady_violations_t v = {0};
    steady_error_t err = {0};
    if (steady_schedule_check(sc, p, &v, &err)) {
        status = report(&err);
    } else if (v.count > 0) {
        for (int i = 0; i < v.count; i++)
            printf("%s: %s\n", name, v.lines[i]);
        printf("%s: INVALID (%ld violation%s)\n", name, v.total, v.total == 1 ? "" : "s");
        status = EXIT_FAIL;
    } else {
        gmp_printf("%s: valid: %ld %s per period of %Qd, throughput %Qd (%.10g), "
                   "%d trees, %d slots",
                   name, sc->ops_per_period, steady_schedule_unit(sc), sc->period, sc->throughput,
                   mpq_get_d(sc->throughput), sc->ntrees, sc->nslots);
        if (sc->segments > 1)
            printf("; %ld segments per operation: %.10g operations per %s", sc->segments,
                   steady_schedule_per_operation(sc, sc->throughput),
                   sc->abstract ? "time unit" : "second");
        putchar('\n');
    }
    steady_violations_free(&v);
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
    return status;
}
