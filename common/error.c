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

steady_err_t steady_error_set(steady_error_t *err, steady_err_t code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->code = code;
    }
    return code;
}

void steady_error_prefix(steady_error_t *err, const char *fmt, ...)
{
    if (!err)
        return;
    char prefix[STEADY_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
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
