/* test_vulkan_model.c -- whole Vulkan models against the CPU backend's,
 * small enough for lavapipe in CI; the suite is model_suite.inc, plus
 * models trained with per-row buffers split into windows. */
#include <stdlib.h>

#define SUITE_ACCEL "vulkan"
#define SUITE_DRIVER_ROWS 20000
#define SUITE_API_ROWS 20000
#define SUITE_WIDE_ROWS 6000
#define SUITE_ROUNDS_BINARY "15"
#define SUITE_ROUNDS_REGRESSION "10"

static void test_windowed_model(void **state);
static void test_ranking_models(void **state);
#define SUITE_EXTRA_TESTS cmocka_unit_test(test_windowed_model), \
    cmocka_unit_test(test_ranking_models),

#include "model_suite.inc"

#include "dataset.h"

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

/* Ranking models through the public API: queries of 1 to 60 rows (one of
 * 400), grades 0..4 (0/1 for rank:map), both pair methods, subsampling;
 * the saved model must be the CPU's. */
static void test_ranking_models(void **state)
{
    (void)state;
    static const struct {
        const char *objective, *method;
        int grades;
    } cases[] = {
        {"rank:ndcg", "topk", 5}, {"rank:pairwise", "mean", 5}, {"rank:map", "topk", 2},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        table t = make_table(3000, 8, cases[i].grades, 0);
        gpulayer_dataset *ds[2];
        for (int k = 0; k < 2; k++) {
            OK(gpulayer_dataset_from_dense(t.x, t.rows, t.cols, GPULAYER_ROW_MAJOR, t.y, NULL,
                                           &ds[k]));
            int64_t *ptr = malloc(sizeof(int64_t) * (size_t)(t.rows + 1));
            int64_t q = 0, r = 0;
            for (ptr[0] = 0; r < t.rows; q++) {
                const int64_t n = q == 3 ? 400 : 1 + (q * 37) % 60;
                r = r + n < t.rows ? r + n : t.rows;
                ptr[q + 1] = r;
            }
            ds[k]->group_ptr = ptr;
            ds[k]->num_groups = q;
        }
        const char *kv[] = {"objective", cases[i].objective, "lambdarank_pair_method",
                            cases[i].method, "num_round", "4", "max_depth", "4", "eta", "0.3",
                            "subsample", "0.8", "nthread", "2", NULL};
        char *gpu = train_ds_and_save(ds[0], kv, SUITE_ACCEL, 0);
        char *cpu = train_ds_and_save(ds[1], kv, "cpu", 0);
        compare_saved(cases[i].objective, cpu, gpu);
        free_table(&t);
    }
}
