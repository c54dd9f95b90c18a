/*
 * driver.c — a plain main() for the harnesses (make check): runs every
 * file given, or every file of every directory given, through
 * LLVMFuzzerTestOneInput once.  No fuzzing: each past input, crashes
 * included, stays fixed.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    char *data = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len == cap) {
            cap = cap ? 2 * cap : 4096;
            char *n = realloc(data, cap);
            if (!n) {
                fclose(f);
                free(data);
                return 1;
            }
            data = n;
        }
        got = fread(data + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    fclose(f);
    /* a copy of exactly len bytes, so that a harness reading past its
     * input shows under ASan */
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) {
        free(data);
        return 1;
    }
    memcpy(exact, data, len);
    free(data);
    LLVMFuzzerTestOneInput(exact, len);
    free(exact);
    return 0;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
    int inputs = 0, failures = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            perror(argv[i]);
            return 1;
        }
        if (!S_ISDIR(st.st_mode)) {
            failures += run_file(argv[i]);
            inputs++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        if (!d) {
            perror(argv[i]);
            return 1;
        }
        char **names = NULL;
        size_t n = 0;
        for (struct dirent *e; (e = readdir(d));) {
            if (e->d_name[0] == '.')
                continue;
            char **grown = realloc(names, (n + 1) * sizeof *names);
            size_t size = strlen(argv[i]) + strlen(e->d_name) + 2;
            char *path = grown ? malloc(size) : NULL;
            if (!path) {
                free(grown ? grown : names);
                closedir(d);
                return 1;
            }
            names = grown;
            snprintf(path, size, "%s/%s", argv[i], e->d_name);
            names[n++] = path;
        }
        closedir(d);
        qsort(names, n, sizeof *names, cmp);
        for (size_t k = 0; k < n; k++) {
            failures += run_file(names[k]);
            inputs++;
            free(names[k]);
        }
        free(names);
    }
    printf("%s: %d inputs run, %d unreadable\n", argv[0], inputs, failures);
    return failures != 0;
}
