/* model.h -- a trained model: bin cuts, trees, and what prediction needs. */
#ifndef GPL_MODEL_H
#define GPL_MODEL_H

#include <float.h>
#include <stdarg.h>
#include <stdint.h>

#include "backend.h"
#include "error.h"
#include "dataset.h"
#include "objective.h"

/* Bin codes are 16 bits: bin 0 (missing) and at most 65,535 value bins, so
 * a feature has at most this many thresholds (max_bin at most 65,536). */
#define GPL_MAX_CUTS (GPL_MAX_BIN_CODE - 1)
/* The most thresholds a feature may have for its bins to fit a byte. */
#define GPL_BYTE_CUTS 254

/* Quantile cut points. Feature f has the ascending thresholds
 * values[cut_ptr[f] .. cut_ptr[f+1]); a value v falls in bin
 * 1 + (number of thresholds <= v), NaN in bin 0. A split at bin b sends
 * v < values[cut_ptr[f] + b - 1] to the left child. */
typedef struct gpl_bin_cuts {
    int32_t num_features;
    uint32_t *cut_ptr; /* num_features + 1 */
    float *values;
} gpl_bin_cuts;

/* The raw threshold of a split at bin b of feature f: v < threshold goes
 * left. A split after the last value bin sends every value left and only
 * missing values right; its threshold is FLT_MAX. */
static inline float gpl_split_threshold(const gpl_bin_cuts *c, int32_t f, int32_t b)
{
    uint32_t count = c->cut_ptr[f + 1] - c->cut_ptr[f];
    return (uint32_t)b <= count ? c->values[c->cut_ptr[f] + (uint32_t)b - 1] : FLT_MAX;
}

/* One node. Leaves have left = right = feature = -1. */
typedef struct gpl_tree_node {
    int32_t left;
    int32_t right;
    int32_t feature;
    int32_t split_bin;    /* value bins 1..split_bin go left           */
    int32_t default_left; /* where missing values go                   */
    float threshold;      /* v < threshold goes left (raw units);
                           * categorical: 0                            */
    float leaf_value;     /* leaves: output added to the margin        */
    double gain;          /* internal nodes: loss reduction            */
    double cover;         /* hessian sum of the node's rows            */
    int32_t categorical;  /* non-zero: categories in the set go left   */
    /* Value bins of the categorical feature that go left: bin b is the
     * category of code b - 1 (gpl_cat_set_has). A set with bins past the
     * inline words (a feature of more than 255 categories) is in wide_set
     * instead, wide_words words owned by the node (NULL, 0 otherwise):
     * gpl_node_set. */
    uint32_t left_set[GPL_CAT_WORDS];
    uint32_t *wide_set;
    int32_t wide_words;
} gpl_tree_node;

/* The set of a categorical node. */
static inline const uint32_t *gpl_node_set(const gpl_tree_node *n)
{
    return n->wide_set ? n->wide_set : n->left_set;
}

/* The words of a categorical node's set: it holds bins below 32 times as
 * many. */
static inline int32_t gpl_node_set_words(const gpl_tree_node *n)
{
    return n->wide_set ? n->wide_words : GPL_CAT_WORDS;
}

/* Whether value bin b is in categorical node n's set (a bin past the
 * set's words is not). */
static inline int gpl_node_in_set(const gpl_tree_node *n, uint32_t b)
{
    return b < 32u * (uint32_t)gpl_node_set_words(n) && gpl_cat_set_has(gpl_node_set(n), b);
}

typedef struct gpl_tree {
    int32_t num_nodes;
    gpl_tree_node *nodes; /* node 0 is the root */
} gpl_tree;

typedef struct gpl_model {
    gpl_objective_kind objective;
    int32_t num_class;    /* >= 2 for softmax, else 1                  */
    int32_t num_outputs;  /* margins per row                           */
    int32_t num_features;
    int32_t softmax_output_class; /* multi:softmax: predict the class  */
    float base_margin;    /* initial margin of every output            */
    float base_score;     /* the same in output space (XGBoost's name) */
    /* num_outputs entries, or NULL: output k's initial margin, where the
     * outputs start apart (multi:softprob's class intercepts); base_margin
     * and base_score then stand for none of them. */
    float *base_margins;
    gpl_objective_params obj_params; /* saved when the objective has any */
    gpl_bin_cuts cuts;
    char **feature_names;             /* num_features, entries may be NULL; or NULL */
    gpl_category_dict **categories;   /* num_features, NULL = numeric; or NULL */
    /* num_features entries, or NULL: for a categorical feature with more
     * categories than max_categories, the group of each category code
     * (categories[f]->count entries, groups 0..G): the most frequent
     * categories in training have a group each, the rest share the last.
     * A split by sets then names groups, and group g is value bin g + 1.
     * NULL entries: no grouping (the code is the group). */
    int32_t **cat_groups;
    /* Trained on class names: class k's name (sorted), num_class of them
     * (2 for binary:*); NULL for numeric labels. */
    gpl_category_dict *class_names;
    /* While training: num_features flags, non-zero for a categorical
     * feature split by sets (its value bin b is the category of code
     * b - 1); NULL when none is. Not saved: the nodes say it. */
    uint8_t *cat_split;
    /* Trees a round grows for each output (num_parallel_tree: a random
     * forest's trees are the parallel trees of one round); >= 1. A round
     * holds num_parallel_tree groups of num_outputs trees. */
    int32_t num_parallel_tree;
    int32_t num_trees;    /* tree t fits output t % num_outputs        */
    int32_t tree_capacity;
    gpl_tree *trees;
    int32_t best_round;   /* -1 when early stopping found none         */
    char *params_json;    /* the training parameters, for the record   */
} gpl_model;

gpl_model *gpl_model_new(void);
void gpl_model_free(gpl_model *m);
/* Frees num_nodes nodes and their sets (nodes may be NULL). */
void gpl_tree_nodes_free(gpl_tree_node *nodes, int32_t num_nodes);
void gpl_bin_cuts_free(gpl_bin_cuts *c);
/* Appends a tree (takes ownership of its nodes). */
gpulayer_status gpl_model_add_tree(gpl_model *m, gpl_tree *tree);
/* The trees of one round: num_parallel_tree x num_outputs. */
static inline int32_t gpl_model_trees_per_round(const gpl_model *m)
{
    return m->num_outputs * (m->num_parallel_tree > 1 ? m->num_parallel_tree : 1);
}

static inline int32_t gpl_model_num_rounds(const gpl_model *m)
{
    return m->num_outputs ? m->num_trees / gpl_model_trees_per_round(m) : 0;
}

/* Output k's initial margin. */
static inline float gpl_model_base_margin(const gpl_model *m, int32_t k)
{
    return m->base_margins ? m->base_margins[k] : m->base_margin;
}

/* The model's objective name (objective.h has the table). */
const char *gpl_objective_name(const gpl_model *m);
/* Margin -> output transform of a row's num_outputs values, in place. */
void gpl_objective_transform(const gpl_model *m, float *row_values);

/* Records an error of this status prefixed with the file name, when there
 * is one (source NULL: a model in memory), and returns the status;
 * gpl_model_error's status is GPULAYER_ERR_MODEL. */
gpulayer_status gpl_model_verror(gpulayer_status status, const char *source, const char *fmt,
                                 va_list ap);
gpulayer_status gpl_model_error(const char *source, const char *fmt, ...)
    GPL_PRINTF(2, 3);

/* Model JSON (model_write.c, model_read.c). The text is validated strictly: a truncated,
 * damaged or foreign document is refused with a message saying what is
 * wrong. */
gpulayer_status gpl_model_to_json(const gpl_model *m, char **out, size_t *len);
/* Whether every feature name and category name is UTF-8 text (model_write.c);
 * the error names the feature, the text and the first bad byte. */
gpulayer_status gpl_model_check_utf8(const gpl_model *m);
gpulayer_status gpl_model_from_json(const char *text, size_t len,
                                    const char *source, gpl_model **out);
gpulayer_status gpl_model_export_xgboost(const gpl_model *m, char **out,
                                         size_t *len);

/* A deep copy of m (through its JSON text). */
gpulayer_status gpl_model_copy(const gpl_model *m, gpl_model **out);

/* Values per row of a prediction: num_outputs, except 1 for the class
 * index of multi:softmax when margin is 0 (gpl_objective_transform writes
 * that class into the first value of the row). */
int32_t gpl_model_prediction_width(const gpl_model *m, int margin);

/* Checks that a model is consistent (model_check.c): objective and output
 * counts, ascending cuts, sorted category names, and trees whose nodes form
 * a tree with splits on existing features and bins. Run on every model read
 * and written. source names the file in messages, or NULL. */
gpulayer_status gpl_model_validate(const gpl_model *m, const char *source);

/* The number of groups of categorical feature f: its category count, or
 * 1 + the largest group when its categories are grouped. */
int32_t gpl_model_category_groups(const gpl_model *m, int32_t f);

/* The text of training parameter key in the model's parameter record into
 * buf ("" where the record lacks it or is not a JSON object). */
void gpl_model_record_param(const gpl_model *m, const char *key, char *buf, size_t size);

/* Recomputes the checksum of a model JSON text after a deliberate edit
 * (tools, tests); the result is pretty-printed like a saved model. Only the
 * JSON syntax is checked, not the model. */
gpulayer_status gpl_model_json_reseal(const char *text, size_t len,
                                      char **out, size_t *out_len);

#endif
