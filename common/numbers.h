/*
 * common/numbers.h — number formatting shared by libsteady's modules.
 * Not installed.
 */
#ifndef STEADY_COMMON_NUMBERS_H
#define STEADY_COMMON_NUMBERS_H

/* Writes the shortest decimal that strtod reads back to exactly x
 * (integers below 1e15 without exponent: "125000000"). */
void format_double(char buf[32], double x);

#endif
