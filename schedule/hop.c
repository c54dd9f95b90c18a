/*
 * hop.c — where a schedule's messages go: a send step's hop is its edge
 * alone, or a path through switches listed in the schedule's hops
 * (docs/schedule-format.md).  Everything that needs a message's ends or
 * path asks here, so that the two cases are one.
 */
#include "steady/schedule.h"

const int *steady_sched_step_edges(const steady_schedule_t *sc, const steady_sched_step_t *st,
                                   int *n)
{
    if (st->hop >= 0) {
        *n = sc->hops[st->hop].nedges;
        return sc->hops[st->hop].edges;
    }
    *n = 1;
    return &st->edge;
}

int steady_sched_step_src(const steady_schedule_t *sc, const steady_platform_t *p,
                          const steady_sched_step_t *st)
{
    return st->hop >= 0 ? sc->hops[st->hop].src : steady_platform_edge(p, st->edge)->src;
}

int steady_sched_step_dst(const steady_schedule_t *sc, const steady_platform_t *p,
                          const steady_sched_step_t *st)
{
    return st->hop >= 0 ? sc->hops[st->hop].dst : steady_platform_edge(p, st->edge)->dst;
}
