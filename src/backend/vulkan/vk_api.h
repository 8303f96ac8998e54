/* vk_api.h -- the Vulkan entry points the backend uses, loaded at run time.
 *
 * libvulkan.so.1 is opened with dlopen when a backend is created, never at
 * library load, so libgpulayer runs on machines without a Vulkan loader.
 * The Khronos headers are used for types only (VK_NO_PROTOTYPES); every
 * function comes from vkGetInstanceProcAddr / vkGetDeviceProcAddr. */
#ifndef GPL_VK_API_H
#define GPL_VK_API_H

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

/* X(name): instance-level functions (through vkGetInstanceProcAddr). */
#define GPL_VK_INSTANCE_FUNCS(X)                                             \
    X(vkDestroyInstance)                                                     \
    X(vkEnumeratePhysicalDevices)                                            \
    X(vkGetPhysicalDeviceProperties)                                         \
    X(vkGetPhysicalDeviceFeatures)                                           \
    X(vkGetPhysicalDeviceQueueFamilyProperties)                              \
    X(vkGetPhysicalDeviceMemoryProperties)                                   \
    X(vkGetPhysicalDeviceMemoryProperties2)                                  \
    X(vkEnumerateDeviceExtensionProperties)                                  \
    X(vkCreateDevice)                                                        \
    X(vkGetDeviceProcAddr)

/* X(name): device-level functions (through vkGetDeviceProcAddr). */
#define GPL_VK_DEVICE_FUNCS(X)                                               \
    X(vkDestroyDevice)                                                       \
    X(vkGetDeviceQueue)                                                      \
    X(vkCreateBuffer)                                                        \
    X(vkDestroyBuffer)                                                       \
    X(vkGetBufferMemoryRequirements)                                         \
    X(vkAllocateMemory)                                                      \
    X(vkFreeMemory)                                                          \
    X(vkBindBufferMemory)                                                    \
    X(vkMapMemory)                                                           \
    X(vkUnmapMemory)                                                         \
    X(vkCreateShaderModule)                                                  \
    X(vkDestroyShaderModule)                                                 \
    X(vkCreateDescriptorSetLayout)                                           \
    X(vkDestroyDescriptorSetLayout)                                          \
    X(vkCreatePipelineLayout)                                                \
    X(vkDestroyPipelineLayout)                                               \
    X(vkCreateComputePipelines)                                              \
    X(vkDestroyPipeline)                                                     \
    X(vkCreateDescriptorPool)                                                \
    X(vkDestroyDescriptorPool)                                               \
    X(vkResetDescriptorPool)                                                 \
    X(vkAllocateDescriptorSets)                                              \
    X(vkUpdateDescriptorSets)                                                \
    X(vkCreateCommandPool)                                                   \
    X(vkDestroyCommandPool)                                                  \
    X(vkAllocateCommandBuffers)                                              \
    X(vkBeginCommandBuffer)                                                  \
    X(vkEndCommandBuffer)                                                    \
    X(vkResetCommandBuffer)                                                  \
    X(vkCmdBindPipeline)                                                     \
    X(vkCmdBindDescriptorSets)                                               \
    X(vkCmdPushConstants)                                                    \
    X(vkCmdDispatch)                                                         \
    X(vkCmdPipelineBarrier)                                                  \
    X(vkCmdCopyBuffer)                                                       \
    X(vkCmdFillBuffer)                                                       \
    X(vkCmdUpdateBuffer)                                                     \
    X(vkCreateFence)                                                         \
    X(vkDestroyFence)                                                        \
    X(vkResetFences)                                                         \
    X(vkWaitForFences)                                                       \
    X(vkGetFenceStatus)                                                      \
    X(vkQueueSubmit)                                                         \
    X(vkDeviceWaitIdle)                                                      \
    X(vkCreateQueryPool)                                                     \
    X(vkDestroyQueryPool)                                                    \
    X(vkCmdResetQueryPool)                                                   \
    X(vkCmdWriteTimestamp)                                                   \
    X(vkGetQueryPoolResults)

typedef struct gpl_vk_api {
    void *library;       /* dlopen handle */
    VkInstance instance; /* the process's one instance */
    PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
    PFN_vkCreateInstance vkCreateInstance;
#define GPL_VK_MEMBER(name) PFN_##name name;
    GPL_VK_INSTANCE_FUNCS(GPL_VK_MEMBER)
    GPL_VK_DEVICE_FUNCS(GPL_VK_MEMBER)
#undef GPL_VK_MEMBER
} gpl_vk_api;

/* The loader, the process's one instance (made on first use, kept until
 * the process ends) and the instance's entry points; sets the last error
 * (naming the library or the driver's refusal) when there is none. */
int gpl_vk_api_open(gpl_vk_api *api);
int gpl_vk_api_load_device(gpl_vk_api *api, VkDevice device);
/* Forgets the entry points; the loader and the instance stay. */
void gpl_vk_api_close(gpl_vk_api *api);
/* "VK_ERROR_OUT_OF_DEVICE_MEMORY" and the like, for messages. */
const char *gpl_vk_result_name(VkResult r);

#endif
