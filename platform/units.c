/*
 * units.c — numbers with SimGrid's unit suffixes, and exact decimal output.
 *
 * The suffixes are SimGrid's (so that a value copied from a SimGrid platform
 * file means the same in a native file): decimal prefixes k M G T P E are
 * powers of 1000, binary prefixes Ki Mi Gi Ti Pi Ei powers of 1024, "B" is a
 * byte and "b" a bit.  A plain number is in the base unit (B/s, s, flop/s).
 */
#include "internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
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

/* Exponents beyond this make every double overflow or underflow: larger
 * ones are read as this, so that adding a prefix's power of ten cannot
 * overflow. */
#define EXPONENT_LIMIT 100000

/* The decimal number at the start of text: an optional sign, digits with an
 * optional decimal point (at least one digit), an optional exponent e[+-]N;
 * or inf, infinity, nan in any case.  Returns its length (0: not a number)
 * and sets *mant to the length before the exponent, *exp to the exponent
 * (saturated at +-EXPONENT_LIMIT), *zero when no digit of the mantissa is
 * nonzero.  Hexadecimal numbers, which strtod would take, are not numbers
 * here. */
static size_t decimal(const char *text, size_t *mant, long *exp, bool *zero)
{
    const char *s = text + (*text == '+' || *text == '-');
    *exp = 0;
    *zero = true;
    static const char *const words[] = {"infinity", "inf", "nan"};
    for (size_t w = 0; w < sizeof words / sizeof *words; w++) {
        size_t k = 0;
        while (words[w][k] && (s[k] | 0x20) == words[w][k])
            k++;
        if (!words[w][k]) {
            *zero = false;
            return *mant = (size_t)(s - text) + k;
        }
    }
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        return 0; /* hexadecimal */
    size_t digits = 0;
    for (bool point = false;; s++) {
        if (*s >= '0' && *s <= '9') {
            digits++;
            *zero = *zero && *s == '0';
        } else if (*s == '.' && !point) {
            point = true;
        } else {
            break;
        }
    }
    if (digits == 0)
        return 0;
    *mant = (size_t)(s - text);
    if (*s == 'e' || *s == 'E') {
        const char *e = s + 1 + (s[1] == '+' || s[1] == '-');
        if (*e >= '0' && *e <= '9') {
            for (; *e >= '0' && *e <= '9'; e++)
                if (*exp < EXPONENT_LIMIT)
                    *exp = *exp * 10 + (*e - '0');
            if (s[1] == '-')
                *exp = -*exp;
            s = e;
        }
    }
    return (size_t)(s - text);
}

bool parse_quantity(const char *text, unit_kind_t kind, double *value, const char **why)
{
    size_t mant;
    long exp;
    bool zero;
    size_t n = decimal(text, &mant, &exp, &zero);
    if (n == 0) {
        *why = "not a number";
        return false;
    }
    const char *end = text + n;
    const unit_t *u = NULL;
    if (*end != '\0') {
        const unit_t *table = kind == UNIT_BANDWIDTH ? bandwidth_units
                              : kind == UNIT_TIME    ? time_units
                              : kind == UNIT_SPEED   ? speed_units
                              : kind == UNIT_SIZE    ? size_units
                                                     : NULL;
        for (u = table; u && u->suffix && strcmp(end, u->suffix) != 0; u++)
            ;
        if (!u || !u->suffix) {
            *why = kind == UNIT_BANDWIDTH ? "unknown bandwidth unit"
                   : kind == UNIT_TIME    ? "unknown time unit"
                   : kind == UNIT_SPEED   ? "unknown speed unit"
                   : kind == UNIT_SIZE    ? "unknown size unit"
                                          : "not a number";
            return false;
        }
    }
    double x;
    if (!u || u->exp10 == 0) {
        x = strtod(text, NULL); /* stops at the unit; takes any exponent */
    } else {
        /* the prefix's power of ten is applied to the decimal text, so
         * that "1.461517ms" is the double nearest to 1.461517e-3 */
        char *buf = malloc(mant + 32);
        if (!buf) {
            *why = "out of memory";
            return false;
        }
        snprintf(buf, mant + 32, "%.*se%ld", (int)mant, text, exp + u->exp10);
        x = strtod(buf, NULL);
        free(buf);
    }
    if (u)
        x *= u->mul;
    /* a nonzero number too small for a double is not zero: the range check
     * then says it is out of range, not that it is non-positive */
    if (x == 0 && !zero)
        x = copysign(DBL_TRUE_MIN, *text == '-' ? -1.0 : 1.0);
    *value = x == 0 ? 0 : x; /* -0 is 0: a platform holds no negative zero */
    return true;
}

bool steady_parse_number(const char *text, double *value)
{
    const char *why;
    return parse_quantity(text, UNIT_NONE, value, &why);
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
    if (!(*bytes > 0))
        return steady_error_set(err, STEADY_EINVAL, "message size must be positive (%s)", text);
    if (*bytes < STEADY_MSG_SIZE_MIN || *bytes > STEADY_MSG_SIZE_MAX)
        return steady_error_set(err, STEADY_EINVAL,
                                "message size out of range (%s): from 1 byte to 1e12 bytes", text);
    return STEADY_OK;
}
