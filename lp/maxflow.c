/*
 * maxflow.c — the propagation that spares most of the broadcast's exact
 * maximum flows (lp_certify_*, for cuts.c), over the residual network of
 * common/flow.c (Dinic's flows in doubles to find violated cuts quickly,
 * in rationals to prove that none is left).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

struct lp_certify {
    const flow_t *f;
    const double *capd;
    const mpq_t *capq;
    double need_d;
    mpq_srcptr need_q;
    bool *in_c;
    double *accd; /* what the arcs from C bring each node so far */
    mpq_t *accq;
    int *queue;
};

lp_certify_t *lp_certify_new(const flow_t *f, const double *capd, const mpq_t *capq, double need_d,
                             const mpq_t need_q, bool *in_c)
{
    int n = f->n;
    lp_certify_t *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    *c = (lp_certify_t){.f = f, .capd = capd, .capq = capq, .need_d = need_d, .in_c = in_c};
    c->need_q = capq ? need_q : NULL;
    c->queue = malloc((size_t)(n + 1) * sizeof *c->queue);
    if (capq) {
        c->accq = malloc((size_t)(n + 1) * sizeof *c->accq);
        if (c->accq)
            for (int v = 0; v < n; v++)
                mpq_init(c->accq[v]);
    } else {
        c->accd = calloc((size_t)n + 1, sizeof *c->accd);
    }
    if (!c->queue || (!c->accq && !c->accd)) {
        free(c->queue);
        free(c->accd);
        free(c);
        return NULL;
    }
    memset(in_c, 0, (size_t)n * sizeof *in_c);
    return c;
}

void lp_certify_add(lp_certify_t *c, int v)
{
    const flow_t *f = c->f;
    if (c->in_c[v])
        return;
    int qh = 0, qt = 0, *queue = c->queue;
    c->in_c[v] = true;
    queue[qt++] = v;
    while (qh < qt) {
        int u = queue[qh++];
        for (int i = f->start[u]; i < f->start[u + 1]; i++) {
            int a = f->adj[i];
            if (a & 1)
                continue; /* a reverse arc */
            int w = f->head[a];
            if (c->in_c[w])
                continue;
            bool enough;
            if (c->accq) {
                mpq_add(c->accq[w], c->accq[w], c->capq[a / 2]);
                enough = mpq_cmp(c->accq[w], c->need_q) >= 0;
            } else {
                c->accd[w] += c->capd[a / 2];
                enough = c->accd[w] >= c->need_d;
            }
            if (enough) {
                c->in_c[w] = true;
                queue[qt++] = w;
            }
        }
    }
}

void lp_certify_free(lp_certify_t *c)
{
    if (!c)
        return;
    if (c->accq)
        for (int v = 0; v < c->f->n; v++)
            mpq_clear(c->accq[v]);
    free(c->accq);
    free(c->accd);
    free(c->queue);
    free(c);
}
