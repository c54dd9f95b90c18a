/*
 * main.c — runs every CUnit suite; exit status 1 when a test failed.
 */
#include <CUnit/Basic.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"

void add_suite(const char *name, const CU_TestInfo *tests)
{
    CU_pSuite s = CU_add_suite(name, NULL, NULL);
    for (const CU_TestInfo *t = tests; s && t->pName; t++)
        CU_add_test(s, t->pName, t->pTestFunc);
}

int main(void)
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    suite_platform();
    suite_native();
    suite_graphml();
    suite_simgrid();
    suite_simgrid_errors();
    suite_gen();
    suite_summary();
    suite_lp();
    suite_matching();
    suite_trees();
    suite_arborescence();
    suite_schedule();
    suite_check();
    suite_check_built();
    suite_replay();
    suite_replay_series();
    suite_compare();
    suite_hockney();
    suite_draw();
    suite_reliability();
    suite_payload();
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}
