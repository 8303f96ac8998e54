/* vk_tuning.c -- the Vulkan backend's tuning (vk_tuning.h). */
#include "vk_tuning.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Measured on an H200 (docs/benchmarks.md): histogram_rows in workgroups
 * of 1024 took less than half the time of 256 (a workgroup's histogram
 * takes the same shared memory whatever its size, so larger workgroups
 * leave more of a multiprocessor's memory to its L1 cache and have more
 * rows in flight); the level's split search in 512 was 9% faster than in
 * 256, the partition in 512 12% slower than in 256. */
#define VK_TUNING_WG 256u
#define VK_TUNING_HIST_WG 1024u
#define VK_TUNING_SPLIT_WG 512u
#define VK_TUNING_PART_WG 256u
/* Enough workgroups to fill a large GPU at the root, few enough that
 * writing and adding the partials (a whole histogram each) stays small
 * against reading the rows at every level; 8192 and 16384 rows a partial
 * measured the same as 4096, and 512 or 768 partials a node the same as
 * 2048. */
#define VK_TUNING_ROWS_PER_PARTIAL 4096u
#define VK_TUNING_NODE_PARTIALS 2048u
#define VK_TUNING_PARTIAL_BUDGET ((uint64_t)64 << 20)

/* GPULAYER_VULKAN_KERNELS=metal plans with the Metal host's numbers
 * (metal_registry.h, metal_tuning.c; a backend may not include another's
 * headers): threadgroups of 256 for every kernel, a partial for every
 * threadgroup's worth of a node's rows, at most 64 a node. */
#define VK_TUNING_METAL_WG 256u
#define VK_TUNING_METAL_NODE_PARTIALS 64u

static int env_is(const char *name, const char *value)
{
    const char *v = getenv(name);
    return v && !strcmp(v, value);
}

void vk_tuning_read(vk_tuning *t)
{
    memset(t, 0, sizeof *t);
    t->wg = VK_TUNING_WG;
    t->hist_wg = VK_TUNING_HIST_WG;
    t->split_wg = VK_TUNING_SPLIT_WG;
    t->part_wg = VK_TUNING_PART_WG;
    t->rows_per_partial = VK_TUNING_ROWS_PER_PARTIAL;
    t->node_partials = VK_TUNING_NODE_PARTIALS;
    t->partial_budget = VK_TUNING_PARTIAL_BUDGET;
    t->metal_kernels = env_is("GPULAYER_VULKAN_KERNELS", "metal");
    if (t->metal_kernels) {
        t->wg = t->hist_wg = t->split_wg = t->part_wg = VK_TUNING_METAL_WG;
        t->rows_per_partial = VK_TUNING_METAL_WG;
        t->node_partials = VK_TUNING_METAL_NODE_PARTIALS;
    }
    t->soft_f64 = env_is("GPULAYER_VULKAN_SOFT_F64", "1");
    const char *p = getenv("GPULAYER_VULKAN_PROFILE");
    t->profile = p && *p && strcmp(p, "0") != 0;
    const char *l = getenv("GPULAYER_VULKAN_TEST_LIMITS");
    unsigned long long range = 0;
    unsigned groups = 0;
    int staged = 0;
    if (l && sscanf(l, "%llu,%u,%d", &range, &groups, &staged) == 3) {
        t->test_range = range;
        t->test_groups = groups;
        t->test_staged = staged != 0;
    }
}

int vk_tuning_key(const vk_tuning *t, char *out, size_t size)
{
    return snprintf(out, size,
                    "wg=%u;hist_wg=%u;split_wg=%u;part_wg=%u;rows_per_partial=%u;"
                    "node_partials=%u;partial_budget=%" PRIu64 ";kernels=%s;soft_f64=%d;"
                    "profile=%d;test_limits=%" PRIu64 ",%u,%d",
                    t->wg, t->hist_wg, t->split_wg, t->part_wg, t->rows_per_partial,
                    t->node_partials, t->partial_budget, t->metal_kernels ? "metal" : "vulkan",
                    t->soft_f64, t->profile, t->test_range, t->test_groups, t->test_staged);
}
