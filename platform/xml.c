/*
 * xml.c — libxml2 helpers shared by the GraphML and SimGrid readers:
 * parsing from memory with located errors, attribute access, element lines.
 */
#include "internal.h"

#include <libxml/parser.h>
#include <stdarg.h>
#include <string.h>

/* libxml2 reports every error through a callback; the first one is the
 * cause, later ones are consequences, so only the first is kept. */
typedef struct {
    bool seen;
    int line, col;
    char msg[256];
} first_error_t;

static void keep_first_error(void *ctx, xmlErrorPtr e)
{
    first_error_t *fe = ctx;
    if (fe->seen || !e || e->level < XML_ERR_ERROR)
        return;
    fe->seen = true;
    fe->line = e->line;
    fe->col = e->int2;
    snprintf(fe->msg, sizeof fe->msg, "%s", e->message ? e->message : "unknown error");
    size_t n = strlen(fe->msg);
    while (n > 0 && (fe->msg[n - 1] == '\n' || fe->msg[n - 1] == ' '))
        fe->msg[--n] = '\0';
}

steady_err_t xml_read(const char *text, size_t len, const char *origin, xmlDocPtr *doc,
                      steady_error_t *err)
{
    *doc = NULL;
    if (len > (size_t)INT32_MAX)
        return steady_error_set(err, STEADY_EINPUT, "%s: file too large for the XML parser",
                                origin);
    first_error_t fe = {0};
    xmlSetStructuredErrorFunc(&fe, keep_first_error);
    /* no network, no entity expansion, no DTD loading: a platform file
     * cannot make the reader fetch or include anything */
    xmlDocPtr d = xmlReadMemory(text, (int)len, origin, NULL,
                                XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOWARNING);
    xmlSetStructuredErrorFunc(NULL, NULL);
    if (!d || fe.seen) {
        xmlFreeDoc(d);
        if (!fe.seen)
            return steady_error_set(err, STEADY_EPARSE, "%s:1: malformed XML", origin);
        if (fe.col > 0)
            return steady_error_set(err, STEADY_EPARSE, "%s:%d:%d: malformed XML (%s)", origin,
                                    fe.line, fe.col, fe.msg);
        return steady_error_set(err, STEADY_EPARSE, "%s:%d: malformed XML (%s)", origin, fe.line,
                                fe.msg);
    }
    *doc = d;
    return STEADY_OK;
}

long xml_line(xmlNodePtr node)
{
    return node ? xmlGetLineNo(node) : 0;
}

bool xml_is(xmlNodePtr node, const char *name)
{
    return node && node->type == XML_ELEMENT_NODE && strcmp((const char *)node->name, name) == 0;
}

char *xml_attr(xmlNodePtr node, const char *name)
{
    return (char *)xmlGetProp(node, (const xmlChar *)name);
}

steady_err_t xml_error(steady_error_t *err, steady_err_t code, const char *origin, xmlNodePtr node,
                       const char *fmt, ...)
{
    if (!err)
        return code;
    char msg[STEADY_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return steady_error_set(err, code, "%s:%ld: %s", origin, xml_line(node), msg);
}

steady_err_t xml_locate(steady_error_t *err, steady_err_t code, const char *origin, xmlNodePtr node)
{
    steady_error_prefix(err, "%s:%ld: ", origin, xml_line(node));
    return code;
}
