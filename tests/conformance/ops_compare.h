/* ops_compare.h -- one backend's operations against the CPU backend's, on
 * the same inputs, level by level (shared by the conformance suites of
 * every backend: tests/conformance/test_*_ops.c). */
#ifndef GPL_OPS_COMPARE_H
#define GPL_OPS_COMPARE_H

#include "backend.h"
#include "gpulayer.h"

/* The accelerator under test ("cuda", "vulkan", ...), set by the suite. */
extern const char *compare_accelerator;

typedef enum bin_pattern {
    BINS_RANDOM,  /* uniform over each feature's bins, some missing   */
    BINS_SKEWED,  /* every row in the same bin                        */
    BINS_MISSING  /* mostly missing (NaN features land in bin 0)      */
} bin_pattern;

typedef enum label_pattern {
    LABELS_BINARY,
    LABELS_HUGE,  /* squared error with labels up to 1e30              */
    LABELS_CLASS, /* 0..K-1 for softmax                                */
    LABELS_TIES,  /* squared error, margins 0: the first round's
                     gradients times the scale end in exactly .5, so
                     quantization rounds half to even on every row   */
    LABELS_SATURATED /* binary labels, margins up to +-40: the sigmoid
                        saturates, hessians down to the 1e-16 floor   */
} label_pattern;

typedef struct problem {
    const char *name;
    int64_t rows;
    int32_t features;
    int32_t max_bins;      /* bins per feature incl. missing, <= 256   */
    bin_pattern bins;
    label_pattern labels;
    gpl_objective_kind objective;
    int32_t outputs;
    int weighted;
    float subsample;
    int depth;
    double min_child_weight;
    double alpha;
    int masked;            /* every third feature may not be split on   */
} problem;

/* A problem whose even features are categorical (split by sets) with
 * `categories` categories, codes skewed towards 0, and whose labels depend
 * on feature 0's code out of order. */
typedef struct cat_problem {
    problem base;
    int32_t categories;
} cat_problem;

/* A problem's binned data, labels, weights and starting margins. */
typedef struct data {
    gpl_binned_matrix m;
    uint8_t *bins;
    uint32_t *offset;
    float *label;
    float *weight;
    float *margins;
    uint8_t *categorical;
} data;

void make_data(const problem *p, data *d);
void free_data(data *d);
/* The named backend, or a skip of the calling test with the reason. */
gpl_backend *create_or_skip(const char *name, const gpl_backend_config *cfg);

/* Fails the test with the library's message when expr is not GPULAYER_OK. */
#define OK(expr)                                                                   \
    do {                                                                           \
        gpulayer_status ok_status_ = (expr);                                       \
        if (ok_status_ != GPULAYER_OK) fail_msg("%s: %s", #expr, gpulayer_last_error()); \
    } while (0)

/* Trains a few trees on the problem's data with the backend under test and
 * the CPU backend side by side, and fails on the first difference. */
void run_problem(const problem *p);

/* Problems with categorical features (2, 5, 64 and 255 categories: one
 * category against the rest, sorted prefixes, more categories than
 * max_cat_threshold; skewed codes, missing values, categories absent from
 * a node), for every backend's suite. */
extern const cat_problem categorical_problems[];
extern const int num_categorical_problems;
/* run_problem of a categorical problem; fails unless some split of the
 * CPU's was categorical. */
void run_categorical_problem(const cat_problem *c);

/* Problems trained with monotone constraints and bounded weights. */
extern const cat_problem monotone_problems[];
extern const int num_monotone_problems;
void run_monotone_problem(const cat_problem *c);

/* A dataset of rows x F values for the public API whose odd columns are
 * categorical (3, 6, 40 and 200 categories in turn, codes skewed towards
 * 0, some missing) and the others numbers, with labels (binary, real or
 * 0..classes-1) that depend on the codes out of order; the same seed
 * gives the same rows. */
gpulayer_dataset *make_cat_dataset(int64_t rows, int32_t F, uint64_t seed, int classes,
                                   int real);

/* 16-bit codes level by level against the CPU (wide_compare.c): numeric
 * features of 300 to 65,536 bins, categorical ones of 256 to 5,000
 * categories, missing values; problem i of num_wide_problems. */
extern const int num_wide_problems;
void run_wide_problem(int i);

/* rows x 3 values for the public API: a number, a categorical column of
 * `categories` codes (each its own bin: more than 255 make sets wider
 * than the inline words), some missing, and a number; a real label that
 * depends on the codes out of order. */
gpulayer_dataset *make_many_cat_dataset(int64_t rows, uint64_t seed, int32_t categories);

/* A booster trained on the CPU on make_many_cat_dataset(4000, 31, 700)
 * (squared error, 12 rounds, depth 6), checked to have sets wider than
 * the inline words. */
gpulayer_booster *train_many_categories(void);

/* A gradient kind and its parameter for each output (grad_compare.c). */
typedef struct gradient_case {
    const char *name;
    gpl_objective_kind objective;
    int32_t outputs;
    double param[3];
} gradient_case;

/* Every gradient kind, with the parameters of its edges (Poisson's
 * max_delta_step, Tweedie 1.2 and 1.8, Huber slopes 0.5 and 1000,
 * quantiles 0.1 and 0.9 and one of each for three outputs, expectiles the
 * same way, chained). */
extern const gradient_case gradient_cases[];
extern const int num_gradient_cases;
/* The scales and every row's quantized pair against the CPU's, bit for
 * bit: 255 rows (a row a histogram bin) with moderate margins, ties and
 * zero weights, 255 rows with margins that saturate exp(), and 3001 rows
 * (not a multiple of any workgroup) subsampled. */
void run_gradient_case(const gradient_case *g);
/* Host pairs through write_pairs (rows, then a node's histogram) replace
 * the backend's gradients: the same histograms, split, row counts and
 * subtraction as the CPU's. Fails where the backend has no write_pairs. */
void run_write_pairs_case(const problem *p);

/* Builds the root histogram on both backends and fails on the first bin
 * that differs; rows_count: some row must have a hessian. */
void compare_root(gpl_backend *cpu, gpl_backend *gpu, uint32_t len, const char *what,
                  int rows_count);

/* The ranking objectives' gradients and a tree grown on them, against the
 * CPU's, over query layouts at the edges of rank_math.h (rank_compare.c). */
void run_rank_cases(void);
/* cmocka tests over the cases above, for each GPU backend's ops suite. */
void test_gradient_kinds(void **state);
void test_write_pairs(void **state);

#define CASE(fn, ...)                                                          \
    static void fn(void **state)                                               \
    {                                                                          \
        (void)state;                                                           \
        const problem p = {__VA_ARGS__};                                       \
        run_problem(&p);                                                       \
    }

#endif
