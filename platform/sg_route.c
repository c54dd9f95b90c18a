/*
 * sg_route.c — SimGrid's routing, reproduced over the reader's model of a
 * platform file (sg.h), so that a message between two hosts crosses
 * exactly the links it crosses in SimGrid 3.32.
 *
 * What each function follows, in SimGrid's sources (src/kernel/routing/):
 *   sg_global_route   NetZoneImpl::get_global_route and
 *                     find_common_ancestors: the zones from each end up to
 *                     the root; below their lowest common zone, the route
 *                     between the two child zones (a zone route, with its
 *                     gateways), preceded by the route from the source to
 *                     the source gateway and followed by the one from the
 *                     destination gateway, each computed the same way.
 *   Full              FullZone: the declared route; a symmetrical one also
 *                     declares the reverse (links in reverse order, the
 *                     other half of a SPLITDUPLEX link).
 *   Floyd             FloydZone: Floyd-Warshall over the declared routes,
 *                     a route costing its number of links; the outer loop
 *                     over the intermediate vertex, and a path replaced
 *                     only by a strictly cheaper one.  Between zones, two
 *                     consecutive zone routes whose gateways differ are
 *                     joined by the global route between them.
 *   Dijkstra          DijkstraZone: the graph's nodes in the order routes
 *                     first name them, out-routes in declaration order; a
 *                     queue of (cost, node) pairs, smallest first, every
 *                     node pushed at the start, a node relaxed each time
 *                     it is popped, a predecessor replaced only by a
 *                     strictly cheaper path.  (DijkstraCache caches the
 *                     same routes.)  SimGrid 3.32 cannot join zone routes
 *                     whose gateways differ in a Dijkstra zone (it passes
 *                     null netpoints): refused here.
 *   Star              StarZone (<cluster>, routing="Cluster"): the
 *                     source's links up to the centre, then the
 *                     destination's down from it, each link once.
 * Bypass routes are refused by the reader, so they never apply.
 */
#include "sg.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* ---- lists ------------------------------------------------------------------- */

bool sg_list_push(sg_list_t *l, sg_use_t u)
{
    if (l->n == l->cap) {
        int ncap = l->cap ? 2 * l->cap : 8;
        sg_use_t *v = realloc(l->v, (size_t)ncap * sizeof *v);
        if (!v)
            return false;
        l->v = v;
        l->cap = ncap;
    }
    l->v[l->n++] = u;
    return true;
}

bool sg_list_append(sg_list_t *l, const sg_list_t *m)
{
    for (int k = 0; k < m->n; k++)
        if (!sg_list_push(l, m->v[k]))
            return false;
    l->latency += m->latency;
    return true;
}

void sg_list_clear(sg_list_t *l)
{
    l->n = 0;
    l->latency = 0;
}

void sg_list_free(sg_list_t *l)
{
    free(l->v);
    *l = (sg_list_t){0};
}

static const char *npname(const sg_t *g, int np)
{
    return g->np[np].name;
}

/* ---- sealing: the routing tables --------------------------------------------- */

/* The declared routes by source vertex, then destination vertex, then
 * declaration order (two stable counting sorts: O(vertices + routes)), and
 * the first duplicate (the earliest route that repeats an earlier one's
 * ends), as a table filled in declaration order would meet it. */
static steady_err_t seal_index(sg_t *g, sg_zone_t *z)
{
    int n = z->nvert, nr = z->nroutes;
    int *tmp = malloc((size_t)(nr ? nr : 1) * sizeof *tmp);
    int *count = calloc((size_t)n + 1, sizeof *count);
    z->bystart = calloc((size_t)n + 1, sizeof *z->bystart);
    z->byvert = malloc((size_t)(nr ? nr : 1) * sizeof *z->byvert);
    if (!tmp || !count || !z->bystart || !z->byvert) {
        free(tmp);
        free(count);
        return sg_oom(g);
    }
    /* by destination */
    for (int r = 0; r < nr; r++)
        count[g->np[z->routes[r].dst].vid + 1]++;
    for (int v = 0; v < n; v++)
        count[v + 1] += count[v];
    for (int r = 0; r < nr; r++)
        tmp[count[g->np[z->routes[r].dst].vid]++] = r;
    /* then, stably, by source */
    for (int r = 0; r < nr; r++)
        z->bystart[g->np[z->routes[r].src].vid + 1]++;
    for (int v = 0; v < n; v++)
        z->bystart[v + 1] += z->bystart[v];
    memcpy(count, z->bystart, (size_t)n * sizeof *count);
    for (int k = 0; k < nr; k++) {
        int r = tmp[k];
        z->byvert[count[g->np[z->routes[r].src].vid]++] = r;
    }
    free(count);
    free(tmp);
    int dup = -1, first = -1; /* the earliest repeating route, and the route it repeats */
    for (int k = 1, head = 0; k < nr; k++) {
        const sg_route_t *a = &z->routes[z->byvert[k - 1]], *b = &z->routes[z->byvert[k]];
        if (a->src != b->src || a->dst != b->dst) {
            head = k;
        } else if (dup < 0 || z->byvert[k] < dup) {
            dup = z->byvert[k];
            first = z->byvert[head];
        }
    }
    if (dup >= 0) {
        const sg_route_t *rt = &z->routes[dup];
        return steady_error_set(
            g->err, STEADY_EINVAL,
            "%s:%ld: duplicate route from %s to %s: already declared at line %ld (routes are "
            "symmetrical unless they say symmetrical=\"NO\")",
            g->origin, rt->line, npname(g, rt->src), npname(g, rt->dst), z->routes[first].line);
    }
    return STEADY_OK;
}

int sg_declared_route(const sg_t *g, const sg_zone_t *z, int va, int vb)
{
    /* binary search among the routes from va, sorted by destination */
    int lo = z->bystart[va], hi = z->bystart[va + 1];
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        int r = z->byvert[mid];
        if (g->np[z->routes[r].dst].vid < vb)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < z->bystart[va + 1] && g->np[z->routes[z->byvert[lo]].dst].vid == vb ? z->byvert[lo] : -1;
}

/* Floyd's dense table of direct routes (after seal_index: no duplicate). */
static steady_err_t seal_table(sg_t *g, sg_zone_t *z)
{
    size_t n = (size_t)z->nvert;
    z->table = malloc((n > 0 ? n * n : 1) * sizeof *z->table);
    if (!z->table)
        return sg_oom(g);
    for (size_t k = 0; k < n * n; k++)
        z->table[k] = -1;
    for (int r = 0; r < z->nroutes; r++) {
        const sg_route_t *rt = &z->routes[r];
        z->table[(size_t)g->np[rt->src].vid * n + (size_t)g->np[rt->dst].vid] = r;
    }
    return STEADY_OK;
}

static steady_err_t seal_floyd(sg_t *g, sg_zone_t *z)
{
    steady_err_t rc = seal_table(g, z);
    if (rc)
        return rc;
    size_t n = (size_t)z->nvert;
    z->pred = malloc((n > 0 ? n * n : 1) * sizeof *z->pred);
    z->cost = malloc((n > 0 ? n * n : 1) * sizeof *z->cost);
    if (!z->pred || !z->cost)
        return sg_oom(g);
    for (size_t a = 0; a < n; a++)
        for (size_t b = 0; b < n; b++) {
            int r = z->table[a * n + b];
            z->pred[a * n + b] = r >= 0 ? (int)a : -1;
            z->cost[a * n + b] = r >= 0 ? (unsigned long)z->routes[r].links.n : ULONG_MAX;
        }
    for (size_t c = 0; c < n; c++)
        for (size_t a = 0; a < n; a++)
            for (size_t b = 0; b < n; b++) {
                unsigned long ac = z->cost[a * n + c], cb = z->cost[c * n + b];
                unsigned long *ab = &z->cost[a * n + b];
                if (ac < ULONG_MAX && cb < ULONG_MAX && (*ab == ULONG_MAX || ac + cb < *ab)) {
                    *ab = ac + cb;
                    z->pred[a * n + b] = z->pred[c * n + b];
                }
            }
    return STEADY_OK;
}

static steady_err_t seal_dijkstra(sg_t *g, sg_zone_t *z)
{
    int n = z->nvert;
    z->gnode = malloc((size_t)(n ? n : 1) * sizeof *z->gnode);
    z->gvid = malloc((size_t)(n ? n : 1) * sizeof *z->gvid);
    z->gout_start = calloc((size_t)n + 2, sizeof *z->gout_start);
    z->gout = malloc((size_t)(z->nroutes ? z->nroutes : 1) * sizeof *z->gout);
    if (!z->gnode || !z->gvid || !z->gout_start || !z->gout)
        return sg_oom(g);
    for (int v = 0; v < n; v++)
        z->gnode[v] = -1;
    z->ngnode = 0;
    for (int r = 0; r < z->nroutes; r++) { /* nodes by first use: source, then destination */
        int ends[2] = {g->np[z->routes[r].src].vid, g->np[z->routes[r].dst].vid};
        for (int k = 0; k < 2; k++)
            if (z->gnode[ends[k]] < 0) {
                z->gnode[ends[k]] = z->ngnode;
                z->gvid[z->ngnode++] = ends[k];
            }
        z->gout_start[z->gnode[ends[0]] + 2]++;
    }
    for (int k = 0; k < z->ngnode; k++)
        z->gout_start[k + 2] += z->gout_start[k + 1];
    for (int r = 0; r < z->nroutes; r++)
        z->gout[z->gout_start[z->gnode[g->np[z->routes[r].src].vid] + 1]++] = r;
    return STEADY_OK;
}

steady_err_t sg_seal(sg_t *g)
{
    steady_err_t rc = STEADY_OK;
    for (int i = 0; i < g->nzones && !rc; i++) {
        sg_zone_t *z = &g->zones[i];
        switch (z->routing) {
        case SG_FULL: rc = seal_index(g, z); break;
        case SG_FLOYD:
            /* a steady_routes=edges zone reads its routes as edges: no
             * Floyd tables (quadratic in memory, cubic in time) */
            if (!(rc = seal_index(g, z)) && !z->edges)
                rc = seal_floyd(g, z);
            break;
        case SG_DIJKSTRA: rc = seal_dijkstra(g, z); break;
        case SG_STAR:
        case SG_TORUS:
        case SG_FAT_TREE:
        case SG_DRAGONFLY: break;
        }
    }
    return rc;
}

/* ---- local routes ----------------------------------------------------------------- */

static steady_err_t route_links(sg_t *g, const sg_route_t *r, sg_list_t *out)
{
    return sg_list_append(out, &r->links) ? STEADY_OK : sg_oom(g);
}

/* Dijkstra from graph node s: pred and cost per graph node (SimGrid's
 * arithmetic, unsigned and all). */
typedef struct {
    double cost;
    int node;
} qelt_t;

static bool q_less(qelt_t a, qelt_t b)
{
    return a.cost < b.cost || (a.cost == b.cost && a.node < b.node);
}

static bool dijkstra(const sg_t *g, const sg_zone_t *z, int s, int *pred, unsigned long *cost)
{
    int n = z->ngnode;
    size_t cap = (size_t)n + (size_t)z->nroutes + 1, len = 0;
    qelt_t *heap = malloc(cap * sizeof *heap);
    if (!heap)
        return false;
    for (int i = 0; i < n; i++) {
        cost[i] = i == s ? 0 : ULONG_MAX;
        pred[i] = 0;
    }
    for (int i = 0; i < n; i++) { /* push (cost, i) */
        qelt_t e = {(double)cost[i], i};
        size_t k = len++;
        while (k > 0 && q_less(e, heap[(k - 1) / 2])) {
            heap[k] = heap[(k - 1) / 2];
            k = (k - 1) / 2;
        }
        heap[k] = e;
    }
    while (len > 0) {
        int v = heap[0].node;
        qelt_t last = heap[--len];
        size_t k = 0;
        for (;;) {
            size_t c = 2 * k + 1;
            if (c >= len)
                break;
            if (c + 1 < len && q_less(heap[c + 1], heap[c]))
                c++;
            if (!q_less(heap[c], last))
                break;
            heap[k] = heap[c];
            k = c;
        }
        if (len > 0)
            heap[k] = last;
        for (int x = z->gout_start[v]; x < z->gout_start[v + 1]; x++) {
            const sg_route_t *r = &z->routes[z->gout[x]];
            int u = z->gnode[g->np[r->dst].vid];
            unsigned long c = (unsigned long)r->links.n + cost[v];
            if (c < cost[u]) {
                pred[u] = v;
                cost[u] = c;
                if (len == cap) {
                    qelt_t *h = realloc(heap, 2 * cap * sizeof *h);
                    if (!h) {
                        free(heap);
                        return false;
                    }
                    heap = h;
                    cap *= 2;
                }
                qelt_t e = {(double)cost[u], u};
                size_t kk = len++;
                while (kk > 0 && q_less(e, heap[(kk - 1) / 2])) {
                    heap[kk] = heap[(kk - 1) / 2];
                    kk = (kk - 1) / 2;
                }
                heap[kk] = e;
            }
        }
    }
    free(heap);
    return true;
}

/* The first declared route from graph node a to graph node b. */
static int graph_route(const sg_t *g, const sg_zone_t *z, int a, int b)
{
    for (int x = z->gout_start[a]; x < z->gout_start[a + 1]; x++)
        if (z->gnode[g->np[z->routes[z->gout[x]].dst].vid] == b)
            return z->gout[x];
    return -1;
}

/* A star's route: the source's links up, then the destination's down,
 * each link once (StarZone::add_links_to_route); a Vivaldi zone adds the
 * distance between the two to the latency (VivaldiZone::get_local_route). */
static steady_err_t star_route(sg_t *g, const sg_zone_t *z, int a, int b, sg_list_t *out)
{
    if (z->vivaldi)
        out->latency += sg_vivaldi_latency(z, g->np[a].vid, g->np[b].vid);
    const sg_list_t *lists[2] = {&z->up[g->np[a].vid], &z->down[g->np[b].vid]};
    int start = out->n;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < lists[k]->n; i++) {
            sg_use_t u = lists[k]->v[i];
            bool seen = false;
            for (int j = start; j < out->n && !seen; j++)
                seen = out->v[j].link == u.link && out->v[j].down == u.down;
            if (!seen && !sg_list_push(out, u))
                return sg_oom(g);
        }
    return STEADY_OK;
}

steady_err_t sg_local_route(sg_t *g, int zone, int a, int b, sg_list_t *out, int *gw_src,
                            int *gw_dst, bool *found)
{
    sg_zone_t *z = &g->zones[zone];
    size_t n = (size_t)z->nvert;
    int va = g->np[a].vid, vb = g->np[b].vid;
    *gw_src = *gw_dst = -1;
    *found = false;
    int bp = sg_bypass_of(z, a, b);
    if (bp >= 0) { /* SimGrid's bypass route replaces the zone's own */
        *found = true;
        *gw_src = z->bypass[bp].gw_src;
        *gw_dst = z->bypass[bp].gw_dst;
        return route_links(g, &z->bypass[bp], out);
    }
    switch (z->routing) {
    case SG_STAR:
        /* SimGrid 3.32 aborts between two zones of a Vivaldi zone: its
         * StarZone resets the gateways VivaldiZone found ("Bad gateways") */
        *found = !z->vivaldi || g->np[a].kind != SG_ZONE;
        return *found ? star_route(g, z, a, b, out) : STEADY_OK;
    case SG_TORUS:
    case SG_FAT_TREE:
    case SG_DRAGONFLY:
        *found = true;
        return sg_topo_route(g, z, va, vb, out);
    case SG_FULL: {
        int r = sg_declared_route(g, z, va, vb);
        if (r < 0)
            return STEADY_OK;
        *found = true;
        *gw_src = z->routes[r].gw_src;
        *gw_dst = z->routes[r].gw_dst;
        return route_links(g, &z->routes[r], out);
    }
    case SG_FLOYD: {
        /* the routes along the path, from the destination back */
        int *stack = malloc((n + 1) * sizeof *stack), ns = 0;
        if (!stack)
            return sg_oom(g);
        int cur = vb;
        do {
            int pr = z->pred[(size_t)va * n + (size_t)cur];
            if (pr < 0) {
                free(stack);
                return STEADY_OK;
            }
            stack[ns++] = z->table[(size_t)pr * n + (size_t)cur];
            cur = pr;
        } while (cur != va && ns <= (int)n);
        *found = true;
        *gw_src = z->routes[stack[ns - 1]].gw_src;
        *gw_dst = z->routes[stack[0]].gw_dst;
        steady_err_t rc = STEADY_OK;
        int prev_dst_gw = -1;
        for (int k = ns - 1; k >= 0 && !rc; k--) {
            const sg_route_t *r = &z->routes[stack[k]];
            if (z->has_zones && prev_dst_gw >= 0 && prev_dst_gw != r->gw_src) {
                bool f;
                rc = sg_global_route(g, prev_dst_gw, r->gw_src, out, &f);
                if (!rc && !f)
                    *found = false;
            }
            if (!rc)
                rc = route_links(g, r, out);
            prev_dst_gw = r->gw_dst;
        }
        free(stack);
        return rc;
    }
    case SG_DIJKSTRA: {
        int s = z->gnode[va], d = z->gnode[vb];
        if (s < 0 || d < 0)
            return STEADY_OK;
        int ng = z->ngnode;
        int *pred = malloc((size_t)ng * sizeof *pred);
        unsigned long *cost = malloc((size_t)ng * sizeof *cost);
        if (!pred || !cost || !dijkstra(g, z, s, pred, cost)) {
            free(pred);
            free(cost);
            return sg_oom(g);
        }
        steady_err_t rc = STEADY_OK;
        if (cost[d] == ULONG_MAX) {
            free(pred);
            free(cost);
            return STEADY_OK;
        }
        /* the routes from the destination back, put in order at the end */
        int *path = malloc((size_t)(ng + 1) * sizeof *path), np = 0;
        if (!path) {
            free(pred);
            free(cost);
            return sg_oom(g);
        }
        for (int v = d; v != s && np <= ng; v = pred[v]) {
            int r = graph_route(g, z, pred[v], v);
            if (r < 0) {
                np = -1;
                break;
            }
            path[np++] = r;
        }
        if (np > 0) {
            *found = true;
            *gw_src = z->routes[path[np - 1]].gw_src;
            *gw_dst = z->routes[path[0]].gw_dst;
            /* DijkstraZone::get_local_route prepends each earlier route */
            for (int k = np - 1; k >= 0 && !rc; k--) {
                const sg_route_t *r = &z->routes[path[k]];
                if (z->has_zones && k < np - 1 && z->routes[path[k + 1]].gw_dst != r->gw_src)
                    rc = steady_error_set(
                        g->err, STEADY_EUNSUPPORTED,
                        "%s:%ld: the route from %s to %s goes through zone %s, whose gateways "
                        "differ (%s, %s): SimGrid 3.32's Dijkstra routing cannot join them; "
                        "use Floyd or Full routing in zone %s",
                        g->origin, z->line, npname(g, a), npname(g, b), npname(g, r->src),
                        npname(g, z->routes[path[k + 1]].gw_dst), npname(g, r->gw_src), z->id);
                else
                    rc = route_links(g, r, out);
            }
        }
        free(path);
        free(pred);
        free(cost);
        return rc;
    }
    }
    return STEADY_OK;
}

/* ---- global routes --------------------------------------------------------------- */

/* The zone that netpoint v is a vertex of, and that zone's ancestors. */
static int zone_path(const sg_t *g, int v, int *path)
{
    int n = 0;
    for (int z = g->np[v].zone; z >= 0; z = g->zones[z].parent)
        path[n++] = z;
    return n;
}

steady_err_t sg_global_route(sg_t *g, int src, int dst, sg_list_t *out, bool *found)
{
    *found = false;
    int *ps = malloc((size_t)(g->nzones + 1) * sizeof *ps);
    int *pd = malloc((size_t)(g->nzones + 1) * sizeof *pd);
    if (!ps || !pd) {
        free(ps);
        free(pd);
        return sg_oom(g);
    }
    int common, sa, da;
    if (g->np[src].zone == g->np[dst].zone) {
        common = sa = da = g->np[src].zone;
    } else {
        int ns = zone_path(g, src, ps), nd = zone_path(g, dst, pd), parent = -1;
        if (ns == 0 || nd == 0) {
            free(ps);
            free(pd);
            return steady_error_set(g->err, STEADY_EINTERNAL, "%s: a netpoint in no zone (a bug)",
                                    g->origin);
        }
        while (ns > 1 && nd > 1 && ps[ns - 1] == pd[nd - 1]) {
            parent = ps[ns - 1];
            ns--;
            nd--;
        }
        sa = ps[ns - 1];
        da = pd[nd - 1];
        common = sa == da ? sa : parent;
    }
    free(ps);
    free(pd);
    if (common < 0)
        return steady_error_set(g->err, STEADY_EINTERNAL,
                                "%s: no common zone for %s and %s (a bug)", g->origin,
                                npname(g, src), npname(g, dst));
    int gs, gd;
    steady_err_t rc;
    if (sa == da) {
        if (g->np[src].zone != common || g->np[dst].zone != common)
            return steady_error_set(g->err, STEADY_EUNSUPPORTED,
                                    "%s: no route between %s and %s: one is in a zone inside the "
                                    "other's, which SimGrid does not route",
                                    g->origin, npname(g, src), npname(g, dst));
        return sg_local_route(g, common, src, dst, out, &gs, &gd, found);
    }
    sg_list_t mid = {0};
    bool f;
    rc = sg_local_route(g, common, g->zones[sa].np, g->zones[da].np, &mid, &gs, &gd, &f);
    if (!rc && f && (gs < 0 || gd < 0))
        rc = steady_error_set(g->err, STEADY_EINVAL,
                              "%s: the route between zones %s and %s has no gateways", g->origin,
                              g->zones[sa].id, g->zones[da].id);
    if (!rc && f) {
        bool f1 = true, f2 = true;
        if (src != gs)
            rc = sg_global_route(g, src, gs, out, &f1);
        if (!rc && f1 && !sg_list_append(out, &mid))
            rc = sg_oom(g);
        if (!rc && f1 && gd != dst)
            rc = sg_global_route(g, gd, dst, out, &f2);
        *found = f1 && f2;
    }
    sg_list_free(&mid);
    return rc;
}
