/*
 * fuzz_schedule.c — the schedule reader, the validator and the replay.
 *
 * The first byte of the input picks one of the platforms below (a
 * schedule is read for a platform: its hash must match) and the number of
 * operations to replay (1 to 4); the rest is the schedule file.  Every
 * schedule read is written back and read again (the writer's output is a
 * fixed point), validated (steady_schedule_check), and, when valid,
 * replayed: the replay must succeed with a finite, positive makespan.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "steady/schedule.h"

static const char *const platforms[] = {
    /* the paper's reduce example: abstract costs */
    "platform paper-reduce\n"
    "processor P0 speed=2\nprocessor P1 speed=1\nprocessor P2 speed=1\n"
    "link P0 P1 cost=1\nlink P0 P2 cost=1\nlink P1 P2 cost=1\n",
    /* bandwidths, latencies, an overhead and a router */
    "platform routed\n"
    "processor P0 speed=1e9\nprocessor P1 speed=2e9\nprocessor P2 speed=5e8\nrouter R\n"
    "link P0 R bandwidth=1e8 latency=1e-4\nlink R P1 bandwidth=5e7 latency=2e-4 overhead=1e-5\n"
    "link R P2 bandwidth=2e8\nedge P1 P2 bandwidth=1e7 latency=1e-3\n",
    /* steady gen --kind random --nodes 4 --seed 1 */
    "platform random-4-s1\n"
    "processor P0 speed=2910000000\nprocessor P1 speed=2270000000\n"
    "processor P2 speed=1550000000\nprocessor P3 speed=4050000000\n"
    "edge P0 P2 bandwidth=614000000 latency=4.94e-05\n"
    "edge P2 P0 bandwidth=77500000 latency=4.94e-05\n"
    "edge P2 P3 bandwidth=440000000 latency=2.8e-05\n"
    "edge P3 P2 bandwidth=232000000 latency=2.8e-05\n"
    "edge P3 P1 bandwidth=52400000 latency=9.29e-06\n"
    "edge P1 P3 bandwidth=11300000 latency=9.29e-06\n"
    "edge P1 P0 bandwidth=37800000 latency=8.46e-05\n"
    "edge P0 P1 bandwidth=13800000 latency=8.46e-05\n"
    "edge P3 P0 bandwidth=186000000 latency=1.34e-06\n"
    "edge P0 P3 bandwidth=370000000 latency=1.34e-06\n"
    "edge P1 P2 bandwidth=177000000 latency=5.81e-06\n"
    "edge P2 P1 bandwidth=314000000 latency=5.81e-06\n",
};
enum { NPLATFORMS = sizeof platforms / sizeof *platforms };

/* The schedule written as JSON, in memory (caller frees). */
static char *written(const steady_schedule_t *sc, const steady_platform_t *p, size_t *len)
{
    char *text = NULL;
    FILE *out = open_memstream(&text, len);
    steady_error_t err = {0};
    if (!out)
        fuzz_fail("open_memstream");
    if (steady_schedule_write(sc, p, out, &err))
        fuzz_fail("a schedule read cannot be written: %s", err.msg);
    fclose(out);
    return text;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *plat = platforms[data[0] % NPLATFORMS];
    long ops = 1 + data[0] / NPLATFORMS % 4;
    steady_platform_t *p = NULL;
    steady_error_t err = {0};
    if (steady_platform_parse(plat, strlen(plat), "platform", STEADY_FORMAT_NATIVE, &p, NULL, &err))
        fuzz_fail("an embedded platform: %s", err.msg);
    steady_schedule_t *sc = NULL;
    if (steady_schedule_parse((const char *)data + 1, size - 1, "in", p, &sc, &err)) {
        fuzz_check_message(&err, "in");
        steady_platform_destroy(p);
        return 0;
    }
    /* write -> read -> write gives the same text */
    size_t len, len2;
    char *text = written(sc, p, &len);
    steady_schedule_t *again = NULL;
    if (steady_schedule_parse(text, len, "out", p, &again, &err))
        fuzz_fail("a schedule written does not read back: %s\n%s", err.msg, text);
    char *text2 = written(again, p, &len2);
    if (len != len2 || memcmp(text, text2, len) != 0)
        fuzz_fail("a schedule written, read and written again changes:\n%s\n%s", text, text2);
    free(text);
    free(text2);
    steady_schedule_destroy(again);

    steady_violations_t v = {0};
    if (steady_schedule_check(sc, p, &v, &err))
        fuzz_fail("check: %s", err.msg);
    for (int i = 0; i < v.count; i++)
        for (const char *c = v.lines[i]; *c; c++)
            if ((unsigned char)*c < 0x20)
                fuzz_fail("a violation that is not one line: %s", v.lines[i]);
    if (v.count == 0) {
        steady_replay_t r;
        if (steady_schedule_replay(sc, p, ops, &r, &err))
            fuzz_check_message(&err, NULL);
        else if (r.ops != ops || !isfinite(r.makespan) || !(r.makespan > 0))
            fuzz_fail("a replay of %ld operations: %ld operations, makespan %g", ops, r.ops,
                      r.makespan);
    }
    steady_violations_free(&v);
    steady_schedule_destroy(sc);
    steady_platform_destroy(p);
    return 0;
}
