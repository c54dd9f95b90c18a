/*
 * payload.c — the bytes steady-run moves, recomputable by whoever checks
 * them (runner.h, "payloads").
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
 * Reduce values are affine maps modulo the Mersenne prime p = 2^31 - 1
 * (reduction by shift and add, no division).  Participant k's own value
 * v_k for op has element e = (1 + floor(lo32(x) (p - 1) / 2^32),
 * floor(hi32(x) p / 2^32)) with x = splitmix64(seed(k, op) + e); v[k,m] is
 * their ordered composition, which the target recomputes directly
 * (m - k + 1 maps per element) to check what the reduction trees made.
 *
 * The commutative operator (steady-run --algo, for trees that do not keep
 * the rank order) works on the same elements: (alpha, beta) (+)
 * (alpha', beta') = (alpha alpha', beta + beta') mod p, the product of the
 * multiplicative and the additive group.  Commutative and associative,
 * so only the set of values combined matters; a value lost or combined
 * twice still changes the result (alpha != 1 almost surely).
 */
#include <string.h>

#include "runner.h"

#define PRIME 0x7fffffffu /* 2^31 - 1 */

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

/* x y mod p for x, y < p: the product is below 2^62, and 2^31 = 1 mod p. */
static inline uint32_t mulmod(uint32_t x, uint32_t y)
{
    uint64_t t = (uint64_t)x * y;
    uint64_t r = (t & PRIME) + (t >> 31);
    return (uint32_t)(r >= PRIME ? r - PRIME : r);
}

static inline uint32_t addmod(uint32_t x, uint32_t y)
{
    uint32_t r = x + y; /* both below 2^31: no overflow */
    return r >= PRIME ? r - PRIME : r;
}

/* f (+) g: f first, then g. */
static inline void compose(uint32_t *alpha, uint32_t *beta, uint32_t ga, uint32_t gb)
{
    *beta = addmod(mulmod(ga, *beta), gb);
    *alpha = mulmod(*alpha, ga);
}

/* Participant k's own element e for op: the two halves of a word mapped
 * onto [1, p - 1] and [0, p - 1] by a multiply and a shift (no division). */
static inline void own_element(uint64_t seed, size_t e, uint32_t *alpha, uint32_t *beta)
{
    uint64_t x = splitmix64(seed + e);
    *alpha = 1 + (uint32_t)(((x & 0xffffffffu) * (PRIME - 1)) >> 32);
    *beta = (uint32_t)(((x >> 32) * PRIME) >> 32);
}

/* The commutative operator: (alpha_f alpha_g, beta_f + beta_g), both
 * components in the group of their own operation. */
static inline void combine_comm(uint32_t *alpha, uint32_t *beta, uint32_t ga, uint32_t gb)
{
    *beta = addmod(*beta, gb);
    *alpha = mulmod(*alpha, ga);
}

/* Element e of v[k,m] for op, as its 8 bytes. */
static void reduce_element(const uint64_t *seeds, int k, int m, bool commutative, size_t e,
                           unsigned char out[8])
{
    uint32_t alpha, beta, ga, gb;
    own_element(seeds[0], e, &alpha, &beta);
    for (int i = k + 1; i <= m; i++) {
        own_element(seeds[i - k], e, &ga, &gb);
        if (commutative)
            combine_comm(&alpha, &beta, ga, gb);
        else
            compose(&alpha, &beta, ga, gb);
    }
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

/* Bytes [lo, hi) of the reduce value v[k,m]: its elements, then zeros.
 * The participants' seeds are hashed once per call. */
static void fill_reduce(int k, int m, bool commutative, long op, size_t S, size_t lo, size_t hi,
                        unsigned char *out)
{
    uint64_t seeds[PAYLOAD_MAX_PARTICIPANTS];
    size_t elements = S / 8, at = lo, e = lo / 8;
    for (int i = k; i <= m; i++)
        seeds[i - k] = seed_of(STEADY_OP_REDUCE, i, i, op);
    while (at < hi && e < elements) {
        unsigned char part[8];
        reduce_element(seeds, k, m, commutative, e, part);
        size_t skip = at - e * 8, n = 8 - skip;
        if (n > hi - at)
            n = hi - at;
        memcpy(out + (at - lo), part + skip, n);
        at += n;
        e++;
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
