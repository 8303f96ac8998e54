/* metal_registry.c -- the kernel table, the checks of the kernel library
 * and the pipeline cache (metal_registry.h), with no Metal type. */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "gpu_kernels/gpu_kernel_abi.h"
#include "metal_registry.h"

/* Bindings and push constant bytes; they mirror the `binding = N` and
 * push_constant blocks of src/backend/gpu_kernels/shaders/<name>.comp, which the
 * Metal sources keep (push constants at buffer(0), binding N at buffer(N)). */
const gpl_mtl_kernel_info gpl_mtl_kernel_table[MTL_K_COUNT] = {
    [MTL_K_GRADIENTS] = {"gradients", 6, sizeof(gpl_gradient_push)},
    [MTL_K_QUANTIZE] = {"quantize", 1, 24},
    [MTL_K_ROWS_INIT] = {"rows_init", 1, sizeof(gpl_rows_init_push)},
    [MTL_K_HISTOGRAM_ROWS] = {"histogram_rows", GPL_HISTOGRAM_ROWS_BINDINGS,
                              sizeof(gpl_histogram_rows_push)},
    [MTL_K_BINS_COLUMNS] = {"bins_columns", GPL_BINS_COLUMNS_BINDINGS, sizeof(gpl_columns_push)},
    [MTL_K_HIST_REDUCE] = {"hist_reduce", 2, 12},
    [MTL_K_HIST_SUBTRACT] = {"hist_subtract", 3, 4},
    [MTL_K_SPLIT_EVAL] = {"split_eval", 5, sizeof(gpl_split_push)},
    [MTL_K_PARTITION_PLACE] = {"partition_place", GPL_PART_SCATTER_BINDINGS,
                               sizeof(gpl_partition_push)},
    [MTL_K_UPDATE_MARGINS] = {"update_margins", GPL_MARGINS_BINDINGS, sizeof(gpl_margins_push)},
    [MTL_K_HIST_REDUCE_NODES] = {"hist_reduce_nodes", 3, sizeof(gpl_hist_nodes_push)},
    [MTL_K_HIST_SUBTRACT_NODES] = {"hist_subtract_nodes", 2, sizeof(gpl_hist_nodes_push)},
    [MTL_K_SPLIT_EVAL_LEVEL] = {"split_eval_level", 6, sizeof(gpl_split_push)},
};

/* FNV-1a over the key's fields (not its bytes: padding is not hashed). */
static uint64_t mix(uint64_t h, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        h ^= (v >> (8 * i)) & 0xffu;
        h *= 1099511628211ull;
    }
    return h;
}

uint64_t gpl_mtl_key_hash(const gpl_mtl_pipeline_key *k)
{
    uint64_t h = 14695981039346656037ull;
    h = mix(h, (uint32_t)k->kernel);
    h = mix(h, k->wg);
    h = mix(h, k->shared_bins);
    h = mix(h, (uint32_t)k->abi);
    return h;
}

int gpl_mtl_key_equal(const gpl_mtl_pipeline_key *a, const gpl_mtl_pipeline_key *b)
{
    return a->kernel == b->kernel && a->wg == b->wg && a->shared_bins == b->shared_bins &&
           a->abi == b->abi;
}

/* Open addressing with linear probing; a few dozen pipelines at most, so
 * the table only grows (at half full) and entries are never removed one
 * by one. */
typedef struct slot {
    gpl_mtl_pipeline_key key;
    void *pipeline; /* NULL: empty */
} slot;

struct gpl_mtl_registry {
    slot *slots;
    size_t capacity, count;
    void (*destroy_pipeline)(void *user, void *pipeline);
    void *user;
};

gpulayer_status gpl_mtl_registry_create(void (*destroy_pipeline)(void *, void *), void *user,
                                        gpl_mtl_registry **out)
{
    *out = NULL;
    gpl_mtl_registry *r = calloc(1, sizeof *r);
    if (r) r->slots = calloc(32, sizeof(slot));
    if (!r || !r->slots) {
        free(r);
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "metal pipeline registry: out of memory");
    }
    r->capacity = 32;
    r->destroy_pipeline = destroy_pipeline;
    r->user = user;
    *out = r;
    return GPULAYER_OK;
}

static slot *probe(const gpl_mtl_registry *r, const gpl_mtl_pipeline_key *key)
{
    size_t i = (size_t)(gpl_mtl_key_hash(key) & (r->capacity - 1));
    while (r->slots[i].pipeline && !gpl_mtl_key_equal(&r->slots[i].key, key))
        i = (i + 1) & (r->capacity - 1);
    return &r->slots[i];
}

void *gpl_mtl_registry_find(const gpl_mtl_registry *r, const gpl_mtl_pipeline_key *key)
{
    return probe(r, key)->pipeline;
}

static gpulayer_status grow(gpl_mtl_registry *r)
{
    slot *old = r->slots;
    const size_t old_cap = r->capacity;
    slot *fresh = calloc(old_cap * 2, sizeof(slot));
    if (!fresh)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "metal pipeline registry: out of memory");
    r->slots = fresh;
    r->capacity = old_cap * 2;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].pipeline) *probe(r, &old[i].key) = old[i];
    free(old);
    return GPULAYER_OK;
}

gpulayer_status gpl_mtl_registry_insert(gpl_mtl_registry *r, const gpl_mtl_pipeline_key *key,
                                        void *pipeline)
{
    if (!pipeline)
        return gpl_error(GPULAYER_ERR_INTERNAL, "metal pipeline registry: no pipeline to cache");
    if (2 * (r->count + 1) > r->capacity) GPL_CHECK(grow(r));
    slot *s = probe(r, key);
    if (s->pipeline) {
        if (s->pipeline != pipeline && r->destroy_pipeline)
            r->destroy_pipeline(r->user, s->pipeline);
    } else {
        r->count++;
    }
    s->key = *key;
    s->pipeline = pipeline;
    return GPULAYER_OK;
}

size_t gpl_mtl_registry_count(const gpl_mtl_registry *r) { return r->count; }

void gpl_mtl_registry_clear(gpl_mtl_registry *r)
{
    for (size_t i = 0; i < r->capacity; i++)
        if (r->slots[i].pipeline) {
            if (r->destroy_pipeline) r->destroy_pipeline(r->user, r->slots[i].pipeline);
            r->slots[i].pipeline = NULL;
        }
    r->count = 0;
}

void gpl_mtl_registry_destroy(gpl_mtl_registry *r)
{
    if (!r) return;
    gpl_mtl_registry_clear(r);
    free(r->slots);
    free(r);
}

gpulayer_status gpl_mtl_library_check_blob(const gpl_mtl_library_blob *blob)
{
    if (!blob || blob->size == 0)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "metal backend: this library carries no Metal kernels (metallib)");
    if (blob->abi != GPL_MTL_KERNEL_ABI)
        return gpl_error(GPULAYER_ERR_INTERNAL,
                         "metal backend: the embedded kernels have ABI version %d, the host "
                         "expects %d (a broken build)", blob->abi, GPL_MTL_KERNEL_ABI);
    if (blob->size < 4 || memcmp(blob->bytes, "MTLB", 4) != 0)
        return gpl_error(GPULAYER_ERR_INTERNAL,
                         "metal backend: the embedded kernel library is not a metallib");
    return GPULAYER_OK;
}

gpulayer_status gpl_mtl_library_check_functions(int (*has_function)(void *, const char *),
                                                void *user)
{
    for (int k = 0; k < MTL_K_COUNT; k++)
        if (!has_function(user, gpl_mtl_kernel_table[k].name))
            return gpl_error(GPULAYER_ERR_INTERNAL,
                             "metal backend: kernel '%s' is missing from the embedded metallib",
                             gpl_mtl_kernel_table[k].name);
    return GPULAYER_OK;
}
