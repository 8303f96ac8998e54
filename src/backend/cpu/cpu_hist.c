/* cpu_hist.c -- node histograms as exact int64 sums, their
 * subtraction, and the pool of histogram buffers. */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "common/checks.h"
#include "cpu_context.h"
#include "error.h"
#include "quantize.h"

/* A new slot's buffer (the pool's grow callback). */
gpulayer_status cpu_hist_grow(void *user, int32_t node, int32_t first, int32_t room,
                              int32_t *made)
{
    cpu_context *c = user;
    (void)room;
    gpl_grad_pair *h = malloc(sizeof(gpl_grad_pair) * c->shape.hist_len);
    if (!h)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "cpu backend: out of memory for the histogram of "
                         "node %d", node);
    cpu_track_alloc(c, sizeof(gpl_grad_pair) * c->shape.hist_len);
    c->slot_hist[first] = h;
    *made = 1;
    return GPULAYER_OK;
}

gpulayer_status cpu_hist_acquire(cpu_context *c, int32_t node,
                                 gpl_grad_pair **out)
{
    int32_t slot;
    GPL_CHECK(gpl_hist_slots_acquire(&c->slots, NULL, node, &slot));
    *out = c->slot_hist[slot];
    return GPULAYER_OK;
}

/* How far ahead the row loop prefetches a row's bins and gradient pair: in
 * deep nodes the rows are scattered over the whole matrix. */
#define PREFETCH_DISTANCE 16

/* The row loop for a feature count known at compile time (F <= 8, inlined
 * with a constant): the feature loop unrolls, each feature's histogram base
 * stays in a register, and a row costs two instructions a feature (load the
 * bin, add to memory) instead of six. The rows come from row_records (bins
 * and pair in one 16-byte record). identity: rows[i] == i (the root), so
 * the row list is not read and rows are not prefetched. */
static inline __attribute__((always_inline)) void
accumulate_fixed(const cpu_context *c, const uint32_t *rows, int64_t first, int64_t last,
                 int64_t *acc, const int32_t F, const int identity)
{
    int64_t *base[CPU_RECORD_FEATURES];
    for (int32_t f = 0; f < F; f++) base[f] = acc + (size_t)f * CPU_ACC_STRIDE;
    const int64_t *rec = c->buf.row_records;
    for (int64_t i = first; i < last; i++) {
        uint32_t r;
        if (identity) {
            r = (uint32_t)i;
        } else {
            if (i + PREFETCH_DISTANCE < last)
                __builtin_prefetch(rec + 2 * (int64_t)rows[i + PREFETCH_DISTANCE]);
            r = rows[i];
        }
        const uint8_t *b = (const uint8_t *)(rec + 2 * (int64_t)r);
        const int64_t gh = rec[2 * (int64_t)r + 1];
        for (int32_t f = 0; f < F; f++) base[f][b[f]] += gh;
    }
}

/* Up to this many features a node's rows are added in one pass: the
 * accumulators (2 KB a feature) mostly stay in L1 (see accumulate_blocked). */
#define ONE_PASS_FEATURES 32

/* Eight (four) bins of a row in one load, bin k in bits 8k..8k+7. */
static inline uint64_t load_bins8(const uint8_t *b)
{
    uint64_t w;
    memcpy(&w, b, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap64(w);
#endif
    return w;
}

static inline uint32_t load_bins4(const uint8_t *b)
{
    uint32_t w;
    memcpy(&w, b, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    w = __builtin_bswap32(w);
#endif
    return w;
}

/* Adds one row's packed pair gh at its F bins b. Eight features a step
 * from one 8-byte load of their bins, each added at a constant offset from
 * one pointer: one load and one add to memory a feature, where a plain
 * feature loop loads the bin and feature_offset[f] too (the loads, not
 * the adds, were the limit). */
static inline __attribute__((always_inline)) void add_row(int64_t *h, const uint8_t *b,
                                                          int64_t gh, int32_t F)
{
    enum { S = CPU_ACC_STRIDE };
    int32_t f = 0;
    for (; f + 8 <= F; f += 8, b += 8, h += 8 * S) {
        const uint64_t w = load_bins8(b);
        for (int k = 0; k < 8; k++) h[k * S + ((w >> (8 * k)) & 0xff)] += gh;
    }
    if (f + 4 <= F) {
        const uint32_t w = load_bins4(b);
        for (int k = 0; k < 4; k++) h[k * S + ((w >> (8 * k)) & 0xff)] += gh;
        f += 4, b += 4, h += 4 * S;
    }
    for (; f < F; f++, b++, h += S) h[b[0]] += gh;
}

/* Rows from a node's row list, any feature count (row_records absent:
 * more than 8 features, so pair_stride is 1), a row at a time over all its
 * features: for up to ONE_PASS features (see accumulate_blocked). */
static void accumulate_generic(const cpu_context *c, const uint32_t *rows, int64_t first,
                               int64_t last, int64_t *acc)
{
    const int32_t F = c->shape.num_features;
    for (int64_t i = first; i < last; i++) {
        if (i + PREFETCH_DISTANCE < last) {
            const uint32_t ahead = rows[i + PREFETCH_DISTANCE];
            __builtin_prefetch(c->buf.bins + (int64_t)ahead * F);
            __builtin_prefetch(&c->buf.packed_grad[ahead]);
        }
        const uint32_t r = rows[i];
        add_row(acc, c->buf.bins + (int64_t)r * F, c->buf.packed_grad[r], F);
    }
}

/* The same with more features, as accumulate_in_order does for the root:
 * blocks of rows, each in passes over an equal share of the features, at
 * most MAX_GROUP, so that a pass adds into accumulators that stay in L1
 * (a pass over all features spreads its adds over all of them). A block's
 * bin rows and pairs are gathered first and read again from the cache;
 * the first pass prefetches the next block's. */
static void accumulate_blocked(const cpu_context *c, const uint32_t *rows, int64_t first,
                               int64_t last, int64_t *acc)
{
    enum { BLOCK = 256, MAX_GROUP = 12 };
    const int32_t F = c->shape.num_features;
    const int32_t passes = (F + MAX_GROUP - 1) / MAX_GROUP;
    const int32_t group = (F + passes - 1) / passes;
    const uint8_t *bins = c->buf.bins;
    const int64_t *pairs = c->buf.packed_grad;
    const uint8_t *row_bins[BLOCK];
    int64_t gh[BLOCK];
    for (int64_t i = first; i < first + PREFETCH_DISTANCE && i < last; i++) {
        __builtin_prefetch(bins + (int64_t)rows[i] * F);
        __builtin_prefetch(&pairs[rows[i]]);
    }
    for (int64_t s = first; s < last; s += BLOCK) {
        const int64_t n = last - s < BLOCK ? last - s : BLOCK;
        for (int64_t i = 0; i < n; i++) {
            const uint32_t r = rows[s + i];
            row_bins[i] = bins + (int64_t)r * F;
            gh[i] = pairs[r];
        }
        const int64_t next = s + BLOCK, ahead = last - next < BLOCK ? last - next : BLOCK;
        for (int32_t f0 = 0; f0 < F; f0 += group) {
            const int32_t g = F - f0 < group ? F - f0 : group;
            int64_t *h = acc + (size_t)f0 * CPU_ACC_STRIDE;
            for (int64_t i = 0; i < n; i++) {
                if (f0 == 0 && i < ahead) {
                    const uint8_t *b = bins + (int64_t)rows[next + i] * F;
                    __builtin_prefetch(b);
                    __builtin_prefetch(b + F - 1);
                    __builtin_prefetch(&pairs[rows[next + i]]);
                }
                add_row(h, row_bins[i] + f0, gh[i], g);
            }
        }
    }
}

/* The root (rows[i] == i) with more than 8 features: blocks of rows, each
 * in passes over up to 12 features, so that a pass adds into 24 KB of
 * accumulators, which stay in L1, instead of all of them; the block's bins
 * are read again from the cache. */
static void accumulate_in_order(const cpu_context *c, int64_t first, int64_t last,
                                int64_t *acc)
{
    enum { BLOCK = 1024, GROUP = 12 };
    const int32_t F = c->shape.num_features;
    for (int64_t s = first; s < last; s += BLOCK) {
        const int64_t e = s + BLOCK < last ? s + BLOCK : last;
        for (int32_t f0 = 0; f0 < F; f0 += GROUP) {
            const int32_t n = F - f0 < GROUP ? F - f0 : GROUP;
            int64_t *h = acc + (size_t)f0 * CPU_ACC_STRIDE;
            for (int64_t r = s; r < e; r++)
                add_row(h, c->buf.bins + r * F + f0, c->buf.packed_grad[r], n);
        }
    }
}

/* Rows with 16-bit codes (a feature has more than 256 bins), into
 * accumulators in the histogram's layout: a row at a time over all its
 * features. */
static void accumulate_wide(const cpu_context *c, const uint32_t *rows, int64_t first,
                            int64_t last, int64_t *acc, int identity)
{
    const int32_t F = c->shape.num_features;
    const uint32_t *off = c->feature_offset;
    const int64_t row_bytes = 2 * (int64_t)F;
    for (int64_t i = first; i < last; i++) {
        if (!identity && i + PREFETCH_DISTANCE < last) {
            const uint32_t ahead = rows[i + PREFETCH_DISTANCE];
            __builtin_prefetch(c->buf.bins + (int64_t)ahead * row_bytes);
            __builtin_prefetch(&c->buf.packed_grad[ahead]);
        }
        const uint32_t r = identity ? (uint32_t)i : rows[i];
        const uint8_t *b = c->buf.bins + (int64_t)r * row_bytes;
        const int64_t gh = c->buf.packed_grad[r];
        for (int32_t f = 0; f < F; f++) {
            uint16_t code;
            memcpy(&code, b + 2 * f, sizeof code);
            acc[off[f] + code] += gh;
        }
    }
}

#define FIXED_CASES(identity)                                                      \
    case 1: accumulate_fixed(c, rows, first, last, acc, 1, identity); return;      \
    case 2: accumulate_fixed(c, rows, first, last, acc, 2, identity); return;      \
    case 3: accumulate_fixed(c, rows, first, last, acc, 3, identity); return;      \
    case 4: accumulate_fixed(c, rows, first, last, acc, 4, identity); return;      \
    case 5: accumulate_fixed(c, rows, first, last, acc, 5, identity); return;      \
    case 6: accumulate_fixed(c, rows, first, last, acc, 6, identity); return;      \
    case 7: accumulate_fixed(c, rows, first, last, acc, 7, identity); return;      \
    case 8: accumulate_fixed(c, rows, first, last, acc, 8, identity); return

/* Adds the packed pairs of rows [first, last) of a node's row list into
 * the packed histogram acc: one 64-bit add a bin (quantize.h says why the
 * packed sums are exact). */
static void accumulate_rows(const cpu_context *c, const uint32_t *rows, int64_t first,
                            int64_t last, int64_t *acc, int identity)
{
    if (c->buf.code_bytes == 2) {
        accumulate_wide(c, rows, first, last, acc, identity);
        return;
    }
    if (identity) {
        if (c->buf.row_records) switch (c->shape.num_features) {
            FIXED_CASES(1);
        default: break;
        }
        accumulate_in_order(c, first, last, acc);
    } else {
        if (c->buf.row_records) switch (c->shape.num_features) {
            FIXED_CASES(0);
        default: break;
        }
        if (c->shape.num_features > ONE_PASS_FEATURES) accumulate_blocked(c, rows, first, last, acc);
        else accumulate_generic(c, rows, first, last, acc);
    }
}

/* Rows are kept in ascending order within a node, so a node holding every
 * row (the root) holds row i at position i. */
static int rows_are_identity(const cpu_context *c, int32_t node)
{
    return c->nodes.count[node] == c->shape.num_rows;
}

/* The accumulators of features [f0, f1), summed over the first `used`
 * threads' (a single one: acc alone), unpacked into the node histogram
 * (feature_offset layout). */
static void unpack_features(const cpu_context *c, const int64_t *acc, int used,
                            int32_t f0, int32_t f1, gpl_grad_pair *hist)
{
    for (int32_t f = f0; f < f1; f++) {
        const uint32_t begin = c->feature_offset[f], nbins = c->feature_offset[f + 1] - begin;
        const int64_t *a =
            acc + (c->buf.code_bytes == 2 ? (size_t)begin : (size_t)f * CPU_ACC_STRIDE);
        gpl_grad_pair *out = hist + begin;
        if (used == 1) { /* the common case: a plain loop */
            for (uint32_t b = 0; b < nbins; b++) {
                out[b].grad = gpl_packed_grad(a[b]);
                out[b].hess = gpl_packed_hess(a[b]);
            }
            continue;
        }
        for (uint32_t b = 0; b < nbins; b++) {
            int64_t sum = a[b];
            for (int k = 1; k < used; k++) sum += a[(size_t)k * c->buf.acc_len + b];
            out[b].grad = gpl_packed_grad(sum);
            out[b].hess = gpl_packed_hess(sum);
        }
    }
}

/* One node with its rows split among the threads: private histograms,
 * then a reduction by bin ranges. Integer sums, so the result does not
 * depend on the thread count. */
static void build_one_node_parallel(cpu_context *c, int32_t node,
                                    gpl_grad_pair *hist)
{
    const int nt = c->nthread;
    const uint32_t *rows = c->buf.rows + c->nodes.begin[node];
    const int64_t count = c->nodes.count[node];
#pragma omp parallel num_threads(nt)
    {
        int t = omp_get_thread_num();
        int used = omp_get_num_threads();
        int64_t *mine = c->buf.thread_hist + (size_t)t * c->buf.acc_len;
        memset(mine, 0, sizeof(int64_t) * c->buf.acc_len);
        int64_t first = count * t / used, last = count * (t + 1) / used;
        accumulate_rows(c, rows, first, last, mine, rows_are_identity(c, node));
#pragma omp barrier
        /* The reduction by feature ranges, one range a thread. */
        const int32_t F = c->shape.num_features;
        unpack_features(c, c->buf.thread_hist, used, F * t / used, F * (t + 1) / used, hist);
    }
}

gpulayer_status cpu_build_histograms(gpl_backend *be, const int32_t *nodes,
                                     int32_t num_nodes)
{
    cpu_context *c = cpu_ctx(be);
    gpl_grad_pair **hists = malloc(sizeof(gpl_grad_pair *) * (size_t)(num_nodes ? num_nodes : 1));
    if (!hists) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "cpu backend: out of memory");
    for (int32_t i = 0; i < num_nodes; i++) {
        gpulayer_status st = cpu_hist_acquire(c, nodes[i], &hists[i]);
        if (st != GPULAYER_OK) {
            free(hists);
            return st;
        }
    }
    /* Large nodes (more than a thread's fair share of the level's rows)
     * have their rows split among the threads; the rest go one node a
     * thread, which needs no reduction. Either way the sums are exact. */
    int64_t level_rows = 0;
    for (int32_t i = 0; i < num_nodes; i++) level_rows += c->nodes.count[nodes[i]];
    const int64_t large = level_rows / (2 * c->nthread) + 1;
    int32_t num_small = 0;
    for (int32_t i = 0; i < num_nodes; i++) {
        if (c->nthread > 1 && c->nodes.count[nodes[i]] >= large)
            build_one_node_parallel(c, nodes[i], hists[i]);
        else
            num_small++;
    }
    /* No parallel region for one small node or none: each region ends in
     * a barrier, and a barrier costs a scheduler slice whenever another
     * process holds one of the cores. */
#pragma omp parallel num_threads(c->nthread) if (num_small > 1)
    {
        int64_t *acc = c->buf.thread_hist + (size_t)omp_get_thread_num() * c->buf.acc_len;
#pragma omp for schedule(dynamic)
        for (int32_t i = 0; i < num_nodes; i++) {
            if (c->nthread > 1 && c->nodes.count[nodes[i]] >= large) continue;
            memset(acc, 0, sizeof(int64_t) * c->buf.acc_len);
            accumulate_rows(c, c->buf.rows + c->nodes.begin[nodes[i]], 0,
                            c->nodes.count[nodes[i]], acc, rows_are_identity(c, nodes[i]));
            unpack_features(c, acc, 1, 0, c->shape.num_features, hists[i]);
        }
    }
    free(hists);
    return GPULAYER_OK;
}

gpulayer_status cpu_subtract_histograms(gpl_backend *be,
                                        const gpl_hist_subtract *subs,
                                        int32_t count)
{
    cpu_context *c = cpu_ctx(be);
    for (int32_t i = 0; i < count; i++) {
        GPL_CHECK(gpl_check_subtract("cpu", &c->slots, &subs[i]));
        gpl_grad_pair *target;
        GPL_CHECK(cpu_hist_acquire(c, subs[i].target, &target));
    }
#pragma omp parallel for num_threads(c->nthread) schedule(static) if (count > 1)
    for (int32_t i = 0; i < count; i++) {
        const gpl_grad_pair *p = cpu_node_hist(c, subs[i].parent);
        const gpl_grad_pair *b = cpu_node_hist(c, subs[i].built);
        gpl_grad_pair *t = cpu_node_hist(c, subs[i].target);
        for (uint32_t k = 0; k < c->shape.hist_len; k++) {
            t[k].grad = p[k].grad - b[k].grad;
            t[k].hess = p[k].hess - b[k].hess;
        }
    }
    return GPULAYER_OK;
}

gpulayer_status cpu_release_histograms(gpl_backend *be, const int32_t *nodes,
                                       int32_t num_nodes)
{
    cpu_context *c = cpu_ctx(be);
    gpl_hist_slots_release_nodes(&c->slots, nodes, num_nodes);
    return GPULAYER_OK;
}

gpulayer_status cpu_read_histogram(gpl_backend *be, int32_t node,
                                   gpl_grad_pair *out)
{
    cpu_context *c = cpu_ctx(be);
    GPL_CHECK(gpl_check_histogram("cpu", NULL, GPULAYER_ERR_INVALID_ARGUMENT, &c->slots, node));
    memcpy(out, cpu_node_hist(c, node), sizeof(gpl_grad_pair) * c->shape.hist_len);
    return GPULAYER_OK;
}
