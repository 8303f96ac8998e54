// metal_caps.cpp -- a device's capabilities by Metal's own queries (GPU
// family, threadgroup memory, limits), never by chip name. Used by the
// backend and by the device layer's probe, so both report the same.
#include <cstdio>
#include <cstring>

#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>

#include "metal_caps.h"

extern "C" void gpl_mtl_caps_query(void *device, gpl_mtl_caps *caps)
{
    std::memset(caps, 0, sizeof *caps);
    MTL::Device *dev = static_cast<MTL::Device *>(device);
    if (!dev) return;
    NS::String *name = dev->name();
    std::snprintf(caps->name, sizeof caps->name, "%s",
                  name && name->utf8String() ? name->utf8String() : "Apple GPU");
    // metal-cpp's supportsFamily returns false where the selector does not
    // exist (older systems), so no version check is needed here. Families
    // by value, so that an older metal-cpp still names newer ones.
    for (int n = 1; n <= 9; n++)
        if (dev->supportsFamily(static_cast<MTL::GPUFamily>(1000 + n))) caps->apple_family = n;
    caps->mac2 = dev->supportsFamily(MTL::GPUFamilyMac2);
    caps->metal3 = dev->supportsFamily(MTL::GPUFamilyMetal3);
    caps->unified_memory = dev->hasUnifiedMemory();
    caps->max_threadgroup_memory = dev->maxThreadgroupMemoryLength();
    caps->max_threads_per_group = dev->maxThreadsPerThreadgroup().width;
    caps->max_buffer_length = dev->maxBufferLength();
    caps->working_set_bytes = dev->recommendedMaxWorkingSetSize();
}
