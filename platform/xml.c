/*
 * xml.c — libxml2 helpers shared by the GraphML and SimGrid readers:
 * parsing from memory with located errors, whole or streamed, attribute
 * access, element lines.
 */
#include "internal.h"

#include "../common/file.h"

#include <libxml/SAX2.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* libxml2 reports every error through a callback; the first one is the
 * cause, later ones are consequences, so only the first is kept. */
typedef struct {
    bool seen;
    int line, col, code;
    bool at_end; /* raised once the last chunk was given */
    bool last;   /* the last chunk is being parsed */
    char msg[256];
} first_error_t;

static void keep_first_error(void *ctx, xmlErrorPtr e)
{
    first_error_t *fe = ctx;
    if (fe->seen || !e || e->level < XML_ERR_ERROR)
        return;
    fe->seen = true;
    fe->code = e->code;
    fe->at_end = fe->last;
    fe->line = e->line;
    fe->col = e->int2;
    snprintf(fe->msg, sizeof fe->msg, "%s", e->message ? e->message : "unknown error");
    size_t n = strlen(fe->msg);
    while (n > 0 && (fe->msg[n - 1] == '\n' || fe->msg[n - 1] == ' '))
        fe->msg[--n] = '\0';
}

/* ---- the scratch arena of streamed elements ----------------------------------
 *
 * The children of the element the handlers stream (xml_handlers_t.under)
 * are built here rather than by libxml2's SAX2 handlers: the same xmlNode,
 * xmlAttr and text structs that the readers walk, with no malloc, no free
 * and no dictionary per node, and all reclaimed at once when the child is
 * done.  Each element records its line in psvi (libxml2 keeps a 16-bit
 * line in the node), marked by _private. */

typedef struct block {
    struct block *next;
    size_t used, size;
    max_align_t data[];
} block_t;

typedef struct {
    block_t *head; /* the block in use; earlier ones follow */
} arena_t;

/* _private of the elements whose psvi holds their line: built here, or
 * by libxml2 during a parse (start_element). */
static const char arena_mark, line_mark;

static void *arena_alloc(arena_t *a, size_t n)
{
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    if (!a->head || a->head->used + n > a->head->size) {
        size_t size = n > 65536 ? n : 65536;
        block_t *b = malloc(sizeof *b + size);
        if (!b)
            return NULL;
        *b = (block_t){.next = a->head, .size = size};
        a->head = b;
    }
    void *p = (char *)a->head->data + a->head->used;
    a->head->used += n;
    return memset(p, 0, n);
}

/* Reclaims everything, keeping one block for the next element. */
static void arena_reset(arena_t *a)
{
    if (!a->head)
        return;
    while (a->head->next) {
        block_t *b = a->head;
        a->head = b->next;
        free(b);
    }
    a->head->used = 0;
}

static void arena_free(arena_t *a)
{
    arena_reset(a);
    free(a->head);
    a->head = NULL;
}

static bool in_arena(xmlNodePtr node)
{
    return node && node->_private == &arena_mark;
}

/* A text node holding s[0, n), where '&' may still be written "&#38;" (the
 * parser leaves it so in attribute values when it does not substitute
 * entities). */
static xmlNodePtr arena_text(arena_t *a, xmlNodePtr parent, const xmlChar *s, size_t n)
{
    xmlNodePtr t = arena_alloc(a, sizeof *t);
    xmlChar *c = t ? arena_alloc(a, n + 1) : NULL;
    if (!c)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        c[k++] = s[i];
        if (s[i] == '&' && i + 4 < n && memcmp(s + i, "&#38;", 5) == 0)
            i += 4;
    }
    c[k] = '\0';
    t->type = XML_TEXT_NODE;
    t->name = xmlStringText;
    t->content = c;
    t->parent = parent;
    t->doc = parent->doc;
    return t;
}

/* Appends child to parent's children. */
static void append(xmlNodePtr parent, xmlNodePtr child)
{
    child->parent = parent;
    child->prev = parent->last;
    if (parent->last)
        parent->last->next = child;
    else
        parent->children = child;
    parent->last = child;
}

/* The element being opened under parent, built in the arena, with its
 * attributes. */
static xmlNodePtr arena_element(arena_t *a, xmlParserCtxtPtr ctxt, xmlNodePtr parent,
                                const xmlChar *name, int nb_attributes, const xmlChar **attributes)
{
    xmlNodePtr e = arena_alloc(a, sizeof *e);
    if (!e)
        return NULL;
    e->type = XML_ELEMENT_NODE;
    e->name = name; /* the parser's dictionary keeps it until the end */
    e->doc = ctxt->myDoc;
    e->_private = (void *)&arena_mark;
    e->psvi = (void *)(intptr_t)ctxt->input->line;
    e->line = ctxt->input->line < 65535 ? (unsigned short)ctxt->input->line : 65535;
    if (in_arena(parent))
        append(parent, e);
    else
        e->parent = parent; /* linked to a child of the document only by xml_keep */
    xmlAttrPtr last = NULL;
    for (int i = 0; i < nb_attributes; i++) {
        const xmlChar **at = attributes + 5 * i; /* name, prefix, URI, value, end */
        xmlAttrPtr attr = arena_alloc(a, sizeof *attr);
        xmlNodePtr t =
            attr ? arena_text(a, (xmlNodePtr)attr, at[3], (size_t)(at[4] - at[3])) : NULL;
        if (!t)
            return NULL;
        attr->type = XML_ATTRIBUTE_NODE;
        attr->name = at[0];
        attr->parent = e;
        attr->doc = e->doc;
        attr->children = attr->last = t;
        attr->prev = last;
        if (last)
            last->next = attr;
        else
            e->properties = attr;
        last = attr;
    }
    return e;
}

/* Text inside an element of the arena: joined to the text before it. */
static bool arena_characters(arena_t *a, xmlNodePtr e, const xmlChar *s, size_t n)
{
    xmlNodePtr last = e->last;
    if (last && last->type == XML_TEXT_NODE) {
        size_t had = strlen((const char *)last->content);
        xmlChar *c = arena_alloc(a, had + n + 1);
        if (!c)
            return false;
        memcpy(c, last->content, had);
        memcpy(c + had, s, n);
        c[had + n] = '\0';
        last->content = c;
        return true;
    }
    xmlNodePtr t = arena_alloc(a, sizeof *t);
    xmlChar *c = t ? arena_alloc(a, n + 1) : NULL;
    if (!c)
        return false;
    memcpy(c, s, n);
    c[n] = '\0';
    t->type = XML_TEXT_NODE;
    t->name = xmlStringText;
    t->content = c;
    t->doc = e->doc;
    append(e, t);
    return true;
}

/* ---- the parse ------------------------------------------------------------------ */

/* The parse in progress: libxml2's first error, and the handlers'. */
typedef struct {
    first_error_t fe;
    const xml_handlers_t *h;
    const char *origin;
    steady_error_t *err;
    steady_err_t rc; /* a handler's error, or an entity declaration's */
    arena_t arena;
} parse_state_t;

static steady_err_t oom(steady_error_t *err)
{
    return steady_error_set(err, STEADY_ENOMEM, "out of memory");
}

/* True when node is, or is inside, a streamed child, or is an element
 * whose children are streamed: text directly under it is dropped. */
static bool streamed(const parse_state_t *st, xmlNodePtr node)
{
    if (!node)
        return false;
    if (in_arena(node) || (st->h->under && node == *st->h->under))
        return true;
    return st->h->streams && st->h->streams(st->h->ctx, node, NULL);
}

/* True when the element `name` opening under parent is built in the arena:
 * inside a streamed child, or a child that the handlers stream. */
static bool streamed_child(const parse_state_t *st, xmlNodePtr parent, const xmlChar *name)
{
    if (!parent)
        return false;
    if (in_arena(parent) || (st->h->under && parent == *st->h->under))
        return true;
    return st->h->streams && st->h->streams(st->h->ctx, parent, name);
}

/* False (and the parser stopped) once an error is known: later events are
 * consequences. */
static bool going_on(xmlParserCtxtPtr ctxt)
{
    parse_state_t *st = ctxt->_private;
    if (st->rc || st->fe.seen) {
        xmlStopParser(ctxt);
        return false;
    }
    return true;
}

/* An element opens: built by libxml2's SAX2 handler as the DOM parser
 * does, or in the arena under a streamed element; then the caller's
 * handler sees it. */
static void start_element(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                          const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
                          int nb_attributes, int nb_defaulted, const xmlChar **attributes)
{
    xmlParserCtxtPtr ctxt = ctx;
    parse_state_t *st = ctxt->_private;
    xmlNodePtr parent = ctxt->node, e;
    if (streamed_child(st, parent, localname)) {
        if (!(ctxt->loadsubset & XML_COMPLETE_ATTRS))
            nb_attributes -= nb_defaulted; /* as xmlSAX2StartElementNs does */
        e = arena_element(&st->arena, ctxt, parent, localname, nb_attributes, attributes);
        if (!e || nodePush(ctxt, e) < 0) {
            if (!e && going_on(ctxt))
                st->rc = oom(st->err);
            xmlStopParser(ctxt);
            return;
        }
    } else {
        xmlSAX2StartElementNs(ctx, localname, prefix, uri, nb_namespaces, namespaces, nb_attributes,
                              nb_defaulted, attributes);
        if (ctxt->node == parent)
            return; /* out of memory: libxml2 has said so */
        e = ctxt->node;
        e->_private = (void *)&line_mark;
        e->psvi = (void *)(intptr_t)ctxt->input->line;
    }
    if (st->h->start && going_on(ctxt) && (st->rc = st->h->start(st->h->ctx, e)))
        xmlStopParser(ctxt);
}

/* An element is complete: the caller's handler sees it (a streamed child
 * with everything inside it), then the arena is reclaimed. */
static void end_element(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                        const xmlChar *uri)
{
    xmlParserCtxtPtr ctxt = ctx;
    parse_state_t *st = ctxt->_private;
    xmlNodePtr e = ctxt->node;
    bool light = in_arena(e);
    if (light)
        nodePop(ctxt);
    else
        xmlSAX2EndElementNs(ctx, localname, prefix, uri);
    if (!e || (light && in_arena(e->parent)))
        return; /* handed over with the streamed child that holds it */
    if (st->h->end && going_on(ctxt) && (st->rc = st->h->end(st->h->ctx, e)))
        xmlStopParser(ctxt);
    if (light)
        arena_reset(&st->arena);
}

/* Text, CDATA, comments, instructions, entity references: in the arena
 * inside a streamed child, nothing directly under the streamed element
 * (text between its children means nothing, and a text node left there
 * would confuse libxml2's text joining), libxml2's own handlers elsewhere. */
static void characters(void *ctx, const xmlChar *s, int n)
{
    xmlParserCtxtPtr ctxt = ctx;
    parse_state_t *st = ctxt->_private;
    if (in_arena(ctxt->node)) {
        if (!arena_characters(&st->arena, ctxt->node, s, (size_t)n)) {
            if (going_on(ctxt))
                st->rc = oom(st->err);
            xmlStopParser(ctxt);
        }
    } else if (!streamed(st, ctxt->node)) {
        xmlSAX2Characters(ctx, s, n);
    }
}

static void cdata_block(void *ctx, const xmlChar *s, int n)
{
    xmlParserCtxtPtr ctxt = ctx;
    if (streamed(ctxt->_private, ctxt->node))
        characters(ctx, s, n);
    else
        xmlSAX2CDataBlock(ctx, s, n);
}

static void comment(void *ctx, const xmlChar *s)
{
    xmlParserCtxtPtr ctxt = ctx;
    if (!streamed(ctxt->_private, ctxt->node))
        xmlSAX2Comment(ctx, s);
}

static void instruction(void *ctx, const xmlChar *target, const xmlChar *data)
{
    xmlParserCtxtPtr ctxt = ctx;
    if (!streamed(ctxt->_private, ctxt->node))
        xmlSAX2ProcessingInstruction(ctx, target, data);
}

static void reference(void *ctx, const xmlChar *name)
{
    xmlParserCtxtPtr ctxt = ctx;
    if (!streamed(ctxt->_private, ctxt->node))
        xmlSAX2Reference(ctx, name);
}

/* Entities would be expanded by every xmlNodeGetContent, exponentially
 * when they nest ("billion laughs"), and an external one names a file to
 * read: a platform has no use for them. */
static void entity_decl(void *ctx, const xmlChar *name, int type, const xmlChar *public_id,
                        const xmlChar *system_id, xmlChar *content)
{
    (void)type;
    (void)public_id;
    (void)system_id;
    (void)content;
    xmlParserCtxtPtr ctxt = ctx;
    parse_state_t *st = ctxt->_private;
    if (!going_on(ctxt))
        return;
    st->rc = steady_error_set(st->err, STEADY_EUNSUPPORTED,
                              "%s:%d: entity declarations are not supported (%.100s)", st->origin,
                              xmlSAX2GetLineNumber(ctx), (const char *)name);
    xmlStopParser(ctxt);
}

/* Handlers that stream every element: nothing is kept. */
static bool stream_all(void *ctx, xmlNodePtr parent, const xmlChar *child)
{
    (void)ctx;
    (void)parent;
    (void)child;
    return true;
}

/* The first error of the whole text parsed at once, with every element
 * streamed (no memory kept), into *fe; false when there is none or memory
 * runs out. */
static bool whole_parse_error(const char *text, size_t len, first_error_t *fe)
{
    xml_handlers_t all = {.streams = stream_all};
    parse_state_t st = {.h = &all};
    xmlParserCtxtPtr ctxt = xmlCreateMemoryParserCtxt(text, (int)len);
    if (!ctxt)
        return false;
    xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOWARNING |
                                XML_PARSE_NOBLANKS | XML_PARSE_COMPACT);
    ctxt->_private = &st;
    ctxt->sax->startElementNs = start_element;
    ctxt->sax->endElementNs = end_element;
    ctxt->sax->characters = characters;
    ctxt->sax->cdataBlock = cdata_block;
    ctxt->sax->comment = comment;
    ctxt->sax->processingInstruction = instruction;
    ctxt->sax->reference = reference;
    xmlSetStructuredErrorFunc(&st.fe, keep_first_error);
    xmlParseDocument(ctxt);
    xmlSetStructuredErrorFunc(NULL, NULL);
    arena_free(&st.arena);
    xmlFreeDoc(ctxt->myDoc);
    ctxt->myDoc = NULL;
    xmlFreeParserCtxt(ctxt);
    if (!st.fe.seen)
        return false;
    *fe = st.fe;
    return true;
}

steady_err_t xml_parse(const source_t *src, const char *origin, const xml_handlers_t *h,
                       xmlDocPtr *doc, steady_error_t *err)
{
    if (doc)
        *doc = NULL;
    if ((src->file ? src->size : src->len) > (size_t)INT32_MAX)
        return steady_error_set(err, STEADY_EINPUT, "%s: file too large for the XML parser",
                                origin);
    static const xml_handlers_t none = {0};
    parse_state_t st = {.h = h ? h : &none, .origin = origin, .err = err};
    /* a push parser fed the text in chunks: libxml2 holds a chunk at a time
     * (xmlCreateMemoryParserCtxt would first copy the whole text, as much
     * memory again as the file), and the chunks mark the progress */
    enum { CHUNK = 1 << 20 };
    char *buf = src->file ? malloc(CHUNK) : NULL;
    xmlParserCtxtPtr ctxt =
        !src->file || buf ? xmlCreatePushParserCtxt(NULL, NULL, NULL, 0, NULL) : NULL;
    if (!ctxt) {
        free(buf);
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    }
    /* no network, no DTD loading: a platform file cannot make the reader
     * fetch or include anything; no text nodes for the blanks between
     * elements, which no reader looks at */
    xmlCtxtUseOptions(ctxt, XML_PARSE_NONET | XML_PARSE_BIG_LINES | XML_PARSE_NOWARNING |
                                XML_PARSE_NOBLANKS | XML_PARSE_COMPACT);
    ctxt->_private = &st;
    ctxt->sax->startElementNs = start_element;
    ctxt->sax->endElementNs = end_element;
    ctxt->sax->characters = characters;
    ctxt->sax->cdataBlock = cdata_block;
    ctxt->sax->comment = comment;
    ctxt->sax->processingInstruction = instruction;
    ctxt->sax->reference = reference;
    ctxt->sax->entityDecl = entity_decl;
    xmlSetStructuredErrorFunc(&st.fe, keep_first_error);
    size_t at = 0, total = src->file ? src->size : src->len;
    steady_err_t io = STEADY_OK;
    for (;;) {
        const char *chunk = src->text + at;
        size_t n = 0;
        if (at < src->len) {
            n = src->len - at < CHUNK ? src->len - at : CHUNK;
        } else if (src->file) {
            chunk = buf;
            n = fread(buf, 1, CHUNK, src->file);
            if (n == 0 && ferror(src->file))
                io = steady_error_set(err, STEADY_EINPUT, "%s: cannot read (%s)", src->path,
                                      strerror(errno));
        }
        if (n == 0 || io)
            break;
        if (src->progress)
            src->progress(src->progress_ctx, "reading the platform", (double)at,
                          (double)(total > at ? total : at));
        xmlParseChunk(ctxt, chunk, (int)n, 0);
        at += n;
        if (st.rc || st.fe.seen || ctxt->instate == XML_PARSER_EOF)
            break;
    }
    if (!io && !st.rc && !st.fe.seen && ctxt->instate != XML_PARSER_EOF) {
        st.fe.last = true;
        xmlParseChunk(ctxt, NULL, 0, 1);
    }
    xmlSetStructuredErrorFunc(NULL, NULL);
    free(buf);
    arena_free(&st.arena);
    if (io)
        st.rc = io;
    if (!st.rc && st.fe.seen && st.fe.code == XML_ERR_DOCUMENT_END && st.fe.at_end) {
        /* the push parser says a document cut short has "extra content at
         * the end"; parsed whole, it says where the data ends and which
         * element is open, as a reader expects */
        first_error_t fe = st.fe;
        char *text = NULL;
        size_t len = 0;
        steady_error_t ignored = {0};
        if (!src->file)
            whole_parse_error(src->text, src->len, &fe);
        else if (!read_file(src->path, &text, &len, &ignored))
            whole_parse_error(text, len, &fe);
        free(text);
        st.fe = fe;
    }
    xmlDocPtr d = ctxt->myDoc;
    bool well_formed = ctxt->wellFormed;
    ctxt->myDoc = NULL;
    xmlFreeParserCtxt(ctxt);
    if (st.rc || !d || !well_formed || st.fe.seen || !doc)
        xmlFreeDoc(d);
    if (st.rc)
        return st.rc;
    if (!d || !well_formed || st.fe.seen) {
        if (!st.fe.seen)
            return steady_error_set(err, STEADY_EPARSE, "%s:1: malformed XML", origin);
        if (st.fe.col > 0)
            return steady_error_set(err, STEADY_EPARSE, "%s:%d:%d: malformed XML (%s)", origin,
                                    st.fe.line, st.fe.col, st.fe.msg);
        return steady_error_set(err, STEADY_EPARSE, "%s:%d: malformed XML (%s)", origin, st.fe.line,
                                st.fe.msg);
    }
    if (doc)
        *doc = d;
    return STEADY_OK;
}

steady_err_t xml_read(const char *text, size_t len, const char *origin, xmlDocPtr *doc,
                      steady_error_t *err)
{
    source_t src = {.text = text, .len = len};
    return xml_parse(&src, origin, NULL, doc, err);
}

xmlNodePtr xml_keep(xmlNodePtr node)
{
    if (!in_arena(node))
        return node;
    xmlNodePtr copy = xmlDocCopyNode(node, node->doc, 1);
    if (!copy)
        return NULL;
    /* the copy keeps the lines, for messages */
    for (xmlNodePtr from = node, to = copy; from && to;) {
        if (from->type == XML_ELEMENT_NODE) {
            to->_private = (void *)&line_mark;
            to->psvi = from->psvi;
        }
        if (from->children && to->children) {
            from = from->children;
            to = to->children;
            continue;
        }
        while (from != node && !from->next) {
            from = from->parent;
            to = to->parent;
        }
        if (from == node)
            break;
        from = from->next;
        to = to->next;
    }
    xmlAddChild(node->parent, copy);
    return copy;
}

char *xml_scratch_text(xmlNodePtr node)
{
    xmlNodePtr t = node->children;
    if (!in_arena(node) || !t || t->next || t->type != XML_TEXT_NODE)
        return NULL;
    return (char *)t->content;
}

void xml_drop(xmlNodePtr node)
{
    if (in_arena(node))
        return; /* reclaimed with the arena */
    xmlNodePtr prev = node->prev;
    xmlUnlinkNode(node);
    xmlFreeNode(node);
    while (prev && prev->type != XML_ELEMENT_NODE) {
        xmlNodePtr before = prev->prev;
        xmlUnlinkNode(prev);
        xmlFreeNode(prev);
        prev = before;
    }
}

long xml_line(xmlNodePtr node)
{
    if (node && (node->_private == &arena_mark || node->_private == &line_mark))
        return (long)(intptr_t)node->psvi;
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

const char *xml_attr_peek(xmlNodePtr node, const char *name, char **copy)
{
    *copy = NULL;
    for (xmlAttrPtr a = node->properties; a; a = a->next)
        if (strcmp((const char *)a->name, name) == 0) {
            xmlNodePtr t = a->children;
            if (!t)
                return "";
            if (t->type == XML_TEXT_NODE && !t->next && t->content)
                return (const char *)t->content;
            break;
        }
    return *copy = xml_attr(node, name);
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
