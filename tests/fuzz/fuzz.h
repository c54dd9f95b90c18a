/*
 * fuzz.h — the libFuzzer harnesses of steady's readers (docs/fuzzing.md):
 * each fuzz_*.c defines LLVMFuzzerTestOneInput.  `make fuzz` links them
 * with libFuzzer (clang); `make check` links them with driver.c, a plain
 * main() that runs every input of the committed corpus once.
 *
 * A harness that finds a property broken calls fuzz_fail(), which prints
 * why and aborts: libFuzzer keeps the input as a crash.
 */
#ifndef STEADY_FUZZ_H
#define STEADY_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "steady/error.h"
#include "steady/platform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Prints "fuzz: why" and aborts. */
void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* A failed call's error record must hold one line that says something; a
 * reader's message about its input starts with the input's name (origin,
 * unless NULL). */
void fuzz_check_message(const steady_error_t *err, const char *origin);

/* Parses the input in `format`; when it is a platform, writes it in each
 * of the three formats and reads each text back, which must give the same
 * platform (steady_platform_hash). */
int fuzz_platform(const uint8_t *data, size_t size, steady_format_t format);

#endif
