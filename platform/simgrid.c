/*
 * simgrid.c — the SimGrid platform XML exporter that SMPI runs on (the
 * reader is sg_read.c, sg_route.c and sg_build.c).
 *
 * What is written.  One zone holding a <host> per processor and per router
 * (routers too: an MPI rank runs on each router to forward messages, and a
 * SimGrid <router> cannot host one), a SimGrid <router> per switch, a
 * <link> per channel and per edge that needs one of its own, and a one-way
 * <route> per edge over its links.  The zone's steady_routes=edges prop
 * tells steady's reader to read each route back as one edge.  The other
 * routes between hosts carry the hops through switches (whose path is the
 * only one, steady_platform_validate) and the MPI runtime's own traffic
 * between ranks that no hop joins: without switches and channels the zone
 * is Floyd's, which completes them by joining edges' links; with them it
 * is Full and the writer declares them (put_completions).  Values are
 * written with format_double in base units (Bps, s, f), so that reading
 * the file back gives the same doubles bit for bit; what SimGrid has no
 * field for (a router's kind, an edge's per-message overhead, an abstract
 * cost, which links are channels) travels in <prop> elements that SimGrid
 * ignores and this reader understands.
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

/* Whether edge e needs a link of its own in the export: an edge that
 * crosses no channel is a private link; one that crosses channels needs
 * one only to carry what the channels do not give it (a bandwidth below
 * theirs, a latency, an overhead, a cost), as a FATPIPE link: a bound on
 * each message alone, no capacity of its own, as in steady's model. */
static bool own_link(const steady_platform_t *p, const steady_edge_t *e)
{
    if (e->ncross == 0)
        return true;
    steady_edge_t derived = {.src = e->src, .dst = e->dst};
    for (int k = 0; k < e->ncross; k++) {
        const steady_channel_t *c = steady_platform_channel(p, e->cross[k].channel);
        if (c->cost != 0 && c->cost > derived.cost)
            derived.cost = c->cost;
        else if (c->cost == 0 && (derived.bandwidth == 0 || c->bandwidth < derived.bandwidth))
            derived.bandwidth = c->bandwidth;
    }
    return e->latency != 0 || e->overhead != 0 || e->recv_factor != 1 || e->penalty != 0 ||
           e->cost != derived.cost || e->bandwidth != derived.bandwidth;
}

/* A link: id, bandwidth (an abstract cost c as msg_size / c, kept in a
 * steady_cost prop), latency, sharing policy, and props: an edge's
 * overhead, recv-factor and penalty (own: the edge whose own link it is;
 * NULL for a channel's, a steady_channel). */
static void put_link(FILE *out, const char *id, double bandwidth, double cost, double latency,
                     const steady_edge_t *own, const char *sharing, double msg_size)
{
    bool channel = !own;
    double overhead = own ? own->overhead : 0, recv_factor = own ? own->recv_factor : 1;
    double penalty = own ? own->penalty : 0;
    char a[32], b[32];
    fputs("    <link id=\"", out);
    put_escaped(out, id);
    format_double(a, cost != 0 ? msg_size / cost : bandwidth);
    format_double(b, latency);
    fprintf(out, "\" bandwidth=\"%sBps\" latency=\"%ss\"", a, b);
    if (sharing)
        fprintf(out, " sharing_policy=\"%s\"", sharing);
    if (cost == 0 && overhead == 0 && recv_factor == 1 && penalty == 0 && !channel) {
        fputs("/>\n", out);
        return;
    }
    fputs(">\n", out);
    if (channel)
        fputs("      <prop id=\"steady_channel\" value=\"yes\"/>\n", out);
    if (cost != 0) {
        format_double(a, cost);
        fprintf(out, "      <prop id=\"steady_cost\" value=\"%s\"/>\n", a);
    }
    if (overhead != 0) {
        format_double(a, overhead);
        fprintf(out, "      <prop id=\"steady_overhead\" value=\"%s\"/>\n", a);
    }
    if (recv_factor != 1) {
        format_double(a, recv_factor);
        fprintf(out, "      <prop id=\"steady_recv_factor\" value=\"%s\"/>\n", a);
    }
    if (penalty != 0) {
        format_double(a, penalty);
        fprintf(out, "      <prop id=\"steady_penalty\" value=\"%ss\"/>\n", a);
    }
    fputs("    </link>\n", out);
}

#define OWN_ID_MAX (2 * STEADY_NAME_MAX + 16)

/* The name an edge's own link gets: "SRC->DST" (node names cannot hold
 * '>', so no two edges share it), with '_' added while a channel has it. */
static void own_id(const steady_platform_t *p, const steady_edge_t *e, char id[OWN_ID_MAX])
{
    snprintf(id, OWN_ID_MAX - 8, "%s->%s", steady_platform_node(p, e->src)->name,
             steady_platform_node(p, e->dst)->name);
    while (steady_platform_find_channel(p, id) >= 0 && strlen(id) < OWN_ID_MAX - 1)
        strcat(id, "_");
}

/* The links of edge e, as a route's <link_ctn> elements. */
static void put_edge_links(FILE *out, const steady_platform_t *p, const steady_edge_t *e)
{
    if (own_link(p, e)) {
        char id[OWN_ID_MAX];
        own_id(p, e, id);
        fputs("<link_ctn id=\"", out);
        put_escaped(out, id);
        fputs("\"/>", out);
    }
    for (int x = 0; x < e->ncross; x++) {
        const steady_channel_t *c = steady_platform_channel(p, e->cross[x].channel);
        fputs("<link_ctn id=\"", out);
        put_escaped(out, c->name);
        fputc('"', out);
        if (c->sharing == STEADY_SPLITDUPLEX)
            fprintf(out, " direction=\"%s\"", e->cross[x].down ? "DOWN" : "UP");
        fputs("/>", out);
    }
}

static void put_route_start(FILE *out, const steady_platform_t *p, int src, int dst)
{
    fputs("    <route src=\"", out);
    put_escaped(out, steady_platform_node(p, src)->name);
    fputs("\" dst=\"", out);
    put_escaped(out, steady_platform_node(p, dst)->name);
    fputs("\" symmetrical=\"NO\">", out);
}

/* The id of the link that marks a completion route (below): "steady-via",
 * with '_' added while a channel has it. */
static void marker_id(const steady_platform_t *p, char id[OWN_ID_MAX])
{
    strcpy(id, "steady-via");
    while (steady_platform_find_channel(p, id) >= 0 && strlen(id) < OWN_ID_MAX - 1)
        strcat(id, "_");
}

/* Completion routes of a platform with switches or channels (a Full zone:
 * SimGrid routes a message over the route declared between its two ends,
 * and nothing else).  For every two ranks that no edge joins: the links of
 * the hop through switches between them, the only one; or, when there is
 * none, of the shortest chain of hops (for the MPI runtime's own traffic,
 * which no schedule times).  Each starts with the marker link, so that
 * steady's reader skips it.  O(ranks (nodes + edges)). */
static steady_err_t put_completions(FILE *out, const steady_platform_t *p, const char *marker)
{
    int nv = steady_platform_node_count(p);
    int *via = malloc((size_t)nv * sizeof *via); /* the edge that reached each node */
    int *queue = malloc((size_t)nv * sizeof *queue);
    int *chain = malloc((size_t)nv * sizeof *chain);
    if (!via || !queue || !chain) {
        free(via);
        free(queue);
        free(chain);
        return STEADY_ENOMEM;
    }
    for (int u = 0; u < nv; u++) {
        if (steady_platform_node(p, u)->kind == STEADY_SWITCH)
            continue;
        /* breadth first from u: through switches first (a hop), then through
         * ranks (a chain of hops, each rank a new start) */
        for (int v = 0; v < nv; v++)
            via[v] = -2;
        int head = 0, tail = 0;
        via[u] = -1;
        queue[tail++] = u;
        while (head < tail) {
            int a = queue[head++], n;
            const int *es = steady_platform_out_edges(p, a, &n);
            for (int k = 0; k < n; k++) {
                int b = steady_platform_edge(p, es[k])->dst;
                if (via[b] != -2)
                    continue;
                via[b] = es[k];
                queue[tail++] = b;
            }
        }
        for (int v = 0; v < nv; v++) {
            if (v == u || via[v] == -2 || steady_platform_node(p, v)->kind == STEADY_SWITCH ||
                steady_platform_find_edge(p, u, v) >= 0)
                continue;
            int len = 0;
            for (int x = v; x != u; x = steady_platform_edge(p, via[x])->src)
                chain[len++] = via[x];
            put_route_start(out, p, u, v);
            fputs("<link_ctn id=\"", out);
            put_escaped(out, marker);
            fputs("\"/>", out);
            while (len > 0)
                put_edge_links(out, p, steady_platform_edge(p, chain[--len]));
            fputs("</route>\n", out);
        }
    }
    free(via);
    free(queue);
    free(chain);
    return STEADY_OK;
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
    for (int k = 0; k < steady_platform_edge_count(p) + steady_platform_channel_count(p); k++) {
        bool edge = k < steady_platform_edge_count(p);
        double cost = edge ? steady_platform_edge(p, k)->cost
                           : steady_platform_channel(p, k - steady_platform_edge_count(p))->cost;
        double bw = msg_size / cost;
        if (cost != 0 && !(bw >= STEADY_BANDWIDTH_MIN && bw <= STEADY_BANDWIDTH_MAX)) {
            char c[32], m[32];
            format_double(c, cost);
            format_double(m, msg_size);
            const steady_edge_t *e = edge ? steady_platform_edge(p, k) : NULL;
            return steady_error_set(
                err, STEADY_EINVAL,
                "cannot export the cost of %s %s%s%s (%s) as a SimGrid bandwidth for %s-byte "
                "messages",
                edge ? "edge" : "channel",
                edge ? steady_platform_node(p, e->src)->name
                     : steady_platform_channel(p, k - steady_platform_edge_count(p))->name,
                edge ? " -> " : "", edge ? steady_platform_node(p, e->dst)->name : "", c, m);
        }
    }

    /* routers host MPI ranks that only forward: at the fastest processor's
     * speed, so that SimGrid's default configuration (which charges each
     * rank's real CPU time at its host's speed) charges their forwarding as
     * it charges a processor's */
    double router_speed = 0;
    for (int v = 0; v < steady_platform_node_count(p); v++)
        if (steady_platform_node(p, v)->speed > router_speed)
            router_speed = steady_platform_node(p, v)->speed;
    char a[32];
    fputs("<?xml version='1.0'?>\n"
          "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n",
          out);
    fputs("<!-- steady platform export: a host per processor and per router (with\n"
          "     steady_kind=router, so that an MPI rank can forward on it), a SimGrid router\n"
          "     per switch, a link per channel (steady_channel) and per edge that needs one,\n"
          "     a one-way route per edge, which steady reads back as the edge\n"
          "     (steady_routes=edges).  The other routes between hosts (Floyd's, or those\n"
          "     starting with the steady_completion link) carry the hops through switches\n"
          "     and the MPI runtime's own traffic.  Units: Bps, s, f. -->\n",
          out);
    /* without switches and channels every edge is one link: Floyd's
     * shortest routes are the edges' own routes, and it completes the
     * others; with them, only declared routes are SimGrid's (Full) */
    bool full = steady_platform_has_network(p);
    /* flows sharing a link by penalty are SimGrid's own rule, with the
     * platform's weight-S; SimGrid has no fair one, which a prop keeps */
    double weight_s;
    bool fair = steady_platform_flow_sharing(p, &weight_s) == STEADY_FLOWS_FAIR;
    fputs("<platform version=\"4.1\">\n", out);
    if (!fair) {
        format_double(a, weight_s);
        fprintf(out,
                "  <config>\n"
                "    <prop id=\"network/weight-S\" value=\"%s\"/>\n"
                "  </config>\n",
                a);
    }
    fputs("  <zone id=\"", out);
    put_escaped(out, steady_platform_name(p));
    fprintf(out,
            "\" routing=\"%s\">\n"
            "    <prop id=\"steady_routes\" value=\"edges\"/>\n%s",
            full ? "Full" : "Floyd",
            fair ? "    <prop id=\"steady_flows\" value=\"fair\"/>\n" : "");

    for (int v = 0; v < steady_platform_node_count(p); v++) {
        const steady_node_t *n = steady_platform_node(p, v);
        if (n->kind == STEADY_SWITCH) {
            fputs("    <router id=\"", out);
            put_escaped(out, n->name);
            fputs("\"/>\n", out);
            continue;
        }
        fputs("    <host id=\"", out);
        put_escaped(out, n->name);
        format_double(a, n->kind == STEADY_ROUTER ? router_speed : n->speed);
        if (n->kind == STEADY_ROUTER)
            fprintf(out,
                    "\" speed=\"%sf\">\n"
                    "      <prop id=\"steady_kind\" value=\"router\"/>\n"
                    "    </host>\n",
                    a);
        else
            fprintf(out, "\" speed=\"%sf\"/>\n", a);
    }

    /* SimGrid's DTD wants every link of a zone before its first route. */
    static const char *const policy[] = {NULL, "SPLITDUPLEX", "FATPIPE"};
    for (int k = 0; k < steady_platform_channel_count(p); k++) {
        const steady_channel_t *c = steady_platform_channel(p, k);
        put_link(out, c->name, c->bandwidth, c->cost, c->latency, NULL, policy[c->sharing],
                 msg_size);
    }
    for (int k = 0; k < steady_platform_edge_count(p); k++) {
        const steady_edge_t *e = steady_platform_edge(p, k);
        if (!own_link(p, e))
            continue;
        char id[OWN_ID_MAX];
        own_id(p, e, id);
        put_link(out, id, e->bandwidth, e->cost, e->latency, e, e->ncross ? "FATPIPE" : NULL,
                 msg_size);
    }
    char marker[OWN_ID_MAX];
    marker_id(p, marker);
    /* completion routes (below) need edges: without, no marker either */
    bool completions = full && steady_platform_edge_count(p) > 0;
    if (completions) {      /* a message on it is never slower, nor later, for it */
        double fastest = 0; /* of the bandwidths written */
        for (int k = 0; k < steady_platform_channel_count(p); k++) {
            const steady_channel_t *c = steady_platform_channel(p, k);
            fastest = fmax(fastest, c->cost ? msg_size / c->cost : c->bandwidth);
        }
        for (int k = 0; k < steady_platform_edge_count(p); k++) {
            const steady_edge_t *e = steady_platform_edge(p, k);
            fastest = fmax(fastest, e->cost ? msg_size / e->cost : e->bandwidth);
        }
        fputs("    <link id=\"", out);
        put_escaped(out, marker);
        format_double(a, fastest);
        fprintf(out,
                "\" bandwidth=\"%sBps\" latency=\"0s\" sharing_policy=\"FATPIPE\">\n"
                "      <prop id=\"steady_completion\" value=\"yes\"/>\n"
                "    </link>\n",
                a);
    }
    for (int k = 0; k < steady_platform_edge_count(p); k++) {
        const steady_edge_t *e = steady_platform_edge(p, k);
        put_route_start(out, p, e->src, e->dst);
        put_edge_links(out, p, e);
        fputs("</route>\n", out);
    }
    if (completions && put_completions(out, p, marker))
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    fputs("  </zone>\n</platform>\n", out);
    return STEADY_OK;
}
