/*
 * steady/output.h — writing an output file safely, for the command-line
 * programs (steady, steady-run).
 *
 * A regular file, or a new one, is written atomically: to a temporary
 * PATH.tmp.XXXXXX beside it, renamed over PATH once complete and removed
 * on failure, so that a failure never leaves a half-written file nor
 * destroys the previous one.  Anything else -- a symbolic link, a
 * character device such as /dev/null, a FIFO, a socket -- is written *to*,
 * never replaced (renaming over /dev/null would, as root, put a regular
 * file where the device was).  A directory is refused.
 */
#ifndef STEADY_OUTPUT_H
#define STEADY_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "steady/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    FILE *f;          /* where to write */
    const char *path; /* as given; NULL or "-" is standard output */
    char *tmp;        /* the temporary file, or NULL when writing to path itself */
} steady_output_t;

/* Opens path for writing: false with STEADY_EIO ("PATH: cannot write: it
 * is a directory", "PATH: cannot create (reason)") or STEADY_ENOMEM. */
bool steady_output_open(steady_output_t *o, const char *path, steady_error_t *err);

/* Closes; when ok, renames the temporary file over path, else removes it.
 * False (with err set when ok) on a failed close or rename. */
bool steady_output_close(steady_output_t *o, bool ok, steady_error_t *err);

#ifdef __cplusplus
}
#endif

#endif
