/*
 * single.c — steady_lp_single_tree(): one simple tree of a broadcast or a
 * reduce, carrying the optimum or near it.
 *
 * The LP's vertex mixes trees: on SimGrid's 16-host fat tree every hop
 * between two hosts carries some flow, and the planner schedules what it
 * is given, 25 trees whose transfers share the fat tree's links slot after
 * slot (51% of the optimum planned, 55% replayed).  A tree that carries TP
 * alone is another optimal solution, far simpler to schedule: its
 * transfers are few and each rank's ports carry one message each way; one
 * that carries a little less may still run faster.
 * The tree tried is a chain through the ranks in the platform's order —
 * SimGrid numbers a cluster's hosts along its switches, so on a flat
 * cluster, a fat tree, a torus's rings, consecutive hosts are neighbours
 * and the chain crosses each uplink once:
 *   broadcast  from the source through the other ranks in order;
 *   reduce     the participants P0 .. PN-1 in the operator's order: when
 *              the target is Pt, v[0,i] climbs from P0 to Pt and v[i,N-1]
 *              comes down from PN-1 to Pt, which computes v[0,N-1] (one
 *              task per participant but the ends, two at Pt); or v[i,N-1]
 *              comes down to P0 (v[0,i] climbs to PN-1) and the result
 *              goes on to the target; the shape that carries most.
 * Its throughput is the largest that every capacity row of the LP (ports,
 * shared resources, processors) holds, up to TP, in exact arithmetic; the
 * planner offers it, when that is no less than what it expects of its own
 * best period, as one more candidate, replayed beside the others
 * (schedule/plan.c).
 *
 * steady_lp_broadcast_trees() prices given trees the same way, each
 * carrying its share: the planner's two shallow trees of a broadcast;
 * steady_lp_reduce_trees() a reduce's two in-order trees, TwoTreeS's
 * shape within the operator's order.
 */
#include "internal.h"

#include <stdlib.h>

/* A chain: its transfers (hop, type) and tasks (node, task), at most
 * one per node each; or `share` trees, each carrying 1 / share of the
 * throughput, their transfers and tasks one tree after the other. */
typedef struct {
    int nsend, ntask, share;
    int *hop, *type, *node, *task;
} chain_t;

/* The first hop from a to b, -1 when there is none. */
static int hop_between(const steady_solution_t *s, int a, int b)
{
    int nout;
    const int *out = steady_hop_graph_out(s->hops, a, &nout);
    for (int k = 0; k < nout; k++)
        if (steady_hop_graph_hop(s->hops, out[k])->dst == b)
            return out[k];
    return -1;
}

/* Adds the transfer of `type` from a to b; false when no hop joins them. */
static bool send(const steady_solution_t *s, chain_t *c, int a, int b, int type)
{
    int h = hop_between(s, a, b);
    if (h < 0)
        return false;
    c->hop[c->nsend] = h;
    c->type[c->nsend++] = type;
    return true;
}

/* Adds the task T(k,l,m) on participant i. */
static void compute(const steady_solution_t *s, chain_t *c, int i, int k, int l, int m)
{
    c->node[c->ntask] = s->sources[i];
    c->task[c->ntask++] = lp_task(s->nsources, k, l, m);
}

/* The broadcast's chain: from the source through the other ranks. */
static bool broadcast_chain(const steady_solution_t *s, chain_t *c)
{
    int nv = steady_platform_node_count(s->p), prev = s->sources[0];
    for (int v = 0; v < nv; v++) {
        if (v == s->sources[0] || steady_platform_node(s->p, v)->kind == STEADY_SWITCH)
            continue;
        if (!send(s, c, prev, v, 0))
            return false;
        prev = v;
    }
    return true;
}

/* The reduce's chain of `shape`: 0, v[0,i] climbs to the target Pt and
 * v[i,N-1] comes down to it (false when the target takes no part); 1,
 * v[i,N-1] comes down to P0, 2, v[0,i] climbs to PN-1, and the result goes
 * on to the target.  False when two consecutive ranks have no hop. */
static bool reduce_chain(const steady_solution_t *s, int shape, chain_t *c)
{
    int N = s->nsources, target = s->targets[0], t = -1;
    const int *P = s->sources;
    for (int i = 0; i < N; i++)
        if (P[i] == target)
            t = i;
    if (shape == 0 && t < 0)
        return false;
    int top = shape == 0 ? t : shape == 1 ? 0 : N - 1; /* where v[0,N-1] is computed */
    for (int i = 0; i < top; i++) { /* v[0,i] from Pi to Pi+1, which computes v[0,i+1] */
        if (!send(s, c, P[i], P[i + 1], lp_interval(N, 0, i)))
            return false;
        compute(s, c, i + 1, 0, i, i + 1);
    }
    for (int i = N - 1; i > top; i--) { /* v[i,N-1] from Pi to Pi-1 */
        if (!send(s, c, P[i], P[i - 1], lp_interval(N, i, N - 1)))
            return false;
        if (i - 1 > top)
            compute(s, c, i - 1, i - 1, i - 1, N - 1);
        else
            compute(s, c, top, 0, top, N - 1);
    }
    return shape == 0 || send(s, c, P[top], target, lp_interval(N, 0, N - 1));
}

/* The in-order binary tree over the positions lo..hi of the span that
 * starts at participant `base` (position x is participant base + x - 1),
 * whose root, and every subtree's, is the position x with the most
 * trailing zero bits of x + a; its result goes to node `to`.  A left
 * subtree's v[lo, x-1] and a right one's v[x+1, hi] come to x, which
 * computes v[lo, x] and then v[lo, hi].  With a = 0 the odd positions are
 * its leaves, with a = 1 the even ones: no participant is interior in both
 * trees (TwoTreeS's property; TwoTreeS gets its second tree by a shift
 * when the count is odd, which the operator's order forbids).  *height
 * gets the deepest position's hops to `to` (depth: this subtree's root's).
 * False when two ranks have no hop. */
static bool inorder(const steady_solution_t *s, chain_t *c, int base, int a, int lo, int hi, int to,
                    int depth, int *height)
{
    int y = hi + a;
    for (int k = 30; k > 0; k--)
        if ((((hi + a) >> k) << k) >= lo + a) {
            y = ((hi + a) >> k) << k;
            break;
        }
    int x = y - a, i = base + x - 1, k = base + lo - 1, m = base + hi - 1;
    *height = depth + 1 > *height ? depth + 1 : *height;
    if (lo < x) {
        if (!inorder(s, c, base, a, lo, x - 1, s->sources[i], depth + 1, height))
            return false;
        compute(s, c, i, k, i - 1, i);
    }
    if (x < hi) {
        if (!inorder(s, c, base, a, x + 1, hi, s->sources[i], depth + 1, height))
            return false;
        compute(s, c, i, k, i, m);
    }
    return send(s, c, s->sources[i], to, lp_interval(s->nsources, k, m));
}

/* The reduce's two trees (inorder(), a = 0 and 1), each over the
 * participants but the target when it is the first or the last (which
 * then combines its own value with theirs), else over all of them; false
 * when the target is another participant (it would receive the two halves
 * of the order around its own value, two messages per operation), fewer
 * than three participants are left to combine, or two ranks have no hop. */
static bool reduce_pair(const steady_solution_t *s, chain_t *c, int *height)
{
    int N = s->nsources, target = s->targets[0], n = N, base = 0;
    const int *P = s->sources;
    for (int i = 1; i < N - 1; i++)
        if (P[i] == target)
            return false;
    if (P[0] == target || P[N - 1] == target) {
        n = N - 1;
        base = P[0] == target;
    }
    if (n < 3)
        return false;
    c->nsend = c->ntask = 0;
    c->share = 2;
    *height = 0;
    for (int a = 0; a < 2; a++) {
        if (!inorder(s, c, base, a, 1, n, target, 0, height))
            return false;
        if (n < N)
            compute(s, c, base ? 0 : N - 1, 0, base ? 0 : N - 2, N - 1);
    }
    return true;
}

/* c := the chain of `shape` (a broadcast has one); false when two of its
 * consecutive ranks have no hop. */
static bool make_chain(const steady_solution_t *s, int shape, chain_t *c)
{
    c->nsend = c->ntask = 0;
    c->share = 1;
    return s->op == STEADY_OP_REDUCE ? reduce_chain(s, shape, c) : broadcast_chain(s, c);
}

/* Lowers tp to bound / load when load * tp exceeds bound. */
static void cap_at(mpq_t tp, const mpq_t load, long bound, mpq_t q)
{
    mpq_mul(q, load, tp);
    if (mpq_cmp_si(q, bound, 1) > 0) {
        mpq_set_si(q, bound, 1);
        mpq_div(tp, q, load);
    }
}

/* The throughput the chain carries, at most lp's TP, into tp: every
 * capacity row of the LP holds tp times the chain's load on it (the hops'
 * times on ports and resources, the tasks' on processors); with
 * c->share trees, each carrying tp / c->share, that share is what the
 * loads cap.  The rows are built over a column per hop the chain crosses,
 * weighed by the times it crosses it.  False when memory runs out. */
static bool chain_tp(const steady_solution_t *s, const chain_t *c, mpq_t tp)
{
    int nv = steady_platform_node_count(s->p), ncols = 0;
    int *cols = malloc((size_t)s->nhops * sizeof *cols);
    int *times = calloc((size_t)(c->nsend ? c->nsend : 1), sizeof *times);
    mpq_t *cpu = malloc((size_t)nv * sizeof *cpu);
    lp_model_t m;
    lp_model_init(&m);
    if (cols && cpu && times) {
        for (int h = 0; h < s->nhops; h++)
            cols[h] = -1;
        for (int k = 0; k < c->nsend; k++) {
            if (cols[c->hop[k]] < 0) {
                cols[c->hop[k]] = ncols++;
                lp_add_col(&m, "hop%d", c->hop[k]);
            }
            times[cols[c->hop[k]]]++;
        }
        lp_capacity_rows(s, &m, cols, 1);
    }
    mpq_t *load = m.oom || !cols || !cpu || !times
                      ? NULL
                      : malloc((size_t)(m.nrows ? m.nrows : 1) * sizeof *load);
    mpq_set(tp, s->tp); /* tp: one tree's share until the end */
    mpz_mul_ui(mpq_denref(tp), mpq_denref(tp), (unsigned long)c->share);
    mpq_canonicalize(tp);
    mpq_t q;
    mpq_init(q);
    for (int r = 0; r < m.nrows && load; r++)
        mpq_init(load[r]);
    for (int k = 0; k < m.nnz && load; k++) {
        mpq_set_si(q, times[m.a[k].col], 1);
        mpq_mul(q, q, m.a[k].val);
        mpq_add(load[m.a[k].row], load[m.a[k].row], q);
    }
    for (int r = 0; r < m.nrows && load; r++) {
        cap_at(tp, load[r], m.row_bound[r], q);
        mpq_clear(load[r]);
    }
    /* the processors: the tasks' times (the LP's (7), (9)) */
    for (int v = 0; v < nv && load; v++)
        mpq_init(cpu[v]);
    for (int k = 0; k < c->ntask && load; k++)
        mpq_add(cpu[c->node[k]], cpu[c->node[k]], s->work[c->node[k]]);
    for (int v = 0; v < nv && load; v++) {
        cap_at(tp, cpu[v], 1, q);
        mpq_clear(cpu[v]);
    }
    mpq_clear(q);
    mpz_mul_ui(mpq_numref(tp), mpq_numref(tp), (unsigned long)c->share);
    mpq_canonicalize(tp);
    bool done = load != NULL;
    free(load);
    free(cpu);
    free(cols);
    free(times);
    lp_model_free(&m);
    return done;
}

/* The solution of the chain c at throughput tp into *out. */
static steady_err_t chain_solution(const steady_solution_t *lp, const chain_t *c, const mpq_t tp,
                                   steady_solution_t **out, bool *oom, steady_error_t *err)
{
    steady_problem_t prob = lp_problem_of(lp);
    steady_solution_t *s;
    steady_err_t rc = lp_solution_prepare(lp->p, &prob, &s, err);
    if (rc)
        return rc;
    lp_rate_builder_t send, cons;
    lp_rb_init(&send);
    lp_rb_init(&cons);
    mpq_t each;
    mpq_init(each);
    mpq_set_ui(each, 1, (unsigned long)c->share);
    mpq_mul(each, each, tp);
    for (int k = 0; k < c->nsend; k++)
        lp_rb_add(&send, c->hop[k], c->type[k], each);
    for (int k = 0; k < c->ntask; k++)
        lp_rb_add(&cons, c->node[k], c->task[k], each);
    mpq_clear(each);
    mpq_set(s->tp, tp);
    s->exact = true;
    s->note = "";
    s->formulation = lp->formulation;
    lp_rates_free(&s->send);
    lp_rates_free(&s->cons);
    bool sent = lp_rb_finish(&send, s->nhops, &s->send);
    if (sent && lp_rb_finish(&cons, steady_platform_node_count(lp->p), &s->cons)) {
        *out = s;
        return STEADY_OK;
    }
    if (!sent)
        lp_rb_free(&cons);
    steady_solution_destroy(s);
    *oom = true;
    return STEADY_OK;
}

/* c's trees at the largest throughput they carry (chain_tp) into *out,
 * NULL when that is 0; false when memory runs out. */
static bool priced(const steady_solution_t *lp, const chain_t *c, steady_solution_t **out,
                   steady_err_t *rc, steady_error_t *err)
{
    mpq_t tp;
    mpq_init(tp);
    bool oom = !chain_tp(lp, c, tp);
    if (!oom && mpq_sgn(tp) > 0)
        *rc = chain_solution(lp, c, tp, out, &oom, err);
    mpq_clear(tp);
    return !oom;
}

steady_err_t steady_lp_single_tree(const steady_solution_t *lp, steady_solution_t **out,
                                   steady_error_t *err)
{
    *out = NULL;
    bool reduce = lp->op == STEADY_OP_REDUCE;
    if ((lp->op != STEADY_OP_BROADCAST && !reduce) || lp->bound || !lp->exact || lp->nhops == 0 ||
        (reduce && lp->nsources < 2))
        return STEADY_OK;
    int nv = steady_platform_node_count(lp->p);
    chain_t c = {0};
    c.hop = malloc((size_t)nv * sizeof *c.hop);
    c.type = malloc((size_t)nv * sizeof *c.type);
    c.node = malloc((size_t)nv * sizeof *c.node);
    c.task = malloc((size_t)nv * sizeof *c.task);
    bool oom = !c.hop || !c.type || !c.node || !c.task;
    steady_err_t rc = STEADY_OK;
    mpq_t tp, best;
    mpq_inits(tp, best, NULL);
    int pick = -1;
    for (int shape = 0; shape < (reduce ? 3 : 1) && !oom; shape++) {
        if (!make_chain(lp, shape, &c))
            continue;
        oom = !chain_tp(lp, &c, tp);
        if (!oom && mpq_sgn(tp) > 0 && (pick < 0 || mpq_cmp(tp, best) > 0)) {
            pick = shape;
            mpq_set(best, tp);
        }
    }
    if (pick >= 0 && !oom && make_chain(lp, pick, &c))
        rc = chain_solution(lp, &c, best, out, &oom, err);
    mpq_clears(tp, best, NULL);
    free(c.hop);
    free(c.type);
    free(c.node);
    free(c.task);
    return oom ? steady_error_set(err, STEADY_ENOMEM, "out of memory") : rc;
}

steady_err_t steady_lp_broadcast_trees(const steady_solution_t *lp, int ntrees,
                                       const int *const *parent, steady_solution_t **out,
                                       steady_error_t *err)
{
    *out = NULL;
    if (lp->op != STEADY_OP_BROADCAST || lp->bound || !lp->exact || lp->nhops == 0 || ntrees < 1)
        return STEADY_OK;
    int nv = steady_platform_node_count(lp->p);
    size_t most = (size_t)ntrees * (size_t)nv;
    chain_t c = {.share = ntrees};
    c.hop = malloc(most * sizeof *c.hop);
    c.type = malloc(most * sizeof *c.type);
    bool oom = !c.hop || !c.type, spans = true;
    for (int t = 0; t < ntrees && !oom && spans; t++)
        for (int v = 0; v < nv && spans; v++) {
            if (v == lp->sources[0] || steady_platform_node(lp->p, v)->kind == STEADY_SWITCH)
                continue;
            spans = parent[t][v] >= 0 && send(lp, &c, parent[t][v], v, 0);
            /* up to the source: no cycle */
            for (int a = parent[t][v], up = 0; spans && a != lp->sources[0]; a = parent[t][a])
                spans = a >= 0 && ++up < nv;
        }
    steady_err_t rc = STEADY_OK;
    if (!oom && spans)
        oom = !priced(lp, &c, out, &rc, err);
    free(c.hop);
    free(c.type);
    return oom ? steady_error_set(err, STEADY_ENOMEM, "out of memory") : rc;
}

steady_err_t steady_lp_reduce_trees(const steady_solution_t *lp, steady_solution_t **out,
                                    int *height, steady_error_t *err)
{
    *out = NULL;
    *height = 0;
    if (lp->op != STEADY_OP_REDUCE || lp->bound || !lp->exact || lp->nhops == 0)
        return STEADY_OK;
    size_t nv = (size_t)steady_platform_node_count(lp->p);
    chain_t c = {0};
    c.hop = malloc(2 * nv * sizeof *c.hop);
    c.type = malloc(2 * nv * sizeof *c.type);
    c.node = malloc((4 * nv + 2) * sizeof *c.node);
    c.task = malloc((4 * nv + 2) * sizeof *c.task);
    bool oom = !c.hop || !c.type || !c.node || !c.task;
    steady_err_t rc = STEADY_OK;
    if (!oom && reduce_pair(lp, &c, height))
        oom = !priced(lp, &c, out, &rc, err);
    free(c.hop);
    free(c.type);
    free(c.node);
    free(c.task);
    return oom ? steady_error_set(err, STEADY_ENOMEM, "out of memory") : rc;
}
