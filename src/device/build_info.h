/*
 * build_info.h -- what this build of the library ships, and what that means
 * for each discovered device.
 *
 * A device can exist and still be unusable by this library: its backend may
 * not be compiled in, the driver may be older than the shipped kernels need,
 * or the device may lack a feature the kernels use. Placement for any
 * program ignores this; placement for the trainer requires it.
 */
#ifndef GPL_BUILD_INFO_H
#define GPL_BUILD_INFO_H

#include "device.h"

#define GPL_MAX_REQUIRED_CAPS 4
#define GPL_MAX_CUDA_ARCHS 16

typedef struct gpl_build_info {
    int built[GPL_RT_COUNT];  /* the backend is compiled into the library   */
    int cuda_min_driver;      /* as cuDriverGetVersion reports: 12000 = 12.0 */
    /* The CUDA kernels' architectures, 10*major+minor each: SASS runs on
     * devices of the same major and the same or a newer minor; PTX is
     * compiled by the driver for the same or any newer architecture. */
    int cuda_sass[GPL_MAX_CUDA_ARCHS];
    int num_cuda_sass;
    int cuda_ptx[GPL_MAX_CUDA_ARCHS];
    int num_cuda_ptx;
    /* Capabilities the Vulkan backend's kernels use (NULL-terminated). */
    const char *vulkan_required[GPL_MAX_REQUIRED_CAPS + 1];
    const char *metal_required_family; /* e.g. "metal.apple7" */
} gpl_build_info;

/* The facts of this build (gpl_backend_is_built and the CUDA/Metal/Vulkan
 * requirements set by the build system). */
void gpl_build_info_current(gpl_build_info *out);

/* Sets backend_built, backend_available and backend_reason on every device
 * of runtime rt in d, and adds the notes that follow: driver too old,
 * missing GPU family, backend built but unavailable. */
gpulayer_status gpl_build_apply(const gpl_build_info *b, gpl_runtime rt,
                                gpl_discovery *d);

/* Fills b's CUDA architectures from a CMAKE_CUDA_ARCHITECTURES list,
 * "75-real;90-real;90-virtual" or "80,90" (both SASS and PTX). Entries it
 * cannot read ("native", "all") are skipped. */
void gpl_build_set_cuda_archs(gpl_build_info *b, const char *list);

/* Whether the kernels can run on compute capability cc (10*major+minor):
 * a SASS image of its major no newer than it, or PTX no newer than it. A
 * build whose architectures are unknown covers every device. */
int gpl_build_covers_cuda(const gpl_build_info *b, int cc);

/* "sm_75 sm_80 sm_90 (SASS), compute_90 (PTX)", or "unknown". */
void gpl_build_cuda_archs_text(const gpl_build_info *b, char *buf, size_t size);

/* "12.8" from 12080. */
void gpl_cuda_version_text(int version, char *buf, size_t size);

#endif
