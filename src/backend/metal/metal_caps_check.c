/* metal_caps_check.c -- the Metal backend's requirements on a device and
 * the capability names the device layer reports, from a gpl_mtl_caps
 * record (metal_caps.h). No Metal call: the record is filled elsewhere. */
#include <stdio.h>

#include "error.h"
#include "metal_caps.h"
#include "metal_registry.h"

gpulayer_status gpl_mtl_caps_check(const gpl_mtl_caps *c)
{
    /* Apple7 (M1, A14) or any Metal 3 GPU: the families whose atomics,
     * threadgroup sizes and MSL versions the translated kernels are built
     * for (-std=metal3.0 needs Metal 3 or Apple7+). */
    if (c->apple_family < 7 && !c->metal3)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "metal backend: device '%s' is in GPU family Apple%d without Metal 3; "
                         "the kernels need Apple7 or later, or Metal 3",
                         c->name, c->apple_family);
    if (c->max_threadgroup_memory < GPL_MTL_MIN_THREADGROUP_MEMORY)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "metal backend: device '%s' has %llu bytes of threadgroup memory; the "
                         "histogram kernel needs %llu",
                         c->name, (unsigned long long)c->max_threadgroup_memory,
                         (unsigned long long)GPL_MTL_MIN_THREADGROUP_MEMORY);
    if (c->max_threads_per_group < GPL_MTL_WG)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "metal backend: device '%s' allows %llu threads a threadgroup; the "
                         "kernels need %u",
                         c->name, (unsigned long long)c->max_threads_per_group, GPL_MTL_WG);
    return GPULAYER_OK;
}
