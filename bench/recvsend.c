/*
 * recvsend.c — what a node's receptions cost its own sends under SimGrid's
 * cross traffic (bench/crosstraffic.sh, docs/calibration.md): rank S
 * streams SENDS messages of SEND_BYTES to rank D, each started when the
 * previous send completed, while the FEEDER ranks (none: S only sends)
 * send RECVS messages of RECV_BYTES each to S, which keeps one receive
 * posted at a time: the one-port discipline of steady-run's ports, where a
 * rank sends and receives at once.
 *
 *   smpirun ... recvsend S D SENDS SEND_BYTES RECVS RECV_BYTES [FEEDER...]
 *   prints "stream SECONDS", the time of S's stream
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc < 7) {
        if (rank == 0)
            fprintf(stderr, "usage: recvsend S D SENDS SEND_BYTES RECVS RECV_BYTES [FEEDER...]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int s = atoi(argv[1]), d = atoi(argv[2]), sends = atoi(argv[3]), sbytes = atoi(argv[4]);
    int recvs = atoi(argv[5]), rbytes = atoi(argv[6]), feeders = argc - 7, fed = 0;
    for (int i = 7; i < argc; i++)
        fed = fed || atoi(argv[i]) == rank;
    char *buf = calloc(1, (size_t)(sbytes > rbytes ? sbytes : rbytes));
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    if (rank == s) {
        /* rq[0]: the send in flight, rq[1]: the receive posted */
        MPI_Request rq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
        int sent = 0, done = 0, posted = 0, expect = feeders * recvs;
        while (done < sends || posted < expect || rq[1] != MPI_REQUEST_NULL) {
            if (rq[0] == MPI_REQUEST_NULL && sent < sends) {
                MPI_Isend(buf, sbytes, MPI_CHAR, d, 0, MPI_COMM_WORLD, &rq[0]);
                sent++;
            }
            if (rq[1] == MPI_REQUEST_NULL && posted < expect) {
                MPI_Irecv(buf, rbytes, MPI_CHAR, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &rq[1]);
                posted++;
            }
            int idx;
            MPI_Waitany(2, rq, &idx, MPI_STATUS_IGNORE);
            if (idx == 0 && ++done == sends)
                printf("stream %.6f\n", MPI_Wtime() - t0);
        }
    } else if (rank == d) {
        for (int i = 0; i < sends; i++)
            MPI_Recv(buf, sbytes, MPI_CHAR, s, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (fed) {
        for (int i = 0; i < recvs; i++)
            MPI_Send(buf, rbytes, MPI_CHAR, s, 1, MPI_COMM_WORLD);
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
