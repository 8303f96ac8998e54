/*
 * cuda_kernels.h -- the boundary between the CUDA backend's host code (C)
 * and its kernels (.cu): argument records passed by value to each kernel,
 * and the launch functions. Plain C, so both sides include it.
 *
 * GPL_CUDA_KERNEL_ABI changes whenever a record below or a kernel's meaning
 * changes; the device code reports the value it was compiled with and the
 * backend refuses to start on a mismatch (a stale object file or fatbin).
 */
#ifndef GPL_CUDA_KERNELS_H
#define GPL_CUDA_KERNELS_H

#include <cuda_runtime_api.h>
#include <stdint.h>

#include "backend.h"
#include "shap_math.h"

#define GPL_CUDA_KERNEL_ABI 13

/* Histogram columns in shared memory: one per lane, so that the lanes of a
 * warp never share a bank (see kernels_hist.cu). */
#define GPL_CUDA_HIST_COLS 32
#define GPL_CUDA_HIST_THREADS 1024
/* Rows per block of the partition and margin kernels. */
#define GPL_CUDA_TILE_THREADS 256
#define GPL_CUDA_TILE_ITEMS 8
#define GPL_CUDA_TILE_ROWS (GPL_CUDA_TILE_THREADS * GPL_CUDA_TILE_ITEMS)
/* Features scanned by one block of the split kernel: one a warp. */
#define GPL_CUDA_SPLIT_FEATURES 8
#define GPL_CUDA_SPLIT_THREADS 256
/* Threads of a categorical feature's search: one a value bin. */
#define GPL_CUDA_CAT_THREADS 256
/* Threads of the search of a categorical feature of more than 255 value
 * bins (split_wide_cat_kernel): each thread owns every this many-th bin. */
#define GPL_CUDA_WIDE_CAT_THREADS 1024
/* With 16-bit codes, features of more bins than this (or than the
 * device's shared memory holds, 8 x 32 bytes a bin) are summed by
 * hist_wide_kernel in global memory instead of a shared-memory chunk. */
#define GPL_CUDA_HIST_SHARED_BINS 1024
/* gpl_cuda_part_split.wide_set of a split whose set is inline. */
#define GPL_CUDA_NO_WIDE_SET 0xffffffffu

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------ gradients */

/* A row's quantized gradient pair as the device keeps it: quantize.h
 * bounds the sum of |value| over all rows below 2^31, so every row's
 * values fit int32 (half the bytes of gpl_grad_pair to read). */
typedef struct gpl_cuda_qpair {
    int32_t grad;
    int32_t hess;
} gpl_cuda_qpair;

typedef struct gpl_cuda_grad_args {
    int32_t objective;
    int32_t num_outputs;
    int32_t output;
    int32_t round;
    uint64_t seed;
    float subsample;
    int64_t num_rows;
    const float *margins;
    const float *label;
    const float *weight;          /* NULL = every weight 1            */
    gpl_cuda_qpair *grad;
    unsigned long long *max_bits; /* [2]: bits of max |g|, max h       */
    gpl_quant_scale *scale;       /* written by the scale kernel       */
    double *softmax_norm;         /* 2 a row: softmax, expectile chain */
    int32_t norm_write;           /* the first pass computes it; for
                                   * expectiles, moves the chain on     */
    double param;                 /* the objective's (backend.h)       */
    /* Ranking objectives and survival:cox: each row's finished (grad,
     * hess), 2 a row, from gpl_cuda_launch_rank or gpl_cuda_launch_cox;
     * the passes below read them instead of an objective formula (NULL
     * otherwise). */
    const double *rank_pairs;
    float alphas[GPL_MAX_OUTPUT_ALPHAS]; /* reg:expectileerror's         */
} gpl_cuda_grad_args;

/* Three launches: float gradients reduced to their largest magnitudes,
 * the power-of-two scales, then the quantized pairs. max_bits must be
 * zero before the first. */
cudaError_t gpl_cuda_launch_grad_max(const gpl_cuda_grad_args *a, cudaStream_t s);
cudaError_t gpl_cuda_launch_grad_scale(const gpl_cuda_grad_args *a, cudaStream_t s);
cudaError_t gpl_cuda_launch_grad_quantize(const gpl_cuda_grad_args *a, cudaStream_t s);

/* --------------------------------------------------------------- ranking */

/* The per-query kernels work on tiles of GPL_CUDA_RANK_TILE consecutive
 * indexes (rows, positions or grade-order indexes) of one query: a block
 * a tile, so that a block's threads share the query's bounds. */
#define GPL_CUDA_RANK_TILE 256
typedef struct gpl_cuda_rank_tile {
    uint32_t query;
    uint32_t first; /* the tile's first row, group_ptr[query] <= first */
} gpl_cuda_rank_tile;

/* The LambdaMART gradients of rank_math.h for every query. Arrays by row
 * are indexed like the rows: a query's entries at its rows' offsets.
 * Orders come from one stable radix sort of all rows by the key (query,
 * margin descending), or (query, grade descending) over positions. */
typedef struct gpl_cuda_rank_args {
    int32_t objective;
    int32_t num_outputs;
    int32_t output;
    int32_t round;
    uint64_t seed;
    gpl_rank_request rank;
    int64_t num_rows;
    int64_t num_groups;
    const float *margins;
    const float *label;
    const int64_t *group_ptr;     /* num_groups + 1                        */
    const double *discount;       /* by position                           */
    const double *inv_idcg;       /* a query                               */
    const double *group_weight;   /* a query                               */
    const gpl_cuda_rank_tile *tiles;
    uint32_t num_tiles;
    int32_t key_bits;             /* of the sort keys: 32 + query bits     */
    unsigned long long *keys_in;  /* sort input and output                 */
    unsigned long long *keys_out;
    uint32_t *values_in;
    void *sort_temp;
    size_t sort_temp_bytes;
    uint32_t *order;              /* position -> row                       */
    uint32_t *yorder;             /* grade-order index -> position (mean)  */
    double *n_rel;                /* MAP's running sums by position        */
    double *acc;
    /* 2 a row: the fixed-point sums of gradient and hessian, then, in
     * place, the finished doubles (rank_pairs of gpl_cuda_grad_args). */
    unsigned long long *sums;
    unsigned long long *lambda_sum; /* a query */
} gpl_cuda_rank_args;

/* The scratch bytes the sorts of n rows need (sort_temp_bytes). */
cudaError_t gpl_cuda_rank_sort_bytes(int64_t n, int32_t key_bits, size_t *bytes);
/* Clears the sums, orders every query's rows by margin (and by grade for
 * the mean method), makes MAP's running sums, adds every pair's fixed-point
 * lambda and hessian, and finishes each row's pair into a.sums. */
cudaError_t gpl_cuda_launch_rank(const gpl_cuda_rank_args *a, cudaStream_t s);

/* ------------------------------------------------------------ survival */

/* survival:cox's four steps of cox_math.h, a thread a block of positions:
 * each row's (grad, hess) into pairs, 2 a row, unsampled and unquantized. */
typedef struct gpl_cuda_cox_args {
    int64_t num_rows, num_blocks;
    int32_t num_outputs, output;
    const float *margins;
    const float *label;
    const float *weight; /* NULL = every weight 1 */
    const uint32_t *order, *tie_start;
    double *e, *s, *blocks, *pairs;
} gpl_cuda_cox_args;

cudaError_t gpl_cuda_launch_cox(const gpl_cuda_cox_args *a, cudaStream_t s);

/* ------------------------------------------------------- rows and tiles */

/* rows[i] = i for i < n. */
cudaError_t gpl_cuda_launch_iota(uint32_t *rows, int64_t n, cudaStream_t s);

/* A node's rows, positions [begin, begin + count) of row buffer buf. */
typedef struct gpl_cuda_leaf {
    uint32_t begin;
    uint32_t count;
    int32_t buf;
    float value;
} gpl_cuda_leaf;

/* margins[row * num_outputs + output] += value of the row's leaf. Leaves
 * are cut into tiles of GPL_CUDA_TILE_ROWS; tile_first[i] is the first
 * tile of leaf i, tile_first[count] the number of tiles. */
typedef struct gpl_cuda_margin_args {
    float *margins;
    int32_t num_outputs;
    int32_t output;
    const uint32_t *rows0;
    const uint32_t *rows1;
    const gpl_cuda_leaf *leaves;
    const uint32_t *tile_first;
    int32_t count;
    uint32_t num_tiles;
} gpl_cuda_margin_args;

cudaError_t gpl_cuda_launch_update_margins(const gpl_cuda_margin_args *a,
                                           cudaStream_t s);

/* margins[row * num_outputs + output] += leaf[leaf node of row], the
 * row's leaf found by walking the tree on its bins (row-major, stride
 * codes of code_bytes bytes a row); nodes as in prediction (a leaf points
 * to itself). */
typedef struct gpl_cuda_tree_margin_args {
    float *margins;
    int32_t num_outputs;
    int32_t output;
    int64_t num_rows;
    const uint8_t *bins;
    int64_t stride;
    int32_t code_bytes;
    const gpl_infer_node *nodes;
    const float *leaf;
    const uint32_t *sets; /* GPL_CAT_WORDS a node (categorical nodes), or NULL */
    int32_t num_nodes; /* bounds the walk; it ends at the row's leaf */
} gpl_cuda_tree_margin_args;

cudaError_t gpl_cuda_launch_tree_margins(const gpl_cuda_tree_margin_args *a,
                                         cudaStream_t s);

/* The leaf refit's sort (backend.h, refit_sort): a key a row, the leaf
 * in the high 32 bits (num_nodes for rows not sampled) and the residual
 * as an order-preserving 32-bit pattern in the low. */
typedef struct gpl_cuda_refit_args {
    const uint8_t *bins;
    int64_t stride;     /* codes a row  */
    int32_t code_bytes; /* 1 or 2       */
    int64_t num_rows;
    const float *margins;
    int32_t num_outputs;
    int32_t output;
    const float *label;
    uint64_t seed;
    int32_t round;
    float subsample;
    const gpl_infer_node *nodes;
    const uint32_t *sets; /* or NULL */
    int32_t num_nodes;
    unsigned long long *keys;
} gpl_cuda_refit_args;

cudaError_t gpl_cuda_launch_refit_keys(const gpl_cuda_refit_args *a, cudaStream_t s);
/* Sorts n keys by their low end_bit bits into out; temp NULL: *temp_bytes
 * gets the scratch size needed. */
cudaError_t gpl_cuda_refit_sort(void *temp, size_t *temp_bytes,
                                const unsigned long long *in, unsigned long long *out,
                                int n, int end_bit, cudaStream_t s);
/* first/last[leaf]: the first and one past the last position of the
 * leaf's rows among the n sorted keys (both zeroed before). */
cudaError_t gpl_cuda_launch_refit_bounds(const unsigned long long *keys, int64_t n,
                                         int32_t num_nodes, long long *first, long long *last,
                                         cudaStream_t s);
/* out[i] = the residual of sorted key positions[i]. */
cudaError_t gpl_cuda_launch_refit_pick(const unsigned long long *keys,
                                       const long long *positions, int32_t count, float *out,
                                       cudaStream_t s);

/* One split to apply: the node's rows move from buffer buf to the other
 * buffer (buf GPL_CUDA_ROWS_IDENTITY: rows begin .. begin + count - 1, to
 * buffer 1) in their order, the left child's from the start of the range, the
 * right child's from its end backwards. */
typedef struct gpl_cuda_part_split {
    uint32_t begin;
    uint32_t count;
    int32_t buf;
    int32_t feature;
    int32_t bin;
    int32_t default_left;
    int32_t categorical; /* the value bins in left_set go left */
    uint32_t left_set[GPL_CAT_WORDS];
    /* A categorical split of a feature of more than 255 value bins: the
     * word offset of its set (gpl_cat_set_words words) in wide_sets of
     * gpl_cuda_part_args, left_set unused; else GPL_CUDA_NO_WIDE_SET. */
    uint32_t wide_set;
} gpl_cuda_part_split;

typedef struct gpl_cuda_part_args {
    /* Bin of row r, feature f: code r * row_stride + f * feature_stride
     * of bins (row-major, or the feature-major copy), codes of code_bytes
     * bytes. */
    const uint8_t *bins;
    int64_t row_stride;
    int64_t feature_stride;
    int32_t code_bytes;
    uint32_t *rows0;
    uint32_t *rows1;
    const gpl_cuda_part_split *splits;
    const uint32_t *tile_first;
    int32_t count;
    uint32_t num_tiles;
    uint32_t *left_count; /* [count]: written for each split with rows */
    /* When set, split s takes feature, bin and default_left from
     * records[s] (the level's split search, still on the device), and a
     * record without a split (feature < 0) leaves its node's rows alone. */
    const gpl_split_record *records;
    /* Tiles take tickets from a counter that only grows: tile = ticket -
     * ticket_base, ticket_base being the tiles of all earlier launches. */
    unsigned long long *ticket;
    unsigned long long ticket_base;
    /* [num_tiles] look-back words, stale unless tagged with this epoch
     * (1 .. 2^30 - 1, a new one each launch). */
    uint64_t *status;
    uint32_t epoch;
    /* The sets of the splits with a wide_set (NULL: none). */
    const uint32_t *wide_sets;
    /* Flags a feature (NULL: none): categorical with more than 255 value
     * bins. A record on such a feature has no set (backend.h), so the
     * partition from records leaves its node's rows alone. */
    const uint8_t *wide_cat;
} gpl_cuda_part_args;

cudaError_t gpl_cuda_launch_partition(const gpl_cuda_part_args *a, cudaStream_t s);

/* columns (feature-major, f * num_rows + r) from the row-major bins,
 * codes of code_bytes bytes; at most 32768 / code_bytes features (a tile
 * holds whole rows). */
cudaError_t gpl_cuda_launch_bins_to_columns(const uint8_t *bins, int64_t num_rows,
                                            int32_t num_features, int32_t code_bytes,
                                            uint8_t *columns, cudaStream_t s);

/* ------------------------------------------------------------ histograms */

/* One block's work: rows [begin, end) of row buffer buf into slot; buf
 * GPL_CUDA_ROWS_IDENTITY means the rows are begin .. end-1 themselves (the
 * root before any partition). */
#define GPL_CUDA_ROWS_IDENTITY 2
typedef struct gpl_cuda_hist_item {
    uint32_t begin;
    uint32_t end;
    int32_t buf;
    int32_t slot;
} gpl_cuda_hist_item;

/* Features f0 .. f0 + nf - 1 (nf <= 32), each with at most bins bins;
 * copies = 32 / nf rows are accumulated side by side in each warp. With
 * 16-bit codes the chunks hold the features of at most the shared-memory
 * bins (GPL_CUDA_HIST_SHARED_BINS) only, in runs between the wider ones. */
typedef struct gpl_cuda_hist_chunk {
    int32_t f0;
    int32_t nf;
    int32_t copies;
    int32_t bins;
} gpl_cuda_hist_chunk;

typedef struct gpl_cuda_hist_args {
    const uint8_t *bins;
    int64_t stride;     /* codes a row                         */
    int32_t code_bytes; /* 1 or 2 (backend.h)                  */
    const gpl_cuda_qpair *grad;
    const uint32_t *rows0;
    const uint32_t *rows1;
    const uint32_t *feature_offset;
    int32_t num_features;
    uint32_t hist_len;
    const gpl_cuda_hist_chunk *chunks;
    int32_t num_chunks;
    gpl_grad_pair *const *slot_ptr;
    const gpl_cuda_hist_item *items;
    int32_t num_items;
    const int32_t *clear_slots; /* slots zeroed before accumulation */
    int32_t num_clear;
    /* 16-bit codes: the features in no chunk (too many bins for shared
     * memory), summed by hist_wide_kernel in global memory. */
    const int32_t *wide_features;
    int32_t num_wide;
} gpl_cuda_hist_args;

typedef enum gpl_cuda_hist_kind {
    GPL_CUDA_HIST_SHARED = 0,   /* the default: STAGED for one feature chunk,
                                   else DIRECT (chosen at upload) */
    GPL_CUDA_HIST_GLOBAL = 2,   /* global atomics only: test reference */
    GPL_CUDA_HIST_DIRECT = 4,   /* shared memory, one 32-bit atomic a value,
                                   rows loaded by the adding lanes */
    GPL_CUDA_HIST_STAGED = 5    /* as DIRECT, rows staged 32 a warp */
} gpl_cuda_hist_kind;

/* Shared memory a block of the shared kernels needs for chunks of at most
 * max_bins bins. */
size_t gpl_cuda_hist_smem_bytes(gpl_cuda_hist_kind kind, int32_t max_bins);
/* Allows the shared kernel of kind (for codes of code_bytes bytes)
 * smem_bytes of dynamic shared memory. 16-bit codes take the DIRECT
 * kernel (the host never asks for STAGED with them). */
cudaError_t gpl_cuda_hist_configure(gpl_cuda_hist_kind kind, int32_t code_bytes,
                                    size_t smem_bytes);
/* Zeroes the clear_slots histograms. */
cudaError_t gpl_cuda_launch_hist_clear(const gpl_cuda_hist_args *a, cudaStream_t s);
/* Adds every item's rows to its slot (grid: items x chunks, then items x
 * wide features). */
cudaError_t gpl_cuda_launch_hist(gpl_cuda_hist_kind kind, const gpl_cuda_hist_args *a,
                                 size_t smem_bytes, cudaStream_t s);

/* hist[target] = hist[parent] - hist[built], slots in triples. */
cudaError_t gpl_cuda_launch_hist_subtract(gpl_grad_pair *const *slot_ptr,
                                          const int32_t *triples, int32_t count,
                                          uint32_t hist_len, cudaStream_t s);

/* ---------------------------------------------------------------- splits */

/* The best candidate of one node over one group of features. */
typedef struct gpl_cuda_split_best {
    double gain;
    int32_t feature;
    int32_t bin;
    int32_t default_left;
    int32_t cat_slot; /* categorical: 1 + its index in cat_features, else 0 */
} gpl_cuda_split_best;

typedef struct gpl_cuda_split_args {
    gpl_grad_pair *const *slot_ptr;
    const int32_t *node_slot; /* [2 * num_nodes]: node id, slot */
    int32_t num_nodes;
    const uint32_t *feature_offset;
    int32_t num_features;
    const uint8_t *feature_mask; /* NULL = every feature */
    gpl_split_params params;
    gpl_cuda_split_best *partial; /* [num_nodes * groups] */
    int32_t groups;
    gpl_split_record *out;
    /* Categorical features split by sets (split_math.h): flags a feature
     * (NULL: none), their list, and each (node, listed feature)'s best
     * candidate and its left set (GPL_CAT_WORDS words). The first
     * num_cat_narrow listed have at most 255 value bins; the others more:
     * their sets stay empty (backend.h) and cat_left gets the left sums
     * of their best candidate (missing values aside). */
    const uint8_t *categorical;
    const int32_t *cat_features;
    int32_t num_cat;
    int32_t num_cat_narrow;
    gpl_cuda_split_best *cat_partial; /* [num_nodes * num_cat] */
    uint32_t *cat_sets;               /* [num_nodes * num_cat * GPL_CAT_WORDS] */
    gpl_grad_pair *cat_left;          /* [num_nodes * num_cat]           */
    /* params.monotone and params.bounds on the device (NULL: none). */
    const int8_t *monotone;           /* [num_features]                  */
    const double *bounds;             /* [2 * num_nodes]: lower, upper   */
    /* params.node_rows on the device (NULL: unknown). */
    const uint32_t *node_rows;        /* [num_nodes]                     */
} gpl_cuda_split_args;

/* Scan (grid: nodes x feature groups), the categorical features (grid:
 * nodes x narrow ones, then nodes x wide ones, when there are any), then
 * one record per node. */
cudaError_t gpl_cuda_launch_split_scan(const gpl_cuda_split_args *a, cudaStream_t s);
cudaError_t gpl_cuda_launch_split_finish(const gpl_cuda_split_args *a, cudaStream_t s);

/* ------------------------------------------------------------ prediction */

/* A block of rows to predict (the predict operation of backend.h). */
typedef struct gpl_cuda_predict_args {
    const float *data;           /* feature-major: data[f * num_rows + r] */
    int64_t num_rows;
    int32_t num_features;
    int32_t num_trees;
    int32_t num_outputs;
    const float *base_margins;   /* num_outputs                          */
    const uint32_t *cut_ptr;     /* num_features + 1                     */
    const float *cuts;
    const gpl_infer_node *nodes; /* the forest of gpl_infer_forest       */
    const uint32_t *cat_sets;    /* its cat_sets, or NULL                */
    int32_t cat_words;           /* of each node's set                   */
    const float *leaf;
    const int64_t *first;
    const int32_t *depth;
    void *bins;                  /* num_rows x num_features scratch of
                                  * codes of code_bytes bytes            */
    float *margins;              /* num_rows x num_outputs               */
    int32_t code_bytes;          /* gpl_infer_forest.code_bytes          */
} gpl_cuda_predict_args;

/* Bins every row and walks every tree, one thread a row. */
cudaError_t gpl_cuda_launch_predict(const gpl_cuda_predict_args *a, cudaStream_t s);

/* ------------------------------------------------------------ SHAP values */

/* A block of rows of a SHAP job (the shap operation of backend.h; the
 * arithmetic is shap_math.h's). Per-row values in doubles interleave the
 * block's rows: value e of row r at [e * num_rows + r]. */
typedef struct gpl_cuda_shap_args {
    gpl_shap_view view;          /* device copies of the forest            */
    int32_t kind;                /* gpl_shap_kind                          */
    int32_t pairs;               /* interactions by quadrature: acc holds
                                  * each output's pair sums (shap_math.h) */
    int64_t num_rows;            /* rows of the block                      */
    const float *data;           /* feature-major raw values of the block  */
    const uint32_t *cut_ptr;
    const float *cuts;
    uint16_t *bins;              /* num_rows x features (16-bit codes,
                                  * whatever the model's width)            */
    double *acc;                 /* K (F + 1) values a row, or K (F + 1)^2 */
    double *diag;                /* interactions: K (F + 1) a row          */
    gpl_shap_path path;          /* interleaved over the kernel's threads  */
    gpl_shap_visit *stack;       /* stack_len a thread (NULL: no walk
                                  * of Algorithm 2 in this job)            */
    int32_t stack_len;
    double *on, *off;            /* interactions by Algorithm 2: F + 1 a
                                  * thread                                 */
    const float *base;           /* K: the model's base margins            */
    const float *row_base;       /* num_rows x K, or NULL                  */
    float *out;                  /* num_rows x the row width               */
} gpl_cuda_shap_args;

/* Bins the block, walks the trees and writes the values as floats. */
cudaError_t gpl_cuda_launch_shap(const gpl_cuda_shap_args *a, cudaStream_t s);

/* ---------------------------------------------------------------- probes */

/* Writes the ABI version the device code was compiled with to *out. */
cudaError_t gpl_cuda_launch_abi_probe(int32_t *out, cudaStream_t s);
/* cudaFuncGetAttributes of the histogram kernel: fails with
 * cudaErrorNoKernelImageForDevice when no shipped code fits the device. */
cudaError_t gpl_cuda_kernel_attributes(struct cudaFuncAttributes *out);

#ifdef __cplusplus
}
#endif

#endif
