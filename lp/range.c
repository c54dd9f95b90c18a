/*
 * range.c — what the LPs accept before GLPK sees them: the message size and
 * the task cost in their ranges, and port times c(e) that one LP can weigh
 * together.
 *
 * GLPK scales rows and columns by powers of two and works in doubles with
 * relative tolerances near 1e-9: coefficients of one LP that differ by
 * sixteen orders of magnitude or more are beyond it (a scatter on a
 * platform with bandwidths of 1 and 1e16 B/s comes back "unbounded", a
 * gossip runs for minutes), while twelve orders solve exactly and quickly
 * (docs/linear-programs.md, "Ranges").  The platform model bounds every
 * value (steady/platform.h), which keeps each coefficient finite and
 * scalable; the spread of the port times, which depends on the message
 * size, is checked here.
 */
#include "internal.h"

#include <math.h>

steady_err_t lp_check_ranges(const steady_platform_t *p, double msg_size, double task_cost,
                             steady_error_t *err)
{
    if (!(msg_size >= STEADY_MSG_SIZE_MIN && msg_size <= STEADY_MSG_SIZE_MAX)) {
        char v[32];
        format_double(v, msg_size);
        return steady_error_set(err, STEADY_EINVAL,
                                "message size out of range (%s bytes): from 1 byte to 1e12 bytes",
                                v);
    }
    if (!(task_cost >= STEADY_TASK_COST_MIN && task_cost <= STEADY_TASK_COST_MAX)) {
        char v[32];
        format_double(v, task_cost);
        return steady_error_set(err, STEADY_EINVAL,
                                "task cost out of range (%s): from 1e-6 to 1e21 flop", v);
    }
    int lo = -1, hi = -1;
    for (int e = 0; e < steady_platform_edge_count(p); e++) {
        double c = steady_platform_comm_time(p, e, msg_size);
        if (lo < 0 || c < steady_platform_comm_time(p, lo, msg_size))
            lo = e;
        if (hi < 0 || c > steady_platform_comm_time(p, hi, msg_size))
            hi = e;
    }
    if (lo >= 0 && steady_platform_comm_time(p, hi, msg_size) >
                       STEADY_SPREAD_MAX * steady_platform_comm_time(p, lo, msg_size)) {
        const steady_edge_t *a = steady_platform_edge(p, lo), *b = steady_platform_edge(p, hi);
        char ca[32], cb[32];
        format_double(ca, steady_platform_comm_time(p, lo, msg_size));
        format_double(cb, steady_platform_comm_time(p, hi, msg_size));
        return steady_error_set(
            err, STEADY_EINVAL,
            "the port times of one message span more than 12 orders of magnitude (%s on %s -> "
            "%s, %s on %s -> %s): the LP solver cannot weigh them together "
            "(docs/linear-programs.md, "
            "\"Ranges\")",
            ca, steady_platform_node(p, a->src)->name, steady_platform_node(p, a->dst)->name, cb,
            steady_platform_node(p, b->src)->name, steady_platform_node(p, b->dst)->name);
    }
    return STEADY_OK;
}
