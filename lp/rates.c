/*
 * rates.c — the rates a solution keeps, sparse: per hop (or node), the
 * message types (or tasks) with a positive rate, sorted, so that a
 * solution's size is its support's and not hops x types (a scatter from
 * one of 10^4 processors has 10^4 types and 4 10^4 hops, and its routes
 * use a few hundred thousand of the 4 10^8 pairs).
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

void lp_rates_free(lp_rates_t *r)
{
    if (r->val)
        for (int k = 0; k < r->nnz; k++)
            mpq_clear(r->val[k]);
    free(r->start);
    free(r->key);
    free(r->val);
    memset(r, 0, sizeof *r);
}

void lp_rates_get(const lp_rates_t *r, int row, int key, mpq_t out)
{
    if (!r->start || row < 0 || row >= r->nrows) {
        mpq_set_ui(out, 0, 1);
        return;
    }
    int lo = r->start[row], hi = r->start[row + 1] - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (r->key[mid] == key) {
            mpq_set(out, r->val[mid]);
            return;
        }
        if (r->key[mid] < key)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    mpq_set_ui(out, 0, 1);
}

void lp_rb_init(lp_rate_builder_t *b)
{
    memset(b, 0, sizeof *b);
}

void lp_rb_free(lp_rate_builder_t *b)
{
    for (int k = 0; k < b->ninit; k++)
        mpq_clear(b->val[k]);
    free(b->row);
    free(b->key);
    free(b->val);
    memset(b, 0, sizeof *b);
}

void lp_rb_add(lp_rate_builder_t *b, int row, int key, const mpq_t v)
{
    if (b->oom || mpq_sgn(v) == 0)
        return;
    if (b->n == b->cap) {
        int ncap = b->cap ? 2 * b->cap : 256;
        int *r = realloc(b->row, (size_t)ncap * sizeof *r);
        if (r)
            b->row = r;
        int *k = realloc(b->key, (size_t)ncap * sizeof *k);
        if (k)
            b->key = k;
        mpq_t *x = realloc(b->val, (size_t)ncap * sizeof *x);
        if (x)
            b->val = x;
        if (!r || !k || !x) {
            b->oom = true;
            return;
        }
        b->cap = ncap;
    }
    if (b->n == b->ninit)
        mpq_init(b->val[b->ninit++]);
    b->row[b->n] = row;
    b->key[b->n] = key;
    mpq_set(b->val[b->n++], v);
}

typedef struct {
    int row, key, idx;
} triplet_t;

static int cmp_triplet(const void *a, const void *b)
{
    const triplet_t *x = a, *y = b;
    if (x->row != y->row)
        return (x->row > y->row) - (x->row < y->row);
    if (x->key != y->key)
        return (x->key > y->key) - (x->key < y->key);
    return (x->idx > y->idx) - (x->idx < y->idx);
}

bool lp_rb_finish(lp_rate_builder_t *b, int nrows, lp_rates_t *out)
{
    memset(out, 0, sizeof *out);
    triplet_t *t = NULL;
    bool ok = !b->oom;
    if (ok) {
        out->start = calloc((size_t)nrows + 1, sizeof *out->start);
        t = malloc((size_t)(b->n ? b->n : 1) * sizeof *t);
        ok = out->start && t;
    }
    if (ok) {
        for (int i = 0; i < b->n; i++)
            t[i] = (triplet_t){b->row[i], b->key[i], i};
        qsort(t, (size_t)b->n, sizeof *t, cmp_triplet);
        /* sum the duplicates in place (into the first of each run), count
         * the non-zero sums */
        int nnz = 0;
        for (int a = 0; a < b->n;) {
            int c = a + 1;
            for (; c < b->n && t[c].row == t[a].row && t[c].key == t[a].key; c++)
                mpq_add(b->val[t[a].idx], b->val[t[a].idx], b->val[t[c].idx]);
            nnz += mpq_sgn(b->val[t[a].idx]) != 0;
            a = c;
        }
        out->key = malloc((size_t)(nnz ? nnz : 1) * sizeof *out->key);
        out->val = malloc((size_t)(nnz ? nnz : 1) * sizeof *out->val);
        ok = out->key && out->val;
        for (int a = 0; ok && a < b->n;) {
            int c = a + 1;
            while (c < b->n && t[c].row == t[a].row && t[c].key == t[a].key)
                c++;
            if (mpq_sgn(b->val[t[a].idx]) != 0) {
                out->start[t[a].row + 1]++;
                out->key[out->nnz] = t[a].key;
                mpq_init(out->val[out->nnz]);
                mpq_swap(out->val[out->nnz++], b->val[t[a].idx]);
            }
            a = c;
        }
        for (int r = 0; ok && r < nrows; r++)
            out->start[r + 1] += out->start[r];
        out->nrows = nrows;
    }
    free(t);
    lp_rb_free(b);
    if (!ok)
        lp_rates_free(out);
    return ok;
}
