/*
 * check_util.c — running the schedule validator in the unit tests, and
 * editing a schedule by hand (check_util.h).
 */
#include "check_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sched_print_lines(const steady_violations_t *v, const char *why)
{
    fprintf(stderr, "\n    %s; the validator says (%d lines):\n", why, v->count);
    for (int i = 0; i < v->count; i++)
        fprintf(stderr, "      %s\n", v->lines[i]);
}

int sched_violations(const steady_schedule_t *sc, const steady_platform_t *p)
{
    steady_violations_t v = {0};
    steady_error_t err = {0};
    CU_ASSERT_EQUAL(steady_schedule_check(sc, p, &v, &err), STEADY_OK);
    int n = v.count;
    if (n)
        sched_print_lines(&v, "expected a valid schedule");
    steady_violations_free(&v);
    CU_ASSERT_EQUAL(v.count, 0);
    CU_ASSERT_PTR_NULL(v.lines);
    return n;
}

int sched_has_line(const steady_schedule_t *sc, const steady_platform_t *p, const char *a,
                   const char *b, int exact)
{
    steady_violations_t v = {0};
    CU_ASSERT_EQUAL(steady_schedule_check(sc, p, &v, NULL), STEADY_OK);
    int found = 0;
    for (int i = 0; i < v.count && !found; i++)
        found = exact ? strcmp(v.lines[i], a) == 0
                      : strstr(v.lines[i], a) != NULL && (!b || strstr(v.lines[i], b) != NULL);
    if (!found) {
        char why[600];
        snprintf(why, sizeof why, "no line %s \"%s\"%s%s%s", exact ? "equal to" : "containing", a,
                 b ? " and \"" : "", b ? b : "", b ? "\"" : "");
        sched_print_lines(&v, why);
    }
    steady_violations_free(&v);
    return found;
}

void sched_drop_transfer(steady_schedule_t *sc, int s, int x)
{
    steady_sched_slot_t *sl = &sc->slots[s];
    mpq_clears(sl->transfers[x].from, sl->transfers[x].to, NULL);
    memmove(&sl->transfers[x], &sl->transfers[x + 1],
            (size_t)(sl->ntransfers - x - 1) * sizeof *sl->transfers);
    sl->ntransfers--;
}

void sched_move_transfer(steady_schedule_t *sc, int s, int x, int d)
{
    steady_sched_slot_t *to = &sc->slots[d];
    to->transfers = realloc(to->transfers, (size_t)(to->ntransfers + 1) * sizeof *to->transfers);
    steady_sched_slot_t *from = &sc->slots[s];
    to->transfers[to->ntransfers++] = from->transfers[x]; /* the mpq_t move with it */
    memmove(&from->transfers[x], &from->transfers[x + 1],
            (size_t)(from->ntransfers - x - 1) * sizeof *from->transfers);
    from->ntransfers--;
}
