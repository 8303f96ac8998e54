/* The level plan the Vulkan and Metal hosts share (common/level_plan.h):
 * waves and partials, the block, node, subtraction and search tables,
 * workgroup counts, page grouping and bound ranges. */
#include "test_util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/level_plan.h"
#include "common/node_table.h"

static const gpl_plan_limits base_limits = {
    65535, /* max_groups */
    64,    /* wg */
    8,     /* partial_groups */
    100,   /* table_blocks */
    100,   /* rows_per_partial */
    4,     /* node_partials */
    3,     /* num_chunks */
    3,     /* chunks_per_dispatch */
};

/* A node table whose nodes 0..n-1 hold rows[i] rows (0: not live) in
 * row list list[i] (NULL: 0), one after the other. */
static void make_table(gpl_node_table *t, int32_t n, const int64_t *rows, const uint8_t *list)
{
    assert_int_equal(gpl_node_table_init(t, n), 0);
    int64_t begin = 0;
    for (int32_t i = 0; i < n; i++) {
        t->begin[i] = begin;
        t->count[i] = rows[i];
        t->state[i] = rows[i] ? GPL_NODE_LIVE : GPL_NODE_SPLIT;
        t->buf[i] = list ? list[i] : 0;
        begin += rows[i];
    }
}

static void test_chunks_and_cap(void **state)
{
    (void)state;
    assert_int_equal(gpl_plan_chunks_per_dispatch(5, 65535), 5);
    assert_int_equal(gpl_plan_chunks_per_dispatch(5, 3), 3);
    gpl_plan_limits l = base_limits;
    assert_int_equal(gpl_plan_wave_cap(&l), 8); /* the partial buffer */
    l.table_blocks = 6;
    assert_int_equal(gpl_plan_wave_cap(&l), 6); /* the block table */
    l.max_groups = 10;
    assert_int_equal(gpl_plan_wave_cap(&l), 3); /* 3 chunks a dispatch: 3 x 3 <= 10 */
    l.chunks_per_dispatch = 11;
    assert_int_equal(gpl_plan_wave_cap(&l), 1); /* never below one block */
}

/* Partials a node: rows / rows_per_partial rounded up (sizes that are not
 * a multiple), at least 1 (a node without rows), at most node_partials;
 * a wave ends where the next node's partials no longer fit. */
static void test_waves(void **state)
{
    (void)state;
    const int64_t rows[5] = {250, 0, 1000, 50, 400};
    gpl_node_table t;
    make_table(&t, 5, rows, NULL);
    const int32_t nodes[5] = {0, 1, 2, 3, 4}, slots[5] = {7, 6, 5, 4, 3};
    gpl_plan_wave_node w[5];
    int32_t end[5];
    const int32_t waves = gpl_plan_waves(&base_limits, &t, nodes, slots, 5, w, end);
    assert_int_equal(waves, 2);
    assert_int_equal(end[0], 3);
    assert_int_equal(end[1], 5);
    const uint32_t first[5] = {0, 3, 4, 0, 1}, groups[5] = {3, 1, 4, 1, 4};
    for (int32_t i = 0; i < 5; i++) {
        assert_int_equal(w[i].node, nodes[i]);
        assert_int_equal(w[i].index, i);
        assert_int_equal(w[i].slot, slots[i]);
        assert_int_equal(w[i].partial_first, first[i]);
        assert_int_equal(w[i].groups, groups[i]);
    }
    /* No nodes: one empty wave. */
    assert_int_equal(gpl_plan_waves(&base_limits, &t, nodes, slots, 0, w, end), 1);
    assert_int_equal(end[0], 0);
    gpl_node_table_free(&t);
}

/* The block table holds list 0's nodes, then list 1's, a block an entry;
 * a step a list and run of chunks, each of blocks x chunks workgroups. */
static void test_partials(void **state)
{
    (void)state;
    const int64_t rows[3] = {250, 90, 120};
    const uint8_t list[3] = {1, 0, 1};
    gpl_node_table t;
    make_table(&t, 3, rows, list);
    gpl_plan_limits l = base_limits;
    l.num_chunks = 5;
    l.chunks_per_dispatch = 2;
    const int32_t nodes[3] = {0, 1, 2}, slots[3] = {0, 1, 2};
    gpl_plan_wave_node w[3];
    int32_t end[3];
    assert_int_equal(gpl_plan_waves(&l, &t, nodes, slots, 3, w, end), 1);
    gpl_hist_block blocks[16];
    gpl_plan_step steps[10];
    uint32_t num_blocks = 0;
    const int32_t n = gpl_plan_partials(&l, &t, w, 3, blocks, &num_blocks, steps);
    assert_int_equal(num_blocks, 6); /* 3 + 1 + 2 */
    /* List 0: node 1 (partial 3); list 1: node 0 (partials 0..2), node 2 (4, 5). */
    const gpl_hist_block want[6] = {
        {250, 90, 0 | 1 << 16, 3},  {0, 250, 0 | 3 << 16, 0},   {0, 250, 1 | 3 << 16, 1},
        {0, 250, 2 | 3 << 16, 2},   {340, 120, 0 | 2 << 16, 4}, {340, 120, 1 | 2 << 16, 5}};
    for (int i = 0; i < 6; i++) {
        assert_int_equal(blocks[i].row_begin, want[i].row_begin);
        assert_int_equal(blocks[i].row_count, want[i].row_count);
        assert_int_equal(blocks[i].block_and_blocks, want[i].block_and_blocks);
        assert_int_equal(blocks[i].partial, want[i].partial);
    }
    assert_int_equal(n, 6); /* 2 lists x chunks {0,1}, {2,3}, {4} */
    for (int i = 0; i < n; i++) {
        const int list = i / 3;
        assert_int_equal(steps[i].kernel, GPL_PLAN_HISTOGRAM_ROWS);
        assert_int_equal(steps[i].list, list);
        assert_int_equal(steps[i].first, list ? 1 : 0);
        assert_int_equal(steps[i].entries, list ? 5 : 1);
        assert_int_equal(steps[i].chunk_first, 2 * (i % 3));
        assert_int_equal(steps[i].chunks, i % 3 == 2 ? 1 : 2);
        assert_int_equal(steps[i].groups, steps[i].entries * steps[i].chunks);
    }
    /* Their push constants: the chunks' entries of the chunk table after
     * 7 features' offsets, the blocks after the tables' first word (8:
     * 8 offsets and 5 chunks, 28 words, rounded up to an entry). */
    assert_int_equal(gpl_plan_table_word(7, 5), 28);
    assert_int_equal(gpl_plan_table_word(8, 5), 32);
    assert_int_equal(gpl_plan_table_word(0, 0), 4);
    for (int i = 0; i < n; i++) {
        const gpl_histogram_rows_push p = gpl_plan_rows_push(&steps[i], 7, 2, 300, 28, 16);
        assert_int_equal(p.num_chunks, steps[i].chunks);
        assert_int_equal(p.chunk_table, 8 + 4 * steps[i].chunk_first);
        assert_int_equal(p.row_words, 2);
        assert_int_equal(p.hist_len, 300);
        assert_int_equal(p.block_table, 28 + 4 * (i / 3 ? 1 : 0));
        assert_int_equal(p.code_bits, 16);
    }
    /* A wave of list 0 only: no step for list 1. */
    assert_int_equal(gpl_plan_partials(&l, &t, w + 1, 1, blocks, &num_blocks, steps), 3);
    assert_int_equal(num_blocks, 1);
    gpl_node_table_free(&t);
}

static const gpl_plan_pool pool4 = {4, 4096, 3200, 1u << 27};

/* The wave by page (in level order within one), the node table in that
 * order, a step a page binding the page's slots. */
static void test_reductions_by_page(void **state)
{
    (void)state;
    gpl_plan_wave_node w[5] = {
        {10, 0, 9, -1, 0, 2}, {11, 1, 1, -1, 2, 1}, {12, 2, 5, -1, 3, 1},
        {13, 3, 2, -1, 4, 3}, {14, 4, 8, -1, 7, 1}};
    gpl_hist_node table[5];
    gpl_plan_step steps[5];
    const int32_t n = gpl_plan_reductions(&base_limits, &pool4, 200, w, 5, table, steps);
    const int32_t order[5] = {11, 13, 12, 10, 14};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(w[i].node, order[i]);
        assert_int_equal(w[i].page, w[i].slot / 4);
        assert_int_equal(table[i].partial_first, w[i].partial_first);
        assert_int_equal(table[i].groups, w[i].groups);
        assert_int_equal(table[i].hist_first, (uint32_t)(w[i].slot % 4) * 4096 / 16);
        assert_int_equal(table[i].unused, 0);
    }
    assert_int_equal(n, 3);
    const uint32_t first[3] = {0, 2, 3}, entries[3] = {2, 1, 2};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(steps[i].kernel, GPL_PLAN_HIST_REDUCE_NODES);
        assert_int_equal(steps[i].page, i);
        assert_int_equal(steps[i].offset, 0);
        assert_int_equal(steps[i].bytes, 3 * 4096 + 3200);
        assert_int_equal(steps[i].first, first[i]);
        assert_int_equal(steps[i].entries, entries[i]);
        /* 200 bins: 7 blocks of GPL_REDUCE_BLOCK a node. */
        assert_int_equal(steps[i].groups, 7 * entries[i]);
    }
}

/* Many nodes in one page whose work items pass 2^32: steps of at most
 * 2^32 - 1 items, each at most max_groups workgroups. */
static void test_reductions_split_32_bits(void **state)
{
    (void)state;
    enum { N = 40 };
    const gpl_plan_pool pool = {64, 4096, 4096, 1u << 27};
    gpl_plan_wave_node w[N];
    for (int32_t i = 0; i < N; i++) w[i] = (gpl_plan_wave_node){i, i, i, -1, (uint32_t)i, 1};
    gpl_hist_node table[N];
    gpl_plan_step steps[N];
    const uint32_t hist_len = 0xf0000000u;
    const uint32_t blocks = gpl_reduce_groups(hist_len, UINT32_MAX); /* 34 nodes a step */
    const int32_t n = gpl_plan_reductions(&base_limits, &pool, hist_len, w, N, table, steps);
    assert_int_equal(n, 2);
    assert_int_equal(steps[0].entries, 34);
    assert_int_equal(steps[0].entries, UINT32_MAX / blocks);
    assert_int_equal(steps[0].first, 0);
    assert_int_equal(steps[1].first, steps[0].entries);
    assert_int_equal(steps[0].entries + steps[1].entries, N);
    assert_int_equal(steps[0].groups, base_limits.max_groups);
    for (int32_t i = 0; i < N; i++) assert_int_equal(table[i].partial_first, (uint32_t)i);
}

/* Subtractions whose histograms share a page go in the table by page;
 * the others are left apart, in order. */
static void test_subtractions(void **state)
{
    (void)state;
    const int32_t slots[4 * 3] = {0, 1, 2, /* page 0 */ 4, 9, 5, /* apart */
                                  5, 6, 7, /* page 1 */ 1, 3, 2 /* page 0 */};
    gpl_hist_subtraction table[4];
    gpl_plan_step steps[4];
    int32_t apart[4];
    uint32_t entries = 0;
    int32_t num_apart = 0;
    const int32_t n = gpl_plan_subtractions(&base_limits, &pool4, 200, slots, 4, table,
                                            &entries, apart, &num_apart, steps);
    assert_int_equal(num_apart, 1);
    assert_int_equal(apart[0], 1);
    assert_int_equal(entries, 3);
    const uint32_t want[3][3] = {{0, 256, 512}, {256, 768, 512}, {256, 512, 768}};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(table[i].parent, want[i][0]);
        assert_int_equal(table[i].built, want[i][1]);
        assert_int_equal(table[i].target, want[i][2]);
    }
    assert_int_equal(n, 2);
    assert_int_equal(steps[0].kernel, GPL_PLAN_HIST_SUBTRACT_NODES);
    assert_int_equal(steps[0].page, 0);
    assert_int_equal(steps[0].first, 0);
    assert_int_equal(steps[0].entries, 2);
    assert_int_equal(steps[0].groups, 2 * 4); /* 200 bins: 4 workgroups of 64 a subtraction */
    assert_int_equal(steps[1].page, 1);
    assert_int_equal(steps[1].first, 2);
    assert_int_equal(steps[1].entries, 1);
    assert_int_equal(steps[1].bytes, 3 * 4096 + 3200);
    /* None sharing a page: no table, no step. */
    const int32_t split[3] = {0, 4, 8};
    assert_int_equal(gpl_plan_subtractions(&base_limits, &pool4, 200, split, 1, table, &entries,
                                           apart, &num_apart, steps),
                     0);
    assert_int_equal(entries, 0);
    assert_int_equal(num_apart, 1);
}

/* The search: nodes by slot, runs of one page at most a binding long;
 * entries name the node, its record (place in the level) and its
 * histogram's first element in the run. */
static void test_search_runs(void **state)
{
    (void)state;
    const gpl_plan_pool pool = {8, 1024, 1000, 3 * 1024 + 1000};
    const int32_t nodes[5] = {10, 11, 12, 13, 14}, slots[5] = {3, 0, 2, 12, 5};
    gpl_plan_wave_node order[5];
    uint32_t table[4 * 5];
    gpl_plan_step steps[5];
    const int32_t n = gpl_plan_search(&pool, nodes, slots, 5, order, table, steps);
    const uint32_t want[5][4] = {
        {11, 1, 0, 0}, {12, 2, 128, 0}, {10, 0, 192, 0}, {14, 4, 0, 0}, {13, 3, 0, 0}};
    for (int i = 0; i < 5; i++)
        for (int k = 0; k < 4; k++) assert_int_equal(table[4 * i + k], want[i][k]);
    assert_int_equal(n, 3);
    const int32_t page[3] = {0, 0, 1};
    const uint64_t offset[3] = {0, 5 * 1024, 4 * 1024}, bytes[3] = {3 * 1024 + 1000, 1000, 1000};
    const uint32_t first[3] = {0, 3, 4}, count[3] = {3, 1, 1};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(steps[i].kernel, GPL_PLAN_SPLIT_EVAL_LEVEL);
        assert_int_equal(steps[i].page, page[i]);
        assert_int_equal(steps[i].offset, offset[i]);
        assert_int_equal(steps[i].bytes, bytes[i]);
        assert_true(steps[i].bytes <= pool.max_range);
        assert_int_equal(steps[i].first, first[i]);
        assert_int_equal(steps[i].entries, count[i]);
        assert_int_equal(steps[i].groups, count[i]);
    }
}

/* A level of many nodes over several pages: every node planned once, in
 * the step of its page, with its histogram's element; the waves' partials
 * fill the partial buffer from 0 and stay within the cap. */
static void test_many_nodes_several_pages(void **state)
{
    (void)state;
    enum { N = 1000 };
    int64_t rows[N];
    int32_t nodes[N], slots[N];
    for (int32_t i = 0; i < N; i++) {
        rows[i] = 1 + (i * 37) % 900;
        nodes[i] = i;
        slots[i] = (i * 617) % N; /* a permutation: 617 and 1000 are coprime */
    }
    gpl_node_table t;
    make_table(&t, N, rows, NULL);
    gpl_plan_limits l = base_limits;
    l.partial_groups = 50;
    const gpl_plan_pool pool = {64, 2048, 2000, 1u << 20};
    gpl_plan_wave_node *w = malloc(sizeof *w * N);
    int32_t *end = malloc(sizeof *end * N);
    gpl_hist_node *table = malloc(sizeof *table * N);
    gpl_plan_step *steps = malloc(sizeof *steps * N);
    int *seen = calloc(N, sizeof *seen);
    assert_non_null(w);
    assert_non_null(end);
    assert_non_null(table);
    assert_non_null(steps);
    assert_non_null(seen);
    const int32_t waves = gpl_plan_waves(&l, &t, nodes, slots, N, w, end);
    assert_true(waves > 1);
    for (int32_t k = 0, first = 0; k < waves; first = end[k++]) {
        uint32_t used = 0;
        for (int32_t i = first; i < end[k]; i++) {
            assert_int_equal(w[i].partial_first, used);
            used += w[i].groups;
        }
        assert_true(used <= gpl_plan_wave_cap(&l));
    }
    /* The whole level as one wave of the reduction: pages 0..15. */
    const int32_t n = gpl_plan_reductions(&l, &pool, 500, w, N, table, steps);
    assert_int_equal(n, (N + 63) / 64);
    uint32_t covered = 0;
    for (int32_t s = 0; s < n; s++) {
        assert_int_equal(steps[s].page, s);
        assert_int_equal(steps[s].first, covered);
        for (uint32_t e = steps[s].first; e < steps[s].first + steps[s].entries; e++) {
            assert_int_equal(w[e].slot / 64, s);
            assert_int_equal(table[e].hist_first, (uint32_t)(w[e].slot % 64) * 2048 / 16);
            seen[w[e].node]++;
        }
        covered += steps[s].entries;
    }
    assert_int_equal(covered, N);
    for (int32_t i = 0; i < N; i++) assert_int_equal(seen[i], 1);
    free(w);
    free(end);
    free(table);
    free(steps);
    free(seen);
    gpl_node_table_free(&t);
}

/* The partition's table (gpl_partition_plan_level) and its workgroups:
 * tiles of nodes whose rows are not a multiple of a tile; numeric splits
 * by their bin, categorical ones by their set. */
static void test_partition_groups(void **state)
{
    (void)state;
    const int64_t begin[3] = {0, 1000, 1001}, count[3] = {1000, 1, 0};
    gpl_split_apply splits[3];
    memset(splits, 0, sizeof splits);
    for (int i = 0; i < 3; i++) {
        splits[i].node = i;
        splits[i].bin = 3;
    }
    splits[0].bin = 700; /* a numeric split past 8-bit codes */
    splits[0].default_left = 1;
    splits[2].categorical = 1;
    splits[2].left_set[1] = 0x5u;
    gpl_partition_split table[3];
    const gpl_partition_push push =
        gpl_partition_plan_level(table, splits, 3, begin, count, 256, 4096, 16);
    assert_int_equal(push.code_bits, 16);
    assert_int_equal(table[0].bin, 700);
    assert_int_equal(table[0].default_left, 1);
    assert_int_equal(table[0].left_set[0] | table[0].left_set[7], 0);
    assert_int_equal(table[1].default_left, 0);
    assert_int_equal(table[2].default_left, GPL_SPLIT_BY_SET);
    assert_int_equal(table[2].left_set[1], 0x5u);
    assert_int_equal(push.num_tiles, 5);
    assert_int_equal(table[0].num_tiles, 4);
    assert_int_equal(table[1].tile_first, 4);
    assert_int_equal(table[2].num_tiles, 0);
    gpl_plan_limits l = base_limits;
    assert_int_equal(gpl_plan_partition_groups(&l, push.num_tiles), 5);
    l.max_groups = 3;
    assert_int_equal(gpl_plan_partition_groups(&l, push.num_tiles), 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chunks_and_cap),
        cmocka_unit_test(test_waves),
        cmocka_unit_test(test_partials),
        cmocka_unit_test(test_reductions_by_page),
        cmocka_unit_test(test_reductions_split_32_bits),
        cmocka_unit_test(test_subtractions),
        cmocka_unit_test(test_search_runs),
        cmocka_unit_test(test_many_nodes_several_pages),
        cmocka_unit_test(test_partition_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
