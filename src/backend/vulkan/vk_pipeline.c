/* vk_pipeline.c -- the kernel table, the ABI check of the embedded SPIR-V
 * and the pipeline registry (one pipeline a kernel, created on first use
 * and cached with its specialization constants and ABI version). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "vk_context.h"

/* Bindings and push constant sizes; they mirror the `binding = N` and
 * push_constant blocks of shaders/<name>.comp. */
const gpl_vk_kernel_info gpl_vk_kernel_table[VK_K_COUNT] = {
    [VK_K_GRADIENTS] = {"gradients", 6, sizeof(gpl_gradient_push)},
    [VK_K_QUANTIZE] = {"quantize", 1, 24},
    [VK_K_ROWS_INIT] = {"rows_init", 1, sizeof(gpl_rows_init_push)},
    [VK_K_HISTOGRAM] = {"histogram", GPL_HISTOGRAM_BINDINGS, sizeof(gpl_histogram_push)},
    [VK_K_HIST_REDUCE] = {"hist_reduce", 2, 12},
    [VK_K_HIST_SUBTRACT] = {"hist_subtract", 3, 4},
    [VK_K_SPLIT_EVAL] = {"split_eval", 5, sizeof(gpl_split_push)},
    [VK_K_PARTITION_COUNT] = {"partition_count", GPL_PART_COUNT_BINDINGS,
                              sizeof(gpl_partition_push)},
    [VK_K_PARTITION_SCAN] = {"partition_scan", GPL_PART_SCAN_BINDINGS,
                             sizeof(gpl_partition_push)},
    [VK_K_PARTITION_SCATTER] = {"partition_scatter", GPL_PART_SCATTER_BINDINGS,
                                sizeof(gpl_partition_push)},
    [VK_K_PARTITION_PLACE] = {"partition_place", GPL_PART_SCATTER_BINDINGS,
                              sizeof(gpl_partition_push)},
    [VK_K_UPDATE_MARGINS] = {"update_margins", GPL_MARGINS_BINDINGS, sizeof(gpl_margins_push)},
    [VK_K_PREDICT] = {"predict", 9, 32},
    [VK_K_HISTOGRAM_ROWS] = {"histogram_rows", GPL_HISTOGRAM_ROWS_BINDINGS,
                             sizeof(gpl_histogram_rows_push)},
    [VK_K_BINS_COLUMNS] = {"bins_columns", GPL_BINS_COLUMNS_BINDINGS, sizeof(gpl_columns_push)},
    [VK_K_MARGINS_SPLIT] = {"margins_split", GPL_MARGINS_SPLIT_BINDINGS,
                            sizeof(gpl_margins_split_push)},
    [VK_K_SPLIT_TABLE] = {"split_table", GPL_SPLIT_TABLE_BINDINGS, sizeof(gpl_split_table_push)},
    [VK_K_SPLIT_EVAL_LEVEL] = {"split_eval_level", 6, sizeof(gpl_split_push)},
    [VK_K_HIST_REDUCE_NODES] = {"hist_reduce_nodes", 3, sizeof(gpl_hist_nodes_push)},
    [VK_K_HIST_SUBTRACT_NODES] = {"hist_subtract_nodes", 2, sizeof(gpl_hist_nodes_push)},
    [VK_K_RANK_ORDER] = {"rank_order", GPL_RANK_BINDINGS, sizeof(gpl_rank_push)},
    [VK_K_RANK_MAP] = {"rank_map", GPL_RANK_BINDINGS, sizeof(gpl_rank_push)},
    [VK_K_RANK_PAIRS] = {"rank_pairs", GPL_RANK_BINDINGS, sizeof(gpl_rank_push)},
    [VK_K_RANK_FINISH] = {"rank_finish", GPL_RANK_BINDINGS, sizeof(gpl_rank_push)},
    [VK_K_SHAP] = {"shap", 15, 60},
    [VK_K_COX] = {"cox", GPL_COX_BINDINGS, sizeof(gpl_cox_push)},
};

_Static_assert(VK_MAX_BINDINGS == GPL_MAX_KERNEL_BINDINGS,
               "VK_MAX_BINDINGS must be the kernels' largest binding count");

static const gpl_vk_blob *find_blob(const char *name)
{
    for (int i = 0; i < gpl_vk_blob_count; i++)
        if (!strcmp(gpl_vk_blobs[i].name, name)) return &gpl_vk_blobs[i];
    return NULL;
}

/* Kernels that compute in float64 have a float64-free variant NAME_soft
 * (same source, binary64 on 64-bit integers, the same bits). */
static int has_soft_variant(gpl_vk_kernel k)
{
    return k == VK_K_GRADIENTS || k == VK_K_QUANTIZE || k == VK_K_SPLIT_EVAL ||
           k == VK_K_SPLIT_EVAL_LEVEL || k == VK_K_RANK_ORDER || k == VK_K_RANK_MAP ||
           k == VK_K_RANK_PAIRS || k == VK_K_RANK_FINISH || k == VK_K_SHAP || k == VK_K_COX;
}

static const gpl_vk_blob *kernel_blob(gpl_vk_kernel k, int soft)
{
    char name[64];
    snprintf(name, sizeof name, "%s%s", gpl_vk_kernel_table[k].name,
             soft && has_soft_variant(k) ? "_soft" : "");
    return find_blob(name);
}

/* Before any device work: every kernel is present, of this ABI, and looks
 * like SPIR-V. A mismatch means a broken build, reported as such. */
gpulayer_status vk_pipelines_check(void)
{
    for (int v = 0; v < 2 * VK_K_COUNT; v++) {
        const gpl_vk_kernel k = (gpl_vk_kernel)(v % VK_K_COUNT);
        const int soft = v >= VK_K_COUNT;
        if (soft && !has_soft_variant(k)) continue;
        const gpl_vk_blob *b = kernel_blob(k, soft);
        if (!b)
            return gpl_error(GPULAYER_ERR_INTERNAL,
                             "vulkan backend: kernel '%s%s' is missing from this library",
                             gpl_vk_kernel_table[k].name, soft ? "_soft" : "");
        const char *name = b->name;
        if (gpl_vk_kernel_table[k].bindings > VK_MAX_BINDINGS)
            return gpl_error(GPULAYER_ERR_INTERNAL,
                             "vulkan backend: kernel '%s' has %u bindings, more than %u",
                             name, gpl_vk_kernel_table[k].bindings, VK_MAX_BINDINGS);
        if (b->abi != GPL_VK_KERNEL_ABI)
            return gpl_error(GPULAYER_ERR_INTERNAL,
                             "vulkan backend: kernel '%s' has ABI version %d, the host "
                             "expects %d", name, b->abi, GPL_VK_KERNEL_ABI);
        uint32_t magic = 0;
        if (b->size >= 4) memcpy(&magic, b->code, 4);
        if (b->size % 4 != 0 || magic != 0x07230203u)
            return gpl_error(GPULAYER_ERR_INTERNAL,
                             "vulkan backend: kernel '%s' is not valid SPIR-V", name);
    }
    return GPULAYER_OK;
}

/* The workgroup size kernel k is built with. */
static uint32_t kernel_wg(const vk_context *c, gpl_vk_kernel k)
{
    switch (k) {
    case VK_K_HISTOGRAM_ROWS: return c->dev.hist_wg;
    case VK_K_SPLIT_EVAL_LEVEL: return c->dev.split_wg;
    case VK_K_PARTITION_COUNT:
    case VK_K_PARTITION_SCAN:
    case VK_K_PARTITION_SCATTER:
    case VK_K_PARTITION_PLACE: return c->dev.part_wg;
    default: return c->dev.wg;
    }
}

static gpulayer_status create_pipeline(vk_context *c, gpl_vk_kernel k, vk_pipeline *p)
{
    const gpl_vk_kernel_info *info = &gpl_vk_kernel_table[k];
    const gpl_vk_blob *blob = kernel_blob(k, c->dev.soft_f64);
    VkShaderModuleCreateInfo mi = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                   .codeSize = blob->size,
                                   .pCode = (const uint32_t *)(const void *)blob->code};
    VkResult r = c->api.vkCreateShaderModule(c->device, &mi, NULL, &p->module);
    VkDescriptorSetLayoutBinding bindings[VK_MAX_BINDINGS];
    for (uint32_t i = 0; i < info->bindings; i++)
        bindings[i] = (VkDescriptorSetLayoutBinding){i + 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                                     1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
    if (r == VK_SUCCESS) {
        VkDescriptorSetLayoutCreateInfo li = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
            .bindingCount = info->bindings,
            .pBindings = bindings};
        r = c->api.vkCreateDescriptorSetLayout(c->device, &li, NULL, &p->set_layout);
    }
    if (r == VK_SUCCESS) {
        VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, info->push_bytes};
        VkPipelineLayoutCreateInfo li = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                         .setLayoutCount = 1,
                                         .pSetLayouts = &p->set_layout,
                                         .pushConstantRangeCount = 1,
                                         .pPushConstantRanges = &range};
        r = c->api.vkCreatePipelineLayout(c->device, &li, NULL, &p->layout);
    }
    if (r == VK_SUCCESS) {
        /* 0: workgroup size, 1: histogram chunk bins, 2: window bytes (log2;
         * window.glsl). A kernel without an ID ignores its entry. */
        const uint32_t values[3] = {kernel_wg(c, k), c->dev.shared_bins, c->dev.window_shift};
        const VkSpecializationMapEntry entries[3] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}};
        VkSpecializationInfo spec = {3, entries, sizeof values, values};
        VkComputePipelineCreateInfo pi = {
            .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
            .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                      .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                      .module = p->module,
                      .pName = "main",
                      .pSpecializationInfo = &spec},
            .layout = p->layout};
        r = c->api.vkCreateComputePipelines(c->device, VK_NULL_HANDLE, 1, &pi, NULL,
                                            &p->pipeline);
    }
    if (r != VK_SUCCESS)
        return gpl_error(GPULAYER_ERR_DEVICE,
                         "vulkan backend: building kernel '%s' on '%s' failed (%s)",
                         info->name, c->dev.device_name, gpl_vk_result_name(r));
    p->wg = kernel_wg(c, k);
    p->shared_bins = c->dev.shared_bins;
    p->window_shift = c->dev.window_shift;
    p->abi = GPL_VK_KERNEL_ABI;
    return GPULAYER_OK;
}

static void destroy_one(vk_context *c, vk_pipeline *p)
{
    if (p->pipeline) c->api.vkDestroyPipeline(c->device, p->pipeline, NULL);
    if (p->layout) c->api.vkDestroyPipelineLayout(c->device, p->layout, NULL);
    if (p->set_layout) c->api.vkDestroyDescriptorSetLayout(c->device, p->set_layout, NULL);
    if (p->module) c->api.vkDestroyShaderModule(c->device, p->module, NULL);
    memset(p, 0, sizeof *p);
}

/* The cached pipeline of kernel k, built when first needed; rebuilt when
 * its key (specialization constants, ABI) no longer matches. */
gpulayer_status vk_pipeline_get(vk_context *c, gpl_vk_kernel k, vk_pipeline **out)
{
    vk_pipeline *p = &c->dev.pipelines[k];
    if (p->pipeline && (p->wg != kernel_wg(c, k) || p->shared_bins != c->dev.shared_bins ||
                        p->window_shift != c->dev.window_shift || p->abi != GPL_VK_KERNEL_ABI))
        destroy_one(c, p);
    if (!p->pipeline) {
        gpulayer_status st = create_pipeline(c, k, p);
        if (st != GPULAYER_OK) {
            destroy_one(c, p);
            return st;
        }
    }
    *out = p;
    return GPULAYER_OK;
}

void vk_pipelines_destroy(vk_context *c)
{
    for (int k = 0; k < VK_K_COUNT; k++) destroy_one(c, &c->dev.pipelines[k]);
}
