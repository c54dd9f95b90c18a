/*
 * test_payload.c — the executor's payloads (runner/payload.c, built here
 * without MPI): the reduce values telescope (any interval's value is what
 * combining its participants' gives), the operator is associative and not
 * commutative (its commutative variant is), a value lost, combined twice,
 * out of order or from another operation changes every element, and any
 * part of a message is the same bytes as the whole message's.
 */
#include <stdlib.h>
#include <string.h>

#include "../../runner/payload.h"
#include "tests.h"

#define N 12
#define S 1003 /* 125 elements and 3 bytes of zeros */

static value_t reduce(int k, int m, bool commutative)
{
    return (value_t){STEADY_OP_REDUCE, k, m, commutative};
}

/* v[k,m] for operation op, whole. */
static unsigned char *value(int k, int m, bool commutative, long op, size_t size)
{
    unsigned char *v = malloc(size);
    payload_fill(reduce(k, m, commutative), op, size, 0, size, v);
    return v;
}

/* v_0 (+) ... (+) v_{n-1} for operation op, combined one by one. */
static unsigned char *composed(int n, bool commutative, long op, size_t size)
{
    unsigned char *acc = value(0, 0, commutative, op, size);
    for (int k = 1; k < n; k++) {
        unsigned char *own = value(k, k, commutative, op, size);
        payload_combine(acc, own, size, commutative, acc);
        free(own);
    }
    return acc;
}

/* The elements (8 bytes) in which a and b differ, of S / 8. */
static int differing(const unsigned char *a, const unsigned char *b)
{
    int n = 0;
    for (size_t e = 0; e < S / 8; e++)
        n += memcmp(a + 8 * e, b + 8 * e, 8) != 0;
    return n;
}

/* v[k,l] (+) v[l+1,m] = v[k,m] for every k <= l < m, and the
 * participants' own values combined in order give v[0,N-1]. */
static void test_telescoping(void)
{
    for (int c = 0; c < 2; c++) {
        unsigned char *out = malloc(S);
        int wrong = 0;
        for (int k = 0; k < N; k++)
            for (int m = k + 1; m < N; m++) {
                unsigned char *whole = value(k, m, c, 5, S);
                for (int l = k; l < m; l++) {
                    unsigned char *left = value(k, l, c, 5, S), *right = value(l + 1, m, c, 5, S);
                    payload_combine(left, right, S, c, out);
                    wrong += memcmp(out, whole, S) != 0;
                    free(left);
                    free(right);
                }
                free(whole);
            }
        CU_ASSERT_EQUAL(wrong, 0);
        unsigned char *acc = composed(N, c, 5, S), *all = value(0, N - 1, c, 5, S);
        CU_ASSERT_EQUAL(memcmp(acc, all, S), 0);
        CU_ASSERT_EQUAL(all[S - 3] | all[S - 2] | all[S - 1], 0);
        free(acc);
        free(all);
        free(out);
    }
}

/* A thousand participants, one by one, and the interval's value computed
 * at once: the same 8 elements. */
static void test_long_chain(void)
{
    enum { P = 1000, SMALL = 64 };
    unsigned char *acc = composed(P, false, 7, SMALL), *all = value(0, P - 1, false, 7, SMALL);
    CU_ASSERT_EQUAL(memcmp(acc, all, SMALL), 0);
    free(acc);
    free(all);
}

/* What verification must catch changes every element of the result; the
 * commutative operator takes its operands in any order. */
static void test_mistakes(void)
{
    unsigned char *out = malloc(S);
    for (int c = 0; c < 2; c++) {
        unsigned char *all = value(0, 9, c, 5, S);
        unsigned char *a = value(0, 4, c, 5, S), *b = value(5, 9, c, 5, S);
        /* out of order */
        payload_combine(b, a, S, c, out);
        CU_ASSERT_EQUAL(differing(out, all), c ? 0 : S / 8);
        /* v_4 lost */
        unsigned char *a3 = value(0, 3, c, 5, S);
        payload_combine(a3, b, S, c, out);
        CU_ASSERT_EQUAL(differing(out, all), S / 8);
        /* v_4 twice */
        unsigned char *b4 = value(4, 9, c, 5, S);
        payload_combine(a, b4, S, c, out);
        CU_ASSERT_EQUAL(differing(out, all), S / 8);
        /* another operation's */
        unsigned char *other = value(0, 9, c, 6, S);
        CU_ASSERT_EQUAL(differing(other, all), S / 8);
        /* one participant's own value is not the identity, nor another's */
        unsigned char *v2 = value(2, 2, c, 5, S), *v3 = value(3, 3, c, 5, S);
        CU_ASSERT_EQUAL(differing(v2, v3), S / 8);
        CU_ASSERT_EQUAL(payload_check(reduce(0, 9, c), 5, S, 0, S, all, out), true);
        all[S / 2] ^= 1;
        CU_ASSERT_EQUAL(payload_check(reduce(0, 9, c), 5, S, 0, S, all, out), false);
        free(v2);
        free(v3);
        free(other);
        free(b4);
        free(a3);
        free(a);
        free(b);
        free(all);
    }
    free(out);
}

/* Bytes [lo, hi) of a message on their own are the whole message's, for a
 * word stream and a reduce value, across PAYLOAD_CHUNK too; a flipped byte
 * in a span is caught. */
static void test_spans(void)
{
    enum { BIG = 3 * PAYLOAD_CHUNK + 5 };
    static const size_t span[][2] = {{0, 1},    {3, 11},       {7, 8},         {8, 16},
                                     {5, 1003}, {1000, 1003},  {996, 1001},    {1001, 1002},
                                     {0, BIG},  {13, BIG - 2}, {BIG - 7, BIG}, {65530, 131080}};
    const value_t values[] = {{STEADY_OP_SCATTER, 1, 2, false},
                              {STEADY_OP_BROADCAST, 0, 0, false},
                              reduce(2, 7, false),
                              reduce(2, 7, true)};
    unsigned char *whole = malloc(BIG), *part = malloc(BIG), *scratch = malloc(PAYLOAD_CHUNK);
    for (size_t v = 0; v < sizeof values / sizeof *values; v++)
        for (int big = 0; big < 2; big++) {
            size_t size = big ? BIG : S;
            payload_fill(values[v], 3, size, 0, size, whole);
            for (size_t i = 0; i < sizeof span / sizeof *span; i++) {
                size_t lo = span[i][0], hi = span[i][1];
                if (hi > size)
                    continue;
                payload_fill(values[v], 3, size, lo, hi, part);
                CU_ASSERT_EQUAL(memcmp(part, whole + lo, hi - lo), 0);
                CU_ASSERT(payload_check(values[v], 3, size, lo, hi, whole + lo, scratch));
                part[(hi - lo) / 2] ^= 0x80;
                CU_ASSERT(!payload_check(values[v], 3, size, lo, hi, part, scratch));
            }
        }
    free(whole);
    free(part);
    free(scratch);
}

void suite_payload(void)
{
    static const CU_TestInfo tests[] = {
        {"reduce values telescope: v[k,l] (+) v[l+1,m] = v[k,m]", test_telescoping},
        {"a thousand participants composed one by one", test_long_chain},
        {"out of order, lost, twice, another operation: every element differs", test_mistakes},
        {"any part of a message is the whole message's", test_spans},
        CU_TEST_INFO_NULL,
    };
    add_suite("payload", tests);
}
