/* level_plan.c -- the plan of a level shared by the GPU hosts
 * (level_plan.h). */
#include "level_plan.h"

#include <stdlib.h>

static int32_t slot_index(const gpl_plan_pool *p, int32_t slot)
{
    return slot % p->slots_per_page;
}

/* A histogram's first element (16 bytes) in its page's binding. */
static uint32_t slot_element(const gpl_plan_pool *p, int32_t slot)
{
    return (uint32_t)((uint64_t)slot_index(p, slot) * p->slot_bytes / 16);
}

/* A page's slots from the first as one binding. */
static uint64_t page_bytes(const gpl_plan_pool *p)
{
    return (uint64_t)(p->slots_per_page - 1) * p->slot_bytes + p->hist_bytes;
}

uint32_t gpl_plan_chunks_per_dispatch(uint32_t num_chunks, uint32_t max_groups)
{
    return num_chunks < max_groups ? num_chunks : max_groups;
}

uint32_t gpl_plan_wave_cap(const gpl_plan_limits *l)
{
    uint32_t cap = l->partial_groups < l->table_blocks ? l->partial_groups : l->table_blocks;
    const uint32_t per = l->chunks_per_dispatch ? l->chunks_per_dispatch : 1;
    if (cap > l->max_groups / per) cap = l->max_groups / per;
    return cap < 1 ? 1 : cap;
}

int32_t gpl_plan_waves(const gpl_plan_limits *l, const gpl_node_table *t, const int32_t *nodes,
                       const int32_t *slots, int32_t num_nodes, gpl_plan_wave_node *out,
                       int32_t *wave_end)
{
    const uint32_t cap = gpl_plan_wave_cap(l);
    const uint32_t per = l->rows_per_partial ? l->rows_per_partial : 1;
    int32_t waves = 0, k = 0;
    uint32_t used = 0;
    for (int32_t i = 0; i < num_nodes; i++) {
        uint32_t groups = (gpl_node_live_rows(t, nodes[i]) + per - 1) / per;
        if (groups < 1) groups = 1;
        if (groups > l->node_partials) groups = l->node_partials;
        if (groups > cap) groups = cap;
        if (groups > 0xffff) groups = 0xffff; /* a block table entry's field */
        if (groups < 1) groups = 1;
        if (used + groups > cap) {
            wave_end[waves++] = k;
            used = 0;
        }
        out[k++] = (gpl_plan_wave_node){nodes[i], i, slots[i], -1, used, groups};
        used += groups;
    }
    wave_end[waves++] = k;
    return waves;
}

int32_t gpl_plan_partials(const gpl_plan_limits *l, const gpl_node_table *t,
                          const gpl_plan_wave_node *wave, int32_t n, gpl_hist_block *blocks,
                          uint32_t *num_blocks, gpl_plan_step *steps)
{
    uint32_t first[3] = {0, 0, 0};
    for (int list = 0; list < 2; list++) {
        uint32_t k = first[list];
        for (int32_t i = 0; i < n; i++) {
            const gpl_plan_wave_node *w = &wave[i];
            if (t->buf[w->node] != list) continue;
            for (uint32_t b = 0; b < w->groups; b++)
                blocks[k++] = (gpl_hist_block){(uint32_t)t->begin[w->node],
                                               gpl_node_live_rows(t, w->node),
                                               b | w->groups << 16, w->partial_first + b};
        }
        first[list + 1] = k;
    }
    *num_blocks = first[2];
    const uint32_t per = l->chunks_per_dispatch ? l->chunks_per_dispatch : 1;
    int32_t s = 0;
    for (int list = 0; list < 2; list++) {
        const uint32_t entries = first[list + 1] - first[list];
        if (entries == 0) continue;
        for (uint32_t k = 0; k < l->num_chunks; k += per) {
            const uint32_t chunks = l->num_chunks - k < per ? l->num_chunks - k : per;
            steps[s++] = (gpl_plan_step){GPL_PLAN_HISTOGRAM_ROWS, -1, 0, 0, first[list],
                                         entries, list, k, chunks, entries * chunks};
        }
    }
    return s;
}

uint32_t gpl_plan_table_word(uint32_t num_features, uint32_t num_chunks)
{
    const uint32_t words = num_features + 1 + 4 * num_chunks;
    return (words + 3) / 4 * 4;
}

gpl_histogram_rows_push gpl_plan_rows_push(const gpl_plan_step *s, uint32_t num_features,
                                           uint32_t row_words, uint32_t hist_len,
                                           uint32_t blocks_word, uint32_t code_bits)
{
    const gpl_histogram_rows_push p = {s->chunks, num_features + 1 + 4 * s->chunk_first,
                                       row_words, hist_len, blocks_word + 4 * s->first,
                                       code_bits};
    return p;
}

/* Entries first .. first + entries - 1 of a table, each `blocks` work
 * items, in steps whose items stay within 32 bits. */
static int32_t table_steps(const gpl_plan_limits *l, gpl_plan_kernel kernel, int32_t page,
                           uint64_t bytes, uint32_t first, uint32_t entries, uint32_t blocks,
                           gpl_plan_step *steps)
{
    const uint32_t most = blocks ? UINT32_MAX / blocks : UINT32_MAX;
    int32_t s = 0;
    for (uint32_t i = first, left = entries; left > 0;) {
        const uint32_t n = left < most ? left : most;
        const uint64_t items = (uint64_t)n * blocks;
        const uint32_t groups = items < l->max_groups ? (uint32_t)items : l->max_groups;
        steps[s++] = (gpl_plan_step){kernel, page, 0, bytes, i, n, -1, 0, 0, groups};
        i += n;
        left -= n;
    }
    return s;
}

/* By page, then by place in the level (or slot, which orders a page's
 * nodes the same way where the index does not apply). */
static int by_page_index(const void *a, const void *b)
{
    const gpl_plan_wave_node *x = a, *y = b;
    if (x->page != y->page) return x->page < y->page ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

static int by_page_slot(const void *a, const void *b)
{
    const gpl_plan_wave_node *x = a, *y = b;
    if (x->page != y->page) return x->page < y->page ? -1 : 1;
    return (x->slot > y->slot) - (x->slot < y->slot);
}

int32_t gpl_plan_reductions(const gpl_plan_limits *l, const gpl_plan_pool *p,
                            uint32_t hist_len, gpl_plan_wave_node *wave, int32_t n,
                            gpl_hist_node *table, gpl_plan_step *steps)
{
    for (int32_t i = 0; i < n; i++) wave[i].page = wave[i].slot / p->slots_per_page;
    if (n > 1) qsort(wave, (size_t)n, sizeof *wave, by_page_index);
    for (int32_t i = 0; i < n; i++)
        table[i] = (gpl_hist_node){wave[i].partial_first, wave[i].groups,
                                   slot_element(p, wave[i].slot), 0};
    const uint32_t blocks = gpl_reduce_groups(hist_len, UINT32_MAX);
    int32_t s = 0;
    for (int32_t i = 0; i < n;) {
        int32_t end = i;
        while (end < n && wave[end].page == wave[i].page) end++;
        s += table_steps(l, GPL_PLAN_HIST_REDUCE_NODES, wave[i].page, page_bytes(p),
                         (uint32_t)i, (uint32_t)(end - i), blocks, steps + s);
        i = end;
    }
    return s;
}

/* The page of all three histograms of subtraction i, or -1. */
static int32_t common_page(const gpl_plan_pool *p, const int32_t *slots, int32_t i)
{
    const int32_t page = slots[3 * i + 2] / p->slots_per_page;
    return slots[3 * i] / p->slots_per_page == page &&
                   slots[3 * i + 1] / p->slots_per_page == page
               ? page
               : -1;
}

int32_t gpl_plan_subtractions(const gpl_plan_limits *l, const gpl_plan_pool *p,
                              uint32_t hist_len, const int32_t *slots, int32_t count,
                              gpl_hist_subtraction *table, uint32_t *num_entries,
                              int32_t *apart, int32_t *num_apart, gpl_plan_step *steps)
{
    int32_t na = 0;
    for (int32_t i = 0; i < count; i++)
        if (common_page(p, slots, i) < 0) apart[na++] = i;
    *num_apart = na;
    const uint32_t wg = l->wg ? l->wg : 1;
    const uint32_t blocks = (hist_len + wg - 1) / wg;
    uint32_t k = 0;
    int32_t s = 0;
    /* Pages in ascending order: a pass for each page some subtraction is in. */
    for (int32_t page = -1;;) {
        int32_t next = -1;
        for (int32_t i = 0; i < count; i++) {
            const int32_t q = common_page(p, slots, i);
            if (q > page && (next < 0 || q < next)) next = q;
        }
        if (next < 0) break;
        page = next;
        const uint32_t first = k;
        for (int32_t i = 0; i < count; i++)
            if (common_page(p, slots, i) == page)
                table[k++] = (gpl_hist_subtraction){slot_element(p, slots[3 * i]),
                                                    slot_element(p, slots[3 * i + 1]),
                                                    slot_element(p, slots[3 * i + 2]), 0};
        s += table_steps(l, GPL_PLAN_HIST_SUBTRACT_NODES, page, page_bytes(p), first,
                         k - first, blocks, steps + s);
    }
    *num_entries = k;
    return s;
}

int32_t gpl_plan_search(const gpl_plan_pool *p, const int32_t *nodes, const int32_t *slots,
                        int32_t num_nodes, gpl_plan_wave_node *order, uint32_t *table,
                        gpl_plan_step *steps)
{
    for (int32_t i = 0; i < num_nodes; i++)
        order[i] = (gpl_plan_wave_node){nodes[i], i, slots[i], slots[i] / p->slots_per_page, 0, 0};
    if (num_nodes > 1) qsort(order, (size_t)num_nodes, sizeof *order, by_page_slot);
    int32_t s = 0;
    for (int32_t first = 0; first < num_nodes;) {
        const int32_t page = order[first].page, i0 = slot_index(p, order[first].slot);
        int32_t end = first + 1;
        while (end < num_nodes && order[end].page == page &&
               (uint64_t)(slot_index(p, order[end].slot) - i0) * p->slot_bytes + p->hist_bytes <=
                   p->max_range)
            end++;
        for (int32_t j = first; j < end; j++) {
            uint32_t *e = table + 4 * (size_t)j;
            e[0] = (uint32_t)order[j].node;
            e[1] = (uint32_t)order[j].index;
            e[2] = (uint32_t)((uint64_t)(slot_index(p, order[j].slot) - i0) * p->slot_bytes / 16);
            e[3] = 0;
        }
        const int32_t last = slot_index(p, order[end - 1].slot);
        steps[s++] = (gpl_plan_step){GPL_PLAN_SPLIT_EVAL_LEVEL, page,
                                     (uint64_t)i0 * p->slot_bytes,
                                     (uint64_t)(last - i0) * p->slot_bytes + p->hist_bytes,
                                     (uint32_t)first, (uint32_t)(end - first), -1, 0, 0,
                                     (uint32_t)(end - first)};
        first = end;
    }
    return s;
}

uint32_t gpl_plan_partition_groups(const gpl_plan_limits *l, uint32_t items)
{
    return items < l->max_groups ? items : l->max_groups;
}
