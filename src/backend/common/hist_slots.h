/* hist_slots.h -- the pool of histogram slots, the same for every backend:
 * which slot holds the histogram of which node, and which slots are free.
 * A slot is an index; its storage (a host buffer, a piece of a device
 * buffer) is the backend's, made by the grow callback when the pool needs
 * new slots.
 *
 * Rules (those every backend kept before they shared this):
 *   - a node keeps its slot until released; acquiring it again is a no-op;
 *   - a node without a slot takes the slot released last (a stack), else
 *     new slots are made: grow makes `made` of them (at least 1, at most
 *     `room`), and the highest of the new ones is handed out first;
 *   - slots made are never given back until the pool is freed: a tree's
 *     end releases every slot to the free stack, in node order;
 *   - at most max_nodes slots exist (each node holds at most one). */
#ifndef GPL_HIST_SLOTS_H
#define GPL_HIST_SLOTS_H

#include <stdint.h>

#include "gpulayer.h"

/* Makes storage for slots first .. first + *made - 1, *made between 1 and
 * room, for node (which needs a slot). */
typedef gpulayer_status (*gpl_hist_slots_grow)(void *user, int32_t node, int32_t first,
                                               int32_t room, int32_t *made);

typedef struct gpl_hist_slots {
    const char *backend; /* names the backend in messages: "cpu", ... */
    int32_t max_nodes;
    int32_t *node_slot;  /* by node: its slot, -1 none */
    int32_t *free_slots; /* released or unused slots, the last one first */
    int32_t num_free;
    int32_t num_slots;   /* slots made: 0 .. num_slots - 1 */
    gpl_hist_slots_grow grow;
    void *user;
} gpl_hist_slots;

/* Returns 0, or -1 when out of memory (the caller names itself). */
int gpl_hist_slots_init(gpl_hist_slots *p, const char *backend, int32_t max_nodes,
                        gpl_hist_slots_grow grow, void *user);
void gpl_hist_slots_free(gpl_hist_slots *p);

/* The slot of node, or -1 (also for an id outside 0..max_nodes-1). */
static inline int32_t gpl_hist_slot(const gpl_hist_slots *p, int32_t node)
{
    return node >= 0 && node < p->max_nodes && p->node_slot ? p->node_slot[node] : -1;
}

/* Slots num_slots .. num_slots + count - 1, whose storage the caller has
 * made, join the free stack, the lowest to be handed out first. */
void gpl_hist_slots_add(gpl_hist_slots *p, int32_t count);

/* The slot of node's histogram (see the rules above); op names the
 * operation in the message for a node id out of range (NULL: none). */
gpulayer_status gpl_hist_slots_acquire(gpl_hist_slots *p, const char *op, int32_t node,
                                       int32_t *slot);
/* Node's slot back to the free stack; ids without a slot are ignored. */
void gpl_hist_slots_release(gpl_hist_slots *p, int32_t node);
/* The slots of nodes[0 .. count - 1] back, in that order. */
void gpl_hist_slots_release_nodes(gpl_hist_slots *p, const int32_t *nodes, int32_t count);
/* Every node's slot back, in node order. */
void gpl_hist_slots_release_all(gpl_hist_slots *p);

#endif
