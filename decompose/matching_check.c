/*
 * matching_check.c — matchings_verify(): the check, from scratch and in
 * exact arithmetic, of every decomposition steady_matchings_decompose()
 * returns (matching.c): each slot a matching of positive duration, each
 * port's times within its slot, every comm covered for exactly its
 * duration, the slots adding up to the largest port load, no more slots
 * than the proven bound.  A failure is a bug (STEADY_EINTERNAL).
 */
#include "../common/exact.h"
#include "internal.h"

#include <stdlib.h>

/* sum += v[i]: the scaled integer into sum's numerator when scaled
 * (sum / D once canonical_sum() has run), else a rational sum. */
static void add_scaled(mpq_t sum, const mpq_srcptr *v, const mpz_t *scaled, size_t i)
{
    if (scaled)
        mpz_add(mpq_numref(sum), mpq_numref(sum), scaled[i]);
    else
        mpq_add(sum, sum, v[i]);
}

static void canonical_sum(mpq_t sum, const mpz_t *scaled, const mpz_t D)
{
    if (!scaled)
        return;
    mpz_set(mpq_denref(sum), D);
    mpq_canonicalize(sum);
}

/* Checks m against the input from scratch, in exact arithmetic, and sets
 * m->total: every slot non-empty, of positive duration; its comms valid,
 * each there once and for a positive time, a sender's to one receiver and
 * a receiver's from one sender, each port's times adding up to at most the
 * slot; every comm covered exactly; the total equal to W; at most
 * max_slots slots.  The sums run over a common denominator (v: the slot
 * durations, then the times of the comms that run for part of a slot). */
steady_err_t matchings_verify(int n, int ncomms, const int *src, const int *dst,
                              const mpq_t *duration, const mpq_t load, int max_slots,
                              steady_matchings_t *m, steady_error_t *err)
{
    steady_err_t rc = STEADY_OK;
    size_t nv = (size_t)m->nslots;
    for (int x = 0; x < m->nslots; x++)
        nv += (size_t)m->slots[x].ncomms;
    /* per port (2 v: v's send port, 2 v + 1: its receive port): the slot
     * it last worked in, its peer there, and its time there so far */
    size_t np = 2 * (size_t)(n ? n : 1);
    int *stamp = malloc(np * sizeof *stamp), *peer = malloc(np * sizeof *peer);
    mpq_t *busy = malloc(np * sizeof *busy);
    int *seen = malloc((size_t)(ncomms ? ncomms : 1) * sizeof *seen);
    mpq_t *cover = malloc((size_t)(ncomms ? ncomms : 1) * sizeof *cover);
    mpq_srcptr *v = malloc((nv ? nv : 1) * sizeof *v);
    int ninit = 0, ncover = 0;
    mpz_t D;
    mpz_t *scaled = NULL;
    mpz_init(D);
    if (!stamp || !peer || !busy || !seen || !cover || !v) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto cleanup;
    }
    for (; ninit < 2 * n; ninit++) {
        mpq_init(busy[ninit]);
        stamp[ninit] = -1;
    }
    for (; ncover < ncomms; ncover++) {
        mpq_init(cover[ncover]);
        seen[ncover] = -1;
    }
    /* positive times (checked below) have positive denominators */
    bool positive = true;
    size_t at = 0;
    for (int x = 0; x < m->nslots; x++)
        v[at++] = m->slots[x].duration;
    for (int x = 0; x < m->nslots; x++)
        for (int q = 0; q < m->slots[x].ncomms; q++)
            if (!mpq_equal(m->slots[x].time[q], m->slots[x].duration))
                v[at++] = m->slots[x].time[q];
    nv = at;
    for (size_t i = 0; i < nv && positive; i++)
        positive = mpq_sgn(v[i]) > 0;
    if (positive)
        exact_scale((int)nv, v, D, &scaled);

    const char *why = NULL;
    int where = -1;
    mpq_set_ui(m->total, 0, 1);
    if (m->nslots > max_slots) {
        why = "more slots than the proven bound";
        where = m->nslots;
    }
    at = (size_t)m->nslots;
    for (int x = 0; x < m->nslots && !why; x++) {
        const steady_slot_t *slot = &m->slots[x];
        where = x;
        if (mpq_sgn(slot->duration) <= 0)
            why = "non-positive duration";
        else if (slot->ncomms == 0)
            why = "no communication";
        for (int q = 0; q < slot->ncomms && !why; q++) {
            int c = slot->comms[q];
            if (c < 0 || c >= ncomms || seen[c] == x)
                why = "comm index out of range or twice in the slot";
            else if (mpq_sgn(slot->time[q]) <= 0)
                why = "non-positive time";
            for (int e = 0; e < 2 && !why; e++) {
                int port = e ? 2 * dst[c] + 1 : 2 * src[c], other = e ? src[c] : dst[c];
                if (stamp[port] == x && peer[port] != other) {
                    why = "not a matching";
                } else if (stamp[port] != x) {
                    stamp[port] = x;
                    peer[port] = other;
                    mpq_set(busy[port], slot->time[q]);
                } else {
                    mpq_add(busy[port], busy[port], slot->time[q]);
                }
                if (!why && mpq_cmp(busy[port], slot->duration) > 0)
                    why = "a port busier than the slot";
            }
            if (!why) {
                seen[c] = x;
                /* the slot's duration, or the comm's own time, next in v */
                bool whole = mpq_equal(slot->time[q], slot->duration);
                add_scaled(cover[c], v, (const mpz_t *)scaled, whole ? (size_t)x : at++);
            }
        }
        add_scaled(m->total, v, (const mpz_t *)scaled, (size_t)x);
    }
    canonical_sum(m->total, (const mpz_t *)scaled, D);
    for (int c = 0; c < ncomms && !why; c++) {
        canonical_sum(cover[c], (const mpz_t *)scaled, D);
        if (!mpq_equal(cover[c], duration[c])) {
            why = "comm covered for the wrong time";
            where = c;
        }
    }
    if (!why && !mpq_equal(m->total, load))
        why = "slot durations do not add up to the maximum port load";
    if (why)
        rc = steady_error_set(err, STEADY_EINTERNAL, "matchings: check failed (%s, at %d)", why,
                              where);

cleanup:
    for (int i = 0; i < ninit; i++)
        mpq_clear(busy[i]);
    for (int c = 0; c < ncover; c++)
        mpq_clear(cover[c]);
    exact_unscale((int)nv, scaled);
    mpz_clear(D);
    free(v);
    free(cover);
    free(busy);
    free(seen);
    free(peer);
    free(stamp);
    return rc;
}
