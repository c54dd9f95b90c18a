/*
 * replay_prepare.c — the schedule flattened for the replay's engines
 * (replay.h): its steps and their producers, the period's transfers and
 * compute entries, the producer pieces each one waits for, and the MPI
 * messages steady-run groups the transfers into.  Every reference the
 * engines follow is checked here, so that a malformed schedule is refused
 * with what is wrong rather than replayed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/array.h"
#include "../common/exact.h"
#include "replay.h"

void replay_free(replay_t *r)
{
    free(r->base);
    free(r->steps);
    free(r->x);
    free(r->xorder);
    free(r->xrun);
    free(r->cp);
    free(r->interval);
    free(r->origin);
    free(r->dep);
    free(r->dfrom);
    free(r->use_res);
    free(r->use_time);
    free(r->fat);
    free(r->inbox);
    free(r->out);
    free(r->ofirst);
    free(r->depth);
    free(r->sfirst);
    free(r->spieces);
    free(r->rfirst);
    free(r->readers);
    free(r->left);
}

/* The node where a step's output lives: the receiver of a send, the
 * processor of a task. */
static int out_node(const replay_t *r, const steady_sched_step_t *st)
{
    return st->kind == STEADY_STEP_SEND ? steady_sched_step_dst(r->sc, r->p, st) : st->node;
}

/* True when step st makes the value `type` (send) or the interval [k, m]
 * (reduce) on node v. */
static bool makes(const replay_t *r, const steady_sched_step_t *st, int v, int type, int k, int m)
{
    if (out_node(r, st) != v)
        return false;
    if (st->kind == STEADY_STEP_COMPUTE)
        return r->interval && st->k == k && st->m == m;
    if (type >= 0)
        return st->type == type;
    return r->interval && r->interval[st->type][0] == k && r->interval[st->type][1] == m;
}

/* Finds the producer of the input of tree t's step s: the value `type`
 * (or, type < 0, the reduce interval [k, m]) on node v.  Sets *flat to the
 * producing step's flat index, or to -1 for an initial value. */
static steady_err_t find_input(const replay_t *r, int t, int s, int v, int type, int k, int m,
                               int *flat, steady_error_t *err)
{
    const steady_schedule_t *sc = r->sc;
    const steady_sched_tree_t *tr = &sc->trees[t];
    /* dependency order: the producer is an earlier step; the nearest one
     * is the value this step reads if a node happened to get it twice */
    for (int j = s - 1; j >= 0; j--) {
        if (!makes(r, &tr->steps[j], v, type, k, m))
            continue;
        /* a task may use what its period's slots delivered (they run
         * first), a send what an earlier slot of its period delivered;
         * a send needs an earlier period's task result */
        bool same =
            tr->steps[s].kind == STEADY_STEP_COMPUTE || tr->steps[j].kind == STEADY_STEP_SEND;
        if (same ? tr->steps[j].lag > tr->steps[s].lag : tr->steps[j].lag >= tr->steps[s].lag)
            return steady_error_set(err, STEADY_EINVAL,
                                    "replay: tree %d step %d: lag %d too small for the lag %d "
                                    "of step %d that produces its input",
                                    t, s, tr->steps[s].lag, tr->steps[j].lag, j);
        *flat = r->base[t] + j;
        return STEADY_OK;
    }
    bool initial;
    if (sc->op == STEADY_OP_REDUCE)
        initial = k == m && k >= 0 && k < sc->nsources && sc->sources[k] == v;
    else if (sc->op == STEADY_OP_GOSSIP)
        initial = r->origin[type] == v;
    else
        initial = sc->nsources > 0 && sc->sources[0] == v;
    if (!initial) {
        if (type >= 0)
            return steady_error_set(
                err, STEADY_EINVAL,
                "replay: tree %d step %d: nothing produces its input (%s on %s)", t, s,
                sc->types[type], steady_platform_node(r->p, v)->name);
        return steady_error_set(
            err, STEADY_EINVAL,
            "replay: tree %d step %d: nothing produces its input ([%d,%d] on %s)", t, s, k, m,
            steady_platform_node(r->p, v)->name);
    }
    *flat = -1;
    return STEADY_OK;
}

/* Reads the message types the replay needs to know: the interval [k, m]
 * of a reduce type "[k,m]", the sender of a gossip type "SRC>DST". */
static steady_err_t parse_types(replay_t *r, steady_error_t *err)
{
    const steady_schedule_t *sc = r->sc;
    if (sc->op == STEADY_OP_REDUCE) {
        r->interval = malloc((size_t)(sc->ntypes + 1) * sizeof *r->interval);
        if (!r->interval)
            return steady_error_set(err, STEADY_ENOMEM, "replay: out of memory");
        for (int t = 0; t < sc->ntypes; t++) {
            int k, m, end = -1;
            if (sscanf(sc->types[t], "[%d,%d]%n", &k, &m, &end) != 2 || end < 0 ||
                sc->types[t][end] != '\0' || k < 0 || m < k || m >= sc->nsources)
                return steady_error_set(err, STEADY_EINVAL,
                                        "replay: message type %d is not a reduce interval (%s)", t,
                                        sc->types[t]);
            r->interval[t][0] = k;
            r->interval[t][1] = m;
        }
    } else if (sc->op == STEADY_OP_GOSSIP) {
        r->origin = malloc((size_t)(sc->ntypes + 1) * sizeof *r->origin);
        if (!r->origin)
            return steady_error_set(err, STEADY_ENOMEM, "replay: out of memory");
        for (int t = 0; t < sc->ntypes; t++) {
            const char *gt = strchr(sc->types[t], '>');
            char name[STEADY_NAME_MAX + 1];
            size_t len = gt ? (size_t)(gt - sc->types[t]) : 0;
            int v = -1;
            if (gt && len > 0 && len <= STEADY_NAME_MAX) {
                memcpy(name, sc->types[t], len);
                name[len] = '\0';
                v = steady_platform_find_node(r->p, name);
            }
            if (v < 0)
                return steady_error_set(err, STEADY_EINVAL,
                                        "replay: message type %d is not SRC>DST (%s)", t,
                                        sc->types[t]);
            r->origin[t] = v;
        }
    }
    return STEADY_OK;
}

/* True when a send step's hop is a chain of the platform's edges (`steady
 * check` says more). */
static bool hop_ok(const replay_t *r, const steady_sched_step_t *st)
{
    int ne = steady_platform_edge_count(r->p), n;
    if (st->edge < 0 || st->edge >= ne || st->hop >= r->sc->nhops)
        return false;
    const int *edges = steady_sched_step_edges(r->sc, st, &n);
    for (int k = 0; k < n; k++)
        if (edges[k] < 0 || edges[k] >= ne ||
            (k > 0 && steady_platform_edge(r->p, edges[k])->src !=
                          steady_platform_edge(r->p, edges[k - 1])->dst))
            return false;
    return edges[0] == st->edge;
}

/* Flattens the steps, checks every reference the loop follows, and finds
 * each step's producers. */
static steady_err_t prepare_steps(replay_t *r, steady_error_t *err)
{
    const steady_schedule_t *sc = r->sc;
    int nv = steady_platform_node_count(r->p);
    steady_err_t rc;
    r->base = malloc((size_t)(sc->ntrees + 1) * sizeof *r->base);
    if (!r->base)
        return steady_error_set(err, STEADY_ENOMEM, "replay: out of memory");
    r->nflat = 0;
    for (int t = 0; t < sc->ntrees; t++) {
        const steady_sched_tree_t *tr = &sc->trees[t];
        if (tr->weight <= 0 || tr->first < 0 || tr->first + tr->weight > sc->ops_per_period ||
            tr->nsteps <= 0)
            return steady_error_set(err, STEADY_EINVAL,
                                    "replay: tree %d: operations [%ld, %ld) outside the period's "
                                    "%ld, or no step",
                                    t, tr->first, tr->first + tr->weight, sc->ops_per_period);
        r->base[t] = r->nflat;
        r->nflat += tr->nsteps;
    }
    r->base[sc->ntrees] = r->nflat;
    r->steps = calloc((size_t)r->nflat + 1, sizeof *r->steps);
    if (!r->steps)
        return steady_error_set(err, STEADY_ENOMEM, "replay: out of memory");
    for (int t = 0; t < sc->ntrees; t++) {
        const steady_sched_tree_t *tr = &sc->trees[t];
        for (int s = 0; s < tr->nsteps; s++) {
            const steady_sched_step_t *st = &tr->steps[s];
            rstep_t *rs = &r->steps[r->base[t] + s];
            rs->tree = t;
            rs->step = s;
            rs->lag = st->lag;
            if (st->lag < 0 || st->lag > sc->max_lag)
                return steady_error_set(err, STEADY_EINVAL,
                                        "replay: tree %d step %d: lag %d outside [0, %d]", t, s,
                                        st->lag, sc->max_lag);
            if (st->kind == STEADY_STEP_SEND) {
                if (!hop_ok(r, st) || st->type < 0 || st->type >= sc->ntypes)
                    return steady_error_set(err, STEADY_EINVAL,
                                            "replay: tree %d step %d: no edge %d, hop %d or type "
                                            "%d",
                                            t, s, st->edge, st->hop, st->type);
                int u = steady_sched_step_src(sc, r->p, st);
                int k = r->interval ? r->interval[st->type][0] : 0;
                int m = r->interval ? r->interval[st->type][1] : 0;
                rs->nin = 1;
                rc = find_input(r, t, s, u, r->interval ? -1 : st->type, k, m, &rs->in[0], err);
                if (rc)
                    return rc;
            } else if (st->kind == STEADY_STEP_COMPUTE) {
                if (sc->op != STEADY_OP_REDUCE || st->node < 0 || st->node >= nv ||
                    steady_platform_node(r->p, st->node)->kind != STEADY_PROCESSOR || st->k < 0 ||
                    st->k > st->l || st->l >= st->m || st->m >= sc->nsources)
                    return steady_error_set(err, STEADY_EINVAL,
                                            "replay: tree %d step %d: not a task T(k,l,m) of "
                                            "a reduce on a processor",
                                            t, s);
                rs->nin = 2;
                rc = find_input(r, t, s, st->node, -1, st->k, st->l, &rs->in[0], err);
                if (!rc)
                    rc = find_input(r, t, s, st->node, -1, st->l + 1, st->m, &rs->in[1], err);
                if (rc)
                    return rc;
            } else {
                return steady_error_set(err, STEADY_EINVAL,
                                        "replay: tree %d step %d: unknown kind %d", t, s,
                                        (int)st->kind);
            }
        }
    }
    return STEADY_OK;
}

/* Adds time t on resource res to transfer x's uses (a resource crossed
 * twice counts twice). */
static bool add_use(replay_t *r, int *cap, rtransfer_t *x, int res, double t)
{
    int at = x->use_first;
    while (at < r->nuse && r->use_res[at] != res)
        at++;
    if (at < r->nuse) {
        r->use_time[at] += t;
        return true;
    }
    if (r->nuse == *cap) {
        int ncap = *cap ? 2 * *cap : 64;
        int *rs = realloc(r->use_res, (size_t)ncap * sizeof *rs);
        if (rs)
            r->use_res = rs;
        double *frac = realloc(r->use_time, (size_t)ncap * sizeof *frac);
        if (frac)
            r->use_time = frac;
        if (!rs || !frac)
            return false;
        *cap = ncap;
    }
    r->use_res[r->nuse] = res;
    r->use_time[r->nuse++] = t;
    x->nuse++;
    return true;
}

/* Appends the shared resources of transfer x's hop h to r's uses, each
 * with the time a message holds it (its cross traffic's share of it on
 * the reverse edges' resources: steady_loads_next); under the
 * penalty rule its FATPIPE channels too (replay_t.fat: SimGrid weighs the
 * flows crossing one). */
static bool add_uses(replay_t *r, int *cap, rtransfer_t *x, const steady_hop_t *h)
{
    const steady_schedule_t *sc = r->sc;
    bool penalty = steady_platform_flow_sharing(r->p, NULL) == STEADY_FLOWS_PENALTY;
    int R = steady_platform_resource_count(r->p);
    mpq_t u;
    mpq_init(u);
    x->use_first = r->nuse;
    x->nuse = 0;
    bool ok = true;
    int edge;
    const steady_use_t *us;
    steady_loads_t it;
    steady_loads_start(&it, r->p, h->edges, h->nedges);
    while (ok && steady_loads_next(&it, &edge, &us)) {
        steady_exact_use_time(r->p, edge, us, sc->msg_size, u);
        ok = add_use(r, cap, x, us->resource, mpq_get_d(u));
    }
    for (int k = 0; k < h->nedges && ok; k++) {
        const steady_edge_t *e = steady_platform_edge(r->p, h->edges[k]);
        for (int y = 0; y < e->ncross && ok && penalty; y++) {
            const steady_channel_t *ch = steady_platform_channel(r->p, e->cross[y].channel);
            if (ch->sharing != STEADY_FATPIPE)
                continue;
            ok = add_use(r, cap, x, R + e->cross[y].channel,
                         ch->bandwidth > 0 ? sc->msg_size / ch->bandwidth : ch->cost);
            r->fat[R + e->cross[y].channel] = true;
        }
    }
    mpq_clear(u);
    return ok;
}

/* Transfer i of the flat arrays, as the schedule has it. */
static const steady_sched_transfer_t *transfer(const replay_t *r, int i)
{
    return &r->sc->slots[r->x[i].slot].transfers[r->x[i].index];
}

/* A piece by its step, then its first position (exactly: the double,
 * then the rational on a tie). */
typedef struct {
    int flat, piece;
    double from;
    const mpq_t *q;
} piece_key_t;

static int cmp_piece_key(const void *a, const void *b)
{
    const piece_key_t *x = a, *y = b;
    if (x->flat != y->flat)
        return (x->flat > y->flat) - (x->flat < y->flat);
    return qcmp_d(*x->q, x->from, *y->q, y->from);
}

/* Sorts the n keys by step, then by position (cmp_piece_key): by step
 * with a counting sort, which keeps each step's keys in their order, and
 * then only the steps out of order by position (a planned schedule's
 * slots hand each step's positions out in order: none).  first (nflat + 2,
 * zeroed) gets where each step's keys start (first[f] .. first[f + 1]);
 * false when memory runs out. */
static bool sort_piece_keys(piece_key_t *key, int n, int nflat, int *first)
{
    piece_key_t *by = malloc(((size_t)n + 1) * sizeof *by);
    if (!by)
        return false;
    for (int i = 0; i < n; i++)
        first[key[i].flat + 2]++;
    for (int f = 0; f < nflat; f++)
        first[f + 2] += first[f + 1];
    for (int i = 0; i < n; i++)
        by[first[key[i].flat + 1]++] = key[i];
    memcpy(key, by, (size_t)n * sizeof *key);
    free(by);
    for (int f = 0; f < nflat; f++)
        for (int a = first[f] + 1; a < first[f + 1]; a++)
            if (cmp_piece_key(&key[a - 1], &key[a]) > 0) {
                qsort(key + first[f], (size_t)(first[f + 1] - first[f]), sizeof *key,
                      cmp_piece_key);
                break;
            }
    return true;
}

/* The first send step whose transfers do not tile its positions [0,
 * weight) exactly (as `steady check` requires); -1: none, -2: out of
 * memory.  Sorting and comparing, where summing the rationals costs a gcd
 * per transfer (most of a 1,000-node plan's replays). */
static int untiled_step(const replay_t *r)
{
    const steady_schedule_t *sc = r->sc;
    piece_key_t *v = malloc(((size_t)r->nx + 1) * sizeof *v);
    bool *sent = calloc((size_t)r->nflat + 1, sizeof *sent);
    int *start = calloc((size_t)r->nflat + 2, sizeof *start);
    int bad = -1;
    for (int i = 0; v && i < r->nx; i++)
        v[i] = (piece_key_t){r->x[i].flat, i, r->x[i].from, (const mpq_t *)&transfer(r, i)->from};
    if (!v || !sent || !start || !sort_piece_keys(v, r->nx, r->nflat, start)) {
        free(v);
        free(sent);
        free(start);
        return -2;
    }
    free(start);
    for (int i = 0; i < r->nx && bad < 0; i++) {
        int f = v[i].flat;
        bool first = i == 0 || v[i - 1].flat != f, last = i == r->nx - 1 || v[i + 1].flat != f;
        const steady_sched_transfer_t *t = transfer(r, v[i].piece);
        sent[f] = true;
        if ((first && mpq_sgn(t->from) != 0) ||
            (!first && !mpq_equal(transfer(r, v[i - 1].piece)->to, t->from)) ||
            (last && mpq_cmp_si(t->to, sc->trees[r->steps[f].tree].weight, 1) != 0))
            bad = f;
    }
    for (int f = 0; f < r->nflat && bad < 0; f++)
        if (!sent[f] &&
            sc->trees[r->steps[f].tree].steps[r->steps[f].step].kind == STEADY_STEP_SEND)
            bad = f;
    free(v);
    free(sent);
    return bad;
}

/* The period's transfers and compute entries as flat arrays, with c(e),
 * latency(e), w(x) as doubles (the simulation clock is a double; the
 * values come from the exact c(e) and w(x) the LP used).  Checks that each
 * send step's transfers carry exactly its weight of messages and each
 * compute step's entries exactly its weight of tasks, so that every batch
 * of every step is produced in full. */
static steady_err_t prepare_events(replay_t *r, steady_error_t *err)
{
    const steady_schedule_t *sc = r->sc;
    steady_err_t rc = STEADY_OK;
    int ucap = 0;
    mpq_t q;
    double *step_c = NULL; /* per step, its hop's exact time once (NaN: not yet) */
    mpq_init(q);
    r->nx = 0;
    for (int i = 0; i < sc->nslots; i++)
        r->nx += sc->slots[i].ntransfers;
    r->nc = sc->ncompute;
    r->x = malloc((size_t)(r->nx + 1) * sizeof *r->x);
    r->cp = malloc((size_t)(r->nc + 1) * sizeof *r->cp);
    step_c = malloc((size_t)(r->nflat + 1) * sizeof *step_c);
    r->nres = steady_platform_resource_count(r->p) + steady_platform_channel_count(r->p);
    r->fat = calloc((size_t)r->nres + 1, sizeof *r->fat);
    if (!r->x || !r->cp || !step_c || !r->fat) {
        free(step_c);
        mpq_clear(q);
        return steady_error_set(err, STEADY_ENOMEM, "replay: out of memory");
    }
    for (int f = 0; f < r->nflat; f++)
        step_c[f] = NAN;

    int n = 0;
    for (int i = 0; i < sc->nslots && !rc; i++) {
        for (int j = 0; j < sc->slots[i].ntransfers; j++) {
            const steady_sched_transfer_t *tx = &sc->slots[i].transfers[j];
            if (tx->tree < 0 || tx->tree >= sc->ntrees || tx->step < 0 ||
                tx->step >= sc->trees[tx->tree].nsteps ||
                sc->trees[tx->tree].steps[tx->step].kind != STEADY_STEP_SEND ||
                mpq_sgn(tx->from) < 0 || mpq_cmp(tx->from, tx->to) >= 0 ||
                mpq_cmp_si(tx->to, sc->trees[tx->tree].weight, 1) > 0) {
                rc = steady_error_set(err, STEADY_EINVAL,
                                      "replay: slot %d transfer %d: not a part of a send step "
                                      "(tree %d step %d)",
                                      i, j, tx->tree, tx->step);
                break;
            }
            const steady_sched_step_t *st = &sc->trees[tx->tree].steps[tx->step];
            steady_hop_t h = {.src = steady_sched_step_src(sc, r->p, st),
                              .dst = steady_sched_step_dst(sc, r->p, st)};
            h.edges = (int *)steady_sched_step_edges(sc, st, &h.nedges);
            rtransfer_t *x = &r->x[n++];
            x->flat = r->base[tx->tree] + tx->step;
            x->tree = tx->tree;
            x->slot = i;
            x->index = j;
            x->from_node = h.src;
            x->to_node = h.dst;
            x->from = mpq_get_d(tx->from);
            x->to = mpq_get_d(tx->to);
            if (isnan(step_c[x->flat])) {
                steady_exact_hop_time(r->p, &h, sc->msg_size, q);
                step_c[x->flat] = mpq_get_d(q);
            }
            x->c = step_c[x->flat];
            x->latency = steady_hop_latency(r->p, &h);
            x->rf = steady_hop_recv_factor(r->p, &h);
            x->weight = 1 / steady_hop_penalty(r->p, &h);
            r->fluid = r->fluid || x->rf < 1;
            if (!add_uses(r, &ucap, x, &h)) {
                rc = steady_error_set(err, STEADY_ENOMEM, "replay: out of memory");
                break;
            }
        }
    }
    for (int i = 0; i < sc->ncompute && !rc; i++) {
        const steady_sched_compute_t *ce = &sc->compute[i];
        if (ce->tree < 0 || ce->tree >= sc->ntrees || ce->step < 0 ||
            ce->step >= sc->trees[ce->tree].nsteps ||
            sc->trees[ce->tree].steps[ce->step].kind != STEADY_STEP_COMPUTE ||
            sc->trees[ce->tree].steps[ce->step].node != ce->node || ce->count <= 0) {
            rc = steady_error_set(err, STEADY_EINVAL,
                                  "replay: compute entry %d: not tasks of a compute step on its "
                                  "node (tree %d step %d)",
                                  i, ce->tree, ce->step);
            break;
        }
        rcompute_t *c = &r->cp[i];
        rstep_t *rs = &r->steps[r->base[ce->tree] + ce->step];
        c->flat = r->base[ce->tree] + ce->step;
        c->tree = ce->tree;
        c->node = ce->node;
        c->offset = rs->cover;
        c->count = ce->count;
        rs->cover += ce->count;
        steady_exact_task_time(r->p, ce->node, sc->task_cost, q);
        c->w = mpq_get_d(q);
    }
    int bad = rc ? -1 : untiled_step(r);
    if (bad == -2)
        rc = steady_error_set(err, STEADY_ENOMEM, "replay: out of memory");
    else if (bad >= 0)
        rc = steady_error_set(err, STEADY_EINVAL,
                              "replay: tree %d step %d: the period's transfers do not carry "
                              "its weight %ld of messages, each position once",
                              r->steps[bad].tree, r->steps[bad].step,
                              sc->trees[r->steps[bad].tree].weight);
    for (int f = 0; f < r->nflat && !rc; f++) {
        const steady_sched_tree_t *tr = &sc->trees[r->steps[f].tree];
        const steady_sched_step_t *st = &tr->steps[r->steps[f].step];
        if (st->kind == STEADY_STEP_COMPUTE && r->steps[f].cover != tr->weight)
            rc =
                steady_error_set(err, STEADY_EINVAL,
                                 "replay: tree %d step %d: the compute entries run %ld tasks, "
                                 "not its weight %ld",
                                 r->steps[f].tree, r->steps[f].step, r->steps[f].cover, tr->weight);
    }
    free(step_c);
    mpq_clear(q);
    return rc;
}

/* Appends producer piece y (its positions start at from) to r->dep. */
static bool add_dep(replay_t *r, int *cap, int y, double from)
{
    if (r->ndep == *cap) {
        int ncap = *cap ? 2 * *cap : 64;
        int *d = realloc(r->dep, (size_t)ncap * sizeof *d);
        double *f = d ? realloc(r->dfrom, (size_t)ncap * sizeof *f) : NULL;
        if (d)
            r->dep = d;
        if (!d || !f)
            return false;
        r->dfrom = f;
        *cap = ncap;
    }
    r->dep[r->ndep] = y;
    r->dfrom[r->ndep++] = from;
    return true;
}

/* What each piece (transfer, compute entry) waits for: per input, the
 * pieces of the producing step that carry some of its message positions
 * (exact comparisons).  Message j is forwarded once message j is in. */
static steady_err_t prepare_deps(replay_t *r, steady_error_t *err)
{
    const steady_schedule_t *sc = r->sc;
    int np = r->nx + r->nc, cap = 0;
    steady_err_t rc = STEADY_OK;
    const mpq_t **from = malloc((size_t)(np + 1) * sizeof *from);
    const mpq_t **to = malloc((size_t)(np + 1) * sizeof *to);
    double(*dpos)[2] = malloc((size_t)(np + 1) * sizeof *dpos); /* their doubles (common/exact.h) */
    mpq_t *cpos = malloc((size_t)(2 * r->nc + 1) * sizeof *cpos);
    int *first = calloc((size_t)r->nflat + 2, sizeof *first);
    int *run = malloc((size_t)(np + 1) * sizeof *run);
    piece_key_t *key = malloc((size_t)(np + 1) * sizeof *key);
    if (!from || !to || !dpos || !cpos || !first || !run || !key) {
        free(from);
        free(to);
        free(dpos);
        free(cpos);
        free(first);
        free(run);
        free(key);
        return steady_error_set(err, STEADY_ENOMEM, "replay: out of memory");
    }
    for (int i = 0, n = 0; i < sc->nslots; i++)
        for (int j = 0; j < sc->slots[i].ntransfers; j++, n++) {
            from[n] = (const mpq_t *)&sc->slots[i].transfers[j].from;
            to[n] = (const mpq_t *)&sc->slots[i].transfers[j].to;
            dpos[n][0] = r->x[n].from;
            dpos[n][1] = r->x[n].to;
        }
    for (int c = 0; c < r->nc; c++) {
        mpq_init(cpos[2 * c]);
        mpq_init(cpos[2 * c + 1]);
        mpq_set_si(cpos[2 * c], r->cp[c].offset, 1);
        mpq_set_si(cpos[2 * c + 1], r->cp[c].offset + r->cp[c].count, 1);
        from[r->nx + c] = (const mpq_t *)&cpos[2 * c];
        to[r->nx + c] = (const mpq_t *)&cpos[2 * c + 1];
        dpos[r->nx + c][0] = mpq_get_d(cpos[2 * c]);
        dpos[r->nx + c][1] = mpq_get_d(cpos[2 * c + 1]);
    }
    /* the pieces of each step, by position: they tile it (prepare_steps) */
    for (int i = 0; i < np; i++)
        key[i] = (piece_key_t){piece_flat(r, i), i, dpos[i][0], from[i]};
    if (!sort_piece_keys(key, np, r->nflat, first))
        rc = steady_error_set(err, STEADY_ENOMEM, "replay: out of memory");
    for (int i = 0; i < np && !rc; i++) {
        int f = piece_flat(r, i);
        const rstep_t *rs = &r->steps[f];
        for (int k = 0; k < rs->nin && !rc; k++) {
            rdeps_t d = {r->ndep, 0};
            int g = rs->in[k], n = 0;
            /* the producer's pieces that overlap i's positions: a run of
             * them, from the first that ends after i starts; in piece order */
            int lo = g < 0 ? 0 : first[g], hi = g < 0 ? 0 : first[g + 1];
            while (lo < hi) {
                int mid = lo + (hi - lo) / 2, y = key[mid].piece;
                if (qcmp_d(*to[y], dpos[y][1], *from[i], dpos[i][0]) > 0)
                    hi = mid;
                else
                    lo = mid + 1;
            }
            for (int a = lo; g >= 0 && a < first[g + 1]; a++) {
                int y = key[a].piece;
                if (qcmp_d(*from[y], dpos[y][0], *to[i], dpos[i][1]) >= 0)
                    break;
                run[n++] = y;
            }
            qsort(run, (size_t)n, sizeof *run, array_cmp_int);
            for (int a = 0; a < n; a++) {
                int y = run[a];
                /* a send with its producing send's lag forwards what an
                 * earlier slot of the period delivered */
                if (i < r->nx && y < r->nx && r->steps[g].lag == rs->lag &&
                    r->x[y].slot >= r->x[i].slot) {
                    rc = steady_error_set(err, STEADY_EINVAL,
                                          "replay: tree %d step %d: lag %d, the lag of step %d, "
                                          "but its slot %d does not come after that step's slot "
                                          "%d carrying the same messages",
                                          rs->tree, rs->step, rs->lag, r->steps[g].step,
                                          r->x[i].slot, r->x[y].slot);
                    break;
                }
                if (!add_dep(r, &cap, y, dpos[y][0])) {
                    rc = steady_error_set(err, STEADY_ENOMEM, "replay: out of memory");
                    break;
                }
                d.n++;
            }
            if (!rc && g >= 0 && d.n == 0)
                rc = steady_error_set(err, STEADY_EINVAL,
                                      "replay: tree %d step %d: no part of step %d carries its "
                                      "message positions",
                                      rs->tree, rs->step, r->steps[g].step);
            if (i < r->nx)
                r->x[i].in = d;
            else
                r->cp[i - r->nx].in[k] = d;
        }
    }
    for (int c = 0; c < 2 * r->nc; c++)
        mpq_clear(cpos[c]);
    free(from);
    free(to);
    free(dpos);
    free(cpos);
    free(first);
    free(run);
    free(key);
    return rc;
}

/* Whether transfer y may join the message whose parts so far start in
 * slot s0 (the group g of its sender in the slot before, to the same
 * peer): y continues one of g's transfers (the same step, its positions
 * starting where that one's end), and what y forwards was made before the
 * message would start — in an earlier period, or in a slot before s0.  And
 * the latency it saves is worth it (JOIN_LATENCY_SHARE): a message waits
 * for all its parts' data, and a self-timed run does not keep periods
 * apart, so an earlier period's data may still be on its way; joining
 * parts whose latency was 1-5% of their transfer lost 6% of a broadcast's
 * throughput on a crossbar cluster (examples/platforms/sg-crossbar.xml),
 * and not joining parts that a 5 ms WAN latency held each lost 20% over
 * the WAN (sg-two-sites.xml).  Or y sends the source's data (there from
 * the start), over a hop with a latency, and nothing forwards it in the
 * same period (fwd[]: its receiver gets it whole before using it): not
 * joining those lost 1.6% there (docs/schedule-format.md, "Messages"). */
static bool joins(const replay_t *r, int y, const int *next, int g, int s0, const bool *fwd)
{
    const steady_schedule_t *sc = r->sc;
    const rtransfer_t *x = &r->x[y];
    const steady_sched_transfer_t *tx = &sc->slots[x->slot].transfers[x->index];
    bool continues = false;
    for (int w = g; w >= 0 && !continues; w = next[w]) {
        const rtransfer_t *xw = &r->x[w];
        const steady_sched_transfer_t *tw = &sc->slots[xw->slot].transfers[xw->index];
        double shorter = earlier(xw->to - xw->from, x->to - x->from) * x->c;
        continues = xw->flat == x->flat && xw->to_node == x->to_node &&
                    mpq_equal(tw->to, tx->from) &&
                    ((x->in.n == 0 && x->latency > 0 && !fwd[x->flat]) ||
                     x->latency >= JOIN_LATENCY_SHARE * shorter);
    }
    int lag = r->steps[x->flat].lag;
    for (int d = x->in.first; d < x->in.first + x->in.n && continues; d++) {
        int z = r->dep[d];
        int zlag = r->steps[piece_flat(r, z)].lag;
        continues = zlag < lag || (z < r->nx && r->x[z].slot < s0);
    }
    return continues;
}

/* steady-run's MPI messages (steady_schedule_message_ids): each
 * transfer's message in r->x[i].msg, its parts linked in slot order
 * (next_part, from mfirst), and the executor's order (xorder). */
static steady_err_t group_messages(replay_t *r, steady_error_t *err)
{
    int nv = steady_platform_node_count(r->p), n = 0;
    /* per sender: its group of transfers in the slot it last sent in (the
     * first, linked by next[]), that slot, and the group before */
    int *head = malloc((size_t)(nv + 1) * sizeof *head);
    int *stamp = malloc((size_t)(nv + 1) * sizeof *stamp);
    int *prev_head = malloc((size_t)(nv + 1) * sizeof *prev_head);
    int *prev_stamp = malloc((size_t)(nv + 1) * sizeof *prev_stamp);
    int *tail = malloc((size_t)(nv + 1) * sizeof *tail);
    int *next = malloc((size_t)(r->nx + 1) * sizeof *next);
    int *first_slot = malloc((size_t)(r->nx + 1) * sizeof *first_slot); /* per message */
    bool *fwd = calloc((size_t)r->nflat + 1, sizeof *fwd);              /* joins() */
    int *mtail = NULL;
    steady_err_t rc = STEADY_OK;
    if (!head || !stamp || !prev_head || !prev_stamp || !tail || !next || !first_slot || !fwd) {
        rc = steady_error_set(err, STEADY_ENOMEM, "replay: out of memory");
        goto cleanup;
    }
    for (int f = 0; f < r->nflat; f++)
        for (int k = 0; k < r->steps[f].nin; k++)
            if (r->steps[f].in[k] >= 0 && r->steps[r->steps[f].in[k]].lag == r->steps[f].lag)
                fwd[r->steps[f].in[k]] = true;
    for (int v = 0; v < nv; v++) {
        stamp[v] = prev_stamp[v] = -2;
        head[v] = prev_head[v] = -1;
    }
    for (int t0 = 0; t0 < r->nx;) {
        int i = r->x[t0].slot, t1 = t0;
        while (t1 < r->nx && r->x[t1].slot == i)
            t1++;
        for (int t = t0; t < t1; t++) { /* the slot's groups, by sender */
            int u = r->x[t].from_node;
            next[t] = -1;
            if (stamp[u] != i) {
                prev_head[u] = head[u];
                prev_stamp[u] = stamp[u];
                head[u] = tail[u] = t;
                stamp[u] = i;
            } else {
                next[tail[u]] = t;
                tail[u] = t;
            }
        }
        for (int t = t0; t < t1; t++) { /* their messages, in order of their first transfer */
            int u = r->x[t].from_node;
            if (head[u] != t)
                continue;
            int g = prev_stamp[u] == i - 1 ? prev_head[u] : -1;
            bool more = g >= 0;
            for (int y = t; y >= 0 && more; y = next[y])
                more = joins(r, y, next, g, first_slot[r->x[g].msg], fwd);
            int id = more ? r->x[g].msg : n++;
            if (!more)
                first_slot[id] = i;
            for (int y = t; y >= 0; y = next[y])
                r->x[y].msg = id;
        }
        t0 = t1;
    }
    r->nmsg = n;
    /* each message's parts linked in slot order (next[]; mhead, mtail per
     * message); the executor's order lists them from the first part */
    int *mhead = first_slot; /* done with: at least n places */
    if (!(mtail = malloc(((size_t)n + 1) * sizeof *mtail)) ||
        !(r->xorder = malloc(((size_t)r->nx + 1) * sizeof *r->xorder))) {
        rc = steady_error_set(err, STEADY_ENOMEM, "replay: out of memory");
        goto cleanup;
    }
    for (int m = 0; m < n; m++)
        mhead[m] = -1;
    for (int t = 0; t < r->nx; t++) {
        int m = r->x[t].msg;
        next[t] = -1;
        if (mhead[m] < 0)
            mhead[m] = t;
        else
            next[mtail[m]] = t;
        mtail[m] = t;
    }
    int k = 0;
    for (int t = 0; t < r->nx; t++) {
        bool first = mhead[r->x[t].msg] == t;
        r->x[t].next_part = next[t];
        r->x[t].mfirst = mhead[r->x[t].msg];
        for (int y = first ? t : -1; y >= 0; y = next[y])
            r->xorder[k++] = y;
    }
cleanup:
    free(head);
    free(stamp);
    free(prev_head);
    free(prev_stamp);
    free(tail);
    free(next);
    free(first_slot);
    free(fwd);
    free(mtail);
    return rc;
}

/* Whether two transfers that can run at once share a resource: unless
 * every resource's transfers have one sender (whose send port runs one at
 * a time) or one receiver (its receive port), and no transfer crosses one
 * twice.  Otherwise each transfer runs alone on its resources, at its full
 * speed (its c holds every channel it crosses: steady_exact_edge_time),
 * and the program-order engine replays it exactly: a Vivaldi zone's peers,
 * each with its own up and down link, or a crossbar's hosts.  -1: out of
 * memory. */
static int shares_resources(const replay_t *r)
{
    if (r->nuse == 0)
        return 0;
    int *from = malloc(((size_t)r->nres + 1) * sizeof *from),
        *to = malloc(((size_t)r->nres + 1) * sizeof *to),
        *seen = malloc(((size_t)r->nres + 1) * sizeof *seen);
    int shared = !from || !to || !seen ? -1 : 0;
    for (int k = 0; k < r->nres && !shared; k++)
        from[k] = to[k] = seen[k] = -1;
    for (int t = 0; t < r->nx && !shared; t++) {
        const rtransfer_t *x = &r->x[t];
        for (int u = x->use_first; u < x->use_first + x->nuse && !shared; u++) {
            int res = r->use_res[u];
            if (seen[res] == t) {
                shared = 1; /* crossed twice: its need is the sum */
                break;
            }
            seen[res] = t;
            if (from[res] == -1) {
                from[res] = x->from_node;
                to[res] = x->to_node;
            }
            if (from[res] != x->from_node)
                from[res] = -2;
            if (to[res] != x->to_node)
                to[res] = -2;
            shared = from[res] == -2 && to[res] == -2;
        }
    }
    free(from);
    free(to);
    free(seen);
    return shared;
}

steady_err_t replay_prepare(replay_t *r, steady_error_t *err)
{
    steady_err_t rc = parse_types(r, err);
    if (!rc)
        rc = prepare_steps(r, err);
    if (!rc)
        rc = prepare_events(r, err);
    int shared = rc ? 0 : shares_resources(r);
    if (shared < 0)
        rc = steady_error_set(err, STEADY_ENOMEM, "replay: out of memory");
    r->fluid = r->fluid || shared > 0;
    if (!rc)
        rc = prepare_deps(r, err);
    if (!rc)
        rc = group_messages(r, err);
    return rc;
}

steady_err_t steady_schedule_message_ids(const steady_schedule_t *sc, const steady_platform_t *p,
                                         int *msg, int *count, steady_error_t *err)
{
    replay_t r = {.sc = sc, .p = p};
    steady_err_t rc = replay_prepare(&r, err);
    for (int t = 0; !rc && t < r.nx; t++)
        msg[t] = r.x[t].msg;
    *count = rc ? 0 : r.nmsg;
    replay_free(&r);
    return rc;
}

steady_err_t steady_schedule_message_bytes(const steady_schedule_t *sc, const steady_platform_t *p,
                                           double *min, double *max, steady_error_t *err)
{
    replay_t r = {.sc = sc, .p = p};
    steady_err_t rc = replay_prepare(&r, err);
    double *bytes = rc ? NULL : calloc((size_t)r.nmsg + 1, sizeof *bytes);
    if (!rc && !bytes)
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
    *min = *max = 0;
    for (int t = 0; !rc && t < r.nx; t++)
        bytes[r.x[t].msg] += (r.x[t].to - r.x[t].from) * sc->msg_size;
    for (int k = 0; !rc && k < r.nmsg; k++) {
        *min = k == 0 || bytes[k] < *min ? bytes[k] : *min;
        *max = bytes[k] > *max ? bytes[k] : *max;
    }
    free(bytes);
    replay_free(&r);
    return rc;
}

steady_err_t steady_schedule_message_count(const steady_schedule_t *sc, const steady_platform_t *p,
                                           long *count, double *per_op, steady_error_t *err)
{
    replay_t r = {.sc = sc, .p = p};
    steady_err_t rc = replay_prepare(&r, err);
    *count = rc ? 0 : r.nmsg;
    if (per_op)
        *per_op = rc || sc->ops_per_period <= 0
                      ? 0
                      : (double)r.nmsg * (double)sc->segments / (double)sc->ops_per_period;
    replay_free(&r);
    return rc;
}
