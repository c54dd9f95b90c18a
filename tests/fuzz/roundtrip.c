/*
 * roundtrip.c — what the three platform harnesses share: a platform read
 * in one format reads back, the same, from each format it is written in.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

void fuzz_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("fuzz: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

void fuzz_check_message(const steady_error_t *err, const char *origin)
{
    if (err->code == STEADY_OK || err->msg[0] == '\0')
        fuzz_fail("an error without a message (code %d)", (int)err->code);
    for (const char *c = err->msg; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f)
            fuzz_fail("a message that is not one line: %s", err->msg);
    size_t n = origin ? strlen(origin) : 0;
    if (origin && err->code != STEADY_ENOMEM &&
        (strncmp(err->msg, origin, n) != 0 || err->msg[n] != ':'))
        fuzz_fail("a message that does not name the input: %s", err->msg);
}

static uint64_t hash_of(const steady_platform_t *p)
{
    uint64_t h;
    steady_error_t err = {0};
    if (steady_platform_hash(p, &h, &err))
        fuzz_fail("hash: %s", err.msg);
    return h;
}

int fuzz_platform(const uint8_t *data, size_t size, steady_format_t format)
{
    steady_platform_t *p = NULL;
    steady_error_t err = {0};
    if (steady_platform_parse((const char *)data, size, "in", format, &p, NULL, &err)) {
        fuzz_check_message(&err, "in");
        return 0;
    }
    uint64_t h = hash_of(p);
    for (steady_format_t f = STEADY_FORMAT_NATIVE; f <= STEADY_FORMAT_SIMGRID; f++) {
        char *text = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&text, &len);
        if (!out)
            fuzz_fail("open_memstream");
        steady_err_t rc = steady_platform_write(p, out, f, NULL, &err);
        fclose(out);
        if (rc)
            fuzz_fail("a platform read as %s cannot be written as %s: %s",
                      steady_format_name(format), steady_format_name(f), err.msg);
        steady_platform_t *q = NULL;
        if (steady_platform_parse(text, len, "out", f, &q, NULL, &err))
            fuzz_fail("%s -> %s does not read back: %s\n%s", steady_format_name(format),
                      steady_format_name(f), err.msg, text);
        if (hash_of(q) != h)
            fuzz_fail("%s -> %s reads back another platform:\n%s", steady_format_name(format),
                      steady_format_name(f), text);
        steady_platform_destroy(q);
        free(text);
    }
    steady_platform_destroy(p);
    return 0;
}
