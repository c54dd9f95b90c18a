/*
 * payload.h — the bytes steady-run moves (payload.c), recomputable by
 * whoever checks them.  No MPI: the unit tests build payload.c as it is.
 */
#ifndef STEADY_PAYLOAD_H
#define STEADY_PAYLOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "steady/lp.h"

/* Every byte a run moves is a function of what it is, so that a receiver
 * can recompute and compare it.  A message of S bytes of operation `op`:
 *   scatter, gossip  the message from node a to node b: bytes from (a, b, op)
 *   broadcast        the source a's message: bytes from (a, op)
 *   reduce           the partial result v[a,b] = v_a (+) ... (+) v_b of the
 *                    participants a..b (indices in the operator's order).
 * The reduce operator is the composition of affine maps x -> alpha x + beta
 * modulo 2^32 (alpha odd), element by element: a message is S / 8 elements
 * of 8 bytes (alpha then beta, 32 bits each), and
 * f (+) g = "f, then g" = (alpha_f alpha_g, alpha_g beta_f + beta_g).  It
 * is associative and not commutative, so a result combined in the wrong
 * order is wrong.  The values telescope (payload.c), so that any v[a,b]
 * costs what one participant's value does.  The S mod 8 bytes after the
 * last element are zero (a task ORs its inputs' there, so that a damaged
 * byte still shows). */
typedef struct {
    steady_op_t op;
    int a, b;
    bool commutative; /* reduce: the commutative operator (payload.c) instead of composition */
} value_t;

/* Writes bytes [lo, hi) of value v for operation op (message size S) to
 * out: a hash per 8 bytes (a reduce value, of any interval: two hashes and
 * an inverse per element). */
void payload_fill(value_t v, long op, size_t S, size_t lo, size_t hi, unsigned char *out);

/* True when bytes [lo, hi) of value v for op equal data[0 .. hi - lo).
 * scratch holds at least PAYLOAD_CHUNK bytes. */
#define PAYLOAD_CHUNK 65536
bool payload_check(value_t v, long op, size_t S, size_t lo, size_t hi, const unsigned char *data,
                   unsigned char *scratch);

/* Reduce: out = left (+) right, two whole messages (or two element-aligned
 * parts) of S bytes, with the composition or the commutative operator (out
 * may be either input). */
void payload_combine(const unsigned char *left, const unsigned char *right, size_t S,
                     bool commutative, unsigned char *out);

#endif
