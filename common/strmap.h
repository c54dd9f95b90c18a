/*
 * common/strmap.h — a map from strings to non-negative ints (ids), for
 * readers that resolve names: open addressing, short keys inside the slot
 * (one cache miss per lookup), longer ones copied into one growing buffer.
 * libxml2's hash table, which the XML readers used, has chains that grow
 * with the table (a 10^6-node GraphML platform spent 40% of its reading
 * time in xmlHashLookup3).  Not installed.
 */
#ifndef STEADY_COMMON_STRMAP_H
#define STEADY_COMMON_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STRMAP_SHORT 16 /* keys of at most 15 bytes live in their slot */

typedef struct {
    uint32_t hash;
    int value; /* -1: an empty slot */
    /* a short key, NUL-padded (key[STRMAP_SHORT - 1] is 0); a long one:
     * key[STRMAP_SHORT - 1] is 1 and the first bytes hold its offset in
     * strmap_t.keys */
    char key[STRMAP_SHORT];
} strmap_slot_t;

typedef struct {
    strmap_slot_t *slot; /* cap of them: 0 or a power of two, at most half full */
    size_t cap, count;
    char *keys; /* the long keys, NUL-terminated, one after the other */
    size_t keys_len, keys_cap;
} strmap_t;

/* An empty map is all zeros: strmap_t m = {0}.  strmap_free empties it. */
void strmap_free(strmap_t *m);

/* The value of key, or -1.  O(1) expected. */
int strmap_get(const strmap_t *m, const char *key);

/* Adds key (copied) with value >= 0: 1 when added, 0 when key is already
 * there (its value unchanged), -1 when memory runs out. */
int strmap_put(strmap_t *m, const char *key, int value);

#endif
