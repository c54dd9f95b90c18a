/*
 * check_util.h — the schedule validator (steady_schedule_check) as the unit
 * tests run it: counting its lines, looking for one.
 */
#ifndef STEADY_TESTS_CHECK_UTIL_H
#define STEADY_TESTS_CHECK_UTIL_H

#include <CUnit/CUnit.h>

#include "steady/schedule.h"

/* Prints the validator's lines v after why. */
void sched_print_lines(const steady_violations_t *v, const char *why);

/* The number of violation lines for sc on p; prints them when there are
 * some (a valid schedule is expected). */
int sched_violations(const steady_schedule_t *sc, const steady_platform_t *p);

/* True when a violation line contains a and b (b may be NULL); with exact,
 * a line must equal a.  Prints the lines when none does. */
int sched_has_line(const steady_schedule_t *sc, const steady_platform_t *p, const char *a,
                   const char *b, int exact);

#define EXPECT_LINE(sc, p, line)                                                                   \
    CU_assertImplementation(sched_has_line((sc), (p), (line), NULL, 1), __LINE__,                  \
                            "violation: " line, __FILE__, "", CU_FALSE)

#define EXPECT_MATCH(sc, p, a, b)                                                                  \
    CU_assertImplementation(sched_has_line((sc), (p), (a), (b), 0), __LINE__,                      \
                            "violation containing", __FILE__, "", CU_FALSE)

/* Editing a schedule: removes transfer x of slot s (its rationals
 * cleared); moves it to the end of slot d. */
void sched_drop_transfer(steady_schedule_t *sc, int s, int x);
void sched_move_transfer(steady_schedule_t *sc, int s, int x, int d);

#endif
