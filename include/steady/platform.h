/*
 * steady/platform.h — the heterogeneous platform model: a directed graph of
 * named processors, routers and switches joined by edges with bandwidth,
 * latency and per-message overhead (or an abstract per-message cost), and
 * the named channels (SimGrid's links) that edges may share; its file
 * formats (native text, GraphML, SimGrid platform XML), generators and a
 * summary.
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
 * Resources (docs/linear-programs.md, "The network model").  Every message
 * occupies resources, each of which is busy at most all of the time:
 *   - the send port of a processor or router it leaves, and the receive
 *     port of one it enters, for c(e) (one-port, as in the paper);
 *   - a switch has no port: a non-blocking crossbar, the network forwards
 *     through it without a rank and without a copy;
 *   - an edge that crosses no channel is a private link: its own capacity,
 *     c(e) per message;
 *   - a channel the edge crosses: s / bandwidth(channel) per message (its
 *     cost on an abstract platform), summed over every edge crossing it
 *     (SHARED), over the edges crossing it in the same direction
 *     (SPLITDUPLEX), or not at all (FATPIPE: each flow is bounded alone).
 * With every node one-port and every edge private this is exactly the
 * paper's model.  A message sent between two ranks (processors or routers)
 * along a path whose inner nodes are switches is one transfer, a *hop*:
 * it lasts the hop's time, as long as its slowest edge or channel takes
 * (one-port: the sender's port and the receiver's are held that long), and
 * it occupies every resource of every edge of the path.
 *
 * Nodes, channels and edges are numbered densely from 0 in insertion
 * order; the order is part of the platform (the processors and routers,
 * in node order, are the ranks of the MPI executor).
 */
#ifndef STEADY_PLATFORM_H
#define STEADY_PLATFORM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "steady/error.h"
#include "steady/progress.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct steady_platform steady_platform_t;

typedef enum {
    STEADY_PROCESSOR = 0, /* computes, sends and receives (one-port); a rank */
    STEADY_ROUTER = 1,    /* one-port, only forwards messages, never computes; a rank */
    STEADY_SWITCH = 2     /* a crossbar: no port, no rank; the network forwards through it */
} steady_node_kind_t;

/* True for the kinds that hold a send and a receive port and run as an MPI
 * rank (processors and routers). */
bool steady_node_kind_is_rank(steady_node_kind_t kind);

/* "processor", "router", "switch" -> kind, or -1; and back. */
int steady_node_kind_from_name(const char *name);
const char *steady_node_kind_name(steady_node_kind_t kind);

typedef struct {
    const char *name; /* owned by the platform */
    steady_node_kind_t kind;
    double speed; /* flop/s (or abstract tasks per time unit); 0 for routers and switches */
} steady_node_t;

/* How the messages crossing a channel share it (SimGrid's sharing_policy). */
typedef enum {
    STEADY_SHARED = 0,  /* one capacity for every crossing, both directions */
    STEADY_SPLITDUPLEX, /* one capacity per direction (crossings say up or down) */
    STEADY_FATPIPE      /* no shared capacity: each message is bounded alone */
} steady_sharing_t;

/* "shared", "splitduplex", "fatpipe" -> policy, or -1. */
int steady_sharing_from_name(const char *name);
const char *steady_sharing_name(steady_sharing_t s);

typedef struct {
    const char *name; /* owned by the platform; the node-name rules apply */
    double bandwidth; /* bytes/s; 0 on an abstract platform */
    double latency;   /* seconds, >= 0: added to the latency of every edge crossing it */
    double cost;      /* abstract occupation per message; 0 on a bandwidth platform */
    steady_sharing_t sharing;
} steady_channel_t;

/* One channel an edge crosses; `down` is the DOWN direction of a
 * SPLITDUPLEX channel (false: UP, and the only one of the others). */
typedef struct {
    int channel;
    bool down;
} steady_crossing_t;

typedef struct {
    int src, dst;     /* node ids */
    double bandwidth; /* bytes/s; 0 on an abstract-cost edge */
    double latency;   /* seconds (abstract time units on abstract platforms), >= 0 */
    double overhead;  /* seconds per message, >= 0; 0 on an abstract-cost edge */
    double cost;      /* abstract per-message port occupation; 0 on a bandwidth edge */
    /* the factor on the edge's rate while its source receives, in (0, 1]
     * (SimGrid's cross traffic: docs/calibration.md); 0 given: 1 */
    double recv_factor;
    /* its share of a hop's sharing penalty under STEADY_FLOWS_PENALTY
     * (steady_hop_penalty), seconds; 0: derived from its latency and
     * bandwidths */
    double penalty;
    /* the channels the edge crosses, in order (none: the edge is a private
     * link); add_edge copies them, the platform owns the array */
    int ncross;
    const steady_crossing_t *cross;
} steady_edge_t;

/* How the messages crossing a shared resource at once share it
 * (docs/network.md, "How flows share a channel"). */
typedef enum {
    STEADY_FLOWS_FAIR = 0, /* max-min fair: each the same rate */
    /* max-min fair weighted by 1 / the hop's penalty: its latency plus
     * weight-S / bandwidth over every link it crosses (SimGrid's CM02,
     * LV08 and SMPI network models: flows with longer round trips get
     * less, as TCP's do) */
    STEADY_FLOWS_PENALTY
} steady_flow_sharing_t;

/* Node and platform names: 1..255 characters from [A-Za-z0-9_.:@+/-] and
 * blanks within (SimGrid's "Host 26"; the native format quotes them);
 * channel names: the same without blanks. */
#define STEADY_NAME_MAX 255

/* The ranges of the model's values (docs/platform-format.md): wide enough
 * for real platforms, narrow enough that no product or quotient of them
 * overflows and that the LP solver can scale what it is given. */
#define STEADY_BANDWIDTH_MIN   1e-3 /* B/s */
#define STEADY_BANDWIDTH_MAX   1e15
#define STEADY_TIME_MAX        1e6  /* latency and overhead, seconds (min 0) */
#define STEADY_SPEED_MIN       1e-6 /* flop/s, or tasks per time unit */
#define STEADY_SPEED_MAX       1e21
#define STEADY_COST_MIN        1e-6 /* abstract time units per message */
#define STEADY_COST_MAX        1e6
#define STEADY_RECV_FACTOR_MIN 0.01 /* an edge's recv-factor (max 1) */
#define STEADY_WEIGHT_S_MAX    1e12 /* bytes, STEADY_FLOWS_PENALTY's weight-S (min 0) */
#define STEADY_MSG_SIZE_MIN    1.0  /* bytes per message (steady_parse_size) */
#define STEADY_MSG_SIZE_MAX    1e12

/* ---- construction ------------------------------------------------------ */

/* Creates an empty platform in *out (caller destroys it). */
steady_err_t steady_platform_create(steady_platform_t **out, steady_error_t *err);

/* Frees p and everything it owns.  NULL is allowed. */
void steady_platform_destroy(steady_platform_t *p);

/* Sets the platform's name (copied); the default is "platform". */
steady_err_t steady_platform_set_name(steady_platform_t *p, const char *name, steady_error_t *err);
const char *steady_platform_name(const steady_platform_t *p);

/* Sets how flows share a resource (default STEADY_FLOWS_FAIR) and, for
 * STEADY_FLOWS_PENALTY, weight-S in bytes, in [0, STEADY_WEIGHT_S_MAX]. */
steady_err_t steady_platform_set_flow_sharing(steady_platform_t *p, steady_flow_sharing_t s,
                                              double weight_s, steady_error_t *err);
/* The rule, and its weight-S in *weight_s (may be NULL; 0 under FAIR). */
steady_flow_sharing_t steady_platform_flow_sharing(const steady_platform_t *p, double *weight_s);

/* Cross traffic (SimGrid's network/crosstraffic, on in its default
 * configuration; docs/network.md): a message also loads the shared
 * resources of the reverse edge, its acknowledgements' way, with `share`
 * of what it loads its own edge's with (SimGrid: 0.05), but for those
 * its own path crosses too (a SHARED channel both ways: a bandwidth
 * measured along the path holds that share already).  Default 0: none.
 * Every load steady computes carries it (steady_loads_next): the linear
 * programs' capacity rows, the slots, the validator and the replay.
 * Errors: share outside [0, 1]. */
steady_err_t steady_platform_set_crosstraffic(steady_platform_t *p, double share,
                                              steady_error_t *err);
double steady_platform_crosstraffic(const steady_platform_t *p);

/* The message sizes a calibrated platform was measured over (steady-run
 * --calibrate --sizes, docs/calibration.md): its values are a fit of
 * them, outside them an extrapolation.  Default: not calibrated.  Errors:
 * unless 1 <= min <= max <= 1e12 bytes -> EINVAL. */
steady_err_t steady_platform_set_calibrated(steady_platform_t *p, double min_bytes,
                                            double max_bytes, steady_error_t *err);
/* True when p was calibrated, over [*min_bytes, *max_bytes]. */
bool steady_platform_calibrated(const steady_platform_t *p, double *min_bytes, double *max_bytes);

/* True when SimGrid's network model `name` (network/model: SMPI, LV08,
 * CM02, raw) shares links by penalty; its default weight-S in *weight_s
 * (may be NULL). */
bool steady_simgrid_model_penalty(const char *name, double *weight_s);

/* Adds a node and stores its id in *id (id may be NULL).  Rejects an invalid
 * or duplicate name, and a processor speed outside [STEADY_SPEED_MIN,
 * STEADY_SPEED_MAX]; a router's or a switch's speed must be 0.  Amortised
 * O(1). */
steady_err_t steady_platform_add_node(steady_platform_t *p, const char *name,
                                      steady_node_kind_t kind, double speed, int *id,
                                      steady_error_t *err);

/* Adds a channel (its name is copied; channels have a namespace of their
 * own, as SimGrid's links do: a channel may have a node's name) and stores
 * its id in *id (may be NULL).  Exactly one of bandwidth and cost, of the
 * platform's kind (as for edges); latency >= 0.  Amortised O(1). */
steady_err_t steady_platform_add_channel(steady_platform_t *p, const steady_channel_t *c, int *id,
                                         steady_error_t *err);

/* Adds the directed edge e->src -> e->dst with e's attributes.  Rejects an
 * unknown node id, a self-loop, a duplicate edge, an edge with both or
 * neither of bandwidth and cost, a bandwidth, cost, latency or overhead
 * outside its range (above), an overhead on a cost edge, and the first edge
 * whose kind (cost or bandwidth) differs from the earlier edges'; an
 * unknown channel, a channel crossed twice, a direction (down) on a channel
 * that is not SPLITDUPLEX.  An edge crossing channels may leave bandwidth
 * (or cost) at 0: it is then its slowest channel's (the smallest bandwidth,
 * the largest cost).  O(min(out-degree of src, in-degree of dst) +
 * crossings). */
steady_err_t steady_platform_add_edge(steady_platform_t *p, const steady_edge_t *e, int *id,
                                      steady_error_t *err);

/* Whole-graph checks that a reader runs after the last statement: the
 * platform has at least one processor, and the paths through switches
 * are unambiguous: from each switch, every node is reached along at most
 * one path whose inner nodes are switches (so that a hop is named by its
 * first edge and its last node, as schedules do).  O(V + E) per switch,
 * over the part of the platform the switch reaches through switches. */
steady_err_t steady_platform_validate(const steady_platform_t *p, steady_error_t *err);

/* ---- queries ----------------------------------------------------------- */

int steady_platform_node_count(const steady_platform_t *p);
int steady_platform_processor_count(const steady_platform_t *p);
int steady_platform_switch_count(const steady_platform_t *p);
int steady_platform_edge_count(const steady_platform_t *p);
int steady_platform_channel_count(const steady_platform_t *p);

/* The node / edge / channel with that id (0 <= id < count); valid until
 * the next add_node / add_edge / add_channel. */
const steady_node_t *steady_platform_node(const steady_platform_t *p, int id);
const steady_edge_t *steady_platform_edge(const steady_platform_t *p, int id);
const steady_channel_t *steady_platform_channel(const steady_platform_t *p, int id);

/* Id of the node with that name, or -1.  O(1) expected. */
int steady_platform_find_node(const steady_platform_t *p, const char *name);

/* Id of the channel with that name, or -1.  O(1) expected. */
int steady_platform_find_channel(const steady_platform_t *p, const char *name);

/* ---- ranks ---------------------------------------------------------------
 * The nodes that hold ports (processors and routers) run as MPI ranks, in
 * node order; switches do not. */

int steady_platform_rank_count(const steady_platform_t *p);
/* The rank of node v, or -1 for a switch.  O(1). */
int steady_platform_rank_of(const steady_platform_t *p, int v);
/* The node of rank r (0 <= r < rank_count).  O(1). */
int steady_platform_rank_node(const steady_platform_t *p, int r);

/* ---- shared resources ---------------------------------------------------
 * The resources a message occupies besides the ports: each SHARED channel
 * (one resource), each SPLITDUPLEX channel (two: up, down), and each
 * private edge whose ends are both switches (no port bounds it).  Private
 * edges with a port at one end are bounded by that port and are not
 * resources; FATPIPE channels bound each message alone and are not
 * resources either.  Resources are numbered densely from 0. */

int steady_platform_resource_count(const steady_platform_t *p);

/* One resource a message on an edge occupies. */
typedef struct {
    int resource;
    int channel; /* the channel, or -1 for an edge's own private link */
    bool cross;  /* the message's cross traffic: a resource of its reverse
                  * edge, loaded with steady_platform_crosstraffic of the
                  * time the message holds it (channel -1: the reverse
                  * edge's own link) */
} steady_use_t;

/* The resources one message on edge e occupies itself (may be none); the
 * array belongs to the platform.  O(1). */
const steady_use_t *steady_platform_edge_uses(const steady_platform_t *p, int e, int *count);

/* The resources one message along a path of edges (a hop's) loads, one
 * by one: each edge's own (steady_platform_edge_uses), and, when the
 * platform has cross traffic, its reverse edge's (.cross) but for those
 * an edge of the path crosses itself.  What the LPs' capacity rows, the
 * slots, the validator and the replay charge.
 *
 *     steady_loads_t it;
 *     steady_loads_start(&it, p, hop->edges, hop->nedges);
 *     while (steady_loads_next(&it, &edge, &use)) ...
 */
typedef struct {
    const steady_platform_t *p;
    const int *edges;
    int nedges, k, y;
} steady_loads_t;
void steady_loads_start(steady_loads_t *it, const steady_platform_t *p, const int *edges,
                        int nedges);
/* The next one: the edge that loads it in *edge, the use in *u; false
 * after the last. */
bool steady_loads_next(steady_loads_t *it, int *edge, const steady_use_t **u);

/* A readable name of resource r: "channel bb", "channel wan (up)", "edge
 * s1 -> s2".  Written to buf (n bytes). */
void steady_platform_resource_name(const steady_platform_t *p, int r, char *buf, size_t n);

/* The time one message of msg_size bytes occupies the resource of u on
 * edge e: s / bandwidth (the channel's cost on an abstract platform) for a
 * channel, c(e) for the edge's own link (the reverse edge's for a cross
 * use); times steady_platform_crosstraffic for a cross use. */
double steady_platform_use_time(const steady_platform_t *p, int e, const steady_use_t *u,
                                double msg_size);

/* Id of the edge src -> dst, or -1.  O(min(out-degree of src, in-degree of dst)). */
int steady_platform_find_edge(const steady_platform_t *p, int src, int dst);

/* Ids of the edges leaving / entering node v, in insertion order; *count
 * receives their number.  The array belongs to the platform. */
const int *steady_platform_out_edges(const steady_platform_t *p, int v, int *count);
const int *steady_platform_in_edges(const steady_platform_t *p, int v, int *count);

/* True when the platform's edges carry abstract per-message costs. */
bool steady_platform_is_abstract(const steady_platform_t *p);

/* True when the platform has a switch, a channel or an edge between two
 * switches: a model beyond the paper's (every node one-port, every edge
 * private). */
bool steady_platform_has_network(const steady_platform_t *p);

/* c(e) for a message of msg_size bytes (ignored on abstract-cost edges). */
double steady_platform_comm_time(const steady_platform_t *p, int edge, double msg_size);

/* The time one message of msg_size bytes takes on edge e alone: the
 * largest of c(e) and the time of each channel it crosses. */
double steady_platform_edge_time(const steady_platform_t *p, int edge, double msg_size);

/* The latency of edge e: its own plus that of every channel it crosses. */
double steady_platform_edge_latency(const steady_platform_t *p, int edge);

/* ---- hops ----------------------------------------------------------------
 * A hop is one message between two ranks along a path of edges whose inner
 * nodes are switches (the network forwards it: one transfer, one MPI
 * message).  steady_platform_validate makes a hop determined by its first
 * edge and its last node. */

typedef struct {
    int src, dst; /* rank nodes: edges[0]'s source, edges[nedges - 1]'s destination */
    int nedges;
    int *edges; /* the path, in order (owned by whoever holds the hop) */
} steady_hop_t;

/* *out: h with a copy of its edges, which out's holder owns; false when
 * memory runs out. */
bool steady_hop_copy(steady_hop_t *out, const steady_hop_t *h);

/* The time one message of msg_size bytes takes along the hop alone: the
 * largest steady_platform_edge_time of its edges; both ports are held that
 * long. */
double steady_hop_time(const steady_platform_t *p, const steady_hop_t *h, double msg_size);

/* The hop's latency: the sum of its edges'. */
double steady_hop_latency(const steady_platform_t *p, const steady_hop_t *h);

/* The hop's sharing penalty: 1 under STEADY_FLOWS_FAIR.  Under
 * STEADY_FLOWS_PENALTY the sum over its edges of each edge's penalty,
 * or when it gives none of its latency (its channels' included) plus
 * weight-S / bandwidth for each channel it crosses, or for its own
 * bandwidth when it crosses none — those edges count only when their
 * latencies do not sum to 0; 1 when nothing counts (SimGrid gives a route
 * without latency the penalty 1, whatever weight-S).  A transfer's share
 * of a resource is proportional to 1 / penalty (fluid.c). */
double steady_hop_penalty(const steady_platform_t *p, const steady_hop_t *h);

/* The factor on the hop's rate while its source receives: its first
 * edge's recv_factor (the edge leaving the source). */
double steady_hop_recv_factor(const steady_platform_t *p, const steady_hop_t *h);

/* Every hop of a platform (hopgraph.c): each edge between two ranks, in
 * edge order, then each path from a rank through switches to another rank,
 * by source rank and in depth-first order.  On a platform without switches
 * hop h is edge h.  The LPs' rates, the trees and the schedules are on
 * hops.  A star of k hosts around a switch has k (k - 1). */
typedef struct steady_hop_graph steady_hop_graph_t;

/* The most hops a platform may have: 2048 ranks around one switch make
 * 4 192 256.  Beyond, the LPs would need tens of GB (a flat cluster's
 * scatter takes about 2.3 KB per hop), so the platform is refused. */
#define STEADY_HOPS_MAX (1 << 22)
/* ... and the most edges along them (a long chain of switches) */
#define STEADY_HOP_EDGES_MAX (1 << 26)

/* Builds p's hops in *out (caller destroys it; it borrows nothing from p
 * but stays valid only while p is unchanged).  O(hops x path length).
 * More than STEADY_HOPS_MAX hops or STEADY_HOP_EDGES_MAX edges along them:
 * STEADY_EUNSUPPORTED, found before any is stored. */
steady_err_t steady_hop_graph_build(const steady_platform_t *p, steady_hop_graph_t **out,
                                    steady_error_t *err);
void steady_hop_graph_destroy(steady_hop_graph_t *g);
int steady_hop_graph_count(const steady_hop_graph_t *g);
/* Hop h (0 <= h < count); its edges belong to the graph. */
const steady_hop_t *steady_hop_graph_hop(const steady_hop_graph_t *g, int h);
/* The hops leaving / entering node v, by id; *count receives their number. */
const int *steady_hop_graph_out(const steady_hop_graph_t *g, int v, int *count);
const int *steady_hop_graph_in(const steady_hop_graph_t *g, int v, int *count);
/* The hop whose first edge and last node these are, or -1.  O(1) expected. */
int steady_hop_graph_find(const steady_hop_graph_t *g, int first_edge, int dst);

/* Two ranks that no hop joins, *a -> *b (node ids; the first such pair by
 * source, then destination), or -1 in both: a message between them is
 * forwarded by a third rank, and the network has no route between them
 * (SimGrid aborts when one is asked for).  O(ranks x the nodes and edges
 * each reaches through switches).  ENOMEM. */
steady_err_t steady_platform_unjoined(const steady_platform_t *p, int *a, int *b,
                                      steady_error_t *err);

/* w(v) = task_cost / speed(v); +infinity for a router or a switch. */
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

/* Options of steady_platform_read_with; zero-initialise. */
typedef struct {
    /* called now and then (steady/progress.h) with "reading the platform"
     * (bytes read, of the file's size), "building the platform" (routes
     * laid out, SimGrid files) and "checking the platform" */
    steady_progress_fn progress;
    void *progress_ctx;
} steady_read_options_t;

/* steady_platform_read with options (opts may be NULL).  A regular file in
 * an XML format is parsed as it is read, a chunk at a time, never held
 * whole in memory. */
steady_err_t steady_platform_read_with(const char *path, steady_format_t format,
                                       const steady_read_options_t *opts, steady_platform_t **out,
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

/* Writes an SMPI hostfile: the name of each processor and router (the
 * ranks) in node order, one a line, so that MPI rank r runs on the node
 * steady_platform_rank_node(p, r); switches run no rank. */
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
 * steady_platform_write writes in the native format), without how flows
 * share channels (the flows rule, the edges' penalties: a schedule is
 * valid whatever they are) and the calibration's sizes: identifies the
 * platform a schedule was made for.  O(size of the text) the first time,
 * then kept until the platform changes (safe from several threads). */
steady_err_t steady_platform_hash(const steady_platform_t *p, uint64_t *hash, steady_error_t *err);

/* ---- summary ----------------------------------------------------------- */

typedef struct {
    double min, max;
} steady_range_t;

typedef struct {
    int nodes, processors, routers, switches, edges, channels;
    int duplex_pairs; /* pairs {i,j} with both i->j and j->i */
    int components;   /* strongly connected components */
    bool strongly_connected;
    bool abstract; /* cost edges (then `cost` is set, not bandwidth/overhead) */
    /* over edges (latency: their channels' included); speed over processors */
    steady_range_t bandwidth, latency, overhead, cost, speed;
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
