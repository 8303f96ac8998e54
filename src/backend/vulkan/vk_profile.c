/* vk_profile.c -- GPULAYER_VULKAN_PROFILE=1: the device time of every
 * batch, from timestamps written at the start and end of its command
 * buffer, summed by operation and printed when the backend is destroyed,
 * with the time the host spent waiting for batches. Off by default: the
 * queries cost a little on every batch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vk_backend.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void vk_profile_init(vk_context *c)
{
    vk_profile *p = &c->prof;
    memset(p, 0, sizeof *p);
    const char *v = getenv("GPULAYER_VULKAN_PROFILE");
    if (!v || !*v || !strcmp(v, "0")) return;
    VkPhysicalDeviceProperties props;
    c->api.vkGetPhysicalDeviceProperties(c->physical, &props);
    uint32_t n = 0;
    c->api.vkGetPhysicalDeviceQueueFamilyProperties(c->physical, &n, NULL);
    VkQueueFamilyProperties *q = malloc(sizeof *q * (n ? n : 1));
    if (!q) return;
    c->api.vkGetPhysicalDeviceQueueFamilyProperties(c->physical, &n, q);
    uint32_t bits = c->queue_family < n ? q[c->queue_family].timestampValidBits : 0;
    free(q);
    if (bits == 0 || props.limits.timestampPeriod <= 0.0f) {
        fprintf(stderr, "[gpulayer] vulkan profile: device '%s' has no timestamps on its "
                        "compute queue; profile off\n", c->device_name);
        return;
    }
    VkQueryPoolCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                .queryCount = 2 * VK_FRAMES};
    if (c->api.vkCreateQueryPool(c->device, &qi, NULL, &p->pool) != VK_SUCCESS) return;
    p->ms_per_tick = props.limits.timestampPeriod / 1e6;
    p->mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    p->enabled = 1;
}

void vk_profile_begin(vk_context *c, int frame, VkCommandBuffer cmd)
{
    if (!c->prof.enabled) return;
    c->api.vkCmdResetQueryPool(cmd, c->prof.pool, (uint32_t)(2 * frame), 2);
    c->api.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, c->prof.pool,
                               (uint32_t)(2 * frame));
}

void vk_profile_end(vk_context *c, int frame, VkCommandBuffer cmd)
{
    if (!c->prof.enabled) return;
    c->api.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, c->prof.pool,
                               (uint32_t)(2 * frame + 1));
}

double vk_profile_clock(const vk_context *c) { return c->prof.enabled ? now_ms() : 0.0; }

void vk_profile_add(const vk_context *c, double start, double *total)
{
    if (c->prof.enabled) *total += now_ms() - start;
}

/* After the frame's fence: its two timestamps are final. */
void vk_profile_collect(vk_context *c, int frame, const char *op, double wait_start)
{
    vk_profile *p = &c->prof;
    if (!p->enabled) return;
    p->wait_ms += now_ms() - wait_start;
    uint64_t t[2];
    if (c->api.vkGetQueryPoolResults(c->device, p->pool, (uint32_t)(2 * frame), 2, sizeof t, t,
                                     sizeof t[0], VK_QUERY_RESULT_64_BIT) != VK_SUCCESS)
        return;
    double ms = (double)((t[1] - t[0]) & p->mask) * p->ms_per_tick;
    /* Batches finish in queue order; a start before the last end means
     * the two overlapped (or were collected out of order): no gap. */
    if (p->last_end && ((t[0] - p->last_end) & p->mask) < (p->mask >> 1))
        p->idle_ms += (double)((t[0] - p->last_end) & p->mask) * p->ms_per_tick;
    p->last_end = t[1];
    const char *name = op ? op : "batch";
    int i = 0;
    while (i < p->num_ops && strcmp(p->ops[i].op, name) != 0) i++;
    if (i == p->num_ops) {
        if (p->num_ops == VK_PROFILE_OPS) return;
        p->ops[p->num_ops++].op = name;
    }
    p->ops[i].ms += ms;
    p->ops[i].batches++;
}

void vk_profile_report(vk_context *c)
{
    vk_profile *p = &c->prof;
    if (!p->enabled) return;
    double total = 0.0;
    for (int i = 0; i < p->num_ops; i++) total += p->ops[i].ms;
    fprintf(stderr, "[gpulayer] vulkan profile (device time of each batch, by operation):\n");
    for (int i = 0; i < p->num_ops; i++)
        fprintf(stderr, "[gpulayer]   %-22s %9.1f ms %5.1f%%  %7ld batches\n", p->ops[i].op,
                p->ops[i].ms, total > 0 ? 100.0 * p->ops[i].ms / total : 0.0,
                p->ops[i].batches);
    fprintf(stderr, "[gpulayer]   %-22s %9.1f ms\n", "total device", total);
    fprintf(stderr, "[gpulayer]   %-22s %9.1f ms\n", "device idle between", p->idle_ms);
    fprintf(stderr, "[gpulayer]   %-22s %9.1f ms\n", "host waiting", p->wait_ms);
    fprintf(stderr, "[gpulayer]   %-22s %9.1f ms  %7ld dispatches\n", "host recording",
            p->record_ms, p->dispatches);
    fprintf(stderr, "[gpulayer]   %-22s %9.1f ms\n", "host submitting", p->submit_ms);
}

void vk_profile_destroy(vk_context *c)
{
    if (c->prof.pool) c->api.vkDestroyQueryPool(c->device, c->prof.pool, NULL);
    c->prof.pool = VK_NULL_HANDLE;
    c->prof.enabled = 0;
}
