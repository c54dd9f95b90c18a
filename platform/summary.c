/*
 * summary.c — steady_platform_summarize(): counts, value ranges, degrees,
 * duplex pairs and strongly connected components of a platform.
 *
 * The strongly connected components come from igraph (docs/design.md:
 * prefer a well-kept library for graph algorithms).  igraph's default error handler
 * aborts the process, which the library must never do (error.h), so every
 * igraph call here runs under igraph_error_handler_ignore — igraph then
 * frees its own temporaries and returns the error code, which becomes a
 * steady error — and the previous handler is restored before returning.
 */
#include "internal.h"

#include <igraph.h>
#include <stdlib.h>
#include <string.h>

/* Widens r to include x; `seen` says whether r holds a value yet. */
static void range_add(steady_range_t *r, bool *seen, double x)
{
    if (!*seen) {
        r->min = r->max = x;
        *seen = true;
        return;
    }
    if (x < r->min)
        r->min = x;
    if (x > r->max)
        r->max = x;
}

static steady_err_t from_igraph(igraph_error_t code, const char *call, steady_error_t *err)
{
    if (code == IGRAPH_ENOMEM)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory (in igraph's %s)", call);
    return steady_error_set(err, STEADY_EINTERNAL, "igraph's %s failed: %s", call,
                            igraph_strerror(code));
}

/* Number of strongly connected components of p's directed graph, by
 * igraph_connected_components(IGRAPH_STRONG).  O(V + E). */
static steady_err_t count_components(const steady_platform_t *p, int *components,
                                     steady_error_t *err)
{
    int n = steady_platform_node_count(p), m = steady_platform_edge_count(p);
    igraph_vector_int_t edges;
    igraph_t graph;
    bool have_edges = false, have_graph = false;
    igraph_integer_t no = 0;
    igraph_error_t ic;
    steady_err_t rc = STEADY_OK;
    igraph_error_handler_t *previous = igraph_set_error_handler(igraph_error_handler_ignore);

    *components = 0;
    if ((ic = igraph_vector_int_init(&edges, 2 * (igraph_integer_t)m))) {
        rc = from_igraph(ic, "igraph_vector_int_init", err);
        goto cleanup;
    }
    have_edges = true;
    for (int k = 0; k < m; k++) {
        const steady_edge_t *e = steady_platform_edge(p, k);
        VECTOR(edges)[2 * (igraph_integer_t)k] = e->src;
        VECTOR(edges)[2 * (igraph_integer_t)k + 1] = e->dst;
    }
    if ((ic = igraph_create(&graph, &edges, n, IGRAPH_DIRECTED))) {
        rc = from_igraph(ic, "igraph_create", err);
        goto cleanup;
    }
    have_graph = true;
    if ((ic = igraph_connected_components(&graph, NULL, NULL, &no, IGRAPH_STRONG))) {
        rc = from_igraph(ic, "igraph_connected_components", err);
        goto cleanup;
    }
    *components = (int)no;

cleanup:
    if (have_graph)
        igraph_destroy(&graph);
    if (have_edges)
        igraph_vector_int_destroy(&edges);
    igraph_set_error_handler(previous);
    return rc;
}

/*
 * Complexity: O(V + E) time and O(V + E) extra memory (igraph's copy of the
 * graph and one stamp per node).
 *
 * Duplex pairs are counted without steady_platform_find_edge(), which would
 * cost O(out-degree) per edge and make a star quadratic: for each node u,
 * its out-neighbours are stamped with u, then each in-neighbour w > u that
 * carries the stamp closes one pair {u, w} (counted once, from its smaller
 * end).
 */
steady_err_t steady_platform_summarize(const steady_platform_t *p, steady_platform_summary_t *s,
                                       steady_error_t *err)
{
    memset(s, 0, sizeof *s);
    int n = steady_platform_node_count(p), m = steady_platform_edge_count(p);
    s->nodes = n;
    s->processors = steady_platform_processor_count(p);
    s->routers = n - s->processors;
    s->edges = m;
    s->abstract = steady_platform_is_abstract(p);

    bool seen_speed = false;
    for (int v = 0; v < n; v++) {
        const steady_node_t *node = steady_platform_node(p, v);
        if (node->kind == STEADY_PROCESSOR)
            range_add(&s->speed, &seen_speed, node->speed);
        int out, in;
        steady_platform_out_edges(p, v, &out);
        steady_platform_in_edges(p, v, &in);
        if (out > s->max_out_degree)
            s->max_out_degree = out;
        if (in > s->max_in_degree)
            s->max_in_degree = in;
    }

    /* A platform has either cost edges or bandwidth edges (platform.h): the
     * ranges of the other kind stay at 0. */
    bool seen_bw = false, seen_lat = false, seen_ovh = false, seen_cost = false;
    for (int k = 0; k < m; k++) {
        const steady_edge_t *e = steady_platform_edge(p, k);
        range_add(&s->latency, &seen_lat, e->latency);
        if (s->abstract) {
            range_add(&s->cost, &seen_cost, e->cost);
        } else {
            range_add(&s->bandwidth, &seen_bw, e->bandwidth);
            range_add(&s->overhead, &seen_ovh, e->overhead);
        }
    }

    if (n > 0) {
        int *stamp = malloc((size_t)n * sizeof *stamp);
        if (!stamp)
            return steady_error_set(err, STEADY_ENOMEM, "out of memory");
        for (int v = 0; v < n; v++)
            stamp[v] = -1;
        for (int u = 0; u < n; u++) {
            int count;
            const int *ids = steady_platform_out_edges(p, u, &count);
            for (int k = 0; k < count; k++)
                stamp[steady_platform_edge(p, ids[k])->dst] = u;
            ids = steady_platform_in_edges(p, u, &count);
            for (int k = 0; k < count; k++) {
                int w = steady_platform_edge(p, ids[k])->src;
                if (w > u && stamp[w] == u)
                    s->duplex_pairs++;
            }
        }
        free(stamp);
    }

    steady_err_t rc = count_components(p, &s->components, err);
    if (rc)
        return rc;
    s->strongly_connected = s->components == 1;
    return STEADY_OK;
}
