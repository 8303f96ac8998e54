// metal_context.cpp -- the MetalContext: device, queue, library,
// capabilities, BufferPool and PipelineRegistry, created only when a
// backend is created (never at library load or import), and the
// completion mark that returns buffers to the pool.
#include <cstdlib>
#include <cstring>

#include "metal_context.hpp"

extern "C" {
#include "error.h"
}

// The pool caches at most this share of the device's working set, and
// never more than this many bytes: what training frees between trees is
// reused, without holding on to a whole job's memory afterwards.
#define GPL_MTL_CACHE_SHARE 8
#define GPL_MTL_CACHE_MAX ((size_t)1 << 31)

static MTL::Device *open_device(int32_t index)
{
    // Index 0 is the system default device, as the device layer's probe
    // reports it; others follow MTLCopyAllDevices (Macs with several GPUs).
    if (index == 0) return MTL::CreateSystemDefaultDevice();
    NS::Array *all = MTL::CopyAllDevices();
    MTL::Device *dev = nullptr;
    if (all && index > 0 && static_cast<NS::UInteger>(index) < all->count())
        dev = all->object<MTL::Device>(static_cast<NS::UInteger>(index))->retain();
    if (all) all->release();
    return dev;
}

static gpulayer_status open_context(gpl_mtl_context *c, int32_t index)
{
    c->device = open_device(index);
    if (!c->device)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "metal backend: no Metal device %d (MTLCreateSystemDefaultDevice "
                         "returned nil: no GPU access, as in a VM or a CI runner)", index);
    gpl_mtl_caps_query(c->device, &c->caps);
    GPL_CHECK(gpl_mtl_caps_check(&c->caps));
    c->queue = c->device->newCommandQueue();
    if (!c->queue)
        return gpl_error(GPULAYER_ERR_DEVICE, "metal backend: device '%s' gave no command queue",
                         c->caps.name);
    GPL_CHECK(gpl_mtl_library_load(c));
    size_t cache = static_cast<size_t>(c->caps.working_set_bytes / GPL_MTL_CACHE_SHARE);
    if (cache > GPL_MTL_CACHE_MAX) cache = GPL_MTL_CACHE_MAX;
    gpl_mtl_pool_ops ops = {gpl_mtl_buffer_make, gpl_mtl_buffer_free, c};
    GPL_CHECK(gpl_mtl_pool_create(&ops, cache, &c->pool));
    return gpl_mtl_registry_create(gpl_mtl_pipeline_destroy_cb, c, &c->registry);
}

extern "C" gpulayer_status gpl_mtl_context_create(int32_t index, int verbose,
                                                  gpl_mtl_context **out)
{
    *out = nullptr;
    // The shipped kernels are checked before any device exists: a broken
    // build is reported as such, whatever the machine.
    GPL_CHECK(gpl_mtl_library_check_blob(&gpl_mtl_library));
    gpl_mtl_context *c = static_cast<gpl_mtl_context *>(std::calloc(1, sizeof *c));
    if (!c) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "metal backend: out of memory");
    if (gpl_mtl_fault_init(&c->fault) != 0 || pthread_mutex_init(&c->done_lock, nullptr) != 0) {
        std::free(c);
        return gpl_error(GPULAYER_ERR_INTERNAL, "metal backend: cannot create its locks");
    }
    c->verbose = verbose;
    c->next_serial = 1;
    NS::AutoreleasePool *arp = NS::AutoreleasePool::alloc()->init();
    gpulayer_status st = open_context(c, index);
    arp->release();
    if (st != GPULAYER_OK) {
        gpl_mtl_context_destroy(c, nullptr);
        return st;
    }
    *out = c;
    return GPULAYER_OK;
}

extern "C" void gpl_mtl_context_destroy(gpl_mtl_context *c, size_t *leaked)
{
    if (leaked) *leaked = 0;
    if (!c) return;
    NS::AutoreleasePool *arp = NS::AutoreleasePool::alloc()->init();
    if (c->queue) {
        gpl_mtl_abandon(c);
        (void)gpl_mtl_finish(c); // nothing may be in flight when buffers go
    }
    if (c->registry) gpl_mtl_registry_destroy(c->registry);
    if (c->pool) {
        // Completion handlers may run after waitUntilCompleted returns; the
        // finished batches are marked here so that the pool can settle.
        gpl_mtl_pool_complete(c->pool, c->next_serial);
        size_t n = gpl_mtl_pool_destroy(c->pool);
        if (leaked) *leaked = n;
    }
    if (c->library) c->library->release();
    if (c->queue) c->queue->release();
    if (c->device) c->device->release();
    arp->release();
    gpl_mtl_fault_destroy(&c->fault);
    pthread_mutex_destroy(&c->done_lock);
    std::free(c);
}

extern "C" const gpl_mtl_caps *gpl_mtl_context_caps(const gpl_mtl_context *c)
{
    return &c->caps;
}

extern "C" gpulayer_status gpl_mtl_context_status(gpl_mtl_context *c)
{
    return gpl_mtl_fault_check(&c->fault);
}

extern "C" void gpl_mtl_context_pool_stats(gpl_mtl_context *c, gpl_mtl_pool_stats *out)
{
    gpl_mtl_pool_stats_get(c->pool, out);
}

void gpl_mtl_mark_done(gpl_mtl_context *c, uint64_t serial)
{
    pthread_mutex_lock(&c->done_lock);
    if (serial > c->completed && serial - c->completed <= 64) {
        c->done_flags |= 1ull << (serial - c->completed - 1);
        while (c->done_flags & 1ull) {
            c->done_flags >>= 1;
            c->completed++;
        }
    }
    const uint64_t mark = c->completed;
    pthread_mutex_unlock(&c->done_lock);
    gpl_mtl_pool_complete(c->pool, mark);
}
