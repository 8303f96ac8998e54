/* metal_caps.h -- what a Metal device can do, by the runtime's own
 * queries (GPU family, threadgroup memory, limits), never by chip name.
 * gpl_mtl_caps_query (metal_caps.cpp, Apple only) fills the record from a
 * device; the rest is plain C. The backend (metal_context.cpp), the device
 * layer's probe (src/device/probe/probe_metal.m) and so `gpulayer
 * diagnose` all use this same code. */
#ifndef GPL_METAL_CAPS_H
#define GPL_METAL_CAPS_H

#include <stddef.h>
#include <stdint.h>

#include "gpulayer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gpl_mtl_caps {
    char name[128];
    int apple_family;                 /* highest N of MTLGPUFamilyAppleN; 0: none */
    int mac2;                         /* MTLGPUFamilyMac2                         */
    int metal3;                       /* MTLGPUFamilyMetal3                       */
    int unified_memory;               /* hasUnifiedMemory                         */
    uint64_t max_threadgroup_memory;  /* maxThreadgroupMemoryLength (bytes)       */
    uint64_t max_threads_per_group;   /* maxThreadsPerThreadgroup.width           */
    uint64_t max_buffer_length;       /* maxBufferLength                          */
    uint64_t working_set_bytes;       /* recommendedMaxWorkingSetSize             */
} gpl_mtl_caps;

/* Fills caps from an MTL::Device* (or an id<MTLDevice>, bridged). */
void gpl_mtl_caps_query(void *device, gpl_mtl_caps *caps);

/* Threadgroup memory the kernels need at most: the histogram's chunk of
 * 1024 bins of 16 bytes. */
#define GPL_MTL_MIN_THREADGROUP_MEMORY ((uint64_t)16384)

/* 32-bit integer atomics on device and threadgroup memory (what the
 * histogram kernels use) come with every family the backend accepts;
 * float atomics in device memory with Apple7 and Metal3. */
int gpl_mtl_caps_float_atomics(const gpl_mtl_caps *caps);

/* GPULAYER_OK when the backend can run on the device; otherwise
 * GPULAYER_ERR_UNSUPPORTED with a message naming what is missing. */
gpulayer_status gpl_mtl_caps_check(const gpl_mtl_caps *caps);
/* The capability names the device layer reports ("metal.apple7",
 * "metal.metal3", "metal.float_atomics", ...), written to names[0..max);
 * returns how many. Each name lives in buf (at least 32 bytes a name). */
int gpl_mtl_caps_names(const gpl_mtl_caps *caps, char (*names)[32], int max);

#ifdef __cplusplus
}
#endif

#endif
