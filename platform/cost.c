/*
 * cost.c — what a transfer and a task cost in the model (docs/design.md,
 * "The model and its units"): an edge's time for a message (its overhead
 * plus its bytes over its bandwidth, or its abstract cost) and the channels
 * it crosses, its latency, a hop's (a route's) time, latency, SimGrid
 * sharing penalty and receive factor, a resource use's time (a cross use
 * is the reverse edge's, times the platform's cross-traffic share), a
 * task's time.  Read through the platform's accessors (platform.c).
 */
#include "internal.h"

#include <math.h>

double steady_platform_comm_time(const steady_platform_t *p, int edge, double msg_size)
{
    const steady_edge_t *e = steady_platform_edge(p, edge);
    return e->cost != 0 ? e->cost : e->overhead + msg_size / e->bandwidth;
}

static double channel_time(const steady_channel_t *c, double msg_size)
{
    return c->cost != 0 ? c->cost : msg_size / c->bandwidth;
}

double steady_platform_use_time(const steady_platform_t *p, int e, const steady_use_t *u,
                                double msg_size)
{
    const steady_edge_t *x = steady_platform_edge(p, e);
    if (u->cross)
        e = steady_platform_find_edge(p, x->dst, x->src);
    return (u->channel >= 0 ? channel_time(steady_platform_channel(p, u->channel), msg_size)
                            : steady_platform_comm_time(p, e, msg_size)) *
           (u->cross ? steady_platform_crosstraffic(p) : 1);
}

double steady_platform_edge_time(const steady_platform_t *p, int edge, double msg_size)
{
    const steady_edge_t *e = steady_platform_edge(p, edge);
    double t = steady_platform_comm_time(p, edge, msg_size);
    for (int k = 0; k < e->ncross; k++) {
        double c = channel_time(steady_platform_channel(p, e->cross[k].channel), msg_size);
        if (c > t)
            t = c;
    }
    return t;
}

double steady_platform_edge_latency(const steady_platform_t *p, int edge)
{
    const steady_edge_t *e = steady_platform_edge(p, edge);
    double l = e->latency;
    for (int k = 0; k < e->ncross; k++)
        l += steady_platform_channel(p, e->cross[k].channel)->latency;
    return l;
}

double steady_hop_time(const steady_platform_t *p, const steady_hop_t *h, double msg_size)
{
    double t = 0;
    for (int k = 0; k < h->nedges; k++) {
        double x = steady_platform_edge_time(p, h->edges[k], msg_size);
        if (x > t)
            t = x;
    }
    return t;
}

double steady_hop_latency(const steady_platform_t *p, const steady_hop_t *h)
{
    double l = 0;
    for (int k = 0; k < h->nedges; k++)
        l += steady_platform_edge_latency(p, h->edges[k]);
    return l;
}

double steady_hop_penalty(const steady_platform_t *p, const steady_hop_t *h)
{
    double weight_s;
    if (steady_platform_flow_sharing(p, &weight_s) == STEADY_FLOWS_FAIR)
        return 1;
    /* the edges' own penalties, and the others' latency and weight-S terms */
    double given = 0, latency = 0, weight = 0;
    for (int k = 0; k < h->nedges; k++) {
        const steady_edge_t *e = steady_platform_edge(p, h->edges[k]);
        if (e->penalty > 0) {
            given += e->penalty;
            continue;
        }
        latency += steady_platform_edge_latency(p, h->edges[k]);
        for (int c = 0; c < e->ncross; c++) {
            double bw = steady_platform_channel(p, e->cross[c].channel)->bandwidth;
            if (bw > 0)
                weight += weight_s / bw;
        }
        if (e->ncross == 0 && e->bandwidth > 0)
            weight += weight_s / e->bandwidth;
    }
    /* SimGrid: a route without latency shares with the penalty 1, whatever
     * weight-S */
    double pen = given + (latency > 0 ? latency + weight : 0);
    return pen > 0 ? pen : 1;
}

double steady_hop_recv_factor(const steady_platform_t *p, const steady_hop_t *h)
{
    return h->nedges > 0 ? steady_platform_edge(p, h->edges[0])->recv_factor : 1;
}

double steady_platform_task_time(const steady_platform_t *p, int node, double task_cost)
{
    const steady_node_t *n = steady_platform_node(p, node);
    return n->kind != STEADY_PROCESSOR ? INFINITY : task_cost / n->speed;
}
