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
 *              times allow it (forwarding below).  Reduce, scatter,
 *              gossip: every value is used exactly once, except the
 *              delivered results (v[0,N-1] on the target, a message on its
 *              destination).  Broadcast: an arborescence — no node
 *              receives the message twice, every target receives it.
 *   slots      positive durations, inside [0, period], sorted and
 *              disjoint; one-port: in a slot a node sends to one peer and
 *              receives from one peer; a transfer names a send step,
 *              carries a part 0 <= from < to <= weight, and
 *              (to - from) c(e) is at most the slot's duration, as are a
 *              port's transfers together and the load of the slot's
 *              transfers on each shared resource.
 *   coverage   per send step, the parts of all slots cover [0, weight)
 *              exactly once.
 *   forwarding a send with the lag of the send producing its input: each
 *              of its parts starts no earlier than the end of the
 *              producer's slots carrying the same message positions plus
 *              the producer edge's latency (exact).
 *   compute    each task step is listed once, on its node, with count =
 *              its tree's weight; no task on a router; per processor the
 *              tasks of one period take at most the period (full overlap of
 *              computation and communication, so only the CPU bounds them).
 *   buffers    see ck_buffers() (check_compute.c).
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

#include "check.h"

/* ---- violation lines ------------------------------------------------------ */

/* Records one violation (printf format, GMP's %Qd allowed). */
void ck_report(ctx_t *x, const char *fmt, ...)
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

const char *ck_nname(const ctx_t *x, int id)
{
    return id >= 0 && id < x->nn ? steady_platform_node(x->p, id)->name : "?";
}

bool ck_is_processor(const ctx_t *x, int id)
{
    return id >= 0 && id < x->nn && steady_platform_node(x->p, id)->kind == STEADY_PROCESSOR;
}

/* The ends of a well-formed send step's hop. */
int ck_step_src(const ctx_t *x, const steady_sched_step_t *s)
{
    return steady_sched_step_src(x->sc, x->p, s);
}

int ck_step_dst(const ctx_t *x, const steady_sched_step_t *s)
{
    return steady_sched_step_dst(x->sc, x->p, s);
}

/* A well-formed send step's hop time (its slowest edge) and latency (the
 * sum of its edges'). */
void ck_hop_time(const ctx_t *x, const steady_sched_step_t *s, mpq_t t)
{
    int n;
    const int *edges = steady_sched_step_edges(x->sc, s, &n);
    mpq_set_ui(t, 0, 1);
    for (int k = 0; k < n; k++)
        if (mpq_cmp(x->c[edges[k]], t) > 0)
            mpq_set(t, x->c[edges[k]]);
}

void ck_hop_latency(const ctx_t *x, const steady_sched_step_t *s, mpq_t l)
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
    if (s->hop >= sc->nhops ||
        (s->hop >= 0 && (!sc->hops || sc->hops[s->hop].nedges < 1 || !sc->hops[s->hop].edges)))
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
    if (s->hop >= 0 && (sc->hops[s->hop].src != steady_platform_edge(x->p, edges[0])->src ||
                        sc->hops[s->hop].dst != at))
        return "its hop's ends are not its path's";
    return NULL;
}

/* A value (a message type's content) is identified by a key: reduce
 * k * N + m for v[k,m]; scatter the destination node; gossip src * nn +
 * dst; broadcast 0. */
void ck_value_name(const ctx_t *x, long key, char *buf, size_t n)
{
    switch (x->sc->op) {
    case STEADY_OP_REDUCE: snprintf(buf, n, "v[%ld,%ld]", key / x->N, key % x->N); break;
    case STEADY_OP_SCATTER: snprintf(buf, n, "the message for %s", ck_nname(x, (int)key)); break;
    case STEADY_OP_GOSSIP:
        snprintf(buf, n, "the message %s>%s", ck_nname(x, (int)(key / x->nn)),
                 ck_nname(x, (int)(key % x->nn)));
        break;
    default: snprintf(buf, n, "the message"); break;
    }
}

/* "P0 -> P3, type [1,1]" or "compute T(0,1,3) on P2" (a well-formed step). */
void ck_step_desc(const ctx_t *x, const steady_sched_step_t *s, char *buf, size_t n)
{
    if (s->kind == STEADY_STEP_SEND) {
        snprintf(buf, n, "%s -> %s, type %s", ck_nname(x, ck_step_src(x, s)),
                 ck_nname(x, ck_step_dst(x, s)), x->sc->types[s->type]);
    } else {
        snprintf(buf, n, "compute T(%d,%d,%d) on %s", s->k, s->l, s->m, ck_nname(x, s->node));
    }
}

int ck_cmp_key(const void *a, const void *b)
{
    const need_t *x = a, *y = b;
    if (x->key != y->key)
        return (x->key > y->key) - (x->key < y->key);
    return (x->node > y->node) - (x->node < y->node);
}

/* ---- the problem and the message types ---------------------------------- */

/* Where the values of key start, for ops whose messages have one origin. */
int ck_origin_of(const ctx_t *x, long key)
{
    switch (x->sc->op) {
    case STEADY_OP_REDUCE: return x->sc->sources[key / x->N];
    case STEADY_OP_GOSSIP: return (int)(key / x->nn);
    default: return x->sc->sources[0];
    }
}

/* Where the values of key must end. */
int ck_dest_of(const ctx_t *x, long key)
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
int ck_item_of(const ctx_t *x, long key)
{
    switch (x->sc->op) {
    case STEADY_OP_SCATTER: return x->tgt_idx[key];
    case STEADY_OP_GOSSIP:
        return x->src_idx[key / x->nn] * x->sc->ntargets + x->tgt_idx[key % x->nn];
    default: return 0;
    }
}

void ck_item_name(const ctx_t *x, int item, char *buf, size_t n)
{
    const steady_schedule_t *sc = x->sc;
    if (sc->op == STEADY_OP_SCATTER)
        snprintf(buf, n, " of type %s", ck_nname(x, sc->targets[item]));
    else if (sc->op == STEADY_OP_GOSSIP)
        snprintf(buf, n, " of type %s>%s", ck_nname(x, sc->sources[item / sc->ntargets]),
                 ck_nname(x, sc->targets[item % sc->ntargets]));
    else
        buf[0] = '\0';
}

static bool distinct_nodes(ctx_t *x, const int *ids, int n, const char *what)
{
    bool ok = true;
    for (int i = 0; i < n; i++) {
        if (ids[i] < 0 || ids[i] >= x->nn) {
            ck_report(x, "%s: node id %d does not exist (the platform has %d nodes)", what, ids[i],
                      x->nn);
            ok = false;
            continue;
        }
        for (int j = 0; j < i; j++)
            if (ids[j] == ids[i]) {
                ck_report(x, "%s: %s is listed twice", what, ck_nname(x, ids[i]));
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
        ck_report(x, "schedule: malformed source or target list");
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
            ck_report(x, "sources: a %s has one source (got %d)", steady_op_name(sc->op),
                      sc->nsources);
            return false;
        }
        for (int i = 0; i < sc->ntargets; i++)
            if (sc->targets[i] == sc->sources[0]) {
                ck_report(x, "targets: the source %s is one of the targets",
                          ck_nname(x, sc->targets[i]));
                ok = false;
            }
        break;
    case STEADY_OP_GOSSIP: break;
    case STEADY_OP_REDUCE:
        if (sc->nsources < 2 || sc->ntargets != 1) {
            ck_report(x, "reduce: needs at least 2 participants and 1 target (got %d and %d)",
                      sc->nsources, sc->ntargets);
            return false;
        }
        x->N = sc->nsources;
        break;
    default: ck_report(x, "schedule: unknown operation %d", (int)sc->op); return false;
    }
    if (sc->ntargets == 0) {
        ck_report(x, "targets: none");
        return false;
    }
    for (int i = 0; i < sc->nsources; i++)
        if (!ck_is_processor(x, sc->sources[i]))
            ck_report(x, "sources: %s is a %s, and only processors send operations",
                      ck_nname(x, sc->sources[i]),
                      steady_node_kind_name(steady_platform_node(x->p, sc->sources[i])->kind));
    for (int i = 0; i < sc->ntargets; i++)
        if (sc->op == STEADY_OP_BROADCAST
                ? !steady_node_kind_is_rank(steady_platform_node(x->p, sc->targets[i])->kind)
                : !ck_is_processor(x, sc->targets[i]))
            ck_report(x, "targets: %s is a %s, which receives no operation",
                      ck_nname(x, sc->targets[i]),
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
            ck_report(x, "type %d: no name", t);
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
            ck_report(x, "type %d (%s): %s", t, name, why);
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
        qsort(byk, (size_t)n, sizeof *byk, ck_cmp_key);
    for (int i = 1; i < n; i++)
        if (byk[i].key == byk[i - 1].key) {
            int a = byk[i - 1].node < byk[i].node ? byk[i - 1].node : byk[i].node;
            int b = byk[i - 1].node < byk[i].node ? byk[i].node : byk[i - 1].node;
            ck_report(x, "type %d (%s): the same as type %d", b, sc->types[b], a);
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
                    ck_report(x,
                              "tree %d step %d: edge %d does not exist (the platform has %d edges)",
                              t, i, s->edge, x->ne);
                    ok = false;
                } else if ((why = bad_hop(x, s))) {
                    ck_report(x, "tree %d step %d: the message from %s: %s", t, i,
                              ck_nname(x, steady_platform_edge(x->p, s->edge)->src), why);
                    ok = false;
                }
                if (s->type < 0 || s->type >= sc->ntypes) {
                    ck_report(x, "tree %d step %d: type %d does not exist (the schedule has %d)", t,
                              i, s->type, sc->ntypes);
                    ok = false;
                } else if (x->tkey[s->type] < 0) {
                    ok = false; /* reported with the type */
                }
            } else if (s->kind == STEADY_STEP_COMPUTE) {
                if (sc->op != STEADY_OP_REDUCE) {
                    ck_report(x, "tree %d step %d: a task in a %s", t, i, steady_op_name(sc->op));
                    ok = false;
                } else if (s->node < 0 || s->node >= x->nn) {
                    ck_report(x, "tree %d step %d: node %d does not exist", t, i, s->node);
                    ok = false;
                } else if (!(0 <= s->k && s->k <= s->l && s->l < s->m && s->m < x->N)) {
                    ck_report(x,
                              "tree %d step %d: T(%d,%d,%d) on %s is not a task of %d participants",
                              t, i, s->k, s->l, s->m, ck_nname(x, s->node), x->N);
                    ok = false;
                } else if (!ck_is_processor(x, s->node)) {
                    ck_report(x, "tree %d step %d: compute T(%d,%d,%d) on the %s %s", t, i, s->k,
                              s->l, s->m,
                              steady_node_kind_name(steady_platform_node(x->p, s->node)->kind),
                              ck_nname(x, s->node));
                    ok = false;
                }
            } else {
                ck_report(x, "tree %d step %d: unknown kind %d", t, i, (int)s->kind);
                ok = false;
            }
            if (s->lag < 0) {
                ck_report(x, "tree %d step %d: negative lag %d", t, i, s->lag);
                ok = false;
            }
            if (s->lag > max_lag)
                max_lag = s->lag;
            x->step_ok[x->tree_off[t] + i] = ok;
        }
    }
    if (sc->max_lag != max_lag)
        ck_report(x, "schedule: max_lag is %d, the largest lag of the steps is %d", sc->max_lag,
                  max_lag);
}

/* ---- entry point ---------------------------------------------------------- */

static bool check_platform(ctx_t *x, steady_err_t *rc, steady_error_t *err)
{
    const steady_schedule_t *sc = x->sc;
    if (sc->platform_nodes != x->nn || sc->platform_edges != x->ne) {
        ck_report(x,
                  "platform: the schedule is for %d nodes and %d edges, the platform has %d and %d",
                  sc->platform_nodes, sc->platform_edges, x->nn, x->ne);
        return false;
    }
    uint64_t h;
    if ((*rc = steady_platform_hash(x->p, &h, err)))
        return false;
    if (h != sc->platform_hash) {
        ck_report(x,
                  "platform: the schedule is for the platform of hash fnv1a64:%016llx, this one's "
                  "is fnv1a64:%016llx",
                  (unsigned long long)sc->platform_hash, (unsigned long long)h);
        return false;
    }
    if (sc->abstract != steady_platform_is_abstract(x->p))
        ck_report(x, "schedule: abstract is %s, the platform is %s",
                  sc->abstract ? "true" : "false",
                  steady_platform_is_abstract(x->p) ? "abstract" : "physical");
    if (!(sc->msg_size > 0))
        ck_report(x, "schedule: msg_size %g is not positive", sc->msg_size);
    /* the planner's rules for segments (steady_schedule_plan) */
    if (sc->segments > STEADY_SEGMENTS_LIMIT)
        ck_report(x, "schedule: %ld segments, more than %d", sc->segments, STEADY_SEGMENTS_LIMIT);
    else if (sc->segments > 1 && sc->abstract)
        ck_report(x, "schedule: %ld segments on an abstract platform, whose costs are per message",
                  sc->segments);
    else if (sc->segments > 1 && fmod(sc->msg_size, 8) != 0)
        ck_report(x, "schedule: %ld segments of %.17g bytes, which are not whole 8-byte words",
                  sc->segments, sc->msg_size);
    if (sc->op == STEADY_OP_REDUCE && !(sc->task_cost > 0))
        ck_report(x, "schedule: task_cost %g is not positive", sc->task_cost);
    if (sc->ntypes < 0 || sc->ntrees < 0 || sc->nslots < 0 || sc->ncompute < 0 ||
        sc->nbuffers < 0 || sc->nhops < 0 || (sc->ntypes && !sc->types) ||
        (sc->ntrees && !sc->trees) || (sc->nslots && !sc->slots) ||
        (sc->ncompute && !sc->compute) || (sc->nbuffers && !sc->buffers) ||
        (sc->nhops && !sc->hops)) {
        ck_report(x, "schedule: malformed lists");
        return false;
    }
    for (int t = 0; t < sc->ntrees; t++)
        if (sc->trees[t].nsteps < 0 || (sc->trees[t].nsteps && !sc->trees[t].steps)) {
            ck_report(x, "tree %d: malformed step list", t);
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
    if ((rc = ck_simulate_trees(&x, taken, &needs)))
        goto cleanup;
    ck_batch(&x, taken);
    ck_rates(&x);
    if ((rc = ck_slots(&x)) || (rc = ck_coverage(&x, nflat)) || (rc = ck_forwarding(&x, nflat)) ||
        (rc = ck_compute(&x, nflat)) || (rc = ck_buffers(&x, &needs)))
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
