/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one main() of the CUnit programs: a table of tests registered in one
 * suite and run verbosely, because tests/run-unit.sh reads CUnit's verbose
 * output to report every test by name.  Exits 1 if any test or assertion
 * failed.
 */
#ifndef MEMQOS_CUNIT_RUN_H
#define MEMQOS_CUNIT_RUN_H

#include <stddef.h>
#include <CUnit/Basic.h>

typedef struct CunitTest {
    const char *name;
    CU_TestFunc fn;
} CunitTest;

static inline int cunit_run(const char *suite, const CunitTest *tests,
                            size_t n)
{
    CU_pSuite s;
    unsigned failed;

    if (CU_initialize_registry() != CUE_SUCCESS) {
        return 1;
    }
    s = CU_add_suite(suite, NULL, NULL);
    for (size_t i = 0; i < n; i++) {
        CU_add_test(s, tests[i].name, tests[i].fn);
    }
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    CU_cleanup_registry();
    return failed ? 1 : 0;
}

#define CUNIT_RUN(suite, tests) \
    cunit_run((suite), (tests), sizeof(tests) / sizeof((tests)[0]))

#endif
