/*
 * array.c — growable arrays.
 */
#include "array.h"

#include <stdlib.h>

bool array_grow(void **array, int *cap, int need, size_t elem, int first)
{
    if (need <= *cap)
        return true;
    int ncap = *cap ? *cap : first;
    while (ncap < need)
        ncap *= 2;
    void *n = realloc(*array, (size_t)ncap * elem);
    if (!n)
        return false;
    *array = n;
    *cap = ncap;
    return true;
}

int array_cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}
