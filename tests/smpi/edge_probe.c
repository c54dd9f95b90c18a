/*
 * edge_probe.c — measures, in an SMPI simulation, the time one message takes
 * over each given platform edge, to check that the SimGrid export of a
 * platform gives every edge the latency and bandwidth of the model
 * (tests/e2e/smpi_export.sh).
 *
 *   smpirun ... edge_probe EDGES SIZE...
 *
 * EDGES is a file of "SRC DST" lines naming nodes (hosts).  Ranks find each
 * other by host name (MPI_Get_processor_name), so the probe does not depend
 * on the hostfile order.  For each edge and each SIZE, rank 0 prints
 *
 *   SRC DST SIZE SECONDS
 *
 * where SECONDS is the simulated time from the MPI_Send on SRC to the end
 * of the matching receive on DST.  The receive is posted before a barrier,
 * and the sender then sleeps one simulated second so that the barrier's own
 * messages have left the network: the message crosses idle links and finds
 * its receive waiting, so the time is the transfer alone.  Exit status 1
 * with a message on an unknown host or a bad argument.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NAME_MAX_LEN 256
#define MAX_EDGES    1024

typedef struct {
    char src[NAME_MAX_LEN], dst[NAME_MAX_LEN];
} edge_t;

static int rank_of(const char *names, int size, const char *name)
{
    for (int r = 0; r < size; r++)
        if (strcmp(names + (size_t)r * NAME_MAX_LEN, name) == 0)
            return r;
    return -1;
}

/* Reads EDGES; returns the number of edges or -1 (message printed). */
static int read_edges(const char *path, edge_t *edges)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "edge_probe: cannot open %s\n", path);
        return -1;
    }
    int n = 0;
    char line[2 * NAME_MAX_LEN + 16];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        if (n == MAX_EDGES || sscanf(line, "%255s %255s", edges[n].src, edges[n].dst) != 2) {
            fprintf(stderr, "edge_probe: %s: bad line or too many edges: %s", path, line);
            fclose(f);
            return -1;
        }
        n++;
    }
    fclose(f);
    return n;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* per rank (SMPI may run the ranks without privatising globals) */
    edge_t *edges = malloc(sizeof *edges * MAX_EDGES);
    int nedges = argc >= 3 ? read_edges(argv[1], edges) : -1;
    if (argc < 3 && rank == 0)
        fprintf(stderr, "usage: edge_probe EDGES SIZE...\n");
    if (nedges < 0)
        MPI_Abort(MPI_COMM_WORLD, 1);

    /* every rank learns which host each rank runs on */
    char me[NAME_MAX_LEN] = {0};
    int len;
    MPI_Get_processor_name(me, &len);
    char *names = calloc((size_t)size, NAME_MAX_LEN);
    MPI_Allgather(me, NAME_MAX_LEN, MPI_CHAR, names, NAME_MAX_LEN, MPI_CHAR, MPI_COMM_WORLD);

    long max_bytes = 0;
    for (int a = 2; a < argc; a++) {
        long b = atol(argv[a]);
        if (b <= 0) {
            if (rank == 0)
                fprintf(stderr, "edge_probe: bad SIZE (%s)\n", argv[a]);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        if (b > max_bytes)
            max_bytes = b;
    }
    char *buf = calloc((size_t)max_bytes, 1);

    /* results[k * nsizes + j]: edge k, size j, filled in by the sender */
    int nsizes = argc - 2;
    double *results = malloc(sizeof *results * (size_t)(nedges * nsizes + 1));
    double *all = malloc(sizeof *all * (size_t)(nedges * nsizes + 1));
    for (int i = 0; i < nedges * nsizes; i++)
        results[i] = -1;

    for (int k = 0; k < nedges; k++) {
        int s = rank_of(names, size, edges[k].src), d = rank_of(names, size, edges[k].dst);
        if (s < 0 || d < 0 || s == d) {
            if (rank == 0)
                fprintf(stderr, "edge_probe: no rank on host %s, or a self edge\n",
                        s < 0 ? edges[k].src : edges[k].dst);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        for (int j = 0; j < nsizes; j++) {
            int bytes = (int)atol(argv[2 + j]);
            int tag = 3 * (k * nsizes + j);
            MPI_Request req = MPI_REQUEST_NULL;
            if (rank == d)
                MPI_Irecv(buf, bytes, MPI_BYTE, s, tag, MPI_COMM_WORLD, &req);
            MPI_Barrier(MPI_COMM_WORLD);
            /* Nothing but the measured message may be in the network while
             * it travels: the ranks not on the edge wait (without sending)
             * until the sender says it is done, and the sender first sleeps
             * one simulated second so that the barrier's messages drain. */
            if (rank == s) {
                sleep(1);
                double t0 = MPI_Wtime(), t1;
                MPI_Send(buf, bytes, MPI_BYTE, d, tag, MPI_COMM_WORLD);
                MPI_Recv(&t1, 1, MPI_DOUBLE, d, tag + 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                results[k * nsizes + j] = t1 - t0;
                for (int r = 0; r < size; r++)
                    if (r != s && r != d)
                        MPI_Send(&t1, 1, MPI_DOUBLE, r, tag + 2, MPI_COMM_WORLD);
            } else if (rank == d) {
                MPI_Wait(&req, MPI_STATUS_IGNORE);
                double t1 = MPI_Wtime();
                MPI_Send(&t1, 1, MPI_DOUBLE, s, tag + 1, MPI_COMM_WORLD);
            } else {
                double done;
                MPI_Recv(&done, 1, MPI_DOUBLE, s, tag + 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
        }
    }
    MPI_Reduce(results, all, nedges * nsizes, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0)
        for (int k = 0; k < nedges; k++)
            for (int j = 0; j < nsizes; j++)
                printf("%s %s %s %.17g\n", edges[k].src, edges[k].dst, argv[2 + j],
                       all[k * nsizes + j]);
    fflush(stdout);
    free(results);
    free(edges);
    free(all);
    free(buf);
    free(names);
    MPI_Finalize();
    return 0;
}
