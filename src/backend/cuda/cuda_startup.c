/* cuda_startup.c -- what the backend checks before it accepts any work: a
 * device exists, the driver is new enough for the runtime linked in, the
 * device's compute capability is one the shipped code covers, the shipped
 * kernels load on it and were built for this host code (kernel ABI). Each
 * refusal names the device and the driver. Also the error formatter. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda_context.h"
#include "error.h"

gpulayer_status cuda_fail(const cuda_context *c, cudaError_t err, const char *what)
{
    /* Clears a non-sticky error so the next call starts clean; a sticky
     * one (a faulting kernel) stays, and every later call reports it. */
    (void)cudaGetLastError();
    gpulayer_status st = err == cudaErrorMemoryAllocation ? GPULAYER_ERR_OUT_OF_MEMORY
                                                         : GPULAYER_ERR_DEVICE;
    if (c && c->level >= 0)
        return gpl_error(st, "cuda backend: %s failed at tree level %d: %s (%s)", what,
                         c->level, cudaGetErrorString(err), cudaGetErrorName(err));
    return gpl_error(st, "cuda backend: %s failed: %s (%s)", what, cudaGetErrorString(err),
                     cudaGetErrorName(err));
}

static void version_text(int v, char *buf, size_t size)
{
    if (v <= 0) snprintf(buf, size, "none");
    else snprintf(buf, size, "%d.%d", v / 1000, (v % 1000) / 10);
}

/* The ABI the device code reports must be the host's. */
static gpulayer_status check_kernel_abi(cuda_context *c, const char *driver)
{
    int32_t *d_abi = NULL, abi = -1;
    cudaError_t e = cudaMalloc((void **)&d_abi, sizeof *d_abi);
    if (e == cudaSuccess) e = gpl_cuda_launch_abi_probe(d_abi, c->dev.stream);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(&abi, d_abi, sizeof abi, cudaMemcpyDeviceToHost, c->dev.stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(c->dev.stream);
    cudaFree(d_abi);
    if (e != cudaSuccess)
        return gpl_error(GPULAYER_ERR_DEVICE,
                         "cuda backend: a test kernel failed on %s (driver %s): %s",
                         c->dev.device_name, driver, cudaGetErrorString(e));
    if (abi != GPL_CUDA_KERNEL_ABI)
        return gpl_error(GPULAYER_ERR_DEVICE,
                         "cuda backend: the shipped kernels have ABI version %d but this "
                         "library expects %d: the build is inconsistent (rebuild it)",
                         abi, GPL_CUDA_KERNEL_ABI);
    return GPULAYER_OK;
}

gpulayer_status cuda_startup(cuda_context *c, int device)
{
    char driver[24], runtime[24];
    cudaDriverGetVersion(&c->dev.driver_version);
    cudaRuntimeGetVersion(&c->dev.runtime_version);
    version_text(c->dev.driver_version, driver, sizeof driver);
    version_text(c->dev.runtime_version, runtime, sizeof runtime);
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    (void)cudaGetLastError();
    if (e != cudaSuccess || count == 0)
        return gpl_error(GPULAYER_ERR_DEVICE,
                         "cuda backend: no usable CUDA device (driver %s, runtime %s): %s",
                         driver, runtime,
                         e != cudaSuccess ? cudaGetErrorString(e) : "no device found");
    if (device < 0 || device >= count)
        return gpl_error(GPULAYER_ERR_DEVICE,
                         "cuda backend: device %d requested but this host has %d CUDA "
                         "device%s", device, count, count == 1 ? "" : "s");
    struct cudaDeviceProp prop;
    e = cudaGetDeviceProperties(&prop, device);
    if (e != cudaSuccess) return cuda_fail(NULL, e, "cudaGetDeviceProperties");
    c->dev.device = device;
    /* prop.name has 256 bytes; keep room for the suffix. */
    snprintf(c->dev.device_name, sizeof c->dev.device_name, "%.200s (cuda:%d, compute capability %d.%d)",
             prop.name, device, prop.major, prop.minor);
    c->dev.cc_major = prop.major;
    c->dev.cc_minor = prop.minor;
    c->dev.sm_count = prop.multiProcessorCount;
    c->dev.smem_optin = prop.sharedMemPerBlockOptin;
    if (c->dev.driver_version / 1000 < c->dev.runtime_version / 1000)
        return gpl_error(GPULAYER_ERR_DEVICE,
                         "cuda backend: the driver of %s supports CUDA %s, older than the "
                         "CUDA %s runtime this library was built with; update the NVIDIA "
                         "driver", c->dev.device_name, driver, runtime);
    if (prop.major < 8)
        return gpl_error(GPULAYER_ERR_DEVICE,
                         "cuda backend: %s is not supported: compute capability 8.0 or "
                         "newer is required (driver %s)", c->dev.device_name, driver);
    e = cudaSetDevice(device);
    if (e == cudaErrorMemoryAllocation) {
        (void)cudaGetLastError();
        /* No context, so the runtime cannot say how much is free. */
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "cuda backend: cannot create a CUDA context on %s: the device is "
                         "out of memory (a context needs a few hundred MiB; nvidia-smi "
                         "lists the processes that hold it)", c->dev.device_name);
    }
    if (e != cudaSuccess) return cuda_fail(NULL, e, "cudaSetDevice");
    /* The first touch of a kernel: fails when no shipped code (SASS or
     * PTX) suits the device or the driver is too old for the PTX. */
    struct cudaFuncAttributes attr;
    e = gpl_cuda_kernel_attributes(&attr);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        return gpl_error(GPULAYER_ERR_DEVICE,
                         "cuda backend: the kernels in this library cannot run on %s with "
                         "driver %s (runtime %s): %s (%s)", c->dev.device_name, driver, runtime,
                         cudaGetErrorString(e), cudaGetErrorName(e));
    }
    e = cudaStreamCreateWithFlags(&c->dev.stream, cudaStreamNonBlocking);
    if (e != cudaSuccess) return cuda_fail(NULL, e, "cudaStreamCreate");
    GPL_CHECK(check_kernel_abi(c, driver));
    if (c->dev.verbose) {
        char key[128];
        cuda_tuning_key(&c->tuning, key, sizeof key);
        fprintf(stderr, "[gpulayer] cuda backend on %s, %d multiprocessors, driver %s, "
                "runtime %s, tuning %s\n", c->dev.device_name, c->dev.sm_count, driver, runtime, key);
    }
    return GPULAYER_OK;
}

void gpl_cuda_backend_warm_up(int device)
{
    /* The runtime's first call loads and starts the driver; cudaFree(0)
     * then makes the device's primary context, which cudaSetDevice in the
     * backend's own thread finds ready. */
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
    if (device < 0 && count == 1) device = 0;
    if (device >= 0 && device < count && cudaSetDevice(device) == cudaSuccess) cudaFree(0);
    (void)cudaGetLastError();
}

/* For tests and diagnostics: free and total memory of a device, without
 * creating a backend. Declared weak by its callers so that they also link
 * in builds without CUDA. */
int gpl_cuda_device_memory(int device, size_t *free_bytes, size_t *total_bytes)
{
    if (cudaSetDevice(device) != cudaSuccess ||
        cudaMemGetInfo(free_bytes, total_bytes) != cudaSuccess) {
        (void)cudaGetLastError();
        return -1;
    }
    return 0;
}
