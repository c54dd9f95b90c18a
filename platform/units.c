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

/* value = number * 10^exp10 * mul.  The power of ten is applied to the
 * decimal text before conversion ("1.461517ms" is read as "1.461517e-3"),
 * so that a value with a decimal prefix is the double nearest to what was
 * written; mul (1024^k, 1/8 for bits, 60 for minutes...) is exact or a
 * single rounding. */
typedef struct {
    const char *suffix;
    int exp10;
    double mul;
} unit_t;

static const unit_t bandwidth_units[] = {{"Bps", 0, 1},
                                         {"kBps", 3, 1},
                                         {"KBps", 3, 1},
                                         {"MBps", 6, 1},
                                         {"GBps", 9, 1},
                                         {"TBps", 12, 1},
                                         {"PBps", 15, 1},
                                         {"EBps", 18, 1},
                                         {"KiBps", 0, 1024.0},
                                         {"MiBps", 0, 1048576.0},
                                         {"GiBps", 0, 1073741824.0},
                                         {"TiBps", 0, 1099511627776.0},
                                         {"PiBps", 0, 1125899906842624.0},
                                         {"EiBps", 0, 1152921504606846976.0},
                                         {"bps", 0, 0.125},
                                         {"kbps", 3, 0.125},
                                         {"Kbps", 3, 0.125},
                                         {"Mbps", 6, 0.125},
                                         {"Gbps", 9, 0.125},
                                         {"Tbps", 12, 0.125},
                                         {"Pbps", 15, 0.125},
                                         {"Ebps", 18, 0.125},
                                         {"Kibps", 0, 128.0},
                                         {"Mibps", 0, 131072.0},
                                         {"Gibps", 0, 134217728.0},
                                         {"Tibps", 0, 137438953472.0},
                                         {"Pibps", 0, 140737488355328.0},
                                         {"Eibps", 0, 144115188075855872.0},
                                         {NULL, 0, 0}};

static const unit_t time_units[] = {
    {"w", 0, 604800}, {"d", 0, 86400}, {"h", 0, 3600}, {"m", 0, 60},   {"s", 0, 1},
    {"ms", -3, 1},    {"us", -6, 1},   {"ns", -9, 1},  {"ps", -12, 1}, {NULL, 0, 0}};

static const unit_t size_units[] = {{"B", 0, 1},
                                    {"kB", 3, 1},
                                    {"KB", 3, 1},
                                    {"MB", 6, 1},
                                    {"GB", 9, 1},
                                    {"TB", 12, 1},
                                    {"KiB", 0, 1024.0},
                                    {"MiB", 0, 1048576.0},
                                    {"GiB", 0, 1073741824.0},
                                    {"TiB", 0, 1099511627776.0},
                                    {NULL, 0, 0}};

static const unit_t speed_units[] = {
    {"f", 0, 1},       {"kf", 3, 1},      {"Kf", 3, 1},     {"Mf", 6, 1},     {"Gf", 9, 1},
    {"Tf", 12, 1},     {"Pf", 15, 1},     {"Ef", 18, 1},    {"Zf", 21, 1},    {"flops", 0, 1},
    {"kflops", 3, 1},  {"Kflops", 3, 1},  {"Mflops", 6, 1}, {"Gflops", 9, 1}, {"Tflops", 12, 1},
    {"Pflops", 15, 1}, {"Eflops", 18, 1}, {NULL, 0, 0}};

/* The number in text[0, n) times 10^exp10, converted once.  Hexadecimal,
 * infinite and NaN numbers are scaled after conversion instead. */
static double shifted(const char *text, size_t n, int exp10)
{
    bool plain = true;
    for (size_t i = 0; i < n; i++)
        plain = plain && !strchr("xXnNiI", text[i]);
    if (exp10 == 0 || !plain)
        return strtod(text, NULL) * pow(10, exp10);
    size_t mant = n;
    long e = exp10;
    for (size_t i = 0; i < n; i++)
        if (text[i] == 'e' || text[i] == 'E') {
            mant = i;
            e += strtol(text + i + 1, NULL, 10);
            break;
        }
    char buf[128];
    if (mant > 100)
        return strtod(text, NULL) * pow(10, exp10);
    snprintf(buf, sizeof buf, "%.*se%ld", (int)mant, text, e);
    return strtod(buf, NULL);
}

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
            *value = shifted(text, (size_t)(end - text), u->exp10) * u->mul;
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
        return steady_error_set(err, STEADY_EINVAL, "%s (%s): %s", why, text, unit_hint(UNIT_SIZE));
    if (!isfinite(*bytes) || *bytes <= 0)
        return steady_error_set(err, STEADY_EINVAL, "message size must be positive (%s)", text);
    return STEADY_OK;
}
