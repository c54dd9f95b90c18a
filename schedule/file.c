/*
 * file.c — schedule files (docs/schedule-format.md), written and read with
 * jansson.  The reader checks form and references only; whether the
 * schedule is valid is check.c's business, so that a corrupted schedule can
 * be read and then rejected with reasons.
 */
#define _POSIX_C_SOURCE 200809L
#include "steady/schedule.h"

#include "../common/file.h"

#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define FORMAT_NAME "steady-schedule"
/* Version 2 lets a send forward, in the same period, what an earlier slot
 * delivered (the same lag as its producer, docs/schedule-format.md);
 * version 3 cuts an operation's message into "segments"; version 4 lets a
 * send cross switches ("via"); version 5 says what a latency holds
 * ("cost_model"); version 6 lets a slot hold several transfers of a
 * sender to its one receiver, back to back.  The rules only widen: an
 * older file means the same under a newer version (one segment, no
 * switch, latencies that hold no port: "eager", a transfer per port and
 * slot), so all are read; an older reader refuses what a newer version
 * writes. */
#define FORMAT_VERSION     6
#define FORMAT_VERSION_MIN 1

/* Whether send steps s of a and t of b take the same path. */
static bool same_path(const steady_schedule_t *a, const steady_sched_step_t *s,
                      const steady_schedule_t *b, const steady_sched_step_t *t)
{
    if (s->edge != t->edge || (s->hop < 0) != (t->hop < 0))
        return false;
    if (s->hop < 0)
        return true;
    const steady_hop_t *x = &a->hops[s->hop], *y = &b->hops[t->hop];
    return x->nedges == y->nedges &&
           memcmp(x->edges, y->edges, (size_t)x->nedges * sizeof *x->edges) == 0;
}

bool steady_schedule_equal(const steady_schedule_t *a, const steady_schedule_t *b)
{
    if (a->op != b->op || a->platform_hash != b->platform_hash || a->nsources != b->nsources ||
        a->ntargets != b->ntargets || a->msg_size != b->msg_size || a->task_cost != b->task_cost ||
        a->segments != b->segments || a->abstract != b->abstract ||
        a->cost_model != b->cost_model || !mpq_equal(a->optimum, b->optimum) ||
        !mpq_equal(a->throughput, b->throughput) || !mpq_equal(a->period, b->period) ||
        a->ops_per_period != b->ops_per_period || a->fixed_period != b->fixed_period ||
        !mpq_equal(a->loss, b->loss) || !mpq_equal(a->loss_bound, b->loss_bound) ||
        a->max_lag != b->max_lag || a->ntrees != b->ntrees || a->nslots != b->nslots ||
        a->ncompute != b->ncompute || a->nbuffers != b->nbuffers)
        return false;
    for (int i = 0; i < a->nsources; i++)
        if (a->sources[i] != b->sources[i])
            return false;
    for (int i = 0; i < a->ntargets; i++)
        if (a->targets[i] != b->targets[i])
            return false;
    for (int i = 0; i < a->ntrees; i++) {
        const steady_sched_tree_t *x = &a->trees[i], *y = &b->trees[i];
        if (x->weight != y->weight || x->first != y->first || x->nsteps != y->nsteps)
            return false;
        for (int j = 0; j < x->nsteps; j++) {
            const steady_sched_step_t *s = &x->steps[j], *t = &y->steps[j];
            if (s->kind != t->kind || s->lag != t->lag ||
                (s->kind == STEADY_STEP_SEND
                     ? !same_path(a, s, b, t) || strcmp(a->types[s->type], b->types[t->type]) != 0
                     : s->node != t->node || s->k != t->k || s->l != t->l || s->m != t->m))
                return false;
        }
    }
    for (int k = 0; k < a->nslots; k++) {
        const steady_sched_slot_t *x = &a->slots[k], *y = &b->slots[k];
        if (!mpq_equal(x->start, y->start) || !mpq_equal(x->duration, y->duration) ||
            x->ntransfers != y->ntransfers)
            return false;
        for (int t = 0; t < x->ntransfers; t++)
            if (x->transfers[t].tree != y->transfers[t].tree ||
                x->transfers[t].step != y->transfers[t].step ||
                !mpq_equal(x->transfers[t].from, y->transfers[t].from) ||
                !mpq_equal(x->transfers[t].to, y->transfers[t].to))
                return false;
    }
    for (int k = 0; k < a->ncompute; k++) {
        const steady_sched_compute_t *x = &a->compute[k], *y = &b->compute[k];
        if (x->node != y->node || x->tree != y->tree || x->step != y->step || x->count != y->count)
            return false;
    }
    for (int k = 0; k < a->nbuffers; k++)
        if (a->buffers[k].node != b->buffers[k].node ||
            a->buffers[k].messages != b->buffers[k].messages ||
            strcmp(a->types[a->buffers[k].type], b->types[b->buffers[k].type]) != 0)
            return false;
    return true;
}

const char *steady_schedule_unit(const steady_schedule_t *sc)
{
    return sc->segments > 1 ? "segments" : "operations";
}

static const char *const cost_models[] = {"rendezvous", "eager"};

int steady_cost_model_from_name(const char *name)
{
    for (int m = 0; m < 2; m++)
        if (strcmp(name, cost_models[m]) == 0)
            return m;
    return -1;
}

const char *steady_cost_model_name(steady_cost_model_t m)
{
    return (unsigned)m < 2 ? cost_models[m] : "?";
}

double steady_schedule_per_operation(const steady_schedule_t *sc, const mpq_t rate)
{
    return mpq_get_d(rate) / (double)sc->segments;
}

steady_err_t steady_schedule_messages(const steady_schedule_t *sc, long ops, long *msgs,
                                      steady_error_t *err)
{
    if (ops <= 0)
        return steady_error_set(err, STEADY_EINVAL,
                                "the number of operations must be positive (%ld)", ops);
    if (sc->segments < 1 || ops > LONG_MAX / 4 / sc->segments)
        return steady_error_set(err, STEADY_EINVAL, "%ld operations of %ld segments (too many)",
                                ops, sc->segments);
    *msgs = ops * sc->segments;
    return STEADY_OK;
}

/* ---- writing --------------------------------------------------------------- */

static json_t *q_json(const mpq_t q)
{
    char *s = mpq_get_str(NULL, 10, q);
    json_t *j = json_string(s);
    void (*freefunc)(void *, size_t);
    mp_get_memory_functions(NULL, NULL, &freefunc);
    freefunc(s, strlen(s) + 1);
    return j;
}

static const char *node_name(const steady_platform_t *p, int v)
{
    return steady_platform_node(p, v)->name;
}

static json_t *names_json(const steady_platform_t *p, const int *ids, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_string(node_name(p, ids[i])));
    return a;
}

static json_t *step_json(const steady_schedule_t *sc, const steady_platform_t *p,
                         const steady_sched_step_t *st)
{
    if (st->kind == STEADY_STEP_SEND) {
        json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:i}", "kind", "send", "from",
                              node_name(p, steady_sched_step_src(sc, p, st)), "to",
                              node_name(p, steady_sched_step_dst(sc, p, st)), "type",
                              sc->types[st->type], "lag", st->lag);
        int n;
        const int *edges = steady_sched_step_edges(sc, st, &n);
        if (n > 1) { /* the switches it crosses, in order */
            json_t *via = json_array();
            for (int k = 0; k < n - 1; k++)
                json_array_append_new(
                    via, json_string(node_name(p, steady_platform_edge(p, edges[k])->dst)));
            json_object_set_new(j, "via", via);
        }
        return j;
    }
    return json_pack("{s:s, s:s, s:[i,i,i], s:i}", "kind", "compute", "node",
                     node_name(p, st->node), "task", st->k, st->l, st->m, "lag", st->lag);
}

#define DUMP_FLAGS (JSON_INDENT(1) | JSON_REAL_PRECISION(17))

/* The slots array, written as json_dumpf would write it two levels deep
 * (DUMP_FLAGS), without a JSON tree: a 1,000-node period has 10^5..10^6
 * transfers, whose tree took more memory than the plan and, built and
 * dumped a slot at a time, a tenth of its time.  Rationals are digits, '-'
 * and '/': nothing to escape.  False when writing fails. */
static bool write_slots(FILE *out, const steady_schedule_t *sc)
{
    if (sc->nslots == 0)
        return fputs("[]", out) != EOF;
    bool ok = fputc('[', out) != EOF;
    for (int k = 0; k < sc->nslots && ok; k++) {
        const steady_sched_slot_t *sl = &sc->slots[k];
        ok = gmp_fprintf(out,
                         "%s\n  {\n   \"start\": \"%Qd\",\n   \"duration\": \"%Qd\",\n"
                         "   \"transfers\": %s",
                         k ? "," : "", sl->start, sl->duration, sl->ntransfers ? "[" : "[]") >= 0;
        for (int x = 0; x < sl->ntransfers && ok; x++) {
            const steady_sched_transfer_t *t = &sl->transfers[x];
            ok = gmp_fprintf(out,
                             "%s\n    {\n     \"tree\": %d,\n     \"step\": %d,\n"
                             "     \"part\": [\n      \"%Qd\",\n      \"%Qd\"\n     ]\n    }",
                             x ? "," : "", t->tree, t->step, t->from, t->to) >= 0;
        }
        ok = ok && fputs(sl->ntransfers ? "\n   ]\n  }" : "\n  }", out) != EOF;
    }
    return ok && fputs("\n ]", out) != EOF;
}

/* The document, in the order of its keys: the header and the trees, the
 * slots (streamed), the compute list and the buffers; byte for byte what
 * json_dumpf writes of the whole. */
steady_err_t steady_schedule_write(const steady_schedule_t *sc, const steady_platform_t *p,
                                   FILE *out, steady_error_t *err)
{
    char hash[32];
    snprintf(hash, sizeof hash, "fnv1a64:%016" PRIx64, sc->platform_hash);
    json_t *trees = json_array(), *compute = json_array(), *buffers = json_array();
    for (int i = 0; i < sc->ntrees; i++) {
        json_t *steps = json_array();
        for (int j = 0; j < sc->trees[i].nsteps; j++)
            json_array_append_new(steps, step_json(sc, p, &sc->trees[i].steps[j]));
        json_array_append_new(trees, json_pack("{s:I, s:I, s:o}", "weight",
                                               (json_int_t)sc->trees[i].weight, "first",
                                               (json_int_t)sc->trees[i].first, "steps", steps));
    }
    for (int k = 0; k < sc->ncompute; k++)
        json_array_append_new(compute, json_pack("{s:s, s:i, s:i, s:I}", "node",
                                                 node_name(p, sc->compute[k].node), "tree",
                                                 sc->compute[k].tree, "step", sc->compute[k].step,
                                                 "count", (json_int_t)sc->compute[k].count));
    for (int k = 0; k < sc->nbuffers; k++)
        json_array_append_new(buffers, json_pack("{s:s, s:s, s:I}", "node",
                                                 node_name(p, sc->buffers[k].node), "type",
                                                 sc->types[sc->buffers[k].type], "messages",
                                                 (json_int_t)sc->buffers[k].messages));
    json_t *head = json_pack(
        "{s:s, s:i, s:{s:s, s:s, s:i, s:i}, s:s, s:o, s:o, s:f, s:I, s:f, s:b, s:s, s:o, s:o, "
        "s:o, s:I, s:b, s:o, s:o, s:i, s:o}",
        "format", FORMAT_NAME, "version", FORMAT_VERSION, "platform", "name", sc->platform_name,
        "hash", hash, "nodes", sc->platform_nodes, "edges", sc->platform_edges, "op",
        steady_op_name(sc->op), "sources", names_json(p, sc->sources, sc->nsources), "targets",
        names_json(p, sc->targets, sc->ntargets), "msg_size", sc->msg_size, "segments",
        (json_int_t)sc->segments, "task_cost", sc->task_cost, "abstract", sc->abstract,
        "cost_model", steady_cost_model_name(sc->cost_model), "optimum", q_json(sc->optimum),
        "throughput", q_json(sc->throughput), "period", q_json(sc->period), "ops_per_period",
        (json_int_t)sc->ops_per_period, "fixed_period", sc->fixed_period, "loss", q_json(sc->loss),
        "loss_bound", q_json(sc->loss_bound), "max_lag", sc->max_lag, "trees", trees);
    json_t *tail = json_pack("{s:o, s:o}", "compute", compute, "buffers", buffers);
    char *htext = head ? json_dumps(head, DUMP_FLAGS) : NULL;
    char *ttext = tail ? json_dumps(tail, DUMP_FLAGS) : NULL;
    json_decref(head);
    json_decref(tail);
    size_t hlen = htext ? strlen(htext) : 0, tlen = ttext ? strlen(ttext) : 0;
    /* "{\n ... \n}": the head without its closing line, the tail without
     * its opening one */
    if (hlen < 4 || tlen < 4) {
        free(htext);
        free(ttext);
        return steady_error_set(err, STEADY_ENOMEM, "out of memory writing the schedule");
    }
    bool ok = fwrite(htext, 1, hlen - 2, out) == hlen - 2 && fputs(",\n \"slots\": ", out) != EOF &&
              write_slots(out, sc) && fputs(",\n", out) != EOF &&
              fwrite(ttext + 2, 1, tlen - 2, out) == tlen - 2;
    free(htext);
    free(ttext);
    if (!ok || fputc('\n', out) == EOF || fflush(out) != 0)
        return steady_error_set(err, STEADY_EIO, "write failed (%s)", strerror(errno));
    return STEADY_OK;
}

/* ---- reading --------------------------------------------------------------- */

typedef struct {
    const char *path;
    const steady_platform_t *p;
    steady_schedule_t *sc;
    steady_error_t *err;
} reader_t;

static steady_err_t bad(reader_t *r, const char *fmt, const char *where, const char *value)
{
    return steady_error_set(r->err, STEADY_EPARSE, "%s: %s: %s (%.200s)", r->path, where, fmt,
                            value);
}

/* A member of object o, of the given jansson type, or an error naming it. */
static steady_err_t member(reader_t *r, json_t *o, const char *where, const char *key,
                           json_type type, json_t **out)
{
    *out = json_object_get(o, key);
    if (!*out)
        return steady_error_set(r->err, STEADY_EPARSE, "%s: %s: missing \"%s\"", r->path, where,
                                key);
    if (json_typeof(*out) != type && !(type == JSON_REAL && json_is_integer(*out)) &&
        !(type == JSON_TRUE && json_is_boolean(*out)))
        return steady_error_set(r->err, STEADY_EPARSE, "%s: %s: \"%s\" has the wrong type", r->path,
                                where, key);
    return STEADY_OK;
}

static steady_err_t get_int(reader_t *r, json_t *o, const char *where, const char *key, long lo,
                            long hi, long *v)
{
    json_t *j;
    steady_err_t rc = member(r, o, where, key, JSON_INTEGER, &j);
    if (rc)
        return rc;
    json_int_t x = json_integer_value(j);
    if (x < lo || x > hi)
        return steady_error_set(r->err, STEADY_EPARSE, "%s: %s: \"%s\" out of range (%" PRId64 ")",
                                r->path, where, key, (int64_t)x);
    *v = (long)x;
    return STEADY_OK;
}

/* "-12", "3/4": an optional sign, digits, optionally "/" and digits. */
static bool rational_text(const char *s)
{
    if (*s == '-')
        s++;
    size_t n = strspn(s, "0123456789");
    if (n == 0)
        return false;
    s += n;
    if (*s == '\0')
        return true;
    if (*s++ != '/')
        return false;
    n = strspn(s, "0123456789");
    return n > 0 && s[n] == '\0';
}

/* "p/q" -> q, canonical; a zero denominator is an error. */
static steady_err_t parse_q(reader_t *r, json_t *j, const char *where, mpq_t q)
{
    const char *s = json_is_string(j) ? json_string_value(j) : NULL;
    if (!s)
        return steady_error_set(r->err, STEADY_EPARSE,
                                "%s: %s: a rational must be a string \"p/q\"", r->path, where);
    if (rational_text(s) && mpq_set_str(q, s, 10) == 0 && mpz_sgn(mpq_denref(q)) != 0) {
        mpq_canonicalize(q);
        return STEADY_OK;
    }
    return bad(r, "not a rational", where, s);
}

static steady_err_t get_rational(reader_t *r, json_t *o, const char *where, const char *key,
                                 mpq_t q)
{
    json_t *j;
    steady_err_t rc = member(r, o, where, key, JSON_STRING, &j);
    if (rc)
        return rc;
    char w[96];
    snprintf(w, sizeof w, "%s \"%s\"", where, key);
    return parse_q(r, j, w, q);
}

static steady_err_t get_node(reader_t *r, json_t *j, const char *where, int *v)
{
    const char *s = json_is_string(j) ? json_string_value(j) : NULL;
    if (!s)
        return steady_error_set(r->err, STEADY_EPARSE, "%s: %s: a node must be a name", r->path,
                                where);
    *v = steady_platform_find_node(r->p, s);
    if (*v < 0)
        return steady_error_set(r->err, STEADY_EINVAL, "%s: %s: unknown node (%.200s)", r->path,
                                where, s);
    return STEADY_OK;
}

static steady_err_t get_nodes(reader_t *r, json_t *o, const char *key, int **ids, int *n)
{
    json_t *a;
    steady_err_t rc = member(r, o, "header", key, JSON_ARRAY, &a);
    if (rc)
        return rc;
    *n = (int)json_array_size(a);
    *ids = calloc((size_t)(*n ? *n : 1), sizeof **ids);
    if (!*ids)
        return steady_error_set(r->err, STEADY_ENOMEM, "out of memory");
    for (int i = 0; i < *n && !rc; i++)
        rc = get_node(r, json_array_get(a, (size_t)i), key, &(*ids)[i]);
    return rc;
}

/* The index of a message type by name, added to the schedule's list. */
static steady_err_t type_index(reader_t *r, const char *name, int *t)
{
    steady_schedule_t *sc = r->sc;
    for (*t = 0; *t < sc->ntypes; (*t)++)
        if (strcmp(sc->types[*t], name) == 0)
            return STEADY_OK;
    char **n = realloc(sc->types, (size_t)(sc->ntypes + 1) * sizeof *n);
    if (!n)
        return steady_error_set(r->err, STEADY_ENOMEM, "out of memory");
    sc->types = n;
    if (!(sc->types[sc->ntypes] = strdup(name)))
        return steady_error_set(r->err, STEADY_ENOMEM, "out of memory");
    *t = sc->ntypes++;
    return STEADY_OK;
}

/* A send through switches: from u through the switches named by via
 * (an array of names) to v, edge by edge; its hop is added to the
 * schedule's hops unless one with the same first edge and last node is
 * there already. */
static steady_err_t read_hop(reader_t *r, json_t *via, const char *where, int u, int v,
                             steady_sched_step_t *st)
{
    steady_schedule_t *sc = r->sc;
    size_t n = json_is_array(via) ? json_array_size(via) : 0;
    if (n == 0 || n > (size_t)steady_platform_node_count(r->p))
        return steady_error_set(r->err, STEADY_EPARSE,
                                "%s: %s: via must be a non-empty array of switch names", r->path,
                                where);
    int *edges = malloc((n + 1) * sizeof *edges);
    if (!edges)
        return steady_error_set(r->err, STEADY_ENOMEM, "out of memory");
    steady_err_t rc = STEADY_OK;
    int at = u;
    for (size_t k = 0; k <= n && !rc; k++) {
        int next = v;
        if (k < n && (rc = get_node(r, json_array_get(via, k), where, &next)))
            break;
        if (k < n && steady_platform_node(r->p, next)->kind != STEADY_SWITCH) {
            rc = steady_error_set(r->err, STEADY_EINVAL, "%s: %s: via names %s, not a switch",
                                  r->path, where, node_name(r->p, next));
            break;
        }
        edges[k] = steady_platform_find_edge(r->p, at, next);
        if (edges[k] < 0)
            rc = steady_error_set(r->err, STEADY_EINVAL, "%s: %s: no edge %s -> %s", r->path, where,
                                  node_name(r->p, at), node_name(r->p, next));
        at = next;
    }
    st->edge = edges[0];
    for (int h = 0; h < sc->nhops && !rc; h++)
        if (sc->hops[h].edges[0] == edges[0] && sc->hops[h].dst == v) {
            st->hop = h;
            free(edges);
            return STEADY_OK;
        }
    steady_hop_t *grown = rc ? NULL : realloc(sc->hops, (size_t)(sc->nhops + 1) * sizeof *grown);
    if (!rc && !grown)
        rc = steady_error_set(r->err, STEADY_ENOMEM, "out of memory");
    if (rc) {
        free(edges);
        return rc;
    }
    sc->hops = grown;
    sc->hops[sc->nhops] = (steady_hop_t){.src = u, .dst = v, .nedges = (int)n + 1, .edges = edges};
    st->hop = sc->nhops++;
    return STEADY_OK;
}

static steady_err_t read_step(reader_t *r, json_t *j, const char *where, steady_sched_step_t *st)
{
    json_t *kind, *x;
    long lag;
    steady_err_t rc;
    if (!json_is_object(j))
        return steady_error_set(r->err, STEADY_EPARSE, "%s: %s: not an object", r->path, where);
    if ((rc = member(r, j, where, "kind", JSON_STRING, &kind)) ||
        (rc = get_int(r, j, where, "lag", 0, 1000000, &lag)))
        return rc;
    st->lag = (int)lag;
    st->edge = st->hop = st->node = st->type = -1;
    if (strcmp(json_string_value(kind), "send") == 0) {
        int u, v;
        st->kind = STEADY_STEP_SEND;
        if ((rc = member(r, j, where, "from", JSON_STRING, &x)) ||
            (rc = get_node(r, x, where, &u)) || (rc = member(r, j, where, "to", JSON_STRING, &x)) ||
            (rc = get_node(r, x, where, &v)) ||
            (rc = member(r, j, where, "type", JSON_STRING, &x)) ||
            (rc = type_index(r, json_string_value(x), &st->type)))
            return rc;
        json_t *via = json_object_get(j, "via");
        if (via)
            return read_hop(r, via, where, u, v, st);
        st->edge = steady_platform_find_edge(r->p, u, v);
        if (st->edge < 0)
            return steady_error_set(r->err, STEADY_EINVAL, "%s: %s: no edge %s -> %s", r->path,
                                    where, node_name(r->p, u), node_name(r->p, v));
    } else if (strcmp(json_string_value(kind), "compute") == 0) {
        st->kind = STEADY_STEP_COMPUTE;
        if ((rc = member(r, j, where, "node", JSON_STRING, &x)) ||
            (rc = get_node(r, x, where, &st->node)) ||
            (rc = member(r, j, where, "task", JSON_ARRAY, &x)))
            return rc;
        if (json_array_size(x) != 3 || !json_is_integer(json_array_get(x, 0)) ||
            !json_is_integer(json_array_get(x, 1)) || !json_is_integer(json_array_get(x, 2)))
            return steady_error_set(r->err, STEADY_EPARSE, "%s: %s: task must be [k, l, m]",
                                    r->path, where);
        st->k = (int)json_integer_value(json_array_get(x, 0));
        st->l = (int)json_integer_value(json_array_get(x, 1));
        st->m = (int)json_integer_value(json_array_get(x, 2));
        if (st->k < 0 || st->l < st->k || st->m <= st->l || st->m >= r->sc->nsources)
            return steady_error_set(r->err, STEADY_EINVAL, "%s: %s: no task [%d, %d, %d]", r->path,
                                    where, st->k, st->l, st->m);
    } else {
        return bad(r, "unknown step kind", where, json_string_value(kind));
    }
    return STEADY_OK;
}

static steady_err_t read_body(reader_t *r, json_t *doc)
{
    steady_schedule_t *sc = r->sc;
    json_t *j, *a;
    long v;
    steady_err_t rc;
    char where[96];
    if (!json_is_object(doc))
        return steady_error_set(r->err, STEADY_EPARSE, "%s: not a schedule (a JSON object)",
                                r->path);
    if ((rc = member(r, doc, "header", "format", JSON_STRING, &j)))
        return rc;
    if (strcmp(json_string_value(j), FORMAT_NAME) != 0)
        return bad(r, "not a steady schedule", "format", json_string_value(j));
    if ((rc = get_int(r, doc, "header", "version", 0, 1000, &v)))
        return rc;
    if (v < FORMAT_VERSION_MIN || v > FORMAT_VERSION)
        return steady_error_set(r->err, STEADY_EUNSUPPORTED,
                                "%s: schedule format version %ld, this steady reads versions %d "
                                "to %d",
                                r->path, v, FORMAT_VERSION_MIN, FORMAT_VERSION);
    json_t *plat;
    if ((rc = member(r, doc, "header", "platform", JSON_OBJECT, &plat)) ||
        (rc = member(r, plat, "platform", "hash", JSON_STRING, &j)))
        return rc;
    uint64_t want;
    if ((rc = steady_platform_hash(r->p, &want, r->err)))
        return rc;
    char hash[32];
    snprintf(hash, sizeof hash, "fnv1a64:%016" PRIx64, want);
    if (strcmp(json_string_value(j), hash) != 0) {
        json_t *name = json_object_get(plat, "name");
        return steady_error_set(r->err, STEADY_EINVAL,
                                "%s: made for another platform (%s, %s), not %s (%s)", r->path,
                                json_is_string(name) ? json_string_value(name) : "?",
                                json_string_value(j), steady_platform_name(r->p), hash);
    }
    sc->platform_hash = want;
    sc->platform_name = strdup(steady_platform_name(r->p));
    /* the counts the file claims: steady_schedule_check compares them */
    long nodes, edges;
    if ((rc = get_int(r, plat, "platform", "nodes", 0, INT_MAX, &nodes)) ||
        (rc = get_int(r, plat, "platform", "edges", 0, INT_MAX, &edges)))
        return rc;
    sc->platform_nodes = (int)nodes;
    sc->platform_edges = (int)edges;
    if ((rc = member(r, doc, "header", "op", JSON_STRING, &j)))
        return rc;
    int op = steady_op_from_name(json_string_value(j));
    if (op < 0)
        return bad(r, "unknown operation", "op", json_string_value(j));
    sc->op = (steady_op_t)op;
    if ((rc = get_nodes(r, doc, "sources", &sc->sources, &sc->nsources)) ||
        (rc = get_nodes(r, doc, "targets", &sc->targets, &sc->ntargets)))
        return rc;
    if ((rc = member(r, doc, "header", "msg_size", JSON_REAL, &j)))
        return rc;
    sc->msg_size = json_number_value(j);
    if ((rc = member(r, doc, "header", "task_cost", JSON_REAL, &j)))
        return rc;
    sc->task_cost = json_number_value(j);
    if (!(sc->msg_size > 0) || !(sc->task_cost > 0))
        return steady_error_set(r->err, STEADY_EPARSE,
                                "%s: header: msg_size and task_cost must be positive", r->path);
    sc->segments = 1;
    if (v >= 3 &&
        (rc = get_int(r, doc, "header", "segments", 1, STEADY_SEGMENTS_LIMIT, &sc->segments)))
        return rc;
    if ((rc = member(r, doc, "header", "abstract", JSON_TRUE, &j)))
        return rc;
    sc->abstract = json_is_true(j);
    sc->cost_model = STEADY_COST_EAGER;
    if (v >= 5) {
        if ((rc = member(r, doc, "header", "cost_model", JSON_STRING, &j)))
            return rc;
        int m = steady_cost_model_from_name(json_string_value(j));
        if (m < 0)
            return bad(r, "unknown cost model (rendezvous or eager)", "cost_model",
                       json_string_value(j));
        sc->cost_model = (steady_cost_model_t)m;
    }
    if ((rc = member(r, doc, "header", "fixed_period", JSON_TRUE, &j)))
        return rc;
    sc->fixed_period = json_is_true(j);
    if ((rc = get_rational(r, doc, "header", "optimum", sc->optimum)) ||
        (rc = get_rational(r, doc, "header", "throughput", sc->throughput)) ||
        (rc = get_rational(r, doc, "header", "period", sc->period)) ||
        (rc = get_rational(r, doc, "header", "loss", sc->loss)) ||
        (rc = get_rational(r, doc, "header", "loss_bound", sc->loss_bound)) ||
        (rc = get_int(r, doc, "header", "ops_per_period", 0, 1L << 40, &sc->ops_per_period)) ||
        (rc = get_int(r, doc, "header", "max_lag", 0, 1000000, &v)))
        return rc;
    sc->max_lag = (int)v;

    if ((rc = member(r, doc, "header", "trees", JSON_ARRAY, &a)))
        return rc;
    sc->trees = calloc(json_array_size(a) + 1, sizeof *sc->trees);
    if (!sc->trees)
        return steady_error_set(r->err, STEADY_ENOMEM, "out of memory");
    for (size_t i = 0; i < json_array_size(a); i++) {
        json_t *t = json_array_get(a, i), *steps;
        steady_sched_tree_t *tr = &sc->trees[sc->ntrees++];
        snprintf(where, sizeof where, "tree %zu", i);
        if (!json_is_object(t))
            return steady_error_set(r->err, STEADY_EPARSE, "%s: %s: not an object", r->path, where);
        if ((rc = get_int(r, t, where, "weight", 0, 1L << 40, &tr->weight)) ||
            (rc = get_int(r, t, where, "first", 0, 1L << 40, &tr->first)) ||
            (rc = member(r, t, where, "steps", JSON_ARRAY, &steps)))
            return rc;
        tr->steps = calloc(json_array_size(steps) + 1, sizeof *tr->steps);
        if (!tr->steps)
            return steady_error_set(r->err, STEADY_ENOMEM, "out of memory");
        for (size_t k = 0; k < json_array_size(steps); k++) {
            snprintf(where, sizeof where, "tree %zu step %zu", i, k);
            if ((rc = read_step(r, json_array_get(steps, k), where, &tr->steps[tr->nsteps++])))
                return rc;
        }
    }
    if ((rc = member(r, doc, "header", "slots", JSON_ARRAY, &a)))
        return rc;
    sc->slots = calloc(json_array_size(a) + 1, sizeof *sc->slots);
    if (!sc->slots)
        return steady_error_set(r->err, STEADY_ENOMEM, "out of memory");
    for (size_t k = 0; k < json_array_size(a); k++) {
        json_t *sl = json_array_get(a, k), *tfs;
        steady_sched_slot_t *out = &sc->slots[sc->nslots++];
        mpq_inits(out->start, out->duration, NULL);
        snprintf(where, sizeof where, "slot %zu", k);
        if (!json_is_object(sl))
            return steady_error_set(r->err, STEADY_EPARSE, "%s: %s: not an object", r->path, where);
        if ((rc = get_rational(r, sl, where, "start", out->start)) ||
            (rc = get_rational(r, sl, where, "duration", out->duration)) ||
            (rc = member(r, sl, where, "transfers", JSON_ARRAY, &tfs)))
            return rc;
        out->transfers = calloc(json_array_size(tfs) + 1, sizeof *out->transfers);
        if (!out->transfers)
            return steady_error_set(r->err, STEADY_ENOMEM, "out of memory");
        for (size_t x = 0; x < json_array_size(tfs); x++) {
            json_t *tf = json_array_get(tfs, x), *part;
            steady_sched_transfer_t *t = &out->transfers[out->ntransfers++];
            mpq_inits(t->from, t->to, NULL);
            long tree, step;
            snprintf(where, sizeof where, "slot %zu transfer %zu", k, x);
            if (!json_is_object(tf))
                return steady_error_set(r->err, STEADY_EPARSE, "%s: %s: not an object", r->path,
                                        where);
            if ((rc = get_int(r, tf, where, "tree", 0, sc->ntrees - 1, &tree)) ||
                (rc = get_int(r, tf, where, "step", 0, sc->trees[tree].nsteps - 1, &step)) ||
                (rc = member(r, tf, where, "part", JSON_ARRAY, &part)))
                return rc;
            t->tree = (int)tree;
            t->step = (int)step;
            if (json_array_size(part) != 2)
                return steady_error_set(r->err, STEADY_EPARSE, "%s: %s: part must be [from, to]",
                                        r->path, where);
            if ((rc = parse_q(r, json_array_get(part, 0), where, t->from)) ||
                (rc = parse_q(r, json_array_get(part, 1), where, t->to)))
                return rc;
        }
    }
    if ((rc = member(r, doc, "header", "compute", JSON_ARRAY, &a)))
        return rc;
    sc->compute = calloc(json_array_size(a) + 1, sizeof *sc->compute);
    if (!sc->compute)
        return steady_error_set(r->err, STEADY_ENOMEM, "out of memory");
    for (size_t k = 0; k < json_array_size(a); k++) {
        json_t *c = json_array_get(a, k);
        steady_sched_compute_t *out = &sc->compute[sc->ncompute++];
        long tree, step;
        snprintf(where, sizeof where, "compute %zu", k);
        if (!json_is_object(c))
            return steady_error_set(r->err, STEADY_EPARSE, "%s: %s: not an object", r->path, where);
        if ((rc = member(r, c, where, "node", JSON_STRING, &j)) ||
            (rc = get_node(r, j, where, &out->node)) ||
            (rc = get_int(r, c, where, "tree", 0, sc->ntrees - 1, &tree)) ||
            (rc = get_int(r, c, where, "step", 0, sc->trees[tree].nsteps - 1, &step)) ||
            (rc = get_int(r, c, where, "count", 0, 1L << 40, &out->count)))
            return rc;
        out->tree = (int)tree;
        out->step = (int)step;
    }
    if ((rc = member(r, doc, "header", "buffers", JSON_ARRAY, &a)))
        return rc;
    sc->buffers = calloc(json_array_size(a) + 1, sizeof *sc->buffers);
    if (!sc->buffers)
        return steady_error_set(r->err, STEADY_ENOMEM, "out of memory");
    for (size_t k = 0; k < json_array_size(a); k++) {
        json_t *b = json_array_get(a, k);
        steady_sched_buffer_t *out = &sc->buffers[sc->nbuffers++];
        snprintf(where, sizeof where, "buffer %zu", k);
        if (!json_is_object(b))
            return steady_error_set(r->err, STEADY_EPARSE, "%s: %s: not an object", r->path, where);
        if ((rc = member(r, b, where, "node", JSON_STRING, &j)) ||
            (rc = get_node(r, j, where, &out->node)) ||
            (rc = member(r, b, where, "type", JSON_STRING, &j)) ||
            (rc = type_index(r, json_string_value(j), &out->type)) ||
            (rc = get_int(r, b, where, "messages", 0, 1L << 50, &out->messages)))
            return rc;
    }
    return STEADY_OK;
}

steady_err_t steady_schedule_parse(const char *text, size_t len, const char *origin,
                                   const steady_platform_t *p, steady_schedule_t **out,
                                   steady_error_t *err)
{
    *out = NULL;
    json_error_t jerr;
    json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    if (!doc)
        return steady_error_set(err, STEADY_EPARSE, "%s:%d:%d: malformed JSON (%s)", origin,
                                jerr.line, jerr.column, jerr.text);
    steady_schedule_t *sc = calloc(1, sizeof *sc);
    if (!sc) {
        json_decref(doc);
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    }
    mpq_inits(sc->optimum, sc->throughput, sc->period, sc->loss, sc->loss_bound, NULL);
    reader_t r = {.path = origin, .p = p, .sc = sc, .err = err};
    steady_err_t rc = read_body(&r, doc);
    json_decref(doc);
    if (rc) {
        steady_schedule_destroy(sc);
        return rc;
    }
    *out = sc;
    return STEADY_OK;
}

steady_err_t steady_schedule_read(const char *path, const steady_platform_t *p,
                                  steady_schedule_t **out, steady_error_t *err)
{
    *out = NULL;
    char *text;
    size_t len;
    steady_err_t rc = read_file(path, &text, &len, err);
    if (!rc)
        rc = steady_schedule_parse(text, len, strcmp(path, "-") == 0 ? "<stdin>" : path, p, out,
                                   err);
    free(text);
    return rc;
}
