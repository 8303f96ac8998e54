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

/* Whether each optional member is set exactly when the table claims it:
 * the core trusts the capabilities word and calls a member it names without
 * a test, and never calls one the word leaves out. */
static gpulayer_status check_capabilities(const char *name, const struct gpl_backend_ops *ops)
{
    const struct {
        unsigned cap;
        const char *member;
        int set;
    } optional[] = {
        {GPL_BACKEND_CAP_SPLIT_INTO_LEAVES, "split_into_leaves", ops->split_into_leaves != NULL},
        {GPL_BACKEND_CAP_WRITE_PAIRS, "write_pairs", ops->write_pairs != NULL},
        {GPL_BACKEND_CAP_PREDICT, "predict", ops->predict != NULL},
        {GPL_BACKEND_CAP_REFIT, "refit_sort", ops->refit_sort != NULL},
        {GPL_BACKEND_CAP_REFIT, "refit_values", ops->refit_values != NULL},
        {GPL_BACKEND_CAP_RANK_GROUPS, "set_groups", ops->set_groups != NULL},
        {GPL_BACKEND_CAP_SHAP, "shap", ops->shap != NULL},
        {GPL_BACKEND_CAP_SURVIVAL_ORDER, "set_survival_order", ops->set_survival_order != NULL},
    };
    if (ops->capabilities & ~GPL_BACKEND_CAP_ALL)
        return gpl_error(GPULAYER_ERR_INTERNAL,
                         "%s backend: capabilities 0x%x name bits this library does not know",
                         name, ops->capabilities & ~GPL_BACKEND_CAP_ALL);
    for (size_t i = 0; i < sizeof optional / sizeof optional[0]; i++) {
        const int claimed = (ops->capabilities & optional[i].cap) != 0;
        if (claimed && !optional[i].set)
            return gpl_error(GPULAYER_ERR_INTERNAL,
                             "%s backend: its capabilities claim %s, which its operation "
                             "table does not set", name, optional[i].member);
        if (!claimed && optional[i].set)
            return gpl_error(GPULAYER_ERR_INTERNAL,
                             "%s backend: its operation table sets %s without the capability "
                             "bit that names it", name, optional[i].member);
    }
    return GPULAYER_OK;
}

/* The core calls the required members without a test. */
static gpulayer_status check_required(const char *name, const struct gpl_backend_ops *ops)
{
    const struct {
        const char *member;
        int set;
    } required[] = {
        {"name", ops->name != NULL},
        {"destroy", ops->destroy != NULL},
        {"upload", ops->upload != NULL},
        {"set_margins", ops->set_margins != NULL},
        {"get_margins", ops->get_margins != NULL},
        {"compute_gradients", ops->compute_gradients != NULL},
        {"begin_tree", ops->begin_tree != NULL},
        {"build_histograms", ops->build_histograms != NULL},
        {"subtract_histograms", ops->subtract_histograms != NULL},
        {"evaluate_splits", ops->evaluate_splits != NULL},
        {"partition_rows", ops->partition_rows != NULL},
        {"update_margins", ops->update_margins != NULL},
        {"release_histograms", ops->release_histograms != NULL},
        {"read_histogram", ops->read_histogram != NULL},
        {"memory", ops->memory != NULL},
    };
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!required[i].set)
            return gpl_error(GPULAYER_ERR_INTERNAL,
                             "%s backend: its operation table lacks %s, which every backend "
                             "must have", name, required[i].member);
    return GPULAYER_OK;
}

/* A table of another layout, one without a required operation, or one
 * whose capabilities misstate its optional members, is refused before
 * anything calls it. */
static gpulayer_status check_ops(const char *name, const struct gpl_backend_ops *ops)
{
    if (ops->version != GPL_BACKEND_OPS_VERSION)
        return gpl_error(GPULAYER_ERR_INTERNAL,
                         "%s backend: operation table version %d, but this library reads "
                         "version %d", name, ops->version, GPL_BACKEND_OPS_VERSION);
    GPL_CHECK(check_required(name, ops));
    return check_capabilities(name, ops);
}

gpulayer_status gpl_backend_new(const char *name, const struct gpl_backend_ops *ops,
                                const gpl_backend_config *config, size_t ctx_bytes,
                                gpl_backend **out)
{
    *out = NULL;
    GPL_CHECK(check_ops(name, ops));
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
