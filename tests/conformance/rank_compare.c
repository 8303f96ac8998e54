/* rank_compare.c -- the ranking objectives' gradients of one backend against
 * the CPU backend's (rank_math.h): scales and quantized pairs bit for bit,
 * on queries of one row, of one grade only, of thousands of rows, with ties
 * in margins (and -0 against +0), all margins equal, weights, subsampling,
 * both pair methods and every objective; then trees grown on them. */
#include "ops_compare.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dataset.h"
#include "rank_groups.h"

static uint64_t rank_rng;

static double unit(void)
{
    uint64_t z = (rank_rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

typedef enum margin_kind {
    MARGINS_RANDOM,
    MARGINS_TIES,  /* a few values, -0 and +0 among them */
    MARGINS_EQUAL  /* every margin 0: no score normalisation */
} margin_kind;

typedef struct rank_layout {
    const char *name;
    int64_t num_groups;
    int64_t fixed_size; /* > 0: every query this size; 0: 1..max_size */
    int64_t max_size;
    int64_t big_query;  /* > 0: query 0 has this many rows */
    int one_grade;      /* every row of a query has the same grade */
    margin_kind margins;
    int weighted;
    float subsample;
} rank_layout;

typedef struct rank_setting {
    const char *name;
    gpl_objective_kind objective;
    int32_t pair_method, num_pair, exp_gain, score_normalization;
} rank_setting;

static const rank_layout layouts[] = {
    {"one-row queries", 60, 1, 1, 0, 0, MARGINS_RANDOM, 0, 1.0f},
    {"one grade a query", 20, 0, 12, 0, 1, MARGINS_RANDOM, 0, 1.0f},
    {"small queries, random margins", 12, 0, 20, 0, 0, MARGINS_RANDOM, 1, 1.0f},
    {"ties in margins", 10, 0, 24, 0, 0, MARGINS_TIES, 0, 1.0f},
    {"equal margins", 8, 0, 30, 0, 0, MARGINS_EQUAL, 0, 1.0f},
    {"a query of 3001 rows", 40, 0, 40, 3001, 0, MARGINS_RANDOM, 1, 0.8f},
};

static const rank_setting settings[] = {
    {"rank:ndcg topk 32", GPL_OBJ_RANK_NDCG, GPL_RANK_TOPK, 32, 1, 1},
    {"rank:ndcg topk 3, linear gain", GPL_OBJ_RANK_NDCG, GPL_RANK_TOPK, 3, 0, 1},
    {"rank:ndcg mean 4", GPL_OBJ_RANK_NDCG, GPL_RANK_MEAN, 4, 1, 0},
    {"rank:pairwise mean 1", GPL_OBJ_RANK_PAIRWISE, GPL_RANK_MEAN, 1, 1, 1},
    {"rank:pairwise topk 5", GPL_OBJ_RANK_PAIRWISE, GPL_RANK_TOPK, 5, 1, 1},
    {"rank:map topk 32", GPL_OBJ_RANK_MAP, GPL_RANK_TOPK, 32, 1, 1},
    {"rank:map mean 2", GPL_OBJ_RANK_MAP, GPL_RANK_MEAN, 2, 1, 1},
};

/* The layout's rows: groups, grades (0..4, or 0/1 for MAP), weights one a
 * query, margins; feature 0's bin is the row (mod 255) so that the root
 * histogram of up to 255 rows shows every row's pair. */
static void make_rank_data(const rank_layout *l, gpl_objective_kind objective, data *d,
                           gpulayer_dataset *ds)
{
    rank_rng = (uint64_t)l->num_groups * 131u + (uint64_t)l->max_size * 7u + (uint64_t)objective;
    int64_t *ptr = malloc(sizeof(int64_t) * (size_t)(l->num_groups + 1));
    ptr[0] = 0;
    for (int64_t q = 0; q < l->num_groups; q++) {
        int64_t n = l->fixed_size ? l->fixed_size : 1 + (int64_t)(unit() * (double)l->max_size);
        if (q == 0 && l->big_query) n = l->big_query;
        ptr[q + 1] = ptr[q] + n;
    }
    const int64_t N = ptr[l->num_groups];
    const int32_t F = 3;
    d->offset = malloc(sizeof(uint32_t) * 4);
    d->bins = malloc((size_t)N * F);
    d->label = malloc(sizeof(float) * (size_t)N);
    d->weight = l->weighted ? malloc(sizeof(float) * (size_t)N) : NULL;
    d->margins = malloc(sizeof(float) * (size_t)N);
    d->categorical = NULL;
    const uint32_t offset[4] = {0, 256, 512, 516};
    memcpy(d->offset, offset, sizeof offset);
    static const float tie_values[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f};
    const int grades = objective == GPL_OBJ_RANK_MAP ? 2 : 5;
    for (int64_t q = 0; q < l->num_groups; q++) {
        const float shared_grade = (float)(int)(unit() * grades);
        const float w = (float)(0.25 + 2.0 * unit());
        for (int64_t r = ptr[q]; r < ptr[q + 1]; r++) {
            d->bins[r * F] = (uint8_t)(1 + r % 255);
            d->bins[r * F + 1] = (uint8_t)(1 + (r / 255) % 255);
            d->bins[r * F + 2] = (uint8_t)(r % 4);
            d->label[r] = l->one_grade ? shared_grade : (float)(int)(unit() * grades);
            if (d->weight) d->weight[r] = w;
            d->margins[r] = l->margins == MARGINS_EQUAL  ? 0.0f
                            : l->margins == MARGINS_TIES ? tie_values[(int)(unit() * 5)]
                                                         : (float)(6.0 * (unit() - 0.5));
        }
    }
    d->m = (gpl_binned_matrix){N, F, d->bins, d->offset, NULL, 1};
    memset(ds, 0, sizeof *ds);
    ds->num_rows = N;
    ds->num_cols = F;
    ds->label = d->label;
    ds->weight = d->weight;
    ds->group_ptr = ptr;
    ds->num_groups = l->num_groups;
}

/* Grows one depth-3 tree from the current pairs on both and compares the
 * splits, then moves both backends' margins by the same leaf values, so
 * that the next round starts from margins the trees produced. */
static void grow_and_compare(gpl_backend *cpu, gpl_backend *gpu, const gpl_quant_scale *sc,
                             const char *what)
{
    int32_t root = 0;
    gpl_split_params sp = {1.0, 0.0, 0.0, *sc, 0, 4, 64, 10.0, 10.0, 1.0, 0.0, NULL, NULL, 1.0, NULL, 0.0};
    gpl_split_record rc, rg;
    OK(cpu->ops->evaluate_splits(cpu, &root, 1, &sp, NULL, &rc));
    OK(gpu->ops->evaluate_splits(gpu, &root, 1, &sp, NULL, &rg));
    if (memcmp(&rc, &rg, sizeof rc) != 0)
        fail_msg("%s: root split cpu (feature %d, bin %d), %s (feature %d, bin %d)", what,
                 rc.feature, rc.bin, compare_accelerator, rg.feature, rg.bin);
    if (rc.feature < 0) return;
    gpl_split_apply ap = {0, rc.feature, rc.bin, rc.default_left, 1, 2, rc.categorical, {0}, NULL};
    int64_t kc[2], kg[2];
    OK(cpu->ops->partition_rows(cpu, &ap, 1, kc));
    OK(gpu->ops->partition_rows(gpu, &ap, 1, kg));
    assert_memory_equal(kc, kg, sizeof kc);
    float leaf[3] = {0.0f, 0.7f, -0.3f};
    OK(cpu->ops->update_margins(cpu, 0, leaf));
    OK(gpu->ops->update_margins(gpu, 0, leaf));
}

static void run_one(const rank_layout *l, const rank_setting *s)
{
    data d;
    gpulayer_dataset ds;
    make_rank_data(l, s->objective, &d, &ds);
    gpl_objective_params op;
    gpl_objective_params_default(&op);
    op.rank_pair_method = s->pair_method;
    op.rank_num_pair = s->num_pair;
    op.ndcg_exp_gain = s->exp_gain;
    op.rank_score_normalization = s->score_normalization;
    gpl_rank_tables tables;
    OK(gpl_rank_tables_build(&ds, &op, &tables));
    /* One thread on the side under test: against the CPU itself, this
     * checks that the thread count does not change the bits. */
    gpl_backend_config cfg = {2, 0, 3, 1, 0}, one = {1, 0, 3, 1, 0};
    gpl_backend *gpu = create_or_skip(compare_accelerator, &one);
    gpl_backend *cpu = create_or_skip("cpu", &cfg);
    if (!gpl_backend_has(gpu, GPL_BACKEND_CAP_RANK_GROUPS))
        fail_msg("the %s backend has no set_groups", compare_accelerator);
    OK(cpu->ops->upload(cpu, &d.m, d.label, d.weight));
    OK(gpu->ops->upload(gpu, &d.m, d.label, d.weight));
    OK(cpu->ops->set_groups(cpu, &tables.groups));
    OK(gpu->ops->set_groups(gpu, &tables.groups));
    OK(cpu->ops->set_margins(cpu, d.margins));
    OK(gpu->ops->set_margins(gpu, d.margins));
    for (int32_t round = 0; round < 3; round++) {
        /* Rows drawn anew every 2 rounds (bagging_freq): round 1 samples
         * as round 0, while its pairs are its own. */
        gpl_gradient_request req = {s->objective, 1, 0, round, 42, l->subsample, 0.0,
                                    gpl_objective_rank_request(&op), 2, 0, 0, {0}};
        gpl_quant_scale sc, sg;
        OK(cpu->ops->compute_gradients(cpu, &req, &sc));
        OK(gpu->ops->compute_gradients(gpu, &req, &sg));
        char what[200];
        snprintf(what, sizeof what, "%s, %s, %lld rows, round %d", s->name, l->name,
                 (long long)ds.num_rows, round);
        if (memcmp(&sc, &sg, sizeof sc) != 0)
            fail_msg("%s: scales cpu (%a, %a), %s (%a, %a)", what, sc.grad, sc.hess,
                     compare_accelerator, sg.grad, sg.hess);
        compare_root(cpu, gpu, d.offset[3], what, 0);
        grow_and_compare(cpu, gpu, &sc, what);
    }
    gpl_backend_destroy(cpu);
    gpl_backend_destroy(gpu);
    gpl_rank_tables_free(&tables);
    free(ds.group_ptr);
    free_data(&d);
}

void run_rank_cases(void)
{
    for (size_t s = 0; s < sizeof settings / sizeof settings[0]; s++) {
        for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++)
            run_one(&layouts[l], &settings[s]);
        print_message("%s: every query layout's pairs match cpu\n", settings[s].name);
    }
}
