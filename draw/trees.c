/*
 * trees.c — weighted trees as DOT (steady_draw_trees from a decomposition,
 * steady_draw_schedule_trees from a schedule file).
 *
 * Both sources are first turned into a dforest_t (platform node ids, type
 * names, reduce intervals), so that one writer draws them.  A reduction
 * tree is drawn as the paper's Figure 5 builds it: a node per initial value
 * v[k] on its participant, per transfer and per task, and an arrow n1 -> n2
 * when n1's result is an input of n2.  The producer of an input is the
 * nearest earlier step that makes that interval on that node (the steps
 * are in dependency order), as in the replay.  Other trees only move one
 * message type each: they are drawn on the platform nodes they visit.
 */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"

#include <stdlib.h>
#include <string.h>

void dforest_free(dforest_t *f)
{
    if (f->types)
        for (int t = 0; t < f->ntypes; t++)
            free(f->types[t]);
    free(f->types);
    free(f->ends);
    if (f->trees)
        for (int i = 0; i < f->ntrees; i++)
            free(f->trees[i].steps);
    free(f->trees);
    memset(f, 0, sizeof *f);
}

static void node_name(FILE *out, const dforest_t *f, int v)
{
    dot_escaped(out, steady_platform_node(f->p, v)->name);
}

/* Does step j make the value (interval [a, b], or type a) on node v? */
static bool makes(const dforest_t *f, const dstep_t *st, int v, int a, int b)
{
    if (st->kind == STEADY_STEP_COMPUTE)
        return st->node == v && st->k == a && st->m == b;
    if (st->dst != v)
        return false;
    if (f->op == STEADY_OP_REDUCE)
        return f->ends[st->type][0] == a && f->ends[st->type][1] == b;
    return st->type == a;
}

/* Arrow from the producer of (a, b) on v to step s of tree i: an earlier
 * step, or the leaf v[a] (a == b) drawn on demand. */
static void input_edge(FILE *out, const dforest_t *f, int i, int s, int v, int a, int b, bool *leaf)
{
    const dtree_t *t = &f->trees[i];
    for (int j = s - 1; j >= 0; j--)
        if (makes(f, &t->steps[j], v, a, b)) {
            fprintf(out, "    t%d_s%d -> t%d_s%d;\n", i, j, i, s);
            return;
        }
    if (a == b && a >= 0 && a < f->nparts && f->parts[a] == v) {
        if (!leaf[a]) {
            leaf[a] = true;
            fprintf(out, "    t%d_v%d [shape=ellipse, label=\"v[%d]\\non ", i, a, a);
            node_name(out, f, v);
            fputs("\"];\n", out);
        }
        fprintf(out, "    t%d_v%d -> t%d_s%d;\n", i, a, i, s);
    }
}

static void reduce_tree(FILE *out, const dforest_t *f, int i, bool *leaf)
{
    const dtree_t *t = &f->trees[i];
    memset(leaf, 0, (size_t)f->nparts * sizeof *leaf);
    for (int s = 0; s < t->nsteps; s++) {
        const dstep_t *st = &t->steps[s];
        if (st->kind == STEADY_STEP_COMPUTE) {
            fprintf(out,
                    "    t%d_s%d [shape=box, style=filled, fillcolor=\"#d9d9d9\", "
                    "label=\"T(%d,%d,%d)\\non ",
                    i, s, st->k, st->l, st->m);
            node_name(out, f, st->node);
            fputs("\"];\n", out);
            input_edge(out, f, i, s, st->node, st->k, st->l, leaf);
            input_edge(out, f, i, s, st->node, st->l + 1, st->m, leaf);
        } else {
            fprintf(out, "    t%d_s%d [shape=box, style=rounded, label=\"", i, s);
            dot_escaped(out, f->types[st->type]);
            fputs("\\n", out);
            node_name(out, f, st->src);
            fputs(" -> ", out);
            node_name(out, f, st->dst);
            fputs("\"];\n", out);
            int a = f->ends[st->type][0], b = f->ends[st->type][1];
            input_edge(out, f, i, s, st->src, a, b, leaf);
        }
    }
}

/* A route or arborescence on the platform nodes it visits. */
static void flow_tree(FILE *out, const dforest_t *f, int i, bool *seen)
{
    const dtree_t *t = &f->trees[i];
    int nv = steady_platform_node_count(f->p);
    memset(seen, 0, (size_t)nv * sizeof *seen);
    for (int s = 0; s < t->nsteps; s++) {
        const dstep_t *st = &t->steps[s];
        if (st->kind != STEADY_STEP_SEND)
            continue;
        int ends[2] = {st->src, st->dst};
        for (int e = 0; e < 2; e++) {
            int v = ends[e];
            if (seen[v])
                continue;
            seen[v] = true;
            bool origin = f->op == STEADY_OP_GOSSIP ? f->ends[st->type][0] == v
                                                    : f->nparts > 0 && f->parts[0] == v;
            const steady_node_t *nd = steady_platform_node(f->p, v);
            fprintf(out, "    t%d_n%d [shape=%s, style=\"%s\", fillcolor=\"%s\", label=\"", i, v,
                    nd->kind == STEADY_PROCESSOR ? "box" : "ellipse",
                    nd->kind == STEADY_PROCESSOR ? "rounded,filled" : "filled",
                    origin                         ? "#8db3e2"
                    : nd->kind == STEADY_PROCESSOR ? "#d9d9d9"
                                                   : "white");
            node_name(out, f, v);
            fputs("\"];\n", out);
        }
        fprintf(out, "    t%d_n%d -> t%d_n%d", i, st->src, i, st->dst);
        if (f->op != STEADY_OP_BROADCAST) {
            fputs(" [label=\"", out);
            dot_escaped(out, f->types[st->type]);
            fputs("\"]", out);
        }
        fputs(";\n", out);
    }
}

steady_err_t dforest_write(const dforest_t *f, FILE *out, steady_error_t *err)
{
    int nv = steady_platform_node_count(f->p);
    int n = nv > f->nparts ? nv : f->nparts;
    bool *mark = calloc((size_t)n + 1, sizeof *mark);
    if (!mark)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    draw_dot_header(out, "trees", f->title);
    for (int i = 0; i < f->ntrees; i++) {
        fprintf(out, "  subgraph cluster_%d {\n    label=\"tree %d: ", i, i + 1);
        dot_escaped(out, f->trees[i].weight);
        fputs("\";\n    style=rounded; color=\"#808080\";\n", out);
        if (f->op == STEADY_OP_REDUCE)
            reduce_tree(out, f, i, mark);
        else
            flow_tree(out, f, i, mark);
        fputs("  }\n", out);
    }
    fputs("}\n", out);
    free(mark);
    return draw_finish(out, err);
}

/* ---- from a decomposition ---------------------------------------------- */

typedef struct {
    int index;
    double weight;
} order_t;

static int heavier(const void *a, const void *b)
{
    const order_t *x = a, *y = b;
    if (x->weight != y->weight)
        return x->weight < y->weight ? 1 : -1;
    return x->index - y->index;
}

/* The indices of the n heaviest of `count` weights, heaviest first (ties
 * in their order). */
static int *heaviest(const double *w, int count, int n)
{
    order_t *o = malloc((size_t)(count ? count : 1) * sizeof *o);
    int *idx = malloc((size_t)(n ? n : 1) * sizeof *idx);
    if (!o || !idx) {
        free(o);
        free(idx);
        return NULL;
    }
    for (int i = 0; i < count; i++)
        o[i] = (order_t){i, w[i]};
    qsort(o, (size_t)count, sizeof *o, heavier);
    for (int i = 0; i < n; i++)
        idx[i] = o[i].index;
    free(o);
    return idx;
}

static steady_err_t alloc_forest(dforest_t *f, int ntypes, int ntrees, steady_error_t *err)
{
    f->ntypes = ntypes;
    f->types = calloc((size_t)ntypes + 1, sizeof *f->types);
    f->ends = calloc((size_t)ntypes + 1, sizeof *f->ends);
    f->ntrees = ntrees;
    f->trees = calloc((size_t)ntrees + 1, sizeof *f->trees);
    if (!f->types || !f->ends || !f->trees)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    return STEADY_OK;
}

steady_err_t steady_draw_trees(const steady_solution_t *s, const steady_trees_t *t,
                               const steady_draw_options_t *opts, FILE *out, steady_error_t *err)
{
    steady_draw_options_t o;
    draw_defaults(opts, &o);
    dforest_t f = {.p = steady_solution_platform(s), .op = steady_solution_op(s)};
    int shown = t->ntrees < o.max_trees ? t->ntrees : o.max_trees;
    double *w = malloc((size_t)(t->ntrees ? t->ntrees : 1) * sizeof *w);
    int *idx = NULL;
    steady_err_t rc = alloc_forest(&f, steady_solution_type_count(s), shown, err);
    mpq_t tp, share;
    mpq_inits(tp, share, NULL);
    steady_solution_throughput(s, tp);
    if (rc)
        goto done;
    if (!w) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto done;
    }
    for (int i = 0; i < t->ntrees; i++)
        w[i] = mpq_get_d(t->trees[i].weight);
    if (!(idx = heaviest(w, t->ntrees, shown))) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto done;
    }
    int ns, nt;
    const int *src = steady_solution_sources(s, &ns);
    steady_solution_targets(s, &nt);
    f.parts = src;
    f.nparts = ns;
    f.total_trees = t->ntrees;
    char name[2 * STEADY_NAME_MAX + 2];
    for (int k = 0; k < f.ntypes; k++) {
        steady_solution_type_name(s, k, name, sizeof name);
        f.types[k] = strdup(name);
        if (!f.types[k]) {
            rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
            goto done;
        }
        steady_solution_type_ends(s, k, &f.ends[k][0], &f.ends[k][1]);
    }
    for (int i = 0; i < shown; i++) {
        const steady_tree_t *tr = &t->trees[idx[i]];
        dtree_t *d = &f.trees[i];
        char wt[64], pc[32] = "";
        draw_rational(wt, sizeof wt, tr->weight);
        if (mpq_sgn(tp) > 0) {
            mpq_div(share, tr->weight, tp);
            snprintf(pc, sizeof pc, " (%.3g%% of TP)", 100 * mpq_get_d(share));
        }
        snprintf(d->weight, sizeof d->weight, "weight %s%s", wt, pc);
        d->nsteps = tr->nsteps;
        d->steps = calloc((size_t)tr->nsteps + 1, sizeof *d->steps);
        if (!d->steps) {
            rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
            goto done;
        }
        for (int j = 0; j < tr->nsteps; j++) {
            const steady_step_t *st = &tr->steps[j];
            dstep_t *ds = &d->steps[j];
            ds->kind = st->kind;
            if (st->kind == STEADY_STEP_SEND) {
                ds->src = t->hops[st->hop].src;
                ds->dst = t->hops[st->hop].dst;
                ds->type = st->type;
            } else {
                ds->node = st->node;
                steady_solution_task(s, st->task, &ds->k, &ds->l, &ds->m);
            }
        }
    }
    char tp_text[64];
    draw_rational(tp_text, sizeof tp_text, tp);
    snprintf(f.title, sizeof f.title, "%s trees of %s: TP = %s operations per %s%s",
             steady_op_name(f.op), steady_platform_name(f.p), tp_text,
             steady_platform_is_abstract(f.p) ? "time unit" : "second", "");
    if (shown < t->ntrees) {
        size_t len = strlen(f.title);
        snprintf(f.title + len, sizeof f.title - len, "\n(the %d heaviest of %d trees)", shown,
                 t->ntrees);
    }
    rc = dforest_write(&f, out, err);
done:
    mpq_clears(tp, share, NULL);
    free(w);
    free(idx);
    dforest_free(&f);
    return rc;
}

/* ---- from a schedule ------------------------------------------------------ */

steady_err_t steady_draw_schedule_trees(const steady_schedule_t *sc, const steady_platform_t *p,
                                        const steady_draw_options_t *opts, FILE *out,
                                        steady_error_t *err)
{
    steady_draw_options_t o;
    draw_defaults(opts, &o);
    if (sc->platform_nodes != steady_platform_node_count(p) ||
        sc->platform_edges != steady_platform_edge_count(p))
        return steady_error_set(err, STEADY_EINVAL,
                                "the schedule is for a platform of %d nodes and %d edges",
                                sc->platform_nodes, sc->platform_edges);
    dforest_t f = {.p = p, .op = sc->op, .parts = sc->sources, .nparts = sc->nsources};
    int shown = sc->ntrees < o.max_trees ? sc->ntrees : o.max_trees;
    double *w = malloc((size_t)(sc->ntrees ? sc->ntrees : 1) * sizeof *w);
    int *idx = NULL;
    steady_err_t rc = alloc_forest(&f, sc->ntypes, shown, err);
    if (rc)
        goto done;
    if (!w) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto done;
    }
    for (int i = 0; i < sc->ntrees; i++)
        w[i] = (double)sc->trees[i].weight;
    if (!(idx = heaviest(w, sc->ntrees, shown))) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
        goto done;
    }
    f.total_trees = sc->ntrees;
    for (int k = 0; k < f.ntypes; k++) {
        f.types[k] = strdup(sc->types[k]);
        if (!f.types[k]) {
            rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
            goto done;
        }
        f.ends[k][0] = f.ends[k][1] = -1;
        if (sc->op == STEADY_OP_REDUCE) {
            if (sscanf(sc->types[k], "[%d,%d]", &f.ends[k][0], &f.ends[k][1]) != 2) {
                rc = steady_error_set(err, STEADY_EINVAL,
                                      "message type %d is not a reduce interval (%s)", k,
                                      sc->types[k]);
                goto done;
            }
        } else if (sc->op == STEADY_OP_GOSSIP) {
            const char *gt = strchr(sc->types[k], '>');
            char name[STEADY_NAME_MAX + 1];
            size_t len = gt ? (size_t)(gt - sc->types[k]) : 0;
            if (gt && len > 0 && len <= STEADY_NAME_MAX) {
                memcpy(name, sc->types[k], len);
                name[len] = '\0';
                f.ends[k][0] = steady_platform_find_node(p, name);
            }
        }
    }
    for (int i = 0; i < shown; i++) {
        const steady_sched_tree_t *tr = &sc->trees[idx[i]];
        dtree_t *d = &f.trees[i];
        snprintf(d->weight, sizeof d->weight, "%ld of %ld %s per period", tr->weight,
                 sc->ops_per_period, steady_schedule_unit(sc));
        d->nsteps = tr->nsteps;
        d->steps = calloc((size_t)tr->nsteps + 1, sizeof *d->steps);
        if (!d->steps) {
            rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
            goto done;
        }
        for (int j = 0; j < tr->nsteps; j++) {
            const steady_sched_step_t *st = &tr->steps[j];
            dstep_t *ds = &d->steps[j];
            ds->kind = st->kind;
            if (st->kind == STEADY_STEP_SEND) {
                ds->src = steady_sched_step_src(sc, p, st);
                ds->dst = steady_sched_step_dst(sc, p, st);
                ds->type = st->type;
            } else {
                ds->node = st->node;
                ds->k = st->k;
                ds->l = st->l;
                ds->m = st->m;
            }
        }
    }
    snprintf(f.title, sizeof f.title,
             "%s trees of the schedule on %s: %ld %s per period of %.6g %s", steady_op_name(sc->op),
             steady_platform_name(p), sc->ops_per_period, steady_schedule_unit(sc),
             mpq_get_d(sc->period), sc->abstract ? "time units" : "s");
    if (shown < sc->ntrees) {
        size_t len = strlen(f.title);
        snprintf(f.title + len, sizeof f.title - len, "\n(the %d heaviest of %d trees)", shown,
                 sc->ntrees);
    }
    rc = dforest_write(&f, out, err);
done:
    free(w);
    free(idx);
    dforest_free(&f);
    return rc;
}
