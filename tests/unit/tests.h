/*
 * tests.h — shared declarations of the CUnit unit tests.  Each test file
 * defines one suite_<area>() that adds its suite to the registry.
 */
#ifndef STEADY_TESTS_H
#define STEADY_TESTS_H

#include <CUnit/CUnit.h>

#include "steady/decompose.h"
#include "steady/lp.h"
#include "steady/platform.h"
#include "steady/schedule.h"

void suite_platform(void);
void suite_native(void);
void suite_graphml(void);
void suite_simgrid(void);
void suite_simgrid_errors(void);
void suite_gen(void);
void suite_summary(void);
void suite_lp(void);
void suite_matching(void);
void suite_trees(void);
void suite_arborescence(void);
void suite_schedule(void);
void suite_check(void);
void suite_check_built(void);
void suite_replay(void);
void suite_replay_series(void);
void suite_compare(void);
void suite_hockney(void);
void suite_draw(void);
void suite_reliability(void);
void suite_payload(void);

/* The paper's reduce example (§4, Figure 6): processors P0 (speed 2), P1,
 * P2 (speed 1), every pair linked at cost 1; and its reduce of v0 ⊕ v1 ⊕
 * v2 onto P0, task cost 1 (TP = 1). */
extern const char *const paper_reduce_text;
extern const steady_problem_t paper_reduce_to_p0;

/* Adds a suite with the given tests (a NULL-terminated {name, fn} list). */
void add_suite(const char *name, const CU_TestInfo *tests);

/* Parses text in the given format; fails the current test (and returns
 * NULL) on error.  Caller destroys the platform. */
steady_platform_t *parse_ok(const char *text, steady_format_t format);
/* The platform file at path (any format), asserted read. */
steady_platform_t *read_ok(const char *path);

/* Parses text expecting failure with code; returns the message in a static
 * buffer ("" when parsing succeeded, which fails the test). */
const char *parse_err(const char *text, steady_format_t format, steady_err_t code);

/* A platform text to refuse: with this code and exactly this message. */
typedef struct {
    const char *text;
    steady_err_t code;
    const char *msg;
} parse_case_t;

/* Each case read (the format found from the text): refused as it says. */
void check_parse_cases(const parse_case_t *cases, size_t n);

/* Solves prob on p / decomposes s into trees; fails the current test (and returns
 * NULL) on error.  Caller destroys the result. */
steady_solution_t *solve_ok(const steady_platform_t *p, steady_problem_t prob);
/* Replays ops operations of sc on p; fails the current test on error. */
steady_replay_t replay_ok(const steady_schedule_t *sc, const steady_platform_t *p, long ops);
/* solve_ok with the per-type LPs (STEADY_FORMULATION_FULL), or with f. */
steady_solution_t *solve_full_ok(const steady_platform_t *p, steady_problem_t prob);
steady_solution_t *solve_formulation_ok(const steady_platform_t *p, steady_problem_t prob,
                                        steady_formulation_t f);
steady_trees_t *trees_ok(const steady_solution_t *s);

/* Writes p in the format into a malloc'd, NUL-terminated string. */
char *write_string(const steady_platform_t *p, steady_format_t format,
                   const steady_write_options_t *opts);

/* True when a and b have the same name, nodes and edges, in the same order,
 * every double bit-for-bit equal.  On a difference, describes it in why. */
int platforms_equal(const steady_platform_t *a, const steady_platform_t *b, char why[256]);

/* CU_ASSERT that a and b are equal, printing the difference if not. */
#define ASSERT_PLATFORMS_EQUAL(a, b)                                                               \
    do {                                                                                           \
        char why_[256];                                                                            \
        int eq_ = platforms_equal((a), (b), why_);                                                 \
        if (!eq_)                                                                                  \
            fprintf(stderr, "\n    platforms differ: %s\n", why_);                                 \
        CU_ASSERT(eq_);                                                                            \
    } while (0)

#endif
