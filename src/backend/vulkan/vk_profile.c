/* vk_profile.c -- GPULAYER_VULKAN_PROFILE=1: the device time of every
 * batch, from timestamps written at the start and end of its command
 * buffer and at marks between its stages (histogram partials, their
 * reduction, ...), summed by operation or stage and by level and printed
 * when the backend is destroyed, with the time the host spent waiting for
 * batches. Off by default: the queries cost a little on every batch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vk_context.h"

/* Queries of a frame: its start, its marks, its end (the last). */
#define VK_PROFILE_QUERIES (VK_PROFILE_MARKS + 2)

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
    if (!c->tuning.profile) return;
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
                        "compute queue; profile off\n", c->dev.device_name);
        return;
    }
    VkQueryPoolCreateInfo qi = {.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO,
                                .queryType = VK_QUERY_TYPE_TIMESTAMP,
                                .queryCount = VK_PROFILE_QUERIES * VK_FRAMES};
    if (c->api.vkCreateQueryPool(c->device, &qi, NULL, &p->pool) != VK_SUCCESS) return;
    p->ms_per_tick = props.limits.timestampPeriod / 1e6;
    p->mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    p->enabled = 1;
}

void vk_profile_begin(vk_context *c, int frame, VkCommandBuffer cmd)
{
    if (!c->prof.enabled) return;
    const uint32_t first = (uint32_t)(VK_PROFILE_QUERIES * frame);
    c->api.vkCmdResetQueryPool(cmd, c->prof.pool, first, VK_PROFILE_QUERIES);
    c->api.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, c->prof.pool, first);
    c->prof.num_marks[frame] = 0;
}

void vk_profile_mark(vk_context *c, const char *label)
{
    vk_profile *p = &c->prof;
    const int frame = c->current;
    if (!p->enabled || !c->recording || p->num_marks[frame] == VK_PROFILE_MARKS) return;
    const int m = p->num_marks[frame]++;
    p->marks[frame][m] = label;
    /* Written once the commands before it have finished. */
    c->api.vkCmdWriteTimestamp(c->frames[frame].cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT,
                               p->pool, (uint32_t)(VK_PROFILE_QUERIES * frame + 1 + m));
}

void vk_profile_end(vk_context *c, int frame, VkCommandBuffer cmd)
{
    if (!c->prof.enabled) return;
    c->api.vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, c->prof.pool,
                               (uint32_t)(VK_PROFILE_QUERIES * frame + VK_PROFILE_QUERIES - 1));
}

double vk_profile_clock(const vk_context *c) { return c->prof.enabled ? now_ms() : 0.0; }

void vk_profile_add(const vk_context *c, double start, double *total)
{
    if (c->prof.enabled) *total += now_ms() - start;
}

/* Device time `ms` of `name` at `level` added to the totals. */
static void add_time(vk_profile *p, const char *name, int level, double ms)
{
    int i = 0;
    while (i < p->num_ops && strcmp(p->ops[i].op, name) != 0) i++;
    if (i == p->num_ops) {
        if (p->num_ops == VK_PROFILE_OPS) return;
        memset(&p->ops[i], 0, sizeof p->ops[i]);
        p->ops[p->num_ops++].op = name;
    }
    p->ops[i].ms += ms;
    p->ops[i].batches++;
    if (level < 0) level = 0;
    if (level >= VK_PROFILE_LEVELS) level = VK_PROFILE_LEVELS - 1;
    p->ops[i].level_ms[level] += ms;
}

/* After the frame's fence: its timestamps are final. The time before the
 * first mark counts as the batch's operation, each mark's up to the next
 * mark (or the end) as the mark's label. */
void vk_profile_collect(vk_context *c, int frame, const char *op, int level, double wait_start)
{
    vk_profile *p = &c->prof;
    if (!p->enabled) return;
    p->wait_ms += now_ms() - wait_start;
    const int marks = p->num_marks[frame];
    const uint32_t first = (uint32_t)(VK_PROFILE_QUERIES * frame);
    uint64_t t[VK_PROFILE_QUERIES];
    if (c->api.vkGetQueryPoolResults(c->device, p->pool, first, (uint32_t)(1 + marks),
                                     sizeof t, t, sizeof t[0],
                                     VK_QUERY_RESULT_64_BIT) != VK_SUCCESS ||
        c->api.vkGetQueryPoolResults(c->device, p->pool, first + VK_PROFILE_QUERIES - 1, 1,
                                     sizeof t[0], &t[1 + marks], sizeof t[0],
                                     VK_QUERY_RESULT_64_BIT) != VK_SUCCESS)
        return;
    /* Batches finish in queue order; a start before the last end means
     * the two overlapped (or were collected out of order): no gap. */
    if (p->last_end && ((t[0] - p->last_end) & p->mask) < (p->mask >> 1))
        p->idle_ms += (double)((t[0] - p->last_end) & p->mask) * p->ms_per_tick;
    p->last_end = t[1 + marks];
    for (int m = 0; m <= marks; m++) {
        const char *name = m == 0 ? (op ? op : "batch") : p->marks[frame][m - 1];
        add_time(p, name, level, (double)((t[m + 1] - t[m]) & p->mask) * p->ms_per_tick);
    }
    p->num_marks[frame] = 0;
}

void vk_profile_report(vk_context *c)
{
    vk_profile *p = &c->prof;
    if (!p->enabled) return;
    double total = 0.0;
    for (int i = 0; i < p->num_ops; i++) total += p->ops[i].ms;
    fprintf(stderr, "[gpulayer] vulkan profile (device time of each batch, by operation):\n");
    for (int i = 0; i < p->num_ops; i++) {
        fprintf(stderr, "[gpulayer]   %-22s %9.1f ms %5.1f%%  %7ld times\n", p->ops[i].op,
                p->ops[i].ms, total > 0 ? 100.0 * p->ops[i].ms / total : 0.0,
                p->ops[i].batches);
        /* By level, where it ran at more than one. */
        int levels = 0;
        for (int l = 0; l < VK_PROFILE_LEVELS; l++) levels += p->ops[i].level_ms[l] > 0.0;
        if (levels < 2) continue;
        fprintf(stderr, "[gpulayer]     by level ms:");
        for (int l = 0; l < VK_PROFILE_LEVELS; l++)
            if (p->ops[i].level_ms[l] > 0.0)
                fprintf(stderr, " %d:%.1f", l, p->ops[i].level_ms[l]);
        fprintf(stderr, "\n");
    }
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
