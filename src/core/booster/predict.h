/* predict.h -- applying trees to binned rows. */
#ifndef GPL_PREDICT_H
#define GPL_PREDICT_H

#include <stdint.h>

#include "backend.h"
#include "binning.h"
#include "model.h"

/* Whether a split node sends a row whose bin of the node's feature is b
 * to its left child: bin 0 (missing) where missing values learned to go,
 * a category by the node's set, a value bin by its split bin. */
static inline int gpl_node_goes_left(const gpl_tree_node *n, int b)
{
    return b == 0 ? n->default_left
           : n->categorical ? gpl_node_in_set(n, (uint32_t)b)
                            : b <= n->split_bin;
}

/* The index of the leaf a tree sends a row of bins to (num_features
 * codes of code_bytes bytes). */
static inline int32_t gpl_tree_leaf_index(const gpl_tree *t, const uint8_t *row,
                                          int code_bytes)
{
    const gpl_tree_node *nodes = t->nodes;
    int32_t i = 0;
    while (nodes[i].left >= 0) {
        const gpl_tree_node *n = &nodes[i];
        const int b = (int)gpl_bin_code(row, code_bytes, n->feature);
        i = gpl_node_goes_left(n, b) ? n->left : n->right;
    }
    return i;
}

/* margins[r * num_outputs + output] += tree(r) for rows of a binned
 * row-major matrix of codes of code_bytes bytes. */
void gpl_tree_add_to_margins(const gpl_tree *t, const uint8_t *bins, int code_bytes,
                             int64_t num_rows, int32_t num_features,
                             int32_t num_outputs, int32_t output,
                             float *margins, int nthread);

/* The first num_trees trees of m flattened for inference (backend.h);
 * free with gpl_infer_forest_free. */
gpulayer_status gpl_infer_forest_build(const gpl_model *m, int32_t num_trees,
                                       gpl_infer_forest *f);
/* The same for trees first_tree .. first_tree + num_trees - 1. */
gpulayer_status gpl_infer_forest_build_range(const gpl_model *m, int32_t first_tree,
                                             int32_t num_trees, gpl_infer_forest *f);
/* margins[r * num_outputs + t % num_outputs] += tree t of f at row r, for
 * every tree of f in order and rows of a binned row-major matrix (codes of
 * f->code_bytes bytes): the bits of gpl_tree_add_to_margins tree after
 * tree, the rows walked eight at a time without branches. The forest's
 * first tree must fit output 0. */
void gpl_forest_add_to_margins(const gpl_infer_forest *f, const uint8_t *bins,
                               int64_t num_rows, int32_t num_features, int32_t num_outputs,
                               float *margins, int nthread);
void gpl_infer_forest_free(gpl_infer_forest *f);
/* UNSUPPORTED, naming the job and the backend, when f has sets wider than
 * GPL_CAT_WORDS and be lacks GPL_BACKEND_CAP_WIDE_SETS. */
gpulayer_status gpl_forest_sets_supported(const gpl_infer_forest *f, const gpl_backend *be,
                                          const char *job);
/* Adds every tree of m to margins (num_rows x outputs) of a binned
 * row-major matrix (the model's code width) with gpl_forest_add_to_margins;
 * nothing when m has no trees. */
gpulayer_status gpl_margins_add_model(const gpl_model *m, const uint8_t *bins, int64_t num_rows,
                                      int32_t num_features, float *margins, int nthread);

/* The predictions of n rows on the CPU (column f's values at columns[f],
 * n of them, as the model reads them): binned into bins (n x features
 * codes of forest->code_bytes bytes),
 * margins summed in o (n x outputs) from the rows' base margins (n x
 * outputs; NULL: the model's base score), then gpl_model_prediction_width
 * values a row written to out (margins, or transformed when margin is 0). */
void gpl_predict_block(const gpl_model *m, const gpl_infer_forest *forest,
                       const gpl_padded_cuts *padded, const float *const *columns, int64_t n,
                       const float *base, int margin, uint8_t *bins, float *o, float *out);

/* Where work on device runs: accelerator "cpu" (device NULL, "" or
 * "cpu"), or the backend and device index the device layer picks; verbose
 * prints the device layer's reason. what ("prediction") begins an error. */
gpulayer_status gpl_predict_place(const char *what, const char *device, char *accelerator,
                                  size_t size, int *index, int verbose);

/* The number of trees a prediction of num_rounds rounds uses: all, or up
 * to the best round when num_rounds <= 0 and early stopping found one. */
int32_t gpl_predict_num_trees(const gpl_model *m, int32_t num_rounds);

/* The columns of ds as the model reads them (columns[f], num_rows values):
 * the data's own, or a copy in owned[f] when categorical codes need
 * translating to the model's dictionary. Checks the column count; free
 * with gpl_predict_columns_free. */
gpulayer_status gpl_predict_columns(const gpl_model *m, const gpulayer_dataset *ds,
                                    const float ***columns, float ***owned);
void gpl_predict_columns_free(const gpl_model *m, const float **columns, float **owned);

#endif
