/*
 * test_compare.c — the comparison algorithms (steady/compare.h).
 *
 * Constructions: for P = 1..64 ranks and several roots, every tree spans
 * the ranks and has the algorithm's shape (TwoTreeC numbered level by level
 * upwards / downwards as the seed defines T1 and T2, TwoTreeS's T1 in
 * in-order with its mirror or shift as T2), no rank is interior in both
 * trees, the ranks that are leaves in both are exactly the expected ones,
 * and TwoTreeS's edge colouring is valid.  Action lists: every rank's list
 * is executed with blocking rendezvous semantics, which must finish (no
 * deadlock) and deliver every chunk, or the whole reduction — in rank order
 * whenever the collective claims to preserve it.  Model: closed forms
 * computed by hand on homogeneous platforms (chain 1/c, binary tree
 * 1/(2c), two trees at full bandwidth 1/c, chunk overheads, forwarding
 * through a switch), routes and their tie-break; on example and random
 * platforms no algorithm beats the LP optimum (or, when it needs a
 * commutative operator, the commutative bound).
 */
#define _POSIX_C_SOURCE 200809L
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "steady/compare.h"
#include "tests.h"

static steady_collective_t *coll_ok(steady_algo_t algo, steady_collop_t op, int P, int root,
                                    int chunks)
{
    steady_collective_t *c = NULL;
    steady_error_t err = {0};
    steady_err_t rc = steady_collective_create(algo, op, P, root, chunks, &c, &err);
    if (rc)
        fprintf(stderr, "\n    %s %s P=%d root=%d C=%d: %s\n", steady_algo_name(algo),
                steady_collop_name(op), P, root, chunks, err.msg);
    CU_ASSERT_EQUAL(rc, STEADY_OK);
    return c;
}

/* Faults of tree t as a tree: the root has no parent, every other rank has
 * one and reaches the root, children lists match the parents, at most
 * maxkids children per rank.  Describes the first fault. */
static int tree_faults(const steady_collective_t *c, int t, int maxkids)
{
    int P = steady_collective_ranks(c), root = steady_collective_root(c), faults = 0, edges = 0;
    for (int r = 0; r < P; r++) {
        int up = steady_collective_parent(c, t, r);
        if ((r == root) != (up < 0) || up >= P || up == r) {
            if (!faults++)
                fprintf(stderr, "\n    P=%d tree %d: rank %d has parent %d\n", P, t, r, up);
            continue;
        }
        int steps = 0;
        for (int x = r; x != root && steps <= P; x = steady_collective_parent(c, t, x))
            steps++;
        if (steps > P && !faults++)
            fprintf(stderr, "\n    P=%d tree %d: rank %d does not reach the root\n", P, t, r);
        const int *kids;
        int k = steady_collective_children(c, t, r, &kids);
        edges += k;
        if (k > maxkids && !faults++)
            fprintf(stderr, "\n    P=%d tree %d: rank %d has %d children\n", P, t, r, k);
        for (int i = 0; i < k; i++)
            if (steady_collective_parent(c, t, kids[i]) != r && !faults++)
                fprintf(stderr, "\n    P=%d tree %d: child %d of %d has another parent\n", P, t,
                        kids[i], r);
    }
    if (edges != P - 1 && !faults++)
        fprintf(stderr, "\n    P=%d tree %d: %d edges\n", P, t, edges);
    return faults;
}

static bool interior(const steady_collective_t *c, int t, int r)
{
    return steady_collective_children(c, t, r, NULL) > 0;
}

/* Relative ranks (root = 0) of tree t in breadth-first order below the
 * root's single child, children in the stored order. */
static void bfs_relative(const steady_collective_t *c, int t, int *out)
{
    int P = steady_collective_ranks(c), root = steady_collective_root(c), head = 0, tail = 0;
    const int *kids;
    int k = steady_collective_children(c, t, root, &kids);
    CU_ASSERT_EQUAL_FATAL(k, 1);
    int *queue = malloc((size_t)P * sizeof *queue);
    queue[tail++] = kids[0];
    while (head < tail) {
        int r = queue[head++];
        out[head - 1] = (r - root + P) % P;
        k = steady_collective_children(c, t, r, &kids);
        for (int i = 0; i < k; i++)
            queue[tail++] = kids[i];
    }
    free(queue);
}

/* Ranks (relative) that are leaves in both trees t0, t0+1, as a bit set;
 * counts the ranks interior in both into *both. */
static uint64_t leaves_in_both(const steady_collective_t *c, int t0, int *both)
{
    int P = steady_collective_ranks(c), root = steady_collective_root(c);
    uint64_t set = 0;
    *both = 0;
    for (int r = 0; r < P; r++) {
        if (r == root)
            continue;
        bool i0 = interior(c, t0, r), i1 = interior(c, t0 + 1, r);
        *both += i0 && i1;
        if (!i0 && !i1)
            set |= UINT64_C(1) << ((r - root + P) % P);
    }
    return set;
}

/* ---- TwoTreeC ------------------------------------------------------------- */

/* The seed's definition: T1 numbered level by level, left to right, from 1;
 * T2 likewise downwards from P-1; each complete binary; Algorithm 1's
 * parent formulas; for even P rank P/2 (and only it) is a leaf in both;
 * the edges two-coloured as TwoTreeS's. */
/* Faults of the two-colouring of trees 0 and 1 (steady_collective_colour):
 * the root's edges have no colour, the two edges into any other rank have
 * colours 0 and 1, the edges out of a rank differ; with served_first, a
 * rank with two children in a tree lists first the one it serves in the
 * step after the chunk arrives (the colour other than its own). */
static int colouring_faults(const steady_collective_t *c, int P, int root, bool served_first)
{
    int bad = 0;
    for (int r = 0; r < P; r++) {
        int c0 = steady_collective_colour(c, 0, r), c1 = steady_collective_colour(c, 1, r);
        if (r == root)
            bad += c0 != -1 || c1 != -1;
        else
            bad += c0 < 0 || c0 > 1 || c1 < 0 || c1 > 1 || c0 == c1;
        int out[4], nout = 0;
        for (int t = 0; t < 2; t++) {
            const int *kids;
            int k = steady_collective_children(c, t, r, &kids);
            for (int i = 0; i < k; i++)
                out[nout++] = steady_collective_colour(c, t, kids[i]);
            if (served_first && k == 2 && r != root)
                bad += steady_collective_colour(c, t, kids[0]) == steady_collective_colour(c, t, r);
        }
        bad += nout > 2 || (nout == 2 && out[0] == out[1]);
    }
    return bad;
}

static void test_twotreec_trees(void)
{
    for (int P = 2; P <= 64; P++)
        for (int root = 0; root < P; root += (P + 2) / 3) {
            steady_collective_t *c =
                coll_ok(STEADY_ALGO_TWOTREEC, STEADY_COLL_BROADCAST, P, root, 2);
            CU_ASSERT_PTR_NOT_NULL_FATAL(c);
            CU_ASSERT_EQUAL(steady_collective_tree_count(c), 2);
            CU_ASSERT_EQUAL(tree_faults(c, 0, 2), 0);
            CU_ASSERT_EQUAL(tree_faults(c, 1, 2), 0);
            int order[64];
            bfs_relative(c, 0, order);
            for (int i = 0; i < P - 1; i++)
                CU_ASSERT_EQUAL(order[i], i + 1);
            bfs_relative(c, 1, order);
            for (int i = 0; i < P - 1; i++)
                CU_ASSERT_EQUAL(order[i], P - 1 - i);
            for (int x = 1; x < P; x++) {
                int r = (x + root) % P;
                CU_ASSERT_EQUAL(steady_collective_parent(c, 0, r), (x / 2 + root) % P);
                CU_ASSERT_EQUAL(steady_collective_parent(c, 1, r),
                                ((P - (P - x) / 2) % P + root) % P);
            }
            int both;
            uint64_t leaves = leaves_in_both(c, 0, &both);
            CU_ASSERT_EQUAL(both, 0);
            CU_ASSERT_EQUAL(leaves, P % 2 == 0 ? UINT64_C(1) << (P / 2) : 0);
            /* coloured like TwoTreeS (children in the paper's order) */
            CU_ASSERT_EQUAL(colouring_faults(c, P, root, false), 0);
            /* chunks alternate: even ones in T1, odd ones in T2 */
            CU_ASSERT_EQUAL(steady_collective_chunk_tree(c, STEADY_PHASE_BROADCAST, 0), 0);
            CU_ASSERT_EQUAL(steady_collective_chunk_tree(c, STEADY_PHASE_BROADCAST, 1), 1);
            CU_ASSERT_EQUAL(steady_collective_chunk_tree(c, STEADY_PHASE_REDUCE, 0), -1);
            steady_collective_destroy(c);
        }
}

/* TwoTreeC+C: reduce on T1, T2; broadcast on T3, T4 = T1, T2 rotated so
 * that T3 starts at ceil(P/2) and T4 at ceil(P/2) - 1, still complementary. */
static void test_twotreec_c_trees(void)
{
    for (int P = 2; P <= 64; P++) {
        steady_collective_t *c = coll_ok(STEADY_ALGO_TWOTREEC_C, STEADY_COLL_ALLREDUCE, P, 0, 2);
        CU_ASSERT_PTR_NOT_NULL_FATAL(c);
        CU_ASSERT_EQUAL(steady_collective_tree_count(c), 4);
        for (int t = 0; t < 4; t++)
            CU_ASSERT_EQUAL(tree_faults(c, t, 2), 0);
        CU_ASSERT_EQUAL(steady_collective_chunk_tree(c, STEADY_PHASE_REDUCE, 0), 0);
        CU_ASSERT_EQUAL(steady_collective_chunk_tree(c, STEADY_PHASE_REDUCE, 1), 1);
        CU_ASSERT_EQUAL(steady_collective_chunk_tree(c, STEADY_PHASE_BROADCAST, 0), 2);
        CU_ASSERT_EQUAL(steady_collective_chunk_tree(c, STEADY_PHASE_BROADCAST, 1), 3);
        int order[64], start = (P + 1) / 2;
        bfs_relative(c, 2, order);
        for (int i = 0; i < P - 1; i++)
            CU_ASSERT_EQUAL(order[i], (start - 1 + i) % (P - 1) + 1);
        bfs_relative(c, 3, order);
        for (int i = 0; i < P - 1; i++)
            CU_ASSERT_EQUAL(order[i], ((start - 2 - i) % (P - 1) + (P - 1)) % (P - 1) + 1);
        int both;
        uint64_t leaves = leaves_in_both(c, 2, &both);
        CU_ASSERT_EQUAL(both, 0);
        CU_ASSERT_EQUAL(leaves,
                        P % 2 == 0 ? UINT64_C(1) << ((P / 2 - 1 + start - 1) % (P - 1) + 1) : 0);
        steady_collective_destroy(c);
    }
}

/* ---- TwoTreeS --------------------------------------------------------------- */

/* In-order traversal of tree t below relative rank x (left child: the
 * smaller relative rank), appended to out. */
static void inorder_walk(const steady_collective_t *c, int t, int x, int *out, int *n)
{
    int P = steady_collective_ranks(c), root = steady_collective_root(c);
    const int *kids;
    int k = steady_collective_children(c, t, (x + root) % P, &kids), left = -1, right = -1;
    for (int i = 0; i < k; i++) {
        int y = (kids[i] - root + P) % P;
        if (y < x)
            left = y;
        else
            right = y;
    }
    if (left >= 0)
        inorder_walk(c, t, left, out, n);
    out[(*n)++] = x;
    if (right >= 0)
        inorder_walk(c, t, right, out, n);
}

/* T1 is the in-order tree on 1..n = P-1 whose leaves are the odd ranks and
 * whose top is the largest power of two <= n; T2 is its mirror (even n) or
 * its shift by one (odd n); the colouring is valid (in-edges of a rank
 * differ, out-edges of a rank differ) and children are listed with the
 * other colour first; no rank is interior in both trees and, for even P,
 * relative rank 1 alone is a leaf in both. */
static void test_twotrees_trees(void)
{
    for (int P = 2; P <= 64; P++)
        for (int root = 0; root < P; root += (P + 2) / 3) {
            steady_collective_t *c =
                coll_ok(STEADY_ALGO_TWOTREES, STEADY_COLL_BROADCAST, P, root, 2);
            CU_ASSERT_PTR_NOT_NULL_FATAL(c);
            int n = P - 1;
            CU_ASSERT_EQUAL(tree_faults(c, 0, 2), 0);
            CU_ASSERT_EQUAL(tree_faults(c, 1, 2), 0);
            const int *kids;
            CU_ASSERT_EQUAL(steady_collective_children(c, 0, root, &kids), 1);
            int top = 1;
            while (2 * top <= n)
                top *= 2;
            CU_ASSERT_EQUAL((kids[0] - root + P) % P, top);
            int walk[64], nw = 0;
            inorder_walk(c, 0, top, walk, &nw);
            CU_ASSERT_EQUAL(nw, n);
            for (int i = 0; i < nw; i++)
                CU_ASSERT_EQUAL(walk[i], i + 1);
            for (int x = 1; x <= n; x++) {
                int r = (x + root) % P;
                CU_ASSERT_EQUAL(interior(c, 0, r), x % 2 == 0);
                /* T2 = sigma(T1) */
                int sx = n % 2 == 0 ? n + 1 - x : x % n + 1;
                int up = (steady_collective_parent(c, 0, r) - root + P) % P;
                int sup = up == 0 ? 0 : n % 2 == 0 ? n + 1 - up : up % n + 1;
                CU_ASSERT_EQUAL(steady_collective_parent(c, 1, (sx + root) % P), (sup + root) % P);
            }
            CU_ASSERT_EQUAL(colouring_faults(c, P, root, true), 0);
            int both;
            uint64_t leaves = leaves_in_both(c, 0, &both);
            CU_ASSERT_EQUAL(both, 0);
            CU_ASSERT_EQUAL(leaves, P % 2 == 0 ? UINT64_C(1) << 1 : 0);
            steady_collective_destroy(c);
        }
}

/* The classic trees' shapes, in relative ranks. */
static void test_classic_trees(void)
{
    for (int P = 1; P <= 64; P++) {
        int root = P / 3;
        steady_collective_t *b = coll_ok(STEADY_ALGO_BINOMIAL, STEADY_COLL_REDUCE, P, root, 1);
        steady_collective_t *h = coll_ok(STEADY_ALGO_BINARY, STEADY_COLL_REDUCE, P, root, 1);
        steady_collective_t *ch = coll_ok(STEADY_ALGO_CHAIN, STEADY_COLL_REDUCE, P, root, 1);
        steady_collective_t *f = coll_ok(STEADY_ALGO_FLAT, STEADY_COLL_REDUCE, P, root, 1);
        CU_ASSERT_FATAL(b && h && ch && f);
        CU_ASSERT_EQUAL(tree_faults(b, 0, 6), 0);
        CU_ASSERT_EQUAL(tree_faults(h, 0, 2), 0);
        CU_ASSERT_EQUAL(tree_faults(ch, 0, 1), 0);
        CU_ASSERT_EQUAL(tree_faults(f, 0, P), 0);
        for (int x = 1; x < P; x++) {
            int r = (x + root) % P;
            CU_ASSERT_EQUAL(steady_collective_parent(b, 0, r), (x - (x & -x) + root) % P);
            CU_ASSERT_EQUAL(steady_collective_parent(h, 0, r), ((x - 1) / 2 + root) % P);
            CU_ASSERT_EQUAL(steady_collective_parent(ch, 0, r), (x - 1 + root) % P);
            CU_ASSERT_EQUAL(steady_collective_parent(f, 0, r), root);
        }
        /* binomial: the farthest child first */
        const int *kids;
        int k = steady_collective_children(b, 0, root, &kids);
        for (int i = 1; i < k; i++)
            CU_ASSERT((kids[i - 1] - root + P) % P > (kids[i] - root + P) % P);
        /* with root 0 the binomial tree, chain and flat tree keep rank order;
         * the heap does not once a subtree skips a rank (P >= 4) */
        steady_collective_destroy(b);
        steady_collective_destroy(h);
        b = coll_ok(STEADY_ALGO_BINOMIAL, STEADY_COLL_REDUCE, P, 0, 1);
        h = coll_ok(STEADY_ALGO_BINARY, STEADY_COLL_REDUCE, P, 0, 1);
        CU_ASSERT(steady_collective_order_preserving(b));
        CU_ASSERT_EQUAL(steady_collective_order_preserving(h), P <= 3);
        CU_ASSERT(steady_collective_order_preserving(f)); /* any root */
        steady_collective_destroy(b);
        steady_collective_destroy(h);
        steady_collective_destroy(ch);
        steady_collective_destroy(f);
    }
}

/* ---- action lists --------------------------------------------------------- */

/* What a rank holds of one chunk: the set of ranks combined into it, the
 * interval it covers while combines keep rank order, and whether they did. */
typedef struct {
    uint64_t set;
    int lo, hi;
    bool ordered;
} part_t;

/* Executes every rank's actions with blocking rendezvous semantics: a SEND
 * completes when its receiver is at the matching RECV.  Checks each
 * transfer and combine; returns the number of faults. */
static int run_actions(const steady_collective_t *c, bool *ordered_out)
{
    int P = steady_collective_ranks(c), C = steady_collective_chunks(c), faults = 0;
    int root = steady_collective_root(c);
    steady_collop_t op = steady_collective_op(c);
    uint64_t all = P == 64 ? ~UINT64_C(0) : (UINT64_C(1) << P) - 1;
    part_t *acc = calloc((size_t)P * C, sizeof *acc); /* reduce accumulators */
    bool *final = calloc((size_t)P * C, sizeof *final);
    part_t *inbox = calloc((size_t)P, sizeof *inbox);
    int *pc = calloc((size_t)P, sizeof *pc);
    for (int r = 0; r < P; r++)
        for (int j = 0; j < C; j++) {
            acc[r * C + j] = (part_t){UINT64_C(1) << r, r, r, true};
            final[r * C + j] = op == STEADY_COLL_BROADCAST && r == root;
        }
    bool ordered = true, progress = true;
    while (progress) {
        progress = false;
        for (int r = 0; r < P; r++) {
            const steady_action_t *a;
            int n = steady_collective_actions(c, r, &a);
            if (pc[r] == n)
                continue;
            const steady_action_t *x = &a[pc[r]];
            if (x->kind == STEADY_ACT_COMBINE) {
                part_t *m = &acc[r * C + x->chunk], in = inbox[r];
                if (m->set & in.set)
                    faults++; /* a rank combined twice */
                if (x->side == -1 && in.ordered && m->ordered && in.hi + 1 == m->lo)
                    m->lo = in.lo;
                else if (x->side == 1 && in.ordered && m->ordered && m->hi + 1 == in.lo)
                    m->hi = in.hi;
                else
                    m->ordered = ordered = false;
                m->set |= in.set;
                if (x->phase != STEADY_PHASE_REDUCE)
                    faults++;
                /* the root's reduction of this chunk is complete: it is the result */
                if (r == root && m->set == all)
                    final[r * C + x->chunk] = true;
                pc[r]++;
                progress = true;
                continue;
            }
            if (x->kind != STEADY_ACT_SEND)
                continue; /* a RECV waits for its sender */
            const steady_action_t *b;
            int nb = steady_collective_actions(c, x->peer, &b);
            if (pc[x->peer] == nb)
                continue;
            const steady_action_t *y = &b[pc[x->peer]];
            if (y->kind != STEADY_ACT_RECV || y->peer != r || y->phase != x->phase ||
                y->chunk != x->chunk || y->tree != x->tree)
                continue;
            if (x->phase == STEADY_PHASE_REDUCE) {
                inbox[x->peer] = acc[r * C + x->chunk];
            } else {
                if (!final[r * C + x->chunk])
                    faults++; /* forwards what it does not have */
                final[x->peer * C + x->chunk] = true;
            }
            pc[r]++;
            pc[x->peer]++;
            progress = true;
        }
        /* a reduce with a single rank, or a chunk the root reduced alone */
        if (op != STEADY_COLL_BROADCAST && P == 1)
            for (int j = 0; j < C; j++)
                final[j] = true;
    }
    for (int r = 0; r < P; r++) {
        int n = steady_collective_actions(c, r, NULL);
        if (pc[r] != n && !faults++)
            fprintf(stderr, "\n    %s %s P=%d root=%d C=%d: rank %d stuck at action %d of %d\n",
                    steady_algo_name(steady_collective_algo(c)), steady_collop_name(op), P, root, C,
                    r, pc[r], n);
        for (int j = 0; j < C; j++) {
            bool want = op == STEADY_COLL_REDUCE ? r != root || acc[r * C + j].set == all
                                                 : final[r * C + j];
            if (!want && !faults++)
                fprintf(stderr, "\n    %s %s P=%d root=%d C=%d: rank %d lacks chunk %d\n",
                        steady_algo_name(steady_collective_algo(c)), steady_collop_name(op), P,
                        root, C, r, j);
        }
    }
    if (op != STEADY_COLL_BROADCAST)
        for (int j = 0; j < C; j++) {
            const part_t *m = &acc[root * C + j];
            if (m->ordered && (m->lo != 0 || m->hi != P - 1))
                ordered = false;
        }
    *ordered_out = ordered;
    free(acc);
    free(final);
    free(inbox);
    free(pc);
    return faults;
}

static void test_actions(void)
{
    static const int sizes[] = {1, 2, 3, 4, 5, 7, 8, 13, 16, 17, 31, 64};
    for (int a = 0; a < STEADY_ALGO_COUNT; a++)
        for (int op = 0; op < 3; op++) {
            if (!steady_algo_supports((steady_algo_t)a, (steady_collop_t)op))
                continue;
            for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
                int P = sizes[s];
                for (int root = 0; root < P; root += (P + 1) / 2)
                    for (int C = 1; C <= 5; C += 2) {
                        steady_collective_t *c =
                            coll_ok((steady_algo_t)a, (steady_collop_t)op, P, root, C);
                        CU_ASSERT_PTR_NOT_NULL_FATAL(c);
                        bool ordered;
                        CU_ASSERT_EQUAL(run_actions(c, &ordered), 0);
                        /* the claim and the execution agree */
                        if (op != STEADY_COLL_BROADCAST && P > 1 &&
                            ordered != steady_collective_order_preserving(c)) {
                            fprintf(stderr, "\n    %s %s P=%d root=%d C=%d: ran %s, claims %s\n",
                                    steady_algo_name((steady_algo_t)a),
                                    steady_collop_name((steady_collop_t)op), P, root, C,
                                    ordered ? "in order" : "out of order",
                                    ordered ? "otherwise" : "in order");
                            CU_FAIL("order preservation claimed wrongly");
                        }
                        steady_collective_destroy(c);
                    }
            }
        }
}

static void test_collective_errors(void)
{
    steady_collective_t *c = NULL;
    steady_error_t err = {0};
    CU_ASSERT_EQUAL(
        steady_collective_create(STEADY_ALGO_TWOTREEC_C, STEADY_COLL_BROADCAST, 4, 0, 1, &c, &err),
        STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "twotreec+c is an allreduce algorithm, not a broadcast");
    CU_ASSERT_EQUAL(
        steady_collective_create(STEADY_ALGO_CHAIN, STEADY_COLL_REDUCE, 4, 4, 1, &c, &err),
        STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "root rank 4 out of range 0..3");
    CU_ASSERT_EQUAL(
        steady_collective_create(STEADY_ALGO_CHAIN, STEADY_COLL_REDUCE, 0, 0, 1, &c, &err),
        STEADY_EINVAL);
    CU_ASSERT_EQUAL(
        steady_collective_create(STEADY_ALGO_CHAIN, STEADY_COLL_REDUCE, 4, 0, 0, &c, &err),
        STEADY_EINVAL);
    CU_ASSERT_PTR_NULL(c);
    CU_ASSERT_EQUAL(steady_algo_from_name("twotreec+s"), STEADY_ALGO_TWOTREEC_S);
    CU_ASSERT_EQUAL(steady_algo_from_name("ring"), -1);
    CU_ASSERT_EQUAL(steady_collop_from_name("allreduce"), STEADY_COLL_ALLREDUCE);
    CU_ASSERT_STRING_EQUAL(steady_collop_name(STEADY_COLL_REDUCE), "reduce");
}

/* ---- the model ---------------------------------------------------------------- */

/* P processors (speed `speed`), every ordered pair linked: abstract cost
 * `cost` when bw is 0, otherwise bandwidth bw and overhead ovh. */
static steady_platform_t *complete(int P, double cost, double bw, double ovh, double speed)
{
    steady_platform_t *p = NULL;
    CU_ASSERT_EQUAL_FATAL(steady_platform_create(&p, NULL), STEADY_OK);
    for (int i = 0; i < P; i++) {
        char name[16];
        snprintf(name, sizeof name, "P%d", i);
        CU_ASSERT_EQUAL(steady_platform_add_node(p, name, STEADY_PROCESSOR, speed, NULL, NULL),
                        STEADY_OK);
    }
    for (int i = 0; i < P; i++)
        for (int j = 0; j < P; j++)
            if (i != j) {
                steady_edge_t e = {.src = i, .dst = j, .latency = 1e-6};
                if (bw > 0) {
                    e.bandwidth = bw;
                    e.overhead = ovh;
                } else {
                    e.cost = cost;
                }
                CU_ASSERT_EQUAL(steady_platform_add_edge(p, &e, NULL, NULL), STEADY_OK);
            }
    return p;
}

static steady_routes_t *routes_ok(const steady_platform_t *p, double msg)
{
    steady_routes_t *r = NULL;
    steady_error_t err = {0};
    CU_ASSERT_EQUAL(steady_routes_create(p, msg, &r, &err), STEADY_OK);
    return r;
}

/* The model's throughput of algo for op with the options. */
static double model_tp(const steady_routes_t *r, steady_algo_t algo, steady_collop_t op, int root,
                       steady_model_options_t o, steady_model_t *m)
{
    steady_model_t local;
    if (!m)
        m = &local;
    steady_error_t err = {0};
    steady_err_t rc = steady_model_evaluate(r, algo, op, root, &o, m, &err);
    if (rc)
        fprintf(stderr, "\n    model %s: %s\n", steady_algo_name(algo), err.msg);
    CU_ASSERT_EQUAL(rc, STEADY_OK);
    return m->throughput;
}

#define ASSERT_CLOSE(x, y) CU_ASSERT_DOUBLE_EQUAL((x), (y), 1e-9 * fabs((double)(y)))

/* Five unit-cost processors, all pairs linked (c = 1 per message).  With C
 * chunks every chunk costs 1/C on a hop.  Broadcast: the chain sends each
 * chunk once per rank, TP = 1/c = 1; the binary tree's interior ranks send
 * twice, 1/(2c); the binomial root sends to ranks 4, 2, 1, 1/(3c); the flat
 * root to 4 ranks, 1/(4c).  Two trees: the root sends each chunk once, and
 * a rank interior in one tree sends its C/2 chunks twice, TP = 1/c: full
 * bandwidth; with C = 3, T1 carries 2 chunks, sent twice at 1/3: TP = 3/4. */
static void test_model_homogeneous_broadcast(void)
{
    steady_platform_t *p = complete(5, 1, 0, 0, 1);
    steady_routes_t *r = routes_ok(p, 0);
    steady_model_options_t o = {.chunks = 2, .cost_model = STEADY_COST_EAGER};
    steady_model_t m;
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_CHAIN, STEADY_COLL_BROADCAST, 0, o, &m), 1);
    CU_ASSERT_EQUAL(m.chunks, 2);
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_BINARY, STEADY_COLL_BROADCAST, 0, o, &m), 0.5);
    CU_ASSERT_EQUAL(m.bottleneck_resource, STEADY_RES_SEND);
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_BINOMIAL, STEADY_COLL_BROADCAST, 0, o, NULL), 1.0 / 3);
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_FLAT, STEADY_COLL_BROADCAST, 0, o, &m), 0.25);
    CU_ASSERT_EQUAL(m.bottleneck, 0);
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_TWOTREEC, STEADY_COLL_BROADCAST, 0, o, NULL), 1);
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_TWOTREES, STEADY_COLL_BROADCAST, 0, o, NULL), 1);
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_TWOTREEC, STEADY_COLL_BROADCAST, 3, o, NULL), 1);
    o.chunks = 3;
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_TWOTREEC, STEADY_COLL_BROADCAST, 0, o, NULL), 0.75);
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_TWOTREES, STEADY_COLL_BROADCAST, 0, o, NULL), 0.75);
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_CHAIN, STEADY_COLL_BROADCAST, 0, o, NULL), 1);
    /* without overhead the throughput does not depend on C (for even C with
     * two trees); auto then takes the count with the shortest single
     * operation: the cap for the pipelines, whose simulated time is
     * (4 + 15) / 16 hops for the chain, 1 for the binomial tree (no gain) */
    o.chunks = 0;
    o.max_chunks = 16;
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_CHAIN, STEADY_COLL_BROADCAST, 0, o, &m), 1);
    CU_ASSERT_EQUAL(m.chunks, 16);
    ASSERT_CLOSE(m.makespan, 19.0 / 16 + 4e-6);
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_TWOTREES, STEADY_COLL_BROADCAST, 0, o, &m), 1);
    CU_ASSERT_EQUAL(m.chunks % 2, 0);
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_BINOMIAL, STEADY_COLL_BROADCAST, 0, o, &m), 1.0 / 3);
    CU_ASSERT_EQUAL(m.chunks, 1);
    /* single operations with one chunk, latency 1e-6 per hop: the chain
     * crosses 4 hops one after the other; the binomial root serves 4, 2, 1
     * at times 0, 1, 2 and rank 2 serves 3 at 2: the last arrives at 3 +
     * two latencies; the flat root sends 4 messages in turn */
    o.chunks = 1;
    model_tp(r, STEADY_ALGO_CHAIN, STEADY_COLL_BROADCAST, 0, o, &m);
    ASSERT_CLOSE(m.makespan, 4 * (1 + 1e-6));
    model_tp(r, STEADY_ALGO_BINOMIAL, STEADY_COLL_BROADCAST, 0, o, &m);
    ASSERT_CLOSE(m.makespan, 3 + 2e-6);
    model_tp(r, STEADY_ALGO_FLAT, STEADY_COLL_BROADCAST, 0, o, &m);
    ASSERT_CLOSE(m.makespan, 4 + 1e-6);
    /* rendezvous: a chunk holds its ports through the latency, c = 1/C +
     * 1e-6 per hop: the chain with 2 chunks 1/(1 + 2e-6), and a single
     * operation of one chunk as before (the latencies now in the ports) */
    o.cost_model = STEADY_COST_RENDEZVOUS;
    o.chunks = 2;
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_CHAIN, STEADY_COLL_BROADCAST, 0, o, NULL), 1 / (1 + 2e-6));
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_FLAT, STEADY_COLL_BROADCAST, 0, o, NULL),
                 1 / (4 * (1 + 2e-6)));
    o.chunks = 1;
    model_tp(r, STEADY_ALGO_CHAIN, STEADY_COLL_BROADCAST, 0, o, &m);
    ASSERT_CLOSE(m.makespan, 4 * (1 + 1e-6));
    model_tp(r, STEADY_ALGO_FLAT, STEADY_COLL_BROADCAST, 0, o, &m);
    ASSERT_CLOSE(m.makespan, 4 * (1 + 1e-6));
    steady_routes_destroy(r);
    steady_platform_destroy(p);
}

/* Reduce and allreduce on the same platform with task cost 2 (speed 1): a
 * combine of two chunks costs 2/C.  Reduce: the chain combines once per
 * chunk, cpu 2 per operation, TP = 1/2; the binary tree twice, 1/4; the
 * flat root 4 times, 1/8; the binomial root 3 times, 1/6; TwoTreeC's
 * interior ranks combine twice per chunk of their tree (C/2 chunks) and the
 * root once per chunk: 1/2.  Allreduce with task cost 1: every non-root
 * rank of the chain and of TwoTreeC sends each message twice (up, down):
 * 1/2; binary interior ranks receive 2 + 1: 1/3; the flat root 4 + 4 on
 * different ports and 4 combines: 1/4. */
static void test_model_homogeneous_reduce(void)
{
    steady_platform_t *p = complete(5, 1, 0, 0, 1);
    steady_routes_t *r = routes_ok(p, 0);
    steady_model_options_t o = {.chunks = 2, .task_cost = 2, .cost_model = STEADY_COST_EAGER};
    steady_model_t m;
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_CHAIN, STEADY_COLL_REDUCE, 0, o, &m), 0.5);
    CU_ASSERT_EQUAL(m.bottleneck_resource, STEADY_RES_CPU);
    CU_ASSERT(m.order_preserving);
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_BINARY, STEADY_COLL_REDUCE, 0, o, &m), 0.25);
    CU_ASSERT(!m.order_preserving);
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_FLAT, STEADY_COLL_REDUCE, 0, o, NULL), 0.125);
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_BINOMIAL, STEADY_COLL_REDUCE, 0, o, NULL), 1.0 / 6);
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_TWOTREEC, STEADY_COLL_REDUCE, 0, o, &m), 0.5);
    CU_ASSERT(!m.order_preserving);
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_TWOTREES, STEADY_COLL_REDUCE, 0, o, NULL), 0.5);
    o.task_cost = 1;
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_CHAIN, STEADY_COLL_ALLREDUCE, 0, o, NULL), 0.5);
    for (int a = STEADY_ALGO_TWOTREEC; a <= STEADY_ALGO_TWOTREES; a++)
        ASSERT_CLOSE(model_tp(r, (steady_algo_t)a, STEADY_COLL_ALLREDUCE, 0, o, NULL), 0.5);
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_BINARY, STEADY_COLL_ALLREDUCE, 0, o, NULL), 1.0 / 3);
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_FLAT, STEADY_COLL_ALLREDUCE, 0, o, NULL), 0.25);
    steady_routes_destroy(r);
    steady_platform_destroy(p);
}

/* Eight processors with bandwidth 1e8 B/s and overhead 1e-4 s per message,
 * 1e6-byte messages in C = 4 chunks: a chunk occupies a port for
 * c = 1e-4 + 2.5e5/1e8 = 2.6e-3 s.  Chain: 4 chunks per rank, TP =
 * 1/(4c) = 1/(s/bw + C o); two trees: the same, full bandwidth; binary
 * tree: 1/(8c); binomial root: 3 children, 1/(12c); flat: 1/(28c).  With
 * C = 1 the overhead is paid once: the chain reaches 1/(s/bw + o). */
static void test_model_overhead(void)
{
    steady_platform_t *p = complete(8, 0, 1e8, 1e-4, 1e9);
    steady_routes_t *r = routes_ok(p, 1e6);
    steady_model_options_t o = {.msg_size = 1e6, .chunks = 4, .cost_model = STEADY_COST_EAGER};
    double c = 1e-4 + 2.5e5 / 1e8;
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_CHAIN, STEADY_COLL_BROADCAST, 0, o, NULL), 1 / (4 * c));
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_TWOTREEC, STEADY_COLL_BROADCAST, 0, o, NULL), 1 / (4 * c));
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_TWOTREES, STEADY_COLL_BROADCAST, 0, o, NULL), 1 / (4 * c));
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_BINARY, STEADY_COLL_BROADCAST, 0, o, NULL), 1 / (8 * c));
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_BINOMIAL, STEADY_COLL_BROADCAST, 0, o, NULL),
                 1 / (12 * c));
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_FLAT, STEADY_COLL_BROADCAST, 0, o, NULL), 1 / (28 * c));
    o.chunks = 1;
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_CHAIN, STEADY_COLL_BROADCAST, 0, o, NULL),
                 1 / (1e-4 + 1e6 / 1e8));
    /* auto: every chunk pays the overhead, so a series is fastest with the
     * fewest chunks: 1, and 2 for two trees (at least one per tree) */
    steady_model_t m;
    o.chunks = 0;
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_CHAIN, STEADY_COLL_BROADCAST, 0, o, &m),
                 1 / (1e-4 + 1e6 / 1e8));
    CU_ASSERT_EQUAL(m.chunks, 1);
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_TWOTREEC, STEADY_COLL_BROADCAST, 0, o, &m),
                 1 / (2 * (1e-4 + 5e5 / 1e8)));
    CU_ASSERT_EQUAL(m.chunks, 2);
    /* rendezvous: the latency (1e-6 s) is paid per chunk like the overhead */
    o.cost_model = STEADY_COST_RENDEZVOUS;
    o.chunks = 4;
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_CHAIN, STEADY_COLL_BROADCAST, 0, o, NULL),
                 1 / (4 * (c + 1e-6)));
    o.chunks = 0;
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_CHAIN, STEADY_COLL_BROADCAST, 0, o, &m),
                 1 / (1e-4 + 1e-6 + 1e6 / 1e8));
    CU_ASSERT_EQUAL(m.chunks, 1);
    steady_routes_destroy(r);
    steady_platform_destroy(p);
}

/* A switch between the processors (steady gen --kind cluster): every
 * message crosses the switch, whose ports carry every tree edge: P-1
 * messages per operation, for every algorithm, and the LP can do no
 * better (the switch must send the message to P-1 processors): every
 * ratio is 1 (eager, in 2 chunks: 5 s / bandwidth per operation).  Under
 * rendezvous each chunk also holds the switch's port (a one-port router)
 * for its edge's latency L: with one chunk 5 (s / bandwidth + L), a ratio
 * of (s / bandwidth) / (s / bandwidth + L) against the LP, which a
 * schedule approaches by sending a period's messages of a hop as one MPI
 * message, paying L once (docs/comparison.md). */
static void test_model_switch(void)
{
    steady_platform_t *p = NULL;
    CU_ASSERT_EQUAL_FATAL(steady_platform_generate(STEADY_GEN_CLUSTER, 6, 1, &p, NULL), 0);
    const steady_edge_t *e = steady_platform_edge(p, 0);
    CU_ASSERT_FATAL(e->latency > 0);
    for (int rv = 0; rv < 2; rv++) {
        steady_model_options_t o = {
            .chunks = rv ? 1 : 2, .cost_model = rv ? STEADY_COST_RENDEZVOUS : STEADY_COST_EAGER};
        steady_comparison_t cmp;
        steady_error_t err = {0};
        CU_ASSERT_EQUAL_FATAL(
            steady_compare_run(p, STEADY_COLL_BROADCAST, 0, &o, NULL, &cmp, &err), STEADY_OK);
        CU_ASSERT_EQUAL(cmp.nalgos, 6);
        double t = 1048576.0 / e->bandwidth, busy = 5 * (t + (rv ? e->latency : 0));
        ASSERT_CLOSE(cmp.optimum, 1 / (5 * t));
        for (int i = 0; i < cmp.nalgos; i++) {
            ASSERT_CLOSE(cmp.ratio[i], 5 * t / busy);
            ASSERT_CLOSE(cmp.algos[i].busy, busy);
        }
    }
    steady_platform_destroy(p);
}

/* Routes: the shortest by cost, then the fewest hops, then the smaller id
 * of the previous node; intermediate processors forward and are charged. */
static void test_routes(void)
{
    steady_platform_t *p = parse_ok("processor A speed=1\n"
                                    "processor B speed=1\n"
                                    "processor C speed=1\n"
                                    "processor D speed=1\n"
                                    "edge A B cost=1\n"
                                    "edge B D cost=1\n"
                                    "edge A C cost=1\n"
                                    "edge C D cost=1\n"
                                    "edge A D cost=2\n"
                                    "edge D C cost=1\n"
                                    "edge C B cost=1\n",
                                    STEADY_FORMAT_NATIVE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    steady_routes_t *r = routes_ok(p, 0);
    int path[4];
    int A = 0, B = 1, C = 2, D = 3;
    /* A -> D: direct (cost 2, 1 hop) beats A B D and A C D (cost 2, 2 hops) */
    CU_ASSERT_EQUAL(steady_routes_path(r, A, D, path), 1);
    CU_ASSERT_EQUAL(path[0], steady_platform_find_edge(p, A, D));
    /* D -> B: only D C B */
    CU_ASSERT_EQUAL(steady_routes_path(r, D, B, path), 2);
    CU_ASSERT_EQUAL(path[0], steady_platform_find_edge(p, D, C));
    CU_ASSERT_EQUAL(path[1], steady_platform_find_edge(p, C, B));
    /* B -> A: unreachable */
    CU_ASSERT_EQUAL(steady_routes_path(r, B, A, path), -1);
    CU_ASSERT_EQUAL(steady_routes_path(r, C, C, path), 0);
    steady_routes_destroy(r);
    steady_platform_destroy(p);

    /* equal cost and hops: A B D and A C D; the last hop from B (id 1) wins */
    p = parse_ok("processor A speed=1\nprocessor B speed=1\nprocessor C speed=1\n"
                 "processor D speed=1\nedge A B cost=1\nedge B D cost=1\nedge A C cost=1\n"
                 "edge C D cost=1\n",
                 STEADY_FORMAT_NATIVE);
    r = routes_ok(p, 0);
    CU_ASSERT_EQUAL(steady_routes_path(r, A, D, path), 2);
    CU_ASSERT_EQUAL(path[1], steady_platform_find_edge(p, B, D));
    steady_routes_destroy(r);
    steady_platform_destroy(p);

    /* a line A - B - C: the flat tree's message to C crosses B, which
     * receives both messages (2c) and forwards one; A sends 2: TP 1/2 */
    p = parse_ok("processor A speed=1\nprocessor B speed=1\nprocessor C speed=1\n"
                 "link A B cost=1\nlink B C cost=1\n",
                 STEADY_FORMAT_NATIVE);
    r = routes_ok(p, 0);
    steady_model_options_t o = {.chunks = 1};
    steady_model_t m;
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_FLAT, STEADY_COLL_BROADCAST, A, o, &m), 0.5);
    CU_ASSERT_EQUAL(m.bottleneck, A);
    CU_ASSERT_EQUAL(m.bottleneck_resource, STEADY_RES_SEND);
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_CHAIN, STEADY_COLL_BROADCAST, A, o, NULL), 1);
    /* rooted at C, the chain is C -> A -> B: C's message to A crosses B */
    ASSERT_CLOSE(model_tp(r, STEADY_ALGO_CHAIN, STEADY_COLL_BROADCAST, C, o, &m), 0.5);
    CU_ASSERT_EQUAL(m.bottleneck, B);
    steady_routes_destroy(r);
    steady_platform_destroy(p);
}

static void test_model_errors(void)
{
    steady_platform_t *p = parse_ok("processor A speed=1\nprocessor B speed=1\n"
                                    "processor C speed=1\nrouter R\n"
                                    "edge A R cost=1\nedge R B cost=1\nedge B A cost=1\n"
                                    "edge C A cost=1\nedge A C cost=1\n",
                                    STEADY_FORMAT_NATIVE);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    steady_routes_t *r = routes_ok(p, 0);
    steady_model_t m;
    steady_error_t err = {0};
    steady_model_options_t o = {0};
    CU_ASSERT_EQUAL(
        steady_model_evaluate(r, STEADY_ALGO_CHAIN, STEADY_COLL_BROADCAST, 3, &o, &m, &err),
        STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "root: R is a router, and routers only forward");
    /* the chain rooted at B needs C -> ... no: B -> C -> A; B reaches C via A */
    CU_ASSERT_EQUAL(
        steady_model_evaluate(r, STEADY_ALGO_CHAIN, STEADY_COLL_BROADCAST, 1, &o, &m, &err),
        STEADY_OK);
    /* the reduce to A from the chain A <- B <- C needs C -> B: C A R B */
    CU_ASSERT_EQUAL(
        steady_model_evaluate(r, STEADY_ALGO_CHAIN, STEADY_COLL_REDUCE, 0, &o, &m, &err),
        STEADY_OK);
    steady_routes_destroy(r);
    steady_platform_destroy(p);

    p = parse_ok("processor A speed=1\nprocessor B speed=1\nprocessor C speed=1\n"
                 "edge A B cost=1\nedge B A cost=1\nedge C A cost=1\n",
                 STEADY_FORMAT_NATIVE);
    r = routes_ok(p, 0);
    CU_ASSERT_EQUAL(
        steady_model_evaluate(r, STEADY_ALGO_FLAT, STEADY_COLL_BROADCAST, 0, &o, &m, &err),
        STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(
        err.msg, "A cannot reach C along the platform's edges: the throughput would be 0");
    CU_ASSERT_EQUAL(steady_model_evaluate(r, STEADY_ALGO_FLAT, STEADY_COLL_REDUCE, 0, &o, &m, &err),
                    STEADY_OK);
    o.chunks = -1;
    CU_ASSERT_EQUAL(steady_model_evaluate(r, STEADY_ALGO_FLAT, STEADY_COLL_REDUCE, 0, &o, &m, &err),
                    STEADY_EINVAL);
    steady_routes_destroy(r);
    steady_platform_destroy(p);

    /* a single rank: nothing to move, infinite throughput */
    p = parse_ok("processor A speed=1\n", STEADY_FORMAT_NATIVE);
    r = routes_ok(p, 0);
    o.chunks = 0;
    CU_ASSERT_EQUAL(
        steady_model_evaluate(r, STEADY_ALGO_TWOTREEC_C, STEADY_COLL_ALLREDUCE, 0, &o, &m, &err),
        STEADY_OK);
    CU_ASSERT(isinf(m.throughput) && m.bottleneck == -1 && m.chunks == 1 && m.makespan == 0);
    steady_routes_destroy(r);
    steady_platform_destroy(p);
}

/* ---- against the LP ----------------------------------------------------------- */

/* Every algorithm stays below what the LPs allow: the optimum itself when
 * the algorithm keeps the rank order (or for a broadcast), the commutative
 * bound otherwise; and the non-commutative reduce optimum is below the
 * commutative bound.  Returns the number of violations. */
static int above_lp(const steady_platform_t *p, steady_collop_t op, int root, int chunks)
{
    steady_comparison_t cmp;
    steady_error_t err = {0};
    steady_model_options_t o = {.chunks = chunks};
    steady_err_t rc = steady_compare_run(p, op, root, &o, NULL, &cmp, &err);
    if (rc)
        fprintf(stderr, "\n    %s on %s: %s\n", steady_collop_name(op), steady_platform_name(p),
                err.msg);
    CU_ASSERT_EQUAL_FATAL(rc, STEADY_OK);
    int bad = 0;
    const double tol = 1 + 1e-9;
    double comm = op == STEADY_COLL_REDUCE      ? cmp.commutative_bound
                  : op == STEADY_COLL_ALLREDUCE ? fmin(cmp.commutative_bound, cmp.broadcast_optimum)
                                                : cmp.optimum;
    if (op != STEADY_COLL_BROADCAST && cmp.reduce_optimum > cmp.commutative_bound * tol) {
        bad++;
        fprintf(stderr, "\n    %s: SSR %.17g above the commutative bound %.17g\n",
                steady_platform_name(p), cmp.reduce_optimum, cmp.commutative_bound);
    }
    for (int i = 0; i < cmp.nalgos; i++) {
        const steady_model_t *m = &cmp.algos[i];
        double limit = op == STEADY_COLL_BROADCAST || m->order_preserving ? cmp.optimum : comm;
        if (!(m->throughput > 0) || m->throughput > limit * tol) {
            bad++;
            fprintf(stderr, "\n    %s %s on %s (C=%d): %.17g above %.17g\n",
                    steady_algo_name(m->algo), steady_collop_name(op), steady_platform_name(p),
                    m->chunks, m->throughput, limit);
        }
    }
    return bad;
}

static steady_platform_t *read_platform(const char *path)
{
    steady_platform_t *p = NULL;
    steady_error_t err = {0};
    if (steady_platform_read(path, STEADY_FORMAT_AUTO, &p, NULL, &err))
        fprintf(stderr, "\n    cannot read %s: %s\n", path, err.msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    return p;
}

static void test_below_lp_examples(void)
{
    static const char *const files[] = {
        "examples/platforms/paper-reduce.plat", "examples/platforms/homogeneous-complete.plat",
        "examples/platforms/two-cluster-grid.plat", "examples/platforms/tiers.plat"};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        steady_platform_t *p = read_platform(files[f]);
        int last = steady_platform_node_count(p) - 1;
        while (steady_platform_node(p, last)->kind != STEADY_PROCESSOR)
            last--;
        for (int op = 0; op < 3; op++) {
            CU_ASSERT_EQUAL(above_lp(p, (steady_collop_t)op, 0, 0), 0);
            CU_ASSERT_EQUAL(above_lp(p, (steady_collop_t)op, last, 2), 0);
        }
        steady_platform_destroy(p);
    }
}

static void test_below_lp_random(void)
{
    for (uint64_t seed = 1; seed <= 4; seed++) {
        steady_platform_t *p = NULL;
        CU_ASSERT_EQUAL_FATAL(steady_platform_generate(STEADY_GEN_RANDOM, 6, seed, &p, NULL), 0);
        for (int op = 0; op < 3; op++)
            CU_ASSERT_EQUAL(above_lp(p, (steady_collop_t)op, (int)seed % 6, seed % 2 ? 0 : 3), 0);
        steady_platform_destroy(p);
        CU_ASSERT_EQUAL_FATAL(steady_platform_generate(STEADY_GEN_TIERS, 7, seed, &p, NULL), 0);
        for (int op = 0; op < 3; op++)
            CU_ASSERT_EQUAL(above_lp(p, (steady_collop_t)op, 0, 0), 0);
        steady_platform_destroy(p);
    }
}

/* The comparison's fields on the homogeneous example, and its chart. */
static void test_compare_and_chart(void)
{
    steady_platform_t *p = read_platform("examples/platforms/homogeneous-complete.plat");
    steady_comparison_t cmp;
    steady_error_t err = {0};
    CU_ASSERT_EQUAL_FATAL(steady_compare_run(p, STEADY_COLL_ALLREDUCE, 2, NULL, NULL, &cmp, &err),
                          STEADY_OK);
    CU_ASSERT_EQUAL(cmp.nalgos, 8);
    CU_ASSERT_EQUAL(cmp.ranks, 5);
    CU_ASSERT_EQUAL(cmp.root, 2);
    ASSERT_CLOSE(cmp.reduce_optimum, 1);
    ASSERT_CLOSE(cmp.broadcast_optimum, 1);
    ASSERT_CLOSE(cmp.optimum, 1);
    ASSERT_CLOSE(cmp.time_shared, 0.5);
    CU_ASSERT(cmp.optimum_is_bound && cmp.optimum_exact);
    for (int i = 0; i < cmp.nalgos; i++)
        ASSERT_CLOSE(cmp.ratio[i], cmp.algos[i].throughput);

    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_EQUAL(steady_compare_write_svg(&cmp, p, f, &err), STEADY_OK);
    fclose(f);
    xmlDocPtr doc = xmlReadMemory(buf, (int)len, "chart.svg", NULL, XML_PARSE_NONET);
    CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
    xmlNodePtr svg = xmlDocGetRootElement(doc);
    CU_ASSERT_STRING_EQUAL((const char *)svg->name, "svg");
    int bars = 0;
    for (xmlNodePtr n = svg->children; n; n = n->next)
        if (n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, "rect") == 0 &&
            n->children)
            bars++; /* a bar carries its <title> */
    CU_ASSERT_EQUAL(bars, 8);
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "LP bound 1<"));
    xmlFreeDoc(doc);
    free(buf);

    CU_ASSERT_EQUAL(steady_compare_run(p, STEADY_COLL_REDUCE, 7, NULL, NULL, &cmp, &err),
                    STEADY_EINVAL);
    steady_platform_destroy(p);
    p = parse_ok("processor A speed=1\n", STEADY_FORMAT_NATIVE);
    CU_ASSERT_EQUAL(steady_compare_run(p, STEADY_COLL_REDUCE, 0, NULL, NULL, &cmp, &err),
                    STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "a comparison needs at least 2 processors (got 1)");
    steady_platform_destroy(p);
}

void suite_compare(void)
{
    static const CU_TestInfo tests[] = {
        {"TwoTreeC trees (Algorithm 1) and edge colouring for P = 2..64", test_twotreec_trees},
        {"TwoTreeC+C trees T3, T4", test_twotreec_c_trees},
        {"TwoTreeS trees and edge colouring for P = 2..64", test_twotrees_trees},
        {"binomial, binary, chain and flat trees", test_classic_trees},
        {"action lists run without deadlock and deliver", test_actions},
        {"construction errors and names", test_collective_errors},
        {"model: homogeneous broadcast closed forms", test_model_homogeneous_broadcast},
        {"model: homogeneous reduce and allreduce closed forms", test_model_homogeneous_reduce},
        {"model: per-chunk overhead", test_model_overhead},
        {"model: every algorithm through one switch", test_model_switch},
        {"routes: tie-break and forwarding", test_routes},
        {"model errors", test_model_errors},
        {"below the LP on the example platforms", test_below_lp_examples},
        {"below the LP on random platforms", test_below_lp_random},
        {"comparison fields and SVG chart", test_compare_and_chart},
        CU_TEST_INFO_NULL};
    add_suite("compare", tests);
}
