/*
 * common/array.h — growable arrays (and sorting ints), shared by libsteady's modules.  Not
 * installed.
 */
#ifndef STEADY_COMMON_ARRAY_H
#define STEADY_COMMON_ARRAY_H

#include <stdbool.h>
#include <stddef.h>

/* Makes *array (of elem-byte elements, capacity *cap) hold at least need
 * elements, doubling from `first`; false (array untouched) when memory runs
 * out. */
bool array_grow(void **array, int *cap, int need, size_t elem, int first);

/* qsort's comparison of ints, ascending. */
int array_cmp_int(const void *a, const void *b);

#endif
