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

/* value = number * mul / div: sub-unit scales divide by an exact power of
 * ten, so that "10us" is the double nearest to 1e-5, not 10 * 1e-6. */
typedef struct {
    const char *suffix;
    double mul, div;
} unit_t;

static const unit_t bandwidth_units[] = {
    {"Bps", 1, 1},          {"kBps", 1e3, 1},         {"KBps", 1e3, 1},         {"MBps", 1e6, 1},
    {"GBps", 1e9, 1},       {"TBps", 1e12, 1},        {"PBps", 1e15, 1},        {"EBps", 1e18, 1},
    {"KiBps", 1024.0, 1},   {"MiBps", 1048576.0, 1},  {"GiBps", 1073741824.0, 1},
    {"TiBps", 1099511627776.0, 1}, {"PiBps", 1125899906842624.0, 1},
    {"EiBps", 1152921504606846976.0, 1},
    {"bps", 1, 8},      {"kbps", 125.0, 1},       {"Kbps", 125.0, 1},       {"Mbps", 125e3, 1},
    {"Gbps", 125e6, 1},     {"Tbps", 125e9, 1},       {"Pbps", 125e12, 1},      {"Ebps", 125e15, 1},
    {"Kibps", 128.0, 1},    {"Mibps", 131072.0, 1},   {"Gibps", 134217728.0, 1},
    {"Tibps", 137438953472.0, 1}, {"Pibps", 140737488355328.0, 1},
    {"Eibps", 144115188075855872.0, 1},
    {NULL, 0, 0}};

static const unit_t time_units[] = {
    {"w", 604800, 1}, {"d", 86400, 1}, {"h", 3600, 1},   {"m", 60, 1},     {"s", 1, 1},
    {"ms", 1, 1e3},  {"us", 1, 1e6}, {"ns", 1, 1e9},  {"ps", 1, 1e12}, {NULL, 0, 0}};

static const unit_t size_units[] = {
    {"B", 1, 1},         {"kB", 1e3, 1},          {"KB", 1e3, 1},          {"MB", 1e6, 1},
    {"GB", 1e9, 1},      {"TB", 1e12, 1},         {"KiB", 1024.0, 1},      {"MiB", 1048576.0, 1},
    {"GiB", 1073741824.0, 1}, {"TiB", 1099511627776.0, 1}, {NULL, 0, 0}};

static const unit_t speed_units[] = {
    {"f", 1, 1},       {"kf", 1e3, 1},        {"Kf", 1e3, 1},        {"Mf", 1e6, 1},
    {"Gf", 1e9, 1},    {"Tf", 1e12, 1},       {"Pf", 1e15, 1},       {"Ef", 1e18, 1},
    {"Zf", 1e21, 1},   {"flops", 1, 1},       {"kflops", 1e3, 1},    {"Kflops", 1e3, 1},
    {"Mflops", 1e6, 1}, {"Gflops", 1e9, 1},   {"Tflops", 1e12, 1},   {"Pflops", 1e15, 1},
    {"Eflops", 1e18, 1}, {NULL, 0, 0}};

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
                          : kind == UNIT_SIZE    ? size_units
                                                 : NULL;
    for (const unit_t *u = table; u && u->suffix; u++)
        if (strcmp(end, u->suffix) == 0) {
            *value = x * u->mul / u->div;
            return true;
        }
    *why = kind == UNIT_BANDWIDTH ? "unknown bandwidth unit"
           : kind == UNIT_TIME    ? "unknown time unit"
           : kind == UNIT_SPEED   ? "unknown speed unit"
           : kind == UNIT_SIZE    ? "unknown size unit"
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
    case UNIT_SIZE: return "use B, kB, MB, GB, KiB, MiB, GiB, or no unit for bytes";
    case UNIT_NONE: break;
    }
    return "this field is a plain number";
}

steady_err_t steady_parse_size(const char *text, double *bytes, steady_error_t *err)
{
    const char *why;
    if (!parse_quantity(text, UNIT_SIZE, bytes, &why))
        return steady_error_set(err, STEADY_EINVAL, "%s (%s): %s", why, text,
                                unit_hint(UNIT_SIZE));
    if (!isfinite(*bytes) || *bytes <= 0)
        return steady_error_set(err, STEADY_EINVAL, "message size must be positive (%s)", text);
    return STEADY_OK;
}
