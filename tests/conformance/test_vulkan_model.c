/* test_vulkan_model.c -- whole Vulkan models against the CPU backend's,
 * small enough for lavapipe in CI; the suite is model_suite.inc, plus
 * models trained with per-row buffers split into windows. */
#include <stdlib.h>

#define SUITE_ACCEL "vulkan"
#define SUITE_DRIVER_ROWS 20000
#define SUITE_API_ROWS 20000
#define SUITE_ROUNDS_BINARY "15"
#define SUITE_ROUNDS_REGRESSION "10"

static void test_windowed_model(void **state);
#define SUITE_EXTRA_TESTS cmocka_unit_test(test_windowed_model),

#include "model_suite.inc"

/* The device made to bind 64 KiB at most: 20000 rows put the gradient
 * pairs in 5 windows and the row lists and margins in 2 (window.glsl);
 * the trees, margins and saved model must still be the CPU's. */
static void test_windowed_model(void **state)
{
    (void)state;
    setenv("GPULAYER_VULKAN_TEST_LIMITS", "65536,0,0", 1);
    driver_case("logistic, depthwise, windowed buffers", GPL_OBJ_LOGISTIC, 1,
                GPL_GROW_DEPTHWISE, 6, 0, 1.0, 12);
    const char *kv[] = {"objective", "binary:logistic", "num_round", "6", "max_depth", "5",
                        "eta", "0.2", "subsample", "0.8", "nthread", "2", NULL};
    api_case("binary:logistic, windowed buffers", kv, 1, 0);
    unsetenv("GPULAYER_VULKAN_TEST_LIMITS");
}
