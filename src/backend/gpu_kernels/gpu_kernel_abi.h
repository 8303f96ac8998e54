/* gpu_kernel_abi.h -- the host side of the GLSL kernels' interface (the
 * .comp files of src/backend/gpu_kernels/shaders, and the Metal kernels
 * translated from them), shared by the Vulkan and the Metal hosts: the
 * push-constant blocks, the split record the split_eval kernel writes, and
 * the planning of a level's partition that both hosts do alike. */
#ifndef GPL_GPU_KERNEL_ABI_H
#define GPL_GPU_KERNEL_ABI_H

#include <stdint.h>
#include <string.h>

#include "backend.h"

/* ------------------------------------------------------------ windows
 *
 * Per-row buffers larger than one storage binding (shaders/window.glsl).
 * A kernel that reaches a per-row buffer at arbitrary rows binds it as
 * GPL_KERNEL_WINDOWS bindings: window w is the 2^window_shift bytes at
 * byte offset w << window_shift (margins: whole rows, see below); windows
 * past the end of the buffer are bound to window 0 again. Kernels that
 * walk rows in order (gradients, quantize, rows_init) are dispatched once
 * a window instead, each dispatch binding its window only.
 *
 * Must equal GPL_WINDOWS of shaders/window.glsl. A job whose gradient
 * pairs, row lists or margins need more windows is refused. */
#define GPL_KERNEL_WINDOWS 8

/* Storage bindings of the windowed kernels: their plain buffers first
 * (1..), then each windowed buffer's GPL_KERNEL_WINDOWS bindings. */
#define GPL_HISTOGRAM_BINDINGS (3 + 2 * GPL_KERNEL_WINDOWS)   /* bins, offsets, partial, rows, grad */
#define GPL_HISTOGRAM_ROWS_BINDINGS (2 + 3 * GPL_KERNEL_WINDOWS) /* offsets, partial, rows, grad, bins */
#define GPL_BINS_COLUMNS_BINDINGS (2 * GPL_KERNEL_WINDOWS)    /* bins in rows, columns           */
#define GPL_MARGINS_SPLIT_BINDINGS (3 * GPL_KERNEL_WINDOWS)   /* rows, margins, bin columns      */
#define GPL_SPLIT_TABLE_BINDINGS 2                             /* level, split records            */
#define GPL_PART_COUNT_BINDINGS (2 + 2 * GPL_KERNEL_WINDOWS)   /* tiles, level, bins, rows        */
#define GPL_PART_SCAN_BINDINGS 2                               /* tiles, level                    */
#define GPL_PART_SCATTER_BINDINGS (2 + 3 * GPL_KERNEL_WINDOWS) /* tiles, level, bins, rows, scratch */
#define GPL_MARGINS_BINDINGS (2 * GPL_KERNEL_WINDOWS)         /* rows, margins                   */
/* The most storage bindings any kernel has. */
#define GPL_MAX_KERNEL_BINDINGS GPL_PART_SCATTER_BINDINGS

/* The window geometry of a job, all sizes powers of two (log2). */
typedef struct gpl_window_plan {
    uint32_t window_shift; /* bytes of a window (specialization constant 2)  */
    uint32_t grad_shift;   /* rows of a gradient-pair window (16 bytes a row) */
    uint32_t list_shift;   /* rows of a row-list window (4 bytes a row)       */
    uint32_t margin_shift; /* rows of a margin window (4 x outputs bytes a row) */
    uint32_t chunk_shift;  /* rows of one gradients dispatch                  */
} gpl_window_plan;

/* log2 of the largest power of two within a binding of max_range bytes
 * (at most 2^31, so element indices stay within 32 bits). */
static inline uint32_t gpl_window_shift_for(uint64_t max_range)
{
    uint32_t s = 0;
    while (s < 31 && ((uint64_t)2 << s) <= max_range) s++;
    return s;
}

static inline uint32_t gpl_ceil_log2(uint64_t x)
{
    uint32_t s = 0;
    while (((uint64_t)1 << s) < x) s++;
    return s;
}

/* The plan for windows of 2^window_shift bytes and `outputs` margins a
 * row. A margin window holds 2^margin_shift whole rows, so a row's margins
 * never straddle two windows. Returns 0 when one row's margins do not fit
 * a window (or a window would not start at an offset aligned to `align`
 * bytes, a power of two). */
static inline int gpl_window_plan_make(uint32_t window_shift, uint32_t outputs, uint64_t align,
                                       gpl_window_plan *p)
{
    const uint32_t out_log = gpl_ceil_log2(outputs ? outputs : 1);
    if (window_shift < 4 || window_shift < 2 + out_log) return 0;
    p->window_shift = window_shift;
    p->grad_shift = window_shift - 4;
    p->list_shift = window_shift - 2;
    p->margin_shift = window_shift - 2 - out_log;
    p->chunk_shift = p->grad_shift < p->margin_shift ? p->grad_shift : p->margin_shift;
    /* Windows and gradients dispatches start at multiples of 4 << chunk_shift bytes. */
    return ((uint64_t)4 << p->chunk_shift) % (align ? align : 1) == 0;
}

/* Windows of 2^shift rows that `rows` rows take (at least 1). */
static inline uint64_t gpl_windows_for(uint64_t rows, uint32_t shift)
{
    const uint64_t n = (rows + ((uint64_t)1 << shift) - 1) >> shift;
    return n ? n : 1;
}

/* Byte offset and size of window w of a buffer of `bytes` bytes cut into
 * windows of window_bytes; a window past the end is window 0 again. */
static inline void gpl_window_range(uint64_t bytes, uint64_t window_bytes, uint32_t w,
                                    uint64_t *offset, uint64_t *size)
{
    uint64_t off = (uint64_t)w * window_bytes;
    if (off >= bytes) off = 0;
    *offset = off;
    *size = bytes - off < window_bytes ? bytes - off : window_bytes;
}

/* Push constants of gradients.comp (seed: a uint64, param: a double, each
 * as (low, high) words): one dispatch a window of rows starting at
 * row_first, num_rows rows. */
typedef struct gpl_gradient_push {
    uint64_t seed;
    double param; /* the request's (backend.h) */
    uint32_t num_rows, num_outputs, output_index;
    int32_t objective, round_index;
    uint32_t has_weight;
    float subsample;
    uint32_t row_first;
    uint32_t norm_write; /* softmax: compute each row's normaliser (backend.h);
                          * expectiles: move the chain on (objective_math.h) */
    float alphas[GPL_MAX_OUTPUT_ALPHAS]; /* reg:expectileerror's */
} gpl_gradient_push;

/* The push constants of the gradients dispatch of rows first .. first +
 * count - 1 for the tree `req` asks for. */
static inline gpl_gradient_push gpl_gradient_push_make(const gpl_gradient_request *req,
                                                       uint64_t first, uint64_t count,
                                                       int32_t num_outputs, int has_weight,
                                                       int norm_write)
{
    gpl_gradient_push p = {req->seed, req->param, (uint32_t)count, (uint32_t)num_outputs,
                           (uint32_t)req->output, (int32_t)req->objective,
                           gpl_sample_round(req), (uint32_t)has_weight, req->subsample, (uint32_t)first,
                           (uint32_t)norm_write, {0}};
    memcpy(p.alphas, req->alphas, sizeof p.alphas);
    return p;
}

/* The largest |gradient| and hessian of a gradients pass, from the
 * workgroup maxima gradients.comp writes (a pair of doubles a workgroup,
 * `groups` a dispatch) of `dispatches` dispatches, stride bytes apart
 * from base. */
static inline void gpl_gradient_maxima(const void *base, size_t stride, uint32_t dispatches,
                                       uint32_t groups, double *max_g, double *max_h)
{
    double mg = 0.0, mh = 0.0;
    for (uint32_t d = 0; d < dispatches; d++) {
        const double *mx = (const double *)((const char *)base + (size_t)d * stride);
        for (uint32_t i = 0; i < groups; i++) {
            if (mx[2 * i] > mg) mg = mx[2 * i];
            if (mx[2 * i + 1] > mh) mh = mx[2 * i + 1];
        }
    }
    *max_g = mg;
    *max_h = mh;
}

/* Push constants of cox.comp, whose bindings are margins, labels,
 * weights, order, tie_start, e, S, the block sums, the gradient pairs and
 * the workgroup maxima; seed as (low, high) words. */
typedef struct gpl_cox_push {
    uint64_t seed;
    uint32_t num_rows, num_blocks, num_outputs, output_index;
    uint32_t phase; /* 0-3: cox_math.h's steps; 4: sampling and maxima */
    uint32_t has_weight;
    int32_t sample_round;
    float subsample;
} gpl_cox_push;

#define GPL_COX_BINDINGS 10

/* Push constants of the ranking kernels (shaders/rank.glsl: rank_order,
 * rank_map, rank_pairs, rank_finish), all of them with the
 * GPL_RANK_BINDINGS bindings listed there; seed as (low, high) words. */
typedef struct gpl_rank_push {
    uint64_t seed;
    uint32_t num_rows, num_groups, num_outputs, output_index;
    int32_t objective, round_index;
    int32_t pair_method, num_pair, exp_gain, normalization, score_normalization;
    uint32_t mode; /* rank_order: 0 the model order, 1 the grade order */
    float subsample;
    int32_t sample_round; /* gpl_sample_round: the row sample's round */
} gpl_rank_push;

/* group_ptr, margins, labels, order, yorder, runs, map sums, row sums,
 * query sums, discount, inv_idcg, group_weight, group maxima. */
#define GPL_RANK_BINDINGS 13

static inline gpl_rank_push gpl_rank_push_make(const gpl_gradient_request *req, uint64_t rows,
                                               int64_t groups, int32_t num_outputs)
{
    const gpl_rank_request *r = &req->rank;
    gpl_rank_push p = {req->seed, (uint32_t)rows, (uint32_t)groups, (uint32_t)num_outputs,
                       (uint32_t)req->output, (int32_t)req->objective, req->round,
                       r->pair_method, r->num_pair, r->exp_gain, r->normalization,
                       r->score_normalization, 0, req->subsample, gpl_sample_round(req)};
    return p;
}

/* Push constants of rows_init.comp: one dispatch a row-list window. */
typedef struct gpl_rows_init_push {
    uint32_t num_rows, row_first;
} gpl_rows_init_push;

/* Push constants of quantize.comp (doubles as (low, high) words). */
typedef struct gpl_quantize_push {
    double scale_grad, scale_hess;
    uint32_t num_rows;
} gpl_quantize_push;

/* Push constants of update_margins.comp (margin_shift: the plan's). */
typedef struct gpl_margins_push {
    uint32_t row_begin, row_count, num_outputs, output_index;
    float value;
    uint32_t margin_shift;
} gpl_margins_push;

/* Push constants of split_table.comp. */
typedef struct gpl_split_table_push {
    uint32_t num_splits, table_first, column_words;
} gpl_split_table_push;

/* Push constants of margins_split.comp: a split whose children are leaves;
 * default_left, bin and left_set as in gpl_partition_split. */
typedef struct gpl_margins_split_push {
    uint32_t row_begin, row_count, num_outputs, output_index;
    float value_left, value_right;
    uint32_t margin_shift, column_word, default_left, bin, code_bits;
    uint32_t left_set[GPL_CAT_WORDS];
} gpl_margins_split_push;

/* gpl_partition_split's default_left bit of a split by left_set, and of a
 * split by a set too wide for it (a feature of more than 255 categories):
 * left_set[0] is then the word of the level buffer where its
 * gpl_cat_set_words words start. */
#define GPL_SPLIT_BY_SET 2u
#define GPL_SPLIT_BY_WIDE_SET 4u

/* The default_left word of split s in a split table or margins_split's
 * push constants: where missing values go, and whether its left_set
 * decides. */
static inline uint32_t gpl_split_how(const gpl_split_apply *s)
{
    return (s->default_left ? 1u : 0u) | (s->categorical ? GPL_SPLIT_BY_SET : 0u);
}

/* Bits of the bin codes of a matrix of code_bytes bytes a code. */
static inline uint32_t gpl_code_bits(int32_t code_bytes)
{
    return code_bytes == 2 ? 16u : 8u;
}

/* Push constants of histogram.comp. */
typedef struct gpl_histogram_push {
    uint32_t row_begin, row_count;
    uint32_t feature_first, feature_count;
    uint32_t bin_first, bin_count;
    uint32_t column_bytes, hist_len;
    uint32_t partial_first;
    uint32_t code_bits;
} gpl_histogram_push;

/* Push constants of histogram_rows.comp: the chunks of one dispatch are
 * num_chunks entries of a table (gpl_hist_chunk's four words each) at
 * word chunk_table of the feature offsets buffer, its row blocks the
 * entries of a block table at word block_table of the same buffer. */
typedef struct gpl_histogram_rows_push {
    uint32_t num_chunks, chunk_table;
    uint32_t row_words, hist_len;
    uint32_t block_table;
    uint32_t code_bits;
} gpl_histogram_rows_push;

/* A row block of a level's histogram build (histogram_rows.comp): block
 * `block` of the node's `blocks` (each below 2^16) takes the node's rows
 * WG x blocks apart and writes partial `partial`. */
typedef struct gpl_hist_block {
    uint32_t row_begin, row_count;
    uint32_t block_and_blocks; /* block | blocks << 16 */
    uint32_t partial;
} gpl_hist_block;

/* A node of hist_reduce_nodes.comp: partials partial_first .. + groups - 1
 * summed into the histogram at element hist_first (16 bytes an element)
 * of the bound run of slots. */
typedef struct gpl_hist_node {
    uint32_t partial_first, groups, hist_first, unused;
} gpl_hist_node;

/* A subtraction of hist_subtract_nodes.comp: target = parent - built, each
 * by its first element in the bound run of slots. */
typedef struct gpl_hist_subtraction {
    uint32_t parent, built, target, unused;
} gpl_hist_subtraction;

/* Push constants of hist_reduce_nodes.comp and hist_subtract_nodes.comp:
 * `entries` entries of a table at word table_first of its binding. */
typedef struct gpl_hist_nodes_push {
    uint32_t hist_len, entries, table_first;
} gpl_hist_nodes_push;

/* histogram_rows.comp keeps a chunk's words of a row in registers: at most
 * 8 words, which any 28 consecutive features of 8-bit codes fit wherever
 * they start (14 of 16-bit codes). */
#define GPL_ROW_CHUNK_FEATURES 28

/* Push constants of bins_columns.comp. */
typedef struct gpl_columns_push {
    uint32_t num_rows, row_words, num_features, column_words, code_bits;
} gpl_columns_push;

/* Push constants of hist_reduce.comp. */
typedef struct gpl_reduce_push {
    uint32_t hist_len, groups, partial_first;
} gpl_reduce_push;

/* hist_reduce.comp's workgroups take bins this many at a time: the hosts
 * dispatch one workgroup a block of bins. */
#define GPL_REDUCE_BLOCK 32u
static inline uint32_t gpl_reduce_groups(uint32_t hist_len, uint32_t max_groups)
{
    const uint32_t g = (hist_len + GPL_REDUCE_BLOCK - 1) / GPL_REDUCE_BLOCK;
    return g < 1 ? 1 : g > max_groups ? max_groups : g;
}

/* Rows of a partition tile an invocation (PART_ITEMS of partition_push.glsl):
 * a tile is workgroup size x GPL_PART_ITEMS rows. */
#define GPL_PART_ITEMS 8

/* Push constants of partition_count/scan/scatter.comp (partition_push.glsl):
 * one dispatch of each covers every split of a level. */
typedef struct gpl_partition_push {
    uint32_t num_splits, num_tiles, table_first, code_bits;
} gpl_partition_push;

/* A split in the level buffer's split table (partition_push.glsl), after
 * the child row counts (GPL_CHILD_COUNTS_BYTES a split). A row whose bin
 * b is 0 goes left when bit 0 of default_left is set; another goes left,
 * where default_left has GPL_SPLIT_BY_SET (categorical), when bit b of
 * left_set is set, else (numeric) when b <= bin. */
typedef struct gpl_partition_split {
    uint32_t row_begin, row_count, bin, default_left;
    uint32_t tile_first, num_tiles, column_word;
    /* partition_place only: the list the split's rows are in, 0 the row
     * list, 1 the scratch list; the rows go to the other (0 for the
     * stable kernels, which write the scratch list and copy back). */
    uint32_t from;
    uint32_t left_set[GPL_CAT_WORDS];
} gpl_partition_split;

/* Push constants of split_eval.comp (doubles as (low, high) words); the
 * categorical ones, max_delta_step, monotone_gain_factor and
 * min_data_in_leaf (a whole number) as in gpl_split_params. The node's
 * bounds on its weight are lower and upper, unless bounds_first is not 0:
 * the node table binding (split_eval_level's) then holds them, a 16-byte
 * entry (lower, upper) a record from entry bounds_first on
 * (gpl_split_bounds_write). */
typedef struct gpl_split_push {
    double lambda, alpha, min_child_weight, scale_grad, scale_hess;
    double cat_smooth, cat_l2, min_data_per_group;
    double max_delta_step, lower, upper, monotone_gain_factor;
    int32_t node;
    uint32_t record;
    uint32_t features; /* the feature count; bit 31 set when the mask words are read */
    uint32_t min_data_in_leaf;
    int32_t max_cat_to_onehot, max_cat_threshold;
    uint32_t bounds_first;
    uint32_t node_rows; /* the node's (0: unknown), unless in the node table */
} gpl_split_push;

/* Vulkan guarantees no more bytes of push constants. */
_Static_assert(sizeof(gpl_split_push) <= 128, "gpl_split_push exceeds 128 bytes");

/* A split record as split_eval.comp writes it: node, feature, bin (a
 * categorical split's key), default_left, gain (a double), the left,
 * right and total sums (two int64 each), then categorical and the
 * GPL_CAT_WORDS words of its left_set (zero for a numeric split). */
#define GPL_SPLIT_RECORD_WORDS (19 + GPL_CAT_WORDS)
#define GPL_SPLIT_RECORD_BYTES (4 * GPL_SPLIT_RECORD_WORDS)

/* The child row counts partition_scan.comp writes: two uint32 a split. */
#define GPL_CHILD_COUNTS_BYTES 8

static inline gpl_split_push gpl_split_push_make(const gpl_split_params *params, int32_t node,
                                                 uint32_t record, int32_t num_features,
                                                 int has_mask)
{
    gpl_split_push p = {params->lambda, params->alpha, params->min_child_weight,
                        params->scale.grad, params->scale.hess, params->cat_smooth,
                        params->cat_l2, params->min_data_per_group,
                        params->max_delta_step, -HUGE_VAL, HUGE_VAL,
                        params->monotone_gain_factor,
                        node, record, (uint32_t)num_features | (has_mask ? 1u << 31 : 0u),
                        (uint32_t)params->min_data_in_leaf,
                        params->max_cat_to_onehot, params->max_cat_threshold, 0, 0};
    return p;
}

/* The nodes' rows into the fourth word of the search's node table entries
 * (gpl_plan_search's, num_nodes of them, entry word 1 the node's index in
 * the call). */
static inline void gpl_split_rows_write(const gpl_split_params *params, int32_t num_nodes,
                                        uint32_t *table)
{
    for (int32_t j = 0; j < num_nodes; j++) {
        uint32_t *e = table + 4 * (size_t)j;
        e[3] = gpl_split_node_rows(params, (int32_t)e[1]);
    }
}

/* split_eval.comp's word of feature f: bit 0 set when the feature may be
 * split on, bit 1 when it is monotone increasing, bit 2 decreasing, from
 * the mask and the constraints (either may be NULL; the kernel reads the
 * words where either is given, its has_mask). */
static inline uint32_t gpl_split_feature_word(const uint8_t *mask, const int8_t *monotone,
                                              int32_t f)
{
    const int c = monotone ? monotone[f] : 0;
    return (uint32_t)(mask ? mask[f] != 0 : 1) | (c > 0 ? 2u : 0u) | (c < 0 ? 4u : 0u);
}

/* The nodes' bounds (params->bounds, num_nodes of them) into the node
 * table's words from entry `first` on (4 words a node); returns the
 * push's bounds_first: first, or 0 when there are no bounds. */
static inline uint32_t gpl_split_bounds_write(const gpl_split_params *params,
                                              int32_t num_nodes, uint32_t first,
                                              uint32_t *table)
{
    if (!params->bounds) return 0;
    memcpy(table + 4 * (size_t)first, params->bounds, 2 * sizeof(double) * (size_t)num_nodes);
    return first;
}

static inline gpl_grad_pair gpl_split_record_pair(const uint32_t *w)
{
    gpl_grad_pair p;
    memcpy(&p.grad, w, 8);
    memcpy(&p.hess, w + 2, 8);
    return p;
}

/* The record at w (GPL_SPLIT_RECORD_WORDS words) as a gpl_split_record. */
static inline void gpl_split_record_decode(const uint32_t *w, gpl_split_record *r)
{
    memset(r, 0, sizeof *r);
    r->node = (int32_t)w[0];
    r->feature = (int32_t)w[1];
    r->bin = (int32_t)w[2];
    r->default_left = (int32_t)w[3];
    memcpy(&r->gain, w + 4, 8);
    r->left = gpl_split_record_pair(w + 6);
    r->right = gpl_split_record_pair(w + 10);
    r->total = gpl_split_record_pair(w + 14);
    r->categorical = w[18] != 0; /* 2: a set too wide for the record */
    memcpy(r->left_set, w + 19, sizeof r->left_set);
}

/* Tiles of a partition over a node of `rows` rows. */
static inline uint32_t gpl_partition_tiles(uint64_t rows, uint32_t rows_per_tile)
{
    return (uint32_t)((rows + rows_per_tile - 1) / rows_per_tile);
}

/* The split table of a level's partition: split i's rows, left bins,
 * default direction and column (the first 4-byte word of its feature's column in
 * the feature-major bins, column_bytes a feature), its first tile after
 * those of splits 0..i-1 and its tiles of rows_per_tile rows. Returns the
 * push constants of the level (the table after the child counts). */
static inline gpl_partition_push gpl_partition_plan_level(gpl_partition_split *table,
                                                          const gpl_split_apply *splits,
                                                          int32_t count,
                                                          const int64_t *node_begin,
                                                          const int64_t *node_count,
                                                          uint32_t rows_per_tile,
                                                          uint64_t column_bytes,
                                                          uint32_t code_bits)
{
    uint32_t tile = 0;
    for (int32_t i = 0; i < count; i++) {
        const gpl_split_apply *s = &splits[i];
        const uint32_t rows = (uint32_t)node_count[s->node];
        table[i] = (gpl_partition_split){(uint32_t)node_begin[s->node], rows, (uint32_t)s->bin,
                                         gpl_split_how(s), tile,
                                         gpl_partition_tiles(rows, rows_per_tile),
                                         (uint32_t)((uint64_t)s->feature * column_bytes / 4), 0,
                                         {0}};
        if (s->categorical) memcpy(table[i].left_set, s->left_set, sizeof table[i].left_set);
        tile += table[i].num_tiles;
    }
    gpl_partition_push push = {(uint32_t)count, tile,
                               (uint32_t)(count * GPL_CHILD_COUNTS_BYTES / 4), code_bits};
    return push;
}

/* ------------------------------------------------------ data layout */

/* Words of split_eval.comp's categorical table for num_features features:
 * a flag a feature (1: split by sets of categories), then how many
 * features are, then their indices in order. */
static inline size_t gpl_cat_table_words(int32_t num_features)
{
    return 2 * (size_t)(num_features > 0 ? num_features : 0) + 1;
}

/* The table of the matrix's categorical flags (m->categorical may be NULL);
 * out has gpl_cat_table_words(m->num_features) words. */
static inline void gpl_cat_table_make(const gpl_binned_matrix *m, uint32_t *out)
{
    const int32_t F = m->num_features;
    uint32_t n = 0;
    memset(out, 0, sizeof(uint32_t) * gpl_cat_table_words(F));
    for (int32_t f = 0; f < F; f++) {
        out[f] = m->categorical && m->categorical[f] ? 1u : 0u;
        if (out[f]) out[F + 1 + n++] = (uint32_t)f;
    }
    out[F] = n;
}

/* A contiguous run of features whose bins fit the histogram kernel's
 * shared-memory chunk (and whose columns fit one binding), or a run of the
 * bins of one feature too wide for it (bin_first past the feature's first
 * bin for every run but its first). */
typedef struct gpl_hist_chunk {
    uint32_t feature_first, feature_count;
    uint32_t bin_first, bin_count;
} gpl_hist_chunk;

/* Cuts the features into chunks of at most max_bins bins and max_columns
 * columns; a feature of more than max_bins bins takes chunks of its own,
 * max_bins of its bins each. With uniform, a chunk's bins are counted as
 * its features times its largest feature's bins (histogram_rows.comp
 * gives every feature that many). Writes the chunks into chunks (NULL:
 * counts them only) and returns how many. */
static inline int32_t gpl_hist_chunks_plan(const uint32_t *feature_offset, int32_t num_features,
                                           uint32_t max_bins, uint64_t max_columns, int uniform,
                                           gpl_hist_chunk *chunks)
{
    int32_t n = 0;
    for (int32_t f = 0; f < num_features;) {
        const uint32_t first = feature_offset[f], bins = feature_offset[f + 1] - first;
        if (bins > max_bins) {
            for (uint32_t lo = 0; lo < bins; lo += max_bins, n++)
                if (chunks)
                    chunks[n] = (gpl_hist_chunk){(uint32_t)f, 1, first + lo,
                                                 bins - lo < max_bins ? bins - lo : max_bins};
            f++;
            continue;
        }
        gpl_hist_chunk ch = {(uint32_t)f, 0, first, 0};
        uint32_t widest = 0;
        while (f < num_features) {
            const uint32_t nb = feature_offset[f + 1] - feature_offset[f];
            const uint32_t w = nb > widest ? nb : widest;
            const uint64_t need = uniform ? (uint64_t)(ch.feature_count + 1) * w
                                          : (uint64_t)ch.bin_count + nb;
            if (nb > max_bins || need > max_bins || ch.feature_count + 1 > max_columns) break;
            ch.bin_count += nb;
            ch.feature_count++;
            widest = w;
            f++;
        }
        if (chunks) chunks[n] = ch;
        n++;
    }
    return n;
}

/* The kernels read the bins feature-major, one column of column_bytes a
 * feature (a split binds one column, a histogram chunk a run of them):
 * out (num_features x column_bytes, zeroed by the caller) from the
 * row-major matrix. */
static inline void gpl_bins_to_columns(const gpl_binned_matrix *m, size_t column_bytes,
                                       uint8_t *out)
{
    const size_t N = (size_t)m->num_rows, F = (size_t)m->num_features;
    for (size_t r = 0; r < N; r++) {
        const uint8_t *row = m->bins + r * F;
        for (size_t f = 0; f < F; f++) out[f * column_bytes + r] = row[f];
    }
}

#endif
