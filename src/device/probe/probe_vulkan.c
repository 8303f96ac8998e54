/*
 * probe_vulkan.c -- every Vulkan physical device: type, memory heaps,
 * subgroup size and operations, shared-memory limit, 64-bit atomics.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe_out.h"
#include "vulkan_api.h"

#define LOAD_GLOBAL(gipa, fn, name)                                         \
    do {                                                                    \
        gpl_PFN_vkVoidFunction f_ = (gipa)(NULL, (name));                   \
        memcpy(&(fn), &f_, sizeof f_);                                      \
    } while (0)
#define LOAD_INSTANCE(gipa, inst, fn, name)                                 \
    do {                                                                    \
        gpl_PFN_vkVoidFunction f_ = (gipa)((inst), (name));                 \
        memcpy(&(fn), &f_, sizeof f_);                                      \
    } while (0)

typedef struct vk_api {
    gpl_PFN_vkGetInstanceProcAddr gipa;
    gpl_VkInstance instance;
    uint32_t api_version; /* of the instance we created */
    gpl_PFN_vkDestroyInstance destroy;
    gpl_PFN_vkEnumeratePhysicalDevices enumerate;
    gpl_PFN_vkGetPhysicalDeviceProperties properties;
    gpl_PFN_vkGetPhysicalDeviceProperties2 properties2;
    gpl_PFN_vkGetPhysicalDeviceFeatures2 features2;
    gpl_PFN_vkGetPhysicalDeviceMemoryProperties memory;
    gpl_PFN_vkGetPhysicalDeviceMemoryProperties2 memory2;
    gpl_PFN_vkEnumerateDeviceExtensionProperties extensions;
} vk_api;

static const char *loader_name(void)
{
#if defined(__APPLE__)
    return "libvulkan.1.dylib";
#else
    return "libvulkan.so.1";
#endif
}

static const char *vk_result_name(gpl_VkResult r)
{
    switch (r) {
    case GPL_VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case GPL_VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    default: return "a Vulkan error";
    }
}

/* probe_describe_env for a variable naming driver manifests (a list
 * separated by ':'), and the first of them that does not exist: a path
 * that points nowhere leaves the loader with no driver. */
static void describe_driver_env(const char *name, char *buf, size_t size)
{
    probe_describe_env(name, buf, size);
    const char *v = getenv(name);
    for (const char *p = v; p && *p;) {
        const size_t len = strcspn(p, ":");
        char path[4096];
        if (len > 0 && len < sizeof path) {
            memcpy(path, p, len);
            path[len] = '\0';
            if (access(path, F_OK) != 0) {
                const size_t used = strlen(buf);
                snprintf(buf + used, size - used, ", and %s does not exist", path);
                return;
            }
        }
        p += len + (p[len] == ':');
    }
}

/* Creates an instance for the newest API the loader offers, up to 1.3:
 * 1.1 brings the *2 queries (subgroups, UUIDs), 1.2 64-bit atomics. */
static int create_instance(probe_out *o, vk_api *vk)
{
    gpl_PFN_vkEnumerateInstanceVersion version = NULL;
    gpl_PFN_vkCreateInstance create = NULL;
    LOAD_GLOBAL(vk->gipa, version, "vkEnumerateInstanceVersion");
    LOAD_GLOBAL(vk->gipa, create, "vkCreateInstance");
    if (!create) {
        probe_out_note(o, "runtime_unavailable",
                       "%s does not provide vkCreateInstance: not a Vulkan loader",
                       loader_name());
        return 0;
    }
    uint32_t loader = GPL_VK_API_VERSION(1, 0);
    if (version && version(&loader) != GPL_VK_SUCCESS) loader = GPL_VK_API_VERSION(1, 0);
    vk->api_version = loader < GPL_VK_API_VERSION(1, 3) ? loader : GPL_VK_API_VERSION(1, 3);
    gpl_VkApplicationInfo app = {GPL_VK_STYPE_APPLICATION_INFO, NULL, "gpulayer-probe", 1,
                                 "gpulayer", 1, vk->api_version};
    gpl_VkInstanceCreateInfo info = {GPL_VK_STYPE_INSTANCE_CREATE_INFO, NULL, 0, &app, 0,
                                     NULL, 0, NULL};
    gpl_VkResult r = create(&info, NULL, &vk->instance);
    if (r == GPL_VK_ERROR_INCOMPATIBLE_DRIVER) {
        char files[512], icd[512];
        describe_driver_env("VK_DRIVER_FILES", files, sizeof files);
        describe_driver_env("VK_ICD_FILENAMES", icd, sizeof icd);
        probe_out_note(o, "runtime_unavailable",
                       "the Vulkan loader is installed but found no Vulkan driver (ICD) "
                       "(vkCreateInstance: VK_ERROR_INCOMPATIBLE_DRIVER; %s; %s)",
                       files, icd);
        return 0;
    }
    if (r != GPL_VK_SUCCESS) {
        probe_out_note(o, "runtime_unavailable",
                       "the Vulkan loader is installed but vkCreateInstance failed with "
                       "%s (%d)",
                       vk_result_name(r), r);
        return 0;
    }
    LOAD_INSTANCE(vk->gipa, vk->instance, vk->destroy, "vkDestroyInstance");
    LOAD_INSTANCE(vk->gipa, vk->instance, vk->enumerate, "vkEnumeratePhysicalDevices");
    LOAD_INSTANCE(vk->gipa, vk->instance, vk->properties, "vkGetPhysicalDeviceProperties");
    LOAD_INSTANCE(vk->gipa, vk->instance, vk->memory, "vkGetPhysicalDeviceMemoryProperties");
    LOAD_INSTANCE(vk->gipa, vk->instance, vk->extensions,
                  "vkEnumerateDeviceExtensionProperties");
    if (vk->api_version >= GPL_VK_API_VERSION(1, 1)) {
        LOAD_INSTANCE(vk->gipa, vk->instance, vk->properties2, "vkGetPhysicalDeviceProperties2");
        LOAD_INSTANCE(vk->gipa, vk->instance, vk->features2, "vkGetPhysicalDeviceFeatures2");
        LOAD_INSTANCE(vk->gipa, vk->instance, vk->memory2,
                      "vkGetPhysicalDeviceMemoryProperties2");
    }
    if (!vk->destroy || !vk->enumerate || !vk->properties || !vk->memory) {
        probe_out_note(o, "runtime_unavailable",
                       "the Vulkan instance lacks core entry points");
        return 0;
    }
    return 1;
}

static int has_extension(const vk_api *vk, gpl_VkPhysicalDevice pd, const char *name)
{
    uint32_t n = 0;
    if (!vk->extensions || vk->extensions(pd, NULL, &n, NULL) != GPL_VK_SUCCESS || !n) return 0;
    gpl_VkExtensionProperties *ext = calloc(n, sizeof *ext);
    if (!ext) return 0;
    int found = 0;
    gpl_VkResult r = vk->extensions(pd, NULL, &n, ext);
    if (r == GPL_VK_SUCCESS || r == GPL_VK_INCOMPLETE)
        for (uint32_t i = 0; i < n && !found; i++) found = !strcmp(ext[i].extensionName, name);
    free(ext);
    return found;
}

static const char *type_name(int32_t type)
{
    switch (type) {
    case GPL_VK_DEVICE_TYPE_INTEGRATED_GPU: return "integrated";
    case GPL_VK_DEVICE_TYPE_DISCRETE_GPU: return "discrete";
    case GPL_VK_DEVICE_TYPE_VIRTUAL_GPU: return "virtual";
    case GPL_VK_DEVICE_TYPE_CPU: return "cpu";
    default: return "other";
    }
}

/* An integrated GPU's device-local heap is carved from host RAM, and a CPU
 * implementation (lavapipe, SwiftShader) uses host memory outright. */
static const char *memory_kind_of(int32_t type)
{
    if (type == GPL_VK_DEVICE_TYPE_INTEGRATED_GPU) return "unified";
    if (type == GPL_VK_DEVICE_TYPE_CPU) return "host";
    return "dedicated";
}

typedef struct heap_summary {
    uint64_t total, usable;
    uint32_t heaps, device_local;
} heap_summary;

/* The largest device-local heap: the memory a compute job's buffers live
 * in. With VK_EXT_memory_budget, usable is that heap's budget minus what
 * is already in use, as the driver sees it. */
static heap_summary read_heaps(const vk_api *vk, gpl_VkPhysicalDevice pd)
{
    heap_summary h = {0, 0, 0, 0};
    gpl_VkPhysicalDeviceMemoryBudgetPropertiesEXT budget;
    gpl_VkPhysicalDeviceMemoryProperties2 props2;
    memset(&budget, 0, sizeof budget);
    memset(&props2, 0, sizeof props2);
    int have_budget = 0;
    if (vk->memory2 && has_extension(vk, pd, "VK_EXT_memory_budget")) {
        budget.sType = GPL_VK_STYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT;
        props2.sType = GPL_VK_STYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2;
        props2.pNext = &budget;
        vk->memory2(pd, &props2);
        have_budget = 1;
    } else {
        vk->memory(pd, &props2.memoryProperties);
    }
    const gpl_VkPhysicalDeviceMemoryProperties *m = &props2.memoryProperties;
    h.heaps = m->memoryHeapCount;
    int best = -1;
    for (uint32_t i = 0; i < m->memoryHeapCount && i < GPL_VK_MAX_MEMORY_HEAPS; i++) {
        if (!(m->memoryHeaps[i].flags & GPL_VK_MEMORY_HEAP_DEVICE_LOCAL)) continue;
        h.device_local++;
        if (best < 0 || m->memoryHeaps[i].size > m->memoryHeaps[best].size) best = (int)i;
    }
    if (best < 0 && m->memoryHeapCount) best = 0;
    if (best < 0) return h;
    h.total = m->memoryHeaps[best].size;
    h.usable = h.total;
    if (have_budget && budget.heapBudget[best]) {
        uint64_t b = budget.heapBudget[best], used = budget.heapUsage[best];
        h.usable = b > used ? b - used : 0;
        if (h.usable > h.total) h.usable = h.total;
    }
    return h;
}

static void format_uuid(const uint8_t *b, char *buf, size_t size)
{
    int zero = 1;
    for (int i = 0; i < 16; i++) zero &= b[i] == 0;
    if (zero) {
        buf[0] = '\0';
        return;
    }
    snprintf(buf, size,
             "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
             b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
             b[13], b[14], b[15]);
}

static void add_subgroup_caps(cJSON *d, uint32_t ops)
{
    static const struct {
        uint32_t bit;
        const char *cap;
    } caps[] = {{GPL_VK_SUBGROUP_BASIC, "vulkan.subgroup_basic"},
                {GPL_VK_SUBGROUP_VOTE, "vulkan.subgroup_vote"},
                {GPL_VK_SUBGROUP_ARITHMETIC, "vulkan.subgroup_arithmetic"},
                {GPL_VK_SUBGROUP_BALLOT, "vulkan.subgroup_ballot"},
                {GPL_VK_SUBGROUP_SHUFFLE, "vulkan.subgroup_shuffle"}};
    for (size_t i = 0; i < sizeof caps / sizeof caps[0]; i++)
        if (ops & caps[i].bit) probe_device_cap(d, caps[i].cap);
}

/* Features that need the 1.1/1.2 queries: 64-bit integers and atomics. */
static void add_feature_caps(const vk_api *vk, gpl_VkPhysicalDevice pd, uint32_t device_api,
                             cJSON *d)
{
    if (!vk->features2) return;
    gpl_VkPhysicalDeviceShaderAtomicInt64Features atomics;
    gpl_VkPhysicalDeviceFeatures2 features;
    memset(&atomics, 0, sizeof atomics);
    memset(&features, 0, sizeof features);
    atomics.sType = GPL_VK_STYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES;
    features.sType = GPL_VK_STYPE_PHYSICAL_DEVICE_FEATURES_2;
    if (device_api >= GPL_VK_API_VERSION(1, 2) ||
        has_extension(vk, pd, "VK_KHR_shader_atomic_int64"))
        features.pNext = &atomics;
    vk->features2(pd, &features);
    if (features.features[GPL_VK_FEATURE_SHADER_INT64]) probe_device_cap(d, "vulkan.int64");
    if (features.features[GPL_VK_FEATURE_SHADER_FLOAT64]) probe_device_cap(d, "vulkan.float64");
    if (atomics.shaderBufferInt64Atomics) probe_device_cap(d, "vulkan.atomic_int64");
}

static void report_device(probe_out *o, const vk_api *vk, gpl_VkPhysicalDevice pd, int index)
{
    gpl_VkPhysicalDeviceSubgroupProperties subgroup;
    gpl_VkPhysicalDeviceIDProperties ids;
    gpl_VkPhysicalDeviceProperties2 props;
    memset(&subgroup, 0, sizeof subgroup);
    memset(&ids, 0, sizeof ids);
    memset(&props, 0, sizeof props);
    vk->properties(pd, &props.properties);
    uint32_t device_api = props.properties.apiVersion;
    /* The *2 query and its chain need Vulkan 1.1 on both sides. */
    int modern = vk->properties2 && device_api >= GPL_VK_API_VERSION(1, 1);
    if (modern) {
        props.sType = GPL_VK_STYPE_PHYSICAL_DEVICE_PROPERTIES_2;
        props.pNext = &subgroup;
        subgroup.sType = GPL_VK_STYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
        subgroup.pNext = &ids;
        ids.sType = GPL_VK_STYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
        vk->properties2(pd, &props);
    }
    const gpl_VkPhysicalDeviceProperties *p = &props.properties;
    heap_summary heaps = read_heaps(vk, pd);
    char uuid[48];
    format_uuid(ids.deviceUUID, uuid, sizeof uuid);
    cJSON *d = probe_out_device(o, index, p->deviceName, uuid, memory_kind_of(p->deviceType),
                                heaps.total, heaps.usable);
    if (modern) add_subgroup_caps(d, subgroup.supportedOperations);
    if (modern) add_feature_caps(vk, pd, device_api, d);
    probe_device_prop(d, "device_type", "%s", type_name(p->deviceType));
    probe_device_prop(d, "api_version", "%u.%u.%u", GPL_VK_VERSION_MAJOR(device_api),
                      GPL_VK_VERSION_MINOR(device_api), GPL_VK_VERSION_PATCH(device_api));
    probe_device_prop(d, "vendor_id", "0x%04x", p->vendorID);
    probe_device_prop(d, "device_id", "0x%04x", p->deviceID);
    probe_device_prop(d, "driver_version", "0x%08x", p->driverVersion);
    if (modern) probe_device_prop(d, "subgroup_size", "%u", subgroup.subgroupSize);
    probe_device_prop(d, "shared_memory_bytes", "%u", p->limits.maxComputeSharedMemorySize);
    probe_device_prop(d, "memory_heaps", "%u (%u device-local)", heaps.heaps, heaps.device_local);
}

void probe_vulkan(probe_out *o)
{
    void *lib = dlopen(loader_name(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        probe_out_note(o, "library_not_found",
                       "%s, the Vulkan loader, was not found: no Vulkan runtime is "
                       "installed here (%s)",
                       loader_name(), dlerror());
        return;
    }
    vk_api vk;
    memset(&vk, 0, sizeof vk);
    void *sym = dlsym(lib, "vkGetInstanceProcAddr");
    memcpy(&vk.gipa, &sym, sizeof sym);
    if (!vk.gipa) {
        probe_out_note(o, "runtime_unavailable",
                       "%s does not export vkGetInstanceProcAddr: not a Vulkan loader",
                       loader_name());
        return;
    }
    if (!create_instance(o, &vk)) return;
    uint32_t count = 0;
    gpl_VkResult r = vk.enumerate(vk.instance, &count, NULL);
    gpl_VkPhysicalDevice *devices = count ? calloc(count, sizeof *devices) : NULL;
    if (r == GPL_VK_SUCCESS && devices) r = vk.enumerate(vk.instance, &count, devices);
    if ((r != GPL_VK_SUCCESS && r != GPL_VK_INCOMPLETE) || !count || !devices) {
        probe_out_note(o, "no_visible_device",
                       "a Vulkan driver is installed but lists no physical device "
                       "(vkEnumeratePhysicalDevices: %d devices, result %d)",
                       count, r);
    } else {
        for (uint32_t i = 0; i < count; i++) report_device(o, &vk, devices[i], (int)i);
    }
    free(devices);
    vk.destroy(vk.instance, NULL);
}
