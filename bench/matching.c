/*
 * bench/matching.c — times steady_matchings_decompose_rule on one random
 * period: N senders/receivers, N x PER comms between random distinct
 * nodes, durations a/b (a in 1..1000, b in 1..7), one rule (keep or
 * fresh).  Prints "comms slots transfers runs seconds".  bench/matching.sh
 * runs it.   matching N PER keep|fresh
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "steady/decompose.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv)
{
    if (argc != 4)
        return 2;
    int n = atoi(argv[1]), nc = n * atoi(argv[2]);
    steady_matching_rule_t rule =
        strcmp(argv[3], "fresh") == 0 ? STEADY_MATCHING_FRESH : STEADY_MATCHING_KEEP;
    if (n < 2 || nc < 1)
        return 2;
    int *src = malloc((size_t)nc * sizeof *src), *dst = malloc((size_t)nc * sizeof *dst);
    mpq_t *d = malloc((size_t)nc * sizeof *d);
    if (!src || !dst || !d)
        return 1;
    unsigned long x = 1;
    for (int c = 0; c < nc; c++) {
        x = x * 6364136223846793005UL + 1442695040888963407UL;
        src[c] = (int)((x >> 33) % (unsigned long)n);
        x = x * 6364136223846793005UL + 1442695040888963407UL;
        dst[c] = (src[c] + 1 + (int)((x >> 33) % (unsigned long)(n - 1))) % n;
        x = x * 6364136223846793005UL + 1442695040888963407UL;
        mpq_init(d[c]);
        mpq_set_ui(d[c], 1 + (x >> 33) % 1000, 1 + (x >> 20) % 7);
        mpq_canonicalize(d[c]);
    }
    steady_matchings_t *m = NULL;
    steady_error_t err = {0};
    double t0 = now();
    if (steady_matchings_decompose_rule(n, nc, src, dst, (const mpq_t *)d, rule, &m, &err)) {
        fprintf(stderr, "matching: %s\n", err.msg);
        return 1;
    }
    double t1 = now();
    long transfers = 0, runs = 0;
    /* runs: a comm in a slot and not in the one before */
    int *last = malloc((size_t)nc * sizeof *last);
    if (!last) {
        fprintf(stderr, "matching: out of memory\n");
        return 1;
    }
    for (int c = 0; c < nc; c++)
        last[c] = -2;
    for (int s = 0; s < m->nslots; s++) {
        transfers += m->slots[s].ncomms;
        for (int q = 0; q < m->slots[s].ncomms; q++) {
            int c = m->slots[s].comms[q];
            runs += last[c] != s - 1;
            last[c] = s;
        }
    }
    free(last);
    printf("%d %d %ld %ld %.3f\n", nc, m->nslots, transfers, runs, t1 - t0);
    steady_matchings_destroy(m);
    for (int c = 0; c < nc; c++)
        mpq_clear(d[c]);
    free(src);
    free(dst);
    free(d);
    return 0;
}
