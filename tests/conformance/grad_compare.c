/* grad_compare.c -- every gradient kind of one backend against the CPU
 * backend's, with its parameter, on inputs at the edges of its arithmetic:
 * the quantization scales and the quantized pair of every row, bit for
 * bit; and pairs written from the host (write_pairs) grown into the same
 * tree as on the CPU. */
#include "ops_compare.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpulayer.h"
#include "survival.h"

static uint64_t grad_rng;

static double unit(void)
{
    uint64_t z = (grad_rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

/* A label the objective accepts (train_setup.c's rules), edge cases often:
 * zero counts, labels of 1e6, gamma labels near zero, squared log labels
 * just above -1. */
static float edge_label(gpl_objective_kind kind, double u, double v)
{
    switch (kind) {
    case GPL_OBJ_POISSON:
    case GPL_OBJ_TWEEDIE: return u < 0.3 ? 0.0f : u < 0.4 ? 1e6f : (float)floor(20.0 * v);
    case GPL_OBJ_GAMMA: return u < 0.1 ? 1e6f : u < 0.2 ? 1e-30f : (float)(0.01 + 10.0 * v);
    case GPL_OBJ_SQUARED_LOG_ERROR:
        return u < 0.15   ? -0.999999f
               : u < 0.25 ? nextafterf(-1.0f, 0.0f)
               : u < 0.35 ? 1e6f
                          : (float)(10.0 * v - 0.5);
    case GPL_OBJ_LOGISTIC:
    case GPL_OBJ_HINGE: return v < 0.5 ? 0.0f : 1.0f;
    case GPL_OBJ_COX: /* times, negative when censored; many ties, some 0 */
        return u < 0.4 ? (float)floor(8.0 * v) - 4.0f : (float)(10.0 * (v - 0.5));
    default: return u < 0.1 ? (v < 0.5 ? -1e6f : 1e6f) : (float)(10.0 * (v - 0.5));
    }
}

/* A margin: moderate, with ties (margin == label: the quantile's and
 * absolute error's branch points; hinge's margin * sign == 1) and
 * squared log margins at or below -1 (clamped); or extreme, where exp()
 * of the kind's arguments overflows towards 1e308 or underflows to
 * subnormals and zero, and hessians reach their floors. */
static float edge_margin(gpl_objective_kind kind, int extreme, float label, double u, double v)
{
    if (!extreme) {
        const int ties = kind != GPL_OBJ_POISSON && kind != GPL_OBJ_GAMMA &&
                         kind != GPL_OBJ_TWEEDIE && kind != GPL_OBJ_SQUARED_LOG_ERROR &&
                         kind != GPL_OBJ_LOGISTIC;
        if (u < 0.1 && ties) return kind == GPL_OBJ_HINGE ? 2.0f * label - 1.0f : label;
        if (kind == GPL_OBJ_SQUARED_LOG_ERROR && u < 0.3) return (float)(-0.5 - v);
        return (float)(8.0 * (v - 0.5));
    }
    switch (kind) {
    case GPL_OBJ_POISSON: /* exp(margin + 0.7) up to exp(708.7) */
        return u < 0.1 ? 708.0f : u < 0.2 ? -744.5f : (float)(-760.0 + 1468.0 * v);
    case GPL_OBJ_GAMMA: /* label * exp(-margin): up to 1e6 * exp(650) */
        return u < 0.1 ? -650.0f : u < 0.2 ? 760.0f : (float)(-650.0 + 1410.0 * v);
    case GPL_OBJ_TWEEDIE: /* exp((2 - rho) margin), 1e6 * exp((1 - rho) margin) */
        return u < 0.1 ? 800.0f : u < 0.2 ? -800.0f : (float)(1600.0 * (v - 0.5));
    case GPL_OBJ_SQUARED_LOG_ERROR: return (float)(pow(10.0, 30.0 * v) - 2.0);
    case GPL_OBJ_LOGISTIC:
    case GPL_OBJ_HINGE: return (float)(1600.0 * (v - 0.5));
    case GPL_OBJ_COX: /* exp(30) a row: risk sums over 1e16 beside 1e-13 */
        return u < 0.1 ? 30.0f : u < 0.2 ? -30.0f : (float)(60.0 * (v - 0.5));
    default: return (float)(2e30 * (v - 0.5));
    }
}

/* The inputs of one comparison. rows <= 255: feature 0's bins are the
 * rows, so the root histogram holds every row's quantized pair. */
typedef struct grad_inputs {
    int64_t rows;
    int extreme, weighted;
    float subsample;
} grad_inputs;

static void make_inputs(const gradient_case *g, const grad_inputs *in, data *d)
{
    const int64_t N = in->rows;
    const int32_t F = 3, K = g->outputs;
    d->offset = malloc(sizeof(uint32_t) * 4);
    d->bins = malloc((size_t)N * F);
    d->label = malloc(sizeof(float) * (size_t)N);
    d->weight = in->weighted ? malloc(sizeof(float) * (size_t)N) : NULL;
    d->margins = malloc(sizeof(float) * (size_t)(N * K));
    d->categorical = NULL;
    assert_true(d->offset && d->bins && d->label && d->margins);
    const uint32_t offset[4] = {0, 256, 512, 516};
    memcpy(d->offset, offset, sizeof offset);
    grad_rng = (uint64_t)N * 31u + (uint64_t)g->objective * 7u + (uint64_t)in->extreme;
    for (int64_t r = 0; r < N; r++) {
        d->bins[r * F] = (uint8_t)(1 + r % 255);
        d->bins[r * F + 1] = (uint8_t)(1 + (r / 255) % 255);
        d->bins[r * F + 2] = (uint8_t)(r % 4); /* bin 0: missing */
        d->label[r] = edge_label(g->objective, unit(), unit());
        for (int32_t k = 0; k < K; k++)
            d->margins[r * K + k] = edge_margin(g->objective, in->extreme, d->label[r], unit(),
                                                unit());
        /* Every seventh weight zero. */
        if (d->weight) d->weight[r] = r % 7 == 3 ? 0.0f : (float)(0.25 + 2.0 * unit());
    }
    d->m = (gpl_binned_matrix){N, F, d->bins, d->offset, NULL, 1};
}

void compare_root(gpl_backend *cpu, gpl_backend *gpu, uint32_t len, const char *what,
                  int rows_count)
{
    gpl_grad_pair *x = malloc(sizeof *x * len), *y = malloc(sizeof *y * len);
    int32_t root = 0;
    OK(cpu->ops->begin_tree(cpu));
    OK(gpu->ops->begin_tree(gpu));
    OK(cpu->ops->build_histograms(cpu, &root, 1));
    OK(gpu->ops->build_histograms(gpu, &root, 1));
    OK(cpu->ops->read_histogram(cpu, 0, x));
    OK(gpu->ops->read_histogram(gpu, 0, y));
    int64_t hess = 0;
    for (uint32_t i = 0; i < len; i++) {
        if (x[i].grad != y[i].grad || x[i].hess != y[i].hess)
            fail_msg("%s: bin %u: cpu (%lld, %lld), %s (%lld, %lld)", what, i,
                     (long long)x[i].grad, (long long)x[i].hess, compare_accelerator,
                     (long long)y[i].grad, (long long)y[i].hess);
        hess += x[i].hess;
    }
    if (rows_count) assert_true(hess > 0); /* some row counted */
    free(x);
    free(y);
}

void run_gradient_case(const gradient_case *g)
{
    const grad_inputs inputs[3] = {{255, 0, 1, 1.0f}, {255, 1, 0, 1.0f}, {3001, 0, 1, 0.8f}};
    for (int i = 0; i < 3; i++) {
        data d;
        make_inputs(g, &inputs[i], &d);
        gpl_backend_config cfg = {2, 0, 3, g->outputs, 0};
        gpl_backend *gpu = create_or_skip(compare_accelerator, &cfg);
        gpl_backend *cpu = create_or_skip("cpu", &cfg);
        OK(cpu->ops->upload(cpu, &d.m, d.label, d.weight));
        OK(gpu->ops->upload(gpu, &d.m, d.label, d.weight));
        OK(cpu->ops->set_margins(cpu, d.margins));
        OK(gpu->ops->set_margins(gpu, d.margins));
        if (g->objective == GPL_OBJ_COX && !gpl_backend_has(gpu, GPL_BACKEND_CAP_SURVIVAL_ORDER)) {
            print_message("%s: the %s backend has no set_survival_order (refused by the "
                          "driver, docs/support-matrix.md)\n", g->name, compare_accelerator);
            gpl_backend_destroy(cpu);
            gpl_backend_destroy(gpu);
            free_data(&d);
            return;
        }
        if (g->objective == GPL_OBJ_COX) {
            uint32_t *order, *tie;
            OK(gpl_survival_order_build(d.label, inputs[i].rows, &order, &tie));
            const gpl_survival_order o = {order, tie};
            OK(cpu->ops->set_survival_order(cpu, &o));
            OK(gpu->ops->set_survival_order(gpu, &o));
            free(order);
            free(tie);
        }
        for (int32_t k = 0; k < g->outputs; k++) {
            gpl_gradient_request req = {g->objective, g->outputs, k, k, 42,
                                        inputs[i].subsample, g->param[k], {0}, 0, 0, 0, {0}};
            for (int32_t a = 0; a < g->outputs; a++) req.alphas[a] = (float)g->param[a];
            gpl_quant_scale sc, sg;
            OK(cpu->ops->compute_gradients(cpu, &req, &sc));
            OK(gpu->ops->compute_gradients(gpu, &req, &sg));
            char what[160];
            snprintf(what, sizeof what, "%s, %lld rows%s%s, output %d", g->name,
                     (long long)inputs[i].rows, inputs[i].extreme ? ", extreme" : "",
                     inputs[i].weighted ? ", weighted" : "", k);
            if (memcmp(&sc, &sg, sizeof sc) != 0)
                fail_msg("%s: scales cpu (%a, %a), %s (%a, %a)", what, sc.grad, sc.hess,
                         compare_accelerator, sg.grad, sg.hess);
            compare_root(cpu, gpu, d.offset[3], what, 1);
        }
        gpl_backend_destroy(cpu);
        gpl_backend_destroy(gpu);
        free_data(&d);
    }
    print_message("%s: every row's pair matches cpu\n", g->name);
}

/* Fields: name, objective, outputs, the param of each output. */
const gradient_case gradient_cases[] = {
    {"squared error", GPL_OBJ_SQUARED_ERROR, 1, {0.0}},
    {"logistic", GPL_OBJ_LOGISTIC, 1, {0.0}},
    {"absolute error", GPL_OBJ_ABSOLUTE_ERROR, 1, {0.0}},
    {"poisson, max_delta_step 0.7", GPL_OBJ_POISSON, 1, {0.7}},
    {"gamma", GPL_OBJ_GAMMA, 1, {0.0}},
    {"tweedie 1.2", GPL_OBJ_TWEEDIE, 1, {1.2}},
    {"tweedie 1.8", GPL_OBJ_TWEEDIE, 1, {1.8}},
    {"squared log error", GPL_OBJ_SQUARED_LOG_ERROR, 1, {0.0}},
    {"pseudo-huber, slope 0.5", GPL_OBJ_PSEUDO_HUBER, 1, {0.5}},
    {"pseudo-huber, slope 1000", GPL_OBJ_PSEUDO_HUBER, 1, {1000.0}},
    {"quantile 0.1", GPL_OBJ_QUANTILE, 1, {0.1}},
    {"quantile 0.9", GPL_OBJ_QUANTILE, 1, {0.9}},
    {"quantiles 0.1, 0.5, 0.9", GPL_OBJ_QUANTILE, 3, {0.1, 0.5, 0.9}},
    {"hinge", GPL_OBJ_HINGE, 1, {0.0}},
    {"expectile 0.3", GPL_OBJ_EXPECTILE, 1, {0.3}},
    {"expectiles 0.1, 0.5, 0.9", GPL_OBJ_EXPECTILE, 3, {0.1, 0.5, 0.9}},
    {"cox", GPL_OBJ_COX, 1, {0.0}},
};
const int num_gradient_cases = (int)(sizeof gradient_cases / sizeof gradient_cases[0]);

/* Quantized pairs as a custom objective's would come from the host:
 * within quantize.h's bound for `rows` rows, hessians >= 0, some zero. */
static void host_pairs(int64_t rows, uint64_t seed, gpl_grad_pair *out)
{
    int bits = 0;
    while (((int64_t)1 << bits) <= rows) bits++;
    const double top = ldexp(1.0, 30 - bits);
    grad_rng = seed;
    for (int64_t r = 0; r < rows; r++) {
        out[r].grad = (int64_t)(top * (2.0 * unit() - 1.0));
        out[r].hess = r % 5 == 0 ? 0 : (int64_t)(top * unit());
    }
}

void run_write_pairs_case(const problem *p)
{
    data d;
    make_data(p, &d);
    const int32_t M = 7;
    gpl_backend_config cfg = {2, 0, M, p->outputs, 0};
    gpl_backend *gpu = create_or_skip(compare_accelerator, &cfg);
    gpl_backend *cpu = create_or_skip("cpu", &cfg);
    if (!gpl_backend_has(gpu, GPL_BACKEND_CAP_WRITE_PAIRS)) fail_msg("%s backend has no write_pairs", compare_accelerator);
    OK(cpu->ops->upload(cpu, &d.m, d.label, d.weight));
    OK(gpu->ops->upload(gpu, &d.m, d.label, d.weight));
    OK(cpu->ops->set_margins(cpu, d.margins));
    OK(gpu->ops->set_margins(gpu, d.margins));
    const uint32_t len = d.offset[p->features];
    gpl_grad_pair *pairs = malloc(sizeof *pairs * (size_t)p->rows);
    gpl_grad_pair *x = malloc(sizeof *x * len), *y = malloc(sizeof *y * len);
    for (int round = 0; round < 2; round++) {
        /* The device's own gradients first: the host's must replace them. */
        gpl_gradient_request req = {p->objective, p->outputs, 0, round, 42, 1.0f, 0.0, {0}, 0, 0, 0, {0}};
        gpl_quant_scale sc;
        OK(gpu->ops->compute_gradients(gpu, &req, &sc));
        host_pairs(p->rows, 1000u + (uint64_t)round, pairs);
        OK(cpu->ops->write_pairs(cpu, GPL_ROW_GRADIENTS, pairs));
        OK(gpu->ops->write_pairs(gpu, GPL_ROW_GRADIENTS, pairs));
        int32_t root = 0;
        OK(cpu->ops->begin_tree(cpu));
        OK(gpu->ops->begin_tree(gpu));
        OK(cpu->ops->build_histograms(cpu, &root, 1));
        OK(gpu->ops->build_histograms(gpu, &root, 1));
        OK(cpu->ops->read_histogram(cpu, 0, x));
        OK(gpu->ops->read_histogram(gpu, 0, y));
        assert_memory_equal(x, y, sizeof *x * len);
        gpl_split_params sp = {1.0, 0.0, 0.0, {1.0, 1.0}, 0, 4, 64, 10.0, 10.0, 1.0, 0.0, NULL, NULL, 1.0, NULL, 0.0};
        gpl_split_record rc, rg;
        OK(cpu->ops->evaluate_splits(cpu, &root, 1, &sp, NULL, &rc));
        OK(gpu->ops->evaluate_splits(gpu, &root, 1, &sp, NULL, &rg));
        assert_int_equal(rc.feature, rg.feature);
        assert_int_equal(rc.bin, rg.bin);
        assert_memory_equal(&rc.gain, &rg.gain, sizeof rc.gain);
        assert_memory_equal(&rc.left, &rg.left, sizeof rc.left);
        assert_true(rc.feature >= 0);
        gpl_split_apply ap = {0, rc.feature, rc.bin, rc.default_left, 1, 2, rc.categorical, {0}, NULL};
        int64_t kc[2], kg[2];
        OK(cpu->ops->partition_rows(cpu, &ap, 1, kc));
        OK(gpu->ops->partition_rows(gpu, &ap, 1, kg));
        assert_memory_equal(kc, kg, sizeof kc);
        /* A node's histogram from the host, then the sibling by
         * subtraction from it. */
        for (uint32_t i = 0; i < len; i++) x[i] = (gpl_grad_pair){x[i].grad / 3, x[i].hess / 3};
        OK(cpu->ops->write_pairs(cpu, 1, x));
        OK(gpu->ops->write_pairs(gpu, 1, x));
        OK(gpu->ops->read_histogram(gpu, 1, y));
        assert_memory_equal(x, y, sizeof *x * len);
        gpl_hist_subtract sub = {0, 1, 2};
        OK(cpu->ops->subtract_histograms(cpu, &sub, 1));
        OK(gpu->ops->subtract_histograms(gpu, &sub, 1));
        OK(cpu->ops->read_histogram(cpu, 2, x));
        OK(gpu->ops->read_histogram(gpu, 2, y));
        assert_memory_equal(x, y, sizeof *x * len);
        float leaf[7] = {0.0f, 0.25f, -0.5f, 0.0f, 0.0f, 0.0f, 0.0f};
        OK(cpu->ops->update_margins(cpu, 0, leaf));
        OK(gpu->ops->update_margins(gpu, 0, leaf));
    }
    /* A node id outside the tree is refused, not written. */
    assert_int_not_equal(gpu->ops->write_pairs(gpu, M + 3, x), GPULAYER_OK);
    print_message("%s: host pairs give the cpu's histograms and split\n", p->name);
    free(pairs);
    free(x);
    free(y);
    gpl_backend_destroy(cpu);
    gpl_backend_destroy(gpu);
    free_data(&d);
}

/* The cmocka tests every GPU backend's ops suite runs. */
void test_gradient_kinds(void **state)
{
    (void)state;
    for (int i = 0; i < num_gradient_cases; i++) run_gradient_case(&gradient_cases[i]);
}

/* Gradient pairs and a histogram from the host (a custom objective's,
 * data-parallel training's): 3001 rows, not a multiple of a workgroup. */
void test_write_pairs(void **state)
{
    (void)state;
    const problem p = {"write_pairs", 3001, 6, 64, BINS_MISSING, LABELS_BINARY,
                       GPL_OBJ_LOGISTIC, 1, 1, 1.0f, 2, 0.0, 0.0, 0};
    run_write_pairs_case(&p);
}
