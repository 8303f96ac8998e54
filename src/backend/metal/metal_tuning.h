/* metal_tuning.h -- the Metal backend's tuning: every choice that shapes
 * its work besides the device's limits, read once when a backend is
 * created (mtl_tuning_read) and rendered as a stable key (mtl_tuning_key)
 * for anything cached by tuning. Plain C, built and unit-tested everywhere
 * (tests/unit/test_metal_pool.c); docs/metal.md lists it. No value here
 * has been measured on a Mac yet. */
#ifndef GPL_METAL_TUNING_H
#define GPL_METAL_TUNING_H

#include <stddef.h>
#include <stdint.h>

#include "metal_pool.h"

typedef struct mtl_tuning {
    /* Threadgroups of the gradient pass at most (the kernel loops): enough
     * to fill the GPU, few enough that the host reads their maxima back
     * cheaply. */
    uint32_t gradient_groups;
    /* Partial histograms of a wave of nodes: within partial_budget bytes
     * and partial_groups threadgroups, at most node_partials a node. */
    uint64_t partial_budget;
    uint32_t partial_groups, node_partials;
    /* GPULAYER_METAL_WORKSPACE=private: the buffers the host never reads
     * (gradient pairs, row lists, partials, tiles) in private storage;
     * shared is the default until a Mac measurement says otherwise. */
    gpl_mtl_storage workspace;
} mtl_tuning;

/* The defaults, then the environment. */
void mtl_tuning_read(mtl_tuning *t);
/* The tuning as "key=value;..." in a fixed order (every member); returns
 * what snprintf returns. */
int mtl_tuning_key(const mtl_tuning *t, char *out, size_t size);

#endif
