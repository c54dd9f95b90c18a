/*
 * steady/platform.h — the heterogeneous platform model: a directed graph of
 * named processors and routers joined by edges with bandwidth, latency and
 * per-message overhead (or an abstract per-message cost), its file formats
 * (native text, GraphML, SimGrid platform XML), generators and a summary.
 *
 * Units (docs/design.md): bandwidth in bytes/s, latency and overhead in
 * seconds, speed in flop/s.  For a message of s bytes the port occupation
 * of one message on edge e = (i,j) is
 *     c(e) = overhead(e) + s / bandwidth(e)          (bandwidth edges)
 *     c(e) = cost(e)                                 (abstract-cost edges)
 * and a task of f flop takes w(i) = f / speed(i) on processor i.  Latency
 * delays delivery but does not occupy a port.  A platform uses either
 * bandwidth edges or abstract-cost edges, never both: abstract platforms
 * (the paper's examples) express every time in one abstract unit.
 *
 * Nodes and edges are numbered densely from 0 in insertion order; the order
 * is part of the platform (it is the rank order of the MPI executor).
 */
#ifndef STEADY_PLATFORM_H
#define STEADY_PLATFORM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "steady/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct steady_platform steady_platform_t;

typedef enum {
    STEADY_PROCESSOR = 0, /* computes, sends and receives */
    STEADY_ROUTER = 1     /* only forwards messages; never computes */
} steady_node_kind_t;

typedef struct {
    const char *name; /* owned by the platform */
    steady_node_kind_t kind;
    double speed; /* flop/s (or abstract tasks per time unit); 0 for routers */
} steady_node_t;

typedef struct {
    int src, dst;     /* node ids */
    double bandwidth; /* bytes/s; 0 on an abstract-cost edge */
    double latency;   /* seconds (abstract time units on abstract platforms), >= 0 */
    double overhead;  /* seconds per message, >= 0; 0 on an abstract-cost edge */
    double cost;      /* abstract per-message port occupation; 0 on a bandwidth edge */
} steady_edge_t;

/* Node names: 1..255 characters from [A-Za-z0-9_.:@+/-]. */
#define STEADY_NAME_MAX 255

/* The ranges of the model's values (docs/platform-format.md): wide enough
 * for real platforms, narrow enough that no product or quotient of them
 * overflows and that the LP solver can scale what it is given. */
#define STEADY_BANDWIDTH_MIN 1e-3 /* B/s */
#define STEADY_BANDWIDTH_MAX 1e15
#define STEADY_TIME_MAX      1e6  /* latency and overhead, seconds (min 0) */
#define STEADY_SPEED_MIN     1e-6 /* flop/s, or tasks per time unit */
#define STEADY_SPEED_MAX     1e21
#define STEADY_COST_MIN      1e-6 /* abstract time units per message */
#define STEADY_COST_MAX      1e6
#define STEADY_MSG_SIZE_MIN  1.0 /* bytes per message (steady_parse_size) */
#define STEADY_MSG_SIZE_MAX  1e12

/* ---- construction ------------------------------------------------------ */

/* Creates an empty platform in *out (caller destroys it). */
steady_err_t steady_platform_create(steady_platform_t **out, steady_error_t *err);

/* Frees p and everything it owns.  NULL is allowed. */
void steady_platform_destroy(steady_platform_t *p);

/* Sets the platform's name (copied); the default is "platform". */
steady_err_t steady_platform_set_name(steady_platform_t *p, const char *name, steady_error_t *err);
const char *steady_platform_name(const steady_platform_t *p);

/* Adds a node and stores its id in *id (id may be NULL).  Rejects an invalid
 * or duplicate name, and a processor speed outside [STEADY_SPEED_MIN,
 * STEADY_SPEED_MAX]; a router's speed must be 0.  Amortised O(1). */
steady_err_t steady_platform_add_node(steady_platform_t *p, const char *name,
                                      steady_node_kind_t kind, double speed, int *id,
                                      steady_error_t *err);

/* Adds the directed edge e->src -> e->dst with e's attributes.  Rejects an
 * unknown node id, a self-loop, a duplicate edge, an edge with both or
 * neither of bandwidth and cost, a bandwidth, cost, latency or overhead
 * outside its range (above), an overhead on a cost edge, and the first edge
 * whose kind (cost or bandwidth) differs from the earlier edges'.
 * O(min(out-degree of src, in-degree of dst)). */
steady_err_t steady_platform_add_edge(steady_platform_t *p, const steady_edge_t *e, int *id,
                                      steady_error_t *err);

/* Whole-graph checks that a reader runs after the last statement: the
 * platform has at least one processor.  O(1). */
steady_err_t steady_platform_validate(const steady_platform_t *p, steady_error_t *err);

/* ---- queries ----------------------------------------------------------- */

int steady_platform_node_count(const steady_platform_t *p);
int steady_platform_processor_count(const steady_platform_t *p);
int steady_platform_edge_count(const steady_platform_t *p);

/* The node / edge with that id (0 <= id < count); valid until the next
 * add_node / add_edge. */
const steady_node_t *steady_platform_node(const steady_platform_t *p, int id);
const steady_edge_t *steady_platform_edge(const steady_platform_t *p, int id);

/* Id of the node with that name, or -1.  O(1) expected. */
int steady_platform_find_node(const steady_platform_t *p, const char *name);

/* Id of the edge src -> dst, or -1.  O(min(out-degree of src, in-degree of dst)). */
int steady_platform_find_edge(const steady_platform_t *p, int src, int dst);

/* Ids of the edges leaving / entering node v, in insertion order; *count
 * receives their number.  The array belongs to the platform. */
const int *steady_platform_out_edges(const steady_platform_t *p, int v, int *count);
const int *steady_platform_in_edges(const steady_platform_t *p, int v, int *count);

/* True when the platform's edges carry abstract per-message costs. */
bool steady_platform_is_abstract(const steady_platform_t *p);

/* c(e) for a message of msg_size bytes (ignored on abstract-cost edges). */
double steady_platform_comm_time(const steady_platform_t *p, int edge, double msg_size);

/* w(v) = task_cost / speed(v); +infinity for a router. */
double steady_platform_task_time(const steady_platform_t *p, int node, double task_cost);

/* ---- file formats ------------------------------------------------------ */

typedef enum {
    STEADY_FORMAT_AUTO = 0, /* reading: decided by content, see steady_platform_parse */
    STEADY_FORMAT_NATIVE,   /* docs/platform-format.md */
    STEADY_FORMAT_GRAPHML,  /* GraphML with node/edge data keys named like the fields */
    STEADY_FORMAT_SIMGRID   /* SimGrid platform XML (version 4.x) */
} steady_format_t;

/* "native", "graphml", "simgrid" -> format; STEADY_FORMAT_AUTO for "auto";
 * -1 for an unknown name. */
int steady_format_from_name(const char *name);
const char *steady_format_name(steady_format_t f);

/* Parses a platform from the len bytes at text.  `origin` names the input
 * in messages ("FILE:LINE:COL: ...").  With STEADY_FORMAT_AUTO the format is
 * decided by content: an XML document whose root element is <graphml> is
 * GraphML, <platform> is SimGrid, anything else is the native format.  The
 * result is validated (steady_platform_validate).  On success *out owns a
 * new platform (caller destroys it) and *detected (may be NULL) the format. */
steady_err_t steady_platform_parse(const char *text, size_t len, const char *origin,
                                   steady_format_t format, steady_platform_t **out,
                                   steady_format_t *detected, steady_error_t *err);

/* Reads the file at path ("-" is standard input) and parses it as above. */
steady_err_t steady_platform_read(const char *path, steady_format_t format, steady_platform_t **out,
                                  steady_format_t *detected, steady_error_t *err);

/* Options of the writers; zero-initialise, then set what you need. */
typedef struct {
    /* SimGrid export of an abstract-cost platform: the message size in bytes
     * that one cost unit is scaled to, so that a link of cost c gets the
     * bandwidth msg_size / c (one abstract time unit = one simulated second).
     * 0 means 1 MiB.  The cost itself is kept in a <prop> so that the
     * platform reads back unchanged. */
    double msg_size;
} steady_write_options_t;

/* Writes p to out in the given format (not AUTO).  Every value is written
 * with the shortest decimal that reads back to the same double, so
 * write -> parse reproduces the platform exactly.  opts may be NULL. */
steady_err_t steady_platform_write(const steady_platform_t *p, FILE *out, steady_format_t format,
                                   const steady_write_options_t *opts, steady_error_t *err);

/* Writes an SMPI hostfile: one node name per line in node order, so that
 * MPI rank r runs on node r. */
steady_err_t steady_platform_write_hostfile(const steady_platform_t *p, FILE *out,
                                            steady_error_t *err);

/* Parses a message size: a number of bytes with an optional unit B, kB, MB,
 * GB (powers of 1000) or KiB, MiB, GiB (powers of 1024), e.g. "1MiB", from
 * STEADY_MSG_SIZE_MIN to STEADY_MSG_SIZE_MAX. */
steady_err_t steady_parse_size(const char *text, double *bytes, steady_error_t *err);

/* Parses a plain decimal number: an optional sign, digits with an optional
 * decimal point, an optional exponent ("2.5e-3"); "inf" and "nan" too, as
 * values the caller then refuses.  Blanks, hexadecimal numbers and units
 * are not numbers: false. */
bool steady_parse_number(const char *text, double *value);

/* FNV-1a (64 bits) of the platform's canonical native text (what
 * steady_platform_write writes in the native format): identifies the
 * platform a schedule was made for.  O(size of the text). */
steady_err_t steady_platform_hash(const steady_platform_t *p, uint64_t *hash, steady_error_t *err);

/* ---- summary ----------------------------------------------------------- */

typedef struct {
    double min, max;
} steady_range_t;

typedef struct {
    int nodes, processors, routers, edges;
    int duplex_pairs; /* pairs {i,j} with both i->j and j->i */
    int components;   /* strongly connected components */
    bool strongly_connected;
    bool abstract; /* cost edges (then `cost` is set, not bandwidth/overhead) */
    steady_range_t bandwidth, latency, overhead, cost, speed; /* speed over processors */
    int max_out_degree, max_in_degree;
} steady_platform_summary_t;

/* Fills *s; strongly connected components come from igraph.  O(V + E). */
steady_err_t steady_platform_summarize(const steady_platform_t *p, steady_platform_summary_t *s,
                                       steady_error_t *err);

/* ---- generators -------------------------------------------------------- */

typedef enum {
    STEADY_GEN_RANDOM = 0, /* random strongly connected graph of processors */
    STEADY_GEN_TIERS,      /* WAN / MAN / LAN hierarchy with routers (Tiers-like) */
    STEADY_GEN_CLUSTER,    /* processors behind one switch router */
    STEADY_GEN_RING,       /* bidirectional ring of processors */
    STEADY_GEN_STAR        /* one master processor linked to every other one */
} steady_gen_kind_t;

/* "random", "tiers", ... -> kind, or -1. */
int steady_gen_kind_from_name(const char *name);
const char *steady_gen_kind_name(steady_gen_kind_t kind);

/* Generates a platform with `processors` processors (routers come on top
 * for tiers and cluster).  The same (kind, processors, seed) gives the same
 * platform on every machine: the generator uses its own PRNG.  Bandwidths,
 * latencies and speeds are heterogeneous (log-uniform draws, rounded to
 * three significant digits) except for `cluster`, which is homogeneous. */
steady_err_t steady_platform_generate(steady_gen_kind_t kind, int processors, uint64_t seed,
                                      steady_platform_t **out, steady_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* STEADY_PLATFORM_H */
