/*
 * calibrate_fit.c — the Hockney fit of what calibrate.c measured and the
 * calibrated platform (docs/calibration.md).
 *
 * Per hop h (a message between two ranks, through switches or not):
 *   alpha + s / bandwidth   the Hockney fit alpha + beta s (ordinary least
 *               squares, as Hockney's method: the large messages, which
 *               make a schedule's time, weigh the most) of the stream's
 *               time per message with the hop's matching at once (phase B;
 *               alone when it has none): how long a message keeps the
 *               executor's ports (a rendezvous send waits for its data to
 *               arrive, so the wire latency is in it);
 *   excess      the median over the sizes of ping-pong minus stream
 *               (alone), 0 below 1% of alpha: delivery beyond the port
 *               time (an eager send's), 0 when the send is a rendezvous.
 * Written for the cost model c->cost_model (steady plan --cost-model):
 * rendezvous, latency = alpha + excess and overhead 0 — the replay holds
 * the ports through the latency once per MPI message, as SMPI does, where
 * an overhead would be charged in proportion to the parts a schedule cuts
 * a message into; eager, overhead = alpha (the port time) and latency =
 * excess (a delay that holds no port).
 *   recv-factor the hop's rate while a feeder that shares no resource
 *               with it streams into its sender (phase D) over its rate
 *               alone: what the sender's receptions cost its sends
 *               (SimGrid's cross traffic); written below
 *               RECV_FACTOR_NOISE, and the replay slows the hop by it
 *               while a transfer runs into its sender (fluid.c).
 * The calibrated platform keeps the ranks (processors and routers, in
 * order, with their speeds: the same hostfile runs it) and writes each
 * hop as one edge between its ranks with those values: a hop through
 * switches is one message, and its own edge reproduces its own time.  The
 * shared resources stay channels the edges cross (latency 0: it is in the
 * edges'), their bandwidths the nominal one scaled by the median of
 * measured / model bandwidth of the hops crossing them, or, when phase C
 * found the resource binding (the hops at once carried less than 0.97 of
 * their sum alone), what it carried; a FATPIPE channel, no resource, its
 * nominal bandwidth scaled the same way (under the penalty rule it weighs
 * its flows: docs/network.md).
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate.h"

/* phase C: a resource binds when its hops at once carry less than this
 * fraction of their bandwidths alone */
#define BINDING 0.97

/* significant digits of the values written */
#define SIG 4

/* phase D: a hop keeps its rate while its sender receives when the
 * measurement finds this fraction of it or more (the clock's noise) */
#define RECV_FACTOR_NOISE 0.98

bool calib_fit(const double *sizes, const double *t, int n, calib_fit_t *fit)
{
    double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int i = 0; i < n; i++) {
        double w = 1;
        sw += w;
        sx += w * sizes[i];
        sy += w * t[i];
        sxx += w * sizes[i] * sizes[i];
        sxy += w * sizes[i] * t[i];
    }
    double det = sw * sxx - sx * sx;
    double beta = det > 0 ? (sw * sxy - sx * sy) / det : 0;
    double alpha = det > 0 ? (sy - beta * sx) / sw : 0;
    if (!(alpha >= 0)) { /* through the origin: t = beta s */
        alpha = 0;
        beta = sxx > 0 ? sxy / sxx : 0;
    }
    if (!(beta > 0) || !isfinite(beta))
        return false;
    double mx = 0, sq = 0;
    for (int i = 0; i < n; i++) {
        double e = fabs(alpha + beta * sizes[i] - t[i]) / t[i];
        mx = e > mx ? e : mx;
        sq += e * e;
    }
    *fit = (calib_fit_t){alpha, beta, mx, sqrt(sq / n)};
    return true;
}

/* x to `digits` significant digits: measurements are not more precise, and
 * round values keep the exact LP's numbers small (a schedule needs the
 * exact optimum, which GLPK's basis must reach in rational arithmetic) */
static double round_sig(double x, int digits)
{
    if (!(x > 0) || !isfinite(x))
        return x;
    int e = digits - 1 - (int)floor(log10(x));
    /* an integral power of ten on the exact side: 1.12e8 is 1120 * 1e5,
     * where 1120 / 1e-5 would be 111999999.99999999 */
    if (e < 0) {
        double unit = pow(10, -e);
        return round(x / unit) * unit;
    }
    double scale = pow(10, e);
    return round(x * scale) / scale;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* A resource of the original platform: a channel, or the private edge
 * between two switches. */
typedef struct {
    int channel, edge;
    double nominal; /* bytes/s */
    double factor;  /* median measured / model of its hops */
    double carried; /* phase C: bytes/s its hops carried at once (0: not measured) */
    double alone;   /* phase C: the sum of their bandwidths alone */
    int nset;
} resource_t;

typedef struct {
    const steady_hop_t *hop;
    calib_fit_t fit, pp;
    double overhead, latency; /* as written, per the cost model */
    double excess;            /* ping-pong - stream: delivery beyond the port time */
    double factor;            /* measured bandwidth / the model's */
    double concurrent;        /* stream at once / alone, the largest size */
    double recv_factor;       /* its rate while its sender receives / alone (phase D) */
    int edge;                 /* in the calibrated platform, -1: a duplicate pair */
} hopfit_t;

/* The model's bandwidth of a hop (its time's slope in the size). */
static double model_bandwidth(const steady_platform_t *p, const steady_hop_t *h)
{
    double s1 = 1 << 20, s2 = 1 << 22;
    return (s2 - s1) / (steady_hop_time(p, h, s2) - steady_hop_time(p, h, s1));
}

static const char *node_name(const steady_platform_t *p, int v)
{
    return steady_platform_node(p, v)->name;
}

/* Fits every hop; fills hf[] (nhops) and rs[] (resources). */
static steady_err_t fit_all(const calib_t *c, hopfit_t *hf, resource_t *rs, double *scratch,
                            steady_error_t *err)
{
    const steady_platform_t *p = c->p;
    int S = c->nsizes, R = steady_platform_resource_count(p);
    for (int h = 0; h < c->nhops; h++) {
        hopfit_t *f = &hf[h];
        f->hop = steady_hop_graph_hop(c->g, h);
        const double *st = c->concurrent + (size_t)h * S, *pp = c->pingpong + (size_t)h * S;
        const double *alone = c->stream + (size_t)h * S;
        for (int s = 0; s < S; s++)
            if (!(st[s] > 0) || !(pp[s] > 0) || !(alone[s] > 0))
                return steady_error_set(err, STEADY_EINVAL,
                                        "hop %s -> %s: no time measured for %.0f bytes (is "
                                        "the clock too coarse?)",
                                        node_name(p, f->hop->src), node_name(p, f->hop->dst),
                                        c->sizes[s]);
        if (!calib_fit(c->sizes, st, S, &f->fit) || !calib_fit(c->sizes, pp, S, &f->pp))
            return steady_error_set(
                err, STEADY_EINVAL,
                "hop %s -> %s: the time per message does not grow with "
                "the size (%.3g s for %.0f bytes, %.3g s for %.0f): too noisy a "
                "machine? more --reps",
                node_name(p, f->hop->src), node_name(p, f->hop->dst), st[0], c->sizes[0], st[S - 1],
                c->sizes[S - 1]);
        for (int s = 0; s < S; s++)
            scratch[s] = pp[s] - alone[s];
        f->excess = median(scratch, S);
        if (f->excess < 0.01 * f->fit.alpha) /* the clock's noise, not a delay */
            f->excess = 0;
        if (c->cost_model == STEADY_COST_RENDEZVOUS) { /* alpha per MPI message, ports held */
            f->overhead = 0;
            f->latency = f->fit.alpha + f->excess;
        } else { /* alpha holds the ports, the excess only delays */
            f->overhead = f->fit.alpha;
            f->latency = f->excess;
        }
        f->factor = 1 / f->fit.beta / model_bandwidth(p, f->hop);
        f->concurrent = st[S - 1] / alone[S - 1];
    }
    for (int r = 0; r < R; r++)
        rs[r] = (resource_t){.channel = -1, .edge = -1};
    for (int e = 0; e < steady_platform_edge_count(p); e++) {
        int nu;
        const steady_use_t *u = steady_platform_edge_uses(p, e, &nu);
        for (int i = 0; i < nu; i++) {
            resource_t *x = &rs[u[i].resource];
            x->channel = u[i].channel;
            x->edge = u[i].channel < 0 ? e : -1;
            x->nominal = u[i].channel >= 0 ? steady_platform_channel(p, u[i].channel)->bandwidth
                                           : steady_platform_edge(p, e)->bandwidth;
        }
    }
    for (int r = 0; r < R; r++) {
        int n = 0;
        for (int h = 0; h < c->nhops; h++)
            for (int i = c->res_first[h]; i < c->res_first[h + 1]; i++)
                if (c->res[i] == r)
                    scratch[n++] = hf[h].factor;
        rs[r].factor = n ? median(scratch, n) : 1;
        for (int i = c->set_first[r]; i < c->set_first[r + 1]; i++) {
            const hopfit_t *f = &hf[c->set_hops[i]];
            double s = c->sizes[S - 1], busy = c->loaded[i] - f->fit.alpha;
            rs[r].carried += busy > 0 ? s / busy : s / c->loaded[i];
            rs[r].alone += 1 / f->fit.beta;
            rs[r].nset++;
        }
    }
    return STEADY_OK;
}

/* The calibrated bandwidth of a channel (or edge resource, channel < 0). */
static double calibrated_bandwidth(const resource_t *rs, int R, int channel, int edge,
                                   double nominal, bool *binding)
{
    double scaled = 0, bound = INFINITY;
    for (int r = 0; r < R; r++) {
        if (channel >= 0 ? rs[r].channel != channel : rs[r].edge != edge)
            continue;
        scaled = fmax(scaled, nominal * rs[r].factor);
        if (rs[r].nset && rs[r].carried < BINDING * rs[r].alone)
            bound = fmin(bound, rs[r].carried);
    }
    *binding = isfinite(bound);
    /* not binding, what the hops carried says nothing of the capacity:
     * they need not have run at once throughout (a hop of long latency
     * leaves the channel to the others while it pays it) */
    return isfinite(bound) ? bound : scaled;
}

/* Phase D: hop h's rate while its feeder (which shares no resource with
 * it) streams into its sender, over its rate alone, to 3 digits; 1 when
 * not measured or above RECV_FACTOR_NOISE. */
static double recv_factor(const calib_t *c, const hopfit_t *hf, int h)
{
    int S = c->nsizes;
    double alpha = hf[h].fit.alpha;
    double alone = c->stream[(size_t)h * S + S - 1] - alpha, fed = c->fed[h] - alpha;
    if (c->feeder[h] < 0 || !(alone > 0) || !(fed > 0))
        return 1;
    double f = alone / fed;
    return f >= RECV_FACTOR_NOISE ? 1 : round_sig(fmax(f, STEADY_RECV_FACTOR_MIN), 3);
}

static void comment_header(const calib_t *c, const calib_info_t *info, FILE *out)
{
    fprintf(out,
            "# calibrated platform, written by steady-run --calibrate (docs/calibration.md)\n"
            "# measured  %s\n# launcher  %s\n# ranks on  %s\n# from      %s (platform %s), "
            "%d hops\n# sizes    ",
            info->date, info->launcher, info->hosts, info->platform_path,
            steady_platform_name(c->p), c->nhops);
    for (int s = 0; s < c->nsizes; s++)
        fprintf(out, " %.0f", c->sizes[s]);
    fprintf(out,
            " bytes; medians of %d repetitions\n"
            "# method    per hop, alone: ping-pong (half the round trip) and a stream of "
            "messages,\n"
            "#           one in flight (steady-run's ports); then the hops in matchings "
            "that share no\n"
            "#           port or channel, streaming at once; then the hops crossing each "
            "shared channel\n"
            "#           at once (its capacity under load); then each hop while a feeder "
            "streams into\n"
            "#           its sender: recv-factor, its rate then over its rate alone "
            "(SimGrid's cross\n"
            "#           traffic), written below %.2f\n"
            "# model     alpha + s / bandwidth = the Hockney fit of the stream at once "
            "(ordinary least\n"
            "#           squares): the time a message holds its ports; written for "
            "--cost-model %s:\n%s",
            c->reps, RECV_FACTOR_NOISE, steady_cost_model_name(c->cost_model),
            c->cost_model == STEADY_COST_RENDEZVOUS
                ? "#           latency = alpha (+ what a ping-pong takes beyond the stream), "
                  "held with\n#           the ports once per MPI message, overhead 0; plan "
                  "with --cost-model rendezvous\n"
                : "#           overhead = alpha, charged per message in proportion to its "
                  "parts; latency =\n#           what a ping-pong takes beyond the stream, "
                  "holding no port; plan with\n#           --cost-model eager\n");
    double weight_s;
    if (steady_platform_flow_sharing(c->p, &weight_s) == STEADY_FLOWS_PENALTY)
        fprintf(out,
                "# flows     share a link by penalty, SimGrid's rule with this run's "
                "network/weight-S (%g):\n"
                "#           each hop's penalty from the platform file's latencies and "
                "bandwidths\n",
                weight_s);
    else
        fputs("# flows     share a link fairly (not measured)\n", out);
    if (steady_platform_crosstraffic(c->p) > 0)
        fprintf(out,
                "# crosstraffic  this run's network/crosstraffic: a flow also loads its "
                "reverse route\n#           with %g of its rate (its acknowledgements), which "
                "the replay models;\n#           the recv-factors measured (phase 4) are "
                "reported, not written\n",
                steady_platform_crosstraffic(c->p));
}

/* The calibrated platform, built from the fits. */
static steady_err_t build(const calib_t *c, hopfit_t *hf, const resource_t *rs, double *scratch,
                          steady_platform_t **out, steady_error_t *err)
{
    const steady_platform_t *p = c->p;
    int R = steady_platform_resource_count(p), C = steady_platform_channel_count(p);
    int E = steady_platform_edge_count(p);
    steady_platform_t *q = NULL;
    int *chan = malloc(((size_t)C + 1) * sizeof *chan),
        *edgech = malloc(((size_t)E + 1) * sizeof *edgech);
    steady_crossing_t *cross = NULL;
    steady_err_t rc = STEADY_OK;
    size_t ncap = 0;
    for (int h = 0; h < c->nhops; h++)
        ncap += (size_t)hf[h].hop->nedges * ((size_t)C + 1);
    cross = malloc((ncap + 1) * sizeof *cross);
    if (!chan || !edgech || !cross) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto done;
    }
    char name[STEADY_NAME_MAX + 1];
    snprintf(name, sizeof name, "%.*s-calibrated", STEADY_NAME_MAX - 11, steady_platform_name(p));
    double weight_s;
    steady_flow_sharing_t flows = steady_platform_flow_sharing(p, &weight_s);
    if ((rc = steady_platform_create(&q, err)) || (rc = steady_platform_set_name(q, name, err)) ||
        (rc = steady_platform_set_flow_sharing(q, flows, weight_s, err)) ||
        (rc = steady_platform_set_crosstraffic(q, steady_platform_crosstraffic(p), err)) ||
        (rc = steady_platform_set_calibrated(q, c->sizes[0], c->sizes[c->nsizes - 1], err)))
        goto done;
    for (int r = 0; r < steady_platform_rank_count(p); r++) {
        const steady_node_t *v = steady_platform_node(p, steady_platform_rank_node(p, r));
        if ((rc = steady_platform_add_node(q, v->name, v->kind, v->speed, NULL, err)))
            goto done;
    }
    for (int k = 0; k < C; k++)
        chan[k] = -1;
    for (int e = 0; e < E; e++)
        edgech[e] = -1;
    /* the channels the hops cross, in channel order, then the links between switches */
    for (int k = 0; k < C; k++) {
        int n = 0; /* the hops crossing it, their measured / model bandwidth */
        for (int h = 0; h < c->nhops; h++) {
            bool crosses = false;
            for (int i = 0; i < hf[h].hop->nedges && !crosses; i++) {
                const steady_edge_t *e = steady_platform_edge(p, hf[h].hop->edges[i]);
                for (int j = 0; j < e->ncross && !crosses; j++)
                    crosses = e->cross[j].channel == k;
            }
            if (crosses)
                scratch[n++] = hf[h].factor;
        }
        if (n == 0)
            continue;
        const steady_channel_t *ch = steady_platform_channel(p, k);
        bool binding;
        steady_channel_t nc = *ch;
        nc.latency = 0;
        /* a FATPIPE channel is no resource, but under the penalty rule its
         * bandwidth shares its flows (docs/network.md): scaled as its hops
         * run, as SimGrid's bandwidth factor scales them all */
        nc.bandwidth = round_sig(ch->sharing == STEADY_FATPIPE
                                     ? ch->bandwidth * median(scratch, n)
                                     : calibrated_bandwidth(rs, R, k, -1, ch->bandwidth, &binding),
                                 SIG);
        if ((rc = steady_platform_add_channel(q, &nc, &chan[k], err)))
            goto done;
    }
    for (int r = 0; r < R; r++) {
        if (rs[r].edge < 0 || edgech[rs[r].edge] >= 0)
            continue;
        const steady_edge_t *e = steady_platform_edge(p, rs[r].edge);
        char cname[STEADY_NAME_MAX + 1];
        int len =
            snprintf(cname, sizeof cname, "edge:%s/%s", node_name(p, e->src), node_name(p, e->dst));
        if (len < 0 || len > STEADY_NAME_MAX)
            snprintf(cname, sizeof cname, "edge:%d", rs[r].edge);
        bool binding;
        steady_channel_t nc = {.name = cname, .sharing = STEADY_SHARED};
        nc.bandwidth =
            round_sig(calibrated_bandwidth(rs, R, -1, rs[r].edge, e->bandwidth, &binding), SIG);
        if ((rc = steady_platform_add_channel(q, &nc, &edgech[rs[r].edge], err)))
            goto done;
    }
    for (int h = 0; h < c->nhops; h++) {
        const steady_hop_t *hop = hf[h].hop;
        int src = steady_platform_rank_of(p, hop->src), dst = steady_platform_rank_of(p, hop->dst);
        hf[h].edge = -1;
        if (steady_platform_find_edge(q, src, dst) >= 0)
            continue; /* another path between the same ranks: the first is kept */
        int n = 0;
        for (int i = 0; i < hop->nedges; i++) {
            const steady_edge_t *e = steady_platform_edge(p, hop->edges[i]);
            for (int j = 0; j <= e->ncross; j++) {
                steady_crossing_t x;
                if (j < e->ncross)
                    x = (steady_crossing_t){chan[e->cross[j].channel], e->cross[j].down};
                else if (edgech[hop->edges[i]] >= 0)
                    x = (steady_crossing_t){edgech[hop->edges[i]], false};
                else
                    continue;
                bool seen = false;
                for (int k = 0; k < n && !seen; k++)
                    seen = cross[k].channel == x.channel;
                if (!seen)
                    cross[n++] = x;
            }
        }
        steady_edge_t ne = {
            .src = src,
            .dst = dst,
            .bandwidth = round_sig(1 / hf[h].fit.beta, SIG),
            .latency = round_sig(hf[h].latency, SIG),
            .overhead = round_sig(hf[h].overhead, SIG),
            /* measured, but the replay models its cause */
            .recv_factor = steady_platform_crosstraffic(p) > 0 ? 1 : hf[h].recv_factor,
            .penalty = flows == STEADY_FLOWS_PENALTY
                           ? round_sig(steady_hop_penalty(p, hop), 6) /* computed, not measured */
                           : 0,
            .ncross = n,
            .cross = cross};
        if ((rc = steady_platform_add_edge(q, &ne, &hf[h].edge, err))) {
            char m[STEADY_ERROR_MSG_MAX];
            snprintf(m, sizeof m, "%s", err->msg);
            rc = steady_error_set(err, rc, "hop %s -> %s: the fitted values make no edge: %s",
                                  node_name(p, hop->src), node_name(p, hop->dst), m);
            goto done;
        }
    }
    rc = steady_platform_validate(q, err);
done:
    free(chan);
    free(edgech);
    free(cross);
    if (rc) {
        steady_platform_destroy(q);
        q = NULL;
    }
    *out = q;
    return rc;
}

static void report_text(const calib_t *c, const calib_info_t *info, const hopfit_t *hf,
                        const resource_t *rs, const steady_platform_t *q)
{
    const steady_platform_t *p = c->p;
    printf("calibrated   %s: %d hops, %d sizes from %.0f to %.0f bytes, %d repetitions -> %s\n",
           info->platform_path, c->nhops, c->nsizes, c->sizes[0], c->sizes[c->nsizes - 1], c->reps,
           info->output_path);
    printf("measured     %s, %s\n", info->date, info->launcher);
    printf("%-28s %12s %14s %12s %9s %9s %10s %11s\n", "hop", "overhead_s", "bandwidth_Bps",
           "latency_s", "fit_max", "fit_rms", "at_once", "recv_factor");
    for (int h = 0; h < c->nhops; h++) {
        char hop[64];
        snprintf(hop, sizeof hop, "%s -> %s", node_name(p, hf[h].hop->src),
                 node_name(p, hf[h].hop->dst));
        printf("%-28s %12.6g %14.6g %12.6g %8.2f%% %8.2f%% %10.4f %11.4g%s\n", hop, hf[h].overhead,
               1 / hf[h].fit.beta, hf[h].latency, 100 * hf[h].fit.max_err, 100 * hf[h].fit.rms_err,
               hf[h].concurrent, hf[h].recv_factor, hf[h].edge < 0 ? " (not kept)" : "");
    }
    for (int r = 0; r < steady_platform_resource_count(p); r++) {
        char rn[300];
        steady_platform_resource_name(p, r, rn, sizeof rn);
        printf("resource     %s: nominal %.6g B/s, hops at %.4f of the model", rn, rs[r].nominal,
               rs[r].factor);
        if (rs[r].nset)
            printf(", %d hops at once carried %.6g B/s (%.4f of their sum alone%s)", rs[r].nset,
                   rs[r].carried, rs[r].carried / rs[r].alone,
                   rs[r].carried < BINDING * rs[r].alone ? ": binding" : "");
        printf("\n");
    }
    printf("wrote        %s (%d ranks, %d edges, %d channels)\n", info->output_path,
           steady_platform_node_count(q), steady_platform_edge_count(q),
           steady_platform_channel_count(q));
}

static int report_json(const calib_t *c, const calib_info_t *info, const hopfit_t *hf,
                       const resource_t *rs)
{
    const steady_platform_t *p = c->p;
    int S = c->nsizes;
    json_t *hops = json_array(), *res = json_array(), *sizes = json_array();
    for (int s = 0; s < S; s++)
        json_array_append_new(sizes, json_real(c->sizes[s]));
    for (int h = 0; h < c->nhops; h++) {
        json_t *pp = json_array(), *st = json_array(), *cc = json_array();
        for (int s = 0; s < S; s++) {
            json_array_append_new(pp, json_real(c->pingpong[(size_t)h * S + s]));
            json_array_append_new(st, json_real(c->stream[(size_t)h * S + s]));
            json_array_append_new(cc, json_real(c->concurrent[(size_t)h * S + s]));
        }
        json_array_append_new(
            hops,
            json_pack("{s:s, s:s, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:b, "
                      "s:o, s:o, s:o}",
                      "src", node_name(p, hf[h].hop->src), "dst", node_name(p, hf[h].hop->dst),
                      "overhead", hf[h].overhead, "bandwidth", 1 / hf[h].fit.beta, "latency",
                      hf[h].latency, "alpha", hf[h].fit.alpha, "fit_max_error", hf[h].fit.max_err,
                      "fit_rms_error", hf[h].fit.rms_err, "pingpong_alpha", hf[h].pp.alpha,
                      "pingpong_bandwidth", 1 / hf[h].pp.beta, "model_bandwidth",
                      model_bandwidth(p, hf[h].hop), "recv_factor", hf[h].recv_factor, "fed",
                      c->fed[h], "kept", hf[h].edge >= 0, "pingpong", pp, "stream", st,
                      "concurrent", cc));
    }
    for (int r = 0; r < steady_platform_resource_count(p); r++) {
        char rn[300];
        steady_platform_resource_name(p, r, rn, sizeof rn);
        json_array_append_new(res, json_pack("{s:s, s:f, s:f, s:i, s:f, s:f}", "name", rn,
                                             "nominal", rs[r].nominal, "factor", rs[r].factor,
                                             "at_once", rs[r].nset, "carried", rs[r].carried,
                                             "alone", rs[r].alone));
    }
    json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:s, s:i, s:o, s:o, s:o}", "platform",
                          info->platform_path, "output", info->output_path, "date", info->date,
                          "launcher", info->launcher, "hosts", info->hosts, "reps", c->reps,
                          "sizes", sizes, "hops", hops, "resources", res);
    int rc = !j || json_dumpf(j, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) != 0;
    putchar('\n');
    json_decref(j);
    return rc;
}

steady_err_t calib_write(const calib_t *c, const calib_info_t *info, FILE *out, steady_error_t *err)
{
    int R = steady_platform_resource_count(c->p);
    size_t n = (size_t)c->nhops + (size_t)c->nsizes + 1;
    hopfit_t *hf = calloc((size_t)c->nhops + 1, sizeof *hf);
    resource_t *rs = calloc((size_t)R + 1, sizeof *rs);
    double *scratch = malloc(n * sizeof *scratch);
    steady_platform_t *q = NULL;
    steady_err_t rc = STEADY_OK;
    if (!hf || !rs || !scratch)
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
    if (!rc)
        rc = fit_all(c, hf, rs, scratch, err);
    for (int h = 0; h < c->nhops && !rc; h++)
        hf[h].recv_factor = recv_factor(c, hf, h);
    if (!rc)
        rc = build(c, hf, rs, scratch, &q, err);
    if (!rc) {
        comment_header(c, info, out);
        for (int h = 0; h < c->nhops; h++)
            fprintf(out,
                    "# hop %s -> %s: fit error %.2f%% max, %.2f%% rms; ping-pong %.6g + s / %.6g\n",
                    node_name(c->p, hf[h].hop->src), node_name(c->p, hf[h].hop->dst),
                    100 * hf[h].fit.max_err, 100 * hf[h].fit.rms_err, hf[h].pp.alpha,
                    1 / hf[h].pp.beta);
        rc = steady_platform_write(q, out, STEADY_FORMAT_NATIVE, NULL, err);
    }
    if (!rc) {
        if (info->json ? report_json(c, info, hf, rs) : (report_text(c, info, hf, rs, q), 0))
            rc = steady_error_set(err, STEADY_EIO, "standard output: write failed");
    }
    steady_platform_destroy(q);
    free(hf);
    free(rs);
    free(scratch);
    return rc;
}
