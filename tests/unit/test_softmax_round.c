/* test_softmax_round.c -- a softmax round's gradients all come from the
 * margins at its start (backend.h): the tree of class 0 moving class 0's
 * margins must not change the gradients of class 1 in the same round, and
 * the round's normalisers are computed once, not once a class. Through
 * the CPU backend's operations; the GPU backends' conformance suites
 * compare theirs with it. */
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "gpulayer.h"

enum { ROWS = 1000, FEATURES = 3, CLASSES = 4, BINS = 16 };

typedef struct data {
    uint8_t bins[ROWS * FEATURES];
    uint32_t offset[FEATURES + 1];
    float label[ROWS];
    float margins[ROWS * CLASSES];
} data;

static void make(data *d)
{
    uint32_t s = 3;
    for (int i = 0; i < ROWS * FEATURES; i++) {
        s = s * 1664525u + 1013904223u;
        d->bins[i] = (uint8_t)(1 + (s >> 24) % (BINS - 1));
    }
    for (int f = 0; f <= FEATURES; f++) d->offset[f] = (uint32_t)(f * BINS);
    for (int r = 0; r < ROWS; r++) {
        d->label[r] = (float)(r % CLASSES);
        for (int k = 0; k < CLASSES; k++) d->margins[r * CLASSES + k] = 0.1f * (float)((r + k) % 7);
    }
}

/* The root histogram of class `output`'s gradients, after `moved` (when
 * non-zero) has shifted class 0's margins between the round's requests. */
static void root_histogram(const data *d, int32_t output, int moved, gpl_grad_pair *hist,
                           gpl_quant_scale *scale)
{
    gpl_backend_config cfg = {1, 0, 3, CLASSES, 0};
    gpl_backend *be = NULL;
    assert_int_equal(gpl_backend_create("cpu", &cfg, &be), GPULAYER_OK);
    gpl_binned_matrix m = {ROWS, FEATURES, d->bins, d->offset, NULL, 1};
    assert_int_equal(be->ops->upload(be, &m, d->label, NULL), GPULAYER_OK);
    assert_int_equal(be->ops->set_margins(be, d->margins), GPULAYER_OK);
    for (int32_t k = 0; k <= output; k++) {
        gpl_gradient_request req = {GPL_OBJ_SOFTMAX, CLASSES, k, 0, 1, 1.0f, 0.0, {0}, 0, 0, 0, {0}};
        assert_int_equal(be->ops->compute_gradients(be, &req, scale), GPULAYER_OK);
        assert_int_equal(be->ops->begin_tree(be), GPULAYER_OK);
        if (k == output) break;
        /* Class k's tree: one leaf of +2 for every row. */
        float leaf[3] = {moved ? 2.0f : 0.0f, 0.0f, 0.0f};
        assert_int_equal(be->ops->update_margins(be, k, leaf), GPULAYER_OK);
    }
    int32_t root = 0;
    assert_int_equal(be->ops->build_histograms(be, &root, 1), GPULAYER_OK);
    assert_int_equal(be->ops->read_histogram(be, 0, hist), GPULAYER_OK);
    gpl_backend_destroy(be);
}

static void test_round_uses_its_starting_margins(void **state)
{
    (void)state;
    data *d = malloc(sizeof *d);
    make(d);
    gpl_grad_pair still[FEATURES * BINS], moved[FEATURES * BINS];
    gpl_quant_scale s1, s2;
    root_histogram(d, 1, 0, still, &s1);
    root_histogram(d, 1, 1, moved, &s2);
    assert_true(s1.grad == s2.grad && s1.hess == s2.hess);
    assert_memory_equal(still, moved, sizeof still);
    free(d);
}

/* Class 1's root gradient sum against the softmax of the starting margins
 * worked out here, quantized as the backend does. */
static void test_gradients_are_the_softmax_of_the_start(void **state)
{
    (void)state;
    data *d = malloc(sizeof *d);
    make(d);
    gpl_grad_pair hist[FEATURES * BINS];
    gpl_quant_scale scale;
    root_histogram(d, 1, 1, hist, &scale);
    double want = 0.0, got = 0.0;
    for (int r = 0; r < ROWS; r++) {
        const float *m = d->margins + r * CLASSES;
        double top = m[0], sum = 0.0;
        for (int k = 1; k < CLASSES; k++) top = m[k] > top ? m[k] : top;
        for (int k = 0; k < CLASSES; k++) sum += exp(m[k] - top);
        want += exp(m[1] - top) / sum - ((int)d->label[r] == 1 ? 1.0 : 0.0);
    }
    for (int b = 0; b < BINS; b++) got += (double)hist[b].grad; /* feature 0's bins */
    got /= scale.grad;
    assert_true(fabs(got - want) < 1e-3);
    free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_uses_its_starting_margins),
        cmocka_unit_test(test_gradients_are_the_softmax_of_the_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
