/* report_diagnose.c -- a capability summary safe to share. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "build_info.h"
#include "bytes.h"
#include "discovery.h"
#include "redact.h"
#include "report.h"
#include "strbuf.h"

#ifndef GPULAYER_VERSION
#define GPULAYER_VERSION "unknown"
#endif

/* Properties that identify one physical unit rather than describe it. */
static int identifying(const char *key)
{
    static const char *const keys[] = {"registry_id", "serial", "pci_bus_id", "luid",
                                       "uuid"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (!strcmp(key, keys[i])) return 1;
    return 0;
}

static void add_redacted(cJSON *obj, const char *key, const char *value)
{
    char clean[1024];
    gpl_redact(value, clean, sizeof clean);
    cJSON_AddStringToObject(obj, key, clean);
}

static cJSON *environment_json(void)
{
    static const char *const vars[] = {"CUDA_VISIBLE_DEVICES", "CUDA_DEVICE_ORDER",
                                       "GPULAYER_PROBE", "GPULAYER_PROBE_TIMEOUT_MS"};
    cJSON *env = cJSON_CreateObject();
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (!v)
            cJSON_AddStringToObject(env, vars[i], "(unset)");
        else if (!*v)
            cJSON_AddStringToObject(env, vars[i], "(set, empty)");
        else
            add_redacted(env, vars[i], v);
    }
    return env;
}

static cJSON *device_summary(const gpl_device *dev)
{
    cJSON *o = cJSON_CreateObject();
    char label[GPL_ACCEL_LEN + 16];
    gpl_device_label(dev, label, sizeof label);
    cJSON_AddStringToObject(o, "device", label);
    add_redacted(o, "name", dev->name);
    cJSON_AddStringToObject(o, "memory_kind", gpl_memory_kind_name(dev->memory_kind));
    cJSON_AddNumberToObject(o, "memory_bytes", (double)dev->memory_bytes);
    cJSON_AddNumberToObject(o, "usable_bytes", (double)dev->usable_bytes);
    cJSON *caps = cJSON_AddArrayToObject(o, "capabilities");
    for (int i = 0; i < dev->num_caps; i++)
        cJSON_AddItemToArray(caps, cJSON_CreateString(dev->caps[i]));
    cJSON *props = cJSON_AddObjectToObject(o, "properties");
    for (int i = 0; i < dev->num_props; i++)
        if (!identifying(dev->props[i].key))
            add_redacted(props, dev->props[i].key, dev->props[i].value);
    cJSON_AddStringToObject(o, "backend", gpl_backend_state(dev));
    add_redacted(o, "backend_reason", dev->backend_reason);
    return o;
}

static cJSON *diagnose_build(const gpl_discovery *d)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "gpulayer", GPULAYER_VERSION);
    struct utsname u;
    cJSON *os = cJSON_AddObjectToObject(root, "os");
    if (uname(&u) == 0) {
        cJSON_AddStringToObject(os, "system", u.sysname);
        cJSON_AddStringToObject(os, "release", u.release);
        cJSON_AddStringToObject(os, "machine", u.machine);
    }
    gpl_build_info b;
    gpl_discovery_build_info(&b);
    cJSON *backends = cJSON_AddObjectToObject(root, "backends_built");
    for (int rt = 0; rt < GPL_RT_COUNT; rt++)
        cJSON_AddBoolToObject(backends, gpl_runtime_accelerator((gpl_runtime)rt), b.built[rt]);
    if (b.built[GPL_RT_CUDA]) {
        char archs[256];
        gpl_build_cuda_archs_text(&b, archs, sizeof archs);
        cJSON_AddStringToObject(root, "cuda_kernels", archs);
    }
    cJSON_AddItemToObject(root, "environment", environment_json());
    cJSON *devices = cJSON_AddArrayToObject(root, "devices");
    for (int i = 0; i < d->num_devices; i++)
        cJSON_AddItemToArray(devices, device_summary(&d->devices[i]));
    cJSON *notes = cJSON_AddArrayToObject(root, "notes");
    for (int i = 0; i < d->num_notes; i++) {
        cJSON *n = cJSON_CreateObject();
        cJSON_AddStringToObject(n, "runtime", d->notes[i].runtime);
        cJSON_AddStringToObject(n, "kind", gpl_note_kind_name(d->notes[i].kind));
        add_redacted(n, "message", d->notes[i].message);
        cJSON_AddItemToArray(notes, n);
    }
    return root;
}

char *gpl_diagnose_json(const gpl_discovery *d)
{
    cJSON *root = diagnose_build(d);
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}

static const char *str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : "";
}

static uint64_t bytes(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) && v->valuedouble > 0 ? (uint64_t)v->valuedouble : 0;
}

static void text_device(gpl_strbuf *sb, const cJSON *dev)
{
    char total[32], usable[32];
    gpl_format_bytes(bytes(dev, "memory_bytes"), total, sizeof total);
    gpl_format_bytes(bytes(dev, "usable_bytes"), usable, sizeof usable);
    gpl_strbuf_printf(sb, "  %-9s %s: %s memory, %s total, %s usable; backend %s\n",
                      str(dev, "device"), str(dev, "name"), str(dev, "memory_kind"),
                      total, usable, str(dev, "backend"));
    const cJSON *item;
    gpl_strbuf_printf(sb, "            capabilities:");
    cJSON_ArrayForEach(item, cJSON_GetObjectItem(dev, "capabilities"))
        if (cJSON_IsString(item)) gpl_strbuf_printf(sb, " %s", item->valuestring);
    gpl_strbuf_printf(sb, "\n");
    const cJSON *props = cJSON_GetObjectItem(dev, "properties");
    if (cJSON_GetArraySize(props)) {
        gpl_strbuf_printf(sb, "            ");
        int first = 1;
        cJSON_ArrayForEach(item, props)
        {
            if (!cJSON_IsString(item)) continue;
            gpl_strbuf_printf(sb, "%s%s=%s", first ? "" : ", ", item->string,
                              item->valuestring);
            first = 0;
        }
        gpl_strbuf_printf(sb, "\n");
    }
    if (*str(dev, "backend_reason"))
        gpl_strbuf_printf(sb, "            backend: %s\n", str(dev, "backend_reason"));
}

char *gpl_diagnose_text(const gpl_discovery *d)
{
    cJSON *root = diagnose_build(d);
    gpl_strbuf sb;
    gpl_strbuf_init(&sb);
    const cJSON *os = cJSON_GetObjectItem(root, "os"), *item;
    gpl_strbuf_printf(&sb, "gpulayer %s on %s %s (%s)\n", str(root, "gpulayer"),
                      str(os, "system"), str(os, "release"), str(os, "machine"));
    gpl_strbuf_printf(&sb, "backends built:");
    cJSON_ArrayForEach(item, cJSON_GetObjectItem(root, "backends_built"))
        gpl_strbuf_printf(&sb, " %s=%s", item->string, cJSON_IsTrue(item) ? "yes" : "no");
    if (cJSON_GetObjectItem(root, "cuda_kernels"))
        gpl_strbuf_printf(&sb, "\ncuda kernels: %s", str(root, "cuda_kernels"));
    gpl_strbuf_printf(&sb, "\nenvironment:\n");
    cJSON_ArrayForEach(item, cJSON_GetObjectItem(root, "environment"))
        if (cJSON_IsString(item))
            gpl_strbuf_printf(&sb, "  %s=%s\n", item->string, item->valuestring);
    gpl_strbuf_printf(&sb, "devices:\n");
    cJSON_ArrayForEach(item, cJSON_GetObjectItem(root, "devices")) text_device(&sb, item);
    if (cJSON_GetArraySize(cJSON_GetObjectItem(root, "notes")))
        gpl_strbuf_printf(&sb, "notes:\n");
    cJSON_ArrayForEach(item, cJSON_GetObjectItem(root, "notes"))
        gpl_strbuf_printf(&sb, "  %-7s %-20s %s\n", str(item, "runtime"), str(item, "kind"),
                          str(item, "message"));
    cJSON_Delete(root);
    return gpl_strbuf_take(&sb);
}
