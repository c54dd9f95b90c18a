/*
 * sg_read_route.c — SimGrid's <route> and <zoneRoute> (<ASroute>) read
 * into the reader's model (sg.h): each route's links in the direction it
 * names them (<link_ctn>, the halves of SPLITDUPLEX links), its ends and a
 * zone route's gateways checked as SimGrid checks them, and the way back
 * of a symmetrical route; and the bypass routes (<bypassRoute>,
 * <bypassZoneRoute>, <bypassASroute>) that replace a zone's route between
 * two of its vertices.  The elements' common rules (attributes, names)
 * are sg_read.c's.
 */
#define _POSIX_C_SOURCE 200809L
#include "sg.h"

#include "../common/array.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A route's links take the memory they need (routes are many, and most
 * have one or two links). */
static void fit_list(sg_list_t *l)
{
    if (l->n > 0 && l->n < l->cap) {
        sg_use_t *v = realloc(l->v, (size_t)l->n * sizeof *v);
        if (v) {
            l->v = v;
            l->cap = l->n;
        }
    }
}

static bool add_route(sg_t *g, int z, const sg_route_t *r)
{
    sg_zone_t *zz = &g->zones[z];
    if (zz->nroutes == zz->caproutes) {
        int ncap = zz->caproutes ? 2 * zz->caproutes : 16;
        sg_route_t *n = realloc(zz->routes, (size_t)ncap * sizeof *n);
        if (!n)
            return false;
        zz->routes = n;
        zz->caproutes = ncap;
    }
    zz->routes[zz->nroutes++] = *r;
    return true;
}

/* ---- routes ------------------------------------------------------------------- */

/* The link named `name`: a declared link, or one half of a SPLITDUPLEX
 * link L named L_UP or L_DOWN (SimGrid's names for them). */
bool sg_find_link(const sg_t *g, const char *name, sg_use_t *out)
{
    int k = strmap_get(&g->link_index, name);
    if (k >= 0) {
        *out = (sg_use_t){k, false, false};
        return true;
    }
    size_t n = strlen(name);
    for (int down = 0; down < 2; down++) {
        const char *suffix = down ? "_DOWN" : "_UP";
        size_t m = strlen(suffix);
        if (n <= m || strcmp(name + n - m, suffix) != 0)
            continue;
        char *base = strndup(name, n - m);
        k = base ? strmap_get(&g->link_index, base) : -1;
        free(base);
        if (k >= 0 && g->links[k].sharing == STEADY_SPLITDUPLEX) {
            *out = (sg_use_t){k, down == 1, true};
            return true;
        }
    }
    return false;
}

/* One <link_ctn>: the link it names, in the direction it says (a
 * SPLITDUPLEX link needs one, other links refuse one, as SimGrid does; a
 * half named as such ignores it). */
static steady_err_t route_link(sg_t *g, xmlNodePtr ctn, sg_use_t *out)
{
    char *id = NULL, *direction = NULL;
    steady_err_t rc;
    if ((rc = sg_check_attrs(g, ctn, "id, direction")) || (rc = sg_need_attr(g, ctn, "id", &id)))
        goto cleanup;
    direction = xml_attr(ctn, "direction");
    bool oriented = direction && strcmp(direction, "NONE") != 0;
    if (direction && oriented && strcmp(direction, "UP") != 0 && strcmp(direction, "DOWN") != 0) {
        rc =
            xml_error(g->err, STEADY_EPARSE, g->origin, ctn,
                      "unknown direction in <link_ctn> (%s): expected UP, DOWN or NONE", direction);
        goto cleanup;
    }
    if (sg_find_link(g, id, out) && out->half)
        goto cleanup;
    int k = strmap_get(&g->link_index, id);
    if (k < 0) {
        rc = xml_error(g->err, STEADY_EINVAL, g->origin, ctn, "unknown link in <%s> (%s)",
                       sg_element_name(ctn->parent), id);
        goto cleanup;
    }
    const sg_link_t *l = &g->links[k];
    if (l->sharing == STEADY_SPLITDUPLEX && !oriented) {
        rc = xml_error(g->err, STEADY_EINVAL, g->origin, ctn,
                       "missing direction in <link_ctn> to the SPLITDUPLEX link (%s): use "
                       "direction=\"UP\" or \"DOWN\"",
                       id);
    } else if (l->sharing != STEADY_SPLITDUPLEX && oriented) {
        rc = xml_error(g->err, STEADY_EINVAL, g->origin, ctn,
                       "direction %s in <link_ctn> to a link that is not SPLITDUPLEX (%s)",
                       direction, id);
    } else {
        *out = (sg_use_t){k, l->sharing == STEADY_SPLITDUPLEX && strcmp(direction, "DOWN") == 0,
                          false};
    }
cleanup:
    xmlFree(id);
    xmlFree(direction);
    return rc;
}

/* A route's links, forward; and its reverse (SimGrid's symmetrical
 * routes: links in reverse order, the other half of SPLITDUPLEX ones). */
static steady_err_t route_links(sg_t *g, xmlNodePtr node, sg_list_t *fwd)
{
    steady_err_t rc = STEADY_OK;
    for (xmlNodePtr c = node->children; c && !rc; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        sg_use_t u;
        if (!xml_is(c, "link_ctn"))
            rc = sg_bad_element(g, c, node);
        else if (!(rc = route_link(g, c, &u)) && !sg_list_push(fwd, u))
            rc = sg_oom(g);
    }
    return rc;
}

bool sg_reverse_list(const sg_t *g, const sg_list_t *fwd, sg_list_t *back)
{
    for (int k = fwd->n - 1; k >= 0; k--) {
        sg_use_t u = fwd->v[k];
        if (g->links[u.link].sharing == STEADY_SPLITDUPLEX && !u.half)
            u.down = !u.down;
        if (!sg_list_push(back, u))
            return false;
    }
    return true;
}

static steady_err_t route_end(sg_t *g, xmlNodePtr node, const char *attr, int z, bool zone, int *np)
{
    char *name;
    steady_err_t rc = sg_need_attr(g, node, attr, &name);
    if (rc)
        return rc;
    *np = sg_find_np(g, name);
    const char *what = zone ? "zone" : "host or router";
    if (*np < 0)
        rc = xml_error(g->err, STEADY_EINVAL, g->origin, node,
                       "unknown %s in <%s> %s (%s): declare it with %s before the route", what,
                       sg_element_name(node), attr, name,
                       zone ? "<zone> or <cluster>" : "<host> or <router>");
    else if (g->np[*np].zone != z || (g->np[*np].kind == SG_ZONE) != zone)
        rc =
            xml_error(g->err, STEADY_EINVAL, g->origin, node, "<%s> %s (%s) is not a %s of zone %s",
                      sg_element_name(node), attr, name, what, g->zones[z].id);
    xmlFree(name);
    return rc;
}

/* True when netpoint v lies in zone z or a zone inside it. */
static bool inside(const sg_t *g, int v, int z)
{
    for (int y = g->np[v].zone; y >= 0; y = g->zones[y].parent)
        if (y == z)
            return true;
    return false;
}

static steady_err_t gateway(sg_t *g, xmlNodePtr node, const char *attr, int zone_np, int *np)
{
    char *name;
    steady_err_t rc = sg_need_attr(g, node, attr, &name);
    if (rc)
        return rc;
    *np = sg_find_np(g, name);
    if (*np < 0 || g->np[*np].kind == SG_ZONE)
        rc = xml_error(g->err, STEADY_EINVAL, g->origin, node,
                       "unknown gateway in <%s> %s (%s): a host or router declared before the "
                       "route",
                       sg_element_name(node), attr, name);
    else if (!inside(g, *np, g->np[zone_np].sub))
        rc = xml_error(g->err, STEADY_EINVAL, g->origin, node,
                       "gateway %s in <%s> %s is not in zone %s", name, sg_element_name(node), attr,
                       g->np[zone_np].name);
    xmlFree(name);
    return rc;
}

/* <route> in a zone of hosts and routers, <zoneRoute> (<ASroute>) in a
 * zone of zones; symmetrical="YES" (the default) also declares the way
 * back. */
steady_err_t sg_read_route(sg_t *g, xmlNodePtr node, int z, bool zone)
{
    char *sym = NULL;
    sg_route_t r = {.gw_src = -1, .gw_dst = -1, .line = xml_line(node)};
    sg_route_t back = r;
    steady_err_t rc;
    if ((rc = sg_check_attrs(
             g, node, zone ? "src, dst, gw_src, gw_dst, symmetrical" : "src, dst, symmetrical")) ||
        (rc = route_end(g, node, "src", z, zone, &r.src)) ||
        (rc = route_end(g, node, "dst", z, zone, &r.dst)))
        goto cleanup;
    if (zone && ((rc = gateway(g, node, "gw_src", r.src, &r.gw_src)) ||
                 (rc = gateway(g, node, "gw_dst", r.dst, &r.gw_dst))))
        goto cleanup;
    bool symmetrical = true; /* SimGrid's default */
    if ((sym = xml_attr(node, "symmetrical"))) {
        if (strcmp(sym, "NO") == 0 || strcmp(sym, "no") == 0) {
            symmetrical = false;
        } else if (strcmp(sym, "YES") != 0 && strcmp(sym, "yes") != 0) {
            rc = xml_error(g->err, STEADY_EPARSE, g->origin, node,
                           "bad symmetrical in <%s> (%s): expected YES or NO",
                           sg_element_name(node), sym);
            goto cleanup;
        }
    }
    if ((rc = route_links(g, node, &r.links)))
        goto cleanup;
    fit_list(&r.links);
    if (r.links.n == 0) {
        rc = xml_error(g->err, STEADY_EINVAL, g->origin, node,
                       "route with no <link_ctn> (%s -> %s)", g->np[r.src].name, g->np[r.dst].name);
        goto cleanup;
    }
    /* A route from a host to itself is SimGrid's loopback: the cost of a
     * transfer inside one host, which steady's model does not have (a node
     * never sends to itself).  Its links are checked, like any route's,
     * and it adds nothing.  Many SimGrid platforms declare one per host. */
    if (r.src == r.dst)
        goto cleanup;
    if (symmetrical) {
        back = (sg_route_t){
            .src = r.dst, .dst = r.src, .gw_src = r.gw_dst, .gw_dst = r.gw_src, .line = r.line};
        if (!sg_reverse_list(g, &r.links, &back.links)) {
            rc = sg_oom(g);
            goto cleanup;
        }
        fit_list(&back.links);
    }
    if (!add_route(g, z, &r)) {
        rc = sg_oom(g);
        goto cleanup;
    }
    r.links = (sg_list_t){0};
    if (symmetrical) {
        if (!add_route(g, z, &back)) {
            rc = sg_oom(g);
            goto cleanup;
        }
        back.links = (sg_list_t){0};
    }
cleanup:
    sg_list_free(&r.links);
    sg_list_free(&back.links);
    xmlFree(sym);
    return rc;
}

/* ---- bypass routes ------------------------------------------------------------ */

/* SimGrid (NetZoneImpl::get_bypass_route) looks a bypass route up in the
 * common ancestor of a route's two ends: by the ends themselves when both
 * are its vertices, else by the zones on their ways up to it, deepest
 * first.  Read here: bypass routes between two vertices of the zone that
 * declares them (hosts and routers, or zones with gateways), which is then
 * the lookup exactly: the route between those two vertices is the bypass,
 * and a route between hosts of two zones crosses the bypass of the zones
 * as it would their zone route.  One between netpoints of other zones,
 * which SimGrid uses for some pairs of hosts and not others, is refused
 * (route_end), and so is a bypass zone route whose gateway is a host:
 * SimGrid then routes from the host to itself (through its zone's
 * loopback link) before the bypass, or after it.  Not symmetrical:
 * SimGrid's bypass routes have one direction. */
static void bypass_key(char key[32], int a, int b)
{
    snprintf(key, 32, "%d>%d", a, b);
}

int sg_bypass_of(const sg_zone_t *z, int a, int b)
{
    if (z->nbypass == 0)
        return -1;
    char key[32];
    bypass_key(key, a, b);
    return strmap_get(&z->bypass_index, key);
}

steady_err_t sg_read_bypass(sg_t *g, xmlNodePtr node, int z, bool zone)
{
    sg_route_t r = {.gw_src = -1, .gw_dst = -1, .line = xml_line(node)};
    sg_zone_t *zz = &g->zones[z];
    steady_err_t rc;
    if ((rc = sg_check_attrs(g, node, zone ? "src, dst, gw_src, gw_dst" : "src, dst")) ||
        (rc = route_end(g, node, "src", z, zone, &r.src)) ||
        (rc = route_end(g, node, "dst", z, zone, &r.dst)) ||
        (zone && ((rc = gateway(g, node, "gw_src", r.src, &r.gw_src)) ||
                  (rc = gateway(g, node, "gw_dst", r.dst, &r.gw_dst)))) ||
        (rc = route_links(g, node, &r.links)))
        goto cleanup;
    fit_list(&r.links);
    char key[32];
    bypass_key(key, r.src, r.dst);
    int host_gw = zone && g->np[r.gw_src].kind == SG_HOST   ? r.gw_src
                  : zone && g->np[r.gw_dst].kind == SG_HOST ? r.gw_dst
                                                            : -1;
    if (host_gw >= 0) {
        rc = xml_error(g->err, STEADY_EUNSUPPORTED, g->origin, node,
                       "host %s as a gateway of <%s>: SimGrid routes a message from that host "
                       "to itself first (its loopback), which steady does not model; name a "
                       "router",
                       g->np[host_gw].name, sg_element_name(node));
    } else if (r.links.n == 0) {
        rc = xml_error(g->err, STEADY_EINVAL, g->origin, node,
                       "bypass route with no <link_ctn> (%s -> %s)", g->np[r.src].name,
                       g->np[r.dst].name);
    } else if (strmap_get(&zz->bypass_index, key) >= 0) {
        rc = xml_error(g->err, STEADY_EINVAL, g->origin, node,
                       "a second bypass route from %s to %s", g->np[r.src].name, g->np[r.dst].name);
    } else if (r.src != r.dst) { /* a loopback adds nothing, as a <route>'s */
        if (!array_grow((void **)&zz->bypass, &zz->capbypass, zz->nbypass + 1, sizeof *zz->bypass,
                        8) ||
            strmap_put(&zz->bypass_index, key, zz->nbypass) != 1) {
            rc = sg_oom(g);
            goto cleanup;
        }
        zz->bypass[zz->nbypass++] = r;
        r.links = (sg_list_t){0};
    }
cleanup:
    sg_list_free(&r.links);
    return rc;
}
