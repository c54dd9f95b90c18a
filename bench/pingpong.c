/*
 * pingpong.c — the plain MPI baselines of bench/executor.sh: the time of
 * one message of SIZE bytes between ranks 0 and 1, measured two ways,
 *   pingpong  half the round trip of a message sent back and forth;
 *   stream    rank 0 sends REPS messages one after another, each started
 *             when the previous send completed, to rank 1, which has one
 *             receive posted at a time: the discipline of steady-run's
 *             ports, without payloads or bookkeeping.
 *
 *   mpirun -np 2 pingpong SIZE REPS      prints "SIZE PINGPONG_S STREAM_S"
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    long bytes = argc == 3 ? atol(argv[1]) : 0, reps = argc == 3 ? atol(argv[2]) : 0;
    if (size != 2 || bytes <= 0 || bytes > 1L << 30 || reps <= 0) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np 2 pingpong SIZE REPS\n");
        MPI_Finalize();
        return 2;
    }
    char *buf = malloc((size_t)bytes);
    if (!buf)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(buf, rank, (size_t)bytes);
    int peer = 1 - rank, n = (int)bytes;

    double pingpong = 0, stream = 0;
    for (int round = 0; round < 2; round++) { /* the first round warms up */
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (long i = 0; i < reps; i++) {
            if (rank == 0) {
                MPI_Send(buf, n, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
                MPI_Recv(buf, n, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, n, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, n, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
            }
        }
        pingpong = (MPI_Wtime() - t0) / (2.0 * (double)reps);

        MPI_Barrier(MPI_COMM_WORLD);
        t0 = MPI_Wtime();
        for (long i = 0; i < reps; i++) {
            MPI_Request req;
            if (rank == 0)
                MPI_Isend(buf, n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req);
            else
                MPI_Irecv(buf, n, MPI_BYTE, peer, 1, MPI_COMM_WORLD, &req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
        /* the stream ends when the last message is in */
        double t1 = MPI_Wtime(), end;
        MPI_Reduce(&t1, &end, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        stream = (end - t0) / (double)reps;
    }
    if (rank == 0)
        printf("%ld %.9g %.9g\n", bytes, pingpong, stream);
    free(buf);
    MPI_Finalize();
    return 0;
}
