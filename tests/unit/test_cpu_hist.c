/* test_cpu_hist.c -- the CPU backend's node histograms against sums
 * worked out here, row by row: every feature-count path (row records up
 * to 8 features, one pass a row up to 32, blocked passes above), the root
 * and nodes built from row lists, node sizes that are not multiples of a
 * block, skewed and full 256-bin features, and 16-bit codes (features of
 * 257, 1,000 and 65,536 bins beside narrow ones). */
#include "test_util.h"

#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "binning.h"
#include "objective_math.h"
#include "quantize.h"

enum { ROWS = 5003, BINS = 256 };

/* Feature f's bins: BINS with byte codes; with 16-bit codes a cycle of
 * 1,000, 65,536, 257 and 256. */
static uint32_t feature_bins(int32_t f, int w)
{
    static const uint32_t wide[] = {1000, 65536, 257, 256};
    return w == 1 ? BINS : wide[f % 4];
}

static void check_features(int32_t F, unsigned seed, int w)
{
    uint8_t *bins = malloc((size_t)ROWS * (size_t)F * (size_t)w);
    uint32_t *offset = malloc(sizeof(uint32_t) * (size_t)(F + 1));
    float *label = malloc(sizeof(float) * ROWS), *margins = calloc(ROWS, sizeof(float));
    srand(seed);
    offset[0] = 0;
    for (int32_t f = 0; f < F; f++) offset[f + 1] = offset[f] + feature_bins(f, w);
    for (int64_t r = 0; r < ROWS; r++) {
        label[r] = (float)(rand() % 1000) / 7.0f - 50.0f;
        for (int32_t f = 0; f < F; f++) {
            /* odd features skewed: most rows in bin 1; bin 0 = missing;
             * the last bin taken now and then */
            const uint32_t n = feature_bins(f, w);
            uint32_t b = f % 2 ? (rand() % 10 ? 1 : (uint32_t)rand() % n) : (uint32_t)rand() % n;
            if (rand() % 100 == 0) b = n - 1;
            gpl_bin_code_set(bins, w, r * F + f, b);
        }
    }
    gpl_backend_config cfg = {2, 0, 3, 1, 0};
    gpl_backend *be;
    assert_int_equal(gpl_backend_create("cpu", &cfg, &be), GPULAYER_OK);
    gpl_binned_matrix m = {ROWS, F, bins, offset, NULL, w};
    assert_int_equal(be->ops->upload(be, &m, label, NULL), GPULAYER_OK);
    assert_int_equal(be->ops->set_margins(be, margins), GPULAYER_OK);
    gpl_gradient_request req = {GPL_OBJ_SQUARED_ERROR, 1, 0, 0, 1, 1.0f, 0.0, {0}, 0, 0, 0, {0}};
    gpl_quant_scale scale;
    assert_int_equal(be->ops->compute_gradients(be, &req, &scale), GPULAYER_OK);
    assert_int_equal(be->ops->begin_tree(be), GPULAYER_OK);
    int32_t root = 0;
    assert_int_equal(be->ops->build_histograms(be, &root, 1), GPULAYER_OK);
    /* Split the root on feature 0 at bin 100 (missing left): node 1 gets
     * about 40% of the rows, node 2 the rest. */
    gpl_split_apply split = {.node = 0, .feature = 0, .bin = 100, .default_left = 1,
                             .left_child = 1, .right_child = 2};
    int64_t child_rows[2];
    assert_int_equal(be->ops->partition_rows(be, &split, 1, child_rows), GPULAYER_OK);
    int32_t children[2] = {1, 2};
    assert_int_equal(be->ops->build_histograms(be, children, 2), GPULAYER_OK);

    const size_t len = offset[F];
    gpl_grad_pair *got = malloc(sizeof(gpl_grad_pair) * len);
    gpl_grad_pair *want = malloc(sizeof(gpl_grad_pair) * len);
    for (int32_t node = 0; node < 3; node++) {
        memset(want, 0, sizeof(gpl_grad_pair) * len);
        int64_t count = 0;
        for (int64_t r = 0; r < ROWS; r++) {
            /* bin 0 (missing) goes left too */
            const int left = gpl_bin_code(bins, w, r * F) <= 100;
            if ((node == 1 && !left) || (node == 2 && left)) continue;
            count++;
            double g, h;
            gpl_objective_single(GPL_OBJ_SQUARED_ERROR, margins[r], label[r], 1.0f, 0.0, &g, &h);
            const int64_t qg = gpl_quantize(g, scale.grad), qh = gpl_quantize(h, scale.hess);
            for (int32_t f = 0; f < F; f++) {
                const uint32_t b = gpl_bin_code(bins, w, r * F + f);
                want[offset[f] + b].grad += qg;
                want[offset[f] + b].hess += qh;
            }
        }
        if (node > 0) assert_int_equal(child_rows[node - 1], count);
        assert_int_equal(be->ops->read_histogram(be, node, got), GPULAYER_OK);
        for (size_t k = 0; k < len; k++)
            if (got[k].grad != want[k].grad || got[k].hess != want[k].hess)
                fail_msg("%d features, node %d, bin %zu: (%lld, %lld) vs (%lld, %lld)", (int)F,
                         node, k, (long long)got[k].grad, (long long)got[k].hess,
                         (long long)want[k].grad, (long long)want[k].hess);
    }
    gpl_backend_destroy(be);
    free(got);
    free(want);
    free(bins);
    free(offset);
    free(label);
    free(margins);
}

static void test_every_feature_count_path(void **state)
{
    (void)state;
    const int32_t counts[] = {1, 5, 8, 9, 28, 32, 33, 37, 40, 300};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        check_features(counts[i], (unsigned)(i + 1), 1);
}

static void test_wide_codes(void **state)
{
    (void)state;
    const int32_t counts[] = {1, 4, 9, 33};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        check_features(counts[i], (unsigned)(i + 11), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_feature_count_path),
        cmocka_unit_test(test_wide_codes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
