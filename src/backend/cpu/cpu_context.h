/* cpu_context.h -- the CPU backend's context, shared by its kernel files. */
#ifndef GPL_CPU_CONTEXT_H
#define GPL_CPU_CONTEXT_H

#include <stdint.h>

#include "backend.h"
#include "common/hist_slots.h"
#include "common/node_table.h"
#include "common/shape.h"

/* The job's data in host memory (cpu_upload.c): the bins, gradients,
 * margins, row lists and histogram accumulators. */
typedef struct cpu_buffers {
    const uint8_t *bins;  /* codes of code_bytes bytes               */
    int code_bytes;
    /* The same bins column by column: partitioning reads one feature of
     * scattered rows, which is one code a row here (the column stays in
     * cache) instead of one cache line a row in the row-major matrix. */
    uint8_t *bins_by_feature;
    const float *label;
    const float *weight;
    float *margins;       /* num_rows x num_outputs            */
    /* With several outputs (softmax): each row's normaliser for the round,
     * top and sum (objective_math.h), and whether it holds one computed
     * since the margins were last set. */
    double *softmax_norm;
    int softmax_norm_ready;
    gpl_grad_pair *grad;  /* quantized pair per row            */
    /* The same pairs packed (quantize.h): one add per histogram bin
     * instead of two. Row r's pair is packed_grad[r * pair_stride]. */
    int64_t *packed_grad;
    int64_t pair_stride;
    /* With at most 8 features, 16 bytes a row: its bins (zero-padded) in
     * the first word, its packed pair in the second (packed_grad points
     * there). The histogram of a deep node reads scattered rows, and this
     * way a row costs one cache line instead of two. NULL otherwise. */
    int64_t *row_records;
    /* Row partition: the rows of node n are rows[nodes.begin[n] ..
     * nodes.begin[n] + nodes.count[n]), in ascending order. */
    uint32_t *rows;
    uint32_t *rows_scratch;
    /* nthread private packed accumulators, acc_len each: CPU_ACC_STRIDE
     * bins a feature (feature f's bin b at f * CPU_ACC_STRIDE + b), or
     * with 16-bit codes the histogram's layout (at feature_offset[f] + b). */
    int64_t *thread_hist;
    size_t acc_len;
} cpu_buffers;

/* The context in parts by job, in the order every backend's has: device
 * facts, shape, buffers, histogram pool, node table (the CPU backend has
 * no tuning of its own). */
typedef struct cpu_context {
    /* device facts */
    int nthread;

    /* shape */
    gpl_shape shape;
    const uint32_t *feature_offset;
    const uint8_t *categorical; /* the binned matrix's, or NULL */

    /* buffers (the binned matrix, labels and weights are the caller's) */
    cpu_buffers buf;
    size_t allocated_bytes;
    size_t peak_bytes;

    /* histogram pool: a buffer a slot (slot_hist), the slots by node id */
    gpl_hist_slots slots;
    gpl_grad_pair **slot_hist;

    /* node table */
    gpl_node_table nodes;

    /* query groups of the ranking objectives (cpu_rank.c), or NULL */
    struct cpu_rank_state *rank;
    /* survival:cox's order of the rows by time (cpu_cox.c), or NULL */
    struct cpu_cox_state *cox;
} cpu_context;

static inline cpu_context *cpu_ctx(gpl_backend *be)
{
    return (cpu_context *)be->ctx;
}

/* The histogram of node, or NULL. */
static inline gpl_grad_pair *cpu_node_hist(const cpu_context *c, int32_t node)
{
    const int32_t s = gpl_hist_slot(&c->slots, node);
    return s >= 0 ? c->slot_hist[s] : NULL;
}

gpulayer_status cpu_upload(gpl_backend *be, const gpl_binned_matrix *m, const float *label,
                           const float *weight);
gpulayer_status cpu_set_margins(gpl_backend *be, const float *margins);
gpulayer_status cpu_get_margins(gpl_backend *be, float *margins);
gpulayer_status cpu_update_margins(gpl_backend *be, int32_t output, const float *leaf_value);
/* Every row in the root (cpu_partition.c). */
gpulayer_status cpu_begin_tree(gpl_backend *be);
/* Ranking (cpu_rank.c): the query groups, and the float gradients of a
 * ranking request with their largest magnitudes. */
gpulayer_status cpu_set_groups(gpl_backend *be, const gpl_rank_groups *groups);
gpulayer_status cpu_rank_gradients(cpu_context *c, const gpl_gradient_request *req,
                                   double *gval, double *hval, double *max_g, double *max_h);
void cpu_rank_free(struct cpu_rank_state *s);
/* survival:cox (cpu_cox.c): the rows' order by time, and the float
 * gradients of a request with their largest magnitudes. */
gpulayer_status cpu_set_survival_order(gpl_backend *be, const gpl_survival_order *order);
gpulayer_status cpu_cox_gradients(cpu_context *c, const gpl_gradient_request *req,
                                  double *gval, double *hval, double *max_g, double *max_h);
void cpu_cox_free(struct cpu_cox_state *s);
gpulayer_status cpu_compute_gradients(gpl_backend *be,
                                      const gpl_gradient_request *req,
                                      gpl_quant_scale *scale);
gpulayer_status cpu_build_histograms(gpl_backend *be, const int32_t *nodes,
                                     int32_t num_nodes);
gpulayer_status cpu_subtract_histograms(gpl_backend *be,
                                        const gpl_hist_subtract *subs,
                                        int32_t count);
gpulayer_status cpu_release_histograms(gpl_backend *be, const int32_t *nodes,
                                       int32_t num_nodes);
gpulayer_status cpu_read_histogram(gpl_backend *be, int32_t node,
                                   gpl_grad_pair *out);
gpulayer_status cpu_evaluate_splits(gpl_backend *be, const int32_t *nodes,
                                    int32_t num_nodes,
                                    const gpl_split_params *params,
                                    const uint8_t *feature_mask,
                                    gpl_split_record *out);
gpulayer_status cpu_partition_rows(gpl_backend *be,
                                   const gpl_split_apply *splits,
                                   int32_t count, int64_t *child_rows);
/* A histogram buffer for node (its slot's: common/hist_slots.h). */
gpulayer_status cpu_hist_acquire(cpu_context *c, int32_t node,
                                 gpl_grad_pair **out);
gpulayer_status cpu_hist_grow(void *user, int32_t node, int32_t first, int32_t room,
                              int32_t *made);
/* An AVX2 clone where the host has it, chosen at load time; elsewhere the
 * generic vector code (SSE2 on x86-64, NEON on arm64). AVX2 only, no FMA:
 * a fused multiply-add would change the bits. */
#if defined(__x86_64__) && defined(__linux__) && defined(__GNUC__)
#define GPL_VECTOR_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define GPL_VECTOR_CLONES
#endif

/* Bins a feature takes in the packed accumulators of histogram building
 * with byte codes: 256 holds every feature, so the row loop adds a
 * constant offset a feature instead of loading feature_offset[f], which
 * took a third of its instructions with 28 features. */
#define CPU_ACC_STRIDE 256
/* Most features for which row_records are kept. */
#define CPU_RECORD_FEATURES 8

/* Fills packed_grad from grad (after grad was written). */
void cpu_pack_gradients(cpu_context *c);
void cpu_track_alloc(cpu_context *c, size_t bytes);

#endif
