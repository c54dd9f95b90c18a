/*
 * test_matching.c — the weighted bipartite edge colouring of paper §3.3:
 * hand-built periods whose decomposition is known, random instances checked
 * against the theorem (every slot a matching, every comm covered exactly,
 * slot durations adding up to the largest port load), degenerate periods
 * and input errors.  Every property is re-checked here from the public
 * result, independently of the library's own check.
 */
#include <gmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "steady/decompose.h"
#include "tests.h"

/* A period: comms src[k] -> dst[k] lasting num[k]/den[k]. */
typedef struct {
    int n, ncomms;
    int src[64], dst[64];
    mpq_t dur[64];
} period_t;

static void period_init(period_t *p, int n)
{
    memset(p, 0, sizeof *p);
    p->n = n;
    for (int k = 0; k < 64; k++)
        mpq_init(p->dur[k]);
}

static void period_clear(period_t *p)
{
    for (int k = 0; k < 64; k++)
        mpq_clear(p->dur[k]);
}

static void add_comm(period_t *p, int src, int dst, long num, unsigned long den)
{
    int k = p->ncomms++;
    p->src[k] = src;
    p->dst[k] = dst;
    mpq_set_si(p->dur[k], num, den);
    mpq_canonicalize(p->dur[k]);
}

static steady_matchings_t *decompose_ok(const period_t *p)
{
    steady_matchings_t *m = NULL;
    steady_error_t err = {0};
    steady_err_t rc = steady_matchings_decompose(p->n, p->ncomms, p->src, p->dst,
                                                 (const mpq_t *)p->dur, &m, &err);
    if (rc)
        fprintf(stderr, "\n    unexpected decompose error: %s\n", err.msg);
    CU_ASSERT_EQUAL(rc, STEADY_OK);
    return m;
}

/* max(#distinct senders, #distinct receivers): the k of the slot bound
 * nslots <= E + k - 1 proven in decompose/matching.c. */
static int port_count(const period_t *p)
{
    int ns = 0, nr = 0;
    for (int v = 0; v < p->n; v++) {
        bool s = false, r = false;
        for (int k = 0; k < p->ncomms; k++) {
            s |= p->src[k] == v;
            r |= p->dst[k] == v;
        }
        ns += s;
        nr += r;
    }
    return ns > nr ? ns : nr;
}

/* E: the distinct (sender, receiver) pairs. */
static int pair_count(const period_t *p)
{
    int n = 0;
    for (int k = 0; k < p->ncomms; k++) {
        bool first = true;
        for (int j = 0; j < k && first; j++)
            first = p->src[j] != p->src[k] || p->dst[j] != p->dst[k];
        n += first;
    }
    return n;
}

/* The largest port load W, summed here from the comms. */
static void max_load(const period_t *p, mpq_t w)
{
    mpq_t ls, lr;
    mpq_inits(ls, lr, NULL);
    mpq_set_ui(w, 0, 1);
    for (int v = 0; v < p->n; v++) {
        mpq_set_ui(ls, 0, 1);
        mpq_set_ui(lr, 0, 1);
        for (int k = 0; k < p->ncomms; k++) {
            if (p->src[k] == v)
                mpq_add(ls, ls, p->dur[k]);
            if (p->dst[k] == v)
                mpq_add(lr, lr, p->dur[k]);
        }
        if (mpq_cmp(ls, w) > 0)
            mpq_set(w, ls);
        if (mpq_cmp(lr, w) > 0)
            mpq_set(w, lr);
    }
    mpq_clears(ls, lr, NULL);
}

/* Counts the violations of the decomposition theorem in m: a slot of
 * non-positive duration or with no comm; a comm out of range, twice in a
 * slot or for a non-positive time; a port working with two peers in a
 * slot, or its comms there not one after another in the list, or longer
 * than the slot together; a comm covered for the wrong time; slot
 * durations not adding up to W (nor to m->total); more slots than E + k -
 * 1; and a port of load W idle for part of some slot (it must work during
 * the whole period). */
static int violations(const period_t *p, const steady_matchings_t *m)
{
    int bad = 0;
    mpq_t w, sum, cover[64], ls[64], lr[64], bs[64], br[64];
    mpq_inits(w, sum, NULL);
    for (int k = 0; k < 64; k++)
        mpq_inits(cover[k], ls[k], lr[k], bs[k], br[k], NULL);
    max_load(p, w);
    for (int k = 0; k < p->ncomms; k++) {
        mpq_add(ls[p->src[k]], ls[p->src[k]], p->dur[k]);
        mpq_add(lr[p->dst[k]], lr[p->dst[k]], p->dur[k]);
    }
    int bound = p->ncomms ? pair_count(p) + port_count(p) - 1 : 0;
    bad += m->nslots > bound;
    for (int s = 0; s < m->nslots; s++) {
        const steady_slot_t *slot = &m->slots[s];
        int peer_s[64], peer_r[64], last_s[64];
        bool in[64] = {false};
        for (int v = 0; v < 64; v++) {
            peer_s[v] = peer_r[v] = last_s[v] = -1;
            mpq_set_ui(bs[v], 0, 1);
            mpq_set_ui(br[v], 0, 1);
        }
        bad += mpq_sgn(slot->duration) <= 0;
        bad += slot->ncomms < 1;
        mpq_add(sum, sum, slot->duration);
        for (int q = 0; q < slot->ncomms; q++) {
            int k = slot->comms[q];
            if (k < 0 || k >= p->ncomms || in[k] || mpq_sgn(slot->time[q]) <= 0) {
                bad++;
                continue;
            }
            in[k] = true;
            int u = p->src[k], v = p->dst[k];
            bad += (peer_s[u] >= 0 && peer_s[u] != v) || (peer_r[v] >= 0 && peer_r[v] != u);
            bad += last_s[u] >= 0 && last_s[u] != q - 1; /* a sender's comms in a row */
            peer_s[u] = v;
            peer_r[v] = u;
            last_s[u] = q;
            mpq_add(bs[u], bs[u], slot->time[q]);
            mpq_add(br[v], br[v], slot->time[q]);
            mpq_add(cover[k], cover[k], slot->time[q]);
        }
        for (int v = 0; v < p->n; v++) {
            bad += (mpq_cmp(bs[v], slot->duration) > 0) + (mpq_cmp(br[v], slot->duration) > 0);
            bad += (mpq_equal(ls[v], w) && !mpq_equal(bs[v], slot->duration)) +
                   (mpq_equal(lr[v], w) && !mpq_equal(br[v], slot->duration));
        }
    }
    for (int k = 0; k < p->ncomms; k++)
        bad += !mpq_equal(cover[k], p->dur[k]);
    bad += !mpq_equal(sum, w);
    bad += !mpq_equal(m->total, w);
    mpq_clears(w, sum, NULL);
    for (int k = 0; k < 64; k++)
        mpq_clears(cover[k], ls[k], lr[k], bs[k], br[k], NULL);
    return bad;
}

static void assert_total(const steady_matchings_t *m, long num, unsigned long den)
{
    mpq_t want;
    mpq_init(want);
    mpq_set_si(want, num, den);
    mpq_canonicalize(want);
    if (!mpq_equal(m->total, want))
        gmp_fprintf(stderr, "\n    total = %Qd, want %Qd\n", m->total, want);
    CU_ASSERT(mpq_equal(m->total, want));
    mpq_clear(want);
}

/* Figure 2-3 style: a scatter from S = 0 through relays A = 1 and B = 2 to
 * targets P0 = 3 and P1 = 4, over a period of 1.  Two message types cross
 * S -> B (two parallel comms).  Port loads: S sends 1/2 + 1/6 + 1/3 = 1,
 * A sends 1/3 + 1/6 = 1/2, B sends 2/3; A receives 1/2, B 1/2, P0 1/3,
 * P1 1/6 + 2/3 = 5/6.  W = 1 at S's send port, so S sends in every slot. */
static void test_paper_scatter(void)
{
    period_t p;
    period_init(&p, 5);
    add_comm(&p, 0, 1, 1, 2); /* S -> A, m0 and m1 */
    add_comm(&p, 0, 2, 1, 6); /* S -> B, m0 */
    add_comm(&p, 0, 2, 1, 3); /* S -> B, m1 */
    add_comm(&p, 1, 3, 1, 3); /* A -> P0 */
    add_comm(&p, 1, 4, 1, 6); /* A -> P1 */
    add_comm(&p, 2, 4, 2, 3); /* B -> P1 */
    steady_matchings_t *m = decompose_ok(&p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    assert_total(m, 1, 1);
    CU_ASSERT_EQUAL(violations(&p, m), 0);
    /* S's two edges are sequential: at least 2 slots; the bound is
     * E + max(3 senders, 4 receivers) - 1 = 5 + 4 - 1 = 8 */
    CU_ASSERT(m->nslots >= 2);
    CU_ASSERT(m->nslots <= 8);
    /* the parallel comms 1 and 2 (both S -> B) are one edge, 1 then 2:
     * where they share a slot, 1 ends in it and 2 follows */
    for (int s = 0; s < m->nslots; s++)
        for (int q = 0; q + 1 < m->slots[s].ncomms; q++)
            if (m->slots[s].comms[q + 1] == 2)
                CU_ASSERT_EQUAL(m->slots[s].comms[q], 1);
    steady_matchings_destroy(m);
    period_clear(&p);
}

/* All-to-all among 3 nodes, unit durations: a 2-regular bipartite graph
 * whose only decompositions are the two 3-cycles, each for 1 time unit. */
static void test_gossip_cycles(void)
{
    period_t p;
    period_init(&p, 3);
    add_comm(&p, 0, 1, 1, 1); /* 0 */
    add_comm(&p, 0, 2, 1, 1); /* 1 */
    add_comm(&p, 1, 0, 1, 1); /* 2 */
    add_comm(&p, 1, 2, 1, 1); /* 3 */
    add_comm(&p, 2, 0, 1, 1); /* 4 */
    add_comm(&p, 2, 1, 1, 1); /* 5 */
    steady_matchings_t *m = decompose_ok(&p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    assert_total(m, 2, 1);
    CU_ASSERT_EQUAL(violations(&p, m), 0);
    CU_ASSERT_EQUAL_FATAL(m->nslots, 2);
    /* 0->1, 1->2, 2->0 = {0, 3, 4} and 0->2, 1->0, 2->1 = {1, 2, 5} */
    const int c1[] = {0, 3, 4}, c2[] = {1, 2, 5};
    int first = m->slots[0].comms[0] == 0 ? 0 : 1;
    CU_ASSERT_EQUAL_FATAL(m->slots[first].ncomms, 3);
    CU_ASSERT_EQUAL_FATAL(m->slots[1 - first].ncomms, 3);
    CU_ASSERT(memcmp(m->slots[first].comms, c1, sizeof c1) == 0);
    CU_ASSERT(memcmp(m->slots[1 - first].comms, c2, sizeof c2) == 0);
    for (int s = 0; s < 2; s++)
        CU_ASSERT(mpq_cmp_ui(m->slots[s].duration, 1, 1) == 0);
    steady_matchings_destroy(m);
    period_clear(&p);
}

static void test_empty(void)
{
    period_t p;
    period_init(&p, 3);
    steady_matchings_t *m = decompose_ok(&p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(m->nslots, 0);
    CU_ASSERT_EQUAL(mpq_sgn(m->total), 0);
    steady_matchings_destroy(m);
    /* no node at all */
    p.n = 0;
    m = decompose_ok(&p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL(m->nslots, 0);
    CU_ASSERT_EQUAL(mpq_sgn(m->total), 0);
    steady_matchings_destroy(m);
    steady_matchings_destroy(NULL);
    period_clear(&p);
}

/* One 1 MiB message on 125 MB/s: one slot of 1048576/125000000 = 131072/15625000. */
static void test_one_comm(void)
{
    period_t p;
    period_init(&p, 4);
    add_comm(&p, 3, 1, 1048576, 125000000);
    steady_matchings_t *m = decompose_ok(&p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(m->nslots, 1);
    CU_ASSERT_EQUAL_FATAL(m->slots[0].ncomms, 1);
    CU_ASSERT_EQUAL(m->slots[0].comms[0], 0);
    CU_ASSERT(mpq_equal(m->slots[0].duration, p.dur[0]));
    assert_total(m, 1048576, 125000000);
    CU_ASSERT_EQUAL(violations(&p, m), 0);
    steady_matchings_destroy(m);
    period_clear(&p);
}

/* Everything from node 0: its send port serialises the comms, one per slot,
 * and the period is their sum 1 + 1/2 + 1/3 + 1/4 + 1/5 = 137/60. */
static void test_star(void)
{
    period_t p;
    period_init(&p, 6);
    for (int j = 1; j <= 5; j++)
        add_comm(&p, 0, j, 1, (unsigned long)j);
    steady_matchings_t *m = decompose_ok(&p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    assert_total(m, 137, 60);
    CU_ASSERT_EQUAL(violations(&p, m), 0);
    for (int s = 0; s < m->nslots; s++)
        CU_ASSERT_EQUAL(m->slots[s].ncomms, 1);
    CU_ASSERT(m->nslots >= 5);
    CU_ASSERT(m->nslots <= 5 + 5 - 1);
    steady_matchings_destroy(m);
    period_clear(&p);

    /* the reverse star: everything to node 0, also sequential */
    period_init(&p, 4);
    add_comm(&p, 1, 0, 2, 3);
    add_comm(&p, 2, 0, 2, 3);
    add_comm(&p, 3, 0, 2, 3);
    add_comm(&p, 3, 0, 1, 7); /* parallel to the previous one */
    m = decompose_ok(&p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    assert_total(m, 2 * 7 + 1, 7);
    CU_ASSERT_EQUAL(violations(&p, m), 0);
    /* one sender per slot: the last two comms are one edge, back to back */
    for (int s = 0; s < m->nslots; s++)
        for (int q = 1; q < m->slots[s].ncomms; q++)
            CU_ASSERT_EQUAL(p.src[m->slots[s].comms[q]], 3);
    CU_ASSERT(m->nslots >= 3);
    steady_matchings_destroy(m);
    period_clear(&p);
}

/* A permutation i -> i + 2 mod 5 with equal durations is one matching:
 * one slot holding every comm.  With unequal durations it still fits in
 * the longest one, W = max, in at most 5 + 5 - 1 slots. */
static void test_permutation(void)
{
    period_t p;
    period_init(&p, 5);
    for (int i = 0; i < 5; i++)
        add_comm(&p, i, (i + 2) % 5, 3, 7);
    steady_matchings_t *m = decompose_ok(&p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    CU_ASSERT_EQUAL_FATAL(m->nslots, 1);
    CU_ASSERT_EQUAL(m->slots[0].ncomms, 5);
    for (int q = 0; q < m->slots[0].ncomms; q++)
        CU_ASSERT_EQUAL(m->slots[0].comms[q], q);
    assert_total(m, 3, 7);
    CU_ASSERT_EQUAL(violations(&p, m), 0);
    steady_matchings_destroy(m);
    period_clear(&p);

    period_init(&p, 5);
    for (int i = 0; i < 5; i++)
        add_comm(&p, i, (i + 2) % 5, i + 1, 4);
    m = decompose_ok(&p);
    CU_ASSERT_PTR_NOT_NULL_FATAL(m);
    assert_total(m, 5, 4);
    CU_ASSERT_EQUAL(violations(&p, m), 0);
    steady_matchings_destroy(m);
    period_clear(&p);
}

static uint64_t next(uint64_t *state) /* splitmix64 */
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static int below(uint64_t *state, int bound)
{
    return (int)(next(state) % (uint64_t)bound);
}

/* The runs of consecutive slots that carry a comm, over all comms. */
static int count_runs(const steady_matchings_t *m, int ncomms)
{
    int runs = 0;
    for (int c = 0; c < ncomms; c++)
        for (int s = 0; s < m->nslots; s++) {
            bool in = false, before = false;
            for (int q = 0; q < m->slots[s].ncomms; q++)
                in |= m->slots[s].comms[q] == c;
            for (int q = 0; s > 0 && q < m->slots[s - 1].ncomms; q++)
                before |= m->slots[s - 1].comms[q] == c;
            runs += in && !before;
        }
    return runs;
}

/* 200 random periods: 2..12 nodes, 0..40 comms, durations a/b with
 * a in 1..20 and b in 1..6, about a third of the comms parallel to an
 * earlier one.  Every decomposition must satisfy the theorem, and the same
 * input must give the same slots; with both rules.  The matchings kept
 * from round to round cut the comms into fewer runs than those taken
 * afresh, in all (a comm's run ends early only when an augmenting path
 * moves it). */
static void test_random(void)
{
    uint64_t state = 20240611;
    int total_slots = 0, total_comms = 0, runs_keep = 0, runs_fresh = 0;
    for (int inst = 0; inst < 200; inst++) {
        period_t p;
        period_init(&p, 2 + below(&state, 11));
        int nc = below(&state, 41);
        for (int k = 0; k < nc; k++) {
            int s, d;
            if (k > 0 && below(&state, 3) == 0) {
                int j = below(&state, k);
                s = p.src[j];
                d = p.dst[j];
            } else {
                s = below(&state, p.n);
                d = (s + 1 + below(&state, p.n - 1)) % p.n;
            }
            add_comm(&p, s, d, 1 + below(&state, 20), 1 + (unsigned long)below(&state, 6));
        }
        steady_matchings_t *m = decompose_ok(&p), *again = decompose_ok(&p);
        CU_ASSERT_PTR_NOT_NULL_FATAL(m);
        CU_ASSERT_PTR_NOT_NULL_FATAL(again);
        int bad = violations(&p, m);
        if (bad)
            fprintf(stderr, "\n    instance %d: %d violations\n", inst, bad);
        CU_ASSERT_EQUAL(bad, 0);
        /* deterministic */
        CU_ASSERT_EQUAL_FATAL(again->nslots, m->nslots);
        for (int s = 0; s < m->nslots; s++) {
            CU_ASSERT(mpq_equal(again->slots[s].duration, m->slots[s].duration));
            CU_ASSERT_EQUAL_FATAL(again->slots[s].ncomms, m->slots[s].ncomms);
            CU_ASSERT(memcmp(again->slots[s].comms, m->slots[s].comms,
                             (size_t)m->slots[s].ncomms * sizeof(int)) == 0);
            for (int q = 0; q < m->slots[s].ncomms; q++)
                CU_ASSERT(mpq_equal(again->slots[s].time[q], m->slots[s].time[q]));
        }
        total_slots += m->nslots;
        total_comms += p.ncomms;
        steady_matchings_t *fresh = NULL;
        CU_ASSERT_EQUAL(steady_matchings_decompose_rule(p.n, p.ncomms, p.src, p.dst,
                                                        (const mpq_t *)p.dur, STEADY_MATCHING_FRESH,
                                                        &fresh, NULL),
                        STEADY_OK);
        CU_ASSERT_PTR_NOT_NULL_FATAL(fresh);
        CU_ASSERT_EQUAL(violations(&p, fresh), 0);
        runs_keep += count_runs(m, p.ncomms);
        runs_fresh += count_runs(fresh, p.ncomms);
        steady_matchings_destroy(fresh);
        steady_matchings_destroy(m);
        steady_matchings_destroy(again);
        period_clear(&p);
    }
    CU_ASSERT(total_comms > 0);
    CU_ASSERT(total_slots > 0);
    /* 4609 and 5392 runs of 4103 comms when written */
    CU_ASSERT(runs_keep < runs_fresh);
    CU_ASSERT(runs_keep >= total_comms);
}

static void test_errors(void)
{
    const struct {
        int n, src, dst;
        long num;
        const char *msg;
    } cases[] = {
        {3, 0, 1, 0, "comm 1: duration must be positive (0)"},
        {3, 0, 1, -1, "comm 1: duration must be positive (-1/2)"},
        {3, 2, 2, 1, "comm 1: node 2 cannot send to itself"},
        {3, 3, 0, 1, "comm 1: unknown node id in src (3)"},
        {3, -1, 0, 1, "comm 1: unknown node id in src (-1)"},
        {3, 0, 7, 1, "comm 1: unknown node id in dst (7)"},
        {-1, 0, 1, 1, "negative node count (-1)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        /* comm 0 is valid, comm 1 is the case */
        int src[] = {1, cases[i].src}, dst[] = {0, cases[i].dst};
        mpq_t dur[2];
        mpq_inits(dur[0], dur[1], NULL);
        mpq_set_ui(dur[0], 1, 1);
        mpq_set_si(dur[1], cases[i].num, 2);
        mpq_canonicalize(dur[1]);
        steady_matchings_t sentinel, *m = &sentinel; /* must come back NULL */
        steady_error_t err = {0};
        CU_ASSERT_EQUAL(
            steady_matchings_decompose(cases[i].n, 2, src, dst, (const mpq_t *)dur, &m, &err),
            STEADY_EINVAL);
        CU_ASSERT_PTR_NULL(m);
        if (strcmp(err.msg, cases[i].msg) != 0)
            fprintf(stderr, "\n    case %zu: got \"%s\"\n", i, err.msg);
        CU_ASSERT_STRING_EQUAL(err.msg, cases[i].msg);
        CU_ASSERT_EQUAL(err.code, STEADY_EINVAL);
        mpq_clears(dur[0], dur[1], NULL);
    }
    steady_matchings_t *m = NULL;
    steady_error_t err = {0};
    CU_ASSERT_EQUAL(steady_matchings_decompose(2, -3, NULL, NULL, NULL, &m, &err), STEADY_EINVAL);
    CU_ASSERT_STRING_EQUAL(err.msg, "negative communication count (-3)");
    CU_ASSERT_PTR_NULL(m);
}

void suite_matching(void)
{
    static const CU_TestInfo tests[] = {{"paper-style scatter period: W = 1", test_paper_scatter},
                                        {"3-node all-to-all: the two 3-cycles", test_gossip_cycles},
                                        {"no comms: no slot, total 0", test_empty},
                                        {"one comm: one slot", test_one_comm},
                                        {"stars are sequential", test_star},
                                        {"permutation: one slot", test_permutation},
                                        {"200 random periods satisfy the theorem", test_random},
                                        {"input errors", test_errors},
                                        CU_TEST_INFO_NULL};
    add_suite("bipartite edge colouring", tests);
}
