/*
 * sg_vivaldi.c — SimGrid's Vivaldi zones read into the reader's model
 * (sg.h), as SimGrid 3.32 builds them (VivaldiZone.cpp, sg_platf.cpp:
 * sg_platf_new_peer):
 *   - a Vivaldi zone is a star (StarZone): a message from a to b crosses
 *     a's links up, then b's links down;
 *   - a <peer> is a host with two links of its own, link_ID_UP of bandwidth
 *     bw_out and link_ID_DOWN of bw_in, both SHARED and of latency 0 (its
 *     `lat` attribute is read by SimGrid's parser and used nowhere: it
 *     changes nothing here either);
 *   - every route between two vertices of the zone adds the distance
 *     between their coordinates (x y h, in ms) to its latency:
 *       sqrt((xa - xb)^2 + (ya - yb)^2) + |ha| + |hb|   ms.
 * A <host> (or <router>) of a Vivaldi zone has no link: SimGrid's XML gives
 * it none, and its StarZone then routes over no link, at an unbounded
 * bandwidth, which sg_build.c refuses for a host.  Between two zones of a
 * Vivaldi zone SimGrid 3.32 has no route (sg_local_route).
 */
#define _POSIX_C_SOURCE 200809L
#include "sg.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A coordinate's bound, ms: the distance of two points stays within the
 * model's latency range (docs/platform-format.md). */
#define COORD_MAX 1e8

steady_err_t sg_vivaldi_coords(sg_t *g, xmlNodePtr node, int z, int v)
{
    char *text = xml_attr(node, "coordinates");
    steady_err_t rc = STEADY_OK;
    double c[3];
    int n = 0;
    if (!text || !*text) {
        rc = xml_error(g->err, STEADY_EINVAL, g->origin, node,
                       "missing attribute coordinates in <%s>: a vertex of Vivaldi zone %s needs "
                       "its coordinates (\"x y height\", ms)",
                       sg_element_name(node), g->zones[z].id);
        goto cleanup;
    }
    /* SimGrid splits at each single space and wants three numbers */
    for (const char *s = text; n <= 3;) {
        const char *sp = strchr(s, ' ');
        size_t len = sp ? (size_t)(sp - s) : strlen(s);
        char item[64], *end;
        bool ok = n < 3 && len > 0 && len < sizeof item;
        if (ok) {
            memcpy(item, s, len);
            item[len] = '\0';
            c[n] = strtod(item, &end);
            ok = end != item && *end == '\0' && isfinite(c[n]);
        }
        if (!ok) {
            n = -1;
            break;
        }
        if (fabs(c[n++]) > COORD_MAX) {
            rc = xml_error(g->err, STEADY_EINVAL, g->origin, node,
                           "coordinate out of range in <%s> (%s): from -1e8 to 1e8 ms",
                           sg_element_name(node), text);
            goto cleanup;
        }
        if (!sp)
            break;
        s = sp + 1;
    }
    if (n != 3) {
        rc = xml_error(g->err, STEADY_EPARSE, g->origin, node,
                       "bad coordinates in <%s> (%s): expected three numbers separated by single "
                       "spaces (x y height, ms)",
                       sg_element_name(node), text);
        goto cleanup;
    }
    memcpy(&g->zones[z].coords[3 * (size_t)v], c, sizeof c);
cleanup:
    xmlFree(text);
    return rc;
}

double sg_vivaldi_latency(const sg_zone_t *z, int va, int vb)
{
    const double *a = &z->coords[3 * (size_t)va], *b = &z->coords[3 * (size_t)vb];
    double dx = a[0] - b[0], dy = a[1] - b[1];
    return (sqrt(dx * dx + dy * dy) + fabs(a[2]) + fabs(b[2])) / 1000.0;
}

/* One of the peer's own links: link_ID_UP or link_ID_DOWN, onto *list. */
static steady_err_t peer_link(sg_t *g, xmlNodePtr node, const char *id, const char *dir, double bw,
                              sg_list_t *list)
{
    size_t len = strlen(id) + 16;
    char *name = malloc(len);
    if (!name)
        return sg_oom(g);
    snprintf(name, len, "link_%s_%s", id, dir);
    int k = sg_add_link(g, node, name, bw, 0, STEADY_SHARED);
    free(name);
    if (k < 0)
        return g->err ? g->err->code : STEADY_EINVAL;
    return sg_list_push(list, (sg_use_t){k, false, false}) ? STEADY_OK : sg_oom(g);
}

steady_err_t sg_read_peer(sg_t *g, xmlNodePtr node, int z)
{
    char *id = NULL, *speed_text = NULL, *in_text = NULL, *out_text = NULL, *lat_text = NULL;
    double speed, bw_in, bw_out, lat;
    steady_err_t rc;
    if ((rc = sg_check_attrs(g, node,
                             "id, speed, bw_in, bw_out, lat, coordinates, speed_file, "
                             "availability_file, state_file")) ||
        (rc = sg_need_attr(g, node, "id", &id)) ||
        (rc = sg_need_attr(g, node, "speed", &speed_text)) ||
        (rc = sg_need_attr(g, node, "bw_in", &in_text)) ||
        (rc = sg_need_attr(g, node, "bw_out", &out_text)) ||
        (rc = sg_no_profile(g, node, "speed_file")) ||
        (rc = sg_no_profile(g, node, "availability_file")) ||
        (rc = sg_no_profile(g, node, "state_file")) ||
        (rc = sg_quantity(g, node, speed_text, UNIT_SPEED, "speed", &speed)) ||
        (rc = sg_quantity(g, node, in_text, UNIT_BANDWIDTH, "bandwidth", &bw_in)) ||
        (rc = sg_quantity(g, node, out_text, UNIT_BANDWIDTH, "bandwidth", &bw_out)))
        goto cleanup;
    /* the DTD's lat, unused by SimGrid, must still be a time */
    if ((lat_text = xml_attr(node, "lat")) && *lat_text &&
        (rc = sg_quantity(g, node, lat_text, UNIT_TIME, "latency", &lat)))
        goto cleanup;
    for (xmlNodePtr c = node->children; c && !rc; c = c->next)
        if (c->type == XML_ELEMENT_NODE)
            rc = sg_bad_element(g, c, node);
    if (rc)
        goto cleanup;
    int v = sg_add_np(g, node, id, SG_HOST, z);
    if (v < 0) {
        rc = g->err ? g->err->code : STEADY_EINVAL;
        goto cleanup;
    }
    g->np[v].speed = speed;
    int vid = g->np[v].vid;
    if (!(rc = sg_vivaldi_coords(g, node, z, vid)) &&
        !(rc = peer_link(g, node, id, "UP", bw_out, &g->zones[z].up[vid])))
        rc = peer_link(g, node, id, "DOWN", bw_in, &g->zones[z].down[vid]);
cleanup:
    xmlFree(id);
    xmlFree(speed_text);
    xmlFree(in_text);
    xmlFree(out_text);
    xmlFree(lat_text);
    return rc;
}
