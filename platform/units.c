/*
 * units.c — numbers with SimGrid's unit suffixes, and exact decimal output.
 *
 * The suffixes are SimGrid's (so that a value copied from a SimGrid platform
 * file means the same in a native file): decimal prefixes k M G T P E are
 * powers of 1000, binary prefixes Ki Mi Gi Ti Pi Ei powers of 1024, "B" is a
 * byte and "b" a bit.  A plain number is in the base unit (B/s, s, flop/s).
 */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *suffix;
    double scale;
} unit_t;

static const unit_t bandwidth_units[] = {
    {"Bps", 1},          {"kBps", 1e3},         {"KBps", 1e3},         {"MBps", 1e6},
    {"GBps", 1e9},       {"TBps", 1e12},        {"PBps", 1e15},        {"EBps", 1e18},
    {"KiBps", 1024.0},   {"MiBps", 1048576.0},  {"GiBps", 1073741824.0},
    {"TiBps", 1099511627776.0}, {"PiBps", 1125899906842624.0},
    {"EiBps", 1152921504606846976.0},
    {"bps", 0.125},      {"kbps", 125.0},       {"Kbps", 125.0},       {"Mbps", 125e3},
    {"Gbps", 125e6},     {"Tbps", 125e9},       {"Pbps", 125e12},      {"Ebps", 125e15},
    {"Kibps", 128.0},    {"Mibps", 131072.0},   {"Gibps", 134217728.0},
    {"Tibps", 137438953472.0}, {"Pibps", 140737488355328.0},
    {"Eibps", 144115188075855872.0},
    {NULL, 0}};

static const unit_t time_units[] = {
    {"w", 604800}, {"d", 86400}, {"h", 3600},   {"m", 60},     {"s", 1},
    {"ms", 1e-3},  {"us", 1e-6}, {"ns", 1e-9},  {"ps", 1e-12}, {NULL, 0}};

static const unit_t speed_units[] = {
    {"f", 1},       {"kf", 1e3},        {"Kf", 1e3},        {"Mf", 1e6},
    {"Gf", 1e9},    {"Tf", 1e12},       {"Pf", 1e15},       {"Ef", 1e18},
    {"Zf", 1e21},   {"flops", 1},       {"kflops", 1e3},    {"Kflops", 1e3},
    {"Mflops", 1e6}, {"Gflops", 1e9},   {"Tflops", 1e12},   {"Pflops", 1e15},
    {"Eflops", 1e18}, {NULL, 0}};

bool parse_quantity(const char *text, unit_kind_t kind, double *value, const char **why)
{
    char *end;
    /* strtod skips leading blanks; a quantity is a single token */
    if (*text == '\0' || strchr(" \t\r\n\f\v", *text)) {
        *why = "not a number";
        return false;
    }
    double x = strtod(text, &end);
    if (end == text) {
        *why = "not a number";
        return false;
    }
    if (*end == '\0') {
        *value = x;
        return true;
    }
    const unit_t *table = kind == UNIT_BANDWIDTH ? bandwidth_units
                          : kind == UNIT_TIME    ? time_units
                          : kind == UNIT_SPEED   ? speed_units
                                                 : NULL;
    for (const unit_t *u = table; u && u->suffix; u++)
        if (strcmp(end, u->suffix) == 0) {
            *value = x * u->scale;
            return true;
        }
    *why = kind == UNIT_BANDWIDTH ? "unknown bandwidth unit"
           : kind == UNIT_TIME    ? "unknown time unit"
           : kind == UNIT_SPEED   ? "unknown speed unit"
                                  : "not a number";
    return false;
}

const char *unit_hint(unit_kind_t kind)
{
    switch (kind) {
    case UNIT_BANDWIDTH:
        return "use Bps, kBps, MBps, GBps, KiBps, MiBps, GiBps, bps, kbps, Mbps, Gbps, or no unit "
               "for bytes/s";
    case UNIT_TIME: return "use s, ms, us, ns, ps, m, h, d, w, or no unit for seconds";
    case UNIT_SPEED: return "use f, kf, Mf, Gf, Tf, Pf, Ef, or no unit for flop/s";
    case UNIT_NONE: break;
    }
    return "this field is a plain number";
}

void format_double(char buf[32], double x)
{
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, 32, "%.*g", digits, x);
        if (strtod(buf, NULL) == x || isnan(x))
            return;
    }
}
