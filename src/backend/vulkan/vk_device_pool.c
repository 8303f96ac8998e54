/* vk_device_pool.c -- logical devices kept between the backends of one
 * process, with the pipelines built on them.
 *
 * Building a pipeline can cost more than a small job's work: a driver
 * turns the SPIR-V into its own code there (lavapipe runs its NIR passes
 * over each float64-free kernel for seconds, whatever the disk cache
 * holds). A backend that closes parks its idle device here, and the next
 * backend on the same physical device and float64 mode takes it, so a
 * process builds each kernel once, as a CUDA process loads its module once.
 * A parked device holds no buffers; each is used by one backend at a time. */
#include <pthread.h>
#include <string.h>

#include "vk_context.h"

/* Devices parked at once: one for each device and float64 mode a process
 * trains on; a backend that finds the pool full destroys its device. */
#define VK_POOL_SLOTS 8

typedef struct vk_parked {
    VkPhysicalDevice physical;
    int soft_f64;
    VkDevice device;
    uint32_t queue_family;
    vk_pipeline pipelines[VK_K_COUNT];
} vk_parked;

static vk_parked pool[VK_POOL_SLOTS];
static int pool_count;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

int vk_device_pool_take(vk_context *c)
{
    int found = 0;
    pthread_mutex_lock(&pool_lock);
    for (int i = 0; i < pool_count && !found; i++) {
        if (pool[i].physical != c->physical || pool[i].soft_f64 != c->dev.soft_f64) continue;
        c->device = pool[i].device;
        c->queue_family = pool[i].queue_family;
        memcpy(c->dev.pipelines, pool[i].pipelines, sizeof c->dev.pipelines);
        pool[i] = pool[--pool_count];
        found = 1;
    }
    pthread_mutex_unlock(&pool_lock);
    return found;
}

int vk_device_pool_park(vk_context *c)
{
    int parked = 0;
    pthread_mutex_lock(&pool_lock);
    if (pool_count < VK_POOL_SLOTS) {
        vk_parked *p = &pool[pool_count++];
        p->physical = c->physical;
        p->soft_f64 = c->dev.soft_f64;
        p->device = c->device;
        p->queue_family = c->queue_family;
        memcpy(p->pipelines, c->dev.pipelines, sizeof p->pipelines);
        parked = 1;
    }
    pthread_mutex_unlock(&pool_lock);
    if (parked) {
        memset(c->dev.pipelines, 0, sizeof c->dev.pipelines);
        c->device = VK_NULL_HANDLE;
    }
    return parked;
}
