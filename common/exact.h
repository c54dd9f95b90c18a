/*
 * common/exact.h — exact arithmetic on rationals, made cheap where a plan
 * does it millions of times.  Not installed.
 *
 * Comparisons look at the doubles first: mpq_get_d truncates (rounds
 * towards zero), a non-decreasing map, so a < b gives get_d(a) <=
 * get_d(b), and get_d(a) < get_d(b) proves a < b: only equal doubles need
 * the rationals.  A plan of 10^5..10^6 transfers compares their positions
 * (rationals of a hundred digits on a measured 1,000-node platform) tens
 * of millions of times; almost every comparison is settled by the doubles.
 */
#ifndef STEADY_COMMON_EXACT_H
#define STEADY_COMMON_EXACT_H

#include <gmp.h>
#include <stdbool.h>

/* The sign of a - b, given da = mpq_get_d(a) and db = mpq_get_d(b). */
static inline int qcmp_d(const mpq_t a, double da, const mpq_t b, double db)
{
    if (da != db)
        return da < db ? -1 : 1;
    return mpq_cmp(a, b);
}

/* Relative error of a sum of at most three non-negative doubles, each the
 * truncation of a rational (2^-52 each) and added in double (2^-53 per
 * addition): below 2^-50; QSUM_SLACK keeps a wide margin above it. */
#define QSUM_SLACK 1e-13

/* The sign of x - y for non-negative x and y known as doubles dx, dy
 * within QSUM_SLACK of their size (sums of up to three truncated
 * rationals): -1 or 1 when the doubles decide it, 0 when the rationals
 * must. */
static inline int qsum_sign(double dx, double dy)
{
    double margin = QSUM_SLACK * (dx + dy);
    if (dx - dy > margin)
        return 1;
    if (dy - dx > margin)
        return -1;
    return 0;
}

/* Sums over a common denominator: a sum of rationals costs a gcd per
 * term (a 1,000-node period has 5·10^5 comm parts to sum), a sum of
 * integers none.  With D the lcm of v's denominators, v[i] * D is
 * an integer: *scaled gets those n integers (exact_unscale() frees them).
 * False, and nothing allocated, when D would outgrow EXACT_SCALE_LIMBS
 * (the rationals are then summed as such) or memory is short. */
#define EXACT_SCALE_LIMBS 64
bool exact_scale(int n, const mpq_srcptr *v, mpz_t D, mpz_t **scaled);
void exact_unscale(int n, mpz_t *scaled);

#endif
