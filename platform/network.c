/*
 * network.c — the rule that makes hops well defined: paths through
 * switches are unambiguous (steady_platform_validate); and the text of the
 * channels an edge crosses, which the native and GraphML formats share.
 *
 * A hop is one message between two ranks along edges whose inner nodes
 * are switches (platform.h).  Schedules name a hop by its first edge and
 * its last node, and the MPI runtime (SimGrid's routing, or the machine's)
 * has one route between two hosts; so from the switch a hop enters first,
 * every node must be reached along one path through switches at most.
 *
 * Check.  From each switch W that a rank sends to, a depth-first search
 * over the edges leaving switches (a rank ends a path: it is a hop's end,
 * not a switch to cross) finds every node W reaches through switches.  In a
 * depth-first search of a directed graph, a node is reached along two
 * different simple paths exactly when some edge leads to a node already
 * visited that is not on the current path (a forward or a cross edge); an
 * edge to a node on the current path (a back edge, e.g. the other
 * direction of a duplex link between two switches) closes a cycle, which
 * no simple path uses.  Cost: O(nodes and edges reached) per entry switch,
 * with one stamp per node shared by the searches.
 */
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- crossings as text ------------------------------------------------------- */

steady_err_t crossings_parse(const steady_platform_t *p, const char *text,
                             steady_crossing_t *cross, int *n, crossing_error_t *e)
{
    char buf[1024];
    *n = 0;
    *e = (crossing_error_t){0};
    snprintf(e->value, sizeof e->value, "%.255s", text);
    if (strlen(text) >= sizeof buf) {
        e->why = "list of crossed channels too long";
        return STEADY_EPARSE;
    }
    memcpy(buf, text, strlen(text) + 1);
    for (char *item = buf, *next; item; item = next) {
        next = strchr(item, ',');
        if (next)
            *next++ = '\0';
        if (*n == STEADY_MAX_CROSSINGS) {
            e->why = "too many crossed channels";
            return STEADY_EPARSE;
        }
        /* a channel's name may hold ':' (the node-name rules): the item
         * is a channel's whole name, or a name and a direction after its
         * last ':' — not both */
        int whole = *item ? steady_platform_find_channel(p, item) : -1, c = whole;
        char *dir = strrchr(item, ':');
        if (dir) {
            *dir = '\0';
            int named = *item ? steady_platform_find_channel(p, item) : -1;
            *dir = ':';
            if (whole >= 0 && named >= 0 &&
                steady_platform_channel(p, named)->sharing == STEADY_SPLITDUPLEX) {
                e->why = "ambiguous crossing";
                snprintf(e->value, sizeof e->value, "%.255s", item);
                e->hint = "a channel has that name, and another that name up to its last ':'";
                return STEADY_EINVAL;
            }
            if (whole >= 0) {
                dir = NULL;
            } else {
                *dir++ = '\0';
                c = named;
            }
        }
        if (c < 0) {
            e->why = *item ? "unknown channel" : "empty channel name";
            if (*item)
                snprintf(e->value, sizeof e->value, "%.255s", item);
            e->hint = "declare it first";
            return STEADY_EINVAL;
        }
        bool split = steady_platform_channel(p, c)->sharing == STEADY_SPLITDUPLEX;
        if (dir && strcmp(dir, "up") != 0 && strcmp(dir, "down") != 0) {
            e->why = "unknown direction";
            snprintf(e->value, sizeof e->value, "%.255s", dir);
            e->hint = "use CHANNEL:up or CHANNEL:down";
            return STEADY_EPARSE;
        }
        if (split != (dir != NULL)) {
            e->why = split ? "missing direction of a splitduplex channel"
                           : "direction on a channel that is not splitduplex";
            snprintf(e->value, sizeof e->value, "%.255s", item);
            e->hint = split ? "use CHANNEL:up or CHANNEL:down" : NULL;
            return STEADY_EINVAL;
        }
        cross[(*n)++] = (steady_crossing_t){c, dir && dir[0] == 'd'};
    }
    return STEADY_OK;
}

void crossings_write(FILE *out, const steady_platform_t *p, const steady_edge_t *e)
{
    for (int j = 0; j < e->ncross; j++) {
        const steady_channel_t *c = steady_platform_channel(p, e->cross[j].channel);
        fprintf(out, "%s%s%s", j ? "," : "", c->name,
                c->sharing != STEADY_SPLITDUPLEX ? ""
                : e->cross[j].down               ? ":down"
                                                 : ":up");
    }
}

/* ---- paths through switches ---------------------------------------------------- */

typedef struct {
    int node, next; /* the node and the index of its next out-edge to look at */
} frame_t;

steady_err_t check_switch_paths(const steady_platform_t *p, steady_error_t *err)
{
    int n = steady_platform_node_count(p);
    if (steady_platform_switch_count(p) == 0)
        return STEADY_OK;
    int *stamp = malloc((size_t)n * sizeof *stamp);   /* the search that visited a node */
    int *parent = malloc((size_t)n * sizeof *parent); /* the node it was reached from */
    char *on_path = calloc((size_t)n, 1);
    frame_t *stack = malloc((size_t)n * sizeof *stack);
    if (!stamp || !parent || !on_path || !stack) {
        free(stamp);
        free(parent);
        free(on_path);
        free(stack);
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    }
    for (int v = 0; v < n; v++)
        stamp[v] = -1;
    steady_err_t rc = STEADY_OK;
    for (int w = 0; w < n && !rc; w++) {
        if (steady_platform_node(p, w)->kind != STEADY_SWITCH)
            continue;
        /* an entry switch: some rank sends to it */
        int nin;
        const int *in = steady_platform_in_edges(p, w, &nin);
        bool entry = false;
        for (int k = 0; k < nin && !entry; k++)
            entry = steady_platform_node(p, steady_platform_edge(p, in[k])->src)->kind !=
                    STEADY_SWITCH;
        if (!entry)
            continue;
        int top = 0;
        stack[top++] = (frame_t){w, 0};
        stamp[w] = w;
        parent[w] = -1;
        on_path[w] = 1;
        while (top > 0 && !rc) {
            frame_t *f = &stack[top - 1];
            int nout;
            const int *out = steady_platform_out_edges(p, f->node, &nout);
            if (f->next == nout) {
                on_path[f->node] = 0;
                top--;
                continue;
            }
            int x = steady_platform_edge(p, out[f->next++])->dst;
            if (stamp[x] == w) {
                if (on_path[x])
                    continue; /* a cycle back along the current path */
                const char *a = steady_platform_node(p, parent[x])->name;
                const char *b = steady_platform_node(p, f->node)->name;
                rc = steady_error_set(
                    err, STEADY_EINVAL,
                    "two paths through switches lead from switch %s to %s (last through %s and "
                    "through %s): a message between two ranks must have one route; remove an "
                    "edge or make a node on one path a router",
                    steady_platform_node(p, w)->name, steady_platform_node(p, x)->name, a, b);
                break;
            }
            stamp[x] = w;
            parent[x] = f->node;
            if (steady_platform_node(p, x)->kind == STEADY_SWITCH) {
                on_path[x] = 1;
                stack[top++] = (frame_t){x, 0};
            }
        }
        while (top > 0)
            on_path[stack[--top].node] = 0;
    }
    free(stamp);
    free(parent);
    free(on_path);
    free(stack);
    return rc;
}
