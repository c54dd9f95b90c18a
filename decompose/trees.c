/*
 * trees.c — a steady-state solution as weighted trees (steady/decompose.h):
 * reduction trees by the paper's EXTRACT_TREES / FIND_TREE (§4.4, Figure 8),
 * scatter and gossip routes by flow decomposition, broadcast arborescences
 * through arborescence.c; then an exact check of whatever was built.
 *
 * Every rate is an exact GMP rational taken from the solution (a rate per
 * time unit, not scaled to a period): a tree of weight w is followed by w
 * operations per time unit.
 *
 * Why directed cycles are cancelled first.  The LPs constrain net flows
 * only, so a circulation — messages of one type going round a directed
 * cycle of edges — satisfies every conservation row and may be part of an
 * optimal vertex when the ports it occupies are otherwise idle.  (The rates
 * are on the solution's hops, the edges of the graph of ranks that
 * steady_hop_graph_build lists; "edge" below is a hop.)  It carries
 * nothing.  FIND_TREE walks a message backwards, from where it is needed to
 * where it comes from; on a cycle it could go round forever (the tree is
 * never closed, so the cycle's rates never drop).  Instead of detecting the
 * loop and backtracking to another edge, which leaves the circulation in
 * place and makes termination hard to argue, we remove every cycle before
 * extracting anything: per message type, find a directed cycle of positive
 * rates, subtract its smallest rate along it (one edge drops to 0, so at
 * most |E| cycles per type), repeat until the type's flow is acyclic.  Net
 * flows do not change, so the reduced rates A' are still a solution of
 * throughput TP (eqs. 5-6 and 10-11), and with acyclic sends:
 *   - FIND_TREE never meets the same (message, node) twice: a chain of
 *     sends of one interval follows an acyclic graph backwards, and a
 *     computation only leads to strictly shorter intervals.  A tree has at
 *     most |V| N(N+1)/2 steps.
 *   - Once the weights add up to TP nothing is left of A': a positive rate
 *     left would start a forward walk (by (10), a (message, node) with
 *     positive inflow has positive outflow) that never repeats a state
 *     (intervals grow at computations, sends are acyclic) and can only stop
 *     at v[0,N-1] on the target, whose inflow is TP - sum of weights = 0.
 * So the trees reproduce A' exactly, and A - A' is made of circulations that
 * no tree uses: waste, which a schedule drops.  The same holds for scatter
 * and gossip routes (a flow from origin to destination).  The final check
 * states exactly this: weights add up to TP, and A - sum(w * chi_T) is
 * non-negative, zero on every task and a circulation on every message type.
 *
 * The flow decomposition is written by hand: igraph's flow functions work
 * in doubles and return no path decomposition, and the trees must add up
 * to the LP's rationals exactly.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- the tree list ------------------------------------------------------- */

/* Grows the array by one (realloc): there are at most as many trees as
 * positive rates in the solution, so the copies stay cheap. */
bool trees_append(steady_trees_t *t, const mpq_t weight, const steady_step_t *steps, int nsteps)
{
    if (nsteps < 0)
        return false;
    steady_step_t *copy = malloc((size_t)(nsteps > 0 ? nsteps : 1) * sizeof *copy);
    if (!copy)
        return false;
    if (nsteps > 0)
        memcpy(copy, steps, (size_t)nsteps * sizeof *copy);
    steady_tree_t *grown = realloc(t->trees, (size_t)(t->ntrees + 1) * sizeof *grown);
    if (!grown) {
        free(copy);
        return false;
    }
    t->trees = grown;
    steady_tree_t *tree = &grown[t->ntrees++];
    mpq_init(tree->weight);
    mpq_set(tree->weight, weight);
    tree->nsteps = nsteps;
    tree->steps = copy;
    return true;
}

void steady_trees_destroy(steady_trees_t *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->ntrees; i++) {
        mpq_clear(t->trees[i].weight);
        free(t->trees[i].steps);
    }
    for (int h = 0; h < t->nhops; h++)
        free(t->hops[h].edges);
    free(t->trees);
    free(t->hops);
    free(t);
}

/* ---- rates ---------------------------------------------------------------- */

/* A copy of the solution's positive rates (or zeros at the same places),
 * sparse: the sends by message type, each type's hops increasing
 * (thop[tstart[t] .. tstart[t + 1])), the tasks by node likewise.  Memory
 * is the solution's support, never hops x types. */
typedef struct {
    const steady_solution_t *s;
    const steady_platform_t *p;
    const steady_hop_graph_t *g;
    int nv, nh, ntypes, ntasks;
    int *tstart, *thop;
    mpq_t *send;
    int *vstart, *vtask;
    mpq_t *cons;
} rates_t;

/* The rate of (hop, type) / (node, task), or NULL when the solution has
 * none there (O(log) in the type's / node's support). */
static mpq_ptr send_rate(const rates_t *r, int hop, int type)
{
    int lo = r->tstart[type], hi = r->tstart[type + 1];
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (r->thop[mid] < hop)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < r->tstart[type + 1] && r->thop[lo] == hop ? r->send[lo] : NULL;
}

static mpq_ptr cons_rate(const rates_t *r, int node, int task)
{
    int lo = r->vstart[node], hi = r->vstart[node + 1];
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (r->vtask[mid] < task)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < r->vstart[node + 1] && r->vtask[lo] == task ? r->cons[lo] : NULL;
}

/* Sign of a rate that may be absent (0). */
static int rate_sgn(mpq_srcptr q)
{
    return q ? mpq_sgn(q) : 0;
}

static mpq_t *new_rationals(size_t n)
{
    mpq_t *a = malloc((n ? n : 1) * sizeof *a);
    if (a)
        for (size_t i = 0; i < n; i++)
            mpq_init(a[i]);
    return a;
}

static void free_rationals(mpq_t *a, size_t n)
{
    if (!a)
        return;
    for (size_t i = 0; i < n; i++)
        mpq_clear(a[i]);
    free(a);
}

static void rates_free(rates_t *r)
{
    if (r->tstart)
        free_rationals(r->send, (size_t)r->tstart[r->ntypes]);
    if (r->vstart)
        free_rationals(r->cons, (size_t)r->vstart[r->nv]);
    free(r->tstart);
    free(r->thop);
    free(r->vstart);
    free(r->vtask);
    r->send = r->cons = NULL;
    r->tstart = r->thop = r->vstart = r->vtask = NULL;
}

/* Sets up r for s's support; with `load`, filled with the solution's
 * rates, otherwise zero.  False when memory runs out (r is then freed). */
static bool rates_init(rates_t *r, const steady_solution_t *s, bool load)
{
    memset(r, 0, sizeof *r);
    r->s = s;
    r->p = steady_solution_platform(s);
    r->g = steady_solution_hops(s);
    r->nv = steady_platform_node_count(r->p);
    r->nh = steady_hop_graph_count(r->g);
    r->ntypes = steady_solution_type_count(s);
    r->ntasks = steady_solution_op(s) == STEADY_OP_REDUCE ? steady_solution_task_count(s) : 0;
    r->tstart = calloc((size_t)r->ntypes + 1, sizeof *r->tstart);
    r->vstart = calloc((size_t)r->nv + 1, sizeof *r->vstart);
    if (!r->tstart || !r->vstart) {
        rates_free(r);
        return false;
    }
    const int *keys;
    const mpq_t *vals;
    for (int h = 0; h < r->nh; h++) { /* the sends, by hop: transposed */
        int n = steady_solution_hop_rates(s, h, &keys, &vals);
        for (int i = 0; i < n; i++)
            r->tstart[keys[i] + 1]++;
    }
    for (int t = 0; t < r->ntypes; t++)
        r->tstart[t + 1] += r->tstart[t];
    for (int v = 0; v < r->nv && r->ntasks > 0; v++)
        r->vstart[v + 1] = r->vstart[v] + steady_solution_node_tasks(s, v, &keys, &vals);
    size_t ns = (size_t)r->tstart[r->ntypes], nc = (size_t)r->vstart[r->nv];
    r->thop = malloc((ns ? ns : 1) * sizeof *r->thop);
    r->vtask = malloc((nc ? nc : 1) * sizeof *r->vtask);
    r->send = new_rationals(ns);
    r->cons = new_rationals(nc);
    int *fill = malloc((size_t)(r->ntypes ? r->ntypes : 1) * sizeof *fill);
    if (!r->thop || !r->vtask || !r->send || !r->cons || !fill) {
        free(fill);
        rates_free(r);
        return false;
    }
    memcpy(fill, r->tstart, (size_t)r->ntypes * sizeof *fill);
    for (int h = 0; h < r->nh; h++) { /* hops increasing within each type */
        int n = steady_solution_hop_rates(s, h, &keys, &vals);
        for (int i = 0; i < n; i++) {
            int at = fill[keys[i]]++;
            r->thop[at] = h;
            if (load)
                mpq_set(r->send[at], vals[i]);
        }
    }
    free(fill);
    for (int v = 0; v < r->nv && r->ntasks > 0; v++) {
        int n = steady_solution_node_tasks(s, v, &keys, &vals);
        for (int i = 0; i < n; i++) {
            r->vtask[r->vstart[v] + i] = keys[i];
            if (load)
                mpq_set(r->cons[r->vstart[v] + i], vals[i]);
        }
    }
    return true;
}

/* Number of positive rates: a bound on the number of trees, since each
 * extracted tree brings at least one rate down to 0 (Theorem 1). */
static long positive_rates(const rates_t *r)
{
    long n = 0;
    for (int i = 0; i < r->tstart[r->ntypes]; i++)
        n += mpq_sgn(r->send[i]) > 0;
    for (int i = 0; i < r->vstart[r->nv]; i++)
        n += mpq_sgn(r->cons[i]) > 0;
    return n;
}

static const char *node_name(const rates_t *r, int v)
{
    return steady_platform_node(r->p, v)->name;
}

/* ---- cycle cancelling ------------------------------------------------------ */

/* Per type, its flow's cycles cancelled: the type's support goes into a
 * scratch array over the hops (zero elsewhere) and back. */
static steady_err_t cancel_all_cycles(rates_t *r, steady_error_t *err)
{
    mpq_t *flow = new_rationals((size_t)r->nh);
    steady_err_t rc = flow ? STEADY_OK : STEADY_ENOMEM;
    for (int t = 0; t < r->ntypes && !rc; t++) {
        int a = r->tstart[t], b = r->tstart[t + 1];
        for (int i = a; i < b; i++)
            mpq_swap(flow[r->thop[i]], r->send[i]);
        if (steady_hop_flow_cancel_cycles_in(r->g, flow, r->thop + a, b - a) < 0)
            rc = STEADY_ENOMEM;
        for (int i = a; i < b; i++) {
            mpq_swap(flow[r->thop[i]], r->send[i]);
            mpq_set_ui(flow[r->thop[i]], 0, 1);
        }
    }
    free_rationals(flow, (size_t)r->nh);
    return rc ? steady_error_set(err, STEADY_ENOMEM, "out of memory") : STEADY_OK;
}

/* The smallest remaining rate over the steps, subtracted from each of them. */
static void take_weight(rates_t *r, const steady_step_t *steps, int nsteps, mpq_t w)
{
    for (int i = 0; i < nsteps; i++) {
        mpq_ptr q = steps[i].kind == STEADY_STEP_SEND ? send_rate(r, steps[i].hop, steps[i].type)
                                                      : cons_rate(r, steps[i].node, steps[i].task);
        if (i == 0 || mpq_cmp(q, w) < 0)
            mpq_set(w, q);
    }
    for (int i = 0; i < nsteps; i++) {
        mpq_ptr q = steps[i].kind == STEADY_STEP_SEND ? send_rate(r, steps[i].hop, steps[i].type)
                                                      : cons_rate(r, steps[i].node, steps[i].task);
        mpq_sub(q, q, w);
    }
}

/* ---- reduce: EXTRACT_TREES ------------------------------------------------ */

/* The reduce's intervals and tasks, indexed as the solution indexes them. */
typedef struct {
    int N, target;
    const int *part; /* r_0 .. r_{N-1} */
    int *type_of;    /* [k * N + m]: the type of v[k,m] */
    int *prod_start; /* tasks producing type t: prod[prod_start[t] .. prod_start[t + 1]) */
    int *prod;
    int *left, *right; /* per task T(k,l,m): the types of v[k,l] and v[l+1,m] */
} reduce_t;

static void reduce_free(reduce_t *x)
{
    free(x->type_of);
    free(x->prod_start);
    free(x->prod);
    free(x->left);
    free(x->right);
}

static bool reduce_init(reduce_t *x, const steady_solution_t *s)
{
    int nt, ntypes = steady_solution_type_count(s), ntasks = steady_solution_task_count(s);
    memset(x, 0, sizeof *x);
    x->part = steady_solution_sources(s, &x->N);
    x->target = steady_solution_targets(s, &nt)[0];
    int N = x->N;
    x->type_of = malloc((size_t)N * N * sizeof *x->type_of);
    x->prod_start = calloc((size_t)ntypes + 1, sizeof *x->prod_start);
    x->prod = malloc((size_t)(ntasks ? ntasks : 1) * sizeof *x->prod);
    x->left = malloc((size_t)(ntasks ? ntasks : 1) * sizeof *x->left);
    x->right = malloc((size_t)(ntasks ? ntasks : 1) * sizeof *x->right);
    if (!x->type_of || !x->prod_start || !x->prod || !x->left || !x->right) {
        reduce_free(x);
        return false;
    }
    for (int t = 0; t < ntypes; t++) {
        int k, m;
        steady_solution_type_ends(s, t, &k, &m);
        x->type_of[k * N + m] = t;
    }
    for (int q = 0; q < ntasks; q++) { /* counting sort of the tasks by product */
        int k, l, m;
        steady_solution_task(s, q, &k, &l, &m);
        x->prod_start[x->type_of[k * N + m] + 1]++;
        x->left[q] = x->type_of[k * N + l];
        x->right[q] = x->type_of[(l + 1) * N + m];
    }
    for (int t = 0; t < ntypes; t++)
        x->prod_start[t + 1] += x->prod_start[t];
    int *fill = calloc((size_t)ntypes, sizeof *fill);
    if (!fill) {
        reduce_free(x);
        return false;
    }
    for (int q = 0; q < ntasks; q++) {
        int k, l, m;
        steady_solution_task(s, q, &k, &l, &m);
        int t = x->type_of[k * N + m];
        x->prod[x->prod_start[t] + fill[t]++] = q;
    }
    free(fill);
    return true;
}

/* Scratch space of FIND_TREE: pending inputs as states (node * ntypes +
 * type), a stamp per state (the tree that last met it), the steps. */
typedef struct {
    int *pending, *stamp;
    steady_step_t *steps;
    int nsteps;
} finder_t;

static steady_err_t no_producer(const rates_t *r, int v, int t, const char *why,
                                steady_error_t *err)
{
    char name[64];
    steady_solution_type_name(r->s, t, name, sizeof name);
    return steady_error_set(err, STEADY_EINTERNAL, "reduction trees: v%s on %s %s (a bug)", name,
                            node_name(r, v), why);
}

/* FIND_TREE (Figure 8) on the remaining rates: from v[0,N-1] on the target,
 * each pending input v[k,m] on node i that is not a participant's own value
 * v[k,k] on r_k is produced either by a task T(k,l,m) on i with a positive
 * rate left (the paper's choice comes first: inputs v[k,l] and v[l+1,m] on
 * i), or by a send j -> i of v[k,m] with a positive rate left (input v[k,m]
 * on j).  Pending inputs are a stack, so the steps come out in discovery
 * order, every step before the steps that produce its inputs.  `tree`
 * stamps the states met; meeting one twice is a bug once the send flows are
 * acyclic (see the top of the file). */
static steady_err_t find_tree(const rates_t *r, const reduce_t *x, finder_t *f, int tree,
                              steady_error_t *err)
{
    int T = r->ntypes, npending = 0;
    f->nsteps = 0;
    f->pending[npending++] = x->target * T + x->type_of[x->N - 1];
    while (npending > 0) {
        int st = f->pending[--npending], v = st / T, t = st % T, k, m;
        if (f->stamp[st] == tree)
            return no_producer(r, v, t, "is needed twice in one tree", err);
        f->stamp[st] = tree;
        steady_solution_type_ends(r->s, t, &k, &m);
        if (k == m && x->part[k] == v)
            continue; /* an initial value */
        bool found = false;
        for (int i = x->prod_start[t]; i < x->prod_start[t + 1] && !found; i++) {
            int q = x->prod[i];
            if (rate_sgn(cons_rate(r, v, q)) > 0) {
                f->steps[f->nsteps++] = (steady_step_t){.kind = STEADY_STEP_COMPUTE,
                                                        .hop = -1,
                                                        .edge = -1,
                                                        .type = -1,
                                                        .node = v,
                                                        .task = q};
                f->pending[npending++] = v * T + x->right[q];
                f->pending[npending++] = v * T + x->left[q];
                found = true;
            }
        }
        int n;
        const int *in = steady_hop_graph_in(r->g, v, &n);
        for (int i = 0; i < n && !found; i++)
            if (rate_sgn(send_rate(r, in[i], t)) > 0) {
                f->steps[f->nsteps++] = (steady_step_t){.kind = STEADY_STEP_SEND,
                                                        .hop = in[i],
                                                        .edge = -1,
                                                        .type = t,
                                                        .node = -1,
                                                        .task = -1};
                f->pending[npending++] = steady_hop_graph_hop(r->g, in[i])->src * T + t;
                found = true;
            }
        if (!found)
            return no_producer(r, v, t, "is needed but nothing is left to produce it", err);
    }
    return STEADY_OK;
}

/* EXTRACT_TREES (Figure 8) on the solution with its cycles cancelled. */
static steady_err_t reduce_trees(const steady_solution_t *s, steady_trees_t *out, hop_table_t *hops,
                                 steady_error_t *err)
{
    rates_t r;
    reduce_t x;
    finder_t f = {0};
    mpq_t left, w;
    mpq_inits(left, w, NULL);
    bool have_x = false, have_r = rates_init(&r, s, true);
    steady_err_t rc = STEADY_ENOMEM;
    if (!have_r || !(have_x = reduce_init(&x, s)))
        goto cleanup;
    size_t nstates = (size_t)r.nv * r.ntypes;
    f.pending = malloc((2 * nstates + 1) * sizeof *f.pending);
    f.stamp = calloc(nstates, sizeof *f.stamp);
    f.steps = malloc(nstates * sizeof *f.steps);
    if (!f.pending || !f.stamp || !f.steps)
        goto cleanup;
    if ((rc = cancel_all_cycles(&r, err)))
        goto cleanup;
    long bound = positive_rates(&r);
    steady_solution_throughput(s, left);
    while (mpq_sgn(left) > 0) {
        if (out->ntrees >= bound) {
            rc = steady_error_set(err, STEADY_EINTERNAL,
                                  "reduction trees: more trees than positive rates (a bug)");
            goto cleanup;
        }
        if ((rc = find_tree(&r, &x, &f, out->ntrees + 1, err)))
            goto cleanup;
        take_weight(&r, f.steps, f.nsteps, w);
        for (int i = 0, j = f.nsteps - 1; i < j; i++, j--) { /* dependency order */
            steady_step_t tmp = f.steps[i];
            f.steps[i] = f.steps[j];
            f.steps[j] = tmp;
        }
        if (!steps_to_table(hops, f.steps, f.nsteps) || !trees_append(out, w, f.steps, f.nsteps)) {
            rc = STEADY_ENOMEM;
            goto cleanup;
        }
        mpq_sub(left, left, w);
    }
    rc = STEADY_OK;
cleanup:
    if (rc == STEADY_ENOMEM)
        steady_error_set(err, STEADY_ENOMEM, "out of memory");
    mpq_clears(left, w, NULL);
    free(f.pending);
    free(f.stamp);
    free(f.steps);
    if (have_x)
        reduce_free(&x);
    if (have_r)
        rates_free(&r);
    return rc;
}

/* ---- scatter and gossip: routes ------------------------------------------- */

/* Where messages of type t start: the scatter's source, or the gossip pair's
 * sender. */
static int origin_of(const steady_solution_t *s, int t, int *dest)
{
    int a, n;
    steady_solution_type_ends(s, t, &a, dest);
    return a >= 0 ? a : steady_solution_sources(s, &n)[0];
}

/* Per message type, a flow decomposition of send(., t) (acyclic once its
 * cycles are cancelled) into paths from the origin to the destination:
 * follow, from the origin, the first hop out with a positive rate left;
 * weight the path by its smallest rate and subtract, until the paths of
 * that type carry TP.  Each path zeroes a hop, so at most |H| per type. */
static steady_err_t route_trees(const steady_solution_t *s, steady_trees_t *out, hop_table_t *hops,
                                steady_error_t *err)
{
    rates_t r;
    mpq_t left, w, tp;
    mpq_inits(left, w, tp, NULL);
    steady_step_t *steps = NULL;
    bool have_r = rates_init(&r, s, true);
    steady_err_t rc = STEADY_ENOMEM;
    if (!have_r || !(steps = malloc((size_t)r.nv * sizeof *steps)))
        goto cleanup;
    if ((rc = cancel_all_cycles(&r, err)))
        goto cleanup;
    steady_solution_throughput(s, tp);
    char name[2 * STEADY_NAME_MAX + 2];
    for (int t = 0; t < r.ntypes; t++) {
        int d, o = origin_of(s, t, &d), paths = 0;
        steady_solution_type_name(s, t, name, sizeof name);
        mpq_set(left, tp);
        while (mpq_sgn(left) > 0) {
            int n = 0, u = o, e = 0;
            while (u != d && n < r.nv && e >= 0) {
                int deg;
                const int *hs = steady_hop_graph_out(r.g, u, &deg);
                e = -1;
                for (int i = 0; i < deg && e < 0; i++)
                    if (rate_sgn(send_rate(&r, hs[i], t)) > 0)
                        e = hs[i];
                if (e >= 0) {
                    steps[n++] = (steady_step_t){.kind = STEADY_STEP_SEND,
                                                 .hop = e,
                                                 .edge = -1,
                                                 .type = t,
                                                 .node = -1,
                                                 .task = -1};
                    u = steady_hop_graph_hop(r.g, e)->dst;
                }
            }
            if (u != d) {
                rc = steady_error_set(err, STEADY_EINTERNAL,
                                      e < 0 ? "routes of %s: no flow left out of %s before TP is "
                                              "reached (a bug)"
                                            : "routes of %s: a route goes round a cycle through "
                                              "%s (a bug)",
                                      name, node_name(&r, u));
                goto cleanup;
            }
            if (++paths > r.nh) {
                rc = steady_error_set(err, STEADY_EINTERNAL,
                                      "routes of %s: more paths than hops (a bug)", name);
                goto cleanup;
            }
            take_weight(&r, steps, n, w);
            if (!steps_to_table(hops, steps, n) || !trees_append(out, w, steps, n)) {
                rc = STEADY_ENOMEM;
                goto cleanup;
            }
            mpq_sub(left, left, w);
        }
    }
    rc = STEADY_OK;
cleanup:
    if (rc == STEADY_ENOMEM)
        steady_error_set(err, STEADY_ENOMEM, "out of memory");
    mpq_clears(left, w, tp, NULL);
    free(steps);
    if (have_r)
        rates_free(&r);
    return rc;
}

/* ---- the final check ------------------------------------------------------- */

static steady_err_t check_failed(steady_error_t *err, const char *what, int tree, int step)
{
    if (step >= 0)
        return steady_error_set(err, STEADY_EINTERNAL,
                                "decomposition check: tree %d, step %d: %s (a bug)", tree, step,
                                what);
    if (tree >= 0)
        return steady_error_set(err, STEADY_EINTERNAL, "decomposition check: tree %d: %s (a bug)",
                                tree, what);
    return steady_error_set(err, STEADY_EINTERNAL, "decomposition check: %s (a bug)", what);
}

/* The hop of the solution's graph that a SEND step takes, or -1: the
 * trees' hop it names must be, edge for edge, one of the graph's, and the
 * step's edge its first. */
static int step_hop(const rates_t *all, const steady_trees_t *trees, const steady_step_t *st)
{
    if (st->kind != STEADY_STEP_SEND || st->hop < 0 || st->hop >= trees->nhops)
        return -1;
    const steady_hop_t *h = &trees->hops[st->hop];
    if (h->nedges < 1 || h->edges[0] != st->edge)
        return -1;
    int k = steady_hop_graph_find(all->g, st->edge, h->dst);
    const steady_hop_t *g = k >= 0 ? steady_hop_graph_hop(all->g, k) : NULL;
    if (!g || g->src != h->src || g->nedges != h->nedges ||
        memcmp(g->edges, h->edges, (size_t)h->nedges * sizeof *h->edges) != 0)
        return -1;
    return k;
}

/* Adds weight w of message type t on hop h to `used`; false when the
 * solution has no rate there (a tree may not use it). */
static bool use_hop(rates_t *used, int h, int t, const mpq_t w)
{
    mpq_ptr q = send_rate(used, h, t);
    if (q)
        mpq_add(q, q, w);
    return q != NULL;
}

/* Compares the weighted steps `used` with the rates `all` of the solution
 * (both on the solution's support): used <= all everywhere, used = all on
 * every task, and all - used a circulation (net flow 0 at every node) on
 * every message type.  Destroys `used` (it receives the difference). */
static steady_err_t check_usage(const rates_t *all, rates_t *used, steady_error_t *err)
{
    char name[2 * STEADY_NAME_MAX + 2];
    mpq_t *net = new_rationals((size_t)all->nv);
    if (!net)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    steady_err_t rc = STEADY_OK;
    for (int v = 0; v < all->nv && !rc; v++)
        for (int i = all->vstart[v]; i < all->vstart[v + 1] && !rc; i++)
            if (!mpq_equal(all->cons[i], used->cons[i])) {
                int k, l, m;
                steady_solution_task(all->s, all->vtask[i], &k, &l, &m);
                rc = steady_error_set(err, STEADY_EINTERNAL,
                                      "decomposition check: the trees do not run T(%d,%d,%d) on "
                                      "%s at its rate (a bug)",
                                      k, l, m, node_name(all, v));
            }
    for (int t = 0; t < all->ntypes && !rc; t++) {
        steady_solution_type_name(all->s, t, name, sizeof name);
        for (int i = all->tstart[t]; i < all->tstart[t + 1] && !rc; i++) {
            const steady_hop_t *h = steady_hop_graph_hop(all->g, all->thop[i]);
            mpq_ptr u = used->send[i];
            mpq_sub(u, all->send[i], u); /* what no tree uses */
            if (mpq_sgn(u) < 0)
                rc = steady_error_set(
                    err, STEADY_EINTERNAL,
                    "decomposition check: the trees send %s on %s -> %s faster than the "
                    "solution (a bug)",
                    name, node_name(all, h->src), node_name(all, h->dst));
            mpq_add(net[h->dst], net[h->dst], u);
            mpq_sub(net[h->src], net[h->src], u);
        }
        for (int i = all->tstart[t]; i < all->tstart[t + 1]; i++) {
            const steady_hop_t *h = steady_hop_graph_hop(all->g, all->thop[i]);
            for (int k = 0; k < 2; k++) {
                int v = k ? h->src : h->dst;
                if (mpq_sgn(net[v]) != 0 && !rc)
                    rc = steady_error_set(err, STEADY_EINTERNAL,
                                          "decomposition check: the rates of %s that no tree "
                                          "uses are not a circulation at %s (a bug)",
                                          name, node_name(all, v));
                mpq_set_ui(net[v], 0, 1);
            }
        }
    }
    free_rationals(net, (size_t)all->nv);
    return rc;
}

/* Each tree a reduction tree: from the participants' values v[k,k] on r_k,
 * every SEND moves a value its source holds, every COMPUTE merges v[k,l]
 * and v[l+1,m] held by its node, and exactly v[0,N-1] on the target is
 * left; weights positive, adding up to TP. */
static steady_err_t check_reduce(const steady_solution_t *s, const steady_trees_t *trees,
                                 const rates_t *all, rates_t *used, steady_error_t *err)
{
    reduce_t x;
    if (!reduce_init(&x, s))
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    int T = all->ntypes;
    size_t nstates = (size_t)all->nv * T;
    int *held = malloc(nstates * sizeof *held);
    mpq_t sum;
    mpq_init(sum);
    steady_err_t rc = held ? STEADY_OK : steady_error_set(err, STEADY_ENOMEM, "out of memory");
    for (int i = 0; i < trees->ntrees && !rc; i++) {
        const steady_tree_t *tr = &trees->trees[i];
        if (mpq_sgn(tr->weight) <= 0) {
            rc = check_failed(err, "weight not positive", i, -1);
            break;
        }
        memset(held, 0, nstates * sizeof *held);
        for (int k = 0; k < x.N; k++)
            held[x.part[k] * T + x.type_of[k * x.N + k]] = 1;
        for (int j = 0; j < tr->nsteps && !rc; j++) {
            const steady_step_t *st = &tr->steps[j];
            if (st->kind == STEADY_STEP_SEND) {
                int k = step_hop(all, trees, st);
                if (k < 0 || st->type < 0 || st->type >= T) {
                    rc = check_failed(err, "not a hop, or type out of range", i, j);
                    break;
                }
                const steady_hop_t *h = steady_hop_graph_hop(all->g, k);
                if (held[h->src * T + st->type]-- <= 0)
                    rc = check_failed(err, "sends a value its source does not hold", i, j);
                held[h->dst * T + st->type]++;
                if (!rc && !use_hop(used, k, st->type, tr->weight))
                    rc = check_failed(err, "sends where the solution sends nothing", i, j);
            } else if (st->kind == STEADY_STEP_COMPUTE) {
                if (st->node < 0 || st->node >= all->nv || st->task < 0 ||
                    st->task >= all->ntasks) {
                    rc = check_failed(err, "node or task out of range", i, j);
                    break;
                }
                int k, l, m, base = st->node * T;
                steady_solution_task(s, st->task, &k, &l, &m);
                if (held[base + x.left[st->task]]-- <= 0 || held[base + x.right[st->task]]-- <= 0)
                    rc = check_failed(err, "computes without both operands", i, j);
                held[base + x.type_of[k * x.N + m]]++;
                mpq_ptr q = cons_rate(used, st->node, st->task);
                if (q)
                    mpq_add(q, q, tr->weight);
                else if (!rc)
                    rc = check_failed(err, "computes where the solution computes nothing", i, j);
            } else {
                rc = check_failed(err, "unknown step kind", i, j);
            }
        }
        size_t result = (size_t)x.target * T + x.type_of[x.N - 1];
        for (size_t st = 0; st < nstates && !rc; st++)
            if (held[st] != (st == result))
                rc = check_failed(err, "does not end with v[0,N-1] on the target alone", i, -1);
        mpq_add(sum, sum, tr->weight);
    }
    if (!rc) {
        mpq_t tp;
        mpq_init(tp);
        steady_solution_throughput(s, tp);
        if (!mpq_equal(sum, tp))
            rc = check_failed(err, "the weights do not add up to TP", -1, -1);
        mpq_clear(tp);
    }
    if (!rc)
        rc = check_usage(all, used, err);
    mpq_clear(sum);
    free(held);
    reduce_free(&x);
    return rc;
}

/* Each tree a path of one type from its origin to its destination; per
 * type, positive weights adding up to TP. */
static steady_err_t check_routes(const steady_solution_t *s, const steady_trees_t *trees,
                                 const rates_t *all, rates_t *used, steady_error_t *err)
{
    mpq_t *sum = new_rationals((size_t)all->ntypes);
    if (!sum)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    steady_err_t rc = STEADY_OK;
    for (int i = 0; i < trees->ntrees && !rc; i++) {
        const steady_tree_t *tr = &trees->trees[i];
        if (mpq_sgn(tr->weight) <= 0 || tr->nsteps < 1) {
            rc = check_failed(err, "empty or weight not positive", i, -1);
            break;
        }
        int t = tr->steps[0].type, d, u;
        if (t < 0 || t >= all->ntypes) {
            rc = check_failed(err, "type out of range", i, 0);
            break;
        }
        u = origin_of(s, t, &d);
        for (int j = 0; j < tr->nsteps && !rc; j++) {
            const steady_step_t *st = &tr->steps[j];
            int k = step_hop(all, trees, st);
            if (k < 0 || st->type != t || steady_hop_graph_hop(all->g, k)->src != u) {
                rc = check_failed(err, "not a send of the route's message from where it is", i, j);
                break;
            }
            u = steady_hop_graph_hop(all->g, k)->dst;
            if (!use_hop(used, k, t, tr->weight))
                rc = check_failed(err, "sends where the solution sends nothing", i, j);
        }
        if (!rc && u != d)
            rc = check_failed(err, "does not end at the message's destination", i, -1);
        if (!rc)
            mpq_add(sum[t], sum[t], tr->weight);
    }
    if (!rc) {
        mpq_t tp;
        mpq_init(tp);
        steady_solution_throughput(s, tp);
        for (int t = 0; t < all->ntypes && !rc; t++)
            if (!mpq_equal(sum[t], tp))
                rc = check_failed(err, "the weights of a message type do not add up to TP", -1, -1);
        mpq_clear(tp);
    }
    if (!rc)
        rc = check_usage(all, used, err);
    free_rationals(sum, (size_t)all->ntypes);
    return rc;
}

/* Each tree an arborescence rooted at the source, in an order where every
 * hop leaves a node already reached and enters a new one, reaching every
 * target; weights positive, adding up to TP (at most TP for a multicast);
 * the weighted sends within n(h) on every hop. */
static steady_err_t check_broadcast(const steady_solution_t *s, const steady_trees_t *trees,
                                    const rates_t *all, rates_t *used, steady_error_t *err)
{
    int ns, nt;
    int src = steady_solution_sources(s, &ns)[0];
    const int *targets = steady_solution_targets(s, &nt);
    bool *reached = malloc((size_t)all->nv * sizeof *reached);
    mpq_t sum, tp;
    mpq_inits(sum, tp, NULL);
    steady_err_t rc = reached ? STEADY_OK : steady_error_set(err, STEADY_ENOMEM, "out of memory");
    for (int i = 0; i < trees->ntrees && !rc; i++) {
        const steady_tree_t *tr = &trees->trees[i];
        if (mpq_sgn(tr->weight) <= 0) {
            rc = check_failed(err, "weight not positive", i, -1);
            break;
        }
        memset(reached, 0, (size_t)all->nv * sizeof *reached);
        reached[src] = true;
        for (int j = 0; j < tr->nsteps && !rc; j++) {
            const steady_step_t *st = &tr->steps[j];
            int k = st->type == 0 ? step_hop(all, trees, st) : -1;
            const steady_hop_t *h = k >= 0 ? steady_hop_graph_hop(all->g, k) : NULL;
            if (!h || !reached[h->src] || reached[h->dst]) {
                rc = check_failed(err, "not a hop from a reached node to a new one", i, j);
                break;
            }
            reached[h->dst] = true;
            if (!use_hop(used, k, 0, tr->weight))
                rc = check_failed(err, "uses a hop where n(h) = 0", i, j);
        }
        for (int k = 0; k < nt && !rc; k++)
            if (!reached[targets[k]])
                rc = check_failed(err, "does not reach every target", i, -1);
        mpq_add(sum, sum, tr->weight);
    }
    steady_solution_throughput(s, tp);
    int cmp = mpq_cmp(sum, tp);
    if (!rc && (cmp > 0 || (cmp < 0 && !steady_solution_is_bound(s))))
        rc = check_failed(err, "the weights do not add up to TP", -1, -1);
    for (int i = 0; i < all->tstart[all->ntypes] && !rc; i++)
        if (mpq_cmp(used->send[i], all->send[i]) > 0)
            rc = check_failed(err, "the trees use a hop more than n(h)", -1, -1);
    mpq_clears(sum, tp, NULL);
    free(reached);
    return rc;
}

/* The exact check promised by steady/decompose.h, independent of how the
 * trees were found. */
static steady_err_t check_trees(const steady_solution_t *s, const steady_trees_t *trees,
                                steady_error_t *err)
{
    rates_t all, used;
    if (!rates_init(&all, s, true))
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    if (!rates_init(&used, s, false)) {
        rates_free(&all);
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    }
    steady_err_t rc;
    switch (steady_solution_op(s)) {
    case STEADY_OP_REDUCE: rc = check_reduce(s, trees, &all, &used, err); break;
    case STEADY_OP_BROADCAST: rc = check_broadcast(s, trees, &all, &used, err); break;
    default: rc = check_routes(s, trees, &all, &used, err); break;
    }
    rates_free(&all);
    rates_free(&used);
    return rc;
}

/* ---- entry point ------------------------------------------------------------ */

steady_err_t steady_trees_decompose(const steady_solution_t *s, steady_trees_t **out,
                                    steady_error_t *err)
{
    *out = NULL;
    if (!steady_solution_is_exact(s))
        return steady_error_set(err, STEADY_EUNSUPPORTED,
                                "cannot decompose an approximate solution (%s): the trees must "
                                "add up to the rates exactly",
                                steady_solution_note(s));
    steady_trees_t *t = calloc(1, sizeof *t);
    if (!t)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    steady_err_t rc;
    hop_table_t hops;
    if (!hop_table_init(&hops, t, steady_solution_hops(s))) {
        free(t);
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    }
    switch (steady_solution_op(s)) {
    case STEADY_OP_REDUCE: rc = reduce_trees(s, t, &hops, err); break;
    case STEADY_OP_BROADCAST: rc = broadcast_trees(s, t, &hops, err); break;
    case STEADY_OP_SCATTER:
    case STEADY_OP_GOSSIP: rc = route_trees(s, t, &hops, err); break;
    default: rc = steady_error_set(err, STEADY_EINVAL, "unknown operation"); break;
    }
    hop_table_free(&hops);
    if (!rc)
        rc = check_trees(s, t, err);
    if (rc) {
        steady_trees_destroy(t);
        return rc;
    }
    *out = t;
    return STEADY_OK;
}

steady_err_t steady_trees_scale(const steady_solution_t *s, const steady_trees_t *t, long m,
                                steady_trees_t **out, steady_error_t *err)
{
    *out = NULL;
    steady_trees_t *c = calloc(1, sizeof *c);
    bool ok = c && (c->hops = malloc((size_t)(t->nhops ? t->nhops : 1) * sizeof *c->hops));
    for (int h = 0; ok && h < t->nhops; h++)
        if ((ok = steady_hop_copy(&c->hops[h], &t->hops[h])))
            c->nhops++;
    mpq_t w, mq;
    mpq_inits(w, mq, NULL);
    mpq_set_si(mq, m, 1);
    for (int i = 0; ok && i < t->ntrees; i++) {
        mpq_mul(w, t->trees[i].weight, mq);
        ok = trees_append(c, w, t->trees[i].steps, t->trees[i].nsteps);
    }
    mpq_clears(w, mq, NULL);
    steady_err_t rc =
        ok ? check_trees(s, c, err) : steady_error_set(err, STEADY_ENOMEM, "out of memory");
    if (rc) {
        steady_trees_destroy(c);
        return rc;
    }
    *out = c;
    return STEADY_OK;
}
