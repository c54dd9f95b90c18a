/*
 * flow.c — maximum flows by Dinic's algorithm: per phase, the levels from
 * the source by a breadth-first search, then augmenting paths along arcs
 * one level up, each node's arcs tried in turn (a dead end is left for the
 * phase), back to the first arc an augmentation saturates; at most n - 1
 * phases whatever the capacities, each O(n m) operations.
 *
 * Three arithmetics share the search: doubles (with a tolerance) to find
 * the broadcast's violated cuts quickly, rationals to prove that none is
 * left (lp/cuts.c), and integers for its arborescences, whose scaled
 * capacities exceed 2^53 (decompose/arborescence.c, which ran its own
 * Edmonds-Karp flow: one search per augmenting path, 56 s to decompose a
 * broadcast over three SimGrid clusters of 100 hosts, 19 s with this).
 * The exact residuals are not copied at the start of a run: an arc keeps
 * its capacity until the run changes it (its stamp), which saves the
 * copies of every capacity the many small flows of the arborescences
 * spent 40% of their time on.
 */
#include "flow.h"

#include <stdlib.h>
#include <string.h>

/* The exact residuals of one arithmetic and the stamps; false when memory
 * runs out. */
static bool exact_residuals(flow_t *f, bool integers)
{
    size_t n = 2 * (size_t)f->m + 1;
    if (!f->stamp && !(f->stamp = calloc(n, sizeof *f->stamp)))
        return false;
    if (integers && !f->resz) {
        if (!(f->resz = malloc(n * sizeof *f->resz)))
            return false;
        for (int a = 0; a < 2 * f->m; a++)
            mpz_init(f->resz[a]);
    }
    if (!integers && !f->resq) {
        if (!(f->resq = malloc(n * sizeof *f->resq)))
            return false;
        for (int a = 0; a < 2 * f->m; a++)
            mpq_init(f->resq[a]);
    }
    return true;
}

flow_t *flow_new(int n, int m, const int *tail, const int *head, bool integers)
{
    flow_t *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->n = n;
    f->m = m;
    mpq_inits(f->augq, f->roomq, NULL);
    mpz_inits(f->augz, f->roomz, NULL);
    f->head = malloc((size_t)(2 * m + 1) * sizeof *f->head);
    f->start = calloc((size_t)n + 1, sizeof *f->start);
    f->adj = malloc((size_t)(2 * m + 1) * sizeof *f->adj);
    f->level = malloc((size_t)(n + 1) * sizeof *f->level);
    f->iter = malloc((size_t)(n + 1) * sizeof *f->iter);
    f->queue = malloc((size_t)(n + 1) * sizeof *f->queue);
    f->path = malloc((size_t)(n + 1) * sizeof *f->path);
    f->resd = malloc((size_t)(2 * m + 1) * sizeof *f->resd);
    if (!f->head || !f->start || !f->adj || !f->level || !f->iter || !f->queue || !f->path ||
        !f->resd || (integers && !exact_residuals(f, true))) {
        flow_free(f);
        return NULL;
    }
    for (int a = 0; a < m; a++) {
        f->head[2 * a] = head[a];
        f->head[2 * a + 1] = tail[a];
        f->start[tail[a] + 1]++;
        f->start[head[a] + 1]++;
    }
    for (int v = 0; v < n; v++)
        f->start[v + 1] += f->start[v];
    int *fill = f->iter;
    for (int v = 0; v < n; v++)
        fill[v] = f->start[v];
    for (int a = 0; a < m; a++) {
        f->adj[fill[tail[a]]++] = 2 * a;
        f->adj[fill[head[a]]++] = 2 * a + 1;
    }
    return f;
}

void flow_free(flow_t *f)
{
    if (!f)
        return;
    for (int a = 0; f->resq && a < 2 * f->m; a++)
        mpq_clear(f->resq[a]);
    for (int a = 0; f->resz && a < 2 * f->m; a++)
        mpz_clear(f->resz[a]);
    mpq_clears(f->augq, f->roomq, NULL);
    mpz_clears(f->augz, f->roomz, NULL);
    free(f->resq);
    free(f->resz);
    free(f->stamp);
    free(f->head);
    free(f->start);
    free(f->adj);
    free(f->level);
    free(f->iter);
    free(f->queue);
    free(f->path);
    free(f->resd);
    free(f);
}

/* ---- the three arithmetics ------------------------------------------------ */

typedef enum { FLOW_D, FLOW_Q, FLOW_Z } arith_t;

typedef struct {
    arith_t kind;
    double tol;               /* doubles: residuals at most tol are 0 */
    double limit_d, *value_d; /* doubles: limit_d <= 0 for none */
    mpq_srcptr limit_q;       /* rationals: NULL for none */
    mpq_ptr value_q;
    mpz_srcptr limit_z; /* integers: NULL for none */
    mpz_ptr value_z;
} run_t;

/* Exact arc a's residual, to change (set from the capacities on first use
 * in the run). */
static mpq_ptr res_q(flow_t *f, int a)
{
    if (f->stamp[a] != f->run) {
        f->stamp[a] = f->run;
        if (a & 1)
            mpq_set_ui(f->resq[a], 0, 1);
        else
            mpq_set(f->resq[a], ((const mpq_t *)f->cap)[a >> 1]);
    }
    return f->resq[a];
}

static mpz_ptr res_z(flow_t *f, int a)
{
    if (f->stamp[a] != f->run) {
        f->stamp[a] = f->run;
        if (a & 1)
            mpz_set_ui(f->resz[a], 0);
        else
            mpz_set(f->resz[a], ((const mpz_t *)f->cap)[a >> 1]);
    }
    return f->resz[a];
}

static bool positive(const flow_t *f, const run_t *r, int a)
{
    switch (r->kind) {
    case FLOW_D: return f->resd[a] > r->tol;
    case FLOW_Q:
        return f->stamp[a] == f->run ? mpq_sgn(f->resq[a]) > 0
                                     : !(a & 1) && mpq_sgn(((const mpq_t *)f->cap)[a >> 1]) > 0;
    default:
        return f->stamp[a] == f->run ? mpz_sgn(f->resz[a]) > 0
                                     : !(a & 1) && mpz_sgn(((const mpz_t *)f->cap)[a >> 1]) > 0;
    }
}

static bool at_limit(const run_t *r)
{
    switch (r->kind) {
    case FLOW_D: return r->limit_d > 0 && *r->value_d >= r->limit_d;
    case FLOW_Q: return r->limit_q && mpq_cmp(r->value_q, r->limit_q) >= 0;
    default: return r->limit_z && mpz_cmp(r->value_z, r->limit_z) >= 0;
    }
}

/* Pushes the bottleneck of path[0 .. depth) (within the limit) along it;
 * returns the index of the first arc it saturates (depth if none). */
static int augment(flow_t *f, const run_t *r, int depth)
{
    int cut = 0;
    if (r->kind == FLOW_D) {
        double b = f->resd[f->path[0]];
        for (int i = 1; i < depth; i++)
            if (f->resd[f->path[i]] < b)
                b = f->resd[f->path[i]];
        if (r->limit_d > 0 && r->limit_d - *r->value_d < b)
            b = r->limit_d - *r->value_d;
        for (int i = 0; i < depth; i++) {
            f->resd[f->path[i]] -= b;
            f->resd[f->path[i] ^ 1] += b;
        }
        *r->value_d += b;
    } else if (r->kind == FLOW_Q) {
        mpq_set(f->augq, res_q(f, f->path[0]));
        for (int i = 1; i < depth; i++)
            if (mpq_cmp(res_q(f, f->path[i]), f->augq) < 0)
                mpq_set(f->augq, f->resq[f->path[i]]);
        if (r->limit_q) {
            mpq_sub(f->roomq, r->limit_q, r->value_q);
            if (mpq_cmp(f->roomq, f->augq) < 0)
                mpq_set(f->augq, f->roomq);
        }
        for (int i = 0; i < depth; i++) {
            mpq_ptr fwd = res_q(f, f->path[i]), back = res_q(f, f->path[i] ^ 1);
            mpq_sub(fwd, fwd, f->augq);
            mpq_add(back, back, f->augq);
        }
        mpq_add(r->value_q, r->value_q, f->augq);
    } else {
        mpz_set(f->augz, res_z(f, f->path[0]));
        for (int i = 1; i < depth; i++)
            if (mpz_cmp(res_z(f, f->path[i]), f->augz) < 0)
                mpz_set(f->augz, f->resz[f->path[i]]);
        if (r->limit_z) {
            mpz_sub(f->roomz, r->limit_z, r->value_z);
            if (mpz_cmp(f->roomz, f->augz) < 0)
                mpz_set(f->augz, f->roomz);
        }
        for (int i = 0; i < depth; i++) {
            mpz_ptr fwd = res_z(f, f->path[i]), back = res_z(f, f->path[i] ^ 1);
            mpz_sub(fwd, fwd, f->augz);
            mpz_add(back, back, f->augz);
        }
        mpz_add(r->value_z, r->value_z, f->augz);
    }
    while (cut < depth && positive(f, r, f->path[cut]))
        cut++;
    return cut;
}

/* ---- Dinic ------------------------------------------------------------------ */

/* Breadth-first levels from s along positive residual arcs, up to t's
 * (the blocking flow only walks arcs to the next level, so nodes beyond
 * it play no part); true when t is reached. */
static bool levels(flow_t *f, const run_t *r, int s, int t)
{
    for (int v = 0; v < f->n; v++)
        f->level[v] = -1;
    int qh = 0, qt = 0;
    f->level[s] = 0;
    f->queue[qt++] = s;
    while (qh < qt) {
        int u = f->queue[qh++];
        if (f->level[t] >= 0 && f->level[u] >= f->level[t])
            break;
        for (int i = f->start[u]; i < f->start[u + 1]; i++) {
            int a = f->adj[i], v = f->head[a];
            if (f->level[v] >= 0 || !positive(f, r, a))
                continue;
            f->level[v] = f->level[u] + 1;
            f->queue[qt++] = v;
        }
    }
    return f->level[t] >= 0;
}

/* Blocking flows along the level graph, until t is cut off or the flow
 * reaches the limit. */
static void dinic(flow_t *f, const run_t *r, int s, int t)
{
    while (!at_limit(r) && levels(f, r, s, t)) {
        for (int v = 0; v < f->n; v++)
            f->iter[v] = f->start[v];
        int depth = 0, u = s;
        for (;;) {
            if (u == t) {
                int cut = augment(f, r, depth);
                if (at_limit(r))
                    return;
                /* go back to the tail of the first saturated arc */
                depth = cut;
                u = depth > 0 ? f->head[f->path[depth - 1]] : s;
                continue;
            }
            bool moved = false;
            for (; f->iter[u] < f->start[u + 1]; f->iter[u]++) {
                int a = f->adj[f->iter[u]], v = f->head[a];
                if (f->level[v] == f->level[u] + 1 && positive(f, r, a)) {
                    f->path[depth++] = a;
                    u = v;
                    moved = true;
                    break;
                }
            }
            if (moved)
                continue;
            /* dead end: retreat */
            f->level[u] = -1;
            if (depth == 0)
                break;
            depth--;
            u = f->head[f->path[depth] ^ 1];
            f->iter[u]++;
        }
    }
}

/* The smallest sink side of a minimum cut, once the flow is maximum: the
 * nodes that still reach t through positive residual arcs (a breadth-first
 * search backwards from t: the residual arc r ^ 1 enters w from head[r]).
 * Small sets near the target make sparse cut rows. */
static void sink_side_of(flow_t *f, const run_t *r, int t, bool *sink_side)
{
    memset(sink_side, 0, (size_t)f->n * sizeof *sink_side);
    int qh = 0, qt = 0;
    sink_side[t] = true;
    f->queue[qt++] = t;
    while (qh < qt) {
        int w = f->queue[qh++];
        for (int i = f->start[w]; i < f->start[w + 1]; i++) {
            int a = f->adj[i], u = f->head[a];
            if (!sink_side[u] && positive(f, r, a ^ 1)) {
                sink_side[u] = true;
                f->queue[qt++] = u;
            }
        }
    }
}

/* A new run of the exact residuals: a new stamp (a run of the other
 * arithmetic may have stamped arcs too). */
static void start_exact(flow_t *f, const void *cap)
{
    if (++f->run == 0) {
        memset(f->stamp, 0, (2 * (size_t)f->m + 1) * sizeof *f->stamp);
        f->run = 1;
    }
    f->cap = cap;
}

double flow_max_d(flow_t *f, const double *cap, int s, int t, double limit, bool *sink_side)
{
    double top = 0, value = 0;
    for (int a = 0; a < f->m; a++) {
        f->resd[2 * a] = cap[a] > 0 ? cap[a] : 0;
        f->resd[2 * a + 1] = 0;
        if (cap[a] > top)
            top = cap[a];
    }
    run_t r = {.kind = FLOW_D, .tol = top * 1e-13, .limit_d = limit, .value_d = &value};
    dinic(f, &r, s, t);
    if (sink_side && !at_limit(&r))
        sink_side_of(f, &r, t, sink_side);
    return value;
}

bool flow_max_q(flow_t *f, const mpq_t *cap, int s, int t, const mpq_t limit, mpq_t value,
                bool *sink_side)
{
    if (!exact_residuals(f, false))
        return false;
    start_exact(f, cap);
    mpq_set_ui(value, 0, 1);
    run_t r = {.kind = FLOW_Q, .limit_q = limit, .value_q = value};
    dinic(f, &r, s, t);
    if (sink_side && !at_limit(&r))
        sink_side_of(f, &r, t, sink_side);
    return true;
}

void flow_max_z(flow_t *f, const mpz_t *cap, int s, int t, mpz_srcptr limit, mpz_t value,
                bool *sink_side)
{
    start_exact(f, cap);
    mpz_set_ui(value, 0);
    run_t r = {.kind = FLOW_Z, .limit_z = limit, .value_z = value};
    dinic(f, &r, s, t);
    if (sink_side && !at_limit(&r))
        sink_side_of(f, &r, t, sink_side);
}
