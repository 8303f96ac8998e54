// metal_context.hpp -- the MetalContext's members, shared by the host's
// C++ files only (metal_host.h keeps it opaque to everything else).
#ifndef GPL_METAL_CONTEXT_HPP
#define GPL_METAL_CONTEXT_HPP

#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include "metal_fault.h"
#include "metal_host.h"

// Command buffers committed and not yet waited for. A ring: committing
// into a full ring first waits for its oldest entry.
#define GPL_MTL_INFLIGHT 8

struct gpl_mtl_inflight {
    MTL::CommandBuffer *cmd;      // retained until waited for
    gpl_mtl_batch_info info;
};

struct gpl_mtl_context {
    MTL::Device *device;
    MTL::CommandQueue *queue;
    MTL::Library *library;
    gpl_mtl_caps caps;
    int verbose;

    gpl_mtl_pool *pool;
    gpl_mtl_registry *registry;
    gpl_mtl_fault fault;

    // The batch being encoded.
    MTL::CommandBuffer *cmd;      // NULL: none open
    MTL::ComputeCommandEncoder *compute;
    gpl_mtl_batch_info batch;
    uint64_t next_serial;         // serial of the next batch (from 1)

    gpl_mtl_inflight inflight[GPL_MTL_INFLIGHT];
    int inflight_head, inflight_count;

    // Completion bookkeeping, written by completion handlers: every batch
    // up to `completed` is done; done_flags marks later ones that finished
    // out of order (bit serial % 64), so the pool never sees a mark that
    // skips a batch still running.
    pthread_mutex_t done_lock;
    uint64_t completed;
    uint64_t done_flags;
};

// metal_context.cpp: a batch's serial is done (completed, failed or never
// submitted); advances the completion mark and tells the pool.
void gpl_mtl_mark_done(gpl_mtl_context *c, uint64_t serial);

// metal_pipeline.cpp: the cached pipeline of kernel k, built on first use.
gpulayer_status gpl_mtl_pipeline_get(gpl_mtl_context *c, gpl_mtl_kernel k,
                                     MTL::ComputePipelineState **out);
void gpl_mtl_pipeline_destroy_cb(void *user, void *pipeline);

// metal_buffer.cpp: the pool's device callbacks.
void *gpl_mtl_buffer_make(void *user, size_t bytes, gpl_mtl_storage storage);
void gpl_mtl_buffer_free(void *user, void *handle);

// metal_library.cpp: the embedded metallib as a library of the device.
gpulayer_status gpl_mtl_library_load(gpl_mtl_context *c);

// An NS::String's text, or a fallback.
const char *gpl_mtl_text(NS::String *s, const char *fallback);

#endif
