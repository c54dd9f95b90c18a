/*
 * calibrate.c — `steady-run --calibrate`: measures what a message costs on
 * every hop of the platform with the executor's own send/receive pattern,
 * under whatever launcher runs it (docs/calibration.md).  The fit and the
 * calibrated platform are calibrate_fit.c's.
 *
 * Experiments.  Every rank builds the same list from the platform (the
 * hops of steady_hop_graph_build, between ranks), and runs it in order,
 * each experiment after a barrier:
 *   A. each hop alone, each size: a ping-pong (half the round trip, the
 *      median of `reps` rounds after one to warm up) and a stream;
 *   B. the hops in matchings that share no port and no shared resource,
 *      each rank a sender or a receiver (first fit, in hop order), each
 *      size: a stream on every hop of the matching at once — the
 *      concurrency a schedule's slot has; a matching of one hop is A's
 *      stream, not measured again;
 *   C. per shared resource (channel, or private link between switches), the
 *      hops crossing it that share no rank and no other shared resource,
 *      at once, the largest size: what the resource carries under load;
 *   D. each hop u -> v, the largest size, streaming while a feeder hop
 *      w -> u (one sharing no resource with the hop that the two could
 *      fill, w != v if u has one, then the fastest; no experiment when
 *      every hop into u shares one, the platform's channel then coupling
 *      them) streams into u: what
 *      u's receptions cost its sends
 *      (SimGrid's cross traffic, docs/calibration.md).  The feeder sends
 *      FEED_MARGIN times the messages the hop's time alone (A) asks for,
 *      so that it keeps u receiving to the end; A's results are summed on
 *      every rank first, so every rank plans D alike.
 * A stream is the executor's port discipline: one MPI_Isend in flight,
 * the next started when it completes, one receive posted at a time; one
 * message to start, then STREAM_MSGS timed ones on the sender; the median
 * over `reps` repetitions of the time per message.  Under SMPI the sends
 * are rendezvous as in a run (run_configure).  Each sender writes its
 * medians into its slots of a result array that is summed on rank 0.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calibrate.h"
#include "steady/output.h"

#ifdef SMPI_H           /* mpi.h is SimGrid's */
#include <xbt/config.h> /* sg_cfg_get_double */
#endif

#define STREAM_MSGS 8

/* phase D: the feeder's messages, times what the hop's own stream needs */
#define FEED_MARGIN 4

enum { EX_PINGPONG, EX_STREAM };

typedef struct {
    int kind;  /* EX_PINGPONG or EX_STREAM */
    int size;  /* index in the sizes */
    int first; /* its hops: pairs[first .. first + n) */
    int n;
    int slot;  /* results[slot + j] for pair j */
    long feed; /* phase D: the messages of its second hop (0: as many as the first's) */
} experiment_t;

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

/* The shared resources hop h occupies, appended to out (no duplicates);
 * returns their number. */
int calib_hop_resources(const steady_platform_t *p, const steady_hop_t *h, int *out)
{
    int n = 0;
    for (int k = 0; k < h->nedges; k++) {
        int nu;
        const steady_use_t *u = steady_platform_edge_uses(p, h->edges[k], &nu);
        for (int i = 0; i < nu; i++) {
            bool seen = false;
            for (int j = 0; j < n && !seen; j++)
                seen = out[j] == u[i].resource;
            if (!seen)
                out[n++] = u[i].resource;
        }
    }
    return n;
}

/* Whether hop h can join a set using these ports and resources (skip: a
 * resource the set may share, or -1); marks them when `take`.  A rank
 * of a set only sends or only receives: what its receptions cost its
 * sends is phase D's to measure. */
static bool fits(const calib_t *c, int h, unsigned char *send, unsigned char *recv,
                 unsigned char *res, int skip, bool take)
{
    const steady_hop_t *hop = steady_hop_graph_hop(c->g, h);
    int s = steady_platform_rank_of(c->p, hop->src), r = steady_platform_rank_of(c->p, hop->dst);
    if (send[s] || recv[r] || recv[s] || send[r])
        return false;
    const int *rs = c->res + c->res_first[h];
    int nr = c->res_first[h + 1] - c->res_first[h];
    for (int i = 0; i < nr; i++)
        if (rs[i] != skip && res[rs[i]])
            return false;
    if (take) {
        send[s] = recv[r] = 1;
        for (int i = 0; i < nr; i++)
            res[rs[i]] = 1;
    }
    return true;
}

/* The share of resource r that hop h takes moving messages of s bytes at
 * its full speed alone (the model's: what r's messages take of r over
 * what they take of the hop, s / 2 bytes less). */
static double resource_share(const steady_platform_t *p, const steady_hop_t *h, int r, double s)
{
    double used = 0;
    for (int k = 0; k < h->nedges; k++) {
        int nu;
        const steady_use_t *u = steady_platform_edge_uses(p, h->edges[k], &nu);
        for (int i = 0; i < nu; i++)
            if (u[i].resource == r)
                used += steady_platform_use_time(p, h->edges[k], &u[i], s) -
                        steady_platform_use_time(p, h->edges[k], &u[i], s / 2);
    }
    double t = steady_hop_time(p, h, s) - steady_hop_time(p, h, s / 2);
    return t > 0 ? used / t : INFINITY;
}

/* Whether hops a and b, both at full speed, could fill resource r. */
static bool fill(const steady_platform_t *p, const steady_hop_t *a, const steady_hop_t *b, int r,
                 double s)
{
    return resource_share(p, a, r, s) + resource_share(p, b, r, s) > 1;
}

/* True when hops a and b cross a common FATPIPE channel. */
static bool share_fatpipe(const steady_platform_t *p, const steady_hop_t *a, const steady_hop_t *b)
{
    for (int i = 0; i < a->nedges; i++) {
        const steady_edge_t *ea = steady_platform_edge(p, a->edges[i]);
        for (int x = 0; x < ea->ncross; x++) {
            if (steady_platform_channel(p, ea->cross[x].channel)->sharing != STEADY_FATPIPE)
                continue;
            for (int k = 0; k < b->nedges; k++) {
                const steady_edge_t *eb = steady_platform_edge(p, b->edges[k]);
                for (int y = 0; y < eb->ncross; y++)
                    if (eb->cross[y].channel == ea->cross[x].channel)
                        return true;
            }
        }
    }
    return false;
}

/* Builds the hops' resources, phase B's matchings and phase C's sets. */
static steady_err_t plan_sets(calib_t *c, steady_error_t *err)
{
    int H = c->nhops, R = steady_platform_resource_count(c->p),
        N = steady_platform_rank_count(c->p);
    c->res_first = calloc((size_t)H + 1, sizeof *c->res_first);
    int total = 0;
    for (int h = 0; h < H; h++) {
        const steady_hop_t *hop = steady_hop_graph_hop(c->g, h);
        for (int k = 0; k < hop->nedges; k++) {
            int nu;
            steady_platform_edge_uses(c->p, hop->edges[k], &nu);
            total += nu;
        }
    }
    c->res = malloc(((size_t)total + 1) * sizeof *c->res);
    c->match_of = malloc(((size_t)H + 1) * sizeof *c->match_of);
    c->set_hops = malloc(((size_t)H + 1) * sizeof *c->set_hops);
    c->set_first = calloc((size_t)R + 2, sizeof *c->set_first);
    c->feeder = malloc(((size_t)H + 1) * sizeof *c->feeder);
    unsigned char *send = calloc((size_t)N * ((size_t)H + 1), 1);
    unsigned char *recv = calloc((size_t)N * ((size_t)H + 1), 1);
    unsigned char *res = calloc(((size_t)R + 1) * ((size_t)H + 1), 1);
    steady_err_t rc = STEADY_OK;
    if (!c->res_first || !c->res || !c->match_of || !c->set_hops || !c->set_first || !c->feeder ||
        !send || !recv || !res) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto done;
    }
    for (int h = 0, at = 0; h < H; h++) {
        c->res_first[h] = at;
        at += calib_hop_resources(c->p, steady_hop_graph_hop(c->g, h), c->res + at);
        c->res_first[h + 1] = at;
    }
    /* B: first fit into matchings; matching m's marks at send + m N ... */
    c->nmatch = 0;
    for (int h = 0; h < H; h++) {
        int m = 0;
        while (m < c->nmatch && !fits(c, h, send + (size_t)m * N, recv + (size_t)m * N,
                                      res + (size_t)m * R, -1, false))
            m++;
        fits(c, h, send + (size_t)m * N, recv + (size_t)m * N, res + (size_t)m * R, -1, true);
        c->match_of[h] = m;
        if (m == c->nmatch)
            c->nmatch++;
    }
    /* C: per resource, the hops crossing it that can run at once */
    int n = 0;
    size_t cap = (size_t)H + 1;
    for (int r = 0; r < R; r++) {
        if ((size_t)n + (size_t)H + 1 > cap) { /* room for every hop in this set */
            cap = 2 * cap + (size_t)H;
            int *more = realloc(c->set_hops, cap * sizeof *more);
            if (!more) {
                rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
                goto done;
            }
            c->set_hops = more;
        }
        c->set_first[r] = n;
        memset(send, 0, (size_t)N);
        memset(recv, 0, (size_t)N);
        memset(res, 0, (size_t)R);
        for (int h = 0; h < H; h++) {
            bool crosses = false;
            for (int i = c->res_first[h]; i < c->res_first[h + 1] && !crosses; i++)
                crosses = c->res[i] == r;
            if (crosses && fits(c, h, send, recv, res, r, true))
                c->set_hops[n++] = h;
        }
        if (n - c->set_first[r] < 2) /* nothing shares it at once */
            n = c->set_first[r];
    }
    c->set_first[R] = n;
    /* D: hop h's feeder, a hop into its sender that shares no resource
     * with it that the two could fill at full speed, nor a FATPIPE
     * channel under the penalty rule (where they do, the platform's
     * channel already couples them: measuring it again as a recv-factor
     * would count it twice; a cluster's backbone, which two host links
     * cannot fill, does not), from another rank than its receiver if
     * there is one, then the fastest in the model (the one that keeps the
     * sender's receiving link the busiest); none when every hop into the
     * sender shares one */
    double big = c->sizes[c->nsizes - 1];
    bool penalty = steady_platform_flow_sharing(c->p, NULL) == STEADY_FLOWS_PENALTY;
    for (int h = 0; h < H; h++) {
        const steady_hop_t *hh = steady_hop_graph_hop(c->g, h);
        int best = -1;
        bool best_other = false;
        double best_time = 0;
        int nin;
        const int *in = steady_hop_graph_in(c->g, hh->src, &nin);
        for (int k = 0; k < nin; k++) {
            int g = in[k];
            const steady_hop_t *hg = steady_hop_graph_hop(c->g, g);
            bool other = hg->src != hh->dst;
            bool shared = false; /* a resource the two may fill */
            for (int i = c->res_first[h]; i < c->res_first[h + 1]; i++)
                for (int j = c->res_first[g]; j < c->res_first[g + 1]; j++)
                    shared |= c->res[i] == c->res[j] && fill(c->p, hh, hg, c->res[i], big);
            if (shared || (penalty && share_fatpipe(c->p, hh, hg)))
                continue;
            double t = steady_hop_time(c->p, hg, big);
            if (best < 0 || (other && !best_other) || (other == best_other && t < best_time)) {
                best = g;
                best_other = other;
                best_time = t;
            }
        }
        c->feeder[h] = best;
    }
done:
    free(send);
    free(recv);
    free(res);
    return rc;
}

/* The experiments, in the order every rank runs them. */
static steady_err_t plan_experiments(calib_t *c, experiment_t **out, int **pairs, int *count,
                                     steady_error_t *err)
{
    int H = c->nhops, S = c->nsizes, R = steady_platform_resource_count(c->p);
    size_t cap = (size_t)H * S * 2 + (size_t)c->nmatch * S + (size_t)R + 1;
    experiment_t *ex = malloc(cap * sizeof *ex);
    int *pr = malloc(((size_t)H * 3 + (size_t)c->set_first[R] + 1) * sizeof *pr);
    if (!ex || !pr) {
        free(ex);
        free(pr);
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    }
    int n = 0, np = 0, slot = 0;
    for (int h = 0; h < H; h++) { /* A */
        pr[np] = h;
        for (int s = 0; s < S; s++) {
            ex[n++] = (experiment_t){EX_PINGPONG, s, np, 1, slot++, 0};
            ex[n++] = (experiment_t){EX_STREAM, s, np, 1, slot++, 0};
        }
        np++;
    }
    for (int m = 0; m < c->nmatch; m++) { /* B */
        int first = np;
        for (int h = 0; h < H; h++)
            if (c->match_of[h] == m)
                pr[np++] = h;
        if (np - first < 2) {
            np = first;
            continue;
        }
        for (int s = 0; s < S; s++) {
            ex[n++] = (experiment_t){EX_STREAM, s, first, np - first, slot, 0};
            slot += np - first;
        }
    }
    c->nsets = 0;
    for (int r = 0; r < R; r++) { /* C */
        int k = c->set_first[r + 1] - c->set_first[r];
        if (k == 0)
            continue;
        memcpy(pr + np, c->set_hops + c->set_first[r], (size_t)k * sizeof *pr);
        ex[n++] = (experiment_t){EX_STREAM, S - 1, np, k, slot, 0};
        c->nsets++;
        np += k;
        slot += k;
    }
    c->nresults = slot;
    *out = ex;
    *pairs = pr;
    *count = n;
    return STEADY_OK;
}

/* Rank `me`'s part of a ping-pong: the sender stores its median. */
static void run_pingpong(const calib_t *c, const experiment_t *x, const int *pairs, int tag,
                         unsigned char *sbuf, unsigned char *rbuf, double *times, watch_t *w,
                         double *results)
{
    int me = c->me, bytes = (int)c->sizes[x->size];
    const steady_hop_t *hop = steady_hop_graph_hop(c->g, pairs[x->first]);
    int s = steady_platform_rank_of(c->p, hop->src), r = steady_platform_rank_of(c->p, hop->dst);
    if (s != me && r != me)
        return;
    int peer = s == me ? r : s;
    MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    for (int k = 0; k <= c->reps; k++) { /* round 0 warms up */
        double t0 = MPI_Wtime();
        if (s == me) {
            MPI_Irecv(rbuf, bytes, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &req[0]);
            MPI_Isend(sbuf, bytes, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &req[1]);
            run_wait_all(2, req, w, "a ping-pong");
            if (k > 0)
                times[k - 1] = (MPI_Wtime() - t0) / 2;
        } else {
            MPI_Irecv(rbuf, bytes, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &req[0]);
            run_wait_all(1, req, w, "a ping-pong");
            MPI_Isend(sbuf, bytes, MPI_BYTE, peer, tag, MPI_COMM_WORLD, &req[0]);
            run_wait_all(1, req, w, "a ping-pong");
        }
    }
    if (s == me)
        results[x->slot] = median(times, c->reps);
}

/* Rank `me`'s part of streams on the hops of x at once: it may send on one
 * and receive on another, both ports working as in a run.  Each
 * repetition is one message that starts it and STREAM_MSGS timed ones; a
 * phase D feeder sends x->feed messages, untimed. */
static void run_streams(const calib_t *c, const experiment_t *x, const int *pairs, int tag,
                        unsigned char *sbuf, unsigned char *rbuf, double *times, watch_t *w,
                        double *results)
{
    int me = c->me, bytes = (int)c->sizes[x->size], js = -1, to = -1, from = -1;
    long total = (long)c->reps * (STREAM_MSGS + 1), stotal = 0, rtotal = 0;
    for (int j = 0; j < x->n; j++) {
        const steady_hop_t *hop = steady_hop_graph_hop(c->g, pairs[x->first + j]);
        int s = steady_platform_rank_of(c->p, hop->src),
            r = steady_platform_rank_of(c->p, hop->dst);
        long count = x->feed && j == 1 ? x->feed : total;
        if (s == me)
            js = j, to = r, stotal = count;
        if (r == me)
            from = s, rtotal = count;
    }
    long sent = 0, got = 0;
    MPI_Request req[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    double t0 = 0;
    while (sent < stotal || got < rtotal || req[0] != MPI_REQUEST_NULL ||
           req[1] != MPI_REQUEST_NULL) {
        if (req[0] == MPI_REQUEST_NULL && sent < stotal)
            MPI_Isend(sbuf, bytes, MPI_BYTE, to, tag, MPI_COMM_WORLD, &req[0]);
        if (req[1] == MPI_REQUEST_NULL && got < rtotal)
            MPI_Irecv(rbuf, bytes, MPI_BYTE, from, tag, MPI_COMM_WORLD, &req[1]);
        if (req[0] == MPI_REQUEST_NULL && req[1] == MPI_REQUEST_NULL)
            break;
        w->what = "a stream";
        MPI_Status st;
        int idx = run_wait_any(2, req, &st, w);
        double now = MPI_Wtime();
        w->progress = now;
        if (idx == 1) {
            got++;
            continue;
        }
        if (sent++ >= total)
            continue; /* a feeder's messages beyond the timed ones */
        long i = (sent - 1) % (STREAM_MSGS + 1);
        if (i == 0)
            t0 = now;
        else if (i == STREAM_MSGS)
            times[(sent - 1) / (STREAM_MSGS + 1)] = (now - t0) / STREAM_MSGS;
    }
    if (js >= 0)
        results[x->slot + js] = median(times, c->reps);
}

steady_err_t calib_prepare(calib_t *c, steady_error_t *err)
{
    steady_err_t rc = steady_hop_graph_build(c->p, &c->g, err);
    if (rc)
        return rc;
    c->nhops = steady_hop_graph_count(c->g);
    if (c->nhops == 0)
        return steady_error_set(err, STEADY_EINVAL, "no hop between two ranks to measure");
    return plan_sets(c, err);
}

/* Phase D's experiments (this file's comment), appended to ex after its
 * first n and to pairs after its first np, from A's streams alone at the
 * largest size (in c->results on every rank); their result slots from 0,
 * in *slots.  Returns their number. */
static int plan_fed(const calib_t *c, experiment_t *ex, int n, int *pairs, int np, int *slots)
{
    int S = c->nsizes, slot = 0, first = n;
    long total = (long)c->reps * (STREAM_MSGS + 1);
    for (int h = 0; h < c->nhops; h++) {
        int g = c->feeder[h];
        if (g < 0)
            continue;
        /* A's stream of hop h at size s is experiment 2 (h S + s) + 1 */
        double th = c->results[ex[2 * ((size_t)h * S + S - 1) + 1].slot],
               tg = c->results[ex[2 * ((size_t)g * S + S - 1) + 1].slot];
        double feed = tg > 0 ? ceil(FEED_MARGIN * (double)total * th / tg) : 0;
        pairs[np] = h;
        pairs[np + 1] = g;
        ex[n++] = (experiment_t){
            EX_STREAM, S - 1, np, 2, slot, feed > (double)total ? (long)fmin(feed, 1e9) : total};
        np += 2;
        slot += 2;
    }
    *slots = slot;
    return n - first;
}

/* What experiment x takes at most, in seconds: SLOWDOWN_ALLOWED times the
 * platform file's time for its busiest hop's messages, each of them the
 * hop's latency and its time alone. */
static double allowance(const calib_t *c, const experiment_t *x, const int *pairs)
{
    long total = (long)c->reps * (STREAM_MSGS + 1);
    double worst = 0;
    for (int j = 0; j < x->n; j++) {
        const steady_hop_t *hop = steady_hop_graph_hop(c->g, pairs[x->first + j]);
        long msgs = x->kind == EX_PINGPONG ? 2L * (c->reps + 1)
                    : x->feed && j == 1    ? x->feed
                                           : total;
        double t = steady_hop_time(c->p, hop, c->sizes[x->size]) + steady_hop_latency(c->p, hop);
        worst = fmax(worst, (double)msgs * t);
    }
    return SLOWDOWN_ALLOWED * worst;
}

/* Runs experiments ex[from .. to) (numbered from `done` of `all` in the
 * progress line), each after a barrier, into `mine`.  A rank waits at the
 * barrier for the previous experiment, in an experiment for its own
 * messages, and after the last one for the others' (the gathering of the
 * results): the timeout allows their allowance on top. */
static void run_experiments(const calib_t *c, const experiment_t *ex, int from, int to,
                            const int *pairs, int done, int all, unsigned char *sbuf,
                            unsigned char *rbuf, double *times, watch_t *w, double *mine)
{
    for (int e = from; e < to; e++) {
        w->what = "the barrier before an experiment";
        w->grace = (e > 0 ? allowance(c, &ex[e - 1], pairs) : 0) + allowance(c, &ex[e], pairs);
#ifdef SMPI_H
        /* SMPI's MPI_Ibarrier let ranks through while others were still
         * in the previous experiment (SimGrid 3.x); its watchdogs watch
         * a blocking barrier as well */
        w->progress = MPI_Wtime();
        MPI_Barrier(MPI_COMM_WORLD);
#else
        MPI_Request b;
        MPI_Ibarrier(MPI_COMM_WORLD, &b);
        run_wait_all(1, &b, w, "the barrier before an experiment");
#endif
        (ex[e].kind == EX_PINGPONG ? run_pingpong : run_streams)(c, &ex[e], pairs, e % 32767, sbuf,
                                                                 rbuf, times, w, mine);
        watch_tick(w, MPI_Wtime(), "calibrating: experiment", done + e - from + 1, all);
    }
    /* the gathering that follows waits for the ranks still in the last one */
    w->grace = to > from ? allowance(c, &ex[to - 1], pairs) : 0;
}

steady_err_t calib_measure(calib_t *c, watch_t *w, steady_error_t *err)
{
    experiment_t *ex = NULL;
    int *pairs = NULL, nex = 0;
    steady_err_t rc = plan_experiments(c, &ex, &pairs, &nex, err);
    if (rc)
        return rc;
    size_t max = (size_t)c->sizes[c->nsizes - 1];
    unsigned char *sbuf = calloc(max, 1), *rbuf = calloc(max, 1);
    double *times = malloc(((size_t)c->reps + 1) * sizeof *times);
    double *mine = calloc((size_t)c->nresults + 2 * (size_t)c->nhops, sizeof *mine);
    double *fed = calloc(2 * (size_t)c->nhops + 1, sizeof *fed);
    c->results = calloc((size_t)c->nresults, sizeof *c->results);
    /* room for D after A, B and C */
    int npairs = 0, nfeeders = 0;
    for (int e = 0; e < nex; e++)
        npairs = ex[e].first + ex[e].n > npairs ? ex[e].first + ex[e].n : npairs;
    for (int h = 0; h < c->nhops; h++)
        nfeeders += c->feeder[h] >= 0;
    experiment_t *more = realloc(ex, ((size_t)nex + (size_t)nfeeders + 1) * sizeof *ex);
    int *morep = realloc(pairs, ((size_t)npairs + 2 * (size_t)nfeeders + 1) * sizeof *pairs);
    ex = more ? more : ex;
    pairs = morep ? morep : pairs;
    if (!sbuf || !rbuf || !times || !mine || !fed || !c->results || !more || !morep) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory for the messages");
        goto done;
    }
    run_configure();
    /* A, B, C; every rank learns their results: D's counts come from A */
    run_experiments(c, ex, 0, nex, pairs, 0, nex + nfeeders, sbuf, rbuf, times, w, mine);
    MPI_Request r;
    MPI_Iallreduce(mine, c->results, c->nresults, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r);
    run_wait_all(1, &r, w, "gathering the measurements");
    int fedslots = 0, nfed = plan_fed(c, ex, nex, pairs, npairs, &fedslots);
    double *fmine = mine + c->nresults;
    run_experiments(c, ex, nex, nex + nfed, pairs, nex, nex + nfed, sbuf, rbuf, times, w, fmine);
    MPI_Ireduce(fmine, fed, fedslots, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD, &r);
    run_wait_all(1, &r, w, "gathering the measurements on rank 0");
    if (c->me == 0) { /* spread the results to the per-hop tables of calib_t */
        int S = c->nsizes, R = steady_platform_resource_count(c->p);
        size_t HS = (size_t)c->nhops * S;
        c->pingpong = malloc(HS * sizeof *c->pingpong);
        c->stream = malloc(HS * sizeof *c->stream);
        c->concurrent = malloc(HS * sizeof *c->concurrent);
        c->loaded = calloc((size_t)c->set_first[R] + 1, sizeof *c->loaded);
        c->fed = calloc((size_t)c->nhops + 1, sizeof *c->fed);
        if (!c->pingpong || !c->stream || !c->concurrent || !c->loaded || !c->fed) {
            rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
            goto done;
        }
        int e = 0;
        for (int h = 0; h < c->nhops; h++)
            for (int s = 0; s < S; s++, e += 2) {
                c->pingpong[(size_t)h * S + s] = c->results[ex[e].slot];
                c->stream[(size_t)h * S + s] = c->concurrent[(size_t)h * S + s] =
                    c->results[ex[e + 1].slot];
            }
        for (; e < nex - c->nsets; e++) /* B */
            for (int j = 0; j < ex[e].n; j++)
                c->concurrent[(size_t)pairs[ex[e].first + j] * S + ex[e].size] =
                    c->results[ex[e].slot + j];
        for (int k = 0; e < nex; e++) /* C, in set_hops order */
            for (int j = 0; j < ex[e].n; j++)
                c->loaded[k++] = c->results[ex[e].slot + j];
        for (; e < nex + nfed; e++) /* D: the hop's own time, not its feeder's */
            c->fed[pairs[ex[e].first]] = fed[ex[e].slot];
    }
done:
    free(ex);
    free(pairs);
    free(sbuf);
    free(rbuf);
    free(times);
    free(mine);
    free(fed);
    return rc;
}

void calib_free(calib_t *c)
{
    steady_hop_graph_destroy(c->g);
    free(c->res_first);
    free(c->res);
    free(c->match_of);
    free(c->set_hops);
    free(c->set_first);
    free(c->results);
    free(c->pingpong);
    free(c->stream);
    free(c->concurrent);
    free(c->loaded);
    free(c->fed);
    free(c->feeder);
    c->g = NULL;
}

/* ---- the command ---------------------------------------------------------- */

/* Parses "1KiB,4KiB,..." into c->sizes (increasing, distinct); NULL: 1 KiB
 * to 4 MiB by factors of 4. */
static bool parse_sizes(const char *text, calib_t *c, char *msg, size_t msgsz)
{
    c->nsizes = 0;
    if (!text) {
        for (double s = 1024; s <= 4194304; s *= 4)
            c->sizes[c->nsizes++] = s;
        return true;
    }
    char buf[1024];
    if (strlen(text) >= sizeof buf) {
        snprintf(msg, msgsz, "steady-run: --sizes: too long a list (%.40s...)", text);
        return false;
    }
    strcpy(buf, text);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        double s;
        steady_error_t err = {0};
        if (steady_parse_size(tok, &s, &err) || s > 2147483647.0 || s != floor(s)) {
            snprintf(msg, msgsz,
                     "steady-run: --sizes: a size is a whole number of bytes from 1 to 2^31 - 1, "
                     "e.g. 64KiB (%s) (see 'steady-run --help')",
                     tok);
            return false;
        }
        if (c->nsizes == CALIB_MAX_SIZES) {
            snprintf(msg, msgsz, "steady-run: --sizes: at most %d sizes (%s)", CALIB_MAX_SIZES,
                     text);
            return false;
        }
        c->sizes[c->nsizes++] = s;
    }
    qsort(c->sizes, (size_t)c->nsizes, sizeof *c->sizes, cmp_double);
    int n = 0;
    for (int i = 0; i < c->nsizes; i++)
        if (n == 0 || c->sizes[i] != c->sizes[n - 1])
            c->sizes[n++] = c->sizes[i];
    c->nsizes = n;
    if (n < 2) {
        snprintf(msg, msgsz,
                 "steady-run: --sizes: the fit needs two sizes or more (%s) (see 'steady-run "
                 "--help')",
                 text);
        return false;
    }
    return true;
}

/* Every rank learns the worst status; the lowest failing rank prints. */
static int agree(int status, const char *msg, int rank, int size)
{
    int worst, first, mine = status ? rank : size;
    MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (worst && first == rank) {
        fprintf(stderr, "%s\n", msg);
        fflush(stderr);
    }
    return worst;
}

#ifdef SMPI_H
/* The --cfg=... arguments smpirun gave the program, each after a blank. */
static size_t smpi_cfgs(char *cfgs, size_t n)
{
    char cmd[4096] = "";
    FILE *f = fopen("/proc/self/cmdline", "rb");
    size_t len = f ? fread(cmd, 1, sizeof cmd - 1, f) : 0;
    if (f)
        fclose(f);
    cmd[len] = '\0';
    size_t at = 0;
    cfgs[0] = '\0';
    for (size_t i = 0; i < len; i += strlen(cmd + i) + 1)
        if (strncmp(cmd + i, "--cfg=", 6) == 0 && at < n)
            at += (size_t)snprintf(cfgs + at, n - at, " %s", cmd + i);
    return at;
}
#endif

/* What ran the ranks: the MPI library, or SimGrid and its settings. */
static void describe_launcher(char *buf, size_t n)
{
#ifdef SMPI_H
    char cfgs[1024];
    snprintf(buf, n, "SimGrid SMPI (smpirun, simulated time), configuration:%s",
             smpi_cfgs(cfgs, sizeof cfgs) ? cfgs : " SimGrid's defaults");
#else
    char v[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    MPI_Get_library_version(v, &len);
    v[strcspn(v, "\n,")] = '\0';
    snprintf(buf, n, "%s (mpirun, wall-clock time)", v);
#endif
}

/* How the run's flows share a link, set on p (docs/network.md, "How flows
 * share a channel"): under SMPI, by penalty with the run's own
 * network/weight-S (SimGrid's CM02 family, smpirun's SMPI model among
 * them), unless the command line names another network model, and with
 * its cross traffic when network/crosstraffic is on; under an MPI
 * library fairly, which is not measured. */
static void run_flows(steady_platform_t *p)
{
    steady_flow_sharing_t flows = STEADY_FLOWS_FAIR;
    double weight_s = 0, crosstraffic = 0;
#ifdef SMPI_H
    char cfgs[1024];
    smpi_cfgs(cfgs, sizeof cfgs);
    const char *m = strstr(cfgs, "--cfg=network/model:");
    char model[64] = "";
    if (m)
        sscanf(m + strlen("--cfg=network/model:"), "%63s", model);
    if (!m || steady_simgrid_model_penalty(model, NULL)) {
        flows = STEADY_FLOWS_PENALTY;
        weight_s = sg_cfg_get_double("network/weight-S");
    }
    /* the CM02 family's acknowledgements: 5% of a flow on its reverse
     * route (SimGrid's network_cm02.cpp), on in SMPI's default
     * configuration */
    if (flows == STEADY_FLOWS_PENALTY && sg_cfg_get_boolean("network/crosstraffic"))
        crosstraffic = 0.05;
#endif
    if (steady_platform_set_flow_sharing(p, flows, weight_s, NULL))
        steady_platform_set_flow_sharing(p, STEADY_FLOWS_FAIR, 0, NULL);
    steady_platform_set_crosstraffic(p, crosstraffic, NULL);
}

int calibrate_command(const calib_cmd_t *cmd, int rank, int size)
{
    char msg[STEADY_ERROR_MSG_MAX + 256] = "";
    steady_platform_t *p = NULL;
    steady_error_t err = {0};
    calib_t c = {.me = rank, .reps = cmd->reps ? cmd->reps : 5, .cost_model = cmd->cost_model};
    steady_format_t format;
    steady_output_t out = {0};
    int status = RUN_OK;
    /* what every rank meets alike (the same arguments and files) is said
     * by rank 0 without a collective, which SimGrid would abort on a
     * platform that misses a route */
    bool alike = true;
    if (!parse_sizes(cmd->sizes, &c, msg, sizeof msg))
        status = RUN_USAGE;
    else if (steady_platform_read(cmd->platform, cmd->from, &p, &format, &err)) {
        snprintf(msg, sizeof msg, "steady-run: %s", err.msg);
        status = steady_err_exit_status(err.code);
        alike = err.code != STEADY_ENOMEM;
    } else if ((status = run_check_routes(p, cmd->platform, format, msg, sizeof msg))) {
        /* msg says it */
    } else if (steady_platform_is_abstract(p)) {
        snprintf(msg, sizeof msg,
                 "steady-run: %s: --calibrate measures bytes per second, and this platform has "
                 "abstract costs (export it first with steady export --format simgrid --msg-size)",
                 cmd->platform);
        status = RUN_USAGE;
    } else if (steady_platform_rank_count(p) != size) {
        snprintf(msg, sizeof msg,
                 "steady-run: %s: the platform has %d processors and routers but the job has %d "
                 "ranks (start one rank per processor and router: -np %d)",
                 cmd->platform, steady_platform_rank_count(p), size, steady_platform_rank_count(p));
        status = RUN_USAGE;
    } else {
        run_flows(p);
        c.p = p;
        alike = false;
        if (calib_prepare(&c, &err)) {
            snprintf(msg, sizeof msg, "steady-run: %s: %s", cmd->platform, err.msg);
            status = steady_err_exit_status(err.code);
        }
    }
    if (status && alike) {
        if (rank == 0)
            fprintf(stderr, "%s\n", msg);
        goto done;
    }
    if ((status = agree(status, msg, rank, size)))
        goto done;
    /* every rank has read the platform: the output may be the same file.
     * Written only once measured (a failed or killed calibration leaves
     * the previous file as it was, steady/output.h), but tried now, before
     * minutes of measuring: a regular file's temporary one is created and
     * removed, anything else (a device, a FIFO) held open from here */
    if (rank == 0 && steady_output_open(&out, cmd->output, &err) && out.tmp)
        steady_output_close(&out, false, &err);
    if (rank == 0 && err.code) {
        snprintf(msg, sizeof msg, "steady-run: %s", err.msg);
        status = RUN_FAIL;
    }
    if ((status = agree(status, msg, rank, size)))
        goto done;

    char host[MPI_MAX_PROCESSOR_NAME + 1] = "", *hosts = NULL;
    int hlen = 0;
    MPI_Get_processor_name(host, &hlen);
    if (rank == 0)
        hosts = calloc((size_t)size, sizeof host);
    MPI_Gather(host, (int)sizeof host, MPI_CHAR, hosts, (int)sizeof host, MPI_CHAR, 0,
               MPI_COMM_WORLD);

    watch_t w;
    steady_progress_line_t line;
    steady_progress_line_init(&line, stderr, "steady-run", cmd->quiet || rank != 0);
    watch_start(&w, p, rank, cmd->timeout, &line);
    steady_err_t rc = calib_measure(&c, &w, &err);
    watch_stop(&w);
    steady_progress_line_clear(&line);
    if (rc) {
        fprintf(stderr, "steady-run: %s (rank %d): %s\n",
                steady_platform_node(p, steady_platform_rank_node(p, rank))->name, rank, err.msg);
        MPI_Abort(MPI_COMM_WORLD, RUN_FAIL);
    }
    if (rank == 0) {
        char date[64] = "", launcher[1400], where[512] = "";
        time_t now = time(NULL);
        struct tm tm;
        if (gmtime_r(&now, &tm))
            strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
        describe_launcher(launcher, sizeof launcher);
        size_t at = 0;
        int shown = 0;
        for (int r = 0; r < size && hosts && at < sizeof where - 64; r++) {
            const char *h = hosts + (size_t)r * sizeof host;
            bool seen = false;
            for (int q = 0; q < r && !seen; q++)
                seen = strcmp(hosts + (size_t)q * sizeof host, h) == 0;
            if (!seen && shown++ < 16)
                at += (size_t)snprintf(where + at, sizeof where - at, "%s%s", shown > 1 ? ", " : "",
                                       h);
        }
        snprintf(where + at, sizeof where - at, "%s (%d distinct host%s, %d ranks)",
                 shown > 16 ? ", ..." : "", shown, shown == 1 ? "" : "s", size);
        calib_info_t info = {.platform_path = cmd->platform,
                             .output_path = cmd->output,
                             .date = date,
                             .launcher = launcher,
                             .hosts = where,
                             .json = cmd->json};
        if (!out.f && !steady_output_open(&out, cmd->output, &err)) {
            fprintf(stderr, "steady-run: %s\n", err.msg);
            status = RUN_FAIL;
        } else if (calib_write(&c, &info, out.f, &err)) {
            fprintf(stderr, "steady-run: %s: %s\n", cmd->output, err.msg);
            status = steady_err_exit_status(err.code);
        }
        if (out.f && !steady_output_close(&out, !status, &err) && !status) {
            fprintf(stderr, "steady-run: %s\n", err.msg);
            status = RUN_FAIL;
        }
        if (fflush(stdout) != 0 && !status)
            status = RUN_FAIL;
    }
    free(hosts);
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
done:
    if (out.f)
        steady_output_close(&out, false, &err);
    calib_free(&c);
    steady_platform_destroy(p);
    return status;
}
