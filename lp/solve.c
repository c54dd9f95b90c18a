/*
 * solve.c — the four steady-state LPs (docs/linear-programs.md), built from
 * a platform and a problem, solved through glpk.c, recovered exactly through
 * exact.c, and the solution object with its accessors.
 *
 * Every variable is a rate per time unit, on the platform's hops (each
 * edge between two ranks, and each path from a rank through switches to
 * another: steady_hop_graph_build; on the paper's platforms, its edges).
 * Columns:
 *   scatter, gossip  send(h, t)   messages of type t on hop h
 *   reduce           send(h, t)   messages v[k,m] on h;  cons(i, task) on processors
 *   broadcast        send(h, 0)   = n(h);  flow(h, k) per target k
 * Variables that can only waste capacity (a message leaving its destination,
 * returning to its origin) are not created at all, which the docs explain.
 */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct steady_solution {
    const steady_platform_t *p;
    steady_hop_graph_t *hops; /* the LP's graph */
    int nhops;
    steady_op_t op;
    double msg_size, task_cost;
    int *sources, nsources; /* scatter/broadcast: source; gossip: senders; reduce: participants */
    int *targets, ntargets; /* reduce: the target */
    bool bound;             /* broadcast to a subset: TP is an upper bound */
    /* message types: ends (a, b) as documented in lp.h */
    int ntypes;
    int *type_a, *type_b;
    /* reduce tasks (k, l, m) */
    int ntasks;
    int *task_k, *task_l, *task_m;
    /* column maps, -1 when the variable does not exist */
    int *send_col; /* [hop * ntypes + type] */
    int *cons_col; /* [node * ntasks + task] */
    int *flow_col; /* [hop * ntargets + target], broadcast */
    int tp_col;
    mpq_t *value; /* per column */
    int ncols;
    mpq_t *comm; /* per hop: its time, for which both ports are held */
    mpq_t *work; /* w(i) per node (0 for routers: unused) */
    bool exact;
    const char *note;
    steady_lp_stats_t stats;
};

static const char *const op_names[] = {"scatter", "gossip", "reduce", "broadcast"};

int steady_op_from_name(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(name, op_names[i]) == 0)
            return i;
    return -1;
}

const char *steady_op_name(steady_op_t op)
{
    return (unsigned)op < 4 ? op_names[op] : "?";
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *name_of(const steady_solution_t *s, int v)
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

/* Nodes reachable from src along directed edges (breadth-first). */
static bool *reachable(const steady_platform_t *p, int src)
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
        const int *out = steady_platform_out_edges(p, v, &n);
        for (int k = 0; k < n; k++) {
            int w = steady_platform_edge(p, out[k])->dst;
            if (!seen[w]) {
                seen[w] = true;
                queue[tail++] = w;
            }
        }
    }
    free(queue);
    return seen;
}

/* "TP would be 0" errors: dst must be reachable from src. */
static steady_err_t check_reach(const steady_solution_t *s, int src, const int *dsts, int n,
                                steady_error_t *err)
{
    bool *seen = reachable(s->p, src);
    if (!seen)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    steady_err_t rc = STEADY_OK;
    for (int i = 0; i < n && !rc; i++)
        if (!seen[dsts[i]])
            rc = steady_error_set(err, STEADY_EINVAL,
                                  "%s cannot reach %s along the platform's edges: the throughput "
                                  "would be 0",
                                  name_of(s, src), name_of(s, dsts[i]));
    free(seen);
    return rc;
}

static steady_err_t check_problem(steady_solution_t *s, const steady_problem_t *prob,
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
                           name_of(s, prob->source));
        if (s->ntargets == 0)
            return bad(err, "no target: %s has no other processor to send to",
                       steady_platform_name(p));
        /* Edmonds' theorem makes the LP's value reached when every other
         * rank is a target; otherwise it is an upper bound
         * (docs/linear-programs.md, SSB) */
        s->bound = bcast && s->ntargets < steady_platform_rank_count(p) - 1;
        return check_reach(s, prob->source, s->targets, s->ntargets, err);
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
                       name_of(s, s->sources[0]));
        for (int i = 0; i < s->nsources; i++) {
            bool *seen = reachable(p, s->sources[i]);
            if (!seen)
                return steady_error_set(err, STEADY_ENOMEM, "out of memory");
            int miss = -1;
            for (int j = 0; j < s->ntargets && miss < 0; j++)
                if (!seen[s->targets[j]])
                    miss = s->targets[j];
            free(seen);
            if (miss >= 0)
                return check_reach(s, s->sources[i], &miss, 1, err);
        }
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
        for (int i = 0; i < s->nsources; i++)
            if ((rc = check_reach(s, s->sources[i], s->targets, 1, err)))
                return rc;
        return STEADY_OK;
    }
    return steady_error_set(err, STEADY_EINVAL, "unknown operation (%d)", (int)prob->op);
}

/* ---- building the LP ------------------------------------------------------- */

static int *new_map(size_t n)
{
    int *m = malloc((n ? n : 1) * sizeof *m);
    if (m)
        for (size_t i = 0; i < n; i++)
            m[i] = -1;
    return m;
}

static void type_label(const steady_solution_t *s, int t, char *buf, size_t n)
{
    switch (s->op) {
    case STEADY_OP_SCATTER: snprintf(buf, n, "%s", name_of(s, s->type_b[t])); break;
    case STEADY_OP_GOSSIP:
        snprintf(buf, n, "%s>%s", name_of(s, s->type_a[t]), name_of(s, s->type_b[t]));
        break;
    case STEADY_OP_REDUCE: snprintf(buf, n, "[%d,%d]", s->type_a[t], s->type_b[t]); break;
    case STEADY_OP_BROADCAST: snprintf(buf, n, "msg"); break;
    }
}

/* ",via:S1:S2" for a hop through switches S1, S2 (LP names must be
 * unique: two hops may join the same ranks), "" for an edge. */
static const char *via_label(const steady_solution_t *s, const steady_hop_t *h)
{
    static char buf[512];
    buf[0] = '\0';
    size_t n = 0;
    for (int k = 1; k < h->nedges && n < sizeof buf; k++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", k == 1 ? ",via:" : ":",
                              name_of(s, steady_platform_edge(s->p, h->edges[k])->src));
    return buf;
}

/* The rows shared by every LP (docs/linear-programs.md, "The network
 * model"): one-port (2) and (3) on every processor and router, with
 * s(h) = sum over the hop's send columns of rate * time(h); and one row per
 * shared resource (a channel, a channel's direction, the private link
 * between two switches), with each message charged the resource's time on
 * every edge of the hop that uses it. */
static void capacity_rows(steady_solution_t *s, lp_model_t *m)
{
    const steady_platform_t *p = s->p;
    int nv = steady_platform_node_count(p);
    for (int dir = 0; dir < 2; dir++)
        for (int v = 0; v < nv && !m->stopped; v++) {
            int n, row = -1;
            const int *hs = dir == 0 ? steady_hop_graph_out(s->hops, v, &n)
                                     : steady_hop_graph_in(s->hops, v, &n);
            for (int k = 0; k < n; k++)
                for (int t = 0; t < s->ntypes; t++) {
                    int col = s->send_col[(size_t)hs[k] * s->ntypes + t];
                    if (col < 0)
                        continue;
                    if (row < 0)
                        row = lp_add_row(m, ROW_UP, 1, "%s_%s", dir == 0 ? "out" : "in",
                                         name_of(s, v));
                    lp_add_entry(m, row, col, s->comm[hs[k]]);
                }
        }
    int nr = steady_platform_resource_count(p);
    if (nr == 0)
        return;
    int *row = malloc((size_t)nr * sizeof *row);
    int *slot = malloc((size_t)nr * sizeof *slot); /* the resource's place in `use`, -1 */
    int *use = malloc((size_t)nr * sizeof *use);   /* the hop's resources, in order */
    mpq_t *time = malloc((size_t)nr * sizeof *time);
    if (!row || !slot || !use || !time) {
        free(row);
        free(slot);
        free(use);
        free(time);
        m->oom = true;
        return;
    }
    for (int r = 0; r < nr; r++) {
        row[r] = slot[r] = -1;
        mpq_init(time[r]);
    }
    mpq_t q;
    mpq_init(q);
    char name[2 * STEADY_NAME_MAX + 32];
    for (int h = 0; h < s->nhops && !m->stopped; h++) {
        /* the hop's time on each resource: a channel two of its edges
         * cross is charged twice */
        const steady_hop_t *hop = steady_hop_graph_hop(s->hops, h);
        int nuse = 0;
        for (int k = 0; k < hop->nedges; k++) {
            int nu;
            const steady_use_t *u = steady_platform_edge_uses(p, hop->edges[k], &nu);
            for (int j = 0; j < nu; j++) {
                int r = u[j].resource;
                steady_exact_use_time(p, hop->edges[k], &u[j], s->msg_size, q);
                if (slot[r] < 0) {
                    slot[r] = nuse;
                    use[nuse++] = r;
                    mpq_set(time[slot[r]], q);
                } else {
                    mpq_add(time[slot[r]], time[slot[r]], q);
                }
            }
        }
        for (int j = 0; j < nuse; j++) {
            int r = use[j];
            for (int t = 0; t < s->ntypes; t++) {
                int col = s->send_col[(size_t)h * s->ntypes + t];
                if (col < 0)
                    continue;
                if (row[r] < 0) {
                    steady_platform_resource_name(p, r, name, sizeof name);
                    for (char *c = name; *c; c++)
                        if (*c == ' ')
                            *c = '_';
                    row[r] = lp_add_row(m, ROW_UP, 1, "%s", name);
                }
                lp_add_entry(m, row[r], col, time[j]);
            }
            slot[r] = -1;
        }
    }
    mpq_clear(q);
    for (int r = 0; r < nr; r++)
        mpq_clear(time[r]);
    free(row);
    free(slot);
    free(use);
    free(time);
}

/* Conservation of a flow `map[h * stride + t]` at node v: in - out = 0
 * (skipped when no variable takes part). */
static int conservation_row(steady_solution_t *s, lp_model_t *m, int v, const int *map, int stride,
                            int t, const char *label)
{
    int row = -1, n;
    for (int dir = 0; dir < 2; dir++) {
        const int *hs =
            dir == 0 ? steady_hop_graph_in(s->hops, v, &n) : steady_hop_graph_out(s->hops, v, &n);
        for (int k = 0; k < n; k++) {
            int col = map[(size_t)hs[k] * stride + t];
            if (col < 0)
                continue;
            if (row < 0)
                row = lp_add_row(m, ROW_FX, 0, "cons_%s_%s", name_of(s, v), label);
            lp_add_entry_si(m, row, col, dir == 0 ? 1 : -1);
        }
    }
    return row;
}

/* in(dst) - TP = 0 for the flow of index t at its destination. */
static int throughput_row(steady_solution_t *s, lp_model_t *m, int dst, const int *map, int stride,
                          int t, const char *label)
{
    int row = lp_add_row(m, ROW_FX, 0, "tp_%s", label), n;
    const int *hs = steady_hop_graph_in(s->hops, dst, &n);
    for (int k = 0; k < n; k++)
        lp_add_entry_si(m, row, map[(size_t)hs[k] * stride + t], 1);
    lp_add_entry_si(m, row, s->tp_col, -1);
    return row;
}

/* SSSP and SSPA2A (paper §3.1, §3.5): one commodity per message type,
 * from its origin to its destination. */
static steady_err_t build_flows(steady_solution_t *s, lp_model_t *m)
{
    int nh = s->nhops, nv = steady_platform_node_count(s->p);
    bool gossip = s->op == STEADY_OP_GOSSIP;
    int cap = gossip ? s->nsources * s->ntargets : s->ntargets;
    s->type_a = malloc((size_t)cap * sizeof(int));
    s->type_b = malloc((size_t)cap * sizeof(int));
    if (!s->type_a || !s->type_b)
        return STEADY_ENOMEM;
    for (int i = 0; i < (gossip ? s->nsources : 1); i++)
        for (int j = 0; j < s->ntargets; j++) {
            int a = gossip ? s->sources[i] : s->sources[0], b = s->targets[j];
            if (a == b)
                continue;
            s->type_a[s->ntypes] = gossip ? a : -1;
            s->type_b[s->ntypes++] = b;
        }
    s->send_col = new_map((size_t)nh * s->ntypes);
    if (!s->send_col)
        return STEADY_ENOMEM;
    s->tp_col = lp_add_col(m, "TP");
    char label[2 * STEADY_NAME_MAX + 2];
    for (int t = 0; t < s->ntypes && !m->stopped; t++) {
        int o = gossip ? s->type_a[t] : s->sources[0], d = s->type_b[t];
        type_label(s, t, label, sizeof label);
        for (int h = 0; h < nh; h++) {
            const steady_hop_t *hop = steady_hop_graph_hop(s->hops, h);
            if (hop->src == d || hop->dst == o) /* leaves its destination / returns to its origin */
                continue;
            s->send_col[(size_t)h * s->ntypes + t] =
                lp_add_col(m, "send(%s,%s%s;%s)", name_of(s, hop->src), name_of(s, hop->dst),
                           via_label(s, hop), label);
        }
    }
    capacity_rows(s, m);
    for (int t = 0; t < s->ntypes && !m->stopped; t++) {
        int o = gossip ? s->type_a[t] : s->sources[0], d = s->type_b[t];
        type_label(s, t, label, sizeof label);
        for (int v = 0; v < nv; v++) /* (5): conservation, except at origin and destination */
            if (v != o && v != d)
                conservation_row(s, m, v, s->send_col, s->ntypes, t, label);
        throughput_row(s, m, d, s->send_col, s->ntypes, t, label); /* (6) */
    }
    return STEADY_OK;
}

/* SSB: messages n(h) = send(h, 0) and one flow per target bounded by n. */
static steady_err_t build_broadcast(steady_solution_t *s, lp_model_t *m)
{
    int nh = s->nhops, nv = steady_platform_node_count(s->p);
    int src = s->sources[0], nt = s->ntargets;
    s->ntypes = 1;
    s->type_a = malloc(sizeof(int));
    s->type_b = malloc(sizeof(int));
    s->send_col = new_map((size_t)nh);
    s->flow_col = new_map((size_t)nh * nt);
    if (!s->type_a || !s->type_b || !s->send_col || !s->flow_col)
        return STEADY_ENOMEM;
    s->type_a[0] = s->type_b[0] = -1;
    s->tp_col = lp_add_col(m, "TP");
    for (int h = 0; h < nh; h++) {
        const steady_hop_t *hop = steady_hop_graph_hop(s->hops, h);
        if (hop->dst != src)
            s->send_col[h] = lp_add_col(m, "n(%s,%s%s)", name_of(s, hop->src), name_of(s, hop->dst),
                                        via_label(s, hop));
    }
    for (int k = 0; k < nt && !m->stopped; k++)
        for (int h = 0; h < nh; h++) {
            const steady_hop_t *hop = steady_hop_graph_hop(s->hops, h);
            if (hop->dst != src && hop->src != s->targets[k])
                s->flow_col[(size_t)h * nt + k] =
                    lp_add_col(m, "x(%s,%s%s;%s)", name_of(s, hop->src), name_of(s, hop->dst),
                               via_label(s, hop), name_of(s, s->targets[k]));
        }
    capacity_rows(s, m);
    for (int k = 0; k < nt && !m->stopped; k++) {
        const char *tk = name_of(s, s->targets[k]);
        for (int h = 0; h < nh; h++) { /* x(h,k) <= n(h) */
            int x = s->flow_col[(size_t)h * nt + k];
            if (x < 0)
                continue;
            const steady_hop_t *hop = steady_hop_graph_hop(s->hops, h);
            int row = lp_add_row(m, ROW_UP, 0, "share(%s,%s%s;%s)", name_of(s, hop->src),
                                 name_of(s, hop->dst), via_label(s, hop), tk);
            lp_add_entry_si(m, row, x, 1);
            lp_add_entry_si(m, row, s->send_col[h], -1);
        }
        for (int v = 0; v < nv; v++)
            if (v != src && v != s->targets[k])
                conservation_row(s, m, v, s->flow_col, nt, k, tk);
        throughput_row(s, m, s->targets[k], s->flow_col, nt, k, tk);
    }
    return STEADY_OK;
}

/* Index of interval [k,m] among the N(N+1)/2 intervals. */
static int interval(int n, int k, int m)
{
    return k * n - k * (k - 1) / 2 + (m - k);
}

/* Index of task T(k,l,m), k <= l < m, in the order of build_reduce's
 * enumeration (k, then l, then m increasing): tix[k] is the index of
 * T(k,k,k+1), and the l's before l each have N - 1 - l' values of m. */
static int task_index(const int *tix, int N, int k, int l, int m)
{
    return tix[k] + (l - k) * (N - 1) - (l * (l - 1) - k * (k - 1)) / 2 + (m - l - 1);
}

typedef struct {
    int task, sign;
} task_ref_t;

/* SSR (paper §4.2, eqs. 7-11). */
static steady_err_t build_reduce(steady_solution_t *s, lp_model_t *m)
{
    int nh = s->nhops, nv = steady_platform_node_count(s->p);
    int N = s->nsources, target = s->targets[0];
    s->ntypes = N * (N + 1) / 2;
    s->ntasks = N * (N * N - 1) / 6;
    s->type_a = malloc((size_t)s->ntypes * sizeof(int));
    s->type_b = malloc((size_t)s->ntypes * sizeof(int));
    s->task_k = malloc((size_t)s->ntasks * sizeof(int));
    s->task_l = malloc((size_t)s->ntasks * sizeof(int));
    s->task_m = malloc((size_t)s->ntasks * sizeof(int));
    s->send_col = new_map((size_t)nh * s->ntypes);
    s->cons_col = new_map((size_t)nv * s->ntasks);
    if (!s->type_a || !s->type_b || !s->task_k || !s->task_l || !s->task_m || !s->send_col ||
        !s->cons_col)
        return STEADY_ENOMEM;
    for (int k = 0; k < N; k++)
        for (int mm = k; mm < N; mm++) {
            int t = interval(N, k, mm);
            s->type_a[t] = k;
            s->type_b[t] = mm;
        }
    int nt = 0;
    int *tix = malloc((size_t)N * sizeof *tix);
    task_ref_t *touch = malloc((size_t)(N + 1) * sizeof *touch);
    if (!tix || !touch) {
        free(tix);
        free(touch);
        return STEADY_ENOMEM;
    }
    for (int k = 0; k < N; k++)
        for (int l = k, first = 1; l < N; l++)
            for (int mm = l + 1; mm < N; mm++) {
                if (first) {
                    tix[k] = nt;
                    first = 0;
                }
                s->task_k[nt] = k;
                s->task_l[nt] = l;
                s->task_m[nt++] = mm;
            }
    /* position of each participant, -1 for other nodes */
    int *part = new_map((size_t)nv);
    if (!part) {
        free(tix);
        free(touch);
        return STEADY_ENOMEM;
    }
    for (int i = 0; i < N; i++)
        part[s->sources[i]] = i;

    s->tp_col = lp_add_col(m, "TP");
    char label[32];
    for (int t = 0; t < s->ntypes && !m->stopped; t++) {
        int k = s->type_a[t], mm = s->type_b[t];
        type_label(s, t, label, sizeof label);
        for (int h = 0; h < nh; h++) {
            const steady_hop_t *hop = steady_hop_graph_hop(s->hops, h);
            if ((k == 0 && mm == N - 1 && hop->src == target) || (k == mm && part[hop->dst] == k))
                continue; /* the result leaving the target, a value returning to its owner */
            s->send_col[(size_t)h * s->ntypes + t] =
                lp_add_col(m, "send(%s,%s%s;%s)", name_of(s, hop->src), name_of(s, hop->dst),
                           via_label(s, hop), label);
        }
    }
    for (int v = 0; v < nv && !m->stopped; v++)
        if (steady_platform_node(s->p, v)->kind == STEADY_PROCESSOR)
            for (int q = 0; q < s->ntasks; q++)
                s->cons_col[(size_t)v * s->ntasks + q] =
                    lp_add_col(m, "cons(%s;%d,%d,%d)", name_of(s, v), s->task_k[q], s->task_l[q],
                               s->task_m[q]);
    capacity_rows(s, m);
    for (int v = 0; v < nv && !m->stopped; v++) { /* (7), (9): alpha(v) = sum cons * w(v) <= 1 */
        if (steady_platform_node(s->p, v)->kind != STEADY_PROCESSOR)
            continue;
        int row = lp_add_row(m, ROW_UP, 1, "cpu_%s", name_of(s, v));
        for (int q = 0; q < s->ntasks; q++)
            lp_add_entry(m, row, s->cons_col[(size_t)v * s->ntasks + q], s->work[v]);
    }
    /* (10): conservation of v[k,mm] at v, with the two exemptions; (11) */
    for (int v = 0; v < nv && !m->stopped; v++)
        for (int t = 0; t < s->ntypes; t++) {
            int k = s->type_a[t], mm = s->type_b[t];
            if (k == mm && part[v] == k)
                continue; /* v owns v[k,k]: an unlimited supply */
            type_label(s, t, label, sizeof label);
            bool result = v == target && k == 0 && mm == N - 1;
            int row = result ? throughput_row(s, m, v, s->send_col, s->ntypes, t, label)
                             : conservation_row(s, m, v, s->send_col, s->ntypes, t, label);
            const int *cons = &s->cons_col[(size_t)v * s->ntasks];
            /* The tasks that touch v[k,mm], in task order (which keeps the
             * model identical to scanning every task): T(n,k-1,mm), n < k,
             * consume it as right operand; T(k,l,mm), k <= l < mm, produce
             * it; T(k,mm,n), n > mm, consume it as left operand.  Listing
             * them directly costs O(N) per interval instead of O(N^3),
             * which made building the LP O(V N^5): hours for N = 100. */
            int nq = 0;
            for (int n = 0; n < k; n++)
                touch[nq++] = (task_ref_t){task_index(tix, N, n, k - 1, mm), -1};
            for (int l = k; l < mm; l++)
                touch[nq++] = (task_ref_t){task_index(tix, N, k, l, mm), 1};
            for (int n = mm + 1; n < N; n++)
                touch[nq++] = (task_ref_t){task_index(tix, N, k, mm, n), -1};
            for (int j = 0; j < nq; j++) {
                int col = cons[touch[j].task];
                if (col < 0)
                    continue;
                if (row < 0)
                    row = lp_add_row(m, ROW_FX, 0, "cons_%s_%s", name_of(s, v), label);
                lp_add_entry_si(m, row, col, touch[j].sign);
            }
        }
    free(part);
    free(tix);
    free(touch);
    return STEADY_OK;
}

/* ---- solving --------------------------------------------------------------- */

static steady_err_t set_costs(steady_solution_t *s, steady_error_t *err)
{
    int nh = s->nhops, nv = steady_platform_node_count(s->p);
    s->comm = malloc((size_t)(nh ? nh : 1) * sizeof *s->comm);
    s->work = malloc((size_t)nv * sizeof *s->work);
    if (!s->comm || !s->work) {
        free(s->comm);
        free(s->work);
        s->comm = s->work = NULL;
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    }
    for (int h = 0; h < nh; h++) {
        mpq_init(s->comm[h]);
        steady_exact_hop_time(s->p, steady_hop_graph_hop(s->hops, h), s->msg_size, s->comm[h]);
    }
    for (int v = 0; v < nv; v++) {
        mpq_init(s->work[v]);
        steady_exact_task_time(s->p, v, s->task_cost, s->work[v]);
    }
    return STEADY_OK;
}

/* The exact recovery, as GLPK's accept callback: values go straight into
 * the solution; the time it takes is kept apart from GLPK's. */
struct exact_ctx {
    mpq_t *value;
    const char **why;
    double seconds;
    lp_watch_t *watch;
};

static bool accept_exact(const lp_model_t *m, const lp_status_t *row_stat,
                         const lp_status_t *col_stat, void *arg)
{
    struct exact_ctx *ctx = arg;
    double t = now();
    bool ok = lp_exact_solution(m, row_stat, col_stat, ctx->value, ctx->watch, ctx->why);
    ctx->seconds += now() - t;
    return ok;
}

/* A new solution of prob on p with its LP built into m (problem checked,
 * costs set); the watch bounds the building. */
static steady_err_t prepare(const steady_platform_t *p, const steady_problem_t *prob, lp_model_t *m,
                            lp_watch_t *watch, steady_solution_t **out, steady_error_t *err)
{
    *out = NULL;
    steady_solution_t *s = calloc(1, sizeof *s);
    if (!s)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    s->p = p;
    s->op = prob->op;
    s->msg_size = prob->msg_size > 0 ? prob->msg_size : 1048576.0;
    s->task_cost = prob->task_cost > 0              ? prob->task_cost
                   : steady_platform_is_abstract(p) ? 1.0
                                                    : s->msg_size;
    m->watch = watch;
    steady_err_t rc;
    if (!isfinite(prob->msg_size) || prob->msg_size < 0 || !isfinite(prob->task_cost) ||
        prob->task_cost < 0) {
        rc = steady_error_set(err, STEADY_EINVAL, "message size and task cost must be positive");
        goto fail;
    }
    if ((rc = lp_check_ranges(p, s->msg_size, s->task_cost, err)) ||
        (rc = check_problem(s, prob, err)) || (rc = steady_hop_graph_build(p, &s->hops, err)))
        goto fail;
    s->nhops = steady_hop_graph_count(s->hops);
    if ((rc = set_costs(s, err)))
        goto fail;
    switch (s->op) {
    case STEADY_OP_SCATTER:
    case STEADY_OP_GOSSIP: rc = build_flows(s, m); break;
    case STEADY_OP_REDUCE: rc = build_reduce(s, m); break;
    case STEADY_OP_BROADCAST: rc = build_broadcast(s, m); break;
    }
    m->obj = s->tp_col;
    if (watch->expired) {
        rc = steady_error_set(err, STEADY_ESOLVER,
                              "time limit of %g s reached while building the LP (%d rows and %d "
                              "columns so far)",
                              watch->limit_s, m->nrows, m->ncols);
        goto fail;
    }
    if (rc || m->oom) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory building the LP");
        goto fail;
    }
    s->stats.rows = m->nrows;
    s->stats.cols = m->ncols;
    s->stats.nonzeros = m->nnz;
    s->value = malloc((size_t)m->ncols * sizeof *s->value);
    if (!s->value) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto fail;
    }
    s->ncols = m->ncols;
    for (int j = 0; j < m->ncols; j++)
        mpq_init(s->value[j]);
    *out = s;
    return STEADY_OK;
fail:
    steady_solution_destroy(s);
    return rc;
}

static lp_watch_t watch_of(const steady_solve_options_t *opts)
{
    lp_watch_t watch = {.start = now()};
    if (opts && opts->time_limit_ms > 0) {
        watch.limit_s = opts->time_limit_ms / 1000.0;
        watch.deadline = watch.start + watch.limit_s;
    }
    if (opts) {
        watch.progress = opts->progress;
        watch.ctx = opts->progress_ctx;
    }
    return watch;
}

steady_err_t steady_lp_solve(const steady_platform_t *p, const steady_problem_t *prob,
                             const steady_solve_options_t *opts, steady_solution_t **out,
                             steady_error_t *err)
{
    *out = NULL;
    lp_watch_t watch = watch_of(opts);
    bool exact = !opts || opts->exact;
    lp_model_t m;
    lp_model_init(&m);
    lp_status_t *row_stat = NULL, *col_stat = NULL;
    double *x = NULL;
    steady_solution_t *s;
    steady_err_t rc = prepare(p, prob, &m, &watch, &s, err);
    if (rc)
        goto fail;
    double t1 = now();
    s->stats.build_s = t1 - watch.start;

    row_stat = malloc((size_t)m.nrows * sizeof *row_stat);
    col_stat = malloc((size_t)m.ncols * sizeof *col_stat);
    x = malloc((size_t)m.ncols * sizeof *x);
    if (!row_stat || !col_stat || !x) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto fail;
    }
    const char *why = "";
    struct exact_ctx ctx = {.value = s->value, .why = &why, .watch = &watch};
    bool accepted;
    if ((rc = lp_glpk_solve(&m, opts, &watch, exact ? accept_exact : NULL, &ctx, row_stat, col_stat,
                            x, &accepted, &why, err)))
        goto fail;
    s->stats.solve_s = now() - t1 - ctx.seconds;
    s->exact = accepted;
    if (!s->exact) {
        s->note = exact ? why : "exact recovery not requested";
        for (int j = 0; j < m.ncols; j++)
            mpq_set_d(s->value[j], x[j] > 0 ? x[j] : 0.0);
    } else {
        s->note = "";
    }
    s->stats.exact_s = ctx.seconds;
    *out = s;
    s = NULL;

fail:
    free(row_stat);
    free(col_stat);
    free(x);
    lp_model_free(&m);
    steady_solution_destroy(s);
    return rc;
}

/* The problem s solves, its node sets resolved. */
static steady_problem_t problem_of(const steady_solution_t *s)
{
    steady_problem_t prob = {.op = s->op, .msg_size = s->msg_size, .task_cost = s->task_cost};
    switch (s->op) {
    case STEADY_OP_SCATTER:
    case STEADY_OP_BROADCAST:
        prob.source = s->sources[0];
        prob.targets = s->targets;
        prob.ntargets = s->ntargets;
        break;
    case STEADY_OP_GOSSIP:
        prob.sources = s->sources;
        prob.nsources = s->nsources;
        prob.targets = s->targets;
        prob.ntargets = s->ntargets;
        break;
    case STEADY_OP_REDUCE:
        prob.participants = s->sources;
        prob.nparticipants = s->nsources;
        prob.target = s->targets[0];
        break;
    }
    return prob;
}

steady_err_t steady_lp_solve_segment(const steady_solution_t *lp, long m,
                                     const steady_solve_options_t *opts, steady_solution_t **out,
                                     steady_error_t *err)
{
    *out = NULL;
    if (m < 1)
        return steady_error_set(err, STEADY_EINVAL, "segments: %ld is not positive", m);
    if (steady_platform_is_abstract(lp->p))
        return steady_error_set(err, STEADY_EINVAL,
                                "segments: an abstract platform's costs are per message, which "
                                "cannot be cut (%ld segments)",
                                m);
    steady_problem_t prob = problem_of(lp);
    prob.msg_size = lp->msg_size / (double)m;
    prob.task_cost = lp->task_cost / (double)m;
    bool overhead = false;
    for (int e = 0; e < steady_platform_edge_count(lp->p); e++)
        overhead = overhead || steady_platform_edge(lp->p, e)->overhead > 0;
    if (overhead)
        return steady_lp_solve(lp->p, &prob, opts, out, err);
    /* every cost is lp's divided by m: the rates times m are optimal */
    lp_watch_t watch = watch_of(opts);
    lp_model_t model;
    lp_model_init(&model);
    steady_solution_t *s;
    steady_err_t rc = prepare(lp->p, &prob, &model, &watch, &s, err);
    lp_model_free(&model);
    if (rc)
        return rc;
    if (s->ncols != lp->ncols) {
        steady_solution_destroy(s);
        return steady_error_set(err, STEADY_EINTERNAL,
                                "the LP of a segment has %d columns, the message's %d", s->ncols,
                                lp->ncols);
    }
    mpq_t mq;
    mpq_init(mq);
    mpq_set_si(mq, m, 1);
    for (int j = 0; j < s->ncols; j++)
        mpq_mul(s->value[j], lp->value[j], mq);
    mpq_clear(mq);
    s->exact = lp->exact;
    s->note = lp->note;
    s->stats.build_s = now() - watch.start;
    *out = s;
    return STEADY_OK;
}

/* The counts n (integers, one per column, TP's = k) as an exact solution
 * of m: T = the largest load of a capacity row, each rate n / T, with row
 * (nrows initialised mpq_t, zero) as scratch.  Every row is checked
 * exactly; false if one fails (GLPK's tolerances). */
static bool whole_values(const lp_model_t *m, const double *x, mpq_t *row, mpq_t *value)
{
    mpq_t q, T;
    mpq_inits(q, T, NULL);
    bool ok = true;
    for (int j = 0; j < m->ncols && ok; j++) {
        double r = nearbyint(x[j]);
        ok = isfinite(x[j]) && fabs(x[j] - r) < 1e-6 && r >= 0 && r < 1e15;
        if (ok)
            mpq_set_d(value[j], r);
    }
    for (int k = 0; ok && k < m->nnz; k++) {
        mpq_mul(q, m->a[k].val, value[m->a[k].col]);
        mpq_add(row[m->a[k].row], row[m->a[k].row], q);
    }
    for (int i = 0; ok && i < m->nrows; i++)
        if (m->row_kind[i] == ROW_UP && m->row_bound[i] == 1) {
            if (mpq_cmp(row[i], T) > 0)
                mpq_set(T, row[i]);
        } else {
            int c = mpq_cmp_si(row[i], 0, 1);
            ok = m->row_kind[i] == ROW_FX ? c == 0 : c <= 0;
        }
    ok = ok && mpq_sgn(T) > 0;
    for (int j = 0; ok && j < m->ncols; j++)
        mpq_div(value[j], value[j], T);
    mpq_clears(q, T, NULL);
    return ok;
}

steady_err_t steady_lp_solve_whole(const steady_solution_t *lp, long k, long node_limit,
                                   const steady_solve_options_t *opts, steady_solution_t **out,
                                   long *nodes, steady_error_t *err)
{
    *out = NULL;
    if (nodes)
        *nodes = 0;
    if (k < 1)
        return steady_error_set(err, STEADY_EINVAL,
                                "whole counts need at least one operation per period (%ld)", k);
    long examined = 0;
    lp_watch_t watch = watch_of(opts);
    steady_problem_t prob = problem_of(lp);
    lp_model_t m;
    lp_model_init(&m);
    steady_solution_t *s;
    double *x = NULL;
    bool found = false;
    steady_err_t rc = prepare(lp->p, &prob, &m, &watch, &s, err);
    if (rc)
        goto fail;
    double t1 = now();
    s->stats.build_s = t1 - watch.start;
    if (!(x = malloc((size_t)m.ncols * sizeof *x))) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto fail;
    }
    if ((rc = lp_glpk_solve_whole(&m, k, node_limit, &watch, x, &found, &examined, err)))
        goto fail;
    s->stats.solve_s = now() - t1;
    if (found) {
        mpq_t *row = malloc((size_t)(m.nrows ? m.nrows : 1) * sizeof *row);
        if (!row) {
            rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
            goto fail;
        }
        for (int i = 0; i < m.nrows; i++)
            mpq_init(row[i]);
        bool ok = whole_values(&m, x, row, s->value);
        for (int i = 0; i < m.nrows; i++)
            mpq_clear(row[i]);
        free(row);
        if (!ok) {
            rc = steady_error_set(err, STEADY_EINTERNAL,
                                  "GLPK's whole counts for %ld operations per period do not "
                                  "satisfy the LP exactly",
                                  k);
            goto fail;
        }
    }
    if (found) {
        s->exact = true;
        s->note = "";
        *out = s;
        s = NULL;
    }

fail:
    if (nodes)
        *nodes = examined;
    free(x);
    lp_model_free(&m);
    steady_solution_destroy(s);
    return rc;
}

void steady_solution_destroy(steady_solution_t *s)
{
    if (!s)
        return;
    if (s->value)
        for (int j = 0; j < s->ncols; j++)
            mpq_clear(s->value[j]);
    if (s->comm)
        for (int h = 0; h < s->nhops; h++)
            mpq_clear(s->comm[h]);
    if (s->work)
        for (int v = 0; v < steady_platform_node_count(s->p); v++)
            mpq_clear(s->work[v]);
    free(s->value);
    free(s->comm);
    free(s->work);
    free(s->sources);
    free(s->targets);
    free(s->type_a);
    free(s->type_b);
    free(s->task_k);
    free(s->task_l);
    free(s->task_m);
    free(s->send_col);
    free(s->cons_col);
    free(s->flow_col);
    steady_hop_graph_destroy(s->hops);
    free(s);
}

/* ---- accessors ------------------------------------------------------------- */

const steady_platform_t *steady_solution_platform(const steady_solution_t *s)
{
    return s->p;
}

const steady_hop_graph_t *steady_solution_hops(const steady_solution_t *s)
{
    return s->hops;
}

steady_op_t steady_solution_op(const steady_solution_t *s)
{
    return s->op;
}

double steady_solution_msg_size(const steady_solution_t *s)
{
    return s->msg_size;
}

double steady_solution_task_cost(const steady_solution_t *s)
{
    return s->task_cost;
}

const int *steady_solution_sources(const steady_solution_t *s, int *count)
{
    *count = s->nsources;
    return s->sources;
}

const int *steady_solution_targets(const steady_solution_t *s, int *count)
{
    *count = s->ntargets;
    return s->targets;
}

bool steady_solution_is_bound(const steady_solution_t *s)
{
    return s->bound;
}

bool steady_solution_is_exact(const steady_solution_t *s)
{
    return s->exact;
}

const char *steady_solution_note(const steady_solution_t *s)
{
    return s->note;
}

void steady_solution_throughput(const steady_solution_t *s, mpq_t tp)
{
    mpq_set(tp, s->value[s->tp_col]);
}

double steady_solution_throughput_d(const steady_solution_t *s)
{
    return mpq_get_d(s->value[s->tp_col]);
}

int steady_solution_type_count(const steady_solution_t *s)
{
    return s->ntypes;
}

void steady_solution_type_name(const steady_solution_t *s, int type, char *buf, size_t n)
{
    type_label(s, type, buf, n);
}

void steady_solution_type_ends(const steady_solution_t *s, int type, int *a, int *b)
{
    *a = s->type_a[type];
    *b = s->type_b[type];
}

static void value_of(const steady_solution_t *s, int col, mpq_t out)
{
    if (col < 0)
        mpq_set_ui(out, 0, 1);
    else
        mpq_set(out, s->value[col]);
}

void steady_solution_send(const steady_solution_t *s, int hop, int type, mpq_t rate)
{
    value_of(s, s->send_col[(size_t)hop * s->ntypes + type], rate);
}

int steady_solution_task_count(const steady_solution_t *s)
{
    return s->ntasks;
}

void steady_solution_task(const steady_solution_t *s, int task, int *k, int *l, int *m)
{
    *k = s->task_k[task];
    *l = s->task_l[task];
    *m = s->task_m[task];
}

void steady_solution_cons(const steady_solution_t *s, int node, int task, mpq_t rate)
{
    value_of(s, s->cons_col ? s->cons_col[(size_t)node * s->ntasks + task] : -1, rate);
}

void steady_solution_flow(const steady_solution_t *s, int hop, int target, mpq_t rate)
{
    value_of(s, s->flow_col ? s->flow_col[(size_t)hop * s->ntargets + target] : -1, rate);
}

void steady_solution_hop_time(const steady_solution_t *s, int hop, mpq_t c)
{
    mpq_set(c, s->comm[hop]);
}

void steady_solution_hop_busy(const steady_solution_t *s, int hop, mpq_t busy)
{
    mpq_t r;
    mpq_init(r);
    mpq_set_ui(busy, 0, 1);
    for (int t = 0; t < s->ntypes; t++) {
        steady_solution_send(s, hop, t, r);
        mpq_add(busy, busy, r);
    }
    mpq_mul(busy, busy, s->comm[hop]);
    mpq_clear(r);
}

void steady_solution_node_busy(const steady_solution_t *s, int node, mpq_t send, mpq_t recv,
                               mpq_t cpu)
{
    mpq_t b;
    mpq_init(b);
    mpq_set_ui(send, 0, 1);
    mpq_set_ui(recv, 0, 1);
    mpq_set_ui(cpu, 0, 1);
    int n;
    const int *hs = steady_hop_graph_out(s->hops, node, &n);
    for (int k = 0; k < n; k++) {
        steady_solution_hop_busy(s, hs[k], b);
        mpq_add(send, send, b);
    }
    hs = steady_hop_graph_in(s->hops, node, &n);
    for (int k = 0; k < n; k++) {
        steady_solution_hop_busy(s, hs[k], b);
        mpq_add(recv, recv, b);
    }
    for (int q = 0; q < s->ntasks; q++) {
        steady_solution_cons(s, node, q, b);
        mpq_mul(b, b, s->work[node]);
        mpq_add(cpu, cpu, b);
    }
    mpq_clear(b);
}

void steady_solution_resource_busy(const steady_solution_t *s, mpq_t *busy)
{
    int nr = steady_platform_resource_count(s->p);
    mpq_t rate, q;
    mpq_inits(rate, q, NULL);
    for (int r = 0; r < nr; r++)
        mpq_set_ui(busy[r], 0, 1);
    for (int h = 0; h < s->nhops && nr > 0; h++) {
        mpq_set_ui(rate, 0, 1);
        for (int t = 0; t < s->ntypes; t++) {
            value_of(s, s->send_col[(size_t)h * s->ntypes + t], q);
            mpq_add(rate, rate, q);
        }
        if (mpq_sgn(rate) == 0)
            continue;
        const steady_hop_t *hop = steady_hop_graph_hop(s->hops, h);
        for (int k = 0; k < hop->nedges; k++) {
            int nu;
            const steady_use_t *u = steady_platform_edge_uses(s->p, hop->edges[k], &nu);
            for (int j = 0; j < nu; j++) {
                steady_exact_use_time(s->p, hop->edges[k], &u[j], s->msg_size, q);
                mpq_mul(q, q, rate);
                mpq_add(busy[u[j].resource], busy[u[j].resource], q);
            }
        }
    }
    mpq_clears(rate, q, NULL);
}

void steady_solution_stats(const steady_solution_t *s, steady_lp_stats_t *stats)
{
    *stats = s->stats;
}
