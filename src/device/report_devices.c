/* report_devices.c -- the device table and its JSON form. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>

#include "build_info.h"
#include "bytes.h"
#include "discovery.h"
#include "report.h"
#include "strbuf.h"

const char *gpl_backend_state(const gpl_device *dev)
{
    if (dev->backend_available) return "available";
    return dev->backend_built ? "built, unavailable" : "not built";
}

/* The CUDA architectures this build's kernels cover, when it has them. */
static int cuda_kernels(char *buf, size_t size)
{
    gpl_build_info b;
    gpl_discovery_build_info(&b);
    if (!b.built[GPL_RT_CUDA]) return 0;
    gpl_build_cuda_archs_text(&b, buf, size);
    return 1;
}

char *gpl_devices_text(const gpl_discovery *d)
{
    gpl_strbuf sb;
    gpl_strbuf_init(&sb);
    gpl_strbuf_printf(&sb, "%-10s %-32s %-10s %-11s %-11s %-19s %s\n", "DEVICE", "NAME",
                      "MEMORY", "TOTAL", "USABLE", "BACKEND", "CAPABILITIES");
    for (int i = 0; i < d->num_devices; i++) {
        const gpl_device *dev = &d->devices[i];
        char label[GPL_ACCEL_LEN + 16], total[32], usable[32], caps[1024];
        gpl_device_label(dev, label, sizeof label);
        gpl_format_bytes(dev->memory_bytes, total, sizeof total);
        gpl_format_bytes(dev->usable_bytes, usable, sizeof usable);
        gpl_device_caps_text(dev, caps, sizeof caps);
        gpl_strbuf_printf(&sb, "%-10s %-32.32s %-10s %-11s %-11s %-19s %s\n", label,
                          dev->name, gpl_memory_kind_name(dev->memory_kind), total,
                          usable, gpl_backend_state(dev), caps);
        if (*dev->stable_id) gpl_strbuf_printf(&sb, "%-10s id %s\n", "", dev->stable_id);
    }
    char archs[256];
    if (cuda_kernels(archs, sizeof archs))
        gpl_strbuf_printf(&sb, "\ncuda kernels: %s\n", archs);
    if (d->num_notes) gpl_strbuf_printf(&sb, "\nnotes:\n");
    for (int i = 0; i < d->num_notes; i++)
        gpl_strbuf_printf(&sb, "  %-7s %-20s %s\n", d->notes[i].runtime,
                          gpl_note_kind_name(d->notes[i].kind), d->notes[i].message);
    return gpl_strbuf_take(&sb);
}

static cJSON *device_json(const gpl_device *dev)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "accelerator", dev->accelerator);
    cJSON_AddNumberToObject(o, "index", dev->index);
    cJSON_AddStringToObject(o, "name", dev->name);
    cJSON_AddStringToObject(o, "stable_id", dev->stable_id);
    cJSON_AddStringToObject(o, "memory_kind", gpl_memory_kind_name(dev->memory_kind));
    cJSON_AddNumberToObject(o, "memory_bytes", (double)dev->memory_bytes);
    cJSON_AddNumberToObject(o, "usable_bytes", (double)dev->usable_bytes);
    cJSON *caps = cJSON_AddArrayToObject(o, "capabilities");
    for (int i = 0; i < dev->num_caps; i++)
        cJSON_AddItemToArray(caps, cJSON_CreateString(dev->caps[i]));
    cJSON *props = cJSON_AddObjectToObject(o, "properties");
    for (int i = 0; i < dev->num_props; i++)
        cJSON_AddStringToObject(props, dev->props[i].key, dev->props[i].value);
    cJSON *backend = cJSON_AddObjectToObject(o, "backend");
    cJSON_AddBoolToObject(backend, "built", dev->backend_built);
    cJSON_AddBoolToObject(backend, "available", dev->backend_available);
    cJSON_AddStringToObject(backend, "reason", dev->backend_reason);
    if (dev->num_absent) {
        cJSON *absent = cJSON_AddObjectToObject(o, "absent_capabilities");
        for (int i = 0; i < dev->num_absent; i++)
            cJSON_AddStringToObject(absent, dev->absent[i].cap, dev->absent[i].why);
    }
    return o;
}

static cJSON *note_json(const gpl_note *n)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "runtime", n->runtime);
    cJSON_AddStringToObject(o, "kind", gpl_note_kind_name(n->kind));
    cJSON_AddStringToObject(o, "message", n->message);
    return o;
}

char *gpl_devices_json(const gpl_discovery *d)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *devices = cJSON_AddArrayToObject(root, "devices");
    for (int i = 0; i < d->num_devices; i++)
        cJSON_AddItemToArray(devices, device_json(&d->devices[i]));
    cJSON *notes = cJSON_AddArrayToObject(root, "notes");
    for (int i = 0; i < d->num_notes; i++)
        cJSON_AddItemToArray(notes, note_json(&d->notes[i]));
    char archs[256];
    if (cuda_kernels(archs, sizeof archs)) cJSON_AddStringToObject(root, "cuda_kernels", archs);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}
