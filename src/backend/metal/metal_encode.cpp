// metal_encode.cpp -- batches: one command buffer encodes an operation's
// dispatches for a whole level and is committed once. Its completion
// handler records a failure (naming the operation, level and kernels) and
// returns the buffers it used to the pool; the host waits only where it
// reads results. After any failure the context refuses further work.
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "metal_context.hpp"

extern "C" {
#include "error.h"
}

// GPULAYER_METAL_TEST_FAULT=<operation>: the hardware tests' way to make a
// command buffer fail (tests/hardware/test_metal_ops.c). The named
// operation's first dispatch reads a buffer whose memory was discarded
// (purgeable state Empty), which Metal reports as a failed command buffer.
static const char *test_fault_op(void)
{
    const char *v = std::getenv("GPULAYER_METAL_TEST_FAULT");
    return v && *v ? v : nullptr;
}

static gpulayer_status status_of_error(NS::Error *e)
{
    return e && e->code() == MTL::CommandBufferErrorOutOfMemory ? GPULAYER_ERR_OUT_OF_MEMORY
                                                                : GPULAYER_ERR_DEVICE;
}

// The command buffer's outcome, recorded in the context's fault if it
// failed. Called by the completion handler and again when the host waits
// (whichever comes first is kept).
static void record_outcome(gpl_mtl_context *c, MTL::CommandBuffer *cmd,
                           const gpl_mtl_batch_info *info)
{
    if (cmd->status() != MTL::CommandBufferStatusError) return;
    NS::Error *e = cmd->error();
    char what[512];
    std::snprintf(what, sizeof what, "%s (MTLCommandBufferError %ld)",
                  e ? gpl_mtl_text(e->localizedDescription(), "no description")
                    : "no error object",
                  e ? static_cast<long>(e->code()) : 0L);
    gpl_mtl_fault_record(&c->fault, info, status_of_error(e), c->caps.name, what);
}

static void end_compute(gpl_mtl_context *c)
{
    if (!c->compute) return;
    c->compute->endEncoding();
    c->compute->release();
    c->compute = nullptr;
}

static gpulayer_status open_compute(gpl_mtl_context *c)
{
    if (c->compute) return GPULAYER_OK;
    // Concurrent: the nodes of a level run side by side; gpl_mtl_barrier
    // orders the stages (as the Vulkan host's barriers do).
    MTL::ComputeCommandEncoder *enc = c->cmd->computeCommandEncoder(MTL::DispatchTypeConcurrent);
    if (!enc)
        return gpl_error(GPULAYER_ERR_DEVICE,
                         "metal backend: %s at level %d: no compute encoder on '%s'",
                         c->batch.op, c->batch.level, c->caps.name);
    c->compute = enc->retain();
    return GPULAYER_OK;
}

extern "C" gpulayer_status gpl_mtl_begin(gpl_mtl_context *c, const char *op, int level)
{
    GPL_CHECK(gpl_mtl_fault_check(&c->fault));
    if (c->cmd) gpl_mtl_abandon(c); // left open by a failed operation
    NS::AutoreleasePool *arp = NS::AutoreleasePool::alloc()->init();
    MTL::CommandBufferDescriptor *d = MTL::CommandBufferDescriptor::alloc()->init();
    // Per-encoder status in the error: which part of a batch failed.
    d->setErrorOptions(MTL::CommandBufferErrorOptionEncoderExecutionStatus);
    MTL::CommandBuffer *cmd = c->queue->commandBuffer(d);
    d->release();
    gpl_mtl_batch_start(&c->batch, op, level, c->next_serial);
    gpulayer_status st = GPULAYER_OK;
    if (!cmd) {
        st = gpl_error(GPULAYER_ERR_DEVICE,
                       "metal backend: %s at level %d: no command buffer on '%s'", op, level,
                       c->caps.name);
    } else {
        c->cmd = cmd->retain();
        c->next_serial++;
        st = open_compute(c);
        if (st != GPULAYER_OK) gpl_mtl_abandon(c);
    }
    arp->release();
    return st;
}

// Replaces binding 1 of the test fault's operation with a discarded buffer.
static void inject_fault(gpl_mtl_context *c)
{
    MTL::Buffer *gone = c->device->newBuffer(4096, MTL::ResourceStorageModeShared);
    if (!gone) return;
    gone->setPurgeableState(MTL::PurgeableStateEmpty);
    c->compute->setBuffer(gone, 0, 1);
    gone->release(); // the command buffer retains what it references
}

extern "C" gpulayer_status gpl_mtl_dispatch(gpl_mtl_context *c, gpl_mtl_kernel k,
                                            const gpl_mtl_bind *bind, const void *push,
                                            uint32_t groups)
{
    if (!c->cmd)
        return gpl_error(GPULAYER_ERR_INTERNAL, "metal backend: dispatch outside a batch");
    const gpl_mtl_kernel_info *info = &gpl_mtl_kernel_table[k];
    NS::AutoreleasePool *arp = NS::AutoreleasePool::alloc()->init();
    MTL::ComputePipelineState *p = nullptr;
    gpulayer_status st = gpl_mtl_pipeline_get(c, k, &p);
    if (st == GPULAYER_OK) st = open_compute(c);
    if (st == GPULAYER_OK) {
        gpl_mtl_batch_note_kernel(&c->batch, info->name);
        c->compute->setComputePipelineState(p);
        c->compute->setBytes(push, info->push_bytes, 0);
        for (uint32_t i = 0; i < info->bindings; i++) {
            c->compute->setBuffer(static_cast<MTL::Buffer *>(bind[i].buf->block.handle),
                                  bind[i].offset, i + 1);
            bind[i].buf->last_use = c->batch.serial;
        }
        const char *fault = test_fault_op();
        if (fault && !std::strcmp(fault, c->batch.op)) inject_fault(c);
        c->compute->dispatchThreadgroups(MTL::Size(groups < 1 ? 1 : groups, 1, 1),
                                         MTL::Size(GPL_MTL_WG, 1, 1));
    } else {
        gpl_mtl_abandon(c);
    }
    arp->release();
    return st;
}

extern "C" void gpl_mtl_barrier(gpl_mtl_context *c)
{
    if (c->compute) c->compute->memoryBarrier(MTL::BarrierScopeBuffers);
}

extern "C" gpulayer_status gpl_mtl_copy(gpl_mtl_context *c, gpl_mtl_buf *src, size_t src_offset,
                                        gpl_mtl_buf *dst, size_t dst_offset, size_t bytes)
{
    if (!c->cmd)
        return gpl_error(GPULAYER_ERR_INTERNAL, "metal backend: copy outside a batch");
    if (bytes == 0) return GPULAYER_OK;
    NS::AutoreleasePool *arp = NS::AutoreleasePool::alloc()->init();
    // A blit encoder of its own; Metal orders it after the compute work on
    // the same (tracked) buffers, and the next dispatch opens a new one.
    end_compute(c);
    MTL::BlitCommandEncoder *blit = c->cmd->blitCommandEncoder();
    gpulayer_status st = GPULAYER_OK;
    if (!blit) {
        st = gpl_error(GPULAYER_ERR_DEVICE, "metal backend: %s: no blit encoder on '%s'",
                       c->batch.op, c->caps.name);
        gpl_mtl_abandon(c);
    } else {
        blit->copyFromBuffer(static_cast<MTL::Buffer *>(src->block.handle), src_offset,
                             static_cast<MTL::Buffer *>(dst->block.handle), dst_offset, bytes);
        blit->endEncoding();
        src->last_use = dst->last_use = c->batch.serial;
        gpl_mtl_batch_note_kernel(&c->batch, "blit_copy");
    }
    arp->release();
    return st;
}

extern "C" void gpl_mtl_abandon(gpl_mtl_context *c)
{
    if (!c->cmd) return;
    end_compute(c);
    c->cmd->release(); // never committed: Metal drops it
    c->cmd = nullptr;
    // Its serial will never complete by itself; buffers bound in it are
    // not in use by the device.
    gpl_mtl_mark_done(c, c->batch.serial);
}

// Waits for the oldest batch in flight and checks its outcome.
static void wait_oldest(gpl_mtl_context *c)
{
    gpl_mtl_inflight *f = &c->inflight[c->inflight_head];
    f->cmd->waitUntilCompleted();
    record_outcome(c, f->cmd, &f->info);
    f->cmd->release();
    f->cmd = nullptr;
    c->inflight_head = (c->inflight_head + 1) % GPL_MTL_INFLIGHT;
    c->inflight_count--;
}

extern "C" gpulayer_status gpl_mtl_finish(gpl_mtl_context *c)
{
    NS::AutoreleasePool *arp = NS::AutoreleasePool::alloc()->init();
    while (c->inflight_count > 0) wait_oldest(c);
    arp->release();
    return gpl_mtl_fault_check(&c->fault);
}

extern "C" gpulayer_status gpl_mtl_commit(gpl_mtl_context *c, int wait)
{
    if (!c->cmd)
        return gpl_error(GPULAYER_ERR_INTERNAL, "metal backend: commit outside a batch");
    NS::AutoreleasePool *arp = NS::AutoreleasePool::alloc()->init();
    end_compute(c);
    if (c->inflight_count == GPL_MTL_INFLIGHT) wait_oldest(c);
    MTL::CommandBuffer *cmd = c->cmd;
    c->cmd = nullptr;
    const gpl_mtl_batch_info info = c->batch;
    gpl_mtl_context *ctx = c;
    // Runs on a Metal thread once the GPU is done with the batch, whether
    // it succeeded or not: only then may its buffers be reused.
    cmd->addCompletedHandler([ctx, info](MTL::CommandBuffer *done) {
        record_outcome(ctx, done, &info);
        gpl_mtl_mark_done(ctx, info.serial);
    });
    cmd->commit();
    const int slot = (c->inflight_head + c->inflight_count) % GPL_MTL_INFLIGHT;
    c->inflight[slot].cmd = cmd; // the reference taken in gpl_mtl_begin
    c->inflight[slot].info = info;
    c->inflight_count++;
    arp->release();
    return wait ? gpl_mtl_finish(c) : gpl_mtl_fault_check(&c->fault);
}

extern "C" uint32_t gpl_mtl_groups_for(const gpl_mtl_context *c, uint64_t items)
{
    (void)c;
    uint64_t g = (items + GPL_MTL_WG - 1) / GPL_MTL_WG;
    if (g < 1) g = 1;
    // Metal's grid limit is far above this; the kernels loop (grid-stride),
    // so more groups than a GPU can run at once buy nothing.
    if (g > GPL_MTL_MAX_GROUPS) g = GPL_MTL_MAX_GROUPS;
    return static_cast<uint32_t>(g);
}
