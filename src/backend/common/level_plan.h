/* level_plan.h -- the plan of a level's histogram work and split search
 * for the GPU hosts (Vulkan, Metal), which run the same kernels with the
 * same ABI (gpu_kernels/gpu_kernel_abi.h): which kernel, which entries of
 * the level tables, which histogram page, how many workgroups. A plan is
 * a pure function of the limits, the pool's geometry, the node table and
 * the level's nodes; it knows no graphics API. A host writes the tables
 * a plan fills where its kernels read them and turns each step into one
 * dispatch, so both hosts issue the same dispatches.
 *
 * The histogram pool is pages of slots: slot s is slot s % slots_per_page
 * of page s / slots_per_page, slot_bytes apart in its page. Kernels that
 * take a level's histograms (hist_reduce_nodes, hist_subtract_nodes,
 * split_eval_level) bind one page, or a run of its slots, and address a
 * histogram by its first 16-byte element in that binding. */
#ifndef GPL_LEVEL_PLAN_H
#define GPL_LEVEL_PLAN_H

#include <stdint.h>

#include "gpu_kernels/gpu_kernel_abi.h"
#include "node_table.h"

/* What a host's device and buffers allow. */
typedef struct gpl_plan_limits {
    uint32_t max_groups;          /* workgroups of one dispatch (at least 1)    */
    uint32_t wg;                  /* invocations of a workgroup                  */
    uint32_t partial_groups;      /* partial histograms the partial buffer holds */
    uint32_t table_blocks;        /* entries of the block and node tables        */
    uint32_t rows_per_partial;    /* rows a partial histogram is made for        */
    uint32_t node_partials;       /* partials of one node at most                */
    uint32_t num_chunks;          /* feature chunks of the histogram kernels     */
    /* Chunks one histogram dispatch covers: 1 for histogram.comp (a
     * dispatch a node and chunk), else gpl_plan_chunks_per_dispatch. */
    uint32_t chunks_per_dispatch;
} gpl_plan_limits;

/* The histogram pool's geometry (see above). */
typedef struct gpl_plan_pool {
    int32_t slots_per_page;
    uint64_t slot_bytes; /* one slot, aligned                 */
    uint64_t hist_bytes; /* one histogram: hist_len * 16      */
    uint64_t max_range;  /* the longest range of one binding  */
} gpl_plan_pool;

typedef enum gpl_plan_kernel {
    GPL_PLAN_HISTOGRAM_ROWS,      /* histogram_rows.comp: a run of chunks, a row list  */
    GPL_PLAN_HIST_REDUCE_NODES,   /* hist_reduce_nodes.comp: a page's nodes            */
    GPL_PLAN_HIST_SUBTRACT_NODES, /* hist_subtract_nodes.comp: a page's subtractions   */
    GPL_PLAN_SPLIT_EVAL_LEVEL     /* split_eval_level.comp: a run of slots of a page   */
} gpl_plan_kernel;

/* One dispatch. Table entries first .. first + entries - 1 (of the table
 * the kernel reads: blocks, nodes, subtractions, search nodes); page and
 * its bound range in bytes (-1 and 0, 0 for histogram_rows); list and
 * chunks for histogram_rows. */
typedef struct gpl_plan_step {
    gpl_plan_kernel kernel;
    int32_t page;
    uint64_t offset, bytes;
    uint32_t first, entries;
    int32_t list;
    uint32_t chunk_first, chunks;
    uint32_t groups;
} gpl_plan_step;

/* A node of a level: index is its place in the level's node list, slot
 * its histogram's (page: the slot's page, set by the functions that order
 * by it); for the histogram build, partials partial_first .. + groups - 1
 * of the partial buffer (from 0 in each wave). */
typedef struct gpl_plan_wave_node {
    int32_t node, index, slot, page;
    uint32_t partial_first, groups;
} gpl_plan_wave_node;

/* Chunks a histogram_rows dispatch covers: all of them, as the workgroup
 * count allows. */
uint32_t gpl_plan_chunks_per_dispatch(uint32_t num_chunks, uint32_t max_groups);

/* Row blocks a wave holds: as many as the partial buffer, the block table
 * and one dispatch (its blocks times chunks_per_dispatch workgroups) take;
 * at least 1. */
uint32_t gpl_plan_wave_cap(const gpl_plan_limits *l);

/* The level's nodes in waves, in their order: wave w is out[wave_end[w -
 * 1] .. wave_end[w] - 1] (wave_end[-1] being 0), each node with its
 * partials (rows / rows_per_partial rounded up, 1 .. node_partials, at
 * most the cap and 0xffff, a block table entry's field). out and wave_end
 * have room for num_nodes entries (at least 1). Returns the waves (1 when
 * num_nodes is 0: an empty one). */
int32_t gpl_plan_waves(const gpl_plan_limits *l, const gpl_node_table *t, const int32_t *nodes,
                       const int32_t *slots, int32_t num_nodes, gpl_plan_wave_node *out,
                       int32_t *wave_end);

/* Stage 1 of a wave from the bins in rows: the block table (the row
 * blocks of the nodes in row list 0, then list 1; at most the wave's
 * partials, which gpl_plan_wave_cap bounds by table_blocks) and a step a
 * list and run of chunks (at most 2 * num_chunks). Returns the steps;
 * *num_blocks is the table's length. */
int32_t gpl_plan_partials(const gpl_plan_limits *l, const gpl_node_table *t,
                          const gpl_plan_wave_node *wave, int32_t n, gpl_hist_block *blocks,
                          uint32_t *num_blocks, gpl_plan_step *steps);

/* histogram_rows reads the feature offsets (num_features + 1 words), the
 * chunk table (num_chunks gpl_hist_chunk entries after them) and the
 * level's tables through one binding: the word the tables start at,
 * aligned to a table entry (4 words). */
uint32_t gpl_plan_table_word(uint32_t num_features, uint32_t num_chunks);

/* The push constants of a histogram_rows step of gpl_plan_partials whose
 * block table is at word blocks_word of that binding; row_words: words of
 * a row of bins, of codes of code_bits bits. */
gpl_histogram_rows_push gpl_plan_rows_push(const gpl_plan_step *s, uint32_t num_features,
                                           uint32_t row_words, uint32_t hist_len,
                                           uint32_t blocks_word, uint32_t code_bits);

/* Stage 2 of a wave: the wave ordered by page (in their order within a
 * page), the node table in that order (n entries) and the steps of each
 * page (at most n). Returns the steps. */
int32_t gpl_plan_reductions(const gpl_plan_limits *l, const gpl_plan_pool *p,
                            uint32_t hist_len, gpl_plan_wave_node *wave, int32_t n,
                            gpl_hist_node *table, gpl_plan_step *steps);

/* Subtractions target = parent - built, given by their slots (parent,
 * built, target: 3 a subtraction). Those whose three histograms share a
 * page go in the table by page (in their order within it), a step a page
 * (at most count); the others' indices go to apart, in order (one
 * hist_subtract dispatch each, which binds the histograms one by one).
 * Returns the steps; *num_entries and *num_apart the lengths. */
int32_t gpl_plan_subtractions(const gpl_plan_limits *l, const gpl_plan_pool *p,
                              uint32_t hist_len, const int32_t *slots, int32_t count,
                              gpl_hist_subtraction *table, uint32_t *num_entries,
                              int32_t *apart, int32_t *num_apart, gpl_plan_step *steps);

/* The split search of a level: the nodes ordered by slot (in order, room
 * for num_nodes), cut into runs of one page whose slots fit one binding;
 * the node table (4 words an entry, num_nodes entries: node, its index in
 * nodes, its histogram's first element in the run, 0) and a step a run
 * (at most num_nodes; the step's first entry travels as the push
 * constants' record). Returns the steps. */
int32_t gpl_plan_search(const gpl_plan_pool *p, const int32_t *nodes, const int32_t *slots,
                        int32_t num_nodes, gpl_plan_wave_node *order, uint32_t *table,
                        gpl_plan_step *steps);

/* Workgroups of a partition kernel over `items` (the level's tiles,
 * gpl_partition_plan_level's num_tiles, or its splits for the scan), as
 * one dispatch allows; the kernels loop over the rest. The split table
 * itself is gpl_partition_plan_level's. */
uint32_t gpl_plan_partition_groups(const gpl_plan_limits *l, uint32_t items);

#endif
