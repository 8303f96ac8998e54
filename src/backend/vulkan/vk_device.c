/* vk_device.c -- the process's instance (made in vk_api.c), physical device
 * choice and capability checks, logical device, queue and the objects every
 * batch reuses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "vk_context.h"

/* The most storage buffers a kernel binds (vk_pipeline.c's table). */
#define VK_BINDINGS_PER_SET VK_MAX_BINDINGS

static const char *type_name(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU (software)";
    default: return "other";
    }
}

static gpulayer_status open_instance(vk_context *c)
{
    if (!gpl_vk_api_open(&c->api)) return GPULAYER_ERR_DEVICE;
    c->instance = c->api.instance;
    return GPULAYER_OK;
}

/* The device the index names, in the loader's enumeration order (the
 * order of the device layer's Vulkan probe). */
static gpulayer_status pick_device(vk_context *c, int32_t index)
{
    uint32_t n = 0;
    VkResult r = c->api.vkEnumeratePhysicalDevices(c->instance, &n, NULL);
    if (r != VK_SUCCESS || n == 0)
        return gpl_error(GPULAYER_ERR_DEVICE, "vulkan backend: no Vulkan device (%s)",
                         r != VK_SUCCESS ? gpl_vk_result_name(r) : "none enumerated");
    if (index < 0 || (uint32_t)index >= n)
        return gpl_error(GPULAYER_ERR_DEVICE,
                         "vulkan backend: device %d does not exist (%u Vulkan devices)",
                         index, n);
    VkPhysicalDevice *all = malloc(sizeof *all * n);
    if (!all) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "vulkan backend: out of memory");
    r = c->api.vkEnumeratePhysicalDevices(c->instance, &n, all);
    c->physical = (uint32_t)index < n ? all[index] : VK_NULL_HANDLE;
    free(all);
    if ((r != VK_SUCCESS && r != VK_INCOMPLETE) || !c->physical)
        return gpl_error(GPULAYER_ERR_DEVICE, "vulkan backend: device %d vanished", index);
    return GPULAYER_OK;
}

/* Gradients and split gains are float64 on the device: in hardware where
 * the device has shaderFloat64, else (or with GPULAYER_VULKAN_SOFT_F64=1)
 * in the soft variants, binary64 on 64-bit integers with the same bits.
 * Either way int64 is needed; a device without it is refused rather than
 * served by host code presented as device work. */
/* A kernel's workgroup size: the power of two `want` (the tuning's),
 * lowered to what the device allows and, with shared_per_invocation, to
 * what fits 32 KiB of shared memory. */
/* split_eval.comp's shared memory besides its WG candidates: the tables
 * of a categorical feature's categories (c_ratio, c_ok, c_bin, c_prefix,
 * c_back, c_set, c_tried, c_count). */
#define VK_SPLIT_SHARED_FIXED 11400u

static uint32_t kernel_wg_choice(const VkPhysicalDeviceLimits *l, uint32_t want,
                                 uint32_t shared_per_invocation, uint32_t shared_fixed)
{
    const uint64_t shared = l->maxComputeSharedMemorySize < 32768 ? l->maxComputeSharedMemorySize
                                                                   : 32768;
    while (want > 32 && (want > l->maxComputeWorkGroupInvocations ||
                         want > l->maxComputeWorkGroupSize[0] ||
                         (uint64_t)want * shared_per_invocation + shared_fixed > shared))
        want >>= 1;
    return want;
}

static gpulayer_status check_capabilities(vk_context *c)
{
    VkPhysicalDeviceProperties p;
    VkPhysicalDeviceFeatures f;
    c->api.vkGetPhysicalDeviceProperties(c->physical, &p);
    c->api.vkGetPhysicalDeviceFeatures(c->physical, &f);
    snprintf(c->dev.device_name, sizeof c->dev.device_name, "%s", p.deviceName);
    c->dev.device_type = p.deviceType;
    if (!f.shaderInt64)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "vulkan backend: device '%s' lacks shaderInt64: the kernels need "
                         "int64 (see docs/vulkan.md)", p.deviceName);
    c->dev.soft_f64 = !f.shaderFloat64 || c->tuning.soft_f64;
    const VkPhysicalDeviceLimits *l = &p.limits;
    if (p.apiVersion < VK_API_VERSION_1_1)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "vulkan backend: device '%s' supports Vulkan %u.%u; 1.1 is needed",
                         p.deviceName, VK_API_VERSION_MAJOR(p.apiVersion),
                         VK_API_VERSION_MINOR(p.apiVersion));
    /* The windowed kernels (window.glsl) bind up to VK_MAX_BINDINGS storage
     * buffers at once. */
    if (l->maxPerStageDescriptorStorageBuffers < VK_MAX_BINDINGS ||
        l->maxDescriptorSetStorageBuffers < VK_MAX_BINDINGS)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "vulkan backend: device '%s' binds at most %u storage buffers a "
                         "stage (%u a set); the kernels need %u", p.deviceName,
                         l->maxPerStageDescriptorStorageBuffers,
                         l->maxDescriptorSetStorageBuffers, VK_MAX_BINDINGS);
    c->dev.max_range = l->maxStorageBufferRange;
    c->dev.align = l->minStorageBufferOffsetAlignment < 4 ? 4 : l->minStorageBufferOffsetAlignment;
    c->dev.max_groups = l->maxComputeWorkGroupCount[0];
    /* The largest power of two up to the tuning's (256) the device
     * allows: the kernels' shared-memory trees and scans need a power of
     * two. */
    uint32_t wg = c->tuning.wg;
    while (wg > l->maxComputeWorkGroupInvocations || wg > l->maxComputeWorkGroupSize[0])
        wg >>= 1;
    c->dev.wg = wg;
    /* histogram_rows, the level's split search and the partition: the
     * tuning's sizes (vk_tuning.c says why). The search and the partition
     * keep 36-40 bytes of shared memory an invocation: at most 512 within
     * 32 KiB. */
    c->dev.hist_wg = kernel_wg_choice(l, c->tuning.hist_wg, 0, 0);
    c->dev.split_wg = kernel_wg_choice(l, c->tuning.split_wg, 40, VK_SPLIT_SHARED_FIXED);
    c->dev.part_wg = kernel_wg_choice(l, c->tuning.part_wg, 40, 0);
    /* 8 bytes a bin, at most 4096 bins (32 KiB, the portable limit). */
    uint32_t bins = (uint32_t)(l->maxComputeSharedMemorySize / 8u);
    c->dev.shared_bins = bins > 4096 ? 4096 : bins;
    /* The split search keeps WG candidates of 40 bytes in shared memory,
     * and the tables of a categorical feature. */
    if (c->dev.shared_bins < 256 ||
        (uint64_t)wg * 40u + VK_SPLIT_SHARED_FIXED > l->maxComputeSharedMemorySize || wg < 32)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "vulkan backend: device '%s' has %u bytes of shared memory and "
                         "workgroups of %u; the kernels need 4096 and 32",
                         p.deviceName, l->maxComputeSharedMemorySize, wg);
    return GPULAYER_OK;
}

static int has_extension(vk_context *c, const char *name)
{
    uint32_t n = 0;
    if (c->api.vkEnumerateDeviceExtensionProperties(c->physical, NULL, &n, NULL) != VK_SUCCESS)
        return 0;
    VkExtensionProperties *e = malloc(sizeof *e * (n ? n : 1));
    if (!e) return 0;
    int found = 0;
    if (c->api.vkEnumerateDeviceExtensionProperties(c->physical, NULL, &n, e) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++) found = !strcmp(e[i].extensionName, name);
    free(e);
    return found;
}

VkDeviceSize vk_device_free_bytes(vk_context *c)
{
    if (!c->dev.memory_budget) return 0;
    VkPhysicalDeviceMemoryBudgetPropertiesEXT budget = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT};
    VkPhysicalDeviceMemoryProperties2 mp = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2, .pNext = &budget};
    c->api.vkGetPhysicalDeviceMemoryProperties2(c->physical, &mp);
    const uint32_t h = c->dev.heap_index;
    return budget.heapBudget[h] > budget.heapUsage[h] ? budget.heapBudget[h] - budget.heapUsage[h]
                                                      : 0;
}

/* Host-visible memory where the device shares the host's memory (CPU and
 * integrated devices); device-local memory with staging copies otherwise. */
static void choose_memory(vk_context *c)
{
    VkPhysicalDeviceMemoryProperties mp;
    c->api.vkGetPhysicalDeviceMemoryProperties(c->physical, &mp);
    const VkMemoryPropertyFlags host = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    int unified = c->dev.device_type == VK_PHYSICAL_DEVICE_TYPE_CPU ||
                  c->dev.device_type == VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU;
    c->dev.device_local_type = UINT32_MAX;
    c->dev.host_type = UINT32_MAX;
    for (uint32_t i = 0; i < mp.memoryTypeCount; i++) {
        VkMemoryPropertyFlags fl = mp.memoryTypes[i].propertyFlags;
        if ((fl & host) == host && c->dev.host_type == UINT32_MAX) c->dev.host_type = i;
        if ((fl & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT) && c->dev.device_local_type == UINT32_MAX &&
            (!unified || (fl & host) == host))
            c->dev.device_local_type = i;
    }
    if (c->dev.device_local_type == UINT32_MAX) c->dev.device_local_type = c->dev.host_type;
    c->dev.heap_index = mp.memoryTypes[c->dev.device_local_type].heapIndex;
    c->dev.heap_bytes = mp.memoryHeaps[c->dev.heap_index].size;
    c->dev.memory_budget = has_extension(c, VK_EXT_MEMORY_BUDGET_EXTENSION_NAME);
    VkMemoryPropertyFlags chosen = mp.memoryTypes[c->dev.device_local_type].propertyFlags;
    c->dev.host_visible = (chosen & host) == host;
}

/* GPULAYER_VULKAN_TEST_LIMITS="RANGE,GROUPS,STAGED" makes the device look
 * smaller than it is (maxStorageBufferRange, workgroups a dimension) and,
 * with STAGED=1, moves data through the staging path as on a discrete GPU:
 * the conformance tests reach the split-buffer, grid-stride and staging
 * paths on any device with it. Values can only lower the real limits. */
static void apply_test_limits(vk_context *c)
{
    const uint64_t range = c->tuning.test_range;
    const uint32_t groups = c->tuning.test_groups;
    const int staged = c->tuning.test_staged;
    if (range >= 4096 && range < c->dev.max_range) c->dev.max_range = range / c->dev.align * c->dev.align;
    if (groups >= 1 && groups < c->dev.max_groups) c->dev.max_groups = groups;
    /* Staged uploads then go in several pieces, through both halves. */
    if (staged) {
        c->dev.host_visible = 0;
        c->dev.staging_bytes = 16384;
    }
}

static gpulayer_status create_logical_device(vk_context *c)
{
    uint32_t n = 0;
    c->api.vkGetPhysicalDeviceQueueFamilyProperties(c->physical, &n, NULL);
    VkQueueFamilyProperties *q = malloc(sizeof *q * (n ? n : 1));
    if (!q) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "vulkan backend: out of memory");
    c->api.vkGetPhysicalDeviceQueueFamilyProperties(c->physical, &n, q);
    uint32_t family = UINT32_MAX;
    for (uint32_t i = 0; i < n && family == UINT32_MAX; i++)
        if (q[i].queueFlags & VK_QUEUE_COMPUTE_BIT) family = i;
    free(q);
    if (family == UINT32_MAX)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "vulkan backend: device '%s' has no compute queue", c->dev.device_name);
    c->queue_family = family;
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                  .queueFamilyIndex = family,
                                  .queueCount = 1,
                                  .pQueuePriorities = &priority};
    VkPhysicalDeviceFeatures features = {.shaderFloat64 = c->dev.soft_f64 ? VK_FALSE : VK_TRUE,
                                         .shaderInt64 = VK_TRUE};
    VkDeviceCreateInfo di = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                             .queueCreateInfoCount = 1,
                             .pQueueCreateInfos = &qi,
                             .pEnabledFeatures = &features};
    VkResult r = c->api.vkCreateDevice(c->physical, &di, NULL, &c->device);
    if (r != VK_SUCCESS)
        return gpl_error(r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY
                             ? GPULAYER_ERR_OUT_OF_MEMORY
                             : GPULAYER_ERR_DEVICE,
                         "vulkan backend: vkCreateDevice on '%s' failed (%s)",
                         c->dev.device_name, gpl_vk_result_name(r));
    return GPULAYER_OK;
}

/* The process's idle device where one fits (vk_device_pool.c), else a new
 * one. */
static gpulayer_status create_device(vk_context *c)
{
    const int reused = vk_device_pool_take(c);
    if (!reused) GPL_CHECK(create_logical_device(c));
    if (!gpl_vk_api_load_device(&c->api, c->device)) return GPULAYER_ERR_DEVICE;
    c->api.vkGetDeviceQueue(c->device, c->queue_family, 0, &c->queue);
    if (reused && c->dev.verbose) {
        int built = 0;
        for (int k = 0; k < VK_K_COUNT; k++) built += c->dev.pipelines[k].pipeline != VK_NULL_HANDLE;
        fprintf(stderr, "[gpulayer] vulkan backend: the process's device again, %d kernels "
                        "already built\n", built);
    }
    return GPULAYER_OK;
}

static gpulayer_status create_submission_objects(vk_context *c)
{
    VkCommandPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
                                  .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT,
                                  .queueFamilyIndex = c->queue_family};
    VkResult r = c->api.vkCreateCommandPool(c->device, &pi, NULL, &c->command_pool);
    for (int i = 0; i < VK_FRAMES && r == VK_SUCCESS; i++) {
        vk_frame *f = &c->frames[i];
        VkCommandBufferAllocateInfo alloc_info = {
            .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
            .commandPool = c->command_pool,
            .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
            .commandBufferCount = 1};
        r = c->api.vkAllocateCommandBuffers(c->device, &alloc_info, &f->cmd);
        if (r == VK_SUCCESS) {
            VkFenceCreateInfo fi = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
            r = c->api.vkCreateFence(c->device, &fi, NULL, &f->fence);
        }
        if (r == VK_SUCCESS) {
            VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                         VK_SETS_PER_POOL * VK_BINDINGS_PER_SET};
            VkDescriptorPoolCreateInfo di = {
                .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                .maxSets = VK_SETS_PER_POOL,
                .poolSizeCount = 1,
                .pPoolSizes = &size};
            r = c->api.vkCreateDescriptorPool(c->device, &di, NULL, &f->pool);
        }
    }
    if (r != VK_SUCCESS)
        return gpl_error(GPULAYER_ERR_DEVICE,
                         "vulkan backend: creating command and descriptor pools failed (%s)",
                         gpl_vk_result_name(r));
    return GPULAYER_OK;
}

gpulayer_status vk_device_open(vk_context *c, int32_t device_index)
{
    GPL_CHECK(vk_pipelines_check());
    GPL_CHECK(open_instance(c));
    GPL_CHECK(pick_device(c, device_index));
    GPL_CHECK(check_capabilities(c));
    choose_memory(c);
    c->dev.staging_bytes = VK_STAGING_BYTES;
    apply_test_limits(c);
    c->dev.window_shift = gpl_window_shift_for(c->dev.max_range);
    GPL_CHECK(create_device(c));
    GPL_CHECK(create_submission_objects(c));
    vk_profile_init(c);
    if (c->dev.verbose)
        fprintf(stderr,
                "[gpulayer] vulkan backend: device %d '%s' (%s), %s memory, workgroup %u, "
                "shared histogram %u bins, max storage range %llu bytes (windows of 2^%u), "
                "%s float64 and "
                "int64 on the device, 32-bit atomics only\n",
                device_index, c->dev.device_name, type_name(c->dev.device_type),
                c->dev.host_visible ? "host-visible" : "device-local (staged)", c->dev.wg,
                c->dev.shared_bins, (unsigned long long)c->dev.max_range, c->dev.window_shift,
                c->dev.soft_f64 ? "soft (integer)" : "hardware");
    if (c->dev.verbose) {
        char key[512];
        vk_tuning_key(&c->tuning, key, sizeof key);
        fprintf(stderr, "[gpulayer] vulkan backend: tuning %s\n", key);
    }
    return GPULAYER_OK;
}

void vk_device_close(vk_context *c)
{
    if (c->device) {
        for (int i = 0; i < VK_FRAMES; i++) {
            vk_frame *f = &c->frames[i];
            if (f->pool) c->api.vkDestroyDescriptorPool(c->device, f->pool, NULL);
            if (f->fence) c->api.vkDestroyFence(c->device, f->fence, NULL);
        }
        if (c->command_pool) c->api.vkDestroyCommandPool(c->device, c->command_pool, NULL);
        vk_profile_destroy(c);
        vk_setcache_destroy(c);
        /* A device that went wrong is not kept for the next backend. */
        const int healthy = c->api.vkDeviceWaitIdle &&
                            c->api.vkDeviceWaitIdle(c->device) == VK_SUCCESS;
        if (!healthy || !vk_device_pool_park(c)) {
            vk_pipelines_destroy(c);
            if (c->api.vkDestroyDevice) c->api.vkDestroyDevice(c->device, NULL);
        }
    }
    c->instance = VK_NULL_HANDLE; /* the process's, kept (vk_api.c) */
    gpl_vk_api_close(&c->api);
}
