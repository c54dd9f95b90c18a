/*
 * fluid_share.c — how the transfers running at once share the resources
 * they cross (channels, links between switches), as SimGrid's network
 * model shares a link among flows, max-min fairly: each message moves at a
 * rate proportional to its hop's weight (1 / its sharing penalty,
 * steady_hop_penalty: the same for all under STEADY_FLOWS_FAIR), raised
 * until a resource is full or the transfer reaches its full speed (one
 * message per hop time, times the hop's recv-factor while a transfer runs
 * into its sender), then the others keep rising (progressive filling).
 * fluid.c's engine calls it whenever the set of running transfers changes.
 *
 * Cost: O(U) to set up (U the crossings of the running transfers'
 * resources), then per round of the filling O(running + resources
 * crossed) to find what stops first and O(crossings frozen) to freeze it:
 * each resource's transfers are listed once, its need (the time its
 * rising transfers take per message) kept as they freeze, not summed
 * again.  And a periodic schedule runs the same sets of transfers period
 * after period: the rates of each set met are kept (a memo of MEMO_SLOTS
 * sets, MEMO_POOL transfers in all, emptied when full), found again in
 * O(n) for n transfers.  Planning a 40-host torus' reduce took
 * 204 s, 91% of it here, when every round of every event summed every
 * crossing again.  A transfer alone on every resource it crosses is
 * frozen before the rounds, which go over the others only: planning a
 * broadcast on 100 Vivaldi peers, whose transfers share nothing, took
 * 29.5 s, 79% of it in rounds that froze one transfer each (5.2 s; a
 * schedule whose transfers share nothing but ports no longer comes to
 * the fluid replay at all: replay_prepare.c's shares_resources).
 */
#include "fluid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The memo: its slots (a power of two, at most half of them used: short
 * probes), and the transfers its sets hold in all. */
#define MEMO_SLOTS (1 << 16)
#define MEMO_POOL  (1 << 20)

bool share_init(share_t *s, const replay_t *r, int nnodes)
{
    size_t nres = (size_t)r->nres + 1;
    *s = (share_t){0};
    s->rx = calloc((size_t)nnodes + 1, sizeof *s->rx);
    s->load = calloc(nres, sizeof *s->load);
    s->need = calloc(nres, sizeof *s->need);
    s->alive = calloc(nres, sizeof *s->alive);
    s->count = calloc(nres, sizeof *s->count);
    s->first = calloc(nres, sizeof *s->first);
    s->act = malloc(nres * sizeof *s->act);
    s->live = malloc(nres * sizeof *s->live);
    s->table = malloc(MEMO_SLOTS * sizeof *s->table);
    s->keys = malloc(MEMO_POOL * sizeof *s->keys);
    s->rates = malloc(MEMO_POOL * sizeof *s->rates);
    s->mark = calloc((size_t)r->nx + 1, sizeof *s->mark);
    s->mi = malloc(((size_t)r->nx + 1) * sizeof *s->mi);
    if (s->table)
        memset(s->table, 0xff, MEMO_SLOTS * sizeof *s->table);
    return s->rx && s->load && s->need && s->alive && s->count && s->first && s->act && s->live &&
           s->table && s->keys && s->rates && s->mark && s->mi;
}

void share_free(share_t *s)
{
    free(s->rx);
    free(s->load);
    free(s->need);
    free(s->alive);
    free(s->count);
    free(s->first);
    free(s->act);
    free(s->live);
    free(s->rest);
    free(s->list);
    free(s->touched);
    free(s->mark);
    free(s->mi);
    free(s->table);
    free(s->keys);
    free(s->rates);
}

/* A transfer index mixed (splitmix64's finaliser): the set's hash is the
 * sum over its transfers, whatever their order. */
static unsigned long mix(unsigned long x)
{
    x += 0x9e3779b97f4a7c15UL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9UL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebUL;
    return x ^ (x >> 31);
}

/* The memo slot of the set of running transfers: the set's (*found), or
 * the empty one to put it in; -1 when the memo has no room. */
static int memo_find(share_t *s, const run_t *run, int nrun, bool *found)
{
    unsigned long h = (unsigned long)nrun;
    for (int a = 0; a < nrun; a++)
        h += mix((unsigned long)run[a].i);
    *found = false;
    for (unsigned long k = h & (MEMO_SLOTS - 1), probes = 0; probes < MEMO_SLOTS;
         k = (k + 1) & (MEMO_SLOTS - 1), probes++) {
        int off = s->table[k];
        if (off < 0)
            return (int)k;
        if (s->keys[off] != nrun)
            continue;
        /* the same multiset: each of its transfers takes one of the set's */
        for (int a = 0; a < nrun; a++)
            s->mark[run[a].i]++;
        bool same = true;
        for (int j = off + 1; j <= off + nrun && same; j++)
            same = s->mark[s->keys[j]]-- > 0;
        for (int a = 0; a < nrun; a++)
            s->mark[run[a].i] = 0;
        if (same) {
            *found = true;
            return (int)k;
        }
    }
    return -1;
}

/* A running transfer's full speed, in messages per unit of time: 1 / c,
 * times its hop's rf while a transfer runs into its sender (SimGrid's
 * cross traffic: the acknowledgements of what the sender receives share
 * its links; docs/calibration.md). */
static double full_speed(const share_t *s, const rtransfer_t *x)
{
    return (s->rx[x->from_node] > 0 ? x->rf : 1) / x->c;
}

/* The need of FATPIPE resource res: its heaviest rising transfer's. */
static void fat_need(share_t *s, const replay_t *r, const run_t *run, int res)
{
    s->need[res] = 0;
    for (int j = s->first[res]; j < s->first[res] + s->count[res]; j++) {
        const run_t *ru = &run[s->list[j]];
        if (ru->frozen)
            continue;
        const rtransfer_t *x = &r->x[ru->i];
        for (int u = x->use_first; u < x->use_first + x->nuse; u++)
            if (r->use_res[u] == res)
                s->need[res] = later(s->need[res], r->use_time[u] * x->weight);
    }
}

/* Transfer a stops rising at m (messages per unit of time per weight): its
 * resources carry its load, and its share of their need is gone. */
static void freeze(share_t *s, const replay_t *r, run_t *run, int a, double m, int *fat_touched,
                   int *nfat)
{
    run_t *ru = &run[a];
    const rtransfer_t *x = &r->x[ru->i];
    ru->frozen = true;
    ru->m = m * x->weight;
    for (int u = x->use_first; u < x->use_first + x->nuse; u++) {
        int res = r->use_res[u];
        s->alive[res]--;
        if (r->fat[res]) {
            fat_touched[(*nfat)++] = res;
        } else {
            s->load[res] += ru->m * r->use_time[u];
            s->need[res] -= r->use_time[u] * x->weight;
        }
    }
}

/* The progressive filling: each run[a].m and .rate.  A FATPIPE channel
 * (replay_t.fat) is full as SimGrid's lmm has it: when the heaviest of its
 * rising transfers reaches the channel's bandwidth, whatever the others
 * use, so that a transfer of a larger penalty gets that share of it
 * (maxmin.cpp: a FATPIPE constraint's usage is the max, not the sum, of
 * its flows' weights).  A transfer's progress is then its rate times c, of
 * its speed alone. */
static bool fill(share_t *s, const replay_t *r, run_t *run, int nrun)
{
    int ncross = 0;
    s->nact = 0;
    for (int a = 0; a < nrun; a++) {
        const rtransfer_t *x = &r->x[run[a].i];
        s->rx[x->to_node]++;
        run[a].frozen = false;
        for (int u = x->use_first; u < x->use_first + x->nuse; u++, ncross++) {
            int res = r->use_res[u];
            if (s->count[res]++ == 0) {
                s->act[s->nact++] = res;
                s->load[res] = s->need[res] = 0;
            }
            double need = r->use_time[u] * x->weight;
            s->need[res] = r->fat[res] ? later(s->need[res], need) : s->need[res] + need;
        }
    }
    if (ncross > s->caplist) {
        int cap = ncross > 2 * s->caplist ? ncross : 2 * s->caplist;
        int *list = realloc(s->list, (size_t)cap * sizeof *list);
        if (list)
            s->list = list;
        int *touched = list ? realloc(s->touched, (size_t)cap * sizeof *touched) : NULL;
        if (!touched)
            return false;
        s->touched = touched;
        s->caplist = cap;
    }
    /* each resource's crossings, in run order */
    for (int k = 0, at = 0; k < s->nact; k++) {
        int res = s->act[k];
        s->first[res] = at;
        at += s->count[res];
        s->alive[res] = 0;
    }
    for (int a = 0; a < nrun; a++) {
        const rtransfer_t *x = &r->x[run[a].i];
        for (int u = x->use_first; u < x->use_first + x->nuse; u++) {
            int res = r->use_res[u];
            s->list[s->first[res] + s->alive[res]++] = a;
        }
    }
    /* the FATPIPE resources a round froze transfers on */
    int *fat_touched = s->touched;
    if (nrun > s->caprest) {
        int cap = nrun > 2 * s->caprest ? nrun : 2 * s->caprest;
        int *rest = realloc(s->rest, (size_t)cap * sizeof *rest);
        if (!rest)
            return false;
        s->rest = rest;
        s->caprest = cap;
    }
    /* a transfer alone on every resource it crosses stops where the rounds
     * below would stop it, whatever the others do: at its full speed or
     * where one of its resources is full (the same comparisons); it is
     * frozen at once, and the rounds go over the others only (transfers
     * that share nothing, as between the peers of a Vivaldi zone, made a
     * round each, every round over them all) */
    int nrest = 0, nlive = 0, nfat = 0;
    for (int a = 0; a < nrun; a++) {
        const rtransfer_t *x = &r->x[run[a].i];
        bool alone = true;
        for (int u = x->use_first; u < x->use_first + x->nuse && alone; u++)
            alone = s->count[r->use_res[u]] == 1;
        if (!alone) {
            s->rest[nrest++] = a;
            continue;
        }
        double m = full_speed(s, x) / x->weight;
        for (int u = x->use_first; u < x->use_first + x->nuse; u++) {
            int res = r->use_res[u];
            double at = 1 / s->need[res];
            if (at < m || (r->fat[res] && at <= m * (1 + 1e-9)))
                m = at;
        }
        freeze(s, r, run, a, m, fat_touched, &nfat);
    }
    for (int k = 0; k < s->nact; k++)
        if (s->alive[s->act[k]] > 0)
            s->live[nlive++] = s->act[k];
    for (int left = nrest; left > 0;) {
        double m = INFINITY;
        int bottleneck = -1;
        for (int k = 0; k < nrest; k++)
            if (!run[s->rest[k]].frozen) {
                const rtransfer_t *x = &r->x[run[s->rest[k]].i];
                m = earlier(m, full_speed(s, x) / x->weight);
            }
        for (int k = 0; k < nlive; k++) {
            int res = s->live[k];
            if (s->alive[res] == 0)
                continue;
            double room = 1 - s->load[res];
            double at = room > 1e-12 ? room / s->need[res] : 0;
            /* a FATPIPE channel full when a transfer on it reaches its own
             * full speed freezes them all (SimGrid's lmm fixes a saturated
             * constraint's variables before bounded ones) */
            if (at < m || (r->fat[res] && at <= m * (1 + 1e-9))) {
                m = at;
                bottleneck = res;
            }
        }
        /* freeze what stops at m: the transfers on the full resource, or
         * those at their full speed */
        nfat = 0;
        if (bottleneck < 0) {
            for (int k = 0; k < nrest; k++) {
                int a = s->rest[k];
                const rtransfer_t *x = &r->x[run[a].i];
                if (!run[a].frozen && full_speed(s, x) <= m * x->weight * (1 + 1e-12)) {
                    freeze(s, r, run, a, m, fat_touched, &nfat);
                    left--;
                }
            }
        } else {
            int end = s->first[bottleneck] + s->count[bottleneck];
            for (int j = s->first[bottleneck]; j < end; j++)
                if (!run[s->list[j]].frozen) {
                    freeze(s, r, run, s->list[j], m, fat_touched, &nfat);
                    left--;
                }
        }
        for (int k = 0; k < nfat; k++)
            if (s->alive[fat_touched[k]] > 0)
                fat_need(s, r, run, fat_touched[k]);
    }
    for (int a = 0; a < nrun; a++) {
        run[a].rate = run[a].m * r->x[run[a].i].c;
        s->rx[r->x[run[a].i].to_node] = 0;
    }
    for (int k = 0; k < s->nact; k++)
        s->count[s->act[k]] = 0;
    return true;
}

bool share_rates(share_t *s, const replay_t *r, run_t *run, int nrun)
{
    bool found;
    int slot = memo_find(s, run, nrun, &found);
    if (found) {
        int off = s->table[slot];
        for (int j = off + 1; j <= off + nrun; j++)
            s->mi[s->keys[j]] = s->rates[j];
        for (int a = 0; a < nrun; a++)
            run[a].rate = s->mi[run[a].i] * r->x[run[a].i].c;
        return true;
    }
    if (!fill(s, r, run, nrun))
        return false;
    if (s->used + nrun + 1 > MEMO_POOL || s->nsets >= MEMO_SLOTS / 2) { /* full: emptied */
        memset(s->table, 0xff, MEMO_SLOTS * sizeof *s->table);
        s->used = s->nsets = 0;
        slot = memo_find(s, run, nrun, &found);
    }
    if (nrun + 1 <= MEMO_POOL && slot >= 0) {
        int off = s->used;
        s->keys[off] = nrun;
        for (int a = 0; a < nrun; a++) {
            s->keys[off + 1 + a] = run[a].i;
            s->rates[off + 1 + a] = run[a].m;
        }
        s->table[slot] = off;
        s->used += nrun + 1;
        s->nsets++;
    }
    return true;
}
