/*
 * plan_phases.c — tree phases: whole trees moved a period earlier or later
 * while the series replays faster.
 */
#define _POSIX_C_SOURCE 200809L
#include "plan.h"
#include "replay.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Tree phases.  Moving every step of one tree by the same number of
 * periods keeps the lag relations inside the tree, which are all that
 * validity, buffers and the executor's rings depend on: the tree only
 * works on its batches a period earlier or later than the other trees.
 * The steady state does not change, the fill and the drain do: a tree
 * whose last hops are short can run its last batch last, while the
 * bottleneck still works on the others (broadcast on random-6-s4: 0.9762
 * -> 0.9799 of the optimum for 2000 operations, max lag unchanged).
 * Greedy: each tree in turn, a period later, else a period earlier, kept
 * when the series replays faster (by more than 10^-9) with every lag in
 * [0, max_lag]; rounds until one changes nothing, or PHASE_TRIES replays,
 * or PHASE_EVENTS replayed events in all (deterministic: counts, not
 * time).  Each replay costs about as much as one candidate's: the budget
 * keeps the search to a fraction of the plan on small platforms, and a
 * large one (ring-80's scatter: 2.4·10^8 events per series) skips it. */
#define PHASE_EVENTS REPLAY_EVENTS
#define PHASE_TRIES  16

static void shift_tree(steady_sched_tree_t *t, int by)
{
    for (int j = 0; j < t->nsteps; j++)
        t->steps[j].lag += by;
}

steady_err_t plan_shift_trees(steady_schedule_t *sc, const steady_platform_t *p, long series,
                              double *rate, double *msgs, steady_error_t *err)
{
    long events = sc->ncompute, K = sc->ops_per_period;
    for (int i = 0; i < sc->nslots; i++)
        events += sc->slots[i].ntransfers;
    /* one replay's events, weighed as the fluid engine's where messages
     * share resources */
    long per = (series / K + 1 + sc->max_lag) * events *
               (steady_platform_resource_count(p) > 0 ? FLUID_EVENT_WEIGHT : 1);
    long left = PHASE_EVENTS - per;                     /* the first replay, to compare with */
    int tries = PHASE_TRIES;
    if (left < per)
        return STEADY_OK;
    /* *rate: the series' rate when the candidates' replays gave it, else 0 */
    double best = *rate, best_msgs = *msgs;
    steady_err_t rc =
        best > 0 ? STEADY_OK : plan_series_rate(sc, p, series, &best, &best_msgs, err);
    for (bool again = true; again && !rc;) {
        again = false;
        for (int i = 0; i < sc->ntrees && !rc; i++) {
            steady_sched_tree_t *t = &sc->trees[i];
            int lo = t->steps[0].lag, hi = lo;
            for (int j = 1; j < t->nsteps; j++) {
                lo = t->steps[j].lag < lo ? t->steps[j].lag : lo;
                hi = t->steps[j].lag > hi ? t->steps[j].lag : hi;
            }
            for (int by = 1; by >= -1 && !rc; by -= 2) {
                if ((by > 0 ? hi + by > sc->max_lag : lo + by < 0) || left < per || tries == 0)
                    continue;
                left -= per;
                tries--;
                double shifted = 0, shifted_msgs = 0;
                shift_tree(t, by);
                rc = plan_series_rate(sc, p, series, &shifted, &shifted_msgs, err);
                if (!rc && shifted > best * (1 + 1e-9)) {
                    best = shifted;
                    best_msgs = shifted_msgs;
                    again = true;
                    break;
                }
                shift_tree(t, -by);
            }
        }
    }
    *rate = rc ? 0 : best;
    *msgs = rc ? 0 : best_msgs;
    /* the deepest tree may have moved a period earlier */
    sc->max_lag = 0;
    for (int i = 0; i < sc->ntrees; i++)
        for (int j = 0; j < sc->trees[i].nsteps; j++)
            if (sc->trees[i].steps[j].lag > sc->max_lag)
                sc->max_lag = sc->trees[i].steps[j].lag;
    return rc;
}
