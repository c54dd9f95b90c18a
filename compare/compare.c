/*
 * compare.c — steady_compare_run(): every algorithm's model next to the LP
 * optimum (docs/comparison.md).
 *
 * What the ratios are taken against.
 *   broadcast  SSB from the root with every other processor as a target.
 *              The algorithms deliver to processors only (routers forward),
 *              so this multicast LP bounds all of them; on a platform with
 *              routers it is an upper bound that may not be achievable
 *              (lp.h), which the result says.
 *   reduce     SSR over every processor in node order, target the root: the
 *              exact optimum for an associative, non-commutative operator.
 *              Algorithms whose trees keep the rank order are feasible
 *              points of that LP; the others (TwoTreeC, the binary heap...)
 *              need a commutative operator and may in principle beat it, so
 *              a bound for commutative reduces is computed too: reverse a
 *              reduce schedule in time and every message that carried a
 *              partial result towards the root becomes a message carrying
 *              the result away from it, a broadcast on the reversed
 *              platform with the same port loads (a send port becomes a
 *              receive port).  Hence TP <= SSB(reversed platform); and P-1
 *              binary combines must run somewhere per operation, hence TP
 *              <= sum of speeds / ((P-1) task_cost).
 *   allreduce  every algorithm here reduces to the root and broadcasts from
 *              it, so it runs a reduce and a broadcast at the same rate:
 *              TP <= min(SSR, SSB) (with the commutative bound in place of
 *              SSR for commutative algorithms).  The LP's own schedules,
 *              run one after the other, reach 1/(1/SSR + 1/SSB), reported
 *              as time_shared.
 */
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* p with every edge reversed (same attributes, its channels crossed in
 * reverse order, a SPLITDUPLEX one's other direction); names, kinds,
 * speeds and channels unchanged. */
static steady_err_t reversed(const steady_platform_t *p, steady_platform_t **out,
                             steady_error_t *err)
{
    steady_platform_t *q = NULL;
    steady_err_t rc = steady_platform_create(&q, err);
    if (!rc)
        rc = steady_platform_set_name(q, steady_platform_name(p), err);
    for (int v = 0; !rc && v < steady_platform_node_count(p); v++) {
        const steady_node_t *n = steady_platform_node(p, v);
        rc = steady_platform_add_node(q, n->name, n->kind, n->speed, NULL, err);
    }
    for (int c = 0; !rc && c < steady_platform_channel_count(p); c++)
        rc = steady_platform_add_channel(q, steady_platform_channel(p, c), NULL, err);
    steady_crossing_t *back = NULL;
    for (int e = 0; !rc && e < steady_platform_edge_count(p); e++) {
        const steady_edge_t *f = steady_platform_edge(p, e);
        steady_edge_t r = *f;
        r.src = f->dst;
        r.dst = f->src;
        steady_crossing_t *grown = realloc(back, (size_t)(f->ncross + 1) * sizeof *back);
        if (!grown) {
            rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
            break;
        }
        back = grown;
        for (int k = 0; k < f->ncross; k++) {
            back[k] = f->cross[f->ncross - 1 - k];
            back[k].down =
                steady_platform_channel(p, back[k].channel)->sharing == STEADY_SPLITDUPLEX &&
                !back[k].down;
        }
        r.cross = back;
        rc = steady_platform_add_edge(q, &r, NULL, err);
    }
    free(back);
    if (rc) {
        steady_platform_destroy(q);
        return rc;
    }
    *out = q;
    return STEADY_OK;
}

/* Solves prob on p; stores TP, and clears *exact when the solution is not
 * exact and *bound when it is an upper bound. */
static steady_err_t solve(const steady_platform_t *p, const steady_problem_t *prob,
                          const steady_solve_options_t *sopts, double *tp, bool *exact, bool *bound,
                          steady_error_t *err)
{
    steady_solution_t *s = NULL;
    steady_err_t rc = steady_lp_solve(p, prob, sopts, &s, err);
    if (rc)
        return rc;
    *tp = steady_solution_throughput_d(s);
    if (!steady_solution_is_exact(s))
        *exact = false;
    if (bound && steady_solution_is_bound(s))
        *bound = true;
    steady_solution_destroy(s);
    return STEADY_OK;
}

/* The broadcast from root to every other processor of p into *b (its
 * targets allocated: the caller frees them), and the processors' speeds
 * summed into *speeds (may be NULL); false when memory runs out. */
static bool broadcast_problem(const steady_platform_t *p, int root, double msg_size,
                              steady_problem_t *b, double *speeds)
{
    int nv = steady_platform_node_count(p), n = 0;
    int *others = malloc((size_t)steady_platform_processor_count(p) * sizeof *others);
    if (!others)
        return false;
    double sum = 0;
    for (int v = 0; v < nv; v++)
        if (steady_platform_node(p, v)->kind == STEADY_PROCESSOR) {
            sum += steady_platform_node(p, v)->speed;
            if (v != root)
                others[n++] = v;
        }
    if (speeds)
        *speeds = sum;
    *b = (steady_problem_t){.op = STEADY_OP_BROADCAST,
                            .source = root,
                            .targets = others,
                            .ntargets = n,
                            .msg_size = msg_size};
    return true;
}

steady_err_t steady_compare_optimum(const steady_platform_t *p, steady_collop_t op, int root,
                                    const steady_model_options_t *opts,
                                    const steady_solve_options_t *sopts, steady_comparison_t *out,
                                    steady_error_t *err)
{
    memset(out, 0, sizeof *out);
    steady_model_options_t o = opts ? *opts : (steady_model_options_t){0};
    int nv = steady_platform_node_count(p), P = steady_platform_processor_count(p);
    if ((unsigned)op > STEADY_COLL_ALLREDUCE)
        return steady_error_set(err, STEADY_EINVAL, "unknown operation (%d)", (int)op);
    if (P < 2)
        return steady_error_set(err, STEADY_EINVAL,
                                "a comparison needs at least 2 processors (got %d)", P);
    if (root < 0 || root >= nv)
        return steady_error_set(err, STEADY_EINVAL, "root: unknown node id (%d)", root);
    if (steady_platform_node(p, root)->kind != STEADY_PROCESSOR)
        return steady_error_set(err, STEADY_EINVAL,
                                "root: %s is a router, and routers only forward",
                                steady_platform_node(p, root)->name);
    bool abstract = steady_platform_is_abstract(p);
    out->op = op;
    out->root = root;
    out->ranks = P;
    out->msg_size = o.msg_size > 0 ? o.msg_size : 1048576;
    out->task_cost = o.task_cost > 0 ? o.task_cost : abstract ? 1 : out->msg_size;
    out->reduce_optimum = out->broadcast_optimum = NAN;
    out->commutative_bound = out->time_shared = NAN;
    out->optimum_exact = true;
    for (int i = 0; i < STEADY_ALGO_COUNT; i++)
        out->measured[i] = NAN;

    steady_err_t rc = STEADY_OK;
    if (op != STEADY_COLL_REDUCE) {
        steady_problem_t b;
        if (!broadcast_problem(p, root, out->msg_size, &b, NULL))
            return steady_error_set(err, STEADY_ENOMEM, "out of memory");
        rc = solve(p, &b, sopts, &out->broadcast_optimum, &out->optimum_exact,
                   &out->optimum_is_bound, err);
        free((int *)b.targets);
    }
    if (!rc && op != STEADY_COLL_BROADCAST) {
        steady_problem_t r = {.op = STEADY_OP_REDUCE,
                              .target = root,
                              .msg_size = out->msg_size,
                              .task_cost = out->task_cost};
        rc = solve(p, &r, sopts, &out->reduce_optimum, &out->optimum_exact, NULL, err);
    }
    if (rc)
        return rc;
    switch (op) {
    case STEADY_COLL_BROADCAST: out->optimum = out->broadcast_optimum; break;
    case STEADY_COLL_REDUCE: out->optimum = out->reduce_optimum; break;
    case STEADY_COLL_ALLREDUCE:
        out->optimum = fmin(out->reduce_optimum, out->broadcast_optimum);
        out->optimum_is_bound = true;
        out->time_shared = 1 / (1 / out->reduce_optimum + 1 / out->broadcast_optimum);
        break;
    }
    return STEADY_OK;
}

steady_err_t steady_compare_run(const steady_platform_t *p, steady_collop_t op, int root,
                                const steady_model_options_t *opts,
                                const steady_solve_options_t *sopts, steady_comparison_t *out,
                                steady_error_t *err)
{
    steady_err_t rc = steady_compare_optimum(p, op, root, opts, sopts, out, err);
    if (rc)
        return rc;
    steady_model_options_t o = opts ? *opts : (steady_model_options_t){0};
    steady_routes_t *routes = NULL;
    steady_platform_t *rev = NULL;
    if (op != STEADY_COLL_BROADCAST) {
        /* the commutative bound: the broadcast from the root on the
         * reversed platform, and the processors' speed */
        steady_problem_t b;
        double rb, speeds;
        if (!broadcast_problem(p, root, out->msg_size, &b, &speeds))
            return steady_error_set(err, STEADY_ENOMEM, "out of memory");
        double work = speeds / ((out->ranks - 1) * out->task_cost);
        bool ignored = false;
        if (!(rc = reversed(p, &rev, err)))
            rc = solve(rev, &b, sopts, &rb, &out->optimum_exact, &ignored, err);
        free((int *)b.targets);
        if (rc)
            goto cleanup;
        out->commutative_bound = rb < work ? rb : work;
    }

    if ((rc = steady_routes_create(p, out->msg_size, &routes, err)))
        goto cleanup;
    o.msg_size = out->msg_size;
    o.task_cost = out->task_cost;
    for (int a = 0; a < STEADY_ALGO_COUNT; a++) {
        if (!steady_algo_supports((steady_algo_t)a, op))
            continue;
        steady_model_t *m = &out->algos[out->nalgos];
        if ((rc = steady_model_evaluate(routes, (steady_algo_t)a, op, root, &o, m, err)))
            goto cleanup;
        out->ratio[out->nalgos++] = m->throughput / out->optimum;
    }

cleanup:
    steady_routes_destroy(routes);
    steady_platform_destroy(rev);
    return rc;
}
