/*
 * common/blocks.h — the blocks (biconnected components) of a graph seen
 * from a source, shared by libsteady's modules.  Not installed.
 */
#ifndef STEADY_COMMON_BLOCKS_H
#define STEADY_COMMON_BLOCKS_H

#include <stdbool.h>

/* The blocks of the graph of the m arcs tail[a] -> head[a] on nodes
 * 0..n-1, arcs taken as undirected edges, seen from s: arc_block[a] is a's
 * block (-1 for a loop or an arc s does not reach), entry[b] the node of
 * block b nearest s, and node_block[v] the block through which every path
 * from s enters v (-1 for s and the nodes it does not reach). */
typedef struct {
    int nblocks;
    int *arc_block, *node_block, *entry;
} blocks_t;

/* False when memory runs out (b is then empty); else blocks_free(b) once. */
bool blocks_find(int n, int m, const int *tail, const int *head, int s, blocks_t *b);
void blocks_free(blocks_t *b);

/* The exits of the blocks for flows from s to the nt targets: each target
 * s reaches, and the entry of each block on the way from s to it (but s),
 * is an exit of the block it is entered through, exit_block[v] (-1 for the
 * other nodes; n entries).  Returns the first target s does not reach, or
 * -1. */
int blocks_exits(const blocks_t *b, int n, int s, const int *targets, int nt, int *exit_block);

#endif
