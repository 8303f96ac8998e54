/* placement_fit.c -- whether one device can take a request, and why not. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "placement.h"
#include "support_matrix.h"

/* -------------------------------------------------------- capabilities */

/* The number after prefix when the rest of cap is all digits, else -1. */
static int numeric_suffix(const char *cap, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(cap, prefix, n) != 0 || !cap[n]) return -1;
    for (const char *c = cap + n; *c; c++)
        if (!isdigit((unsigned char)*c)) return -1;
    return atoi(cap + n);
}

static int has_at_least(const gpl_device *dev, const char *prefix, int need)
{
    for (int i = 0; i < dev->num_caps; i++) {
        int have = numeric_suffix(dev->caps[i], prefix);
        if (have >= need) return 1;
    }
    return 0;
}

int gpl_capability_satisfied(const gpl_device *dev, const char *cap)
{
    if (gpl_device_has_cap(dev, cap)) return 1;
    static const char *const ordered[] = {"cuda.sm_", "metal.apple"};
    for (size_t i = 0; i < sizeof ordered / sizeof ordered[0]; i++) {
        int need = numeric_suffix(cap, ordered[i]);
        if (need >= 0) return has_at_least(dev, ordered[i], need);
    }
    return 0;
}

/* ------------------------------------------------------------- fitting */

static void describe_memory(const gpl_device *dev, char *buf, size_t size)
{
    char usable[32], total[32];
    gpl_format_bytes(dev->usable_bytes, usable, sizeof usable);
    gpl_format_bytes(dev->memory_bytes, total, sizeof total);
    if (dev->memory_kind == GPULAYER_MEMORY_UNIFIED)
        snprintf(buf, size, "%s usable of %s of unified memory shared with the CPU",
                 usable, total);
    else
        snprintf(buf, size, "%s usable of %s %s memory", usable, total,
                 gpl_memory_kind_name(dev->memory_kind));
}

static int check_memory_kind(const gpl_request *r, const gpl_device *dev,
                             char *why, size_t size)
{
    if (r->memory_kind == GPULAYER_MEMORY_DEDICATED &&
        dev->memory_kind != GPULAYER_MEMORY_DEDICATED) {
        if (dev->memory_kind == GPULAYER_MEMORY_UNIFIED)
            snprintf(why, size,
                     "has unified memory shared with the CPU, not the dedicated "
                     "memory the request demands");
        else
            snprintf(why, size,
                     "uses the host's memory, not the dedicated memory the "
                     "request demands");
        return 0;
    }
    if (r->memory_kind == GPULAYER_MEMORY_UNIFIED &&
        dev->memory_kind != GPULAYER_MEMORY_UNIFIED) {
        snprintf(why, size, "has %s memory, not the unified memory the request demands",
                 gpl_memory_kind_name(dev->memory_kind));
        return 0;
    }
    return 1;
}

static int check_capabilities(const gpl_request *r, const gpl_device *dev,
                              char *why, size_t size)
{
    for (int i = 0; i < r->num_caps; i++) {
        if (gpl_capability_satisfied(dev, r->caps[i])) continue;
        char have[256];
        gpl_device_caps_text(dev, have, sizeof have);
        /* The framework probe's note says which case the absence is. */
        const char *absent = gpl_device_absent_why(dev, r->caps[i]);
        snprintf(why, size, "lacks capability %s (has: %s)%s%s", r->caps[i],
                 *have ? have : "none reported", absent ? ": " : "", absent ? absent : "");
        return 0;
    }
    return 1;
}

int gpl_device_fits(const gpl_request *r, const gpl_device *dev,
                    const gpl_place_options *opt, char *why, size_t size)
{
    int auto_mode = !strcmp(r->accelerator, "auto");
    if (!auto_mode && strcmp(dev->accelerator, r->accelerator) != 0) {
        snprintf(why, size,
                 "the job needs %s, this device is %s; an accelerator never "
                 "stands in for another",
                 r->accelerator, dev->accelerator);
        return 0;
    }
    if (r->device_index >= 0 && dev->index != r->device_index) {
        snprintf(why, size, "the request names %s:%d", r->accelerator, r->device_index);
        return 0;
    }
    const gpl_support_entry *e = gpl_support_lookup(dev->accelerator, r->job);
    if (e && e->status == GPL_UNSUPPORTED) {
        snprintf(why, size, "%s jobs cannot use %s: %s", gpl_job_kind_name(r->job),
                 dev->accelerator, e->note);
        return 0;
    }
    const char *type = gpl_device_prop(dev, "device_type");
    if (auto_mode && !strcmp(dev->accelerator, "vulkan") && type && !strcmp(type, "cpu")) {
        snprintf(why, size,
                 "is a software Vulkan implementation running on the CPU; auto "
                 "skips it (ask for vulkan to use it)");
        return 0;
    }
    if (opt && opt->require_backend && !dev->backend_available) {
        snprintf(why, size, "%s", *dev->backend_reason ? dev->backend_reason
                                  : "this library's backend cannot use it");
        return 0;
    }
    if (!check_memory_kind(r, dev, why, size)) return 0;
    if (dev->usable_bytes < r->min_memory) {
        char need[32], mem[160];
        gpl_format_bytes(r->min_memory, need, sizeof need);
        describe_memory(dev, mem, sizeof mem);
        snprintf(why, size, "has %s; the request needs %s", mem, need);
        return 0;
    }
    return check_capabilities(r, dev, why, size);
}
