/*
 * file.c — reading a whole input file (common/file.h).
 */
#include "file.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

steady_err_t read_file(const char *path, char **out, size_t *out_len, steady_error_t *err)
{
    *out = NULL;
    *out_len = 0;
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f)
        return steady_error_set(err, STEADY_EINPUT, "%s: cannot open (%s)", path, strerror(errno));
    char *text = NULL;
    size_t len = 0, cap = 0;
    steady_err_t rc = STEADY_OK;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            size_t ncap = cap ? 2 * cap : 65536;
            char *n = realloc(text, ncap);
            if (!n) {
                rc = steady_error_set(err, STEADY_ENOMEM, "%s: out of memory", path);
                break;
            }
            text = n;
            cap = ncap;
        }
        size_t got = fread(text + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0) {
            /* a directory opens, and fails here with EISDIR */
            if (ferror(f))
                rc = steady_error_set(err, STEADY_EINPUT, "%s: cannot read (%s)",
                                      is_stdin ? "standard input" : path, strerror(errno));
            break;
        }
    }
    if (!is_stdin)
        fclose(f);
    if (rc) {
        free(text);
        return rc;
    }
    text[len] = '\0';
    *out = text;
    *out_len = len;
    return STEADY_OK;
}
