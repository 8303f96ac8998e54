/* vk_api.c -- dlopen of the Vulkan loader and resolution of every entry
 * point the backend calls (see vk_api.h). */
#include "vk_api.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

#if defined(__APPLE__)
#define GPL_VK_LIBRARY "libvulkan.1.dylib"
#else
#define GPL_VK_LIBRARY "libvulkan.so.1"
#endif

/* The loader and one instance, made once and kept for the life of the
 * process; each backend makes and destroys only its device. NVIDIA's
 * driver does not survive instances made and destroyed over and over:
 * after about ten, every vkCreateInstance fails with
 * VK_ERROR_INCOMPATIBLE_DRIVER. */
static gpl_vk_api shared;
static char shared_error[512];
static pthread_once_t shared_once = PTHREAD_ONCE_INIT;

static int load_instance_functions(gpl_vk_api *api)
{
#define GPL_VK_LOAD(name)                                                           \
    api->name = (PFN_##name)api->vkGetInstanceProcAddr(api->instance, #name);        \
    if (!api->name) {                                                                \
        snprintf(shared_error, sizeof shared_error, "the loader has no %s", #name);  \
        return 0;                                                                    \
    }
    GPL_VK_INSTANCE_FUNCS(GPL_VK_LOAD)
#undef GPL_VK_LOAD
    return 1;
}

static void open_shared(void)
{
    gpl_vk_api *api = &shared;
    api->library = dlopen(GPL_VK_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!api->library) {
        const char *why = dlerror();
        snprintf(shared_error, sizeof shared_error, "cannot load %s (%s)", GPL_VK_LIBRARY,
                 why ? why : "not found");
        return;
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
        snprintf(shared_error, sizeof shared_error, "%s has no vkGetInstanceProcAddr",
                 GPL_VK_LIBRARY);
        return;
    }
    api->vkCreateInstance =
        (PFN_vkCreateInstance)api->vkGetInstanceProcAddr(NULL, "vkCreateInstance");
    if (!api->vkCreateInstance) {
        snprintf(shared_error, sizeof shared_error, "the loader has no vkCreateInstance");
        return;
    }
    VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                             .pApplicationName = "gpulayer",
                             .pEngineName = "gpulayer",
                             .apiVersion = VK_API_VERSION_1_1};
    VkInstanceCreateInfo info = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                                 .pApplicationInfo = &app};
    VkResult r = api->vkCreateInstance(&info, NULL, &api->instance);
    if (r != VK_SUCCESS) {
        api->instance = VK_NULL_HANDLE;
        snprintf(shared_error, sizeof shared_error,
                 "vkCreateInstance failed (%s): no usable Vulkan driver", gpl_vk_result_name(r));
        return;
    }
    if (!load_instance_functions(api)) api->instance = VK_NULL_HANDLE;
}

int gpl_vk_api_open(gpl_vk_api *api)
{
    pthread_once(&shared_once, open_shared);
    if (!shared.instance) {
        memset(api, 0, sizeof *api);
        gpl_error(GPULAYER_ERR_DEVICE, "vulkan backend: %s", shared_error);
        return 0;
    }
    *api = shared;
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

void gpl_vk_api_close(gpl_vk_api *api) { memset(api, 0, sizeof *api); }

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
