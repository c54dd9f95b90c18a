/*
 * platform/internal.h — helpers shared by the platform module's files
 * (model, units, readers and writers).  Not installed.
 */
#ifndef STEADY_PLATFORM_INTERNAL_H
#define STEADY_PLATFORM_INTERNAL_H

#include "steady/platform.h"
#include "steady/progress.h"

#include "../common/numbers.h"

#include <libxml/tree.h>

/* ---- numbers and units (units.c) ---------------------------------------- */

typedef enum {
    UNIT_BANDWIDTH, /* bytes/s: Bps, kBps, MBps, GBps, TBps, KiBps.., bps, kbps, Mbps.. */
    UNIT_TIME,      /* seconds: s, ms, us, ns, ps, m, h, d, w */
    UNIT_SPEED,     /* flop/s: f, kf, Mf, Gf, Tf, Pf, Ef (or "flops" suffixes) */
    UNIT_SIZE,      /* bytes: B, kB, MB, GB, TB, KiB, MiB, GiB, TiB */
    UNIT_NONE       /* a plain number */
} unit_kind_t;

/* Parses "12.5MBps", "10us", "2Gf" or a plain number (in the base unit)
 * into *value.  On failure returns false and points *why at a static
 * explanation ("unknown bandwidth unit", "not a number"); unit_hint(kind)
 * then says what is accepted.  The value may
 * be negative, zero or NaN: range checks belong to the model, which knows
 * which field it is. */
bool parse_quantity(const char *text, unit_kind_t kind, double *value, const char **why);

const char *unit_hint(unit_kind_t kind);

/* The model's range rule for a numeric field ("bandwidth", "latency",
 * "overhead", "speed", "cost"): finite; bandwidth, cost and speed positive,
 * latency and overhead >= 0; each within its range (steady/platform.h).  The
 * message quotes `text` (the value as the user wrote it) or, when text is
 * NULL, the value itself: "non-positive bandwidth (-5MBps)", "bandwidth
 * out of range (1e-300): from 0.001 to 1e15 B/s". */
steady_err_t check_field(const char *field, double value, const char *text, steady_error_t *err);

/* The rule on paths through switches of steady_platform_validate
 * (network.c). */
steady_err_t check_switch_paths(const steady_platform_t *p, steady_error_t *err);

/* The channels an edge crosses, as the text formats write them:
 * "A,B:down,..." — channels of p in order, with a direction on SPLITDUPLEX
 * ones (required there, refused elsewhere, as SimGrid does).  Parsed into
 * cross (room for STEADY_MAX_CROSSINGS, *n set); on an error, e says what
 * is wrong, the value at fault and a hint (or NULL), for the reader to
 * place (network.c). */
#define STEADY_MAX_CROSSINGS 64
typedef struct {
    const char *why, *hint;
    char value[256];
} crossing_error_t;
steady_err_t crossings_parse(const steady_platform_t *p, const char *text,
                             steady_crossing_t *cross, int *n, crossing_error_t *e);
/* Writes e's crossings in that syntax (nothing when it crosses none). */
void crossings_write(FILE *out, const steady_platform_t *p, const steady_edge_t *e);

/* Name accepted for a node: see STEADY_NAME_MAX. */
bool valid_node_name(const char *name);
/* A channel's: the same characters, no blank (a channel list, crosses=,
 * is one token). */
bool valid_channel_name(const char *name);

/* ---- readers and writers ---------------------------------------------- */

/* A platform file being read: its text in memory (file NULL), or, for the
 * XML formats read from a regular file, the bytes read so far (to detect
 * the format) and the rest still in the file, which the XML readers stream
 * a chunk at a time instead of holding the whole text. */
typedef struct {
    const char *text; /* all the text (file NULL), or its first len bytes */
    size_t len;
    FILE *file;       /* the rest, or NULL */
    const char *path; /* the file's, when file is set: read again whole only for
                       * the message of a document cut short */
    size_t size;      /* the whole text's bytes: the progress's total */
    steady_progress_fn progress; /* "reading the platform", bytes; may be NULL */
    void *progress_ctx;
} source_t;

/* How often the readers report progress: every that many elements. */
#define READ_PROGRESS_EVERY 65536

steady_err_t parse_native(const source_t *src, const char *origin, steady_platform_t *p,
                          steady_error_t *err);
steady_err_t parse_graphml(const source_t *src, const char *origin, steady_platform_t *p,
                           steady_error_t *err);
steady_err_t parse_simgrid(const source_t *src, const char *origin, steady_platform_t *p,
                           steady_error_t *err);

/* steady_platform_hash's value, when known since the platform last
 * changed (platform.c); and keeping it. */
bool platform_hash_known(const steady_platform_t *p, uint64_t *hash);
void platform_hash_keep(const steady_platform_t *p, uint64_t hash);

/* `extras`: with the flow sharing rule, the edges' penalties and the
 * calibration's sizes, which steady_platform_hash leaves out (a schedule
 * is valid whatever they are). */
steady_err_t write_native(const steady_platform_t *p, FILE *out, bool extras, steady_error_t *err);
steady_err_t write_graphml(const steady_platform_t *p, FILE *out, steady_error_t *err);
steady_err_t write_simgrid(const steady_platform_t *p, FILE *out,
                           const steady_write_options_t *opts, steady_error_t *err);

/* ---- XML helpers (xml.c) ------------------------------------------------ */

/* Parses an XML document from memory without network access and with line
 * numbers kept.  A malformed document gives "ORIGIN:LINE:COL: malformed XML
 * (libxml2's reason)"; a document that declares entities is refused
 * (EUNSUPPORTED).  Caller frees *doc with xmlFreeDoc. */
steady_err_t xml_read(const char *text, size_t len, const char *origin, xmlDocPtr *doc,
                      steady_error_t *err);

/* Streaming: called as the document is parsed, with an element that has
 * just opened (its attributes are there, its children not yet) and with
 * one that is complete.  `end` may free the element (xml_drop), so that a
 * large document never lives in memory whole.  The children of *under
 * (when under is set and *under is an element of the document: the reader
 * sets it from `start`) are streamed: each is built in a scratch arena,
 * handed to `end` complete (the elements inside it are not handed on their
 * own) and gone once `end` returns, unless `end` keeps a copy (xml_keep);
 * text directly under *under is dropped.  Or, for documents whose streamed
 * elements nest (SimGrid's zones), `streams` says which: called with an
 * element of the document (never NULL, never a streamed child) and the
 * name of a child opening in it, true streams that child; called with
 * child NULL, true drops the text directly under the element.  A handler's
 * error stops the parse
 * and becomes its result (its message already in err); an XML error met
 * before it wins, and none is reported after it. */
typedef struct {
    steady_err_t (*start)(void *ctx, xmlNodePtr node); /* may be NULL */
    steady_err_t (*end)(void *ctx, xmlNodePtr node);   /* may be NULL */
    void *ctx;
    xmlNodePtr *under; /* may be NULL */
    bool (*streams)(void *ctx, xmlNodePtr parent, const xmlChar *child); /* may be NULL */
} xml_handlers_t;

/* xml_read of a source, with handlers (h may be NULL); doc may be NULL
 * when the caller does not want what is left of the document.  libxml2's
 * push parser is fed 1 MiB at a time (from src->text, then src->file),
 * reporting src->progress per chunk; a document cut short is parsed again
 * whole (read again from src->path) for libxml2's usual message. */
steady_err_t xml_parse(const source_t *src, const char *origin, const xml_handlers_t *h,
                       xmlDocPtr *doc, steady_error_t *err);

/* A streamed child that stays after `end` returns: a copy, added to the
 * document under its parent (node itself when it is not streamed); NULL
 * when out of memory. */
xmlNodePtr xml_keep(xmlNodePtr node);

/* The text of a streamed element held as one text node, which the caller
 * may change in place (until `end` returns), or NULL. */
char *xml_scratch_text(xmlNodePtr node);

/* Unlinks and frees node, and the text, comments and instructions just
 * before it (up to the previous element), which would otherwise pile up
 * between the dropped elements; nothing for a streamed child, which goes
 * by itself. */
void xml_drop(xmlNodePtr node);

/* Line of an element (0 if unknown). */
long xml_line(xmlNodePtr node);

/* True when node is an element with that local name. */
bool xml_is(xmlNodePtr node, const char *name);

/* Attribute value of node (caller frees with xmlFree), or NULL. */
char *xml_attr(xmlNodePtr node, const char *name);

/* The same value, without a copy when the document holds it as one text:
 * valid while node is; *copy is NULL or a copy for the caller to xmlFree. */
const char *xml_attr_peek(xmlNodePtr node, const char *name, char **copy);

/* Records "ORIGIN:LINE: message" for an element. */
steady_err_t xml_error(steady_error_t *err, steady_err_t code, const char *origin, xmlNodePtr node,
                       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Adds "ORIGIN:LINE: " before an error raised by the model for node. */
steady_err_t xml_locate(steady_error_t *err, steady_err_t code, const char *origin,
                        xmlNodePtr node);

#endif /* STEADY_PLATFORM_INTERNAL_H */
