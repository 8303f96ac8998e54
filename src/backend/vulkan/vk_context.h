/* vk_context.h -- the Vulkan backend's context, shared by its host files. */
#ifndef GPL_VK_CONTEXT_H
#define GPL_VK_CONTEXT_H

#include <stdint.h>

#include "backend.h"
#include "common/hist_slots.h"
#include "common/level_plan.h"
#include "common/node_table.h"
#include "common/shape.h"
#include "gpu_kernels/gpu_kernel_abi.h"
#include "vk_api.h"
#include "vk_kernels.h"
#include "vk_tuning.h"

/* Descriptor sets per pool: a batch that needs more is split into several
 * submissions (vk_record.c), so this bounds memory, not work. */
#define VK_SETS_PER_POOL 1024u

/* Staging copies go in pieces of at most half this size (vk_memory.c), so
 * the staging buffer stays small whatever the transfer. */
#define VK_STAGING_BYTES ((VkDeviceSize)64 << 20)

/* A device buffer. `mapped` is set where the memory is host-visible (CPU
 * and integrated devices): transfers are then plain copies. */
typedef struct vk_buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize bytes;
    void *mapped;
    int host_side; /* in host-visible memory even on a discrete GPU */
} vk_buffer;

/* A range of a buffer bound to one binding of a kernel. */
typedef struct vk_range {
    const vk_buffer *buf;
    VkDeviceSize offset;
    VkDeviceSize bytes;
} vk_range;

typedef struct vk_pipeline {
    VkShaderModule module;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    /* The cache key besides the kernel: specialization and ABI. */
    uint32_t wg, shared_bins, window_shift;
    int abi;
} vk_pipeline;

/* A node's histogram: slot `index` of page `page`. Pages are buffers of
 * several slots added as needed; a kernel binds one slot, so only a slot
 * (not a page) has to fit maxStorageBufferRange. */
typedef struct vk_hist_slot {
    int32_t page;
    int32_t index;
} vk_hist_slot;

/* A contiguous run of features whose bins fit the shared-memory histogram
 * and whose columns fit one storage buffer binding. */
typedef gpl_hist_chunk vk_chunk;

/* A node partitioned with its level's split search (vk_partition.c). */
typedef struct vk_early_split {
    uint32_t left;
    int32_t feature, bin, default_left, categorical;
    uint32_t left_set[GPL_CAT_WORDS];
} vk_early_split;

/* Batches in flight at once: an operation whose results the host does
 * not need (histogram build, subtraction, margins) returns once its batch
 * is submitted, and the host records the next while the device works.
 * (Four measured the same as two on an H200.) */
#define VK_FRAMES 2

/* One batch's command buffer, fence and descriptor pool, and what it
 * holds, so that a failure found later still names its batch. */
typedef struct vk_frame {
    VkCommandBuffer cmd;
    VkFence fence;
    VkDescriptorPool pool;
    int in_flight;
    const char *op;
    int level;
    char kernels[160];
} vk_frame;

/* GPULAYER_VULKAN_PROFILE=1 (vk_profile.c). */
#define VK_PROFILE_OPS 24
/* Timestamps a batch may write between its start and end (vk_profile_mark),
 * and the levels the report shows apart. */
#define VK_PROFILE_MARKS 14
#define VK_PROFILE_LEVELS 12
typedef struct vk_profile {
    int enabled;
    VkQueryPool pool; /* VK_PROFILE_MARKS + 2 timestamps a frame */
    double ms_per_tick;
    uint64_t mask;    /* the timestamp's valid bits */
    struct {
        const char *op;
        double ms;
        long batches;
        double level_ms[VK_PROFILE_LEVELS]; /* the last level takes the deeper ones */
    } ops[VK_PROFILE_OPS];
    int num_ops;
    /* By frame: the labels of the marks written into its batch. */
    const char *marks[VK_FRAMES][VK_PROFILE_MARKS];
    int num_marks[VK_FRAMES];
    double wait_ms;   /* host time blocked on fences */
    double record_ms; /* host time recording dispatches */
    long dispatches;
    double submit_ms; /* host time in vkQueueSubmit */
    double idle_ms;   /* device time between one batch's end and the next's start */
    uint64_t last_end;
} vk_profile;

/* Descriptor sets kept across batches (vk_setcache.c). */
#define VK_SETCACHE_SETS 4096u
#define VK_SETCACHE_SLOTS 8192u /* hash slots, a power of two */
typedef struct vk_setcache {
    VkDescriptorPool pool;
    struct vk_cached_set *slots;
    uint32_t allocated; /* sets taken from the pool */
    uint32_t entries;   /* sets the table holds now */
    int failed;         /* no pool could be made: caching off */
} vk_setcache;

/* Device facts: what the device is and can do, the sizes chosen for it,
 * and its pipelines (vk_device.c, vk_pipeline.c). */
typedef struct vk_device_facts {
    char device_name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
    VkPhysicalDeviceType device_type;
    int host_visible;        /* memory the host can map: no staging */
    uint32_t device_local_type, host_type;
    VkDeviceSize heap_bytes; /* size of the heap buffers come from */
    uint32_t heap_index;     /* that heap */
    int memory_budget;       /* VK_EXT_memory_budget: free memory can be asked */
    VkDeviceSize max_range;  /* maxStorageBufferRange */
    VkDeviceSize align;      /* minStorageBufferOffsetAlignment */
    uint32_t max_groups;     /* maxComputeWorkGroupCount[0] */
    uint32_t wg;             /* workgroup size (a power of two) */
    /* Workgroup sizes of histogram_rows, split_eval_level and the
     * partition kernels (vk_device.c), powers of two. */
    uint32_t hist_wg, split_wg, part_wg;
    uint32_t shared_bins;    /* bins of a shared-memory histogram chunk */
    uint32_t window_shift;   /* log2 bytes of a per-row buffer's window (window.glsl) */
    VkDeviceSize staging_bytes; /* VK_STAGING_BYTES, less under test limits */
    int verbose;
    /* The float64-free kernel variants (NAME_soft): the device lacks
     * shaderFloat64, or the tuning asks for them. */
    int soft_f64;
    vk_pipeline pipelines[VK_K_COUNT];
} vk_device_facts;

/* The device buffers of a job (vk_upload.c, vk_memory.c), and the
 * feature mask the mask buffer holds. */
typedef struct vk_buffers {
    vk_buffer bins, bin_rows, offsets, labels, weights, margins, grad, rows, scratch;
    vk_buffer softmax_norm; /* 16 bytes a row with several outputs (backend.h) */
    vk_buffer group_max, partial, tiles, child_counts, records, mask;
    vk_buffer categorical; /* split_eval's categorical table (gpl_cat_table_make) */
    vk_buffer staging;
    vk_buffer counts_host; /* host-visible copy of child_counts (discrete GPUs) */
    vk_buffer split_nodes; /* split_eval_level's node table, host-visible */
    uint32_t *mask_cache; /* the feature mask now in the mask buffer */
    int mask_valid;
} vk_buffers;

/* The query groups of a ranking job and the buffers of its gradients
 * (vk_rank.c); no group_ptr buffer until set_groups. Each is bound whole
 * by the ranking kernels (shaders/rank.glsl); yorder and runs (the mean
 * method) and map (rank:map) are made when first needed. */
typedef struct vk_rank {
    int64_t num_groups, max_group_size;
    vk_buffer group_ptr, discount, inv_idcg, group_weight, qsums;
    vk_buffer order, yorder, runs, map;
} vk_rank;

/* survival:cox's order of the rows by time and the sums of its gradients
 * (vk_cox.c); no order buffer until set_survival_order. */
typedef struct vk_cox {
    int64_t num_blocks;
    vk_buffer order, tie_start, e, s_sum, blocks;
} vk_cox;

/* The context in parts by job, in the order every backend's has: the
 * runtime (instance, queue, batches), device facts, shape, buffers,
 * histogram pool, node table, tuning. */
typedef struct vk_context {
    /* runtime */
    gpl_vk_api api;
    VkInstance instance;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t queue_family;
    VkCommandPool command_pool;
    vk_frame frames[VK_FRAMES];
    int current;        /* the frame being recorded or last submitted */
    uint32_t sets_left; /* descriptor sets left in the current pool */
    int recording;
    VkPipeline bound;   /* the pipeline bound in the open command buffer */
    int level;          /* depth of the level being grown */
    vk_profile prof;
    vk_setcache setcache;

    /* device facts */
    vk_device_facts dev;

    /* shape */
    gpl_shape shape;
    VkDeviceSize column_bytes; /* stride of the feature-major bin columns */
    VkDeviceSize row_bytes;    /* stride of the bins in rows (a multiple of 4) */
    uint32_t code_bits;        /* of a bin code: 8, or 16 (gpl_code_bits) */
    uint32_t *feature_offset;  /* host copy */
    vk_chunk *chunks;
    int32_t num_chunks;
    int has_weight;
    int softmax_norm_ready; /* buf.softmax_norm holds this round's */
    gpl_window_plan win;       /* windows of the per-row buffers */
    uint32_t grad_dispatches;  /* gradients dispatches: windows of 2^win.chunk_shift rows */
    VkDeviceSize group_stride; /* bytes of one dispatch's workgroup maxima, aligned */

    /* buffers */
    vk_buffers buf;
    vk_rank rank;
    vk_cox cox;
    uint32_t grad_groups;    /* workgroups of the gradient kernel */
    uint32_t partial_groups; /* partial histograms the partial buffer holds */
    VkDeviceSize slot_bytes; /* one histogram, aligned */
    /* Word of the level tables in the offsets buffer (vk_hist.c), and the
     * blocks (and nodes) a wave's table holds. */
    uint32_t table_word, table_blocks;
    int32_t slots_per_page;

    /* histogram pool: slot s is slot s % slots_per_page of page
     * s / slots_per_page (vk_slot_place) */
    vk_buffer *pages;
    int32_t num_pages;
    gpl_hist_slots slots;

    /* node table: the row partition's bookkeeping (host side; counts come
     * from the device).
     * nodes.buf: the list a node's rows are in, 0 `rows`, 1 `scratch`
     * (the one-pass partition moves a split's rows to the other list;
     * vk_node_rows). */
    gpl_node_table nodes;
    /* Splits of this tree whose children are leaves (split_into_leaves):
     * their rows stay with the parent; update_margins sends them left or
     * right (margins_split.comp). */
    gpl_split_apply *leaf_splits;
    int32_t num_leaf_splits;
    /* By node: the split its rows were partitioned by with its level's
     * search (feature -1: none), and the left child's row count. */
    vk_early_split *early;

    size_t allocated_bytes, peak_bytes, estimate_bytes;

    /* tuning, read once at creation (vk_tuning.h) */
    vk_tuning tuning;
} vk_context;

static inline vk_context *vk_ctx(gpl_backend *be) { return (vk_context *)be->ctx; }

/* The row list that holds node's rows. */
static inline const vk_buffer *vk_node_rows(const vk_context *c, int32_t node)
{
    return c->nodes.buf[node] ? &c->buf.scratch : &c->buf.rows;
}

/* The page and index of slot s (pages fill in slot order; s < 0: none). */
static inline vk_hist_slot vk_slot_place(const vk_context *c, int32_t s)
{
    vk_hist_slot p = {-1, -1};
    if (s >= 0) p = (vk_hist_slot){s / c->slots_per_page, s % c->slots_per_page};
    return p;
}

/* Where node's histogram is (page < 0: it has none). */
static inline vk_hist_slot vk_node_slot(const vk_context *c, int32_t node)
{
    return vk_slot_place(c, gpl_hist_slot(&c->slots, node));
}

/* The histogram pool's geometry and the device's limits, as the level
 * plan (common/level_plan.h) takes them. */
static inline gpl_plan_pool vk_plan_pool(const vk_context *c)
{
    gpl_plan_pool p = {c->slots_per_page, c->slot_bytes, (uint64_t)c->shape.hist_len * 16,
                       c->dev.max_range};
    return p;
}

static inline gpl_plan_limits vk_plan_limits(const vk_context *c)
{
    gpl_plan_limits l = {c->dev.max_groups, c->dev.wg, c->partial_groups, c->table_blocks,
                         c->tuning.rows_per_partial, c->tuning.node_partials,
                         (uint32_t)c->num_chunks,
                         gpl_plan_chunks_per_dispatch((uint32_t)c->num_chunks,
                                                      c->dev.max_groups)};
    return l;
}

/* The range of rows [first, first + count) of a per-row buffer of
 * row_bytes bytes a row. */
static inline vk_range vk_rows_range(const vk_buffer *b, uint64_t first, uint64_t count,
                                        VkDeviceSize row_bytes)
{
    vk_range r = {b, (VkDeviceSize)first * row_bytes, (VkDeviceSize)count * row_bytes};
    if (r.bytes == 0) r = (vk_range){b, 0, b->bytes}; /* no rows: any valid range */
    return r;
}

/* vk_device.c */
gpulayer_status vk_device_open(vk_context *c, int32_t device_index);
/* Free bytes of the heap buffers come from, where the driver says
 * (VK_EXT_memory_budget); 0 where it does not. */
VkDeviceSize vk_device_free_bytes(vk_context *c);
/* Bytes of device memory all Vulkan contexts of the process hold. */
long long gpl_vulkan_live_device_bytes(void);
void vk_device_close(vk_context *c);

/* vk_device_pool.c: an idle device of the process, on c->physical in
 * c->dev.soft_f64's mode, with its pipelines, moved into c (1), or none
 * (0); and c's idle device parked there (1) or left to the caller to
 * destroy (0: the pool is full). */
int vk_device_pool_take(vk_context *c);
int vk_device_pool_park(vk_context *c);

/* vk_memory.c */
gpulayer_status vk_buffer_create(vk_context *c, vk_buffer *b, VkDeviceSize bytes,
                                 const char *what);
void vk_buffer_destroy(vk_context *c, vk_buffer *b);
gpulayer_status vk_buffer_write(vk_context *c, vk_buffer *b, VkDeviceSize offset,
                                const void *data, VkDeviceSize bytes);
/* rows rows of src_stride bytes, each written as dst_stride bytes (the
 * rest zero), from the start of b. */
gpulayer_status vk_buffer_write_rows(vk_context *c, vk_buffer *b, const void *data,
                                     size_t rows, size_t src_stride, size_t dst_stride);
gpulayer_status vk_buffer_read(vk_context *c, const vk_buffer *b, VkDeviceSize offset,
                               void *data, VkDeviceSize bytes);
gpulayer_status vk_buffer_reserve(vk_context *c, vk_buffer *b, VkDeviceSize bytes,
                                  const char *what);
/* The same in host-visible memory, mapped (vk_memory.c says why). */
gpulayer_status vk_buffer_create_host(vk_context *c, vk_buffer *b, VkDeviceSize bytes,
                                      const char *what);
gpulayer_status vk_buffer_reserve_host(vk_context *c, vk_buffer *b, VkDeviceSize bytes,
                                       const char *what);
VkDeviceSize vk_align_up(VkDeviceSize n, VkDeviceSize a);

/* vk_pipeline.c */
gpulayer_status vk_pipelines_check(void);
gpulayer_status vk_pipeline_get(vk_context *c, gpl_vk_kernel k, vk_pipeline **out);
void vk_pipelines_destroy(vk_context *c);

/* vk_record.c: one command buffer a batch (an operation of one level). */
gpulayer_status vk_begin(vk_context *c, const char *op);
gpulayer_status vk_dispatch(vk_context *c, gpl_vk_kernel k, const vk_range *bind,
                            const void *push, uint32_t groups);
void vk_barrier(vk_context *c);
void vk_copy(vk_context *c, const vk_buffer *src, VkDeviceSize src_offset,
             const vk_buffer *dst, VkDeviceSize dst_offset, VkDeviceSize bytes);
/* Several copies from src to dst as one command. */
void vk_copy_regions(vk_context *c, const vk_buffer *src, const vk_buffer *dst,
                     const VkBufferCopy *regions, uint32_t count);
/* Sets bytes (a multiple of 4) of dst from offset to the 32-bit value. */
void vk_fill(vk_context *c, const vk_buffer *dst, VkDeviceSize offset, VkDeviceSize bytes,
             uint32_t value);
/* Writes bytes of data at offset of dst from the command buffer itself
 * (small tables: the data travel inside the batch). */
void vk_update(vk_context *c, const vk_buffer *dst, VkDeviceSize offset, const void *data,
               VkDeviceSize bytes);
/* Submits and waits for every batch in flight. */
gpulayer_status vk_submit(vk_context *c);
/* Submits without waiting; vk_finish (or any later wait) checks it. */
gpulayer_status vk_submit_async(vk_context *c);
gpulayer_status vk_finish(vk_context *c);
/* Waits for every batch in flight but the last submitted. */
gpulayer_status vk_wait_older(vk_context *c);
void vk_abandon(vk_context *c);
uint32_t vk_groups_for(const vk_context *c, uint64_t items);
vk_range vk_whole(const vk_buffer *b);
/* The GPL_KERNEL_WINDOWS bindings of per-row buffer b, whose windows hold
 * 2^rows_shift rows of row_bytes bytes (vk_record.c). */
void vk_windows(const vk_context *c, const vk_buffer *b, uint32_t rows_shift,
                VkDeviceSize row_bytes, vk_range *out);

/* vk_upload.c, vk_gradients.c, vk_margins.c (the first the plan of a job
 * and its data on the device) */
gpulayer_status vk_upload(gpl_backend *be, const gpl_binned_matrix *m, const float *label,
                          const float *weight);
gpulayer_status vk_compute_gradients(gpl_backend *be, const gpl_gradient_request *req,
                                     gpl_quant_scale *scale);
/* The second pass of compute_gradients, for every objective: the scale
 * from the workgroup maxima of `dispatches` dispatches (group_max), then
 * the pairs quantized in place; submitted without waiting. */
gpulayer_status vk_quantize_gradients(vk_context *c, uint32_t dispatches,
                                      gpl_quant_scale *scale);
gpulayer_status vk_set_margins(gpl_backend *be, const float *margins);
gpulayer_status vk_get_margins(gpl_backend *be, float *margins);
gpulayer_status vk_update_margins(gpl_backend *be, int32_t output, const float *leaf_value);

/* vk_hist.c */
gpulayer_status vk_build_histograms(gpl_backend *be, const int32_t *nodes,
                                    int32_t num_nodes);
gpulayer_status vk_subtract_histograms(gpl_backend *be, const gpl_hist_subtract *subs,
                                       int32_t count);
gpulayer_status vk_release_histograms(gpl_backend *be, const int32_t *nodes,
                                      int32_t num_nodes);
gpulayer_status vk_read_histogram(gpl_backend *be, int32_t node, gpl_grad_pair *out);
gpulayer_status vk_write_pairs(gpl_backend *be, int32_t node, const gpl_grad_pair *in);
vk_range vk_hist_range(const vk_context *c, vk_hist_slot s);
void vk_hist_free_pool(vk_context *c);
/* New histogram slots: a page of them when the last is full (the slot
 * pool's grow callback). */
gpulayer_status vk_hist_grow(void *user, int32_t node, int32_t first, int32_t room,
                             int32_t *made);

/* vk_split.c, vk_partition.c */
gpulayer_status vk_evaluate_splits(gpl_backend *be, const int32_t *nodes,
                                   int32_t num_nodes, const gpl_split_params *params,
                                   const uint8_t *feature_mask, gpl_split_record *out);
gpulayer_status vk_split_into_leaves(gpl_backend *be, const gpl_split_apply *splits,
                                    int32_t count);
/* The early partition (vk_split.c): buffers reserved before the batch,
 * the partition of nodes by their records recorded after the search, the
 * left counts taken once the batch is done. */
gpulayer_status vk_partition_early_prepare(vk_context *c, const int32_t *nodes, int32_t count);
gpulayer_status vk_partition_early_record(vk_context *c, const int32_t *nodes, int32_t count);
gpulayer_status vk_partition_early_take(vk_context *c, const int32_t *nodes, int32_t count,
                                        const gpl_split_record *records);
gpulayer_status vk_partition_rows(gpl_backend *be, const gpl_split_apply *splits,
                                  int32_t count, int64_t *child_rows);
/* Every row in the root (vk_partition.c). */
gpulayer_status vk_begin_tree(gpl_backend *be);

/* vk_cox.c: set_survival_order, and compute_gradients of survival:cox. */
gpulayer_status vk_set_survival_order(gpl_backend *be, const gpl_survival_order *order);
gpulayer_status vk_cox_gradients(gpl_backend *be, const gpl_gradient_request *req,
                                 gpl_quant_scale *scale);
void vk_cox_free(vk_context *c);
/* vk_rank.c: set_groups, and compute_gradients of the ranking objectives. */
gpulayer_status vk_set_groups(gpl_backend *be, const gpl_rank_groups *groups);
gpulayer_status vk_rank_gradients(gpl_backend *be, const gpl_gradient_request *req,
                                  gpl_quant_scale *scale);
void vk_rank_free(vk_context *c);

/* vk_predict.c, vk_shap.c */
gpulayer_status vk_predict(gpl_backend *be, const gpl_predict_job *job, float *margins);
gpulayer_status vk_shap(gpl_backend *be, const gpl_shap_job *job, float *out);

void vk_track_alloc(vk_context *c, size_t bytes);
void vk_track_free(vk_context *c, size_t bytes);

/* vk_profile.c */
void vk_profile_init(vk_context *c);
void vk_profile_begin(vk_context *c, int frame, VkCommandBuffer cmd);
void vk_profile_end(vk_context *c, int frame, VkCommandBuffer cmd);
double vk_profile_clock(const vk_context *c);
/* Host time since `start` (a vk_profile_clock value) added to *total. */
void vk_profile_add(const vk_context *c, double start, double *total);
/* A timestamp in the open batch: the device time from here to the next
 * mark (or the batch's end) is reported under `label`. */
void vk_profile_mark(vk_context *c, const char *label);
void vk_profile_collect(vk_context *c, int frame, const char *op, int level,
                        double wait_start);
void vk_profile_report(vk_context *c);
void vk_profile_destroy(vk_context *c);

/* vk_setcache.c: a set for these bindings, made once and kept; or
 * VK_NULL_HANDLE when the cache cannot hold it (the caller then writes a
 * set of its own). */
VkDescriptorSet vk_setcache_get(vk_context *c, VkDescriptorSetLayout layout,
                                const VkDescriptorBufferInfo *info, uint32_t n);
void vk_setcache_forget(vk_context *c);
void vk_setcache_destroy(vk_context *c);

#endif
