/*
 * matching.c — steady_matchings_decompose(): the weighted bipartite edge
 * colouring of paper §3.3 that turns one period's communications into
 * slots during which each port works with one peer.
 *
 * Why it works.  Put the senders on the left, the receivers on the right,
 * and give every communication an edge weighted by its duration.  A
 * port's load is the sum of its edges' weights, and W, the largest load, is
 * a lower bound on any schedule (a port does one thing at a time).  König's
 * edge-colouring theorem in its weighted form (Schrijver, vol. A, ch. 20;
 * Birkhoff-von Neumann for matrices) says W is also reached:
 *
 *   1. Pad to a W-regular graph.  Every vertex with load < W gets dummy
 *      edges (idle time) until its load is exactly W.  Both sides have the
 *      same total deficit once the smaller side is filled up with virtual
 *      vertices of load 0, so an under-loaded sender can always be paired
 *      with an under-loaded receiver: a two-pointer sweep adds a dummy
 *      (i, j) of weight min(deficit_i, deficit_j), which zeroes at least one
 *      of the two deficits.
 *   2. Peel matchings.  In a bipartite graph where every vertex has the same
 *      positive weighted degree, the support (edges of positive weight)
 *      has a perfect matching: a set S of left vertices carries |S|·w of
 *      weight, all of it landing on N(S), which can absorb at most |N(S)|·w,
 *      so |N(S)| >= |S| (Hall).  Take one, run it for δ = its smallest
 *      remaining weight, subtract δ from its edges: the graph stays regular
 *      (every vertex lost δ), and at least one edge's weight drops to 0.
 *      The real comms the matching runs form one slot of duration δ.
 *
 * Parallel comms.  Several comms may join the same sender and receiver.
 * They become one edge of the matching graph, made of consecutive
 * "parts": the real comms in index order, then the dummy, if any.  The
 * edge is what is matched, and it stays matched until its last part is
 * done: the parts run back to back, so a slot may hold several comms of
 * one edge, one after another, each for the time it runs in the slot
 * (steady_slot_t.time), and a slot still joins each sender to at most one
 * receiver.  This is the paper's graph, whose edge (Pi, Pj) weighs all the
 * communications from Pi to Pj.  A round ends when a whole edge is done,
 * not a comm: cutting every running comm wherever any comm ended made a
 * 1,000-node scatter's period (1 006 routes, most of them through the
 * source's few links) 14 831 slots and 540 520 transfers; by edges it is
 * 1 004 slots and 60 979 transfers.
 *
 * Slot bound.  Let k = max(#distinct senders, #distinct receivers) and E
 * the distinct (sender, receiver) pairs.  The sweep adds at most (number
 * of vertices with a deficit) - 1 <= 2k - 2 dummies (each step zeroes a
 * deficit; the last zeroes one on each side; and some port has load W, so
 * no deficit).  Every round finishes an edge, and the last round finishes
 * k of them (one per vertex), so with at most E + 2k - 2 edges there are
 * at most E + k - 1 rounds:
 *
 *   nslots <= E + k - 1 <= ncomms + k - 1 <= 2 ncomms - 1   (0 when ncomms = 0).
 *
 * Consecutive rounds running the same real comms (only dummies differ) are
 * merged into one slot.  No slot is empty: a port of load W has no dummy,
 * so every perfect matching runs one of its comms.
 *
 * The matching is kept from round to round.  An edge stays matched while
 * it has parts left; only the ends of an edge whose last part is done are
 * matched again, by shortest augmenting paths in the support (Berge: a
 * matching that is not maximum has one; the support has a perfect
 * matching, above).  So a comm runs in consecutive slots unless an
 * augmenting path moves it: few runs per comm, and steady-run sends a run
 * as one MPI message (steady_schedule_message_ids).  The matched edges sit
 * in a heap by the time they end, so a round costs O(log k) per edge that
 * ends, one breadth-first search per edge that leaves, and its slot's
 * size: near-linear in the schedule's size when the augmenting paths are
 * short (bench/plan.sh).
 *
 * STEADY_MATCHING_FRESH is the first version: each round, igraph's
 * maximum bipartite matching (docs/design.md: prefer a well-kept library)
 * of the support rebuilt from scratch, O(rounds x edges), quadratic in the
 * comms.  It gives other slots, which sometimes let steady-run join more
 * parts into one message; the planner tries it as a second candidate on
 * small periods (schedule/plan.c).  igraph's default error handler aborts,
 * so igraph runs under igraph_error_handler_ignore and its codes become
 * steady errors, as in platform/summary.c.
 *
 * All times are GMP rationals; the result is checked exactly before it is
 * returned (matching_check.c; STEADY_EINTERNAL if the check fails: a bug).
 */
#include "../common/array.h"
#include "internal.h"

#include <igraph.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* A piece of work on an edge of the padded graph: a real comm or idle time. */
typedef struct {
    int u, v; /* left (sender) and right (receiver) vertex, compacted */
    int comm; /* input index, or -1 for a dummy */
    int w;    /* its remaining time is wt[w] */
} part_t;

/* A distinct (u, v) pair: parts[cur .. end) are still to run, in order. */
typedef struct {
    int u, v;
    int cur, end;
} edge_t;

/* The padded W-regular bipartite graph, k vertices on each side. */
typedef struct {
    int k;
    mpq_t load; /* W */
    int nwt;    /* initialised entries of wt */
    mpq_t *wt;  /* remaining times: the comms' first, then the dummies' */
    int nparts;
    part_t *parts; /* sorted by (u, v, comms before the dummy, comm) */
    int nedges;
    edge_t *edges; /* sorted by (u, v) */
    int *first;    /* left vertex u's edges are edges[first[u] .. first[u + 1]) */
    int nleft;     /* initialised entries of left */
    mpq_t *left;   /* an edge's time still to run (peel(): as of when it left the matching) */
} bigraph_t;

static void bigraph_free(bigraph_t *g)
{
    for (int i = 0; i < g->nwt; i++)
        mpq_clear(g->wt[i]);
    for (int i = 0; i < g->nleft; i++)
        mpq_clear(g->left[i]);
    mpq_clear(g->load);
    free(g->wt);
    free(g->parts);
    free(g->edges);
    free(g->first);
    free(g->left);
}

static steady_err_t validate(int n, int ncomms, const int *src, const int *dst,
                             const mpq_t *duration, steady_error_t *err)
{
    if (n < 0)
        return steady_error_set(err, STEADY_EINVAL, "negative node count (%d)", n);
    if (ncomms < 0)
        return steady_error_set(err, STEADY_EINVAL, "negative communication count (%d)", ncomms);
    if (ncomms > INT_MAX / 4)
        return steady_error_set(err, STEADY_EINVAL, "too many communications (%d)", ncomms);
    if (ncomms > 0 && (!src || !dst || !duration))
        return steady_error_set(err, STEADY_EINVAL, "NULL src, dst or duration with %d comms",
                                ncomms);
    for (int c = 0; c < ncomms; c++) {
        if (src[c] < 0 || src[c] >= n)
            return steady_error_set(err, STEADY_EINVAL, "comm %d: unknown node id in src (%d)", c,
                                    src[c]);
        if (dst[c] < 0 || dst[c] >= n)
            return steady_error_set(err, STEADY_EINVAL, "comm %d: unknown node id in dst (%d)", c,
                                    dst[c]);
        if (src[c] == dst[c])
            return steady_error_set(err, STEADY_EINVAL, "comm %d: node %d cannot send to itself", c,
                                    src[c]);
        if (mpq_sgn(duration[c]) <= 0) {
            char q[64];
            gmp_snprintf(q, sizeof q, "%Qd", duration[c]);
            return steady_error_set(err, STEADY_EINVAL, "comm %d: duration must be positive (%s)",
                                    c, q);
        }
    }
    return STEADY_OK;
}

static int cmp_part(const void *a, const void *b)
{
    const part_t *x = a, *y = b;
    if (x->u != y->u)
        return x->u < y->u ? -1 : 1;
    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    if ((x->comm < 0) != (y->comm < 0))
        return x->comm < 0 ? 1 : -1; /* the dummy runs last */
    if (x->comm != y->comm)
        return x->comm < y->comm ? -1 : 1;
    return (x->w > y->w) - (x->w < y->w);
}

/* Numbers the nodes that send (receive) 0, 1, ... in increasing node id
 * into id[]; -1 for the others.  Returns how many were numbered. */
static int compact(int n, int ncomms, const int *end, int *id)
{
    for (int i = 0; i < n; i++)
        id[i] = -1;
    for (int c = 0; c < ncomms; c++)
        id[end[c]] = 0;
    int count = 0;
    for (int i = 0; i < n; i++)
        if (id[i] == 0)
            id[i] = count++;
    return count;
}

/* Builds the padded W-regular graph of step 1.  O(n + (ncomms + k) log). */
static steady_err_t bigraph_build(int n, int ncomms, const int *src, const int *dst,
                                  const mpq_t *duration, bigraph_t *g, steady_error_t *err)
{
    steady_err_t rc = STEADY_OK;
    int *lid = malloc((size_t)(n ? n : 1) * sizeof *lid);
    int *rid = malloc((size_t)(n ? n : 1) * sizeof *rid);
    mpq_t *def = NULL; /* deficits: left vertices 0..k-1, right ones k..2k-1 */
    int k = 0, ndef = 0;
    if (!lid || !rid)
        goto nomem;

    int nl = compact(n, ncomms, src, lid), nr = compact(n, ncomms, dst, rid);
    k = g->k = nl > nr ? nl : nr;
    int cap = ncomms + 2 * k;
    def = malloc((size_t)(k ? 2 * k : 1) * sizeof *def);
    g->wt = malloc((size_t)(cap ? cap : 1) * sizeof *g->wt);
    g->parts = malloc((size_t)(cap ? cap : 1) * sizeof *g->parts);
    g->edges = malloc((size_t)(cap ? cap : 1) * sizeof *g->edges);
    g->first = calloc((size_t)k + 1, sizeof *g->first);
    if (!def || !g->wt || !g->parts || !g->edges || !g->first)
        goto nomem;
    for (; ndef < 2 * k; ndef++)
        mpq_init(def[ndef]);
    for (; g->nwt < cap; g->nwt++)
        mpq_init(g->wt[g->nwt]);

    /* loads (held in def for now), W, then deficits W - load */
    for (int c = 0; c < ncomms; c++) {
        mpq_set(g->wt[c], duration[c]);
        mpq_add(def[lid[src[c]]], def[lid[src[c]]], duration[c]);
        mpq_add(def[k + rid[dst[c]]], def[k + rid[dst[c]]], duration[c]);
        g->parts[c] = (part_t){.u = lid[src[c]], .v = rid[dst[c]], .comm = c, .w = c};
    }
    for (int i = 0; i < 2 * k; i++)
        if (mpq_cmp(def[i], g->load) > 0)
            mpq_set(g->load, def[i]);
    for (int i = 0; i < 2 * k; i++)
        mpq_sub(def[i], g->load, def[i]);

    /* the two-pointer sweep: each dummy zeroes the deficit of i or of j */
    int np = ncomms;
    for (int i = 0, j = k; i < k && j < 2 * k;) {
        if (mpq_sgn(def[i]) == 0) {
            i++;
            continue;
        }
        if (mpq_sgn(def[j]) == 0) {
            j++;
            continue;
        }
        if (np == cap) {
            rc = steady_error_set(err, STEADY_EINTERNAL, "matchings: too many dummy edges");
            goto cleanup;
        }
        mpq_t *d = &g->wt[np];
        mpq_set(*d, mpq_cmp(def[i], def[j]) <= 0 ? def[i] : def[j]);
        mpq_sub(def[i], def[i], *d);
        mpq_sub(def[j], def[j], *d);
        g->parts[np] = (part_t){.u = i, .v = j - k, .comm = -1, .w = np};
        np++;
    }
    for (int i = 0; i < 2 * k; i++)
        if (mpq_sgn(def[i]) != 0) {
            rc = steady_error_set(err, STEADY_EINTERNAL,
                                  "matchings: vertex %d still under-loaded after padding", i);
            goto cleanup;
        }
    g->nparts = np;

    /* group the parts into edges */
    qsort(g->parts, (size_t)np, sizeof *g->parts, cmp_part);
    for (int p = 0; p < np; p++) {
        const part_t *a = &g->parts[p];
        if (p == 0 || a->u != a[-1].u || a->v != a[-1].v) {
            g->edges[g->nedges++] = (edge_t){.u = a->u, .v = a->v, .cur = p, .end = p + 1};
            g->first[a->u + 1]++;
        } else {
            g->edges[g->nedges - 1].end = p + 1;
        }
    }
    for (int u = 0; u < k; u++)
        g->first[u + 1] += g->first[u];
    if (!(g->left = malloc((size_t)(g->nedges ? g->nedges : 1) * sizeof *g->left)))
        goto nomem;
    for (; g->nleft < g->nedges; g->nleft++) {
        const edge_t *ed = &g->edges[g->nleft];
        mpq_init(g->left[g->nleft]);
        for (int q = ed->cur; q < ed->end; q++)
            mpq_add(g->left[g->nleft], g->left[g->nleft], g->wt[g->parts[q].w]);
    }
    goto cleanup;

nomem:
    rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
cleanup:
    for (int i = 0; i < ndef; i++)
        mpq_clear(def[i]);
    free(def);
    free(lid);
    free(rid);
    return rc;
}

/* The edge (u, v) of g, or -1: a binary search among u's edges. */
static int find_edge(const bigraph_t *g, int u, int v)
{
    int lo = g->first[u], hi = g->first[u + 1] - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (g->edges[mid].v == v)
            return mid;
        if (g->edges[mid].v < v)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* The slot a round runs: its comms in the order they run (a sender's,
 * all to one receiver, one after another) and the time each one runs,
 * unset where it runs the whole round (full); and the flags of the slot
 * emitted last, whose full comms get its duration when it is closed. */
typedef struct {
    int n, cap, ninit;
    int *comms;
    mpq_t *time;
    bool *full;
    int nlast;
    bool *last_full;
    mpq_t rest, at; /* scratch */
} round_t;

static void round_free(round_t *b)
{
    for (int i = 0; i < b->ninit; i++)
        mpq_clear(b->time[i]);
    mpq_clears(b->rest, b->at, NULL);
    free(b->comms);
    free(b->time);
    free(b->full);
    free(b->last_full);
}

/* Appends comm c to b, running the whole round (time NULL) or for time. */
static bool round_add(round_t *b, int c, mpq_srcptr time)
{
    if (b->n == b->cap) {
        int cap = b->cap, cap2 = b->cap, cap3 = b->cap;
        if (!array_grow((void **)&b->comms, &cap, b->n + 1, sizeof *b->comms, 16) ||
            !array_grow((void **)&b->time, &cap2, b->n + 1, sizeof *b->time, 16) ||
            !array_grow((void **)&b->full, &cap3, b->n + 1, sizeof *b->full, 16) ||
            !array_grow((void **)&b->last_full, &b->cap, b->n + 1, sizeof *b->last_full, 16))
            return false;
        for (; b->ninit < cap2; b->ninit++)
            mpq_init(b->time[b->ninit]);
    }
    b->comms[b->n] = c;
    b->full[b->n] = !time;
    if (time)
        mpq_set(b->time[b->n], time);
    b->n++;
    return true;
}

/* Runs edge e of g for `delta` from where it is: its parts one after
 * another (the real comms, then the dummy), each real part it works on
 * appended to b with the time it runs (peel_fresh()).  False when memory
 * runs out. */
static bool run_edge(bigraph_t *g, int e, const mpq_t delta, round_t *b)
{
    edge_t *ed = &g->edges[e];
    mpq_set(b->rest, delta);
    while (mpq_sgn(b->rest) > 0 && ed->cur < ed->end) {
        const part_t *p = &g->parts[ed->cur];
        mpq_ptr w = g->wt[p->w];
        bool whole = mpq_cmp(w, b->rest) <= 0;
        mpq_srcptr run = whole ? w : b->rest;
        if (p->comm >= 0 && !round_add(b, p->comm, mpq_equal(run, delta) ? NULL : run))
            return false;
        if (whole) {
            mpq_sub(b->rest, b->rest, w);
            mpq_set_ui(w, 0, 1);
            ed->cur++;
        } else {
            mpq_sub(w, w, b->rest);
            mpq_set_ui(b->rest, 0, 1);
        }
    }
    return true;
}

/* Gives the full comms of the slot emitted last its duration. */
static void close_slot(steady_matchings_t *m, const round_t *b)
{
    if (m->nslots == 0)
        return;
    steady_slot_t *last = &m->slots[m->nslots - 1];
    for (int q = 0; q < b->nlast; q++)
        if (b->last_full[q])
            mpq_set(last->time[q], last->duration);
}

/* Appends the slot b ran for delta, or lengthens the last slot when it
 * ran the same comms (each then runs through both: one comm per edge, the
 * only one of its edge in both, from the slot's start); false when memory
 * runs out or when it would be slot max_slots + 1 (a bug: *over is set).
 * close_slot() once the last round is emitted. */
static bool emit_slot(steady_matchings_t *m, int max_slots, const mpq_t delta, round_t *b,
                      bool *over)
{
    if (m->nslots > 0) {
        steady_slot_t *last = &m->slots[m->nslots - 1];
        if (last->ncomms == b->n &&
            memcmp(last->comms, b->comms, (size_t)b->n * sizeof *b->comms) == 0) {
            mpq_add(last->duration, last->duration, delta);
            return true;
        }
    }
    if (m->nslots == max_slots) {
        *over = true;
        return false;
    }
    close_slot(m, b);
    steady_slot_t *s = &m->slots[m->nslots];
    s->ncomms = 0;
    s->comms = malloc((size_t)(b->n ? b->n : 1) * sizeof *s->comms);
    s->time = malloc((size_t)(b->n ? b->n : 1) * sizeof *s->time);
    if (!s->comms || !s->time) {
        free(s->comms);
        free(s->time);
        return false;
    }
    m->nslots++;
    mpq_init(s->duration);
    mpq_set(s->duration, delta);
    memcpy(s->comms, b->comms, (size_t)b->n * sizeof *b->comms);
    for (; s->ncomms < b->n; s->ncomms++) {
        mpq_init(s->time[s->ncomms]);
        if (!b->full[s->ncomms])
            mpq_set(s->time[s->ncomms], b->time[s->ncomms]);
    }
    memcpy(b->last_full, b->full, (size_t)b->n * sizeof *b->full);
    b->nlast = b->n;
    return true;
}

/* The state of step 2: the current perfect matching of the support, kept
 * from round to round and repaired by augmenting paths where edges leave
 * it; the matched edges in a heap by the time they end. */
typedef struct {
    bigraph_t *g;
    int *adj, *alen,
        *apos;   /* u's support edges: adj[first[u] .. first[u] + alen[u]); edge's place */
    int *mate_l; /* left vertex -> its matched edge, -1 */
    int *mate_r; /* right vertex -> its matched left vertex, -1 */
    mpq_t *fin;  /* matched edge: when it ends */
    mpq_t *pfin; /* live edge: when its current part ends */
    int *heap, *hpos, nheap; /* matched edges by fin; edge -> place in heap, -1 */
    int *live, *lpos, nlive; /* matched edges with a real comm left to run */
    mpq_t now;
    /* augmenting-path search */
    int *queue, *via, *seen, stamp;
} peel_t;

static bool heap_less(const peel_t *s, int a, int b)
{
    return mpq_cmp(s->fin[s->heap[a]], s->fin[s->heap[b]]) < 0;
}

static void heap_swap(peel_t *s, int a, int b)
{
    int x = s->heap[a];
    s->heap[a] = s->heap[b];
    s->heap[b] = x;
    s->hpos[s->heap[a]] = a;
    s->hpos[s->heap[b]] = b;
}

static void heap_fix(peel_t *s, int i)
{
    while (i > 0 && heap_less(s, i, (i - 1) / 2)) {
        heap_swap(s, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < s->nheap && heap_less(s, l, m))
            m = l;
        if (r < s->nheap && heap_less(s, r, m))
            m = r;
        if (m == i)
            return;
        heap_swap(s, i, m);
        i = m;
    }
}

static void heap_remove(peel_t *s, int e)
{
    int i = s->hpos[e];
    s->hpos[e] = -1;
    if (--s->nheap > i) {
        s->heap[i] = s->heap[s->nheap];
        s->hpos[s->heap[i]] = i;
        heap_fix(s, i);
    }
}

/* Whether edge e has a real comm left to run (its dummy, if any, is
 * last). */
static bool real_part(const bigraph_t *g, int e)
{
    const edge_t *ed = &g->edges[e];
    return ed->cur < ed->end && g->parts[ed->cur].comm >= 0;
}

static void live_add(peel_t *s, int e)
{
    if (real_part(s->g, e)) {
        s->lpos[e] = s->nlive;
        s->live[s->nlive++] = e;
    }
}

static void live_remove(peel_t *s, int e)
{
    if (s->lpos[e] >= 0) {
        int i = s->lpos[e], last = s->live[--s->nlive];
        s->live[i] = last;
        s->lpos[last] = i;
        s->lpos[e] = -1;
    }
}

/* Edge e joins the matching: it runs on from now until it is done. */
static void match(peel_t *s, int e)
{
    const edge_t *ed = &s->g->edges[e];
    s->mate_l[ed->u] = e;
    s->mate_r[ed->v] = ed->u;
    mpq_add(s->fin[e], s->now, s->g->left[e]);
    s->hpos[e] = s->nheap;
    s->heap[s->nheap++] = e;
    heap_fix(s, s->nheap - 1);
    if (real_part(s->g, e))
        mpq_add(s->pfin[e], s->now, s->g->wt[s->g->parts[ed->cur].w]);
    live_add(s, e);
}

/* Edge e leaves the matching: it keeps what it has left to run, and so
 * does its current part. */
static void unmatch(peel_t *s, int e)
{
    const edge_t *ed = &s->g->edges[e];
    s->mate_l[ed->u] = -1;
    s->mate_r[ed->v] = -1;
    heap_remove(s, e);
    if (s->lpos[e] >= 0)
        mpq_sub(s->g->wt[s->g->parts[ed->cur].w], s->pfin[e], s->now);
    live_remove(s, e);
    mpq_sub(s->g->left[e], s->fin[e], s->now);
}

/* Runs live edge e from now to end (the round): its parts one after
 * another from the current one, which ends at pfin[e], each appended to b
 * (the first for the whole round when it lasts that long).  Comparisons
 * of absolute times: a part that runs on costs no arithmetic. */
static bool run_live(peel_t *s, int e, const mpq_t end, round_t *b)
{
    bigraph_t *g = s->g;
    edge_t *ed = &g->edges[e];
    mpq_srcptr t = s->now; /* when the part starts in the round */
    for (bool first = true; real_part(g, e); first = false) {
        int c = mpq_cmp(s->pfin[e], end), comm = g->parts[ed->cur].comm;
        if (!(first && c >= 0))
            mpq_sub(b->rest, c > 0 ? end : s->pfin[e], t);
        if (!round_add(b, comm, first && c >= 0 ? NULL : b->rest))
            return false;
        if (c > 0)
            break;
        mpq_set_ui(g->wt[g->parts[ed->cur].w], 0, 1);
        ed->cur++;
        mpq_set(b->at, s->pfin[e]);
        t = b->at;
        if (real_part(g, e))
            mpq_add(s->pfin[e], s->pfin[e], g->wt[g->parts[ed->cur].w]);
        if (c == 0)
            break;
    }
    return true;
}

/* Matches the free left vertex u0 by a shortest augmenting path in the
 * support (breadth first); false when there is none. */
static bool augment(peel_t *s, int u0)
{
    const bigraph_t *g = s->g;
    int head = 0, tail = 0;
    s->stamp++;
    s->queue[tail++] = u0;
    while (head < tail) {
        int u = s->queue[head++];
        for (int a = g->first[u]; a < g->first[u] + s->alen[u]; a++) {
            int e = s->adj[a], v = g->edges[e].v;
            if (s->seen[v] == s->stamp || s->mate_l[u] == e)
                continue;
            s->seen[v] = s->stamp;
            s->via[v] = e;
            if (s->mate_r[v] >= 0) {
                s->queue[tail++] = s->mate_r[v];
                continue;
            }
            /* flip the path back to u0 */
            for (;;) {
                int f = s->via[v], w = g->edges[f].u, old = s->mate_l[w];
                if (old >= 0)
                    unmatch(s, old);
                match(s, f);
                if (w == u0)
                    return true;
                v = g->edges[old].v;
            }
        }
    }
    return false;
}

/* Edge e leaves the support (its last part is done). */
static void drop_edge(peel_t *s, int e)
{
    int u = s->g->edges[e].u, a = s->apos[e], last = s->adj[s->g->first[u] + --s->alen[u]];
    s->adj[a] = last;
    s->apos[last] = a;
}

/* Step 2: peels perfect matchings off g into m->slots (room for max_slots
 * slots).  The matching is kept from one round to the next: only the
 * edges whose last part is done leave it, and their vertices are matched
 * again by augmenting paths, so a comm runs in consecutive slots as long
 * as nothing forces it out (fewer, longer runs: steady-run sends a run as
 * one message).  A round costs O(log k) per edge that ends plus an
 * augmenting-path search per edge that leaves, plus the slot it emits. */
static steady_err_t peel(bigraph_t *g, int max_slots, steady_matchings_t *m, steady_error_t *err)
{
    int k = g->k, ne = g->nedges;
    steady_err_t rc = STEADY_OK;
    size_t k1 = (size_t)(k ? k : 1), e1 = (size_t)(ne ? ne : 1);
    peel_t s = {.g = g};
    s.adj = malloc(e1 * sizeof *s.adj);
    s.apos = malloc(e1 * sizeof *s.apos);
    s.alen = malloc(k1 * sizeof *s.alen);
    s.mate_l = malloc(k1 * sizeof *s.mate_l);
    s.mate_r = malloc(k1 * sizeof *s.mate_r);
    s.fin = malloc(e1 * sizeof *s.fin);
    s.pfin = malloc(e1 * sizeof *s.pfin);
    s.heap = malloc(e1 * sizeof *s.heap);
    s.hpos = malloc(e1 * sizeof *s.hpos);
    s.live = malloc(e1 * sizeof *s.live);
    s.lpos = malloc(e1 * sizeof *s.lpos);
    s.queue = malloc(k1 * sizeof *s.queue);
    s.via = malloc(k1 * sizeof *s.via);
    s.seen = calloc(k1, sizeof *s.seen);
    int *freed = malloc(k1 * sizeof *freed);
    int nfin = 0;
    round_t b = {0};
    mpq_t delta;
    mpq_inits(delta, s.now, b.rest, b.at, NULL);
    if (!s.adj || !s.apos || !s.alen || !s.mate_l || !s.mate_r || !s.fin || !s.pfin || !s.heap ||
        !s.hpos || !s.live || !s.lpos || !s.queue || !s.via || !s.seen || !freed)
        goto nomem;
    for (; nfin < ne; nfin++)
        mpq_inits(s.fin[nfin], s.pfin[nfin], NULL);
    for (int u = 0; u < k; u++) {
        s.alen[u] = g->first[u + 1] - g->first[u];
        s.mate_l[u] = s.mate_r[u] = -1;
    }
    for (int e = 0; e < ne; e++) {
        s.adj[e] = e; /* edges are sorted by u: u's are first[u] .. first[u + 1] */
        s.apos[e] = e;
        s.hpos[e] = s.lpos[e] = -1;
    }
    /* the first matching: greedy, then augmenting paths */
    for (int u = 0; u < k; u++)
        for (int a = g->first[u]; a < g->first[u + 1] && s.mate_l[u] < 0; a++)
            if (s.mate_r[g->edges[a].v] < 0)
                match(&s, a);
    int nfree = 0;
    for (int u = 0; u < k; u++)
        if (s.mate_l[u] < 0)
            freed[nfree++] = u;
    bool over = false;
    for (;;) {
        for (int i = 0; i < nfree; i++)
            if (!augment(&s, freed[i]) && s.alen[freed[i]] > 0) {
                rc = steady_error_set(err, STEADY_EINTERNAL,
                                      "matchings: no perfect matching of a regular support "
                                      "(vertex %d)",
                                      freed[i]);
                goto cleanup;
            }
        nfree = 0;
        if (s.nheap == 0)
            break;
        if (s.nheap != k) {
            rc = steady_error_set(err, STEADY_EINTERNAL,
                                  "matchings: %d of %d vertices matched in a regular graph",
                                  s.nheap, k);
            goto cleanup;
        }
        /* run the matching until its first edge ends: the live edges'
         * comms, in the order of the edges (by sender) */
        mpq_sub(delta, s.fin[s.heap[0]], s.now);
        qsort(s.live, (size_t)s.nlive, sizeof *s.live, array_cmp_int);
        b.n = 0;
        for (int i = 0; i < s.nlive; i++) {
            s.lpos[s.live[i]] = i;
            if (!run_live(&s, s.live[i], s.fin[s.heap[0]], &b))
                goto nomem;
        }
        for (int i = s.nlive - 1; i >= 0; i--)
            if (!real_part(g, s.live[i]))
                live_remove(&s, s.live[i]);
        if (!emit_slot(m, max_slots, delta, &b, &over)) {
            if (over)
                rc = steady_error_set(err, STEADY_EINTERNAL,
                                      "matchings: more than the %d slots proven possible",
                                      max_slots);
            else
                goto nomem;
            goto cleanup;
        }
        mpq_set(s.now, s.fin[s.heap[0]]);
        /* the edges done now leave the support, and their ends are
         * matched again */
        while (s.nheap > 0 && mpq_equal(s.fin[s.heap[0]], s.now)) {
            int e = s.heap[0];
            unmatch(&s, e);
            g->edges[e].cur = g->edges[e].end;
            drop_edge(&s, e);
            freed[nfree++] = g->edges[e].u;
        }
    }
    goto cleanup;

nomem:
    rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
cleanup:
    close_slot(m, &b);
    for (int i = 0; i < nfin; i++)
        mpq_clears(s.fin[i], s.pfin[i], NULL);
    mpq_clears(delta, s.now, NULL);
    round_free(&b);
    free(s.adj);
    free(s.apos);
    free(s.alen);
    free(s.mate_l);
    free(s.mate_r);
    free(s.fin);
    free(s.pfin);
    free(s.heap);
    free(s.hpos);
    free(s.live);
    free(s.lpos);
    free(s.queue);
    free(s.via);
    free(s.seen);
    free(freed);
    return rc;
}

static steady_err_t from_igraph(igraph_error_t code, const char *call, steady_error_t *err)
{
    if (code == IGRAPH_ENOMEM)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory (in igraph's %s)", call);
    return steady_error_set(err, STEADY_EINTERNAL, "igraph's %s failed: %s", call,
                            igraph_strerror(code));
}

/* igraph is built without thread safety here (IGRAPH_THREAD_SAFE 0: its
 * error handler and its stack of things to free on an error are global),
 * so the planner's threads (schedule/plan.c) take turns in it. */
static pthread_mutex_t igraph_lock = PTHREAD_MUTEX_INITIALIZER;

/* Step 2 as it was first written (STEADY_MATCHING_FRESH): each round a
 * maximum matching of the support from scratch (igraph's push-relabel),
 * O(k + m) plus the matching per round: quadratic in the comms, which the
 * planner pays only on small periods, as a second candidate (its slots
 * sometimes let more parts join into one message than peel()'s). */
static steady_err_t peel_fresh(bigraph_t *g, int max_rounds, steady_matchings_t *m,
                               steady_error_t *err)
{
    int k = g->k;
    steady_err_t rc = STEADY_OK;
    igraph_vector_int_t ends, mate;
    igraph_vector_bool_t types;
    igraph_t graph;
    bool have_ends = false, have_mate = false, have_types = false;
    igraph_error_t ic;
    const char *call = "";
    int *matched = malloc((size_t)(k ? k : 1) * sizeof *matched);
    round_t b = {0};
    mpq_t delta;
    mpq_inits(delta, b.rest, b.at, NULL);
    igraph_error_handler_t *previous = igraph_set_error_handler(igraph_error_handler_ignore);
    if (!matched) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto cleanup;
    }
    if ((ic = igraph_vector_int_init(&ends, 0))) {
        call = "igraph_vector_int_init";
        goto igraph_failed;
    }
    have_ends = true;
    if ((ic = igraph_vector_int_init(&mate, 0))) {
        call = "igraph_vector_int_init";
        goto igraph_failed;
    }
    have_mate = true;
    if ((ic = igraph_vector_bool_init(&types, 2 * (igraph_integer_t)k))) {
        call = "igraph_vector_bool_init";
        goto igraph_failed;
    }
    have_types = true;
    for (int i = 0; i < 2 * k; i++)
        VECTOR(types)[i] = i >= k; /* receivers are k .. 2k-1 */

    for (int round = 0;; round++) {
        /* the support: edges with a part left */
        igraph_integer_t ns = 0;
        for (int e = 0; e < g->nedges; e++)
            ns += g->edges[e].cur < g->edges[e].end;
        if (ns == 0)
            break;
        if (round == max_rounds) {
            rc = steady_error_set(err, STEADY_EINTERNAL,
                                  "matchings: more than the %d rounds proven possible", max_rounds);
            goto cleanup;
        }
        if ((ic = igraph_vector_int_resize(&ends, 2 * ns))) {
            call = "igraph_vector_int_resize";
            goto igraph_failed;
        }
        igraph_integer_t q = 0;
        for (int e = 0; e < g->nedges; e++)
            if (g->edges[e].cur < g->edges[e].end) {
                VECTOR(ends)[q++] = g->edges[e].u;
                VECTOR(ends)[q++] = k + g->edges[e].v;
            }
        if ((ic = igraph_create(&graph, &ends, 2 * (igraph_integer_t)k, IGRAPH_UNDIRECTED))) {
            call = "igraph_create";
            goto igraph_failed;
        }
        igraph_integer_t size = 0;
        ic = igraph_maximum_bipartite_matching(&graph, &types, &size, NULL, &mate, NULL, 0);
        igraph_destroy(&graph);
        if (ic) {
            call = "igraph_maximum_bipartite_matching";
            goto igraph_failed;
        }
        if (size != k) {
            rc = steady_error_set(err, STEADY_EINTERNAL,
                                  "matchings: round %d matched %ld of %d vertices in a regular "
                                  "graph",
                                  round, (long)size, k);
            goto cleanup;
        }

        /* δ = the shortest time left of the matched edges */
        for (int u = 0; u < k; u++) {
            igraph_integer_t v = VECTOR(mate)[u] - k;
            int e = v >= 0 && v < k ? find_edge(g, u, (int)v) : -1;
            if (e < 0 || g->edges[e].cur == g->edges[e].end) {
                rc = steady_error_set(err, STEADY_EINTERNAL,
                                      "matchings: igraph matched %d outside the support", u);
                goto cleanup;
            }
            matched[u] = e;
            if (u == 0 || mpq_cmp(g->left[e], delta) < 0)
                mpq_set(delta, g->left[e]);
        }

        /* run it: the real comms it runs form the slot */
        b.n = 0;
        for (int u = 0; u < k; u++) {
            int e = matched[u];
            if (!run_edge(g, e, delta, &b)) {
                rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
                goto cleanup;
            }
            mpq_sub(g->left[e], g->left[e], delta);
            if (mpq_sgn(g->left[e]) == 0)
                g->edges[e].cur = g->edges[e].end;
        }
        bool over = false;
        if (!emit_slot(m, max_rounds, delta, &b, &over)) {
            rc = over ? steady_error_set(err, STEADY_EINTERNAL,
                                         "matchings: more than the %d slots proven possible",
                                         max_rounds)
                      : steady_error_set(err, STEADY_ENOMEM, "out of memory");
            goto cleanup;
        }
    }
    goto cleanup;

igraph_failed:
    rc = from_igraph(ic, call, err);
cleanup:
    if (have_types)
        igraph_vector_bool_destroy(&types);
    if (have_mate)
        igraph_vector_int_destroy(&mate);
    if (have_ends)
        igraph_vector_int_destroy(&ends);
    igraph_set_error_handler(previous);
    close_slot(m, &b);
    mpq_clear(delta);
    round_free(&b);
    free(matched);
    return rc;
}

/*
 * Complexity: R <= E + k - 1 rounds (E distinct sender-receiver pairs,
 * k = max(#senders, #receivers) <= min(n, ncomms)); O((E + k) log k)
 * rational operations for the heap, one breadth-first search (O(edges) at
 * worst) per edge that leaves the support, and the output's size to emit
 * and verify the slots; O(n + ncomms + k) memory.  The result has at most
 * E + k - 1 slots.
 */
steady_err_t steady_matchings_decompose(int n, int ncomms, const int *src, const int *dst,
                                        const mpq_t *duration, steady_matchings_t **out,
                                        steady_error_t *err)
{
    return steady_matchings_decompose_rule(n, ncomms, src, dst, duration, STEADY_MATCHING_KEEP, out,
                                           err);
}

steady_err_t steady_matchings_decompose_rule(int n, int ncomms, const int *src, const int *dst,
                                             const mpq_t *duration, steady_matching_rule_t rule,
                                             steady_matchings_t **out, steady_error_t *err)
{
    *out = NULL;
    steady_err_t rc = validate(n, ncomms, src, dst, duration, err);
    if (rc)
        return rc;

    bigraph_t g = {0};
    mpq_init(g.load);
    steady_matchings_t *m = calloc(1, sizeof *m);
    if (!m) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto cleanup;
    }
    mpq_init(m->total);
    if ((rc = bigraph_build(n, ncomms, src, dst, duration, &g, err)))
        goto cleanup;
    int pairs = 0; /* E: the edges with a real comm */
    for (int e = 0; e < g.nedges; e++)
        pairs += g.parts[g.edges[e].cur].comm >= 0;
    int max_slots = ncomms > 0 ? pairs + g.k - 1 : 0;
    m->slots = malloc((size_t)(max_slots ? max_slots : 1) * sizeof *m->slots);
    if (!m->slots) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto cleanup;
    }
    if (rule == STEADY_MATCHING_FRESH) {
        pthread_mutex_lock(&igraph_lock);
        rc = peel_fresh(&g, max_slots, m, err);
        pthread_mutex_unlock(&igraph_lock);
    } else {
        rc = peel(&g, max_slots, m, err);
    }
    if (rc)
        goto cleanup;
    if ((rc = matchings_verify(n, ncomms, src, dst, duration, g.load, max_slots, m, err)))
        goto cleanup;
    *out = m;
    m = NULL;

cleanup:
    steady_matchings_destroy(m);
    bigraph_free(&g);
    return rc;
}

void steady_matchings_destroy(steady_matchings_t *m)
{
    if (!m)
        return;
    for (int s = 0; s < m->nslots; s++) {
        mpq_clear(m->slots[s].duration);
        for (int q = 0; q < m->slots[s].ncomms; q++)
            mpq_clear(m->slots[s].time[q]);
        free(m->slots[s].comms);
        free(m->slots[s].time);
    }
    free(m->slots);
    mpq_clear(m->total);
    free(m);
}
