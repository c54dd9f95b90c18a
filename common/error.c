/*
 * error.c — the error record shared by every libsteady module.
 */
#include "steady/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *steady_strerror(steady_err_t code)
{
    switch (code) {
    case STEADY_OK: return "success";
    case STEADY_ENOMEM: return "out of memory";
    case STEADY_EINPUT: return "input cannot be read";
    case STEADY_EPARSE: return "malformed input";
    case STEADY_EINVAL: return "invalid value";
    case STEADY_EUNSUPPORTED: return "unsupported input";
    case STEADY_EIO: return "output cannot be written";
    case STEADY_ESOLVER: return "solver failure";
    case STEADY_EINTERNAL: return "internal error";
    }
    return "unknown error";
}

int steady_err_exit_status(steady_err_t code)
{
    switch (code) {
    case STEADY_OK: return 0;
    case STEADY_EINPUT:
    case STEADY_EPARSE:
    case STEADY_EINVAL:
    case STEADY_EUNSUPPORTED: return 2;
    default: return 1;
    }
}

void steady_error_clear(steady_error_t *err)
{
    if (err) {
        err->code = STEADY_OK;
        err->msg[0] = '\0';
    }
}

/* Length of the valid UTF-8 sequence of 2 to 4 bytes at s, or 0. */
static size_t utf8_length(const unsigned char *s)
{
    unsigned char c = s[0];
    size_t n = c >= 0xC2 && c <= 0xDF   ? 2
               : c >= 0xE0 && c <= 0xEF ? 3
               : c >= 0xF0 && c <= 0xF4 ? 4
                                        : 0;
    /* the second byte's range excludes overlong forms, surrogates and code
     * points above U+10FFFF */
    unsigned char lo = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
    unsigned char hi = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
    if (n == 0 || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t k = 2; k < n; k++)
        if (s[k] < 0x80 || s[k] > 0xBF)
            return 0;
    return n;
}

char *steady_error_escape(char *buf, size_t size, const char *text)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t out = 0;
    while (*s) {
        char esc[8];
        const char *piece = esc;
        size_t n = 1;
        if (*s == '\n' || *s == '\r' || *s == '\t') {
            snprintf(esc, sizeof esc, "\\%c", *s == '\n' ? 'n' : *s == '\r' ? 'r' : 't');
        } else if (*s < 0x20 || *s == 0x7F) {
            snprintf(esc, sizeof esc, "\\x%02x", *s);
        } else if (*s < 0x80) {
            piece = (const char *)s;
        } else if ((n = utf8_length(s)) == 0) {
            snprintf(esc, sizeof esc, "\\x%02x", *s);
            n = 1;
        } else if (n == 2 && s[0] == 0xC2 && s[1] < 0xA0) {
            snprintf(esc, sizeof esc, "\\u%04x", s[1]);
        } else {
            piece = (const char *)s;
        }
        size_t len = piece == esc ? strlen(esc) : n;
        if (out + len >= size)
            break;
        memcpy(buf + out, piece, len);
        out += len;
        s += n;
    }
    buf[out] = '\0';
    return buf;
}

steady_err_t steady_error_set(steady_error_t *err, steady_err_t code, const char *fmt, ...)
{
    if (err) {
        char raw[STEADY_ERROR_MSG_MAX];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(raw, sizeof raw, fmt, ap);
        va_end(ap);
        steady_error_escape(err->msg, sizeof err->msg, raw);
        err->code = code;
    }
    return code;
}

void steady_error_prefix(steady_error_t *err, const char *fmt, ...)
{
    if (!err)
        return;
    char raw[STEADY_ERROR_MSG_MAX], prefix[STEADY_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    steady_error_escape(prefix, sizeof prefix, raw);
    /* shift the message right and copy the prefix in front, truncating the end */
    size_t np = strlen(prefix), nm = strlen(err->msg);
    if (np >= sizeof err->msg)
        np = sizeof err->msg - 1;
    if (np + nm >= sizeof err->msg)
        nm = sizeof err->msg - 1 - np;
    memmove(err->msg + np, err->msg, nm);
    memcpy(err->msg, prefix, np);
    err->msg[np + nm] = '\0';
}
