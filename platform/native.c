/*
 * native.c — steady's own line-oriented platform format (reader and writer).
 * The grammar, with examples, is in docs/platform-format.md:
 *
 *     platform NAME
 *     processor NAME speed=SPEED
 *     router NAME
 *     edge FROM TO (bandwidth=BW | cost=C) [latency=TIME] [overhead=TIME]
 *     link A B     (same attributes: the two edges A->B and B->A)
 *
 * One statement a line; '#' starts a comment; tokens are separated by blanks.
 * Nodes are declared before the edges that use them.  Every error names the
 * line and the column of the offending token.
 */
#include "internal.h"

#include <string.h>

#define MAX_TOKENS 16

typedef struct {
    const char *origin;
    int line;
    char *tok[MAX_TOKENS]; /* NUL-terminated copies inside the line buffer */
    int col[MAX_TOKENS];   /* 1-based column of each token */
    int ntok;
} line_t;

static steady_err_t fail(steady_error_t *err, steady_err_t code, const line_t *l, int t,
                         const char *what, const char *value, const char *hint)
{
    int col = t < l->ntok ? l->col[t] : (t > 0 ? l->col[t - 1] : 1);
    if (value)
        return steady_error_set(err, code, "%s:%d:%d: %s (%.300s)%s%s", l->origin, l->line, col,
                                what, value, hint ? ": " : "", hint ? hint : "");
    return steady_error_set(err, code, "%s:%d:%d: %s%s%s", l->origin, l->line, col, what,
                            hint ? ": " : "", hint ? hint : "");
}

/* Adds the reader's location to an error raised by the model. */
static steady_err_t locate(steady_error_t *err, steady_err_t rc, const line_t *l, int t)
{
    steady_error_prefix(err, "%s:%d:%d: ", l->origin, l->line, l->col[t]);
    return rc;
}

/* Splits buf (one line, modified in place) into tokens, stopping at '#'. */
static steady_err_t tokenize(char *buf, line_t *l, steady_error_t *err)
{
    l->ntok = 0;
    char *c = buf;
    for (;;) {
        while (*c == ' ' || *c == '\t')
            c++;
        if (*c == '\0' || *c == '#')
            return STEADY_OK;
        if (l->ntok == MAX_TOKENS) {
            l->col[l->ntok - 1] = (int)(c - buf) + 1;
            return fail(err, STEADY_EPARSE, l, l->ntok - 1, "too many tokens on one line", NULL,
                        NULL);
        }
        l->tok[l->ntok] = c;
        l->col[l->ntok] = (int)(c - buf) + 1;
        l->ntok++;
        while (*c && *c != ' ' && *c != '\t' && *c != '#')
            c++;
        if (*c == '#') {
            *c = '\0';
            return STEADY_OK;
        }
        if (*c)
            *c++ = '\0';
    }
}

typedef struct {
    const char *key;
    unit_kind_t unit;
    double *slot;
} attr_t;

/* Parses key=value tokens from index `first` into the slots of attrs (a
 * NULL-key-terminated table).  `seen` is a bit per attr. */
static steady_err_t parse_attrs(const line_t *l, int first, const attr_t *attrs, unsigned *seen,
                                const char *what_for, const char *expected, steady_error_t *err)
{
    *seen = 0;
    for (int t = first; t < l->ntok; t++) {
        char *eq = strchr(l->tok[t], '=');
        if (!eq || eq == l->tok[t])
            return fail(err, STEADY_EPARSE, l, t, "expected key=value", l->tok[t], NULL);
        *eq = '\0';
        const char *key = l->tok[t], *value = eq + 1;
        int a = 0;
        while (attrs[a].key && strcmp(attrs[a].key, key) != 0)
            a++;
        if (!attrs[a].key) {
            char what[96];
            snprintf(what, sizeof what, "unknown attribute for %s", what_for);
            return fail(err, STEADY_EPARSE, l, t, what, key, expected);
        }
        if (*seen & (1u << a))
            return fail(err, STEADY_EPARSE, l, t, "attribute given twice", key, NULL);
        *seen |= 1u << a;
        const char *why;
        if (!parse_quantity(value, attrs[a].unit, attrs[a].slot, &why))
            return fail(err, STEADY_EPARSE, l, t, why, value, unit_hint(attrs[a].unit));
        steady_err_t rc = check_field(key, *attrs[a].slot, value, err);
        if (rc)
            return locate(err, rc, l, t);
    }
    return STEADY_OK;
}

static steady_err_t need_tokens(const line_t *l, int n, const char *usage, steady_error_t *err)
{
    if (l->ntok < n)
        return fail(err, STEADY_EPARSE, l, l->ntok, "missing operand", l->tok[0], usage);
    return STEADY_OK;
}

static steady_err_t node_ref(steady_platform_t *p, const line_t *l, int t, int *id,
                             steady_error_t *err)
{
    *id = steady_platform_find_node(p, l->tok[t]);
    if (*id < 0)
        return fail(err, STEADY_EINVAL, l, t, "unknown node", l->tok[t],
                    "declare it with 'processor' or 'router' first");
    return STEADY_OK;
}

static steady_err_t statement(steady_platform_t *p, const line_t *l, steady_error_t *err)
{
    const char *kw = l->tok[0];
    steady_err_t rc;

    if (strcmp(kw, "platform") == 0) {
        if ((rc = need_tokens(l, 2, "platform NAME", err)))
            return rc;
        if (l->ntok > 2)
            return fail(err, STEADY_EPARSE, l, 2, "unexpected token", l->tok[2], NULL);
        if ((rc = steady_platform_set_name(p, l->tok[1], err)))
            return locate(err, rc, l, 1);
        return STEADY_OK;
    }

    if (strcmp(kw, "processor") == 0 || strcmp(kw, "router") == 0) {
        bool router = kw[0] == 'r';
        if ((rc = need_tokens(l, 2, router ? "router NAME" : "processor NAME speed=SPEED", err)))
            return rc;
        double speed = 0;
        unsigned seen = 0;
        if (!router) {
            attr_t attrs[] = {{"speed", UNIT_SPEED, &speed}, {NULL, UNIT_NONE, NULL}};
            if ((rc = parse_attrs(l, 2, attrs, &seen, "a processor", "expected speed", err)))
                return rc;
            if (!seen)
                return fail(err, STEADY_EPARSE, l, 1, "missing attribute speed= for processor",
                            l->tok[1], NULL);
        } else if (l->ntok > 2) {
            return fail(err, STEADY_EPARSE, l, 2, "unexpected token after router name", l->tok[2],
                        "a router has no attributes");
        }
        if ((rc = steady_platform_add_node(p, l->tok[1], router ? STEADY_ROUTER : STEADY_PROCESSOR,
                                           speed, NULL, err)))
            return locate(err, rc, l, 1);
        return STEADY_OK;
    }

    if (strcmp(kw, "edge") == 0 || strcmp(kw, "link") == 0) {
        bool duplex = kw[0] == 'l';
        if ((rc = need_tokens(l, 3,
                              duplex ? "link A B bandwidth=BW|cost=C [latency=T]"
                                     : "edge FROM TO bandwidth=BW|cost=C [latency=T]",
                              err)))
            return rc;
        steady_edge_t e = {0};
        if ((rc = node_ref(p, l, 1, &e.src, err)) || (rc = node_ref(p, l, 2, &e.dst, err)))
            return rc;
        attr_t attrs[] = {{"bandwidth", UNIT_BANDWIDTH, &e.bandwidth},
                          {"latency", UNIT_TIME, &e.latency},
                          {"overhead", UNIT_TIME, &e.overhead},
                          {"cost", UNIT_NONE, &e.cost},
                          {NULL, UNIT_NONE, NULL}};
        unsigned seen;
        if ((rc = parse_attrs(l, 3, attrs, &seen, duplex ? "a link" : "an edge",
                              "expected bandwidth, latency, overhead or cost", err)))
            return rc;
        if (!(seen & (1u | 8u))) {
            char pair[2 * STEADY_NAME_MAX + 8];
            snprintf(pair, sizeof pair, "%s -> %s", l->tok[1], l->tok[2]);
            return fail(err, STEADY_EPARSE, l, 1, "missing attribute bandwidth= or cost=", pair,
                        NULL);
        }
        if ((rc = steady_platform_add_edge(p, &e, NULL, err)))
            return locate(err, rc, l, 1);
        if (duplex) {
            int tmp = e.src;
            e.src = e.dst;
            e.dst = tmp;
            if ((rc = steady_platform_add_edge(p, &e, NULL, err)))
                return locate(err, rc, l, 1);
        }
        return STEADY_OK;
    }

    return fail(err, STEADY_EPARSE, l, 0, "unknown statement", kw,
                "expected platform, processor, router, edge or link");
}

steady_err_t parse_native(const char *text, size_t len, const char *origin, steady_platform_t *p,
                          steady_error_t *err)
{
    line_t l = {.origin = origin};
    char *buf = NULL;
    size_t cap = 0;
    steady_err_t rc = STEADY_OK;
    size_t pos = 0;
    while (pos < len && !rc) {
        l.line++;
        const char *start = text + pos;
        const char *nl = memchr(start, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - start) : len - pos;
        pos += n + (nl ? 1 : 0);
        if (n > 0 && start[n - 1] == '\r')
            n--;
        if (memchr(start, '\0', n)) {
            rc = steady_error_set(err, STEADY_EPARSE, "%s:%d:%d: NUL byte: not a text file", origin,
                                  l.line, (int)((const char *)memchr(start, '\0', n) - start) + 1);
            break;
        }
        if (n + 1 > cap) {
            char *nb = realloc(buf, n + 1);
            if (!nb) {
                rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
                break;
            }
            buf = nb;
            cap = n + 1;
        }
        memcpy(buf, start, n);
        buf[n] = '\0';
        if ((rc = tokenize(buf, &l, err)) == STEADY_OK && l.ntok > 0)
            rc = statement(p, &l, err);
    }
    free(buf);
    return rc;
}

steady_err_t write_native(const steady_platform_t *p, FILE *out, steady_error_t *err)
{
    (void)err;
    char a[32], b[32];
    fprintf(out, "# steady platform, native format (docs/platform-format.md)\n");
    fprintf(out, "# units: bandwidth B/s, latency and overhead s, speed flop/s\n");
    fprintf(out, "platform %s\n", steady_platform_name(p));
    for (int v = 0; v < steady_platform_node_count(p); v++) {
        const steady_node_t *n = steady_platform_node(p, v);
        if (n->kind == STEADY_ROUTER) {
            fprintf(out, "router %s\n", n->name);
        } else {
            format_double(a, n->speed);
            fprintf(out, "processor %s speed=%s\n", n->name, a);
        }
    }
    for (int k = 0; k < steady_platform_edge_count(p); k++) {
        const steady_edge_t *e = steady_platform_edge(p, k);
        fprintf(out, "edge %s %s", steady_platform_node(p, e->src)->name,
                steady_platform_node(p, e->dst)->name);
        format_double(a, e->cost ? e->cost : e->bandwidth);
        fprintf(out, " %s=%s", e->cost ? "cost" : "bandwidth", a);
        if (e->latency != 0 || !e->cost) {
            format_double(b, e->latency);
            fprintf(out, " latency=%s", b);
        }
        if (e->overhead != 0) {
            format_double(b, e->overhead);
            fprintf(out, " overhead=%s", b);
        }
        fputc('\n', out);
    }
    return STEADY_OK;
}
