/* metal_registry.h -- the PipelineRegistry's logic in plain C (unit-tested
 * everywhere, tests/unit/test_metal_pool.c): the table of kernels the
 * host uses, the check of a kernel library against it, and the cache of
 * pipelines by key (kernel, function constants, kernel ABI version). The
 * pipelines themselves are opaque handles made by metal_pipeline.cpp. */
#ifndef GPL_METAL_REGISTRY_H
#define GPL_METAL_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

#include "gpulayer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Must equal GPL_KERNEL_ABI of src/backend/gpu_kernels/shaders/common.glsl,
 * whose kernels the Metal sources are translated from; the build records
 * the shaders' value next to the embedded metallib and the host refuses a
 * mismatch before creating a device. */
#define GPL_MTL_KERNEL_ABI 11

typedef enum gpl_mtl_kernel {
    MTL_K_GRADIENTS,
    MTL_K_QUANTIZE,
    MTL_K_ROWS_INIT,
    MTL_K_HISTOGRAM_ROWS,
    MTL_K_BINS_COLUMNS,
    MTL_K_HIST_REDUCE,
    MTL_K_HIST_SUBTRACT,
    MTL_K_SPLIT_EVAL,
    MTL_K_PARTITION_PLACE,
    MTL_K_UPDATE_MARGINS,
    MTL_K_HIST_REDUCE_NODES,
    MTL_K_HIST_SUBTRACT_NODES,
    MTL_K_SPLIT_EVAL_LEVEL,
    MTL_K_COUNT
} gpl_mtl_kernel;

/* A kernel as the host binds it: function name in the metallib, storage
 * buffers at buffer(1..bindings), push constants (bytes) at buffer(0). */
typedef struct gpl_mtl_kernel_info {
    const char *name;
    uint32_t bindings;
    uint32_t push_bytes;
} gpl_mtl_kernel_info;

extern const gpl_mtl_kernel_info gpl_mtl_kernel_table[MTL_K_COUNT];

/* Workgroup size every kernel is built for. The translated
 * partition_place sizes threadgroup arrays with the preprocessor
 * default of the workgroup size (256), so the function constant must
 * agree with it; see docs/metal.md. */
#define GPL_MTL_WG 256u
/* Threadgroups of one dispatch at most (gpl_mtl_groups_for): Metal's grid
 * limit is far above it; the kernels loop (grid-stride). */
#define GPL_MTL_MAX_GROUPS 65535u
/* Bins of the histogram kernel's threadgroup chunk, within the
 * translation's compile-time default (SPIRV_CROSS_CONSTANT_ID_1, 2048). */
#define GPL_MTL_SHARED_BINS 1024u

/* log2 bytes of a per-row buffer's window (window.glsl): the translation's
 * default of function constant 2, which the host leaves unset. Metal has
 * no binding range; the windows keep the kernels' indices within 32 bits. */
#define GPL_MTL_WINDOW_SHIFT 30u

/* What a pipeline is cached by. */
typedef struct gpl_mtl_pipeline_key {
    int32_t kernel;
    uint32_t wg;          /* function constant 0                 */
    uint32_t shared_bins; /* compile-time chunk of the histogram */
    int32_t abi;
} gpl_mtl_pipeline_key;

uint64_t gpl_mtl_key_hash(const gpl_mtl_pipeline_key *key);
int gpl_mtl_key_equal(const gpl_mtl_pipeline_key *a, const gpl_mtl_pipeline_key *b);

/* The cache: key -> opaque pipeline handle. */
typedef struct gpl_mtl_registry gpl_mtl_registry;

/* destroy_pipeline is called for each cached handle on clear/destroy. */
gpulayer_status gpl_mtl_registry_create(void (*destroy_pipeline)(void *user, void *pipeline),
                                        void *user, gpl_mtl_registry **out);
void gpl_mtl_registry_destroy(gpl_mtl_registry *r);
/* The cached handle, or NULL. */
void *gpl_mtl_registry_find(const gpl_mtl_registry *r, const gpl_mtl_pipeline_key *key);
/* Caches a handle under key (replacing and destroying an older one). */
gpulayer_status gpl_mtl_registry_insert(gpl_mtl_registry *r, const gpl_mtl_pipeline_key *key,
                                        void *pipeline);
size_t gpl_mtl_registry_count(const gpl_mtl_registry *r);
void gpl_mtl_registry_clear(gpl_mtl_registry *r);

/* The embedded kernel library's record (written by the build,
 * embed_metallib.cmake): its bytes and the ABI of the kernels it was
 * compiled from. size 0: this build carries no metallib. */
typedef struct gpl_mtl_library_blob {
    const unsigned char *bytes;
    size_t size;
    int abi;
} gpl_mtl_library_blob;

/* Before any device work: the ABI matches and the blob looks like a
 * metallib ("MTLB" magic). */
gpulayer_status gpl_mtl_library_check_blob(const gpl_mtl_library_blob *blob);
/* After loading: every kernel of the table is a function of the library.
 * has_function(user, name) answers for the loaded library. */
gpulayer_status gpl_mtl_library_check_functions(int (*has_function)(void *user,
                                                                    const char *name),
                                                void *user);

#ifdef __cplusplus
}
#endif

#endif
