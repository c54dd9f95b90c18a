/*
 * platform.c — the platform graph: nodes, directed edges, adjacency, the
 * name index, and the model's validation rules (docs/design.md, "The model
 * and its units").
 *
 * Storage is a pair of growable arrays (nodes, edges) plus per-node adjacency
 * arrays of edge ids.  Names are looked up through a small open-addressing
 * hash table: readers resolve two names per edge, and a linear scan would make
 * reading a 10^4-node platform quadratic.  (igraph's string trie is internal
 * to igraph, so the table is written here.)
 */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"

#include "../common/array.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int *ids;
    int count, cap;
} id_list_t;

struct steady_platform {
    char *name;
    steady_node_t *nodes;
    int node_count, node_cap;
    steady_edge_t *edges;
    int edge_count, edge_cap;
    id_list_t *out, *in; /* per node, parallel to nodes */
    int processors;
    int *slots; /* name hash table: node id or -1; size slot_cap (power of 2) */
    int slot_cap;
};

/* ---- small helpers -------------------------------------------------------- */

static steady_err_t oom(steady_error_t *err)
{
    return steady_error_set(err, STEADY_ENOMEM, "out of memory");
}

/* Grows *array (of elem bytes) so that it holds at least need elements. */
static bool id_list_push(id_list_t *l, int id)
{
    if (!array_grow((void **)&l->ids, &l->cap, l->count + 1, sizeof *l->ids, 8))
        return false;
    l->ids[l->count++] = id;
    return true;
}

/* -0 is stored as 0: the writers would print "-0", and a reader or a
 * writer that skips zero values would not give it back. */
static double unsigned_zero(double x)
{
    return x == 0 ? 0 : x;
}

/* FNV-1a: short names, no adversary; good enough and dependency-free. */
static uint64_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

/* Slot where name is, or the empty slot where it would go. */
static int find_slot(const steady_platform_t *p, const char *name)
{
    size_t mask = (size_t)p->slot_cap - 1;
    size_t i = (size_t)hash_name(name) & mask;
    while (p->slots[i] >= 0 && strcmp(p->nodes[p->slots[i]].name, name) != 0)
        i = (i + 1) & mask;
    return (int)i;
}

/* Keeps the table at most half full so probes stay short. */
static bool reserve_slots(steady_platform_t *p, int nodes)
{
    if (2 * nodes <= p->slot_cap)
        return true;
    int ncap = p->slot_cap ? p->slot_cap : 16;
    while (2 * nodes > ncap)
        ncap *= 2;
    int *n = malloc((size_t)ncap * sizeof *n);
    if (!n)
        return false;
    int *old = p->slots;
    p->slots = n;
    p->slot_cap = ncap;
    for (int i = 0; i < ncap; i++)
        p->slots[i] = -1;
    for (int v = 0; v < p->node_count; v++)
        p->slots[find_slot(p, p->nodes[v].name)] = v;
    free(old);
    return true;
}

/* The model's ranges (docs/platform-format.md, steady/platform.h), with
 * the bounds as the messages write them. */
static const struct {
    const char *field;
    double lo, hi;
    const char *range;
} ranges[] = {
    {"bandwidth", STEADY_BANDWIDTH_MIN, STEADY_BANDWIDTH_MAX, "from 0.001 to 1e15 B/s"},
    {"latency", 0, STEADY_TIME_MAX, "from 0 to 1e6 s"},
    {"overhead", 0, STEADY_TIME_MAX, "from 0 to 1e6 s"},
    {"speed", STEADY_SPEED_MIN, STEADY_SPEED_MAX, "from 1e-6 to 1e21"},
    {"cost", STEADY_COST_MIN, STEADY_COST_MAX, "from 1e-6 to 1e6"},
};

steady_err_t check_field(const char *field, double value, const char *text, steady_error_t *err)
{
    /* the fields differ in their first letter: this runs for every value */
    size_t f = 0;
    while (f < sizeof ranges / sizeof *ranges - 1 && ranges[f].field[0] != field[0])
        f++;
    bool positive = ranges[f].lo > 0;
    if (value >= ranges[f].lo && value <= ranges[f].hi) /* false for NaN */
        return STEADY_OK;
    char shown[32];
    if (!text) {
        format_double(shown, value);
        text = shown;
    }
    if (!isfinite(value))
        return steady_error_set(err, STEADY_EINVAL, "%s is not a finite number (%s)", field, text);
    if (positive && value <= 0)
        return steady_error_set(err, STEADY_EINVAL, "non-positive %s (%s)", field, text);
    if (!positive && value < 0)
        return steady_error_set(err, STEADY_EINVAL, "negative %s (%s)", field, text);
    return steady_error_set(err, STEADY_EINVAL, "%s out of range (%s): %s", field, text,
                            ranges[f].range);
}

bool valid_node_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > STEADY_NAME_MAX)
        return false;
    for (const char *c = name; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              strchr("_.:@+/-", *c)))
            return false;
    return true;
}

/* ---- construction ----------------------------------------------------------- */

steady_err_t steady_platform_create(steady_platform_t **out, steady_error_t *err)
{
    *out = NULL;
    steady_platform_t *p = calloc(1, sizeof *p);
    if (!p)
        return oom(err);
    p->name = strdup("platform");
    if (!p->name || !reserve_slots(p, 1)) {
        steady_platform_destroy(p);
        return oom(err);
    }
    *out = p;
    return STEADY_OK;
}

void steady_platform_destroy(steady_platform_t *p)
{
    if (!p)
        return;
    for (int v = 0; v < p->node_count; v++) {
        free((char *)p->nodes[v].name);
        free(p->out[v].ids);
        free(p->in[v].ids);
    }
    free(p->nodes);
    free(p->out);
    free(p->in);
    free(p->edges);
    free(p->slots);
    free(p->name);
    free(p);
}

steady_err_t steady_platform_set_name(steady_platform_t *p, const char *name, steady_error_t *err)
{
    if (!valid_node_name(name))
        return steady_error_set(err, STEADY_EINVAL, "invalid platform name (%s)", name);
    char *copy = strdup(name);
    if (!copy)
        return oom(err);
    free(p->name);
    p->name = copy;
    return STEADY_OK;
}

const char *steady_platform_name(const steady_platform_t *p)
{
    return p->name;
}

steady_err_t steady_platform_add_node(steady_platform_t *p, const char *name,
                                      steady_node_kind_t kind, double speed, int *id,
                                      steady_error_t *err)
{
    if (!valid_node_name(name))
        return steady_error_set(err, STEADY_EINVAL,
                                "invalid node name (%.300s): use 1 to %d characters from "
                                "A-Z a-z 0-9 _ . : @ + / -",
                                name, STEADY_NAME_MAX);
    if (p->slots[find_slot(p, name)] >= 0)
        return steady_error_set(err, STEADY_EINVAL, "duplicate node (%s)", name);
    if (kind == STEADY_PROCESSOR) {
        steady_err_t rc = check_field("speed", speed, NULL, err);
        if (rc)
            return rc;
    } else if (kind == STEADY_ROUTER) {
        if (speed != 0)
            return steady_error_set(err, STEADY_EINVAL, "a router has no speed (%g)", speed);
    } else {
        return steady_error_set(err, STEADY_EINVAL, "unknown node kind (%d)", (int)kind);
    }

    int n = p->node_count;
    int cap = p->node_cap;
    if (!array_grow((void **)&p->nodes, &cap, n + 1, sizeof *p->nodes, 8))
        return oom(err);
    /* out and in grow in step with nodes, to the same capacity */
    int cap_out = p->node_cap, cap_in = p->node_cap;
    if (!array_grow((void **)&p->out, &cap_out, cap, sizeof *p->out, 8) ||
        !array_grow((void **)&p->in, &cap_in, cap, sizeof *p->in, 8))
        return oom(err);
    p->node_cap = cap;
    if (!reserve_slots(p, n + 1))
        return oom(err);
    char *copy = strdup(name);
    if (!copy)
        return oom(err);
    p->nodes[n] = (steady_node_t){.name = copy, .kind = kind, .speed = unsigned_zero(speed)};
    p->out[n] = (id_list_t){0};
    p->in[n] = (id_list_t){0};
    p->slots[find_slot(p, name)] = n;
    p->node_count++;
    if (kind == STEADY_PROCESSOR)
        p->processors++;
    if (id)
        *id = n;
    return STEADY_OK;
}

static bool is_cost_edge(const steady_edge_t *e)
{
    return e->cost != 0;
}

steady_err_t steady_platform_add_edge(steady_platform_t *p, const steady_edge_t *e, int *id,
                                      steady_error_t *err)
{
    if (e->src < 0 || e->src >= p->node_count || e->dst < 0 || e->dst >= p->node_count)
        return steady_error_set(err, STEADY_EINVAL, "unknown node id in edge (%d -> %d)", e->src,
                                e->dst);
    const char *s = p->nodes[e->src].name, *d = p->nodes[e->dst].name;
    if (e->src == e->dst)
        return steady_error_set(err, STEADY_EINVAL, "self-loop (%s -> %s)", s, d);
    if (steady_platform_find_edge(p, e->src, e->dst) >= 0)
        return steady_error_set(err, STEADY_EINVAL, "duplicate edge (%s -> %s)", s, d);

    if (e->bandwidth != 0 && e->cost != 0)
        return steady_error_set(err, STEADY_EINVAL,
                                "edge has both a bandwidth and a cost (%s -> %s)", s, d);
    if (e->bandwidth == 0 && e->cost == 0)
        return steady_error_set(err, STEADY_EINVAL,
                                "edge has neither a bandwidth nor a cost (%s -> %s)", s, d);
    if (is_cost_edge(e) && e->overhead != 0)
        return steady_error_set(err, STEADY_EINVAL,
                                "an overhead has no meaning on a cost edge (%s -> %s)", s, d);
    steady_err_t rc;
    if ((rc = check_field(is_cost_edge(e) ? "cost" : "bandwidth",
                          is_cost_edge(e) ? e->cost : e->bandwidth, NULL, err)) ||
        (rc = check_field("latency", e->latency, NULL, err)) ||
        (rc = check_field("overhead", e->overhead, NULL, err)))
        return rc;
    if (p->edge_count > 0 && is_cost_edge(e) != is_cost_edge(&p->edges[0]))
        return steady_error_set(err, STEADY_EINVAL,
                                "edge %s -> %s uses a %s but the platform's first edge uses a %s: "
                                "a platform uses abstract costs or bandwidths, not both",
                                s, d, is_cost_edge(e) ? "cost" : "bandwidth",
                                is_cost_edge(e) ? "bandwidth" : "cost");

    int m = p->edge_count;
    if (!array_grow((void **)&p->edges, &p->edge_cap, m + 1, sizeof *p->edges, 8) ||
        !id_list_push(&p->out[e->src], m))
        return oom(err);
    if (!id_list_push(&p->in[e->dst], m)) {
        p->out[e->src].count--;
        return oom(err);
    }
    p->edges[m] = *e;
    p->edges[m].bandwidth = unsigned_zero(e->bandwidth);
    p->edges[m].cost = unsigned_zero(e->cost);
    p->edges[m].latency = unsigned_zero(e->latency);
    p->edges[m].overhead = unsigned_zero(e->overhead);
    p->edge_count++;
    if (id)
        *id = m;
    return STEADY_OK;
}

steady_err_t steady_platform_validate(const steady_platform_t *p, steady_error_t *err)
{
    if (p->node_count == 0)
        return steady_error_set(err, STEADY_EINVAL, "empty platform: no node is declared");
    if (p->processors == 0)
        return steady_error_set(err, STEADY_EINVAL, "platform has no processor (%d routers only)",
                                p->node_count);
    return STEADY_OK;
}

/* ---- queries ------------------------------------------------------------------- */

int steady_platform_node_count(const steady_platform_t *p)
{
    return p->node_count;
}

int steady_platform_processor_count(const steady_platform_t *p)
{
    return p->processors;
}

int steady_platform_edge_count(const steady_platform_t *p)
{
    return p->edge_count;
}

const steady_node_t *steady_platform_node(const steady_platform_t *p, int id)
{
    return &p->nodes[id];
}

const steady_edge_t *steady_platform_edge(const steady_platform_t *p, int id)
{
    return &p->edges[id];
}

int steady_platform_find_node(const steady_platform_t *p, const char *name)
{
    return p->slots[find_slot(p, name)];
}

int steady_platform_find_edge(const steady_platform_t *p, int src, int dst)
{
    /* scan the shorter list: adding the edges of a hub stays linear */
    const id_list_t *out = &p->out[src], *in = &p->in[dst];
    if (out->count <= in->count) {
        for (int k = 0; k < out->count; k++)
            if (p->edges[out->ids[k]].dst == dst)
                return out->ids[k];
    } else {
        for (int k = 0; k < in->count; k++)
            if (p->edges[in->ids[k]].src == src)
                return in->ids[k];
    }
    return -1;
}

const int *steady_platform_out_edges(const steady_platform_t *p, int v, int *count)
{
    *count = p->out[v].count;
    return p->out[v].ids;
}

const int *steady_platform_in_edges(const steady_platform_t *p, int v, int *count)
{
    *count = p->in[v].count;
    return p->in[v].ids;
}

bool steady_platform_is_abstract(const steady_platform_t *p)
{
    return p->edge_count > 0 && is_cost_edge(&p->edges[0]);
}

double steady_platform_comm_time(const steady_platform_t *p, int edge, double msg_size)
{
    const steady_edge_t *e = &p->edges[edge];
    return is_cost_edge(e) ? e->cost : e->overhead + msg_size / e->bandwidth;
}

double steady_platform_task_time(const steady_platform_t *p, int node, double task_cost)
{
    const steady_node_t *n = &p->nodes[node];
    return n->kind == STEADY_ROUTER ? INFINITY : task_cost / n->speed;
}
