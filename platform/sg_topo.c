/*
 * sg_topo.c — SimGrid's <cluster>s of topology TORUS, FAT_TREE and
 * DRAGONFLY read into the reader's model (sg.h): their hosts, links and
 * routes as SimGrid 3.32 builds them (TorusZone.cpp, FatTreeZone.cpp,
 * DragonflyZone.cpp, and sg_platf.cpp's callbacks for hosts and limiters).
 *
 * A message crosses the links of SimGrid's route, whatever the route was
 * meant to be, so SimGrid's choices are followed where they surprise:
 *   - the links are SHARED whatever the cluster's sharing_policy, two of
 *     them (NAME_UP, NAME_DOWN) when it is SPLITDUPLEX;
 *   - a route crosses the limiter (limiter_link) of every host or switch
 *     it passes, not only its ends';
 *   - the fat trees' host positions (their d-mod-k routing) and link
 *     numbers, and the dragonflies' link numbers, run on from one cluster
 *     of the file to the next (SimGrid's static counters);
 *   - a dragonfly route that changes blade moves to the blade's router of
 *     chassis 0 and, in a chassis other than 0, crosses a black link from
 *     there (DragonflyZone::get_local_route).
 * What SimGrid would read out of its own tables is refused with one line:
 * a dragonfly of more groups than blades per chassis, a fat tree whose
 * routing reaches a missing port.
 *
 * The route between two hosts is a function of the two alone: the layout
 * (sg_build.c) makes an edge between every two hosts.
 */
#define _POSIX_C_SOURCE 200809L
#include "sg.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The most hosts, switches or links a cluster may make (as radicals'). */
#define TOPO_MAX 10000000L

/* A link's two directions: one link, or the cluster's NAME_UP and
 * NAME_DOWN when it is SPLITDUPLEX. */
typedef struct {
    int up, down;
} duplex_t;

typedef struct {
    int id, level, position;
    int limiter;             /* a link, -1 */
    int *label;              /* levels entries */
    int *parents, *children; /* ft_link_t indices, -1 for a port SimGrid leaves empty */
    int nparents, nchildren;
} ft_node_t;

typedef struct {
    int up_node, down_node; /* ft_node_t indices */
    duplex_t link;
} ft_link_t;

typedef struct {
    unsigned group, chassis, blade;
    int limiter;
    int *nodes;         /* [node * nl + 0]: up, [node * nl + nl - 1]: down */
    int *green, *black; /* by blade, by chassis; -1 for its own */
    int blue;
} df_router_t;

struct sg_topo {
    sg_routing_t kind;
    int nhosts;
    int *limiter; /* per host, -1 */
    /* TORUS: the link from host i onwards in dimension j at [i * ndims + j] */
    int ndims;
    unsigned long *dims;
    duplex_t *torus;
    /* FAT_TREE: the hosts are nodes[0 .. nhosts), the switches after them */
    unsigned levels;
    unsigned long *down, *up, *count;
    unsigned long *by_level; /* the nodes of each level, hosts first */
    ft_node_t *nodes;
    int nnodes;
    ft_link_t *links;
    int nlinks;
    /* DRAGONFLY; nl: the links per node and router, 2 for SPLITDUPLEX */
    unsigned long groups, chassis, blades, per_blade, nl;
    unsigned long blue, black, green; /* the links' multiplicities: factors of bw */
    df_router_t *routers;
    int nrouters;
};

void sg_topo_free(sg_topo_t *t)
{
    if (!t)
        return;
    free(t->limiter);
    free(t->dims);
    free(t->torus);
    free(t->down);
    free(t->up);
    free(t->count);
    free(t->by_level);
    for (int i = 0; i < t->nnodes; i++) {
        free(t->nodes[i].label);
        free(t->nodes[i].parents);
        free(t->nodes[i].children);
    }
    free(t->nodes);
    free(t->links);
    for (int i = 0; i < t->nrouters; i++) {
        free(t->routers[i].nodes);
        free(t->routers[i].green);
        free(t->routers[i].black);
    }
    free(t->routers);
    free(t);
}

/* ---- topo_parameters ------------------------------------------------------------ */

/* s[0 .. len) as comma-separated positive integers ("4,4,2", each at most
 * TOPO_MAX) into a new array of *n; false when malformed. */
static bool uints(const char *s, size_t len, unsigned long **out, int *n)
{
    int cap = 0;
    *out = NULL;
    *n = 0;
    for (size_t i = 0; i <= len;) {
        unsigned long v = 0;
        size_t start = i;
        while (i < len && s[i] >= '0' && s[i] <= '9' && v <= (unsigned long)TOPO_MAX)
            v = 10 * v + (unsigned long)(s[i++] - '0');
        if (i == start || v == 0 || v > (unsigned long)TOPO_MAX || (i < len && s[i] != ',')) {
            free(*out);
            *out = NULL;
            return false;
        }
        if (*n == cap) {
            cap = cap ? 2 * cap : 4;
            unsigned long *nn = realloc(*out, (size_t)cap * sizeof *nn);
            if (!nn) {
                free(*out);
                *out = NULL;
                return false;
            }
            *out = nn;
        }
        (*out)[(*n)++] = v;
        i++; /* the comma, or past the end */
    }
    return true;
}

/* The fields of topo_parameters separated by ';' (at most max): their
 * starts and lengths. */
static int fields(const char *s, const char **start, size_t *len, int max)
{
    int n = 0;
    for (;;) {
        const char *e = strchr(s, ';');
        if (n < max) {
            start[n] = s;
            len[n] = e ? (size_t)(e - s) : strlen(s);
        }
        n++;
        if (!e)
            return n;
        s = e + 1;
    }
}

static steady_err_t bad_params(sg_t *g, xmlNodePtr node, const sg_cluster_t *c, const char *want)
{
    return xml_error(g->err, STEADY_EPARSE, g->origin, node,
                     "bad topo_parameters in <cluster> (%s): a %s cluster takes %s", c->params,
                     c->topology, want);
}

/* The product of v, or 0 past TOPO_MAX. */
static unsigned long product(const unsigned long *v, int n)
{
    unsigned long p = 1;
    for (int i = 0; i < n; i++) {
        if (v[i] > (unsigned long)TOPO_MAX / p)
            return 0;
        p *= v[i];
    }
    return p;
}

static steady_err_t too_large(sg_t *g, xmlNodePtr node, const sg_cluster_t *c, const char *what)
{
    return xml_error(g->err, STEADY_EINVAL, g->origin, node,
                     "topo_parameters in <cluster> (%s) make more than 10^7 %s", c->params, what);
}

/* A fat tree's nodes per level (the hosts, then the switches of each
 * level: generate_switches) into t->by_level, refused when it would take
 * more than TOPO_MAX labels or links. */
static steady_err_t ft_levels(sg_t *g, xmlNodePtr node, const sg_cluster_t *c, sg_topo_t *t,
                              unsigned long hosts)
{
    unsigned L = t->levels;
    unsigned long *by_level = calloc(L + 1, sizeof *by_level), total = hosts;
    if (!by_level)
        return sg_oom(g);
    t->by_level = by_level;
    by_level[0] = hosts;
    for (unsigned i = 0; i < L; i++) {
        unsigned long n = 1;
        for (unsigned j = 0; j < L; j++) {
            unsigned long f = j <= i ? t->up[j] : t->down[j];
            n = f > (unsigned long)TOPO_MAX / n ? (unsigned long)TOPO_MAX + 1 : n * f;
        }
        by_level[i + 1] = n;
        total += n;
    }
    /* the links: each node below the top, count[i] to each of its up[i]
     * parents (a port at each end) */
    unsigned long nlinks = 0;
    for (unsigned i = 0; i < L && nlinks <= (unsigned long)TOPO_MAX; i++) {
        unsigned long per = t->up[i] * t->count[i];
        nlinks = by_level[i] > (unsigned long)TOPO_MAX / per ? (unsigned long)TOPO_MAX + 1
                                                             : nlinks + by_level[i] * per;
    }
    if (total > (unsigned long)TOPO_MAX / L)
        return too_large(g, node, c, "labels (LEVELS per host and switch)");
    if (nlinks > (unsigned long)TOPO_MAX)
        return too_large(g, node, c, "links");
    return STEADY_OK;
}

static steady_err_t read_params(sg_t *g, xmlNodePtr node, const sg_cluster_t *c, sg_topo_t *t,
                                unsigned long *hosts)
{
    const char *f[4];
    size_t len[4];
    int nf = fields(c->params, f, len, 4), n;
    unsigned long *v[4] = {NULL, NULL, NULL, NULL};
    switch (t->kind) {
    case SG_TORUS:
        if (nf != 1 || !uints(f[0], len[0], &t->dims, &t->ndims))
            return bad_params(g, node, c, "its dimensions, positive integers such as 4,4,2");
        *hosts = product(t->dims, t->ndims);
        break;
    case SG_FAT_TREE: {
        static const char *const want =
            "LEVELS;DOWN;UP;COUNT, the number of levels then, per level, the children of a "
            "switch, the parents of a node and the links between them (2;4,4;1,2;1,2)";
        unsigned long *levels = NULL;
        int nl = 0, nd = 0, nu = 0, nc = 0;
        bool ok = nf == 4 && uints(f[0], len[0], &levels, &nl) && nl == 1 &&
                  uints(f[1], len[1], &t->down, &nd) && uints(f[2], len[2], &t->up, &nu) &&
                  uints(f[3], len[3], &t->count, &nc) && nd == (int)levels[0] &&
                  nu == (int)levels[0] && nc == (int)levels[0];
        t->levels = ok ? (unsigned)levels[0] : 0;
        free(levels);
        if (!ok)
            return bad_params(g, node, c, want);
        *hosts = product(t->down, nd);
        break;
    }
    case SG_DRAGONFLY: {
        static const char *const want =
            "GROUPS,BLUE;CHASSIS,BLACK;BLADES,GREEN;NODES, positive integers (3,4;4,3;5,1;2)";
        bool ok = nf == 4;
        for (int i = 0; i < 4 && ok; i++)
            ok = uints(f[i], len[i], &v[i], &n) && n == (i < 3 ? 2 : 1);
        if (ok) {
            t->groups = v[0][0];
            t->chassis = v[1][0];
            t->blades = v[2][0];
            t->per_blade = v[3][0];
            t->blue = v[0][1];
            t->black = v[1][1];
            t->green = v[2][1];
            unsigned long dims[4] = {t->groups, t->chassis, t->blades, t->per_blade};
            *hosts = product(dims, 4);
        }
        for (int i = 0; i < 4; i++)
            free(v[i]);
        if (!ok)
            return bad_params(g, node, c, want);
        if (t->groups > t->blades)
            return xml_error(g->err, STEADY_EUNSUPPORTED, g->origin, node,
                             "DRAGONFLY <cluster> (%s) of more groups (%lu) than blades per "
                             "chassis (%lu): SimGrid 3.32 routes to group k through blade k of a "
                             "chassis, and would read outside its tables",
                             c->id, t->groups, t->blades);
        break;
    }
    default: break;
    }
    if (*hosts == 0)
        return too_large(g, node, c, "hosts");
    if (t->kind == SG_TORUS && (unsigned long)t->ndims > (unsigned long)TOPO_MAX / *hosts)
        return too_large(g, node, c, "links");
    return t->kind == SG_FAT_TREE ? ft_levels(g, node, c, t, *hosts) : STEADY_OK;
}

/* ---- links ----------------------------------------------------------------------- */

/* A link of the cluster named after fmt, of bandwidth bw: one, or NAME_UP
 * and NAME_DOWN for a SPLITDUPLEX cluster; SHARED, as SimGrid's
 * create_link makes them. */
static steady_err_t add_duplex(sg_t *g, xmlNodePtr node, const sg_cluster_t *c, double bw,
                               duplex_t *out, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static steady_err_t add_duplex(sg_t *g, xmlNodePtr node, const sg_cluster_t *c, double bw,
                               duplex_t *out, const char *fmt, ...)
{
    char name[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(name, sizeof name - 8, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof name - 8)
        return xml_error(g->err, STEADY_EINVAL, g->origin, node,
                         "<cluster> id too long (%s): its link names pass 500 characters", c->id);
    if (c->sharing == STEADY_SPLITDUPLEX) {
        strcpy(name + n, "_UP");
        out->up = sg_add_link(g, node, name, bw, c->lat, STEADY_SHARED);
        strcpy(name + n, "_DOWN");
        out->down = out->up < 0 ? -1 : sg_add_link(g, node, name, bw, c->lat, STEADY_SHARED);
    } else {
        out->up = out->down = sg_add_link(g, node, name, bw, c->lat, STEADY_SHARED);
    }
    return out->down < 0 ? (g->err ? g->err->code : STEADY_EINVAL) : STEADY_OK;
}

/* The limiter of host or switch `id`, as sg_platf_cluster_create_limiter
 * names it; -1 when the cluster has none. */
static steady_err_t add_limiter(sg_t *g, xmlNodePtr node, const sg_cluster_t *c, long id, int *out)
{
    *out = -1;
    if (c->limiter <= 0)
        return STEADY_OK;
    char name[512];
    int n = snprintf(name, sizeof name, "%s_link_%ld_limiter", c->id, id);
    if (n < 0 || (size_t)n >= sizeof name)
        return xml_error(g->err, STEADY_EINVAL, g->origin, node,
                         "<cluster> id too long (%s): its link names pass 500 characters", c->id);
    *out = sg_add_link(g, node, name, c->limiter, 0, STEADY_SHARED);
    return *out < 0 ? (g->err ? g->err->code : STEADY_EINVAL) : STEADY_OK;
}

/* ---- TORUS (TorusZone.cpp) ------------------------------------------------------------ */

/* Host i's links to its next neighbour in each dimension
 * (create_torus_links). */
static steady_err_t torus_links(sg_t *g, xmlNodePtr node, const sg_cluster_t *c, sg_topo_t *t,
                                unsigned long i)
{
    unsigned long prod = 1;
    steady_err_t rc = STEADY_OK;
    for (int j = 0; j < t->ndims && !rc; j++) {
        unsigned long d = t->dims[j];
        unsigned long next = (i / prod) % d == d - 1 ? i - (d - 1) * prod : i + prod;
        rc = add_duplex(g, node, c, c->bw, &t->torus[i * (unsigned long)t->ndims + (unsigned)j],
                        "%s_link_from_%lu_to_%lu", c->id, i, next);
        prod *= d;
    }
    return rc;
}

/* Dimension-ordered: the first dimension where the current host and the
 * destination differ, rightwards when the destination lies within half a
 * ring to the right of the source (TorusZone::get_local_route). */
static steady_err_t torus_route(sg_t *g, const sg_topo_t *t, unsigned long src, unsigned long dst,
                                sg_list_t *out)
{
    unsigned long cur = src;
    while (cur != dst) {
        unsigned long prod = 1, next = cur;
        int link = -1;
        for (int j = 0; j < t->ndims; j++) {
            unsigned long d = t->dims[j], my = (src / prod) % d, to = (dst / prod) % d;
            if ((cur / prod) % d != to) {
                if ((to > my && to <= my + d / 2) || (my > d / 2 && (my + d / 2) % d >= to)) {
                    next = (cur / prod) % d == d - 1 ? cur + prod - prod * d : cur + prod;
                    link = t->torus[cur * (unsigned long)t->ndims + (unsigned)j].up;
                } else {
                    next = (cur / prod) % d == 0 ? cur - prod + prod * d : cur - prod;
                    link = t->torus[next * (unsigned long)t->ndims + (unsigned)j].down;
                }
                break;
            }
            prod *= d;
        }
        if ((t->limiter[cur] >= 0 &&
             !sg_list_push(out, (sg_use_t){t->limiter[cur], false, false})) ||
            !sg_list_push(out, (sg_use_t){link, false, false}))
            return sg_oom(g);
        cur = next;
    }
    if (t->limiter[dst] >= 0 && !sg_list_push(out, (sg_use_t){t->limiter[dst], false, false}))
        return sg_oom(g);
    return STEADY_OK;
}

/* ---- FAT_TREE (FatTreeZone.cpp) ------------------------------------------------------- */

static bool ft_node_init(ft_node_t *n, int id, int level, int position, int limiter,
                         unsigned levels, unsigned long nparents, unsigned long nchildren)
{
    *n = (ft_node_t){.id = id,
                     .level = level,
                     .position = position,
                     .limiter = limiter,
                     .nparents = (int)nparents,
                     .nchildren = (int)nchildren};
    n->label = calloc(levels, sizeof *n->label);
    n->parents = malloc((nparents ? nparents : 1) * sizeof *n->parents);
    n->children = malloc((nchildren ? nchildren : 1) * sizeof *n->children);
    if (!n->label || !n->parents || !n->children)
        return false;
    for (unsigned long i = 0; i < nparents; i++)
        n->parents[i] = -1;
    for (unsigned long i = 0; i < nchildren; i++)
        n->children[i] = -1;
    return true;
}

/* The switches, their labels and the links (build_upper_levels). */
static steady_err_t ft_upper_levels(sg_t *g, xmlNodePtr node, const sg_cluster_t *c, sg_topo_t *t)
{
    unsigned L = t->levels;
    const unsigned long *by_level = t->by_level;
    unsigned long total = 0;
    for (unsigned i = 0; i <= L; i++)
        total += by_level[i];
    steady_err_t rc = STEADY_OK;
    ft_node_t *nodes = realloc(t->nodes, total * sizeof *nodes);
    if (!nodes)
        return sg_oom(g);
    t->nodes = nodes;
    /* generate_switches: ids from 2 * hosts down */
    long k = 2L * t->nhosts;
    for (unsigned i = 0; i < L && !rc; i++)
        for (unsigned long j = 0; j < by_level[i + 1] && !rc; j++) {
            int limiter;
            k--;
            if ((rc = add_limiter(g, node, c, k, &limiter)))
                break;
            if (!ft_node_init(&t->nodes[t->nnodes], (int)k, (int)i + 1, (int)j, limiter, L,
                              i + 1 < L ? t->up[i + 1] * t->count[i + 1] : 0,
                              t->down[i] * t->count[i]))
                rc = sg_oom(g);
            t->nnodes++;
        }
    /* generate_labels: each level's nodes counted in mixed radix, the
     * children counts below the level, the parent counts above */
    unsigned long *cur = calloc(L, sizeof *cur);
    if (!rc && !cur)
        rc = sg_oom(g);
    for (unsigned i = 0, n = 0; i <= L && !rc; i++) {
        memset(cur, 0, L * sizeof *cur);
        for (unsigned long j = 0; j < by_level[i]; j++, n++) {
            for (unsigned l = 0; l < L; l++)
                t->nodes[n].label[l] = (int)cur[l];
            for (unsigned pos = 0; pos < L; pos++) {
                unsigned long max = pos + 1 > i ? t->down[pos] : t->up[pos];
                if (++cur[pos] < max)
                    break;
                cur[pos] = 0;
            }
        }
    }
    free(cur);
    /* connect_node_to_parents, level by level: a node's parents are the
     * nodes of the level above whose labels differ from its own at most
     * at its level's index, in the level's order (mixed radix, index 0
     * fastest: w[j] the weight of index j) */
    int caplinks = 0;
    unsigned long *w = calloc(L, sizeof *w);
    if (!rc && !w)
        rc = sg_oom(g);
    for (unsigned i = 0, n = 0, first_parent = (unsigned)by_level[0]; i < L && !rc; i++) {
        for (unsigned j = 0, weight = 1; j < L; j++) {
            w[j] = weight;
            weight *= (unsigned)(j + 1 > i + 1 ? t->down[j] : t->up[j]);
        }
        for (unsigned long j = 0; j < by_level[i] && !rc; j++, n++) {
            ft_node_t *child = &t->nodes[n];
            unsigned long base = 0;
            for (unsigned l = 0; l < L; l++)
                base += l == i ? 0 : (unsigned long)child->label[l] * w[l];
            for (unsigned long u = 0; u < t->up[i] && !rc; u++) {
                unsigned long p = first_parent + base + u * w[i];
                ft_node_t *parent = &t->nodes[p];
                for (unsigned long m = 0; m < t->count[i] && !rc; m++) {
                    unsigned long pport = (unsigned long)child->label[i] + m * t->down[i],
                                  cport = (unsigned long)parent->label[i] + m * t->up[i];
                    if (t->nlinks == caplinks) {
                        caplinks = caplinks ? 2 * caplinks : 64;
                        ft_link_t *links = realloc(t->links, (size_t)caplinks * sizeof *links);
                        if (!links) {
                            rc = sg_oom(g);
                            break;
                        }
                        t->links = links;
                    }
                    ft_link_t *lk = &t->links[t->nlinks];
                    *lk = (ft_link_t){.up_node = (int)p, .down_node = (int)n};
                    if ((rc = add_duplex(g, node, c, c->bw, &lk->link, "link_from_%d_%d_%ld",
                                         child->id, parent->id, g->fat_tree_links++)))
                        break;
                    parent->children[pport] = t->nlinks;
                    child->parents[cport] = t->nlinks;
                    t->nlinks++;
                }
            }
        }
        first_parent += (unsigned)by_level[i + 1];
    }
    free(w);
    return rc;
}

static bool ft_in_subtree(const sg_topo_t *t, const ft_node_t *root, const ft_node_t *n)
{
    if (root->level <= n->level)
        return false;
    for (int i = 0; i < n->level; i++)
        if (root->label[i] != n->label[i])
            return false;
    for (unsigned i = (unsigned)root->level; i < t->levels; i++)
        if (root->label[i] != n->label[i])
            return false;
    return true;
}

static steady_err_t ft_missing(sg_t *g, const sg_zone_t *z, const ft_node_t *at)
{
    return steady_error_set(g->err, STEADY_EUNSUPPORTED,
                            "%s:%ld: FAT_TREE <cluster> (%s): SimGrid's route leaves switch %d "
                            "by a port its topo_parameters leave unconnected",
                            g->origin, z->line, z->id, at->id);
}

/* Up by d-mod-k to the first common ancestor, then down
 * (FatTreeZone::get_local_route, its loop down included: it goes on
 * scanning the next switch's ports from where it was). */
static steady_err_t ft_route(sg_t *g, const sg_zone_t *z, int src, int dst, sg_list_t *out)
{
    const sg_topo_t *t = z->topo;
    const ft_node_t *s = &t->nodes[src], *d = &t->nodes[dst], *cur = s;
    while (!ft_in_subtree(t, cur, d)) {
        if ((unsigned)cur->level >= t->levels)
            return ft_missing(g, z, cur);
        long p = d->position;
        for (int i = 0; i < cur->level; i++)
            p /= (long)t->up[i];
        p %= (long)(t->up[cur->level] * t->count[cur->level]);
        int lk = p < cur->nparents ? cur->parents[p] : -1;
        if (lk < 0)
            return ft_missing(g, z, cur);
        if ((cur->limiter >= 0 && !sg_list_push(out, (sg_use_t){cur->limiter, false, false})) ||
            !sg_list_push(out, (sg_use_t){t->links[lk].link.up, false, false}))
            return sg_oom(g);
        cur = &t->nodes[t->links[lk].up_node];
    }
    while (cur != d) {
        if (cur->level == 0)
            return ft_missing(g, z, cur);
        bool moved = false;
        unsigned long k = (unsigned long)s->position % t->count[cur->level - 1];
        for (unsigned long i = k * t->down[cur->level - 1]; i < (unsigned long)cur->nchildren;
             i++) {
            if (i % t->down[cur->level - 1] != (unsigned long)d->label[cur->level - 1])
                continue;
            int lk = cur->children[i];
            if (lk < 0)
                return ft_missing(g, z, cur);
            if (!sg_list_push(out, (sg_use_t){t->links[lk].link.down, false, false}) ||
                (cur->limiter >= 0 && !sg_list_push(out, (sg_use_t){cur->limiter, false, false})))
                return sg_oom(g);
            cur = &t->nodes[t->links[lk].down_node];
            moved = true;
        }
        if (!moved)
            return ft_missing(g, z, cur);
    }
    if (cur->limiter >= 0 && !sg_list_push(out, (sg_use_t){cur->limiter, false, false}))
        return sg_oom(g);
    return STEADY_OK;
}

/* ---- DRAGONFLY (DragonflyZone.cpp) ------------------------------------------------------ */

static df_router_t *df_router(const sg_topo_t *t, unsigned long group, unsigned long chassis,
                              unsigned long blade)
{
    return &t->routers[(group * t->chassis + chassis) * t->blades + blade];
}

/* The routers (generate_routers) and their links (generate_links). */
static steady_err_t df_upper_levels(sg_t *g, xmlNodePtr node, const sg_cluster_t *c, sg_topo_t *t)
{
    /* hosts <= 10^7 bounds every count below: no overflow */
    unsigned long G = t->groups, C = t->chassis, B = t->blades, R = G * C * B;
    unsigned long ports = R * (B + C + t->nl * t->per_blade);
    unsigned long links =
        R * t->per_blade + G * C * B * (B - 1) / 2 + G * B * C * (C - 1) / 2 + G * (G - 1) / 2;
    if (ports > (unsigned long)TOPO_MAX || links > (unsigned long)TOPO_MAX)
        return too_large(g, node, c, ports > (unsigned long)TOPO_MAX ? "router ports" : "links");
    if (!(t->routers = calloc(R, sizeof *t->routers)))
        return sg_oom(g);
    steady_err_t rc = STEADY_OK;
    long id = 2L * t->nhosts;
    for (unsigned long r = 0; r < R && !rc; r++) {
        df_router_t *x = &t->routers[r];
        t->nrouters++;
        *x = (df_router_t){.group = (unsigned)(r / (t->chassis * t->blades)),
                           .chassis = (unsigned)(r / t->blades % t->chassis),
                           .blade = (unsigned)(r % t->blades),
                           .blue = -1};
        x->nodes = malloc(t->nl * t->per_blade * sizeof *x->nodes);
        x->green = malloc(t->blades * sizeof *x->green);
        x->black = malloc(t->chassis * sizeof *x->black);
        if (!x->nodes || !x->green || !x->black)
            rc = sg_oom(g);
        else {
            for (unsigned long i = 0; i < t->blades; i++)
                x->green[i] = -1;
            for (unsigned long i = 0; i < t->chassis; i++)
                x->black[i] = -1;
            rc = add_limiter(g, node, c, c->limiter > 0 ? --id : 0, &x->limiter);
        }
    }
    duplex_t d;
    for (unsigned long r = 0; r < R && !rc; r++)
        for (unsigned long n = 0; n < t->per_blade && !rc; n++) {
            rc = add_duplex(g, node, c, c->bw, &d, "local_link_from_router_%lu_to_node_%lu_%ld", r,
                            n, g->dragonfly_links++);
            t->routers[r].nodes[n * t->nl] = d.up;
            t->routers[r].nodes[n * t->nl + t->nl - 1] = d.down;
        }
    for (unsigned long i = 0; i < t->groups * t->chassis && !rc; i++)
        for (unsigned long j = 0; j < t->blades && !rc; j++)
            for (unsigned long k = j + 1; k < t->blades && !rc; k++) {
                rc = add_duplex(g, node, c, c->bw * (double)t->green, &d,
                                "green_link_in_chassis_%lu_between_routers_%lu_and_%lu_%ld",
                                i % t->chassis, j, k, g->dragonfly_links++);
                t->routers[i * t->blades + j].green[k] = d.up;
                t->routers[i * t->blades + k].green[j] = d.down;
            }
    for (unsigned long i = 0; i < t->groups && !rc; i++)
        for (unsigned long j = 0; j < t->chassis && !rc; j++)
            for (unsigned long k = j + 1; k < t->chassis && !rc; k++)
                for (unsigned long l = 0; l < t->blades && !rc; l++) {
                    rc = add_duplex(
                        g, node, c, c->bw * (double)t->black, &d,
                        "black_link_in_group_%lu_between_chassis_%lu_and_%lu_blade_%lu_%ld", i, j,
                        k, l, g->dragonfly_links++);
                    df_router(t, i, j, l)->black[k] = d.up;
                    df_router(t, i, k, l)->black[j] = d.down;
                }
    /* blue: blade-and-chassis index j of group i joins group j */
    for (unsigned long i = 0; i < t->groups && !rc; i++)
        for (unsigned long j = i + 1; j < t->groups && !rc; j++) {
            unsigned long ri = i * t->blades * t->chassis + j, rj = j * t->blades * t->chassis + i;
            rc = add_duplex(g, node, c, c->bw * (double)t->blue, &d,
                            "blue_link_between_group_%lu_and_%lu_routers_%lu_and_%lu_%ld", i, j, ri,
                            rj, g->dragonfly_links++);
            t->routers[ri].blue = d.up;
            t->routers[rj].blue = d.down;
        }
    return rc;
}

/* Minimal routing (DragonflyZone::get_local_route), each router's limiter
 * before the link that leaves it (after it, for the blue link). */
static steady_err_t df_route(sg_t *g, const sg_zone_t *z, unsigned long src, unsigned long dst,
                             sg_list_t *out)
{
    const sg_topo_t *t = z->topo;
    /* rankId_to_coords: group, chassis, blade, node */
    unsigned long per_chassis = t->blades * t->per_blade, per_group = t->chassis * per_chassis;
    unsigned long sgr = src / per_group, sc = src % per_group / per_chassis,
                  sb = src % per_chassis / t->per_blade, sn = src % t->per_blade;
    unsigned long dg = dst / per_group, dc = dst % per_group / per_chassis,
                  db = dst % per_chassis / t->per_blade, dn = dst % t->per_blade;
    const df_router_t *mine = df_router(t, sgr, sc, sb), *target = df_router(t, dg, dc, db),
                      *cur = mine;
    int hops[16], nh = 0;
#define HOP(l) (hops[nh++] = (l))
    if (t->limiter[src] >= 0)
        HOP(t->limiter[src]);
    HOP(mine->nodes[sn * t->nl]);
    if (target != mine) {
        if (target->group != cur->group) {
            if (cur->blade != dg) {
                if (cur->limiter >= 0)
                    HOP(cur->limiter);
                HOP(cur->green[dg]);
                cur = df_router(t, sgr, sc, dg);
            }
            if (cur->chassis != 0) {
                if (cur->limiter >= 0)
                    HOP(cur->limiter);
                HOP(cur->black[0]);
                cur = df_router(t, sgr, 0, dg);
            }
            HOP(cur->blue);
            if (cur->limiter >= 0)
                HOP(cur->limiter);
            cur = df_router(t, dg, 0, sgr);
        }
        if (target->blade != cur->blade) {
            if (cur->limiter >= 0)
                HOP(cur->limiter);
            HOP(cur->green[db]);
            cur = df_router(t, dg, 0, db);
        }
        if (target->chassis != cur->chassis) {
            if (cur->limiter >= 0)
                HOP(cur->limiter);
            HOP(cur->black[dc]);
        }
    }
    if (target->limiter >= 0)
        HOP(target->limiter);
    HOP(target->nodes[dn * t->nl + t->nl - 1]);
    if (t->limiter[dst] >= 0)
        HOP(t->limiter[dst]);
#undef HOP
    for (int i = 0; i < nh; i++) {
        if (hops[i] < 0)
            return steady_error_set(g->err, STEADY_EINTERNAL,
                                    "%s:%ld: DRAGONFLY <cluster> (%s): a route through a link "
                                    "SimGrid does not make (a bug)",
                                    g->origin, z->line, z->id);
        if (!sg_list_push(out, (sg_use_t){hops[i], false, false}))
            return sg_oom(g);
    }
    return STEADY_OK;
}

/* ---- the cluster ------------------------------------------------------------------------ */

steady_err_t sg_topo_build(sg_t *g, xmlNodePtr node, int z, const sg_cluster_t *c)
{
    sg_topo_t *t = calloc(1, sizeof *t);
    if (!t)
        return sg_oom(g);
    g->zones[z].topo = t;
    t->kind = g->zones[z].routing;
    unsigned long hosts = 0;
    steady_err_t rc = read_params(g, node, c, t, &hosts);
    if (rc)
        return rc;
    if (hosts != (unsigned long)c->nrad)
        return xml_error(g->err, STEADY_EINVAL, g->origin, node,
                         "radical in <cluster> (%s) names %d hosts, but a %s of topo_parameters "
                         "%s has %lu",
                         c->radical, c->nrad, c->topology, c->params, hosts);
    t->nhosts = c->nrad;
    t->nl = c->sharing == STEADY_SPLITDUPLEX ? 2 : 1;
    if (!(t->limiter = malloc(hosts * sizeof *t->limiter)) ||
        (t->kind == SG_TORUS &&
         !(t->torus = malloc(hosts * (unsigned long)t->ndims * sizeof *t->torus))) ||
        (t->kind == SG_FAT_TREE && !(t->nodes = malloc(hosts * sizeof *t->nodes))))
        return sg_oom(g);
    size_t cap = strlen(c->prefix) + strlen(c->suffix) + 32;
    char *name = malloc(cap);
    if (!name)
        return sg_oom(g);
    for (unsigned long i = 0; i < hosts && !rc; i++) {
        snprintf(name, cap, "%s%ld%s", c->prefix, c->rad[i], c->suffix);
        int v = sg_add_np(g, node, name, SG_HOST, z);
        if (v < 0) {
            rc = g->err ? g->err->code : STEADY_EINVAL;
            break;
        }
        g->np[v].speed = c->speed;
        if ((rc = add_limiter(g, node, c, (long)i, &t->limiter[i])))
            break;
        if (t->kind == SG_TORUS)
            rc = torus_links(g, node, c, t, i);
        else if (t->kind == SG_FAT_TREE) {
            /* add_processing_node: positions run on across the file */
            if (!ft_node_init(&t->nodes[i], (int)i, 0, g->fat_tree_positions++, t->limiter[i],
                              t->levels, t->up[0] * t->count[0], 0))
                rc = sg_oom(g);
            t->nnodes++;
        }
    }
    free(name);
    if (!rc && t->kind == SG_FAT_TREE)
        rc = ft_upper_levels(g, node, c, t);
    if (!rc && t->kind == SG_DRAGONFLY)
        rc = df_upper_levels(g, node, c, t);
    return rc;
}

steady_err_t sg_topo_route(sg_t *g, const sg_zone_t *z, int va, int vb, sg_list_t *out)
{
    switch (z->routing) {
    case SG_TORUS: return torus_route(g, z->topo, (unsigned long)va, (unsigned long)vb, out);
    case SG_FAT_TREE: return ft_route(g, z, va, vb, out);
    case SG_DRAGONFLY: return df_route(g, z, (unsigned long)va, (unsigned long)vb, out);
    default:
        return steady_error_set(g->err, STEADY_EINTERNAL, "%s: zone %s is no cluster (a bug)",
                                g->origin, z->id);
    }
}
