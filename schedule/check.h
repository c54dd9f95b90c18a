/*
 * schedule/check.h — the validator's shared pieces (not installed): its
 * context, the violation lines, the names it reports, and its checks by
 * file: check.c (header, problem, types, steps, entry point),
 * check_trees.c (the trees simulated, the batch, the rates), check_slots.c
 * (slots, ports, coverage, forwarding), check_compute.c (compute lists,
 * processor loads, buffers).
 */
#ifndef STEADY_SCHEDULE_CHECK_H
#define STEADY_SCHEDULE_CHECK_H

#include "steady/schedule.h"

/* Lines kept; the rest are counted in a final "... and N more". */
#define MAX_LINES 100

typedef struct {
    const steady_schedule_t *sc;
    const steady_platform_t *p;
    steady_violations_t *v;
    long total; /* violations found, kept or not */
    bool oom;
    int nn, ne;
    int N;          /* reduce: participants */
    int *src_idx;   /* node -> position in sc->sources, or -1 */
    int *tgt_idx;   /* node -> position in sc->targets, or -1 */
    long *tkey;     /* schedule type -> value key (see ck_value_name), -1 if invalid */
    int *tree_off;  /* first flat step index of each tree */
    bool *step_ok;  /* flat step index -> the step is well-formed */
    int nitems;     /* things an operation delivers (see ck_item_of) */
    mpq_t *c;       /* per edge: the time a message takes on it alone (edge time) */
    mpq_t *w;       /* w(v) per node */
    mpq_t *lat;     /* per edge: its latency, its channels' included */
    bool period_ok; /* period > 0 */
    int (*same)[3]; /* (tree, step, producer): sends with their producing send's lag */
    int nsame, capsame;
} ctx_t;

/* A (node, value key) pair with a count: buffer needs and listings; also
 * (type, key) pairs when types are sorted by key. */
typedef struct {
    int node;
    long key;
    long messages;
} need_t;

/* The buffer needs the trees' simulation finds. */
typedef struct {
    need_t *a;
    size_t n, cap;
} needs_t;

#define DESC_MAX (2 * STEADY_NAME_MAX + 64)

/* check.c: violation lines and names */
void ck_report(ctx_t *x, const char *fmt, ...);
const char *ck_nname(const ctx_t *x, int id);
bool ck_is_processor(const ctx_t *x, int id);
int ck_step_src(const ctx_t *x, const steady_sched_step_t *s);
int ck_step_dst(const ctx_t *x, const steady_sched_step_t *s);
void ck_hop_time(const ctx_t *x, const steady_sched_step_t *s, mpq_t t);
void ck_hop_latency(const ctx_t *x, const steady_sched_step_t *s, mpq_t l);
void ck_value_name(const ctx_t *x, long key, char *buf, size_t n);
void ck_step_desc(const ctx_t *x, const steady_sched_step_t *s, char *buf, size_t n);
int ck_cmp_key(const void *a, const void *b);
int ck_origin_of(const ctx_t *x, long key);
int ck_dest_of(const ctx_t *x, long key);
int ck_item_of(const ctx_t *x, long key);
void ck_item_name(const ctx_t *x, int item, char *buf, size_t n);

/* check_trees.c */
steady_err_t ck_simulate_trees(ctx_t *x, long *taken, needs_t *needs);
void ck_batch(ctx_t *x, const long *taken);
void ck_rates(ctx_t *x);

/* check_slots.c */
steady_err_t ck_slots(ctx_t *x);
steady_err_t ck_coverage(ctx_t *x, int nflat);
steady_err_t ck_forwarding(ctx_t *x, int nflat);

/* check_compute.c */
steady_err_t ck_compute(ctx_t *x, int nflat);
steady_err_t ck_buffers(ctx_t *x, needs_t *needs);

#endif
