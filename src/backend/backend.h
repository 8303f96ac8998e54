/*
 * backend.h -- the ComputeBackend interface: a table of operations over a
 * whole level's batch of nodes, plus an opaque context.
 *
 * The tree driver (src/core/train/grow.c) calls only these operations; it never
 * sees a CUDA, Vulkan or Metal type. The CPU backend is the reference every
 * other backend is compared with (tests/conformance/).
 *
 * Numeric contract, shared by every backend so that models are the same
 * bits everywhere:
 *   - gradients are computed by the inline functions of objective_math.h,
 *     then quantized with the power-of-two scales of quantize.h, which keep
 *     every sum below 2^31 in magnitude;
 *   - histograms are exact integer sums (order of accumulation is free);
 *   - split gains use split_math.h in double precision, without fused
 *     multiply-add; ties go to the smallest (feature, bin, default_left);
 *     candidates are bins 1..last value bin of each feature, both missing
 *     directions, except that the last bin only tries missing-right (all
 *     values left, missing right) and a feature with no missing values only
 *     tries missing-right;
 *   - partitioning decides each node's set of rows; their order within a
 *     node is free (the CPU keeps it ascending, CUDA does not).
 */
#ifndef GPL_BACKEND_H
#define GPL_BACKEND_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "gpulayer.h"

/* One histogram bin, also the quantized gradient pair of one row. */
typedef struct gpl_grad_pair {
    int64_t grad;
    int64_t hess;
} gpl_grad_pair;

/* The binned training matrix. bins is row-major (num_rows x num_features
 * codes of code_bytes bytes: 2 when a feature has more than 255 value
 * bins, else 1);
 * bin 0 of every feature is the missing-value bin, value bins are
 * 1..nbins(f). Feature f's bin b lives at histogram index
 * feature_offset[f] + b; feature_offset has num_features + 1 entries and
 * feature_offset[num_features] is the histogram length. */
typedef struct gpl_binned_matrix {
    int64_t num_rows;
    int32_t num_features;
    const uint8_t *bins;
    const uint32_t *feature_offset;
    /* num_features bytes, non-zero for a categorical feature whose splits
     * are sets of categories (value bin b is category b - 1); NULL: none. */
    const uint8_t *categorical;
    int32_t code_bytes;
} gpl_binned_matrix;

/* The largest bin code: codes are at most 16 bits. */
#define GPL_MAX_BIN_CODE 65535

/* A set of value bins, one bit a bin: bin b is bit b % 32 of word b / 32
 * (bin 0, missing, is never in a set: default_left says where it goes).
 * Split records, splits to apply and model nodes hold GPL_CAT_WORDS words
 * inline, enough for a feature of at most 255 value bins; a feature with
 * more (a categorical feature of more than 255 categories) has sets of
 * gpl_cat_set_words words, held beside them. */
#define GPL_CAT_WORDS 8

static inline int gpl_cat_set_has(const uint32_t *set, uint32_t bin)
{
    return (int)((set[bin >> 5] >> (bin & 31)) & 1u);
}

/* The words of a set over value bins 1..last_bin: GPL_CAT_WORDS while they
 * fit, else one bit a bin. */
static inline int32_t gpl_cat_set_words(int32_t last_bin)
{
    return last_bin < 32 * GPL_CAT_WORDS ? GPL_CAT_WORDS : last_bin / 32 + 1;
}

/* Objectives. The backends compute the per-row gradients of kinds 0..10
 * and 16 (objective_math.h); 11 and 12 are model-level names whose gradients are
 * the logistic ones (gpl_train_objective maps them). The values cross to
 * the GPU kernels: append, never renumber. */
typedef enum gpl_objective_kind {
    GPL_OBJ_SQUARED_ERROR = 0,
    GPL_OBJ_LOGISTIC = 1,
    GPL_OBJ_SOFTMAX = 2,
    GPL_OBJ_ABSOLUTE_ERROR = 3,
    GPL_OBJ_POISSON = 4,          /* param: max_delta_step              */
    GPL_OBJ_GAMMA = 5,
    GPL_OBJ_TWEEDIE = 6,          /* param: tweedie_variance_power      */
    GPL_OBJ_SQUARED_LOG_ERROR = 7,
    GPL_OBJ_PSEUDO_HUBER = 8,     /* param: huber_slope                 */
    GPL_OBJ_QUANTILE = 9,         /* param: the output's quantile_alpha */
    GPL_OBJ_HINGE = 10,
    GPL_OBJ_REG_LOGISTIC = 11,
    GPL_OBJ_LOGITRAW = 12,
    /* LambdaMART over query groups (rank_math.h): gradients of a query
     * come from its rows' order by margin, through compute_gradients of a
     * backend that has set_groups. */
    GPL_OBJ_RANK_NDCG = 13,
    GPL_OBJ_RANK_PAIRWISE = 14,
    GPL_OBJ_RANK_MAP = 15,
    /* reg:expectileerror: one output an expectile_alpha (the request's
     * alphas), XGBoost's outputs that cannot cross (objective_math.h). */
    GPL_OBJ_EXPECTILE = 16,
    /* survival:cox: each row's risk set comes from the rows' order by
     * |label| (cox_math.h), through compute_gradients of a backend that
     * has set_survival_order. */
    GPL_OBJ_COX = 17
} gpl_objective_kind;

#define GPL_NUM_OBJECTIVES 18

/* Outputs of an objective with one output a parameter value (quantiles,
 * expectiles). */
#define GPL_MAX_OUTPUT_ALPHAS 16

static inline int gpl_objective_is_ranking(gpl_objective_kind kind)
{
    return kind == GPL_OBJ_RANK_NDCG || kind == GPL_OBJ_RANK_PAIRWISE ||
           kind == GPL_OBJ_RANK_MAP;
}

/* How a ranking objective makes its pairs (XGBoost's lambdarank_*). */
typedef enum gpl_rank_pair_method {
    GPL_RANK_TOPK = 0, /* each of the top num_pair rows by margin with every row below it */
    GPL_RANK_MEAN = 1  /* num_pair random partners of another grade for every row */
} gpl_rank_pair_method;

typedef struct gpl_rank_request {
    int32_t pair_method;     /* gpl_rank_pair_method                        */
    int32_t num_pair;        /* topk: k; mean: partners a row               */
    int32_t exp_gain;        /* NDCG gain 2^grade - 1 (else the grade)      */
    int32_t normalization;   /* lambdarank_normalization                    */
    int32_t score_normalization; /* lambdarank_score_normalization          */
    int32_t pad;
} gpl_rank_request;

/* The query groups of the training rows, fixed for a training run: what
 * the ranking gradients need besides margins and labels. The core derives
 * every table from the labels and weights once (src/core/data/rank_groups.c). */
typedef struct gpl_rank_groups {
    int64_t num_groups;
    const int64_t *group_ptr;   /* num_groups + 1 row offsets, 0 .. num_rows   */
    int64_t max_group_size;
    const double *discount;     /* max_group_size: 1 / log2(position + 2)      */
    const double *inv_idcg;     /* num_groups: 1 / ideal DCG (NDCG), 0 if none */
    const double *group_weight; /* num_groups: weight * num_groups / sum of
                                 * weights (XGBoost's weight norm); all 1 when
                                 * the rows have no weights                    */
} gpl_rank_groups;

/* What compute_gradients needs for one tree of one round. */
typedef struct gpl_gradient_request {
    gpl_objective_kind objective;
    int32_t num_outputs; /* margins per row: num_class or 1            */
    int32_t output;      /* which output this tree fits                */
    int32_t round;
    uint64_t seed;
    float subsample;     /* rows not sampled get a zero gradient pair  */
    double param;        /* the objective's parameter (see the enum)   */
    gpl_rank_request rank; /* ranking objectives only                  */
    /* LightGBM's bagging_freq: the rows are drawn anew every this many
     * rounds; 0 or 1: every round. */
    int32_t sample_every;
    /* num_parallel_tree > 1: this tree's place among the round's trees of
     * its output, each drawing its own rows; 0 or 1: one tree a round. */
    int32_t parallel_tree;
    int32_t num_parallel_tree;
    /* reg:expectileerror: the expectile of each output (num_outputs of
     * them, as floats, as XGBoost keeps them). */
    float alphas[GPL_MAX_OUTPUT_ALPHAS];
} gpl_gradient_request;

/* survival:cox's order of the training rows, fixed for a training run
 * (the core derives it from the labels once): the rows by |label|
 * ascending, ties in row order (XGBoost's stable sort), and for each
 * position the first position of its tie (the rows of one time share a
 * risk set, Breslow's rule as XGBoost's). */
typedef struct gpl_survival_order {
    const uint32_t *order;     /* num_rows row indexes  */
    const uint32_t *tie_start; /* num_rows positions    */
} gpl_survival_order;

/* The round whose row sample a tree uses (gpl_row_sampled's round): with
 * sample_every k, the first round of its block of k. */
static inline int32_t gpl_sample_round(const gpl_gradient_request *req)
{
    const int32_t round =
        req->sample_every > 1 ? req->round - req->round % req->sample_every : req->round;
    return req->num_parallel_tree > 1 ? round * req->num_parallel_tree + req->parallel_tree
                                      : round;
}

/* Power-of-two factors that turned float gradients into int64; a sum of
 * quantized values divided by the scale is the real sum. */
typedef struct gpl_quant_scale {
    double grad;
    double hess;
} gpl_quant_scale;

typedef struct gpl_split_params {
    double lambda;           /* L2 on leaf weights                   */
    double alpha;            /* L1 on leaf weights                   */
    double min_child_weight; /* minimum hessian sum of a child       */
    gpl_quant_scale scale;   /* of the current gradients             */
    /* Non-zero when the children of these nodes will be leaves (depth
     * limit): a backend that prepares a split's rows ahead need not. */
    int32_t leaf_children;
    /* Categorical features (split_math.h, gpl_cat_* ): features of at
     * most max_cat_to_onehot value bins try one category against the
     * rest; others sort their categories by gradient / (hessian +
     * cat_smooth) and try the first k from either end, k <= max_cat_threshold,
     * with lambda + cat_l2 in the gains; a category with a hessian sum
     * below min_child_weight always goes right, and a candidate is tried
     * only where the categories added since the last one tried, and those
     * not in the set, hold min_data_per_group rows each (counted as
     * gpl_cat_rows_at_least says). */
    int32_t max_cat_to_onehot;
    int32_t max_cat_threshold;
    double cat_smooth;
    double cat_l2;
    double min_data_per_group;
    /* Bounded weights (split_math.h): max_delta_step > 0 clamps every
     * weight; monotone (num_features entries of -1, 0, 1; NULL: none) makes
     * a split on a constrained feature a candidate only where its
     * children's weights go that way; bounds (lower, upper a node, in the
     * order of the call's nodes; NULL: unbounded) clamp the weights of
     * each node's children. */
    double max_delta_step;
    const int8_t *monotone;
    const double *bounds;
    /* The factor of the gains of splits on monotone features at these
     * nodes' depth (monotone_penalty, gpl_monotone_penalty_factor); 1:
     * none. */
    double monotone_gain_factor;
    /* The rows of each node, in the order of the call's nodes, at most
     * UINT32_MAX (more are counted as that many); 0 or NULL: unknown, and
     * the row rules (the categorical ones above, min_data_in_leaf) then
     * pass every category and candidate. */
    const uint32_t *node_rows;
    /* LightGBM's min_data_in_leaf: a candidate whose children do not both
     * hold this many rows (gpl_children_rows_ok) is not tried; 0: none. */
    double min_data_in_leaf;
} gpl_split_params;

/* A node's bounds on its weight (split_math.h). */
typedef struct gpl_node_bounds {
    double lo, hi;
} gpl_node_bounds;

/* The bounds of the i-th node of an evaluate_splits call. */
static inline gpl_node_bounds gpl_split_node_bounds(const gpl_split_params *p, int32_t i)
{
    gpl_node_bounds b = {-HUGE_VAL, HUGE_VAL};
    if (p->bounds) {
        b.lo = p->bounds[2 * i];
        b.hi = p->bounds[2 * i + 1];
    }
    return b;
}

/* The rows of the i-th node of an evaluate_splits call (0: unknown). */
static inline uint32_t gpl_split_node_rows(const gpl_split_params *p, int32_t i)
{
    return p->node_rows ? p->node_rows[i] : 0u;
}

/* The compact record of a node's best split: all that crosses from a device
 * to the host per node and level. feature < 0 means no valid split. */
typedef struct gpl_split_record {
    int32_t node;
    int32_t feature;
    int32_t bin;          /* value bins 1..bin go left; categorical: the
                           * candidate's key (gpl_cat_key)               */
    int32_t default_left; /* missing values (bin 0) go left              */
    double gain;          /* loss reduction, before gamma                */
    gpl_grad_pair left;   /* sums of the left child                      */
    gpl_grad_pair right;  /* sums of the right child                     */
    gpl_grad_pair total;  /* sums of the node (= left + right if split)  */
    int32_t categorical;  /* non-zero: the value bins in left_set go left */
    int32_t pad;          /* zero: records compare bytewise              */
    /* Zero for a feature of more than 255 value bins: the core rebuilds
     * its set from the node's histogram (cat_set.h). */
    uint32_t left_set[GPL_CAT_WORDS];
} gpl_split_record;

/* A split to apply: rows of node go to left_child or right_child. */
typedef struct gpl_split_apply {
    int32_t node;
    int32_t feature;
    int32_t bin;
    int32_t default_left;
    int32_t left_child;
    int32_t right_child;
    int32_t categorical;  /* as in gpl_split_record                      */
    uint32_t left_set[GPL_CAT_WORDS];
    /* A categorical split on a feature of more than 255 value bins: its
     * set (gpl_cat_set_words words, the core's), left_set unused; else
     * NULL. Only backends with GPL_BACKEND_CAP_WIDE_CATEGORIES are given
     * one. */
    const uint32_t *wide_set;
} gpl_split_apply;

/* Whether a row whose bin is b goes to the left child of split s. */
static inline int gpl_split_goes_left(const gpl_split_apply *s, uint32_t b)
{
    if (b == 0) return s->default_left != 0;
    if (!s->categorical) return b <= (uint32_t)s->bin;
    return gpl_cat_set_has(s->wide_set ? s->wide_set : s->left_set, b);
}

/* hist[target] = hist[parent] - hist[built]: the larger child for free. */
typedef struct gpl_hist_subtract {
    int32_t parent;
    int32_t built;
    int32_t target;
} gpl_hist_subtract;

typedef struct gpl_memory_report {
    size_t allocated_bytes; /* now                                  */
    size_t peak_bytes;      /* since the backend was created        */
    size_t estimate_bytes;  /* the plan made before training        */
} gpl_memory_report;

typedef struct gpl_backend_config {
    int32_t nthread;    /* CPU threads; 0 = all cores                   */
    int32_t device;     /* device index within the accelerator          */
    int32_t max_nodes;  /* node ids of a tree are 0..max_nodes-1        */
    int32_t num_outputs;
    int verbose;
} gpl_backend_config;

typedef struct gpl_backend gpl_backend;

/* ------------------------------------------------------------ prediction
 *
 * Batch prediction of a saved model (src/core/booster/predict.c builds the job).
 * Trees are flattened into 16-byte nodes; a leaf points to itself twice,
 * so walking a tree for its full depth ends on the row's leaf without a
 * test for leaves. A row goes to child[1] (right) unless its bin b of the
 * node's feature has 1 <= b <= bin (categorical: b is in the node's set),
 * or b == 0 (missing) and default_left.
 *
 * Numeric contract: a value's bin is 0 for NaN, else 1 + the number of the
 * feature's cuts <= the value (gpl_bin_of of binning.h); output k of a row
 * starts at base_margins[k] and adds the leaf values of trees k, k + K, k + 2K,
 * ... in that order, one float addition each (IEEE round to nearest,
 * nothing fused or reordered). Every device that follows this gives the
 * CPU's margins bit for bit. */
typedef struct gpl_infer_node {
    int32_t child[2]; /* left, right; a leaf: its own index twice */
    int32_t feature;
    uint16_t bin;        /* a leaf: GPL_INFER_LEAF_BIN                 */
    uint8_t default_left;
    uint8_t categorical; /* the node's set in cat_sets decides, not bin */
} gpl_infer_node;

/* A leaf's bin: every value bin is <= it, so a walk that goes on past a
 * leaf stays on it whatever the row. */
#define GPL_INFER_LEAF_BIN 0xffffu

/* All the trees used, concatenated; child indices are within a tree. */
typedef struct gpl_infer_forest {
    gpl_infer_node *nodes; /* num_nodes                            */
    float *leaf;           /* num_nodes: the leaf value, 0 inside  */
    int64_t *first;        /* num_trees + 1: first node of a tree  */
    int32_t *depth;        /* num_trees: longest root-leaf path    */
    /* cat_words words a node, node i's at i * cat_words: the value bins
     * of a categorical node that go left; NULL when no node is. cat_words
     * is GPL_CAT_WORDS unless a categorical node's feature has more than
     * 255 value bins (gpl_cat_set_words of the widest such feature), and
     * only backends with GPL_BACKEND_CAP_WIDE_SETS are given such a
     * forest. */
    uint32_t *cat_sets;
    int32_t cat_words;
    int32_t num_trees;
    int64_t num_nodes;
    /* Bytes of a bin code (1, or 2 when a feature has more than 255 value
     * bins): the width of the codes the trees are walked on. */
    int32_t code_bytes;
} gpl_infer_forest;

typedef struct gpl_predict_job {
    const gpl_infer_forest *forest;
    int32_t num_outputs;  /* K: tree t adds to output t % K        */
    const float *base_margins; /* K: each output's initial margin   */
    int32_t num_features;
    const uint32_t *cut_ptr;   /* num_features + 1                  */
    const float *cut_values;   /* cut_ptr[num_features]             */
    int64_t num_rows;
    const float *const *columns; /* num_features raw columns of num_rows */
} gpl_predict_job;

/* ------------------------------------------------------------ SHAP values
 *
 * Contributions of features to margins on a device (shap_math.h holds the
 * arithmetic; src/core/booster/shap.c builds the job and is the
 * reference). Beside the inference forest the device gets per node its
 * share of its parent's cover and its expected value, both computed on the
 * host in double as the CPU computes them. */
typedef struct gpl_shap_forest {
    int32_t num_trees;
    int64_t *first;      /* num_trees + 1: where tree t's nodes start    */
    double *frac;        /* per node: cover / the parent's (roots: 1)   */
    double *mean;        /* per node: cover-weighted mean of its leaves */
    uint8_t *linear;     /* per tree: taken by the linear walk (depth <=
                          * GPL_SHAP_LINEAR_DEPTH, no node of zero cover) */
    int64_t *feat_first; /* num_trees + 1, into features                */
    int32_t *features;   /* the distinct features each tree splits on   */
    int32_t max_depth;
} gpl_shap_forest;

typedef enum gpl_shap_kind {
    GPL_SHAP_EXACT = 0,        /* TreeSHAP                                */
    GPL_SHAP_APPROX = 1,       /* Saabas: the value change along the path */
    GPL_SHAP_INTERACTIONS = 2  /* pairs of features, TreeSHAP conditioned */
} gpl_shap_kind;

/* A row's values: num_outputs x (features + 1), or num_outputs x
 * (features + 1)^2 for interactions, the bias last (gpl_shap_row_width of
 * shap.h); written as floats from the double sums, as the CPU does. A
 * row's bias starts from its base margins (row_base, num_rows x outputs)
 * where given, else from predict.base_margins. */
typedef struct gpl_shap_job {
    gpl_predict_job predict;
    const gpl_shap_forest *shap;
    gpl_shap_kind kind;
    const float *row_base;
} gpl_shap_job;

/* The layout of struct gpl_backend_ops. A backend's table carries the
 * version it was written for and gpl_backend_new refuses any other, so a
 * table of an older layout is never read member by member. Raise it with
 * every change of the struct. */
#define GPL_BACKEND_OPS_VERSION 2

/* The optional operations, one bit each in a table's capabilities word.
 * gpl_backend_new checks every bit against its members, so the core asks
 * gpl_backend_has and never tests a member for NULL. */
typedef enum gpl_backend_cap {
    GPL_BACKEND_CAP_SPLIT_INTO_LEAVES = 1 << 0, /* split_into_leaves         */
    GPL_BACKEND_CAP_WRITE_PAIRS = 1 << 1,       /* write_pairs               */
    GPL_BACKEND_CAP_PREDICT = 1 << 2,           /* predict                   */
    GPL_BACKEND_CAP_REFIT = 1 << 3,             /* refit_sort, refit_values  */
    GPL_BACKEND_CAP_RANK_GROUPS = 1 << 4,       /* set_groups                */
    GPL_BACKEND_CAP_SHAP = 1 << 5,              /* shap                      */
    /* Not operations: 16-bit bin codes (a feature of more than 256 bins)
     * in upload (gpl_binned_matrix.code_bytes 2), and in predict and shap
     * (gpl_infer_forest.code_bytes 2). */
    GPL_BACKEND_CAP_WIDE_BINS = 1 << 6,
    GPL_BACKEND_CAP_WIDE_PREDICT = 1 << 7,
    GPL_BACKEND_CAP_SURVIVAL_ORDER = 1 << 8,     /* set_survival_order        */
    /* Not an operation: predict and shap of forests with sets of more than
     * 255 categories (gpl_infer_forest.cat_words above GPL_CAT_WORDS);
     * training such splits takes GPL_BACKEND_CAP_WIDE_CATEGORIES. */
    GPL_BACKEND_CAP_WIDE_SETS = 1 << 9,
    /* Not an operation: training categorical features split by sets of
     * more than 255 value bins (with GPL_BACKEND_CAP_WIDE_BINS): records
     * of such splits with left_set zero, and gpl_split_apply.wide_set in
     * partition_rows and split_into_leaves. */
    GPL_BACKEND_CAP_WIDE_CATEGORIES = 1 << 10
} gpl_backend_cap;

#define GPL_BACKEND_CAP_ALL 0x7ffu

/* Every operation returns a status and sets the last error on failure; a
 * failure names the operation (and kernel) concerned. The required
 * operations come first; the optional ones, last, are each set exactly
 * when the table's capabilities word has their bit. */
struct gpl_backend_ops {
    int version;           /* GPL_BACKEND_OPS_VERSION                      */
    const char *name;
    unsigned capabilities; /* gpl_backend_cap bits of the optional members */
    void (*destroy)(gpl_backend *be);

    /* Takes the binned matrix (the backend may copy it to the device) and
     * the labels/weights (weight may be NULL). Called once per training. */
    gpulayer_status (*upload)(gpl_backend *be, const gpl_binned_matrix *m,
                              const float *label, const float *weight);
    /* Sets all margins (num_rows x num_outputs, row-major). */
    gpulayer_status (*set_margins)(gpl_backend *be, const float *margins);
    gpulayer_status (*get_margins)(gpl_backend *be, float *margins);

    /* Computes and quantizes the gradient pairs of every row for one tree.
     * Softmax: every class's gradient of a round comes from the margins at
     * its start, as XGBoost's do. A request for output 0 (a round's first
     * tree), or the first request since the margins were set, takes each
     * row's normaliser (gpl_softmax_normalizer) from the margins as they
     * are; later requests reuse it, so a round costs rows x classes. */
    gpulayer_status (*compute_gradients)(gpl_backend *be,
                                         const gpl_gradient_request *req,
                                         gpl_quant_scale *scale);
    /* Starts a tree: every row belongs to node 0. */
    gpulayer_status (*begin_tree)(gpl_backend *be);
    gpulayer_status (*build_histograms)(gpl_backend *be, const int32_t *nodes,
                                        int32_t num_nodes);
    gpulayer_status (*subtract_histograms)(gpl_backend *be,
                                           const gpl_hist_subtract *subs,
                                           int32_t count);
    /* feature_mask: num_features bytes, non-zero = may be split on. */
    gpulayer_status (*evaluate_splits)(gpl_backend *be, const int32_t *nodes,
                                       int32_t num_nodes,
                                       const gpl_split_params *params,
                                       const uint8_t *feature_mask,
                                       gpl_split_record *out);
    /* child_rows receives 2 * count row counts (left, right per split). */
    gpulayer_status (*partition_rows)(gpl_backend *be,
                                      const gpl_split_apply *splits,
                                      int32_t count, int64_t *child_rows);
    /* margins[row][output] += leaf_value[node of row], for every row.
     * leaf_value has max_nodes entries (already scaled by eta). */
    gpulayer_status (*update_margins)(gpl_backend *be, int32_t output,
                                      const float *leaf_value);
    /* Histograms no longer needed (their nodes are done). */
    gpulayer_status (*release_histograms)(gpl_backend *be, const int32_t *nodes,
                                          int32_t num_nodes);
    /* For tests: copies a node's histogram (feature_offset[F] entries). */
    gpulayer_status (*read_histogram)(gpl_backend *be, int32_t node,
                                      gpl_grad_pair *out);
    void (*memory)(gpl_backend *be, gpl_memory_report *out);

    /* ------------------------------------------------ optional operations
     * Each is set exactly when its GPL_BACKEND_CAP_* bit is; the core asks
     * gpl_backend_has before calling one. */

    /* GPL_BACKEND_CAP_SPLIT_INTO_LEAVES (without it the driver calls
     * partition_rows): the splits' children are leaves. Only
     * update_margins reads their rows afterwards, so a backend may record
     * the splits instead of moving rows; no child counts come back. */
    gpulayer_status (*split_into_leaves)(gpl_backend *be, const gpl_split_apply *splits,
                                         int32_t count);
    /* GPL_BACKEND_CAP_WRITE_PAIRS, for data-parallel training
     * (src/distributed/) and custom objectives: overwrites backend state
     * with pairs the host made (summed or quantized over every rank, so
     * that each rank goes on from the same global numbers; or quantized
     * from a callback's gradients). node >= 0: that node's histogram (feature_offset[F] pairs; the node need not have
     * one yet). node == GPL_ROW_GRADIENTS: the quantized gradient pair of
     * every row (num_rows pairs), replacing compute_gradients' output. */
    gpulayer_status (*write_pairs)(gpl_backend *be, int32_t node,
                                   const gpl_grad_pair *in);
    /* GPL_BACKEND_CAP_PREDICT: batch prediction on the device,
     * independent of upload and of every training operation (a backend
     * created only to predict).
     * Bins the raw columns with the cuts and walks every tree for every
     * row, both on the device, and writes margins (num_rows x num_outputs,
     * row-major) bit for bit as the CPU does (see gpl_predict_job). The
     * transform to probabilities stays with the caller. */
    gpulayer_status (*predict)(gpl_backend *be, const gpl_predict_job *job,
                               float *margins);
    /* GPL_BACKEND_CAP_REFIT (both members), for the leaf refit of
     * absolute and quantile error without weights (src/core/train/leaf_refit.c;
     * without these it uses the host's copy of the rows and the backend's
     * margins). refit_sort takes the
     * rows gpl_row_sampled keeps for req (its round, seed, subsample and
     * output), each with its residual label - margin[output] (one float
     * subtraction; -0 counts as +0) and its leaf of the tree (nodes as
     * gpl_infer_node, walked on the row's bins as prediction does;
     * cat_sets as in gpl_infer_forest, or NULL), and orders them by leaf,
     * then residual: leaf_rows[i] gets the rows of node i. refit_values
     * then reads the residuals at positions of that order (the rows of
     * node i follow those of nodes < i). */
    gpulayer_status (*refit_sort)(gpl_backend *be, const gpl_gradient_request *req,
                                  const gpl_infer_node *nodes, const uint32_t *cat_sets,
                                  int32_t num_nodes, int64_t *leaf_rows);
    gpulayer_status (*refit_values)(gpl_backend *be, const int64_t *positions,
                                    int32_t count, float *values);
    /* GPL_BACKEND_CAP_RANK_GROUPS, for the ranking objectives: takes the
     * query groups of the uploaded rows (called once after upload; the
     * backend copies what it needs). Without it the driver refuses the ranking objectives on the
     * backend. compute_gradients of a ranking kind then follows
     * rank_math.h: each query's rows ordered by margin on the device, its
     * pairs' lambdas summed per row in fixed point (order-free, so every
     * backend gets the same bits), normalised and weighted per query. */
    gpulayer_status (*set_groups)(gpl_backend *be, const gpl_rank_groups *groups);
    /* GPL_BACKEND_CAP_SHAP: SHAP values of every row on the device (see
     * gpl_shap_job), bit for bit as the CPU's; like predict, independent
     * of training. The backend bounds its workspace, streaming the rows in
     * blocks, and refuses with the numbers what does not fit. */
    gpulayer_status (*shap)(gpl_backend *be, const gpl_shap_job *job, float *out);
    /* GPL_BACKEND_CAP_SURVIVAL_ORDER, for survival:cox: takes the rows'
     * order by time (called once after upload; the backend copies it).
     * Without it the driver refuses the objective on the backend.
     * compute_gradients of GPL_OBJ_COX then follows cox_math.h: its sums
     * over the order go in blocks of GPL_COX_BLOCK positions in a fixed
     * order, so every backend gets the same bits. */
    gpulayer_status (*set_survival_order)(gpl_backend *be, const gpl_survival_order *order);
};

#define GPL_ROW_GRADIENTS (-1)

struct gpl_backend {
    const struct gpl_backend_ops *ops;
    void *ctx;
    gpl_backend_config config;
};

/* Non-zero when the backend has every optional operation of cap (an OR of
 * GPL_BACKEND_CAP_* bits). */
static inline int gpl_backend_has(const gpl_backend *be, unsigned cap)
{
    return (be->ops->capabilities & cap) == cap;
}

/* Creates a backend by accelerator name ("cpu", "cuda", ...). */
gpulayer_status gpl_backend_create(const char *accelerator,
                                   const gpl_backend_config *config,
                                   gpl_backend **out);
void gpl_backend_destroy(gpl_backend *be);
/* The part every backend's constructor shares: checks ops (its version,
 * its required members, and that its capabilities word names exactly the
 * optional members it sets) and config, allocates the backend and a zeroed
 * context of ctx_bytes (be->ctx), and sets ops and config. name prefixes
 * the messages ("cuda backend: ..."). */
gpulayer_status gpl_backend_new(const char *name, const struct gpl_backend_ops *ops,
                                const gpl_backend_config *config, size_t ctx_bytes,
                                gpl_backend **out);
/* Non-zero when this build contains the named backend. */
int gpl_backend_is_built(const char *accelerator);
/* Starts the named backend's driver and the context of a device ahead of
 * gpl_backend_create, so that their start-up overlaps placement: device
 * >= 0 names the device; -1 means the host's only device when it has
 * exactly one (else the driver alone). Best effort: errors are ignored
 * here and met again by gpl_backend_create. May block while the driver
 * starts; a no-op for backends without a driver to start. */
void gpl_backend_warm_up(const char *accelerator, int device);
/* Non-zero when this build contains the named backend and it has a driver
 * to start ahead (gpl_backend_warm_up then does something). */
int gpl_backend_has_warm_up(const char *accelerator);

/* Per-backend constructors (registry.c lists them). */
gpulayer_status gpl_cpu_backend_create(const gpl_backend_config *config,
                                       gpl_backend **out);
/* The CPU backend's write_pairs (src/backend/cpu/cpu_dist.c). */
gpulayer_status gpl_cpu_write_pairs(gpl_backend *be, int32_t node,
                                    const gpl_grad_pair *in);
#ifdef GPL_HAVE_CUDA
gpulayer_status gpl_cuda_backend_create(const gpl_backend_config *config,
                                        gpl_backend **out);
void gpl_cuda_backend_warm_up(int device);
#endif
#ifdef GPL_HAVE_VULKAN
gpulayer_status gpl_vulkan_backend_create(const gpl_backend_config *config,
                                          gpl_backend **out);
#endif
#ifdef GPL_HAVE_METAL
/* The Apple GPU through Metal (accelerator "mps"), src/backend/metal/. */
gpulayer_status gpl_metal_backend_create(const gpl_backend_config *config,
                                         gpl_backend **out);
#endif

#endif
