/* The histogram kernels' planning helpers (gpu_kernel_abi.h): feature
 * chunks of a shared-memory histogram, counted by summed bins (histogram,
 * the Metal host) or by the widest feature times the features
 * (histogram_rows), features too wide for one cut into runs of bins, and
 * hist_reduce's workgroup count. */
#include "test_util.h"

#include <stdint.h>

#include "gpu_kernels/gpu_kernel_abi.h"

/* Feature offsets from bin counts. */
static void offsets_of(const uint32_t *bins, int32_t n, uint32_t *offset)
{
    offset[0] = 0;
    for (int32_t f = 0; f < n; f++) offset[f + 1] = offset[f] + bins[f];
}

static void test_summed_and_uniform_counts(void **state)
{
    (void)state;
    /* 100 + 10 + 10 + 10 bins: summed, 130 fit 128 only without the last
     * two; uniform, a chunk holding the 100-bin feature costs 100 a
     * feature, so it stays alone. */
    const uint32_t bins[4] = {100, 10, 10, 10};
    uint32_t offset[5];
    offsets_of(bins, 4, offset);
    gpl_hist_chunk ch[4];
    int32_t n = 0;
    n = gpl_hist_chunks_plan(offset, 4, 128, 28, 0, ch);
    assert_int_equal(n, 2);
    assert_int_equal(ch[0].feature_first, 0);
    assert_int_equal(ch[0].feature_count, 3);
    assert_int_equal(ch[0].bin_count, 120);
    assert_int_equal(ch[1].feature_first, 3);
    assert_int_equal(ch[1].bin_first, 120);
    n = gpl_hist_chunks_plan(offset, 4, 128, 28, 1, ch);
    assert_int_equal(n, 2);
    assert_int_equal(ch[0].feature_count, 1);
    assert_int_equal(ch[1].feature_first, 1);
    assert_int_equal(ch[1].feature_count, 3);
    assert_int_equal(ch[1].bin_first, 100);
    assert_int_equal(ch[1].bin_count, 30);
}

static void test_every_chunk_fits(void **state)
{
    (void)state;
    /* 28 features of 257 bins, 4096 shared bins (the benchmark's shape):
     * 15 + 13 features either way, each within 4096 as the kernel counts
     * it; at most 28 columns a chunk. */
    uint32_t bins[60], offset[61];
    for (int f = 0; f < 60; f++) bins[f] = f < 28 ? 257 : 2 + (uint32_t)(f * 7 % 50);
    offsets_of(bins, 28, offset);
    gpl_hist_chunk ch[60];
    int32_t n = 0;
    n = gpl_hist_chunks_plan(offset, 28, 4096, 28, 1, ch);
    assert_int_equal(n, 2);
    assert_int_equal(ch[0].feature_count, 15);
    assert_int_equal(ch[1].feature_count, 13);
    /* Varied bins: every feature in exactly one chunk, in order. */
    offsets_of(bins + 28, 32, offset);
    n = gpl_hist_chunks_plan(offset, 32, 256, 28, 1, ch);
    uint32_t next = 0;
    for (int32_t k = 0; k < n; k++) {
        assert_int_equal(ch[k].feature_first, next);
        assert_true(ch[k].feature_count >= 1 && ch[k].feature_count <= 28);
        uint32_t widest = 0;
        for (uint32_t f = next; f < next + ch[k].feature_count; f++)
            if (offset[f + 1] - offset[f] > widest) widest = offset[f + 1] - offset[f];
        assert_true(widest * ch[k].feature_count <= 256);
        next += ch[k].feature_count;
    }
    assert_int_equal(next, 32);
}

static void test_feature_too_wide(void **state)
{
    (void)state;
    /* A feature of 600 bins among two of 16, 256 shared bins: runs of 256,
     * 256 and 88 of its bins, a chunk each, between the others' chunks;
     * counting alone gives the same number. */
    const uint32_t bins[3] = {16, 600, 16};
    uint32_t offset[4];
    offsets_of(bins, 3, offset);
    for (int uniform = 0; uniform < 2; uniform++) {
        gpl_hist_chunk ch[5];
        assert_int_equal(gpl_hist_chunks_plan(offset, 3, 256, 28, uniform, NULL), 5);
        assert_int_equal(gpl_hist_chunks_plan(offset, 3, 256, 28, uniform, ch), 5);
        const uint32_t first[5] = {0, 16, 272, 528, 616}, count[5] = {16, 256, 256, 88, 16};
        const uint32_t feature[5] = {0, 1, 1, 1, 2};
        for (int k = 0; k < 5; k++) {
            assert_int_equal(ch[k].feature_first, feature[k]);
            assert_int_equal(ch[k].feature_count, 1);
            assert_int_equal(ch[k].bin_first, first[k]);
            assert_int_equal(ch[k].bin_count, count[k]);
        }
    }
}

static void test_reduce_groups(void **state)
{
    (void)state;
    assert_int_equal(gpl_reduce_groups(0, 65535), 1);
    assert_int_equal(gpl_reduce_groups(1, 65535), 1);
    assert_int_equal(gpl_reduce_groups(32, 65535), 1);
    assert_int_equal(gpl_reduce_groups(33, 65535), 2);
    assert_int_equal(gpl_reduce_groups(7196, 65535), 225);
    assert_int_equal(gpl_reduce_groups(7196, 3), 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_summed_and_uniform_counts),
        cmocka_unit_test(test_every_chunk_fits),
        cmocka_unit_test(test_feature_too_wide),
        cmocka_unit_test(test_reduce_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
