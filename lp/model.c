/*
 * model.c — the exact LP model shared by the four formulations, and exact
 * rationals from the platform's decimal values.
 */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"

#include "../common/array.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double lp_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

bool lp_watch_tick(lp_watch_t *w, const char *stage, double done, double total)
{
    if (!w)
        return true;
    if (w->progress)
        w->progress(w->ctx, stage, done, total);
    if (w->deadline > 0 && lp_now() > w->deadline)
        w->expired = true;
    return !w->expired;
}

lp_watch_t lp_watch_of(const steady_solve_options_t *opts)
{
    lp_watch_t watch = {.start = lp_now()};
    if (opts && opts->time_limit_ms > 0) {
        watch.limit_s = opts->time_limit_ms / 1000.0;
        watch.deadline = watch.start + watch.limit_s;
    }
    if (opts) {
        watch.progress = opts->progress;
        watch.ctx = opts->progress_ctx;
    }
    return watch;
}

int lp_watch_left_ms(const lp_watch_t *w)
{
    if (!w || w->deadline <= 0)
        return 0;
    double left = (w->deadline - lp_now()) * 1000;
    return left < 1 ? 1 : left > 2e9 ? 2000000000 : (int)left;
}

/* Every 16384 additions to the model: report and check the clock.  The
 * reduce LP of 100 participants has tens of millions of columns, and
 * building it takes longer than any time limit a user gives. */
static bool model_tick(lp_model_t *m)
{
    if (m->stopped)
        return false;
    if ((++m->ticks & 0x3fff) == 0 &&
        !lp_watch_tick(m->watch, "building the LP, columns", m->ncols, 0))
        m->stopped = true;
    return !m->stopped;
}

void lp_model_init(lp_model_t *m)
{
    memset(m, 0, sizeof *m);
    m->obj = -1;
}

void lp_model_free(lp_model_t *m)
{
    for (int i = 0; m->row_name && i < m->nrows; i++)
        free(m->row_name[i]);
    for (int j = 0; m->col_name && j < m->ncols; j++)
        free(m->col_name[j]);
    for (int k = 0; k < m->nnz; k++)
        mpq_clear(m->a[k].val);
    free(m->row_kind);
    free(m->row_bound);
    free(m->row_name);
    free(m->col_name);
    free(m->col);
    free(m->a);
    lp_watch_t *w = m->watch;
    bool names = m->names;
    lp_model_init(m);
    m->watch = w;
    m->names = names;
}

/* Names for GLPK's CPLEX LP writer, which accepts letters, digits and
 * !"#$%&()/,.;?@_`'{}|~ only: the node-name characters it refuses are
 * mapped one-to-one onto characters node names never contain, so that
 * distinct variables keep distinct names in --write-lp files. */
static char *lp_name(const char *fmt, va_list ap)
{
    char buf[256];
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    if (n < 0 || n >= (int)sizeof buf)
        return NULL; /* too long for GLPK: left unnamed, GLPK numbers it */
    for (char *c = buf; *c; c++)
        *c = *c == '-' ? '~' : *c == '+' ? '!' : *c == ':' ? ';' : *c;
    return strdup(buf);
}

static int add_col(lp_model_t *m, col_kind_t kind, int a, int b, const char *fmt, va_list ap)
{
    if (!model_tick(m) || m->oom)
        return -1;
    if (m->ncols == m->col_cap) {
        int ncap = m->col_cap ? 2 * m->col_cap : 64;
        lp_col_t *cols = realloc(m->col, (size_t)ncap * sizeof *cols);
        if (cols)
            m->col = cols;
        char **names = m->names ? realloc(m->col_name, (size_t)ncap * sizeof *names) : NULL;
        if (names)
            m->col_name = names;
        if (!cols || (m->names && !names)) {
            m->oom = true;
            return -1;
        }
        m->col_cap = ncap;
    }
    m->col[m->ncols] = (lp_col_t){.kind = (unsigned char)kind, .a = a, .b = b};
    if (m->names)
        m->col_name[m->ncols] = lp_name(fmt, ap);
    return m->ncols++;
}

int lp_add_col(lp_model_t *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int c = add_col(m, COL_OTHER, -1, -1, fmt, ap);
    va_end(ap);
    return c;
}

int lp_add_tagged_col(lp_model_t *m, col_kind_t kind, int a, int b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int c = add_col(m, kind, a, b, fmt, ap);
    va_end(ap);
    return c;
}

int lp_add_row(lp_model_t *m, row_kind_t kind, int bound, const char *fmt, ...)
{
    if (!model_tick(m) || m->oom)
        return -1;
    if (m->nrows == m->row_cap) {
        int ncap = m->row_cap ? 2 * m->row_cap : 64;
        char **names = m->names ? realloc(m->row_name, (size_t)ncap * sizeof *names) : NULL;
        if (names)
            m->row_name = names;
        row_kind_t *kinds = realloc(m->row_kind, (size_t)ncap * sizeof *kinds);
        if (kinds)
            m->row_kind = kinds;
        int *bounds = realloc(m->row_bound, (size_t)ncap * sizeof *bounds);
        if (bounds)
            m->row_bound = bounds;
        if ((m->names && !names) || !kinds || !bounds) {
            m->oom = true;
            return -1;
        }
        m->row_cap = ncap;
    }
    m->row_kind[m->nrows] = kind;
    m->row_bound[m->nrows] = bound;
    if (m->names) {
        va_list ap;
        va_start(ap, fmt);
        m->row_name[m->nrows] = lp_name(fmt, ap);
        va_end(ap);
    }
    return m->nrows++;
}

void lp_add_entry(lp_model_t *m, int row, int col, const mpq_t val)
{
    if (!model_tick(m) || m->oom || row < 0 || col < 0 || mpq_sgn(val) == 0)
        return;
    if (!array_grow((void **)&m->a, &m->nnz_cap, m->nnz + 1, sizeof *m->a, 64)) {
        m->oom = true;
        return;
    }
    lp_entry_t *e = &m->a[m->nnz++];
    e->row = row;
    e->col = col;
    mpq_init(e->val);
    mpq_set(e->val, val);
}

void lp_add_entry_si(lp_model_t *m, int row, int col, long val)
{
    if (m->stopped || m->oom || row < 0 || col < 0)
        return;
    mpq_t q;
    mpq_init(q);
    mpq_set_si(q, val, 1);
    lp_add_entry(m, row, col, q);
    mpq_clear(q);
}

void steady_exact_decimal(mpq_t q, double x)
{
    char buf[32];
    format_double(buf, x);
    /* buf is [-]digits[.digits][e[+-]digits]: value = mantissa * 10^exp */
    char digits[40];
    int nd = 0, exp10 = 0;
    bool neg = false, frac = false;
    const char *c = buf;
    if (*c == '-') {
        neg = true;
        c++;
    }
    for (; *c && *c != 'e' && *c != 'E'; c++) {
        if (*c == '.') {
            frac = true;
        } else if (isdigit((unsigned char)*c) && nd < (int)sizeof digits - 1) {
            digits[nd++] = *c;
            if (frac)
                exp10--;
        }
    }
    digits[nd] = '\0';
    if (*c == 'e' || *c == 'E')
        exp10 += atoi(c + 1);
    mpz_t num, pow;
    mpz_inits(num, pow, NULL);
    mpz_set_str(num, nd ? digits : "0", 10);
    if (neg)
        mpz_neg(num, num);
    mpz_ui_pow_ui(pow, 10, (unsigned long)(exp10 < 0 ? -exp10 : exp10));
    if (exp10 >= 0) {
        mpz_mul(num, num, pow);
        mpz_set_ui(pow, 1);
    }
    mpq_set_num(q, num);
    mpq_set_den(q, pow);
    mpq_canonicalize(q);
    mpz_clears(num, pow, NULL);
}

void steady_exact_comm_time(const steady_platform_t *p, int edge, double msg_size, mpq_t c)
{
    const steady_edge_t *e = steady_platform_edge(p, edge);
    if (e->cost != 0) {
        steady_exact_decimal(c, e->cost);
        return;
    }
    mpq_t q; /* c = overhead + size / bandwidth */
    mpq_init(q);
    steady_exact_decimal(c, msg_size);
    steady_exact_decimal(q, e->bandwidth);
    mpq_div(c, c, q);
    steady_exact_decimal(q, e->overhead);
    mpq_add(c, c, q);
    mpq_clear(q);
}

/* s / bandwidth(c), or c's cost. */
static void exact_channel_time(const steady_channel_t *c, double msg_size, mpq_t t)
{
    if (c->cost != 0) {
        steady_exact_decimal(t, c->cost);
        return;
    }
    mpq_t q;
    mpq_init(q);
    steady_exact_decimal(t, msg_size);
    steady_exact_decimal(q, c->bandwidth);
    mpq_div(t, t, q);
    mpq_clear(q);
}

void steady_exact_use_time(const steady_platform_t *p, int edge, const steady_use_t *u,
                           double msg_size, mpq_t t)
{
    if (u->cross) {
        const steady_edge_t *e = steady_platform_edge(p, edge);
        edge = steady_platform_find_edge(p, e->dst, e->src);
    }
    if (u->channel >= 0)
        exact_channel_time(steady_platform_channel(p, u->channel), msg_size, t);
    else
        steady_exact_comm_time(p, edge, msg_size, t);
    if (u->cross) {
        mpq_t share;
        mpq_init(share);
        steady_exact_decimal(share, steady_platform_crosstraffic(p));
        mpq_mul(t, t, share);
        mpq_clear(share);
    }
}

void steady_exact_edge_time(const steady_platform_t *p, int edge, double msg_size, mpq_t t)
{
    const steady_edge_t *e = steady_platform_edge(p, edge);
    steady_exact_comm_time(p, edge, msg_size, t);
    mpq_t q;
    mpq_init(q);
    for (int k = 0; k < e->ncross; k++) {
        exact_channel_time(steady_platform_channel(p, e->cross[k].channel), msg_size, q);
        if (mpq_cmp(q, t) > 0)
            mpq_set(t, q);
    }
    mpq_clear(q);
}

void steady_exact_edge_latency(const steady_platform_t *p, int edge, mpq_t l)
{
    const steady_edge_t *e = steady_platform_edge(p, edge);
    steady_exact_decimal(l, e->latency);
    mpq_t q;
    mpq_init(q);
    for (int k = 0; k < e->ncross; k++) {
        steady_exact_decimal(q, steady_platform_channel(p, e->cross[k].channel)->latency);
        mpq_add(l, l, q);
    }
    mpq_clear(q);
}

void steady_exact_hop_time(const steady_platform_t *p, const steady_hop_t *h, double msg_size,
                           mpq_t t)
{
    mpq_t q;
    mpq_init(q);
    mpq_set_ui(t, 0, 1);
    for (int k = 0; k < h->nedges; k++) {
        steady_exact_edge_time(p, h->edges[k], msg_size, q);
        if (mpq_cmp(q, t) > 0)
            mpq_set(t, q);
    }
    mpq_clear(q);
}

void steady_exact_hop_latency(const steady_platform_t *p, const steady_hop_t *h, mpq_t l)
{
    mpq_t q;
    mpq_init(q);
    mpq_set_ui(l, 0, 1);
    for (int k = 0; k < h->nedges; k++) {
        steady_exact_edge_latency(p, h->edges[k], q);
        mpq_add(l, l, q);
    }
    mpq_clear(q);
}

void steady_exact_task_time(const steady_platform_t *p, int node, double task_cost, mpq_t w)
{
    const steady_node_t *n = steady_platform_node(p, node);
    mpq_set_ui(w, 0, 1);
    if (n->kind != STEADY_PROCESSOR)
        return;
    mpq_t q;
    mpq_init(q);
    steady_exact_decimal(w, task_cost);
    steady_exact_decimal(q, n->speed);
    mpq_div(w, w, q);
    mpq_clear(q);
}
