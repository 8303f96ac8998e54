// metal_buffer.cpp -- device buffers for the BufferPool (metal_pool.c does
// the bookkeeping) and the host's transfers. Control data is in shared
// storage, which on unified memory the CPU reads in place; hot workspaces
// may be private (the choice is left to measurement on a Mac).
#include <cstring>

#include "metal_context.hpp"

extern "C" {
#include "error.h"
}

void *gpl_mtl_buffer_make(void *user, size_t bytes, gpl_mtl_storage storage)
{
    gpl_mtl_context *c = static_cast<gpl_mtl_context *>(user);
    // Default (tracked) hazard tracking: Metal orders encoders that share
    // a buffer; within a concurrent compute encoder the host's barriers
    // (gpl_mtl_barrier) order the dispatches.
    const MTL::ResourceOptions opts =
        storage == GPL_MTL_PRIVATE ? MTL::ResourceStorageModePrivate
                                   : (MTL::ResourceStorageModeShared |
                                      MTL::ResourceCPUCacheModeDefaultCache);
    return c->device->newBuffer(bytes, opts);
}

void gpl_mtl_buffer_free(void *user, void *handle)
{
    (void)user;
    if (handle) static_cast<MTL::Buffer *>(handle)->release();
}

extern "C" gpulayer_status gpl_mtl_buf_acquire(gpl_mtl_context *c, gpl_mtl_buf *b, size_t bytes,
                                               gpl_mtl_storage storage, const char *what)
{
    std::memset(b, 0, sizeof *b);
    GPL_CHECK(gpl_mtl_fault_check(&c->fault));
    if (bytes > c->caps.max_buffer_length)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "metal backend: the %s needs %zu bytes, more than one buffer of "
                         "device '%s' holds (maxBufferLength %llu)",
                         what, bytes, c->caps.name,
                         static_cast<unsigned long long>(c->caps.max_buffer_length));
    GPL_CHECK(gpl_mtl_pool_acquire(c->pool, bytes, storage, what, &b->block));
    b->bytes = bytes;
    if (storage == GPL_MTL_SHARED)
        b->contents = static_cast<MTL::Buffer *>(b->block.handle)->contents();
    return GPULAYER_OK;
}

extern "C" gpulayer_status gpl_mtl_buf_reserve(gpl_mtl_context *c, gpl_mtl_buf *b, size_t bytes,
                                               gpl_mtl_storage storage, const char *what)
{
    if (b->block.handle && b->block.bytes >= bytes) return GPULAYER_OK;
    gpl_mtl_buf_release(c, b);
    return gpl_mtl_buf_acquire(c, b, bytes, storage, what);
}

extern "C" void gpl_mtl_buf_release(gpl_mtl_context *c, gpl_mtl_buf *b)
{
    if (!b->block.handle) return;
    // Back to the pool now, or from the completion handler of the last
    // command buffer that used it if that one has not completed.
    gpl_mtl_pool_release(c->pool, &b->block, b->last_use);
    std::memset(b, 0, sizeof *b);
}

// Waits until the batches up to `serial` are done (and checked).
static gpulayer_status wait_for(gpl_mtl_context *c, uint64_t serial)
{
    if (serial == 0) return GPULAYER_OK;
    if (c->cmd && serial >= c->batch.serial)
        return gpl_error(GPULAYER_ERR_INTERNAL,
                         "metal backend: a host transfer touches a buffer of the batch being "
                         "encoded (%s)", c->batch.op);
    return gpl_mtl_finish(c);
}

static gpulayer_status check_transfer(const gpl_mtl_buf *b, size_t offset, size_t bytes,
                                      const char *dir)
{
    if (!b->contents)
        return gpl_error(GPULAYER_ERR_INTERNAL,
                         "metal backend: %s a buffer in private storage", dir);
    if (offset > b->block.bytes || bytes > b->block.bytes - offset)
        return gpl_error(GPULAYER_ERR_INTERNAL,
                         "metal backend: %s %zu bytes at %zu of a %zu-byte buffer", dir, bytes,
                         offset, b->block.bytes);
    return GPULAYER_OK;
}

extern "C" gpulayer_status gpl_mtl_buf_write(gpl_mtl_context *c, gpl_mtl_buf *b, size_t offset,
                                             const void *data, size_t bytes)
{
    if (bytes == 0) return GPULAYER_OK;
    GPL_CHECK(check_transfer(b, offset, bytes, "writing"));
    // A batch still reading the old contents must finish first: shared
    // storage has no copy in between.
    GPL_CHECK(wait_for(c, b->last_use));
    std::memcpy(static_cast<unsigned char *>(b->contents) + offset, data, bytes);
    return GPULAYER_OK;
}

extern "C" gpulayer_status gpl_mtl_buf_read(gpl_mtl_context *c, gpl_mtl_buf *b, size_t offset,
                                            void *data, size_t bytes)
{
    if (bytes == 0) return GPULAYER_OK;
    GPL_CHECK(check_transfer(b, offset, bytes, "reading"));
    GPL_CHECK(wait_for(c, b->last_use));
    std::memcpy(data, static_cast<const unsigned char *>(b->contents) + offset, bytes);
    return GPULAYER_OK;
}
