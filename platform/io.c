/*
 * io.c — choosing a platform format, reading files, dispatching to the
 * native / GraphML / SimGrid readers and writers, and the SMPI hostfile.
 */
#define _POSIX_C_SOURCE 200809L
#include "internal.h"

#include "../common/file.h"

#include <errno.h>
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
static bool xml_root_name(const char *text, size_t len, char name[32])
{
    size_t i = 0;
    for (;;) {
        while (i < len && strchr(" \t\r\n", text[i]))
            i++;
        if (i >= len || text[i] != '<')
            return false;
        if (i + 1 < len && (text[i + 1] == '?' || text[i + 1] == '!')) {
            i = skip_markup(text, len, i);
            if (i >= len) {
                name[0] = '\0'; /* XML, truncated before its root: libxml2 will say where */
                return true;
            }
            continue;
        }
        size_t n = 0;
        for (i++; i < len && n < 31 && !strchr(" \t\r\n/>", text[i]); i++)
            name[n++] = text[i];
        name[n] = '\0';
        return true;
    }
}

steady_err_t steady_platform_parse(const char *text, size_t len, const char *origin,
                                   steady_format_t format, steady_platform_t **out,
                                   steady_format_t *detected, steady_error_t *err)
{
    *out = NULL;
    if (format == STEADY_FORMAT_AUTO) {
        char root[32];
        format = STEADY_FORMAT_NATIVE;
        if (xml_root_name(text, len, root)) {
            /* a colon-prefixed root (<ns:graphml>) is matched on its local part */
            const char *local = strchr(root, ':') ? strchr(root, ':') + 1 : root;
            if (strcmp(local, "graphml") == 0)
                format = STEADY_FORMAT_GRAPHML;
            else if (strcmp(local, "platform") == 0 || root[0] == '\0')
                format = STEADY_FORMAT_SIMGRID;
            else
                return steady_error_set(err, STEADY_EPARSE,
                                        "%s:1: unknown XML document <%s>: expected <graphml> or "
                                        "a SimGrid <platform>",
                                        origin, root);
        }
    }

    steady_platform_t *p;
    steady_err_t rc = steady_platform_create(&p, err);
    if (rc)
        return rc;
    if (format == STEADY_FORMAT_NATIVE) {
        rc = parse_native(text, len, origin, p, err);
    } else if (format == STEADY_FORMAT_GRAPHML) {
        rc = parse_graphml(text, len, origin, p, err); /* streamed */
    } else if (format == STEADY_FORMAT_SIMGRID) {
        rc = parse_simgrid(text, len, origin, p, err); /* streamed */
    } else {
        rc = steady_error_set(err, STEADY_EINVAL, "unknown platform format (%d)", (int)format);
    }
    /* whole-platform rules belong to no statement: located at line 1 */
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

steady_err_t steady_platform_read(const char *path, steady_format_t format, steady_platform_t **out,
                                  steady_format_t *detected, steady_error_t *err)
{
    *out = NULL;
    char *text;
    size_t len;
    steady_err_t rc = read_file(path, &text, &len, err);
    if (rc)
        return rc;
    rc = steady_platform_parse(text, len, strcmp(path, "-") == 0 ? "<stdin>" : path, format, out,
                               detected, err);
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
    case STEADY_FORMAT_NATIVE: rc = write_native(p, out, err); break;
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
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return steady_error_set(err, STEADY_ENOMEM, "out of memory");
    steady_err_t rc = write_native(p, f, err);
    if (fclose(f) != 0 && !rc)
        rc = steady_error_set(err, STEADY_ENOMEM, "out of memory");
    if (!rc) {
        uint64_t h = 1469598103934665603ull;
        for (size_t i = 0; i < len; i++) {
            h ^= (unsigned char)text[i];
            h *= 1099511628211ull;
        }
        *hash = h;
    }
    free(text);
    return rc;
}
