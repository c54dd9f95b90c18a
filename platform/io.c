/*
 * io.c — choosing a platform format, reading files, dispatching to the
 * native / GraphML / SimGrid readers and writers, and the SMPI hostfile.
 */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"

#include <errno.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

static const char *const format_names[] = {"auto", "native", "graphml", "simgrid"};

int steady_format_from_name(const char *name)
{
    for (int f = 0; f < (int)(sizeof format_names / sizeof *format_names); f++)
        if (strcmp(name, format_names[f]) == 0)
            return f;
    return -1;
}

const char *steady_format_name(steady_format_t f)
{
    return (unsigned)f < sizeof format_names / sizeof *format_names ? format_names[f] : "?";
}

/* Index of the first occurrence of `what` in text[from, len), or len. */
static size_t find(const char *text, size_t len, size_t from, const char *what)
{
    size_t n = strlen(what);
    for (size_t k = from; k + n <= len; k++)
        if (memcmp(text + k, what, n) == 0)
            return k;
    return len;
}

/* Index just past the markup that starts at text[i] with "<?" or "<!": a
 * processing instruction (to "?>", whatever '>' it holds), a comment (to
 * "-->"), a DOCTYPE (to its '>', past quoted strings and an internal subset
 * in brackets, whose declarations, comments and processing instructions
 * hold '>' too); len when it does not end. */
static size_t skip_markup(const char *text, size_t len, size_t i)
{
    if (text[i + 1] == '?')
        return find(text, len, i + 2, "?>") + 2;
    if (i + 3 < len && text[i + 2] == '-' && text[i + 3] == '-')
        return find(text, len, i + 4, "-->") + 3;
    int depth = 0; /* inside the internal subset */
    for (size_t k = i + 2; k < len;) {
        char c = text[k];
        if (c == '"' || c == '\'') {
            const char *q = memchr(text + k + 1, c, len - k - 1);
            k = q ? (size_t)(q - text) + 1 : len;
        } else if (depth > 0 && c == '<' && k + 3 < len &&
                   (text[k + 1] == '?' || memcmp(text + k + 1, "!--", 3) == 0)) {
            k = skip_markup(text, len, k); /* an instruction or a comment in the subset */
        } else {
            if (c == '[')
                depth++;
            else if (c == ']' && depth > 0)
                depth--;
            else if (c == '>' && depth == 0)
                return k + 1;
            k++;
        }
    }
    return len;
}

/* Skips blanks, the XML declaration, comments, processing instructions and
 * the DOCTYPE, and returns the XML root element's name if text looks like
 * XML. */
static bool xml_root_name(const char *text, size_t len, char name[32], bool *cut)
{
    *cut = false;
    size_t i = 0;
    for (;;) {
        while (i < len && strchr(" \t\r\n", text[i]))
            i++;
        *cut = i >= len;
        if (i >= len || text[i] != '<')
            return false;
        if (i + 1 < len && (text[i + 1] == '?' || text[i + 1] == '!')) {
            i = skip_markup(text, len, i);
            if (i >= len) {
                name[0] = '\0'; /* XML, truncated before its root: libxml2 will say where */
                *cut = true;
                return true;
            }
            continue;
        }
        size_t n = 0;
        for (i++; i < len && n < 31 && !strchr(" \t\r\n/>", text[i]); i++)
            name[n++] = text[i];
        name[n] = '\0';
        *cut = i >= len;
        return true;
    }
}

/* The format of a text that starts with text[0, len): *format unchanged
 * unless AUTO.  *more: the text is XML whose root element does not start
 * (or end its name) within these bytes, and `complete` says they are not
 * all the text: read more before deciding. */
static steady_err_t detect(const char *text, size_t len, bool complete, const char *origin,
                           steady_format_t *format, bool *more, steady_error_t *err)
{
    *more = false;
    if (*format != STEADY_FORMAT_AUTO)
        return STEADY_OK;
    char root[32];
    bool cut;
    if (!xml_root_name(text, len, root, &cut)) {
        *format = STEADY_FORMAT_NATIVE;
        *more = cut && !complete; /* only blanks so far */
        return STEADY_OK;
    }
    if (cut && !complete) {
        *more = true; /* cut before its root, or in its name: decided on more bytes */
        return STEADY_OK;
    }
    /* a colon-prefixed root (<ns:graphml>) is matched on its local part */
    const char *local = strchr(root, ':') ? strchr(root, ':') + 1 : root;
    if (strcmp(local, "graphml") == 0)
        *format = STEADY_FORMAT_GRAPHML;
    else if (strcmp(local, "platform") == 0 || root[0] == '\0')
        *format = STEADY_FORMAT_SIMGRID;
    else
        return steady_error_set(err, STEADY_EPARSE,
                                "%s:1: unknown XML document <%s>: expected <graphml> or "
                                "a SimGrid <platform>",
                                origin, root);
    return STEADY_OK;
}

/* Parses src in a known format. */
static steady_err_t parse_source(const source_t *src, const char *origin, steady_format_t format,
                                 steady_platform_t **out, steady_format_t *detected,
                                 steady_error_t *err)
{
    steady_platform_t *p;
    steady_err_t rc = steady_platform_create(&p, err);
    if (rc)
        return rc;
    if (format == STEADY_FORMAT_NATIVE) {
        rc = parse_native(src, origin, p, err);
    } else if (format == STEADY_FORMAT_GRAPHML) {
        rc = parse_graphml(src, origin, p, err); /* streamed */
    } else if (format == STEADY_FORMAT_SIMGRID) {
        rc = parse_simgrid(src, origin, p, err); /* streamed */
    } else {
        rc = steady_error_set(err, STEADY_EINVAL, "unknown platform format (%d)", (int)format);
    }
    /* whole-platform rules belong to no statement: located at line 1 */
    if (!rc && src->progress)
        src->progress(src->progress_ctx, "checking the platform", -1, 0);
    if (!rc && (rc = steady_platform_validate(p, err)))
        steady_error_prefix(err, "%s:1: ", origin);
    if (rc) {
        steady_platform_destroy(p);
        return rc;
    }
    if (detected)
        *detected = format;
    *out = p;
    return STEADY_OK;
}

steady_err_t steady_platform_parse(const char *text, size_t len, const char *origin,
                                   steady_format_t format, steady_platform_t **out,
                                   steady_format_t *detected, steady_error_t *err)
{
    *out = NULL;
    bool more;
    steady_err_t rc = detect(text, len, true, origin, &format, &more, err);
    if (rc)
        return rc;
    source_t src = {.text = text, .len = len, .size = len};
    return parse_source(&src, origin, format, out, detected, err);
}

steady_err_t steady_platform_read(const char *path, steady_format_t format, steady_platform_t **out,
                                  steady_format_t *detected, steady_error_t *err)
{
    return steady_platform_read_with(path, format, NULL, out, detected, err);
}

/* Reads up to want bytes more of f into *text (grown as needed). */
static steady_err_t read_more(FILE *f, const char *path, char **text, size_t *len, size_t *cap,
                              size_t want, bool *eof, steady_error_t *err)
{
    if (*len + want + 1 > *cap) {
        size_t ncap = *len + want + 1;
        char *n = realloc(*text, ncap);
        if (!n)
            return steady_error_set(err, STEADY_ENOMEM, "%s: out of memory", path);
        *text = n;
        *cap = ncap;
    }
    size_t got = 0;
    while (got < want) {
        size_t k = fread(*text + *len + got, 1, want - got, f);
        if (k == 0)
            break;
        got += k;
    }
    *len += got;
    (*text)[*len] = '\0';
    *eof = got < want;
    if (got < want && ferror(f))
        return steady_error_set(err, STEADY_EINPUT, "%s: cannot read (%s)", path, strerror(errno));
    return STEADY_OK;
}

steady_err_t steady_platform_read_with(const char *path, steady_format_t format,
                                       const steady_read_options_t *opts, steady_platform_t **out,
                                       steady_format_t *detected, steady_error_t *err)
{
    static const steady_read_options_t defaults = {0};
    if (!opts)
        opts = &defaults;
    *out = NULL;
    const char *origin = strcmp(path, "-") == 0 ? "<stdin>" : path;
    source_t src = {.progress = opts->progress, .progress_ctx = opts->progress_ctx};
    /* a regular file is read as it is parsed (XML) or at once (native);
     * standard input, pipes and devices whole first, as before */
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return steady_error_set(err, STEADY_EINPUT, "%s: cannot open (%s)", path, strerror(errno));
    const char *name = is_stdin ? "standard input" : path; /* in read errors */
    struct stat sb;
    if (is_stdin || fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
        char *text = NULL;
        size_t len = 0, cap = 0;
        bool eof = false, more;
        steady_err_t rc = STEADY_OK;
        for (size_t want = 65536; !rc && !eof; want *= 2) /* a directory fails here */
            rc = read_more(f, name, &text, &len, &cap, want, &eof, err);
        if (!is_stdin)
            fclose(f);
        if (!rc && !(rc = detect(text, len, true, origin, &format, &more, err))) {
            src.text = text;
            src.len = src.size = len;
            rc = parse_source(&src, origin, format, out, detected, err);
        }
        free(text);
        return rc;
    }
    char *text = NULL;
    size_t len = 0, cap = 0, size = (size_t)sb.st_size;
    bool eof = false, more = true;
    steady_err_t rc = STEADY_OK;
    /* the first bytes, then more while the root element is not in them */
    for (size_t want = 65536; !rc && more; want *= 2)
        if (!(rc = read_more(f, name, &text, &len, &cap, want, &eof, err)))
            rc = detect(text, len, eof, origin, &format, &more, err);
    if (!rc && format == STEADY_FORMAT_NATIVE && !eof) /* the rest, at once */
        while (!rc && !eof)
            rc = read_more(f, name, &text, &len, &cap, size > len ? size - len + 1 : 65536, &eof,
                           err);
    if (!rc) {
        src.text = text;
        src.len = len;
        src.file = eof ? NULL : f;
        src.path = path;
        src.size = size > len ? size : len;
        rc = parse_source(&src, origin, format, out, detected, err);
    }
    fclose(f);
    free(text);
    return rc;
}

steady_err_t steady_platform_write(const steady_platform_t *p, FILE *out, steady_format_t format,
                                   const steady_write_options_t *opts, steady_error_t *err)
{
    steady_write_options_t defaults = {0};
    if (!opts)
        opts = &defaults;
    steady_err_t rc;
    switch (format) {
    case STEADY_FORMAT_NATIVE: rc = write_native(p, out, true, err); break;
    case STEADY_FORMAT_GRAPHML: rc = write_graphml(p, out, err); break;
    case STEADY_FORMAT_SIMGRID: rc = write_simgrid(p, out, opts, err); break;
    default:
        return steady_error_set(err, STEADY_EINVAL, "cannot write platform format %s",
                                steady_format_name(format));
    }
    if (!rc && (fflush(out) != 0 || ferror(out)))
        rc = steady_error_set(err, STEADY_EIO, "write failed (%s)", strerror(errno));
    return rc;
}

steady_err_t steady_platform_write_hostfile(const steady_platform_t *p, FILE *out,
                                            steady_error_t *err)
{
    for (int r = 0; r < steady_platform_rank_count(p); r++) {
        const char *name = steady_platform_node(p, steady_platform_rank_node(p, r))->name;
        /* smpirun reads "host:N" as N processes on host */
        if (strchr(name, ':'))
            return steady_error_set(err, STEADY_EINVAL,
                                    "node name %s contains ':', which an SMPI hostfile reads as "
                                    "a process count: rename the node",
                                    name);
        fprintf(out, "%s\n", name);
    }
    if (fflush(out) != 0 || ferror(out))
        return steady_error_set(err, STEADY_EIO, "write failed (%s)", strerror(errno));
    return STEADY_OK;
}

steady_err_t steady_platform_hash(const steady_platform_t *p, uint64_t *hash, steady_error_t *err)
{
    if (platform_hash_known(p, hash))
        return STEADY_OK;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    steady_err_t rc = write_native(p, f, false, err);
    if (fclose(f) != 0 && !rc)
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
    if (!rc) {
        uint64_t h = 1469598103934665603ull;
        for (size_t i = 0; i < len; i++) {
            h ^= (unsigned char)text[i];
            h *= 1099511628211ull;
        }
        *hash = h;
        platform_hash_keep(p, h);
    }
    free(text);
    return rc;
}
