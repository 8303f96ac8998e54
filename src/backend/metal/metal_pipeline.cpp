// metal_pipeline.cpp -- pipelines for the PipelineRegistry (metal_registry.c
// caches them by kernel, function constants and ABI version): the kernel's
// function specialized with the workgroup size (function constant 0), then
// a compute pipeline state, checked to run threadgroups of that size.
#include "metal_context.hpp"

extern "C" {
#include "error.h"
}

void gpl_mtl_pipeline_destroy_cb(void *user, void *pipeline)
{
    (void)user;
    static_cast<MTL::ComputePipelineState *>(pipeline)->release();
}

static gpulayer_status build(gpl_mtl_context *c, gpl_mtl_kernel k,
                             MTL::ComputePipelineState **out)
{
    const char *name = gpl_mtl_kernel_table[k].name;
    MTL::FunctionConstantValues *values = MTL::FunctionConstantValues::alloc()->init();
    const uint32_t wg = GPL_MTL_WG;
    values->setConstantValue(&wg, MTL::DataTypeUInt, NS::UInteger(0));
    NS::Error *err = nullptr;
    MTL::Function *fn =
        c->library->newFunction(NS::String::string(name, NS::UTF8StringEncoding), values, &err);
    values->release();
    if (!fn)
        return gpl_error(GPULAYER_ERR_DEVICE,
                         "metal backend: specializing kernel '%s' failed: %s", name,
                         err ? gpl_mtl_text(err->localizedDescription(), "no reason given")
                             : "no reason given");
    MTL::ComputePipelineState *p = c->device->newComputePipelineState(fn, &err);
    fn->release();
    if (!p)
        return gpl_error(GPULAYER_ERR_DEVICE,
                         "metal backend: building kernel '%s' on '%s' failed: %s", name,
                         c->caps.name,
                         err ? gpl_mtl_text(err->localizedDescription(), "no reason given")
                             : "no reason given");
    // A pipeline's limit can be below the device's (register pressure);
    // the kernels assume whole workgroups of GPL_MTL_WG threads.
    if (p->maxTotalThreadsPerThreadgroup() < GPL_MTL_WG) {
        const unsigned long got = static_cast<unsigned long>(p->maxTotalThreadsPerThreadgroup());
        p->release();
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "metal backend: kernel '%s' runs at most %lu threads a threadgroup "
                         "on '%s'; it needs %u", name, got, c->caps.name, GPL_MTL_WG);
    }
    *out = p;
    return GPULAYER_OK;
}

gpulayer_status gpl_mtl_pipeline_get(gpl_mtl_context *c, gpl_mtl_kernel k,
                                     MTL::ComputePipelineState **out)
{
    const gpl_mtl_pipeline_key key = {static_cast<int32_t>(k), GPL_MTL_WG, GPL_MTL_SHARED_BINS,
                                      GPL_MTL_KERNEL_ABI};
    void *cached = gpl_mtl_registry_find(c->registry, &key);
    if (cached) {
        *out = static_cast<MTL::ComputePipelineState *>(cached);
        return GPULAYER_OK;
    }
    MTL::ComputePipelineState *p = nullptr;
    GPL_CHECK(build(c, k, &p));
    gpulayer_status st = gpl_mtl_registry_insert(c->registry, &key, p);
    if (st != GPULAYER_OK) {
        p->release();
        return st;
    }
    *out = p;
    return GPULAYER_OK;
}
