/*
 * graphml.c — the GraphML reader and writer (http://graphml.graphdrawing.org/).
 *
 * A platform is one <graph>: a <node> per processor, router or switch, and
 * per channel (a <node> of kind channel, which no edge joins: the edges
 * that cross it name it), an <edge> per directed edge.  Values travel in
 * <data> elements whose <key> has one of the attr.name below; every other
 * key (yEd graphics, Gephi labels...) is ignored, as GraphML intends.
 *
 *     node   kind       processor | router | switch | channel (default processor)
 *            speed      flop/s, required on a processor
 *            name       the node's or channel's name; without it its id
 *            bandwidth  a channel's B/s, or
 *            cost       its abstract time per message
 *            latency    a channel's s (default 0)
 *            sharing    a channel's shared | splitduplex | fatpipe (default shared)
 *     edge   bandwidth  B/s, or
 *            cost       an abstract per-message port time (the paper's examples);
 *                       either may be left out of an edge that crosses channels
 *            latency    s (default 0)
 *            overhead   s per message (default 0; not on a cost edge)
 *            crosses    the channels it crosses, in order: CH[:up|:down],...
 *            recv-factor  the factor on its rate while its source receives
 *                       (default 1)
 *            penalty    its part of a hop's sharing penalty, s (default 0:
 *                       derived; docs/network.md)
 *     graph  name       the platform's name; without it the graph's id if valid
 *            flows      how flows share a channel: fair | penalty (default fair)
 *            weight-S   bytes, required with flows=penalty
 *            crosstraffic  the share of a message's load its reverse edge
 *                       carries (default 0; SimGrid's 0.05)
 *            calibrated-min-size, calibrated-max-size
 *                       bytes: the sizes a calibrated platform was measured
 *                       over (both or neither)
 *
 * Numbers are in base units; SimGrid unit suffixes ("10MBps", "5us", "2Gf")
 * are accepted too.  A <key>'s <default> applies to the elements that have no
 * <data> for it.  An undirected edge (edgedefault="undirected", or
 * directed="false") is a duplex link: the two edges u->v then v->u.
 *
 * Why not igraph's GraphML functions, although igraph is the reference
 * GraphML implementation we interoperate with (the unit tests use it as the
 * independent reader and writer)?  We tried igraph 0.10.2 (Debian):
 *   - igraph_read_graph_graphml() silently creates a vertex for an edge
 *     endpoint that no <node> declares, so a typo in a node id becomes a new
 *     isolated node instead of an "unknown node in edge" error;
 *   - its errors carry no line numbers for bad values, and it has no notion of
 *     our units or field ranges, so every message would have to be recomputed
 *     from a second walk over the document anyway;
 *   - igraph_write_graph_graphml() prints doubles with 15 significant digits
 *     (0.1 + 0.2 comes back as 0.3), which breaks the exact write -> parse
 *     round trip that steady_platform_write promises.
 * So the reader uses libxml2's parser (which keeps line numbers), and the
 * writer is a few fprintf calls using format_double's shortest exact
 * decimals.
 *
 * The document is streamed (xml_parse): the <key>s, which GraphML puts
 * before the <graph>, are kept; each child of the graph is built on its own
 * in a scratch arena, read and forgotten, so that a 10^6-node platform
 * reads in about three times the native reader's time and twice its
 * memory, not 150 s and 7 GB (the whole DOM and libxml2's hash tables; issue
 * 18).  A node's id is its name unless a "name" data renames it, so the
 * platform's own name index resolves the edges' ends, and only renamed
 * nodes need a map of their own.
 */
#include "../common/array.h"
#include "../common/strmap.h"
#include "../common/xml.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- the fields steady reads ----------------------------------------------- */

typedef enum { D_GRAPH, D_NODE, D_EDGE, D_COUNT } domain_t;

static const char *const domain_names[D_COUNT] = {"graph", "node", "edge"};

typedef enum {
    F_KIND,
    F_SPEED,
    F_NAME,
    F_CH_BANDWIDTH,
    F_CH_LATENCY,
    F_CH_COST,
    F_SHARING,
    F_BANDWIDTH,
    F_LATENCY,
    F_OVERHEAD,
    F_COST,
    F_CROSSES,
    F_RECV_FACTOR,
    F_PENALTY,
    F_GRAPH_NAME,
    F_FLOWS,
    F_WEIGHT_S,
    F_CROSSTRAFFIC,
    F_CAL_MIN,
    F_CAL_MAX,
    F_COUNT
} field_t;

static const struct {
    const char *name; /* the key's attr.name */
    domain_t domain;
    bool numeric;
    unit_kind_t unit;
} fields[F_COUNT] = {
    [F_KIND] = {"kind", D_NODE, false, UNIT_NONE},
    [F_SPEED] = {"speed", D_NODE, true, UNIT_SPEED},
    [F_NAME] = {"name", D_NODE, false, UNIT_NONE},
    [F_CH_BANDWIDTH] = {"bandwidth", D_NODE, true, UNIT_BANDWIDTH},
    [F_CH_LATENCY] = {"latency", D_NODE, true, UNIT_TIME},
    [F_CH_COST] = {"cost", D_NODE, true, UNIT_NONE},
    [F_SHARING] = {"sharing", D_NODE, false, UNIT_NONE},
    [F_BANDWIDTH] = {"bandwidth", D_EDGE, true, UNIT_BANDWIDTH},
    [F_LATENCY] = {"latency", D_EDGE, true, UNIT_TIME},
    [F_OVERHEAD] = {"overhead", D_EDGE, true, UNIT_TIME},
    [F_COST] = {"cost", D_EDGE, true, UNIT_NONE},
    [F_CROSSES] = {"crosses", D_EDGE, false, UNIT_NONE},
    [F_RECV_FACTOR] = {"recv-factor", D_EDGE, true, UNIT_NONE},
    [F_PENALTY] = {"penalty", D_EDGE, true, UNIT_TIME},
    [F_GRAPH_NAME] = {"name", D_GRAPH, false, UNIT_NONE},
    [F_FLOWS] = {"flows", D_GRAPH, false, UNIT_NONE},
    [F_WEIGHT_S] = {"weight-S", D_GRAPH, true, UNIT_NONE},
    [F_CROSSTRAFFIC] = {"crosstraffic", D_GRAPH, true, UNIT_NONE},
    [F_CAL_MIN] = {"calibrated-min-size", D_GRAPH, true, UNIT_SIZE},
    [F_CAL_MAX] = {"calibrated-max-size", D_GRAPH, true, UNIT_SIZE},
};

static int field_of(const char *attr_name, domain_t d)
{
    for (int f = 0; f < F_COUNT; f++)
        if (fields[f].domain == d && strcmp(fields[f].name, attr_name) == 0)
            return f;
    return -1;
}

/* The values of GraphML's `for` attribute (the elements a key applies to);
 * the first three in domain_t order, so that a domain_t is also an index. */
static const char *const key_domains[] = {"graph", "node",     "edge",      "all",
                                          "port",  "endpoint", "hyperedge", "graphml"};
#define KEY_FOR_ALL 3

/* ---- reader state -------------------------------------------------------------- */

typedef struct {
    int domain;         /* index into key_domains */
    int field[D_COUNT]; /* the field this key carries on each element kind, or -1 */
} gml_key_t;

typedef struct {
    const char *origin;
    steady_platform_t *p;
    steady_error_t *err;
    gml_key_t *keys;
    int nkeys, key_cap;
    strmap_t key_ids; /* key id -> index in keys */
    /* node ids: a node's id is its name unless a "name" data renames it */
    strmap_t renamed;          /* id -> platform node id, for renamed nodes */
    strmap_t channel_ids;      /* the <node> ids of the channels */
    unsigned char *is_renamed; /* per platform node */
    int renamed_cap;
    xmlNodePtr field_key[F_COUNT]; /* the <key> declaring each field, or NULL */
    xmlNodePtr dflt[F_COUNT];      /* its <default>, or NULL */
    /* streaming (parse_graphml) */
    xmlNodePtr root, graph; /* the <graphml>, its <graph> (NULL until they open) */
    bool directed;          /* the graph's edgedefault */
    xmlNodePtr *waiting;    /* edges kept until the graph ends (read_graph_child) */
    int nwaiting, waiting_cap;
} reader_t;

/* The data of one element: the trimmed text of each field and the element
 * it came from (a <data>, or the key's <default>). */
typedef struct {
    char *text[F_COUNT];
    bool copied[F_COUNT]; /* text is a copy to xmlFree */
    xmlNodePtr where[F_COUNT];
} values_t;

static void values_free(values_t *v)
{
    for (int f = 0; f < F_COUNT; f++)
        if (v->copied[f])
            xmlFree(v->text[f]);
    *v = (values_t){0};
}

static steady_err_t oom(steady_error_t *err)
{
    return steady_error_set(err, STEADY_ENOMEM, "out of memory");
}

/* Element text with surrounding blanks removed (pretty-printers indent
 * values): the streamed element's own text, or a copy (*copied) to free
 * with xmlFree.  NULL only when out of memory. */
static char *trimmed_content(xmlNodePtr node, bool *copied)
{
    char *s = xml_scratch_text(node);
    *copied = !s;
    if (!s && !(s = (char *)xmlNodeGetContent(node)))
        return NULL;
    size_t start = strspn(s, " \t\r\n"), n = strlen(s);
    while (n > start && strchr(" \t\r\n", s[n - 1]))
        n--;
    memmove(s, s + start, n - start);
    s[n - start] = '\0';
    return s;
}

/* The platform node whose GraphML id is id, or -1. */
static int node_of(const reader_t *r, const char *id)
{
    int v = strmap_get(&r->renamed, id);
    if (v >= 0)
        return v;
    v = steady_platform_find_node(r->p, id);
    return v >= 0 && !(v < r->renamed_cap && r->is_renamed[v]) ? v : -1;
}

/* ---- keys ------------------------------------------------------------------------ */

static bool numeric_type(const char *type)
{
    static const char *const ok[] = {"int", "long", "float", "double", "string"};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
        if (strcmp(type, ok[i]) == 0)
            return true;
    return false;
}

/* Reads the <key> k into r->keys: its id, domain and (when its attr.name
 * is one of ours) the field it declares and that field's default.  k stays
 * in the document: its <default> is used by the elements that follow. */
static steady_err_t read_key(reader_t *r, xmlNodePtr k)
{
    if (!array_grow((void **)&r->keys, &r->key_cap, r->nkeys + 1, sizeof *r->keys, 8))
        return oom(r->err);
    int i = r->nkeys++;
    gml_key_t *key = &r->keys[i];
    steady_err_t rc = STEADY_OK;
    char *id = xml_attr(k, "id"), *dom = xml_attr(k, "for");
    char *name = xml_attr(k, "attr.name"), *type = xml_attr(k, "attr.type");
    *key = (gml_key_t){.domain = KEY_FOR_ALL, .field = {-1, -1, -1}};

    if (!id) {
        rc = xml_error(r->err, STEADY_EPARSE, r->origin, k, "missing id attribute in <key>");
        goto cleanup;
    }
    if (dom) {
        int d = 0, n = (int)(sizeof key_domains / sizeof *key_domains);
        while (d < n && strcmp(dom, key_domains[d]) != 0)
            d++;
        if (d == n) {
            rc = xml_error(r->err, STEADY_EPARSE, r->origin, k,
                           "bad key domain for=\"%.300s\": expected node, edge, graph or all", dom);
            goto cleanup;
        }
        key->domain = d;
    }
    int added = strmap_put(&r->key_ids, id, i);
    if (added <= 0) {
        rc = added < 0
                 ? oom(r->err)
                 : xml_error(r->err, STEADY_EPARSE, r->origin, k, "duplicate key id (%.300s)", id);
        goto cleanup;
    }
    if (!name)
        goto cleanup; /* a tool's private key (yEd graphics): never ours */
    for (int d = 0; d < D_COUNT; d++) {
        if (key->domain != d && key->domain != KEY_FOR_ALL)
            continue;
        int f = field_of(name, (domain_t)d);
        if (f < 0)
            continue;
        if (fields[f].numeric && type && !numeric_type(type)) {
            rc = xml_error(r->err, STEADY_EPARSE, r->origin, k,
                           "bad attr.type for %s %s (%.300s): expected int, long, float, "
                           "double or string",
                           domain_names[d], name, type);
            goto cleanup;
        }
        if (r->field_key[f]) {
            rc = xml_error(r->err, STEADY_EPARSE, r->origin, k,
                           "second key for %s %s (%.300s): the first is on line %ld",
                           domain_names[d], name, id, xml_line(r->field_key[f]));
            goto cleanup;
        }
        key->field[d] = f;
        r->field_key[f] = k;
        for (xmlNodePtr c = k->children; c; c = c->next)
            if (xml_is(c, "default"))
                r->dflt[f] = c;
    }

cleanup:
    xmlFree(id);
    xmlFree(dom);
    xmlFree(name);
    xmlFree(type);
    return rc;
}

/* ---- data ------------------------------------------------------------------------- */

/* Collects the values of elem's <data> children for domain d, then the
 * keys' defaults for the fields that have no <data>. */
static steady_err_t read_values(reader_t *r, xmlNodePtr elem, domain_t d, values_t *v)
{
    *v = (values_t){0};
    for (xmlNodePtr c = elem->children; c; c = c->next) {
        if (!xml_is(c, "data"))
            continue;
        char *copy;
        const char *id = xml_attr_peek(c, "key", &copy);
        if (!id)
            return xml_error(r->err, STEADY_EPARSE, r->origin, c,
                             "missing key attribute in <data>");
        int k = strmap_get(&r->key_ids, id);
        steady_err_t rc = STEADY_OK;
        if (k < 0)
            rc = xml_error(r->err, STEADY_EPARSE, r->origin, c,
                           "undeclared key in <data> (%.300s): declare it with <key id=\"%.300s\" "
                           "for=\"%s\" attr.name=...>",
                           id, id, domain_names[d]);
        else if (r->keys[k].domain != (int)d && r->keys[k].domain != KEY_FOR_ALL)
            rc = xml_error(r->err, STEADY_EPARSE, r->origin, c,
                           "%s data uses a key declared for=\"%s\" (%.300s)", domain_names[d],
                           key_domains[r->keys[k].domain], id);
        xmlFree(copy);
        if (rc)
            return rc;
        int f = r->keys[k].field[d];
        if (f < 0)
            continue; /* not one of ours */
        if (v->text[f])
            return xml_error(r->err, STEADY_EPARSE, r->origin, c,
                             "%s given twice (the first on line %ld)", fields[f].name,
                             xml_line(v->where[f]));
        if (!(v->text[f] = trimmed_content(c, &v->copied[f])))
            return oom(r->err);
        v->where[f] = c;
    }
    for (int f = 0; f < F_COUNT; f++) {
        if (fields[f].domain != d || v->text[f] || !r->dflt[f])
            continue;
        if (!(v->text[f] = trimmed_content(r->dflt[f], &v->copied[f])))
            return oom(r->err);
        v->where[f] = r->dflt[f];
    }
    return STEADY_OK;
}

/* Parses field f of v as a number with its unit and checks its range. */
static steady_err_t number(reader_t *r, const values_t *v, field_t f, double *out)
{
    const char *why, *text = v->text[f];
    if (!parse_quantity(text, fields[f].unit, out, &why))
        return xml_error(r->err, STEADY_EPARSE, r->origin, v->where[f], "bad %s (%.300s): %s; %s",
                         fields[f].name, text, why, unit_hint(fields[f].unit));
    steady_err_t rc = check_field(fields[f].name, *out, text, r->err);
    if (rc)
        return xml_locate(r->err, rc, r->origin, v->where[f]);
    return STEADY_OK;
}

/* ---- graph, nodes, edges ------------------------------------------------------------- */

/* Nested graphs and ports are GraphML features a platform has no use for. */
static steady_err_t check_children(reader_t *r, xmlNodePtr elem, const char *in)
{
    for (xmlNodePtr c = elem->children; c; c = c->next) {
        if (xml_is(c, "graph"))
            return xml_error(r->err, STEADY_EUNSUPPORTED, r->origin, c,
                             "nested graphs are not supported (a <graph> inside <%s>)", in);
        if (xml_is(c, "port"))
            return xml_error(r->err, STEADY_EUNSUPPORTED, r->origin, c,
                             "ports are not supported (a <port> inside <%s>)", in);
        if (xml_is(c, "locator"))
            return xml_error(r->err, STEADY_EUNSUPPORTED, r->origin, c,
                             "<locator> is not supported: put the content in this file");
    }
    return STEADY_OK;
}

/* A <node> of kind channel: a channel of the platform (no node). */
static steady_err_t read_channel(reader_t *r, xmlNodePtr n, const char *name, const values_t *v)
{
    steady_channel_t c = {.name = name};
    steady_err_t rc;
    if (v->text[F_SPEED] && xml_is(v->where[F_SPEED], "data"))
        return xml_error(r->err, STEADY_EINVAL, r->origin, v->where[F_SPEED],
                         "a channel has no speed (%.300s)", v->text[F_SPEED]);
    if (!v->text[F_CH_BANDWIDTH] && !v->text[F_CH_COST])
        return xml_error(r->err, STEADY_EPARSE, r->origin, n,
                         "missing bandwidth or cost for channel (%.300s)", name);
    if ((v->text[F_CH_BANDWIDTH] && (rc = number(r, v, F_CH_BANDWIDTH, &c.bandwidth))) ||
        (v->text[F_CH_COST] && (rc = number(r, v, F_CH_COST, &c.cost))) ||
        (v->text[F_CH_LATENCY] && (rc = number(r, v, F_CH_LATENCY, &c.latency))))
        return rc;
    if (v->text[F_SHARING]) {
        int sh = steady_sharing_from_name(v->text[F_SHARING]);
        if (sh < 0)
            return xml_error(r->err, STEADY_EPARSE, r->origin, v->where[F_SHARING],
                             "bad sharing (%.300s): expected shared, splitduplex or fatpipe",
                             v->text[F_SHARING]);
        c.sharing = (steady_sharing_t)sh;
    }
    if ((rc = steady_platform_add_channel(r->p, &c, NULL, r->err)))
        xml_locate(r->err, rc, r->origin, n);
    return rc;
}

static steady_err_t read_node(reader_t *r, xmlNodePtr n)
{
    values_t v = {0};
    steady_err_t rc;
    steady_node_kind_t kind = STEADY_PROCESSOR;
    double speed = 0;
    const char *name, *why;
    char *copy;
    const char *id = xml_attr_peek(n, "id", &copy);
    if (!id) {
        rc = xml_error(r->err, STEADY_EPARSE, r->origin, n, "missing id attribute in <node>");
        goto cleanup;
    }
    if (node_of(r, id) >= 0 || strmap_get(&r->channel_ids, id) >= 0) {
        rc = xml_error(r->err, STEADY_EINVAL, r->origin, n, "duplicate node id (%.300s)", id);
        goto cleanup;
    }
    if ((rc = check_children(r, n, "node")) || (rc = read_values(r, n, D_NODE, &v)))
        goto cleanup;

    name = v.text[F_NAME] ? v.text[F_NAME] : id;
    if (v.text[F_KIND] && strcmp(v.text[F_KIND], "channel") == 0) {
        rc = read_channel(r, n, name, &v);
        if (!rc && strmap_put(&r->channel_ids, id, 0) < 0)
            rc = oom(r->err);
        goto cleanup;
    }
    for (int f = F_CH_BANDWIDTH; f <= F_SHARING; f++)
        if (v.text[f] && xml_is(v.where[f], "data")) {
            rc = xml_error(r->err, STEADY_EINVAL, r->origin, v.where[f],
                           "%s on a node that is not a channel (%.300s)", fields[f].name, name);
            goto cleanup;
        }
    int k = v.text[F_KIND] ? steady_node_kind_from_name(v.text[F_KIND]) : STEADY_PROCESSOR;
    if (k < 0) {
        rc = xml_error(r->err, STEADY_EPARSE, r->origin, v.where[F_KIND],
                       "bad node kind (%.300s): expected processor, router, switch or channel",
                       v.text[F_KIND]);
        goto cleanup;
    }
    kind = (steady_node_kind_t)k;

    if (kind == STEADY_PROCESSOR) {
        if (!v.text[F_SPEED]) {
            rc = xml_error(r->err, STEADY_EPARSE, r->origin, n,
                           "missing speed for processor (%.300s)", name);
            goto cleanup;
        }
        if ((rc = number(r, &v, F_SPEED, &speed)))
            goto cleanup;
    } else if (v.text[F_SPEED] && xml_is(v.where[F_SPEED], "data")) {
        /* a key's default speed is meant for the processors; an explicit
         * speed on a router or a switch is a mistake unless it is 0 */
        if (!parse_quantity(v.text[F_SPEED], UNIT_SPEED, &speed, &why) || speed != 0) {
            rc = xml_error(r->err, STEADY_EINVAL, r->origin, v.where[F_SPEED],
                           "a %s has no speed (%.300s)", steady_node_kind_name(kind),
                           v.text[F_SPEED]);
            goto cleanup;
        }
    }

    int vid;
    if ((rc = steady_platform_add_node(r->p, name, kind, speed, &vid, r->err))) {
        xml_locate(r->err, rc, r->origin, n);
        goto cleanup;
    }
    if (strcmp(name, id) != 0) { /* renamed: its id is not its name */
        int had = r->renamed_cap;
        if (!array_grow((void **)&r->is_renamed, &r->renamed_cap, vid + 1, 1, 64) ||
            strmap_put(&r->renamed, id, vid) < 0) {
            rc = oom(r->err);
            goto cleanup;
        }
        memset(r->is_renamed + had, 0, (size_t)(r->renamed_cap - had));
        r->is_renamed[vid] = 1;
    }

cleanup:
    values_free(&v);
    xmlFree(copy);
    return rc;
}

/* *directed from a "true"/"false" GraphML boolean (xs:boolean: also 1/0). */
static bool parse_bool(const char *s, bool *value)
{
    if (strcmp(s, "true") == 0 || strcmp(s, "1") == 0)
        *value = true;
    else if (strcmp(s, "false") == 0 || strcmp(s, "0") == 0)
        *value = false;
    else
        return false;
    return true;
}

/* The node an edge's source or target names.  A node that is not declared
 * (yet) is an error, or, when wait is not NULL, sets *wait. */
static steady_err_t endpoint(reader_t *r, xmlNodePtr e, const char *attr, int *node, bool *wait)
{
    char *copy;
    const char *id = xml_attr_peek(e, attr, &copy);
    steady_err_t rc = STEADY_OK;
    if (!id)
        return xml_error(r->err, STEADY_EPARSE, r->origin, e, "missing %s attribute in <edge>",
                         attr);
    *node = node_of(r, id);
    if (*node < 0 && strmap_get(&r->channel_ids, id) >= 0)
        rc = xml_error(r->err, STEADY_EINVAL, r->origin, e,
                       "edge %s a channel (%.300s): an edge crosses channels (crosses data), "
                       "it joins nodes",
                       strcmp(attr, "source") == 0 ? "from" : "to", id);
    else if (*node < 0 && wait)
        *wait = true;
    else if (*node < 0)
        rc = xml_error(r->err, STEADY_EINVAL, r->origin, e, "unknown node in edge (%.300s)", id);
    xmlFree(copy);
    return rc;
}

/* Adds edge e (two for an undirected one).  With wait not NULL, an edge
 * that names a node not declared yet is not read: *wait is set. */
static steady_err_t read_edge(reader_t *r, xmlNodePtr e, bool directed_default, bool *wait)
{
    steady_edge_t ed = {0};
    bool directed = directed_default;
    values_t v = {0};
    steady_err_t rc;
    char *flag = NULL, *port = xml_attr(e, "sourceport");
    if (!port)
        port = xml_attr(e, "targetport");
    if (port) {
        rc = xml_error(r->err, STEADY_EUNSUPPORTED, r->origin, e,
                       "ports are not supported (port %.300s)", port);
        goto cleanup;
    }
    if ((rc = endpoint(r, e, "source", &ed.src, wait)) || (wait && *wait) ||
        (rc = endpoint(r, e, "target", &ed.dst, wait)) || (wait && *wait))
        goto cleanup;
    if ((flag = xml_attr(e, "directed")) && !parse_bool(flag, &directed)) {
        rc = xml_error(r->err, STEADY_EPARSE, r->origin, e,
                       "bad directed attribute (%.300s): expected true or false", flag);
        goto cleanup;
    }
    if ((rc = check_children(r, e, "edge")) || (rc = read_values(r, e, D_EDGE, &v)))
        goto cleanup;
    steady_crossing_t cross[STEADY_MAX_CROSSINGS], back[STEADY_MAX_CROSSINGS];
    if (v.text[F_CROSSES]) {
        crossing_error_t ce;
        rc = crossings_parse(r->p, v.text[F_CROSSES], cross, &ed.ncross, &ce);
        if (rc && wait && strcmp(ce.why, "unknown channel") == 0) {
            *wait = true; /* declared further on, perhaps */
            rc = STEADY_OK;
            goto cleanup;
        }
        if (rc) {
            rc = xml_error(r->err, rc, r->origin, v.where[F_CROSSES], "%s (%.300s)%s%s", ce.why,
                           ce.value, ce.hint ? ": " : "", ce.hint ? ce.hint : "");
            goto cleanup;
        }
        ed.cross = cross;
    }
    if ((v.text[F_BANDWIDTH] && (rc = number(r, &v, F_BANDWIDTH, &ed.bandwidth))) ||
        (v.text[F_COST] && (rc = number(r, &v, F_COST, &ed.cost))) ||
        (v.text[F_LATENCY] && (rc = number(r, &v, F_LATENCY, &ed.latency))) ||
        (v.text[F_OVERHEAD] && (rc = number(r, &v, F_OVERHEAD, &ed.overhead))) ||
        (v.text[F_RECV_FACTOR] && (rc = number(r, &v, F_RECV_FACTOR, &ed.recv_factor))) ||
        (v.text[F_PENALTY] && (rc = number(r, &v, F_PENALTY, &ed.penalty))))
        goto cleanup;

    if ((rc = steady_platform_add_edge(r->p, &ed, NULL, r->err))) {
        xml_locate(r->err, rc, r->origin, e);
        goto cleanup;
    }
    if (!directed) { /* a duplex link: the reverse edge with the same attributes */
        int tmp = ed.src;
        ed.src = ed.dst;
        ed.dst = tmp;
        /* crossing its channels in reverse order, a splitduplex one's other way */
        for (int k = 0; k < ed.ncross; k++) {
            back[k] = cross[ed.ncross - 1 - k];
            back[k].down =
                steady_platform_channel(r->p, back[k].channel)->sharing == STEADY_SPLITDUPLEX &&
                !back[k].down;
        }
        ed.cross = back;
        if ((rc = steady_platform_add_edge(r->p, &ed, NULL, r->err)))
            xml_locate(r->err, rc, r->origin, e);
    }

cleanup:
    values_free(&v);
    xmlFree(port);
    xmlFree(flag);
    return rc;
}

/* The flow sharing rule: the graph's "flows", "weight-S" and
 * "crosstraffic" data. */
static steady_err_t read_flows(reader_t *r, xmlNodePtr g, const values_t *v)
{
    const char *flows = v->text[F_FLOWS];
    bool penalty = flows && strcmp(flows, "penalty") == 0;
    double weight_s = 0;
    steady_err_t rc;
    if (flows && !penalty && strcmp(flows, "fair") != 0)
        return xml_error(r->err, STEADY_EINVAL, r->origin, v->where[F_FLOWS],
                         "unknown flows (%.300s): expected fair or penalty", flows);
    if (v->text[F_WEIGHT_S] && !penalty)
        return xml_error(r->err, STEADY_EINVAL, r->origin, v->where[F_WEIGHT_S],
                         "weight-S (%.300s) without flows=penalty", v->text[F_WEIGHT_S]);
    if (penalty && !v->text[F_WEIGHT_S])
        return xml_error(r->err, STEADY_EINVAL, r->origin, v->where[F_FLOWS],
                         "flows=penalty without weight-S: SimGrid's SMPI model uses 8775, "
                         "LV08 20537, CM02 0");
    if (penalty && (rc = number(r, v, F_WEIGHT_S, &weight_s)))
        return rc;
    double crosstraffic = 0;
    if (v->text[F_CROSSTRAFFIC] && (rc = number(r, v, F_CROSSTRAFFIC, &crosstraffic)))
        return rc;
    rc = steady_platform_set_flow_sharing(r->p, penalty ? STEADY_FLOWS_PENALTY : STEADY_FLOWS_FAIR,
                                          weight_s, r->err);
    if (!rc)
        rc = steady_platform_set_crosstraffic(r->p, crosstraffic, r->err);
    return rc ? xml_locate(r->err, rc, r->origin, g) : STEADY_OK;
}

/* The calibration's sizes: the graph's "calibrated-min-size" and
 * "calibrated-max-size" data, both or neither. */
static steady_err_t read_calibrated(reader_t *r, const values_t *v)
{
    const char *lo = v->text[F_CAL_MIN], *hi = v->text[F_CAL_MAX];
    if (!lo && !hi)
        return STEADY_OK;
    if (!lo || !hi)
        return xml_error(r->err, STEADY_EINVAL, r->origin, v->where[lo ? F_CAL_MIN : F_CAL_MAX],
                         "%s (%.300s) without %s", fields[lo ? F_CAL_MIN : F_CAL_MAX].name,
                         lo ? lo : hi, fields[lo ? F_CAL_MAX : F_CAL_MIN].name);
    double size[2];
    for (int k = 0; k < 2; k++) {
        field_t f = k ? F_CAL_MAX : F_CAL_MIN;
        const char *why;
        if (!parse_quantity(v->text[f], UNIT_SIZE, &size[k], &why))
            return xml_error(r->err, STEADY_EPARSE, r->origin, v->where[f],
                             "bad %s (%.300s): %s; %s", fields[f].name, v->text[f], why,
                             unit_hint(UNIT_SIZE));
    }
    steady_err_t rc = steady_platform_set_calibrated(r->p, size[0], size[1], r->err);
    return rc ? xml_locate(r->err, rc, r->origin, v->where[F_CAL_MIN]) : STEADY_OK;
}

/* The graph's data: the platform's name (its "name" data, else its id
 * when that is a valid name: tools write ids such as "G" that are names
 * too) and the flow sharing rule. */
static steady_err_t read_graph_data(reader_t *r, xmlNodePtr g)
{
    values_t v;
    steady_err_t rc = read_values(r, g, D_GRAPH, &v);
    if (!rc && v.text[F_GRAPH_NAME]) {
        if ((rc = steady_platform_set_name(r->p, v.text[F_GRAPH_NAME], r->err)))
            xml_locate(r->err, rc, r->origin, v.where[F_GRAPH_NAME]);
    } else if (!rc) {
        char *id = xml_attr(g, "id");
        if (id && valid_node_name(id))
            rc = steady_platform_set_name(r->p, id, r->err);
        xmlFree(id);
    }
    if (!rc)
        rc = read_flows(r, g, &v);
    if (!rc)
        rc = read_calibrated(r, &v);
    values_free(&v);
    return rc;
}

/* ---- the document, streamed --------------------------------------------------------- */

/* A complete child of the graph: a node is added and an edge too, then
 * both are freed.  An edge whose source or target is not declared yet
 * (GraphML allows any order) waits for the end of the graph, and once one
 * waits every later edge waits as well, so that the edges keep their
 * document order: the platform is the one that adding every node, then
 * every edge, would give.  The graph's <data> stay for its name. */
static steady_err_t read_graph_child(reader_t *r, xmlNodePtr c)
{
    steady_err_t rc = STEADY_OK;
    if (xml_is(c, "node")) {
        rc = read_node(r, c);
    } else if (xml_is(c, "edge")) {
        bool wait = r->nwaiting > 0;
        if (!wait)
            rc = read_edge(r, c, r->directed, &wait);
        if (wait) {
            if (!array_grow((void **)&r->waiting, &r->waiting_cap, r->nwaiting + 1,
                            sizeof *r->waiting, 16) ||
                !(r->waiting[r->nwaiting++] = xml_keep(c)))
                return oom(r->err);
            return STEADY_OK;
        }
    } else if (xml_is(c, "hyperedge")) {
        rc = xml_error(r->err, STEADY_EUNSUPPORTED, r->origin, c,
                       "hyperedges are not supported: use one <edge> per link");
    } else if (xml_is(c, "graph")) {
        rc = xml_error(r->err, STEADY_EUNSUPPORTED, r->origin, c,
                       "nested graphs are not supported (a <graph> inside <graph>)");
    } else if (xml_is(c, "locator")) {
        rc = xml_error(r->err, STEADY_EUNSUPPORTED, r->origin, c,
                       "<locator> is not supported: put the content in this file");
    } else if (xml_is(c, "data")) {
        return xml_keep(c) ? STEADY_OK : oom(r->err);
    }
    xml_drop(c);
    return rc;
}

/* The graph is complete: the waiting edges, the platform's name. */
static steady_err_t read_graph_end(reader_t *r, xmlNodePtr g)
{
    steady_err_t rc = STEADY_OK;
    for (int k = 0; k < r->nwaiting && !rc; k++)
        rc = read_edge(r, r->waiting[k], r->directed, NULL);
    if (!rc)
        rc = read_graph_data(r, g);
    if (!rc && steady_platform_node_count(r->p) == 0)
        rc = xml_error(r->err, STEADY_EINVAL, r->origin, g, "empty platform: no node is declared");
    return rc;
}

/* An element opens: the root, the graph (its edgedefault), the order of
 * the top level. */
static steady_err_t element_start(void *ctx, xmlNodePtr e)
{
    reader_t *r = ctx;
    if (!r->root) {
        if (!xml_is(e, "graphml"))
            return xml_error(r->err, STEADY_EPARSE, r->origin, e,
                             "not a GraphML document (root element <%.100s>)",
                             (const char *)e->name);
        r->root = e;
        return STEADY_OK;
    }
    if (e->parent != r->root)
        return STEADY_OK;
    if (xml_is(e, "key") && r->graph) {
        char *id = xml_attr(e, "id");
        steady_err_t rc = xml_error(r->err, STEADY_EPARSE, r->origin, e,
                                    "<key> after the <graph> (%.300s): declare every key before "
                                    "the graph, as GraphML requires",
                                    id ? id : "");
        xmlFree(id);
        return rc;
    }
    if (!xml_is(e, "graph"))
        return STEADY_OK;
    if (r->graph)
        return xml_error(r->err, STEADY_EUNSUPPORTED, r->origin, e,
                         "second <graph>: a file holds one platform (the first graph is on "
                         "line %ld)",
                         xml_line(r->graph));
    r->graph = e;
    char *dflt = xml_attr(e, "edgedefault");
    /* GraphML requires edgedefault; a missing one is read as "directed",
     * the platform model's own default */
    r->directed = !dflt || strcmp(dflt, "directed") == 0;
    steady_err_t rc = STEADY_OK;
    if (dflt && !r->directed && strcmp(dflt, "undirected") != 0)
        rc = xml_error(r->err, STEADY_EPARSE, r->origin, e,
                       "bad edgedefault (%.300s): expected directed or undirected", dflt);
    xmlFree(dflt);
    return rc;
}

/* An element is complete: keys are read (and kept), the graph's children
 * read and freed as they come, so that memory holds one of them at a time
 * (and the edges that wait for a node). */
static steady_err_t element_end(void *ctx, xmlNodePtr e)
{
    reader_t *r = ctx;
    if (r->graph && e->parent == r->graph)
        return read_graph_child(r, e);
    if (e->parent != r->root)
        return STEADY_OK;
    if (xml_is(e, "key"))
        return read_key(r, e);
    if (e == r->graph)
        return read_graph_end(r, e);
    xml_drop(e);
    return STEADY_OK;
}

steady_err_t parse_graphml(const source_t *src, const char *origin, steady_platform_t *p,
                           steady_error_t *err)
{
    reader_t r = {.origin = origin, .p = p, .err = err};
    xml_handlers_t h = {.start = element_start, .end = element_end, .ctx = &r, .under = &r.graph};
    xmlDocPtr doc = NULL;
    steady_err_t rc = xml_parse(src, origin, &h, &doc, err);
    if (!rc && !r.graph)
        rc = xml_error(err, STEADY_EINVAL, origin, r.root, "empty platform: no <graph> element");
    xmlFreeDoc(doc);
    strmap_free(&r.key_ids);
    strmap_free(&r.renamed);
    strmap_free(&r.channel_ids);
    free(r.is_renamed);
    free(r.keys);
    free(r.waiting);
    return rc;
}

/* ---- writer --------------------------------------------------------------------------- */

/* Node and platform names are restricted to [A-Za-z0-9_.:@+/-], which need
 * no escaping; xml_escaped keeps the output well-formed should that rule
 * ever be relaxed. */

static void put_data(FILE *out, const char *key, double value)
{
    char buf[32];
    format_double(buf, value);
    fprintf(out, "      <data key=\"%s\">%s</data>\n", key, buf);
}

/* The <node> id of channel c: its name, unless a node has it (channels
 * have a namespace of their own, GraphML ids do not): then the name with
 * "~channel" and underscores added until no node has it. */
static void channel_id(const steady_platform_t *p, int c, char *id, size_t n)
{
    const char *name = steady_platform_channel(p, c)->name;
    snprintf(id, n, "%s", name);
    if (steady_platform_find_node(p, id) < 0)
        return;
    snprintf(id, n, "%s~channel", name);
    while (steady_platform_find_node(p, id) >= 0 && strlen(id) + 1 < n)
        strcat(id, "_");
}

steady_err_t write_graphml(const steady_platform_t *p, FILE *out, steady_error_t *err)
{
    (void)err; /* write errors are detected by the caller's fflush/ferror */
    bool abstract = steady_platform_is_abstract(p);
    bool channels = steady_platform_channel_count(p) > 0, factors = false, penalties = false;
    for (int k = 0; k < steady_platform_edge_count(p); k++) {
        factors = factors || steady_platform_edge(p, k)->recv_factor != 1;
        penalties = penalties || steady_platform_edge(p, k)->penalty != 0;
    }
    double weight_s, cal[2], crosstraffic = steady_platform_crosstraffic(p);
    bool penalty = steady_platform_flow_sharing(p, &weight_s) == STEADY_FLOWS_PENALTY;
    bool calibrated = steady_platform_calibrated(p, &cal[0], &cal[1]);
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<!-- steady platform: bandwidth in B/s, latency and overhead in s, speed in "
          "flop/s -->\n"
          "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\"\n"
          "         xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n"
          "         xsi:schemaLocation=\"http://graphml.graphdrawing.org/xmlns "
          "http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd\">\n"
          "  <key id=\"kind\" for=\"node\" attr.name=\"kind\" attr.type=\"string\">"
          "<default>processor</default></key>\n"
          "  <key id=\"speed\" for=\"node\" attr.name=\"speed\" attr.type=\"double\"/>\n",
          out);
    /* only the edge keys this platform uses, so that a tool loading the file
     * does not show an attribute that is missing everywhere; latency and
     * overhead default to 0, as in the model */
    if (abstract)
        fputs("  <key id=\"cost\" for=\"edge\" attr.name=\"cost\" attr.type=\"double\"/>\n", out);
    else
        fputs("  <key id=\"bandwidth\" for=\"edge\" attr.name=\"bandwidth\" "
              "attr.type=\"double\"/>\n",
              out);
    fputs("  <key id=\"latency\" for=\"edge\" attr.name=\"latency\" attr.type=\"double\">"
          "<default>0</default></key>\n",
          out);
    if (!abstract)
        fputs("  <key id=\"overhead\" for=\"edge\" attr.name=\"overhead\" attr.type=\"double\">"
              "<default>0</default></key>\n",
              out);
    if (factors)
        fputs("  <key id=\"recv-factor\" for=\"edge\" attr.name=\"recv-factor\" "
              "attr.type=\"double\"><default>1</default></key>\n",
              out);
    if (penalties)
        fputs("  <key id=\"penalty\" for=\"edge\" attr.name=\"penalty\" "
              "attr.type=\"double\"><default>0</default></key>\n",
              out);
    if (penalty)
        fputs("  <key id=\"flows\" for=\"graph\" attr.name=\"flows\" attr.type=\"string\"/>\n"
              "  <key id=\"weight-S\" for=\"graph\" attr.name=\"weight-S\" "
              "attr.type=\"double\"/>\n",
              out);
    if (crosstraffic > 0)
        fputs("  <key id=\"crosstraffic\" for=\"graph\" attr.name=\"crosstraffic\" "
              "attr.type=\"double\"/>\n",
              out);
    if (calibrated)
        fputs("  <key id=\"calibrated-min-size\" for=\"graph\" "
              "attr.name=\"calibrated-min-size\" attr.type=\"double\"/>\n"
              "  <key id=\"calibrated-max-size\" for=\"graph\" "
              "attr.name=\"calibrated-max-size\" attr.type=\"double\"/>\n",
              out);
    if (channels)
        fprintf(out,
                "  <key id=\"crosses\" for=\"edge\" attr.name=\"crosses\" attr.type=\"string\"/>\n"
                "  <key id=\"name\" for=\"node\" attr.name=\"name\" attr.type=\"string\"/>\n"
                "  <key id=\"channel_%s\" for=\"node\" attr.name=\"%s\" attr.type=\"double\"/>\n"
                "  <key id=\"channel_latency\" for=\"node\" attr.name=\"latency\" "
                "attr.type=\"double\"><default>0</default></key>\n"
                "  <key id=\"sharing\" for=\"node\" attr.name=\"sharing\" attr.type=\"string\">"
                "<default>shared</default></key>\n",
                abstract ? "cost" : "bandwidth", abstract ? "cost" : "bandwidth");

    fputs("  <graph id=\"", out);
    xml_escaped(out, steady_platform_name(p));
    fputs("\" edgedefault=\"directed\">\n", out);
    if (penalty) {
        fputs("    <data key=\"flows\">penalty</data>\n", out);
        put_data(out, "weight-S", weight_s);
    }
    if (crosstraffic > 0)
        put_data(out, "crosstraffic", crosstraffic);
    if (calibrated) {
        put_data(out, "calibrated-min-size", cal[0]);
        put_data(out, "calibrated-max-size", cal[1]);
    }
    for (int c = 0; c < steady_platform_channel_count(p); c++) {
        const steady_channel_t *ch = steady_platform_channel(p, c);
        char id[STEADY_NAME_MAX + 32];
        channel_id(p, c, id, sizeof id);
        fputs("    <node id=\"", out);
        xml_escaped(out, id);
        fputs("\">\n      <data key=\"kind\">channel</data>\n", out);
        if (strcmp(id, ch->name) != 0) {
            fputs("      <data key=\"name\">", out);
            xml_escaped(out, ch->name);
            fputs("</data>\n", out);
        }
        put_data(out, abstract ? "channel_cost" : "channel_bandwidth",
                 abstract ? ch->cost : ch->bandwidth);
        if (ch->latency != 0)
            put_data(out, "channel_latency", ch->latency);
        if (ch->sharing != STEADY_SHARED)
            fprintf(out, "      <data key=\"sharing\">%s</data>\n",
                    steady_sharing_name(ch->sharing));
        fputs("    </node>\n", out);
    }
    for (int v = 0; v < steady_platform_node_count(p); v++) {
        const steady_node_t *n = steady_platform_node(p, v);
        fputs("    <node id=\"", out);
        xml_escaped(out, n->name);
        fputs("\">\n", out);
        if (n->kind == STEADY_PROCESSOR) {
            fputs("      <data key=\"kind\">processor</data>\n", out);
            put_data(out, "speed", n->speed);
        } else {
            fprintf(out, "      <data key=\"kind\">%s</data>\n", steady_node_kind_name(n->kind));
        }
        fputs("    </node>\n", out);
    }
    for (int k = 0; k < steady_platform_edge_count(p); k++) {
        const steady_edge_t *e = steady_platform_edge(p, k);
        fputs("    <edge source=\"", out);
        xml_escaped(out, steady_platform_node(p, e->src)->name);
        fputs("\" target=\"", out);
        xml_escaped(out, steady_platform_node(p, e->dst)->name);
        fputs("\">\n", out);
        if (abstract) {
            put_data(out, "cost", e->cost);
            if (e->latency != 0)
                put_data(out, "latency", e->latency);
        } else {
            put_data(out, "bandwidth", e->bandwidth);
            put_data(out, "latency", e->latency);
            if (e->overhead != 0)
                put_data(out, "overhead", e->overhead);
        }
        if (e->recv_factor != 1)
            put_data(out, "recv-factor", e->recv_factor);
        if (e->penalty != 0)
            put_data(out, "penalty", e->penalty);
        if (e->ncross > 0) {
            fputs("      <data key=\"crosses\">", out);
            crossings_write(out, p, e);
            fputs("</data>\n", out);
        }
        fputs("    </edge>\n", out);
    }
    fputs("  </graph>\n</graphml>\n", out);
    return STEADY_OK;
}
