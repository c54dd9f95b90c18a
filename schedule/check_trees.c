/*
 * check_trees.c — the validator's simulation of the trees (values held,
 * moved, merged and delivered: flow conservation), the batch they share,
 * and the header's rates (check.c has the rules).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

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
        return key / x->N == key % x->N && ck_origin_of(x, key) == node;
    return ck_origin_of(x, key) == node;
}

/* Uses value key on node for step i of tree t; returns false if missing. */
static bool consume(ctx_t *x, token_t *tok, int *ntok, int t, int i, long key, int node,
                    const char *desc)
{
    const steady_sched_step_t *s = &x->sc->trees[t].steps[i];
    bool linear = x->sc->op != STEADY_OP_BROADCAST;
    char val[DESC_MAX];
    ck_value_name(x, key, val, sizeof val);
    int k = find_token(tok, *ntok, key, node);
    if (k < 0 && is_initial(x, key, node)) {
        k = (*ntok)++;
        tok[k] = (token_t){key, node, -1, -1, 0, -1, -1};
    }
    if (k < 0) {
        ck_report(x,
                  "tree %d step %d (%s): uses %s on %s, which no earlier step of the tree "
                  "produces there",
                  t, i, desc, val, ck_nname(x, node));
        return false;
    }
    if (linear && tok[k].uses > 0)
        ck_report(x, "tree %d step %d (%s): uses %s on %s, which step %d already uses", t, i, desc,
                  val, ck_nname(x, node), tok[k].user);
    /* a task runs after the period's slots, so it may use what they (or an
     * earlier task of the period) delivered in the same period; a send may
     * use what a send delivered in the same period if the slots' times
     * allow it (ck_forwarding()), a task's result only from an earlier
     * period */
    bool task = s->kind == STEADY_STEP_COMPUTE;
    bool after_send =
        tok[k].producer >= 0 && x->sc->trees[t].steps[tok[k].producer].kind == STEADY_STEP_SEND;
    if (task || after_send ? s->lag < tok[k].lag : s->lag <= tok[k].lag)
        ck_report(x,
                  "tree %d step %d (%s): lag %d is %s the lag %d of step %d, which produces %s on "
                  "%s",
                  t, i, desc, s->lag, task || after_send ? "smaller than" : "not larger than",
                  tok[k].lag, tok[k].producer, val, ck_nname(x, node));
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
    ck_value_name(x, key, val, sizeof val);
    int k = find_token(tok, *ntok, key, node);
    if (k < 0 && is_initial(x, key, node) && x->sc->op != STEADY_OP_REDUCE) {
        /* scatter, gossip, broadcast: a message coming back to its origin */
        ck_report(x, "tree %d step %d (%s): brings %s back to %s, where it starts", t, i, desc, val,
                  ck_nname(x, node));
        return;
    }
    if (k >= 0) {
        if (tok[k].producer < 0)
            ck_report(x, "tree %d step %d (%s): produces %s on %s, which holds it from the start",
                      t, i, desc, val, ck_nname(x, node));
        else
            ck_report(x, "tree %d step %d (%s): produces %s on %s, which step %d already produces",
                      t, i, desc, val, ck_nname(x, node), tok[k].producer);
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
steady_err_t ck_simulate_trees(ctx_t *x, long *taken, needs_t *needs)
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
            ck_report(x, "tree %d: no steps", t);
        for (int i = 0; i < tr->nsteps; i++) {
            const steady_sched_step_t *s = &tr->steps[i];
            if (!x->step_ok[x->tree_off[t] + i])
                continue;
            ck_step_desc(x, s, desc, sizeof desc);
            if (s->kind == STEADY_STEP_SEND) {
                long key = x->tkey[s->type];
                consume(x, tok, &ntok, t, i, key, ck_step_src(x, s), desc);
                produce(x, tok, &ntok, t, i, key, ck_step_dst(x, s), desc);
                int it = ck_item_of(x, key);
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
                    ck_report(x, "tree %d: the message never reaches the target %s", t,
                              ck_nname(x, sc->targets[j]));
        } else {
            for (int k = 0; k < ntok; k++) {
                const token_t *o = &tok[k];
                bool result = o->node == ck_dest_of(x, o->key) &&
                              (sc->op != STEADY_OP_REDUCE || o->key == (long)x->N - 1);
                if (o->uses > 0 || result)
                    continue;
                ck_value_name(x, o->key, val, sizeof val);
                if (o->producer < 0)
                    ck_report(x, "tree %d: %s on %s is never used", t, val, ck_nname(x, o->node));
                else
                    ck_report(x, "tree %d step %d: %s produced on %s is never used", t, o->producer,
                              val, ck_nname(x, o->node));
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
                int d = ck_dest_of(x, key), k = find_token(tok, ntok, key, d);
                if (k < 0 || tok[k].uses > 0) {
                    ck_value_name(x, key, val, sizeof val);
                    ck_report(x, "tree %d: %s does not end on %s", t, val, ck_nname(x, d));
                }
            }
        }

        /* the batch: in tree order, the trees of an item take consecutive
         * operations from 0 */
        for (int j = 0; j < nitems; j++) {
            int it = items[j];
            if (tr->first != taken[it]) {
                ck_item_name(x, it, what, sizeof what);
                ck_report(x,
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
void ck_batch(ctx_t *x, const long *taken)
{
    const steady_schedule_t *sc = x->sc;
    char what[2 * STEADY_NAME_MAX + 16];
    for (int t = 0; t < sc->ntrees; t++)
        if (sc->trees[t].weight <= 0)
            ck_report(x, "tree %d: weight %ld is not positive", t, sc->trees[t].weight);
    if (sc->ops_per_period <= 0)
        ck_report(x, "schedule: ops_per_period %ld is not positive", sc->ops_per_period);
    if (sc->segments < 1)
        ck_report(x, "schedule: segments %ld is not positive", sc->segments);
    for (int it = 0; it < x->nitems; it++) {
        if (sc->op == STEADY_OP_GOSSIP &&
            sc->sources[it / sc->ntargets] == sc->targets[it % sc->ntargets])
            continue; /* nothing to send to oneself */
        if (taken[it] != sc->ops_per_period) {
            ck_item_name(x, it, what, sizeof what);
            ck_report(x,
                      "schedule: the trees%s carry %ld operations per period, ops_per_period is "
                      "%ld",
                      what, taken[it], sc->ops_per_period);
        }
    }
}

/* ---- header: throughput, loss -------------------------------------------- */

void ck_rates(ctx_t *x)
{
    const steady_schedule_t *sc = x->sc;
    if (mpq_sgn(sc->period) <= 0) {
        ck_report(x, "schedule: period %Qd is not positive", sc->period);
        return;
    }
    x->period_ok = true;
    mpq_t tp, q;
    mpq_inits(tp, q, NULL);
    mpq_set_si(tp, sc->ops_per_period, 1);
    mpq_div(tp, tp, sc->period);
    if (!mpq_equal(tp, sc->throughput))
        ck_report(x, "schedule: throughput is %Qd, but %ld operations per period of %Qd give %Qd",
                  sc->throughput, sc->ops_per_period, sc->period, tp);
    if (mpq_cmp(tp, sc->optimum) > 0)
        ck_report(x, "schedule: throughput %Qd is above the optimum %Qd", tp, sc->optimum);
    /* a broadcast to a subset of the ranks, or through switches: the LP's
     * value is only a bound; on a platform with switches or channels the
     * schedule's slots may also need more than the LP's time (a transfer
     * through a slower link, a channel shared by a slot's transfers) */
    bool network = steady_platform_has_network(x->p);
    bool bound = sc->op == STEADY_OP_BROADCAST &&
                 (sc->ntargets < steady_platform_rank_count(x->p) - 1 || network);
    if (!sc->fixed_period && !bound && !network && mpq_cmp(tp, sc->optimum) < 0)
        ck_report(x, "schedule: the exact period gives throughput %Qd, below the optimum %Qd", tp,
                  sc->optimum);
    if (sc->fixed_period) {
        mpq_sub(q, sc->optimum, tp);
        if (!mpq_equal(q, sc->loss))
            ck_report(x, "schedule: loss is %Qd, optimum - throughput is %Qd", sc->loss, q);
        /* §4.6: loss <= card(TREES) / T, TREES the decomposition's trees,
         * including those that floor(w T) leaves without an operation (the
         * schedule drops them): loss_bound * period is a whole number of
         * trees, at least the schedule's */
        mpq_mul(q, sc->loss_bound, sc->period);
        if (mpz_cmp_ui(mpq_denref(q), 1) != 0 || mpz_cmp_si(mpq_numref(q), sc->ntrees) < 0)
            ck_report(x,
                      "schedule: loss_bound is %Qd, not a number of trees (at least %d) / period "
                      "%Qd",
                      sc->loss_bound, sc->ntrees, sc->period);
        mpq_sub(tp, sc->optimum, tp);
        if (!network && mpq_cmp(tp, sc->loss_bound) > 0)
            ck_report(x, "schedule: the loss %Qd exceeds the bound %Qd (paper §4.6)", tp,
                      sc->loss_bound);
    }
    mpq_clears(tp, q, NULL);
}
