/*
 * platform/sg.h — the SimGrid platform reader's model of a file (not
 * installed): zones, netpoints (hosts, routers, zones), links and routes as
 * SimGrid 3.x builds them (sg_read.c), SimGrid's routing over them
 * (sg_route.c), and the steady platform made from that (sg_build.c).
 *
 * Why a model of SimGrid's own, rather than steady's graph directly: a
 * message between two hosts crosses the links of SimGrid's route between
 * them, which SimGrid computes — a cluster's star of private links and
 * backbone, the shortest path of a Floyd or Dijkstra zone, the gateways
 * and zone routes of nested zones.  The reader reproduces those routes
 * exactly (sg_route.c follows SimGrid's NetZoneImpl::get_global_route and
 * each zone kind's get_local_route), then lays them out as steady edges
 * that cross the links as channels (sg_build.c).
 */
#ifndef STEADY_PLATFORM_SG_H
#define STEADY_PLATFORM_SG_H

#include "internal.h"

#include "../common/strmap.h"

typedef struct {
    char *id;                  /* in sg_t.strings */
    double bandwidth, latency; /* B/s, s */
    /* the steady_cost / steady_overhead / steady_recv_factor /
     * steady_penalty props of steady's exports */
    double cost, overhead, recv_factor, penalty;
    long line;
    steady_sharing_t sharing;
    int channel; /* the steady channel made of it, -1 until an edge crosses it */
    bool has_cost, has_overhead, has_recv_factor, has_penalty;
    bool channel_prop;    /* the steady_channel prop of steady's exports */
    bool completion_prop; /* steady_completion: the routes it starts are not edges */
} sg_link_t;

/* The names of links and netpoints, one after the other in blocks that
 * never move (a million names cost no million mallocs). */
typedef struct sg_block {
    struct sg_block *next;
    size_t used, size;
    char data[];
} sg_block_t;

/* One link of a route, in a direction (down: the DOWN half of a
 * SPLITDUPLEX link; false for every other link).  `half`: the route names
 * the half itself (LINK_UP, LINK_DOWN), which SimGrid then treats as a
 * link of its own: the way back of a symmetrical route keeps it. */
typedef struct {
    int link;
    bool down, half;
} sg_use_t;

/* A route: its links in order, and the latency it adds to theirs (a
 * Vivaldi zone's distance between its ends; 0 elsewhere). */
typedef struct {
    sg_use_t *v;
    int n, cap;
    double latency;
} sg_list_t;

typedef enum { SG_HOST, SG_ROUTER, SG_ZONE } sg_kind_t;

typedef struct {
    char *name; /* in sg_t.strings */
    sg_kind_t kind;
    int zone; /* the zone it is a vertex of; -1 for the root zone's own netpoint */
    int vid;  /* its index among that zone's vertices */
    int sub;  /* SG_ZONE: the zone it stands for */
    double speed;
    bool steady_router; /* a host with the steady_kind=router prop */
    long line;
    int node;  /* the steady node of a host (or of a router in steady's exports), -1 */
    int xnode; /* a star's router: the star's centre switch, -1 */
} sg_np_t;

/* SG_TORUS, SG_FAT_TREE, SG_DRAGONFLY: the <cluster>s of those topologies */
typedef enum {
    SG_FULL,
    SG_FLOYD,
    SG_DIJKSTRA,
    SG_STAR,
    SG_TORUS,
    SG_FAT_TREE,
    SG_DRAGONFLY
} sg_routing_t;

/* A cluster's topology: its switches, links and routing (sg_topo.c). */
typedef struct sg_topo sg_topo_t;

typedef struct {
    int src, dst;       /* vertices' netpoints */
    int gw_src, gw_dst; /* zone routes: the gateways' netpoints; -1 otherwise */
    sg_list_t links;
    long line;
} sg_route_t;

typedef struct {
    char *id;
    sg_routing_t routing;
    bool cached; /* DijkstraCache: the same routes */
    bool empty;  /* routing="None": no route may be declared */
    bool edges;  /* steady's export: each route is one edge (the steady_routes prop) */
    int parent;  /* -1 for the root */
    int np;      /* its netpoint in its parent, -1 for the root */
    long line;
    int *vert; /* its vertices' netpoints, in SimGrid's order */
    int nvert, capvert;
    sg_route_t *routes; /* the declared routes, each direction apart */
    int nroutes, caproutes;
    /* <bypassRoute>s and <bypassZoneRoute>s between two of its vertices,
     * which replace its route between them (sg_local_route); indexed by
     * "SRC>DST" (netpoints) */
    sg_route_t *bypass;
    int nbypass, capbypass;
    strmap_t bypass_index;
    bool has_zones; /* its vertices are zones (and zone routes) */
    /* star (a <cluster>, or routing="Cluster"): each vertex's links up to
     * the star's centre and down from it */
    sg_list_t *up, *down;
    /* routing="Vivaldi": a star whose vertices' links are their <peer>
     * links, and whose routes add the distance between their ends' Vivaldi
     * coordinates to the latency (sg_vivaldi_latency): per vertex x, y and
     * height, in ms; NULL in other zones */
    bool vivaldi;
    double *coords;
    int router;   /* a cluster's router netpoint, -1 */
    int backbone; /* routing="Cluster": its <backbone> link, -1 */
    /* the declared routes by source vertex, each source's by destination
     * vertex (then in declaration order): those from vertex a are
     * byvert[bystart[a] .. bystart[a + 1]) (Full's routing table, sparse) */
    int *bystart, *byvert;
    /* Floyd's tables, per pair of vertices [a * nvert + b]: the direct
     * route, the predecessor and the cost (not made in a steady_routes=edges
     * zone, whose routes are its edges) */
    int *table;
    int *pred;
    unsigned long *cost;
    /* Dijkstra: the graph's nodes in SimGrid's order (by first use in a
     * route) and each node's out-routes in declaration order */
    int *gnode; /* vid -> graph node, -1 */
    int *gvid;  /* graph node -> vid */
    int ngnode;
    int *gout_start, *gout; /* routes leaving graph node g */
    sg_topo_t *topo;        /* a TORUS, FAT_TREE or DRAGONFLY cluster's, NULL */
} sg_zone_t;

typedef struct {
    const char *origin;
    steady_platform_t *p;
    steady_error_t *err;
    sg_link_t *links;
    int nlinks, caplinks;
    strmap_t link_index; /* id -> index */
    sg_np_t *np;
    int nnp, capnp;
    strmap_t np_index; /* name -> index */
    sg_zone_t *zones;
    int nzones, capzones;
    sg_block_t *strings;         /* the block in use; earlier ones follow */
    steady_progress_fn progress; /* may be NULL */
    void *progress_ctx;
    /* how flows share links (sg_config.c): <config>'s network/model (its
     * default weight-S; other: not one that shares by penalty) and
     * network/weight-S; steady's exports of a platform whose flows share
     * fairly say so (steady_flows=fair, a zone prop) */
    bool has_model, model_other, has_weight_s, flows_fair;
    double model_weight_s, weight_s;
    /* SimGrid's static counters, which run on from one cluster of the file
     * to the next: the fat trees' host positions and link numbers, the
     * dragonflies' link numbers */
    int fat_tree_positions;
    long fat_tree_links, dragonfly_links;
} sg_t;

static inline steady_err_t sg_oom(sg_t *g)
{
    return steady_error_set(g->err, STEADY_ENOMEM, "out of memory");
}

static inline const char *sg_element_name(xmlNodePtr node)
{
    return (const char *)node->name;
}

/* ---- reading elements (sg_read.c), shared with the stars (sg_cluster.c) ------ */

/* An element that has no place under parent: unsupported by steady
 * (with the reason), misplaced, or not SimGrid's. */
steady_err_t sg_bad_element(sg_t *g, xmlNodePtr node, xmlNodePtr parent);
/* "unknown attribute in <host> (x): expected ..." unless every attribute
 * of node is in `allowed` (comma-separated, quoted in the message). */
steady_err_t sg_check_attrs(sg_t *g, xmlNodePtr node, const char *allowed);
/* A required attribute into *out (caller xmlFrees), or the message. */
steady_err_t sg_need_attr(sg_t *g, xmlNodePtr node, const char *name, char **out);
/* A quantity with SimGrid units under the model's range rule for field. */
steady_err_t sg_quantity(sg_t *g, xmlNodePtr node, const char *text, unit_kind_t kind,
                         const char *field, double *out);
/* An optional attribute's quantity (unchanged when absent or empty). */
steady_err_t sg_opt_quantity(sg_t *g, xmlNodePtr node, const char *attr, unit_kind_t kind,
                             const char *field, double *out, bool *given);
/* "unsupported attribute ..." when attr (a trace file) is given. */
steady_err_t sg_no_profile(sg_t *g, xmlNodePtr node, const char *attr);
/* SimGrid's sharing policies; cluster_bb: a cluster's backbone's. */
steady_err_t sg_sharing_policy(sg_t *g, xmlNodePtr node, const char *attr, const char *deflt,
                               bool cluster_bb, steady_sharing_t *out);
/* A host's speed: the running pstate's of the list, every entry checked. */
steady_err_t sg_speed_list(sg_t *g, xmlNodePtr node, const char *speeds, long pstate,
                           double *speed);
/* Calls fn for each <prop> child (fn may be NULL); any other child is an
 * error. */
typedef steady_err_t (*sg_prop_fn)(sg_t *g, void *ctx, const char *id, const char *value,
                                   xmlNodePtr prop);
steady_err_t sg_read_props(sg_t *g, xmlNodePtr node, sg_prop_fn fn, void *ctx);
/* New links, netpoints (vertices of zone z) and zones: their index, or -1
 * with the message (a duplicate name, out of memory). */
int sg_add_link(sg_t *g, xmlNodePtr node, const char *id, double bw, double lat,
                steady_sharing_t sharing);
int sg_add_np(sg_t *g, xmlNodePtr node, const char *name, sg_kind_t kind, int z);
int sg_add_zone(sg_t *g, xmlNodePtr node, const char *id, sg_routing_t routing, int parent);
/* The netpoint named name, or -1; the link (or SPLITDUPLEX half) named
 * name. */
int sg_find_np(const sg_t *g, const char *name);
bool sg_find_link(const sg_t *g, const char *name, sg_use_t *out);
/* fwd's links reversed, the other half of SPLITDUPLEX ones, onto back. */
bool sg_reverse_list(const sg_t *g, const sg_list_t *fwd, sg_list_t *back);

/* ---- routes (sg_read_route.c) ------------------------------------------------ */

/* A <route> (zone false) or <zoneRoute> in zone z, and its way back when
 * symmetrical. */
steady_err_t sg_read_route(sg_t *g, xmlNodePtr node, int z, bool zone);
/* A <bypassRoute> (zone false) or <bypassZoneRoute> (<bypassASroute>) in
 * zone z, between two of its vertices. */
steady_err_t sg_read_bypass(sg_t *g, xmlNodePtr node, int z, bool zone);
/* Zone z's bypass route from vertex netpoint a to vertex netpoint b, or -1. */
int sg_bypass_of(const sg_zone_t *z, int a, int b);

/* ---- stars (sg_cluster.c) ----------------------------------------------------- */

/* <cluster> in zone parent (-1: the top level), <host_link> and <cabinet>
 * in a Cluster zone z, and that zone's backbone once it is read. */
steady_err_t sg_read_cluster(sg_t *g, xmlNodePtr node, int parent);
steady_err_t sg_read_host_link(sg_t *g, xmlNodePtr node, int z);
steady_err_t sg_read_cabinet(sg_t *g, xmlNodePtr node, int z);
steady_err_t sg_star_backbone(sg_t *g, int z);
/* <peer> in a Vivaldi zone z: a host with a link up (bw_out) and a link
 * down (bw_in) of its own; and the Vivaldi coordinates of vertex v of z
 * from a host's or peer's coordinates attribute (sg_vivaldi.c). */
steady_err_t sg_read_peer(sg_t *g, xmlNodePtr node, int z);
steady_err_t sg_vivaldi_coords(sg_t *g, xmlNodePtr node, int z, int v);
/* SimGrid's latency between vertices va and vb of Vivaldi zone z, s. */
double sg_vivaldi_latency(const sg_zone_t *z, int va, int vb);

/* ---- clusters of topology TORUS, FAT_TREE, DRAGONFLY (sg_topo.c) ------------------ */

/* A <cluster>'s attributes as sg_read_cluster read them; limiter 0: none. */
typedef struct {
    const char *id, *prefix, *suffix, *radical, *topology, *params;
    const long *rad;
    int nrad;
    double speed, bw, lat, limiter;
    steady_sharing_t sharing;
} sg_cluster_t;

/* The hosts, switches and links of zone z (its routing the topology's),
 * from the cluster's attributes. */
steady_err_t sg_topo_build(sg_t *g, xmlNodePtr node, int z, const sg_cluster_t *c);
/* SimGrid's route in zone z from host va to host vb (vids, va != vb),
 * appended to *out. */
steady_err_t sg_topo_route(sg_t *g, const sg_zone_t *z, int va, int vb, sg_list_t *out);
void sg_topo_free(sg_topo_t *t);

/* ---- lists (sg_route.c) ---------------------------------------------------- */

bool sg_list_push(sg_list_t *l, sg_use_t u);
/* m's links after l's, its latency added to l's. */
bool sg_list_append(sg_list_t *l, const sg_list_t *m);
/* Empty (its memory kept), latency 0. */
void sg_list_clear(sg_list_t *l);
void sg_list_free(sg_list_t *l);

/* ---- routing (sg_route.c) ---------------------------------------------------- */

/* Prepares every zone's routing (Floyd's tables, Dijkstra's graph) once
 * the file is read. */
steady_err_t sg_seal(sg_t *g);

/* The route declared in zone z from vertex va to vertex vb (vids), or -1.
 * O(log routes from va). */
int sg_declared_route(const sg_t *g, const sg_zone_t *z, int va, int vb);

/* SimGrid's route from netpoint src to netpoint dst (hosts or routers):
 * the links in order, appended to *out; *found false (and out unchanged
 * in meaning) when SimGrid has no such route.  An error for what SimGrid
 * would refuse, or out of memory. */
steady_err_t sg_global_route(sg_t *g, int src, int dst, sg_list_t *out, bool *found);

/* A zone's route between two of its vertices (netpoints a and b), as
 * SimGrid's get_local_route, or its bypass route between them: appended to
 * *out, with the gateways of a zone route (-1 otherwise); *found false
 * when there is none. */
steady_err_t sg_local_route(sg_t *g, int zone, int a, int b, sg_list_t *out, int *gw_src,
                            int *gw_dst, bool *found);

/* ---- the steady platform (sg_build.c) ------------------------------------------ */

/* Lays the file's routes out as the platform's nodes, channels and edges. */
steady_err_t sg_build(sg_t *g);

/* ---- <config> (sg_config.c) ------------------------------------------------- */

/* Reads a <config> element's settings into g. */
steady_err_t sg_read_config(sg_t *g, xmlNodePtr node);
/* Sets the platform's flow sharing from what the file said. */
steady_err_t sg_flow_sharing(sg_t *g);

#endif
