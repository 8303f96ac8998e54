/* test_split.c -- the CPU backend's histograms, split finding and partition
 * against brute-force references on small random data, with byte codes and
 * with 16-bit ones (features of more than 256 bins). */
#include "test_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "binning.h"
#include "split_math.h"

enum { ROWS = 500, FEATURES = 4, MAX_HIST = 4 * 1031 };
/* Value bins a feature, with byte codes and with 16-bit ones. */
static const uint32_t narrow_bins[FEATURES] = {2, 5, 17, 9};
static const uint32_t wide_bins[FEATURES] = {300, 5, 700, 1030};

typedef struct fixture {
    int w; /* bytes a code */
    const uint32_t *nbins;
    uint8_t bins[ROWS * FEATURES * 2];
    uint32_t offset[FEATURES + 1];
    float label[ROWS];
    float margins[ROWS];
} fixture;

static uint32_t bin_at(const fixture *fx, int r, int f)
{
    return gpl_bin_code(fx->bins, fx->w, (int64_t)r * FEATURES + f);
}

static void make_fixture(fixture *fx, unsigned seed, int w)
{
    srand(seed);
    fx->w = w;
    fx->nbins = w == 1 ? narrow_bins : wide_bins;
    fx->offset[0] = 0;
    for (int f = 0; f < FEATURES; f++) fx->offset[f + 1] = fx->offset[f] + fx->nbins[f] + 1;
    for (int r = 0; r < ROWS; r++) {
        for (int f = 0; f < FEATURES; f++) {
            int missing = rand() % 10 == 0;
            gpl_bin_code_set(fx->bins, w, (int64_t)r * FEATURES + f,
                             missing ? 0 : 1 + (uint32_t)rand() % fx->nbins[f]);
        }
        const uint32_t b = bin_at(fx, r, 2);
        fx->label[r] = (float)(b > (w == 1 ? 8 : 400) ? 3.0 : -1.0) +
                       (float)(rand() % 100) / 100.0f;
        fx->margins[r] = 0.5f;
    }
}

static gpl_backend *backend_for(fixture *fx, int nthread, gpl_quant_scale *scale)
{
    gpl_backend_config cfg = {nthread, 0, 15, 1, 0};
    gpl_backend *be;
    assert_int_equal(gpl_backend_create("cpu", &cfg, &be), GPULAYER_OK);
    gpl_binned_matrix m = {ROWS, FEATURES, fx->bins, fx->offset, NULL, fx->w};
    assert_int_equal(be->ops->upload(be, &m, fx->label, NULL), GPULAYER_OK);
    assert_int_equal(be->ops->set_margins(be, fx->margins), GPULAYER_OK);
    gpl_gradient_request req = {GPL_OBJ_SQUARED_ERROR, 1, 0, 0, 0, 1.0f, 0.0, {0}, 0, 0, 0, {0}};
    assert_int_equal(be->ops->compute_gradients(be, &req, scale), GPULAYER_OK);
    assert_int_equal(be->ops->begin_tree(be), GPULAYER_OK);
    int32_t root = 0;
    assert_int_equal(be->ops->build_histograms(be, &root, 1), GPULAYER_OK);
    return be;
}

static void test_histogram_matches_row_sums(void **state)
{
    (void)state;
    for (int w = 1; w <= 2; w++) {
        fixture fx;
        make_fixture(&fx, 1, w);
        gpl_quant_scale scale;
        gpl_backend *be = backend_for(&fx, 2, &scale);
        static gpl_grad_pair hist[MAX_HIST], expect[MAX_HIST];
        memset(expect, 0, sizeof expect);
        assert_int_equal(be->ops->read_histogram(be, 0, hist), GPULAYER_OK);
        for (int r = 0; r < ROWS; r++) {
            double g = (double)fx.margins[r] - (double)fx.label[r];
            int64_t qg = llrint(g * scale.grad), qh = llrint(1.0 * scale.hess);
            for (int f = 0; f < FEATURES; f++) {
                gpl_grad_pair *e = &expect[fx.offset[f] + bin_at(&fx, r, f)];
                e->grad += qg;
                e->hess += qh;
            }
        }
        assert_memory_equal(hist, expect, sizeof(gpl_grad_pair) * fx.offset[FEATURES]);
        gpl_backend_destroy(be);
    }
}

typedef struct brute_best {
    double gain;
    int feature, bin, dl;
} brute_best;

/* Every (feature, bin, direction) tried by hand: the best split whose
 * children hold at least min_rows rows each (min_data_in_leaf; the rows'
 * hessians are equal, so counting them is counting by hessian). */
static brute_best brute_force(const fixture *fx, gpl_quant_scale scale, const int64_t *qg,
                              int64_t qh, int64_t G, int64_t H, int min_rows)
{
    double parent = gpl_node_score((double)G / scale.grad, (double)H / scale.hess, 1.0, 0.1);
    brute_best best = {0.0, -1, 0, 0};
    for (int f = 0; f < FEATURES; f++)
        for (uint32_t b = 1; b <= fx->nbins[f]; b++)
            for (int dl = 0; dl <= (b < fx->nbins[f] ? 1 : 0); dl++) {
                int64_t lg = 0, lh = 0;
                int count = 0;
                for (int r = 0; r < ROWS; r++) {
                    int v = (int)bin_at(fx, r, f);
                    if (v == 0 ? dl : v <= (int)b) {
                        lg += qg[r];
                        lh += qh;
                        count++;
                    }
                }
                double hl = (double)lh / scale.hess, hr = (double)(H - lh) / scale.hess;
                if (lh <= 0 || H - lh <= 0 || hl < 1.0 || hr < 1.0) continue;
                if (count < min_rows || ROWS - count < min_rows) continue;
                double gain = gpl_node_score((double)lg / scale.grad, hl, 1.0, 0.1) +
                              gpl_node_score((double)(G - lg) / scale.grad, hr, 1.0, 0.1) -
                              parent;
                if (gpl_split_better(gain, f, (int)b, dl, best.gain, best.feature, best.bin,
                                     best.dl))
                    best = (brute_best){gain, f, (int)b, dl};
            }
    return best;
}

/* The backend must find the brute-force best split (ties to the smallest
 * key), without and with min_data_in_leaf. */
static void check_split_matches_brute_force(int w)
{
    int limited = 0; /* searches whose answer min_data_in_leaf changed */
    int high = 0;    /* best splits above bin 255 */
    for (unsigned seed = 1; seed <= 5; seed++) {
        fixture fx;
        make_fixture(&fx, seed, w);
        gpl_quant_scale scale;
        gpl_backend *be = backend_for(&fx, 1, &scale);
        int64_t G = 0, H = 0, qg[ROWS], qh = llrint(scale.hess);
        for (int r = 0; r < ROWS; r++) {
            qg[r] = llrint(((double)fx.margins[r] - (double)fx.label[r]) * scale.grad);
            G += qg[r];
            H += qh;
        }
        const uint32_t rows = ROWS;
        gpl_split_params p = {1.0, 0.1, 1.0, scale, 0, 4, 64, 10.0, 10.0, 1.0, 0.0, NULL, NULL, 1.0, &rows, 0.0};
        gpl_split_record rec;
        int32_t root = 0;
        /* 120 and 230 rows a child rule out the best splits of most seeds. */
        for (int min_rows = 120; min_rows <= 230; min_rows += 110) {
            p.min_data_in_leaf = min_rows;
            assert_int_equal(be->ops->evaluate_splits(be, &root, 1, &p, NULL, &rec), GPULAYER_OK);
            const brute_best want = brute_force(&fx, scale, qg, qh, G, H, min_rows);
            assert_int_equal(rec.feature, want.feature);
            assert_int_equal(rec.bin, want.bin);
            assert_int_equal(rec.default_left, want.dl);
            const brute_best free = brute_force(&fx, scale, qg, qh, G, H, 0);
            limited += want.feature != free.feature || want.bin != free.bin;
        }
        p.min_data_in_leaf = 0.0;
        assert_int_equal(be->ops->evaluate_splits(be, &root, 1, &p, NULL, &rec), GPULAYER_OK);
        const brute_best want = brute_force(&fx, scale, qg, qh, G, H, 0);
        const int bf = want.feature, bb = want.bin, bd = want.dl;
        const double best = want.gain;
        assert_int_equal(rec.feature, bf);
        assert_int_equal(rec.bin, bb);
        assert_int_equal(rec.default_left, bd);
        assert_true(rec.gain == best);
        high += rec.bin > 255;
        assert_int_equal(rec.total.grad, G);
        assert_int_equal(rec.left.grad + rec.right.grad, G);

        /* Partition: child counts and subtraction give the right sums. */
        gpl_split_apply a = {0, rec.feature, rec.bin, rec.default_left, 1, 2, 0, {0}, NULL};
        int64_t counts[2];
        assert_int_equal(be->ops->partition_rows(be, &a, 1, counts), GPULAYER_OK);
        assert_int_equal(counts[0] + counts[1], ROWS);
        int32_t left = 1;
        assert_int_equal(be->ops->build_histograms(be, &left, 1), GPULAYER_OK);
        gpl_hist_subtract sub = {0, 1, 2};
        assert_int_equal(be->ops->subtract_histograms(be, &sub, 1), GPULAYER_OK);
        int32_t kids[2] = {1, 2};
        gpl_split_record kr[2];
        p.node_rows = NULL; /* one node's rows above */
        assert_int_equal(be->ops->evaluate_splits(be, kids, 2, &p, NULL, kr), GPULAYER_OK);
        assert_int_equal(kr[0].total.grad, rec.left.grad);
        assert_int_equal(kr[1].total.grad, rec.right.grad);
        assert_int_equal(kr[1].total.hess, rec.right.hess);
        gpl_backend_destroy(be);
    }
    assert_true(limited > 0);
    assert_true(w == 1 ? high == 0 : high > 0);
}

static void test_split_matches_brute_force(void **state)
{
    (void)state;
    check_split_matches_brute_force(1);
}

/* The same with 16-bit codes: the best split lies above bin 255. */
static void test_wide_split_matches_brute_force(void **state)
{
    (void)state;
    check_split_matches_brute_force(2);
}

/* Integer histograms: one thread and two give the same bits. */
static void test_thread_count_does_not_change_histograms(void **state)
{
    (void)state;
    static fixture fx;
    make_fixture(&fx, 7, 1);
    gpl_quant_scale s1, s2;
    gpl_backend *a = backend_for(&fx, 1, &s1), *b = backend_for(&fx, 2, &s2);
    gpl_grad_pair ha[64], hb[64];
    a->ops->read_histogram(a, 0, ha);
    b->ops->read_histogram(b, 0, hb);
    assert_memory_equal(ha, hb, sizeof(gpl_grad_pair) * fx.offset[FEATURES]);
    gpl_backend_destroy(a);
    gpl_backend_destroy(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_histogram_matches_row_sums),
        cmocka_unit_test(test_split_matches_brute_force),
        cmocka_unit_test(test_wide_split_matches_brute_force),
        cmocka_unit_test(test_thread_count_does_not_change_histograms),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
