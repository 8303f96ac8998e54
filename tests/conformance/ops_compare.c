/* ops_compare.c -- one backend's operations against the CPU backend's:
 * scales, histograms (bit for bit), split records, child row counts and
 * margins, level by level, on generated data. */
#include "ops_compare.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "booster.h"
#include "gpulayer.h"
#include "split_math.h"

const char *compare_accelerator = "cpu";

static uint64_t rng_state;

static uint64_t next_random(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double uniform(void) { return (double)(next_random() >> 11) * (1.0 / 9007199254740992.0); }

static void make_data_cat(const problem *p, int32_t categories, data *d)
{
    const int64_t N = p->rows;
    const int32_t F = p->features;
    rng_state = (uint64_t)N * 7919u + (uint64_t)F;
    d->offset = malloc(sizeof(uint32_t) * ((size_t)F + 1));
    d->bins = malloc((size_t)N * (size_t)F);
    d->label = malloc(sizeof(float) * (size_t)N);
    d->weight = p->weighted ? malloc(sizeof(float) * (size_t)N) : NULL;
    d->margins = malloc(sizeof(float) * (size_t)N * (size_t)p->outputs);
    assert_non_null(d->offset);
    assert_non_null(d->bins);
    d->categorical = NULL;
    if (categories > 0) {
        d->categorical = malloc((size_t)F);
        assert_non_null(d->categorical);
        for (int32_t f = 0; f < F; f++) d->categorical[f] = f % 2 == 0;
    }
    d->offset[0] = 0;
    for (int32_t f = 0; f < F; f++) {
        /* The first feature keeps the full width; the others vary. */
        int32_t nb = f == 0 ? p->max_bins : 2 + (int32_t)(next_random() % (uint64_t)(p->max_bins - 1));
        if (d->categorical && d->categorical[f]) nb = categories + 1;
        d->offset[f + 1] = d->offset[f] + (uint32_t)nb;
    }
    for (int64_t r = 0; r < N; r++)
        for (int32_t f = 0; f < F; f++) {
            uint32_t nb = d->offset[f + 1] - d->offset[f];
            uint8_t b;
            if (d->categorical && d->categorical[f]) {
                /* Low codes common, high ones rare (some absent). */
                const double u = uniform();
                const double missing = p->bins == BINS_MISSING ? 0.3 : 0.05;
                b = uniform() < missing ? 0 : (uint8_t)(1 + (int)((nb - 1) * u * u * u));
            } else if (p->bins == BINS_SKEWED) b = (uint8_t)(nb > 3 ? 3 : nb - 1);
            else if (p->bins == BINS_MISSING) b = uniform() < 0.7 ? 0 : (uint8_t)(1 + next_random() % (nb - 1));
            else b = uniform() < 0.05 ? 0 : (uint8_t)(1 + next_random() % (nb - 1));
            d->bins[r * F + f] = b;
        }
    for (int64_t r = 0; r < N; r++) {
        const uint8_t *row = d->bins + r * F;
        /* Labels depend on the bins, so that splits have signal. */
        double z = (double)row[0] / p->max_bins - 0.5 + (F > 1 ? (row[1] & 1) * 0.3 : 0.0) +
                   0.3 * (uniform() - 0.5);
        if (d->categorical) z += (double)((row[0] * 2654435761u >> 7) % 11) / 10.0 - 0.5;
        switch (p->labels) {
        case LABELS_HUGE: d->label[r] = (float)(z * 1e30 * (r % 3 == 0 ? 1.0 : 1e-25)); break;
        case LABELS_CLASS: d->label[r] = (float)(next_random() % (uint64_t)p->outputs); break;
        case LABELS_TIES: {
            /* Row 0's 0.75 sets the scale to 2^(31 - row_bits) (quantize.h);
             * the others are odd multiples of half its step, below 1/4. */
            int row_bits = 0;
            while (((int64_t)1 << row_bits) <= N) row_bits++;
            const uint64_t odd = 2 * (next_random() % ((uint64_t)1 << (29 - row_bits))) + 1;
            const double v = ldexp((double)odd, row_bits - 32);
            d->label[r] = r == 0 ? 0.75f : (float)(z > 0 ? v : -v);
            break;
        }
        default: d->label[r] = z > 0 ? 1.0f : 0.0f; break;
        }
        if (d->weight) d->weight[r] = (float)(0.25 + 2.0 * uniform());
        for (int k = 0; k < p->outputs; k++)
            d->margins[r * p->outputs + k] = (float)(uniform() - 0.5);
        if (p->labels == LABELS_TIES)
            for (int k = 0; k < p->outputs; k++) d->margins[r * p->outputs + k] = 0.0f;
        if (p->labels == LABELS_SATURATED)
            for (int k = 0; k < p->outputs; k++)
                d->margins[r * p->outputs + k] = (float)(80.0 * (uniform() - 0.5));
    }
    d->m = (gpl_binned_matrix){N, F, d->bins, d->offset, d->categorical, 1};
}

void make_data(const problem *p, data *d)
{
    make_data_cat(p, 0, d);
}

void free_data(data *d)
{
    free(d->bins);
    free(d->offset);
    free(d->label);
    free(d->weight);
    free(d->margins);
    free(d->categorical);
}

/* ------------------------------------------------------------ backends */

gpl_backend *create_or_skip(const char *name, const gpl_backend_config *cfg)
{
    gpl_backend *be = NULL;
    if (gpl_backend_create(name, cfg, &be) != GPULAYER_OK) {
        print_message("skipping: the %s backend is not usable here: %s\n", name,
                      gpulayer_last_error());
        skip();
    }
    return be;
}

typedef struct pair {
    gpl_backend *cpu, *gpu;
    uint32_t hist_len;
    const problem *p;
    int64_t cat_splits; /* categorical splits the CPU chose */
    /* Monotone problems: the constraints (NULL: none), and the splits the
     * CPU chose on constrained features. */
    const int8_t *monotone;
    int64_t monotone_splits;
} pair;

/* The weight bounds of a monotone problem's round: infinite, a narrow
 * root interval, or infinite with max_delta_step (grow.c's narrowing
 * below the root in each). */
static void round_bounds(int round, double *root, double *max_delta_step)
{
    root[0] = round == 1 ? -0.3 : -HUGE_VAL;
    root[1] = round == 1 ? 0.02 : HUGE_VAL;
    *max_delta_step = round == 2 ? 0.05 : 0.0;
}

/* The children's bounds after record r (grow.c's child_bounds). */
static void narrow_bounds(const gpl_split_params *sp, const int8_t *monotone,
                          const gpl_split_record *r, const double *own, double *left,
                          double *right)
{
    const int c = monotone && !r->categorical ? monotone[r->feature] : 0;
    const double wl = gpl_bounded_leaf_weight(
        (double)r->left.grad / sp->scale.grad, (double)r->left.hess / sp->scale.hess,
        sp->lambda, sp->alpha, sp->min_child_weight, sp->max_delta_step, own[0], own[1]);
    const double wr = gpl_bounded_leaf_weight(
        (double)r->right.grad / sp->scale.grad, (double)r->right.hess / sp->scale.hess,
        sp->lambda, sp->alpha, sp->min_child_weight, sp->max_delta_step, own[0], own[1]);
    gpl_monotone_child_bounds(c, wl, wr, own, left, right);
}

static void compare_histogram(const pair *b, int32_t node)
{
    gpl_grad_pair *x = malloc(sizeof(gpl_grad_pair) * b->hist_len);
    gpl_grad_pair *y = malloc(sizeof(gpl_grad_pair) * b->hist_len);
    OK(b->cpu->ops->read_histogram(b->cpu, node, x));
    OK(b->gpu->ops->read_histogram(b->gpu, node, y));
    if (memcmp(x, y, sizeof(gpl_grad_pair) * b->hist_len) != 0) {
        for (uint32_t i = 0; i < b->hist_len; i++)
            if (x[i].grad != y[i].grad || x[i].hess != y[i].hess)
                fail_msg("%s: histogram of node %d differs at bin %u: cpu (%lld, %lld), "
                         "%s (%lld, %lld)", b->p->name, node, i, (long long)x[i].grad,
                         (long long)x[i].hess, compare_accelerator, (long long)y[i].grad, (long long)y[i].hess);
    }
    free(x);
    free(y);
}

/* Field by field: the struct's padding is not part of a record. */
static int records_equal(const gpl_split_record *x, const gpl_split_record *y)
{
    return x->node == y->node && x->feature == y->feature && x->bin == y->bin &&
           x->default_left == y->default_left && !memcmp(&x->gain, &y->gain, sizeof x->gain) &&
           !memcmp(&x->left, &y->left, sizeof x->left) &&
           !memcmp(&x->right, &y->right, sizeof x->right) &&
           !memcmp(&x->total, &y->total, sizeof x->total) &&
           x->categorical == y->categorical &&
           !memcmp(x->left_set, y->left_set, sizeof x->left_set);
}

static void compare_records(const pair *b, const gpl_split_record *x,
                            const gpl_split_record *y, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        if (!records_equal(&x[i], &y[i]))
            fail_msg("%s: split of node %d differs: cpu f%d b%d dl%d gain %.17g, %s f%d "
                     "b%d dl%d gain %.17g", b->p->name, x[i].node, x[i].feature, x[i].bin,
                     x[i].default_left, x[i].gain, compare_accelerator, y[i].feature, y[i].bin,
                     y[i].default_left, y[i].gain);
}

/* Grows one tree level by level with both backends, as src/core/train/grow.c
 * does, comparing every result. */
static void grow_and_compare(pair *b, const uint8_t *mask, int round)
{
    const problem *p = b->p;
    const int32_t M = b->cpu->config.max_nodes;
    /* Odd rounds draw their rows every 3 rounds (bagging_freq). */
    gpl_gradient_request req = {p->objective, p->outputs, round % p->outputs, round, 42,
                                p->subsample, 0.0, {0}, round % 2 ? 3 : 0, 0, 0, {0}};
    gpl_quant_scale sc, sg;
    OK(b->cpu->ops->compute_gradients(b->cpu, &req, &sc));
    OK(b->gpu->ops->compute_gradients(b->gpu, &req, &sg));
    assert_memory_equal(&sc, &sg, sizeof sc);
    gpl_split_params sp = {1.0, p->alpha, p->min_child_weight, sc, 0, 4, 64, 10.0, 10.0, 1.0, 0.0, NULL, NULL, 1.0, NULL, 0.0};
    double *node_bounds = malloc(sizeof(double) * 2 * (size_t)M);
    double *level_bounds = malloc(sizeof(double) * 2 * (size_t)M);
    /* Categorical groups (gpl_cat_group_step) of 10 rows, of 1/200 of the
     * rows, and with the rows unknown, in turn. */
    uint32_t *node_rows = malloc(sizeof(uint32_t) * (size_t)M);
    uint32_t *level_rows = malloc(sizeof(uint32_t) * (size_t)M);
    node_rows[0] = (uint32_t)p->rows;
    sp.min_data_per_group = round % 3 == 1 ? (double)p->rows / 200.0 : 10.0;
    sp.node_rows = round % 3 == 2 ? NULL : level_rows;
    /* min_data_in_leaf (a whole number, as the parameter) in odd rounds. */
    sp.min_data_in_leaf = round % 2 ? (double)(p->rows / 40 + 3) : 0.0;
    if (b->monotone) {
        round_bounds(round, node_bounds, &sp.max_delta_step);
        sp.monotone = b->monotone;
        sp.bounds = level_bounds;
    }

    int32_t *level = malloc(sizeof(int32_t) * (size_t)M), *build = malloc(sizeof(int32_t) * (size_t)M);
    gpl_split_record *rc = malloc(sizeof *rc * (size_t)M), *rg = malloc(sizeof *rg * (size_t)M);
    gpl_split_apply *ap = malloc(sizeof *ap * (size_t)M);
    gpl_hist_subtract *subs = malloc(sizeof *subs * (size_t)M);
    int64_t *kc = malloc(sizeof(int64_t) * 2 * (size_t)M), *kg = malloc(sizeof(int64_t) * 2 * (size_t)M);
    float *leaf = calloc((size_t)M, sizeof(float));
    OK(b->cpu->ops->begin_tree(b->cpu));
    OK(b->gpu->ops->begin_tree(b->gpu));
    int32_t n_level = 1, next = 1;
    level[0] = 0;
    OK(b->cpu->ops->build_histograms(b->cpu, level, 1));
    OK(b->gpu->ops->build_histograms(b->gpu, level, 1));
    compare_histogram(b, 0);
    for (int depth = 0; depth < p->depth; depth++) {
        /* monotone_penalty 0, 0.5 and 1.5 in rounds 0, 1 and 2. */
        if (b->monotone && round > 0)
            sp.monotone_gain_factor = gpl_monotone_penalty_factor(depth, round == 1 ? 0.5 : 1.5);
        for (int32_t i = 0; i < n_level; i++) level_rows[i] = node_rows[level[i]];
        for (int32_t i = 0; i < n_level && b->monotone; i++) {
            level_bounds[2 * i] = node_bounds[2 * level[i]];
            level_bounds[2 * i + 1] = node_bounds[2 * level[i] + 1];
        }
        OK(b->cpu->ops->evaluate_splits(b->cpu, level, n_level, &sp, mask, rc));
        OK(b->gpu->ops->evaluate_splits(b->gpu, level, n_level, &sp, mask, rg));
        compare_records(b, rc, rg, n_level);
        for (int32_t i = 0; i < n_level; i++) b->cat_splits += rc[i].feature >= 0 && rc[i].categorical;
        int32_t count = 0;
        for (int32_t i = 0; i < n_level; i++)
            if (rc[i].feature >= 0 && rc[i].gain > 1e-6 && next + 2 <= M) {
                ap[count] = (gpl_split_apply){rc[i].node, rc[i].feature, rc[i].bin,
                                              rc[i].default_left, next, next + 1,
                                              rc[i].categorical, {0}, NULL};
                memcpy(ap[count].left_set, rc[i].left_set, sizeof ap[count].left_set);
                if (b->monotone) {
                    narrow_bounds(&sp, b->monotone, &rc[i], &node_bounds[2 * rc[i].node],
                                  &node_bounds[2 * next], &node_bounds[2 * (next + 1)]);
                    b->monotone_splits += !rc[i].categorical && b->monotone[rc[i].feature];
                }
                /* Every third split differs from the search's best, as a
                 * driver's may: a backend that partitioned the node with
                 * its search must partition it again. */
                if (count % 3 == 2 && ap[count].categorical) ap[count].left_set[0] ^= 2u;
                else if (count % 3 == 2 && ap[count].bin > 1) ap[count].bin--;
                next += 2;
                count++;
            }
        if (count == 0) break;
        OK(b->cpu->ops->partition_rows(b->cpu, ap, count, kc));
        OK(b->gpu->ops->partition_rows(b->gpu, ap, count, kg));
        assert_memory_equal(kc, kg, sizeof(int64_t) * 2 * (size_t)count);
        for (int32_t i = 0; i < count; i++) {
            node_rows[ap[i].left_child] = (uint32_t)kc[2 * i];
            node_rows[ap[i].right_child] = (uint32_t)kc[2 * i + 1];
        }
        if (depth + 1 == p->depth) break;
        for (int32_t i = 0; i < count; i++) {
            int left_smaller = kc[2 * i] <= kc[2 * i + 1];
            build[i] = left_smaller ? ap[i].left_child : ap[i].right_child;
            subs[i] = (gpl_hist_subtract){ap[i].node, build[i],
                                          left_smaller ? ap[i].right_child : ap[i].left_child};
        }
        OK(b->cpu->ops->build_histograms(b->cpu, build, count));
        OK(b->gpu->ops->build_histograms(b->gpu, build, count));
        OK(b->cpu->ops->subtract_histograms(b->cpu, subs, count));
        OK(b->gpu->ops->subtract_histograms(b->gpu, subs, count));
        n_level = 0;
        for (int32_t i = 0; i < count; i++) {
            compare_histogram(b, ap[i].left_child);
            compare_histogram(b, ap[i].right_child);
            level[n_level++] = ap[i].left_child;
            level[n_level++] = ap[i].right_child;
            build[i] = ap[i].node;
        }
        OK(b->cpu->ops->release_histograms(b->cpu, build, count));
        OK(b->gpu->ops->release_histograms(b->gpu, build, count));
    }
    for (int32_t i = 0; i < M; i++) leaf[i] = (float)(0.01 * (i % 7) - 0.03);
    OK(b->cpu->ops->update_margins(b->cpu, req.output, leaf));
    OK(b->gpu->ops->update_margins(b->gpu, req.output, leaf));
    free(level);
    free(build);
    free(rc);
    free(rg);
    free(ap);
    free(subs);
    free(kc);
    free(kg);
    free(leaf);
    free(node_bounds);
    free(level_bounds);
    free(node_rows);
    free(level_rows);
}

static void run(const problem *p, int32_t categories, int monotone)
{
    data d;
    make_data_cat(p, categories, &d);
    const int32_t M = (1 << (p->depth + 1)) - 1;
    gpl_backend_config cfg = {2, 0, M, p->outputs, 0};
    pair b = {NULL, NULL, d.offset[p->features], p, 0, NULL, 0};
    /* Constraints 0, 1, -1 in turn; none on categorical features. */
    int8_t *constraints = NULL;
    if (monotone) {
        constraints = malloc((size_t)p->features);
        for (int32_t f = 0; f < p->features; f++)
            constraints[f] = d.categorical && d.categorical[f] ? 0 : (int8_t)((f + 1) % 3 - 1);
        b.monotone = constraints;
    }
    b.gpu = create_or_skip(compare_accelerator, &cfg);
    b.cpu = create_or_skip("cpu", &cfg);
    OK(b.cpu->ops->upload(b.cpu, &d.m, d.label, d.weight));
    OK(b.gpu->ops->upload(b.gpu, &d.m, d.label, d.weight));
    OK(b.cpu->ops->set_margins(b.cpu, d.margins));
    OK(b.gpu->ops->set_margins(b.gpu, d.margins));
    uint8_t *mask = NULL;
    if (p->masked) {
        mask = malloc((size_t)p->features);
        for (int32_t f = 0; f < p->features; f++) mask[f] = f % 3 != 1;
    }
    const size_t nm = (size_t)p->rows * (size_t)p->outputs;
    float *mc = malloc(sizeof(float) * nm), *mg = malloc(sizeof(float) * nm);
    for (int round = 0; round < 3; round++) {
        grow_and_compare(&b, mask, round);
        OK(b.cpu->ops->get_margins(b.cpu, mc));
        OK(b.gpu->ops->get_margins(b.gpu, mg));
        assert_memory_equal(mc, mg, sizeof(float) * nm);
    }
    gpl_memory_report mr;
    b.gpu->ops->memory(b.gpu, &mr);
    assert_true(mr.peak_bytes >= mr.allocated_bytes);
    assert_true(mr.estimate_bytes > 0);
    print_message("%s: %lld rows x %d features: %s matches cpu (device memory %.1f MiB, "
                  "planned %.1f MiB)\n", p->name, (long long)p->rows, p->features, compare_accelerator,
                  mr.peak_bytes / 1048576.0, mr.estimate_bytes / 1048576.0);
    if (categories > 0) {
        print_message("%s: %lld categorical splits\n", p->name, (long long)b.cat_splits);
        assert_true(b.cat_splits > 0);
    }
    if (monotone) {
        print_message("%s: %lld splits on monotone features\n", p->name,
                      (long long)b.monotone_splits);
        assert_true(b.monotone_splits > 0);
    }
    free(constraints);
    free(mc);
    free(mg);
    free(mask);
    gpl_backend_destroy(b.cpu);
    gpl_backend_destroy(b.gpu);
    free_data(&d);
}

void run_problem(const problem *p)
{
    run(p, 0, 0);
}

void run_categorical_problem(const cat_problem *c)
{
    run(&c->base, c->categories, 0);
}

void run_monotone_problem(const cat_problem *c)
{
    run(&c->base, c->categories, 1);
}

/* Monotone constraints (1, -1, 0 in turn) with each round's bounds
 * (round_bounds): missing values, 256 bins, deep trees, categorical
 * features beside constrained ones, softmax, huge gradients. */
const cat_problem monotone_problems[] = {
    {{"monotone, missing", 4001, 6, 64, BINS_MISSING, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 1,
      0.8f, 5, 1.0, 0.0, 0}, 0},
    {{"monotone, 256 bins, deep", 6007, 5, 256, BINS_RANDOM, LABELS_BINARY,
      GPL_OBJ_SQUARED_ERROR, 1, 0, 1.0f, 8, 0.0, 0.5, 0}, 0},
    {{"monotone, huge labels", 3001, 4, 128, BINS_RANDOM, LABELS_HUGE, GPL_OBJ_SQUARED_ERROR,
      1, 0, 1.0f, 5, 1.0, 0.0, 1}, 0},
    {{"monotone, categorical", 5003, 6, 64, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 0,
      1.0f, 5, 0.0, 0.0, 0}, 40},
    {{"monotone, softmax", 3001, 4, 64, BINS_RANDOM, LABELS_CLASS, GPL_OBJ_SOFTMAX, 3, 1, 1.0f,
      4, 1.0, 0.0, 0}, 0},
};
const int num_monotone_problems = (int)(sizeof monotone_problems / sizeof monotone_problems[0]);


/* Fields as in the suites' CASE lists, then the categories. Small: they
 * also run on lavapipe. */
const cat_problem categorical_problems[] = {
    {{"2 categories", 3001, 5, 32, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 0, 1.0f, 4,
      0.0, 0.0, 0}, 2},
    {{"5 categories, missing", 4001, 6, 64, BINS_MISSING, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 1,
      0.8f, 5, 1.0, 0.0, 1}, 5},
    {{"64 categories", 5003, 4, 128, BINS_RANDOM, LABELS_BINARY, GPL_OBJ_SQUARED_ERROR, 1, 0,
      1.0f, 5, 1.0, 0.5, 0}, 64},
    {{"255 categories", 6007, 3, 256, BINS_MISSING, LABELS_BINARY, GPL_OBJ_LOGISTIC, 1, 0, 1.0f,
      5, 0.0, 0.0, 0}, 255},
    {{"255 categories, softmax", 3001, 4, 64, BINS_RANDOM, LABELS_CLASS, GPL_OBJ_SOFTMAX, 3, 1,
      1.0f, 4, 1.0, 0.0, 0}, 255},
};
const int num_categorical_problems =
    (int)(sizeof categorical_problems / sizeof categorical_problems[0]);

/* ------------------------------------------------ categorical datasets */

static int32_t cat_column_categories(int32_t col)
{
    static const int32_t counts[] = {3, 6, 40, 200};
    return col % 2 ? counts[(col / 2) % 4] : 0;
}

/* A category's effect on the label, out of the codes' order. */
static double cat_effect(int32_t code)
{
    return (double)(((uint32_t)code * 2654435761u >> 9) % 9) / 8.0 - 0.5;
}

gpulayer_dataset *make_cat_dataset(int64_t rows, int32_t F, uint64_t seed, int classes,
                                   int real)
{
    float *x = malloc(sizeof(float) * (size_t)(rows * F + 1));
    float *y = malloc(sizeof(float) * (size_t)(rows + 1));
    assert_non_null(x);
    assert_non_null(y);
    rng_state = seed;
    for (int64_t r = 0; r < rows; r++) {
        float *v = x + r * F;
        double z = 0.3 * (uniform() - 0.5);
        for (int32_t c = 0; c < F; c++) {
            const int32_t n = cat_column_categories(c);
            const double u = uniform();
            if (n > 0) {
                const int32_t code = (int32_t)(n * u * u);
                v[c] = (float)code;
                if (c < 4) z += 1.5 * cat_effect(code + 7 * c);
            } else {
                v[c] = (float)(4.0 * u - 2.0);
                if (c == 0) z += 0.4 * v[c];
            }
            if (uniform() < 0.05) v[c] = NAN;
        }
        if (classes > 1) {
            const int k = (int)floor((z + 1.0) * classes / 2.0);
            y[r] = (float)(k < 0 ? 0 : k >= classes ? classes - 1 : k);
        } else {
            y[r] = real ? (float)(3.0 * z + 10.0) : (z > 0.0 ? 1.0f : 0.0f);
        }
    }
    gpulayer_dataset *ds = NULL;
    OK(gpulayer_dataset_from_dense(x, rows, F, GPULAYER_ROW_MAJOR, y, NULL, &ds));
    char text[200][8]; /* k000 .. k199: sorted, as codes follow */
    const char *names[200];
    for (int i = 0; i < 200; i++) {
        snprintf(text[i], sizeof text[i], "k%03d", i);
        names[i] = text[i];
    }
    for (int32_t c = 0; c < F; c++)
        if (cat_column_categories(c) > 0)
            OK(gpulayer_dataset_set_categories(ds, c, names, cat_column_categories(c)));
    free(x);
    free(y);
    return ds;
}

gpulayer_dataset *make_many_cat_dataset(int64_t rows, uint64_t seed, int32_t categories)
{
    float *x = malloc(sizeof(float) * (size_t)(rows * 3 + 1));
    float *y = malloc(sizeof(float) * (size_t)(rows + 1));
    assert_non_null(x);
    assert_non_null(y);
    rng_state = seed;
    for (int64_t r = 0; r < rows; r++) {
        const int32_t code = (int32_t)(categories * uniform());
        x[3 * r] = (float)(4.0 * uniform() - 2.0);
        x[3 * r + 1] = uniform() < 0.03 ? NAN : (float)code;
        x[3 * r + 2] = (float)uniform();
        y[r] = (float)(2.0 * cat_effect(code) + 0.3 * x[3 * r] + 0.1 * uniform());
    }
    gpulayer_dataset *ds = NULL;
    OK(gpulayer_dataset_from_dense(x, rows, 3, GPULAYER_ROW_MAJOR, y, NULL, &ds));
    char **names = malloc(sizeof(char *) * (size_t)categories);
    assert_non_null(names);
    for (int32_t i = 0; i < categories; i++) {
        names[i] = malloc(16);
        assert_non_null(names[i]);
        snprintf(names[i], 16, "c%05d", (int)i); /* sorted, as codes follow */
    }
    OK(gpulayer_dataset_set_categories(ds, 1, (const char *const *)names, categories));
    for (int32_t i = 0; i < categories; i++) free(names[i]);
    free(names);
    free(x);
    free(y);
    return ds;
}

gpulayer_booster *train_many_categories(void)
{
    gpulayer_dataset *train = make_many_cat_dataset(4000, 31, 700);
    const char *kv[] = {"objective", "reg:squarederror", "num_round", "12", "max_depth", "6",
                        "eta", "0.3", "device", "cpu", "nthread", "2", NULL};
    gpulayer_booster *b;
    OK(gpulayer_booster_create(&b));
    for (int i = 0; kv[i]; i += 2) OK(gpulayer_booster_set_param(b, kv[i], kv[i + 1]));
    OK(gpulayer_booster_train(b, train, NULL, NULL, 0, NULL, NULL));
    gpulayer_dataset_free(train);
    int wide = 0;
    for (int32_t t = 0; t < b->model->num_trees; t++)
        for (int32_t i = 0; i < b->model->trees[t].num_nodes; i++)
            wide += b->model->trees[t].nodes[i].wide_set != NULL;
    assert_true(wide > 0);
    return b;
}
