/* vk_record.c -- batches: one command buffer records an operation's
 * dispatches for a whole level and is submitted once. Batches whose
 * results the host does not read are not waited for at once (a ring of
 * VK_FRAMES); every batch's result is still checked when it is waited
 * for, and a failure names its operation, level and kernels. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "error.h"
#include "vk_context.h"

/* A batch that has not finished after this long is reported as hung. */
#define VK_BATCH_TIMEOUT_NS (600ull * 1000000000ull)
/* How long a wait polls the fence before it sleeps. */
#define VK_FENCE_SPIN_NS 2000000LL

static vk_frame *current(vk_context *c) { return &c->frames[c->current]; }

static gpulayer_status batch_error(vk_context *c, const vk_frame *f, const char *what,
                                   VkResult r)
{
    return gpl_error(r == VK_ERROR_OUT_OF_DEVICE_MEMORY ? GPULAYER_ERR_OUT_OF_MEMORY
                                                        : GPULAYER_ERR_DEVICE,
                     "vulkan backend: %s at level %d (kernels: %s) on '%s': %s failed (%s)",
                     f->op ? f->op : "batch", f->level, f->kernels[0] ? f->kernels : "none",
                     c->dev.device_name, what, gpl_vk_result_name(r));
}

static gpulayer_status wait_frame(vk_context *c, vk_frame *f)
{
    if (!f->in_flight) return GPULAYER_OK;
    f->in_flight = 0;
    const double wait_start = vk_profile_clock(c);
    /* Most batches of a level finish within a fraction of a millisecond:
     * poll the fence for up to VK_FENCE_SPIN_NS before sleeping in
     * vkWaitForFences, whose wake-up latency would otherwise be paid at
     * every level. */
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        if (c->api.vkGetFenceStatus(c->device, f->fence) != VK_NOT_READY) break;
        clock_gettime(CLOCK_MONOTONIC, &t);
        if ((t.tv_sec - t0.tv_sec) * 1000000000LL + (t.tv_nsec - t0.tv_nsec) > VK_FENCE_SPIN_NS)
            break;
    }
    VkResult r = c->api.vkWaitForFences(c->device, 1, &f->fence, VK_TRUE, VK_BATCH_TIMEOUT_NS);
    VkResult reset = c->api.vkResetFences(c->device, 1, &f->fence);
    if (r != VK_SUCCESS) return batch_error(c, f, "waiting for the device", r);
    vk_profile_collect(c, (int)(f - c->frames), f->op, f->level, wait_start);
    if (reset != VK_SUCCESS) return batch_error(c, f, "vkResetFences", reset);
    return GPULAYER_OK;
}

gpulayer_status vk_finish(vk_context *c)
{
    gpulayer_status first = GPULAYER_OK;
    /* Oldest first, so the first failure reported is the earliest. */
    for (int i = 1; i <= VK_FRAMES; i++) {
        gpulayer_status st = wait_frame(c, &c->frames[(c->current + i) % VK_FRAMES]);
        if (first == GPULAYER_OK) first = st;
    }
    return first;
}

gpulayer_status vk_wait_older(vk_context *c)
{
    for (int i = 1; i < VK_FRAMES; i++)
        GPL_CHECK(wait_frame(c, &c->frames[(c->current + i) % VK_FRAMES]));
    return GPULAYER_OK;
}

/* Opens the current frame's command buffer once its last batch is done. */
static gpulayer_status open_buffer(vk_context *c)
{
    vk_frame *f = current(c);
    GPL_CHECK(wait_frame(c, f));
    VkResult r = c->api.vkResetDescriptorPool(c->device, f->pool, 0);
    if (r == VK_SUCCESS) r = c->api.vkResetCommandBuffer(f->cmd, 0);
    if (r == VK_SUCCESS) {
        VkCommandBufferBeginInfo bi = {.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
                                       .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
        r = c->api.vkBeginCommandBuffer(f->cmd, &bi);
    }
    if (r != VK_SUCCESS) return batch_error(c, f, "starting the command buffer", r);
    vk_profile_begin(c, c->current, f->cmd);
    c->sets_left = VK_SETS_PER_POOL;
    c->recording = 1;
    c->bound = VK_NULL_HANDLE;
    /* Earlier batches' writes (histograms, row lists) become visible to
     * this one, and this one's writes wait for their reads: a barrier's
     * first scope covers all earlier commands on the queue. */
    vk_barrier(c);
    return GPULAYER_OK;
}

gpulayer_status vk_begin(vk_context *c, const char *op)
{
    /* A batch left open by a failed operation is dropped, unsubmitted. */
    if (c->recording) vk_abandon(c);
    c->current = (c->current + 1) % VK_FRAMES;
    vk_frame *f = current(c);
    GPL_CHECK(wait_frame(c, f));
    f->op = op;
    f->level = c->level;
    f->kernels[0] = '\0';
    return open_buffer(c);
}

void vk_abandon(vk_context *c)
{
    if (c->recording) c->api.vkEndCommandBuffer(current(c)->cmd);
    c->recording = 0;
}

static gpulayer_status submit_frame(vk_context *c, int wait)
{
    vk_frame *f = current(c);
    c->recording = 0;
    /* Writes to host-visible buffers (split records, child counts) become
     * visible to the host once the fence has signalled. */
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                          .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT |
                                           VK_ACCESS_TRANSFER_WRITE_BIT,
                          .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
    c->api.vkCmdPipelineBarrier(f->cmd,
                                VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                                    VK_PIPELINE_STAGE_TRANSFER_BIT,
                                VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
    vk_profile_end(c, c->current, f->cmd);
    VkResult r = c->api.vkEndCommandBuffer(f->cmd);
    if (r != VK_SUCCESS) return batch_error(c, f, "recording", r);
    VkSubmitInfo si = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                       .commandBufferCount = 1,
                       .pCommandBuffers = &f->cmd};
    const double t0 = vk_profile_clock(c);
    r = c->api.vkQueueSubmit(c->queue, 1, &si, f->fence);
    vk_profile_add(c, t0, &c->prof.submit_ms);
    if (r != VK_SUCCESS) return batch_error(c, f, "vkQueueSubmit", r);
    f->in_flight = 1;
    return wait ? vk_finish(c) : GPULAYER_OK;
}

gpulayer_status vk_submit(vk_context *c) { return submit_frame(c, 1); }

gpulayer_status vk_submit_async(vk_context *c) { return submit_frame(c, 0); }

static void note_kernel(vk_context *c, const char *name)
{
    vk_frame *f = current(c);
    if (strstr(f->kernels, name)) return;
    size_t used = strlen(f->kernels);
    snprintf(f->kernels + used, sizeof f->kernels - used, "%s%s", used ? "," : "", name);
}

uint32_t vk_groups_for(const vk_context *c, uint64_t items)
{
    uint64_t g = (items + c->dev.wg - 1) / c->dev.wg;
    if (g < 1) g = 1;
    if (g > c->dev.max_groups) g = c->dev.max_groups; /* the kernels loop (grid-stride) */
    return (uint32_t)g;
}

vk_range vk_whole(const vk_buffer *b)
{
    vk_range r = {b, 0, b->bytes};
    return r;
}

gpulayer_status vk_dispatch(vk_context *c, gpl_vk_kernel k, const vk_range *bind,
                            const void *push, uint32_t groups)
{
    const gpl_vk_kernel_info *info = &gpl_vk_kernel_table[k];
    const double t0 = vk_profile_clock(c);
    vk_pipeline *p;
    gpulayer_status st = vk_pipeline_get(c, k, &p);
    if (st != GPULAYER_OK) {
        vk_abandon(c);
        return st;
    }
    if (c->sets_left == 0) {
        /* The pool is spent: finish what is recorded (in order, so the
         * barriers already recorded keep their meaning) and go on. */
        GPL_CHECK(submit_frame(c, 1));
        GPL_CHECK(open_buffer(c));
    }
    note_kernel(c, info->name);
    VkDescriptorBufferInfo buffers[VK_MAX_BINDINGS];
    for (uint32_t i = 0; i < info->bindings; i++)
        buffers[i] = (VkDescriptorBufferInfo){bind[i].buf->buffer, bind[i].offset,
                                              bind[i].bytes};
    VkDescriptorSet set = vk_setcache_get(c, p->set_layout, buffers, info->bindings);
    if (set == VK_NULL_HANDLE) {
        VkDescriptorSetAllocateInfo alloc_info = {
            .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
            .descriptorPool = current(c)->pool,
            .descriptorSetCount = 1,
            .pSetLayouts = &p->set_layout};
        VkResult r = c->api.vkAllocateDescriptorSets(c->device, &alloc_info, &set);
        if (r != VK_SUCCESS) {
            vk_abandon(c);
            return batch_error(c, current(c), "allocating a descriptor set", r);
        }
        c->sets_left--;
        VkWriteDescriptorSet writes[VK_MAX_BINDINGS];
        for (uint32_t i = 0; i < info->bindings; i++)
            writes[i] = (VkWriteDescriptorSet){
                .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                .dstSet = set,
                .dstBinding = i + 1,
                .descriptorCount = 1,
                .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                .pBufferInfo = &buffers[i]};
        c->api.vkUpdateDescriptorSets(c->device, info->bindings, writes, 0, NULL);
    }
    /* A level records runs of the same kernel (one dispatch a node). */
    if (c->bound != p->pipeline) {
        c->api.vkCmdBindPipeline(current(c)->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
        c->bound = p->pipeline;
    }
    c->api.vkCmdBindDescriptorSets(current(c)->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0, 1,
                                   &set, 0, NULL);
    c->api.vkCmdPushConstants(current(c)->cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0,
                              info->push_bytes, push);
    c->api.vkCmdDispatch(current(c)->cmd, groups < 1 ? 1 : groups, 1, 1);
    vk_profile_add(c, t0, &c->prof.record_ms);
    c->prof.dispatches++;
    return GPULAYER_OK;
}

/* Everything written before is visible to everything after: compute and
 * transfer both ways. Coarse, but the batches are short chains. */
void vk_barrier(vk_context *c)
{
    VkMemoryBarrier mb = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                          .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT |
                                           VK_ACCESS_TRANSFER_WRITE_BIT,
                          .dstAccessMask = VK_ACCESS_SHADER_READ_BIT |
                                           VK_ACCESS_SHADER_WRITE_BIT |
                                           VK_ACCESS_TRANSFER_READ_BIT |
                                           VK_ACCESS_TRANSFER_WRITE_BIT};
    const VkPipelineStageFlags stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT |
                                        VK_PIPELINE_STAGE_TRANSFER_BIT;
    c->api.vkCmdPipelineBarrier(current(c)->cmd, stages, stages, 0, 1, &mb, 0, NULL, 0, NULL);
}

void vk_copy(vk_context *c, const vk_buffer *src, VkDeviceSize src_offset,
             const vk_buffer *dst, VkDeviceSize dst_offset, VkDeviceSize bytes)
{
    VkBufferCopy region = {src_offset, dst_offset, bytes};
    vk_copy_regions(c, src, dst, &region, 1);
}

void vk_copy_regions(vk_context *c, const vk_buffer *src, const vk_buffer *dst,
                     const VkBufferCopy *regions, uint32_t count)
{
    if (count) c->api.vkCmdCopyBuffer(current(c)->cmd, src->buffer, dst->buffer, count, regions);
}

void vk_fill(vk_context *c, const vk_buffer *dst, VkDeviceSize offset, VkDeviceSize bytes,
             uint32_t value)
{
    if (bytes) c->api.vkCmdFillBuffer(current(c)->cmd, dst->buffer, offset, bytes, value);
}

void vk_update(vk_context *c, const vk_buffer *dst, VkDeviceSize offset, const void *data,
               VkDeviceSize bytes)
{
    /* vkCmdUpdateBuffer takes at most 65536 bytes a call. */
    const uint8_t *src = data;
    while (bytes > 0) {
        const VkDeviceSize n = bytes < 65536 ? bytes : 65536;
        c->api.vkCmdUpdateBuffer(current(c)->cmd, dst->buffer, offset, n, src);
        offset += n;
        src += n;
        bytes -= n;
    }
}

void vk_windows(const vk_context *c, const vk_buffer *b, uint32_t rows_shift,
                VkDeviceSize row_bytes, vk_range *out)
{
    (void)c;
    const VkDeviceSize window = ((VkDeviceSize)1 << rows_shift) * row_bytes;
    for (uint32_t w = 0; w < GPL_KERNEL_WINDOWS; w++) {
        uint64_t offset, size;
        gpl_window_range(b->bytes, window, w, &offset, &size);
        out[w] = (vk_range){b, offset, size};
    }
}
