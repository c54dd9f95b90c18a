/*
 * steady/draw.h — pictures of platforms, steady-state solutions, trees and
 * schedules (docs/drawing.md), in the spirit of the paper's Figures 2-4,
 * 6, 7 and 9-12.
 *
 * Graphs (platform, solution, trees) are written as Graphviz DOT, which the
 * caller renders (`dot -Tsvg`); charts (Gantt charts of a period and of a
 * replay) are written as SVG directly: a Gantt chart is a time axis with
 * bars at given dates, which no Graphviz layout draws.  Every function
 * writes one complete document to out and fails only when out cannot be
 * written (STEADY_EIO), memory runs out, or an argument is invalid.
 *
 * Element names in the SVG documents are stable so that tests and scripts
 * can count them: every bar is a <rect class="bar send|recv|cpu">, with a
 * <title> describing it.
 */
#ifndef STEADY_DRAW_H
#define STEADY_DRAW_H

#include <stdio.h>

#include "steady/decompose.h"
#include "steady/error.h"
#include "steady/lp.h"
#include "steady/platform.h"
#include "steady/schedule.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    int max_trees;  /* trees drawn by steady_draw_trees*, the heaviest first (0: 24) */
    int max_labels; /* message types listed on an edge before "+N more" (0: 6) */
    long max_bars;  /* Gantt charts: refuse (EINVAL) to draw more bars (0: 20000) */
} steady_draw_options_t;

/* The platform (Figure 9): processors as grey boxes with their speed,
 * routers as white ellipses, edges labelled with their cost (abstract
 * platforms) or bandwidth and latency; a duplex pair with equal attributes
 * is one double-headed edge.  opts may be NULL.  O(V + E). */
steady_err_t steady_draw_platform(const steady_platform_t *p, const steady_draw_options_t *opts,
                                  FILE *out, steady_error_t *err);

/* The LP solution mapped on the topology (Figures 2(b)(c) and 10): on each
 * used edge the message types and their rates per time unit and the
 * fraction of time the edge is busy; on processors the reduce tasks and
 * their rates; saturated send ports, receive ports and CPUs in red, and
 * edges busy all the time drawn bold and red.  Unused edges are dotted.
 * O(E T + V Q) for T types and Q task kinds. */
steady_err_t steady_draw_solution(const steady_solution_t *s, const steady_draw_options_t *opts,
                                  FILE *out, steady_error_t *err);

/* The weighted trees of a decomposition (Figures 7, 11, 12), one cluster
 * per tree with its weight (operations per time unit, and its share of
 * TP).  Reduction trees are drawn as in the paper's Figure 5: one node per
 * initial value v[k], per transfer and per task, an arrow from each step
 * to the step that uses its result.  Broadcast arborescences and scatter
 * or gossip routes are drawn on the platform nodes they visit.
 * O(sum of the trees' steps squared). */
steady_err_t steady_draw_trees(const steady_solution_t *s, const steady_trees_t *t,
                               const steady_draw_options_t *opts, FILE *out, steady_error_t *err);

/* The same for the trees of a schedule file, weighted by operations per
 * period. */
steady_err_t steady_draw_schedule_trees(const steady_schedule_t *sc, const steady_platform_t *p,
                                        const steady_draw_options_t *opts, FILE *out,
                                        steady_error_t *err);

/* SVG Gantt chart of one period of sc (Figure 4): rows are the send port,
 * the receive port and the CPU of each node that uses them; a transfer is
 * one bar on its sender's send row and one on its receiver's receive row,
 * during its slot, labelled with its message type; a compute entry is one
 * bar on its processor's CPU row, the entries running back to back from
 * the start of the period in schedule order.  Bars are coloured by tree.
 * So the chart has 2 X + C bars for X transfers and C compute entries. */
steady_err_t steady_draw_gantt(const steady_schedule_t *sc, const steady_platform_t *p,
                               const steady_draw_options_t *opts, FILE *out, steady_error_t *err);

/* SVG Gantt chart of the replay (steady_schedule_replay_observed) of
 * `periods` batches of operations (Figure 6(e)): the pipelined execution
 * from the first transfer, through the initialisation (the first max_lag
 * periods, where later steps have no batch yet) and the steady state, to
 * the clean-up.  Bars are coloured by batch; dashed lines mark multiples
 * of the period length.  The chart has 2 X + C bars for X transfer events
 * and C compute events of the replay; res (may be NULL) receives the
 * replay's results.  O(events). */
steady_err_t steady_draw_replay(const steady_schedule_t *sc, const steady_platform_t *p,
                                long periods, const steady_draw_options_t *opts, FILE *out,
                                steady_replay_t *res, steady_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* STEADY_DRAW_H */
