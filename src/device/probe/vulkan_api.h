/*
 * vulkan_api.h -- the few Vulkan declarations the Vulkan probe needs,
 * written here so that nothing includes the Vulkan headers or links the
 * loader: libvulkan.so.1 is loaded with dlopen at run time. Layouts and
 * values follow the public vulkan_core.h (Vulkan 1.3); the static
 * assertions pin the sizes the driver writes into.
 */
#ifndef GPL_PROBE_VULKAN_API_H
#define GPL_PROBE_VULKAN_API_H

#include <stddef.h>
#include <stdint.h>

typedef struct gpl_vk_instance_T *gpl_VkInstance;
typedef struct gpl_vk_physical_device_T *gpl_VkPhysicalDevice;
typedef int32_t gpl_VkResult;
typedef uint32_t gpl_VkBool32;

enum {
    GPL_VK_SUCCESS = 0,
    GPL_VK_INCOMPLETE = 5,
    GPL_VK_ERROR_INITIALIZATION_FAILED = -3,
    GPL_VK_ERROR_INCOMPATIBLE_DRIVER = -9
};

enum {
    GPL_VK_STYPE_APPLICATION_INFO = 0,
    GPL_VK_STYPE_INSTANCE_CREATE_INFO = 1,
    GPL_VK_STYPE_PHYSICAL_DEVICE_FEATURES_2 = 1000059000,
    GPL_VK_STYPE_PHYSICAL_DEVICE_PROPERTIES_2 = 1000059001,
    GPL_VK_STYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2 = 1000059006,
    GPL_VK_STYPE_PHYSICAL_DEVICE_ID_PROPERTIES = 1000071004,
    GPL_VK_STYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES = 1000094000,
    GPL_VK_STYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES = 1000180000,
    GPL_VK_STYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT = 1000237000
};

enum {
    GPL_VK_DEVICE_TYPE_OTHER = 0,
    GPL_VK_DEVICE_TYPE_INTEGRATED_GPU = 1,
    GPL_VK_DEVICE_TYPE_DISCRETE_GPU = 2,
    GPL_VK_DEVICE_TYPE_VIRTUAL_GPU = 3,
    GPL_VK_DEVICE_TYPE_CPU = 4
};

enum {
    GPL_VK_SUBGROUP_BASIC = 0x1,
    GPL_VK_SUBGROUP_VOTE = 0x2,
    GPL_VK_SUBGROUP_ARITHMETIC = 0x4,
    GPL_VK_SUBGROUP_BALLOT = 0x8,
    GPL_VK_SUBGROUP_SHUFFLE = 0x10
};

#define GPL_VK_MEMORY_HEAP_DEVICE_LOCAL 0x1u
#define GPL_VK_MAX_MEMORY_TYPES 32
#define GPL_VK_MAX_MEMORY_HEAPS 16
#define GPL_VK_API_VERSION(major, minor) (((uint32_t)(major) << 22) | ((uint32_t)(minor) << 12))
#define GPL_VK_VERSION_MAJOR(v) (((uint32_t)(v) >> 22) & 0x7Fu)
#define GPL_VK_VERSION_MINOR(v) (((uint32_t)(v) >> 12) & 0x3FFu)
#define GPL_VK_VERSION_PATCH(v) ((uint32_t)(v) & 0xFFFu)

typedef struct gpl_VkApplicationInfo {
    int32_t sType;
    const void *pNext;
    const char *pApplicationName;
    uint32_t applicationVersion;
    const char *pEngineName;
    uint32_t engineVersion;
    uint32_t apiVersion;
} gpl_VkApplicationInfo;

typedef struct gpl_VkInstanceCreateInfo {
    int32_t sType;
    const void *pNext;
    uint32_t flags;
    const gpl_VkApplicationInfo *pApplicationInfo;
    uint32_t enabledLayerCount;
    const char *const *ppEnabledLayerNames;
    uint32_t enabledExtensionCount;
    const char *const *ppEnabledExtensionNames;
} gpl_VkInstanceCreateInfo;

/* VkPhysicalDeviceLimits: only maxComputeSharedMemorySize is read; the
 * other limits are kept as opaque words of the right size. */
typedef struct gpl_VkPhysicalDeviceLimits {
    uint32_t head[11];                   /* maxImageDimension1D..          */
    uint64_t bufferImageGranularity;
    uint64_t sparseAddressSpaceSize;
    uint32_t middle[38];                 /* maxBoundDescriptorSets..       */
    uint32_t maxComputeSharedMemorySize;
    uint8_t rest[504 - 220];
} gpl_VkPhysicalDeviceLimits;

typedef struct gpl_VkPhysicalDeviceProperties {
    uint32_t apiVersion;
    uint32_t driverVersion;
    uint32_t vendorID;
    uint32_t deviceID;
    int32_t deviceType;
    char deviceName[256];
    uint8_t pipelineCacheUUID[16];
    gpl_VkPhysicalDeviceLimits limits;
    gpl_VkBool32 sparseProperties[5];
} gpl_VkPhysicalDeviceProperties;

typedef struct gpl_VkPhysicalDeviceProperties2 {
    int32_t sType;
    void *pNext;
    gpl_VkPhysicalDeviceProperties properties;
} gpl_VkPhysicalDeviceProperties2;

typedef struct gpl_VkPhysicalDeviceIDProperties {
    int32_t sType;
    void *pNext;
    uint8_t deviceUUID[16];
    uint8_t driverUUID[16];
    uint8_t deviceLUID[8];
    uint32_t deviceNodeMask;
    gpl_VkBool32 deviceLUIDValid;
} gpl_VkPhysicalDeviceIDProperties;

typedef struct gpl_VkPhysicalDeviceSubgroupProperties {
    int32_t sType;
    void *pNext;
    uint32_t subgroupSize;
    uint32_t supportedStages;
    uint32_t supportedOperations;
    gpl_VkBool32 quadOperationsInAllStages;
} gpl_VkPhysicalDeviceSubgroupProperties;

/* VkPhysicalDeviceFeatures: 55 booleans; shaderFloat64 is the 40th and
 * shaderInt64 the 41st. */
#define GPL_VK_FEATURE_COUNT 55
#define GPL_VK_FEATURE_SHADER_FLOAT64 39
#define GPL_VK_FEATURE_SHADER_INT64 40
typedef struct gpl_VkPhysicalDeviceFeatures2 {
    int32_t sType;
    void *pNext;
    gpl_VkBool32 features[GPL_VK_FEATURE_COUNT];
} gpl_VkPhysicalDeviceFeatures2;

typedef struct gpl_VkPhysicalDeviceShaderAtomicInt64Features {
    int32_t sType;
    void *pNext;
    gpl_VkBool32 shaderBufferInt64Atomics;
    gpl_VkBool32 shaderSharedInt64Atomics;
} gpl_VkPhysicalDeviceShaderAtomicInt64Features;

typedef struct gpl_VkMemoryType {
    uint32_t propertyFlags;
    uint32_t heapIndex;
} gpl_VkMemoryType;

typedef struct gpl_VkMemoryHeap {
    uint64_t size;
    uint32_t flags;
} gpl_VkMemoryHeap;

typedef struct gpl_VkPhysicalDeviceMemoryProperties {
    uint32_t memoryTypeCount;
    gpl_VkMemoryType memoryTypes[GPL_VK_MAX_MEMORY_TYPES];
    uint32_t memoryHeapCount;
    gpl_VkMemoryHeap memoryHeaps[GPL_VK_MAX_MEMORY_HEAPS];
} gpl_VkPhysicalDeviceMemoryProperties;

typedef struct gpl_VkPhysicalDeviceMemoryProperties2 {
    int32_t sType;
    void *pNext;
    gpl_VkPhysicalDeviceMemoryProperties memoryProperties;
} gpl_VkPhysicalDeviceMemoryProperties2;

typedef struct gpl_VkPhysicalDeviceMemoryBudgetPropertiesEXT {
    int32_t sType;
    void *pNext;
    uint64_t heapBudget[GPL_VK_MAX_MEMORY_HEAPS];
    uint64_t heapUsage[GPL_VK_MAX_MEMORY_HEAPS];
} gpl_VkPhysicalDeviceMemoryBudgetPropertiesEXT;

typedef struct gpl_VkExtensionProperties {
    char extensionName[256];
    uint32_t specVersion;
} gpl_VkExtensionProperties;

#if defined(__LP64__) || defined(_WIN64)
_Static_assert(sizeof(gpl_VkPhysicalDeviceLimits) == 504, "VkPhysicalDeviceLimits size");
_Static_assert(offsetof(gpl_VkPhysicalDeviceLimits, maxComputeSharedMemorySize) == 216,
               "maxComputeSharedMemorySize offset");
_Static_assert(offsetof(gpl_VkPhysicalDeviceProperties, limits) == 296, "limits offset");
_Static_assert(sizeof(gpl_VkPhysicalDeviceProperties) == 824, "VkPhysicalDeviceProperties size");
_Static_assert(sizeof(gpl_VkPhysicalDeviceMemoryProperties) == 520, "memory properties size");
#endif

typedef void (*gpl_PFN_vkVoidFunction)(void);
typedef gpl_PFN_vkVoidFunction (*gpl_PFN_vkGetInstanceProcAddr)(gpl_VkInstance, const char *);
typedef gpl_VkResult (*gpl_PFN_vkEnumerateInstanceVersion)(uint32_t *);
typedef gpl_VkResult (*gpl_PFN_vkCreateInstance)(const gpl_VkInstanceCreateInfo *,
                                                 const void *, gpl_VkInstance *);
typedef void (*gpl_PFN_vkDestroyInstance)(gpl_VkInstance, const void *);
typedef gpl_VkResult (*gpl_PFN_vkEnumeratePhysicalDevices)(gpl_VkInstance, uint32_t *,
                                                           gpl_VkPhysicalDevice *);
typedef void (*gpl_PFN_vkGetPhysicalDeviceProperties)(gpl_VkPhysicalDevice,
                                                      gpl_VkPhysicalDeviceProperties *);
typedef void (*gpl_PFN_vkGetPhysicalDeviceProperties2)(gpl_VkPhysicalDevice,
                                                       gpl_VkPhysicalDeviceProperties2 *);
typedef void (*gpl_PFN_vkGetPhysicalDeviceFeatures2)(gpl_VkPhysicalDevice,
                                                     gpl_VkPhysicalDeviceFeatures2 *);
typedef void (*gpl_PFN_vkGetPhysicalDeviceMemoryProperties)(
    gpl_VkPhysicalDevice, gpl_VkPhysicalDeviceMemoryProperties *);
typedef void (*gpl_PFN_vkGetPhysicalDeviceMemoryProperties2)(
    gpl_VkPhysicalDevice, gpl_VkPhysicalDeviceMemoryProperties2 *);
typedef gpl_VkResult (*gpl_PFN_vkEnumerateDeviceExtensionProperties)(
    gpl_VkPhysicalDevice, const char *, uint32_t *, gpl_VkExtensionProperties *);

#endif
