/* device.c -- device records, notes and their small helpers. */
#include "device.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

void gpl_strlcpy(char *dst, const char *src, size_t size)
{
    if (!size) return;
    snprintf(dst, size, "%s", src ? src : "");
}

static const char *const runtime_names[GPL_RT_COUNT] = {"cpu", "cuda", "metal",
                                                        "vulkan"};
static const char *const runtime_accels[GPL_RT_COUNT] = {"cpu", "cuda", "mps",
                                                         "vulkan"};

const char *gpl_runtime_name(gpl_runtime rt)
{
    return (unsigned)rt < GPL_RT_COUNT ? runtime_names[rt] : "unknown";
}

const char *gpl_runtime_accelerator(gpl_runtime rt)
{
    return (unsigned)rt < GPL_RT_COUNT ? runtime_accels[rt] : "unknown";
}

int gpl_runtime_of_accelerator(const char *accelerator)
{
    for (int i = 0; i < GPL_RT_COUNT; i++)
        if (accelerator && !strcmp(accelerator, runtime_accels[i])) return i;
    return -1;
}

static const char *const note_names[GPL_NOTE_KIND_COUNT] = {
    "info",
    "library_not_found",
    "no_visible_device",
    "runtime_unavailable",
    "stub_library",
    "driver_too_old",
    "not_macos",
    "no_metal_device",
    "missing_gpu_family",
    "backend_unavailable",
    "probe_timeout",
    "probe_crashed",
    "probe_failed",
    "probe_not_found",
    "framework_not_built",
};

const char *gpl_note_kind_name(gpl_note_kind kind)
{
    return (unsigned)kind < GPL_NOTE_KIND_COUNT ? note_names[kind] : "info";
}

int gpl_note_kind_from_name(const char *name)
{
    for (int i = 0; i < GPL_NOTE_KIND_COUNT; i++)
        if (name && !strcmp(name, note_names[i])) return i;
    return -1;
}

void gpl_discovery_release(gpl_discovery *d)
{
    if (!d) return;
    free(d->devices);
    free(d->notes);
    memset(d, 0, sizeof *d);
}

/* Arrays grow one element at a time: a host has a handful of devices, so
 * simplicity beats amortised growth here. */
gpl_device *gpl_discovery_add_device(gpl_discovery *d, const gpl_device *dev)
{
    gpl_device *grown =
        realloc(d->devices, (size_t)(d->num_devices + 1) * sizeof *grown);
    if (!grown) {
        gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory listing devices");
        return NULL;
    }
    d->devices = grown;
    grown[d->num_devices] = *dev;
    return &grown[d->num_devices++];
}

static gpulayer_status add_note_copy(gpl_discovery *d, const gpl_note *note)
{
    gpl_note *grown = realloc(d->notes, (size_t)(d->num_notes + 1) * sizeof *grown);
    if (!grown)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "out of memory recording discovery notes");
    d->notes = grown;
    grown[d->num_notes++] = *note;
    return GPULAYER_OK;
}

gpulayer_status gpl_discovery_add_note(gpl_discovery *d, const char *runtime,
                                       gpl_note_kind kind, const char *fmt, ...)
{
    gpl_note note;
    memset(&note, 0, sizeof note);
    gpl_strlcpy(note.runtime, runtime, sizeof note.runtime);
    note.kind = kind;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note.message, sizeof note.message, fmt, ap);
    va_end(ap);
    return add_note_copy(d, &note);
}

gpulayer_status gpl_discovery_append(gpl_discovery *dst, const gpl_discovery *src)
{
    for (int i = 0; i < src->num_devices; i++)
        if (!gpl_discovery_add_device(dst, &src->devices[i]))
            return GPULAYER_ERR_OUT_OF_MEMORY;
    for (int i = 0; i < src->num_notes; i++)
        GPL_CHECK(add_note_copy(dst, &src->notes[i]));
    return GPULAYER_OK;
}

void gpl_device_init(gpl_device *dev, const char *accelerator, int index)
{
    memset(dev, 0, sizeof *dev);
    gpl_strlcpy(dev->accelerator, accelerator, sizeof dev->accelerator);
    dev->index = index;
    dev->memory_kind = GPULAYER_MEMORY_HOST;
}

int gpl_device_has_cap(const gpl_device *dev, const char *cap)
{
    for (int i = 0; i < dev->num_caps; i++)
        if (!strcmp(dev->caps[i], cap)) return 1;
    return 0;
}

void gpl_device_add_cap(gpl_device *dev, const char *cap)
{
    if (!cap || !*cap || gpl_device_has_cap(dev, cap)) return;
    if (dev->num_caps >= GPL_MAX_CAPS) return;
    gpl_strlcpy(dev->caps[dev->num_caps++], cap, GPL_CAP_LEN);
    gpl_device_caps_text(dev, dev->caps_text, sizeof dev->caps_text);
}

void gpl_device_add_absent(gpl_device *dev, const char *cap, const char *why)
{
    if (gpl_device_absent_why(dev, cap) || dev->num_absent >= GPL_MAX_ABSENT) return;
    gpl_absent_cap *a = &dev->absent[dev->num_absent++];
    gpl_strlcpy(a->cap, cap, sizeof a->cap);
    gpl_strlcpy(a->why, why, sizeof a->why);
}

const char *gpl_device_absent_why(const gpl_device *dev, const char *cap)
{
    for (int i = 0; i < dev->num_absent; i++)
        if (!strcmp(dev->absent[i].cap, cap)) return dev->absent[i].why;
    return NULL;
}

void gpl_device_set_prop(gpl_device *dev, const char *key, const char *value)
{
    for (int i = 0; i < dev->num_props; i++)
        if (!strcmp(dev->props[i].key, key)) {
            gpl_strlcpy(dev->props[i].value, value, GPL_PROP_VALUE_LEN);
            return;
        }
    if (dev->num_props >= GPL_MAX_PROPS) return;
    gpl_prop *p = &dev->props[dev->num_props++];
    gpl_strlcpy(p->key, key, sizeof p->key);
    gpl_strlcpy(p->value, value, sizeof p->value);
}

const char *gpl_device_prop(const gpl_device *dev, const char *key)
{
    for (int i = 0; i < dev->num_props; i++)
        if (!strcmp(dev->props[i].key, key)) return dev->props[i].value;
    return NULL;
}

void gpl_device_label(const gpl_device *dev, char *buf, size_t size)
{
    snprintf(buf, size, "%s:%d", dev->accelerator, dev->index);
}

void gpl_device_caps_text(const gpl_device *dev, char *buf, size_t size)
{
    size_t used = 0;
    if (size) buf[0] = '\0';
    for (int i = 0; i < dev->num_caps && used < size; i++) {
        int n = snprintf(buf + used, size - used, "%s%s", i ? " " : "",
                         dev->caps[i]);
        if (n < 0) break;
        used += (size_t)n;
    }
}

const char *gpl_memory_kind_name(gpulayer_memory_kind kind)
{
    switch (kind) {
    case GPULAYER_MEMORY_ANY: return "any";
    case GPULAYER_MEMORY_HOST: return "host";
    case GPULAYER_MEMORY_DEDICATED: return "dedicated";
    case GPULAYER_MEMORY_UNIFIED: return "unified";
    }
    return "any";
}

int gpl_memory_kind_from_name(const char *name)
{
    static const gpulayer_memory_kind kinds[] = {
        GPULAYER_MEMORY_ANY, GPULAYER_MEMORY_HOST, GPULAYER_MEMORY_DEDICATED,
        GPULAYER_MEMORY_UNIFIED};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (name && !strcmp(name, gpl_memory_kind_name(kinds[i])))
            return (int)kinds[i];
    return -1;
}

