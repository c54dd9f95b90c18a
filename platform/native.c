/*
 * native.c — steady's own line-oriented platform format (reader and writer).
 * The grammar, with examples, is in docs/platform-format.md:
 *
 *     platform NAME
 *     processor NAME speed=SPEED
 *     router NAME
 *     switch NAME
 *     channel NAME (bandwidth=BW | cost=C) [latency=TIME] [sharing=POLICY]
 *     edge FROM TO [bandwidth=BW | cost=C] [latency=TIME] [overhead=TIME]
 *                  [crosses=CHANNEL[:up|:down],...]
 *     link A B     (same attributes: the two edges A->B and B->A)
 *
 * One statement a line; '#' starts a comment; tokens are separated by blanks
 * (a name with blanks is quoted: "Host 26").
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
    int flows_line; /* the reader's: the line of the flows statement, 0: none yet */
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

/* Splits buf (one line, modified in place) into tokens, stopping at '#';
 * a token between double quotes may hold blanks (a name). */
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
        l->col[l->ntok] = (int)(c - buf) + 1;
        if (*c == '"') { /* a quoted name: blanks within */
            char *end = strchr(c + 1, '"');
            if (!end) {
                l->ntok++;
                return fail(err, STEADY_EPARSE, l, l->ntok - 1, "unterminated quote", c, NULL);
            }
            *end = '\0';
            l->tok[l->ntok++] = c + 1;
            c = end + 1;
            if (*c && *c != ' ' && *c != '\t' && *c != '#')
                return fail(err, STEADY_EPARSE, l, l->ntok - 1, "text right after a quote", c,
                            NULL);
        } else {
            l->tok[l->ntok++] = c;
            while (*c && *c != ' ' && *c != '\t' && *c != '#')
                c++;
        }
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
    const char **text; /* instead of slot: the value as written, parsed by the caller */
} attr_t;

/* Parses key=value tokens from index `first` into the slots of attrs (a
 * NULL-key-terminated table).  `seen` is a bit per attr; an attr with a
 * `text` slot gets the value's text, its column in *text_col. */
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
        if (attrs[a].text) {
            *attrs[a].text = value;
            continue;
        }
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
                    "declare it with 'processor', 'router' or 'switch' first");
    return STEADY_OK;
}

/* The index of the token that holds attribute `key` (from `first`), for
 * locating an error in its value. */
static int attr_token(const line_t *l, int first, const char *key)
{
    size_t n = strlen(key);
    for (int t = first; t < l->ntok; t++)
        if (strncmp(l->tok[t], key, n) == 0 && l->tok[t][n] == '\0')
            return t; /* parse_attrs cut the token at its '=' */
    return first;
}

static steady_err_t statement(steady_platform_t *p, line_t *l, steady_error_t *err)
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

    if (strcmp(kw, "flows") == 0) {
        const char *usage = "flows fair [crosstraffic=SHARE] | flows penalty weight-S=BYTES "
                            "[crosstraffic=SHARE]";
        if ((rc = need_tokens(l, 2, usage, err)))
            return rc;
        if (l->flows_line) {
            char first[32];
            snprintf(first, sizeof first, "the first is on line %d", l->flows_line);
            return fail(err, STEADY_EPARSE, l, 0, "flows given twice", kw, first);
        }
        l->flows_line = l->line;
        bool fair = strcmp(l->tok[1], "fair") == 0;
        if (!fair && strcmp(l->tok[1], "penalty") != 0)
            return fail(err, STEADY_EPARSE, l, 1, "unknown flow sharing", l->tok[1],
                        "expected fair or penalty");
        double weight_s = 0, crosstraffic = 0;
        unsigned seen = 0;
        attr_t attrs[] = {{"crosstraffic", UNIT_NONE, &crosstraffic, NULL},
                          {fair ? NULL : "weight-S", UNIT_NONE, &weight_s, NULL},
                          {NULL, UNIT_NONE, NULL, NULL}};
        if ((rc = parse_attrs(l, 2, attrs, &seen, fair ? "fair sharing" : "penalty sharing",
                              fair ? "expected crosstraffic" : "expected weight-S or crosstraffic",
                              err)))
            return rc;
        if (!fair && !(seen & 2))
            return fail(err, STEADY_EPARSE, l, 1, "missing attribute weight-S= for flows",
                        "penalty", "SimGrid's SMPI model uses 8775, LV08 20537, CM02 0");
        if ((rc = steady_platform_set_flow_sharing(
                 p, fair ? STEADY_FLOWS_FAIR : STEADY_FLOWS_PENALTY, weight_s, err)) ||
            (rc = steady_platform_set_crosstraffic(p, crosstraffic, err)))
            return locate(err, rc, l, 1);
        return STEADY_OK;
    }

    if (strcmp(kw, "calibrated") == 0) {
        const char *usage = "calibrated min-size=BYTES max-size=BYTES";
        if ((rc = need_tokens(l, 2, usage, err)))
            return rc;
        double lo = 0, hi = 0;
        unsigned seen = 0;
        attr_t attrs[] = {{"min-size", UNIT_SIZE, &lo, NULL},
                          {"max-size", UNIT_SIZE, &hi, NULL},
                          {NULL, UNIT_NONE, NULL, NULL}};
        if ((rc = parse_attrs(l, 1, attrs, &seen, "calibrated", "expected min-size or max-size",
                              err)))
            return rc;
        if (seen != 3)
            return fail(err, STEADY_EPARSE, l, 1,
                        seen & 1 ? "missing attribute max-size= for calibrated"
                                 : "missing attribute min-size= for calibrated",
                        l->tok[1], usage);
        double before[2];
        if (steady_platform_calibrated(p, &before[0], &before[1]))
            return fail(err, STEADY_EPARSE, l, 0, "calibrated given twice", kw, NULL);
        if ((rc = steady_platform_set_calibrated(p, lo, hi, err)))
            return locate(err, rc, l, 1);
        return STEADY_OK;
    }

    if (strcmp(kw, "processor") == 0 || strcmp(kw, "router") == 0 || strcmp(kw, "switch") == 0) {
        steady_node_kind_t kind = kw[0] == 'p'   ? STEADY_PROCESSOR
                                  : kw[0] == 'r' ? STEADY_ROUTER
                                                 : STEADY_SWITCH;
        if ((rc = need_tokens(l, 2,
                              kind == STEADY_PROCESSOR ? "processor NAME speed=SPEED"
                              : kind == STEADY_ROUTER  ? "router NAME"
                                                       : "switch NAME",
                              err)))
            return rc;
        double speed = 0;
        unsigned seen = 0;
        if (kind == STEADY_PROCESSOR) {
            attr_t attrs[] = {{"speed", UNIT_SPEED, &speed, NULL}, {NULL, UNIT_NONE, NULL, NULL}};
            if ((rc = parse_attrs(l, 2, attrs, &seen, "a processor", "expected speed", err)))
                return rc;
            if (!seen)
                return fail(err, STEADY_EPARSE, l, 1, "missing attribute speed= for processor",
                            l->tok[1], NULL);
        } else if (l->ntok > 2) {
            return fail(err, STEADY_EPARSE, l, 2,
                        kind == STEADY_ROUTER ? "unexpected token after router name"
                                              : "unexpected token after switch name",
                        l->tok[2],
                        kind == STEADY_ROUTER ? "a router has no attributes"
                                              : "a switch has no attributes");
        }
        if ((rc = steady_platform_add_node(p, l->tok[1], kind, speed, NULL, err)))
            return locate(err, rc, l, 1);
        return STEADY_OK;
    }

    if (strcmp(kw, "channel") == 0) {
        if ((rc = need_tokens(l, 2, "channel NAME bandwidth=BW|cost=C [latency=T] [sharing=S]",
                              err)))
            return rc;
        steady_channel_t c = {.name = l->tok[1]};
        const char *sharing = NULL;
        attr_t attrs[] = {{"bandwidth", UNIT_BANDWIDTH, &c.bandwidth, NULL},
                          {"latency", UNIT_TIME, &c.latency, NULL},
                          {"cost", UNIT_NONE, &c.cost, NULL},
                          {"sharing", UNIT_NONE, NULL, &sharing},
                          {NULL, UNIT_NONE, NULL, NULL}};
        unsigned seen;
        if ((rc = parse_attrs(l, 2, attrs, &seen, "a channel",
                              "expected bandwidth, latency, cost or sharing", err)))
            return rc;
        if (!(seen & (1u | 4u)))
            return fail(err, STEADY_EPARSE, l, 1,
                        "missing attribute bandwidth= or cost=", l->tok[1], NULL);
        if (sharing) {
            int policy = steady_sharing_from_name(sharing);
            if (policy < 0)
                return fail(err, STEADY_EPARSE, l, attr_token(l, 2, "sharing"),
                            "unknown sharing policy", sharing,
                            "expected shared, splitduplex or fatpipe");
            c.sharing = (steady_sharing_t)policy;
        }
        if ((rc = steady_platform_add_channel(p, &c, NULL, err)))
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
        const char *crosses = NULL;
        attr_t attrs[] = {{"bandwidth", UNIT_BANDWIDTH, &e.bandwidth, NULL},
                          {"latency", UNIT_TIME, &e.latency, NULL},
                          {"overhead", UNIT_TIME, &e.overhead, NULL},
                          {"cost", UNIT_NONE, &e.cost, NULL},
                          {"crosses", UNIT_NONE, NULL, &crosses},
                          {"recv-factor", UNIT_NONE, &e.recv_factor, NULL},
                          {"penalty", UNIT_TIME, &e.penalty, NULL},
                          {NULL, UNIT_NONE, NULL, NULL}};
        unsigned seen;
        if ((rc = parse_attrs(l, 3, attrs, &seen, duplex ? "a link" : "an edge",
                              "expected bandwidth, latency, overhead, cost, crosses, recv-factor "
                              "or penalty",
                              err)))
            return rc;
        if (!(seen & (1u | 8u | 16u))) {
            char pair[2 * STEADY_NAME_MAX + 8];
            snprintf(pair, sizeof pair, "%s -> %s", l->tok[1], l->tok[2]);
            return fail(err, STEADY_EPARSE, l, 1,
                        "missing attribute bandwidth=, cost= or crosses=", pair, NULL);
        }
        steady_crossing_t cross[STEADY_MAX_CROSSINGS];
        int t = attr_token(l, 3, "crosses");
        crossing_error_t ce;
        if (crosses && (rc = crossings_parse(p, crosses, cross, &e.ncross, &ce)))
            return fail(err, rc, l, t, ce.why, ce.value, ce.hint);
        e.cross = cross;
        if ((rc = steady_platform_add_edge(p, &e, NULL, err)))
            return locate(err, rc, l, crosses ? t : 1);
        if (duplex) {
            /* the way back crosses the same channels in reverse order, the
             * other way on splitduplex ones (SimGrid's symmetrical routes) */
            steady_crossing_t back[STEADY_MAX_CROSSINGS];
            for (int k = 0; k < e.ncross; k++) {
                back[k] = cross[e.ncross - 1 - k];
                back[k].down =
                    steady_platform_channel(p, back[k].channel)->sharing == STEADY_SPLITDUPLEX &&
                    !back[k].down;
            }
            int tmp = e.src;
            e.src = e.dst;
            e.dst = tmp;
            e.cross = back;
            if ((rc = steady_platform_add_edge(p, &e, NULL, err)))
                return locate(err, rc, l, 1);
        }
        return STEADY_OK;
    }

    return fail(err, STEADY_EPARSE, l, 0, "unknown statement", kw,
                "expected platform, flows, calibrated, processor, router, switch, channel, edge "
                "or link");
}

steady_err_t parse_native(const source_t *src, const char *origin, steady_platform_t *p,
                          steady_error_t *err)
{
    const char *text = src->text;
    size_t len = src->len;
    line_t l = {.origin = origin};
    char *buf = NULL;
    size_t cap = 0;
    steady_err_t rc = STEADY_OK;
    size_t pos = 0;
    while (pos < len && !rc) {
        if (src->progress && l.line % READ_PROGRESS_EVERY == 0)
            src->progress(src->progress_ctx, "reading the platform", (double)pos, (double)len);
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

/* A node's or the platform's name, quoted when it holds a blank. */
static const char *quoted(const char *name, char *buf, size_t n)
{
    if (!strchr(name, ' '))
        return name;
    snprintf(buf, n, "\"%s\"", name);
    return buf;
}

steady_err_t write_native(const steady_platform_t *p, FILE *out, bool extras, steady_error_t *err)
{
    (void)err;
    char a[32], b[32], q1[STEADY_NAME_MAX + 3], q2[STEADY_NAME_MAX + 3];
    fprintf(out, "# steady platform, native format (docs/platform-format.md)\n");
    fprintf(out, "# units: bandwidth B/s, latency and overhead s, speed flop/s\n");
    fprintf(out, "platform %s\n", quoted(steady_platform_name(p), q1, sizeof q1));
    double weight_s, crosstraffic = steady_platform_crosstraffic(p);
    bool penalty = steady_platform_flow_sharing(p, &weight_s) == STEADY_FLOWS_PENALTY;
    if (extras && (penalty || crosstraffic > 0)) {
        format_double(a, weight_s);
        format_double(b, crosstraffic);
        fprintf(out, "flows %s%s%s%s\n", penalty ? "penalty weight-S=" : "fair", penalty ? a : "",
                crosstraffic > 0 ? " crosstraffic=" : "", crosstraffic > 0 ? b : "");
    }
    double lo, hi;
    if (extras && steady_platform_calibrated(p, &lo, &hi)) {
        format_double(a, lo);
        format_double(b, hi);
        fprintf(out, "calibrated min-size=%s max-size=%s\n", a, b);
    }
    for (int v = 0; v < steady_platform_node_count(p); v++) {
        const steady_node_t *n = steady_platform_node(p, v);
        const char *name = quoted(n->name, q1, sizeof q1);
        if (n->kind == STEADY_ROUTER) {
            fprintf(out, "router %s\n", name);
        } else if (n->kind == STEADY_SWITCH) {
            fprintf(out, "switch %s\n", name);
        } else {
            format_double(a, n->speed);
            fprintf(out, "processor %s speed=%s\n", name, a);
        }
    }
    for (int k = 0; k < steady_platform_channel_count(p); k++) {
        const steady_channel_t *c = steady_platform_channel(p, k);
        format_double(a, c->cost ? c->cost : c->bandwidth);
        format_double(b, c->latency);
        fprintf(out, "channel %s %s=%s latency=%s", c->name, c->cost ? "cost" : "bandwidth", a, b);
        if (c->sharing != STEADY_SHARED)
            fprintf(out, " sharing=%s", steady_sharing_name(c->sharing));
        fputc('\n', out);
    }
    for (int k = 0; k < steady_platform_edge_count(p); k++) {
        const steady_edge_t *e = steady_platform_edge(p, k);
        fprintf(out, "edge %s %s", quoted(steady_platform_node(p, e->src)->name, q1, sizeof q1),
                quoted(steady_platform_node(p, e->dst)->name, q2, sizeof q2));
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
        if (e->recv_factor != 1) {
            format_double(b, e->recv_factor);
            fprintf(out, " recv-factor=%s", b);
        }
        if (extras && e->penalty != 0) {
            format_double(b, e->penalty);
            fprintf(out, " penalty=%s", b);
        }
        if (e->ncross > 0) {
            fputs(" crosses=", out);
            crossings_write(out, p, e);
        }
        fputc('\n', out);
    }
    return STEADY_OK;
}
