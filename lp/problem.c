/*
 * problem.c — what a problem asks, checked before any LP is built: node
 * sets (defaults, ids, duplicates, kinds), reachability (a target the
 * source cannot reach would make TP 0), and whether a broadcast's value
 * is an upper bound.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

const char *lp_node_name(const steady_solution_t *s, int v)
{
    return steady_platform_node(s->p, v)->name;
}

/* ---- checking the problem ---------------------------------------------------- */

static steady_err_t bad(steady_error_t *err, const char *fmt, const char *name)
{
    return steady_error_set(err, STEADY_EINVAL, fmt, name);
}

/* Copies a node set (or its default) into *out, checking ids, duplicates
 * and kinds.  `what` names the set in messages. */
static steady_err_t take_set(const steady_platform_t *p, const int *ids, int n, bool routers_ok,
                             const char *what, int **out, int *nout, steady_error_t *err)
{
    int nv = steady_platform_node_count(p);
    *out = malloc((size_t)(n > 0 ? n : 1) * sizeof **out);
    bool *seen = calloc((size_t)nv, sizeof *seen);
    if (!*out || !seen) {
        free(seen);
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    }
    *nout = 0;
    steady_err_t rc = STEADY_OK;
    for (int i = 0; i < n && !rc; i++) {
        int v = ids[i];
        if (v < 0 || v >= nv) {
            rc = steady_error_set(err, STEADY_EINVAL, "unknown node id in %s (%d)", what, v);
        } else if (seen[v]) {
            rc = steady_error_set(err, STEADY_EINVAL, "duplicate node in %s (%s)", what,
                                  steady_platform_node(p, v)->name);
        } else if (steady_platform_node(p, v)->kind == STEADY_SWITCH) {
            rc = steady_error_set(err, STEADY_EINVAL,
                                  "%s: %s is a switch, which belongs to the network: it neither "
                                  "sends nor receives messages of its own",
                                  what, steady_platform_node(p, v)->name);
        } else if (!routers_ok && steady_platform_node(p, v)->kind == STEADY_ROUTER) {
            rc =
                steady_error_set(err, STEADY_EINVAL, "%s: %s is a router, and routers only forward",
                                 what, steady_platform_node(p, v)->name);
        } else {
            seen[v] = true;
            (*out)[(*nout)++] = v;
        }
    }
    free(seen);
    return rc;
}

/* Every processor, in node order, except `skip`. */
static steady_err_t default_set(const steady_platform_t *p, int skip, int **out, int *nout,
                                steady_error_t *err)
{
    int nv = steady_platform_node_count(p);
    *out = malloc((size_t)nv * sizeof **out);
    if (!*out)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    *nout = 0;
    for (int v = 0; v < nv; v++)
        if (v != skip && steady_platform_node(p, v)->kind == STEADY_PROCESSOR)
            (*out)[(*nout)++] = v;
    return STEADY_OK;
}

/* Nodes reachable from src along directed edges (breadth-first), or,
 * `back`, the nodes src is reachable from (along the edges reversed). */
static bool *reachable(const steady_platform_t *p, int src, bool back)
{
    int nv = steady_platform_node_count(p);
    bool *seen = calloc((size_t)nv, sizeof *seen);
    int *queue = malloc((size_t)nv * sizeof *queue);
    if (!seen || !queue) {
        free(seen);
        free(queue);
        return NULL;
    }
    int head = 0, tail = 0;
    seen[src] = true;
    queue[tail++] = src;
    while (head < tail) {
        int v = queue[head++], n;
        const int *out =
            back ? steady_platform_in_edges(p, v, &n) : steady_platform_out_edges(p, v, &n);
        for (int k = 0; k < n; k++) {
            const steady_edge_t *e = steady_platform_edge(p, out[k]);
            int w = back ? e->src : e->dst;
            if (!seen[w]) {
                seen[w] = true;
                queue[tail++] = w;
            }
        }
    }
    free(queue);
    return seen;
}

static steady_err_t unreachable(const steady_solution_t *s, int src, int dst, steady_error_t *err)
{
    return steady_error_set(err, STEADY_EINVAL,
                            "%s cannot reach %s along the platform's edges: the throughput "
                            "would be 0",
                            lp_node_name(s, src), lp_node_name(s, dst));
}

/* "TP would be 0" errors: every one of the n dsts must be reachable from
 * src (back: src from every one of them), one breadth-first search. */
static steady_err_t check_reach(const steady_solution_t *s, int src, const int *dsts, int n,
                                bool back, steady_error_t *err)
{
    bool *seen = reachable(s->p, src, back);
    if (!seen)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    steady_err_t rc = STEADY_OK;
    for (int i = 0; i < n && !rc; i++)
        if (!seen[dsts[i]])
            rc = back ? unreachable(s, dsts[i], src, err) : unreachable(s, src, dsts[i], err);
    free(seen);
    return rc;
}

/* Whether every node reaches every other (two searches from node 0). */
static steady_err_t strongly_connected(const steady_platform_t *p, bool *yes)
{
    int nv = steady_platform_node_count(p);
    *yes = nv > 0;
    for (int back = 0; back < 2 && *yes; back++) {
        bool *seen = reachable(p, 0, back);
        if (!seen)
            return STEADY_ENOMEM;
        for (int v = 0; v < nv && *yes; v++)
            *yes = seen[v];
        free(seen);
    }
    return STEADY_OK;
}

steady_err_t lp_check_problem(steady_solution_t *s, const steady_problem_t *prob,
                              steady_error_t *err)
{
    const steady_platform_t *p = s->p;
    steady_err_t rc;
    switch (prob->op) {
    case STEADY_OP_SCATTER:
    case STEADY_OP_BROADCAST: {
        bool bcast = prob->op == STEADY_OP_BROADCAST;
        if ((rc = take_set(p, &prob->source, 1, false, "source", &s->sources, &s->nsources, err)))
            return rc;
        rc = prob->ntargets > 0 ? take_set(p, prob->targets, prob->ntargets, bcast, "targets",
                                           &s->targets, &s->ntargets, err)
                                : default_set(p, prob->source, &s->targets, &s->ntargets, err);
        if (rc)
            return rc;
        for (int i = 0; i < s->ntargets; i++)
            if (s->targets[i] == prob->source)
                return bad(err, "the source cannot be one of the targets (%s)",
                           lp_node_name(s, prob->source));
        if (s->ntargets == 0)
            return bad(err, "no target: %s has no other processor to send to",
                       steady_platform_name(p));
        /* Edmonds' theorem makes the LP's value reached when every other
         * rank is a target; otherwise it is an upper bound
         * (docs/linear-programs.md, SSB) */
        s->bound = bcast && s->ntargets < steady_platform_rank_count(p) - 1;
        return check_reach(s, prob->source, s->targets, s->ntargets, false, err);
    }
    case STEADY_OP_GOSSIP:
        rc = prob->nsources > 0 ? take_set(p, prob->sources, prob->nsources, false, "sources",
                                           &s->sources, &s->nsources, err)
                                : default_set(p, -1, &s->sources, &s->nsources, err);
        if (rc)
            return rc;
        rc = prob->ntargets > 0 ? take_set(p, prob->targets, prob->ntargets, false, "targets",
                                           &s->targets, &s->ntargets, err)
                                : default_set(p, -1, &s->targets, &s->ntargets, err);
        if (rc)
            return rc;
        if (s->nsources == 1 && s->ntargets == 1 && s->sources[0] == s->targets[0])
            return bad(err, "no message to send: the only source is the only target (%s)",
                       lp_node_name(s, s->sources[0]));
        /* a search per source, unless every node reaches every other */
        bool all;
        if (strongly_connected(p, &all))
            return steady_error_set(err, STEADY_ENOMEM, "out of memory");
        for (int i = 0; i < s->nsources && !all; i++)
            if ((rc = check_reach(s, s->sources[i], s->targets, s->ntargets, false, err)))
                return rc;
        return STEADY_OK;
    case STEADY_OP_REDUCE:
        rc = prob->nparticipants > 0 ? take_set(p, prob->participants, prob->nparticipants, false,
                                                "participants", &s->sources, &s->nsources, err)
                                     : default_set(p, -1, &s->sources, &s->nsources, err);
        if (rc)
            return rc;
        if (s->nsources < 2)
            return steady_error_set(err, STEADY_EINVAL,
                                    "a reduce needs at least 2 participants (got %d)", s->nsources);
        if ((rc = take_set(p, &prob->target, 1, false, "target", &s->targets, &s->ntargets, err)))
            return rc;
        /* one search back from the target */
        return check_reach(s, s->targets[0], s->sources, s->nsources, true, err);
    }
    return steady_error_set(err, STEADY_EINVAL, "unknown operation (%d)", (int)prob->op);
}
