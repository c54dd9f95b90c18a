/*
 * sg_cluster.c — SimGrid's stars read into the reader's model (sg.h): a
 * <cluster> of FLAT topology laid out as SimGrid lays it out
 * (sg_platf.cpp: sg_platf_new_cluster_flat), and a zone of routing
 * "Cluster" with its <host_link>, <backbone> and <cabinet> elements.  A
 * <cluster> of another topology is read here and built by sg_topo.c.  The
 * elements' common rules (attributes, quantities, names) are sg_read.c's.
 */
#define _POSIX_C_SOURCE 200809L
#include "sg.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- stars: <cluster>, and routing="Cluster" --------------------------------------- */

/* SimGrid's radicals: "0-7,9,12-15" (explodesRadical). */
static steady_err_t radicals(sg_t *g, xmlNodePtr node, const char *text, long **out, int *n)
{
    *out = NULL;
    *n = 0;
    int cap = 0;
    for (const char *s = text;;) {
        char *end;
        long a = strtol(s, &end, 10), b = a;
        bool ok = end != s && a >= 0 && a <= INT32_MAX;
        if (ok && *end == '-') {
            const char *t = end + 1;
            b = strtol(t, &end, 10);
            ok = end != t && b >= 0 && b <= INT32_MAX;
        }
        if (!ok || (*end != ',' && *end != '\0')) {
            free(*out);
            *out = NULL;
            return xml_error(g->err, STEADY_EPARSE, g->origin, node,
                             "malformed radical in <%s> (%s): expected numbers and ranges such "
                             "as 0-7,9,12-15",
                             sg_element_name(node), text);
        }
        if (b - a > 10000000 - *n) {
            free(*out);
            *out = NULL;
            return xml_error(g->err, STEADY_EINVAL, g->origin, node,
                             "radical in <%s> (%s) has more than 10^7 hosts", sg_element_name(node),
                             text);
        }
        for (long i = a; i <= b; i++) {
            if (*n == cap) {
                cap = cap ? 2 * cap : 64;
                long *nn = realloc(*out, (size_t)cap * sizeof *nn);
                if (!nn) {
                    free(*out);
                    *out = NULL;
                    return sg_oom(g);
                }
                *out = nn;
            }
            (*out)[(*n)++] = i;
        }
        if (*end == '\0')
            return STEADY_OK;
        s = end + 1;
    }
}

/* A host of a star with its links up (in order) and down (reversed, the
 * other half of SPLITDUPLEX links), as StarZone::add_route with
 * symmetrical routes builds them. */
static steady_err_t star_host(sg_t *g, int z, int v, const sg_list_t *up)
{
    sg_zone_t *zz = &g->zones[z];
    int vid = g->np[v].vid;
    if (!sg_list_append(&zz->up[vid], up) || !sg_reverse_list(g, up, &zz->down[vid]))
        return sg_oom(g);
    return STEADY_OK;
}

/* A <cluster> of topology FLAT: a star zone of hosts prefix RADICAL suffix,
 * each with a private link (and a limiter), an optional backbone, and a
 * router (sg_platf_new_cluster_flat).  TORUS, FAT_TREE, DRAGONFLY: a zone
 * of that routing, built by sg_topo_build. */
steady_err_t sg_read_cluster(sg_t *g, xmlNodePtr node, int parent)
{
    static const char *const attrs =
        "id, prefix, suffix, radical, speed, core, bw, lat, sharing_policy, topology, "
        "topo_parameters, bb_bw, bb_lat, bb_sharing_policy, router_id, limiter_link, "
        "loopback_bw, loopback_lat";
    char *id = NULL, *prefix = NULL, *suffix = NULL, *radical = NULL, *speeds = NULL,
         *bw_text = NULL, *lat_text = NULL, *topology = NULL, *core = NULL, *router_id = NULL,
         *params = NULL;
    long *rad = NULL;
    int nrad = 0;
    char *name = NULL;
    sg_list_t up = {0};
    steady_err_t rc;
    double bw, lat, bb_bw = 0, bb_lat = 0, limiter = 0, loop_bw = 0, loop_lat = 0, speed = 0;
    bool has_bb_bw, has_bb_lat, has_limiter, has_lbw, has_llat;
    steady_sharing_t sharing, bb_sharing;
    if ((rc = sg_check_attrs(g, node, attrs)) || (rc = sg_need_attr(g, node, "id", &id)) ||
        (rc = sg_need_attr(g, node, "prefix", &prefix)) ||
        (rc = sg_need_attr(g, node, "suffix", &suffix)) ||
        (rc = sg_need_attr(g, node, "radical", &radical)) ||
        (rc = sg_need_attr(g, node, "speed", &speeds)) || (rc = sg_need_attr(g, node, "bw", &bw_text)) ||
        (rc = sg_need_attr(g, node, "lat", &lat_text)))
        goto cleanup;
    sg_routing_t routing = SG_STAR;
    if ((topology = xml_attr(node, "topology")) && strcmp(topology, "FLAT") != 0) {
        static const struct {
            const char *name;
            sg_routing_t routing;
        } topologies[] = {{"TORUS", SG_TORUS}, {"FAT_TREE", SG_FAT_TREE}, {"DRAGONFLY", SG_DRAGONFLY}};
        static const char *const flat_only[] = {"bb_bw", "bb_lat", "bb_sharing_policy", "router_id"};
        int k = 0, nknown = (int)(sizeof topologies / sizeof *topologies);
        while (k < nknown && strcmp(topology, topologies[k].name) != 0)
            k++;
        if (k == nknown) {
            rc = xml_error(g->err, STEADY_EPARSE, g->origin, node,
                           "unknown topology in <cluster> (%s): expected FLAT, TORUS, FAT_TREE or "
                           "DRAGONFLY",
                           topology);
            goto cleanup;
        }
        routing = topologies[k].routing;
        for (size_t i = 0; i < sizeof flat_only / sizeof *flat_only; i++) {
            char *v = xml_attr(node, flat_only[i]);
            if (v) {
                xmlFree(v);
                rc = xml_error(g->err, STEADY_EINVAL, g->origin, node,
                               "%s in a %s <cluster> (%s): SimGrid makes a backbone and a router "
                               "for FLAT clusters only, and ignores it",
                               flat_only[i], topology, id);
                goto cleanup;
            }
        }
        if ((rc = sg_need_attr(g, node, "topo_parameters", &params)))
            goto cleanup;
    }
    if ((core = xml_attr(node, "core"))) {
        char *end;
        long c = strtol(core, &end, 10);
        if (end == core || *end != '\0' || c < 1 || c > INT32_MAX) {
            rc = xml_error(g->err, STEADY_EPARSE, g->origin, node,
                           "bad core in <cluster> (%s): expected a positive integer", core);
            goto cleanup;
        }
    }
    if ((rc = sg_speed_list(g, node, speeds, 0, &speed)) ||
        (rc = sg_quantity(g, node, bw_text, UNIT_BANDWIDTH, "bandwidth", &bw)) ||
        (rc = sg_quantity(g, node, lat_text, UNIT_TIME, "latency", &lat)) ||
        (rc = sg_opt_quantity(g, node, "bb_bw", UNIT_BANDWIDTH, "bandwidth", &bb_bw, &has_bb_bw)) ||
        (rc = sg_opt_quantity(g, node, "bb_lat", UNIT_TIME, "latency", &bb_lat, &has_bb_lat)) ||
        (rc = sg_opt_quantity(g, node, "limiter_link", UNIT_BANDWIDTH, "bandwidth", &limiter,
                           &has_limiter)) ||
        (rc = sg_opt_quantity(g, node, "loopback_bw", UNIT_BANDWIDTH, "bandwidth", &loop_bw,
                           &has_lbw)) ||
        (rc = sg_opt_quantity(g, node, "loopback_lat", UNIT_TIME, "latency", &loop_lat,
                           &has_llat)) ||
        (rc = sg_sharing_policy(g, node, "sharing_policy", "SPLITDUPLEX", false, &sharing)) ||
        (rc = sg_sharing_policy(g, node, "bb_sharing_policy", "SHARED", true, &bb_sharing)) ||
        (rc = radicals(g, node, radical, &rad, &nrad)) ||
        (rc = sg_read_props(g, node, NULL, NULL)))
        goto cleanup;
    (void)loop_bw; /* loopbacks carry a host's messages to itself: none in steady */
    (void)loop_lat;
    if (bb_lat > 0 && !has_bb_bw) {
        rc = xml_error(g->err, STEADY_EINVAL, g->origin, node,
                       "bb_lat without bb_bw in <cluster> (%s): SimGrid would make a backbone "
                       "of bandwidth 0",
                       id);
        goto cleanup;
    }
    int z = sg_add_zone(g, node, id, routing, parent);
    if (z < 0) {
        rc = g->err ? g->err->code : STEADY_EINVAL;
        goto cleanup;
    }
    if (parent < 0 && valid_node_name(id) && (rc = steady_platform_set_name(g->p, id, g->err)))
        goto cleanup;
    if (routing != SG_STAR) {
        rc = sg_topo_build(g, node, z,
                           &(sg_cluster_t){.id = id,
                                           .prefix = prefix,
                                           .suffix = suffix,
                                           .radical = radical,
                                           .topology = topology,
                                           .params = params,
                                           .rad = rad,
                                           .nrad = nrad,
                                           .speed = speed,
                                           .bw = bw,
                                           .lat = lat,
                                           .limiter = has_limiter ? limiter : 0,
                                           .sharing = sharing});
        goto cleanup;
    }
    int bb = -1;
    size_t cap = strlen(id) + strlen(prefix) + strlen(suffix) + 64;
    if (!(name = malloc(cap))) {
        rc = sg_oom(g);
        goto cleanup;
    }
    if (has_bb_bw) {
        snprintf(name, cap, "%s_backbone", id);
        if ((bb = sg_add_link(g, node, name, bb_bw, bb_lat, bb_sharing)) < 0) {
            rc = g->err ? g->err->code : STEADY_EINVAL;
            goto cleanup;
        }
    }
    for (int i = 0; i < nrad && !rc; i++) {
        snprintf(name, cap, "%s%ld%s", prefix, rad[i], suffix);
        int v = sg_add_np(g, node, name, SG_HOST, z);
        if (v < 0) {
            rc = g->err ? g->err->code : STEADY_EINVAL;
            break;
        }
        g->np[v].speed = speed;
        up.n = 0;
        int lim = -1, link;
        if (has_limiter && limiter > 0) {
            snprintf(name, cap, "%s_link_%ld_limiter", id, rad[i]);
            lim = sg_add_link(g, node, name, limiter, 0, STEADY_SHARED);
        }
        snprintf(name, cap, "%s_link_%ld", id, rad[i]);
        link = sg_add_link(g, node, name, bw, lat, sharing);
        if ((has_limiter && limiter > 0 && lim < 0) || link < 0) {
            rc = g->err ? g->err->code : STEADY_EINVAL;
            break;
        }
        if ((lim >= 0 && !sg_list_push(&up, (sg_use_t){lim, false, false})) ||
            !sg_list_push(&up, (sg_use_t){link, false, false}) ||
            (bb >= 0 && !sg_list_push(&up, (sg_use_t){bb, false, false})))
            rc = sg_oom(g);
        else
            rc = star_host(g, z, v, &up);
    }
    if (rc)
        goto cleanup;
    if ((router_id = xml_attr(node, "router_id")) && *router_id)
        snprintf(name, cap, "%s", router_id);
    else
        snprintf(name, cap, "%s%s_router%s", prefix, id, suffix);
    int r = sg_add_np(g, node, name, SG_ROUTER, z);
    if (r < 0)
        rc = g->err ? g->err->code : STEADY_EINVAL;
    else
        g->zones[z].router = r;
cleanup:
    sg_list_free(&up);
    free(rad);
    free(name);
    xmlFree(id);
    xmlFree(prefix);
    xmlFree(suffix);
    xmlFree(radical);
    xmlFree(speeds);
    xmlFree(bw_text);
    xmlFree(lat_text);
    xmlFree(topology);
    xmlFree(core);
    xmlFree(router_id);
    xmlFree(params);
    return rc;
}

/* <host_link id up down> in a Cluster zone: the host's links up and down
 * (sg_platf_build_hostlink), the backbone added once the zone is read. */
steady_err_t sg_read_host_link(sg_t *g, xmlNodePtr node, int z)
{
    char *id = NULL, *upid = NULL, *downid = NULL;
    steady_err_t rc;
    if ((rc = sg_check_attrs(g, node, "id, up, down")) || (rc = sg_need_attr(g, node, "id", &id)) ||
        (rc = sg_need_attr(g, node, "up", &upid)) || (rc = sg_need_attr(g, node, "down", &downid)))
        goto cleanup;
    int v = sg_find_np(g, id);
    sg_use_t lu, ld;
    bool fu = sg_find_link(g, upid, &lu), fd = sg_find_link(g, downid, &ld);
    if (v < 0 || g->np[v].kind != SG_HOST || g->np[v].zone != z)
        rc = xml_error(g->err, STEADY_EINVAL, g->origin, node,
                       "unknown host in <host_link> (%s): a host of zone %s declared before", id,
                       g->zones[z].id);
    else if (!fu || !fd)
        rc = xml_error(g->err, STEADY_EINVAL, g->origin, node, "unknown link in <host_link> (%s)",
                       !fu ? upid : downid);
    else if ((g->links[lu.link].sharing == STEADY_SPLITDUPLEX && !lu.half) ||
             (g->links[ld.link].sharing == STEADY_SPLITDUPLEX && !ld.half))
        rc = xml_error(g->err, STEADY_EINVAL, g->origin, node,
                       "SPLITDUPLEX link in <host_link> (%s): name one of its halves, %s_UP or "
                       "%s_DOWN",
                       !lu.half && g->links[lu.link].sharing == STEADY_SPLITDUPLEX ? upid : downid,
                       !lu.half && g->links[lu.link].sharing == STEADY_SPLITDUPLEX ? upid : downid,
                       !lu.half && g->links[lu.link].sharing == STEADY_SPLITDUPLEX ? upid : downid);
    else if (g->zones[z].up[g->np[v].vid].n > 0)
        rc = xml_error(g->err, STEADY_EINVAL, g->origin, node, "second <host_link> for host %s",
                       id);
    else if (!sg_list_push(&g->zones[z].up[g->np[v].vid], lu) ||
             !sg_list_push(&g->zones[z].down[g->np[v].vid], ld))
        rc = sg_oom(g);
cleanup:
    xmlFree(id);
    xmlFree(upid);
    xmlFree(downid);
    return rc;
}

/* <cabinet>: hosts prefix RADICAL suffix, each with links link_NAME_UP and
 * link_NAME_DOWN (sg_platf_build_cabinet). */
steady_err_t sg_read_cabinet(sg_t *g, xmlNodePtr node, int z)
{
    char *id = NULL, *prefix = NULL, *suffix = NULL, *radical = NULL, *speed_text = NULL,
         *bw_text = NULL, *lat_text = NULL, *name = NULL;
    long *rad = NULL;
    int nrad = 0;
    double speed, bw, lat;
    steady_err_t rc;
    if ((rc = sg_check_attrs(g, node, "id, prefix, suffix, radical, speed, bw, lat")) ||
        (rc = sg_need_attr(g, node, "id", &id)) || (rc = sg_need_attr(g, node, "prefix", &prefix)) ||
        (rc = sg_need_attr(g, node, "suffix", &suffix)) ||
        (rc = sg_need_attr(g, node, "radical", &radical)) ||
        (rc = sg_need_attr(g, node, "speed", &speed_text)) ||
        (rc = sg_need_attr(g, node, "bw", &bw_text)) || (rc = sg_need_attr(g, node, "lat", &lat_text)) ||
        (rc = sg_quantity(g, node, speed_text, UNIT_SPEED, "speed", &speed)) ||
        (rc = sg_quantity(g, node, bw_text, UNIT_BANDWIDTH, "bandwidth", &bw)) ||
        (rc = sg_quantity(g, node, lat_text, UNIT_TIME, "latency", &lat)) ||
        (rc = radicals(g, node, radical, &rad, &nrad)))
        goto cleanup;
    size_t cap = strlen(prefix) + strlen(suffix) + 64;
    if (!(name = malloc(cap))) {
        rc = sg_oom(g);
        goto cleanup;
    }
    for (int i = 0; i < nrad && !rc; i++) {
        snprintf(name, cap, "%s%ld%s", prefix, rad[i], suffix);
        int v = sg_add_np(g, node, name, SG_HOST, z);
        if (v < 0) {
            rc = g->err ? g->err->code : STEADY_EINVAL;
            break;
        }
        g->np[v].speed = speed;
        char *link = malloc(strlen(name) + 16);
        if (!link) {
            rc = sg_oom(g);
            break;
        }
        sprintf(link, "link_%s_UP", name);
        int lu = sg_add_link(g, node, link, bw, lat, STEADY_SHARED);
        sprintf(link, "link_%s_DOWN", name);
        int ld = lu < 0 ? -1 : sg_add_link(g, node, link, bw, lat, STEADY_SHARED);
        free(link);
        if (ld < 0)
            rc = g->err ? g->err->code : STEADY_EINVAL;
        else if (!sg_list_push(&g->zones[z].up[g->np[v].vid], (sg_use_t){lu, false, false}) ||
                 !sg_list_push(&g->zones[z].down[g->np[v].vid], (sg_use_t){ld, false, false}))
            rc = sg_oom(g);
    }
cleanup:
    free(rad);
    free(name);
    xmlFree(id);
    xmlFree(prefix);
    xmlFree(suffix);
    xmlFree(radical);
    xmlFree(speed_text);
    xmlFree(bw_text);
    xmlFree(lat_text);
    return rc;
}

/* A star zone read from routing="Cluster": the backbone on every host's
 * route up and down (sg_platf_cluster_set_hostlink). */
steady_err_t sg_star_backbone(sg_t *g, int z)
{
    sg_zone_t *zz = &g->zones[z];
    int bb = zz->backbone;
    if (bb < 0)
        return STEADY_OK;
    for (int v = 0; v < zz->nvert; v++) {
        if (zz->up[v].n == 0)
            continue; /* no host_link: an empty route, as SimGrid's do_seal */
        sg_list_t down = {0};
        bool ok = sg_list_push(&zz->up[v], (sg_use_t){bb, false, false}) &&
                  sg_list_push(&down, (sg_use_t){bb, false, false}) &&
                  sg_list_append(&down, &zz->down[v]);
        sg_list_free(&zz->down[v]);
        zz->down[v] = down;
        if (!ok)
            return sg_oom(g);
    }
    return STEADY_OK;
}

