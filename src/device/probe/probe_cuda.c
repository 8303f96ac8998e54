/*
 * probe_cuda.c -- NVIDIA GPUs through the CUDA driver API and NVML.
 *
 * CUDA gives what a program will see: the devices visible under
 * CUDA_VISIBLE_DEVICES, their names, UUIDs, compute capability and total
 * memory. NVML gives free memory and the driver's version string, but it
 * ignores CUDA_VISIBLE_DEVICES and may number GPUs differently (PCI order
 * against CUDA's fastest-first), so the two are joined by UUID, never by
 * index.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "cuda_api.h"
#include "probe_out.h"

typedef struct cuda_api {
    void *lib;
    char path[512];
    gpl_cuInit_fn init;
    gpl_cuDriverGetVersion_fn driver_version;
    gpl_cuDeviceGetCount_fn count;
    gpl_cuDeviceGet_fn get;
    gpl_cuDeviceGetName_fn name;
    gpl_cuDeviceGetUuid_fn uuid;
    gpl_cuDeviceTotalMem_fn total_mem;
    gpl_cuDeviceGetAttribute_fn attribute;
    gpl_cuGetErrorName_fn error_name;
} cuda_api;

typedef struct nvml_api {
    void *lib;
    int ready;
    unsigned int count;
    char driver[96];
    char failure[256];
    gpl_nvmlInit_fn init;
    gpl_nvmlShutdown_fn shutdown;
    gpl_nvmlSystemGetDriverVersion_fn driver_version;
    gpl_nvmlDeviceGetCount_fn get_count;
    gpl_nvmlDeviceGetHandleByUUID_fn by_uuid;
    gpl_nvmlDeviceGetMemoryInfo_fn memory;
    gpl_nvmlErrorString_fn error_string;
} nvml_api;

/* dlsym returns an object pointer; copying it is the portable way to get a
 * function pointer out of it. */
#define LOAD(lib, fn, name)                                                 \
    do {                                                                    \
        void *sym_ = dlsym((lib), (name));                                  \
        memcpy(&(fn), &sym_, sizeof sym_);                                  \
    } while (0)

static const char *cuda_error(const cuda_api *api, CUresult rc)
{
    const char *name = NULL;
    if (api->error_name && api->error_name(rc, &name) == GPL_CUDA_SUCCESS && name) return name;
    return "an unknown CUDA error";
}

static int load_cuda(probe_out *o, cuda_api *api)
{
    memset(api, 0, sizeof *api);
    api->lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!api->lib) {
        char visible[256];
        probe_describe_env("CUDA_VISIBLE_DEVICES", visible, sizeof visible);
        probe_out_note(o, "library_not_found",
                       "libcuda.so.1, the NVIDIA driver's CUDA library, was not found: "
                       "no NVIDIA driver is installed here or it is not on the library "
                       "path (%s; %s)",
                       dlerror(), visible);
        return 0;
    }
    LOAD(api->lib, api->init, "cuInit");
    LOAD(api->lib, api->driver_version, "cuDriverGetVersion");
    LOAD(api->lib, api->count, "cuDeviceGetCount");
    LOAD(api->lib, api->get, "cuDeviceGet");
    LOAD(api->lib, api->name, "cuDeviceGetName");
    /* _v2 reports MIG instances by their own UUID (CUDA 11.4 and later). */
    LOAD(api->lib, api->uuid, "cuDeviceGetUuid_v2");
    if (!api->uuid) LOAD(api->lib, api->uuid, "cuDeviceGetUuid");
    LOAD(api->lib, api->total_mem, "cuDeviceTotalMem_v2");
    LOAD(api->lib, api->attribute, "cuDeviceGetAttribute");
    LOAD(api->lib, api->error_name, "cuGetErrorName");
    Dl_info info;
    void *sym = dlsym(api->lib, "cuInit");
    snprintf(api->path, sizeof api->path, "%s",
             sym && dladdr(sym, &info) && info.dli_fname ? info.dli_fname : "libcuda.so.1");
    if (!api->init || !api->driver_version || !api->count || !api->get || !api->name ||
        !api->total_mem || !api->attribute) {
        probe_out_note(o, "runtime_unavailable",
                       "%s lacks CUDA driver entry points (cuInit, cuDeviceTotalMem_v2, "
                       "...): it is not a usable NVIDIA driver library",
                       api->path);
        return 0;
    }
    return 1;
}

static void load_nvml(nvml_api *nv)
{
    memset(nv, 0, sizeof *nv);
    nv->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!nv->lib) {
        snprintf(nv->failure, sizeof nv->failure, "libnvidia-ml.so.1 was not found");
        return;
    }
    LOAD(nv->lib, nv->init, "nvmlInit_v2");
    LOAD(nv->lib, nv->shutdown, "nvmlShutdown");
    LOAD(nv->lib, nv->driver_version, "nvmlSystemGetDriverVersion");
    LOAD(nv->lib, nv->get_count, "nvmlDeviceGetCount_v2");
    LOAD(nv->lib, nv->by_uuid, "nvmlDeviceGetHandleByUUID");
    LOAD(nv->lib, nv->memory, "nvmlDeviceGetMemoryInfo");
    LOAD(nv->lib, nv->error_string, "nvmlErrorString");
    if (!nv->init || !nv->shutdown || !nv->by_uuid || !nv->memory) {
        snprintf(nv->failure, sizeof nv->failure, "libnvidia-ml.so.1 lacks NVML entry points");
        return;
    }
    nvmlReturn_t rc = nv->init();
    if (rc != GPL_NVML_SUCCESS) {
        snprintf(nv->failure, sizeof nv->failure, "nvmlInit failed: %s",
                 nv->error_string ? nv->error_string(rc) : "unknown error");
        return;
    }
    nv->ready = 1;
    if (nv->driver_version) nv->driver_version(nv->driver, sizeof nv->driver);
    if (nv->get_count && nv->get_count(&nv->count) != GPL_NVML_SUCCESS) nv->count = 0;
}

static void format_uuid(const gpl_cu_uuid *u, const char *prefix, char *buf, size_t size)
{
    const unsigned char *b = u->bytes;
    snprintf(buf, size,
             "%s-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
             prefix, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10],
             b[11], b[12], b[13], b[14], b[15]);
}

/* Free memory from NVML for the GPU (or MIG instance) with this UUID. The
 * same 16 bytes are written "GPU-..." for a GPU and "MIG-..." for a MIG
 * instance, and CUDA does not say which, so both are tried. */
static int nvml_free_memory(nvml_api *nv, const gpl_cu_uuid *u, char *id, size_t id_size,
                            unsigned long long *free_bytes)
{
    static const char *const prefixes[] = {"GPU", "MIG"};
    for (int i = 0; i < 2; i++) {
        char candidate[96];
        nvmlDevice_t dev;
        gpl_nvml_memory mem;
        format_uuid(u, prefixes[i], candidate, sizeof candidate);
        if (!nv->ready || nv->by_uuid(candidate, &dev) != GPL_NVML_SUCCESS) continue;
        snprintf(id, id_size, "%s", candidate);
        if (nv->memory(dev, &mem) != GPL_NVML_SUCCESS) return 0;
        *free_bytes = mem.free;
        return 1;
    }
    return 0;
}

static int attribute(const cuda_api *api, int attr, CUdevice dev)
{
    int value = 0;
    return api->attribute(&value, attr, dev) == GPL_CUDA_SUCCESS ? value : -1;
}

static void report_device(probe_out *o, const cuda_api *api, nvml_api *nv, int ordinal,
                          int driver_version)
{
    CUdevice dev;
    if (api->get(&dev, ordinal) != GPL_CUDA_SUCCESS) return;
    char name[256] = "NVIDIA GPU", id[96] = "";
    api->name(name, (int)sizeof name, dev);
    gpl_cu_uuid uuid;
    int have_uuid = api->uuid && api->uuid(&uuid, dev) == GPL_CUDA_SUCCESS;
    if (have_uuid) format_uuid(&uuid, "GPU", id, sizeof id);
    size_t total = 0;
    api->total_mem(&total, dev);
    unsigned long long free_bytes = total;
    int have_free = have_uuid && nvml_free_memory(nv, &uuid, id, sizeof id, &free_bytes);

    int major = attribute(api, GPL_CU_ATTR_COMPUTE_CAPABILITY_MAJOR, dev);
    int minor = attribute(api, GPL_CU_ATTR_COMPUTE_CAPABILITY_MINOR, dev);
    /* Integrated GPUs (Jetson) share the host's memory; reporting it as
     * dedicated would overstate what a job can use. */
    int integrated = attribute(api, GPL_CU_ATTR_INTEGRATED, dev) == 1;
    cJSON *d = probe_out_device(o, ordinal, name, id, integrated ? "unified" : "dedicated",
                                total, have_free ? free_bytes : total);
    char cap[32];
    snprintf(cap, sizeof cap, "cuda.sm_%d%d", major, minor);
    if (major >= 0 && minor >= 0) probe_device_cap(d, cap);
    probe_device_prop(d, "compute_capability", "%d.%d", major, minor);
    probe_device_prop(d, "driver_api_version", "%d", driver_version);
    if (*nv->driver) probe_device_prop(d, "driver_version", "%s", nv->driver);
    probe_device_prop(d, "multiprocessors", "%d",
                      attribute(api, GPL_CU_ATTR_MULTIPROCESSOR_COUNT, dev));
    probe_device_prop(d, "shared_memory_per_block_optin", "%d",
                      attribute(api, GPL_CU_ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev));
    probe_device_prop(d, "free_memory_source", "%s", have_free ? "nvml" : "unknown");
}

static void note_no_device(probe_out *o, const cuda_api *api, const nvml_api *nv,
                           const char *how)
{
    char visible[256], nvml[128] = "";
    probe_describe_env("CUDA_VISIBLE_DEVICES", visible, sizeof visible);
    if (nv->ready)
        snprintf(nvml, sizeof nvml, "; NVML lists %u GPU%s on this machine", nv->count,
                 nv->count == 1 ? "" : "s");
    probe_out_note(o, "no_visible_device",
                   "the NVIDIA driver (%s) is present but no CUDA device is visible "
                   "(%s): %s%s",
                   api->path, how, visible, nvml);
}

/* Explains why cuInit failed, by the cases a user can act on. */
static void note_init_failure(probe_out *o, const cuda_api *api, const nvml_api *nv,
                              CUresult rc)
{
    switch (rc) {
    case GPL_CUDA_ERROR_STUB_LIBRARY:
        probe_out_note(o, "stub_library",
                       "%s is the CUDA toolkit's stub library (CUDA_ERROR_STUB_LIBRARY), "
                       "meant only for linking, not a driver: take the toolkit's stubs "
                       "directory off LD_LIBRARY_PATH, and install the NVIDIA driver if "
                       "this machine has a GPU",
                       api->path);
        return;
    case GPL_CUDA_ERROR_NO_DEVICE:
        note_no_device(o, api, nv, "cuInit: CUDA_ERROR_NO_DEVICE");
        return;
    case GPL_CUDA_ERROR_INSUFFICIENT_DRIVER:
    case GPL_CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
    case GPL_CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE:
        probe_out_note(o, "runtime_unavailable",
                       "the CUDA driver library %s does not match the loaded NVIDIA "
                       "kernel driver (cuInit: %s); reboot after a driver update, or "
                       "reinstall the driver",
                       api->path, cuda_error(api, rc));
        return;
    case GPL_CUDA_ERROR_SYSTEM_NOT_READY:
        probe_out_note(o, "runtime_unavailable",
                       "the CUDA system is not ready (cuInit: %s): on NVSwitch systems "
                       "the nvidia-fabricmanager service must be running",
                       cuda_error(api, rc));
        return;
    default:
        probe_out_note(o, "runtime_unavailable",
                       "the CUDA driver (%s) is present but unavailable: cuInit failed "
                       "with %s (%d)",
                       api->path, cuda_error(api, rc), rc);
    }
}

void probe_cuda(probe_out *o)
{
    cuda_api api;
    if (!load_cuda(o, &api)) return;
    nvml_api nv;
    load_nvml(&nv);
    int driver_version = 0;
    api.driver_version(&driver_version);
    CUresult rc = api.init(0);
    if (rc != GPL_CUDA_SUCCESS) {
        note_init_failure(o, &api, &nv, rc);
    } else {
        int count = 0;
        api.count(&count);
        if (count <= 0) note_no_device(o, &api, &nv, "cuDeviceGetCount: 0");
        for (int i = 0; i < count; i++) report_device(o, &api, &nv, i, driver_version);
        if (count > 0 && !nv.ready)
            probe_out_note(o, "info",
                           "NVML is unavailable (%s): free memory is unknown, so usable "
                           "memory is reported as the total",
                           nv.failure);
    }
    if (nv.ready) nv.shutdown();
    /* The libraries stay loaded: unloading a driver library at exit has
     * crashed processes on some driver versions, and we exit right away. */
}
