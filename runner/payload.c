/*
 * payload.c — the bytes steady-run moves, recomputable by whoever checks
 * them (payload.h).
 *
 * Messages of a scatter, a gossip or a broadcast are a stream of 64-bit
 * little-endian words, word w of a message being splitmix64(seed + w)
 * with the seed hashed from (kind, a, b, op): one multiply-xorshift chain
 * per 8 bytes (4-5 GB/s to fill or to check on the development machine),
 * so that filling and checking every byte of a run costs about what moving
 * it does.  Any part [lo, hi) of a message is computed on its
 * own, which lets a receiver check a message split across slots part by
 * part.
 *
 * Reduce values are affine maps x -> alpha x + beta modulo 2^32 with an
 * odd alpha (the maps that are invertible: native 32-bit arithmetic, no
 * reduction), telescoped so that any interval's value costs what one
 * participant's does.  Maps Q_0 .. Q_N are drawn from the seeds of
 * (k, op): Q_k's element e is (lo32(x) | 1, hi32(x)) with
 * x = splitmix64(seed(k, op) + e).  Participant k's value is
 * v_k = Q_k^-1 (+) Q_{k+1}, so that v[k,m] = v_k (+) ... (+) v_m =
 * Q_k^-1 (+) Q_{m+1}: the inner maps cancel, and the target checks a
 * result of N participants by recomputing two maps and an inverse per
 * element (Newton's iteration: 3 steps of 2 multiplies), not N.  A value
 * combined in the wrong order, lost, combined twice or taken from another
 * operation leaves an uncancelled pair of independent maps, which are
 * equal with probability 2^-31 per element.
 *
 * The commutative operator (steady-run --algo, for trees that do not keep
 * the rank order) works on the same elements: (alpha, beta) (+)
 * (alpha', beta') = (alpha alpha', beta + beta') mod 2^32, the product of
 * the multiplicative group of odd residues and the additive group, with
 * v_k = (a_{k+1} / a_k, b_{k+1} - b_k) for Q_k = (a_k, b_k): v[k,m] =
 * (a_{m+1} / a_k, b_{m+1} - b_k).  Commutative and associative, so only
 * the set of values combined matters; a value lost or combined twice
 * leaves a factor a_{j+1} / a_j != 1 (almost surely).
 */
#include <stdint.h>
#include <string.h>

#include "payload.h"

static inline uint64_t splitmix64(uint64_t z)
{
    z += 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* The seed of a message: distinct kinds, endpoints and operations give
 * unrelated word streams. */
static uint64_t seed_of(int kind, int a, int b, long op)
{
    uint64_t h = splitmix64((uint64_t)kind * 0x100000001b3u + (uint64_t)(uint32_t)a);
    h = splitmix64(h ^ (uint64_t)(uint32_t)b);
    return splitmix64(h ^ (uint64_t)op);
}

/* Little-endian stores and loads, so that every rank computes the same
 * bytes whatever its byte order (written out so that compilers turn them
 * into plain moves). */
static inline void store_le32(unsigned char *out, uint32_t x)
{
    out[0] = (unsigned char)x;
    out[1] = (unsigned char)(x >> 8);
    out[2] = (unsigned char)(x >> 16);
    out[3] = (unsigned char)(x >> 24);
}

static inline uint32_t load_le32(const unsigned char *in)
{
    return (uint32_t)in[0] | (uint32_t)in[1] << 8 | (uint32_t)in[2] << 16 | (uint32_t)in[3] << 24;
}

static inline void store_le64(unsigned char *out, uint64_t x)
{
    store_le32(out, (uint32_t)x);
    store_le32(out + 4, (uint32_t)(x >> 32));
}

static inline uint64_t load_le64(const unsigned char *in)
{
    return (uint64_t)load_le32(in) | (uint64_t)load_le32(in + 4) << 32;
}

/* The inverse of an odd x modulo 2^32: (3 x) ^ 2 is right in its low 5
 * bits, and each Newton step y (2 - x y) doubles them. */
static inline uint32_t inverse(uint32_t x)
{
    uint32_t y = (3 * x) ^ 2;
    y *= 2 - x * y;
    y *= 2 - x * y;
    y *= 2 - x * y;
    return y;
}

/* f (+) g: f first, then g. */
static inline void compose(uint32_t *alpha, uint32_t *beta, uint32_t ga, uint32_t gb)
{
    *beta = ga * *beta + gb;
    *alpha *= ga;
}

/* The commutative operator: (alpha_f alpha_g, beta_f + beta_g). */
static inline void combine_comm(uint32_t *alpha, uint32_t *beta, uint32_t ga, uint32_t gb)
{
    *beta += gb;
    *alpha *= ga;
}

/* Element e of v[k,m] for op (Q_k and Q_{m+1} from their seeds), as its 8
 * bytes. */
static inline void reduce_element(uint64_t seed_k, uint64_t seed_m1, bool commutative, size_t e,
                                  unsigned char out[8])
{
    uint64_t x = splitmix64(seed_k + e), y = splitmix64(seed_m1 + e);
    uint32_t ka = inverse((uint32_t)x | 1), kb = (uint32_t)(x >> 32);
    uint32_t ma = (uint32_t)y | 1, mb = (uint32_t)(y >> 32);
    uint32_t alpha = ka * ma, beta;
    if (commutative)
        beta = mb - kb; /* (a_k, b_k)^-1 (+) (a_{m+1}, b_{m+1}) */
    else
        beta = mb - ma * ka * kb; /* (1 / a_k, -b_k / a_k) (+) Q_{m+1} */
    store_le32(out, alpha);
    store_le32(out + 4, beta);
}

/* Bytes [lo, hi) of a word stream (little-endian words): whole words at
 * once, the parts of the first and last words byte by byte. */
static void fill_words(uint64_t seed, size_t lo, size_t hi, unsigned char *out)
{
    size_t at = lo;
    for (; at < hi && at % 8; at++)
        out[at - lo] = (unsigned char)(splitmix64(seed + at / 8) >> (8 * (at % 8)));
    for (; at + 8 <= hi; at += 8)
        store_le64(out + (at - lo), splitmix64(seed + at / 8));
    for (; at < hi; at++)
        out[at - lo] = (unsigned char)(splitmix64(seed + at / 8) >> (8 * (at % 8)));
}

/* True when data holds bytes [lo, hi) of a word stream. */
static bool check_words(uint64_t seed, size_t lo, size_t hi, const unsigned char *data)
{
    size_t at = lo;
    for (; at < hi && at % 8; at++)
        if (data[at - lo] != (unsigned char)(splitmix64(seed + at / 8) >> (8 * (at % 8))))
            return false;
    uint64_t diff = 0;
    for (; at + 8 <= hi; at += 8)
        diff |= load_le64(data + (at - lo)) ^ splitmix64(seed + at / 8);
    for (; at < hi; at++)
        if (data[at - lo] != (unsigned char)(splitmix64(seed + at / 8) >> (8 * (at % 8))))
            return false;
    return diff == 0;
}

/* Bytes [lo, hi) of the reduce value v[k,m]: its elements, then zeros. */
static void fill_reduce(int k, int m, bool commutative, long op, size_t S, size_t lo, size_t hi,
                        unsigned char *out)
{
    uint64_t seed_k = seed_of(STEADY_OP_REDUCE, k, k, op);
    uint64_t seed_m1 = seed_of(STEADY_OP_REDUCE, m + 1, m + 1, op);
    size_t elements = S / 8, at = lo, e = lo / 8;
    if (at % 8 && e < elements) { /* the part of a first element */
        unsigned char part[8];
        reduce_element(seed_k, seed_m1, commutative, e++, part);
        size_t n = 8 - at % 8 < hi - at ? 8 - at % 8 : hi - at;
        memcpy(out, part + at % 8, n);
        at += n;
    }
    for (; at + 8 <= hi && e < elements; at += 8, e++)
        reduce_element(seed_k, seed_m1, commutative, e, out + (at - lo));
    if (at < hi && e < elements) { /* the part of a last element */
        unsigned char part[8];
        reduce_element(seed_k, seed_m1, commutative, e, part);
        size_t n = hi - at < 8 ? hi - at : 8;
        memcpy(out + (at - lo), part, n);
        at += n;
    }
    if (at < hi)
        memset(out + (at - lo), 0, hi - at);
}

void payload_fill(value_t v, long op, size_t S, size_t lo, size_t hi, unsigned char *out)
{
    if (v.op == STEADY_OP_REDUCE)
        fill_reduce(v.a, v.b, v.commutative, op, S, lo, hi, out);
    else
        fill_words(seed_of(v.op, v.a, v.b, op), lo, hi, out);
}

bool payload_check(value_t v, long op, size_t S, size_t lo, size_t hi, const unsigned char *data,
                   unsigned char *scratch)
{
    if (v.op != STEADY_OP_REDUCE)
        return check_words(seed_of(v.op, v.a, v.b, op), lo, hi, data);
    for (size_t at = lo; at < hi; at += PAYLOAD_CHUNK) {
        size_t end = hi - at > PAYLOAD_CHUNK ? at + PAYLOAD_CHUNK : hi;
        payload_fill(v, op, S, at, end, scratch);
        if (memcmp(scratch, data + (at - lo), end - at) != 0)
            return false;
    }
    return true;
}

void payload_combine(const unsigned char *left, const unsigned char *right, size_t S,
                     bool commutative, unsigned char *out)
{
    size_t elements = S / 8;
    for (size_t e = 0; e < elements; e++) {
        uint32_t alpha = load_le32(left + 8 * e), beta = load_le32(left + 8 * e + 4);
        uint32_t ga = load_le32(right + 8 * e), gb = load_le32(right + 8 * e + 4);
        if (commutative)
            combine_comm(&alpha, &beta, ga, gb);
        else
            compose(&alpha, &beta, ga, gb);
        store_le32(out + 8 * e, alpha);
        store_le32(out + 8 * e + 4, beta);
    }
    for (size_t i = 8 * elements; i < S; i++)
        out[i] = left[i] | right[i];
}
