/*
 * program.c — what one rank of steady-run does, built from the schedule
 * (runner.h, docs/running.md).
 *
 * The schedule's period is flattened as the replay (schedule/replay.c)
 * does: steps numbered over the trees, each with the steps producing its
 * input (the previous hop, the parent edge, the reception or task that made
 * v[k,m] on that node; -1 for an initial value), and the period's *pieces*:
 * every transfer of every slot, and every compute entry, each on message
 * positions [from, to) of its tree's batch (a compute entry's tasks are the
 * positions after those of the entries listed before it).  A piece waits
 * for the pieces of its input's producer that overlap its positions, for
 * the same batch: message j is forwarded as soon as message j is in, which
 * is the replay's availability rule, whatever the lags (a step may use
 * what an earlier period, or an earlier place of the same period, made).
 *
 * For rank `me` this gives three lists, repeated every period:
 *   send     the slots' transfers leaving me, one MPI message per slot and
 *            peer (a slot is a matching, so per slot one message to one
 *            peer), in slot order; consecutive slots to the same peer send
 *            one message (the parts of a long transfer that the matchings
 *            cut into slots), which pays one latency, not one per slot;
 *   receive  the transfers reaching me, grouped the same way
 *            (steady_schedule_message_ids): both ends list the messages
 *            between them in the same order, so MPI's non-overtaking rule
 *            matches them;
 *   tasks    my compute entries, in the compute list's order.
 *
 * Bytes.  A part [from, to) of the messages of S bytes covers, in message
 * j, bytes [floor((max(from, j) - j) S), floor((min(to, j + 1) - j) S)):
 * the parts of a message in different slots tile it exactly.  A batch's
 * value is kept as weight x S contiguous bytes (message j at j S), so a
 * transfer is one contiguous range of it: from byte `off` of message `lo`
 * to byte `end` of message hi - 1, computed here exactly (GMP) once.
 *
 * Memory.  A step's output is kept on its node only when something there
 * reads it (a forwarding hop, a task), in a ring of depth
 * D = max(lag(reader) - lag(step)) + 2 batches.  Batch b is read at the
 * latest in period b + lag(reader) < b + D - 1 + lag(step): in program
 * order D - 1 entries would do, and the executor never overwrites an entry
 * before its readers are done.  But the streams of a rank are not in
 * lockstep: the one more entry lets a producer fill batch b + 1 while the
 * readers still work on batch b (double buffering).  Without it a node
 * that receives a value and reduces it in the same period would alternate
 * between its receive port and its CPU instead of overlapping them — the
 * paper's reduce example would run at half its throughput.  A delivered
 * result that nothing reads is checked where it arrives and dropped.
 * Nothing is allocated per operation.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "runner.h"

long program_batch_size(const program_t *pg, int tree, long b)
{
    const steady_sched_tree_t *tr = &pg->sc->trees[tree];
    long n = pg->ops - b * pg->K - tr->first;
    if (n < 0)
        return 0;
    return n < tr->weight ? n : tr->weight;
}

long program_msg(const program_t *pg, int tree, long b, long j)
{
    return b * pg->K + pg->sc->trees[tree].first + j;
}

long program_op(const program_t *pg, int tree, long b, long j, size_t *at)
{
    long msg = program_msg(pg, tree, b, j);
    if (at)
        *at = (size_t)(msg % pg->m) * pg->S;
    return msg / pg->m;
}

void program_free(program_t *pg)
{
    if (pg->steps)
        for (int f = 0; f < pg->nflat; f++) {
            if (pg->steps[f].ring)
                free(pg->steps[f].ring[0].done);
            free(pg->steps[f].ring);
            free(pg->steps[f].got);
        }
    free(pg->steps);
    free(pg->base);
    free(pg->pieces);
    free(pg->by_step);
    free(pg->readers);
    free(pg->deps);
    free(pg->parts);
    free(pg->send);
    free(pg->recv);
    free(pg->task);
    free(pg->pool);
    memset(pg, 0, sizeof *pg);
}

/* The value a send step's message type names ("P3", "P0>P3", "msg",
 * "[k,m]"); false when the name does not parse. */
static bool type_value(const program_t *pg, const char *name, value_t *v)
{
    const steady_schedule_t *sc = pg->sc;
    v->op = sc->op;
    v->a = sc->nsources > 0 ? sc->sources[0] : -1;
    v->b = -1;
    switch (sc->op) {
    case STEADY_OP_SCATTER: v->b = steady_platform_find_node(pg->p, name); return v->b >= 0;
    case STEADY_OP_BROADCAST: return true;
    case STEADY_OP_GOSSIP: {
        const char *gt = strchr(name, '>');
        char src[STEADY_NAME_MAX + 1];
        size_t len = gt ? (size_t)(gt - name) : 0;
        if (len == 0 || len > STEADY_NAME_MAX)
            return false;
        memcpy(src, name, len);
        src[len] = '\0';
        v->a = steady_platform_find_node(pg->p, src);
        v->b = steady_platform_find_node(pg->p, gt + 1);
        return v->a >= 0 && v->b >= 0;
    }
    case STEADY_OP_REDUCE: {
        int end = -1;
        return sscanf(name, "[%d,%d]%n", &v->a, &v->b, &end) == 2 && end > 0 && name[end] == '\0' &&
               v->a >= 0 && v->a <= v->b && v->b < sc->nsources;
    }
    }
    return false;
}

/* True when value v on node `node` is an initial value: the source's
 * messages, a participant's own v[k,k]. */
static bool initial_value(const program_t *pg, value_t v, int node)
{
    const steady_schedule_t *sc = pg->sc;
    switch (sc->op) {
    case STEADY_OP_SCATTER:
    case STEADY_OP_BROADCAST:
    case STEADY_OP_GOSSIP: return v.a == node;
    case STEADY_OP_REDUCE: return v.a == v.b && sc->sources[v.a] == node;
    }
    return false;
}

/* True when value v on node `node` is a delivered result. */
static bool final_value(const program_t *pg, value_t v, int node)
{
    const steady_schedule_t *sc = pg->sc;
    switch (sc->op) {
    case STEADY_OP_SCATTER:
    case STEADY_OP_GOSSIP: return v.b == node;
    case STEADY_OP_BROADCAST:
        for (int i = 0; i < sc->ntargets; i++)
            if (sc->targets[i] == node)
                return true;
        return false;
    case STEADY_OP_REDUCE: return v.a == 0 && v.b == sc->nsources - 1 && sc->targets[0] == node;
    }
    return false;
}

/* Finds the producer of value v on node `node` for tree t's step s: the
 * nearest earlier step of the tree that makes it there (steps are in
 * dependency order), or -1 for an initial value. */
static steady_err_t find_input(const program_t *pg, int t, int s, value_t v, int node, int *flat,
                               steady_error_t *err)
{
    for (int j = s - 1; j >= 0; j--) {
        const pstep_t *ps = &pg->steps[pg->base[t] + j];
        if (ps->node == node && ps->value.a == v.a && ps->value.b == v.b) {
            *flat = pg->base[t] + j;
            return STEADY_OK;
        }
    }
    if (!initial_value(pg, v, node))
        return steady_error_set(err, STEADY_EINVAL,
                                "tree %d step %d: nothing produces its input on %s", t, s,
                                steady_platform_node(pg->p, node)->name);
    *flat = -1;
    return STEADY_OK;
}

/* Flattens the trees' steps: their nodes, values and producers. */
static steady_err_t build_steps(program_t *pg, steady_error_t *err)
{
    const steady_schedule_t *sc = pg->sc;
    int ne = steady_platform_edge_count(pg->p), nv = steady_platform_node_count(pg->p);
    pg->base = malloc((size_t)(sc->ntrees + 1) * sizeof *pg->base);
    if (!pg->base)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    for (int t = 0; t < sc->ntrees; t++) {
        const steady_sched_tree_t *tr = &sc->trees[t];
        if (tr->weight <= 0 || tr->first < 0 || tr->first + tr->weight > sc->ops_per_period ||
            tr->nsteps <= 0)
            return steady_error_set(err, STEADY_EINVAL,
                                    "tree %d: operations [%ld, %ld) outside the period's %ld", t,
                                    tr->first, tr->first + tr->weight, sc->ops_per_period);
        pg->base[t] = pg->nflat;
        pg->nflat += tr->nsteps;
    }
    pg->base[sc->ntrees] = pg->nflat;
    pg->steps = calloc((size_t)pg->nflat + 1, sizeof *pg->steps);
    if (!pg->steps)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    for (int t = 0; t < sc->ntrees; t++) {
        for (int s = 0; s < sc->trees[t].nsteps; s++) {
            const steady_sched_step_t *st = &sc->trees[t].steps[s];
            pstep_t *ps = &pg->steps[pg->base[t] + s];
            ps->tree = t;
            ps->step = s;
            ps->lag = st->lag;
            ps->seen = -1;
            if (st->lag < 0 || st->lag > sc->max_lag)
                return steady_error_set(err, STEADY_EINVAL,
                                        "tree %d step %d: lag %d outside [0, %d]", t, s, st->lag,
                                        sc->max_lag);
            steady_err_t rc;
            if (st->kind == STEADY_STEP_SEND) {
                if (st->edge < 0 || st->edge >= ne || st->hop >= sc->nhops || st->type < 0 ||
                    st->type >= sc->ntypes || !type_value(pg, sc->types[st->type], &ps->value))
                    return steady_error_set(err, STEADY_EINVAL,
                                            "tree %d step %d: no edge %d, hop %d or message type "
                                            "%d",
                                            t, s, st->edge, st->hop, st->type);
                /* through switches too, a message goes from rank to rank */
                ps->sender = steady_sched_step_src(sc, pg->p, st);
                ps->node = steady_sched_step_dst(sc, pg->p, st);
                ps->nin = 1;
                rc = find_input(pg, t, s, ps->value, ps->sender, &ps->in[0], err);
            } else {
                if (sc->op != STEADY_OP_REDUCE || st->node < 0 || st->node >= nv || st->k < 0 ||
                    st->k > st->l || st->l >= st->m || st->m >= sc->nsources)
                    return steady_error_set(err, STEADY_EINVAL,
                                            "tree %d step %d: not a task T(k,l,m) of a reduce", t,
                                            s);
                ps->node = ps->sender = st->node;
                ps->value = (value_t){STEADY_OP_REDUCE, st->k, st->m, false};
                ps->nin = 2;
                rc = find_input(pg, t, s, (value_t){STEADY_OP_REDUCE, st->k, st->l, false},
                                st->node, &ps->in[0], err);
                if (!rc)
                    rc = find_input(pg, t, s, (value_t){STEADY_OP_REDUCE, st->l + 1, st->m, false},
                                    st->node, &ps->in[1], err);
            }
            if (rc)
                return rc;
            ps->final = final_value(pg, ps->value, ps->node);
        }
    }
    return STEADY_OK;
}

/* floor(q) and ceil(q) as longs (positions are within a tree's weight). */
static long floor_q(const mpq_t q)
{
    mpz_t z;
    mpz_init(z);
    mpz_fdiv_q(z, mpq_numref(q), mpq_denref(q));
    long v = mpz_get_si(z);
    mpz_clear(z);
    return v;
}

static long ceil_q(const mpq_t q)
{
    mpz_t z;
    mpz_init(z);
    mpz_cdiv_q(z, mpq_numref(q), mpq_denref(q));
    long v = mpz_get_si(z);
    mpz_clear(z);
    return v;
}

/* floor((q - j) S): the byte of message j where position q falls. */
static size_t byte_in(const mpq_t q, long j, size_t S)
{
    mpq_t x;
    mpq_init(x);
    mpq_set_si(x, j, 1);
    mpq_sub(x, q, x);
    mpz_mul_ui(mpq_numref(x), mpq_numref(x), (unsigned long)S);
    mpq_canonicalize(x);
    size_t v = (size_t)floor_q(x);
    mpq_clear(x);
    return v;
}

/* The period's pieces (transfers slot by slot, then the compute entries
 * in list order), their exact positions in from[] / to[], and each step's
 * pieces in by_step.  tasks[] (one per step, zero) counts the tasks of
 * each compute step given so far. */
static steady_err_t build_pieces(program_t *pg, mpq_t *from, mpq_t *to, long *tasks,
                                 steady_error_t *err)
{
    const steady_schedule_t *sc = pg->sc;
    int n = 0;
    for (int i = 0; i < sc->nslots; i++) {
        for (int j = 0; j < sc->slots[i].ntransfers; j++, n++) {
            const steady_sched_transfer_t *tx = &sc->slots[i].transfers[j];
            if (tx->tree < 0 || tx->tree >= sc->ntrees || tx->step < 0 ||
                tx->step >= sc->trees[tx->tree].nsteps ||
                sc->trees[tx->tree].steps[tx->step].kind != STEADY_STEP_SEND ||
                mpq_sgn(tx->from) < 0 || mpq_cmp(tx->from, tx->to) >= 0 ||
                mpq_cmp_si(tx->to, sc->trees[tx->tree].weight, 1) > 0)
                return steady_error_set(err, STEADY_EINVAL,
                                        "slot %d transfer %d: not a part of a send step", i, j);
            piece_t *x = &pg->pieces[n];
            x->flat = pg->base[tx->tree] + tx->step;
            mpq_set(from[n], tx->from);
            mpq_set(to[n], tx->to);
            x->lo = floor_q(tx->from);
            x->hi = ceil_q(tx->to);
            x->off = byte_in(tx->from, x->lo, pg->S);
            x->end = byte_in(tx->to, x->hi - 1, pg->S);
        }
    }
    for (int c = 0; c < sc->ncompute; c++, n++) {
        const steady_sched_compute_t *ce = &sc->compute[c];
        if (ce->tree < 0 || ce->tree >= sc->ntrees || ce->step < 0 ||
            ce->step >= sc->trees[ce->tree].nsteps ||
            sc->trees[ce->tree].steps[ce->step].kind != STEADY_STEP_COMPUTE ||
            sc->trees[ce->tree].steps[ce->step].node != ce->node || ce->count <= 0)
            return steady_error_set(err, STEADY_EINVAL,
                                    "compute entry %d: not tasks of a compute step on its node", c);
        piece_t *x = &pg->pieces[n];
        x->flat = pg->base[ce->tree] + ce->step;
        x->lo = tasks[x->flat]; /* after the step's tasks listed before */
        x->hi = x->lo + ce->count;
        tasks[x->flat] = x->hi;
        if (x->hi > sc->trees[ce->tree].weight)
            return steady_error_set(err, STEADY_EINVAL,
                                    "compute entry %d: more tasks than its tree's weight %ld", c,
                                    sc->trees[ce->tree].weight);
        mpq_set_si(from[n], x->lo, 1);
        mpq_set_si(to[n], x->hi, 1);
    }
    /* group by step, keeping program order within a step */
    for (int i = 0; i < n; i++)
        pg->steps[pg->pieces[i].flat].count++;
    for (int f = 0, at = 0; f < pg->nflat; f++) {
        pg->steps[f].first = at;
        at += pg->steps[f].count;
        pg->steps[f].count = 0;
    }
    for (int i = 0; i < n; i++) {
        pstep_t *ps = &pg->steps[pg->pieces[i].flat];
        pg->pieces[i].index = ps->count;
        pg->by_step[ps->first + ps->count++] = i;
    }
    return STEADY_OK;
}

/* Each piece's dependencies (the producer pieces overlapping its
 * positions) and each step's readers (the pieces that read its output,
 * once per input they take from it). */
static steady_err_t build_deps(program_t *pg, mpq_t *from, mpq_t *to, steady_error_t *err)
{
    size_t cap = 16;
    int nreaders = 0;
    pg->deps = malloc(cap * sizeof *pg->deps);
    if (!pg->deps)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    mpq_t at;
    mpq_init(at);
    for (int i = 0; i < pg->npieces; i++) {
        piece_t *x = &pg->pieces[i];
        const pstep_t *cs = &pg->steps[x->flat];
        x->dep = pg->ndeps;
        for (int k = 0; k < cs->nin; k++) {
            if (cs->in[k] < 0)
                continue;
            const pstep_t *ps = &pg->steps[cs->in[k]];
            pg->steps[cs->in[k]].rcount++;
            nreaders++;
            if (cs->lag < ps->lag) {
                mpq_clear(at);
                return steady_error_set(err, STEADY_EINVAL,
                                        "tree %d step %d (lag %d) uses the output of step %d "
                                        "(lag %d): a later batch",
                                        cs->tree, cs->step, cs->lag, ps->step, ps->lag);
            }
            for (int a = 0; a < ps->count; a++) {
                int y = pg->by_step[ps->first + a];
                if (mpq_cmp(from[y], to[i]) >= 0 || mpq_cmp(to[y], from[i]) <= 0)
                    continue; /* no common position */
                if ((size_t)pg->ndeps == cap) {
                    dep_t *g = realloc(pg->deps, 2 * cap * sizeof *g);
                    if (!g) {
                        mpq_clear(at);
                        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
                    }
                    pg->deps = g;
                    cap *= 2;
                }
                mpq_set(at, mpq_cmp(from[i], from[y]) > 0 ? from[i] : from[y]);
                pg->deps[pg->ndeps++] = (dep_t){y, floor_q(at)};
            }
        }
        x->ndep = pg->ndeps - x->dep;
    }
    mpq_clear(at);
    pg->readers = malloc(((size_t)nreaders + 1) * sizeof *pg->readers);
    if (!pg->readers)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    for (int f = 0, at2 = 0; f < pg->nflat; f++) {
        pg->steps[f].rfirst = at2;
        at2 += pg->steps[f].rcount;
        pg->steps[f].rcount = 0;
    }
    for (int i = 0; i < pg->npieces; i++) {
        const pstep_t *cs = &pg->steps[pg->pieces[i].flat];
        for (int k = 0; k < cs->nin; k++)
            if (cs->in[k] >= 0) {
                pstep_t *ps = &pg->steps[cs->in[k]];
                pg->readers[ps->rfirst + ps->rcount++] = i;
            }
    }
    return STEADY_OK;
}

/* Bytes of a transfer piece in a full batch. */
static size_t piece_bytes(const program_t *pg, const piece_t *x)
{
    return (size_t)(x->hi - 1 - x->lo) * pg->S + x->end - x->off;
}

/* The period's messages that leave (sending) or reach me, in the order of
 * their first transfer (steady_schedule_message_ids: both ends list the
 * messages between them alike, so MPI's non-overtaking rule matches
 * them), each with its transfers in slot order. */
static steady_err_t build_messages(program_t *pg, const int *msg_of, int nmsg, bool sending,
                                   pmsg_t **out, int *nout, int *nparts, steady_error_t *err)
{
    const steady_schedule_t *sc = pg->sc;
    int ntx = pg->npieces - sc->ncompute;
    int *mine = malloc(((size_t)nmsg + 1) * sizeof *mine); /* message id -> index in *out */
    *out = malloc(((size_t)ntx + 1) * sizeof **out);
    if (!mine || !*out) {
        free(mine);
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    }
    for (int k = 0; k < nmsg; k++)
        mine[k] = -1;
    *nout = 0;
    int first = *nparts;
    /* count, then place: a message's parts are contiguous in pg->parts */
    for (int i = 0, t = 0; i < sc->nslots; i++)
        for (int j = 0; j < sc->slots[i].ntransfers; j++, t++) {
            const pstep_t *ps = &pg->steps[pg->pieces[t].flat];
            if ((sending ? ps->sender : ps->node) != pg->me)
                continue;
            if (mine[msg_of[t]] < 0) {
                pmsg_t *m = &(*out)[*nout];
                mine[msg_of[t]] = (*nout)++;
                *m = (pmsg_t){.slot = i, .peer = sending ? ps->node : ps->sender};
            }
            pmsg_t *m = &(*out)[mine[msg_of[t]]];
            m->last = i;
            m->count++;
            m->bytes += piece_bytes(pg, &pg->pieces[t]);
        }
    for (int k = 0; k < *nout; k++) {
        pmsg_t *m = &(*out)[k];
        m->first = first;
        first += m->count;
        m->count = 0;
        if (m->bytes > (size_t)INT_MAX) {
            free(mine);
            return steady_error_set(
                err, STEADY_EUNSUPPORTED,
                "slot %d: a message of %zu bytes from %s to %s (MPI counts stop at %d)", m->slot,
                m->bytes, steady_platform_node(pg->p, sending ? pg->me : m->peer)->name,
                steady_platform_node(pg->p, sending ? m->peer : pg->me)->name, INT_MAX);
        }
        if (m->bytes > pg->max_msg)
            pg->max_msg = m->bytes;
    }
    for (int t = 0; t < ntx; t++) {
        const pstep_t *ps = &pg->steps[pg->pieces[t].flat];
        if ((sending ? ps->sender : ps->node) != pg->me)
            continue;
        pmsg_t *m = &(*out)[mine[msg_of[t]]];
        pg->parts[m->first + m->count++] = t;
    }
    *nparts = first;
    free(mine);
    return STEADY_OK;
}

/* Ring entries and delivery counters for the steps whose output lives on
 * me. */
static steady_err_t build_buffers(program_t *pg, steady_error_t *err)
{
    const steady_schedule_t *sc = pg->sc;
    size_t total = 0;
    for (int f = 0; f < pg->nflat; f++) {
        pstep_t *ps = &pg->steps[f];
        if (ps->node != pg->me)
            continue;
        if (ps->final) {
            ps->got = calloc((size_t)sc->trees[ps->tree].weight, sizeof *ps->got);
            if (!ps->got)
                return steady_error_set(err, STEADY_ENOMEM, "out of memory");
        }
        int reach = -1;
        for (int r = 0; r < ps->rcount; r++) {
            int lag = pg->steps[pg->pieces[pg->readers[ps->rfirst + r]].flat].lag;
            if (lag - ps->lag > reach)
                reach = lag - ps->lag;
        }
        ps->depth = reach < 0 ? 0 : reach + 2;
        if (ps->depth == 0)
            continue;
        size_t batch = (size_t)sc->trees[ps->tree].weight;
        if (batch > SIZE_MAX / pg->S || batch * pg->S > (SIZE_MAX - total) / (size_t)ps->depth)
            return steady_error_set(err, STEADY_ENOMEM, "buffers larger than the address space");
        total += (size_t)ps->depth * batch * pg->S;
        ps->ring = calloc((size_t)ps->depth, sizeof *ps->ring);
        unsigned char *done = calloc((size_t)ps->depth * (size_t)ps->count + 1, 1);
        if (!ps->ring || !done) {
            free(done);
            return steady_error_set(err, STEADY_ENOMEM, "out of memory");
        }
        for (int r = 0; r < ps->depth; r++) {
            ps->ring[r].batch = -1;
            ps->ring[r].done = done + (size_t)r * (size_t)ps->count;
        }
    }
    pg->buffers = total;
    pg->pool = malloc(total + 1);
    if (!pg->pool)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory for %zu bytes of buffers",
                                total);
    size_t at = 0;
    for (int f = 0; f < pg->nflat; f++) {
        pstep_t *ps = &pg->steps[f];
        for (int r = 0; r < ps->depth; r++) {
            ps->ring[r].data = pg->pool + at;
            at += (size_t)sc->trees[ps->tree].weight * pg->S;
        }
    }
    return STEADY_OK;
}

steady_err_t program_build(const steady_schedule_t *sc, const steady_platform_t *p, int me,
                           long ops, size_t S, program_t *pg, steady_error_t *err)
{
    memset(pg, 0, sizeof *pg);
    pg->sc = sc;
    pg->p = p;
    pg->me = me;
    pg->m = sc->segments;
    pg->S = S;
    pg->K = sc->ops_per_period;
    steady_err_t rc = steady_schedule_messages(sc, ops, &pg->ops, err);
    if (rc)
        return rc;
    pg->L = sc->max_lag;
    if (pg->K <= 0 || pg->L < 0 || sc->ntrees <= 0 || sc->nsources <= 0 || sc->ntargets <= 0)
        return steady_error_set(err, STEADY_EINVAL,
                                "empty schedule (%ld operations per period, %d trees)", pg->K,
                                sc->ntrees);
    pg->P = pg->ops / pg->K + (pg->ops % pg->K != 0);
    rc = build_steps(pg, err);
    if (rc)
        return rc;

    pg->npieces = sc->ncompute;
    for (int i = 0; i < sc->nslots; i++)
        pg->npieces += sc->slots[i].ntransfers;
    size_t np = (size_t)pg->npieces + 1;
    pg->pieces = calloc(np, sizeof *pg->pieces);
    pg->by_step = malloc(np * sizeof *pg->by_step);
    pg->parts = malloc(np * sizeof *pg->parts);
    pg->task = malloc(np * sizeof *pg->task);
    mpq_t *from = malloc(np * sizeof *from), *to = malloc(np * sizeof *to);
    long *tasks = calloc((size_t)pg->nflat + 1, sizeof *tasks);
    if (!pg->pieces || !pg->by_step || !pg->parts || !pg->task || !from || !to || !tasks) {
        free(from);
        free(to);
        free(tasks);
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    }
    for (int i = 0; i < pg->npieces; i++)
        mpq_inits(from[i], to[i], NULL);
    rc = build_pieces(pg, from, to, tasks, err);
    if (!rc)
        rc = build_deps(pg, from, to, err);
    for (int i = 0; i < pg->npieces; i++)
        mpq_clears(from[i], to[i], NULL);
    free(from);
    free(to);
    free(tasks);
    if (rc)
        return rc;

    int nparts = 0, nmsg = 0;
    int *msg_of = malloc(np * sizeof *msg_of);
    rc = msg_of ? steady_schedule_message_ids(sc, p, msg_of, &nmsg, err)
                : steady_error_set(err, STEADY_ENOMEM, "out of memory");
    if (!rc)
        rc = build_messages(pg, msg_of, nmsg, true, &pg->send, &pg->nsend, &nparts, err);
    if (!rc)
        rc = build_messages(pg, msg_of, nmsg, false, &pg->recv, &pg->nrecv, &nparts, err);
    free(msg_of);
    if (rc)
        return rc;
    for (int i = pg->npieces - sc->ncompute; i < pg->npieces; i++)
        if (pg->steps[pg->pieces[i].flat].node == me)
            pg->task[pg->ntask++] = i;
    return build_buffers(pg, err);
}
