/*
 * wide_compare.c -- 16-bit codes, level by level against the CPU, for
 * every GPU backend's ops suite (ops_compare.h).
 *
 * Features of more than 255 value bins (gpl_binned_matrix.code_bytes 2):
 * numeric ones that fit a shared-memory histogram chunk and ones that do
 * not, categorical ones of 700 and 5,000 categories (sets of more than the
 * inline words, which the caller rebuilds from the CPU's histogram and
 * passes as wide_set, as the core does), missing values, row counts that
 * are no multiple of a block. Level by level against the CPU, as
 * ops_compare.c does for 8-bit codes.
 */
#include "ops_compare.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cat_set.h"
#include "gpulayer.h"

typedef struct wide_feature {
    int32_t bins; /* with the missing bin */
    int categorical;
    double missing; /* share of rows in bin 0 */
} wide_feature;

typedef struct wide_problem {
    const char *name;
    int64_t rows;
    int32_t features;
    const wide_feature *f; /* features entries; NULL: mixed_features */
    gpl_objective_kind objective;
    int depth;
    double min_child_weight;
} wide_problem;

typedef struct wide_data {
    gpl_binned_matrix m;
    uint16_t *bins;
    uint32_t *offset;
    uint8_t *categorical;
    float *label;
    float *margins;
} wide_data;

static uint64_t wide_rng;

static uint64_t wide_next(void)
{
    uint64_t z = (wide_rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double wide_uniform(void) { return (double)(wide_next() >> 11) * (1.0 / 9007199254740992.0); }

/* 40 features: mostly 8-bit widths, with wider numeric and categorical
 * ones among them, so that the histogram chunks are cut into runs. */
static wide_feature mixed_feature(int32_t f)
{
    switch (f) {
    case 3: return (wide_feature){3000, 0, 0.05};
    case 11: return (wide_feature){900, 0, 0.0};
    case 20: return (wide_feature){801, 1, 0.05};
    case 33: return (wide_feature){1025, 0, 0.2};
    case 37: return (wide_feature){257, 0, 0.0};
    default: return (wide_feature){2 + (f * 37) % 255, f % 5 == 4, 0.05};
    }
}

static wide_feature problem_feature(const wide_problem *p, int32_t f)
{
    return p->f ? p->f[f] : mixed_feature(f);
}

/* A category's (or a bin's) effect on the label, out of the codes' order. */
static double code_effect(uint32_t code)
{
    return (double)((code * 2654435761u >> 9) % 9) / 8.0 - 0.5;
}

static void make_wide_data(const wide_problem *p, wide_data *d)
{
    const int64_t N = p->rows;
    const int32_t F = p->features;
    wide_rng = (uint64_t)N * 31u + (uint64_t)F;
    d->offset = malloc(sizeof(uint32_t) * ((size_t)F + 1));
    d->categorical = calloc((size_t)F, 1);
    d->bins = malloc(sizeof(uint16_t) * (size_t)N * (size_t)F);
    d->label = malloc(sizeof(float) * (size_t)N);
    d->margins = malloc(sizeof(float) * (size_t)N);
    assert_true(d->offset && d->categorical && d->bins && d->label && d->margins);
    d->offset[0] = 0;
    for (int32_t f = 0; f < F; f++) {
        const wide_feature w = problem_feature(p, f);
        d->offset[f + 1] = d->offset[f] + (uint32_t)w.bins;
        d->categorical[f] = (uint8_t)(w.categorical != 0);
    }
    for (int64_t r = 0; r < N; r++) {
        double z = 0.3 * (wide_uniform() - 0.5);
        for (int32_t f = 0; f < F; f++) {
            const wide_feature w = problem_feature(p, f);
            const double u = wide_uniform();
            uint32_t b;
            if (wide_uniform() < w.missing) b = 0;
            else if (w.categorical) b = 1 + (uint32_t)((w.bins - 1) * u * u * u);
            else b = 1 + (uint32_t)(wide_next() % (uint64_t)(w.bins - 1));
            d->bins[r * F + f] = (uint16_t)b;
            /* The first few features carry the signal: numbers by their
             * order, categories out of it. */
            if (f < 4 && b > 0)
                z += w.categorical ? 1.5 * code_effect(b + 7u * (uint32_t)f)
                                   : (double)b / w.bins - 0.5;
        }
        d->label[r] = p->objective == GPL_OBJ_LOGISTIC ? (z > 0 ? 1.0f : 0.0f) : (float)(3.0 * z);
        d->margins[r] = (float)(wide_uniform() - 0.5);
    }
    d->m = (gpl_binned_matrix){N, F, (const uint8_t *)d->bins, d->offset, d->categorical, 2};
}

static void free_wide_data(wide_data *d)
{
    free(d->bins);
    free(d->offset);
    free(d->categorical);
    free(d->label);
    free(d->margins);
}

typedef struct wide_pair {
    gpl_backend *cpu, *gpu;
    const wide_problem *p;
    const wide_data *d;
    gpl_grad_pair *hc, *hg; /* histograms read back */
    int64_t splits, cat_splits, wide_cat_splits, wide_num_splits;
} wide_pair;

static int32_t wide_last_bin(const wide_data *d, int32_t f)
{
    return (int32_t)(d->offset[f + 1] - d->offset[f]) - 1;
}

static void wide_compare_histogram(wide_pair *b, int32_t node)
{
    const uint32_t len = b->d->offset[b->p->features];
    OK(b->cpu->ops->read_histogram(b->cpu, node, b->hc));
    OK(b->gpu->ops->read_histogram(b->gpu, node, b->hg));
    for (uint32_t i = 0; i < len; i++)
        if (b->hc[i].grad != b->hg[i].grad || b->hc[i].hess != b->hg[i].hess)
            fail_msg("%s: histogram of node %d differs at bin %u: cpu (%lld, %lld), %s "
                     "(%lld, %lld)", b->p->name, node, i, (long long)b->hc[i].grad,
                     (long long)b->hc[i].hess, compare_accelerator, (long long)b->hg[i].grad,
                     (long long)b->hg[i].hess);
}

static void wide_compare_records(const wide_pair *b, const gpl_split_record *x,
                                 const gpl_split_record *y, int32_t n)
{
    for (int32_t i = 0; i < n; i++)
        if (x[i].node != y[i].node || x[i].feature != y[i].feature || x[i].bin != y[i].bin ||
            x[i].default_left != y[i].default_left ||
            memcmp(&x[i].gain, &y[i].gain, sizeof x[i].gain) ||
            memcmp(&x[i].left, &y[i].left, sizeof x[i].left) ||
            memcmp(&x[i].right, &y[i].right, sizeof x[i].right) ||
            memcmp(&x[i].total, &y[i].total, sizeof x[i].total) ||
            x[i].categorical != y[i].categorical ||
            memcmp(x[i].left_set, y[i].left_set, sizeof x[i].left_set))
            fail_msg("%s: split of node %d differs: cpu f%d b%d dl%d cat%d gain %.17g "
                     "left (%lld, %lld), %s f%d b%d dl%d cat%d gain %.17g left (%lld, %lld)",
                     b->p->name, x[i].node, x[i].feature, x[i].bin, x[i].default_left,
                     x[i].categorical, x[i].gain, (long long)x[i].left.grad,
                     (long long)x[i].left.hess, compare_accelerator, y[i].feature, y[i].bin, y[i].default_left,
                     y[i].categorical, y[i].gain, (long long)y[i].left.grad,
                     (long long)y[i].left.hess);
}

/* One tree, level by level, with round-dependent parameters: one-hot up
 * to 4 categories (round 2: up to 1000, so 700 categories are one-hot),
 * max_cat_threshold 64, 255 and 8, groups of 10 rows or 1/200 of the
 * rows, rows known or not, min_data_in_leaf in round 1, a sample in
 * round 1; the last level's search is told its children are leaves. */
static void wide_round(wide_pair *b, int round)
{
    const wide_problem *p = b->p;
    const wide_data *d = b->d;
    const int32_t M = b->cpu->config.max_nodes;
    const gpl_gradient_request req = {p->objective, 1, 0, round, 42, round == 1 ? 0.8f : 1.0f,
                                      0.0, {0}, 0, 0, 0, {0}};
    gpl_quant_scale sc, sg;
    OK(b->cpu->ops->compute_gradients(b->cpu, &req, &sc));
    OK(b->gpu->ops->compute_gradients(b->gpu, &req, &sg));
    assert_memory_equal(&sc, &sg, sizeof sc);
    uint32_t *node_rows = calloc((size_t)M, sizeof(uint32_t));
    uint32_t *level_rows = calloc((size_t)M, sizeof(uint32_t));
    static const int32_t thresholds[3] = {64, 255, 8};
    gpl_split_params sp = {
        .lambda = 1.0,
        .min_child_weight = p->min_child_weight,
        .scale = sc,
        .max_cat_to_onehot = round == 2 ? 1000 : 4,
        .max_cat_threshold = thresholds[round % 3],
        .cat_smooth = 10.0,
        .cat_l2 = 10.0,
        .min_data_per_group = round == 1 ? (double)p->rows / 200.0 : 10.0,
        .monotone_gain_factor = 1.0,
        .node_rows = round == 2 ? NULL : level_rows,
        .min_data_in_leaf = round == 1 ? (double)(p->rows / 50 + 3) : 0.0,
    };
    node_rows[0] = (uint32_t)p->rows;
    int32_t *level = malloc(sizeof(int32_t) * (size_t)M);
    int32_t *build = malloc(sizeof(int32_t) * (size_t)M);
    gpl_split_record *rc = malloc(sizeof *rc * (size_t)M), *rg = malloc(sizeof *rg * (size_t)M);
    gpl_split_apply *ap = calloc((size_t)M, sizeof *ap);
    uint32_t **sets = calloc((size_t)M, sizeof *sets);
    gpl_hist_subtract *subs = malloc(sizeof *subs * (size_t)M);
    int64_t *kc = malloc(sizeof(int64_t) * 2 * (size_t)M);
    int64_t *kg = malloc(sizeof(int64_t) * 2 * (size_t)M);
    float *leaf = malloc(sizeof(float) * (size_t)M);
    assert_true(level && build && rc && rg && ap && sets && subs && kc && kg && leaf);
    OK(b->cpu->ops->begin_tree(b->cpu));
    OK(b->gpu->ops->begin_tree(b->gpu));
    int32_t n_level = 1, next = 1;
    level[0] = 0;
    OK(b->cpu->ops->build_histograms(b->cpu, level, 1));
    OK(b->gpu->ops->build_histograms(b->gpu, level, 1));
    wide_compare_histogram(b, 0);
    for (int depth = 0; depth < p->depth; depth++) {
        for (int32_t i = 0; i < n_level; i++) level_rows[i] = node_rows[level[i]];
        sp.leaf_children = depth + 1 == p->depth;
        OK(b->cpu->ops->evaluate_splits(b->cpu, level, n_level, &sp, NULL, rc));
        OK(b->gpu->ops->evaluate_splits(b->gpu, level, n_level, &sp, NULL, rg));
        wide_compare_records(b, rc, rg, n_level);
        int32_t count = 0;
        for (int32_t i = 0; i < n_level; i++) {
            const gpl_split_record *r = &rc[i];
            if (r->feature < 0 || !(r->gain > 1e-6) || next + 2 > M) continue;
            gpl_split_apply *a = &ap[count];
            *a = (gpl_split_apply){r->node, r->feature, r->bin, r->default_left, next, next + 1,
                                   r->categorical, {0}, NULL};
            memcpy(a->left_set, r->left_set, sizeof a->left_set);
            const int32_t last_bin = wide_last_bin(d, r->feature);
            const int wide = gpl_cat_set_words(last_bin) > GPL_CAT_WORDS;
            b->splits++;
            b->cat_splits += r->categorical != 0;
            b->wide_cat_splits += r->categorical && wide;
            b->wide_num_splits += !r->categorical && wide;
            if (r->categorical && wide) {
                /* The core's rebuild (grow.c), from the CPU's histogram. */
                sets[count] = calloc((size_t)gpl_cat_set_words(last_bin), sizeof(uint32_t));
                assert_non_null(sets[count]);
                OK(b->cpu->ops->read_histogram(b->cpu, r->node, b->hc));
                OK(gpl_cat_left_set(&sp, b->hc + d->offset[r->feature], last_bin, r->bin,
                                    sets[count]));
                a->wide_set = sets[count];
            }
            /* Every third split differs from the search's best, as a
             * driver's may: the GPU must partition the node again. */
            if (count % 3 == 2) {
                if (a->wide_set) sets[count][0] ^= 2u;
                else if (a->categorical) a->left_set[0] ^= 2u;
                else if (a->bin > 1) a->bin--;
            }
            next += 2;
            count++;
        }
        if (count == 0) break;
        OK(b->cpu->ops->partition_rows(b->cpu, ap, count, kc));
        OK(b->gpu->ops->partition_rows(b->gpu, ap, count, kg));
        assert_memory_equal(kc, kg, sizeof(int64_t) * 2 * (size_t)count);
        for (int32_t i = 0; i < count; i++) {
            free(sets[i]);
            sets[i] = NULL;
            node_rows[ap[i].left_child] = (uint32_t)kc[2 * i];
            node_rows[ap[i].right_child] = (uint32_t)kc[2 * i + 1];
        }
        if (depth + 1 == p->depth) break;
        for (int32_t i = 0; i < count; i++) {
            const int left_smaller = kc[2 * i] <= kc[2 * i + 1];
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
            wide_compare_histogram(b, ap[i].left_child);
            wide_compare_histogram(b, ap[i].right_child);
            level[n_level++] = ap[i].left_child;
            level[n_level++] = ap[i].right_child;
            build[i] = ap[i].node;
        }
        OK(b->cpu->ops->release_histograms(b->cpu, build, count));
        OK(b->gpu->ops->release_histograms(b->gpu, build, count));
    }
    for (int32_t i = 0; i < M; i++) leaf[i] = (float)(0.01 * (i % 7) - 0.03);
    OK(b->cpu->ops->update_margins(b->cpu, 0, leaf));
    OK(b->gpu->ops->update_margins(b->gpu, 0, leaf));
    free(level);
    free(build);
    free(rc);
    free(rg);
    free(ap);
    free(sets);
    free(subs);
    free(kc);
    free(kg);
    free(leaf);
    free(node_rows);
    free(level_rows);
}

/* The CUDA backend against the CPU's on a problem of 16-bit codes; fails
 * unless splits on wide features (and categorical ones, where the problem
 * has any) were compared. */
static void run_problem_wide(const wide_problem *p)
{
    wide_data d;
    make_wide_data(p, &d);
    const int32_t M = (1 << (p->depth + 1)) - 1;
    gpl_backend_config cfg = {2, 0, M, 1, 0};
    const uint32_t len = d.offset[p->features];
    wide_pair b = {NULL, NULL, p, &d, malloc(sizeof(gpl_grad_pair) * len),
                   malloc(sizeof(gpl_grad_pair) * len), 0, 0, 0, 0};
    assert_true(b.hc && b.hg);
    b.gpu = create_or_skip(compare_accelerator, &cfg);
    b.cpu = create_or_skip("cpu", &cfg);
    OK(b.cpu->ops->upload(b.cpu, &d.m, d.label, NULL));
    OK(b.gpu->ops->upload(b.gpu, &d.m, d.label, NULL));
    OK(b.cpu->ops->set_margins(b.cpu, d.margins));
    OK(b.gpu->ops->set_margins(b.gpu, d.margins));
    float *mc = malloc(sizeof(float) * (size_t)p->rows);
    float *mg = malloc(sizeof(float) * (size_t)p->rows);
    assert_true(mc && mg);
    for (int round = 0; round < 3; round++) {
        wide_round(&b, round);
        OK(b.cpu->ops->get_margins(b.cpu, mc));
        OK(b.gpu->ops->get_margins(b.gpu, mg));
        assert_memory_equal(mc, mg, sizeof(float) * (size_t)p->rows);
    }
    int wide_cat = 0, wide_num = 0;
    for (int32_t f = 0; f < p->features; f++) {
        const int wide = gpl_cat_set_words(wide_last_bin(&d, f)) > GPL_CAT_WORDS;
        wide_cat |= wide && d.categorical[f];
        wide_num |= wide && !d.categorical[f];
    }
    gpl_memory_report mr;
    b.gpu->ops->memory(b.gpu, &mr);
    print_message("%s: %lld rows x %d features: %s matches cpu; %lld splits, %lld categorical, "
                  "%lld on wide categorical and %lld on wide numeric features (device memory "
                  "%.1f MiB, planned %.1f MiB)\n", p->name, (long long)p->rows, p->features,
                  compare_accelerator, (long long)b.splits, (long long)b.cat_splits,
                  (long long)b.wide_cat_splits, (long long)b.wide_num_splits,
                  mr.peak_bytes / 1048576.0, mr.estimate_bytes / 1048576.0);
    assert_true(mr.peak_bytes >= mr.allocated_bytes);
    if (strcmp(compare_accelerator, "cpu") != 0) assert_true(mr.estimate_bytes > 0);
    assert_true(b.splits > 0);
    if (wide_cat) assert_true(b.wide_cat_splits > 0);
    if (wide_num) assert_true(b.wide_num_splits > 0);
    free(mc);
    free(mg);
    free(b.hc);
    free(b.hg);
    gpl_backend_destroy(b.cpu);
    gpl_backend_destroy(b.gpu);
    free_wide_data(&d);
}

static const wide_feature numeric_wide[] = {
    {301, 0, 0.05}, {5001, 0, 0.3}, {17, 0, 0.0}, {900, 0, 0.0}, {1000, 0, 0.6}};
static const wide_feature categorical_wide[] = {
    {701, 1, 0.03}, {5001, 1, 0.1}, {301, 0, 0.05}, {65, 1, 0.05}, {256, 1, 0.0}};
static const wide_feature one_wide_numeric[] = {{65536, 0, 0.02}};
static const wide_feature one_wide_categorical[] = {{5001, 1, 0.05}};

static const wide_problem wide_problems[] = {
    {"16-bit: 300, 900, 1000 and 5000 numeric bins, NaN", 20011, 5, numeric_wide,
     GPL_OBJ_LOGISTIC, 5, 0.0},
    {"16-bit: 700 and 5000 categories", 30011, 5, categorical_wide, GPL_OBJ_SQUARED_ERROR, 5,
     1.0},
    {"16-bit: one feature of 65536 bins", 70001, 1, one_wide_numeric, GPL_OBJ_LOGISTIC, 5, 0.0},
    {"16-bit: one feature of 5000 categories", 9001, 1, one_wide_categorical,
     GPL_OBJ_SQUARED_ERROR, 4, 0.0},
    {"16-bit: 40 features, wide ones among them", 10007, 40, NULL, GPL_OBJ_LOGISTIC, 5, 0.0},
};

const int num_wide_problems = (int)(sizeof wide_problems / sizeof wide_problems[0]);

void run_wide_problem(int i)
{
    run_problem_wide(&wide_problems[i]);
}
