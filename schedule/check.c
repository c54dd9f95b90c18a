/*
 * check.c — the independent validator of periodic schedules
 * (docs/schedule-format.md, steady/schedule.h).
 *
 * Nothing the builder computed is trusted: c(e) and w(i) are recomputed
 * from the platform (steady_exact_comm_time / steady_exact_task_time), the
 * trees are re-simulated step by step, the message positions of every send
 * are re-assembled from the slots, the processor loads and buffer needs are
 * recomputed from the trees.  Everything is exact (GMP rationals).  Each
 * violation becomes one line naming the slot / tree / step and the nodes.
 *
 * What "valid" means, check by check:
 *
 *   header     the platform has the schedule's node and edge counts and
 *              hash; 1 <= segments <= STEADY_SEGMENTS_LIMIT, and more than
 *              one only on bandwidths, of whole 8-byte words; period > 0;
 *              throughput = ops_per_period / period exactly, at most the
 *              optimum (and
 *              equal to it when the period is the exact one, except for a
 *              broadcast to a subset of the nodes, whose LP value is
 *              only a bound); with a fixed period (§4.6) loss = optimum
 *              - throughput <= loss_bound = #trees / period, where #trees
 *              counts the decomposition's trees (at least the schedule's:
 *              a tree that gets no operation in the period is dropped);
 *              max_lag = the largest lag.
 *   batch      the trees that deliver one item of an operation (the
 *              reduced value, the broadcast message, or one message type of
 *              a scatter / gossip: each destination's messages follow their
 *              own routes) partition the batch: in tree order, each one's
 *              `first` is the sum of the weights before it, and the weights
 *              add up to ops_per_period.
 *   trees      simulated as in the paper (§4.3, Definition 1): initial
 *              values sit on their owners (v[i,i] on participant r_i, the
 *              source's messages on the source); a send moves a value that
 *              its tail holds to its head, a task T(k,l,m) on i merges
 *              v[k,l] and v[l+1,m] held by i into v[k,m]; an input must be
 *              produced by an *earlier* step (steps are in dependency
 *              order) with a lag no larger for a task (a period's tasks
 *              run after its slots, in the compute list's order, which
 *              follows each tree's steps; an initial value counts as lag
 *              -1), a *smaller* lag for a send after a task, and for a send
 *              after a send a smaller lag or the same one, if the slots'
 *              times allow it (forwarding below).  Reduce, scatter, gossip: every value is used
 * exactly once, except the delivered results (v[0,N-1] on the target, a message on its
 * destination).  Broadcast: an arborescence — no node receives the message twice, every target
 * receives it. slots      positive durations, inside [0, period], sorted and disjoint; one-port: in
 * a slot a node sends at most once and receives at most once; a transfer names a send step, carries
 * a part 0 <= from < to <= weight, and (to - from) c(e) is exactly the slot's duration. coverage
 * per send step, the parts of all slots cover [0, weight) exactly once. forwarding a send with the
 * lag of the send producing its input: each of its parts starts no earlier than the end of the
 *              producer's slots carrying the same message positions plus
 *              the producer edge's latency (exact).
 *   compute    each task step is listed once, on its node, with count =
 *              its tree's weight; no task on a router; per processor the
 *              tasks of one period take at most the period (full overlap of
 *              computation and communication, so only the CPU bounds them).
 *   buffers    see buffer_needs() below.
 *
 * Complexity: O(S log S + sum over trees of steps^2 + slots * transfers)
 * rational operations, S the number of transfers; the per-tree simulation
 * searches the tree's values linearly (trees are small: a few steps per
 * node).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "steady/schedule.h"

/* Lines kept; the rest are counted in a final "... and N more". */
#define MAX_LINES 100

typedef struct {
    const steady_schedule_t *sc;
    const steady_platform_t *p;
    steady_violations_t *v;
    long total; /* violations found, kept or not */
    bool oom;
    int nn, ne;
    int N;          /* reduce: participants */
    int *src_idx;   /* node -> position in sc->sources, or -1 */
    int *tgt_idx;   /* node -> position in sc->targets, or -1 */
    long *tkey;     /* schedule type -> value key (see value_name), -1 if invalid */
    int *tree_off;  /* first flat step index of each tree */
    bool *step_ok;  /* flat step index -> the step is well-formed */
    int nitems;     /* things an operation delivers (see item_of) */
    mpq_t *c;       /* per edge: the time a message takes on it alone (edge time) */
    mpq_t *w;       /* w(v) per node */
    mpq_t *lat;     /* per edge: its latency, its channels' included */
    bool period_ok; /* period > 0 */
    int (*same)[3]; /* (tree, step, producer): sends with their producing send's lag */
    int nsame, capsame;
} ctx_t;

/* ---- violation lines ------------------------------------------------------ */

/* Records one violation (printf format, GMP's %Qd allowed). */
static void report(ctx_t *x, const char *fmt, ...)
{
    x->total++;
    if (x->oom || x->v->count >= MAX_LINES)
        return;
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    int n = gmp_vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *raw = n >= 0 ? malloc((size_t)n + 1) : NULL;
    /* one line whatever the file's names hold: an escape is at most 4
     * bytes per byte */
    char *line = raw ? malloc(4 * (size_t)n + 1) : NULL;
    if (line) {
        gmp_vsnprintf(raw, (size_t)n + 1, fmt, aq);
        steady_error_escape(line, 4 * (size_t)n + 1, raw);
    }
    va_end(aq);
    free(raw);
    if (!line) {
        x->oom = true;
        return;
    }
    x->v->lines[x->v->count++] = line;
}

void steady_violations_free(steady_violations_t *v)
{
    if (!v)
        return;
    for (int i = 0; i < v->count; i++)
        free(v->lines[i]);
    free(v->lines);
    v->lines = NULL;
    v->count = 0;
    v->total = 0;
}

/* ---- names --------------------------------------------------------------- */

static const char *nname(const ctx_t *x, int id)
{
    return id >= 0 && id < x->nn ? steady_platform_node(x->p, id)->name : "?";
}

static bool is_processor(const ctx_t *x, int id)
{
    return id >= 0 && id < x->nn && steady_platform_node(x->p, id)->kind == STEADY_PROCESSOR;
}

/* The ends of a well-formed send step's hop. */
static int step_src(const ctx_t *x, const steady_sched_step_t *s)
{
    return steady_sched_step_src(x->sc, x->p, s);
}

static int step_dst(const ctx_t *x, const steady_sched_step_t *s)
{
    return steady_sched_step_dst(x->sc, x->p, s);
}

/* A well-formed send step's hop time (its slowest edge) and latency (the
 * sum of its edges'). */
static void hop_time(const ctx_t *x, const steady_sched_step_t *s, mpq_t t)
{
    int n;
    const int *edges = steady_sched_step_edges(x->sc, s, &n);
    mpq_set_ui(t, 0, 1);
    for (int k = 0; k < n; k++)
        if (mpq_cmp(x->c[edges[k]], t) > 0)
            mpq_set(t, x->c[edges[k]]);
}

static void hop_latency(const ctx_t *x, const steady_sched_step_t *s, mpq_t l)
{
    int n;
    const int *edges = steady_sched_step_edges(x->sc, s, &n);
    mpq_set_ui(l, 0, 1);
    for (int k = 0; k < n; k++)
        mpq_add(l, l, x->lat[edges[k]]);
}

/* Why the hop of a send step whose edge exists does not make a message
 * from rank to rank through switches, or NULL: its hop (if any) is a chain
 * of edges starting with the step's edge, and only its inner nodes are
 * switches. */
static const char *bad_hop(const ctx_t *x, const steady_sched_step_t *s)
{
    const steady_schedule_t *sc = x->sc;
    if (s->hop >= sc->nhops || (s->hop >= 0 && (!sc->hops || sc->hops[s->hop].nedges < 1 ||
                                                !sc->hops[s->hop].edges)))
        return "its hop does not exist";
    int n;
    const int *edges = steady_sched_step_edges(sc, s, &n);
    if (edges[0] != s->edge)
        return "its hop does not start with its edge";
    int at = steady_platform_edge(x->p, edges[0])->src;
    if (!steady_node_kind_is_rank(steady_platform_node(x->p, at)->kind))
        return "it starts at a switch";
    for (int k = 0; k < n; k++) {
        if (edges[k] < 0 || edges[k] >= x->ne || steady_platform_edge(x->p, edges[k])->src != at)
            return "its hop is not a path of edges";
        at = steady_platform_edge(x->p, edges[k])->dst;
        bool sw = steady_platform_node(x->p, at)->kind == STEADY_SWITCH;
        if (k < n - 1 && !sw)
            return "its hop goes through a node that is not a switch";
        if (k == n - 1 && sw)
            return "it ends at a switch";
    }
    if (s->hop >= 0 &&
        (sc->hops[s->hop].src != steady_platform_edge(x->p, edges[0])->src ||
         sc->hops[s->hop].dst != at))
        return "its hop's ends are not its path's";
    return NULL;
}

/* A value (a message type's content) is identified by a key: reduce
 * k * N + m for v[k,m]; scatter the destination node; gossip src * nn +
 * dst; broadcast 0. */
static void value_name(const ctx_t *x, long key, char *buf, size_t n)
{
    switch (x->sc->op) {
    case STEADY_OP_REDUCE: snprintf(buf, n, "v[%ld,%ld]", key / x->N, key % x->N); break;
    case STEADY_OP_SCATTER: snprintf(buf, n, "the message for %s", nname(x, (int)key)); break;
    case STEADY_OP_GOSSIP:
        snprintf(buf, n, "the message %s>%s", nname(x, (int)(key / x->nn)),
                 nname(x, (int)(key % x->nn)));
        break;
    default: snprintf(buf, n, "the message"); break;
    }
}

#define DESC_MAX (2 * STEADY_NAME_MAX + 64)

/* "P0 -> P3, type [1,1]" or "compute T(0,1,3) on P2" (a well-formed step). */
static void step_desc(const ctx_t *x, const steady_sched_step_t *s, char *buf, size_t n)
{
    if (s->kind == STEADY_STEP_SEND) {
        snprintf(buf, n, "%s -> %s, type %s", nname(x, step_src(x, s)), nname(x, step_dst(x, s)),
                 x->sc->types[s->type]);
    } else {
        snprintf(buf, n, "compute T(%d,%d,%d) on %s", s->k, s->l, s->m, nname(x, s->node));
    }
}

/* A (node, value key) pair with a count: buffer needs and listings; also
 * (type, key) pairs when types are sorted by key. */
typedef struct {
    int node;
    long key;
    long messages;
} need_t;

static int cmp_key(const void *a, const void *b)
{
    const need_t *x = a, *y = b;
    if (x->key != y->key)
        return (x->key > y->key) - (x->key < y->key);
    return (x->node > y->node) - (x->node < y->node);
}

/* ---- the problem and the message types ---------------------------------- */

/* Where the values of key start, for ops whose messages have one origin. */
static int origin_of(const ctx_t *x, long key)
{
    switch (x->sc->op) {
    case STEADY_OP_REDUCE: return x->sc->sources[key / x->N];
    case STEADY_OP_GOSSIP: return (int)(key / x->nn);
    default: return x->sc->sources[0];
    }
}

/* Where the values of key must end. */
static int dest_of(const ctx_t *x, long key)
{
    switch (x->sc->op) {
    case STEADY_OP_REDUCE: return x->sc->targets[0];
    case STEADY_OP_SCATTER: return (int)key;
    case STEADY_OP_GOSSIP: return (int)(key % x->nn);
    default: return -1;
    }
}

/* Item of an operation that a value delivers: the scatter's destination,
 * the gossip's (source, target) pair, or the operation itself. */
static int item_of(const ctx_t *x, long key)
{
    switch (x->sc->op) {
    case STEADY_OP_SCATTER: return x->tgt_idx[key];
    case STEADY_OP_GOSSIP:
        return x->src_idx[key / x->nn] * x->sc->ntargets + x->tgt_idx[key % x->nn];
    default: return 0;
    }
}

static void item_name(const ctx_t *x, int item, char *buf, size_t n)
{
    const steady_schedule_t *sc = x->sc;
    if (sc->op == STEADY_OP_SCATTER)
        snprintf(buf, n, " of type %s", nname(x, sc->targets[item]));
    else if (sc->op == STEADY_OP_GOSSIP)
        snprintf(buf, n, " of type %s>%s", nname(x, sc->sources[item / sc->ntargets]),
                 nname(x, sc->targets[item % sc->ntargets]));
    else
        buf[0] = '\0';
}

static bool distinct_nodes(ctx_t *x, const int *ids, int n, const char *what)
{
    bool ok = true;
    for (int i = 0; i < n; i++) {
        if (ids[i] < 0 || ids[i] >= x->nn) {
            report(x, "%s: node id %d does not exist (the platform has %d nodes)", what, ids[i],
                   x->nn);
            ok = false;
            continue;
        }
        for (int j = 0; j < i; j++)
            if (ids[j] == ids[i]) {
                report(x, "%s: %s is listed twice", what, nname(x, ids[i]));
                ok = false;
            }
    }
    return ok;
}

/* The node sets of the problem; false when they cannot be used at all. */
static bool check_problem(ctx_t *x)
{
    const steady_schedule_t *sc = x->sc;
    if (sc->nsources < 0 || sc->ntargets < 0 || (sc->nsources && !sc->sources) ||
        (sc->ntargets && !sc->targets)) {
        report(x, "schedule: malformed source or target list");
        return false;
    }
    bool ok = distinct_nodes(x, sc->sources, sc->nsources, "sources") &
              distinct_nodes(x, sc->targets, sc->ntargets, "targets");
    if (!ok)
        return false;
    switch (sc->op) {
    case STEADY_OP_SCATTER:
    case STEADY_OP_BROADCAST:
        if (sc->nsources != 1) {
            report(x, "sources: a %s has one source (got %d)", steady_op_name(sc->op),
                   sc->nsources);
            return false;
        }
        for (int i = 0; i < sc->ntargets; i++)
            if (sc->targets[i] == sc->sources[0]) {
                report(x, "targets: the source %s is one of the targets", nname(x, sc->targets[i]));
                ok = false;
            }
        break;
    case STEADY_OP_GOSSIP: break;
    case STEADY_OP_REDUCE:
        if (sc->nsources < 2 || sc->ntargets != 1) {
            report(x, "reduce: needs at least 2 participants and 1 target (got %d and %d)",
                   sc->nsources, sc->ntargets);
            return false;
        }
        x->N = sc->nsources;
        break;
    default: report(x, "schedule: unknown operation %d", (int)sc->op); return false;
    }
    if (sc->ntargets == 0) {
        report(x, "targets: none");
        return false;
    }
    for (int i = 0; i < sc->nsources; i++)
        if (!is_processor(x, sc->sources[i]))
            report(x, "sources: %s is a %s, and only processors send operations",
                   nname(x, sc->sources[i]),
                   steady_node_kind_name(steady_platform_node(x->p, sc->sources[i])->kind));
    for (int i = 0; i < sc->ntargets; i++)
        if (sc->op == STEADY_OP_BROADCAST
                ? !steady_node_kind_is_rank(steady_platform_node(x->p, sc->targets[i])->kind)
                : !is_processor(x, sc->targets[i]))
            report(x, "targets: %s is a %s, which receives no operation",
                   nname(x, sc->targets[i]),
                   steady_node_kind_name(steady_platform_node(x->p, sc->targets[i])->kind));
    for (int i = 0; i < sc->nsources; i++)
        x->src_idx[sc->sources[i]] = i;
    for (int i = 0; i < sc->ntargets; i++)
        x->tgt_idx[sc->targets[i]] = i;
    x->nitems = sc->op == STEADY_OP_SCATTER  ? sc->ntargets
                : sc->op == STEADY_OP_GOSSIP ? sc->nsources * sc->ntargets
                                             : 1;
    return ok;
}

/* Parses the type names as `steady solve` writes them, into value keys.
 * Returns false when out of memory. */
static bool parse_types(ctx_t *x)
{
    const steady_schedule_t *sc = x->sc;
    for (int t = 0; t < sc->ntypes; t++) {
        const char *name = sc->types[t];
        long key = -1;
        const char *why = NULL;
        if (!name) {
            report(x, "type %d: no name", t);
            x->tkey[t] = -1;
            continue;
        }
        if (sc->op == STEADY_OP_SCATTER) {
            int d = steady_platform_find_node(x->p, name);
            if (d < 0)
                why = "names no node";
            else if (x->tgt_idx[d] < 0)
                why = "is not one of the targets";
            else
                key = d;
        } else if (sc->op == STEADY_OP_GOSSIP) {
            const char *gt = strchr(name, '>');
            char a[STEADY_NAME_MAX + 1];
            size_t len = gt ? (size_t)(gt - name) : 0;
            int s = -1, d = -1;
            if (gt && len <= STEADY_NAME_MAX) {
                memcpy(a, name, len);
                a[len] = '\0';
                s = steady_platform_find_node(x->p, a);
                d = steady_platform_find_node(x->p, gt + 1);
            }
            if (s < 0 || d < 0)
                why = "is not SRC>DST with two node names";
            else if (x->src_idx[s] < 0 || x->tgt_idx[d] < 0)
                why = "does not go from a source to a target";
            else if (s == d)
                why = "goes from a node to itself";
            else
                key = (long)s * x->nn + d;
        } else if (sc->op == STEADY_OP_REDUCE) {
            int k, m, end = 0;
            char back[64];
            if (sscanf(name, "[%d,%d]%n", &k, &m, &end) != 2 || name[end] != '\0' ||
                (snprintf(back, sizeof back, "[%d,%d]", k, m), strcmp(back, name) != 0))
                why = "is not [k,m]";
            else if (k < 0 || k > m || m >= x->N)
                why = "is not an interval of the participants";
            else
                key = (long)k * x->N + m;
        } else {
            if (strcmp(name, "msg") != 0)
                why = "is not \"msg\"";
            else
                key = 0;
        }
        if (why)
            report(x, "type %d (%s): %s", t, name, why);
        x->tkey[t] = key;
    }
    /* no two types the same: sort (key, type) pairs */
    need_t *byk = malloc((size_t)(sc->ntypes ? sc->ntypes : 1) * sizeof *byk);
    if (!byk)
        return false;
    int n = 0;
    for (int t = 0; t < sc->ntypes; t++)
        if (x->tkey[t] >= 0)
            byk[n++] = (need_t){.node = t, .key = x->tkey[t]};
    if (n > 0)
        qsort(byk, (size_t)n, sizeof *byk, cmp_key);
    for (int i = 1; i < n; i++)
        if (byk[i].key == byk[i - 1].key) {
            int a = byk[i - 1].node < byk[i].node ? byk[i - 1].node : byk[i].node;
            int b = byk[i - 1].node < byk[i].node ? byk[i].node : byk[i - 1].node;
            report(x, "type %d (%s): the same as type %d", b, sc->types[b], a);
        }
    free(byk);
    return true;
}

/* ---- steps --------------------------------------------------------------- */

/* Checks each step on its own (references, kind, lag); later checks only
 * look at well-formed steps. */
static void check_steps(ctx_t *x)
{
    const steady_schedule_t *sc = x->sc;
    int max_lag = 0;
    for (int t = 0; t < sc->ntrees; t++) {
        const steady_sched_tree_t *tr = &sc->trees[t];
        for (int i = 0; i < tr->nsteps; i++) {
            const steady_sched_step_t *s = &tr->steps[i];
            bool ok = true;
            if (s->kind == STEADY_STEP_SEND) {
                const char *why = NULL;
                if (s->edge < 0 || s->edge >= x->ne) {
                    report(x, "tree %d step %d: edge %d does not exist (the platform has %d edges)",
                           t, i, s->edge, x->ne);
                    ok = false;
                } else if ((why = bad_hop(x, s))) {
                    report(x, "tree %d step %d: the message from %s: %s", t, i,
                           nname(x, steady_platform_edge(x->p, s->edge)->src), why);
                    ok = false;
                }
                if (s->type < 0 || s->type >= sc->ntypes) {
                    report(x, "tree %d step %d: type %d does not exist (the schedule has %d)", t, i,
                           s->type, sc->ntypes);
                    ok = false;
                } else if (x->tkey[s->type] < 0) {
                    ok = false; /* reported with the type */
                }
            } else if (s->kind == STEADY_STEP_COMPUTE) {
                if (sc->op != STEADY_OP_REDUCE) {
                    report(x, "tree %d step %d: a task in a %s", t, i, steady_op_name(sc->op));
                    ok = false;
                } else if (s->node < 0 || s->node >= x->nn) {
                    report(x, "tree %d step %d: node %d does not exist", t, i, s->node);
                    ok = false;
                } else if (!(0 <= s->k && s->k <= s->l && s->l < s->m && s->m < x->N)) {
                    report(x, "tree %d step %d: T(%d,%d,%d) on %s is not a task of %d participants",
                           t, i, s->k, s->l, s->m, nname(x, s->node), x->N);
                    ok = false;
                } else if (!is_processor(x, s->node)) {
                    report(x, "tree %d step %d: compute T(%d,%d,%d) on the %s %s", t, i, s->k,
                           s->l, s->m,
                           steady_node_kind_name(steady_platform_node(x->p, s->node)->kind),
                           nname(x, s->node));
                    ok = false;
                }
            } else {
                report(x, "tree %d step %d: unknown kind %d", t, i, (int)s->kind);
                ok = false;
            }
            if (s->lag < 0) {
                report(x, "tree %d step %d: negative lag %d", t, i, s->lag);
                ok = false;
            }
            if (s->lag > max_lag)
                max_lag = s->lag;
            x->step_ok[x->tree_off[t] + i] = ok;
        }
    }
    if (sc->max_lag != max_lag)
        report(x, "schedule: max_lag is %d, the largest lag of the steps is %d", sc->max_lag,
               max_lag);
}

/* ---- trees: simulation, delivered items, buffer needs -------------------- */

typedef struct {
    long key;
    int node;
    int producer; /* step, or -1 for an initial value */
    int lag;      /* the producer's lag; -1 for an initial value */
    int uses;
    int user;     /* first step that used it */
    int last_lag; /* largest lag of the steps that used it */
} token_t;

typedef struct {
    need_t *a;
    size_t n, cap;
} needs_t;

static bool needs_add(needs_t *l, int node, long key, long messages)
{
    if (l->n == l->cap) {
        size_t ncap = l->cap ? 2 * l->cap : 16;
        need_t *g = realloc(l->a, ncap * sizeof *g);
        if (!g)
            return false;
        l->a = g;
        l->cap = ncap;
    }
    l->a[l->n++] = (need_t){node, key, messages};
    return true;
}

static int find_token(const token_t *tok, int n, long key, int node)
{
    for (int i = 0; i < n; i++)
        if (tok[i].key == key && tok[i].node == node)
            return i;
    return -1;
}

/* Initial values: v[i,i] on participant i, the source's (or the gossip
 * sender's) messages on it. */
static bool is_initial(const ctx_t *x, long key, int node)
{
    if (x->sc->op == STEADY_OP_REDUCE)
        return key / x->N == key % x->N && origin_of(x, key) == node;
    return origin_of(x, key) == node;
}

/* Uses value key on node for step i of tree t; returns false if missing. */
static bool consume(ctx_t *x, token_t *tok, int *ntok, int t, int i, long key, int node,
                    const char *desc)
{
    const steady_sched_step_t *s = &x->sc->trees[t].steps[i];
    bool linear = x->sc->op != STEADY_OP_BROADCAST;
    char val[DESC_MAX];
    value_name(x, key, val, sizeof val);
    int k = find_token(tok, *ntok, key, node);
    if (k < 0 && is_initial(x, key, node)) {
        k = (*ntok)++;
        tok[k] = (token_t){key, node, -1, -1, 0, -1, -1};
    }
    if (k < 0) {
        report(x,
               "tree %d step %d (%s): uses %s on %s, which no earlier step of the tree "
               "produces there",
               t, i, desc, val, nname(x, node));
        return false;
    }
    if (linear && tok[k].uses > 0)
        report(x, "tree %d step %d (%s): uses %s on %s, which step %d already uses", t, i, desc,
               val, nname(x, node), tok[k].user);
    /* a task runs after the period's slots, so it may use what they (or an
     * earlier task of the period) delivered in the same period; a send may
     * use what a send delivered in the same period if the slots' times
     * allow it (check_forwarding()), a task's result only from an earlier
     * period */
    bool task = s->kind == STEADY_STEP_COMPUTE;
    bool after_send =
        tok[k].producer >= 0 && x->sc->trees[t].steps[tok[k].producer].kind == STEADY_STEP_SEND;
    if (task || after_send ? s->lag < tok[k].lag : s->lag <= tok[k].lag)
        report(x,
               "tree %d step %d (%s): lag %d is %s the lag %d of step %d, which produces %s on "
               "%s",
               t, i, desc, s->lag, task || after_send ? "smaller than" : "not larger than",
               tok[k].lag, tok[k].producer, val, nname(x, node));
    else if (!task && after_send && s->lag == tok[k].lag) {
        if (x->nsame == x->capsame) {
            int ncap = x->capsame ? 2 * x->capsame : 16;
            int(*g)[3] = realloc(x->same, (size_t)ncap * sizeof *g);
            if (!g) {
                x->oom = true;
                return true;
            }
            x->same = g;
            x->capsame = ncap;
        }
        x->same[x->nsame][0] = t;
        x->same[x->nsame][1] = i;
        x->same[x->nsame++][2] = tok[k].producer;
    }
    if (tok[k].uses++ == 0)
        tok[k].user = i;
    if (s->lag > tok[k].last_lag)
        tok[k].last_lag = s->lag;
    return true;
}

static void produce(ctx_t *x, token_t *tok, int *ntok, int t, int i, long key, int node,
                    const char *desc)
{
    char val[DESC_MAX];
    value_name(x, key, val, sizeof val);
    int k = find_token(tok, *ntok, key, node);
    if (k < 0 && is_initial(x, key, node) && x->sc->op != STEADY_OP_REDUCE) {
        /* scatter, gossip, broadcast: a message coming back to its origin */
        report(x, "tree %d step %d (%s): brings %s back to %s, where it starts", t, i, desc, val,
               nname(x, node));
        return;
    }
    if (k >= 0) {
        if (tok[k].producer < 0)
            report(x, "tree %d step %d (%s): produces %s on %s, which holds it from the start", t,
                   i, desc, val, nname(x, node));
        else
            report(x, "tree %d step %d (%s): produces %s on %s, which step %d already produces", t,
                   i, desc, val, nname(x, node), tok[k].producer);
        return;
    }
    k = (*ntok)++;
    tok[k] = (token_t){key, node, i, x->sc->trees[t].steps[i].lag, 0, -1, -1};
}

/* Buffers.  A value produced by step s (lag λ_s) of a tree of weight w for
 * the batch of period b arrives on its node during period b + λ_s; the
 * steps that use it work on that batch in periods b + λ_u > b + λ_s.  It is
 * held from its arrival until its last use, λ_last = max λ_u: at every
 * period boundary of the steady state the node holds the λ_last - λ_s
 * batches that arrived and are still to be used, w messages each.  So
 *
 *     need(v, type) = sum over trees T and values of that type that T
 *                     produces on v of  w(T) * (λ_last - λ_producer).
 *
 * That is the "largest number of messages held between the period they
 * arrive in and the period they are used in" of docs/schedule-format.md,
 * counted at period boundaries.  Not counted: initial values (the
 * application's own data, there from the start) and delivered results
 * (handed to the application).  A partial result v[k,m] that a task
 * produces and a later task on the same node uses is held all the same. */
static steady_err_t simulate_trees(ctx_t *x, long *taken, needs_t *needs)
{
    const steady_schedule_t *sc = x->sc;
    int maxsteps = 0;
    for (int t = 0; t < sc->ntrees; t++)
        if (sc->trees[t].nsteps > maxsteps)
            maxsteps = sc->trees[t].nsteps;
    /* a tree holds its initial values (reduce: all N; otherwise one per
     * step at most, when it is first used) plus one value per step */
    size_t cap = 2 * (size_t)maxsteps + (size_t)(sc->op == STEADY_OP_REDUCE ? x->N : 0) + 1;
    token_t *tok = malloc(cap * sizeof *tok);
    int *items = malloc(((size_t)maxsteps + 1) * sizeof *items); /* items of the tree */
    int *stamp = malloc((size_t)x->nitems * sizeof *stamp);      /* item -> last tree */
    steady_err_t rc = STEADY_ENOMEM;
    if (!tok || !items || !stamp)
        goto cleanup;
    for (int it = 0; it < x->nitems; it++)
        stamp[it] = -1;
    char desc[DESC_MAX], val[DESC_MAX], what[2 * STEADY_NAME_MAX + 16];
    for (int t = 0; t < sc->ntrees; t++) {
        const steady_sched_tree_t *tr = &sc->trees[t];
        int ntok = 0, nitems = 0;
        if (sc->op == STEADY_OP_REDUCE)
            for (int i = 0; i < x->N; i++)
                tok[ntok++] = (token_t){(long)i * x->N + i, sc->sources[i], -1, -1, 0, -1, -1};
        if (sc->op == STEADY_OP_REDUCE || sc->op == STEADY_OP_BROADCAST) {
            items[nitems++] = 0; /* the whole operation */
            stamp[0] = t;
        }
        if (tr->nsteps == 0)
            report(x, "tree %d: no steps", t);
        for (int i = 0; i < tr->nsteps; i++) {
            const steady_sched_step_t *s = &tr->steps[i];
            if (!x->step_ok[x->tree_off[t] + i])
                continue;
            step_desc(x, s, desc, sizeof desc);
            if (s->kind == STEADY_STEP_SEND) {
                long key = x->tkey[s->type];
                consume(x, tok, &ntok, t, i, key, step_src(x, s), desc);
                produce(x, tok, &ntok, t, i, key, step_dst(x, s), desc);
                int it = item_of(x, key);
                if (stamp[it] != t) {
                    stamp[it] = t;
                    items[nitems++] = it;
                }
            } else {
                long a = (long)s->k * x->N + s->l, b = (long)(s->l + 1) * x->N + s->m;
                consume(x, tok, &ntok, t, i, a, s->node, desc);
                consume(x, tok, &ntok, t, i, b, s->node, desc);
                produce(x, tok, &ntok, t, i, (long)s->k * x->N + s->m, s->node, desc);
            }
        }

        /* what the tree leaves behind */
        if (sc->op == STEADY_OP_BROADCAST) {
            for (int j = 0; j < sc->ntargets; j++)
                if (find_token(tok, ntok, 0, sc->targets[j]) < 0)
                    report(x, "tree %d: the message never reaches the target %s", t,
                           nname(x, sc->targets[j]));
        } else {
            for (int k = 0; k < ntok; k++) {
                const token_t *o = &tok[k];
                bool result = o->node == dest_of(x, o->key) &&
                              (sc->op != STEADY_OP_REDUCE || o->key == (long)x->N - 1);
                if (o->uses > 0 || result)
                    continue;
                value_name(x, o->key, val, sizeof val);
                if (o->producer < 0)
                    report(x, "tree %d: %s on %s is never used", t, val, nname(x, o->node));
                else
                    report(x, "tree %d step %d: %s produced on %s is never used", t, o->producer,
                           val, nname(x, o->node));
            }
            /* every value the tree carries must arrive */
            for (int j = 0; j < nitems; j++) {
                int it = items[j];
                long key;
                if (sc->op == STEADY_OP_REDUCE)
                    key = (long)x->N - 1;
                else if (sc->op == STEADY_OP_SCATTER)
                    key = sc->targets[it];
                else
                    key = (long)sc->sources[it / sc->ntargets] * x->nn +
                          sc->targets[it % sc->ntargets];
                int d = dest_of(x, key), k = find_token(tok, ntok, key, d);
                if (k < 0 || tok[k].uses > 0) {
                    value_name(x, key, val, sizeof val);
                    report(x, "tree %d: %s does not end on %s", t, val, nname(x, d));
                }
            }
        }

        /* the batch: in tree order, the trees of an item take consecutive
         * operations from 0 */
        for (int j = 0; j < nitems; j++) {
            int it = items[j];
            if (tr->first != taken[it]) {
                item_name(x, it, what, sizeof what);
                report(x,
                       "tree %d: first is %ld, but the trees%s before it take operations "
                       "[0, %ld) of the batch",
                       t, tr->first, what, taken[it]);
            }
            taken[it] += tr->weight;
        }

        /* buffers */
        for (int k = 0; k < ntok; k++)
            if (tok[k].producer >= 0 && tok[k].uses > 0 && tok[k].last_lag > tok[k].lag &&
                tr->weight > 0 &&
                !needs_add(needs, tok[k].node, tok[k].key,
                           tr->weight * (long)(tok[k].last_lag - tok[k].lag)))
                goto cleanup;
    }
    rc = STEADY_OK;
cleanup:
    free(tok);
    free(items);
    free(stamp);
    return rc;
}

/* Weights, and the operations each item's trees carry per period. */
static void check_batch(ctx_t *x, const long *taken)
{
    const steady_schedule_t *sc = x->sc;
    char what[2 * STEADY_NAME_MAX + 16];
    for (int t = 0; t < sc->ntrees; t++)
        if (sc->trees[t].weight <= 0)
            report(x, "tree %d: weight %ld is not positive", t, sc->trees[t].weight);
    if (sc->ops_per_period <= 0)
        report(x, "schedule: ops_per_period %ld is not positive", sc->ops_per_period);
    if (sc->segments < 1)
        report(x, "schedule: segments %ld is not positive", sc->segments);
    for (int it = 0; it < x->nitems; it++) {
        if (sc->op == STEADY_OP_GOSSIP &&
            sc->sources[it / sc->ntargets] == sc->targets[it % sc->ntargets])
            continue; /* nothing to send to oneself */
        if (taken[it] != sc->ops_per_period) {
            item_name(x, it, what, sizeof what);
            report(x,
                   "schedule: the trees%s carry %ld operations per period, ops_per_period is "
                   "%ld",
                   what, taken[it], sc->ops_per_period);
        }
    }
}

/* ---- header: throughput, loss -------------------------------------------- */

static void check_rates(ctx_t *x)
{
    const steady_schedule_t *sc = x->sc;
    if (mpq_sgn(sc->period) <= 0) {
        report(x, "schedule: period %Qd is not positive", sc->period);
        return;
    }
    x->period_ok = true;
    mpq_t tp, q;
    mpq_inits(tp, q, NULL);
    mpq_set_si(tp, sc->ops_per_period, 1);
    mpq_div(tp, tp, sc->period);
    if (!mpq_equal(tp, sc->throughput))
        report(x, "schedule: throughput is %Qd, but %ld operations per period of %Qd give %Qd",
               sc->throughput, sc->ops_per_period, sc->period, tp);
    if (mpq_cmp(tp, sc->optimum) > 0)
        report(x, "schedule: throughput %Qd is above the optimum %Qd", tp, sc->optimum);
    /* a broadcast to a subset of the ranks, or through switches: the LP's
     * value is only a bound; on a platform with switches or channels the
     * schedule's slots may also need more than the LP's time (a transfer
     * through a slower link, a channel shared by a slot's transfers) */
    bool network = steady_platform_has_network(x->p);
    bool bound = sc->op == STEADY_OP_BROADCAST &&
                 (sc->ntargets < steady_platform_rank_count(x->p) - 1 || network);
    if (!sc->fixed_period && !bound && !network && mpq_cmp(tp, sc->optimum) < 0)
        report(x, "schedule: the exact period gives throughput %Qd, below the optimum %Qd", tp,
               sc->optimum);
    if (sc->fixed_period) {
        mpq_sub(q, sc->optimum, tp);
        if (!mpq_equal(q, sc->loss))
            report(x, "schedule: loss is %Qd, optimum - throughput is %Qd", sc->loss, q);
        /* §4.6: loss <= card(TREES) / T, TREES the decomposition's trees,
         * including those that floor(w T) leaves without an operation (the
         * schedule drops them): loss_bound * period is a whole number of
         * trees, at least the schedule's */
        mpq_mul(q, sc->loss_bound, sc->period);
        if (mpz_cmp_ui(mpq_denref(q), 1) != 0 || mpz_cmp_si(mpq_numref(q), sc->ntrees) < 0)
            report(x,
                   "schedule: loss_bound is %Qd, not a number of trees (at least %d) / period "
                   "%Qd",
                   sc->loss_bound, sc->ntrees, sc->period);
        mpq_sub(tp, sc->optimum, tp);
        if (!network && mpq_cmp(tp, sc->loss_bound) > 0)
            report(x, "schedule: the loss %Qd exceeds the bound %Qd (paper §4.6)", tp,
                   sc->loss_bound);
    }
    mpq_clears(tp, q, NULL);
}

/* ---- slots, ports, coverage --------------------------------------------- */

typedef struct {
    const steady_sched_transfer_t *tr;
    int slot;
} part_t;

static int cmp_part(const void *a, const void *b)
{
    const part_t *x = a, *y = b;
    int c = mpq_cmp(x->tr->from, y->tr->from);
    return c ? c : (x->slot > y->slot) - (x->slot < y->slot);
}

/* A transfer that refers to a well-formed send step, or NULL. */
static const steady_sched_step_t *transfer_step(const ctx_t *x, const steady_sched_transfer_t *tr)
{
    const steady_schedule_t *sc = x->sc;
    if (tr->tree < 0 || tr->tree >= sc->ntrees || tr->step < 0 ||
        tr->step >= sc->trees[tr->tree].nsteps)
        return NULL;
    const steady_sched_step_t *s = &sc->trees[tr->tree].steps[tr->step];
    if (s->kind != STEADY_STEP_SEND || !x->step_ok[x->tree_off[tr->tree] + tr->step])
        return NULL;
    return s;
}

/* One-port and the slot's length: in a slot a node sends at most once and
 * receives at most once; every transfer lasts (to - from) times its hop's
 * time, which is the slot's length; or, when the transfers' load on a
 * shared resource needs longer, the slot lasts exactly what its busiest
 * resource needs and its transfers all last the same (the matching's
 * length: they share the resource and end with the slot). */
static steady_err_t check_slots(ctx_t *x)
{
    const steady_schedule_t *sc = x->sc;
    int nres = steady_platform_resource_count(x->p);
    int *send_at = malloc((size_t)x->nn * sizeof *send_at); /* transfer using the port */
    int *recv_at = malloc((size_t)x->nn * sizeof *recv_at);
    int *stamp_s = malloc((size_t)x->nn * sizeof *stamp_s);
    int *stamp_r = malloc((size_t)x->nn * sizeof *stamp_r);
    int *touched = malloc(((size_t)nres + 1) * sizeof *touched);
    mpq_t *load = malloc(((size_t)nres + 1) * sizeof *load);
    mpq_t end, d, t, longest, need;
    mpq_inits(end, d, t, longest, need, NULL);
    steady_err_t rc = STEADY_ENOMEM;
    if (load)
        for (int r = 0; r < nres; r++)
            mpq_init(load[r]);
    if (!send_at || !recv_at || !stamp_s || !stamp_r || !touched || !load)
        goto cleanup;
    for (int v = 0; v < x->nn; v++)
        stamp_s[v] = stamp_r[v] = -1;
    char desc[DESC_MAX], res[2 * STEADY_NAME_MAX + 32];
    for (int i = 0; i < sc->nslots; i++) {
        const steady_sched_slot_t *sl = &sc->slots[i];
        if (mpq_sgn(sl->duration) <= 0)
            report(x, "slot %d: duration %Qd is not positive", i, sl->duration);
        if (mpq_sgn(sl->start) < 0)
            report(x, "slot %d: starts at %Qd, before the period", i, sl->start);
        mpq_add(end, sl->start, sl->duration);
        if (x->period_ok && mpq_cmp(end, sc->period) > 0)
            report(x, "slot %d: ends at %Qd, after the end of the period (%Qd)", i, end,
                   sc->period);
        if (i > 0) {
            mpq_add(d, sc->slots[i - 1].start, sc->slots[i - 1].duration);
            if (mpq_cmp(sl->start, d) < 0)
                report(x, "slot %d: starts at %Qd, before slot %d ends (%Qd)", i, sl->start, i - 1,
                       d);
        }
        if (sl->ntransfers < 0 || (sl->ntransfers && !sl->transfers)) {
            report(x, "slot %d: malformed transfer list", i);
            continue;
        }
        int ntouched = 0;
        mpq_set_ui(longest, 0, 1);
        for (int j = 0; j < sl->ntransfers; j++) {
            const steady_sched_transfer_t *tr = &sl->transfers[j];
            const steady_sched_step_t *s = transfer_step(x, tr);
            if (!s) {
                if (tr->tree < 0 || tr->tree >= sc->ntrees || tr->step < 0 ||
                    tr->step >= sc->trees[tr->tree].nsteps)
                    report(x, "slot %d transfer %d: tree %d step %d does not exist", i, j, tr->tree,
                           tr->step);
                else if (sc->trees[tr->tree].steps[tr->step].kind != STEADY_STEP_SEND)
                    report(x, "slot %d transfer %d: tree %d step %d is not a send", i, j, tr->tree,
                           tr->step);
                continue; /* a malformed send step is reported with the tree */
            }
            int src = step_src(x, s), dst = step_dst(x, s);
            step_desc(x, s, desc, sizeof desc);
            long w = sc->trees[tr->tree].weight;
            if (mpq_sgn(tr->from) < 0 || mpq_cmp(tr->from, tr->to) >= 0 ||
                mpq_cmp_si(tr->to, w, 1) > 0)
                report(x,
                       "slot %d: tree %d step %d (%s) carries [%Qd, %Qd), not a part of "
                       "[0, %ld]",
                       i, tr->tree, tr->step, desc, tr->from, tr->to, w);
            mpq_sub(d, tr->to, tr->from);
            hop_time(x, s, t);
            mpq_mul(t, t, d);
            if (mpq_cmp(t, longest) > 0)
                mpq_set(longest, t);
            /* what it puts on the shared resources of its edges */
            int n;
            const int *edges = steady_sched_step_edges(sc, s, &n);
            for (int k = 0; k < n; k++) {
                int nu;
                const steady_use_t *u = steady_platform_edge_uses(x->p, edges[k], &nu);
                for (int y = 0; y < nu; y++) {
                    int r = u[y].resource;
                    if (mpq_sgn(load[r]) == 0)
                        touched[ntouched++] = r;
                    steady_exact_use_time(x->p, edges[k], &u[y], sc->msg_size, t);
                    mpq_mul(t, t, d);
                    mpq_add(load[r], load[r], t);
                }
            }
            if (stamp_s[src] == i) {
                const steady_sched_step_t *o = transfer_step(x, &sl->transfers[send_at[src]]);
                report(x, "slot %d: %s sends twice (to %s and to %s)", i, nname(x, src),
                       nname(x, step_dst(x, o)), nname(x, dst));
            } else {
                stamp_s[src] = i;
                send_at[src] = j;
            }
            if (stamp_r[dst] == i) {
                const steady_sched_step_t *o = transfer_step(x, &sl->transfers[recv_at[dst]]);
                report(x, "slot %d: %s receives twice (from %s and from %s)", i, nname(x, dst),
                       nname(x, step_src(x, o)), nname(x, src));
            } else {
                stamp_r[dst] = i;
                recv_at[dst] = j;
            }
        }
        /* the busiest shared resource: a slot it needs longer than its
         * transfers is stretched to exactly what it needs */
        int busiest = -1;
        mpq_set(need, longest);
        for (int k = 0; k < ntouched; k++) {
            if (mpq_cmp(load[touched[k]], need) > 0) {
                mpq_set(need, load[touched[k]]);
                busiest = touched[k];
            }
            mpq_set_ui(load[touched[k]], 0, 1);
        }
        if (busiest >= 0 && !mpq_equal(need, sl->duration)) {
            steady_platform_resource_name(x->p, busiest, res, sizeof res);
            report(x, "slot %d: lasts %Qd, but %s needs %Qd for its transfers", i, sl->duration,
                   res, need);
        }
        /* every transfer lasts the slot, or the longest transfer of a
         * stretched slot */
        mpq_set(need, busiest >= 0 ? longest : sl->duration);
        for (int j = 0; j < sl->ntransfers; j++) {
            const steady_sched_transfer_t *tr = &sl->transfers[j];
            const steady_sched_step_t *s = transfer_step(x, tr);
            if (!s)
                continue;
            mpq_sub(d, tr->to, tr->from);
            hop_time(x, s, t);
            mpq_mul(t, t, d);
            if (mpq_equal(t, need))
                continue;
            step_desc(x, s, desc, sizeof desc);
            if (busiest < 0)
                report(x,
                       "slot %d: tree %d step %d (%s) carries [%Qd, %Qd) in %Qd, but the slot "
                       "lasts %Qd",
                       i, tr->tree, tr->step, desc, tr->from, tr->to, t, sl->duration);
            else
                report(x,
                       "slot %d: tree %d step %d (%s) carries [%Qd, %Qd) in %Qd, but the slot's "
                       "longest transfer lasts %Qd",
                       i, tr->tree, tr->step, desc, tr->from, tr->to, t, need);
        }
    }
    rc = STEADY_OK;
cleanup:
    if (load)
        for (int r = 0; r < nres; r++)
            mpq_clear(load[r]);
    mpq_clears(end, d, t, longest, need, NULL);
    free(load);
    free(touched);
    free(send_at);
    free(recv_at);
    free(stamp_s);
    free(stamp_r);
    return rc;
}

/* The transfers of the period grouped by flat step (a counting sort): the
 * parts of step f are (*parts)[(*start)[f] .. (*start)[f + 1]), in slot
 * order.  Transfers naming no valid step are left out, and with
 * well_formed so are those whose positions are not a range within their
 * tree's weight.  False when memory runs out (free both either way). */
static bool group_parts(const ctx_t *x, int nflat, bool well_formed, int **start, part_t **parts)
{
    const steady_schedule_t *sc = x->sc;
    size_t nparts = 0;
    for (int i = 0; i < sc->nslots; i++)
        if (sc->slots[i].ntransfers > 0 && sc->slots[i].transfers)
            nparts += (size_t)sc->slots[i].ntransfers;
    *start = calloc((size_t)nflat + 2, sizeof **start);
    *parts = malloc((nparts ? nparts : 1) * sizeof **parts);
    if (!*start || !*parts)
        return false;
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < sc->nslots; i++) {
            const steady_sched_slot_t *sl = &sc->slots[i];
            if (sl->ntransfers <= 0 || !sl->transfers)
                continue;
            for (int j = 0; j < sl->ntransfers; j++) {
                const steady_sched_transfer_t *tr = &sl->transfers[j];
                if (!transfer_step(x, tr) ||
                    (well_formed && (mpq_sgn(tr->from) < 0 || mpq_cmp(tr->from, tr->to) >= 0 ||
                                     mpq_cmp_si(tr->to, sc->trees[tr->tree].weight, 1) > 0)))
                    continue;
                int f = x->tree_off[tr->tree] + tr->step;
                if (pass == 0)
                    (*start)[f + 2]++;
                else
                    (*parts)[(*start)[f + 1]++] = (part_t){tr, i};
            }
        }
        if (pass == 0)
            for (int f = 0; f <= nflat; f++)
                (*start)[f + 1] += (*start)[f];
    }
    return true;
}

/* Every send step's positions [0, weight) covered exactly once. */
static steady_err_t check_coverage(ctx_t *x, int nflat)
{
    const steady_schedule_t *sc = x->sc;
    int *start;
    part_t *parts;
    mpq_t at, hi;
    mpq_inits(at, hi, NULL);
    steady_err_t rc = STEADY_ENOMEM;
    if (!group_parts(x, nflat, true, &start, &parts))
        goto cleanup;
    /* now parts of flat step f are parts[start[f] .. start[f + 1]) */
    char desc[DESC_MAX];
    for (int t = 0; t < sc->ntrees; t++) {
        const steady_sched_tree_t *tree = &sc->trees[t];
        for (int i = 0; i < tree->nsteps; i++) {
            int f = x->tree_off[t] + i;
            if (tree->steps[i].kind != STEADY_STEP_SEND || !x->step_ok[f] || tree->weight <= 0)
                continue;
            step_desc(x, &tree->steps[i], desc, sizeof desc);
            part_t *ps = parts + start[f];
            int n = start[f + 1] - start[f];
            qsort(ps, (size_t)n, sizeof *ps, cmp_part);
            mpq_set_ui(at, 0, 1);
            for (int k = 0; k < n; k++) {
                const steady_sched_transfer_t *tr = ps[k].tr;
                int c = mpq_cmp(tr->from, at);
                if (c > 0)
                    report(x, "tree %d step %d (%s): positions [%Qd, %Qd) are never sent", t, i,
                           desc, at, tr->from);
                else if (c < 0) {
                    int prev = ps[k - 1].slot;
                    mpq_set(hi, mpq_cmp(tr->to, at) < 0 ? tr->to : at);
                    report(x,
                           "tree %d step %d (%s): positions [%Qd, %Qd) are sent twice (slots "
                           "%d and %d)",
                           t, i, desc, tr->from, hi, prev, ps[k].slot);
                }
                if (mpq_cmp(tr->to, at) > 0)
                    mpq_set(at, tr->to);
            }
            if (mpq_cmp_si(at, tree->weight, 1) < 0) {
                mpq_set_si(hi, tree->weight, 1);
                report(x, "tree %d step %d (%s): positions [%Qd, %Qd) are never sent", t, i, desc,
                       at, hi);
            }
        }
    }
    rc = STEADY_OK;
cleanup:
    mpq_clears(at, hi, NULL);
    free(start);
    free(parts);
    return rc;
}

/* Sends with the lag of the send producing their input (consume()): they
 * forward what the same period delivers, so each of their parts must start
 * once the producer's parts carrying any of the same message positions
 * have arrived, at the end of their slot plus the edge's latency.  Then a
 * timed execution of the period respects every dependency (the
 * self-timed one is never slower).  One line per offending pair of parts. */
static steady_err_t check_forwarding(ctx_t *x, int nflat)
{
    const steady_schedule_t *sc = x->sc;
    if (x->nsame == 0)
        return STEADY_OK;
    int *start;
    part_t *parts;
    mpq_t arrive, lo, hi, lat;
    mpq_inits(arrive, lo, hi, lat, NULL);
    steady_err_t rc = STEADY_ENOMEM;
    if (!group_parts(x, nflat, false, &start, &parts))
        goto cleanup;
    char desc[DESC_MAX];
    for (int k = 0; k < x->nsame; k++) {
        int t = x->same[k][0], i = x->same[k][1], j = x->same[k][2];
        int f = x->tree_off[t] + i, g = x->tree_off[t] + j;
        const steady_sched_step_t *ps = &sc->trees[t].steps[j];
        hop_latency(x, ps, lat);
        for (int a = start[f]; a < start[f + 1]; a++) {
            const steady_sched_slot_t *sa = &sc->slots[parts[a].slot];
            for (int b = start[g]; b < start[g + 1]; b++) {
                const steady_sched_transfer_t *ta = parts[a].tr, *tb = parts[b].tr;
                if (mpq_cmp(tb->from, ta->to) >= 0 || mpq_cmp(ta->from, tb->to) >= 0)
                    continue;
                const steady_sched_slot_t *sb = &sc->slots[parts[b].slot];
                mpq_add(arrive, sb->start, sb->duration);
                mpq_add(arrive, arrive, lat);
                if (mpq_cmp(arrive, sa->start) <= 0)
                    continue;
                mpq_set(lo, mpq_cmp(ta->from, tb->from) > 0 ? ta->from : tb->from);
                mpq_set(hi, mpq_cmp(ta->to, tb->to) < 0 ? ta->to : tb->to);
                step_desc(x, &sc->trees[t].steps[i], desc, sizeof desc);
                report(x,
                       "tree %d step %d (%s): slot %d starts at %Qd and forwards messages "
                       "[%Qd, %Qd), which step %d (%s -> %s) delivers in slot %d only at %Qd "
                       "(slot end + latency), with the same lag %d",
                       t, i, desc, parts[a].slot, sa->start, lo, hi, j, nname(x, step_src(x, ps)),
                       nname(x, step_dst(x, ps)), parts[b].slot, arrive, ps->lag);
            }
        }
    }
    rc = STEADY_OK;
cleanup:
    mpq_clears(arrive, lo, hi, lat, NULL);
    free(start);
    free(parts);
    return rc;
}

/* ---- compute lists and processor loads --------------------------------- */

static steady_err_t check_compute(ctx_t *x, int nflat)
{
    const steady_schedule_t *sc = x->sc;
    int *entry = malloc(((size_t)nflat + 1) * sizeof *entry); /* flat step -> compute entry */
    mpq_t *load = malloc((size_t)x->nn * sizeof *load);
    mpq_t q;
    if (!entry || !load) {
        free(entry);
        free(load);
        return STEADY_ENOMEM;
    }
    mpq_init(q);
    for (int v = 0; v < x->nn; v++)
        mpq_init(load[v]);
    for (int f = 0; f < nflat; f++)
        entry[f] = -1;
    char desc[DESC_MAX];
    for (int c = 0; c < sc->ncompute; c++) {
        const steady_sched_compute_t *ce = &sc->compute[c];
        if (ce->tree < 0 || ce->tree >= sc->ntrees || ce->step < 0 ||
            ce->step >= sc->trees[ce->tree].nsteps) {
            report(x, "compute %d: tree %d step %d does not exist", c, ce->tree, ce->step);
            continue;
        }
        const steady_sched_tree_t *tr = &sc->trees[ce->tree];
        const steady_sched_step_t *s = &tr->steps[ce->step];
        int f = x->tree_off[ce->tree] + ce->step;
        if (s->kind != STEADY_STEP_COMPUTE) {
            report(x, "compute %d: tree %d step %d is not a task", c, ce->tree, ce->step);
            continue;
        }
        if (ce->node < 0 || ce->node >= x->nn)
            report(x, "compute %d: node %d does not exist", c, ce->node);
        else if (!is_processor(x, ce->node))
            report(x, "compute %d: tasks on the %s %s", c,
                   steady_node_kind_name(steady_platform_node(x->p, ce->node)->kind),
                   nname(x, ce->node));
        if (!x->step_ok[f])
            continue;
        step_desc(x, s, desc, sizeof desc);
        if (ce->node != s->node)
            report(x, "compute %d: tree %d step %d (%s) listed on %s", c, ce->tree, ce->step, desc,
                   nname(x, ce->node));
        if (ce->count != tr->weight)
            report(x,
                   "compute %d: tree %d step %d (%s) runs %ld tasks per period, listed with "
                   "count %ld",
                   c, ce->tree, ce->step, desc, tr->weight, ce->count);
        if (entry[f] >= 0)
            report(x, "compute %d: tree %d step %d (%s) is already listed as compute %d", c,
                   ce->tree, ce->step, desc, entry[f]);
        else
            entry[f] = c;
    }
    /* tasks of a period run in list order: a tree's tasks must be listed in
     * step (dependency) order, so that a task of a lag runs after the tasks
     * of the same lag it uses */
    for (int t = 0; t < sc->ntrees; t++) {
        int last = -1, last_step = -1;
        for (int i = 0; i < sc->trees[t].nsteps; i++) {
            int f = x->tree_off[t] + i;
            if (sc->trees[t].steps[i].kind != STEADY_STEP_COMPUTE || entry[f] < 0)
                continue;
            if (entry[f] < last)
                report(x,
                       "compute %d: tree %d step %d is listed before step %d (compute %d), "
                       "which comes earlier in the tree",
                       entry[f], t, i, last_step, last);
            last = entry[f];
            last_step = i;
        }
    }
    /* the load is what the trees run, whatever the list says */
    for (int t = 0; t < sc->ntrees; t++) {
        const steady_sched_tree_t *tr = &sc->trees[t];
        for (int i = 0; i < tr->nsteps; i++) {
            const steady_sched_step_t *s = &tr->steps[i];
            int f = x->tree_off[t] + i;
            if (s->kind != STEADY_STEP_COMPUTE || !x->step_ok[f])
                continue;
            if (entry[f] < 0) {
                step_desc(x, s, desc, sizeof desc);
                report(x, "tree %d step %d (%s): missing from the compute list", t, i, desc);
            }
            if (tr->weight > 0) {
                mpq_set_si(q, tr->weight, 1);
                mpq_mul(q, q, x->w[s->node]);
                mpq_add(load[s->node], load[s->node], q);
            }
        }
    }
    for (int v = 0; v < x->nn && x->period_ok; v++)
        if (mpq_cmp(load[v], sc->period) > 0)
            report(x, "%s: its tasks take %Qd per period, more than the period (%Qd)", nname(x, v),
                   load[v], sc->period);
    mpq_clear(q);
    for (int v = 0; v < x->nn; v++)
        mpq_clear(load[v]);
    free(load);
    free(entry);
    return STEADY_OK;
}

/* ---- buffers ---------------------------------------------------------------- */

static int cmp_need(const void *a, const void *b)
{
    const need_t *x = a, *y = b;
    if (x->node != y->node)
        return (x->node > y->node) - (x->node < y->node);
    return (x->key > y->key) - (x->key < y->key);
}

static steady_err_t check_buffers(ctx_t *x, needs_t *needs)
{
    const steady_schedule_t *sc = x->sc;
    /* merge the needs per (node, value) */
    if (needs->n > 0)
        qsort(needs->a, needs->n, sizeof *needs->a, cmp_need);
    size_t m = 0;
    for (size_t i = 0; i < needs->n; i++) {
        if (m > 0 && cmp_need(&needs->a[m - 1], &needs->a[i]) == 0)
            needs->a[m - 1].messages += needs->a[i].messages;
        else
            needs->a[m++] = needs->a[i];
    }
    needs->n = m;
    /* the listed buffers, as (node, value) */
    need_t *listed = malloc((sc->nbuffers > 0 ? (size_t)sc->nbuffers : 1) * sizeof *listed);
    if (!listed)
        return STEADY_ENOMEM;
    size_t nl = 0;
    for (int b = 0; b < sc->nbuffers; b++) {
        const steady_sched_buffer_t *bu = &sc->buffers[b];
        if (bu->node < 0 || bu->node >= x->nn || bu->type < 0 || bu->type >= sc->ntypes) {
            report(x, "buffer %d: node %d or type %d does not exist", b, bu->node, bu->type);
            continue;
        }
        if (x->tkey[bu->type] < 0)
            continue; /* reported with the type */
        if (bu->messages < 0)
            report(x, "buffer %d (%s, type %s): negative size %ld", b, nname(x, bu->node),
                   sc->types[bu->type], bu->messages);
        listed[nl++] = (need_t){bu->node, x->tkey[bu->type], bu->messages};
    }
    if (nl > 0)
        qsort(listed, nl, sizeof *listed, cmp_need);
    char val[DESC_MAX];
    for (size_t i = 1; i < nl; i++)
        if (cmp_need(&listed[i - 1], &listed[i]) == 0) {
            value_name(x, listed[i].key, val, sizeof val);
            report(x, "buffers: %s (%s) listed twice", nname(x, listed[i].node), val);
        }
    for (size_t i = 0; i < needs->n; i++) {
        const need_t *n = &needs->a[i];
        need_t *l = bsearch(n, listed, nl, sizeof *listed, cmp_need);
        if (l && l->messages >= n->messages)
            continue;
        value_name(x, n->key, val, sizeof val);
        if (!l)
            report(x, "buffers: %s holds %ld messages (%s) across periods, not listed",
                   nname(x, n->node), n->messages, val);
        else
            report(x, "buffers: %s holds %ld messages (%s) across periods, listed with %ld",
                   nname(x, n->node), n->messages, val, l->messages);
    }
    free(listed);
    return STEADY_OK;
}

/* ---- entry point ---------------------------------------------------------- */

static bool check_platform(ctx_t *x, steady_err_t *rc, steady_error_t *err)
{
    const steady_schedule_t *sc = x->sc;
    if (sc->platform_nodes != x->nn || sc->platform_edges != x->ne) {
        report(x, "platform: the schedule is for %d nodes and %d edges, the platform has %d and %d",
               sc->platform_nodes, sc->platform_edges, x->nn, x->ne);
        return false;
    }
    uint64_t h;
    if ((*rc = steady_platform_hash(x->p, &h, err)))
        return false;
    if (h != sc->platform_hash) {
        report(x,
               "platform: the schedule is for the platform of hash fnv1a64:%016llx, this one's "
               "is fnv1a64:%016llx",
               (unsigned long long)sc->platform_hash, (unsigned long long)h);
        return false;
    }
    if (sc->abstract != steady_platform_is_abstract(x->p))
        report(x, "schedule: abstract is %s, the platform is %s", sc->abstract ? "true" : "false",
               steady_platform_is_abstract(x->p) ? "abstract" : "physical");
    if (!(sc->msg_size > 0))
        report(x, "schedule: msg_size %g is not positive", sc->msg_size);
    /* the planner's rules for segments (steady_schedule_plan) */
    if (sc->segments > STEADY_SEGMENTS_LIMIT)
        report(x, "schedule: %ld segments, more than %d", sc->segments, STEADY_SEGMENTS_LIMIT);
    else if (sc->segments > 1 && sc->abstract)
        report(x, "schedule: %ld segments on an abstract platform, whose costs are per message",
               sc->segments);
    else if (sc->segments > 1 && fmod(sc->msg_size, 8) != 0)
        report(x, "schedule: %ld segments of %.17g bytes, which are not whole 8-byte words",
               sc->segments, sc->msg_size);
    if (sc->op == STEADY_OP_REDUCE && !(sc->task_cost > 0))
        report(x, "schedule: task_cost %g is not positive", sc->task_cost);
    if (sc->ntypes < 0 || sc->ntrees < 0 || sc->nslots < 0 || sc->ncompute < 0 ||
        sc->nbuffers < 0 || sc->nhops < 0 || (sc->ntypes && !sc->types) ||
        (sc->ntrees && !sc->trees) || (sc->nslots && !sc->slots) ||
        (sc->ncompute && !sc->compute) || (sc->nbuffers && !sc->buffers) ||
        (sc->nhops && !sc->hops)) {
        report(x, "schedule: malformed lists");
        return false;
    }
    for (int t = 0; t < sc->ntrees; t++)
        if (sc->trees[t].nsteps < 0 || (sc->trees[t].nsteps && !sc->trees[t].steps)) {
            report(x, "tree %d: malformed step list", t);
            return false;
        }
    return true;
}

steady_err_t steady_schedule_check(const steady_schedule_t *sc, const steady_platform_t *p,
                                   steady_violations_t *v, steady_error_t *err)
{
    ctx_t x = {.sc = sc, .p = p, .v = v};
    needs_t needs = {0};
    long *taken = NULL; /* per item: operations of the batch its trees take */
    steady_err_t rc = STEADY_ENOMEM;
    int nflat = 0;
    v->count = 0;
    v->lines = malloc((MAX_LINES + 1) * sizeof *v->lines);
    x.nn = steady_platform_node_count(p);
    x.ne = steady_platform_edge_count(p);
    x.src_idx = malloc((size_t)x.nn * sizeof *x.src_idx);
    x.tgt_idx = malloc((size_t)x.nn * sizeof *x.tgt_idx);
    x.c = malloc((size_t)(x.ne ? x.ne : 1) * sizeof *x.c);
    x.w = malloc((size_t)x.nn * sizeof *x.w);
    x.lat = malloc((size_t)(x.ne ? x.ne : 1) * sizeof *x.lat);
    if (!v->lines || !x.src_idx || !x.tgt_idx || !x.c || !x.w || !x.lat) {
        free(x.c);
        free(x.w);
        free(x.lat);
        x.c = x.w = x.lat = NULL;
        goto cleanup;
    }
    for (int e = 0; e < x.ne; e++) {
        mpq_init(x.c[e]);
        steady_exact_edge_time(p, e, sc->msg_size, x.c[e]);
        mpq_init(x.lat[e]);
        steady_exact_edge_latency(p, e, x.lat[e]);
    }
    for (int n = 0; n < x.nn; n++) {
        mpq_init(x.w[n]);
        steady_exact_task_time(p, n, sc->task_cost, x.w[n]);
        x.src_idx[n] = x.tgt_idx[n] = -1;
    }

    rc = STEADY_OK;
    if (!check_platform(&x, &rc, err) || !check_problem(&x))
        goto done;
    rc = STEADY_ENOMEM;
    x.tkey = malloc((size_t)(sc->ntypes ? sc->ntypes : 1) * sizeof *x.tkey);
    x.tree_off = malloc(((size_t)sc->ntrees + 1) * sizeof *x.tree_off);
    if (!x.tkey || !x.tree_off)
        goto cleanup;
    for (int t = 0; t < sc->ntrees; t++) {
        x.tree_off[t] = nflat;
        nflat += sc->trees[t].nsteps;
    }
    x.tree_off[sc->ntrees] = nflat;
    x.step_ok = calloc((size_t)nflat + 1, sizeof *x.step_ok);
    taken = calloc((size_t)x.nitems + 1, sizeof *taken);
    if (!x.step_ok || !taken)
        goto cleanup;

    if (!parse_types(&x))
        goto cleanup;
    check_steps(&x);
    if ((rc = simulate_trees(&x, taken, &needs)))
        goto cleanup;
    check_batch(&x, taken);
    check_rates(&x);
    if ((rc = check_slots(&x)) || (rc = check_coverage(&x, nflat)) ||
        (rc = check_forwarding(&x, nflat)) || (rc = check_compute(&x, nflat)) ||
        (rc = check_buffers(&x, &needs)))
        goto cleanup;

done:
    if (!rc && !x.oom && x.total > v->count) {
        /* the lines array has room for this one beyond MAX_LINES */
        char *line = malloc(48);
        if (line) {
            snprintf(line, 48, "... and %ld more", x.total - v->count);
            v->lines[v->count++] = line;
        } else {
            x.oom = true;
        }
    }
    if (!rc && x.oom)
        rc = STEADY_ENOMEM;
    v->total = x.total;
cleanup:
    if (rc == STEADY_ENOMEM) {
        steady_error_set(err, STEADY_ENOMEM, "schedule check: out of memory");
        steady_violations_free(v);
    } else if (rc) {
        steady_violations_free(v);
    }
    if (x.c)
        for (int e = 0; e < x.ne; e++)
            mpq_clears(x.c[e], x.lat[e], NULL);
    if (x.w)
        for (int n = 0; n < x.nn; n++)
            mpq_clear(x.w[n]);
    free(x.c);
    free(x.w);
    free(x.lat);
    free(x.same);
    free(x.src_idx);
    free(x.tgt_idx);
    free(x.tkey);
    free(x.tree_off);
    free(x.step_ok);
    free(taken);
    free(needs.a);
    return rc;
}
