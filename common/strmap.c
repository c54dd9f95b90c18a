/*
 * strmap.c — strings to ids (common/strmap.h).
 */
#define _DEFAULT_SOURCE /* madvise */
#include "strmap.h"

#include <sys/mman.h>

#include <stdlib.h>
#include <string.h>

/* FNV-1a (32 bits) and the length: short names, no adversary that matters
 * here. */
static uint32_t hash_of(const char *s, size_t *len)
{
    uint32_t h = 2166136261u;
    const char *c = s;
    for (; *c; c++) {
        h ^= (unsigned char)*c;
        h *= 16777619u;
    }
    *len = (size_t)(c - s);
    return h;
}

void strmap_free(strmap_t *m)
{
    free(m->slot);
    free(m->keys);
    *m = (strmap_t){0};
}

static bool is_long(const strmap_slot_t *s)
{
    return s->key[STRMAP_SHORT - 1] != 0;
}

static const char *long_key(const strmap_t *m, const strmap_slot_t *s)
{
    size_t off;
    memcpy(&off, s->key, sizeof off);
    return m->keys + off;
}

static bool same(const strmap_t *m, const strmap_slot_t *s, const char *key, size_t len)
{
    if (len < STRMAP_SHORT)
        return !is_long(s) && memcmp(s->key, key, len + 1) == 0;
    return is_long(s) && strcmp(long_key(m, s), key) == 0;
}

/* The slot of key, or the empty slot where it would go (cap > 0). */
static strmap_slot_t *find(const strmap_t *m, const char *key, size_t len, uint32_t h)
{
    size_t i = h & (m->cap - 1);
    while (m->slot[i].value >= 0 && (m->slot[i].hash != h || !same(m, &m->slot[i], key, len)))
        i = (i + 1) & (m->cap - 1);
    return &m->slot[i];
}

int strmap_get(const strmap_t *m, const char *key)
{
    if (m->cap == 0)
        return -1;
    size_t len;
    uint32_t h = hash_of(key, &len);
    return find(m, key, len, h)->value;
}

/* Slots for a large map: on huge pages where the system gives them on
 * request (MADV_HUGEPAGE), since every lookup of a map much larger than the
 * caches is a random access, and with 4 KiB pages a TLB miss too (a third
 * of the lookup's time with 10^6 names). */
static strmap_slot_t *new_slots(size_t n)
{
    size_t bytes = n * sizeof(strmap_slot_t);
#ifdef MADV_HUGEPAGE
    enum { HUGE = 2u << 20 };
    if (bytes >= 2 * HUGE) {
        void *p;
        if (posix_memalign(&p, HUGE, bytes) != 0)
            return NULL;
        madvise(p, bytes, MADV_HUGEPAGE); /* a hint: no matter if refused */
        return p;
    }
#endif
    return malloc(bytes);
}

static bool grow(strmap_t *m)
{
    size_t ncap = m->cap ? 2 * m->cap : 64;
    strmap_slot_t *n = new_slots(ncap);
    if (!n)
        return false;
    for (size_t j = 0; j < ncap; j++)
        n[j].value = -1;
    for (size_t i = 0; i < m->cap; i++) {
        if (m->slot[i].value < 0)
            continue;
        size_t j = m->slot[i].hash & (ncap - 1);
        while (n[j].value >= 0)
            j = (j + 1) & (ncap - 1);
        n[j] = m->slot[i];
    }
    free(m->slot);
    m->slot = n;
    m->cap = ncap;
    return true;
}

int strmap_put(strmap_t *m, const char *key, int value)
{
    if (2 * (m->count + 1) > m->cap && !grow(m))
        return -1;
    size_t len;
    uint32_t h = hash_of(key, &len);
    strmap_slot_t *s = find(m, key, len, h);
    if (s->value >= 0)
        return 0;
    strmap_slot_t slot = {.hash = h, .value = value};
    if (len < STRMAP_SHORT) {
        memcpy(slot.key, key, len); /* NUL-padded by the initialiser */
    } else {
        if (m->keys_len + len + 1 > m->keys_cap) {
            size_t ncap = m->keys_cap ? m->keys_cap : 4096;
            while (ncap < m->keys_len + len + 1)
                ncap *= 2;
            char *n = realloc(m->keys, ncap);
            if (!n)
                return -1;
            m->keys = n;
            m->keys_cap = ncap;
        }
        memcpy(m->keys + m->keys_len, key, len + 1);
        memcpy(slot.key, &m->keys_len, sizeof m->keys_len);
        slot.key[STRMAP_SHORT - 1] = 1;
        m->keys_len += len + 1;
    }
    *s = slot;
    m->count++;
    return 1;
}
