/* vk_api.c -- dlopen of the Vulkan loader and resolution of every entry
 * point the backend calls (see vk_api.h). */
#include "vk_api.h"

#include <dlfcn.h>
#include <string.h>

#include "error.h"

#if defined(__APPLE__)
#define GPL_VK_LIBRARY "libvulkan.1.dylib"
#else
#define GPL_VK_LIBRARY "libvulkan.so.1"
#endif

int gpl_vk_api_open(gpl_vk_api *api)
{
    memset(api, 0, sizeof *api);
    api->library = dlopen(GPL_VK_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!api->library) {
        const char *why = dlerror();
        gpl_error(GPULAYER_ERR_DEVICE, "vulkan backend: cannot load %s (%s)",
                  GPL_VK_LIBRARY, why ? why : "not found");
        return 0;
    }
    /* dlsym returns void *; the cast through a union avoids the ISO C
     * warning about converting object pointers to function pointers. */
    union {
        void *object;
        PFN_vkGetInstanceProcAddr function;
    } sym;
    sym.object = dlsym(api->library, "vkGetInstanceProcAddr");
    api->vkGetInstanceProcAddr = sym.function;
    if (!api->vkGetInstanceProcAddr) {
        gpl_error(GPULAYER_ERR_DEVICE,
                  "vulkan backend: %s has no vkGetInstanceProcAddr", GPL_VK_LIBRARY);
        return 0;
    }
    api->vkCreateInstance =
        (PFN_vkCreateInstance)api->vkGetInstanceProcAddr(NULL, "vkCreateInstance");
    if (!api->vkCreateInstance) {
        gpl_error(GPULAYER_ERR_DEVICE, "vulkan backend: the loader has no vkCreateInstance");
        return 0;
    }
    return 1;
}

int gpl_vk_api_load_instance(gpl_vk_api *api, VkInstance instance)
{
#define GPL_VK_LOAD(name)                                                           \
    api->name = (PFN_##name)api->vkGetInstanceProcAddr(instance, #name);             \
    if (!api->name) {                                                                \
        gpl_error(GPULAYER_ERR_DEVICE, "vulkan backend: the loader has no %s", #name); \
        return 0;                                                                    \
    }
    GPL_VK_INSTANCE_FUNCS(GPL_VK_LOAD)
#undef GPL_VK_LOAD
    return 1;
}

int gpl_vk_api_load_device(gpl_vk_api *api, VkDevice device)
{
#define GPL_VK_LOAD(name)                                                           \
    api->name = (PFN_##name)api->vkGetDeviceProcAddr(device, #name);                 \
    if (!api->name) {                                                                \
        gpl_error(GPULAYER_ERR_DEVICE, "vulkan backend: the driver has no %s", #name); \
        return 0;                                                                    \
    }
    GPL_VK_DEVICE_FUNCS(GPL_VK_LOAD)
#undef GPL_VK_LOAD
    return 1;
}

void gpl_vk_api_close(gpl_vk_api *api)
{
    if (api->library) dlclose(api->library);
    memset(api, 0, sizeof *api);
}

const char *gpl_vk_result_name(VkResult r)
{
    switch (r) {
    case VK_SUCCESS: return "VK_SUCCESS";
    case VK_NOT_READY: return "VK_NOT_READY";
    case VK_TIMEOUT: return "VK_TIMEOUT";
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_OUT_OF_POOL_MEMORY: return "VK_ERROR_OUT_OF_POOL_MEMORY";
    case VK_ERROR_FRAGMENTED_POOL: return "VK_ERROR_FRAGMENTED_POOL";
    default: return "VkResult error";
    }
}
