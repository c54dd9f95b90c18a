/*
 * aggregate.c — scatter and gossip as one flow per origin
 * (docs/linear-programs.md, "Formulations"), decomposed back into the
 * per-type rates of the full LP.
 *
 * The port and resource rows of SSSP only see the sum over the types of
 * send(h, k).  Writing f(h) = sum_k send(h, k) for the messages of one
 * origin, the full LP's rows sum up to
 *     in_f(v) - out_f(v) = TP [v a target]     at every node but the origin
 * with f(h) = 0 on the hops into the origin: |H| + 1 columns instead of
 * |H| |T|.  Every solution of the full LP gives one of this LP with the
 * same TP (sum the types).  Conversely, a solution f of this LP, once its
 * circulations are cancelled (they carry nothing and only free capacity),
 * is an acyclic flow from the origin with TP leaving it for each target;
 * walking it from the origin until a target still owed messages,
 * repeatedly, decomposes it into paths, each carrying messages of the
 * target it ends at (a path may cross other targets on its way: a message
 * then leaves a target that is not its destination, which the full LP
 * allows).  Each type's paths carry TP, so the per-type rates solve the
 * full LP with the same TP and within the same capacities.  Hence the two
 * optima are equal, and the exact optimum of this LP, verified by
 * exact.c (its primal and dual checked in rationals), is the full LP's.
 * The decomposition is exact (rationals) and its result checked: every
 * type carries exactly TP.
 *
 * A gossip is one such flow per source, sharing the ports: |H| |S|
 * columns instead of |H| |S| |T|.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    steady_solution_t *s;
    int norig;
    const int *orig; /* the origins: the source, or the gossip's sources */
    int *col;        /* [h * norig + o] */
} agg_t;

static steady_err_t build(agg_t *g, lp_model_t *m)
{
    steady_solution_t *s = g->s;
    int nh = s->nhops, nv = steady_platform_node_count(s->p), no = g->norig;
    g->col = malloc((size_t)(nh ? nh : 1) * no * sizeof *g->col);
    bool *target = calloc((size_t)nv, sizeof *target);
    if (!g->col || !target) {
        free(target);
        return STEADY_ENOMEM;
    }
    for (int i = 0; i < s->ntargets; i++)
        target[s->targets[i]] = true;
    int tp = lp_add_tagged_col(m, COL_TP, -1, -1, "TP");
    char via[512];
    for (int o = 0; o < no && !m->stopped; o++)
        for (int h = 0; h < nh; h++) {
            const steady_hop_t *hop = steady_hop_graph_hop(s->hops, h);
            g->col[(size_t)h * no + o] =
                hop->dst == g->orig[o]
                    ? -1
                    : lp_add_tagged_col(m, COL_AGG, h, o, "f(%s,%s%s;%s)",
                                        lp_node_name(s, hop->src), lp_node_name(s, hop->dst),
                                        m->names ? lp_via_label(s, hop, via, sizeof via) : "",
                                        lp_node_name(s, g->orig[o]));
        }
    lp_capacity_rows(s, m, g->col, no);
    char label[2 * STEADY_NAME_MAX + 2];
    for (int o = 0; o < no && !m->stopped; o++)
        for (int v = 0; v < nv; v++) {
            if (v == g->orig[o])
                continue;
            if (m->names)
                snprintf(label, sizeof label, "%s>%s", lp_node_name(s, g->orig[o]),
                         lp_node_name(s, v));
            lp_flow_row(s, m, v, g->col, no, o, target[v] ? tp : -1, -1, label);
        }
    m->obj = tp;
    free(target);
    return STEADY_OK;
}

/* The graph of the hops a flow may cross (its support), its nodes
 * numbered in increasing order of their ids: local node u is node[u],
 * its hops hop[start[u] .. start[u + 1]) in increasing order, as g lists
 * them; mark, vstack and kstack are per local node, cyc per hop. */
typedef struct {
    int nl, *node, *start, *hop, *mark, *vstack, *kstack, *cyc;
} support_t;

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The local number of node v (of the support). */
static int local_of(const support_t *s, int v)
{
    int lo = 0, hi = s->nl;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (s->node[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* s := the support of hop[0 .. n) (sorted in place); false when memory
 * runs out. */
static bool support_build(support_t *s, const steady_hop_graph_t *g, int *hop, int n)
{
    *s = (support_t){0};
    size_t m = (size_t)(n ? 2 * n : 1);
    s->node = malloc(m * sizeof *s->node);
    s->start = calloc(m + 2, sizeof *s->start);
    s->hop = malloc(m * sizeof *s->hop);
    s->mark = malloc(m * sizeof *s->mark);
    s->vstack = malloc(m * sizeof *s->vstack);
    s->kstack = malloc(m * sizeof *s->kstack);
    s->cyc = malloc(m * sizeof *s->cyc);
    if (!s->node || !s->start || !s->hop || !s->mark || !s->vstack || !s->kstack || !s->cyc)
        return false;
    qsort(hop, (size_t)n, sizeof *hop, cmp_int);
    for (int i = 0; i < n; i++) {
        s->node[2 * i] = steady_hop_graph_hop(g, hop[i])->src;
        s->node[2 * i + 1] = steady_hop_graph_hop(g, hop[i])->dst;
    }
    qsort(s->node, (size_t)(2 * n), sizeof *s->node, cmp_int);
    for (int i = 0; i < 2 * n; i++)
        if (s->nl == 0 || s->node[s->nl - 1] != s->node[i])
            s->node[s->nl++] = s->node[i];
    for (int i = 0; i < n; i++)
        s->start[local_of(s, steady_hop_graph_hop(g, hop[i])->src) + 2]++;
    for (int u = 0; u < s->nl; u++)
        s->start[u + 1] += s->start[u];
    for (int i = 0; i < n; i++) /* stable: each node's hops in increasing order */
        s->hop[s->start[local_of(s, steady_hop_graph_hop(g, hop[i])->src) + 1]++] = hop[i];
    return true;
}

static void support_free(support_t *s)
{
    free(s->node);
    free(s->start);
    free(s->hop);
    free(s->mark);
    free(s->vstack);
    free(s->kstack);
    free(s->cyc);
}

/* Looks for a directed cycle of hops with positive flow in the support
 * (depth-first, from every node in increasing order of id, each node's
 * hops in g's order).  Stores its hops, in order along the cycle, in
 * s->cyc and returns their number; 0 when the flow is acyclic.
 * O(support). */
static int find_cycle(const steady_hop_graph_t *g, support_t *s, mpq_t *flow)
{
    int *mark = s->mark, *vstack = s->vstack, *kstack = s->kstack;
    memset(mark, 0, (size_t)s->nl * sizeof *mark); /* 0 new, 1 on the stack, 2 done */
    for (int root = 0; root < s->nl; root++) {
        if (mark[root])
            continue;
        int depth = 0;
        vstack[0] = root;
        kstack[0] = 0;
        mark[root] = 1;
        while (depth >= 0) {
            int u = vstack[depth], n = s->start[u + 1] - s->start[u];
            const int *out = s->hop + s->start[u];
            if (kstack[depth] == n) {
                mark[u] = 2;
                depth--;
                continue;
            }
            int e = out[kstack[depth]++];
            if (mpq_sgn(flow[e]) <= 0)
                continue;
            int w = local_of(s, steady_hop_graph_hop(g, e)->dst);
            if (mark[w] == 2)
                continue;
            if (mark[w] == 1) { /* back edge: the stack from w to u, then e */
                int d = depth, len = 0;
                while (vstack[d] != w)
                    d--;
                for (; d < depth; d++)
                    s->cyc[len++] = s->hop[s->start[vstack[d]] + kstack[d] - 1];
                s->cyc[len++] = e;
                return len;
            }
            mark[w] = 1;
            vstack[++depth] = w;
            kstack[depth] = 0;
        }
    }
    return 0;
}

/* lp.h */
int steady_hop_flow_cancel_cycles_in(const steady_hop_graph_t *g, mpq_t *flow, const int *hop,
                                     int n)
{
    int *sorted = malloc((size_t)(n ? n : 1) * sizeof *sorted), cancelled = -1, len;
    support_t s;
    mpq_t low;
    mpq_init(low);
    if (sorted)
        memcpy(sorted, hop, (size_t)n * sizeof *sorted);
    if (!sorted || !support_build(&s, g, sorted, n))
        goto cleanup;
    cancelled = 0;
    while ((len = find_cycle(g, &s, flow)) > 0) {
        mpq_set(low, flow[s.cyc[0]]);
        for (int i = 1; i < len; i++)
            if (mpq_cmp(flow[s.cyc[i]], low) < 0)
                mpq_set(low, flow[s.cyc[i]]);
        for (int i = 0; i < len; i++)
            mpq_sub(flow[s.cyc[i]], flow[s.cyc[i]], low);
        cancelled++;
    }
cleanup:
    if (sorted)
        support_free(&s);
    mpq_clear(low);
    free(sorted);
    return cancelled;
}

/* lp.h */
int steady_hop_flow_cancel_cycles(const steady_hop_graph_t *g, mpq_t *flow)
{
    int nh = steady_hop_graph_count(g), n = 0;
    int *hop = malloc((size_t)(nh ? nh : 1) * sizeof *hop);
    if (!hop)
        return -1;
    for (int h = 0; h < nh; h++)
        if (mpq_sgn(flow[h]) > 0)
            hop[n++] = h;
    int cancelled = steady_hop_flow_cancel_cycles_in(g, flow, hop, n);
    free(hop);
    return cancelled;
}

/* Decomposes origin o's flow (flow[h], acyclic after
 * steady_hop_flow_cancel_cycles) into  * paths to the targets, each owed TP (type[v]: the type of
 * the messages from o to v, -1 when v is not a target), into b.  With exact values every target
 * gets exactly TP (false otherwise: a bug, or approximate values, whose paths are then cut where
 * they stall). */
static bool decompose(const agg_t *g, int o, mpq_t *flow, const int *type, lp_rate_builder_t *b,
                      bool *complete)
{
    steady_solution_t *s = g->s;
    int nv = steady_platform_node_count(s->p), nh = s->nhops;
    mpq_t *owed = malloc((size_t)nv * sizeof *owed);
    int *next = calloc((size_t)nv, sizeof *next); /* the first out-hop that may still carry */
    int *path = malloc((size_t)(nh + 1) * sizeof *path);
    bool ok = owed && next && path;
    if (!ok) {
        free(owed);
        free(next);
        free(path);
        return false;
    }
    int left = 0;
    for (int v = 0; v < nv; v++) {
        mpq_init(owed[v]);
        if (type[v] >= 0) {
            mpq_set(owed[v], s->tp);
            left += mpq_sgn(owed[v]) > 0;
        }
    }
    mpq_t a;
    mpq_init(a);
    *complete = true;
    int src = g->orig[o];
    while (left > 0) {
        int u = src, len = 0;
        bool stalled = false;
        while (!(u != src && mpq_sgn(owed[u]) > 0)) {
            int n;
            const int *out = steady_hop_graph_out(s->hops, u, &n);
            while (next[u] < n && mpq_sgn(flow[out[next[u]]]) <= 0)
                next[u]++;
            if (next[u] == n || len > nh) {
                stalled = true;
                break;
            }
            int h = out[next[u]];
            path[len++] = h;
            u = steady_hop_graph_hop(s->hops, h)->dst;
        }
        if (stalled && len == 0) {
            *complete = false;
            break; /* nothing leaves the origin any more */
        }
        mpq_set(a, stalled ? flow[path[0]] : owed[u]);
        for (int i = 0; i < len; i++)
            if (mpq_cmp(flow[path[i]], a) < 0)
                mpq_set(a, flow[path[i]]);
        for (int i = 0; i < len; i++) {
            mpq_sub(flow[path[i]], flow[path[i]], a);
            if (!stalled)
                lp_rb_add(b, path[i], type[u], a);
        }
        if (stalled) {
            *complete = false;
            continue;
        }
        mpq_sub(owed[u], owed[u], a);
        left -= mpq_sgn(owed[u]) == 0;
    }
    for (int v = 0; v < nv; v++)
        mpq_clear(owed[v]);
    mpq_clear(a);
    free(owed);
    free(next);
    free(path);
    return true;
}

steady_err_t lp_solve_aggregate(steady_solution_t *s, const steady_solve_options_t *opts,
                                lp_watch_t *watch, steady_error_t *err)
{
    agg_t g = {.s = s};
    bool gossip = s->op == STEADY_OP_GOSSIP;
    g.norig = gossip ? s->nsources : 1;
    g.orig = s->sources;
    lp_model_t m;
    lp_model_init(&m);
    m.watch = watch;
    m.names = opts && opts->write_lp;
    mpq_t *values = NULL, *flow = NULL;
    int *type = NULL;
    int nv = steady_platform_node_count(s->p), nh = s->nhops;
    s->formulation = STEADY_FORMULATION_AGGREGATED;
    steady_err_t rc = build(&g, &m);
    if ((rc = lp_built(s, &m, rc, watch, err)))
        goto done;
    values = malloc((size_t)m.ncols * sizeof *values);
    flow = malloc((size_t)(nh ? nh : 1) * sizeof *flow);
    type = malloc((size_t)nv * sizeof *type);
    if (!values || !flow || !type) {
        free(values);
        free(flow);
        values = flow = NULL;
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto done;
    }
    for (int j = 0; j < m.ncols; j++)
        mpq_init(values[j]);
    for (int h = 0; h < nh; h++)
        mpq_init(flow[h]);
    lp_run_t run = {.want_exact = !opts || opts->exact};
    if ((rc = lp_run(&m, opts, watch, &run, values, err)))
        goto done;
    s->stats.solve_s = run.simplex_s;
    s->stats.simplex = run.simplex;
    s->stats.exact_s = run.exact_s;
    s->exact = run.exact;
    s->note = run.note;
    mpq_set(s->tp, values[m.obj]);

    /* per origin: its flow, cycles cancelled, into paths per type */
    double t0 = lp_now();
    lp_rate_builder_t b;
    lp_rb_init(&b);
    int t = 0;
    for (int o = 0; o < g.norig; o++) {
        for (int v = 0; v < nv; v++)
            type[v] = -1;
        for (; t < s->ntypes && (!gossip || s->type_a[t] == g.orig[o]); t++)
            type[s->type_b[t]] = t;
        for (int h = 0; h < nh; h++) {
            int c = g.col[(size_t)h * g.norig + o];
            if (c >= 0)
                mpq_set(flow[h], values[c]);
            else
                mpq_set_ui(flow[h], 0, 1);
        }
        bool complete;
        if (steady_hop_flow_cancel_cycles(s->hops, flow) < 0 ||
            !decompose(&g, o, flow, type, &b, &complete)) {
            lp_rb_free(&b);
            rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
            goto done;
        }
        if (!complete && s->exact) {
            lp_rb_free(&b);
            rc = steady_error_set(err, STEADY_EINTERNAL,
                                  "the flow from %s does not carry TP to every target (a bug)",
                                  lp_node_name(s, g.orig[o]));
            goto done;
        }
        if ((o & 15) == 0)
            lp_watch_tick(watch, "routes of the flows, origin", o, g.norig);
    }
    if (!lp_rb_finish(&b, nh, &s->send)) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto done;
    }
    s->stats.exact_s += lp_now() - t0;

done:
    if (values)
        for (int j = 0; j < m.ncols; j++)
            mpq_clear(values[j]);
    if (flow)
        for (int h = 0; h < nh; h++)
            mpq_clear(flow[h]);
    free(values);
    free(flow);
    free(type);
    free(g.col);
    lp_model_free(&m);
    return rc;
}
