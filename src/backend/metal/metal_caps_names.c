/* metal_caps_names.c -- the capability names of a Metal device record
 * (metal_caps.h), as the device layer reports them. Separate from the
 * backend's checks because the probe program links it alone. */
#include <stdio.h>

#include "metal_caps.h"

int gpl_mtl_caps_float_atomics(const gpl_mtl_caps *c)
{
    return c->metal3 || c->apple_family >= 7;
}

int gpl_mtl_caps_names(const gpl_mtl_caps *c, char (*names)[32], int max)
{
    int n = 0;
    /* Families are cumulative: a device of Apple8 is also Apple7, and the
     * device layer matches requests such as "metal.apple7" by name. */
    for (int f = 1; f <= c->apple_family && n < max; f++)
        snprintf(names[n++], 32, "metal.apple%d", f);
    if (c->mac2 && n < max) snprintf(names[n++], 32, "metal.mac2");
    if (c->metal3 && n < max) snprintf(names[n++], 32, "metal.metal3");
    if (gpl_mtl_caps_float_atomics(c) && n < max) snprintf(names[n++], 32, "metal.float_atomics");
    return n;
}
