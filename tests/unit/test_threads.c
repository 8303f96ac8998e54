/* test_threads.c -- the thread count every nthread parameter goes through:
 * the default, a count within the processors, and a count above them
 * lowered to them. */
#include "test_util.h"

#include <omp.h>

#include "threads.h"

static void test_thread_counts(void **state)
{
    (void)state;
    const int processors = omp_get_num_procs();
    assert_int_equal(gpl_threads(0), omp_get_max_threads());
    assert_int_equal(gpl_threads(-3), omp_get_max_threads());
    assert_int_equal(gpl_threads(1), 1);
    assert_int_equal(gpl_threads(processors), processors);
    assert_int_equal(gpl_threads(processors + 1), processors);
    assert_int_equal(gpl_threads(4096), processors);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thread_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
