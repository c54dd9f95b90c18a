/*
 * bench/payload.c — what steady-run's verification costs per 8-byte
 * element (runner/payload.c, built without MPI): a participant's own
 * reduce value, the result v[0,N-1] a target checks for N participants,
 * one combination (a task), and a word of a scatter or broadcast message.
 * Each is timed over R messages of S bytes, the best of three; prints
 * "what N ns_per_element" lines.  bench/payload.sh runs it.
 *   payload S R N...
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../runner/payload.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static unsigned sink; /* keeps the fills from being optimised away */

/* ns per element of filling value v for operation r into out (r = 0 ..
 * R - 1), or (combine) of combining out with itself */
static double time_fill(value_t v, bool combine, size_t S, int R, unsigned char *out)
{
    double best = INFINITY;
    for (int t = 0; t < 3; t++) {
        double t0 = now();
        for (int r = 0; r < R; r++) {
            if (combine)
                payload_combine(out, out, S, false, out);
            else
                payload_fill(v, r, S, 0, S, out);
            sink += out[r % S];
        }
        double dt = now() - t0;
        best = dt < best ? dt : best;
    }
    return 1e9 * best / R / (double)(S / 8);
}

int main(int argc, char **argv)
{
    if (argc < 4)
        return 2;
    size_t S = (size_t)atol(argv[1]);
    int R = atoi(argv[2]);
    unsigned char *out = malloc(S);
    if (!out || S < 8 || R < 1)
        return 2;
    printf("own 1 %.2f\n", time_fill((value_t){STEADY_OP_REDUCE, 3, 3, false}, false, S, R, out));
    for (int i = 3; i < argc; i++) {
        int n = atoi(argv[i]);
        printf("result %d %.2f\n", n,
               time_fill((value_t){STEADY_OP_REDUCE, 0, n - 1, false}, false, S, R, out));
    }
    printf("combine 2 %.2f\n", time_fill((value_t){0}, true, S, R, out));
    printf("word 1 %.2f\n", time_fill((value_t){STEADY_OP_SCATTER, 0, 1, false}, false, S, R, out));
    free(out);
    return sink == 0xdeadbeef;
}
