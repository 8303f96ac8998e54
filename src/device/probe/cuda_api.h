/*
 * cuda_api.h -- the few CUDA driver API and NVML declarations the CUDA
 * probe needs, written here so that nothing includes or links the vendor's
 * headers or libraries: both are loaded with dlopen at run time, and the
 * probe builds and runs on machines without them. Values and signatures
 * follow the public cuda.h and nvml.h.
 */
#ifndef GPL_PROBE_CUDA_API_H
#define GPL_PROBE_CUDA_API_H

#include <stddef.h>

typedef int CUresult;
typedef int CUdevice;
typedef struct {
    unsigned char bytes[16];
} gpl_cu_uuid;

enum {
    GPL_CUDA_SUCCESS = 0,
    GPL_CUDA_ERROR_NOT_INITIALIZED = 3,
    GPL_CUDA_ERROR_STUB_LIBRARY = 34,
    GPL_CUDA_ERROR_INSUFFICIENT_DRIVER = 35,
    GPL_CUDA_ERROR_DEVICE_UNAVAILABLE = 46,
    GPL_CUDA_ERROR_NO_DEVICE = 100,
    GPL_CUDA_ERROR_OPERATING_SYSTEM = 304,
    GPL_CUDA_ERROR_NOT_PERMITTED = 800,
    GPL_CUDA_ERROR_SYSTEM_NOT_READY = 802,
    GPL_CUDA_ERROR_SYSTEM_DRIVER_MISMATCH = 803,
    GPL_CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804
};

/* CUdevice_attribute values. */
enum {
    GPL_CU_ATTR_MULTIPROCESSOR_COUNT = 16,
    GPL_CU_ATTR_INTEGRATED = 18,
    GPL_CU_ATTR_COMPUTE_CAPABILITY_MAJOR = 75,
    GPL_CU_ATTR_COMPUTE_CAPABILITY_MINOR = 76,
    GPL_CU_ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97
};

typedef CUresult (*gpl_cuInit_fn)(unsigned int flags);
typedef CUresult (*gpl_cuDriverGetVersion_fn)(int *version);
typedef CUresult (*gpl_cuDeviceGetCount_fn)(int *count);
typedef CUresult (*gpl_cuDeviceGet_fn)(CUdevice *device, int ordinal);
typedef CUresult (*gpl_cuDeviceGetName_fn)(char *name, int len, CUdevice dev);
typedef CUresult (*gpl_cuDeviceGetUuid_fn)(gpl_cu_uuid *uuid, CUdevice dev);
typedef CUresult (*gpl_cuDeviceTotalMem_fn)(size_t *bytes, CUdevice dev);
typedef CUresult (*gpl_cuDeviceGetAttribute_fn)(int *value, int attrib, CUdevice dev);
typedef CUresult (*gpl_cuGetErrorName_fn)(CUresult error, const char **name);

typedef int nvmlReturn_t;
typedef struct gpl_nvml_device *nvmlDevice_t;
typedef struct {
    unsigned long long total, free, used;
} gpl_nvml_memory;

enum { GPL_NVML_SUCCESS = 0 };

typedef nvmlReturn_t (*gpl_nvmlInit_fn)(void);
typedef nvmlReturn_t (*gpl_nvmlShutdown_fn)(void);
typedef nvmlReturn_t (*gpl_nvmlSystemGetDriverVersion_fn)(char *version, unsigned int len);
typedef nvmlReturn_t (*gpl_nvmlDeviceGetCount_fn)(unsigned int *count);
typedef nvmlReturn_t (*gpl_nvmlDeviceGetHandleByUUID_fn)(const char *uuid, nvmlDevice_t *dev);
typedef nvmlReturn_t (*gpl_nvmlDeviceGetMemoryInfo_fn)(nvmlDevice_t dev, gpl_nvml_memory *mem);
typedef const char *(*gpl_nvmlErrorString_fn)(nvmlReturn_t result);

#endif
