/*
 * probe_metal.m -- the Apple GPU through Metal (accelerator "mps").
 *
 * Compiled only on Apple platforms (src/device/CMakeLists.txt). Metal is
 * loaded with dlopen like every other runtime, so the probe starts even
 * where the framework is absent; the Metal headers are used only for the
 * protocol's declarations, and every call goes through the Objective-C
 * runtime on the object MTLCreateSystemDefaultDevice returns.
 *
 * Reported as ADR 0001 says: memory_kind=unified, memory_bytes = host RAM
 * (never presented as dedicated VRAM), usable_bytes = the recommended
 * working set, capabilities from the runtime's own GPU family queries.
 */
#if defined(__APPLE__)
#import <Foundation/Foundation.h>
#import <Metal/Metal.h>
#include <dlfcn.h>
#include <string.h>
#include <sys/sysctl.h>

#include "probe_out.h"

typedef id<MTLDevice> (*create_device_fn)(void);

static uint64_t host_memory(void)
{
    uint64_t bytes = 0;
    size_t len = sizeof bytes;
    return sysctlbyname("hw.memsize", &bytes, &len, NULL, 0) == 0 ? bytes : 0;
}

#ifdef GPL_PROBE_METAL_CAPS
/* The Metal backend's own capability code (src/backend/metal/metal_caps.h),
 * so that discovery, `gpulayer diagnose` and the backend's checks agree. */
#include "metal_caps.h"

static void add_families(id<MTLDevice> dev, cJSON *d)
{
    gpl_mtl_caps caps;
    gpl_mtl_caps_query((__bridge void *)dev, &caps);
    char names[16][32];
    int n = gpl_mtl_caps_names(&caps, names, 16);
    for (int i = 0; i < n; i++) probe_device_cap(d, names[i]);
    probe_device_prop(d, "max_threads_per_threadgroup", "%llu",
                      (unsigned long long)caps.max_threads_per_group);
    probe_device_prop(d, "max_buffer_length", "%llu",
                      (unsigned long long)caps.max_buffer_length);
}
#else
/* GPU families by their MTLGPUFamily values, so that an older SDK still
 * compiles and a newer family is simply not reported. */
static void add_families(id<MTLDevice> dev, cJSON *d)
{
    if (![dev respondsToSelector:@selector(supportsFamily:)]) return;
    for (int n = 1; n <= 9; n++)
        if ([dev supportsFamily:(MTLGPUFamily)(1000 + n)]) {
            char cap[32];
            snprintf(cap, sizeof cap, "metal.apple%d", n);
            probe_device_cap(d, cap);
        }
    if ([dev supportsFamily:(MTLGPUFamily)2002]) probe_device_cap(d, "metal.mac2");
    int metal3 = [dev supportsFamily:(MTLGPUFamily)5001];
    if (metal3) probe_device_cap(d, "metal.metal3");
    /* Atomic float add in device memory: Apple7 and Metal 3 GPUs. */
    if (metal3 || [dev supportsFamily:(MTLGPUFamily)1007])
        probe_device_cap(d, "metal.float_atomics");
}
#endif

void probe_metal(probe_out *o)
{
    void *lib = dlopen("/System/Library/Frameworks/Metal.framework/Metal", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        probe_out_note(o, "library_not_found", "Metal.framework could not be loaded (%s)",
                       dlerror());
        return;
    }
    create_device_fn create = NULL;
    void *sym = dlsym(lib, "MTLCreateSystemDefaultDevice");
    memcpy(&create, &sym, sizeof sym);
    if (!create) {
        probe_out_note(o, "runtime_unavailable",
                       "Metal.framework has no MTLCreateSystemDefaultDevice");
        return;
    }
    @autoreleasepool {
        id<MTLDevice> dev = create();
        if (!dev) {
            probe_out_note(o, "no_metal_device",
                           "Metal is present but offers no device object "
                           "(MTLCreateSystemDefaultDevice returned nil): typical in a "
                           "VM, sandbox, container or CI runner without GPU access");
            return;
        }
        uint64_t ram = host_memory();
        int unified = [dev respondsToSelector:@selector(hasUnifiedMemory)] ? dev.hasUnifiedMemory : 0;
        uint64_t working_set = dev.recommendedMaxWorkingSetSize;
        /* A unified GPU's memory is the host's RAM; a discrete GPU in an
         * Intel Mac has its own, which Metal reports only as the working
         * set. */
        cJSON *d = probe_out_device(o, 0, dev.name.UTF8String, "",
                                    unified ? "unified" : "dedicated",
                                    unified ? ram : working_set, working_set);
        add_families(dev, d);
        probe_device_prop(d, "registry_id", "0x%llx", (unsigned long long)dev.registryID);
        probe_device_prop(d, "max_threadgroup_memory", "%lu",
                          (unsigned long)dev.maxThreadgroupMemoryLength);
        probe_device_prop(d, "low_power", "%s", dev.lowPower ? "true" : "false");
    }
}
#endif
