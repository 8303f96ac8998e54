/* metal_pool.c -- the BufferPool's bookkeeping (metal_pool.h): size
 * classes, free lists per class and storage mode, the pending list of
 * buffers whose command buffers have not completed, and the counters that
 * tests check for leaks. No Metal type appears here. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "metal_pool.h"

/* log2 of GPL_MTL_POOL_MIN_BYTES and the number of pooled classes: class 0
 * is 256 bytes, then four steps per power of two up to 2^30. */
#define MIN_SHIFT 8
#define STEPS 4
#define NUM_CLASSES (1 + STEPS * (30 - MIN_SHIFT))

typedef struct entry {
    gpl_mtl_block block;
    uint64_t last_use;
    struct entry *next;
} entry;

struct gpl_mtl_pool {
    gpl_mtl_pool_ops ops;
    size_t max_cached_bytes;
    pthread_mutex_t lock;
    entry *free_list[NUM_CLASSES][GPL_MTL_STORAGE_COUNT];
    entry *pending;
    entry *spare; /* list nodes kept for reuse: no malloc in handlers */
    uint64_t completed;
    gpl_mtl_pool_stats stats;
};

static int floor_log2(size_t n)
{
    int p = 0;
    while (n >>= 1) p++;
    return p;
}

int32_t gpl_mtl_pool_class_of(size_t bytes)
{
    if (bytes <= GPL_MTL_POOL_MIN_BYTES) return 0;
    if (bytes > GPL_MTL_POOL_MAX_CLASS_BYTES) return -1;
    const int p = floor_log2(bytes - 1);
    const size_t base = (size_t)1 << p, step = base / STEPS;
    const size_t k = (bytes - base + step - 1) / step; /* 1..STEPS */
    return (int32_t)(STEPS * (p - MIN_SHIFT) + (int)k);
}

size_t gpl_mtl_pool_class_bytes(int32_t size_class)
{
    if (size_class <= 0) return GPL_MTL_POOL_MIN_BYTES;
    const int p = MIN_SHIFT + (size_class - 1) / STEPS;
    const size_t k = (size_t)((size_class - 1) % STEPS + 1);
    const size_t base = (size_t)1 << p;
    return base + k * (base / STEPS);
}

size_t gpl_mtl_pool_capacity(size_t bytes)
{
    int32_t c = gpl_mtl_pool_class_of(bytes);
    if (c >= 0) return gpl_mtl_pool_class_bytes(c);
    return (bytes + GPL_MTL_POOL_PAGE_BYTES - 1) / GPL_MTL_POOL_PAGE_BYTES *
           GPL_MTL_POOL_PAGE_BYTES;
}

gpulayer_status gpl_mtl_pool_create(const gpl_mtl_pool_ops *ops, size_t max_cached_bytes,
                                    gpl_mtl_pool **out)
{
    *out = NULL;
    if (!ops || !ops->make || !ops->free)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "metal buffer pool: no device callbacks");
    gpl_mtl_pool *p = calloc(1, sizeof *p);
    if (!p) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "metal buffer pool: out of memory");
    if (pthread_mutex_init(&p->lock, NULL) != 0) {
        free(p);
        return gpl_error(GPULAYER_ERR_INTERNAL, "metal buffer pool: cannot create its lock");
    }
    p->ops = *ops;
    p->max_cached_bytes = max_cached_bytes;
    *out = p;
    return GPULAYER_OK;
}

static void free_nodes(entry *e)
{
    while (e) {
        entry *next = e->next;
        free(e);
        e = next;
    }
}

static size_t held_bytes(const gpl_mtl_pool_stats *s)
{
    return s->live_bytes + s->pending_bytes + s->cached_bytes;
}

size_t gpl_mtl_pool_destroy(gpl_mtl_pool *p)
{
    if (!p) return 0;
    size_t leaked = p->stats.live;
    for (int c = 0; c < NUM_CLASSES; c++)
        for (int s = 0; s < GPL_MTL_STORAGE_COUNT; s++) {
            for (entry *e = p->free_list[c][s]; e; e = e->next)
                p->ops.free(p->ops.user, e->block.handle);
            free_nodes(p->free_list[c][s]);
        }
    for (entry *e = p->pending; e; e = e->next) {
        p->ops.free(p->ops.user, e->block.handle);
        leaked++;
    }
    free_nodes(p->pending);
    free_nodes(p->spare);
    pthread_mutex_destroy(&p->lock);
    free(p);
    /* Live blocks belong to the caller, who should have released them; the
     * pool cannot free what it no longer has a handle to. */
    return leaked;
}

static entry *take_node(gpl_mtl_pool *p)
{
    entry *e = p->spare;
    if (e) {
        p->spare = e->next;
        return e;
    }
    e = malloc(sizeof *e);
    if (e) memset(e, 0, sizeof *e);
    return e;
}

static void put_node(gpl_mtl_pool *p, entry *e)
{
    memset(&e->block, 0, sizeof e->block);
    e->next = p->spare;
    p->spare = e;
}

gpulayer_status gpl_mtl_pool_acquire(gpl_mtl_pool *p, size_t bytes, gpl_mtl_storage storage,
                                     const char *what, gpl_mtl_block *out)
{
    memset(out, 0, sizeof *out);
    if ((int)storage < 0 || storage >= GPL_MTL_STORAGE_COUNT)
        return gpl_error(GPULAYER_ERR_INTERNAL, "metal buffer pool: bad storage mode %d",
                         (int)storage);
    if (bytes == 0) bytes = 1;
    const int32_t c = gpl_mtl_pool_class_of(bytes);
    pthread_mutex_lock(&p->lock);
    /* The block's list node is taken now, so that releasing it later (and
     * completing it, in a handler) never allocates and cannot fail. */
    entry *e = c >= 0 ? p->free_list[c][storage] : NULL;
    if (e) {
        p->free_list[c][storage] = e->next;
        p->stats.cached--;
        p->stats.cached_bytes -= e->block.bytes;
        p->stats.reused++;
    } else {
        e = take_node(p);
    }
    pthread_mutex_unlock(&p->lock);
    if (!e) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "metal buffer pool: out of memory");
    if (e->block.handle == NULL || e->block.size_class != c) {
        const size_t cap = gpl_mtl_pool_capacity(bytes);
        void *h = p->ops.make(p->ops.user, cap, storage);
        if (!h) {
            pthread_mutex_lock(&p->lock);
            put_node(p, e);
            pthread_mutex_unlock(&p->lock);
            return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                             "metal backend: the device could not allocate %zu bytes for the %s",
                             cap, what ? what : "buffer");
        }
        e->block = (gpl_mtl_block){h, cap, storage, c, NULL};
        pthread_mutex_lock(&p->lock);
        p->stats.made++;
        pthread_mutex_unlock(&p->lock);
    }
    e->block.tracking = e;
    e->last_use = 0;
    e->next = NULL;
    *out = e->block;
    pthread_mutex_lock(&p->lock);
    p->stats.live++;
    p->stats.live_bytes += out->bytes;
    if (held_bytes(&p->stats) > p->stats.peak_bytes) p->stats.peak_bytes = held_bytes(&p->stats);
    pthread_mutex_unlock(&p->lock);
    return GPULAYER_OK;
}

/* With the lock held: a block the device no longer uses goes to the cache,
 * or back to the device when it is not pooled or the cache is full. The
 * free callback runs outside the lock (returned through *to_free). */
static void settle(gpl_mtl_pool *p, entry *e, entry **to_free)
{
    const gpl_mtl_block *b = &e->block;
    if (b->size_class >= 0 && p->stats.cached_bytes + b->bytes <= p->max_cached_bytes) {
        e->next = p->free_list[b->size_class][b->storage];
        p->free_list[b->size_class][b->storage] = e;
        p->stats.cached++;
        p->stats.cached_bytes += b->bytes;
    } else {
        e->next = *to_free;
        *to_free = e;
    }
}

static void free_settled(gpl_mtl_pool *p, entry *list)
{
    size_t n = 0;
    for (entry *e = list; e; e = e->next, n++) p->ops.free(p->ops.user, e->block.handle);
    pthread_mutex_lock(&p->lock);
    p->stats.freed += n;
    while (list) {
        entry *next = list->next;
        put_node(p, list);
        list = next;
    }
    pthread_mutex_unlock(&p->lock);
}

void gpl_mtl_pool_release(gpl_mtl_pool *p, const gpl_mtl_block *block, uint64_t last_use)
{
    if (!p || !block || !block->handle || !block->tracking) return;
    entry *to_free = NULL;
    entry *e = block->tracking;
    pthread_mutex_lock(&p->lock);
    p->stats.live--;
    p->stats.live_bytes -= e->block.bytes;
    e->last_use = last_use;
    if (last_use > p->completed) {
        e->next = p->pending;
        p->pending = e;
        p->stats.pending++;
        p->stats.pending_bytes += e->block.bytes;
    } else {
        settle(p, e, &to_free);
    }
    pthread_mutex_unlock(&p->lock);
    if (to_free) free_settled(p, to_free);
}

void gpl_mtl_pool_complete(gpl_mtl_pool *p, uint64_t serial)
{
    if (!p) return;
    entry *to_free = NULL;
    pthread_mutex_lock(&p->lock);
    /* Completion handlers of a queue run in order, but a late caller must
     * never move the mark backwards. */
    if (serial > p->completed) p->completed = serial;
    entry **link = &p->pending;
    while (*link) {
        entry *e = *link;
        if (e->last_use <= p->completed) {
            *link = e->next;
            p->stats.pending--;
            p->stats.pending_bytes -= e->block.bytes;
            settle(p, e, &to_free);
        } else {
            link = &e->next;
        }
    }
    pthread_mutex_unlock(&p->lock);
    if (to_free) free_settled(p, to_free);
}

void gpl_mtl_pool_trim(gpl_mtl_pool *p)
{
    entry *to_free = NULL;
    pthread_mutex_lock(&p->lock);
    for (int c = 0; c < NUM_CLASSES; c++)
        for (int s = 0; s < GPL_MTL_STORAGE_COUNT; s++) {
            entry *e = p->free_list[c][s];
            while (e) {
                entry *next = e->next;
                e->next = to_free;
                to_free = e;
                e = next;
            }
            p->free_list[c][s] = NULL;
        }
    p->stats.cached = 0;
    p->stats.cached_bytes = 0;
    pthread_mutex_unlock(&p->lock);
    if (to_free) free_settled(p, to_free);
}

void gpl_mtl_pool_stats_get(gpl_mtl_pool *p, gpl_mtl_pool_stats *out)
{
    pthread_mutex_lock(&p->lock);
    *out = p->stats;
    pthread_mutex_unlock(&p->lock);
}
