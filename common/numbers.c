/*
 * numbers.c — exact decimal output of doubles.
 */
#include "numbers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void format_double(char buf[32], double x)
{
    if (x == floor(x) && fabs(x) < 1e15) { /* integers as integers: 125000000, not 1.25e+08 */
        snprintf(buf, 32, "%.0f", x);
        return;
    }
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, 32, "%.*g", digits, x);
        if (strtod(buf, NULL) == x || isnan(x))
            return;
    }
}
