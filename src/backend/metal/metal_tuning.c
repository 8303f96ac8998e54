/* metal_tuning.c -- the Metal backend's tuning (metal_tuning.h). */
#include "metal_tuning.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mtl_tuning_read(mtl_tuning *t)
{
    memset(t, 0, sizeof *t);
    t->gradient_groups = 1024;
    t->partial_budget = (uint64_t)64 << 20;
    t->partial_groups = 512;
    t->node_partials = 64;
    const char *v = getenv("GPULAYER_METAL_WORKSPACE");
    t->workspace = v && !strcmp(v, "private") ? GPL_MTL_PRIVATE : GPL_MTL_SHARED;
}

int mtl_tuning_key(const mtl_tuning *t, char *out, size_t size)
{
    return snprintf(out, size,
                    "gradient_groups=%u;partial_budget=%" PRIu64 ";partial_groups=%u;"
                    "node_partials=%u;workspace=%s",
                    t->gradient_groups, t->partial_budget, t->partial_groups, t->node_partials,
                    t->workspace == GPL_MTL_PRIVATE ? "private" : "shared");
}
