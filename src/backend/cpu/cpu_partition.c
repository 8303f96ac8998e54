/* cpu_partition.c -- the start of a tree (every row in the root) and the
 * stable partition of each split node's rows into its two children (rows
 * keep their ascending order within a node). */
#include <omp.h>
#include <string.h>

#include "common/checks.h"
#include "cpu_context.h"
#include "error.h"

#define PREFETCH_DISTANCE 32

/* split_rows with 16-bit codes: the direction of each row's bin is
 * computed, as a table would span up to 65,536 bins. */
static int64_t split_rows_wide(const cpu_context *c, const gpl_split_apply *s,
                               const uint32_t *rows, int64_t count, uint32_t *left_out,
                               uint32_t *right_out)
{
    const uint8_t *column =
        c->buf.bins_by_feature + 2 * (int64_t)s->feature * c->shape.num_rows;
    int64_t nl = 0, nr = 0;
    for (int64_t i = 0; i < count; i++) {
        if (i + PREFETCH_DISTANCE < count)
            __builtin_prefetch(column + 2 * (int64_t)rows[i + PREFETCH_DISTANCE]);
        const uint32_t r = rows[i];
        uint16_t code;
        memcpy(&code, column + 2 * (int64_t)r, sizeof code);
        const int64_t left = gpl_split_goes_left(s, code);
        left_out[nl] = r;
        right_out[nr] = r;
        nl += left;
        nr += 1 - left;
    }
    return nl;
}

/* Splits rows[0..count) by the split s: left rows to left_out, right rows
 * to right_out, in order. Returns the number of left rows. The direction
 * of every bin is looked up in a table made once a node (a byte load
 * instead of a test for missing and a comparison a row), and the loop
 * runs without a bounds test for the prefetch until its last rows. */
static int64_t split_rows(const cpu_context *c, const gpl_split_apply *s,
                          const uint32_t *rows, int64_t count, uint32_t *left_out,
                          uint32_t *right_out)
{
    if (c->buf.code_bytes == 2) return split_rows_wide(c, s, rows, count, left_out, right_out);
    const uint8_t *column = c->buf.bins_by_feature + (int64_t)s->feature * c->shape.num_rows;
    uint8_t go_left[256];
    for (int b = 0; b < 256; b++) go_left[b] = (uint8_t)gpl_split_goes_left(s, (uint32_t)b);
    int64_t nl = 0, nr = 0, i = 0;
    for (; i + PREFETCH_DISTANCE < count; i++) {
        __builtin_prefetch(column + rows[i + PREFETCH_DISTANCE]);
        const uint32_t r = rows[i];
        const int64_t left = go_left[column[r]];
        /* Branch-free: the direction is data-dependent and unpredictable. */
        left_out[nl] = r;
        right_out[nr] = r;
        nl += left;
        nr += 1 - left;
    }
    for (; i < count; i++) {
        const uint32_t r = rows[i];
        const int64_t left = go_left[column[r]];
        left_out[nl] = r;
        right_out[nr] = r;
        nl += left;
        nr += 1 - left;
    }
    return nl;
}

/* One node on the calling thread: left rows in place, right rows through
 * the scratch buffer. */
static int64_t partition_node(cpu_context *c, const gpl_split_apply *s)
{
    const int64_t begin = c->nodes.begin[s->node], count = c->nodes.count[s->node];
    uint32_t *rows = c->buf.rows + begin;
    uint32_t *right = c->buf.rows_scratch + begin;
    int64_t nl = split_rows(c, s, rows, count, rows, right);
    memcpy(rows + nl, right, sizeof(uint32_t) * (size_t)(count - nl));
    return nl;
}

/* One large node with all threads: each splits a chunk into the two
 * halves of the scratch buffer, then copies its pieces to their final,
 * order-preserving places. */
static int64_t partition_node_parallel(cpu_context *c, const gpl_split_apply *s)
{
    const int64_t begin = c->nodes.begin[s->node], count = c->nodes.count[s->node];
    const int64_t N = c->shape.num_rows;
    int64_t left_counts[256], total_left = 0;
    const int nt = c->nthread < 256 ? c->nthread : 256;
#pragma omp parallel num_threads(nt)
    {
        const int t = omp_get_thread_num(), used = omp_get_num_threads();
        const int64_t first = count * t / used, last = count * (t + 1) / used;
        uint32_t *left = c->buf.rows_scratch + begin + first;
        uint32_t *right = c->buf.rows_scratch + N + begin + first;
        int64_t nl = split_rows(c, s, c->buf.rows + begin + first, last - first, left, right);
        left_counts[t] = nl;
#pragma omp barrier
        int64_t left_before = 0, right_before = 0, all_left = 0;
        for (int k = 0; k < used; k++) {
            int64_t kf = count * k / used, kl = count * (k + 1) / used;
            if (k < t) {
                left_before += left_counts[k];
                right_before += (kl - kf) - left_counts[k];
            }
            all_left += left_counts[k];
        }
        memcpy(c->buf.rows + begin + left_before, left, sizeof(uint32_t) * (size_t)nl);
        memcpy(c->buf.rows + begin + all_left + right_before, right,
               sizeof(uint32_t) * (size_t)(last - first - nl));
        if (t == 0) total_left = all_left;
    }
    return total_left;
}

static void record_children(cpu_context *c, const gpl_split_apply *s, int64_t nl,
                            int64_t *child_rows)
{
    gpl_node_table_apply_children(&c->nodes, s, nl, 0, child_rows);
}

gpulayer_status cpu_partition_rows(gpl_backend *be,
                                   const gpl_split_apply *splits,
                                   int32_t count, int64_t *child_rows)
{
    cpu_context *c = cpu_ctx(be);
    int64_t level_rows = 0;
    for (int32_t i = 0; i < count; i++) {
        const gpl_split_apply *s = &splits[i];
        GPL_CHECK(gpl_check_split("cpu", &c->nodes, c->shape.num_features, s));
        level_rows += c->nodes.count[s->node];
    }
    /* Large nodes use every thread; the others go one node a thread. */
    const int64_t large = level_rows / (2 * c->nthread) + 1;
    int32_t num_small = 0;
    for (int32_t i = 0; i < count; i++) {
        if (c->nthread > 1 && c->nodes.count[splits[i].node] >= large)
            record_children(c, &splits[i], partition_node_parallel(c, &splits[i]),
                            child_rows + 2 * i);
        else
            num_small++;
    }
    /* No parallel region (and its barrier) for one small node or none. */
#pragma omp parallel for num_threads(c->nthread) schedule(dynamic) if (num_small > 1)
    for (int32_t i = 0; i < count; i++) {
        if (c->nthread > 1 && c->nodes.count[splits[i].node] >= large) continue;
        record_children(c, &splits[i], partition_node(c, &splits[i]), child_rows + 2 * i);
    }
    return GPULAYER_OK;
}

gpulayer_status cpu_begin_tree(gpl_backend *be)
{
    cpu_context *c = cpu_ctx(be);
    gpl_hist_slots_release_all(&c->slots);
    gpl_node_table_reset(&c->nodes, c->shape.num_rows);
    for (int64_t r = 0; r < c->shape.num_rows; r++) c->buf.rows[r] = (uint32_t)r;
    return GPULAYER_OK;
}
