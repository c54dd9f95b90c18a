/*
 * schedule/fluid.h — the fluid replay's parts (not installed): a running
 * transfer, and the rates SimGrid's network model gives the transfers
 * running at once (fluid_share.c), for fluid.c's engine.
 */
#ifndef STEADY_SCHEDULE_FLUID_H
#define STEADY_SCHEDULE_FLUID_H

#include "replay.h"

/* A transfer running. */
typedef struct {
    long q;
    int i;
    double work; /* left, in units of time at full speed */
    double rate; /* fraction of full speed */
    double m;    /* messages per unit of time (progressive filling) */
    double start, amount;
    bool frozen;
} run_t;

/* share_rates()'s scratch, per node and per resource. */
typedef struct {
    int *rx;      /* per node, the transfers running into it */
    double *load; /* per resource, the progressive filling's frozen load */
    double *need; /* per resource, its unfrozen transfers' time per message */
    int *alive;   /* per resource, its crossings by unfrozen transfers */
    int *count;   /* per resource, its crossings: list[first .. first + count) */
    int *first;
    int *act; /* the resources the running transfers cross: act[0 .. nact) */
    int nact;
    int *live; /* those of them that transfers not alone on theirs cross */
    int *rest; /* those transfers (run[] indices); caprest of them */
    int caprest;
    int *list;    /* the running transfers (run[] indices), by resource */
    int *touched; /* the FATPIPE resources a round of the filling froze (caplist too) */
    int caplist;
    /* the rates of the sets of transfers met so far (memo), by the set: a
     * periodic schedule runs the same sets period after period */
    int *table;    /* MEMO_SLOTS entries: an offset in keys, -1 */
    int *keys;     /* per set: its size, then its transfers' indices i */
    double *rates; /* per set, at its keys' offset + 1: each transfer's m */
    int used;      /* of keys and rates */
    int nsets;     /* in the memo */
    int *mark;     /* per transfer i: its copies in the set looked up (0 between) */
    double *mi;    /* per transfer i: its m in the set found */
} share_t;

bool share_init(share_t *s, const replay_t *r, int nnodes);
void share_free(share_t *s);

/* Each running transfer's rate (run[a].rate) as SimGrid shares the
 * resources among them; false when out of memory. */
bool share_rates(share_t *s, const replay_t *r, run_t *run, int nrun);

#endif
