/*
 * sg_build.c — a SimGrid platform laid out as steady's graph (sg.h): every
 * host a processor (or a router, in steady's own exports), every link a
 * channel, and edges whose paths between two hosts cross exactly the links
 * of SimGrid's route between them (sg_route.c).
 *
 * The layout, zone by zone:
 *   a star (a <cluster>, routing="Cluster")
 *       a switch at its centre, named after the cluster's router; an edge
 *       from each host to it crossing the host's links up, and one back
 *       crossing its links down except those every host's routes share
 *       (the backbone), which the way up already crossed: a message between
 *       two hosts goes host -> centre -> host and crosses SimGrid's route,
 *       each link once, as StarZone::get_local_route does;
 *   a Vivaldi zone (a star of <peer>s)
 *       an edge between every two hosts, crossing the source's link up and
 *       the destination's link down, its latency the distance between
 *       their coordinates (which no centre could give: it is not a sum of
 *       one term per host);
 *   a zone of hosts and routers (Full, Floyd, Dijkstra), and a TORUS,
 *   FAT_TREE or DRAGONFLY cluster (sg_topo.c)
 *       an edge between every two hosts SimGrid routes between, crossing
 *       the route's links; routers and switches are not nodes (no rank
 *       runs on them);
 *   bypass routes (<bypassRoute>, <bypassZoneRoute>) between two vertices
 *       of a zone are that zone's route between them (sg_local_route):
 *       an edge between two hosts, or a zone route; a star with any is
 *       laid out as an edge between every two hosts;
 *   a zone of zones
 *       for each zone route A -> B (gateways g in A, g' in B), SimGrid's
 *       route from a host u of A to a host v of B is route(u, g), the zone
 *       route's links, route(g', v).  The hosts of A reach a switch named
 *       after g (a cluster's centre when g is its router) along route(u, g);
 *       from it an edge crossing the zone route's links leads to a switch
 *       named g_in, from which edges lead to the hosts of B along
 *       route(g', v).  Entering through g_in rather than through g itself
 *       keeps a message from B's entry from leaving B again: no path goes
 *       through a zone that SimGrid's route does not cross.  A gateway that
 *       is a host stands for its own switch.
 * So the paths between hosts are SimGrid's routes, one each, which
 * steady_platform_validate checks, and the edges are few: a cluster of k
 * hosts has 3k, not k^2.
 *
 * steady's own SimGrid exports (the steady_routes=edges prop of the zone)
 * are read edge by edge instead: each route is one edge, its first link the
 * edge's own when it carries no steady_channel prop, the others channels.
 */
#include "sg.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Reports how far a zone's layout is, now and then. */
static void progress(const sg_t *g, int done, int total)
{
    if (g->progress && done % READ_PROGRESS_EVERY == 0)
        g->progress(g->progress_ctx, "building the platform", done, total);
}

/* The steady channel of link k, made on first use. */
static int channel_of(sg_t *g, int k, steady_err_t *rc)
{
    sg_link_t *l = &g->links[k];
    if (l->channel >= 0)
        return l->channel;
    if (l->has_overhead || l->has_recv_factor || l->has_penalty) {
        *rc = steady_error_set(g->err, STEADY_EINVAL,
                               "%s:%ld: %s on link %s, which steady reads as a channel: %s, "
                               "given on the edges of steady's own exports (steady_routes=edges)",
                               g->origin, l->line,
                               l->has_overhead      ? "steady_overhead"
                               : l->has_recv_factor ? "steady_recv_factor"
                                                    : "steady_penalty",
                               l->id,
                               l->has_overhead      ? "an overhead is a message's"
                               : l->has_recv_factor ? "a recv-factor is an edge's"
                                                    : "a penalty is an edge's");
        return -1;
    }
    steady_channel_t c = {.name = l->id, .latency = l->latency, .sharing = l->sharing};
    if (l->has_cost)
        c.cost = l->cost;
    else
        c.bandwidth = l->bandwidth;
    if ((*rc = steady_platform_add_channel(g->p, &c, &l->channel, g->err)))
        steady_error_prefix(g->err, "%s:%ld: ", g->origin, l->line);
    return l->channel;
}

/* A name for a new switch: base and suffix, with underscores added until
 * no node has it. */
static char *switch_name(sg_t *g, const char *base, const char *suffix)
{
    size_t n = strlen(base) + strlen(suffix);
    char *name = malloc(n + 64);
    if (!name)
        return NULL;
    snprintf(name, n + 64, "%s%s", base, suffix);
    while (steady_platform_find_node(g->p, name) >= 0 && strlen(name) < n + 60)
        strcat(name, "_");
    return name;
}

static int add_switch(sg_t *g, const char *base, const char *suffix, long line, steady_err_t *rc)
{
    char *name = switch_name(g, base, suffix);
    int id = -1;
    if (!name)
        *rc = sg_oom(g);
    else if ((*rc = steady_platform_add_node(g->p, name, STEADY_SWITCH, 0, &id, g->err)))
        steady_error_prefix(g->err, "%s:%ld: ", g->origin, line);
    free(name);
    return id;
}

/* The edge a -> b crossing the links of route, made or, when it exists,
 * checked to cross the same.  `what` names the route in messages. */
static steady_err_t route_edge(sg_t *g, int a, int b, const sg_list_t *route, long line)
{
    const char *an = steady_platform_node(g->p, a)->name, *bn = steady_platform_node(g->p, b)->name;
    if (route->n == 0)
        return steady_error_set(g->err, STEADY_EUNSUPPORTED,
                                "%s:%ld: SimGrid's route from %s to %s crosses no link: steady "
                                "models no unbounded link",
                                g->origin, line, an, bn);
    steady_crossing_t *cross = malloc((size_t)route->n * sizeof *cross);
    if (!cross)
        return sg_oom(g);
    steady_err_t rc = STEADY_OK;
    for (int k = 0; k < route->n && !rc; k++) {
        cross[k].channel = channel_of(g, route->v[k].link, &rc);
        cross[k].down = route->v[k].down;
        for (int j = 0; j < k && !rc; j++)
            if (route->v[j].link == route->v[k].link)
                rc = steady_error_set(g->err, STEADY_EUNSUPPORTED,
                                      "%s:%ld: SimGrid's route from %s to %s crosses link %s "
                                      "twice, and steady's edges cross a link once",
                                      g->origin, line, an, bn, g->links[route->v[k].link].id);
    }
    int old = rc ? -1 : steady_platform_find_edge(g->p, a, b);
    if (old >= 0) {
        const steady_edge_t *e = steady_platform_edge(g->p, old);
        bool same = e->ncross == route->n && e->latency == route->latency;
        for (int k = 0; k < route->n && same; k++)
            same = e->cross[k].channel == cross[k].channel && e->cross[k].down == cross[k].down;
        if (!same)
            rc = steady_error_set(g->err, STEADY_EUNSUPPORTED,
                                  "%s:%ld: two of SimGrid's routes lead from %s to %s over "
                                  "different links, which steady cannot tell apart",
                                  g->origin, line, an, bn);
    } else if (!rc) {
        steady_edge_t e = {
            .src = a, .dst = b, .latency = route->latency, .ncross = route->n, .cross = cross};
        if ((rc = steady_platform_add_edge(g->p, &e, NULL, g->err)))
            steady_error_prefix(g->err, "%s:%ld: ", g->origin, line);
    }
    free(cross);
    return rc;
}

/* ---- stars -------------------------------------------------------------------- */

static bool same_use(sg_use_t a, sg_use_t b)
{
    return a.link == b.link && a.down == b.down;
}

static bool in_list(const sg_list_t *l, sg_use_t u)
{
    for (int k = 0; k < l->n; k++)
        if (same_use(l->v[k], u))
            return true;
    return false;
}

/* A star's hosts around a centre switch (see the top of the file), or,
 * when the links shared by every route are not the only ones two hosts'
 * routes have in common, or in a Vivaldi zone (whose routes' latencies
 * are the distances between their ends), an edge between every two hosts. */
static steady_err_t build_star(sg_t *g, int z)
{
    sg_zone_t *zz = &g->zones[z];
    steady_err_t rc = STEADY_OK;
    int nhosts = 0, first = -1;
    for (int i = 0; i < zz->nvert; i++)
        if (g->np[zz->vert[i]].kind == SG_HOST) {
            nhosts++;
            if (first < 0)
                first = i;
            if (zz->up[i].n == 0 || zz->down[i].n == 0)
                return steady_error_set(
                    g->err, STEADY_EUNSUPPORTED, "%s:%ld: host %s of zone %s has no link %s",
                    g->origin, g->np[zz->vert[i]].line, g->np[zz->vert[i]].name, zz->id,
                    zz->vivaldi ? "(in a Vivaldi zone only a <peer> has links; SimGrid's "
                                  "messages from and to a <host> cross none, at an unbounded "
                                  "bandwidth): declare it as a <peer> with bw_in and bw_out"
                                : "(no <host_link>): steady models no unbounded link");
        }
    if (nhosts == 0)
        return STEADY_OK;
    /* the links every host's routes up and down cross */
    sg_list_t common = {0}, down = {0};
    for (int k = 0; k < zz->up[first].n; k++) {
        sg_use_t u = zz->up[first].v[k];
        bool all = true;
        for (int i = 0; i < zz->nvert && all; i++)
            if (g->np[zz->vert[i]].kind == SG_HOST)
                all = in_list(&zz->up[i], u) && in_list(&zz->down[i], u);
        if (all && !sg_list_push(&common, u)) {
            sg_list_free(&common);
            return sg_oom(g);
        }
    }
    /* the centre is exact when no host's links up meet another host's
     * links down beyond those: each (link, direction) down is marked with
     * its host (-2 when several hosts have it), then each host's links up
     * are looked up */
    bool exact = !zz->vivaldi && zz->nbypass == 0;
    int *owner = malloc((size_t)(2 * g->nlinks + 1) * sizeof *owner);
    if (!owner) {
        sg_list_free(&common);
        return sg_oom(g);
    }
    for (int k = 0; k < 2 * g->nlinks; k++)
        owner[k] = -1;
    for (int j = 0; j < zz->nvert; j++)
        if (g->np[zz->vert[j]].kind == SG_HOST)
            for (int k = 0; k < zz->down[j].n; k++) {
                sg_use_t u = zz->down[j].v[k];
                int *o = &owner[2 * u.link + u.down];
                if (!in_list(&common, u))
                    *o = *o == -1 || *o == j ? j : -2;
            }
    for (int i = 0; i < zz->nvert && exact; i++)
        if (g->np[zz->vert[i]].kind == SG_HOST)
            for (int k = 0; k < zz->up[i].n && exact; k++) {
                int o = owner[2 * zz->up[i].v[k].link + zz->up[i].v[k].down];
                exact = o == -1 || o == i;
            }
    free(owner);
    if (!exact) {
        for (int i = 0; i < zz->nvert && !rc; i++)
            for (int j = 0; j < zz->nvert && !rc; j++) {
                int a = zz->vert[i], b = zz->vert[j];
                if (i == j || g->np[a].kind != SG_HOST || g->np[b].kind != SG_HOST)
                    continue;
                sg_list_t route = {0};
                int gs, gd;
                bool found;
                rc = sg_local_route(g, z, a, b, &route, &gs, &gd, &found);
                if (!rc)
                    rc = route_edge(g, g->np[a].node, g->np[b].node, &route, zz->line);
                sg_list_free(&route);
            }
        sg_list_free(&common);
        return rc;
    }
    int router = zz->router;
    for (int i = 0; i < zz->nvert && router < 0; i++)
        if (g->np[zz->vert[i]].kind == SG_ROUTER)
            router = zz->vert[i];
    int centre = add_switch(g, router >= 0 ? g->np[router].name : zz->id, "", zz->line, &rc);
    /* a host's route to a router of the star is its links up: the
     * centre's in-edges; routers leave the zone through it */
    for (int i = 0; i < zz->nvert && !rc; i++) {
        int v = zz->vert[i];
        progress(g, i, zz->nvert);
        if (g->np[v].kind == SG_ROUTER) {
            g->np[v].xnode = centre;
            continue;
        }
        if (g->np[v].kind != SG_HOST)
            continue;
        sg_list_clear(&down);
        for (int k = 0; k < zz->down[i].n && !rc; k++)
            if (!in_list(&common, zz->down[i].v[k]) && !sg_list_push(&down, zz->down[i].v[k]))
                rc = sg_oom(g);
        if (!rc)
            rc = route_edge(g, g->np[v].node, centre, &zz->up[i], g->np[v].line);
        if (!rc)
            rc = route_edge(g, centre, g->np[v].node, &down, g->np[v].line);
    }
    sg_list_free(&common);
    sg_list_free(&down);
    return rc;
}

/* ---- zones of hosts and routers ------------------------------------------------------ */

/* A Full zone: its declared routes between hosts, in the order of the
 * pairs of vertices (as build_leaf's), without visiting every pair; then
 * its bypass routes between hosts, which replace the declared ones. */
static steady_err_t build_full(sg_t *g, int z)
{
    sg_zone_t *zz = &g->zones[z];
    steady_err_t rc = STEADY_OK;
    for (int i = 0; i < zz->nvert && !rc; i++) {
        if (g->np[zz->vert[i]].kind != SG_HOST)
            continue;
        for (int k = zz->bystart[i]; k < zz->bystart[i + 1] && !rc; k++) {
            const sg_route_t *r = &zz->routes[zz->byvert[k]];
            progress(g, k, zz->nroutes);
            if (g->np[r->dst].kind == SG_HOST && sg_bypass_of(zz, r->src, r->dst) < 0)
                rc = route_edge(g, g->np[r->src].node, g->np[r->dst].node, &r->links, r->line);
        }
    }
    for (int k = 0; k < zz->nbypass && !rc; k++) {
        const sg_route_t *r = &zz->bypass[k];
        if (g->np[r->src].kind == SG_HOST && g->np[r->dst].kind == SG_HOST)
            rc = route_edge(g, g->np[r->src].node, g->np[r->dst].node, &r->links, r->line);
    }
    return rc;
}

static steady_err_t build_leaf(sg_t *g, int z)
{
    sg_zone_t *zz = &g->zones[z];
    steady_err_t rc = STEADY_OK;
    if (zz->routing == SG_FULL)
        return build_full(g, z);
    for (int i = 0; i < zz->nvert && !rc; i++)
        for (int j = 0; j < zz->nvert && !rc; j++) {
            int a = zz->vert[i], b = zz->vert[j];
            if (i == j || g->np[a].kind != SG_HOST || g->np[b].kind != SG_HOST)
                continue;
            sg_list_t route = {0};
            int gs, gd;
            bool found;
            rc = sg_local_route(g, z, a, b, &route, &gs, &gd, &found);
            if (!rc && found)
                rc = route_edge(g, g->np[a].node, g->np[b].node, &route, zz->line);
            sg_list_free(&route);
        }
    return rc;
}

/* ---- zones of zones ---------------------------------------------------------------- */

/* The hosts inside each zone (at any depth): hosts[start[z] .. start[z + 1]). */
typedef struct {
    int *start, *hosts;
} inside_t;

static bool inside_init(const sg_t *g, inside_t *in)
{
    int nz = g->nzones;
    in->start = calloc((size_t)nz + 2, sizeof *in->start);
    int total = 0;
    for (int v = 0; v < g->nnp; v++)
        if (g->np[v].kind == SG_HOST)
            for (int z = g->np[v].zone; z >= 0; z = g->zones[z].parent)
                total++;
    in->hosts = malloc((size_t)(total + 1) * sizeof *in->hosts);
    if (!in->start || !in->hosts)
        return false;
    for (int pass = 0; pass < 2; pass++) {
        for (int v = 0; v < g->nnp; v++)
            if (g->np[v].kind == SG_HOST)
                for (int z = g->np[v].zone; z >= 0; z = g->zones[z].parent) {
                    if (pass == 0)
                        in->start[z + 2]++;
                    else
                        in->hosts[in->start[z + 1]++] = v;
                }
        if (pass == 0)
            for (int z = 0; z <= nz; z++)
                in->start[z + 1] += in->start[z];
    }
    return true;
}

/* Hosts u of zone `from` reach gateway g's switch along route(u, g). */
static steady_err_t exit_edges(sg_t *g, const inside_t *in, int from, int gw, int node, long line)
{
    steady_err_t rc = STEADY_OK;
    for (int k = in->start[from]; k < in->start[from + 1] && !rc; k++) {
        int u = in->hosts[k];
        sg_list_t route = {0};
        bool found;
        rc = sg_global_route(g, u, gw, &route, &found);
        if (!rc && found)
            rc = route_edge(g, g->np[u].node, node, &route, line);
        sg_list_free(&route);
    }
    return rc;
}

/* Gateway g's switch reaches the hosts v of zone `to` along route(g, v). */
static steady_err_t entry_edges(sg_t *g, const inside_t *in, int to, int gw, int node, long line)
{
    steady_err_t rc = STEADY_OK;
    for (int k = in->start[to]; k < in->start[to + 1] && !rc; k++) {
        int v = in->hosts[k];
        if (v == gw)
            continue;
        sg_list_t route = {0};
        bool found;
        rc = sg_global_route(g, gw, v, &route, &found);
        if (!rc && found)
            rc = route_edge(g, node, g->np[v].node, &route, line);
        sg_list_free(&route);
    }
    return rc;
}

/* The switches where zone routes start (out: from a gateway g of zone A,
 * reached by A's hosts) and end (in: to a gateway of zone B, leading to
 * B's hosts), one per gateway and zone: a gateway that nested zones share
 * gets one pair per level, so that no path leads a host through a level
 * SimGrid's route does not use. */
typedef struct {
    int gw, zone, node;
    bool out;
} port_t;

typedef struct {
    port_t *v;
    int n, cap;
} ports_t;

/* The switch of (gateway, zone, out), made and connected on first use. */
static int port_node(sg_t *g, const inside_t *in, ports_t *ports, int gw, int zone, bool out,
                     steady_err_t *rc)
{
    for (int k = 0; k < ports->n; k++)
        if (ports->v[k].gw == gw && ports->v[k].zone == zone && ports->v[k].out == out)
            return ports->v[k].node;
    int node = -1;
    const sg_zone_t *zz = &g->zones[zone];
    long line = g->np[gw].line;
    if (out && zz->routing == SG_STAR && zz->router == gw) {
        node = g->np[gw].xnode; /* the star's centre: its hosts go there along their links up */
    } else {
        node = add_switch(g, g->np[gw].name, out ? "_out" : "_in", line, rc);
        if (!*rc)
            *rc = out ? exit_edges(g, in, zone, gw, node, line)
                      : entry_edges(g, in, zone, gw, node, line);
    }
    if (*rc)
        return -1;
    if (ports->n == ports->cap) {
        int ncap = ports->cap ? 2 * ports->cap : 16;
        port_t *n = realloc(ports->v, (size_t)ncap * sizeof *n);
        if (!n) {
            *rc = sg_oom(g);
            return -1;
        }
        ports->v = n;
        ports->cap = ncap;
    }
    ports->v[ports->n++] = (port_t){gw, zone, node, out};
    return node;
}

/* The zone route A -> B of zone z (see the top of the file). */
static steady_err_t zone_route(sg_t *g, const inside_t *in, ports_t *ports, int z, int a, int b)
{
    sg_list_t mid = {0}, pre = {0}, route = {0};
    int gs, gd;
    bool found;
    long line = g->zones[z].line;
    int za = g->np[a].sub, zb = g->np[b].sub;
    if (in->start[za + 1] == in->start[za] || in->start[zb + 1] == in->start[zb])
        return STEADY_OK; /* no host sends from A or receives in B */
    steady_err_t rc = sg_local_route(g, z, a, b, &mid, &gs, &gd, &found);
    if (rc || !found)
        goto cleanup;
    if (gs < 0 || gd < 0) {
        rc = steady_error_set(g->err, STEADY_EINVAL,
                              "%s:%ld: the route from zone %s to %s has no gateways", g->origin,
                              line, g->np[a].name, g->np[b].name);
        goto cleanup;
    }
    /* where it ends: the entry switch of (g', B) for B's hosts but g', and
     * g' itself when it is a host */
    bool host_entry = g->np[gd].kind == SG_HOST;
    int ends[2] = {-1, host_entry ? g->np[gd].node : -1};
    if (in->start[zb + 1] - in->start[zb] > (host_entry ? 1 : 0))
        ends[0] = port_node(g, in, ports, gd, zb, false, &rc);
    if (rc)
        goto cleanup;
    /* where it starts: the out switch of (g, A), or, when g is a host, each
     * host of A along its route to g */
    if (g->np[gs].kind != SG_HOST) {
        int from = port_node(g, in, ports, gs, za, true, &rc);
        for (int k = 0; k < 2 && !rc; k++)
            if (ends[k] >= 0)
                rc = route_edge(g, from, ends[k], &mid, line);
        goto cleanup;
    }
    for (int h = in->start[za]; h < in->start[za + 1] && !rc; h++) {
        int u = in->hosts[h];
        sg_list_clear(&pre);
        found = true;
        if (u != gs)
            rc = sg_global_route(g, u, gs, &pre, &found);
        if (rc || !found)
            continue;
        sg_list_clear(&route);
        if (!sg_list_append(&route, &pre) || !sg_list_append(&route, &mid)) {
            rc = sg_oom(g);
            break;
        }
        for (int k = 0; k < 2 && !rc; k++)
            if (ends[k] >= 0)
                rc = route_edge(g, g->np[u].node, ends[k], &route, line);
    }
cleanup:
    sg_list_free(&mid);
    sg_list_free(&pre);
    sg_list_free(&route);
    return rc;
}

static steady_err_t build_inner(sg_t *g, const inside_t *in, ports_t *ports, int z)
{
    sg_zone_t *zz = &g->zones[z];
    steady_err_t rc = STEADY_OK;
    for (int i = 0; i < zz->nvert && !rc; i++)
        for (int j = 0; j < zz->nvert && !rc; j++)
            if (i != j)
                rc = zone_route(g, in, ports, z, zz->vert[i], zz->vert[j]);
    return rc;
}

/* ---- steady's own exports: one route, one edge ------------------------------------------ */

static steady_err_t build_edges(sg_t *g, int z)
{
    sg_zone_t *zz = &g->zones[z];
    steady_err_t rc = STEADY_OK;
    if (zz->has_zones || zz->routing == SG_STAR)
        return steady_error_set(g->err, STEADY_EINVAL,
                                "%s:%ld: steady_routes=edges in zone %s, which holds no routes of "
                                "its own",
                                g->origin, zz->line, zz->id);
    /* the channels in the file's order, crossed or not, as they were */
    for (int k = 0; k < g->nlinks && !rc; k++)
        if (g->links[k].channel_prop)
            channel_of(g, k, &rc);
    for (int r = 0; r < zz->nroutes && !rc; r++) {
        const sg_route_t *rt = &zz->routes[r];
        progress(g, r, zz->nroutes);
        steady_edge_t e = {.src = g->np[rt->src].node, .dst = g->np[rt->dst].node};
        const sg_list_t *l = &rt->links;
        int k = 0;
        if (g->links[l->v[0].link].completion_prop)
            continue; /* SimGrid's route between two ranks, no edge */
        /* the edge's own link: its bandwidth (or cost), latency, overhead */
        if (!g->links[l->v[0].link].channel_prop) {
            const sg_link_t *own = &g->links[l->v[0].link];
            if (own->has_cost)
                e.cost = own->cost;
            else
                e.bandwidth = own->bandwidth;
            e.latency = own->latency;
            e.overhead = own->overhead;
            e.recv_factor = own->recv_factor;
            e.penalty = own->penalty;
            k = 1;
        }
        steady_crossing_t *cross = malloc((size_t)l->n * sizeof *cross);
        if (!cross)
            return sg_oom(g);
        for (; k < l->n && !rc; k++) {
            if (!g->links[l->v[k].link].channel_prop)
                rc = steady_error_set(g->err, STEADY_EINVAL,
                                      "%s:%ld: link %s in a steady_routes=edges zone is neither "
                                      "the route's first nor a steady_channel",
                                      g->origin, rt->line, g->links[l->v[k].link].id);
            cross[e.ncross].channel = channel_of(g, l->v[k].link, &rc);
            cross[e.ncross++].down = l->v[k].down;
        }
        e.cross = cross;
        if (!rc && (rc = steady_platform_add_edge(g->p, &e, NULL, g->err)))
            steady_error_prefix(g->err, "%s:%ld: ", g->origin, rt->line);
        free(cross);
    }
    return rc;
}

/* ---- the platform -------------------------------------------------------------------- */

steady_err_t sg_build(sg_t *g)
{
    steady_err_t rc = STEADY_OK;
    bool edges = false;
    for (int z = 0; z < g->nzones; z++)
        edges = edges || g->zones[z].edges;
    /* the hosts, in the file's order: the ranks; in steady's own exports
     * the routers too, as switches, where the file has them (the node
     * order is part of the platform) */
    int hosts = 0;
    for (int v = 0; v < g->nnp && !rc; v++) {
        sg_np_t *n = &g->np[v];
        if (n->kind != SG_HOST && !(edges && n->kind == SG_ROUTER))
            continue;
        steady_node_kind_t kind = n->kind == SG_ROUTER ? STEADY_SWITCH
                                  : n->steady_router   ? STEADY_ROUTER
                                                       : STEADY_PROCESSOR;
        hosts += n->kind == SG_HOST;
        if ((rc = steady_platform_add_node(
                 g->p, n->name, kind, kind == STEADY_PROCESSOR ? n->speed : 0, &n->node, g->err)))
            steady_error_prefix(g->err, "%s:%ld: ", g->origin, n->line);
    }
    if (!rc && hosts == 0)
        rc = steady_error_set(g->err, STEADY_EINVAL,
                              "%s:%ld: no <host> in the platform (%s): steady's ranks run on hosts",
                              g->origin, g->zones[0].line, g->zones[0].id);
    if (edges) {
        if (!rc && g->nzones > 1)
            rc = steady_error_set(g->err, STEADY_EINVAL,
                                  "%s:%ld: steady_routes=edges in a platform of several zones",
                                  g->origin, g->zones[0].line);
        return rc ? rc : build_edges(g, 0);
    }
    inside_t in = {0};
    if (!rc && !inside_init(g, &in))
        rc = sg_oom(g);
    for (int z = 0; z < g->nzones && !rc; z++) {
        const sg_zone_t *zz = &g->zones[z];
        if (zz->routing == SG_STAR)
            rc = build_star(g, z);
        else if (!zz->has_zones)
            rc = build_leaf(g, z);
    }
    ports_t ports = {0};
    for (int z = 0; z < g->nzones && !rc; z++)
        if (g->zones[z].has_zones)
            rc = build_inner(g, &in, &ports, z);
    free(ports.v);
    free(in.start);
    free(in.hosts);
    return rc;
}
