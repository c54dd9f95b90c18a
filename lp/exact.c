/*
 * exact.c — the exact rational optimum from GLPK's final basis.
 *
 * GLPK returns doubles, even after glp_exact.  Given the basis, the basic
 * solution is the solution of a square linear system, which we solve in
 * rationals (GMP) and then check exactly:
 *
 *   LP:  max x[obj]  s.t.  r_i = sum_j a_ij x_j,  r_i <= b_i or r_i = b_i,  x >= 0.
 *
 *   A nonbasic column is 0; a nonbasic row is at its bound b_i ("tight").
 *   The tight rows R and the basic columns C form a square system
 *       K x_C = b_R,   K = A[R, C],
 *   and the basic rows take r_i = A[i, :] x.  The duals pi (zero on basic
 *   rows) solve K^T pi_R = -c_C, and the reduced cost of column j is
 *   d_j = c_j + sum_{i in R} a_ij pi_i.
 *
 *   Primal feasibility: x_C >= 0, r_i <= b_i on basic UP rows, r_i = b_i on
 *   basic FX rows.  Optimality (maximisation): d_j <= 0 on nonbasic columns
 *   (at their lower bound 0) and pi_i <= 0 on tight UP rows (at their upper
 *   bound).  Together they prove that x is optimal, in exact arithmetic.
 *
 * The square system is solved by sparse Gaussian elimination with a
 * Markowitz-style pivot choice (shortest row, then shortest column): the
 * steady LPs are flow problems whose bases are mostly network-like, so the
 * fill-in stays small and rational entries stay short.  A dense elimination
 * would cost O(n^3) rational operations on bases of thousands of rows.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    int *col; /* sorted column indices */
    mpq_t *val;
    int n, cap;
} srow_t;

static void srow_free(srow_t *r)
{
    for (int k = 0; k < r->cap; k++)
        mpq_clear(r->val[k]);
    free(r->col);
    free(r->val);
    memset(r, 0, sizeof *r);
}

static bool srow_reserve(srow_t *r, int need)
{
    if (need <= r->cap)
        return true;
    int ncap = r->cap ? 2 * r->cap : 4;
    while (ncap < need)
        ncap *= 2;
    int *c = realloc(r->col, (size_t)ncap * sizeof *c);
    if (!c)
        return false;
    r->col = c;
    mpq_t *v = realloc(r->val, (size_t)ncap * sizeof *v);
    if (!v)
        return false;
    r->val = v;
    for (int k = r->cap; k < ncap; k++)
        mpq_init(r->val[k]);
    r->cap = ncap;
    return true;
}

static int srow_find(const srow_t *r, int col)
{
    int lo = 0, hi = r->n - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (r->col[mid] == col)
            return mid;
        if (r->col[mid] < col)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

typedef struct {
    int *rows;
    int n, cap;
} ilist_t;

static bool ilist_push(ilist_t *l, int v)
{
    if (l->n == l->cap) {
        int ncap = l->cap ? 2 * l->cap : 4;
        int *n = realloc(l->rows, (size_t)ncap * sizeof *n);
        if (!n)
            return false;
        l->rows = n;
        l->cap = ncap;
    }
    l->rows[l->n++] = v;
    return true;
}

/* Solves the n x n system given by rows (each sorted by column) and rhs, in
 * place: rows and rhs are consumed.  Returns false if the matrix is
 * singular or memory runs out. */
static bool sparse_solve(int n, srow_t *rows, mpq_t *rhs, mpq_t *x, lp_watch_t *watch,
                         const char *stage)
{
    bool ok = false;
    int *col_count = calloc((size_t)n, sizeof *col_count);
    ilist_t *col_rows = calloc((size_t)n, sizeof *col_rows);
    bool *row_done = calloc((size_t)n, sizeof *row_done);
    int *piv_row = malloc((size_t)n * sizeof *piv_row);
    int *piv_col = malloc((size_t)n * sizeof *piv_col);
    srow_t tmp = {0};
    mpq_t f, t;
    mpq_inits(f, t, NULL);
    if (!col_count || !col_rows || !row_done || !piv_row || !piv_col)
        goto cleanup;
    for (int i = 0; i < n; i++)
        for (int k = 0; k < rows[i].n; k++) {
            col_count[rows[i].col[k]]++;
            if (!ilist_push(&col_rows[rows[i].col[k]], i))
                goto cleanup;
        }

    for (int step = 0; step < n; step++) {
        if ((step & 0xff) == 0 && !lp_watch_tick(watch, stage, step, n))
            goto cleanup;
        /* pivot row: the shortest active row; pivot column: its entry with
         * the fewest active rows (least fill-in) */
        int r = -1;
        for (int i = 0; i < n; i++)
            if (!row_done[i] && (r < 0 || rows[i].n < rows[r].n))
                r = i;
        if (rows[r].n == 0)
            goto cleanup; /* singular */
        int pk = 0;
        for (int k = 1; k < rows[r].n; k++)
            if (col_count[rows[r].col[k]] < col_count[rows[r].col[pk]])
                pk = k;
        int c = rows[r].col[pk];
        row_done[r] = true;
        piv_row[step] = r;
        piv_col[step] = c;
        for (int k = 0; k < rows[r].n; k++)
            col_count[rows[r].col[k]]--;

        /* eliminate c from every other active row: row_i -= (a_ic / a_rc) row_r */
        for (int q = 0; q < col_rows[c].n; q++) {
            int i = col_rows[c].rows[q];
            if (row_done[i])
                continue;
            int ic = srow_find(&rows[i], c);
            if (ic < 0)
                continue; /* stale entry: cancelled earlier */
            mpq_div(f, rows[i].val[ic], rows[r].val[pk]);
            srow_t *a = &rows[i], *b = &rows[r];
            tmp.n = 0;
            if (!srow_reserve(&tmp, a->n + b->n))
                goto cleanup;
            int ka = 0, kb = 0;
            while (ka < a->n || kb < b->n) {
                int ca = ka < a->n ? a->col[ka] : n, cb = kb < b->n ? b->col[kb] : n;
                if (ca < cb) {
                    tmp.col[tmp.n] = ca;
                    mpq_set(tmp.val[tmp.n++], a->val[ka++]);
                } else {
                    mpq_mul(t, f, b->val[kb]);
                    if (ca == cb)
                        mpq_sub(t, a->val[ka++], t);
                    else
                        mpq_neg(t, t);
                    kb++;
                    if (mpq_sgn(t) != 0) {
                        tmp.col[tmp.n] = cb;
                        mpq_set(tmp.val[tmp.n++], t);
                        if (ca != cb) { /* fill-in */
                            col_count[cb]++;
                            if (!ilist_push(&col_rows[cb], i))
                                goto cleanup;
                        }
                    } else if (ca == cb) {
                        col_count[cb]--; /* cancelled (always so for cb == c) */
                    }
                }
            }
            mpq_mul(t, f, rhs[r]);
            mpq_sub(rhs[i], rhs[i], t);
            /* the result into a's own storage when it has room: a swapped
             * buffer would carry a long row's capacity (the objective's row,
             * met by every elimination of a gossip's dual) into every short
             * row, which kept its values: 3 GB on a 100-processor gossip */
            if (a->cap >= tmp.n) {
                for (int k = 0; k < tmp.n; k++) {
                    a->col[k] = tmp.col[k];
                    mpq_swap(a->val[k], tmp.val[k]);
                }
                a->n = tmp.n;
            } else {
                srow_t swap = *a;
                *a = tmp;
                tmp = swap;
            }
        }
    }

    /* back substitution, last pivot first: row piv_row[s] only holds
     * columns pivoted at step s or later */
    for (int step = n - 1; step >= 0; step--) {
        int r = piv_row[step], c = piv_col[step];
        mpq_set(t, rhs[r]);
        int pc = -1;
        for (int k = 0; k < rows[r].n; k++) {
            if (rows[r].col[k] == c) {
                pc = k;
                continue;
            }
            mpq_mul(f, rows[r].val[k], x[rows[r].col[k]]);
            mpq_sub(t, t, f);
        }
        mpq_div(x[c], t, rows[r].val[pc]);
    }
    ok = true;

cleanup:
    mpq_clears(f, t, NULL);
    srow_free(&tmp);
    if (col_rows)
        for (int j = 0; j < n; j++)
            free(col_rows[j].rows);
    free(col_rows);
    free(col_count);
    free(row_done);
    free(piv_row);
    free(piv_col);
    return ok;
}

static int cmp_col(const void *a, const void *b)
{
    const lp_entry_t *x = *(const lp_entry_t *const *)a, *y = *(const lp_entry_t *const *)b;
    return (x->col > y->col) - (x->col < y->col);
}

/* Builds the rows of K (transposed: rows of K^T) from the model's entries
 * restricted to tight rows and basic columns, numbered by rmap / cmap. */
static bool build_system(const lp_model_t *m, const int *rmap, const int *cmap, int n,
                         bool transpose, srow_t *rows)
{
    /* count, then fill sorted by the inner index */
    int *count = calloc((size_t)n, sizeof *count);
    if (!count)
        return false;
    for (int k = 0; k < m->nnz; k++) {
        int i = rmap[m->a[k].row], j = cmap[m->a[k].col];
        if (i >= 0 && j >= 0)
            count[transpose ? j : i]++;
    }
    bool ok = true;
    for (int i = 0; i < n && ok; i++)
        ok = srow_reserve(&rows[i], count[i] ? count[i] : 1);
    free(count);
    if (!ok)
        return false;
    for (int k = 0; k < m->nnz; k++) {
        int i = rmap[m->a[k].row], j = cmap[m->a[k].col];
        if (i < 0 || j < 0)
            continue;
        srow_t *r = &rows[transpose ? j : i];
        r->col[r->n] = transpose ? i : j;
        mpq_set(r->val[r->n++], m->a[k].val);
    }
    /* sort each row by column (insertion sort: rows are short) */
    mpq_t tv;
    mpq_init(tv);
    for (int i = 0; i < n; i++) {
        srow_t *r = &rows[i];
        for (int a = 1; a < r->n; a++) {
            int c = r->col[a];
            mpq_swap(tv, r->val[a]);
            int b = a - 1;
            while (b >= 0 && r->col[b] > c) {
                r->col[b + 1] = r->col[b];
                mpq_swap(r->val[b + 1], r->val[b]);
                b--;
            }
            r->col[b + 1] = c;
            mpq_swap(r->val[b + 1], tv);
        }
    }
    mpq_clear(tv);
    return true;
}

bool lp_exact_solution(const lp_model_t *m, const lp_status_t *row_stat,
                       const lp_status_t *col_stat, mpq_t *x, mpq_t *dual, lp_watch_t *watch,
                       const char **why)
{
    bool ok = false;
    int n = 0, nb = 0;
    int *rmap = malloc((size_t)m->nrows * sizeof *rmap);
    int *cmap = malloc((size_t)m->ncols * sizeof *cmap);
    int *rinv = malloc((size_t)m->nrows * sizeof *rinv);
    int *cinv = malloc((size_t)m->ncols * sizeof *cinv);
    const lp_entry_t **bycol = malloc((size_t)m->nnz * sizeof *bycol);
    int *colstart = calloc((size_t)m->ncols + 1, sizeof *colstart);
    srow_t *rows = NULL;
    mpq_t *rhs = NULL, *sol = NULL, *pi = NULL, *act = NULL;
    mpq_t d, t;
    mpq_inits(d, t, NULL);
    *why = "out of memory in the exact recovery";
    if (!rmap || !cmap || !rinv || !cinv || !bycol || !colstart)
        goto cleanup;

    for (int i = 0; i < m->nrows; i++) {
        rmap[i] = row_stat[i] == LP_AT_BOUND ? n : -1;
        if (rmap[i] >= 0)
            rinv[n++] = i;
    }
    for (int j = 0; j < m->ncols; j++) {
        cmap[j] = col_stat[j] == LP_BASIC ? nb : -1;
        if (cmap[j] >= 0)
            cinv[nb++] = j;
    }
    if (n != nb) {
        *why = "GLPK's final basis is not square";
        goto cleanup;
    }
    rows = calloc((size_t)(n ? n : 1), sizeof *rows);
    rhs = malloc((size_t)(n ? n : 1) * sizeof *rhs);
    sol = malloc((size_t)(n ? n : 1) * sizeof *sol);
    pi = malloc((size_t)(n ? n : 1) * sizeof *pi);
    act = malloc((size_t)(m->nrows ? m->nrows : 1) * sizeof *act);
    if (!rows || !rhs || !sol || !pi || !act) {
        free(rhs);
        free(sol);
        free(pi);
        free(act);
        rhs = sol = pi = act = NULL;
        goto cleanup;
    }
    for (int i = 0; i < n; i++)
        mpq_inits(rhs[i], sol[i], pi[i], NULL);
    for (int i = 0; i < m->nrows; i++)
        mpq_init(act[i]);

    /* primal: K x_C = b_R */
    if (!build_system(m, rmap, cmap, n, false, rows))
        goto cleanup;
    for (int i = 0; i < n; i++)
        mpq_set_si(rhs[i], m->row_bound[rinv[i]], 1);
    if (!sparse_solve(n, rows, rhs, sol, watch, "exact recovery (primal), pivot")) {
        *why = watch && watch->expired ? "the exact recovery ran out of time"
                                       : "GLPK's final basis is singular in exact arithmetic";
        goto cleanup;
    }
    for (int j = 0; j < m->ncols; j++)
        mpq_set_ui(x[j], 0, 1);
    for (int i = 0; i < n; i++)
        mpq_set(x[cinv[i]], sol[i]);

    /* dual: K^T pi_R = -c_C (c is 1 on the objective column) */
    for (int i = 0; i < n; i++) {
        srow_free(&rows[i]);
        mpq_set_si(rhs[i], cinv[i] == m->obj ? -1 : 0, 1);
    }
    if (!build_system(m, rmap, cmap, n, true, rows))
        goto cleanup;
    if (!sparse_solve(n, rows, rhs, pi, watch, "exact recovery (dual), pivot")) {
        *why = watch && watch->expired ? "the exact recovery ran out of time"
                                       : "GLPK's final basis is singular in exact arithmetic";
        goto cleanup;
    }

    /* exact checks */
    for (int j = 0; j < m->ncols; j++)
        if (mpq_sgn(x[j]) < 0) {
            *why = "GLPK's basis is not primal feasible in exact arithmetic";
            goto cleanup;
        }
    for (int k = 0; k < m->nnz; k++) {
        mpq_mul(t, m->a[k].val, x[m->a[k].col]);
        mpq_add(act[m->a[k].row], act[m->a[k].row], t);
    }
    for (int i = 0; i < m->nrows; i++) {
        int c = mpq_cmp_si(act[i], m->row_bound[i], 1);
        if (m->row_kind[i] == ROW_FX ? c != 0 : c > 0) {
            *why = "GLPK's basis is not primal feasible in exact arithmetic";
            goto cleanup;
        }
        if (rmap[i] >= 0 && m->row_kind[i] == ROW_UP && mpq_sgn(pi[rmap[i]]) > 0) {
            *why = "GLPK's basis is not optimal in exact arithmetic";
            goto cleanup;
        }
    }
    /* reduced costs of the nonbasic columns, column by column */
    for (int k = 0; k < m->nnz; k++)
        bycol[k] = &m->a[k];
    qsort(bycol, (size_t)m->nnz, sizeof *bycol, cmp_col);
    for (int k = 0; k < m->nnz; k++)
        colstart[bycol[k]->col + 1]++;
    for (int j = 0; j < m->ncols; j++)
        colstart[j + 1] += colstart[j];
    for (int j = 0; j < m->ncols; j++) {
        if (cmap[j] >= 0)
            continue;
        mpq_set_si(d, j == m->obj ? 1 : 0, 1);
        for (int k = colstart[j]; k < colstart[j + 1]; k++) {
            int r = rmap[bycol[k]->row];
            if (r >= 0) {
                mpq_mul(t, bycol[k]->val, pi[r]);
                mpq_add(d, d, t);
            }
        }
        if (mpq_sgn(d) > 0) {
            *why = "GLPK's basis is not optimal in exact arithmetic";
            goto cleanup;
        }
    }
    if (dual) /* y = -pi: the prices of the tight rows, 0 on the basic ones */
        for (int i = 0; i < m->nrows; i++) {
            if (rmap[i] >= 0)
                mpq_neg(dual[i], pi[rmap[i]]);
            else
                mpq_set_ui(dual[i], 0, 1);
        }
    *why = "";
    ok = true;

cleanup:
    if (rows)
        for (int i = 0; i < n; i++)
            srow_free(&rows[i]);
    if (rhs)
        for (int i = 0; i < n; i++)
            mpq_clears(rhs[i], sol[i], pi[i], NULL);
    if (act)
        for (int i = 0; i < m->nrows; i++)
            mpq_clear(act[i]);
    mpq_clears(d, t, NULL);
    free(rows);
    free(rhs);
    free(sol);
    free(pi);
    free(act);
    free(rmap);
    free(cmap);
    free(rinv);
    free(cinv);
    free(bycol);
    free(colstart);
    return ok;
}
