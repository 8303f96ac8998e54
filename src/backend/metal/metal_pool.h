/* metal_pool.h -- the BufferPool's bookkeeping, in plain C so that it is
 * unit-tested everywhere (tests/unit/test_metal_pool.c); the Metal calls
 * that make and free the buffers are callbacks (metal_buffer.cpp).
 *
 * Rules:
 *   - sizes are rounded up to size classes (four steps per power of two,
 *     so at most 25% is wasted), and a free buffer of the right class and
 *     storage mode is reused before a new one is made;
 *   - a buffer that a command buffer still uses returns to the pool only
 *     when that command buffer has completed: the host calls
 *     gpl_mtl_pool_release when it is done with it, and the buffer waits
 *     in a pending list until gpl_mtl_pool_complete (called from the
 *     command buffer's completion handler) covers its last use;
 *   - buffers above the largest class are exact-sized and never cached;
 *     the cache is capped, beyond which returned buffers are freed.
 * The pool is thread-safe: completion handlers run on Metal's threads. */
#ifndef GPL_METAL_POOL_H
#define GPL_METAL_POOL_H

#include <stddef.h>
#include <stdint.h>

#include "gpulayer.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Where a buffer lives. Control data (records, counts, push-sized
 * uploads) is always shared: on unified memory the CPU reads it in place.
 * Hot workspaces the host never reads may be private. */
typedef enum gpl_mtl_storage {
    GPL_MTL_SHARED = 0,
    GPL_MTL_PRIVATE = 1,
    GPL_MTL_STORAGE_COUNT = 2
} gpl_mtl_storage;

/* Smallest class: Apple GPUs align buffer bindings far below this, and
 * tiny control buffers gain nothing from finer classes. */
#define GPL_MTL_POOL_MIN_BYTES ((size_t)256)
/* Largest pooled class (1 GiB); bigger buffers are made and freed as is. */
#define GPL_MTL_POOL_MAX_CLASS_BYTES ((size_t)1 << 30)
/* Exact-sized (unpooled) buffers are rounded to this (16 KiB pages). */
#define GPL_MTL_POOL_PAGE_BYTES ((size_t)16384)

/* The callbacks that touch the device. make returns NULL on failure. */
typedef struct gpl_mtl_pool_ops {
    void *(*make)(void *user, size_t bytes, gpl_mtl_storage storage);
    void (*free)(void *user, void *handle);
    void *user;
} gpl_mtl_pool_ops;

/* A buffer handed out by the pool. */
typedef struct gpl_mtl_block {
    void *handle;          /* the device buffer (an MTL::Buffer*)           */
    size_t bytes;          /* its capacity: the size class                  */
    gpl_mtl_storage storage;
    int32_t size_class;    /* -1: exact-sized, not cached                   */
    void *tracking;        /* the pool's record of it (private)             */
} gpl_mtl_block;

typedef struct gpl_mtl_pool_stats {
    size_t live;           /* handed out, not released                       */
    size_t pending;        /* released, waiting for their command buffer    */
    size_t cached;         /* free in the pool                               */
    size_t live_bytes, pending_bytes, cached_bytes;
    size_t peak_bytes;     /* most bytes held at once (all three states)     */
    uint64_t made;         /* buffers the device made                        */
    uint64_t reused;       /* requests served from the cache                 */
    uint64_t freed;        /* buffers given back to the device               */
} gpl_mtl_pool_stats;

typedef struct gpl_mtl_pool gpl_mtl_pool;

/* max_cached_bytes: the cache's cap (0: cache nothing). */
gpulayer_status gpl_mtl_pool_create(const gpl_mtl_pool_ops *ops, size_t max_cached_bytes,
                                    gpl_mtl_pool **out);
/* Frees every cached buffer and the pool. Live or pending buffers at this
 * point are a caller bug; they are freed too, and counted in the return
 * value so that the caller can report it. */
size_t gpl_mtl_pool_destroy(gpl_mtl_pool *pool);

/* The size class of a request: its index (or -1 above the largest class)
 * and its capacity in bytes. */
int32_t gpl_mtl_pool_class_of(size_t bytes);
size_t gpl_mtl_pool_class_bytes(int32_t size_class);
/* The capacity a request of `bytes` gets (class or page-rounded size). */
size_t gpl_mtl_pool_capacity(size_t bytes);

/* A buffer of at least `bytes` (at least 1) in the given storage. */
gpulayer_status gpl_mtl_pool_acquire(gpl_mtl_pool *pool, size_t bytes,
                                     gpl_mtl_storage storage, const char *what,
                                     gpl_mtl_block *out);
/* The host is done with the block; last_use is the serial of the last
 * command buffer that used it (0: none). The block must not be used
 * again. */
void gpl_mtl_pool_release(gpl_mtl_pool *pool, const gpl_mtl_block *block, uint64_t last_use);
/* Command buffers up to and including `serial` have completed (successfully
 * or not: either way the device no longer touches their buffers). */
void gpl_mtl_pool_complete(gpl_mtl_pool *pool, uint64_t serial);
/* Frees the cached buffers (for memory pressure and tests). */
void gpl_mtl_pool_trim(gpl_mtl_pool *pool);
void gpl_mtl_pool_stats_get(gpl_mtl_pool *pool, gpl_mtl_pool_stats *out);

#ifdef __cplusplus
}
#endif

#endif
