/*
 * arborescence.c — a broadcast solution as weighted arborescences (the
 * broadcast case of steady_trees_decompose, docs/linear-programs.md, SSB).
 *
 * The SSB LP gives a rate n(e) per edge such that every target receives a
 * flow of value TP from the source s under the capacities n.  When every
 * other node is a target, Edmonds' branching theorem in its weighted form
 * says more: if every nonempty X ⊆ V - s has in-capacity n(δin X) >= k,
 * then n contains a packing of spanning s-arborescences of total weight k.
 * By max-flow/min-cut the flows give exactly that with k = TP, so TP is
 * reached by whole messages relayed along trees, which is what a schedule
 * needs.  We construct the packing with Lovász's proof of the theorem.
 *
 * Integers.  Lovász's argument is about multigraphs: we scale the n(e) and
 * TP by a common denominator L so that the capacities c(e) and the target
 * k are integers (true value = scaled value / L).  L grows during the run
 * when a tree gets a fractional weight (see below); weights are recorded as
 * exact rationals W / L.
 *
 * One tree (Lovász, 1976).  Grow an arborescence T from {s}; keep the
 * invariant
 *     (I)  every nonempty X ⊆ V - s has in-capacity >= k - 1 in c - χ(T).
 * Sets X disjoint from V(T) keep in-capacity >= k because T's arcs all end
 * in V(T).  Lovász's lemma: while V(T) != V some arc uv with u in T, v not
 * in T and c(uv) >= 1 keeps (I) when added.  Only the sets containing v
 * and not u lose capacity when uv is added, so (I) after adding uv is
 * exactly "max flow from s to v in c - χ(T) - χ(uv) >= k - 1": one max
 * flow per candidate arc.  When T spans V, c - χ(T) has root connectivity
 * >= k - 1, so T can carry weight 1 (in scaled units).
 *
 * Its weight.  Taking weight 1 each time would give k trees, exponential
 * in the input size.  Instead T gets the largest w such that
 *     c - w χ(T) >= 0  and  c - w χ(T) has root connectivity >= k - w,
 * which keeps the theorem's hypothesis for the rest (k - w); w >= 1 by the
 * above.  For a set X entered m_X times by T the condition is the line
 * l_X(w) = c(δin X) - k - w (m_X - 1) >= 0, and f(w) = min_X l_X(w) is
 * concave and piecewise linear.  We find its root by Newton's method from
 * w0 = min(k, min over T of c(e)): at a w with f(w) < 0, the weakest node
 * (smallest max flow in c - w χ(T)) gives by its minimum cut the set X
 * attaining the minimum; the next w is the root of l_X, (c(δin X) - k) /
 * (m_X - 1).  Each step lowers m_X strictly (the new minimum line is below
 * l_X at the new w but was above it at the old, larger w, so it is less
 * steep), hence at most n - 2 steps of n - 1 max flows each.  The root is a
 * rational with a denominator below n; we rescale everything by it.
 *
 * Number of trees.  Call a set X tight when c(δin X) = k.  A tight set
 * stays tight (a feasible tree enters it exactly once, so both sides drop
 * by w), and an edge with c(e) = 0 stays at 0.  Every tree T found enters
 * the tight sets exactly once (it carries weight 1) and avoids the zero
 * edges, i.e. (χ(T), 1) is orthogonal to the vectors (χ(δin X), -1) of the
 * tight sets and (e_e, 0) of the zero edges.  Unless w = k, the maximal w
 * makes a new set tight that T enters at least twice, or zeroes an edge of
 * T: a new vector NOT orthogonal to (χ(T), 1), hence outside the span of
 * the earlier ones.  All these vectors are orthogonal to (c, k) != 0, so
 * their span has dimension <= |E|, and the edges with n(e) = 0 are in it
 * from the start: at most |E+| + 1 trees, E+ = {e : n(e) > 0}.
 *
 * Cost: per tree, at most (n - 1) growth steps of up to |E| max flows (in
 * practice the first candidate arc nearly always passes) and (n - 1)^2
 * max flows for the weight; Dinic's algorithm (common/flow.c) costs
 * O(n^2 |E|) big-integer operations per max flow, and far less when it
 * stops at the flow it needs.  Polynomial; 19 s on 300 hosts in three
 * SimGrid clusters (docs/performance.md).
 *
 * A subset of targets (a multicast, steady_solution_is_bound()).  Packing
 * Steiner arborescences is NP-hard and TP is only an upper bound, so we
 * pack greedily with the same machinery, connectivity being measured to
 * the targets only: k = min(TP left, smallest max flow to a target); an
 * arc is accepted if every target keeps max flow >= k - 1 (or, when no arc
 * does, the arc losing the least); the tree grows until it reaches every
 * target and is then pruned of its non-target leaves; its weight is the
 * Newton root above, or the bottleneck min(k, min c(e)) when that root is
 * 0.  Every tree reaches every target and the weighted edge use stays
 * within n(e); the total may stay below TP, and the caller reports the
 * achieved throughput against the LP bound.  Between two bottleneck
 * steps (each zeroes an edge for good) the rank argument above applies,
 * so there are at most (|E+| + 1)^2 trees.
 *
 * Block by block.  All of the above runs in each block (biconnected
 * component, common/blocks.c) of the arcs with n > 0 on its own: a path
 * from the root crosses a chain of blocks, entering each at its node
 * nearest the root, so a block is packed from that entry to its exits
 * (its targets, and the entries of the blocks further on that lead to
 * targets), as a spanning packing when every other node of it is an exit
 * (always so when every rank is a target) and greedily otherwise.  The
 * blocks share only their entries, so taking one tree of each block gives
 * an arborescence of the whole graph: the blocks' weights are laid end to
 * end from 0 and every run of [0, W) with the same tree in every block
 * becomes one tree, W being the smallest block total (TP when every block
 * spans).  That is at most sum over blocks of (|E+_b| + 1) - (blocks - 1)
 * = |E+| + 1 trees again.  A block of two nodes is one tree of one arc
 * (or a few, over parallel hops), so on a tiers platform, a tree with a
 * few cycles, the max flows only run in the few blocks with cycles
 * (tiers-1000: 0.03 s against 167 s over the whole graph).
 *
 * The max flow is common/flow.c's in integers rather than igraph's
 * because igraph's flows are doubles, and the scaled capacities exceed
 * 2^53 on ordinary platforms.
 */
#include "internal.h"

#include "../common/array.h"
#include "../common/blocks.h"
#include "../common/flow.h"

#include <stdlib.h>
#include <string.h>

/* The maximum flow value from s to t in the graph of the m edges tail[e]
 * -> head[e] with capacities cap[e] >= 0, nodes 0..n-1, s != t.  False when
 * memory runs out.  Exposed for the unit tests. */
bool exact_maxflow(int n, int m, const int *tail, const int *head, const mpz_t *cap, int s, int t,
                   mpz_t value)
{
    flow_t *f = flow_new(n, m, tail, head, true);
    if (!f)
        return false;
    flow_max_z(f, cap, s, t, NULL, value, NULL);
    flow_free(f);
    return true;
}

/* ---- the packing ------------------------------------------------------- */

typedef struct {
    const arcs_t *g;          /* a block's arcs, their hop the arc of the whole graph */
    int *out_start, *out_arc; /* arcs leaving rank u: out_arc[out_start[u] .. out_start[u + 1]) */
    int *in_start, *in_arc;   /* arcs entering rank v, likewise */
    int n, m, root;
    bool spanning; /* every other node is a target */
    int ntargets;
    int *targets; /* target nodes (spanning: every node but the root) */
    bool *is_target;
    int *tail, *head;
    mpz_t *cap;    /* remaining capacities, scaled by `scale` */
    mpz_t *rest;   /* cap - χ(T) while T grows */
    mpz_t *tmp;    /* capacities of a weight test */
    int ncap;      /* how many of cap / rest / tmp are initialised */
    mpz_t k;       /* weight still to pack (scaled) */
    mpz_t tp_left; /* TP minus the weights packed so far (scaled) */
    mpz_t scale;   /* true value = scaled value / scale */
    mpz_t val, low, need;
    mpq_t w;      /* the weight of the current tree, in scaled units */
    bool *t_node; /* nodes of T */
    bool *t_edge; /* edges of T */
    int *order;   /* nodes of T in the order they joined */
    int nin;
    bool *cut, *scratch; /* sink sides of minimum cuts */
    flow_t *net;
} packer_t;

static void packer_free(packer_t *pk)
{
    for (int e = 0; e < pk->ncap; e++)
        mpz_clears(pk->cap[e], pk->rest[e], pk->tmp[e], NULL);
    mpz_clears(pk->k, pk->tp_left, pk->scale, pk->val, pk->low, pk->need, NULL);
    mpq_clear(pk->w);
    flow_free(pk->net);
    free(pk->targets);
    free(pk->is_target);
    free(pk->out_start);
    free(pk->out_arc);
    free(pk->in_start);
    free(pk->in_arc);
    free(pk->cap);
    free(pk->rest);
    free(pk->tmp);
    free(pk->t_node);
    free(pk->t_edge);
    free(pk->order);
    free(pk->cut);
    free(pk->scratch);
}

/* Arcs a of g by their tail (or head, `by_head`) as a CSR index. */
static bool arc_index(const arcs_t *g, bool by_head, int **start, int **arc)
{
    *start = calloc((size_t)g->n + 2, sizeof **start);
    *arc = malloc((size_t)(g->m + 1) * sizeof **arc);
    if (!*start || !*arc)
        return false;
    for (int a = 0; a < g->m; a++)
        (*start)[(by_head ? g->head[a] : g->tail[a]) + 2]++;
    for (int u = 0; u < g->n; u++)
        (*start)[u + 2] += (*start)[u + 1];
    for (int a = 0; a < g->m; a++) /* in arc order within each node */
        (*arc)[(*start)[(by_head ? g->head[a] : g->tail[a]) + 1]++] = a;
    return true;
}

/* Sets up pk on the arcs of g with root and targets (nodes of g), the
 * scaled capacities cap(a) L and k = tp L.  False when memory runs out. */
static bool packer_init(packer_t *pk, const arcs_t *g, int root, const int *targets, int ntargets,
                        const mpq_t tp)
{
    int n = g->n, m = g->m;
    memset(pk, 0, sizeof *pk);
    mpz_inits(pk->k, pk->tp_left, pk->scale, pk->val, pk->low, pk->need, NULL);
    mpq_init(pk->w);
    pk->g = g;
    pk->n = n;
    pk->m = m;
    pk->root = root;
    pk->spanning = ntargets == n - 1;
    size_t nn = (size_t)n + 1, mm = (size_t)m + 1;
    pk->targets = malloc(nn * sizeof *pk->targets);
    pk->is_target = calloc(nn, sizeof *pk->is_target);
    pk->cap = malloc(mm * sizeof *pk->cap);
    pk->rest = malloc(mm * sizeof *pk->rest);
    pk->tmp = malloc(mm * sizeof *pk->tmp);
    pk->t_node = calloc(nn, sizeof *pk->t_node);
    pk->t_edge = calloc(mm, sizeof *pk->t_edge);
    pk->order = malloc(nn * sizeof *pk->order);
    pk->cut = calloc(nn, sizeof *pk->cut);
    pk->scratch = calloc(nn, sizeof *pk->scratch);
    if (!pk->targets || !pk->is_target || !pk->cap || !pk->rest || !pk->tmp || !pk->t_node ||
        !pk->t_edge || !pk->order || !pk->cut || !pk->scratch ||
        !arc_index(g, false, &pk->out_start, &pk->out_arc) ||
        !arc_index(g, true, &pk->in_start, &pk->in_arc))
        return false;
    for (; pk->ncap < m; pk->ncap++)
        mpz_inits(pk->cap[pk->ncap], pk->rest[pk->ncap], pk->tmp[pk->ncap], NULL);
    for (int i = 0; i < ntargets; i++) {
        pk->targets[pk->ntargets++] = targets[i];
        pk->is_target[targets[i]] = true;
    }
    /* L = lcm of the denominators of TP and of every capacity */
    mpz_set(pk->scale, mpq_denref(tp));
    for (int a = 0; a < m; a++)
        mpz_lcm(pk->scale, pk->scale, mpq_denref(g->cap[a]));
    mpz_divexact(pk->k, pk->scale, mpq_denref(tp));
    mpz_mul(pk->k, pk->k, mpq_numref(tp));
    mpz_set(pk->tp_left, pk->k);
    for (int a = 0; a < m; a++) {
        mpz_divexact(pk->cap[a], pk->scale, mpq_denref(g->cap[a]));
        mpz_mul(pk->cap[a], pk->cap[a], mpq_numref(g->cap[a]));
    }
    pk->net = flow_new(n, m, g->tail, g->head, true);
    return pk->net != NULL;
}

/* The target with the smallest max flow from the root under cap, or -1
 * when every target gets at least `need` (need NULL: always the smallest).
 * Flows are computed up to `need` only, which is exact for the targets
 * below it; *low receives the smallest flow and, if cut is given, cut the
 * sink side of its minimum cut. */
static int weakest_target(packer_t *pk, const mpz_t *cap, mpz_srcptr need, mpz_t low, bool *cut)
{
    int worst = -1;
    for (int i = 0; i < pk->ntargets; i++) {
        int t = pk->targets[i];
        flow_max_z(pk->net, cap, pk->root, t, need, pk->val, cut ? pk->scratch : NULL);
        if (need && mpz_cmp(pk->val, need) >= 0)
            continue;
        if (worst < 0 || mpz_cmp(pk->val, low) < 0) {
            worst = t;
            mpz_set(low, pk->val);
            if (cut)
                memcpy(cut, pk->scratch, (size_t)pk->n * sizeof *cut);
        }
    }
    return worst;
}

static void add_arc(packer_t *pk, int e)
{
    int v = pk->g->head[e];
    mpz_sub_ui(pk->rest[e], pk->rest[e], 1);
    pk->t_edge[e] = true;
    pk->t_node[v] = true;
    pk->order[pk->nin++] = v;
}

/* Grows T from the root, one arc at a time, keeping invariant (I) (see the
 * top of the file), until it reaches every target; a multicast tree is then
 * pruned of its leaves that are not targets. */
static steady_err_t grow_tree(packer_t *pk, steady_error_t *err)
{
    int missing = pk->ntargets;
    mpz_t best;
    mpz_init(best);
    memset(pk->t_node, 0, (size_t)pk->n * sizeof *pk->t_node);
    memset(pk->t_edge, 0, (size_t)pk->m * sizeof *pk->t_edge);
    for (int e = 0; e < pk->m; e++)
        mpz_set(pk->rest[e], pk->cap[e]);
    pk->t_node[pk->root] = true;
    pk->order[0] = pk->root;
    pk->nin = 1;
    mpz_sub_ui(pk->need, pk->k, 1); /* k >= 1 */

    while (missing > 0) {
        int pick = -1, fallback = -1;
        for (int i = 0; i < pk->nin && pick < 0; i++) {
            int u = pk->order[i];
            for (int j = pk->out_start[u]; j < pk->out_start[u + 1]; j++) {
                int e = pk->out_arc[j], v = pk->g->head[e];
                if (pk->t_node[v] || mpz_sgn(pk->rest[e]) <= 0)
                    continue;
                bool ok;
                mpz_sub_ui(pk->rest[e], pk->rest[e], 1);
                if (pk->spanning) {
                    flow_max_z(pk->net, pk->rest, pk->root, v, pk->need, pk->val, NULL);
                    ok = mpz_cmp(pk->val, pk->need) >= 0;
                } else {
                    ok = weakest_target(pk, pk->rest, pk->need, pk->low, NULL) < 0;
                }
                mpz_add_ui(pk->rest[e], pk->rest[e], 1);
                if (ok) {
                    pick = e;
                    break;
                }
                if (!pk->spanning && (fallback < 0 || mpz_cmp(pk->low, best) > 0)) {
                    fallback = e;
                    mpz_set(best, pk->low);
                }
            }
        }
        if (pick < 0) {
            if (pk->spanning || fallback < 0) {
                mpz_clear(best);
                return steady_error_set(err, STEADY_EINTERNAL,
                                        "broadcast trees: no arc extends the arborescence "
                                        "at %d nodes (Lovász's lemma says one does)",
                                        pk->nin);
            }
            /* a multicast: no arc keeps every target at k - 1; take the one
             * that loses the least and hold the others to that level */
            pick = fallback;
            mpz_set(pk->need, best);
        }
        add_arc(pk, pick);
        missing -= pk->is_target[pk->g->head[pick]];
    }
    mpz_clear(best);

    if (!pk->spanning) {
        /* prune leaves that are not targets, deepest first: a node joins
         * after its parent, so scanning the join order backwards sees
         * every child before its parent */
        for (int i = pk->nin - 1; i > 0; i--) {
            int v = pk->order[i], leaf = 1;
            if (pk->is_target[v])
                continue;
            for (int j = pk->out_start[v]; j < pk->out_start[v + 1] && leaf; j++)
                leaf = !pk->t_edge[pk->out_arc[j]];
            if (!leaf)
                continue;
            for (int j = pk->in_start[v]; j < pk->in_start[v + 1]; j++)
                pk->t_edge[pk->in_arc[j]] = false;
            pk->t_node[v] = false;
        }
    }
    return STEADY_OK;
}

/* The largest weight w (a rational, in scaled units, into pk->w) such that
 * cap - w χ(T) >= 0 and every target keeps max flow >= k - w: Newton's
 * method on f(w) = min_X l_X(w), see the top of the file. */
static steady_err_t tree_weight(packer_t *pk, steady_error_t *err)
{
    mpz_t c_in;
    mpz_init(c_in);
    steady_err_t rc = STEADY_OK;
    mpz_set(pk->val, pk->k);
    for (int e = 0; e < pk->m; e++)
        if (pk->t_edge[e] && mpz_cmp(pk->cap[e], pk->val) < 0)
            mpz_set(pk->val, pk->cap[e]);
    mpq_set_z(pk->w, pk->val);

    for (int step = 0;; step++) {
        mpz_srcptr num = mpq_numref(pk->w), den = mpq_denref(pk->w);
        for (int e = 0; e < pk->m; e++) {
            mpz_mul(pk->tmp[e], pk->cap[e], den);
            if (pk->t_edge[e])
                mpz_sub(pk->tmp[e], pk->tmp[e], num);
        }
        mpz_mul(pk->need, pk->k, den);
        mpz_sub(pk->need, pk->need, num);
        if (weakest_target(pk, pk->tmp, pk->need, pk->low, pk->cut) < 0)
            break;
        /* the set X of the minimum cut: its line l_X crosses 0 at
         * (c(δin X) - k) / (m_X - 1) */
        int mx = 0;
        mpz_set_ui(c_in, 0);
        for (int e = 0; e < pk->m; e++)
            if (pk->cut[pk->g->head[e]] && !pk->cut[pk->g->tail[e]]) {
                mpz_add(c_in, c_in, pk->cap[e]);
                mx += pk->t_edge[e];
            }
        mpz_sub(c_in, c_in, pk->k);
        if (mx < 2 || mpz_sgn(c_in) < 0 || step > pk->n) {
            rc = steady_error_set(err, STEADY_EINTERNAL,
                                  "broadcast trees: Newton step %d on a cut entered %d times "
                                  "failed",
                                  step, mx);
            goto cleanup;
        }
        mpz_set(mpq_numref(pk->w), c_in);
        mpz_set_ui(mpq_denref(pk->w), (unsigned long)(mx - 1));
        mpq_canonicalize(pk->w);
    }

cleanup:
    mpz_clear(c_in);
    return rc;
}

/* The trees packed block by block, before they are put together: tree i
 * has the true weight w[i] and the arcs arcs[first[i] .. first[i + 1]) of
 * the whole graph. */
typedef struct {
    int ntrees, w_cap, first_cap;
    mpq_t *w;
    int *first; /* ntrees + 1 entries */
    int narcs, arcs_cap;
    int *arcs;
} packed_t;

static void packed_free(packed_t *pt)
{
    for (int i = 0; i < pt->ntrees; i++)
        mpq_clear(pt->w[i]);
    free(pt->w);
    free(pt->first);
    free(pt->arcs);
}

/* Subtracts the current tree with weight pk->w (made an integer by scaling
 * everything by its denominator) and appends it to pt with its true
 * weight, each arc as the arc of the whole graph it stands for. */
static bool take_tree(packer_t *pk, packed_t *pt)
{
    mpz_srcptr den = mpq_denref(pk->w);
    if (mpz_cmp_ui(den, 1) != 0) {
        for (int e = 0; e < pk->m; e++)
            mpz_mul(pk->cap[e], pk->cap[e], den);
        mpz_mul(pk->k, pk->k, den);
        mpz_mul(pk->tp_left, pk->tp_left, den);
        mpz_mul(pk->scale, pk->scale, den);
    }
    mpz_srcptr wz = mpq_numref(pk->w);
    int size = 0;
    for (int e = 0; e < pk->m; e++)
        if (pk->t_edge[e]) {
            mpz_sub(pk->cap[e], pk->cap[e], wz);
            size++;
        }
    mpz_sub(pk->k, pk->k, wz);
    mpz_sub(pk->tp_left, pk->tp_left, wz);
    if (!array_grow((void **)&pt->w, &pt->w_cap, pt->ntrees + 1, sizeof *pt->w, 16) ||
        !array_grow((void **)&pt->first, &pt->first_cap, pt->ntrees + 2, sizeof *pt->first, 16) ||
        !array_grow((void **)&pt->arcs, &pt->arcs_cap, pt->narcs + size, sizeof *pt->arcs, 64))
        return false;
    pt->first[pt->ntrees] = pt->narcs;
    for (int e = 0; e < pk->m; e++)
        if (pk->t_edge[e])
            pt->arcs[pt->narcs++] = pk->g->hop[e];
    mpq_init(pt->w[pt->ntrees]);
    mpq_set_num(pt->w[pt->ntrees], wz);
    mpq_set_den(pt->w[pt->ntrees], pk->scale);
    mpq_canonicalize(pt->w[pt->ntrees]);
    pt->first[++pt->ntrees] = pt->narcs;
    return true;
}

static void arcs_free(arcs_t *g)
{
    if (g->cap)
        for (int a = 0; a < g->m; a++)
            mpq_clear(g->cap[a]);
    free(g->tail);
    free(g->head);
    free(g->cap);
    free(g->hop);
}

/* g: n nodes, no arcs yet, room for up to m (their capacities
 * initialised as they are added); false when memory runs out (g can then
 * still be given to arcs_free). */
static bool arcs_alloc(arcs_t *g, int n, int m)
{
    memset(g, 0, sizeof *g);
    g->n = n;
    g->tail = malloc((size_t)(m + 1) * sizeof *g->tail);
    g->head = malloc((size_t)(m + 1) * sizeof *g->head);
    g->hop = malloc((size_t)(m + 1) * sizeof *g->hop);
    g->cap = malloc((size_t)(m + 1) * sizeof *g->cap);
    return g->tail && g->head && g->hop && g->cap;
}

/* The hops of s with n(h) > 0, except those into the source, as arcs
 * between ranks. */
static steady_err_t broadcast_arcs(const steady_solution_t *s, arcs_t *g, steady_error_t *err)
{
    const steady_platform_t *p = steady_solution_platform(s);
    const steady_hop_graph_t *hg = steady_solution_hops(s);
    int nh = steady_hop_graph_count(hg), ns;
    int src = steady_solution_sources(s, &ns)[0];
    if (!arcs_alloc(g, steady_platform_rank_count(p), nh)) {
        arcs_free(g);
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    }
    mpq_t n;
    mpq_init(n);
    for (int h = 0; h < nh; h++) {
        const steady_hop_t *hop = steady_hop_graph_hop(hg, h);
        steady_solution_send(s, h, 0, n);
        if (mpq_sgn(n) <= 0 || hop->dst == src)
            continue;
        g->tail[g->m] = steady_platform_rank_of(p, hop->src);
        g->head[g->m] = steady_platform_rank_of(p, hop->dst);
        g->hop[g->m] = h;
        mpq_init(g->cap[g->m]);
        mpq_set(g->cap[g->m++], n);
    }
    mpq_clear(n);
    return STEADY_OK;
}

/* Block blk of g as a graph of its own (sub: its nodes numbered locally,
 * node[] their ranks, each arc's hop the arc of g it stands for), with its
 * entry as the root and its exits (exit_block[v] == blk) as the targets;
 * its arcs are arc[0 .. m). */
static bool block_arcs(const arcs_t *g, const blocks_t *bl, int blk, const int *arc, int m,
                       const int *exit_block, int *loc, arcs_t *sub, int *node, int *root,
                       int *targets, int *ntargets)
{
    if (!arcs_alloc(sub, 0, m))
        return false;
    for (int i = 0; i < m; i++) {
        int a = arc[i], ends[2] = {g->tail[a], g->head[a]};
        for (int e = 0; e < 2; e++)
            if (loc[ends[e]] < 0) {
                loc[ends[e]] = sub->n;
                node[sub->n++] = ends[e];
            }
        sub->tail[sub->m] = loc[ends[0]];
        sub->head[sub->m] = loc[ends[1]];
        sub->hop[sub->m] = a;
        mpq_init(sub->cap[sub->m]);
        mpq_set(sub->cap[sub->m++], g->cap[a]);
    }
    *root = loc[bl->entry[blk]];
    *ntargets = 0;
    for (int v = 0; v < sub->n; v++) {
        if (exit_block[node[v]] == blk)
            targets[(*ntargets)++] = v;
        loc[node[v]] = -1;
    }
    return true;
}

/* The error of a broadcast whose rates n carry less than TP to rank r
 * although every rank is a target. */
static steady_err_t short_of(const steady_solution_t *s, int r, steady_error_t *err)
{
    const steady_platform_t *p = steady_solution_platform(s);
    const char *name = steady_platform_node(p, steady_platform_rank_node(p, r))->name;
    if (steady_solution_is_exact(s))
        return steady_error_set(err, STEADY_EINTERNAL,
                                "broadcast trees: the edge rates carry less than TP to %s", name);
    return steady_error_set(err, STEADY_EUNSUPPORTED,
                            "broadcast trees: the edge rates carry less than TP to %s (the LP "
                            "solution is not exact: %s)",
                            name, steady_solution_note(s));
}

/* Packs the block's trees into pt; its exits (targets[]) must each get TP
 * when the block spans (node[] gives the ranks, to name one that does
 * not). */
static steady_err_t pack_block(const steady_solution_t *s, const arcs_t *sub, const int *node,
                               int root, const int *targets, int ntargets, packed_t *pt,
                               steady_error_t *err)
{
    packer_t pk;
    mpq_t tp;
    mpq_init(tp);
    steady_solution_throughput(s, tp);
    bool ok = packer_init(&pk, sub, root, targets, ntargets, tp);
    mpq_clear(tp);
    steady_err_t rc = STEADY_OK;
    if (!ok) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto cleanup;
    }
    if (pk.spanning) {
        /* Edmonds' hypothesis: every node gets max flow >= TP from the root */
        int v = weakest_target(&pk, pk.cap, pk.k, pk.low, NULL);
        if (v >= 0) {
            rc = short_of(s, node[v], err);
            goto cleanup;
        }
    }
    /* loop guard only: see the bounds at the top of the file */
    long limit = (long)(pk.m + 2) * (pk.m + 2);
    for (long count = 0; mpz_sgn(pk.tp_left) > 0; count++) {
        if (!pk.spanning) {
            weakest_target(&pk, pk.cap, NULL, pk.low, NULL);
            if (mpz_sgn(pk.low) <= 0)
                break; /* some target is cut off: the multicast packing ends here */
            mpz_set(pk.k, mpz_cmp(pk.low, pk.tp_left) < 0 ? pk.low : pk.tp_left);
        }
        if (count > limit) {
            rc = steady_error_set(err, STEADY_EINTERNAL, "broadcast trees: more than %ld trees",
                                  limit);
            goto cleanup;
        }
        if ((rc = grow_tree(&pk, err)) || (rc = tree_weight(&pk, err)))
            goto cleanup;
        if (mpq_cmp_ui(pk.w, 1, 1) < 0) {
            if (pk.spanning) {
                rc = steady_error_set(err, STEADY_EINTERNAL,
                                      "broadcast trees: an arborescence cannot carry one unit");
                goto cleanup;
            }
            if (mpq_sgn(pk.w) <= 0) {
                /* no weight keeps the targets' connectivity: take the
                 * bottleneck, which zeroes an edge for good */
                mpz_set(pk.val, pk.k);
                for (int e = 0; e < pk.m; e++)
                    if (pk.t_edge[e] && mpz_cmp(pk.cap[e], pk.val) < 0)
                        mpz_set(pk.val, pk.cap[e]);
                mpq_set_z(pk.w, pk.val);
            }
        }
        if (!take_tree(&pk, pt)) {
            rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
            goto cleanup;
        }
    }
cleanup:
    packer_free(&pk);
    return rc;
}

/* Puts the blocks' trees together: block j's trees are pt's trees
 * [end[j - 1], end[j]) (end[-1] = 0), each block's weights laid end to
 * end from 0; every point of [0, W), W the smallest block total, falls in
 * one tree of each block, and their union is an arborescence of g (blocks
 * share only their entries).  Each run of points with the same trees
 * becomes one tree of out, its steps in breadth-first order from the root
 * (children in arc order). */
static steady_err_t merge_blocks(const arcs_t *g, int root, const packed_t *pt, const int *end,
                                 int nb, steady_trees_t *out, hop_table_t *hops,
                                 steady_error_t *err)
{
    steady_err_t rc = STEADY_OK;
    int *cur = malloc((size_t)(nb + 1) * sizeof *cur);
    mpq_t *left = malloc((size_t)(nb + 1) * sizeof *left);
    bool *used = calloc((size_t)g->m + 1, sizeof *used);
    int *order = malloc((size_t)g->n * sizeof *order);
    steady_step_t *steps = malloc((size_t)g->n * sizeof *steps);
    int *out_start = NULL, *out_arc = NULL;
    mpq_t total, w;
    mpq_inits(total, w, NULL);
    if (!cur || !left || !used || !order || !steps || !arc_index(g, false, &out_start, &out_arc)) {
        free(left);
        left = NULL;
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto done;
    }
    for (int j = 0; j < nb; j++)
        mpq_init(left[j]);
    /* W: the smallest block total (0 when a block has no tree) */
    mpq_set_si(w, -1, 1);
    for (int j = 0; j < nb; j++) {
        mpq_set_ui(total, 0, 1);
        for (int i = j ? end[j - 1] : 0; i < end[j]; i++)
            mpq_add(total, total, pt->w[i]);
        if (mpq_sgn(w) < 0 || mpq_cmp(total, w) < 0)
            mpq_set(w, total);
        cur[j] = j ? end[j - 1] : 0;
        if (cur[j] < end[j])
            mpq_set(left[j], pt->w[cur[j]]);
    }
    mpq_set(total, w); /* what is left to put together */
    while (mpq_sgn(total) > 0) {
        mpq_set(w, total);
        for (int j = 0; j < nb; j++)
            if (mpq_cmp(left[j], w) < 0)
                mpq_set(w, left[j]);
        for (int j = 0; j < nb; j++)
            for (int i = pt->first[cur[j]]; i < pt->first[cur[j] + 1]; i++)
                used[pt->arcs[i]] = true;
        int nsteps = 0, qh = 0, qt = 0;
        order[qt++] = root;
        while (qh < qt) {
            int u = order[qh++];
            for (int k = out_start[u]; k < out_start[u + 1]; k++) {
                int a = out_arc[k];
                if (!used[a])
                    continue;
                used[a] = false;
                steps[nsteps++] = (steady_step_t){.kind = STEADY_STEP_SEND,
                                                  .hop = g->hop[a],
                                                  .edge = -1,
                                                  .type = 0,
                                                  .node = -1,
                                                  .task = -1};
                order[qt++] = g->head[a];
            }
        }
        for (int j = 0; j < nb; j++)
            for (int i = pt->first[cur[j]]; i < pt->first[cur[j] + 1]; i++)
                if (used[pt->arcs[i]]) {
                    rc = steady_error_set(err, STEADY_EINTERNAL,
                                          "broadcast trees: a block's tree is not reached from "
                                          "the root");
                    goto done;
                }
        if (!steps_to_table(hops, steps, nsteps) || !trees_append(out, w, steps, nsteps)) {
            rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
            goto done;
        }
        mpq_sub(total, total, w);
        for (int j = 0; j < nb; j++) {
            mpq_sub(left[j], left[j], w);
            if (mpq_sgn(left[j]) == 0 && ++cur[j] < end[j])
                mpq_set(left[j], pt->w[cur[j]]);
        }
    }
done:
    if (left)
        for (int j = 0; j < nb; j++)
            mpq_clear(left[j]);
    mpq_clears(total, w, NULL);
    free(cur);
    free(left);
    free(used);
    free(order);
    free(steps);
    free(out_start);
    free(out_arc);
    return rc;
}

steady_err_t broadcast_trees(const steady_solution_t *s, steady_trees_t *out, hop_table_t *hops,
                             steady_error_t *err)
{
    if (steady_solution_op(s) != STEADY_OP_BROADCAST)
        return steady_error_set(err, STEADY_EINVAL, "broadcast trees: not a broadcast solution");
    const steady_platform_t *p = steady_solution_platform(s);
    arcs_t g;
    steady_err_t rc = broadcast_arcs(s, &g, err);
    if (rc)
        return rc;
    int ns, nt, n = g.n;
    int root = steady_platform_rank_of(p, steady_solution_sources(s, &ns)[0]);
    const int *tg = steady_solution_targets(s, &nt);
    blocks_t bl = {0};
    packed_t pt = {0};
    int *exit_block = malloc((size_t)n * sizeof *exit_block);
    int *loc = malloc((size_t)n * sizeof *loc);
    int *node = malloc((size_t)n * sizeof *node);
    int *targets = malloc((size_t)n * sizeof *targets);
    int *end = malloc((size_t)(g.m + 1) * sizeof *end);
    int *first = NULL, *arc = malloc((size_t)(g.m + 1) * sizeof *arc); /* arcs by block */
    if (!exit_block || !loc || !node || !targets || !end || !arc ||
        !blocks_find(n, g.m, g.tail, g.head, root, &bl) ||
        !(first = calloc((size_t)bl.nblocks + 2, sizeof *first))) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto cleanup;
    }
    for (int a = 0; a < g.m; a++)
        if (bl.arc_block[a] >= 0)
            first[bl.arc_block[a] + 2]++;
    for (int blk = 0; blk < bl.nblocks; blk++)
        first[blk + 2] += first[blk + 1];
    for (int a = 0; a < g.m; a++)
        if (bl.arc_block[a] >= 0)
            arc[first[bl.arc_block[a] + 1]++] = a;
    for (int i = 0; i < nt; i++)
        targets[i] = steady_platform_rank_of(p, tg[i]);
    int unreached = blocks_exits(&bl, n, root, targets, nt, exit_block);
    for (int v = 0; v < n; v++)
        loc[v] = -1;
    if (unreached >= 0 && nt == n - 1) {
        rc = short_of(s, unreached, err);
        goto cleanup;
    }
    /* the blocks with an exit, each packed on its own */
    bool *exits = calloc((size_t)bl.nblocks + 1, sizeof *exits);
    if (!exits) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto cleanup;
    }
    for (int v = 0; v < n; v++)
        if (exit_block[v] >= 0)
            exits[exit_block[v]] = true;
    int nb = 0;
    for (int blk = 0; blk < bl.nblocks && unreached < 0 && !rc; blk++) {
        if (!exits[blk])
            continue;
        arcs_t sub;
        int broot, nbt;
        if (!block_arcs(&g, &bl, blk, arc + first[blk], first[blk + 1] - first[blk], exit_block,
                        loc, &sub, node, &broot, targets, &nbt))
            rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        else if (!(rc = pack_block(s, &sub, node, broot, targets, nbt, &pt, err)))
            end[nb++] = pt.ntrees;
        arcs_free(&sub);
    }
    free(exits);
    if (rc)
        goto cleanup;
    /* (none when n carries nothing to some target: no tree) */
    rc = merge_blocks(&g, root, &pt, end, nb, out, hops, err);
cleanup:
    blocks_free(&bl);
    packed_free(&pt);
    free(exit_block);
    free(loc);
    free(node);
    free(targets);
    free(end);
    free(first);
    free(arc);
    arcs_free(&g);
    return rc;
}
