/* metal_partition.c -- begin_tree (every row in the root, rows_init) and
 * partition_rows: every split node's rows into the other row list (a
 * node's rows are in `rows` or `scratch`, nodes.buf) with one
 * partition_place dispatch for all the splits of the level, as the Vulkan
 * host issues it (the split table of gpl_partition_plan_level, the
 * workgroups of gpl_plan_partition_groups), in one command buffer; only
 * the child row counts come back. */
#include <stdlib.h>
#include <string.h>

#include "common/checks.h"
#include "error.h"
#include "gpu_kernels/gpu_kernel_abi.h"
#include "metal_context.h"

static gpulayer_status record_level(mtl_context *c, const gpl_split_apply *splits,
                                    int32_t count)
{
    /* The level buffer is shared memory: the child counts are zeroed (the
     * kernel adds each threadgroup's rows to them) and the split table
     * goes straight in after them (no command buffer uses it now). */
    memset(c->buf.child_counts.contents, 0, (size_t)count * GPL_CHILD_COUNTS_BYTES);
    gpl_partition_split *table =
        (gpl_partition_split *)((uint8_t *)c->buf.child_counts.contents +
                                (size_t)count * GPL_CHILD_COUNTS_BYTES);
    const gpl_partition_push push = gpl_partition_plan_level(
        table, splits, count, c->nodes.begin, c->nodes.count, GPL_MTL_WG * GPL_PART_ITEMS,
        c->column_bytes, gpl_code_bits(1));
    for (int32_t i = 0; i < count; i++) table[i].from = c->nodes.buf[splits[i].node];
    /* Tiles (not read) and the level buffer, then the bin columns, the
     * row list and the scratch list in windows (window.glsl). */
    gpl_mtl_bind b[GPL_PART_SCATTER_BINDINGS] = {mtl_whole(&c->buf.tiles),
                                                 mtl_whole(&c->buf.child_counts)};
    mtl_windows(&c->buf.bins, c->win.list_shift, 4, b + 2);
    mtl_windows(&c->buf.rows, c->win.list_shift, 4, b + 2 + GPL_KERNEL_WINDOWS);
    mtl_windows(&c->buf.scratch, c->win.list_shift, 4, b + 2 + 2 * GPL_KERNEL_WINDOWS);
    const gpl_plan_limits l = mtl_plan_limits(c);
    return gpl_mtl_dispatch(c->rt, MTL_K_PARTITION_PLACE, b, &push,
                            gpl_plan_partition_groups(&l, push.num_tiles));
}

gpulayer_status mtl_partition_rows(gpl_backend *be, const gpl_split_apply *splits,
                                   int32_t count, int64_t *child_rows)
{
    mtl_context *c = mtl_ctx(be);
    if (count <= 0) return GPULAYER_OK;
    GPL_CHECK(gpl_mtl_context_status(c->rt));
    uint64_t tiles = 0;
    for (int32_t i = 0; i < count; i++) {
        GPL_CHECK(gpl_check_split("metal", &c->nodes, c->shape.num_features, &splits[i]));
        tiles += gpl_partition_tiles((uint64_t)c->nodes.count[splits[i].node],
                                     GPL_MTL_WG * GPL_PART_ITEMS);
    }
    GPL_CHECK(gpl_mtl_buf_reserve(c->rt, &c->buf.tiles, (size_t)tiles * 4, c->buf.workspace,
                                  "partition tiles"));
    /* The level buffer: child counts, then the split table. */
    GPL_CHECK(gpl_mtl_buf_reserve(c->rt, &c->buf.child_counts,
                                  (size_t)count * (GPL_CHILD_COUNTS_BYTES +
                                                   sizeof(gpl_partition_split)),
                                  GPL_MTL_SHARED, "child row counts and split table"));
    gpulayer_status st = gpl_mtl_begin(c->rt, "partition_rows", c->nodes.depth[splits[0].node]);
    if (st == GPULAYER_OK) st = record_level(c, splits, count);
    if (st == GPULAYER_OK) st = gpl_mtl_commit(c->rt, 1);
    else gpl_mtl_abandon(c->rt);
    GPL_CHECK(st);
    const uint32_t *counts = c->buf.child_counts.contents;
    for (int32_t i = 0; i < count; i++)
        gpl_node_table_apply_children(&c->nodes, &splits[i], counts[2 * i],
                                      1 - c->nodes.buf[splits[i].node], &child_rows[2 * i]);
    return GPULAYER_OK;
}

gpulayer_status mtl_begin_tree(gpl_backend *be)
{
    mtl_context *c = mtl_ctx(be);
    mtl_hist_release_all(c);
    gpl_node_table_reset(&c->nodes, c->shape.num_rows);
    const uint64_t N = (uint64_t)c->shape.num_rows, window = (uint64_t)1 << c->win.list_shift;
    GPL_CHECK(gpl_mtl_begin(c->rt, "begin_tree", 0));
    for (uint64_t first = 0; first < N; first += window) {
        const uint64_t count = N - first < window ? N - first : window;
        gpl_rows_init_push p = {(uint32_t)count, (uint32_t)first};
        gpl_mtl_bind b[1] = {{&c->buf.rows, (size_t)first * 4}};
        GPL_CHECK(gpl_mtl_dispatch(c->rt, MTL_K_ROWS_INIT, b, &p,
                                   gpl_mtl_groups_for(c->rt, count)));
    }
    return gpl_mtl_commit(c->rt, 0);
}
