/*
 * cmd_gen.c — `steady gen`: reproducible platform generators.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>

#include "cli.h"
#include "steady/output.h"

void help_gen(FILE *out)
{
    fprintf(out, "usage: steady gen --kind KIND --nodes N [--seed S] [--format FORMAT] [-o FILE]\n"
                 "\n"
                 "Generates a platform with N processors.  The same kind, N and seed give the\n"
                 "same file on every machine.\n"
                 "\n"
                 "kinds:\n"
                 "  random   random strongly connected graph of processors, heterogeneous links\n"
                 "  tiers    WAN / MAN / LAN hierarchy with routers (like the paper's Tiers\n"
                 "           platform); processors sit in the LANs\n"
                 "  cluster  N processors behind one switch router, homogeneous\n"
                 "  ring     bidirectional ring of processors, heterogeneous\n"
                 "  star     processor P0 linked to every other processor, heterogeneous\n"
                 "\n"
                 "  --kind KIND      one of the kinds above (required)\n"
                 "  --nodes N        number of processors (required; routers come on top)\n"
                 "  --seed S         random seed, a non-negative integer (default 1)\n"
                 "  --format FORMAT  native (default), graphml or simgrid\n"
                 "  -o, --output F   output file (default: standard output)\n"
                 "  -h, --help       this help\n");
}

/* Parses a non-negative decimal integer that fits in `max`. */
static bool parse_uint(const char *s, uint64_t max, uint64_t *v)
{
    if (*s < '0' || *s > '9')
        return false;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || *end || x > max)
        return false;
    *v = x;
    return true;
}

int cmd_gen(int argc, char **argv)
{
    static const struct option opts[] = {{"kind", required_argument, NULL, 'k'},
                                         {"nodes", required_argument, NULL, 'n'},
                                         {"seed", required_argument, NULL, 's'},
                                         {"format", required_argument, NULL, 'f'},
                                         {"output", required_argument, NULL, 'o'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int kind = -1;
    uint64_t nodes = 0, seed = 1;
    bool have_nodes = false;
    steady_format_t format = STEADY_FORMAT_NATIVE;
    const char *output = NULL;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
        switch (c) {
        case 'k':
            kind = steady_gen_kind_from_name(optarg);
            if (kind < 0)
                return usage_error("gen",
                                   "unknown kind (%s): use random, tiers, cluster, ring or "
                                   "star",
                                   optarg);
            break;
        case 'n':
            if (!parse_uint(optarg, INT_MAX, &nodes)) /* the generator says what it accepts */
                return usage_error("gen", "--nodes takes a positive integer (%s)", optarg);
            have_nodes = true;
            break;
        case 's':
            if (!parse_uint(optarg, UINT64_MAX, &seed))
                return usage_error("gen", "--seed takes a non-negative integer (%s)", optarg);
            break;
        case 'f':
            if (!parse_format("gen", optarg, false, &format))
                return EXIT_USAGE;
            break;
        case 'o': output = optarg; break;
        case 'h': help_gen(stdout); return EXIT_OK;
        case ':': return usage_error("gen", "option needs a value (%s)", argv[optind - 1]);
        default: return usage_error("gen", "unknown option (%s)", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return usage_error("gen", "unexpected argument (%s)", argv[optind]);
    if (kind < 0)
        return usage_error("gen", "missing --kind");
    if (!have_nodes)
        return usage_error("gen", "missing --nodes");

    steady_error_t err = {0};
    steady_platform_t *p = NULL;
    if (steady_platform_generate((steady_gen_kind_t)kind, (int)nodes, seed, &p, &err)) {
        fprintf(stderr, "steady gen: %s\n", err.msg);
        return steady_err_exit_status(err.code);
    }
    steady_output_t o;
    bool ok = steady_output_open(&o, output, &err);
    if (ok) {
        ok = steady_platform_write(p, o.f, format, NULL, &err) == STEADY_OK;
        ok = steady_output_close(&o, ok, &err) && ok;
    }
    steady_platform_destroy(p);
    return ok ? EXIT_OK : report(&err);
}
