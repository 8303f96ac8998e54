/* vk_tuning.h -- the Vulkan backend's tuning: every choice that shapes its
 * work besides the device's limits, read once when a backend is created
 * (vk_tuning_read) and rendered as a stable key (vk_tuning_key) for
 * anything cached by tuning. docs/vulkan.md lists the environment
 * variables; the values chosen by measurement (docs/benchmarks.md) are the
 * defaults and are not switches. */
#ifndef GPL_VK_TUNING_H
#define GPL_VK_TUNING_H

#include <stddef.h>
#include <stdint.h>

typedef struct vk_tuning {
    /* Workgroup sizes wanted (powers of two; lowered to what the device
     * allows): the kernels in general, histogram_rows, split_eval_level,
     * the partition. */
    uint32_t wg, hist_wg, split_wg, part_wg;
    /* A node's histogram gets a workgroup (a partial) for every
     * rows_per_partial of its rows, at most node_partials; the partials of
     * a wave stay within partial_budget bytes. */
    uint32_t rows_per_partial, node_partials;
    uint64_t partial_budget;
    /* GPULAYER_VULKAN_KERNELS=metal: the dispatches of the Metal host
     * where they differ (the partition in partition_rows, not behind the
     * split search) and its numbers (workgroups of 256, a partial every
     * 256 rows, 64 a node), so that the plan it issues is checked where
     * there is no Mac; the rest follows the level plan on both hosts. */
    int metal_kernels;
    /* GPULAYER_VULKAN_SOFT_F64=1: the float64-free kernels on any device
     * (a device without shaderFloat64 gets them anyway). */
    int soft_f64;
    /* GPULAYER_VULKAN_PROFILE=1: device timestamps and a report (vk_profile.c). */
    int profile;
    /* GPULAYER_VULKAN_TEST_LIMITS=RANGE,GROUPS,STAGED: the device made to
     * look smaller (maxStorageBufferRange, workgroups a dimension; 0: as
     * it is) and, with STAGED=1, data moved as on a discrete GPU. For the
     * conformance tests. */
    uint64_t test_range;
    uint32_t test_groups;
    int test_staged;
} vk_tuning;

/* The defaults, then the environment. */
void vk_tuning_read(vk_tuning *t);
/* The tuning as "key=value;..." in a fixed order (every member, nothing
 * else), for a cache of anything tuning shapes; returns what snprintf
 * returns. */
int vk_tuning_key(const vk_tuning *t, char *out, size_t size);

#endif
