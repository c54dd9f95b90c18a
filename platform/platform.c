/*
 * platform.c — the platform graph: nodes, channels, directed edges,
 * adjacency, the name indexes, ranks and shared resources, and the model's
 * rules for each element (docs/design.md, "The model and its units").  The
 * rules about the whole graph (paths through switches) are in network.c.
 *
 * Storage is growable arrays (nodes, channels, edges) plus per-node
 * adjacency arrays of edge ids.  Names are looked up through small
 * open-addressing hash tables, one for nodes and one for channels (SimGrid
 * keeps links and hosts in different namespaces): readers resolve two names
 * per edge, and a linear scan would make reading a 10^4-node platform
 * quadratic.  (igraph's string trie is internal to igraph, so the table is
 * written here.)
 *
 * Ranks and resources are numbered as the elements are added: a node that
 * holds ports gets the next rank, a SHARED channel the next resource, a
 * SPLITDUPLEX one the next two, an edge between two switches (no port
 * bounds it) the next one; so they never need recomputing.
 */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"

#include "../common/array.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    int *ids;
    int count, cap;
} id_list_t;

/* An open-addressing table of names: ids or -1, size cap (a power of 2). */
typedef struct {
    int *slots;
    int cap;
} name_table_t;

/* Per edge: its resources besides the ports (shared resources), its own
 * (count), then its cross traffic's (up to total). */
typedef struct {
    steady_use_t *uses;
    int count, total;
} use_list_t;

struct steady_platform {
    char *name;
    steady_flow_sharing_t flows;
    double weight_s;
    double crosstraffic;     /* steady_platform_set_crosstraffic */
    double cal_min, cal_max; /* the calibration's sizes; 0: not calibrated */
    steady_node_t *nodes;
    int node_count, node_cap;
    steady_edge_t *edges;
    int edge_count, edge_cap;
    steady_channel_t *channels;
    int channel_count, channel_cap;
    int *channel_resource; /* per channel: its first resource, or -1 (FATPIPE) */
    id_list_t *out, *in;   /* per node, parallel to nodes */
    int processors, switches;
    int *rank_of, *rank_node; /* per node (-1: switch), per rank */
    int ranks;
    use_list_t *uses; /* per edge */
    int resources;
    int *resource_edge; /* per resource: the private edge, or -1 for a channel's */
    int resource_cap;
    name_table_t node_names, channel_names;
    /* steady_platform_hash's value once computed (a plan's candidates
     * each ask, and a 10^6-edge platform takes seconds to write out);
     * what changes it (the name, a node, a channel, an edge) forgets it.
     * Atomic: the planner's threads may ask at once, and store the same. */
    _Atomic uint64_t hash;
    _Atomic bool hashed;
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

typedef const char *(*name_of_fn)(const steady_platform_t *p, int id);

static const char *node_name_of(const steady_platform_t *p, int id)
{
    return p->nodes[id].name;
}

static const char *channel_name_of(const steady_platform_t *p, int id)
{
    return p->channels[id].name;
}

/* Slot where name is, or the empty slot where it would go. */
static int find_slot(const steady_platform_t *p, const name_table_t *t, name_of_fn name_of,
                     const char *name)
{
    size_t mask = (size_t)t->cap - 1;
    size_t i = (size_t)hash_name(name) & mask;
    while (t->slots[i] >= 0 && strcmp(name_of(p, t->slots[i]), name) != 0)
        i = (i + 1) & mask;
    return (int)i;
}

/* Keeps the table at most half full so probes stay short; `count` names
 * (ids 0 .. count - 1 minus the newest) are in it. */
static bool reserve_slots(steady_platform_t *p, name_table_t *t, name_of_fn name_of, int count)
{
    if (2 * count <= t->cap)
        return true;
    int ncap = t->cap ? t->cap : 16;
    while (2 * count > ncap)
        ncap *= 2;
    int *n = malloc((size_t)ncap * sizeof *n);
    if (!n)
        return false;
    int *old = t->slots;
    t->slots = n;
    t->cap = ncap;
    for (int i = 0; i < ncap; i++)
        t->slots[i] = -1;
    for (int v = 0; v < count - 1; v++)
        t->slots[find_slot(p, t, name_of, name_of(p, v))] = v;
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
    {"recv-factor", STEADY_RECV_FACTOR_MIN, 1, "from 0.01 to 1"},
    {"penalty", 0, STEADY_TIME_MAX, "from 0 to 1e6 s"},
    {"crosstraffic", 0, 1, "from 0 to 1"},
    /* last: the sizes (min-size, max-size) too */
    {"weight-S", 0, STEADY_WEIGHT_S_MAX, "from 0 to 1e12 bytes"},
};

steady_err_t check_field(const char *field, double value, const char *text, steady_error_t *err)
{
    /* the fields differ in their first two letters: this runs for every
     * value */
    size_t f = 0;
    while (f < sizeof ranges / sizeof *ranges - 1 &&
           (ranges[f].field[0] != field[0] || ranges[f].field[1] != field[1]))
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

/* A character of a name: A-Z a-z 0-9 _ . : @ + / - */
static bool name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c != '\0' && strchr("_.:@+/-", c));
}

bool valid_channel_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > STEADY_NAME_MAX)
        return false;
    for (const char *c = name; *c; c++)
        if (!name_char(*c))
            return false;
    return true;
}

bool valid_node_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > STEADY_NAME_MAX || name[0] == ' ' || name[n - 1] == ' ')
        return false;
    for (const char *c = name; *c; c++)
        if (*c != ' ' && !name_char(*c))
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
    if (!p->name || !reserve_slots(p, &p->node_names, node_name_of, 1) ||
        !reserve_slots(p, &p->channel_names, channel_name_of, 1)) {
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
    for (int c = 0; c < p->channel_count; c++)
        free((char *)p->channels[c].name);
    for (int e = 0; e < p->edge_count; e++) {
        free((steady_crossing_t *)p->edges[e].cross);
        free(p->uses[e].uses);
    }
    free(p->nodes);
    free(p->out);
    free(p->in);
    free(p->rank_of);
    free(p->rank_node);
    free(p->edges);
    free(p->uses);
    free(p->channels);
    free(p->channel_resource);
    free(p->resource_edge);
    free(p->node_names.slots);
    free(p->channel_names.slots);
    free(p->name);
    free(p);
}

bool platform_hash_known(const steady_platform_t *p, uint64_t *hash)
{
    if (!atomic_load_explicit(&p->hashed, memory_order_acquire))
        return false;
    *hash = atomic_load_explicit(&p->hash, memory_order_relaxed);
    return true;
}

void platform_hash_keep(const steady_platform_t *p, uint64_t hash)
{
    steady_platform_t *q = (steady_platform_t *)p; /* a cache: never a const object */
    atomic_store_explicit(&q->hash, hash, memory_order_relaxed);
    atomic_store_explicit(&q->hashed, true, memory_order_release);
}

steady_err_t steady_platform_set_name(steady_platform_t *p, const char *name, steady_error_t *err)
{
    atomic_store(&p->hashed, false);
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

steady_err_t steady_platform_set_flow_sharing(steady_platform_t *p, steady_flow_sharing_t s,
                                              double weight_s, steady_error_t *err)
{
    if (s != STEADY_FLOWS_FAIR && s != STEADY_FLOWS_PENALTY)
        return steady_error_set(err, STEADY_EINVAL, "unknown flow sharing rule (%d)", (int)s);
    steady_err_t rc = check_field("weight-S", weight_s, NULL, err);
    if (rc)
        return rc;
    p->flows = s;
    p->weight_s = s == STEADY_FLOWS_PENALTY ? weight_s : 0;
    return STEADY_OK;
}

steady_flow_sharing_t steady_platform_flow_sharing(const steady_platform_t *p, double *weight_s)
{
    if (weight_s)
        *weight_s = p->weight_s;
    return p->flows;
}

steady_err_t steady_platform_set_crosstraffic(steady_platform_t *p, double share,
                                              steady_error_t *err)
{
    steady_err_t rc = check_field("crosstraffic", share, NULL, err);
    if (rc)
        return rc;
    p->crosstraffic = share;
    return STEADY_OK;
}

double steady_platform_crosstraffic(const steady_platform_t *p)
{
    return p->crosstraffic;
}

steady_err_t steady_platform_set_calibrated(steady_platform_t *p, double min_bytes,
                                            double max_bytes, steady_error_t *err)
{
    if (!(min_bytes >= STEADY_MSG_SIZE_MIN && min_bytes <= max_bytes &&
          max_bytes <= STEADY_MSG_SIZE_MAX))
        return steady_error_set(err, STEADY_EINVAL,
                                "calibrated over %.17g to %.17g bytes: expected 1 <= min-size <= "
                                "max-size <= 1e12",
                                min_bytes, max_bytes);
    p->cal_min = min_bytes;
    p->cal_max = max_bytes;
    return STEADY_OK;
}

bool steady_platform_calibrated(const steady_platform_t *p, double *min_bytes, double *max_bytes)
{
    *min_bytes = p->cal_min;
    *max_bytes = p->cal_max;
    return p->cal_max > 0;
}

bool steady_node_kind_is_rank(steady_node_kind_t kind)
{
    return kind == STEADY_PROCESSOR || kind == STEADY_ROUTER;
}

static const char *const kind_names[] = {"processor", "router", "switch"};

int steady_node_kind_from_name(const char *name)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(name, kind_names[i]) == 0)
            return i;
    return -1;
}

const char *steady_node_kind_name(steady_node_kind_t kind)
{
    return (unsigned)kind < 3 ? kind_names[kind] : "?";
}

/* Appends n resources (of the private edge `edge`, or -1 for a channel's)
 * and returns the first one's id, or -1 when memory runs out. */
static int new_resources(steady_platform_t *p, int n, int edge)
{
    if (!array_grow((void **)&p->resource_edge, &p->resource_cap, p->resources + n,
                    sizeof *p->resource_edge, 8))
        return -1;
    for (int k = 0; k < n; k++)
        p->resource_edge[p->resources + k] = edge;
    p->resources += n;
    return p->resources - n;
}

steady_err_t steady_platform_add_node(steady_platform_t *p, const char *name,
                                      steady_node_kind_t kind, double speed, int *id,
                                      steady_error_t *err)
{
    atomic_store(&p->hashed, false);
    if (!valid_node_name(name))
        return steady_error_set(err, STEADY_EINVAL,
                                "invalid node name (%.300s): use 1 to %d characters from "
                                "A-Z a-z 0-9 _ . : @ + / - and blanks within",
                                name, STEADY_NAME_MAX);
    if (p->node_names.slots[find_slot(p, &p->node_names, node_name_of, name)] >= 0)
        return steady_error_set(err, STEADY_EINVAL, "duplicate node (%s)", name);
    if (kind == STEADY_PROCESSOR) {
        steady_err_t rc = check_field("speed", speed, NULL, err);
        if (rc)
            return rc;
    } else if (kind == STEADY_ROUTER || kind == STEADY_SWITCH) {
        if (speed != 0)
            return steady_error_set(err, STEADY_EINVAL, "a %s has no speed (%g)",
                                    kind == STEADY_ROUTER ? "router" : "switch", speed);
    } else {
        return steady_error_set(err, STEADY_EINVAL, "unknown node kind (%d)", (int)kind);
    }

    int n = p->node_count;
    int cap = p->node_cap;
    if (!array_grow((void **)&p->nodes, &cap, n + 1, sizeof *p->nodes, 8))
        return oom(err);
    /* out, in and rank_of grow in step with nodes, to the same capacity */
    int cap_out = p->node_cap, cap_in = p->node_cap, cap_rank = p->node_cap,
        cap_rnode = p->node_cap;
    if (!array_grow((void **)&p->out, &cap_out, cap, sizeof *p->out, 8) ||
        !array_grow((void **)&p->in, &cap_in, cap, sizeof *p->in, 8) ||
        !array_grow((void **)&p->rank_of, &cap_rank, cap, sizeof *p->rank_of, 8) ||
        !array_grow((void **)&p->rank_node, &cap_rnode, cap, sizeof *p->rank_node, 8))
        return oom(err);
    p->node_cap = cap;
    if (!reserve_slots(p, &p->node_names, node_name_of, n + 1))
        return oom(err);
    char *copy = strdup(name);
    if (!copy)
        return oom(err);
    p->nodes[n] = (steady_node_t){.name = copy, .kind = kind, .speed = unsigned_zero(speed)};
    p->out[n] = (id_list_t){0};
    p->in[n] = (id_list_t){0};
    p->node_names.slots[find_slot(p, &p->node_names, node_name_of, name)] = n;
    p->node_count++;
    if (kind == STEADY_PROCESSOR)
        p->processors++;
    if (kind == STEADY_SWITCH) {
        p->switches++;
        p->rank_of[n] = -1;
    } else {
        p->rank_node[p->ranks] = n;
        p->rank_of[n] = p->ranks++;
    }
    if (id)
        *id = n;
    return STEADY_OK;
}

static const char *const sharing_names[] = {"shared", "splitduplex", "fatpipe"};

int steady_sharing_from_name(const char *name)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(name, sharing_names[i]) == 0)
            return i;
    return -1;
}

const char *steady_sharing_name(steady_sharing_t s)
{
    return (unsigned)s < 3 ? sharing_names[s] : "?";
}

/* Whether the platform measures times in abstract costs: decided by its
 * first edge or channel. */
static int platform_kind(const steady_platform_t *p)
{
    if (p->edge_count > 0)
        return p->edges[0].cost != 0;
    if (p->channel_count > 0)
        return p->channels[0].cost != 0;
    return -1;
}

steady_err_t steady_platform_add_channel(steady_platform_t *p, const steady_channel_t *c, int *id,
                                         steady_error_t *err)
{
    atomic_store(&p->hashed, false);
    if (!valid_channel_name(c->name))
        return steady_error_set(err, STEADY_EINVAL,
                                "invalid channel name (%.300s): use 1 to %d characters from "
                                "A-Z a-z 0-9 _ . : @ + / -",
                                c->name, STEADY_NAME_MAX);
    if (p->channel_names.slots[find_slot(p, &p->channel_names, channel_name_of, c->name)] >= 0)
        return steady_error_set(err, STEADY_EINVAL, "duplicate channel (%s)", c->name);
    if ((unsigned)c->sharing > STEADY_FATPIPE)
        return steady_error_set(err, STEADY_EINVAL, "unknown sharing policy (%d)", (int)c->sharing);
    bool cost = c->cost != 0;
    if (c->bandwidth != 0 && cost)
        return steady_error_set(err, STEADY_EINVAL, "channel has both a bandwidth and a cost (%s)",
                                c->name);
    if (c->bandwidth == 0 && !cost)
        return steady_error_set(err, STEADY_EINVAL,
                                "channel has neither a bandwidth nor a cost (%s)", c->name);
    steady_err_t rc;
    if ((rc = check_field(cost ? "cost" : "bandwidth", cost ? c->cost : c->bandwidth, NULL, err)) ||
        (rc = check_field("latency", c->latency, NULL, err)))
        return rc;
    int kind = platform_kind(p);
    if (kind >= 0 && kind != cost)
        return steady_error_set(err, STEADY_EINVAL,
                                "channel %s uses a %s but the platform's first %s uses a %s: a "
                                "platform uses abstract costs or bandwidths, not both",
                                c->name, cost ? "cost" : "bandwidth",
                                p->edge_count > 0 ? "edge" : "channel",
                                cost ? "bandwidth" : "cost");

    int n = p->channel_count;
    int cap = p->channel_cap, cap_res = p->channel_cap;
    if (!array_grow((void **)&p->channels, &cap, n + 1, sizeof *p->channels, 8) ||
        !array_grow((void **)&p->channel_resource, &cap_res, cap, sizeof *p->channel_resource, 8))
        return oom(err);
    p->channel_cap = cap;
    if (!reserve_slots(p, &p->channel_names, channel_name_of, n + 1))
        return oom(err);
    int first = -1;
    if (c->sharing != STEADY_FATPIPE &&
        (first = new_resources(p, c->sharing == STEADY_SPLITDUPLEX ? 2 : 1, -1)) < 0)
        return oom(err);
    char *copy = strdup(c->name);
    if (!copy)
        return oom(err);
    p->channels[n] = *c;
    p->channels[n].name = copy;
    p->channels[n].bandwidth = unsigned_zero(c->bandwidth);
    p->channels[n].cost = unsigned_zero(c->cost);
    p->channels[n].latency = unsigned_zero(c->latency);
    p->channel_resource[n] = first;
    p->channel_names.slots[find_slot(p, &p->channel_names, channel_name_of, c->name)] = n;
    p->channel_count++;
    if (id)
        *id = n;
    return STEADY_OK;
}

static bool is_cost_edge(const steady_edge_t *e)
{
    return e->cost != 0;
}

/* Checks e's crossings: known channels, none twice, a direction only on
 * a SPLITDUPLEX channel, every channel of the platform's kind. */
static steady_err_t check_crossings(const steady_platform_t *p, const steady_edge_t *e, bool cost,
                                    steady_error_t *err)
{
    const char *s = p->nodes[e->src].name, *d = p->nodes[e->dst].name;
    if (e->ncross < 0 || (e->ncross > 0 && !e->cross))
        return steady_error_set(err, STEADY_EINVAL, "bad crossing list in edge %s -> %s (%d)", s, d,
                                e->ncross);
    for (int k = 0; k < e->ncross; k++) {
        const steady_crossing_t *x = &e->cross[k];
        if (x->channel < 0 || x->channel >= p->channel_count)
            return steady_error_set(err, STEADY_EINVAL, "unknown channel id in edge %s -> %s (%d)",
                                    s, d, x->channel);
        const steady_channel_t *c = &p->channels[x->channel];
        for (int j = 0; j < k; j++)
            if (e->cross[j].channel == x->channel)
                return steady_error_set(err, STEADY_EINVAL,
                                        "edge %s -> %s crosses channel %s twice", s, d, c->name);
        if (x->down && c->sharing != STEADY_SPLITDUPLEX)
            return steady_error_set(err, STEADY_EINVAL,
                                    "edge %s -> %s crosses channel %s downwards, but only a "
                                    "splitduplex channel has directions (it is %s)",
                                    s, d, c->name, steady_sharing_name(c->sharing));
        if ((c->cost != 0) != cost)
            return steady_error_set(err, STEADY_EINVAL,
                                    "edge %s -> %s crosses channel %s, which uses a %s, but the "
                                    "edge uses a %s: a platform uses abstract costs or "
                                    "bandwidths, not both",
                                    s, d, c->name, cost ? "bandwidth" : "cost",
                                    cost ? "cost" : "bandwidth");
    }
    return STEADY_OK;
}

/* The slowest of e's channels: the smallest bandwidth, or the largest cost. */
static void slowest_channel(const steady_platform_t *p, steady_edge_t *e)
{
    for (int k = 0; k < e->ncross; k++) {
        const steady_channel_t *c = &p->channels[e->cross[k].channel];
        if (c->cost != 0 && c->cost > e->cost)
            e->cost = c->cost;
        else if (c->cost == 0 && (e->bandwidth == 0 || c->bandwidth < e->bandwidth))
            e->bandwidth = c->bandwidth;
    }
}

/* The resources of e besides the ports, into *u: its channels that are
 * resources, or its own link when it crosses none and joins two switches
 * (a new resource). */
static bool edge_uses(steady_platform_t *p, const steady_edge_t *e, use_list_t *u)
{
    bool own = e->ncross == 0 && p->nodes[e->src].kind == STEADY_SWITCH &&
               p->nodes[e->dst].kind == STEADY_SWITCH;
    int n = own;
    for (int k = 0; k < e->ncross; k++)
        n += p->channel_resource[e->cross[k].channel] >= 0;
    *u = (use_list_t){0};
    if (n == 0)
        return true;
    if (!(u->uses = malloc((size_t)n * sizeof *u->uses)))
        return false;
    for (int k = 0; k < e->ncross; k++) {
        int r = p->channel_resource[e->cross[k].channel];
        if (r >= 0)
            u->uses[u->count++] = (steady_use_t){r + e->cross[k].down, e->cross[k].channel, false};
    }
    if (own) {
        int r = new_resources(p, 1, p->edge_count);
        if (r < 0) {
            free(u->uses);
            u->uses = NULL;
            return false;
        }
        u->uses[u->count++] = (steady_use_t){r, -1, false};
    }
    u->total = u->count;
    return true;
}

/* Appends to u, an edge's list, its cross traffic's uses: the reverse
 * edge's own (back; steady_loads_next leaves out those the path crosses). */
static bool add_cross_uses(use_list_t *u, const use_list_t *back)
{
    if (back->count == 0)
        return true;
    steady_use_t *grown = realloc(u->uses, (size_t)(u->count + back->count) * sizeof *grown);
    if (!grown)
        return false;
    u->uses = grown;
    u->total = u->count;
    for (int y = 0; y < back->count; y++)
        u->uses[u->total++] = (steady_use_t){back->uses[y].resource, back->uses[y].channel, true};
    return true;
}

steady_err_t steady_platform_add_edge(steady_platform_t *p, const steady_edge_t *edge, int *id,
                                      steady_error_t *err)
{
    atomic_store(&p->hashed, false);
    steady_edge_t copy = *edge, *e = &copy;
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
    if (e->bandwidth == 0 && e->cost == 0 && e->ncross == 0)
        return steady_error_set(err, STEADY_EINVAL,
                                "edge has neither a bandwidth nor a cost (%s -> %s)", s, d);
    /* the edge's kind: its own value's, else its first channel's */
    bool cost = is_cost_edge(e);
    if (e->bandwidth == 0 && e->cost == 0 && e->ncross > 0 && e->cross &&
        e->cross[0].channel >= 0 && e->cross[0].channel < p->channel_count)
        cost = p->channels[e->cross[0].channel].cost != 0;
    steady_err_t rc;
    if ((rc = check_crossings(p, e, cost, err)))
        return rc;
    if (e->bandwidth == 0 && e->cost == 0)
        slowest_channel(p, e);
    if (cost && e->overhead != 0)
        return steady_error_set(err, STEADY_EINVAL,
                                "an overhead has no meaning on a cost edge (%s -> %s)", s, d);
    if ((rc = check_field(cost ? "cost" : "bandwidth", cost ? e->cost : e->bandwidth, NULL, err)) ||
        (rc = check_field("latency", e->latency, NULL, err)) ||
        (rc = check_field("overhead", e->overhead, NULL, err)) ||
        (e->recv_factor != 0 && (rc = check_field("recv-factor", e->recv_factor, NULL, err))) ||
        (rc = check_field("penalty", e->penalty, NULL, err)))
        return rc;
    int kind = platform_kind(p);
    if (kind >= 0 && kind != cost)
        return steady_error_set(err, STEADY_EINVAL,
                                "edge %s -> %s uses a %s but the platform's first %s uses a %s: a "
                                "platform uses abstract costs or bandwidths, not both",
                                s, d, cost ? "cost" : "bandwidth",
                                p->edge_count > 0 ? "edge" : "channel",
                                cost ? "bandwidth" : "cost");

    int m = p->edge_count;
    int cap = p->edge_cap, cap_uses = p->edge_cap;
    if (!array_grow((void **)&p->edges, &cap, m + 1, sizeof *p->edges, 8) ||
        !array_grow((void **)&p->uses, &cap_uses, cap, sizeof *p->uses, 8))
        return oom(err);
    p->edge_cap = cap;
    steady_crossing_t *cross = NULL;
    if (e->ncross > 0) {
        if (!(cross = malloc((size_t)e->ncross * sizeof *cross)))
            return oom(err);
        memcpy(cross, e->cross, (size_t)e->ncross * sizeof *cross);
    }
    e->cross = cross;
    use_list_t uses;
    int resources = p->resources, back = steady_platform_find_edge(p, e->dst, e->src);
    use_list_t *bu = back >= 0 ? &p->uses[back] : NULL;
    if (!edge_uses(p, e, &uses) || (bu && !add_cross_uses(&uses, bu)) ||
        (bu && !add_cross_uses(bu, &uses)) || !id_list_push(&p->out[e->src], m)) {
        if (bu)
            bu->total = bu->count;
        free(cross);
        free(uses.uses);
        p->resources = resources;
        return oom(err);
    }
    if (!id_list_push(&p->in[e->dst], m)) {
        p->out[e->src].count--;
        if (bu)
            bu->total = bu->count;
        free(cross);
        free(uses.uses);
        p->resources = resources;
        return oom(err);
    }
    p->edges[m] = *e;
    p->uses[m] = uses;
    p->edges[m].bandwidth = unsigned_zero(e->bandwidth);
    p->edges[m].cost = unsigned_zero(e->cost);
    p->edges[m].latency = unsigned_zero(e->latency);
    p->edges[m].overhead = unsigned_zero(e->overhead);
    p->edges[m].penalty = unsigned_zero(e->penalty);
    p->edges[m].recv_factor = e->recv_factor != 0 ? e->recv_factor : 1;
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
        return steady_error_set(err, STEADY_EINVAL, "platform has no processor (%d %s only)",
                                p->node_count,
                                p->switches == 0               ? "routers"
                                : p->switches == p->node_count ? "switches"
                                                               : "routers and switches");
    return check_switch_paths(p, err);
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

int steady_platform_switch_count(const steady_platform_t *p)
{
    return p->switches;
}

int steady_platform_edge_count(const steady_platform_t *p)
{
    return p->edge_count;
}

int steady_platform_channel_count(const steady_platform_t *p)
{
    return p->channel_count;
}

const steady_node_t *steady_platform_node(const steady_platform_t *p, int id)
{
    return &p->nodes[id];
}

const steady_edge_t *steady_platform_edge(const steady_platform_t *p, int id)
{
    return &p->edges[id];
}

const steady_channel_t *steady_platform_channel(const steady_platform_t *p, int id)
{
    return &p->channels[id];
}

int steady_platform_find_node(const steady_platform_t *p, const char *name)
{
    return p->node_names.slots[find_slot(p, &p->node_names, node_name_of, name)];
}

int steady_platform_find_channel(const steady_platform_t *p, const char *name)
{
    return p->channel_names.slots[find_slot(p, &p->channel_names, channel_name_of, name)];
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

int steady_platform_rank_count(const steady_platform_t *p)
{
    return p->ranks;
}

int steady_platform_rank_of(const steady_platform_t *p, int v)
{
    return p->rank_of[v];
}

int steady_platform_rank_node(const steady_platform_t *p, int r)
{
    return p->rank_node[r];
}

int steady_platform_resource_count(const steady_platform_t *p)
{
    return p->resources;
}

const steady_use_t *steady_platform_edge_uses(const steady_platform_t *p, int e, int *count)
{
    *count = p->uses[e].count;
    return p->uses[e].uses;
}

void steady_loads_start(steady_loads_t *it, const steady_platform_t *p, const int *edges,
                        int nedges)
{
    *it = (steady_loads_t){p, edges, nedges, 0, 0};
}

/* Whether an edge of the path uses resource r itself. */
static bool path_uses(const steady_platform_t *p, const int *edges, int n, int r)
{
    for (int k = 0; k < n; k++)
        for (int z = 0; z < p->uses[edges[k]].count; z++)
            if (p->uses[edges[k]].uses[z].resource == r)
                return true;
    return false;
}

bool steady_loads_next(steady_loads_t *it, int *edge, const steady_use_t **u)
{
    const steady_platform_t *p = it->p;
    while (it->k < it->nedges) {
        const use_list_t *l = &p->uses[it->edges[it->k]];
        if (it->y == (p->crosstraffic > 0 ? l->total : l->count)) {
            it->k++;
            it->y = 0;
            continue;
        }
        const steady_use_t *x = &l->uses[it->y++];
        if (x->cross && path_uses(p, it->edges, it->nedges, x->resource))
            continue;
        *edge = it->edges[it->k];
        *u = x;
        return true;
    }
    return false;
}

void steady_platform_resource_name(const steady_platform_t *p, int r, char *buf, size_t n)
{
    int e = p->resource_edge[r];
    if (e >= 0) {
        snprintf(buf, n, "edge %s -> %s", p->nodes[p->edges[e].src].name,
                 p->nodes[p->edges[e].dst].name);
        return;
    }
    for (int c = 0; c < p->channel_count; c++) {
        int first = p->channel_resource[c];
        if (first >= 0 && r >= first &&
            r <= first + (p->channels[c].sharing == STEADY_SPLITDUPLEX)) {
            snprintf(buf, n, "channel %s%s", p->channels[c].name,
                     p->channels[c].sharing != STEADY_SPLITDUPLEX ? ""
                     : r == first                                 ? " (up)"
                                                                  : " (down)");
            return;
        }
    }
    snprintf(buf, n, "resource %d", r);
}

bool steady_platform_is_abstract(const steady_platform_t *p)
{
    return platform_kind(p) == 1;
}

bool steady_platform_has_network(const steady_platform_t *p)
{
    return p->switches > 0 || p->channel_count > 0;
}
