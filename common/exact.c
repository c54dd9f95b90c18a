/*
 * common/exact.c — sums over a common denominator (exact.h).
 */
#include "exact.h"

#include <stdlib.h>

bool exact_scale(int n, const mpq_srcptr *v, mpz_t D, mpz_t **scaled)
{
    *scaled = NULL;
    mpz_set_ui(D, 1);
    for (int i = 0; i < n; i++) {
        mpz_lcm(D, D, mpq_denref(v[i]));
        if (mpz_size(D) > EXACT_SCALE_LIMBS)
            return false;
    }
    mpz_t *out = malloc((size_t)(n > 0 ? n : 1) * sizeof *out);
    if (!out)
        return false;
    for (int i = 0; i < n; i++) {
        mpz_init(out[i]);
        mpz_divexact(out[i], D, mpq_denref(v[i]));
        mpz_mul(out[i], out[i], mpq_numref(v[i]));
    }
    *scaled = out;
    return true;
}

void exact_unscale(int n, mpz_t *scaled)
{
    for (int i = 0; scaled && i < n; i++)
        mpz_clear(scaled[i]);
    free(scaled);
}
