/* hist_slots.c -- the pool of histogram slots shared by the backends. */
#include "hist_slots.h"

#include <stdlib.h>
#include <string.h>

#include "checks.h"
#include "error.h"

int gpl_hist_slots_init(gpl_hist_slots *p, const char *backend, int32_t max_nodes,
                        gpl_hist_slots_grow grow, void *user)
{
    const size_t M = (size_t)(max_nodes > 0 ? max_nodes : 1);
    memset(p, 0, sizeof *p);
    p->backend = backend;
    p->max_nodes = max_nodes;
    p->grow = grow;
    p->user = user;
    p->node_slot = malloc(M * sizeof *p->node_slot);
    p->free_slots = malloc(M * sizeof *p->free_slots);
    if (!p->node_slot || !p->free_slots) {
        gpl_hist_slots_free(p);
        return -1;
    }
    for (int32_t n = 0; n < max_nodes; n++) p->node_slot[n] = -1;
    return 0;
}

void gpl_hist_slots_free(gpl_hist_slots *p)
{
    free(p->node_slot);
    free(p->free_slots);
    p->node_slot = p->free_slots = NULL;
    p->num_free = p->num_slots = 0;
}

void gpl_hist_slots_add(gpl_hist_slots *p, int32_t count)
{
    for (int32_t i = 0; i < count; i++)
        p->free_slots[p->num_free++] = p->num_slots + count - 1 - i;
    p->num_slots += count;
}

gpulayer_status gpl_hist_slots_acquire(gpl_hist_slots *p, const char *op, int32_t node,
                                       int32_t *slot)
{
    GPL_CHECK(gpl_check_node_id(p->backend, op, node, p->max_nodes));
    if (p->node_slot[node] < 0) {
        if (p->num_free == 0) {
            const int32_t room = p->max_nodes - p->num_slots;
            if (room <= 0)
                return gpl_error(GPULAYER_ERR_INTERNAL,
                                 "%s backend: all %d histogram slots in use", p->backend,
                                 p->max_nodes);
            int32_t made = 0;
            GPL_CHECK(p->grow(p->user, node, p->num_slots, room, &made));
            for (int32_t i = 0; i < made; i++) p->free_slots[p->num_free++] = p->num_slots + i;
            p->num_slots += made;
        }
        p->node_slot[node] = p->free_slots[--p->num_free];
    }
    *slot = p->node_slot[node];
    return GPULAYER_OK;
}

void gpl_hist_slots_release(gpl_hist_slots *p, int32_t node)
{
    if (node < 0 || node >= p->max_nodes || p->node_slot[node] < 0) return;
    p->free_slots[p->num_free++] = p->node_slot[node];
    p->node_slot[node] = -1;
}

void gpl_hist_slots_release_nodes(gpl_hist_slots *p, const int32_t *nodes, int32_t count)
{
    for (int32_t i = 0; i < count; i++) gpl_hist_slots_release(p, nodes[i]);
}

void gpl_hist_slots_release_all(gpl_hist_slots *p)
{
    for (int32_t n = 0; n < p->max_nodes; n++) gpl_hist_slots_release(p, n);
}
