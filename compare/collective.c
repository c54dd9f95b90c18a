/*
 * collective.c — the trees of the comparison algorithms and each rank's
 * actions for one operation (steady/compare.h, docs/comparison.md).
 *
 * Every algorithm is a set of trees over the ranks relative to the root
 * (x = (rank - root) mod P, the TwoTreeC paper's "false rank"), each tree
 * spanning all P ranks with the root on top, and an assignment of chunks to
 * trees per phase.  The constructions:
 *
 *   TwoTreeC   the seed's Algorithm 1, formula for formula: the root has
 *              leftChild 1 and rightChild P-1; rank r > 0 has leftParent
 *              r/2, rightParent (P - (P-r)/2) % P, leftChildren 2r and 2r+1
 *              when below P, rightChildren 2r-P and 2r-P-1 when above 0.  T1
 *              is the complete binary tree numbered level by level from 1,
 *              T2 the same shape numbered downwards from P-1.  A rank r is
 *              interior in T1 iff 2r < P and in T2 iff 2r > P, so no rank is
 *              interior in both, and for even P rank P/2 is a leaf in both.
 *   TwoTreeC+C T3 and T4 of the paper's TwoTreeC+C allreduce: T1 and T2
 *              with the labels 1..P-1 rotated so that T3 starts at ceil(P/2)
 *              (the paper's text).  The paper starts T4 at floor(P/2); for
 *              even P that makes P/2 the root of both trees (interior in
 *              both, which defeats the two trees), so the same rotation is
 *              applied to T2: T4 starts at ceil(P/2) - 1, which is floor(P/2)
 *              for odd P as in the paper.
 *   TwoTreeS   Sanders, Speck and Traff: the root sends alternately to the
 *              roots of two trees over the other n = P-1 ranks.  T1 is the
 *              in-order binary tree on positions 1..n in which every
 *              interval's root is its element with the most trailing zero
 *              bits, so the leaves are exactly the odd positions (for n =
 *              2^k it is a full tree of 2^k - 1 nodes under one extra node
 *              with a single child, the case the TwoTreeC paper criticises).
 *              T2 is T1 mirrored (x -> n+1-x) for even n and shifted by one
 *              (x -> x+1, n -> 1) for odd n: both map odd positions to even
 *              ones, so T1's leaves are T2's interior nodes (for odd n,
 *              rank 1 is a leaf in both).  Edges are then two-coloured, see
 *              colour_twotrees().
 *   binomial   parent x - lowbit(x); children x + 2^k for 2^k < lowbit(x),
 *              farthest first (MPICH's order).
 *   binary     heap numbering: children 2x+1, 2x+2.
 *   chain      x -> x+1.
 *   flat       the root -> every other rank, in rank order.
 */
#include "internal.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static const char *const algo_names[STEADY_ALGO_COUNT] = {
    "twotreec", "twotreec+c", "twotreec+s", "twotrees", "binomial", "binary", "chain", "flat"};

int steady_algo_from_name(const char *name)
{
    for (int a = 0; a < STEADY_ALGO_COUNT; a++)
        if (strcmp(name, algo_names[a]) == 0)
            return a;
    return -1;
}

const char *steady_algo_name(steady_algo_t algo)
{
    return (unsigned)algo < STEADY_ALGO_COUNT ? algo_names[algo] : "?";
}

static const char *const op_names[3] = {"broadcast", "reduce", "allreduce"};

int steady_collop_from_name(const char *name)
{
    for (int o = 0; o < 3; o++)
        if (strcmp(name, op_names[o]) == 0)
            return o;
    return -1;
}

const char *steady_collop_name(steady_collop_t op)
{
    return (unsigned)op < 3 ? op_names[op] : "?";
}

bool steady_algo_supports(steady_algo_t algo, steady_collop_t op)
{
    if ((unsigned)algo >= STEADY_ALGO_COUNT || (unsigned)op > STEADY_COLL_ALLREDUCE)
        return false;
    if (algo == STEADY_ALGO_TWOTREEC_C || algo == STEADY_ALGO_TWOTREEC_S)
        return op == STEADY_COLL_ALLREDUCE;
    return true;
}

/* ---- building trees on relative ranks ------------------------------------ */

/* Edges of one tree in relative ranks, in send order per parent. */
typedef struct {
    int n;       /* ranks */
    int nedges;  /* n - 1 once complete */
    int *from;   /* parent, per edge */
    int *to;     /* child, per edge */
    int *parent; /* per relative rank; -1 for the root (0) */
} rtree_t;

static bool rtree_init(rtree_t *t, int n)
{
    t->n = n;
    t->nedges = 0;
    t->from = malloc((size_t)n * sizeof *t->from);
    t->to = malloc((size_t)n * sizeof *t->to);
    t->parent = malloc((size_t)n * sizeof *t->parent);
    if (!t->from || !t->to || !t->parent)
        return false;
    for (int x = 0; x < n; x++)
        t->parent[x] = -1;
    return true;
}

static void rtree_free(rtree_t *t)
{
    free(t->from);
    free(t->to);
    free(t->parent);
}

static void rtree_add(rtree_t *t, int parent, int child)
{
    t->from[t->nedges] = parent;
    t->to[t->nedges] = child;
    t->nedges++;
    t->parent[child] = parent;
}

/* The seed's Algorithm 1 for p ranks.  The children come from the children
 * formulas; the parents from the parent formulas are checked against them
 * (a formula and its inverse must agree). */
static steady_err_t build_twotreec(int p, rtree_t *t1, rtree_t *t2, steady_error_t *err)
{
    if (p < 2)
        return STEADY_OK;
    rtree_add(t1, 0, 1);
    rtree_add(t2, 0, p - 1);
    for (int r = 1; r < p; r++) {
        if (2 * r < p)
            rtree_add(t1, r, 2 * r);
        if (2 * r + 1 < p)
            rtree_add(t1, r, 2 * r + 1);
        if (2 * r - p > 0)
            rtree_add(t2, r, 2 * r - p);
        if (2 * r - p - 1 > 0)
            rtree_add(t2, r, 2 * r - p - 1);
    }
    for (int r = 1; r < p; r++) {
        int left = r / 2, right = (p - (p - r) / 2) % p;
        if (t1->parent[r] != left || t2->parent[r] != right)
            return steady_error_set(err, STEADY_EINTERNAL,
                                    "TwoTreeC: parent formulas disagree with the children for "
                                    "rank %d of %d (a bug)",
                                    r, p);
    }
    return STEADY_OK;
}

/* Relabels tree `in` through the permutation map[] of relative ranks
 * (map[0] = 0) into `out`, keeping the send order. */
static void relabel(const rtree_t *in, const int *map, rtree_t *out)
{
    for (int k = 0; k < in->nedges; k++)
        rtree_add(out, map[in->from[k]], map[in->to[k]]);
}

/* TwoTreeC+C's T3, T4: T1, T2 with 1..p-1 rotated so that 1 -> ceil(p/2). */
static steady_err_t build_twotreec_c(int p, rtree_t *t3, rtree_t *t4, steady_error_t *err)
{
    rtree_t t1 = {0}, t2 = {0};
    int *map = malloc((size_t)p * sizeof *map);
    steady_err_t rc = STEADY_OK;
    if (!map || !rtree_init(&t1, p) || !rtree_init(&t2, p)) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto cleanup;
    }
    if ((rc = build_twotreec(p, &t1, &t2, err)))
        goto cleanup;
    map[0] = 0;
    int shift = (p + 1) / 2 - 1;
    for (int x = 1; x < p; x++)
        map[x] = (x - 1 + shift) % (p - 1) + 1;
    relabel(&t1, map, t3);
    relabel(&t2, map, t4);
cleanup:
    rtree_free(&t1);
    rtree_free(&t2);
    free(map);
    return rc;
}

/* The in-order subtree over positions [lo, hi] (1-based) under `parent`:
 * its root is the element with the most trailing zero bits.  Positions are
 * relative ranks.  Recursion depth log2(hi). */
static void inorder(rtree_t *t, int parent, int lo, int hi)
{
    if (lo > hi)
        return;
    int root = lo;
    for (int bit = 1; bit <= hi; bit <<= 1) {
        int x = (hi / bit) * bit; /* the largest multiple of bit in [.., hi] */
        if (x >= lo && x > 0)
            root = x;
    }
    rtree_add(t, parent, root);
    inorder(t, root, lo, root - 1);
    inorder(t, root, root + 1, hi);
}

/* TwoTreeS's T1 and T2 (uncoloured). */
static void build_twotrees(int p, rtree_t *t1, rtree_t *t2, int *map)
{
    int n = p - 1;
    if (n < 1)
        return;
    inorder(t1, 0, 1, n);
    map[0] = 0;
    for (int x = 1; x <= n; x++)
        map[x] = n % 2 == 0 ? n + 1 - x : x % n + 1;
    relabel(t1, map, t2);
}

static void build_binomial(int p, rtree_t *t)
{
    for (int x = 0; x < p; x++) {
        int low = x & -x; /* x's subtree spans x .. x + low - 1 */
        if (x == 0)
            for (low = 1; low < p; low <<= 1)
                ;
        for (int k = low >> 1; k >= 1; k >>= 1) /* farthest child first */
            if (x + k < p)
                rtree_add(t, x, x + k);
    }
}

static void build_binary(int p, rtree_t *t)
{
    for (int x = 0; x < p; x++)
        for (int c = 2 * x + 1; c <= 2 * x + 2 && c < p; c++)
            rtree_add(t, x, c);
}

static void build_chain(int p, rtree_t *t)
{
    for (int x = 0; x + 1 < p; x++)
        rtree_add(t, x, x + 1);
}

static void build_flat(int p, rtree_t *t)
{
    for (int x = 1; x < p; x++)
        rtree_add(t, 0, x);
}

/* ---- the collective ------------------------------------------------------- */

/* Sanders, Speck and Traff's colouring of TwoTreeS's edges.  Constraints:
 * the two edges into a rank (its T1 and T2 parents) get different colours,
 * and so do the edges out of a rank (at most two: a rank is interior in
 * one tree only, and the root has one child per tree).  Every edge is in
 * at most one "in" pair and one "out" pair, so the constraint graph has
 * degree <= 2: paths and cycles, two-colourable iff every cycle is even,
 * which they always are, as a cycle alternates "in" and "out" pairs (the
 * edge-colouring theorem for a bipartite graph of degree 2: send ports on
 * one side, receive ports on the other).  So it colours any two trees in
 * which no rank sends on more than two edges: TwoTreeC's too.  Each path
 * or cycle is coloured by
 * walking it from its lowest edge (t, rank) with colour 0, so the result is
 * deterministic; an odd cycle is reported as a bug.  O(P). */
static steady_err_t colour_twotrees(steady_collective_t *c, int t0, steady_error_t *err)
{
    /* edge e = t * n + r: the edge parent -> r in tree t0 + t */
    int n = c->n, m = 2 * n;
    int *colour = c->colour + (size_t)t0 * n;
    int *in_mate = malloc((size_t)m * sizeof *in_mate);
    int *out_mate = malloc((size_t)m * sizeof *out_mate);
    int *stack = malloc((size_t)m * sizeof *stack);
    steady_err_t rc = STEADY_OK;
    if (!in_mate || !out_mate || !stack) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto cleanup;
    }
    for (int e = 0; e < m; e++)
        in_mate[e] = out_mate[e] = -1;
    for (int r = 0; r < n; r++) {
        if (r != c->root) {
            in_mate[r] = n + r;
            in_mate[n + r] = r;
        }
        int out[2], nout = 0;
        for (int t = 0; t < 2; t++) {
            const int *kids;
            int k = steady_collective_children(c, t0 + t, r, &kids);
            for (int i = 0; i < k; i++) {
                if (nout == 2) {
                    rc = steady_error_set(err, STEADY_EINTERNAL,
                                          "%s: rank %d of %d sends on more than two edges "
                                          "(a bug)",
                                          steady_algo_name(steady_collective_algo(c)), r, n);
                    goto cleanup;
                }
                out[nout++] = t * n + kids[i];
            }
        }
        if (nout == 2) {
            out_mate[out[0]] = out[1];
            out_mate[out[1]] = out[0];
        }
    }
    for (int e = 0; e < m; e++)
        colour[e] = e % n == c->root ? -1 /* no edge into the root */ : 2 /* not yet coloured */;
    for (int e0 = 0; e0 < m; e0++) {
        if (colour[e0] != 2)
            continue;
        int top = 0;
        colour[e0] = 0;
        stack[top++] = e0;
        while (top) {
            int e = stack[--top];
            int mates[2] = {in_mate[e], out_mate[e]};
            for (int k = 0; k < 2; k++) {
                int f = mates[k];
                if (f < 0)
                    continue;
                if (colour[f] == 2) {
                    colour[f] = 1 - colour[e];
                    stack[top++] = f;
                } else if (colour[f] == colour[e]) {
                    rc = steady_error_set(err, STEADY_EINTERNAL,
                                          "%s: the edge colouring has an odd cycle for %d "
                                          "ranks (a bug)",
                                          steady_algo_name(steady_collective_algo(c)), n);
                    goto cleanup;
                }
            }
        }
    }
cleanup:
    free(in_mate);
    free(out_mate);
    free(stack);
    return rc;
}

/* Puts the child whose edge colour differs from rank r's in-edge colour
 * first: in the synchronous schedule a chunk reaches r in a step of its
 * in-edge's colour, and the next step has the other colour. */
static void order_by_colour(steady_collective_t *c, int t0)
{
    int n = c->n;
    for (int t = t0; t < t0 + 2; t++)
        for (int r = 0; r < n; r++) {
            int *kids = c->kids + (size_t)t * n + c->cstart[t * (n + 1) + r];
            int k = c->cstart[t * (n + 1) + r + 1] - c->cstart[t * (n + 1) + r];
            int in = c->colour[t * n + r];
            if (k == 2 && in >= 0 && c->colour[t * n + kids[0]] == in) {
                int tmp = kids[0];
                kids[0] = kids[1];
                kids[1] = tmp;
            }
        }
}

/* Stores relative tree rt as tree t of c in absolute ranks. */
static void store_tree(steady_collective_t *c, int t, const rtree_t *rt)
{
    int n = c->n;
    int *parent = c->parent + (size_t)t * n;
    int *start = c->cstart + (size_t)t * (n + 1);
    int *kids = c->kids + (size_t)t * n;
    for (int r = 0; r <= n; r++)
        start[r] = 0;
    for (int x = 0; x < n; x++)
        parent[(x + c->root) % n] = rt->parent[x] < 0 ? -1 : (rt->parent[x] + c->root) % n;
    for (int k = 0; k < rt->nedges; k++)
        start[(rt->from[k] + c->root) % n + 1]++;
    for (int r = 0; r < n; r++)
        start[r + 1] += start[r];
    int *fill = c->scratch;
    memcpy(fill, start, (size_t)n * sizeof *fill);
    for (int k = 0; k < rt->nedges; k++) /* stable: keeps each parent's send order */
        kids[fill[(rt->from[k] + c->root) % n]++] = (rt->to[k] + c->root) % n;
}

/* Subtree intervals of tree t: size, smallest and largest rank of each
 * subtree, children before parents (reverse breadth-first order). */
static void subtree_intervals(steady_collective_t *c, int t, int *size)
{
    int n = c->n;
    int *order = c->scratch, head = 0, tail = 0;
    int *lo = c->lo + (size_t)t * n, *hi = c->hi + (size_t)t * n;
    order[tail++] = c->root;
    while (head < tail) {
        int r = order[head++];
        const int *kids;
        int k = steady_collective_children(c, t, r, &kids);
        for (int i = 0; i < k; i++)
            order[tail++] = kids[i];
    }
    for (int r = 0; r < n; r++) {
        lo[r] = hi[r] = r;
        size[r] = 1;
    }
    for (int i = n - 1; i >= 0; i--) {
        int r = order[i], up = c->parent[(size_t)t * n + r];
        if (up < 0)
            continue;
        if (lo[r] < lo[up])
            lo[up] = lo[r];
        if (hi[r] > hi[up])
            hi[up] = hi[r];
        size[up] += size[r];
    }
    for (int r = 0; r < n; r++) /* an interval iff max - min + 1 == size */
        if (hi[r] - lo[r] + 1 != size[r])
            lo[r] = hi[r] = -1;
}

/* The reduce order of rank r's children in tree t: in an order-preserving
 * tree, the children below r nearest first, then those above nearest first,
 * so that the accumulator stays an interval; otherwise the send order. */
static int reduce_children(const steady_collective_t *c, int t, int r, int *out, int *side)
{
    const int *kids;
    int k = steady_collective_children(c, t, r, &kids);
    memcpy(out, kids, (size_t)k * sizeof *out);
    int n = c->n;
    bool intervals = c->lo[(size_t)t * n + r] >= 0;
    for (int i = 0; i < k && intervals; i++)
        intervals = c->lo[(size_t)t * n + out[i]] >= 0;
    if (!intervals) {
        for (int i = 0; i < k; i++)
            side[i] = 0;
        return k;
    }
    /* insertion sort by distance on each side: below first (key -hi), then above (key n + lo) */
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0; j--) {
            int a = out[j - 1], b = out[j];
            int ka = c->hi[(size_t)t * n + a] < r ? -c->hi[(size_t)t * n + a]
                                                  : n + c->lo[(size_t)t * n + a];
            int kb = c->hi[(size_t)t * n + b] < r ? -c->hi[(size_t)t * n + b]
                                                  : n + c->lo[(size_t)t * n + b];
            if (ka <= kb)
                break;
            out[j - 1] = b;
            out[j] = a;
        }
    for (int i = 0; i < k; i++)
        side[i] = c->hi[(size_t)t * n + out[i]] < r ? -1 : 1;
    return k;
}

/* The actions of one rank (counting only when act is NULL). */
static int rank_actions(const steady_collective_t *c, int r, steady_action_t *act, int *buf,
                        int *side)
{
    int count = 0;
#define EMIT(k, ph, j, t, peer_, sd)                                                               \
    do {                                                                                           \
        if (act)                                                                                   \
            act[count] = (steady_action_t){.kind = (k),                                            \
                                           .phase = (ph),                                          \
                                           .chunk = (j),                                           \
                                           .tree = (t),                                            \
                                           .peer = (peer_),                                        \
                                           .side = (sd)};                                          \
        count++;                                                                                   \
    } while (0)
    for (int j = 0; j < c->chunks; j++) {
        int t = steady_collective_chunk_tree(c, STEADY_PHASE_REDUCE, j);
        if (t >= 0) {
            int k = reduce_children(c, t, r, buf, side);
            for (int i = 0; i < k; i++) {
                EMIT(STEADY_ACT_RECV, STEADY_PHASE_REDUCE, j, t, buf[i], 0);
                EMIT(STEADY_ACT_COMBINE, STEADY_PHASE_REDUCE, j, t, buf[i], side[i]);
            }
            int up = steady_collective_parent(c, t, r);
            if (up >= 0)
                EMIT(STEADY_ACT_SEND, STEADY_PHASE_REDUCE, j, t, up, 0);
        }
        t = steady_collective_chunk_tree(c, STEADY_PHASE_BROADCAST, j);
        if (t >= 0) {
            int up = steady_collective_parent(c, t, r);
            if (up >= 0)
                EMIT(STEADY_ACT_RECV, STEADY_PHASE_BROADCAST, j, t, up, 0);
            const int *kids;
            int k = steady_collective_children(c, t, r, &kids);
            for (int i = 0; i < k; i++)
                EMIT(STEADY_ACT_SEND, STEADY_PHASE_BROADCAST, j, t, kids[i], 0);
        }
    }
#undef EMIT
    return count;
}

void steady_collective_destroy(steady_collective_t *c)
{
    if (!c)
        return;
    free(c->parent);
    free(c->colour);
    free(c->cstart);
    free(c->kids);
    free(c->lo);
    free(c->hi);
    free(c->astart);
    free(c->acts);
    free(c->scratch);
    free(c);
}

steady_err_t steady_collective_create(steady_algo_t algo, steady_collop_t op, int nranks, int root,
                                      int chunks, steady_collective_t **out, steady_error_t *err)
{
    *out = NULL;
    if ((unsigned)algo >= STEADY_ALGO_COUNT)
        return steady_error_set(err, STEADY_EINVAL, "unknown algorithm (%d)", (int)algo);
    if ((unsigned)op > STEADY_COLL_ALLREDUCE)
        return steady_error_set(err, STEADY_EINVAL, "unknown operation (%d)", (int)op);
    if (!steady_algo_supports(algo, op))
        return steady_error_set(err, STEADY_EINVAL, "%s is an allreduce algorithm, not a %s",
                                steady_algo_name(algo), steady_collop_name(op));
    if (nranks < 1)
        return steady_error_set(err, STEADY_EINVAL, "a collective needs at least 1 rank (got %d)",
                                nranks);
    if (root < 0 || root >= nranks)
        return steady_error_set(err, STEADY_EINVAL, "root rank %d out of range 0..%d", root,
                                nranks - 1);
    if (chunks < 1)
        return steady_error_set(err, STEADY_EINVAL, "the chunk count must be at least 1 (got %d)",
                                chunks);
    /* per chunk and rank: at most 2 actions per child (every rank is a child
     * at most 4 times: TwoTreeC+C's trees) plus 2 per tree towards the parent */
    if ((double)chunks * nranks * 16 > INT_MAX / 2)
        return steady_error_set(err, STEADY_EINVAL, "%d chunks on %d ranks is too many", chunks,
                                nranks);

    steady_collective_t *c = calloc(1, sizeof *c);
    if (!c)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    c->algo = algo;
    c->op = op;
    c->n = nranks;
    c->root = root;
    c->chunks = chunks;
    bool two = algo <= STEADY_ALGO_TWOTREES;
    bool four = algo == STEADY_ALGO_TWOTREEC_C || algo == STEADY_ALGO_TWOTREEC_S;
    c->ntrees = four ? 4 : two ? 2 : 1;
    /* trees per phase: [first, count] */
    int per = two ? 2 : 1;
    for (int ph = 0; ph < 2; ph++)
        c->phase_first[ph] = c->phase_count[ph] = 0;
    if (op != STEADY_COLL_BROADCAST)
        c->phase_count[STEADY_PHASE_REDUCE] = per;
    if (op != STEADY_COLL_REDUCE) {
        c->phase_count[STEADY_PHASE_BROADCAST] = per;
        c->phase_first[STEADY_PHASE_BROADCAST] = four ? 2 : 0;
    }

    int n = nranks, nt = c->ntrees;
    rtree_t rt[4] = {{0}};
    int *map = NULL, *buf = NULL, *side = NULL;
    steady_err_t rc = STEADY_OK;
    c->parent = malloc((size_t)nt * n * sizeof *c->parent);
    c->colour = malloc((size_t)nt * n * sizeof *c->colour);
    c->cstart = malloc((size_t)nt * (n + 1) * sizeof *c->cstart);
    c->kids = malloc((size_t)nt * n * sizeof *c->kids);
    c->lo = malloc((size_t)nt * n * sizeof *c->lo);
    c->hi = malloc((size_t)nt * n * sizeof *c->hi);
    c->astart = malloc((size_t)(n + 1) * sizeof *c->astart);
    c->scratch = malloc((size_t)n * sizeof *c->scratch);
    map = malloc((size_t)n * sizeof *map);
    buf = malloc((size_t)n * sizeof *buf);
    side = malloc((size_t)n * sizeof *side);
    if (!c->parent || !c->colour || !c->cstart || !c->kids || !c->lo || !c->hi || !c->astart ||
        !c->scratch || !map || !buf || !side)
        goto nomem;
    for (int t = 0; t < nt; t++)
        if (!rtree_init(&rt[t], n))
            goto nomem;

    switch (algo) {
    case STEADY_ALGO_TWOTREEC: rc = build_twotreec(n, &rt[0], &rt[1], err); break;
    case STEADY_ALGO_TWOTREEC_C:
        if (!(rc = build_twotreec(n, &rt[0], &rt[1], err)))
            rc = build_twotreec_c(n, &rt[2], &rt[3], err);
        break;
    case STEADY_ALGO_TWOTREEC_S:
        if (!(rc = build_twotreec(n, &rt[0], &rt[1], err)))
            build_twotrees(n, &rt[2], &rt[3], map);
        break;
    case STEADY_ALGO_TWOTREES: build_twotrees(n, &rt[0], &rt[1], map); break;
    case STEADY_ALGO_BINOMIAL: build_binomial(n, &rt[0]); break;
    case STEADY_ALGO_BINARY: build_binary(n, &rt[0]); break;
    case STEADY_ALGO_CHAIN: build_chain(n, &rt[0]); break;
    case STEADY_ALGO_FLAT: build_flat(n, &rt[0]); break;
    }
    if (rc)
        goto cleanup;
    for (int t = 0; t < nt; t++) {
        if (rt[t].nedges != n - 1) {
            rc = steady_error_set(err, STEADY_EINTERNAL,
                                  "%s: tree %d has %d edges for %d ranks (a bug)",
                                  steady_algo_name(algo), t, rt[t].nedges, n);
            goto cleanup;
        }
        store_tree(c, t, &rt[t]);
    }
    for (int e = 0; e < nt * n; e++)
        c->colour[e] = -1;
    /* TwoTreeS's trees are trees 0, 1 (TwoTreeS) or 2, 3 (TwoTreeC+S).
     * TwoTreeC's T1, T2 are coloured the same way (no rank sends on more
     * than two edges: the root has one child per tree and a rank is
     * interior in one tree only), so that an executor can run its
     * broadcast in synchronous steps too; its children keep the paper's
     * order (leftChild[0], leftChild[1]). */
    if (algo == STEADY_ALGO_TWOTREES || algo == STEADY_ALGO_TWOTREEC_S) {
        int t0 = algo == STEADY_ALGO_TWOTREES ? 0 : 2;
        if ((rc = colour_twotrees(c, t0, err)))
            goto cleanup;
        order_by_colour(c, t0);
    } else if (algo == STEADY_ALGO_TWOTREEC && n >= 2) {
        if ((rc = colour_twotrees(c, 0, err)))
            goto cleanup;
    }
    for (int t = 0; t < nt; t++)
        subtree_intervals(c, t, map);

    c->astart[0] = 0;
    for (int r = 0; r < n; r++)
        c->astart[r + 1] = c->astart[r] + rank_actions(c, r, NULL, buf, side);
    c->acts = malloc((size_t)(c->astart[n] ? c->astart[n] : 1) * sizeof *c->acts);
    if (!c->acts)
        goto nomem;
    for (int r = 0; r < n; r++)
        rank_actions(c, r, c->acts + c->astart[r], buf, side);
    goto cleanup;

nomem:
    rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
cleanup:
    for (int t = 0; t < 4; t++)
        rtree_free(&rt[t]);
    free(map);
    free(buf);
    free(side);
    if (rc)
        steady_collective_destroy(c);
    else
        *out = c;
    return rc;
}

/* ---- queries -------------------------------------------------------------- */

steady_algo_t steady_collective_algo(const steady_collective_t *c)
{
    return c->algo;
}

steady_collop_t steady_collective_op(const steady_collective_t *c)
{
    return c->op;
}

int steady_collective_ranks(const steady_collective_t *c)
{
    return c->n;
}

int steady_collective_root(const steady_collective_t *c)
{
    return c->root;
}

int steady_collective_chunks(const steady_collective_t *c)
{
    return c->chunks;
}

int steady_collective_tree_count(const steady_collective_t *c)
{
    return c->ntrees;
}

int steady_collective_parent(const steady_collective_t *c, int tree, int rank)
{
    return c->parent[(size_t)tree * c->n + rank];
}

int steady_collective_children(const steady_collective_t *c, int tree, int rank,
                               const int **children)
{
    const int *start = c->cstart + (size_t)tree * (c->n + 1);
    if (children)
        *children = c->kids + (size_t)tree * c->n + start[rank];
    return start[rank + 1] - start[rank];
}

int steady_collective_colour(const steady_collective_t *c, int tree, int rank)
{
    return c->colour[(size_t)tree * c->n + rank];
}

int steady_collective_chunk_tree(const steady_collective_t *c, steady_phase_t ph, int chunk)
{
    if ((unsigned)ph > STEADY_PHASE_BROADCAST || c->phase_count[ph] == 0)
        return -1;
    return c->phase_first[ph] + chunk % c->phase_count[ph];
}

bool steady_collective_subtree(const steady_collective_t *c, int tree, int rank, int *lo, int *hi)
{
    int l = c->lo[(size_t)tree * c->n + rank];
    if (l < 0)
        return false;
    *lo = l;
    *hi = c->hi[(size_t)tree * c->n + rank];
    return true;
}

bool collective_order_preserving(const steady_collective_t *c, int chunks)
{
    int first = c->phase_first[STEADY_PHASE_REDUCE], count = c->phase_count[STEADY_PHASE_REDUCE];
    if (count > chunks)
        count = chunks; /* one chunk uses the first tree only */
    for (int t = first; t < first + count; t++)
        for (int r = 0; r < c->n; r++)
            if (c->lo[(size_t)t * c->n + r] < 0)
                return false;
    return true;
}

bool steady_collective_order_preserving(const steady_collective_t *c)
{
    return collective_order_preserving(c, c->chunks);
}

int steady_collective_actions(const steady_collective_t *c, int rank,
                              const steady_action_t **actions)
{
    if (actions)
        *actions = c->acts + c->astart[rank];
    return c->astart[rank + 1] - c->astart[rank];
}
