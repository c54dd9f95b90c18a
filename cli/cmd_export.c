/*
 * cmd_export.c — `steady export`: convert a platform to another format; the
 * SimGrid export comes with the SMPI hostfile (rank r runs on node r).
 */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "steady/output.h"

void help_export(FILE *out)
{
    fprintf(out,
            "usage: steady export [--format FORMAT] [-o FILE] [--hostfile FILE]\n"
            "                     [--msg-size BYTES] [--from FORMAT] [--quiet] PLATFORM\n"
            "       steady export --hostfile FILE [--from FORMAT] [--quiet] PLATFORM\n"
            "\n"
            "Writes PLATFORM in another format.  Every value is written exactly, so that\n"
            "reading the output back gives the same platform.\n"
            "\n"
            "  --format FORMAT   native, graphml or simgrid (default: named by the\n"
            "                    extension of -o: .plat or .txt, .graphml, .xml)\n"
            "  -o, --output F    output file (default: standard output)\n"
            "  --hostfile F      the SMPI hostfile: the processors and routers (the ranks)\n"
            "                    in node order, one a line (MPI rank r runs on the r-th).\n"
            "                    With --format simgrid, default: the output file with its\n"
            "                    extension replaced by .hosts; alone, only the hostfile\n"
            "                    (for smpirun -platform on your own SimGrid file)\n"
            "  --msg-size BYTES  simgrid export of an abstract-cost platform: the message\n"
            "                    size one cost unit moves per simulated second (default\n"
            "                    1MiB)\n"
            "  --from FORMAT     input format: auto (default), native, graphml, simgrid\n"
            "  --quiet           no progress line on standard error (drawn only on a\n"
            "                    terminal, while a large platform is read)\n"
            "  -h, --help        this help\n"
            "\n"
            "The SimGrid platform is one zone: every processor and router becomes a host\n"
            "(an MPI rank forwards on a router), every switch a SimGrid router, every\n"
            "channel a link, and every directed edge a route over its links.  Without\n"
            "switches and channels the zone is Floyd's, which completes the routes\n"
            "between hosts with no edge by joining edges' links; with them it is Full,\n"
            "and those routes follow steady's paths through switches.  Run it with:\n"
            "  smpirun -platform P.xml -hostfile P.hosts -np N \\\n"
            "      --cfg=smpi/simulate-computation:no --cfg=smpi/bw-factor:0:1 \\\n"
            "      --cfg=smpi/lat-factor:0:1 --cfg=network/TCP-gamma:0 \\\n"
            "      --cfg=network/crosstraffic:0 PROGRAM\n"
            "(these options make SMPI's network follow steady's model: see\n"
            "docs/platform-format.md).\n");
}

/* "out/p.xml" -> "out/p.hosts"; caller frees. */
static char *default_hostfile(const char *output)
{
    const char *slash = strrchr(output, '/');
    const char *dot = strrchr(output, '.');
    size_t stem = dot && (!slash || dot > slash) ? (size_t)(dot - output) : strlen(output);
    char *h = malloc(stem + sizeof ".hosts");
    if (h) {
        memcpy(h, output, stem);
        strcpy(h + stem, ".hosts");
    }
    return h;
}

/* The format an output file's extension names, or -1. */
static int format_of_extension(const char *output)
{
    static const struct {
        const char *ext;
        steady_format_t format;
    } known[] = {{".plat", STEADY_FORMAT_NATIVE},
                 {".txt", STEADY_FORMAT_NATIVE},
                 {".graphml", STEADY_FORMAT_GRAPHML},
                 {".xml", STEADY_FORMAT_SIMGRID}};
    size_t n = strlen(output);
    for (size_t k = 0; k < sizeof known / sizeof *known; k++) {
        size_t m = strlen(known[k].ext);
        if (n > m && strcmp(output + n - m, known[k].ext) == 0)
            return (int)known[k].format;
    }
    return -1;
}

int cmd_export(int argc, char **argv)
{
    static const struct option opts[] = {{"format", required_argument, NULL, 'f'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"hostfile", required_argument, NULL, 'H'},
                                         {"msg-size", required_argument, NULL, 'm'},
                                         {"from", required_argument, NULL, 'F'},
                                         {"quiet", no_argument, NULL, 'q'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int format = -1;
    steady_format_t from = STEADY_FORMAT_AUTO;
    const char *output = NULL, *hostfile = NULL;
    bool quiet = false;
    steady_write_options_t wopts = {0};
    steady_error_t err = {0};
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
        switch (c) {
        case 'f': {
            steady_format_t f;
            if (!parse_format("export", optarg, false, &f))
                return EXIT_USAGE;
            format = (int)f;
            break;
        }
        case 'o': output = optarg; break;
        case 'H': hostfile = optarg; break;
        case 'm':
            if (steady_parse_size(optarg, &wopts.msg_size, &err))
                return usage_error("export", "--msg-size: %s", err.msg);
            break;
        case 'F':
            if (!parse_format("export", optarg, true, &from))
                return EXIT_USAGE;
            break;
        case 'q': quiet = true; break;
        case 'h': help_export(stdout); return EXIT_OK;
        case ':': return usage_error("export", "option needs a value (%s)", argv[optind - 1]);
        default: return usage_error("export", "unknown option (%s)", argv[optind - 1]);
        }
    }
    if (!one_platform("export", argc, argv))
        return EXIT_USAGE;
    if (format < 0 && output)
        format = format_of_extension(output);
    if (format < 0 && output)
        return usage_error("export", "missing --format (-o %s ends in none of .plat, .txt, "
                                     ".graphml, .xml)",
                           output);
    if (format < 0 && !hostfile)
        return usage_error("export", "missing --format");
    if (hostfile && format >= 0 && format != STEADY_FORMAT_SIMGRID)
        return usage_error("export", "--hostfile goes with --format simgrid, or alone");

    steady_platform_t *p = NULL;
    if (read_platform("export", argv[optind], from, quiet, &p, NULL, &err))
        return report(&err);

    char *default_hosts = NULL;
    if (format == STEADY_FORMAT_SIMGRID && !hostfile && output && strcmp(output, "-") != 0)
        hostfile = default_hosts = default_hostfile(output);

    steady_output_t o;
    bool ok = format < 0 || steady_output_open(&o, output, &err);
    if (ok && format >= 0) {
        ok = steady_platform_write(p, o.f, (steady_format_t)format, &wopts, &err) == STEADY_OK;
        ok = steady_output_close(&o, ok, &err) && ok;
    }
    if (ok && hostfile) {
        steady_output_t h;
        ok = steady_output_open(&h, hostfile, &err);
        if (ok) {
            ok = steady_platform_write_hostfile(p, h.f, &err) == STEADY_OK;
            ok = steady_output_close(&h, ok, &err) && ok;
        }
    }
    free(default_hosts);
    steady_platform_destroy(p);
    return ok ? EXIT_OK : report(&err);
}
