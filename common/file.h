/*
 * common/file.h — reading a whole input file, shared by the platform and
 * schedule readers.  Not installed.
 */
#ifndef STEADY_COMMON_FILE_H
#define STEADY_COMMON_FILE_H

#include <stddef.h>

#include "steady/error.h"

/* Reads the file at path ("-": standard input) into *text (malloc'd, NUL
 * added after its *len bytes; the caller frees it).  A file that cannot be
 * opened or read, a directory among them, gives STEADY_EINPUT with "PATH:
 * cannot open (reason)" or "PATH: cannot read (reason)". */
steady_err_t read_file(const char *path, char **text, size_t *len, steady_error_t *err);

#endif
