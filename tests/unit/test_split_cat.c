/* test_split_cat.c -- the CPU backend's splits by sets of categories
 * against every subset tried by hand, and the partition they make. */
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "split_math.h"

enum { ROWS = 600, MAX_CATS = 10 };

typedef struct fixture {
    int32_t cats;  /* value bins of the one feature */
    int missing;   /* some rows have no category    */
    uint8_t bins[ROWS];
    uint32_t offset[2];
    uint8_t categorical[1];
    float label[ROWS];
    float margins[ROWS];
    gpl_quant_scale scale;
    gpl_grad_pair hist[MAX_CATS + 1];
} fixture;

/* Categories of skewed frequency, each with its own mean label. */
static gpl_backend *make_backend(fixture *fx, unsigned seed, int32_t cats, int missing)
{
    srand(seed);
    fx->cats = cats;
    fx->missing = missing;
    fx->offset[0] = 0;
    fx->offset[1] = (uint32_t)cats + 1;
    fx->categorical[0] = 1;
    double mean[MAX_CATS + 1];
    for (int c = 0; c <= cats; c++) mean[c] = (double)(rand() % 200) / 10.0 - 10.0;
    for (int r = 0; r < ROWS; r++) {
        int b = 1 + (rand() % cats) * (rand() % cats) / cats; /* small bins more often */
        if (missing && rand() % 8 == 0) b = 0;
        fx->bins[r] = (uint8_t)b;
        fx->label[r] = (float)(mean[b] + (double)(rand() % 100) / 50.0);
        fx->margins[r] = 0.0f;
    }
    gpl_backend_config cfg = {2, 0, 3, 1, 0};
    gpl_backend *be;
    assert_int_equal(gpl_backend_create("cpu", &cfg, &be), GPULAYER_OK);
    gpl_binned_matrix m = {ROWS, 1, fx->bins, fx->offset, fx->categorical, 1};
    assert_int_equal(be->ops->upload(be, &m, fx->label, NULL), GPULAYER_OK);
    assert_int_equal(be->ops->set_margins(be, fx->margins), GPULAYER_OK);
    gpl_gradient_request req = {GPL_OBJ_SQUARED_ERROR, 1, 0, 0, 0, 1.0f, 0.0, {0}, 0, 0, 0, {0}};
    assert_int_equal(be->ops->compute_gradients(be, &req, &fx->scale), GPULAYER_OK);
    assert_int_equal(be->ops->begin_tree(be), GPULAYER_OK);
    int32_t root = 0;
    assert_int_equal(be->ops->build_histograms(be, &root, 1), GPULAYER_OK);
    assert_int_equal(be->ops->read_histogram(be, 0, fx->hist), GPULAYER_OK);
    return be;
}

static gpl_split_params params(const fixture *fx, int32_t onehot, int32_t threshold)
{
    gpl_split_params p = {0.0, 0.0, 0.0, fx->scale, 0, onehot, threshold, 0.0, 0.0, 0.0, 0.0, NULL, NULL, 1.0, NULL, 0.0};
    return p;
}

/* The gain of sending the bins in mask (bit b: bin b) left, and missing
 * values left when dl; -inf when a child would be empty. */
static double subset_gain(const fixture *fx, const gpl_split_params *p, unsigned mask, int dl)
{
    gpl_grad_pair l = {0, 0}, t = {0, 0};
    for (int b = 0; b <= fx->cats; b++) {
        t.grad += fx->hist[b].grad;
        t.hess += fx->hist[b].hess;
        if (b == 0 ? dl != 0 : ((mask >> b) & 1u) != 0) {
            l.grad += fx->hist[b].grad;
            l.hess += fx->hist[b].hess;
        }
    }
    if (l.hess <= 0 || t.hess - l.hess <= 0) return -INFINITY;
    const double sg = p->scale.grad, sh = p->scale.hess;
    return gpl_node_score((double)l.grad / sg, (double)l.hess / sh, p->lambda, p->alpha) +
           gpl_node_score((double)(t.grad - l.grad) / sg, (double)(t.hess - l.hess) / sh,
                          p->lambda, p->alpha) -
           gpl_node_score((double)t.grad / sg, (double)t.hess / sh, p->lambda, p->alpha);
}

static unsigned set_mask(const uint32_t *set)
{
    unsigned mask = 0;
    for (unsigned b = 1; b <= MAX_CATS; b++)
        if (gpl_cat_set_has(set, b)) mask |= 1u << b;
    for (unsigned b = MAX_CATS + 1; b < 32 * GPL_CAT_WORDS; b++)
        assert_false(gpl_cat_set_has(set, b));
    return mask;
}

/* The record's set, direction and sums agree with each other. */
static void assert_record_consistent(const fixture *fx, const gpl_split_params *p,
                                     const gpl_split_record *rec)
{
    assert_int_equal(rec->feature, 0);
    assert_int_equal(rec->categorical, 1);
    const unsigned mask = set_mask(rec->left_set);
    assert_false(mask & 1u);
    gpl_grad_pair l = {0, 0};
    for (int b = 0; b <= fx->cats; b++)
        if (b == 0 ? rec->default_left != 0 : ((mask >> b) & 1u) != 0) {
            l.grad += fx->hist[b].grad;
            l.hess += fx->hist[b].hess;
        }
    assert_true(l.grad == rec->left.grad && l.hess == rec->left.hess);
    assert_true(subset_gain(fx, p, mask, rec->default_left) == rec->gain);
}

/* Without smoothing or limits, the best prefix of the categories ordered
 * by gradient / hessian is the best of all subsets (Fisher's result for
 * the squared-error score). */
static void test_partition_is_the_best_subset(void **state)
{
    (void)state;
    for (unsigned seed = 1; seed <= 30; seed++) {
        fixture fx;
        const int32_t cats = 5 + (int32_t)(seed % 6);
        gpl_backend *be = make_backend(&fx, seed, cats, seed % 2);
        const gpl_split_params p = params(&fx, 0, 255);
        gpl_split_record rec;
        int32_t root = 0;
        assert_int_equal(be->ops->evaluate_splits(be, &root, 1, &p, NULL, &rec), GPULAYER_OK);
        double best = -INFINITY;
        for (unsigned mask = 2; mask < (2u << cats); mask += 2)
            for (int dl = 0; dl <= fx.missing; dl++) {
                double g = subset_gain(&fx, &p, mask, dl);
                if (g > best) best = g;
            }
        assert_record_consistent(&fx, &p, &rec);
        assert_true(fabs(rec.gain - best) <= 1e-9 * fabs(best));
        gpl_backend_destroy(be);
    }
}

/* At most max_cat_to_onehot categories: one category against the rest. */
static void test_onehot_takes_the_best_single_category(void **state)
{
    (void)state;
    for (unsigned seed = 1; seed <= 20; seed++) {
        fixture fx;
        gpl_backend *be = make_backend(&fx, seed, 4, 1);
        const gpl_split_params p = params(&fx, 4, 255);
        gpl_split_record rec;
        int32_t root = 0;
        assert_int_equal(be->ops->evaluate_splits(be, &root, 1, &p, NULL, &rec), GPULAYER_OK);
        double best = -INFINITY;
        for (int b = 0; b <= 4; b++) /* b = 0: the empty set */
            for (int dl = 0; dl <= 1; dl++) {
                double g = subset_gain(&fx, &p, (1u << b) & ~1u, dl);
                if (g > best) best = g;
            }
        assert_record_consistent(&fx, &p, &rec);
        const unsigned mask = set_mask(rec.left_set);
        assert_true(!(mask & (mask - 1))); /* one category, or none: missing values alone */
        assert_true(rec.gain == best);
        gpl_backend_destroy(be);
    }
}

/* max_cat_threshold bounds the left set; min_child_weight keeps small
 * categories out of it. */
static void test_limits_bound_the_left_set(void **state)
{
    (void)state;
    for (unsigned seed = 1; seed <= 20; seed++) {
        fixture fx;
        gpl_backend *be = make_backend(&fx, seed, 10, 0);
        gpl_split_params p = params(&fx, 0, 2);
        gpl_split_record rec;
        int32_t root = 0;
        assert_int_equal(be->ops->evaluate_splits(be, &root, 1, &p, NULL, &rec), GPULAYER_OK);
        assert_record_consistent(&fx, &p, &rec);
        assert_true(__builtin_popcount(set_mask(rec.left_set)) <= 2);
        /* The largest category's hessian as the bar: only it may go left. */
        double top = 0.0;
        int top_bin = 0;
        for (int b = 1; b <= 10; b++)
            if ((double)fx.hist[b].hess / fx.scale.hess > top) {
                top = (double)fx.hist[b].hess / fx.scale.hess;
                top_bin = b;
            }
        p = params(&fx, 0, 255);
        p.min_child_weight = top;
        assert_int_equal(be->ops->evaluate_splits(be, &root, 1, &p, NULL, &rec), GPULAYER_OK);
        if (rec.feature >= 0) assert_int_equal(set_mask(rec.left_set), 1u << top_bin);
        gpl_backend_destroy(be);
    }
}

/* The rows of bin b (squared error, no weights: a row's hessian is 1, so
 * rows counted by hessian are rows). */
static int32_t bin_rows(const fixture *fx, int b)
{
    int32_t n = 0;
    for (int r = 0; r < ROWS; r++) n += fx->bins[r] == b;
    return n;
}

/* With the node's rows given, min_data_per_group groups the category
 * order as LightGBM does: the best record is the best of the k a
 * direction tries, walked here in whole rows; more rows a group than the
 * node has leaves no partition split. */
static void test_groups_space_the_candidates(void **state)
{
    (void)state;
    for (unsigned seed = 1; seed <= 30; seed++) {
        fixture fx;
        const int32_t cats = 6 + (int32_t)(seed % 5);
        gpl_backend *be = make_backend(&fx, seed, cats, 0);
        gpl_split_params p = params(&fx, 0, 255);
        const uint32_t rows = ROWS;
        p.node_rows = &rows;
        p.min_data_per_group = 40.0 + 10.0 * (seed % 7);
        gpl_split_record rec;
        int32_t root = 0;
        assert_int_equal(be->ops->evaluate_splits(be, &root, 1, &p, NULL, &rec), GPULAYER_OK);
        /* The categories in order: gradient / hessian, ties by bin. */
        int order[MAX_CATS];
        int n = 0;
        for (int b = 1; b <= cats; b++)
            if (fx.hist[b].hess > 0) order[n++] = b;
        for (int i = 1; i < n; i++)
            for (int j = i; j > 0; j--) {
                const gpl_grad_pair x = fx.hist[order[j - 1]], y = fx.hist[order[j]];
                const double rx = (double)x.grad / (double)x.hess;
                const double ry = (double)y.grad / (double)y.hess;
                if (rx < ry || (rx == ry && order[j - 1] < order[j])) break;
                const int t = order[j];
                order[j] = order[j - 1];
                order[j - 1] = t;
            }
        double best = -INFINITY;
        int tried = 0;
        for (int dir = 0; dir < 2; dir++) {
            int32_t left = 0, added = 0;
            unsigned mask = 0;
            for (int k = 1; k <= n; k++) {
                const int b = order[dir ? n - k : k - 1];
                left += bin_rows(&fx, b);
                added += bin_rows(&fx, b);
                mask |= 1u << b;
                if (ROWS - left < p.min_data_per_group) break;
                if (added < p.min_data_per_group) continue;
                added = 0;
                tried++;
                const double g = subset_gain(&fx, &p, mask, 0);
                if (g > best) best = g;
            }
        }
        if (tried == 0 || !(best > 0.0)) {
            assert_int_equal(rec.feature, -1);
        } else {
            assert_record_consistent(&fx, &p, &rec);
            assert_true(rec.gain == best);
        }
        p.min_data_per_group = ROWS + 1;
        assert_int_equal(be->ops->evaluate_splits(be, &root, 1, &p, NULL, &rec), GPULAYER_OK);
        assert_int_equal(rec.feature, -1);
        gpl_backend_destroy(be);
    }
}

/* The partition sends exactly the rows of the set's categories (and the
 * missing rows, by default_left) to the left child. */
static void test_partition_follows_the_set(void **state)
{
    (void)state;
    fixture fx;
    gpl_backend *be = make_backend(&fx, 7, 9, 1);
    const gpl_split_params p = params(&fx, 0, 255);
    gpl_split_record rec;
    int32_t root = 0;
    assert_int_equal(be->ops->evaluate_splits(be, &root, 1, &p, NULL, &rec), GPULAYER_OK);
    gpl_split_apply a = {0, 0, rec.bin, rec.default_left, 1, 2, 1, {0}, NULL};
    memcpy(a.left_set, rec.left_set, sizeof a.left_set);
    int64_t counts[2];
    assert_int_equal(be->ops->partition_rows(be, &a, 1, counts), GPULAYER_OK);
    int64_t left = 0;
    for (int r = 0; r < ROWS; r++) left += gpl_split_goes_left(&a, fx.bins[r]);
    assert_int_equal(counts[0], left);
    assert_int_equal(counts[1], ROWS - left);
    int32_t child = 1;
    gpl_grad_pair h[MAX_CATS + 1];
    assert_int_equal(be->ops->build_histograms(be, &child, 1), GPULAYER_OK);
    assert_int_equal(be->ops->read_histogram(be, 1, h), GPULAYER_OK);
    for (int b = 0; b <= fx.cats; b++) {
        const int goes_left = gpl_split_goes_left(&a, (uint32_t)b);
        assert_true(h[b].hess == (goes_left ? fx.hist[b].hess : 0));
    }
    gpl_backend_destroy(be);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_partition_is_the_best_subset),
        cmocka_unit_test(test_onehot_takes_the_best_single_category),
        cmocka_unit_test(test_limits_bound_the_left_set),
        cmocka_unit_test(test_groups_space_the_candidates),
        cmocka_unit_test(test_partition_follows_the_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
