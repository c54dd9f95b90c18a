/*
 * rows.c — the rows every formulation writes the same way: the capacity
 * of each port and shared resource (docs/linear-programs.md, "The network
 * model"), and the conservation of a flow at a node.
 */
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>

const char *lp_via_label(const steady_solution_t *s, const steady_hop_t *h, char *buf, size_t n)
{
    buf[0] = '\0';
    size_t len = 0;
    for (int k = 1; k < h->nedges && len < n; k++)
        len += (size_t)snprintf(buf + len, n - len, "%s%s", k == 1 ? ",via:" : ":",
                                lp_node_name(s, steady_platform_edge(s->p, h->edges[k])->src));
    return buf;
}

/* One-port (2) and (3) on every processor and router, with s(h) = the sum
 * over the hop's columns of rate * time(h); and one row per shared
 * resource (a channel, a channel's direction, the private link between
 * two switches), with each message charged the resource's time on every
 * edge of the hop that uses it. */
void lp_capacity_rows(const steady_solution_t *s, lp_model_t *m, const int *cols, int stride)
{
    const steady_platform_t *p = s->p;
    int nv = steady_platform_node_count(p);
    for (int dir = 0; dir < 2; dir++)
        for (int v = 0; v < nv && !m->stopped; v++) {
            int n, row = -1;
            const int *hs = dir == 0 ? steady_hop_graph_out(s->hops, v, &n)
                                     : steady_hop_graph_in(s->hops, v, &n);
            for (int k = 0; k < n; k++)
                for (int t = 0; t < stride; t++) {
                    int col = cols[(size_t)hs[k] * stride + t];
                    if (col < 0)
                        continue;
                    if (row < 0)
                        row = lp_add_row(m, ROW_UP, 1, "%s_%s", dir == 0 ? "out" : "in",
                                         lp_node_name(s, v));
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
        int nuse = 0, edge;
        const steady_use_t *u;
        steady_loads_t it;
        steady_loads_start(&it, p, hop->edges, hop->nedges);
        while (steady_loads_next(&it, &edge, &u)) {
            int r = u->resource;
            lp_use_time(s, edge, u, q);
            if (slot[r] < 0) {
                slot[r] = nuse;
                use[nuse++] = r;
                mpq_set(time[slot[r]], q);
            } else {
                mpq_add(time[slot[r]], time[slot[r]], q);
            }
        }
        for (int j = 0; j < nuse; j++) {
            int r = use[j];
            for (int t = 0; t < stride; t++) {
                int col = cols[(size_t)h * stride + t];
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

int lp_flow_row(const steady_solution_t *s, lp_model_t *m, int v, const int *cols, int stride,
                int j, int rhs_col, long rhs_coef, const char *label)
{
    int row = -1, n;
    if (rhs_col >= 0)
        row = lp_add_row(m, ROW_FX, 0, "tp_%s", label);
    for (int dir = 0; dir < 2; dir++) {
        const int *hs =
            dir == 0 ? steady_hop_graph_in(s->hops, v, &n) : steady_hop_graph_out(s->hops, v, &n);
        for (int k = 0; k < n; k++) {
            int col = cols[(size_t)hs[k] * stride + j];
            if (col < 0)
                continue;
            if (row < 0)
                row = lp_add_row(m, ROW_FX, 0, "cons_%s_%s", lp_node_name(s, v), label);
            lp_add_entry_si(m, row, col, dir == 0 ? 1 : -1);
        }
    }
    if (rhs_col >= 0)
        lp_add_entry_si(m, row, rhs_col, rhs_coef);
    return row;
}
