/*
 * cuts.c — the broadcast LP by cut generation (docs/linear-programs.md,
 * "Formulations").
 *
 * SSB's per-target flows x(h, k) <= n(h) only say that under the
 * capacities n every target k receives a flow of TP from the source s.
 * By max-flow min-cut that is
 *     n(δin X) >= TP    for every set X of nodes that holds a target and not s
 * so the LP over n and TP alone, with one row per such cut, has exactly
 * the full LP's optimum (its solutions are the full LP's n).  There are
 * exponentially many cuts, and few matter: the LP starts with the cuts
 * {k} of each target, and each round solves it, then looks for cuts that
 * its n violates, adds them and solves again from the last basis (dual
 * simplex), until none is violated.
 *
 * Blocks.  Every path from s to k crosses the same chain of blocks
 * (biconnected components, common/blocks.c), entering each at its node
 * nearest s and leaving it at the next one's entry, and a flow from s to
 * k is a flow inside each of them.  So the cuts are taken block by block:
 * every target k, and every entry on the chain from k to s, is an exit of
 * the block it is entered through, and the rows say that each exit
 * receives TP from its block's entry, by the block's own arcs.  Each exit
 * starts with its cut {t} inside the block, which is the whole condition
 * in a block of two nodes (a bridge); on a tiers platform, a tree with a
 * few cycles, the rounds then only work on the few blocks with cycles
 * (tiers-1000: 7 rounds, 0.3 s, against more than 120 s over the whole
 * graph).  Blocks that no target's chain crosses get no row.
 *
 * Finding violated cuts, in each block from its entry e.  An exit that e
 * does not reach through hops with n > 0 gets the cut of the nodes that
 * reach it there (its n is 0).  For the others, most need no flow: a node
 * whose in-hops from nodes already known to get TP (the set C, grown from
 * {e}) carry TP together gets TP too (lp_certify_*: a cut X containing
 * it either contains a node of C, whose flow bounds it, or takes in every
 * one of those hops).  The rest get a maximum flow from e, nearest e
 * first: when it reaches TP the exit joins C (and may bring others in),
 * when it stays below, the sink side of its minimum cut is added.
 *
 * Exactness.  When no cut is violated in floating point, the restricted
 * LP's basis is recovered exactly and verified optimal for the restricted
 * LP (exact.c: primal and dual in rationals).  The restricted LP has fewer
 * rows than the full one, so its optimum bounds the full one's from above.
 * Its exact n then meets every cut, which is checked exactly: the
 * propagation above in rationals, and an exact maximum flow for each
 * exit it does not reach.  So n is feasible for the full LP and TP is
 * its optimum; the restricted LP's dual, zero on the cuts never
 * generated, is the dual certificate.  A cut the exact check finds
 * violated (floating-point tolerances) is added and the rounds go on.
 */
#include "internal.h"

#include "../common/array.h"
#include "../common/blocks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One block that some target's path from the source crosses, with its
 * arcs [first, first + narcs) of cuts_t's arrays and its nodes numbered
 * locally.  An exit is a node whose flow from the entry must reach TP: a
 * target of this block, or the entry of a block further on. */
typedef struct {
    int entry; /* local */
    int n, first, narcs;
    int *node;                /* the global node of each local one */
    int *in_start, *in_arc;   /* arcs (from 0, within the block) entering each node */
    int *out_start, *out_arc; /* and leaving it */
    bool *exit;
    int cuts_before, cuts_last; /* found in the rounds before (-1: none yet) */
    flow_t *flow;
} block_t;

typedef struct {
    steady_solution_t *s;
    lp_model_t *m;
    int narcs;
    int *hop, *col;   /* arcs: the hops into every node but the source, by block */
    int *tail, *head; /* their nodes, local to their block */
    int nblocks;
    block_t *blocks;
    int *xcol; /* scratch: an exit's flow column per hop */
    /* scratch for the separation, as large as the largest block */
    bool *in_c, *covered, *sink, *unreached;
    int *queue, *order;
    int tp;
    int ncuts;
} cuts_t;

/* Flows.  A round gives the first violated exit of a block a flow of its
 * own (the others get their minimum cuts) in the first round, and later
 * when the block's cuts stop shrinking (a round finds as many as the one
 * before it, or more).  Cuts alone take ~100 rounds on random-200: TP is
 * right from the first round and n wanders from one vertex of the large
 * optimal face to the next, nodes feeding each other away from the
 * source.  A flow ends that for its exit for good, but adds the block's
 * arcs as columns: a flow in every round made random-3000 take 14 rounds
 * and more than 300 s, the first round's flow alone 10 rounds and 5.7 s,
 * but left tiers-10000's blocks wandering (more than 140 rounds, 400 s);
 * with the flows of stuck blocks, random-3000 takes 11 rounds and 7 s,
 * tiers-10000 16 rounds and 11 s (docs/performance.md).  An exit that n
 * does not reach at all is the first to get one: its cut (every node
 * reaching it) is dense. */

static void cuts_free(cuts_t *c)
{
    for (int i = 0; i < c->nblocks; i++) {
        block_t *b = &c->blocks[i];
        flow_free(b->flow);
        free(b->node);
        free(b->in_start);
        free(b->in_arc);
        free(b->out_start);
        free(b->out_arc);
        free(b->exit);
    }
    free(c->blocks);
    free(c->hop);
    free(c->col);
    free(c->tail);
    free(c->head);
    free(c->xcol);
    free(c->in_c);
    free(c->covered);
    free(c->sink);
    free(c->unreached);
    free(c->queue);
    free(c->order);
}

/* The row TP - n(δin X) <= 0 of the cut X (sink[v], local to block b). */
static void add_cut(cuts_t *c, const block_t *b, const bool *sink)
{
    int row = lp_add_row(c->m, ROW_UP, 0, "cut%d", c->ncuts);
    lp_add_entry_si(c->m, row, c->tp, 1);
    const int *tail = c->tail + b->first;
    for (int v = 0; v < b->n; v++) {
        if (!sink[v])
            continue;
        for (int i = b->in_start[v]; i < b->in_start[v + 1]; i++) {
            int a = b->in_arc[i];
            if (!sink[tail[a]])
                lp_add_entry_si(c->m, row, c->col[b->first + a], -1);
        }
    }
    c->ncuts++;
}

/* Exit t's own flow, as in the full LP but inside its block: x(h, t) on
 * every hop of the block that does not enter the entry, conservation with
 * TP arriving at t, and x(h, t) <= n(h).  Then no later n violates a cut
 * of t: the rounds end after at most one flow per exit, where cuts alone
 * can take many rounds when the optimal face is large (TP is found at
 * once, n moves from one vertex of it to the next). */
static void add_exit_flow(cuts_t *c, block_t *b, int t)
{
    steady_solution_t *s = c->s;
    lp_model_t *m = c->m;
    const char *name = lp_node_name(s, b->node[t]);
    for (int a = 0; a < b->narcs; a++) {
        if (c->head[b->first + a] == b->entry)
            continue;
        int h = c->hop[b->first + a];
        c->xcol[h] = lp_add_col(m, "x(%d,%s)", h, name);
        int row = lp_add_row(m, ROW_UP, 0, "use%d_%s", h, name);
        lp_add_entry_si(m, row, c->xcol[h], 1);
        lp_add_entry_si(m, row, c->col[b->first + a], -1);
    }
    char label[STEADY_NAME_MAX + 8];
    snprintf(label, sizeof label, "x%s", name);
    for (int v = 0; v < b->n; v++)
        if (v != b->entry)
            lp_flow_row(s, m, b->node[v], c->xcol, 1, 0, v == t ? c->tp : -1, -1, label);
    for (int a = 0; a < b->narcs; a++)
        c->xcol[c->hop[b->first + a]] = -1;
}

/* Block b's local nodes and arcs: the arcs [first, first + narcs) of the
 * global ones (gtail, ghead), whose block is blk, and its exits
 * (blocks_exits()). */
static bool block_init(cuts_t *c, block_t *b, const blocks_t *bl, int blk, const int *gtail,
                       const int *ghead, const int *exit_block, int *loc)
{
    int na = b->narcs;
    b->node = malloc((size_t)(2 * na) * sizeof *b->node);
    if (!b->node)
        return false;
    /* local numbers in the platform's order, so that a platform of one
     * block is worked on as a whole */
    for (int a = 0; a < na; a++) {
        int ends[2] = {gtail[b->first + a], ghead[b->first + a]};
        for (int e = 0; e < 2; e++)
            if (loc[ends[e]] < 0) {
                loc[ends[e]] = 0;
                b->node[b->n++] = ends[e];
            }
    }
    int n = b->n;
    qsort(b->node, (size_t)n, sizeof *b->node, array_cmp_int);
    for (int v = 0; v < n; v++)
        loc[b->node[v]] = v;
    for (int a = 0; a < na; a++) {
        c->tail[b->first + a] = loc[gtail[b->first + a]];
        c->head[b->first + a] = loc[ghead[b->first + a]];
    }
    b->entry = loc[bl->entry[blk]];
    b->cuts_before = b->cuts_last = -1;
    b->in_start = calloc((size_t)n + 1, sizeof *b->in_start);
    b->out_start = calloc((size_t)n + 1, sizeof *b->out_start);
    b->in_arc = malloc((size_t)na * sizeof *b->in_arc);
    b->out_arc = malloc((size_t)na * sizeof *b->out_arc);
    b->exit = calloc((size_t)n, sizeof *b->exit);
    int *fill = malloc((size_t)(2 * n) * sizeof *fill);
    bool ok = b->in_start && b->out_start && b->in_arc && b->out_arc && b->exit && fill;
    if (ok) {
        const int *tail = c->tail + b->first, *head = c->head + b->first;
        for (int a = 0; a < na; a++) {
            b->in_start[head[a] + 1]++;
            b->out_start[tail[a] + 1]++;
        }
        for (int v = 0; v < n; v++) {
            b->in_start[v + 1] += b->in_start[v];
            b->out_start[v + 1] += b->out_start[v];
            fill[v] = b->in_start[v];
            fill[n + v] = b->out_start[v];
            b->exit[v] = exit_block[b->node[v]] == blk;
        }
        for (int a = 0; a < na; a++) {
            b->in_arc[fill[head[a]]++] = a;
            b->out_arc[fill[n + tail[a]]++] = a;
        }
        b->flow = flow_new(n, na, tail, head, false);
        ok = b->flow != NULL;
    }
    free(fill);
    for (int v = 0; v < n; v++)
        loc[b->node[v]] = -1;
    return ok;
}

/* The columns n(h), the capacity rows, the blocks that the targets' paths
 * cross (their exits: each target, and the entry of each block on its path
 * but the source's) and the cut {t} of each exit t inside its block. */
static steady_err_t build(cuts_t *c)
{
    steady_solution_t *s = c->s;
    lp_model_t *m = c->m;
    int nh = s->nhops, nv = steady_platform_node_count(s->p), src = s->sources[0];
    steady_err_t rc = STEADY_ENOMEM;
    int *gtail = malloc((size_t)(nh + 1) * sizeof *gtail);
    int *ghead = malloc((size_t)(nh + 1) * sizeof *ghead);
    int *ghop = malloc((size_t)(nh + 1) * sizeof *ghop);
    int *gcol = malloc((size_t)(nh + 1) * sizeof *gcol);
    int *hopcol = malloc((size_t)(nh + 1) * sizeof *hopcol);
    int *exit_block = malloc((size_t)nv * sizeof *exit_block);
    int *loc = malloc((size_t)nv * sizeof *loc);
    blocks_t bl = {0};
    int *which = NULL, *orig = NULL; /* a block's place in c->blocks (or -1), and back */
    c->hop = malloc((size_t)(nh + 1) * sizeof *c->hop);
    c->col = malloc((size_t)(nh + 1) * sizeof *c->col);
    c->tail = malloc((size_t)(nh + 1) * sizeof *c->tail);
    c->head = malloc((size_t)(nh + 1) * sizeof *c->head);
    c->xcol = malloc((size_t)(nh + 1) * sizeof *c->xcol);
    if (!gtail || !ghead || !ghop || !gcol || !hopcol || !exit_block || !loc || !c->hop ||
        !c->col || !c->tail || !c->head || !c->xcol)
        goto done;
    c->tp = lp_add_tagged_col(m, COL_TP, -1, -1, "TP");
    m->obj = c->tp;
    char via[512];
    int na = 0;
    for (int h = 0; h < nh; h++) {
        const steady_hop_t *hop = steady_hop_graph_hop(s->hops, h);
        hopcol[h] = c->xcol[h] = -1;
        if (hop->dst == src)
            continue;
        hopcol[h] = lp_add_tagged_col(m, COL_SEND, h, 0, "n(%s,%s%s)", lp_node_name(s, hop->src),
                                      lp_node_name(s, hop->dst),
                                      m->names ? lp_via_label(s, hop, via, sizeof via) : "");
        gtail[na] = hop->src;
        ghead[na] = hop->dst;
        ghop[na] = h;
        gcol[na++] = hopcol[h];
    }
    c->narcs = na;
    lp_capacity_rows(s, m, hopcol, 1);
    if (!blocks_find(nv, na, gtail, ghead, src, &bl))
        goto done;
    blocks_exits(&bl, nv, src, s->targets, s->ntargets, exit_block);
    /* the blocks with an exit, their arcs together (a counting sort) */
    which = malloc((size_t)(bl.nblocks + 1) * sizeof *which);
    orig = malloc((size_t)(bl.nblocks + 1) * sizeof *orig);
    c->blocks = calloc((size_t)bl.nblocks + 1, sizeof *c->blocks);
    if (!which || !orig || !c->blocks)
        goto done;
    for (int k = 0; k < bl.nblocks; k++)
        which[k] = -1;
    for (int v = 0; v < nv; v++)
        if (exit_block[v] >= 0 && which[exit_block[v]] < 0) {
            orig[c->nblocks] = exit_block[v];
            which[exit_block[v]] = c->nblocks++;
        }
    for (int a = 0; a < na; a++) {
        int blk = bl.arc_block[a];
        if (blk >= 0 && which[blk] >= 0)
            c->blocks[which[blk]].narcs++;
    }
    int first = 0;
    for (int i = 0; i < c->nblocks; i++) {
        c->blocks[i].first = first;
        first += c->blocks[i].narcs;
        c->blocks[i].narcs = 0;
    }
    int *fill = hopcol; /* its columns are in gcol now */
    for (int a = 0; a < na; a++) {
        int blk = bl.arc_block[a];
        block_t *b = blk >= 0 && which[blk] >= 0 ? &c->blocks[which[blk]] : NULL;
        int to = b ? b->first + b->narcs++ : first++;
        fill[a] = to;
        c->hop[to] = ghop[a];
        c->col[to] = gcol[a];
    }
    /* gtail and ghead in the blocks' order */
    for (int a = 0; a < na; a++) {
        c->tail[fill[a]] = gtail[a];
        c->head[fill[a]] = ghead[a];
    }
    memcpy(gtail, c->tail, (size_t)na * sizeof *gtail);
    memcpy(ghead, c->head, (size_t)na * sizeof *ghead);
    for (int v = 0; v < nv; v++)
        loc[v] = -1;
    int maxn = 1;
    for (int i = 0; i < c->nblocks; i++) {
        block_t *b = &c->blocks[i];
        if (!block_init(c, b, &bl, orig[i], gtail, ghead, exit_block, loc))
            goto done;
        if (b->n > maxn)
            maxn = b->n;
    }
    c->in_c = malloc((size_t)maxn * sizeof *c->in_c);
    c->covered = malloc((size_t)maxn * sizeof *c->covered);
    c->sink = malloc((size_t)maxn * sizeof *c->sink);
    c->unreached = malloc((size_t)maxn * sizeof *c->unreached);
    c->queue = malloc((size_t)maxn * sizeof *c->queue);
    c->order = malloc((size_t)maxn * sizeof *c->order);
    if (!c->in_c || !c->covered || !c->sink || !c->unreached || !c->queue || !c->order)
        goto done;
    /* the cut {t} of each exit t */
    for (int i = 0; i < c->nblocks; i++) {
        block_t *b = &c->blocks[i];
        memset(c->sink, 0, (size_t)b->n * sizeof *c->sink);
        for (int v = 0; v < b->n; v++)
            if (b->exit[v]) {
                c->sink[v] = true;
                add_cut(c, b, c->sink);
                c->sink[v] = false;
            }
    }
    rc = STEADY_OK;
done:
    blocks_free(&bl);
    free(which);
    free(orig);
    free(gtail);
    free(ghead);
    free(ghop);
    free(gcol);
    free(hopcol);
    free(exit_block);
    free(loc);
    return rc;
}

/* Nodes that reach v through arcs of positive capacity, inside `allowed`
 * (sink gets them; sink must be all false). */
static void ancestors(const cuts_t *c, const block_t *b, const double *capd, const mpq_t *capq,
                      const bool *allowed, int v, bool *sink)
{
    const int *tail = c->tail + b->first;
    int qh = 0, qt = 0, *queue = c->queue;
    sink[v] = true;
    queue[qt++] = v;
    while (qh < qt) {
        int w = queue[qh++];
        for (int i = b->in_start[w]; i < b->in_start[w + 1]; i++) {
            int a = b->in_arc[i], u = tail[a];
            bool pos = capq ? mpq_sgn(capq[a]) > 0 : capd[a] > 0;
            if (pos && allowed[u] && !sink[u]) {
                sink[u] = true;
                queue[qt++] = u;
            }
        }
    }
}

/* Marks covered the nodes of a cut just added. */
static void cover(const block_t *b, bool *covered, const bool *sink)
{
    for (int v = 0; v < b->n; v++)
        covered[v] = covered[v] || sink[v];
}

/* Adds the cuts of block b that its capacities cap (capd in doubles, or
 * capq exact: one is NULL; indexed by the block's arcs) violate for
 * throughput tp, or a flow for the first violated exit (see Flows above:
 * in the first round, or when stuck); *added counts them. */
static steady_err_t separate_block(cuts_t *c, block_t *b, const double *capd, const mpq_t *capq,
                                   double tpd, const mpq_t tpq, bool first, mpq_t value, int *added)
{
    int n = b->n, src = b->entry;
    const int *head = c->head + b->first;
    bool *in_c = c->in_c, *covered = c->covered, *sink = c->sink, *unreached = c->unreached;
    int *queue = c->queue;
    memset(covered, 0, (size_t)n * sizeof *covered);
    /* nodes the entry does not reach through positive capacities */
    memset(in_c, 0, (size_t)n * sizeof *in_c);
    int qh = 0, qt = 0;
    in_c[src] = true;
    queue[qt++] = src;
    while (qh < qt) {
        int u = queue[qh++];
        for (int i = b->out_start[u]; i < b->out_start[u + 1]; i++) {
            int a = b->out_arc[i], w = head[a];
            bool pos = capq ? mpq_sgn(capq[a]) > 0 : capd[a] > 0;
            if (pos && !in_c[w]) {
                in_c[w] = true;
                queue[qt++] = w;
            }
        }
    }
    for (int v = 0; v < n; v++)
        unreached[v] = !in_c[v];
    int nreached = qt, *order = c->order;
    memcpy(order, queue, (size_t)qt * sizeof *order);
    bool stuck = b->cuts_before >= 0 && b->cuts_last >= b->cuts_before;
    bool flow_left = first || stuck; /* one flow at most per round */
    int before = *added;
    for (int k = 0; k < n; k++) {
        if (!b->exit[k] || !unreached[k] || covered[k])
            continue;
        if (flow_left) {
            flow_left = false;
            add_exit_flow(c, b, k);
            (*added)++;
            continue;
        }
        memset(sink, 0, (size_t)n * sizeof *sink);
        ancestors(c, b, capd, capq, unreached, k, sink);
        add_cut(c, b, sink);
        (*added)++;
        cover(b, covered, sink);
    }
    /* the others, nearest the entry first: propagation from the entry,
     * then a flow for each exit it leaves out; an exit whose flow reaches
     * TP propagates in turn */
    lp_certify_t *cert = lp_certify_new(b->flow, capd, capq, tpd, tpq, in_c);
    if (!cert)
        return STEADY_ENOMEM;
    lp_certify_add(cert, src);
    double limit = tpd * (1 - 1e-9);
    for (int i = 0; i < nreached; i++) {
        int k = order[i];
        if (!b->exit[k] || in_c[k] || covered[k])
            continue;
        bool below;
        if (capq) {
            if (!flow_max_q(b->flow, capq, src, k, tpq, value, sink)) {
                lp_certify_free(cert);
                return STEADY_ENOMEM;
            }
            below = mpq_cmp(value, tpq) < 0;
        } else {
            below = flow_max_d(b->flow, capd, src, k, tpd, sink) < limit;
        }
        if (!below) {
            lp_certify_add(cert, k);
            continue;
        }
        if (flow_left) {
            flow_left = false;
            add_exit_flow(c, b, k);
            (*added)++;
            continue;
        }
        add_cut(c, b, sink);
        (*added)++;
        cover(b, covered, sink);
    }
    lp_certify_free(cert);
    b->cuts_before = b->cuts_last;
    b->cuts_last = *added - before;
    return STEADY_OK;
}

/* The cuts that the capacities of the arcs cap violate, in every block;
 * *added gets their number. */
static steady_err_t separate(cuts_t *c, const double *capd, const mpq_t *capq, double tpd,
                             const mpq_t tpq, bool first, int *added)
{
    mpq_t value;
    mpq_init(value);
    *added = 0;
    steady_err_t rc = STEADY_OK;
    for (int i = 0; i < c->nblocks && !rc; i++) {
        block_t *b = &c->blocks[i];
        rc = separate_block(c, b, capd ? capd + b->first : NULL, capq ? capq + b->first : NULL, tpd,
                            tpq, first, value, added);
    }
    mpq_clear(value);
    return rc;
}

/* The rounds' step (rounds.c): the cuts n lacks, from its floating-point
 * values or, in the exact round, from its exact ones. */
typedef struct {
    cuts_t *c;
    double *capd;
    mpq_t *capq;
} cut_rounds_t;

static steady_err_t cut_step(void *ctx, const lp_round_t *r, bool *added, const char **unverified,
                             steady_error_t *err)
{
    (void)unverified;
    cut_rounds_t *cr = ctx;
    cuts_t *c = cr->c;
    int n = 0;
    steady_err_t rc;
    if (!r->exact) {
        for (int a = 0; a < c->narcs; a++)
            cr->capd[a] = r->x[c->col[a]];
        rc = separate(c, cr->capd, NULL, r->x[c->tp], NULL, r->round == 1, &n);
    } else {
        for (int a = 0; a < c->narcs; a++)
            mpq_set(cr->capq[a], r->values[c->col[a]]);
        rc = separate(c, NULL, cr->capq, 0, r->values[c->tp], false, &n);
    }
    *added = n > 0;
    return rc ? steady_error_set(err, STEADY_ENOMEM, "out of memory") : STEADY_OK;
}

static steady_err_t cut_store(void *ctx, mpq_t *values, steady_error_t *err)
{
    cut_rounds_t *cr = ctx;
    return lp_store_values(cr->c->s, cr->c->m, values, err);
}

steady_err_t lp_solve_cuts(steady_solution_t *s, const steady_solve_options_t *opts,
                           lp_watch_t *watch, steady_error_t *err)
{
    lp_model_t m;
    lp_model_init(&m);
    m.watch = watch;
    m.names = opts && opts->write_lp;
    cuts_t c = {.s = s, .m = &m};
    cut_rounds_t cr = {.c = &c};
    s->formulation = STEADY_FORMULATION_CUTS;
    steady_solve_options_t o = opts ? *opts : (steady_solve_options_t){.exact = true};
    /* Clp only when asked for: its dual simplex from each round's basis was
     * slower than GLPK's in every cut generation measured (random-2000: more
     * than 200 s against 0.8 s; tiers-10000: 18.8 s against 11.2 s) */
    if (o.simplex == STEADY_SIMPLEX_AUTO)
        o.simplex = STEADY_SIMPLEX_GLPK;
    steady_err_t rc = build(&c);
    if (rc || m.oom) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory building the LP");
        goto done;
    }
    cr.capd = malloc((size_t)(c.narcs + 1) * sizeof *cr.capd);
    cr.capq = malloc((size_t)(c.narcs + 1) * sizeof *cr.capq);
    if (!cr.capd || !cr.capq) {
        free(cr.capq);
        cr.capq = NULL;
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto done;
    }
    for (int a = 0; a < c.narcs; a++)
        mpq_init(cr.capq[a]);
    lp_rounds_t how = {.what = "cut generation",
                       .stage = "broadcast cuts, round",
                       .dual_simplex = true,
                       .step = cut_step,
                       .store = cut_store,
                       .ctx = &cr};
    rc = lp_rounds(s, &m, &o, watch, &how, err);
    s->stats.cuts = c.ncuts;
done:
    if (cr.capq)
        for (int a = 0; a < c.narcs; a++)
            mpq_clear(cr.capq[a]);
    free(cr.capq);
    free(cr.capd);
    cuts_free(&c);
    lp_model_free(&m);
    return rc;
}
