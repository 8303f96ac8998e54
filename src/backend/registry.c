/* registry.c -- the backends built into this library, by accelerator name.
 * Adding a backend means adding its folder, one line here, and its
 * GPL_HAVE_<BACKEND> line in src/device/build_info.c (the device layer
 * reports build status from the same definitions, without this file). */
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "error.h"

typedef gpulayer_status (*backend_constructor)(const gpl_backend_config *,
                                                 gpl_backend **);
typedef void (*backend_warm_up)(int device);

static const struct {
    const char *accelerator;
    backend_constructor create;
    backend_warm_up warm_up; /* NULL: nothing to start ahead */
} registry[] = {
    {"cpu", gpl_cpu_backend_create, NULL},
#ifdef GPL_HAVE_CUDA
    {"cuda", gpl_cuda_backend_create, gpl_cuda_backend_warm_up},
#endif
#ifdef GPL_HAVE_VULKAN
    {"vulkan", gpl_vulkan_backend_create, NULL},
#endif
#ifdef GPL_HAVE_METAL
    {"mps", gpl_metal_backend_create, NULL},
#endif
};

int gpl_backend_is_built(const char *accelerator)
{
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
        if (!strcmp(registry[i].accelerator, accelerator)) return 1;
    return 0;
}

gpulayer_status gpl_backend_create(const char *accelerator,
                                   const gpl_backend_config *config,
                                   gpl_backend **out)
{
    *out = NULL;
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
        if (!strcmp(registry[i].accelerator, accelerator))
            return registry[i].create(config, out);
    return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                     "this build of libgpulayer has no '%s' backend",
                     accelerator);
}

/* The named backend's warm-up, or NULL when it is not built or has none. */
static backend_warm_up warm_up_of(const char *accelerator)
{
    for (size_t i = 0; i < sizeof registry / sizeof registry[0]; i++)
        if (!strcmp(registry[i].accelerator, accelerator)) return registry[i].warm_up;
    return NULL;
}

int gpl_backend_has_warm_up(const char *accelerator)
{
    return warm_up_of(accelerator) != NULL;
}

void gpl_backend_warm_up(const char *accelerator, int device)
{
    backend_warm_up warm_up = warm_up_of(accelerator);
    if (warm_up) warm_up(device);
}

void gpl_backend_destroy(gpl_backend *be)
{
    if (be) be->ops->destroy(be);
}

gpulayer_status gpl_backend_new(const char *name, const struct gpl_backend_ops *ops,
                                const gpl_backend_config *config, size_t ctx_bytes,
                                gpl_backend **out)
{
    *out = NULL;
    if (config->max_nodes < 1 || config->num_outputs < 1)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "%s backend: max_nodes and num_outputs must be >= 1", name);
    gpl_backend *be = calloc(1, sizeof *be);
    void *ctx = calloc(1, ctx_bytes);
    if (!be || !ctx) {
        free(be);
        free(ctx);
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "%s backend: out of memory", name);
    }
    be->ops = ops;
    be->ctx = ctx;
    be->config = *config;
    *out = be;
    return GPULAYER_OK;
}
