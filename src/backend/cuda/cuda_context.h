/* cuda_context.h -- the CUDA backend's context, shared by its host files. */
#ifndef GPL_CUDA_CONTEXT_H
#define GPL_CUDA_CONTEXT_H

#include <cuda_runtime_api.h>
#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "common/hist_slots.h"
#include "common/node_table.h"
#include "common/shape.h"
#include "cuda_kernels.h"
#include "cuda_tuning.h"

/* Device buffers by size class: a freed block is kept for the next request
 * of its class. One stream orders all work, so a block given back after
 * its last use was enqueued can be handed out again at once. */
typedef struct cuda_block {
    void *ptr;
    size_t bytes;
    int in_use;
} cuda_block;

typedef struct cuda_pool {
    cuda_block *blocks;
    int count;
    int cap;
    size_t allocated;
    size_t peak;
} cuda_pool;

/* A pinned host buffer and its device twin for per-level tables; the
 * event marks the end of the last copy out of the host side. */
/* A node's entry in the split search's stage: its id and slot, then (in
 * tables after all the ids) its rows, a uint32 (the table padded to 8
 * bytes), and its bounds, two doubles. */
#define CUDA_SPLIT_NODE_BYTES (2 * sizeof(int32_t) + 2 * sizeof(uint32_t) + 2 * sizeof(double))

typedef struct cuda_stage {
    void *host;
    void *dev;
    size_t bytes;
    cudaEvent_t copied;
} cuda_stage;

/* Per-operation timers (GPULAYER_CUDA_PROFILE=1). */
typedef enum cuda_op {
    CUDA_OP_UPLOAD,
    CUDA_OP_GRADIENTS,
    CUDA_OP_BEGIN_TREE,
    CUDA_OP_HISTOGRAMS,
    CUDA_OP_SUBTRACT,
    CUDA_OP_SPLITS,
    CUDA_OP_PARTITION,
    CUDA_OP_MARGINS,
    CUDA_OP_COUNT
} cuda_op;

typedef struct cuda_profile {
    int enabled;
    cudaEvent_t start, stop;
    double ms[CUDA_OP_COUNT];
    long calls[CUDA_OP_COUNT];
    double hist_bytes; /* bytes the histogram kernel had to read */
} cuda_profile;

typedef struct cuda_early_split {
    uint32_t left;   /* rows of the left child */
    int32_t feature; /* -1: none */
    int32_t bin;
    int32_t default_left;
    int32_t categorical;
    uint32_t left_set[GPL_CAT_WORDS];
} cuda_early_split;

/* Device facts: the device, what it can do, its stream and the
 * histogram kernel chosen for it (cuda_startup.c, cuda_upload.c). */
typedef struct cuda_device_facts {
    int device;
    char device_name[256];
    int cc_major, cc_minor;
    int sm_count;
    int driver_version, runtime_version;
    size_t smem_optin;
    cudaStream_t stream;
    gpl_cuda_hist_kind hist_kind;      /* the kernel used, chosen at upload */
    int verbose;
} cuda_device_facts;

/* The job's device data (cuda_memory.c): the block pool they come from,
 * the matrix, gradients, row lists and per-split tables, with their
 * pinned host twins and the feature mask the device holds. */
typedef struct cuda_buffers {
    cuda_pool pool;
    uint8_t *d_bins;    /* codes of code_bytes bytes (cuda_context)    */
    uint8_t *d_columns; /* the bins feature-major, for the partition (or NULL) */
    uint32_t *d_feature_offset;
    float *d_label;
    float *d_weight;
    float *d_margins;
    gpl_cuda_qpair *d_grad;
    double *d_softmax_norm; /* 2 a row with several outputs (backend.h) */
    uint32_t *d_rows[2];
    unsigned long long *d_max; /* [2] */
    gpl_quant_scale *d_scale;
    gpl_quant_scale *h_scale; /* pinned */
    uint32_t *d_counts;       /* [level capacity]: left rows of each split */
    uint32_t *h_counts;       /* pinned */
    uint64_t *d_part_status;  /* look-back words of the partition's tiles */
    uint32_t part_status_cap; /* tiles one partition launch may have     */
    unsigned long long *d_part_ticket; /* tile counter, never reset       */
    unsigned long long part_tickets;   /* tiles launched so far           */
    uint32_t part_epoch;               /* tag of the latest launch        */
    gpl_split_record *d_records;
    gpl_split_record *h_records; /* pinned */
    gpl_cuda_split_best *d_partial;
    int32_t split_groups;
    /* Categorical features split by sets (NULL / 0 when none). */
    uint8_t *d_categorical;    /* [F] flags                                */
    int32_t *d_cat_features;   /* [num_cat] their indices, those of at most
                                * 255 value bins first (num_cat_narrow)    */
    gpl_cuda_split_best *d_cat_partial; /* [level capacity x num_cat]      */
    uint32_t *d_cat_sets;      /* [level capacity x num_cat x GPL_CAT_WORDS] */
    gpl_grad_pair *d_cat_left; /* [level capacity x num_cat]: left sums of
                                * the wide ones' best candidates           */
    uint8_t *d_wide_cat;       /* [F] flags of the wide ones, or NULL      */
    int32_t num_cat;
    int32_t num_cat_narrow;
    /* The sets of a partition's wide categorical splits (gpl_split_apply
     * .wide_set), sent with its table: a pool block of d_wide_sets_words
     * words (NULL until needed) and a host buffer to gather them. */
    uint32_t *d_wide_sets;
    size_t d_wide_sets_words;
    uint32_t *h_wide_sets;
    size_t h_wide_sets_words;
    uint8_t *d_mask;
    uint8_t *mask_cache; /* host copy of the mask now on the device */
    int mask_state;      /* 0 none uploaded, 1 d_mask valid          */
    /* monotone_constraints, the same way (gpl_split_params.monotone). */
    int8_t *d_monotone;
    int8_t *monotone_cache;
    int monotone_state;
} cuda_buffers;

/* The query groups of a ranking objective (cuda_rank.c): copies of
 * gpl_rank_groups, the tiles of the ranking kernels, and their scratch,
 * all pool blocks (NULL without groups; yorder only once the mean method
 * and n_rel/acc once rank:map asks for them). */
typedef struct cuda_rank {
    int64_t num_groups;
    uint32_t num_tiles;
    int32_t key_bits;
    int64_t *d_group_ptr;
    double *d_discount;
    double *d_inv_idcg;
    double *d_group_weight;
    gpl_cuda_rank_tile *d_tiles;
    unsigned long long *d_keys[2]; /* the sorts' input and output */
    uint32_t *d_values;            /* the sorts' input values     */
    void *d_sort_temp;
    size_t sort_temp_bytes;
    uint32_t *d_order;
    uint32_t *d_yorder;
    double *d_n_rel;
    double *d_acc;
    unsigned long long *d_sums;       /* 2 a row */
    unsigned long long *d_lambda_sum; /* a query */
} cuda_rank;

/* survival:cox's order of the rows by time and the sums of its gradients
 * (cuda_cox.c): pool blocks, NULL until set_survival_order. */
typedef struct cuda_cox {
    int64_t num_blocks;
    uint32_t *d_order, *d_tie_start;
    double *d_e, *d_s;     /* a position each          */
    double *d_blocks;      /* T, U, V: num_blocks each */
    double *d_pairs;       /* 2 a row                  */
} cuda_cox;

/* The context in parts by job, in the order every backend's has: device
 * facts, shape, buffers (device data, chunks, per-level tables, the tree),
 * histogram pool, node table, tuning. */
typedef struct cuda_context {
    /* device facts */
    cuda_device_facts dev;
    int level; /* depth of the level being grown, for messages */
    int softmax_norm_ready; /* d_softmax_norm holds this round's (backend.h) */
    int rows_identity; /* the root's rows are still 0 .. n-1: no partition yet */

    /* shape */
    gpl_shape shape;
    int64_t stride;     /* codes a row (the features)          */
    int32_t code_bytes; /* of the bins: 1, or 2 (backend.h)    */
    uint32_t *feature_offset; /* host copy */

    /* buffers: device data */
    cuda_buffers buf;
    cuda_rank rank;
    cuda_cox cox;

    /* histogram chunks, and with 16-bit codes the features too wide for
     * one (hist_wide_kernel's) */
    gpl_cuda_hist_chunk *d_chunks;
    int32_t num_chunks;
    int32_t max_chunk_bins;
    size_t hist_smem;
    int32_t *d_wide_features;
    int32_t num_wide;

    /* per-level tables */
    cuda_stage stage_hist;
    cuda_stage stage_sub;
    cuda_stage stage_split;
    cuda_stage stage_part;
    cuda_stage stage_leaf;
    /* The tree being grown, for the margin update (NULL when the tree may
     * have more than GPL_CUDA_TREE_NODES nodes: then leaves' row lists are
     * used): nodes then leaf values, in stage_tree's host memory. */
    cuda_stage stage_tree;
    gpl_infer_node *tree_nodes;
    int32_t tree_top; /* nodes in use: ids < tree_top */
    /* With categorical features: each node's left set (GPL_CAT_WORDS words
     * a node, max_nodes nodes), sent after the leaf values. NULL without. */
    uint32_t *tree_sets;
    /* The leaf refit's sorted keys between refit_sort and refit_values
     * (a pool block), or NULL. */
    unsigned long long *refit_keys;

    /* histogram pool (common/hist_slots.h): slot s is slot_ptr[s] */
    gpl_grad_pair **slot_ptr; /* host copy of d_slot_ptr (max_nodes entries) */
    gpl_grad_pair **d_slot_ptr;
    gpl_hist_slots slots;
    int32_t planned_slots;

    /* node table (host; nodes.buf: the row list d_rows[buf] of a node's
     * rows) */
    gpl_node_table nodes;
    /* Splits partitioned ahead, with the level's split search (one wait
     * a level instead of two): the node's rows are already in nodes.buf as
     * left rows then right rows. */
    cuda_early_split *node_early;
    int32_t *part_late; /* max_nodes: splits partitioned in partition_rows */

    size_t estimate_bytes;

    /* tuning, read once at creation (cuda_tuning.h), and the profile it
     * may turn on */
    cuda_tuning tuning;
    cuda_profile prof;
} cuda_context;

static inline cuda_context *cuda_ctx(gpl_backend *be)
{
    return (cuda_context *)be->ctx;
}

/* ------------------------------------------------------------ errors */

/* Records "cuda backend: <what> failed [at level L]: <CUDA message>" and
 * returns GPULAYER_ERR_DEVICE (GPULAYER_ERR_OUT_OF_MEMORY for allocation
 * failures). */
gpulayer_status cuda_fail(const cuda_context *c, cudaError_t err, const char *what);

#define CUDA_TRY(c, call, what)                                             \
    do {                                                                    \
        cudaError_t cuda_try_err_ = (call);                                 \
        if (cuda_try_err_ != cudaSuccess) return cuda_fail((c), cuda_try_err_, (what)); \
    } while (0)

/* The calling thread's current device becomes the backend's: the backend
 * is created in one thread (beside binning) and used from another, and
 * the runtime's current device is per thread. Called at the operations
 * that start a piece of work (upload, margins, gradients, a tree,
 * prediction, sums from other ranks, destruction); the level operations
 * run in the thread that began the tree. */
#define CUDA_ENTER(c) CUDA_TRY((c), cudaSetDevice((c)->dev.device), "cudaSetDevice")

/* ------------------------------------------------------------ start-up */

/* Checks the device, driver and shipped kernels; fills the device part of
 * c and creates its stream. */
gpulayer_status cuda_startup(cuda_context *c, int device);

/* Free and total bytes of a device (0 on success). */
int gpl_cuda_device_memory(int device, size_t *free_bytes, size_t *total_bytes);

/* ------------------------------------------------------------ memory */

void *cuda_pool_get(cuda_context *c, size_t bytes, const char *what, gpulayer_status *st);
/* A pool block whose bytes the memory estimate did not include (the
 * objectives' own tables): the plan grows by what the pool had to
 * allocate, so the peak stays within it. */
void *cuda_pool_get_extra(cuda_context *c, size_t bytes, const char *what, gpulayer_status *st);
/* cuda_pool_get_extra into ptr, returning the status st (of the caller's
 * scope, with c) from the caller on failure. */
#define CUDA_EXTRA_GET(ptr, bytes, what)                                     \
    do {                                                                     \
        (ptr) = cuda_pool_get_extra(c, (bytes), (what), &st);                \
        if (!(ptr)) return st;                                               \
    } while (0)
void cuda_pool_put(cuda_pool *p, void *ptr);
/* The pool blocks of one job (prediction, SHAP values), given back
 * together: a get after a failure (*st not OK) returns NULL. */
typedef struct cuda_job_mem {
    void *ptr[32];
    int count;
} cuda_job_mem;
void *cuda_job_get(cuda_context *c, cuda_job_mem *m, size_t bytes, const char *what,
                   gpulayer_status *st);
void cuda_job_put_all(cuda_context *c, cuda_job_mem *m);
void cuda_pool_release_all(cuda_pool *p);

/* The workspace estimate for a matrix of this shape (see cuda_memory.c). */
size_t cuda_plan_bytes(const cuda_context *c, int has_weight, int32_t slots);
/* Whether the job keeps a feature-major copy of the bins (cuda_memory.c). */
#define GPL_CUDA_COLUMN_FEATURES 32
/* The words of a set of feature f's value bins (gpl_cat_set_words): more
 * than GPL_CAT_WORDS for a feature of more than 255 value bins, whose
 * categorical splits' sets are the core's (gpl_split_apply.wide_set). */
int32_t cuda_set_words(const cuda_context *c, int32_t f);
/* Trees of up to this many nodes may be walked for the margin update. */
#define GPL_CUDA_TREE_NODES 65536
int cuda_wants_tree(const cuda_context *c);
int cuda_wants_columns(const cuda_context *c);
/* Makes the plan, refuses a job that does not fit, allocates everything. */
gpulayer_status cuda_workspace_create(cuda_context *c, const gpl_binned_matrix *m,
                                      int has_weight);
void cuda_workspace_destroy(cuda_context *c);

gpulayer_status cuda_stage_create(cuda_context *c, cuda_stage *s, size_t bytes);
/* Waits until the last copy out of s->host has finished. */
gpulayer_status cuda_stage_wait(cuda_context *c, cuda_stage *s);
/* Copies the first bytes of s->host to s->dev on the stream. */
gpulayer_status cuda_stage_send(cuda_context *c, cuda_stage *s, size_t bytes,
                                const char *what);
void cuda_stage_destroy(cuda_stage *s);
/* "<what> of n nodes at level L exceeds the per-level tables" when n
 * entries of per_node bytes do not fit stage s. */
gpulayer_status cuda_check_level_size(const cuda_context *c, const cuda_stage *s,
                                      size_t per_node, int32_t n, const char *what);

/* New histogram slots beyond the plan (the slot pool's grow callback). */
gpulayer_status cuda_slots_grow(void *user, int32_t node, int32_t first, int32_t room,
                                int32_t *made);

/* ------------------------------------------------------------ operations */

gpulayer_status cuda_upload(gpl_backend *be, const gpl_binned_matrix *m,
                            const float *label, const float *weight);
gpulayer_status cuda_set_margins(gpl_backend *be, const float *margins);
gpulayer_status cuda_get_margins(gpl_backend *be, float *margins);
gpulayer_status cuda_compute_gradients(gpl_backend *be, const gpl_gradient_request *req,
                                       gpl_quant_scale *scale);
gpulayer_status cuda_begin_tree(gpl_backend *be);
gpulayer_status cuda_update_margins(gpl_backend *be, int32_t output,
                                    const float *leaf_value);
gpulayer_status cuda_build_histograms(gpl_backend *be, const int32_t *nodes,
                                      int32_t num_nodes);
gpulayer_status cuda_subtract_histograms(gpl_backend *be, const gpl_hist_subtract *subs,
                                         int32_t count);
gpulayer_status cuda_evaluate_splits(gpl_backend *be, const int32_t *nodes,
                                     int32_t num_nodes, const gpl_split_params *params,
                                     const uint8_t *feature_mask, gpl_split_record *out);
gpulayer_status cuda_partition_rows(gpl_backend *be, const gpl_split_apply *splits,
                                    int32_t count, int64_t *child_rows);
/* The partition table of one launch in stage_part's host memory, and the
 * launch with the copy of the left counts (cuda_partition.c; used by the
 * early partition of evaluate_splits too). */
gpulayer_status cuda_partition_table(cuda_context *c, int32_t count, const int32_t *nodes,
                                     const gpl_split_apply *splits, const int32_t *index,
                                     uint32_t *num_tiles);
gpulayer_status cuda_launch_partition(cuda_context *c, int32_t count, uint32_t tiles,
                                      const gpl_split_record *records);
/* Enters applied splits into the tree table (cuda_margins.c). */
void cuda_record_splits(cuda_context *c, const gpl_split_apply *splits, int32_t count);
gpulayer_status cuda_split_into_leaves(gpl_backend *be, const gpl_split_apply *splits,
                                       int32_t count);
gpulayer_status cuda_release_histograms(gpl_backend *be, const int32_t *nodes,
                                        int32_t num_nodes);
gpulayer_status cuda_read_histogram(gpl_backend *be, int32_t node, gpl_grad_pair *out);
gpulayer_status cuda_write_pairs(gpl_backend *be, int32_t node, const gpl_grad_pair *in);
/* cuda_rank.c: the query groups, and the ranking gradients' pairs
 * (2 doubles a row, on the device) for cuda_compute_gradients. */
gpulayer_status cuda_set_groups(gpl_backend *be, const gpl_rank_groups *groups);
gpulayer_status cuda_rank_pairs(cuda_context *c, const gpl_gradient_request *req,
                                const double **pairs);
/* cuda_cox.c: survival:cox's order of the rows, and its gradients' pairs
 * (2 doubles a row, on the device) for cuda_compute_gradients. */
gpulayer_status cuda_set_survival_order(gpl_backend *be, const gpl_survival_order *order);
gpulayer_status cuda_cox_pairs(cuda_context *c, const gpl_gradient_request *req,
                               const double **pairs);
gpulayer_status cuda_refit_sort(gpl_backend *be, const gpl_gradient_request *req,
                                const gpl_infer_node *nodes, const uint32_t *cat_sets,
                                int32_t num_nodes, int64_t *leaf_rows);
gpulayer_status cuda_refit_values(gpl_backend *be, const int64_t *positions, int32_t count,
                                  float *values);
/* cuda_predict.c, cuda_shap.c */
gpulayer_status cuda_predict(gpl_backend *be, const gpl_predict_job *job, float *margins);
gpulayer_status cuda_shap(gpl_backend *be, const gpl_shap_job *job, float *out);

/* ------------------------------------------------------------ profile */

void cuda_profile_init(cuda_context *c);
/* Marks the start / end of an operation's device work (no-ops unless
 * profiling; the end waits for the work so its time is known). */
void cuda_profile_begin(cuda_context *c);
void cuda_profile_end(cuda_context *c, cuda_op op);
void cuda_profile_report(cuda_context *c);
void cuda_profile_destroy(cuda_context *c);

#endif
