/*
 * test_cuda_memory.c -- device memory of the CUDA backend: the plan before
 * training, the refusal of a job that cannot fit (with the estimate and the
 * free memory in the message), and no leak over 100 create / upload /
 * train-a-tree / destroy cycles. Skips, with the reason, where no CUDA
 * device is usable.
 */
#include "backend_guard.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "gpulayer.h"

/* From the CUDA backend; weak so that this program links without it. */
extern int gpl_cuda_device_memory(int device, size_t *free_bytes, size_t *total_bytes)
    __attribute__((weak));

#define OK(expr)                                                                   \
    do {                                                                           \
        gpulayer_status ok_status_ = (expr);                                       \
        if (ok_status_ != GPULAYER_OK) fail_msg("%s: %s", #expr, gpulayer_last_error()); \
    } while (0)

static gpl_backend *create_or_skip(const gpl_backend_config *cfg)
{
    gpl_backend *be = NULL;
    if (gpl_backend_create("cuda", cfg, &be) != GPULAYER_OK) {
        print_message("skipping: the cuda backend is not usable here: %s\n",
                      gpulayer_last_error());
        skip();
    }
    return be;
}

enum { ROWS = 200000, FEATURES = 16, DEPTH = 6 };

typedef struct small_data {
    uint8_t *bins;
    uint32_t offset[FEATURES + 1];
    float *label;
    float *margins;
} small_data;

static void make_small(small_data *d)
{
    d->bins = malloc((size_t)ROWS * FEATURES);
    d->label = malloc(sizeof(float) * ROWS);
    d->margins = calloc(ROWS, sizeof(float));
    for (int f = 0; f <= FEATURES; f++) d->offset[f] = (uint32_t)f * 64;
    uint32_t s = 1;
    for (int64_t i = 0; i < (int64_t)ROWS * FEATURES; i++) {
        s = s * 1664525u + 1013904223u;
        d->bins[i] = (uint8_t)(s >> 26);
    }
    for (int r = 0; r < ROWS; r++) d->label[r] = d->bins[(int64_t)r * FEATURES] > 31 ? 1.0f : 0.0f;
}

/* One tree, level by level, as the driver does. */
static void one_cycle(const small_data *d, gpl_memory_report *report)
{
    gpl_backend_config cfg = {1, 0, (1 << (DEPTH + 1)) - 1, 1, 0};
    gpl_backend *be = create_or_skip(&cfg);
    gpl_binned_matrix m = {ROWS, FEATURES, d->bins, d->offset, NULL, 1};
    OK(be->ops->upload(be, &m, d->label, NULL));
    OK(be->ops->set_margins(be, d->margins));
    gpl_gradient_request req = {GPL_OBJ_LOGISTIC, 1, 0, 0, 1, 1.0f, 0.0, {0}, 0, 0, 0, {0}};
    gpl_quant_scale sc;
    OK(be->ops->compute_gradients(be, &req, &sc));
    OK(be->ops->begin_tree(be));
    gpl_split_params sp = {1.0, 0.0, 1.0, sc, 0, 4, 64, 10.0, 10.0, 1.0, 0.0, NULL, NULL, 1.0, NULL, 0.0};
    int32_t level[64], next = 1, n = 1, build[32];
    gpl_split_record rec[64];
    gpl_split_apply ap[32];
    gpl_hist_subtract subs[32];
    int64_t kids[64];
    level[0] = 0;
    OK(be->ops->build_histograms(be, level, 1));
    for (int depth = 0; depth < DEPTH; depth++) {
        OK(be->ops->evaluate_splits(be, level, n, &sp, NULL, rec));
        int32_t count = 0;
        for (int32_t i = 0; i < n; i++)
            if (rec[i].feature >= 0 && rec[i].gain > 1e-6) {
                ap[count] = (gpl_split_apply){rec[i].node, rec[i].feature, rec[i].bin,
                                              rec[i].default_left, next, next + 1, 0, {0}, NULL};
                next += 2;
                count++;
            }
        if (count == 0) break;
        OK(be->ops->partition_rows(be, ap, count, kids));
        if (depth + 1 == DEPTH) break;
        for (int32_t i = 0; i < count; i++) {
            int ls = kids[2 * i] <= kids[2 * i + 1];
            build[i] = ls ? ap[i].left_child : ap[i].right_child;
            subs[i] = (gpl_hist_subtract){ap[i].node, build[i],
                                          ls ? ap[i].right_child : ap[i].left_child};
        }
        OK(be->ops->build_histograms(be, build, count));
        OK(be->ops->subtract_histograms(be, subs, count));
        n = 0;
        for (int32_t i = 0; i < count; i++) {
            level[n++] = ap[i].left_child;
            level[n++] = ap[i].right_child;
            build[i] = ap[i].node;
        }
        OK(be->ops->release_histograms(be, build, count));
    }
    float leaf[(1 << (DEPTH + 1)) - 1];
    for (int i = 0; i < (1 << (DEPTH + 1)) - 1; i++) leaf[i] = 0.01f * (float)(i % 5);
    OK(be->ops->update_margins(be, 0, leaf));
    float *out = malloc(sizeof(float) * ROWS);
    OK(be->ops->get_margins(be, out));
    free(out);
    if (report) be->ops->memory(be, report);
    gpl_backend_destroy(be);
}

static void test_no_leak_over_100_cycles(void **state)
{
    (void)state;
    small_data d;
    make_small(&d);
    gpl_memory_report r;
    /* The first cycles load the kernels and set up the context, which stay. */
    one_cycle(&d, &r);
    one_cycle(&d, NULL);
    size_t free0 = 0, free1 = 0, total = 0;
    assert_non_null(gpl_cuda_device_memory);
    assert_int_equal(gpl_cuda_device_memory(0, &free0, &total), 0);
    for (int i = 0; i < 100; i++) one_cycle(&d, NULL);
    assert_int_equal(gpl_cuda_device_memory(0, &free1, &total), 0);
    long long delta = (long long)free0 - (long long)free1;
    print_message("100 cycles: device free memory %zu -> %zu bytes (change %lld); one "
                  "cycle: peak %.1f MiB, planned %.1f MiB\n", free0, free1, -delta,
                  r.peak_bytes / 1048576.0, r.estimate_bytes / 1048576.0);
    /* A per-cycle leak of any buffer would show as at least 100 x 256 bytes
     * and in practice megabytes; allow the driver's own page granularity. */
    assert_true(delta <= 2 * 1024 * 1024);
    assert_true(r.peak_bytes <= r.estimate_bytes + 64u * 1024 * 1024);
    free(d.bins);
    free(d.label);
    free(d.margins);
}

/* A job larger than the free memory is refused at upload, before any
 * allocation, naming the estimate and the free memory. */
static void test_too_large_job_is_refused(void **state)
{
    (void)state;
    gpl_backend_config cfg = {1, 0, 255, 1, 0};
    gpl_backend *be = create_or_skip(&cfg);
    size_t free_b = 0, total = 0;
    assert_int_equal(gpl_cuda_device_memory(0, &free_b, &total), 0);
    const int32_t F = 64;
    uint32_t offset[65];
    for (int f = 0; f <= F; f++) offset[f] = (uint32_t)f * 256;
    /* Rows enough for twice the device; the data are never read. */
    int64_t rows = (int64_t)(2.0 * (double)total / (F + 32));
    if (rows > 4000000000LL) rows = 4000000000LL;
    uint8_t byte = 0;
    float label = 0;
    gpl_binned_matrix m = {rows, F, &byte, offset, NULL, 1};
    assert_int_equal(be->ops->upload(be, &m, &label, NULL), GPULAYER_ERR_OUT_OF_MEMORY);
    const char *msg = gpulayer_last_error();
    print_message("refusal: %s\n", msg);
    assert_non_null(strstr(msg, "needs about"));
    assert_non_null(strstr(msg, "free"));
    gpl_backend_destroy(be);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_too_large_job_is_refused),
        cmocka_unit_test(test_no_leak_over_100_cycles),
    };
    GPL_RUN_IF_BACKEND("cuda", tests);
}
