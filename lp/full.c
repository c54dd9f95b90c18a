/*
 * full.c — the per-type LPs as docs/linear-programs.md writes them
 * (`--formulation full`; reduce's only formulation): one flow per message
 * type for scatter, gossip and reduce, one flow per target for broadcast.
 *
 * Every variable is a rate per time unit, on the platform's hops (each
 * edge between two ranks, and each path from a rank through switches to
 * another: steady_hop_graph_build; on the paper's platforms, its edges).
 * Columns:
 *   scatter, gossip  send(h, t)   messages of type t on hop h
 *   reduce           send(h, t)   messages v[k,m] on h;  cons(i, task) on processors
 *   broadcast        send(h, 0)   = n(h);  flow(h, k) per target k
 * Variables that can only waste capacity (a message leaving its destination,
 * returning to its origin) are not created at all, which the docs explain;
 * for a reduce, neither are the ones the pruning of reduce.c rules out.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static int *new_map(size_t n)
{
    int *m = malloc((n ? n : 1) * sizeof *m);
    if (m)
        for (size_t i = 0; i < n; i++)
            m[i] = -1;
    return m;
}

/* The hop's end names and via label, for column names. */
#define HOP_NAME(s, m, hop, via)                                                                   \
    lp_node_name(s, (hop)->src), lp_node_name(s, (hop)->dst),                                      \
        (m)->names ? lp_via_label(s, hop, via, sizeof via) : ""

/* SSSP and SSPA2A (paper §3.1, §3.5): one commodity per message type,
 * from its origin to its destination. */
static steady_err_t build_flows(steady_solution_t *s, lp_model_t *m)
{
    int nh = s->nhops, nv = steady_platform_node_count(s->p);
    bool gossip = s->op == STEADY_OP_GOSSIP;
    int *send_col = new_map((size_t)nh * s->ntypes);
    if (!send_col)
        return STEADY_ENOMEM;
    int tp = lp_add_tagged_col(m, COL_TP, -1, -1, "TP");
    char label[2 * STEADY_NAME_MAX + 2], via[512];
    for (int t = 0; t < s->ntypes && !m->stopped; t++) {
        int o = gossip ? s->type_a[t] : s->sources[0], d = s->type_b[t];
        if (m->names)
            steady_solution_type_name(s, t, label, sizeof label);
        for (int h = 0; h < nh; h++) {
            const steady_hop_t *hop = steady_hop_graph_hop(s->hops, h);
            if (hop->src == d || hop->dst == o) /* leaves its destination / returns to its origin */
                continue;
            send_col[(size_t)h * s->ntypes + t] = lp_add_tagged_col(
                m, COL_SEND, h, t, "send(%s,%s%s;%s)", HOP_NAME(s, m, hop, via), label);
        }
    }
    lp_capacity_rows(s, m, send_col, s->ntypes);
    for (int t = 0; t < s->ntypes && !m->stopped; t++) {
        int o = gossip ? s->type_a[t] : s->sources[0], d = s->type_b[t];
        if (m->names)
            steady_solution_type_name(s, t, label, sizeof label);
        for (int v = 0; v < nv; v++) /* (5): conservation, except at origin and destination */
            if (v != o && v != d)
                lp_flow_row(s, m, v, send_col, s->ntypes, t, -1, 0, label);
        lp_flow_row(s, m, d, send_col, s->ntypes, t, tp, -1, label); /* (6) */
    }
    m->obj = tp;
    free(send_col);
    return STEADY_OK;
}

/* SSB: messages n(h) = send(h, 0) and one flow per target bounded by n. */
static steady_err_t build_broadcast(steady_solution_t *s, lp_model_t *m)
{
    int nh = s->nhops, nv = steady_platform_node_count(s->p);
    int src = s->sources[0], nt = s->ntargets;
    int *send_col = new_map((size_t)nh);
    int *flow_col = new_map((size_t)nh * nt);
    if (!send_col || !flow_col) {
        free(send_col);
        free(flow_col);
        return STEADY_ENOMEM;
    }
    char via[512];
    int tp = lp_add_tagged_col(m, COL_TP, -1, -1, "TP");
    for (int h = 0; h < nh; h++) {
        const steady_hop_t *hop = steady_hop_graph_hop(s->hops, h);
        if (hop->dst != src)
            send_col[h] =
                lp_add_tagged_col(m, COL_SEND, h, 0, "n(%s,%s%s)", HOP_NAME(s, m, hop, via));
    }
    for (int k = 0; k < nt && !m->stopped; k++)
        for (int h = 0; h < nh; h++) {
            const steady_hop_t *hop = steady_hop_graph_hop(s->hops, h);
            if (hop->dst != src && hop->src != s->targets[k])
                flow_col[(size_t)h * nt + k] =
                    lp_add_tagged_col(m, COL_FLOW, h, k, "x(%s,%s%s;%s)", HOP_NAME(s, m, hop, via),
                                      lp_node_name(s, s->targets[k]));
        }
    lp_capacity_rows(s, m, send_col, 1);
    for (int k = 0; k < nt && !m->stopped; k++) {
        const char *tk = lp_node_name(s, s->targets[k]);
        for (int h = 0; h < nh; h++) { /* x(h,k) <= n(h) */
            int x = flow_col[(size_t)h * nt + k];
            if (x < 0)
                continue;
            const steady_hop_t *hop = steady_hop_graph_hop(s->hops, h);
            int row = lp_add_row(m, ROW_UP, 0, "share(%s,%s%s;%s)", HOP_NAME(s, m, hop, via), tk);
            lp_add_entry_si(m, row, x, 1);
            lp_add_entry_si(m, row, send_col[h], -1);
        }
        for (int v = 0; v < nv; v++)
            if (v != src && v != s->targets[k])
                lp_flow_row(s, m, v, flow_col, nt, k, -1, 0, tk);
        lp_flow_row(s, m, s->targets[k], flow_col, nt, k, tp, -1, tk);
    }
    m->obj = tp;
    free(send_col);
    free(flow_col);
    return STEADY_OK;
}

typedef struct {
    int task, sign;
} task_ref_t;

/* SSR (paper §4.2, eqs. 7-11), without the variables lp_reduce_prune rules
 * out (reduce.c). */
static steady_err_t build_reduce(steady_solution_t *s, lp_model_t *m)
{
    int nh = s->nhops, nv = steady_platform_node_count(s->p);
    int N = s->nsources, target = s->targets[0];
    lp_reduce_prune_t pr;
    if (!lp_reduce_prune(s, &pr))
        return STEADY_ENOMEM;
    int *send_col = new_map((size_t)nh * s->ntypes);
    int *cons_col = new_map((size_t)nv * s->ntasks);
    task_ref_t *touch = malloc((size_t)(N + 1) * sizeof *touch);
    int *part = new_map((size_t)nv); /* position of each participant, -1 for other nodes */
    if (!send_col || !cons_col || !touch || !part) {
        free(send_col);
        free(cons_col);
        free(touch);
        free(part);
        lp_reduce_prune_free(&pr);
        return STEADY_ENOMEM;
    }
    for (int i = 0; i < N; i++)
        part[s->sources[i]] = i;

    int tp = lp_add_tagged_col(m, COL_TP, -1, -1, "TP");
    char label[32], via[512];
    for (int t = 0; t < s->ntypes && !m->stopped; t++) {
        int k = s->type_a[t], mm = s->type_b[t];
        if (m->names)
            steady_solution_type_name(s, t, label, sizeof label);
        for (int h = 0; h < nh; h++) {
            const steady_hop_t *hop = steady_hop_graph_hop(s->hops, h);
            if ((k == 0 && mm == N - 1 && hop->src == target) || (k == mm && part[hop->dst] == k))
                continue; /* the result leaving the target, a value returning to its owner */
            if (!lp_reduce_can_send(&pr, h, t))
                continue;
            send_col[(size_t)h * s->ntypes + t] = lp_add_tagged_col(
                m, COL_SEND, h, t, "send(%s,%s%s;%s)", HOP_NAME(s, m, hop, via), label);
        }
    }
    for (int v = 0; v < nv && !m->stopped; v++)
        if (steady_platform_node(s->p, v)->kind == STEADY_PROCESSOR)
            for (int q = 0; q < s->ntasks; q++)
                if (lp_reduce_can_compute(&pr, v, q))
                    cons_col[(size_t)v * s->ntasks + q] = lp_add_tagged_col(
                        m, COL_CONS, v, q, "cons(%s;%d,%d,%d)", lp_node_name(s, v), s->task_k[q],
                        s->task_l[q], s->task_m[q]);
    lp_capacity_rows(s, m, send_col, s->ntypes);
    for (int v = 0; v < nv && !m->stopped; v++) { /* (7), (9): alpha(v) = sum cons * w(v) <= 1 */
        if (steady_platform_node(s->p, v)->kind != STEADY_PROCESSOR)
            continue;
        int row = -1;
        for (int q = 0; q < s->ntasks; q++) {
            int col = cons_col[(size_t)v * s->ntasks + q];
            if (col < 0)
                continue;
            if (row < 0)
                row = lp_add_row(m, ROW_UP, 1, "cpu_%s", lp_node_name(s, v));
            lp_add_entry(m, row, col, s->work[v]);
        }
    }
    /* (10): conservation of v[k,mm] at v, with the two exemptions; (11) */
    for (int v = 0; v < nv && !m->stopped; v++)
        for (int t = 0; t < s->ntypes; t++) {
            int k = s->type_a[t], mm = s->type_b[t];
            if (k == mm && part[v] == k)
                continue; /* v owns v[k,k]: an unlimited supply */
            if (m->names)
                steady_solution_type_name(s, t, label, sizeof label);
            bool result = v == target && k == 0 && mm == N - 1;
            int row = lp_flow_row(s, m, v, send_col, s->ntypes, t, result ? tp : -1, -1, label);
            const int *cons = &cons_col[(size_t)v * s->ntasks];
            /* The tasks that touch v[k,mm], in task order (which keeps the
             * model identical to scanning every task): T(n,k-1,mm), n < k,
             * consume it as right operand; T(k,l,mm), k <= l < mm, produce
             * it; T(k,mm,n), n > mm, consume it as left operand.  Listing
             * them directly costs O(N) per interval instead of O(N^3),
             * which made building the LP O(V N^5): hours for N = 100. */
            int nq = 0;
            for (int n = 0; n < k; n++)
                touch[nq++] = (task_ref_t){lp_task(N, n, k - 1, mm), -1};
            for (int l = k; l < mm; l++)
                touch[nq++] = (task_ref_t){lp_task(N, k, l, mm), 1};
            for (int n = mm + 1; n < N; n++)
                touch[nq++] = (task_ref_t){lp_task(N, k, mm, n), -1};
            for (int j = 0; j < nq; j++) {
                int col = cons[touch[j].task];
                if (col < 0)
                    continue;
                if (row < 0)
                    row = lp_add_row(m, ROW_FX, 0, "cons_%s_%s", lp_node_name(s, v), label);
                lp_add_entry_si(m, row, col, touch[j].sign);
            }
        }
    m->obj = tp;
    free(send_col);
    free(cons_col);
    free(part);
    free(touch);
    lp_reduce_prune_free(&pr);
    return STEADY_OK;
}

steady_err_t lp_build_full(steady_solution_t *s, lp_model_t *m)
{
    switch (s->op) {
    case STEADY_OP_SCATTER:
    case STEADY_OP_GOSSIP: return build_flows(s, m);
    case STEADY_OP_REDUCE: return build_reduce(s, m);
    case STEADY_OP_BROADCAST: return build_broadcast(s, m);
    }
    return STEADY_EINVAL;
}

steady_err_t lp_solve_full(steady_solution_t *s, const steady_solve_options_t *opts,
                           lp_watch_t *watch, steady_error_t *err)
{
    lp_model_t m;
    lp_model_init(&m);
    m.watch = watch;
    m.names = opts && opts->write_lp;
    mpq_t *values = NULL;
    s->formulation = STEADY_FORMULATION_FULL;
    steady_err_t rc = lp_build_full(s, &m);
    if ((rc = lp_built(s, &m, rc, watch, err)))
        goto done;
    values = malloc((size_t)m.ncols * sizeof *values);
    if (!values) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto done;
    }
    for (int j = 0; j < m.ncols; j++)
        mpq_init(values[j]);
    lp_run_t run = {.want_exact = !opts || opts->exact};
    if ((rc = lp_run(&m, opts, watch, &run, values, err)))
        goto done;
    s->stats.solve_s = run.simplex_s;
    s->stats.simplex = run.simplex;
    s->stats.exact_s = run.exact_s;
    s->exact = run.exact;
    s->note = run.note;
    rc = lp_store_values(s, &m, values, err);

done:
    if (values)
        for (int j = 0; j < m.ncols; j++)
            mpq_clear(values[j]);
    free(values);
    lp_model_free(&m);
    return rc;
}
