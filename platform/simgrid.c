/*
 * simgrid.c — SimGrid platform XML (DTD version 4.x, SimGrid 3.13 and later):
 * the reader of flat platforms and the exporter that SMPI runs on.
 *
 * What is read.  One <zone> (or the old name <AS>) whose routing is Full,
 * Floyd, Dijkstra or DijkstraCache, holding <host>, <router>, <link> and
 * <route> elements.  These routings differ only in how SimGrid completes
 * the routes that are *not* declared; steady's model is the graph of the
 * declared routes, so each <route> becomes one directed edge (two when it is
 * symmetrical, SimGrid's default).  A route crossing several links gets the
 * smallest bandwidth of its links (the bottleneck of a lone flow) and the
 * sum of their latencies.  Everything SimGrid can express beyond that —
 * clusters, nested zones and zone routes, bypass routes, traces, storage,
 * deployment — is refused with EUNSUPPORTED rather than approximated, and an
 * element or attribute that SimGrid itself does not know is refused with
 * EPARSE: a misspelt `latency` would otherwise silently default to 0.
 *
 * What is written.  One Floyd zone, every node a <host> (routers too: an MPI
 * rank must be able to run on each node to forward messages, and a SimGrid
 * <router> cannot host one), every edge one <link> plus one one-way <route>
 * over it.  Floyd routing lets SMPI carry the MPI runtime's own traffic
 * between non-adjacent ranks over multi-hop paths, while each platform edge
 * stays a direct one-link route.  Values are written with format_double in
 * base units (Bps, s, f), so that reading the file back gives the same
 * doubles bit for bit; what SimGrid has no field for (a router's kind, an
 * edge's per-message overhead, an abstract cost) travels in <prop> elements
 * that SimGrid ignores and this reader understands.
 *
 * libxml2 does the XML parsing (xml.c) and its hash table indexes the links
 * by id: routes name their links, and a linear search would make reading a
 * large platform quadratic.
 */
#include "internal.h"

#include <libxml/hash.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Message size that one abstract cost unit is scaled to on export when the
 * options do not say (steady_write_options_t.msg_size). */
#define DEFAULT_COST_MSG_SIZE 1048576.0

/* ---- reader state ----------------------------------------------------------- */

typedef struct {
    char *id;              /* xmlFree'd */
    double bandwidth;      /* B/s */
    double latency;        /* s */
    double cost, overhead; /* from the steady_cost / steady_overhead props */
    bool has_cost, has_overhead;
    bool splitduplex; /* referenced with direction UP or DOWN */
} sg_link_t;

/* Where an edge came from, to explain a duplicate. */
typedef struct {
    long line;    /* of its <route> */
    bool reverse; /* added as the reverse of a symmetrical route */
} edge_origin_t;

typedef struct {
    const char *origin;
    steady_platform_t *p;
    steady_error_t *err;
    sg_link_t *links;
    int link_count, link_cap;
    xmlHashTablePtr link_index; /* id -> index + 1, cast to a pointer */
    edge_origin_t *edges;       /* parallel to the platform's edges */
    int edge_cap;
} reader_t;

/* Elements of the SimGrid DTD that steady does not read, with the reason
 * given to the user.  Anything neither here nor read below is not SimGrid. */
static const struct {
    const char *name, *why;
} unsupported[] = {
    {"cluster", "declare its hosts, links and routes one by one in a Full or Floyd zone"},
    {"cabinet", "declare its hosts, links and routes one by one in a Full or Floyd zone"},
    {"peer", "declare the peer as a <host> with explicit <link> and <route> elements"},
    {"zone", "nested zones are not supported: flatten the platform into one zone"},
    {"AS", "nested zones are not supported: flatten the platform into one zone"},
    {"zoneRoute", "routes between zones are not supported: flatten the platform into one zone"},
    {"ASroute", "routes between zones are not supported: flatten the platform into one zone"},
    {"bypassRoute", "steady reads the declared routes only"},
    {"bypassZoneRoute", "steady reads the declared routes only"},
    {"bypassASroute", "steady reads the declared routes only"},
    {"backbone", "declare the backbone as a <link> used by the routes"},
    {"host_link", "declare explicit <link> and <route> elements"},
    {"trace", "steady models constant bandwidths, latencies and speeds"},
    {"trace_connect", "steady models constant bandwidths, latencies and speeds"},
    {"storage", "steady does not model storage"},
    {"storage_type", "steady does not model storage"},
    {"mount", "steady does not model storage"},
    {"disk", "steady does not model storage"},
    {"actor", "deployment belongs in a separate file, not in the platform"},
    {"process", "deployment belongs in a separate file, not in the platform"},
    {"include", "SimGrid no longer supports it either: inline the included file"},
    {"random", "deprecated and ignored by SimGrid: remove it"},
    {"model_prop", "deprecated and ignored by SimGrid: remove it"},
};

/* Elements steady reads (somewhere). */
static const char *const understood[] = {"platform", "config", "prop",     "host", "router",
                                         "link",     "route",  "link_ctn", NULL};

static const char *element_name(xmlNodePtr node)
{
    return (const char *)node->name;
}

/* An element that is out of place: unsupported, misplaced or unknown. */
static steady_err_t bad_element(reader_t *r, xmlNodePtr node, xmlNodePtr parent)
{
    const char *name = element_name(node);
    for (size_t k = 0; k < sizeof unsupported / sizeof *unsupported; k++)
        if (strcmp(name, unsupported[k].name) == 0)
            return xml_error(r->err, STEADY_EUNSUPPORTED, r->origin, node,
                             "unsupported element (<%s>): %s", name, unsupported[k].why);
    for (int k = 0; understood[k]; k++)
        if (strcmp(name, understood[k]) == 0)
            return xml_error(r->err, STEADY_EPARSE, r->origin, node,
                             "unexpected element (<%s>) in <%s>", name, element_name(parent));
    return xml_error(r->err, STEADY_EPARSE, r->origin, node,
                     "unknown element (<%s>) in <%s>: not a SimGrid platform element", name,
                     element_name(parent));
}

/* Rejects an attribute that SimGrid's DTD does not define for the element:
 * SimGrid would refuse the file, and a misspelt optional attribute would
 * otherwise be silently replaced by its default.  `allowed` is a
 * comma-separated list, quoted in the message. */
static steady_err_t check_attrs(reader_t *r, xmlNodePtr node, const char *allowed)
{
    for (xmlAttrPtr a = node->properties; a; a = a->next) {
        const char *name = (const char *)a->name;
        size_t n = strlen(name);
        bool ok = false;
        for (const char *s = allowed; *s && !ok;) {
            const char *e = strchr(s, ',');
            size_t len = e ? (size_t)(e - s) : strlen(s);
            ok = len == n && strncmp(s, name, n) == 0;
            s += len + (e ? 2 : 0); /* ", " */
        }
        if (!ok)
            return xml_error(r->err, STEADY_EPARSE, r->origin, node,
                             "unknown attribute in <%s> (%s): expected %s", element_name(node),
                             name, allowed);
    }
    return STEADY_OK;
}

/* Fetches a required attribute into *out (caller xmlFrees).  The message
 * names the element's id when it has one: "missing attribute speed in
 * <host> (h1)". */
static steady_err_t need_attr(reader_t *r, xmlNodePtr node, const char *name, char **out)
{
    *out = xml_attr(node, name);
    if (*out)
        return STEADY_OK;
    char *id = strcmp(name, "id") != 0 ? xml_attr(node, "id") : NULL;
    steady_err_t rc;
    if (id)
        rc = xml_error(r->err, STEADY_EPARSE, r->origin, node, "missing attribute %s in <%s> (%s)",
                       name, element_name(node), id);
    else
        rc = xml_error(r->err, STEADY_EPARSE, r->origin, node, "missing attribute %s in <%s>", name,
                       element_name(node));
    xmlFree(id);
    return rc;
}

/* Parses a value with SimGrid units and applies the model's range rule for
 * `field`; messages quote the text as written. */
static steady_err_t quantity(reader_t *r, xmlNodePtr node, const char *text, unit_kind_t kind,
                             const char *field, double *out)
{
    const char *why;
    if (!parse_quantity(text, kind, out, &why))
        return xml_error(r->err, STEADY_EPARSE, r->origin, node, "%s (%s): %s", why, text,
                         unit_hint(kind));
    steady_err_t rc = check_field(field, *out, text, r->err);
    return rc ? xml_locate(r->err, rc, r->origin, node) : STEADY_OK;
}

/* ---- <host> and <router> ------------------------------------------------------- */

/* The speed of a host: SimGrid's `speed` is a comma-separated list of
 * pstate speeds, and the host runs at pstate `pstate` (default 0).  Every
 * entry is checked, as SimGrid does, but only the running one is kept. */
static steady_err_t host_speed(reader_t *r, xmlNodePtr node, const char *speeds, double *speed)
{
    char *pstate_text = xml_attr(node, "pstate");
    long pstate = 0;
    steady_err_t rc = STEADY_OK;
    if (pstate_text) {
        char *end;
        pstate = strtol(pstate_text, &end, 10);
        if (end == pstate_text || *end != '\0' || pstate < 0)
            rc = xml_error(r->err, STEADY_EPARSE, r->origin, node,
                           "bad pstate in <host> (%s): expected an index into the speed list",
                           pstate_text);
    }
    long items = 0;
    char item[128];
    for (const char *s = speeds; !rc;) {
        const char *comma = strchr(s, ',');
        size_t len = comma ? (size_t)(comma - s) : strlen(s);
        while (len > 0 && (*s == ' ' || *s == '\t')) {
            s++;
            len--;
        }
        while (len > 0 && (s[len - 1] == ' ' || s[len - 1] == '\t'))
            len--;
        if (len >= sizeof item)
            len = sizeof item - 1;
        memcpy(item, s, len);
        item[len] = '\0';
        double v;
        if ((rc = quantity(r, node, item, UNIT_SPEED, "speed", &v)))
            break;
        if (items++ == pstate)
            *speed = v;
        if (!comma)
            break;
        s = comma + 1;
    }
    if (!rc && pstate >= items)
        rc = xml_error(r->err, STEADY_EINVAL, r->origin, node,
                       "pstate out of range in <host> (%s): the speed list has %ld value%s",
                       pstate_text, items, items > 1 ? "s" : "");
    xmlFree(pstate_text);
    return rc;
}

/* Reads the steady_kind prop of a host, if any: "router" makes the host a
 * router (that is how write_simgrid exports routers). */
static steady_err_t host_props(reader_t *r, xmlNodePtr host, steady_node_kind_t *kind)
{
    steady_err_t rc = STEADY_OK;
    for (xmlNodePtr c = host->children; c && !rc; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (!xml_is(c, "prop")) {
            rc = bad_element(r, c, host);
            break;
        }
        char *id = NULL, *value = NULL;
        if (!(rc = check_attrs(r, c, "id, value")) && !(rc = need_attr(r, c, "id", &id)) &&
            !(rc = need_attr(r, c, "value", &value)) && strcmp(id, "steady_kind") == 0) {
            if (strcmp(value, "router") == 0)
                *kind = STEADY_ROUTER;
            else if (strcmp(value, "processor") == 0)
                *kind = STEADY_PROCESSOR;
            else
                rc = xml_error(r->err, STEADY_EINVAL, r->origin, c,
                               "unknown steady_kind (%s): expected router or processor", value);
        }
        xmlFree(id);
        xmlFree(value);
    }
    return rc;
}

/* A time-varying profile cannot be represented by a constant attribute. */
static steady_err_t no_profile(reader_t *r, xmlNodePtr node, const char *attr)
{
    char *file = xml_attr(node, attr);
    steady_err_t rc = STEADY_OK;
    if (file && *file)
        rc = xml_error(r->err, STEADY_EUNSUPPORTED, r->origin, node,
                       "unsupported attribute %s in <%s> (%s): steady models constant "
                       "bandwidths, latencies and speeds",
                       attr, element_name(node), file);
    xmlFree(file);
    return rc;
}

static steady_err_t read_host(reader_t *r, xmlNodePtr node)
{
    char *id = NULL, *speeds = NULL;
    steady_node_kind_t kind = STEADY_PROCESSOR;
    double speed = 0;
    steady_err_t rc;
    if ((rc = check_attrs(r, node,
                          "id, speed, core, speed_file, availability_file, state_file, "
                          "coordinates, pstate")) ||
        (rc = need_attr(r, node, "id", &id)) || (rc = need_attr(r, node, "speed", &speeds)) ||
        (rc = no_profile(r, node, "speed_file")) ||
        (rc = no_profile(r, node, "availability_file")) ||
        (rc = no_profile(r, node, "state_file")) || (rc = host_speed(r, node, speeds, &speed)) ||
        (rc = host_props(r, node, &kind)))
        goto cleanup;
    /* `core` is ignored: steady's model has one speed per node, the speed
     * of the task stream it runs, which SimGrid gives per core. */
    if ((rc = steady_platform_add_node(r->p, id, kind, kind == STEADY_ROUTER ? 0 : speed, NULL,
                                       r->err)))
        rc = xml_locate(r->err, rc, r->origin, node);
cleanup:
    xmlFree(id);
    xmlFree(speeds);
    return rc;
}

static steady_err_t read_router(reader_t *r, xmlNodePtr node)
{
    char *id = NULL;
    steady_err_t rc;
    if ((rc = check_attrs(r, node, "id, coordinates")) || (rc = need_attr(r, node, "id", &id)))
        goto cleanup;
    for (xmlNodePtr c = node->children; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE) {
            rc = bad_element(r, c, node);
            goto cleanup;
        }
    if ((rc = steady_platform_add_node(r->p, id, STEADY_ROUTER, 0, NULL, r->err)))
        rc = xml_locate(r->err, rc, r->origin, node);
cleanup:
    xmlFree(id);
    return rc;
}

/* ---- <link> ---------------------------------------------------------------------- */

static steady_err_t link_props(reader_t *r, xmlNodePtr link, sg_link_t *l)
{
    steady_err_t rc = STEADY_OK;
    for (xmlNodePtr c = link->children; c && !rc; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (!xml_is(c, "prop")) {
            rc = bad_element(r, c, link);
            break;
        }
        char *id = NULL, *value = NULL;
        if (!(rc = check_attrs(r, c, "id, value")) && !(rc = need_attr(r, c, "id", &id)) &&
            !(rc = need_attr(r, c, "value", &value))) {
            bool cost = strcmp(id, "steady_cost") == 0;
            bool overhead = strcmp(id, "steady_overhead") == 0;
            if ((cost && l->has_cost) || (overhead && l->has_overhead))
                rc = xml_error(r->err, STEADY_EINVAL, r->origin, c, "duplicate <prop> (%s)", id);
            else if (cost && !(rc = quantity(r, c, value, UNIT_NONE, "cost", &l->cost)))
                l->has_cost = true;
            else if (overhead && !(rc = quantity(r, c, value, UNIT_TIME, "overhead", &l->overhead)))
                l->has_overhead = true;
        }
        xmlFree(id);
        xmlFree(value);
    }
    return rc;
}

static steady_err_t read_link(reader_t *r, xmlNodePtr node)
{
    sg_link_t l = {0};
    char *bandwidth = NULL, *latency = NULL, *policy = NULL;
    steady_err_t rc;
    if ((rc = check_attrs(r, node,
                          "id, bandwidth, latency, sharing_policy, bandwidth_file, "
                          "latency_file, state_file")) ||
        (rc = need_attr(r, node, "id", &l.id)) ||
        (rc = need_attr(r, node, "bandwidth", &bandwidth)) ||
        (rc = no_profile(r, node, "bandwidth_file")) ||
        (rc = no_profile(r, node, "latency_file")) || (rc = no_profile(r, node, "state_file")) ||
        (rc = quantity(r, node, bandwidth, UNIT_BANDWIDTH, "bandwidth", &l.bandwidth)))
        goto cleanup;
    /* SimGrid's default latency is 0 */
    latency = xml_attr(node, "latency");
    if (latency && (rc = quantity(r, node, latency, UNIT_TIME, "latency", &l.latency)))
        goto cleanup;
    /* The sharing policy decides how concurrent flows share the link; in
     * steady's one-port model an edge carries one message at a time, so
     * only SPLITDUPLEX matters here, for how routes name the link. */
    policy = xml_attr(node, "sharing_policy");
    if (policy) {
        if (strcmp(policy, "SPLITDUPLEX") == 0 || strcmp(policy, "FULLDUPLEX") == 0) {
            l.splitduplex = true;
        } else if (strcmp(policy, "WIFI") == 0) {
            rc = xml_error(r->err, STEADY_EUNSUPPORTED, r->origin, node,
                           "unsupported sharing_policy in <link> (%s): wifi links need a Wifi "
                           "zone, which steady does not read",
                           policy);
            goto cleanup;
        } else if (strcmp(policy, "SHARED") != 0 && strcmp(policy, "FATPIPE") != 0) {
            rc = xml_error(r->err, STEADY_EPARSE, r->origin, node,
                           "unknown sharing_policy in <link> (%s): expected SHARED, SPLITDUPLEX "
                           "or FATPIPE",
                           policy);
            goto cleanup;
        }
    }
    if ((rc = link_props(r, node, &l)))
        goto cleanup;

    if (r->link_count == r->link_cap) {
        int ncap = r->link_cap ? 2 * r->link_cap : 16;
        sg_link_t *n = realloc(r->links, (size_t)ncap * sizeof *n);
        if (!n) {
            rc = steady_error_set(r->err, STEADY_ENOMEM, "out of memory");
            goto cleanup;
        }
        r->links = n;
        r->link_cap = ncap;
    }
    int added = xmlHashAddEntry(r->link_index, (const xmlChar *)l.id,
                                (void *)(intptr_t)(r->link_count + 1));
    if (added != 0) {
        if (xmlHashLookup(r->link_index, (const xmlChar *)l.id))
            rc = xml_error(r->err, STEADY_EINVAL, r->origin, node, "duplicate link (%s)", l.id);
        else
            rc = steady_error_set(r->err, STEADY_ENOMEM, "out of memory");
        goto cleanup;
    }
    r->links[r->link_count++] = l;
    l.id = NULL; /* owned by r->links now */
cleanup:
    xmlFree(l.id);
    xmlFree(bandwidth);
    xmlFree(latency);
    xmlFree(policy);
    return rc;
}

/* ---- <route> ----------------------------------------------------------------------- */

static steady_err_t route_node(reader_t *r, xmlNodePtr node, const char *attr, int *id)
{
    char *name;
    steady_err_t rc = need_attr(r, node, attr, &name);
    if (rc)
        return rc;
    *id = steady_platform_find_node(r->p, name);
    if (*id < 0)
        rc = xml_error(r->err, STEADY_EINVAL, r->origin, node,
                       "unknown host or router in <route> %s (%s): declare it with <host> or "
                       "<router> before the route",
                       attr, name);
    xmlFree(name);
    return rc;
}

/* Resolves one <link_ctn> to the link it names. */
static steady_err_t route_link(reader_t *r, xmlNodePtr ctn, const sg_link_t **out)
{
    char *id = NULL, *direction = NULL;
    steady_err_t rc;
    if ((rc = check_attrs(r, ctn, "id, direction")) || (rc = need_attr(r, ctn, "id", &id)))
        goto cleanup;
    intptr_t k = (intptr_t)xmlHashLookup(r->link_index, (const xmlChar *)id);
    if (k == 0) {
        rc = xml_error(r->err, STEADY_EINVAL, r->origin, ctn, "unknown link in <route> (%s)", id);
        goto cleanup;
    }
    const sg_link_t *l = &r->links[k - 1];
    /* SimGrid splits a SPLITDUPLEX link into two one-way links that routes
     * must name with direction UP or DOWN; both have the link's bandwidth
     * and latency, so the direction does not change the edge. */
    direction = xml_attr(ctn, "direction");
    bool oriented = direction && strcmp(direction, "NONE") != 0;
    if (direction && strcmp(direction, "UP") != 0 && strcmp(direction, "DOWN") != 0 && oriented) {
        rc =
            xml_error(r->err, STEADY_EPARSE, r->origin, ctn,
                      "unknown direction in <link_ctn> (%s): expected UP, DOWN or NONE", direction);
    } else if (l->splitduplex && !oriented) {
        rc = xml_error(r->err, STEADY_EINVAL, r->origin, ctn,
                       "missing direction in <link_ctn> to the SPLITDUPLEX link (%s): use "
                       "direction=\"UP\" or \"DOWN\"",
                       id);
    } else if (!l->splitduplex && oriented) {
        rc = xml_error(r->err, STEADY_EINVAL, r->origin, ctn,
                       "direction %s in <link_ctn> to a link that is not SPLITDUPLEX (%s)",
                       direction, id);
    } else {
        *out = l;
    }
cleanup:
    xmlFree(id);
    xmlFree(direction);
    return rc;
}

/* Adds one edge of a route.  A duplicate is the model's error, told with
 * the line of the first declaration and, when a symmetrical route is
 * involved, a hint: routes are symmetrical unless they say otherwise, a
 * classic surprise when one-way routes are written in both directions. */
static steady_err_t add_route_edge(reader_t *r, xmlNodePtr node, const steady_edge_t *e,
                                   bool reverse)
{
    int id;
    steady_err_t rc = steady_platform_add_edge(r->p, e, &id, r->err);
    if (rc) {
        /* src != dst here, so an existing edge means a duplicate */
        int old = steady_platform_find_edge(r->p, e->src, e->dst);
        if (old >= 0 && r->err) {
            const edge_origin_t *o = &r->edges[old];
            size_t n = strlen(r->err->msg);
            snprintf(r->err->msg + n, sizeof r->err->msg - n,
                     ": already declared by the route at line %ld%s", o->line,
                     o->reverse ? ", which is symmetrical (SimGrid's default): add "
                                  "symmetrical=\"NO\" to one-way routes"
                     : reverse  ? ", and this route is symmetrical (SimGrid's default): add "
                                  "symmetrical=\"NO\" to one-way routes"
                                : "");
        }
        return xml_locate(r->err, rc, r->origin, node);
    }
    if (id >= r->edge_cap) {
        int ncap = r->edge_cap ? 2 * r->edge_cap : 16;
        while (ncap <= id)
            ncap *= 2;
        edge_origin_t *n = realloc(r->edges, (size_t)ncap * sizeof *n);
        if (!n)
            return steady_error_set(r->err, STEADY_ENOMEM, "out of memory");
        r->edges = n;
        r->edge_cap = ncap;
    }
    r->edges[id] = (edge_origin_t){.line = xml_line(node), .reverse = reverse};
    return STEADY_OK;
}

static steady_err_t read_route(reader_t *r, xmlNodePtr node)
{
    char *sym = NULL;
    steady_edge_t e = {0};
    steady_err_t rc;
    if ((rc = check_attrs(r, node, "src, dst, symmetrical")) ||
        (rc = route_node(r, node, "src", &e.src)) || (rc = route_node(r, node, "dst", &e.dst)))
        goto cleanup;
    const char *src = steady_platform_node(r->p, e.src)->name;
    const char *dst = steady_platform_node(r->p, e.dst)->name;
    bool symmetrical = true; /* SimGrid's default */
    sym = xml_attr(node, "symmetrical");
    if (sym) {
        if (strcmp(sym, "NO") == 0 || strcmp(sym, "no") == 0) {
            symmetrical = false;
        } else if (strcmp(sym, "YES") != 0 && strcmp(sym, "yes") != 0) {
            rc = xml_error(r->err, STEADY_EPARSE, r->origin, node,
                           "bad symmetrical in <route> (%s): expected YES or NO", sym);
            goto cleanup;
        }
    }

    /* A lone message on a multi-link route is limited by the slowest link
     * and delayed by every link: bandwidth = min, latency = sum, added in
     * the route's order.  The reverse of a symmetrical route crosses the
     * same links and gets the same values. */
    int links = 0, costs = 0;
    double cost = 0, overhead = 0;
    e.bandwidth = INFINITY;
    for (xmlNodePtr c = node->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        const sg_link_t *l = NULL;
        if (!xml_is(c, "link_ctn")) {
            rc = bad_element(r, c, node);
            goto cleanup;
        }
        if ((rc = route_link(r, c, &l)))
            goto cleanup;
        links++;
        if (l->bandwidth < e.bandwidth)
            e.bandwidth = l->bandwidth;
        e.latency += l->latency;
        if (l->has_cost) {
            costs++;
            cost += l->cost;
        }
        if (l->has_overhead)
            overhead += l->overhead;
    }
    if (links == 0) {
        rc = xml_error(r->err, STEADY_EINVAL, r->origin, node,
                       "route with no <link_ctn> (%s -> %s)", src, dst);
        goto cleanup;
    }
    /* A route from a host to itself is SimGrid's loopback: the cost of a
     * transfer inside one host, which steady's model does not have (a node
     * never sends to itself).  Its links are checked, like any route's,
     * and it adds no edge.  Many SimGrid platforms declare one per host. */
    if (e.src == e.dst)
        goto cleanup;
    /* Our exporter marks every link of an abstract platform with its cost;
     * a route made only of such links is a cost edge. */
    if (costs == links) {
        e.bandwidth = 0;
        e.cost = cost;
    } else {
        e.overhead = overhead;
    }
    if ((rc = add_route_edge(r, node, &e, false)) == STEADY_OK && symmetrical) {
        int tmp = e.src;
        e.src = e.dst;
        e.dst = tmp;
        rc = add_route_edge(r, node, &e, true);
    }
cleanup:
    xmlFree(sym);
    return rc;
}

/* ---- <zone> and <platform> ------------------------------------------------------------ */

static steady_err_t read_zone(reader_t *r, xmlNodePtr zone)
{
    char *id = NULL, *routing = NULL;
    steady_err_t rc;
    if ((rc = check_attrs(r, zone, "id, routing")) || (rc = need_attr(r, zone, "id", &id)) ||
        (rc = need_attr(r, zone, "routing", &routing)))
        goto cleanup;
    /* Full, Floyd and (cached) Dijkstra zones differ only in how SimGrid
     * completes the routes that are not declared: the declared routes,
     * which are all steady reads, mean the same in each. */
    static const char *const flat[] = {"Full", "Floyd", "Dijkstra", "DijkstraCache", NULL};
    static const char *const other[] = {
        "Cluster", "ClusterTorus", "ClusterFatTree", "ClusterDragonfly",
        "Vivaldi", "Wifi",         "Star",           "None",
        NULL};
    bool ok = false, known = false;
    for (int k = 0; flat[k]; k++)
        ok = ok || strcmp(routing, flat[k]) == 0;
    for (int k = 0; other[k]; k++)
        known = known || strcmp(routing, other[k]) == 0;
    if (!ok) {
        rc = xml_error(r->err, known ? STEADY_EUNSUPPORTED : STEADY_EPARSE, r->origin, zone,
                       "%s routing in <%s> (%s): steady reads Full, Floyd, Dijkstra and "
                       "DijkstraCache zones",
                       known ? "unsupported" : "unknown", element_name(zone), routing);
        goto cleanup;
    }
    if (valid_node_name(id) && (rc = steady_platform_set_name(r->p, id, r->err)))
        goto cleanup;

    for (xmlNodePtr c = zone->children; c && !rc; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (xml_is(c, "host"))
            rc = read_host(r, c);
        else if (xml_is(c, "router"))
            rc = read_router(r, c);
        else if (xml_is(c, "link"))
            rc = read_link(r, c);
        else if (xml_is(c, "route"))
            rc = read_route(r, c);
        else if (!xml_is(c, "prop")) /* zone properties mean nothing to steady */
            rc = bad_element(r, c, zone);
    }
    if (!rc && steady_platform_node_count(r->p) == 0)
        rc =
            xml_error(r->err, STEADY_EINVAL, r->origin, zone,
                      "empty platform: no <host> or <router> in <%s> (%s)", element_name(zone), id);
cleanup:
    xmlFree(id);
    xmlFree(routing);
    return rc;
}

/* Only version 4.x files are read: earlier ones used other units and
 * element names, which SimGrid's own simgrid_update_xml converts. */
static steady_err_t check_version(reader_t *r, xmlNodePtr root)
{
    char *version = xml_attr(root, "version");
    steady_err_t rc = STEADY_OK;
    if (!version)
        return xml_error(r->err, STEADY_EPARSE, r->origin, root,
                         "missing attribute version in <platform>: expected version=\"4.1\"");
    char *end;
    double v = strtod(version, &end);
    if (end == version || *end != '\0' || !isfinite(v))
        rc = xml_error(r->err, STEADY_EPARSE, r->origin, root,
                       "bad platform version (%s): expected 4.1", version);
    else if (v < 4)
        rc = xml_error(r->err, STEADY_EUNSUPPORTED, r->origin, root,
                       "SimGrid platform version too old (%s): upgrade the file with "
                       "simgrid_update_xml",
                       version);
    else if (v >= 5)
        rc = xml_error(r->err, STEADY_EUNSUPPORTED, r->origin, root,
                       "unsupported SimGrid platform version (%s): steady reads version 4.x",
                       version);
    xmlFree(version);
    return rc;
}

steady_err_t parse_simgrid(xmlDocPtr doc, const char *origin, steady_platform_t *p,
                           steady_error_t *err)
{
    reader_t r = {.origin = origin, .p = p, .err = err};
    xmlNodePtr root = xmlDocGetRootElement(doc);
    if (!root)
        return steady_error_set(err, STEADY_EPARSE, "%s:1: empty XML document", origin);
    if (!xml_is(root, "platform"))
        return xml_error(err, STEADY_EPARSE, origin, root,
                         "not a SimGrid platform (<%s>): expected a <platform> root element",
                         element_name(root));
    r.link_index = xmlHashCreate(64);
    if (!r.link_index)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");

    steady_err_t rc = check_attrs(&r, root, "version");
    if (!rc)
        rc = check_version(&r, root);
    xmlNodePtr zone = NULL;
    for (xmlNodePtr c = root->children; c && !rc; c = c->next) {
        if (c->type != XML_ELEMENT_NODE || xml_is(c, "config") || xml_is(c, "prop"))
            continue; /* <config> tunes SimGrid's models; comments and text are ignored */
        if (!xml_is(c, "zone") && !xml_is(c, "AS")) {
            rc = bad_element(&r, c, root);
        } else if (zone) {
            char *id = xml_attr(c, "id");
            rc = xml_error(err, STEADY_EUNSUPPORTED, origin, c,
                           "more than one top-level zone (%s): steady reads platforms made of "
                           "one zone",
                           id ? id : element_name(c));
            xmlFree(id);
        } else {
            zone = c;
            rc = read_zone(&r, c);
        }
    }
    if (!rc && !zone)
        rc = xml_error(err, STEADY_EINVAL, origin, root, "empty platform: no <zone> in <platform>");

    for (int k = 0; k < r.link_count; k++)
        xmlFree(r.links[k].id);
    free(r.links);
    free(r.edges);
    xmlHashFree(r.link_index, NULL);
    return rc;
}

/* ---- writer ------------------------------------------------------------------------ */

/* Node and platform names cannot hold XML's special characters
 * (valid_node_name), but a link id holds "->". */
static void put_escaped(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '&': fputs("&amp;", out); break;
        case '"': fputs("&quot;", out); break;
        default: fputc(*s, out);
        }
    }
}

/* The id of edge e's link: "SRC->DST".  Names cannot contain '>', so the
 * id is unique and names the edge unambiguously. */
static void put_link_id(FILE *out, const steady_platform_t *p, const steady_edge_t *e)
{
    fputs(" id=\"", out);
    put_escaped(out, steady_platform_node(p, e->src)->name);
    put_escaped(out, "->");
    put_escaped(out, steady_platform_node(p, e->dst)->name);
    fputc('"', out);
}

steady_err_t write_simgrid(const steady_platform_t *p, FILE *out,
                           const steady_write_options_t *opts, steady_error_t *err)
{
    double msg_size = opts && opts->msg_size != 0 ? opts->msg_size : DEFAULT_COST_MSG_SIZE;
    if (!isfinite(msg_size) || msg_size < 0) {
        char v[32];
        format_double(v, msg_size);
        return steady_error_set(err, STEADY_EINVAL,
                                "invalid message size for the SimGrid export (%s bytes)", v);
    }
    /* An abstract cost c becomes the bandwidth msg_size / c, so that one
     * message of msg_size bytes occupies the link c simulated seconds; the
     * quotient must still be a bandwidth in the model's range. */
    for (int k = 0; k < steady_platform_edge_count(p); k++) {
        const steady_edge_t *e = steady_platform_edge(p, k);
        double bw = msg_size / e->cost;
        if (e->cost != 0 && !(bw >= STEADY_BANDWIDTH_MIN && bw <= STEADY_BANDWIDTH_MAX)) {
            char c[32], m[32];
            format_double(c, e->cost);
            format_double(m, msg_size);
            return steady_error_set(err, STEADY_EINVAL,
                                    "cannot export the cost of edge %s -> %s (%s) as a SimGrid "
                                    "bandwidth for %s-byte messages",
                                    steady_platform_node(p, e->src)->name,
                                    steady_platform_node(p, e->dst)->name, c, m);
        }
    }

    char a[32], b[32];
    fputs("<?xml version='1.0'?>\n"
          "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n",
          out);
    fputs("<!-- steady platform export: one host per node (routers are hosts with\n"
          "     steady_kind=router so that an MPI rank can forward on them), one link and\n"
          "     one one-way route per edge.  Units: Bps, s, f. -->\n",
          out);
    fputs("<platform version=\"4.1\">\n  <zone id=\"", out);
    put_escaped(out, steady_platform_name(p));
    fputs("\" routing=\"Floyd\">\n", out);

    for (int v = 0; v < steady_platform_node_count(p); v++) {
        const steady_node_t *n = steady_platform_node(p, v);
        fputs("    <host id=\"", out);
        put_escaped(out, n->name);
        if (n->kind == STEADY_ROUTER) {
            fputs("\" speed=\"1f\">\n"
                  "      <prop id=\"steady_kind\" value=\"router\"/>\n"
                  "    </host>\n",
                  out);
        } else {
            format_double(a, n->speed);
            fprintf(out, "\" speed=\"%sf\"/>\n", a);
        }
    }

    /* SimGrid's DTD wants every link of a zone before its first route. */
    for (int k = 0; k < steady_platform_edge_count(p); k++) {
        const steady_edge_t *e = steady_platform_edge(p, k);
        fputs("    <link", out);
        put_link_id(out, p, e);
        format_double(a, e->cost != 0 ? msg_size / e->cost : e->bandwidth);
        format_double(b, e->latency);
        fprintf(out, " bandwidth=\"%sBps\" latency=\"%ss\"", a, b);
        if (e->cost != 0) {
            format_double(a, e->cost);
            fprintf(out, ">\n      <prop id=\"steady_cost\" value=\"%s\"/>\n    </link>\n", a);
        } else if (e->overhead != 0) {
            format_double(a, e->overhead);
            fprintf(out, ">\n      <prop id=\"steady_overhead\" value=\"%s\"/>\n    </link>\n", a);
        } else {
            fputs("/>\n", out);
        }
    }
    for (int k = 0; k < steady_platform_edge_count(p); k++) {
        const steady_edge_t *e = steady_platform_edge(p, k);
        fputs("    <route src=\"", out);
        put_escaped(out, steady_platform_node(p, e->src)->name);
        fputs("\" dst=\"", out);
        put_escaped(out, steady_platform_node(p, e->dst)->name);
        fputs("\" symmetrical=\"NO\"><link_ctn", out);
        put_link_id(out, p, e);
        fputs("/></route>\n", out);
    }
    fputs("  </zone>\n</platform>\n", out);
    return STEADY_OK;
}
