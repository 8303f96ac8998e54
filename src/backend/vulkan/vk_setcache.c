/* vk_setcache.c -- descriptor sets kept across batches. A kernel's
 * bindings hardly change from one level to the next (the same row,
 * gradient and bin buffers, a histogram slot among a few hundred), but a
 * deep level records hundreds of dispatches, and allocating and writing a
 * set of up to VK_MAX_BINDINGS descriptors for each costs the host more
 * than the device spends on many of them. A set made once for a layout
 * and a list of buffer ranges is never written again, so it can be bound
 * by any later batch. When a buffer is destroyed every cached set is
 * forgotten, since a new buffer may get the old one's handle. */
#include <stdlib.h>
#include <string.h>

#include "vk_context.h"

typedef struct vk_cached_set {
    VkDescriptorSetLayout layout; /* VK_NULL_HANDLE: empty slot */
    uint32_t count;
    VkDescriptorBufferInfo info[VK_MAX_BINDINGS];
    VkDescriptorSet set;
} vk_cached_set;

/* FNV-1a over 64-bit words (every dispatch hashes up to VK_MAX_BINDINGS
 * ranges: byte by byte that was about a microsecond of host time each). */
static uint64_t mix(uint64_t h, uint64_t w)
{
    h = (h ^ w) * 0x100000001b3ULL;
    return h ^ (h >> 29);
}

/* A handle's bits (a pointer or a 64-bit integer, by platform). */
#define HANDLE_BITS(h, out)                                                      \
    do {                                                                         \
        (out) = 0;                                                               \
        memcpy(&(out), &(h), sizeof(h) < sizeof(out) ? sizeof(h) : sizeof(out)); \
    } while (0)

static uint64_t key_hash(VkDescriptorSetLayout layout, const VkDescriptorBufferInfo *info,
                         uint32_t n)
{
    uint64_t w;
    HANDLE_BITS(layout, w);
    uint64_t h = mix(0xcbf29ce484222325ULL, w);
    for (uint32_t i = 0; i < n; i++) {
        HANDLE_BITS(info[i].buffer, w);
        h = mix(h, w);
        h = mix(h, (uint64_t)info[i].offset);
        h = mix(h, (uint64_t)info[i].range);
    }
    return h;
}

static int same(const vk_cached_set *e, VkDescriptorSetLayout layout,
                const VkDescriptorBufferInfo *info, uint32_t n)
{
    if (e->layout != layout || e->count != n) return 0;
    for (uint32_t i = 0; i < n; i++)
        if (e->info[i].buffer != info[i].buffer || e->info[i].offset != info[i].offset ||
            e->info[i].range != info[i].range)
            return 0;
    return 1;
}

static int ensure(vk_context *c)
{
    vk_setcache *sc = &c->setcache;
    if (sc->failed) return 0;
    if (sc->slots) return 1;
    sc->slots = calloc(VK_SETCACHE_SLOTS, sizeof(vk_cached_set));
    VkDescriptorPoolSize size = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                 VK_SETCACHE_SETS * VK_MAX_BINDINGS};
    VkDescriptorPoolCreateInfo pi = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
                                     .maxSets = VK_SETCACHE_SETS,
                                     .poolSizeCount = 1,
                                     .pPoolSizes = &size};
    if (!sc->slots ||
        c->api.vkCreateDescriptorPool(c->device, &pi, NULL, &sc->pool) != VK_SUCCESS) {
        /* Not fatal: every dispatch then writes its own set, as before. */
        free(sc->slots);
        sc->slots = NULL;
        sc->failed = 1;
        return 0;
    }
    return 1;
}

VkDescriptorSet vk_setcache_get(vk_context *c, VkDescriptorSetLayout layout,
                                const VkDescriptorBufferInfo *info, uint32_t n)
{
    if (!ensure(c)) return VK_NULL_HANDLE;
    vk_setcache *sc = &c->setcache;
    vk_cached_set *slots = sc->slots;
    uint32_t i = (uint32_t)key_hash(layout, info, n) & (VK_SETCACHE_SLOTS - 1);
    while (slots[i].layout != VK_NULL_HANDLE) {
        if (same(&slots[i], layout, info, n)) return slots[i].set;
        i = (i + 1) & (VK_SETCACHE_SLOTS - 1);
    }
    if (sc->allocated == VK_SETCACHE_SETS) return VK_NULL_HANDLE; /* full */
    VkDescriptorSetAllocateInfo ai = {.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
                                      .descriptorPool = sc->pool,
                                      .descriptorSetCount = 1,
                                      .pSetLayouts = &layout};
    VkDescriptorSet set;
    if (c->api.vkAllocateDescriptorSets(c->device, &ai, &set) != VK_SUCCESS)
        return VK_NULL_HANDLE;
    sc->allocated++;
    sc->entries++;
    VkWriteDescriptorSet writes[VK_MAX_BINDINGS];
    for (uint32_t b = 0; b < n; b++)
        writes[b] = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                                           .dstSet = set,
                                           .dstBinding = b + 1,
                                           .descriptorCount = 1,
                                           .descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                           .pBufferInfo = &info[b]};
    c->api.vkUpdateDescriptorSets(c->device, n, writes, 0, NULL);
    slots[i].layout = layout;
    slots[i].count = n;
    memcpy(slots[i].info, info, sizeof *info * n);
    slots[i].set = set;
    return set;
}

/* Forgets every cached set. The pool itself is reset only when no batch
 * can still use its sets (nothing recorded, nothing in flight); otherwise
 * its sets stay allocated until a later reset, and the cache may fill up
 * sooner (then dispatches write their own sets). */
void vk_setcache_forget(vk_context *c)
{
    vk_setcache *sc = &c->setcache;
    if (!sc->slots || sc->entries == 0) return; /* nothing to forget: no table wipe */
    memset(sc->slots, 0, sizeof(vk_cached_set) * VK_SETCACHE_SLOTS);
    sc->entries = 0;
    if (!c->recording && vk_finish(c) == GPULAYER_OK &&
        c->api.vkResetDescriptorPool(c->device, sc->pool, 0) == VK_SUCCESS)
        sc->allocated = 0;
}

void vk_setcache_destroy(vk_context *c)
{
    vk_setcache *sc = &c->setcache;
    if (sc->pool) c->api.vkDestroyDescriptorPool(c->device, sc->pool, NULL);
    free(sc->slots);
    memset(sc, 0, sizeof *sc);
}
