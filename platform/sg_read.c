/*
 * sg_read.c — SimGrid platform XML (DTD 4.x, SimGrid 3.13 and later) read
 * into the reader's model (sg.h): zones nested as in the file, their hosts,
 * routers and sub-zones as vertices in SimGrid's order, the links (the
 * declared routes and zone routes are sg_read_route.c's, the clusters and
 * Cluster zones sg_cluster.c's and sg_topo.c's).
 *
 * The document is streamed (xml_parse): the <platform> root and the zones
 * being read are the only elements kept; every other element (a host, a
 * link, a route, a whole <cluster>) is built on its own in a scratch arena
 * once complete, read, and forgotten, in the file's order.  So a file of
 * 10^6 hosts and 4x10^6 routes is never a document tree in memory (5 GB and
 * more), and the model keeps a route's links in exactly the memory they
 * need and the names in shared blocks.
 *
 * Read: <zone> (and the old <AS>) with routing Full, Floyd, Dijkstra,
 * DijkstraCache, Cluster (a star: <host_link>, <backbone>, <cabinet>) or
 * Vivaldi (a star of <peer>s, sg_vivaldi.c);
 * <cluster> of FLAT, TORUS, FAT_TREE or DRAGONFLY topology; <host>,
 * <router>, <link>, <route>, <zoneRoute> (<ASroute>), <bypassRoute>,
 * <bypassZoneRoute> (<bypassASroute>); <prop>.  Refused with the
 * element's line: other routings (Wifi), traces, storage, disks,
 * deployment.  An attribute SimGrid does not define is an error, so
 * that a misspelt `latency` cannot silently leave a latency at 0.
 *
 * libxml2 does the XML parsing (xml.c); string maps (common/strmap.h)
 * index the links and netpoints by name: routes name them, and a linear
 * search would make reading a large platform quadratic (libxml2's own hash
 * tables, used before, made a 10^6-host file spend half its time there).
 */
#define _POSIX_C_SOURCE 200809L
#include "sg.h"

#include "../common/array.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Elements of the SimGrid DTD that steady does not read, with the reason
 * given to the user.  Anything neither here nor read below is not SimGrid. */
static const struct {
    const char *name, *why;
} unsupported[] = {
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
static const char *const understood[] = {
    "platform", "config",   "prop",      "zone",    "AS",          "cluster",
    "host",     "router",   "link",      "route",   "link_ctn",    "zoneRoute",
    "ASroute",  "backbone", "host_link", "cabinet", "peer",        "bypassRoute",
    "bypassZoneRoute",      "bypassASroute",        NULL};

/* An element that is out of place: unsupported, misplaced or unknown. */
steady_err_t sg_bad_element(sg_t *g, xmlNodePtr node, xmlNodePtr parent)
{
    const char *name = sg_element_name(node);
    for (size_t k = 0; k < sizeof unsupported / sizeof *unsupported; k++)
        if (strcmp(name, unsupported[k].name) == 0)
            return xml_error(g->err, STEADY_EUNSUPPORTED, g->origin, node,
                             "unsupported element (<%s>): %s", name, unsupported[k].why);
    for (int k = 0; understood[k]; k++)
        if (strcmp(name, understood[k]) == 0)
            return xml_error(g->err, STEADY_EPARSE, g->origin, node,
                             "unexpected element (<%s>) in <%s>", name, sg_element_name(parent));
    return xml_error(g->err, STEADY_EPARSE, g->origin, node,
                     "unknown element (<%s>) in <%s>: not a SimGrid platform element", name,
                     sg_element_name(parent));
}

/* Rejects an attribute that SimGrid's DTD does not define for the element:
 * SimGrid would refuse the file, and a misspelt optional attribute would
 * otherwise be silently replaced by its default.  `allowed` is a
 * comma-separated list, quoted in the message. */
steady_err_t sg_check_attrs(sg_t *g, xmlNodePtr node, const char *allowed)
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
            return xml_error(g->err, STEADY_EPARSE, g->origin, node,
                             "unknown attribute in <%s> (%s): expected %s", sg_element_name(node),
                             name, allowed);
    }
    return STEADY_OK;
}

/* Fetches a required attribute into *out (caller xmlFrees).  The message
 * names the element's id when it has one: "missing attribute speed in
 * <host> (h1)". */
steady_err_t sg_need_attr(sg_t *g, xmlNodePtr node, const char *name, char **out)
{
    *out = xml_attr(node, name);
    if (*out)
        return STEADY_OK;
    char *id = strcmp(name, "id") != 0 ? xml_attr(node, "id") : NULL;
    steady_err_t rc;
    if (id)
        rc = xml_error(g->err, STEADY_EPARSE, g->origin, node, "missing attribute %s in <%s> (%s)",
                       name, sg_element_name(node), id);
    else
        rc = xml_error(g->err, STEADY_EPARSE, g->origin, node, "missing attribute %s in <%s>", name,
                       sg_element_name(node));
    xmlFree(id);
    return rc;
}

/* Parses a value with SimGrid units and applies the model's range rule for
 * `field`; messages quote the text as written. */
steady_err_t sg_quantity(sg_t *g, xmlNodePtr node, const char *text, unit_kind_t kind,
                         const char *field, double *out)
{
    const char *why;
    if (!parse_quantity(text, kind, out, &why))
        return xml_error(g->err, STEADY_EPARSE, g->origin, node, "%s (%s): %s", why, text,
                         unit_hint(kind));
    steady_err_t rc = check_field(field, *out, text, g->err);
    return rc ? xml_locate(g->err, rc, g->origin, node) : STEADY_OK;
}

/* An optional attribute's quantity into *out (unchanged when absent or
 * empty, as SimGrid's "" defaults are). */
steady_err_t sg_opt_quantity(sg_t *g, xmlNodePtr node, const char *attr, unit_kind_t kind,
                             const char *field, double *out, bool *given)
{
    char *text = xml_attr(node, attr);
    steady_err_t rc = STEADY_OK;
    if (given)
        *given = text && *text;
    if (text && *text)
        rc = sg_quantity(g, node, text, kind, field, out);
    xmlFree(text);
    return rc;
}

/* A time-varying profile cannot be represented by a constant attribute. */
steady_err_t sg_no_profile(sg_t *g, xmlNodePtr node, const char *attr)
{
    char *file = xml_attr(node, attr);
    steady_err_t rc = STEADY_OK;
    if (file && *file)
        rc = xml_error(g->err, STEADY_EUNSUPPORTED, g->origin, node,
                       "unsupported attribute %s in <%s> (%s): steady models constant "
                       "bandwidths, latencies and speeds",
                       attr, sg_element_name(node), file);
    xmlFree(file);
    return rc;
}

/* SimGrid's sharing policies, for <link> and <cluster>. */
steady_err_t sg_sharing_policy(sg_t *g, xmlNodePtr node, const char *attr, const char *deflt,
                               bool cluster_bb, steady_sharing_t *out)
{
    char *text = xml_attr(node, attr);
    const char *v = text ? text : deflt;
    steady_err_t rc = STEADY_OK;
    if (strcmp(v, "SPLITDUPLEX") == 0 || strcmp(v, "FULLDUPLEX") == 0)
        *out = STEADY_SPLITDUPLEX;
    else if (strcmp(v, "SHARED") == 0)
        *out = STEADY_SHARED;
    else if (strcmp(v, "FATPIPE") == 0)
        *out = STEADY_FATPIPE;
    else if (strcmp(v, "WIFI") == 0 && !cluster_bb)
        rc = xml_error(g->err, STEADY_EUNSUPPORTED, g->origin, node,
                       "unsupported %s in <%s> (%s): wifi links need a Wifi zone, which steady "
                       "does not read",
                       attr, sg_element_name(node), v);
    else
        rc = xml_error(g->err, STEADY_EPARSE, g->origin, node,
                       "unknown %s in <%s> (%s): expected %s", attr, sg_element_name(node), v,
                       cluster_bb ? "SHARED or FATPIPE" : "SHARED, SPLITDUPLEX or FATPIPE");
    if (!rc && cluster_bb && *out == STEADY_SPLITDUPLEX)
        rc = xml_error(g->err, STEADY_EPARSE, g->origin, node,
                       "unknown %s in <%s> (%s): expected SHARED or FATPIPE", attr,
                       sg_element_name(node), v);
    xmlFree(text);
    return rc;
}

/* ---- the model's elements --------------------------------------------------- */

/* A copy of s in g's string blocks; NULL when out of memory. */
static char *keep_string(sg_t *g, const char *s)
{
    size_t n = strlen(s) + 1;
    if (!g->strings || g->strings->used + n > g->strings->size) {
        size_t size = n > 65536 ? n : 65536;
        sg_block_t *b = malloc(sizeof *b + size);
        if (!b)
            return NULL;
        *b = (sg_block_t){.next = g->strings, .size = size};
        g->strings = b;
    }
    char *copy = g->strings->data + g->strings->used;
    g->strings->used += n;
    return memcpy(copy, s, n);
}

int sg_add_link(sg_t *g, xmlNodePtr node, const char *id, double bw, double lat,
                steady_sharing_t sharing)
{
    if (g->nlinks == g->caplinks) {
        int ncap = g->caplinks ? 2 * g->caplinks : 16;
        sg_link_t *n = realloc(g->links, (size_t)ncap * sizeof *n);
        if (!n) {
            sg_oom(g);
            return -1;
        }
        g->links = n;
        g->caplinks = ncap;
    }
    char *copy = keep_string(g, id);
    if (!copy) {
        sg_oom(g);
        return -1;
    }
    int added = strmap_put(&g->link_index, id, g->nlinks);
    if (added != 1) {
        if (added == 0)
            xml_error(g->err, STEADY_EINVAL, g->origin, node, "duplicate link (%s)", id);
        else
            sg_oom(g);
        return -1;
    }
    g->links[g->nlinks] = (sg_link_t){.id = copy,
                                      .bandwidth = bw,
                                      .latency = lat,
                                      .sharing = sharing,
                                      .line = xml_line(node),
                                      .channel = -1};
    return g->nlinks++;
}

int sg_find_np(const sg_t *g, const char *name)
{
    return strmap_get(&g->np_index, name);
}

/* A new netpoint, a vertex of zone z. */
int sg_add_np(sg_t *g, xmlNodePtr node, const char *name, sg_kind_t kind, int z)
{
    if (sg_find_np(g, name) >= 0) {
        xml_error(g->err, STEADY_EINVAL, g->origin, node, "duplicate host, router or zone (%s)",
                  name);
        return -1;
    }
    if (g->nnp == g->capnp) {
        int ncap = g->capnp ? 2 * g->capnp : 16;
        sg_np_t *n = realloc(g->np, (size_t)ncap * sizeof *n);
        if (!n) {
            sg_oom(g);
            return -1;
        }
        g->np = n;
        g->capnp = ncap;
    }
    char *copy = keep_string(g, name);
    if (!copy || strmap_put(&g->np_index, name, g->nnp) != 1) {
        sg_oom(g);
        return -1;
    }
    int v = g->nnp++;
    g->np[v] = (sg_np_t){.name = copy,
                         .kind = kind,
                         .zone = z,
                         .vid = -1,
                         .sub = -1,
                         .line = xml_line(node),
                         .node = -1,
                         .xnode = -1};
    if (z >= 0) {
        sg_zone_t *zz = &g->zones[z];
        if (zz->nvert == zz->capvert) {
            int cap_up = zz->capvert, cap_down = zz->capvert, cap = zz->capvert;
            if (!array_grow((void **)&zz->up, &cap_up, zz->nvert + 1, sizeof *zz->up, 8) ||
                !array_grow((void **)&zz->down, &cap_down, cap_up, sizeof *zz->down, 8) ||
                !array_grow((void **)&zz->vert, &cap, cap_up, sizeof *zz->vert, 8)) {
                sg_oom(g);
                return -1;
            }
            int cap_coords = zz->capvert;
            if (zz->vivaldi &&
                !array_grow((void **)&zz->coords, &cap_coords, cap_up, 3 * sizeof *zz->coords, 8)) {
                sg_oom(g);
                return -1;
            }
            zz->capvert = cap_up;
        }
        g->np[v].vid = zz->nvert;
        zz->up[zz->nvert] = zz->down[zz->nvert] = (sg_list_t){0};
        zz->vert[zz->nvert++] = v;
    }
    return v;
}

int sg_add_zone(sg_t *g, xmlNodePtr node, const char *id, sg_routing_t routing, int parent)
{
    if (g->nzones == g->capzones) {
        int ncap = g->capzones ? 2 * g->capzones : 8;
        sg_zone_t *n = realloc(g->zones, (size_t)ncap * sizeof *n);
        if (!n) {
            sg_oom(g);
            return -1;
        }
        g->zones = n;
        g->capzones = ncap;
    }
    int z = g->nzones;
    g->zones[z] = (sg_zone_t){.routing = routing,
                              .parent = parent,
                              .np = -1,
                              .line = xml_line(node),
                              .router = -1,
                              .backbone = -1};
    if (!(g->zones[z].id = strdup(id))) {
        sg_oom(g);
        return -1;
    }
    g->nzones++;
    if (parent >= 0) { /* the zone is a vertex of its parent */
        int v = sg_add_np(g, node, id, SG_ZONE, parent);
        if (v < 0)
            return -1;
        g->np[v].sub = z;
        g->zones[z].np = v;
        g->zones[parent].has_zones = true;
    }
    return z;
}

/* ---- <prop> ----------------------------------------------------------------- */

/* Calls fn(ctx, id, value, prop node) for each <prop> child; any other
 * child element is an error unless `others` lets it through (returns
 * false for it). */

steady_err_t sg_read_props(sg_t *g, xmlNodePtr node, sg_prop_fn fn, void *ctx)
{
    steady_err_t rc = STEADY_OK;
    for (xmlNodePtr c = node->children; c && !rc; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (!xml_is(c, "prop"))
            return sg_bad_element(g, c, node);
        char *id = NULL, *value = NULL;
        if (!(rc = sg_check_attrs(g, c, "id, value")) && !(rc = sg_need_attr(g, c, "id", &id)) &&
            !(rc = sg_need_attr(g, c, "value", &value)) && fn)
            rc = fn(g, ctx, id, value, c);
        xmlFree(id);
        xmlFree(value);
    }
    return rc;
}

/* ---- <host> and <router> ------------------------------------------------------- */

/* The speed of a host: SimGrid's `speed` is a comma-separated list of
 * pstate speeds, and the host runs at pstate `pstate` (default 0).  Every
 * entry is checked, as SimGrid does, but only the running one is kept; an
 * other one may be 0 (a host's off, booting or shutting-down states, as
 * SimGrid's energy_boot.xml writes them). */
steady_err_t sg_speed_list(sg_t *g, xmlNodePtr node, const char *speeds, long pstate, double *speed)
{
    steady_err_t rc = STEADY_OK;
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
        const char *why;
        bool off = items != pstate && parse_quantity(item, UNIT_SPEED, &v, &why) && v == 0;
        if (!off && (rc = sg_quantity(g, node, item, UNIT_SPEED, "speed", &v)))
            break;
        if (items++ == pstate)
            *speed = v;
        if (!comma)
            break;
        s = comma + 1;
    }
    if (!rc && pstate >= items)
        rc = xml_error(g->err, STEADY_EINVAL, g->origin, node,
                       "pstate out of range in <%s> (%ld): the speed list has %ld value%s",
                       sg_element_name(node), pstate, items, items > 1 ? "s" : "");
    return rc;
}

static steady_err_t host_prop(sg_t *g, void *ctx, const char *id, const char *value,
                              xmlNodePtr prop)
{
    bool *router = ctx;
    if (strcmp(id, "steady_kind") != 0)
        return STEADY_OK;
    if (strcmp(value, "router") == 0)
        *router = true;
    else if (strcmp(value, "processor") == 0)
        *router = false;
    else
        return xml_error(g->err, STEADY_EINVAL, g->origin, prop,
                         "unknown steady_kind (%s): expected router or processor", value);
    return STEADY_OK;
}

static steady_err_t read_host(sg_t *g, xmlNodePtr node, int z)
{
    char *id = NULL, *speeds = NULL, *pstate_text = NULL;
    steady_err_t rc;
    long pstate = 0;
    bool router = false;
    double speed = 0;
    if ((rc = sg_check_attrs(g, node,
                             "id, speed, core, speed_file, availability_file, state_file, "
                             "coordinates, pstate")) ||
        (rc = sg_need_attr(g, node, "id", &id)) || (rc = sg_need_attr(g, node, "speed", &speeds)) ||
        (rc = sg_no_profile(g, node, "speed_file")) ||
        (rc = sg_no_profile(g, node, "availability_file")) ||
        (rc = sg_no_profile(g, node, "state_file")))
        goto cleanup;
    if ((pstate_text = xml_attr(node, "pstate"))) {
        char *end;
        pstate = strtol(pstate_text, &end, 10);
        if (end == pstate_text || *end != '\0' || pstate < 0) {
            rc = xml_error(g->err, STEADY_EPARSE, g->origin, node,
                           "bad pstate in <host> (%s): expected an index into the speed list",
                           pstate_text);
            goto cleanup;
        }
    }
    if ((rc = sg_speed_list(g, node, speeds, pstate, &speed)) ||
        (rc = sg_read_props(g, node, host_prop, &router)))
        goto cleanup;
    /* `core` is ignored: steady's model has one speed per node, the speed
     * of the task stream it runs, which SimGrid gives per core. */
    int v = sg_add_np(g, node, id, SG_HOST, z);
    if (v < 0) {
        rc = g->err ? g->err->code : STEADY_EINVAL;
        goto cleanup;
    }
    g->np[v].speed = speed;
    g->np[v].steady_router = router;
cleanup:
    xmlFree(id);
    xmlFree(speeds);
    xmlFree(pstate_text);
    return rc;
}

static steady_err_t read_router(sg_t *g, xmlNodePtr node, int z)
{
    char *id = NULL;
    steady_err_t rc;
    if ((rc = sg_check_attrs(g, node, "id, coordinates")) ||
        (rc = sg_need_attr(g, node, "id", &id)))
        goto cleanup;
    for (xmlNodePtr c = node->children; c && !rc; c = c->next)
        if (c->type == XML_ELEMENT_NODE)
            rc = sg_bad_element(g, c, node);
    if (!rc && sg_add_np(g, node, id, SG_ROUTER, z) < 0)
        rc = g->err ? g->err->code : STEADY_EINVAL;
cleanup:
    xmlFree(id);
    return rc;
}

/* ---- <link> and <backbone> ----------------------------------------------------- */

static steady_err_t link_prop(sg_t *g, void *ctx, const char *id, const char *value,
                              xmlNodePtr prop)
{
    sg_link_t *l = ctx;
    bool cost = strcmp(id, "steady_cost") == 0;
    bool overhead = strcmp(id, "steady_overhead") == 0;
    bool factor = strcmp(id, "steady_recv_factor") == 0;
    bool penalty = strcmp(id, "steady_penalty") == 0;
    if (strcmp(id, "steady_channel") == 0) {
        l->channel_prop = true;
        return STEADY_OK;
    }
    if (strcmp(id, "steady_completion") == 0) {
        l->completion_prop = true;
        return STEADY_OK;
    }
    if ((cost && l->has_cost) || (overhead && l->has_overhead) || (factor && l->has_recv_factor) ||
        (penalty && l->has_penalty))
        return xml_error(g->err, STEADY_EINVAL, g->origin, prop, "duplicate <prop> (%s)", id);
    steady_err_t rc = STEADY_OK;
    if (cost && !(rc = sg_quantity(g, prop, value, UNIT_NONE, "cost", &l->cost)))
        l->has_cost = true;
    else if (overhead && !(rc = sg_quantity(g, prop, value, UNIT_TIME, "overhead", &l->overhead)))
        l->has_overhead = true;
    else if (factor &&
             !(rc = sg_quantity(g, prop, value, UNIT_NONE, "recv-factor", &l->recv_factor)))
        l->has_recv_factor = true;
    else if (penalty && !(rc = sg_quantity(g, prop, value, UNIT_TIME, "penalty", &l->penalty)))
        l->has_penalty = true;
    return rc;
}

static steady_err_t read_link(sg_t *g, xmlNodePtr node, bool backbone, int z)
{
    char *id = NULL, *bandwidth = NULL, *latency = NULL;
    steady_err_t rc;
    double bw, lat = 0;
    steady_sharing_t sharing = STEADY_SHARED;
    if (backbone) {
        if ((rc = sg_check_attrs(g, node, "id, bandwidth, latency")) ||
            (rc = sg_need_attr(g, node, "latency", &latency)))
            goto cleanup;
    } else if ((rc = sg_check_attrs(g, node,
                                    "id, bandwidth, latency, sharing_policy, bandwidth_file, "
                                    "latency_file, state_file")) ||
               (rc = sg_no_profile(g, node, "bandwidth_file")) ||
               (rc = sg_no_profile(g, node, "latency_file")) ||
               (rc = sg_no_profile(g, node, "state_file")) ||
               (rc = sg_sharing_policy(g, node, "sharing_policy", "SHARED", false, &sharing))) {
        goto cleanup;
    }
    if ((rc = sg_need_attr(g, node, "id", &id)) ||
        (rc = sg_need_attr(g, node, "bandwidth", &bandwidth)) ||
        (rc = sg_quantity(g, node, bandwidth, UNIT_BANDWIDTH, "bandwidth", &bw)))
        goto cleanup;
    /* SimGrid's default latency is 0 */
    if (!latency)
        latency = xml_attr(node, "latency");
    if (latency && (rc = sg_quantity(g, node, latency, UNIT_TIME, "latency", &lat)))
        goto cleanup;
    int k = sg_add_link(g, node, id, bw, lat, sharing);
    if (k < 0) {
        rc = g->err ? g->err->code : STEADY_EINVAL;
        goto cleanup;
    }
    if ((rc = sg_read_props(g, node, link_prop, &g->links[k])))
        goto cleanup;
    if (backbone) { /* every host's route up and down crosses it: sg_star_backbone() */
        sg_zone_t *zz = &g->zones[z];
        if (zz->backbone >= 0)
            rc = xml_error(g->err, STEADY_EINVAL, g->origin, node,
                           "a second <backbone> in zone %s (%s)", zz->id, id);
        zz->backbone = k;
    }
cleanup:
    xmlFree(id);
    xmlFree(bandwidth);
    xmlFree(latency);
    return rc;
}

/* ---- <zone> and <platform> ------------------------------------------------------------ */

static steady_err_t zone_prop(sg_t *g, void *ctx, const char *id, const char *value,
                              xmlNodePtr prop)
{
    sg_zone_t *z = &g->zones[*(int *)ctx];
    if (strcmp(id, "steady_flows") == 0) {
        if (strcmp(value, "fair") != 0)
            return xml_error(g->err, STEADY_EINVAL, g->origin, prop,
                             "unknown steady_flows (%s): expected fair", value);
        g->flows_fair = true;
        return STEADY_OK;
    }
    if (strcmp(id, "steady_routes") != 0)
        return STEADY_OK;
    if (strcmp(value, "edges") != 0)
        return xml_error(g->err, STEADY_EINVAL, g->origin, prop,
                         "unknown steady_routes (%s): expected edges", value);
    z->edges = true;
    return STEADY_OK;
}

/* A zone being read: its element (in the document, while its children
 * stream by) and what it has held so far. */
typedef struct {
    xmlNodePtr node;
    int zone;
    bool leaf, inner; /* hosts, routers (and routes); zones (and zone routes) */
} open_zone_t;

/* A zone holds either zones (and zone routes) or hosts and routers (and
 * routes): child c is refused when it mixes them. */
static steady_err_t zone_mix(sg_t *g, open_zone_t *oz, xmlNodePtr c)
{
    bool is_inner = xml_is(c, "zone") || xml_is(c, "AS") || xml_is(c, "cluster") ||
                    xml_is(c, "zoneRoute") || xml_is(c, "ASroute") ||
                    xml_is(c, "bypassZoneRoute") || xml_is(c, "bypassASroute");
    bool is_leaf = xml_is(c, "host") || xml_is(c, "router") || xml_is(c, "route") ||
                   xml_is(c, "host_link") || xml_is(c, "cabinet") || xml_is(c, "backbone") ||
                   xml_is(c, "peer") || xml_is(c, "bypassRoute");
    if ((is_inner && oz->leaf) || (is_leaf && oz->inner))
        return xml_error(g->err, STEADY_EPARSE, g->origin, c,
                         "unexpected element (<%s>) in <%s> %s: a zone holds either zones "
                         "(and zone routes) or hosts and routers (and routes)",
                         sg_element_name(c), sg_element_name(oz->node), g->zones[oz->zone].id);
    oz->inner = oz->inner || is_inner;
    oz->leaf = oz->leaf || is_leaf;
    return STEADY_OK;
}

/* A Vivaldi zone routes by its vertices' links and coordinates, and
 * declares no route; a peer belongs in a Vivaldi zone only. */
static steady_err_t vivaldi_child(sg_t *g, int z, xmlNodePtr c)
{
    bool vivaldi = g->zones[z].vivaldi;
    if (vivaldi && (xml_is(c, "route") || xml_is(c, "zoneRoute") || xml_is(c, "ASroute") ||
                    xml_is(c, "host_link") || xml_is(c, "backbone") || xml_is(c, "cabinet")))
        return xml_error(g->err, STEADY_EINVAL, g->origin, c,
                         "unexpected element (<%s>) in Vivaldi zone %s: its routes are its "
                         "peers' links and the distances between its vertices' coordinates",
                         sg_element_name(c), g->zones[z].id);
    if (!vivaldi && xml_is(c, "peer"))
        return xml_error(g->err, STEADY_EINVAL, g->origin, c,
                         "<peer> in zone %s, whose routing is not Vivaldi (SimGrid takes peers "
                         "only in Vivaldi zones)",
                         g->zones[z].id);
    return STEADY_OK;
}

/* A child of zone z (its element `node`), streamed: complete, in the
 * file's order. */
static steady_err_t zone_child(sg_t *g, open_zone_t *oz, xmlNodePtr c)
{
    int z = oz->zone;
    xmlNodePtr node = oz->node;
    bool vivaldi = g->zones[z].vivaldi, star = g->zones[z].routing == SG_STAR && !vivaldi;
    steady_err_t rc = zone_mix(g, oz, c);
    if (!rc)
        rc = vivaldi_child(g, z, c);
    if (rc)
        return rc;
    if (xml_is(c, "prop")) { /* the zone's props: steady_routes */
        char *pid = NULL, *value = NULL;
        if (!(rc = sg_check_attrs(g, c, "id, value")) && !(rc = sg_need_attr(g, c, "id", &pid)) &&
            !(rc = sg_need_attr(g, c, "value", &value)))
            rc = zone_prop(g, &z, pid, value, c);
        xmlFree(pid);
        xmlFree(value);
    } else if (xml_is(c, "cluster"))
        rc = sg_read_cluster(g, c, z);
    else if (xml_is(c, "host"))
        rc = read_host(g, c, z);
    else if (xml_is(c, "peer"))
        rc = sg_read_peer(g, c, z);
    else if (xml_is(c, "router"))
        rc = read_router(g, c, z);
    else if (xml_is(c, "link"))
        rc = read_link(g, c, false, z);
    else if (star && xml_is(c, "backbone"))
        rc = read_link(g, c, true, z);
    else if (star && xml_is(c, "host_link"))
        rc = sg_read_host_link(g, c, z);
    else if (star && xml_is(c, "cabinet"))
        rc = sg_read_cabinet(g, c, z);
    else if (g->zones[z].empty &&
             (xml_is(c, "route") || xml_is(c, "zoneRoute") || xml_is(c, "ASroute")))
        rc = xml_error(g->err, STEADY_EINVAL, g->origin, c,
                       "a route in zone %s, whose routing is None", g->zones[z].id);
    else if (!star && xml_is(c, "route"))
        rc = sg_read_route(g, c, z, false);
    else if (!star && (xml_is(c, "zoneRoute") || xml_is(c, "ASroute")))
        rc = sg_read_route(g, c, z, true);
    else if (xml_is(c, "bypassRoute"))
        rc = sg_read_bypass(g, c, z, false);
    else if (xml_is(c, "bypassZoneRoute") || xml_is(c, "bypassASroute"))
        rc = sg_read_bypass(g, c, z, true);
    else
        rc = sg_bad_element(g, c, node);
    /* a host's or router's coordinates, in a Vivaldi zone (a peer's are
     * read with it) */
    if (!rc && vivaldi && (xml_is(c, "host") || xml_is(c, "router")))
        rc = sg_vivaldi_coords(g, c, z, g->zones[z].nvert - 1);
    return rc;
}

/* A <zone> (or <AS>) opens, its attributes read; its children follow,
 * streamed (zone_child), then read_zone_end. */
static steady_err_t read_zone_start(sg_t *g, xmlNodePtr node, int parent, int *out)
{
    char *id = NULL, *routing = NULL;
    steady_err_t rc;
    if ((rc = sg_check_attrs(g, node, "id, routing")) || (rc = sg_need_attr(g, node, "id", &id)) ||
        (rc = sg_need_attr(g, node, "routing", &routing)))
        goto cleanup;
    static const struct {
        const char *name;
        sg_routing_t routing;
        bool cached;
    } known[] = {{"Full", SG_FULL, false},
                 {"Floyd", SG_FLOYD, false},
                 {"Dijkstra", SG_DIJKSTRA, false},
                 {"DijkstraCache", SG_DIJKSTRA, true},
                 {"Cluster", SG_STAR, false},
                 {"Vivaldi", SG_STAR, false},
                 /* EmptyZone: no route between its vertices; a zone of one
                  * host, its own gateway */
                 {"None", SG_FULL, false}};
    static const char *const other[] = {"ClusterTorus", "ClusterFatTree", "ClusterDragonfly",
                                        "Wifi", NULL};
    int nknown = (int)(sizeof known / sizeof *known), k = 0;
    while (k < nknown && strcmp(routing, known[k].name) != 0)
        k++;
    if (k == nknown) {
        bool is_known = false;
        const char *spelt = NULL; /* the name, had routing its case right */
        for (int i = 0; other[i]; i++)
            is_known = is_known || strcmp(routing, other[i]) == 0;
        for (int i = 0; i < nknown; i++)
            spelt = strcasecmp(routing, known[i].name) == 0 ? known[i].name : spelt;
        for (int i = 0; other[i]; i++)
            spelt = strcasecmp(routing, other[i]) == 0 ? other[i] : spelt;
        if (is_known && strncmp(routing, "Cluster", 7) == 0)
            rc = xml_error(g->err, STEADY_EUNSUPPORTED, g->origin, node,
                           "unsupported routing in <%s> (%s): SimGrid 3.32 refuses it too (\"Not "
                           "a valid model\"); a <cluster> of topology TORUS, FAT_TREE or "
                           "DRAGONFLY makes that zone",
                           sg_element_name(node), routing);
        else if (strcmp(routing, "Wifi") == 0)
            rc = xml_error(g->err, STEADY_EUNSUPPORTED, g->origin, node,
                           "unsupported routing in <%s> (Wifi): a WIFI link's rate depends on "
                           "each station's signal and on how many share it, which steady does "
                           "not model",
                           sg_element_name(node));
        else if (spelt && !is_known)
            rc = xml_error(g->err, STEADY_EPARSE, g->origin, node,
                           "unknown routing in <%s> (%s): SimGrid's routing names are "
                           "case-sensitive: %s",
                           sg_element_name(node), routing, spelt);
        else
            rc = xml_error(g->err, is_known ? STEADY_EUNSUPPORTED : STEADY_EPARSE, g->origin, node,
                           "%s routing in <%s> (%s): steady reads Full, Floyd, Dijkstra, "
                           "DijkstraCache, Cluster, Vivaldi and None zones",
                           is_known ? "unsupported" : "unknown", sg_element_name(node), routing);
        goto cleanup;
    }
    int z = sg_add_zone(g, node, id, known[k].routing, parent);
    if (z < 0) {
        rc = g->err ? g->err->code : STEADY_EINVAL;
        goto cleanup;
    }
    *out = z;
    g->zones[z].cached = known[k].cached;
    g->zones[z].vivaldi = strcmp(routing, "Vivaldi") == 0;
    g->zones[z].empty = strcasecmp(routing, "None") == 0;
    if (parent < 0 && valid_node_name(id) && (rc = steady_platform_set_name(g->p, id, g->err)))
        goto cleanup;
cleanup:
    xmlFree(id);
    xmlFree(routing);
    return rc;
}

/* The zone's end: a star's backbone.  A zone may be empty (SimGrid's
 * prop.xml has two): a platform without a host is refused once read. */
static steady_err_t read_zone_end(sg_t *g, int z)
{
    return g->zones[z].routing == SG_STAR ? sg_star_backbone(g, z) : STEADY_OK;
}

/* Only version 4.x files are read: earlier ones used other units and
 * element names, which SimGrid's own simgrid_update_xml converts. */
static steady_err_t check_version(sg_t *g, xmlNodePtr root)
{
    char *version = xml_attr(root, "version");
    steady_err_t rc = STEADY_OK;
    if (!version)
        return xml_error(g->err, STEADY_EPARSE, g->origin, root,
                         "missing attribute version in <platform>: expected version=\"4.1\"");
    char *end;
    double v = strtod(version, &end);
    if (end == version || *end != '\0' || !isfinite(v))
        rc = xml_error(g->err, STEADY_EPARSE, g->origin, root,
                       "bad platform version (%s): expected 4.1", version);
    else if (v < 4)
        rc = xml_error(g->err, STEADY_EUNSUPPORTED, g->origin, root,
                       "SimGrid platform version too old (%s): upgrade the file with "
                       "simgrid_update_xml",
                       version);
    else if (v >= 5)
        rc = xml_error(g->err, STEADY_EUNSUPPORTED, g->origin, root,
                       "unsupported SimGrid platform version (%s): steady reads version 4.x",
                       version);
    xmlFree(version);
    return rc;
}

static void sg_free(sg_t *g)
{
    while (g->strings) {
        sg_block_t *b = g->strings;
        g->strings = b->next;
        free(b);
    }
    for (int i = 0; i < g->nzones; i++) {
        sg_zone_t *z = &g->zones[i];
        for (int r = 0; r < z->nroutes; r++)
            sg_list_free(&z->routes[r].links);
        for (int r = 0; r < z->nbypass; r++)
            sg_list_free(&z->bypass[r].links);
        free(z->bypass);
        strmap_free(&z->bypass_index);
        for (int v = 0; v < z->nvert; v++) {
            sg_list_free(&z->up[v]);
            sg_list_free(&z->down[v]);
        }
        free(z->id);
        free(z->vert);
        free(z->routes);
        free(z->up);
        free(z->down);
        free(z->coords);
        free(z->bystart);
        free(z->byvert);
        free(z->table);
        free(z->pred);
        free(z->cost);
        free(z->gnode);
        free(z->gvid);
        free(z->gout_start);
        free(z->gout);
        sg_topo_free(z->topo);
    }
    free(g->links);
    free(g->np);
    free(g->zones);
    strmap_free(&g->link_index);
    strmap_free(&g->np_index);
}

/* ---- the stream ------------------------------------------------------------------------ */

/* The document as it streams by (xml_parse): the <platform> root and the
 * zones being read are elements of the document, every other element a
 * streamed child of one of them, read whole once complete and forgotten. */
typedef struct {
    sg_t *g;
    xmlNodePtr root;
    xmlNodePtr top;    /* the top-level zone or cluster, once met */
    open_zone_t *open; /* the zones being read, outermost first */
    int nopen, capopen;
} stream_t;

static bool is_zone(xmlNodePtr e)
{
    return xml_is(e, "zone") || xml_is(e, "AS");
}

/* The root and the zones stream their children, except zones. */
static bool streams(void *ctx, xmlNodePtr parent, const xmlChar *child)
{
    stream_t *st = ctx;
    if (parent != st->root && !is_zone(parent))
        return false;
    return !child ||
           (strcmp((const char *)child, "zone") != 0 && strcmp((const char *)child, "AS") != 0);
}

/* A second top-level zone (or cluster): SimGrid wants one. */
static steady_err_t second_top(sg_t *g, xmlNodePtr c)
{
    char *id = xml_attr(c, "id");
    steady_err_t rc = xml_error(g->err, STEADY_EUNSUPPORTED, g->origin, c,
                                "more than one top-level zone (%s): SimGrid wants one zone "
                                "around all the others",
                                id ? id : sg_element_name(c));
    xmlFree(id);
    return rc;
}

/* An element opens: the root (its version), or a zone. */
static steady_err_t element_start(void *ctx, xmlNodePtr e)
{
    stream_t *st = ctx;
    sg_t *g = st->g;
    if (!st->root) {
        st->root = e;
        if (!xml_is(e, "platform"))
            return xml_error(g->err, STEADY_EPARSE, g->origin, e,
                             "not a SimGrid platform (<%s>): expected a <platform> root element",
                             sg_element_name(e));
        steady_err_t rc = sg_check_attrs(g, e, "version");
        return rc ? rc : check_version(g, e);
    }
    bool in_zone = st->nopen > 0 && e->parent == st->open[st->nopen - 1].node;
    if (!is_zone(e) || (e->parent != st->root && !in_zone))
        return STEADY_OK; /* inside a streamed child: read with it */
    int parent = -1, z = -1;
    if (e->parent == st->root) {
        if (st->top)
            return second_top(g, e);
        st->top = e;
    } else {
        open_zone_t *oz = &st->open[st->nopen - 1];
        steady_err_t rc = zone_mix(g, oz, e);
        if (!rc)
            rc = vivaldi_child(g, oz->zone, e);
        if (rc)
            return rc;
        parent = oz->zone;
    }
    if (!array_grow((void **)&st->open, &st->capopen, st->nopen + 1, sizeof *st->open, 8))
        return sg_oom(g);
    steady_err_t rc = read_zone_start(g, e, parent, &z);
    if (!rc)
        st->open[st->nopen++] = (open_zone_t){.node = e, .zone = z};
    return rc;
}

/* An element is complete: a streamed child of the root or of a zone, a
 * zone, or the root. */
static steady_err_t element_end(void *ctx, xmlNodePtr e)
{
    stream_t *st = ctx;
    sg_t *g = st->g;
    if (e == st->root) {
        if (!st->top)
            return xml_error(g->err, STEADY_EINVAL, g->origin, e,
                             "empty platform: no <zone> in <platform>");
        return STEADY_OK;
    }
    if (st->nopen > 0 && e == st->open[st->nopen - 1].node) {
        int z = st->open[--st->nopen].zone;
        steady_err_t rc = read_zone_end(g, z);
        xml_drop(e);
        return rc;
    }
    if (st->nopen > 0 && e->parent == st->open[st->nopen - 1].node)
        return zone_child(g, &st->open[st->nopen - 1], e);
    if (e->parent == st->root && xml_is(e, "config"))
        return sg_read_config(g, e); /* tunes SimGrid's models */
    if (e->parent != st->root || xml_is(e, "prop"))
        return STEADY_OK;
    if (!xml_is(e, "cluster"))
        return sg_bad_element(g, e, st->root);
    if (st->top)
        return second_top(g, e);
    st->top = e; /* gone once read: only compared with */
    return sg_read_cluster(g, e, -1);
}

steady_err_t parse_simgrid(const source_t *src, const char *origin, steady_platform_t *p,
                           steady_error_t *err)
{
    sg_t g = {.origin = origin,
              .p = p,
              .err = err,
              .progress = src->progress,
              .progress_ctx = src->progress_ctx};
    stream_t st = {.g = &g};
    xml_handlers_t h = {.start = element_start, .end = element_end, .ctx = &st, .streams = streams};
    steady_err_t rc = xml_parse(src, origin, &h, NULL, err);
    free(st.open);
    if (!rc)
        rc = sg_seal(&g);
    if (!rc)
        rc = sg_build(&g);
    if (!rc)
        rc = sg_flow_sharing(&g);
    sg_free(&g);
    return rc;
}
