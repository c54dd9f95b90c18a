/*
 * steady/error.h — the one error enum of libsteady and the error record that
 * carries a human-readable message.
 *
 * Every fallible libsteady function returns a steady_err_t and, when given a
 * non-NULL steady_error_t, fills it with a one-line message.  Messages about
 * input files have the form "FILE:LINE[:COL]: what is wrong (the value)".
 * Whatever a message quotes (a file name, a node name, a value, libxml2's
 * own words), its control characters are escaped (steady_error_escape), so
 * that every message is exactly one line.
 * The library never prints, exits or aborts; the CLI maps codes to exit
 * statuses with steady_err_exit_status().
 */
#ifndef STEADY_ERROR_H
#define STEADY_ERROR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    STEADY_OK = 0,
    STEADY_ENOMEM,       /* out of memory */
    STEADY_EINPUT,       /* input cannot be opened or read */
    STEADY_EPARSE,       /* malformed input: syntax, bad unit, truncated file */
    STEADY_EINVAL,       /* well-formed input with an invalid value or reference */
    STEADY_EUNSUPPORTED, /* valid input that steady does not handle */
    STEADY_EIO,          /* an output cannot be written */
    STEADY_ESOLVER,      /* the LP solver failed */
    STEADY_EINTERNAL     /* a bug in steady: please report it */
} steady_err_t;

#define STEADY_ERROR_MSG_MAX 1024

/* An error record; zero-initialise it or call steady_error_clear(). */
typedef struct {
    steady_err_t code;
    char msg[STEADY_ERROR_MSG_MAX];
} steady_error_t;

/* A short static description of an error code ("malformed input", ...). */
const char *steady_strerror(steady_err_t code);

/* Exit status for the command-line programs: 0 ok, 2 bad input or usage
 * (EINPUT, EPARSE, EINVAL, EUNSUPPORTED), 1 any other failure. */
int steady_err_exit_status(steady_err_t code);

/* Resets err to STEADY_OK with an empty message.  err may be NULL. */
void steady_error_clear(steady_error_t *err);

/* Records code and a printf-style message in err (which may be NULL) and
 * returns code, so that callers can write `return steady_error_set(...)`.
 * The message is escaped (steady_error_escape) and truncated to
 * STEADY_ERROR_MSG_MAX - 1 bytes. */
steady_err_t steady_error_set(steady_error_t *err, steady_err_t code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prepends a printf-style prefix to err's message, e.g. a "FILE:LINE: "
 * location added by a reader to an error raised by the platform model.
 * The prefix is escaped as the message is.  Does nothing when err is NULL. */
void steady_error_prefix(steady_error_t *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Copies text into buf (size > 0 bytes, always NUL-terminated) so that it
 * prints as one line of plain text: newline, carriage return and tab become
 * \n, \r, \t; the other C0 control characters, DEL and the bytes that are
 * not valid UTF-8 become \xNN; the C1 controls (U+0080 to U+009F) \u0080
 * to \u009f.  Everything else, backslashes included, is copied as is.  A
 * text that does not fit is cut before an escape or a UTF-8 sequence,
 * never inside one.  Returns buf. */
char *steady_error_escape(char *buf, size_t size, const char *text);

#ifdef __cplusplus
}
#endif

#endif /* STEADY_ERROR_H */
