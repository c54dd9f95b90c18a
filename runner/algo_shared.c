/*
 * algo_shared.c — the --algo mode's routes and model, computed once per
 * process (runner.h).  No MPI here.
 *
 * Every rank needs every processor's routes (its program orders the whole
 * operation's transfers) and the model's chunk count.  Under SMPI with
 * -no-privatize the job's ranks all run in one process, and each one
 * computing them cost O(N^3 log N) in all: 200 ranks of a flat cluster
 * took 7.8 s and 965 MiB before the first operation, 60% of it in the
 * routes and 11% in the model (0.54 s and 467 MiB now).  So the first
 * rank computes them, on a copy of its platform (the routes borrow it;
 * each rank frees its own), the others asking for the same problem (the
 * platform's hash, the algorithm, operation, root and model options)
 * reuse them, and the last one to let go frees them.  With privatized globals (SMPI's default) or
 * one rank per process (an MPI library) each rank keeps its own, as before.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "runner.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
    uint64_t hash;
    int algo, op, root;
    steady_model_options_t mo;
} problem_key_t;

static struct {
    pthread_mutex_t lock;
    problem_key_t key;
    steady_platform_t *p;
    steady_routes_t *routes;
    steady_model_t model;
    int users;
} shared = {.lock = PTHREAD_MUTEX_INITIALIZER};

static bool same_key(const problem_key_t *a, const problem_key_t *b)
{
    return a->hash == b->hash && a->algo == b->algo && a->op == b->op && a->root == b->root &&
           a->mo.msg_size == b->mo.msg_size && a->mo.task_cost == b->mo.task_cost &&
           a->mo.chunks == b->mo.chunks && a->mo.max_chunks == b->mo.max_chunks &&
           a->mo.cost_model == b->mo.cost_model;
}

/* The routes and model on a copy of p (the routes borrow it, and p is
 * the calling rank's): written out and read back, exactly. */
static steady_err_t compute(const steady_platform_t *p, const problem_key_t *k, steady_error_t *err)
{
    steady_platform_t *q = NULL;
    steady_routes_t *r = NULL;
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    if (!m)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    steady_err_t rc = steady_platform_write(p, m, STEADY_FORMAT_NATIVE, NULL, err);
    if (fclose(m) && !rc)
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
    if (!rc)
        rc = steady_platform_parse(text, len, "the platform", STEADY_FORMAT_NATIVE, &q, NULL, err);
    free(text);
    if (!rc)
        rc = steady_routes_create(q, k->mo.msg_size, &r, err);
    if (!rc)
        rc = steady_model_evaluate(r, (steady_algo_t)k->algo, (steady_collop_t)k->op, k->root,
                                   &k->mo, &shared.model, err);
    if (rc) {
        steady_routes_destroy(r);
        steady_platform_destroy(q);
        return rc;
    }
    shared.key = *k;
    shared.p = q;
    shared.routes = r;
    return STEADY_OK;
}

steady_err_t algo_shared_get(const steady_platform_t *p, steady_algo_t algo, steady_collop_t op,
                             int root, const steady_model_options_t *mo,
                             const steady_routes_t **routes, steady_model_t *model,
                             steady_error_t *err)
{
    problem_key_t k = {.algo = (int)algo, .op = (int)op, .root = root, .mo = *mo};
    steady_err_t rc = steady_platform_hash(p, &k.hash, err);
    if (rc)
        return rc;
    pthread_mutex_lock(&shared.lock);
    if (shared.users > 0 && !same_key(&shared.key, &k))
        rc = steady_error_set(err, STEADY_EINVAL,
                              "two --algo runs of different problems in one process");
    else if (shared.users == 0)
        rc = compute(p, &k, err);
    if (!rc) {
        shared.users++;
        *routes = shared.routes;
        *model = shared.model;
    }
    pthread_mutex_unlock(&shared.lock);
    return rc;
}

void algo_shared_put(const steady_routes_t *routes)
{
    if (!routes)
        return;
    pthread_mutex_lock(&shared.lock);
    if (--shared.users == 0) {
        steady_routes_destroy(shared.routes);
        steady_platform_destroy(shared.p);
        shared.routes = NULL;
        shared.p = NULL;
    }
    pthread_mutex_unlock(&shared.lock);
}
