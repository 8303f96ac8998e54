/* vk_memory.c -- device buffers, their accounting, and transfers: plain
 * copies through a mapping where the memory is host-visible, a staging
 * buffer and a copy command where it is device-local. */
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "alloc.h"
#include "bytes.h"
#include "error.h"
#include "vk_context.h"


VkDeviceSize vk_align_up(VkDeviceSize n, VkDeviceSize a) { return (n + a - 1) / a * a; }

/* Bytes of device memory every context of the process holds: what a test
 * reads to see that failed jobs gave back all they took. */
static atomic_llong process_bytes;

long long gpl_vulkan_live_device_bytes(void) { return atomic_load(&process_bytes); }

void vk_track_alloc(vk_context *c, size_t bytes)
{
    c->allocated_bytes += bytes;
    if (c->allocated_bytes > c->peak_bytes) c->peak_bytes = c->allocated_bytes;
    atomic_fetch_add(&process_bytes, (long long)bytes);
}

void vk_track_free(vk_context *c, size_t bytes)
{
    c->allocated_bytes -= bytes;
    atomic_fetch_sub(&process_bytes, (long long)bytes);
}

/* What a failed allocation says: the buffer, its size, and the device's
 * memory as far as the driver tells. */
static gpulayer_status allocation_failed(vk_context *c, VkDeviceSize bytes, const char *what,
                                         VkResult r)
{
    const gpulayer_status code = r == VK_ERROR_OUT_OF_DEVICE_MEMORY ||
                                 r == VK_ERROR_OUT_OF_HOST_MEMORY
                                     ? GPULAYER_ERR_OUT_OF_MEMORY
                                     : GPULAYER_ERR_DEVICE;
    char size[32], heap[32], held[32], free_text[64] = "free memory not reported by the driver";
    gpl_format_bytes(bytes, size, sizeof size);
    gpl_format_bytes(c->dev.heap_bytes, heap, sizeof heap);
    gpl_format_bytes(c->allocated_bytes, held, sizeof held);
    if (c->dev.memory_budget) {
        char free_bytes[32];
        gpl_format_bytes(vk_device_free_bytes(c), free_bytes, sizeof free_bytes);
        snprintf(free_text, sizeof free_text, "%s free", free_bytes);
    }
    return gpl_error(code,
                     "vulkan backend: cannot allocate %s for the %s on %s (%s; heap %s, %s "
                     "held by this job): %s",
                     size, what, c->dev.device_name, free_text, heap, held,
                     gpl_vk_result_name(r));
}

static gpulayer_status create_with_type(vk_context *c, vk_buffer *b, VkDeviceSize bytes,
                                        uint32_t type, const char *what)
{
    memset(b, 0, sizeof *b);
    if (bytes == 0) bytes = 16; /* a binding needs a buffer even when empty */
    bytes = vk_align_up(bytes, 16);
    VkBufferCreateInfo bi = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                             .size = bytes,
                             .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                      VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                             .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
    VkResult r = c->api.vkCreateBuffer(c->device, &bi, NULL, &b->buffer);
    if (r == VK_SUCCESS) {
        VkMemoryRequirements req;
        c->api.vkGetBufferMemoryRequirements(c->device, b->buffer, &req);
        if (!(req.memoryTypeBits & (1u << type))) {
            c->api.vkDestroyBuffer(c->device, b->buffer, NULL);
            b->buffer = VK_NULL_HANDLE;
            return gpl_error(GPULAYER_ERR_DEVICE,
                             "vulkan backend: no suitable memory type for the %s", what);
        }
        VkMemoryAllocateInfo alloc_info = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                                           .allocationSize = req.size,
                                           .memoryTypeIndex = type};
        r = gpl_device_alloc_injected()
                ? VK_ERROR_OUT_OF_DEVICE_MEMORY
                : c->api.vkAllocateMemory(c->device, &alloc_info, NULL, &b->memory);
        if (r == VK_SUCCESS) r = c->api.vkBindBufferMemory(c->device, b->buffer, b->memory, 0);
    }
    if (r != VK_SUCCESS) {
        /* Nothing half-made stays behind: a buffer whose memory failed
         * would outlive the device it was made on. */
        if (b->memory) c->api.vkFreeMemory(c->device, b->memory, NULL);
        if (b->buffer) c->api.vkDestroyBuffer(c->device, b->buffer, NULL);
        memset(b, 0, sizeof *b);
        return allocation_failed(c, bytes, what, r);
    }
    b->bytes = bytes;
    vk_track_alloc(c, (size_t)bytes);
    return GPULAYER_OK;
}

static gpulayer_status map_buffer(vk_context *c, vk_buffer *b, const char *what)
{
    VkResult r = c->api.vkMapMemory(c->device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->mapped);
    if (r != VK_SUCCESS)
        return gpl_error(GPULAYER_ERR_DEVICE, "vulkan backend: mapping the %s failed (%s)",
                         what, gpl_vk_result_name(r));
    return GPULAYER_OK;
}

gpulayer_status vk_buffer_create(vk_context *c, vk_buffer *b, VkDeviceSize bytes,
                                 const char *what)
{
    GPL_CHECK(create_with_type(c, b, bytes, c->dev.device_local_type, what));
    return c->dev.host_visible ? map_buffer(c, b, what) : GPULAYER_OK;
}

/* Small buffers the host reads or writes every level (split records, child
 * counts, the feature mask) live in host-visible memory even on a discrete
 * GPU: the kernels write them in place and the host reads them once the
 * batch's fence has signalled, with no copy batch and second wait in
 * between (on an H200 those round trips cost more than the kernels). */
gpulayer_status vk_buffer_create_host(vk_context *c, vk_buffer *b, VkDeviceSize bytes,
                                      const char *what)
{
    if (c->dev.host_visible || c->dev.host_type == UINT32_MAX) return vk_buffer_create(c, b, bytes, what);
    GPL_CHECK(create_with_type(c, b, bytes, c->dev.host_type, what));
    b->host_side = 1;
    return map_buffer(c, b, what);
}

void vk_buffer_destroy(vk_context *c, vk_buffer *b)
{
    /* A cached descriptor set may name this buffer, and a new buffer may
     * get its handle. */
    if (b->buffer) vk_setcache_forget(c);
    if (b->buffer) c->api.vkDestroyBuffer(c->device, b->buffer, NULL);
    if (b->memory) {
        if (b->mapped) c->api.vkUnmapMemory(c->device, b->memory);
        c->api.vkFreeMemory(c->device, b->memory, NULL);
        vk_track_free(c, (size_t)b->bytes);
    }
    memset(b, 0, sizeof *b);
}

static gpulayer_status ensure_staging(vk_context *c)
{
    if (c->buf.staging.buffer) return GPULAYER_OK;
    GPL_CHECK(create_with_type(c, &c->buf.staging, c->dev.staging_bytes, c->dev.host_type,
                               "staging buffer"));
    VkResult r = c->api.vkMapMemory(c->device, c->buf.staging.memory, 0, VK_WHOLE_SIZE, 0,
                                    &c->buf.staging.mapped);
    if (r != VK_SUCCESS)
        return gpl_error(GPULAYER_ERR_DEVICE, "vulkan backend: mapping the staging buffer "
                         "failed (%s)", gpl_vk_result_name(r));
    return GPULAYER_OK;
}

/* Where the bytes of a write come from: `data` as it is, or rows of
 * src_stride bytes each widened to dst_stride bytes with zeros. */
typedef struct write_source {
    const uint8_t *data;
    size_t src_stride, dst_stride; /* 0: plain bytes */
} write_source;

/* Pieces of a large fill copied by separate threads: one thread's memcpy
 * into write-combined staging memory runs well below the bus. */
#define VK_FILL_PIECE ((VkDeviceSize)1 << 20)

/* Bytes [from, from + n) of the destination's image of the source. */
static void fill(const write_source *s, void *out, VkDeviceSize from, VkDeviceSize n)
{
    if (!s->dst_stride) {
        const int64_t pieces = (int64_t)((n + VK_FILL_PIECE - 1) / VK_FILL_PIECE);
#pragma omp parallel for schedule(static) if (pieces > 1)
        for (int64_t p = 0; p < pieces; p++) {
            const VkDeviceSize at = (VkDeviceSize)p * VK_FILL_PIECE;
            const VkDeviceSize len = n - at < VK_FILL_PIECE ? n - at : VK_FILL_PIECE;
            memcpy((uint8_t *)out + at, s->data + from + at, (size_t)len);
        }
        return;
    }
    /* Rows are copied whole: callers cut at row boundaries. */
    const int64_t first = (int64_t)(from / s->dst_stride), rows = (int64_t)(n / s->dst_stride);
#pragma omp parallel for schedule(static) if (rows > 65536)
    for (int64_t i = 0; i < rows; i++) {
        uint8_t *o = (uint8_t *)out + (size_t)i * s->dst_stride;
        memcpy(o, s->data + (size_t)(first + i) * s->src_stride, s->src_stride);
        memset(o + s->src_stride, 0, s->dst_stride - s->src_stride);
    }
}

/* A device-local buffer is written through the staging buffer in two
 * halves: the host fills one half while the device copies the other, so
 * a large upload runs at the slower of memcpy and the bus instead of
 * their sum plus a wait a piece. */
static gpulayer_status write_staged(vk_context *c, vk_buffer *b, VkDeviceSize offset,
                                    const write_source *s, VkDeviceSize bytes)
{
    GPL_CHECK(ensure_staging(c));
    VkDeviceSize half = c->dev.staging_bytes / 2;
    if (s->dst_stride) half = half / s->dst_stride * s->dst_stride;
    if (half == 0) /* a row longer than half the staging buffer */
        return gpl_error(GPULAYER_ERR_UNSUPPORTED, "vulkan backend: a row of %zu bytes does "
                         "not fit the staging buffer", s->dst_stride);
    int k = 0;
    for (VkDeviceSize done = 0; done < bytes; done += half, k ^= 1) {
        const VkDeviceSize n = bytes - done < half ? bytes - done : half;
        /* This half's previous copy (two batches ago) must be done. */
        GPL_CHECK(vk_wait_older(c));
        fill(s, (char *)c->buf.staging.mapped + k * half, done, n);
        GPL_CHECK(vk_begin(c, "upload"));
        vk_copy(c, &c->buf.staging, (VkDeviceSize)k * half, b, offset + done, n);
        GPL_CHECK(vk_submit_async(c));
    }
    return vk_finish(c);
}

static gpulayer_status write_source_to(vk_context *c, vk_buffer *b, VkDeviceSize offset,
                                       const write_source *s, VkDeviceSize bytes)
{
    GPL_CHECK(vk_finish(c));
    if (b->mapped) {
        fill(s, (char *)b->mapped + offset, 0, bytes);
        return GPULAYER_OK;
    }
    return write_staged(c, b, offset, s, bytes);
}

/* A transfer first waits for every batch in flight, so a mapped buffer
 * can then be written directly. */
gpulayer_status vk_buffer_write(vk_context *c, vk_buffer *b, VkDeviceSize offset,
                                const void *data, VkDeviceSize bytes)
{
    const write_source s = {data, 0, 0};
    return write_source_to(c, b, offset, &s, bytes);
}

gpulayer_status vk_buffer_write_rows(vk_context *c, vk_buffer *b, const void *data,
                                     size_t rows, size_t src_stride, size_t dst_stride)
{
    /* Rows that need no padding go as plain bytes (one memcpy a piece). */
    const write_source s = {data, src_stride == dst_stride ? 0 : src_stride,
                            src_stride == dst_stride ? 0 : dst_stride};
    return write_source_to(c, b, 0, &s, (VkDeviceSize)rows * dst_stride);
}

gpulayer_status vk_buffer_read(vk_context *c, const vk_buffer *b, VkDeviceSize offset,
                               void *data, VkDeviceSize bytes)
{
    GPL_CHECK(vk_finish(c));
    if (b->mapped) {
        memcpy(data, (const char *)b->mapped + offset, (size_t)bytes);
        return GPULAYER_OK;
    }
    GPL_CHECK(ensure_staging(c));
    for (VkDeviceSize done = 0; done < bytes; done += c->dev.staging_bytes) {
        VkDeviceSize n = bytes - done < c->dev.staging_bytes ? bytes - done : c->dev.staging_bytes;
        GPL_CHECK(vk_begin(c, "download"));
        vk_copy(c, b, offset + done, &c->buf.staging, 0, n);
        GPL_CHECK(vk_submit(c));
        memcpy((char *)data + done, c->buf.staging.mapped, (size_t)n);
    }
    return GPULAYER_OK;
}

/* Level-sized buffers (split records, child counts, partition tiles) grow
 * with the largest level seen instead of being sized for max_nodes, which
 * can be far larger than any level. */
static gpulayer_status reserve(vk_context *c, vk_buffer *b, VkDeviceSize bytes,
                               const char *what, int host_side)
{
    if (b->buffer && b->bytes >= bytes) return GPULAYER_OK;
    GPL_CHECK(vk_finish(c)); /* a batch in flight may still use it */
    if (bytes > c->dev.max_range)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "vulkan backend: the %s need %llu bytes, more than device '%s' can "
                         "bind (maxStorageBufferRange %llu)", what,
                         (unsigned long long)bytes, c->dev.device_name,
                         (unsigned long long)c->dev.max_range);
    VkDeviceSize grown = b->bytes * 2 > bytes ? b->bytes * 2 : bytes;
    if (grown > c->dev.max_range) grown = c->dev.max_range;
    vk_buffer_destroy(c, b);
    return host_side ? vk_buffer_create_host(c, b, grown, what)
                     : vk_buffer_create(c, b, grown, what);
}

gpulayer_status vk_buffer_reserve(vk_context *c, vk_buffer *b, VkDeviceSize bytes,
                                  const char *what)
{
    return reserve(c, b, bytes, what, 0);
}

gpulayer_status vk_buffer_reserve_host(vk_context *c, vk_buffer *b, VkDeviceSize bytes,
                                       const char *what)
{
    return reserve(c, b, bytes, what, 1);
}
