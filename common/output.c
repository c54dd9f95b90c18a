/*
 * output.c — writing an output file atomically, or to a device as it is
 * (steady/output.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "steady/output.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary file is made beside PATH, on its file system, so that
 * the rename is atomic. */
bool steady_output_open(steady_output_t *o, const char *path, steady_error_t *err)
{
    *o = (steady_output_t){.f = stdout, .path = path, .tmp = NULL};
    if (!path || strcmp(path, "-") == 0)
        return true;
    struct stat st;
    bool exists = lstat(path, &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) {
            steady_error_set(err, STEADY_EIO, "%s: cannot write: it is a directory", path);
            return false;
        }
        o->f = fopen(path, "w");
        if (!o->f) {
            steady_error_set(err, STEADY_EIO, "%s: cannot write (%s)", path, strerror(errno));
            return false;
        }
        return true;
    }
    size_t n = strlen(path) + 16;
    o->tmp = malloc(n);
    if (!o->tmp) {
        steady_error_set(err, STEADY_ENOMEM, "out of memory");
        return false;
    }
    snprintf(o->tmp, n, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(o->tmp);
    /* mkstemp creates the file 0600: give it the mode the file has, or the
     * one a plain fopen would have given a new file */
    mode_t mask = umask(0);
    umask(mask);
    o->f = NULL;
    if (fd >= 0 && fchmod(fd, exists ? st.st_mode & 07777 : 0666 & ~mask) == 0)
        o->f = fdopen(fd, "w");
    if (!o->f) {
        steady_error_set(err, STEADY_EIO, "%s: cannot create (%s)", path, strerror(errno));
        if (fd >= 0) {
            close(fd);
            unlink(o->tmp);
        }
        free(o->tmp);
        o->tmp = NULL;
        return false;
    }
    return true;
}

bool steady_output_close(steady_output_t *o, bool ok, steady_error_t *err)
{
    if (o->f == stdout) {
        if (fflush(stdout) != 0 && ok) {
            steady_error_set(err, STEADY_EIO, "standard output: write failed (%s)",
                             strerror(errno));
            return false;
        }
        return true;
    }
    bool closed = fclose(o->f) == 0;
    o->f = NULL;
    if (ok && !closed)
        steady_error_set(err, STEADY_EIO, "%s: write failed (%s)", o->path, strerror(errno));
    if (!o->tmp)
        return closed;
    if (ok && closed && rename(o->tmp, o->path) != 0) {
        steady_error_set(err, STEADY_EIO, "%s: cannot create (%s)", o->path, strerror(errno));
        closed = false;
    }
    if (!ok || !closed)
        unlink(o->tmp);
    free(o->tmp);
    o->tmp = NULL;
    return closed;
}
