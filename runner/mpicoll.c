/*
 * mpicoll.c — steady-run --algo mpi: a series of the MPI library's own
 * MPI_Bcast, MPI_Reduce or MPI_Allreduce (docs/running.md), so that the
 * algorithms SMPI (--cfg=smpi/bcast:..., smpi/reduce:...,
 * smpi/allreduce:...) or Open MPI select can be measured next to steady's.
 *
 * The collectives run over the processors only (a communicator of the
 * processors in node order: its rank r is the algorithm rank r of
 * compare.h); router ranks take no part and wait at the final gathering.
 * The MPI library sends its messages between processors directly, so
 * under SMPI they follow SimGrid's routes (the export's Floyd zone: fewest
 * hops) and share links by bandwidth; SimGrid does not hold routers or
 * nodes to one transfer at a time.  These runs are therefore measured under
 * SimGrid's network model, not the one-port model of steady's own runs
 * (docs/comparison.md), and with SMPI's default protocol settings (no
 * run_configure: some of SMPI's algorithms, e.g. bcast SMP_binary, wait
 * forever when every send is a rendezvous).
 *
 * Payloads are those of algo.c: the broadcast message of the root, checked
 * at every other rank; for reduces, each rank's value v_r (8-byte elements,
 * an MPI datatype of 8 bytes) and a user MPI_Op — the composition of affine
 * maps, declared non-commutative so that MPI must combine in rank order, or
 * the commutative operator — the result checked at the root (reduce) or at
 * every rank (allreduce).  Operations follow each other with no barrier.
 */
#include <stdlib.h>
#include <string.h>

#include "runner.h"

/* MPI_User_function: inout = in (+) inout, element by element (MPI passes
 * the lower ranks' values in `in` for a non-commutative operator). */
static void compose_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    payload_combine(in, inout, (size_t)*len * 8, false, inout);
}

static void commutative_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    payload_combine(in, inout, (size_t)*len * 8, true, inout);
}

steady_err_t mpicoll_execute(const steady_platform_t *p, steady_collop_t op, int root, long ops,
                             size_t S, bool commutative, const fault_t *fault, watch_t *w,
                             uint8_t *flags, run_stats_t *st, steady_error_t *err)
{
    int me, n = steady_platform_node_count(p), rank = -1, nranks = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int node = steady_platform_rank_node(p, me);
    for (int v = 0; v < n; v++)
        if (steady_platform_node(p, v)->kind == STEADY_PROCESSOR) {
            if (v == node)
                rank = nranks;
            nranks++;
        }
    memset(st, 0, sizeof *st);
    MPI_Comm comm;
    MPI_Comm_split(MPI_COMM_WORLD, rank >= 0 ? 0 : MPI_UNDEFINED, me, &comm);
    if (rank < 0)
        return STEADY_OK;
    steady_err_t rc = STEADY_OK;
    unsigned char *buf = malloc(S), *out = malloc(S), *scratch = malloc(PAYLOAD_CHUNK);
    MPI_Datatype elem;
    MPI_Op mop;
    MPI_Type_contiguous(8, MPI_BYTE, &elem);
    MPI_Type_commit(&elem);
    MPI_Op_create(commutative ? commutative_op : compose_op, commutative ? 1 : 0, &mop);
    if (!buf || !out || !scratch) {
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory for messages of %zu bytes", S);
        goto cleanup;
    }
    value_t bv = {STEADY_OP_BROADCAST, root, 0, false};
    value_t own = {STEADY_OP_REDUCE, rank, rank, commutative};
    value_t result = {STEADY_OP_REDUCE, 0, nranks - 1, commutative};
    int count = (int)(S / 8);
    w->what = "a collective operation";
    double t0 = MPI_Wtime();
    for (long k = 0; k < ops; k++) {
        if (fault->rank == me && fault->op == k && fault->kind == FAULT_STALL) {
            unsigned char never;
            w->what = "stalled on purpose (STEADY_RUN_FAULT)";
            MPI_Recv(&never, 1, MPI_BYTE, MPI_ANY_SOURCE, 32767, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        bool corrupt = fault->rank == me && fault->op == k && fault->kind == FAULT_CORRUPT;
        bool ok = true;
        if (op == STEADY_COLL_BROADCAST) {
            if (rank == root)
                payload_fill(bv, k, S, 0, S, buf);
            if (corrupt)
                buf[0] ^= 1;
            MPI_Bcast(buf, (int)S, MPI_BYTE, root, comm);
            if (rank != root)
                ok = payload_check(bv, k, S, 0, S, buf, scratch);
        } else {
            payload_fill(own, k, S, 0, S, buf);
            if (corrupt)
                buf[0] ^= 1;
            if (op == STEADY_COLL_REDUCE)
                MPI_Reduce(buf, out, count, elem, mop, root, comm);
            else
                MPI_Allreduce(buf, out, count, elem, mop, comm);
            if (op == STEADY_COLL_ALLREDUCE || rank == root)
                ok = payload_check(result, k, S, 0, S, out, scratch);
            st->tasks += 1;
        }
        if (!ok)
            flags[k] |= FLAG_CORRUPT;
        watch_tick(w, MPI_Wtime(), "operation", (double)(k + 1), (double)ops);
    }
    st->elapsed = MPI_Wtime() - t0;
    st->busy = st->elapsed;
cleanup:
    MPI_Op_free(&mop);
    MPI_Type_free(&elem);
    MPI_Comm_free(&comm);
    free(buf);
    free(out);
    free(scratch);
    return rc;
}
