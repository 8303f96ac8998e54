/* test_cpu_rank.c -- the ranking query layouts of rank_compare.c with the
 * CPU on both sides, one thread against two: the thread count must not
 * change a bit of the gradients (the GPU suites run the same cases). */
#include "ops_compare.h"
#include "test_util.h"

static void test_ranking_threads(void **state)
{
    (void)state;
    run_rank_cases();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranking_threads),
    };
    compare_accelerator = "cpu";
    return cmocka_run_group_tests(tests, NULL, NULL);
}
