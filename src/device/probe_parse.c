/* probe_parse.c -- turns a probe's JSON output into device records. */
#include "probe_parse.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

static const char *json_string(const cJSON *obj, const char *key)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(item) ? item->valuestring : NULL;
}

static double json_number(const cJSON *obj, const char *key, double fallback)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsNumber(item) ? item->valuedouble : fallback;
}

static uint64_t json_bytes(const cJSON *obj, const char *key)
{
    double v = json_number(obj, key, 0);
    return v > 0 && v < 0x1p64 ? (uint64_t)v : 0;
}

static void read_properties(const cJSON *props, gpl_device *dev)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, props)
    {
        char value[GPL_PROP_VALUE_LEN];
        if (cJSON_IsString(item))
            gpl_strlcpy(value, item->valuestring, sizeof value);
        else if (cJSON_IsNumber(item))
            snprintf(value, sizeof value, "%.17g", item->valuedouble);
        else if (cJSON_IsBool(item))
            gpl_strlcpy(value, cJSON_IsTrue(item) ? "true" : "false", sizeof value);
        else
            continue;
        gpl_device_set_prop(dev, item->string, value);
    }
}

static gpulayer_status read_device(gpl_runtime rt, const cJSON *obj,
                                   int position, gpl_discovery *d)
{
    gpl_device dev;
    gpl_device_init(&dev, gpl_runtime_accelerator(rt),
                    (int)json_number(obj, "index", position));
    const char *s;
    if ((s = json_string(obj, "name"))) gpl_strlcpy(dev.name, s, sizeof dev.name);
    if ((s = json_string(obj, "stable_id")))
        gpl_strlcpy(dev.stable_id, s, sizeof dev.stable_id);
    int kind = gpl_memory_kind_from_name(json_string(obj, "memory_kind"));
    dev.memory_kind = kind > 0 ? (gpulayer_memory_kind)kind
                      : rt == GPL_RT_CPU ? GPULAYER_MEMORY_HOST
                                         : GPULAYER_MEMORY_DEDICATED;
    dev.memory_bytes = json_bytes(obj, "memory_bytes");
    dev.usable_bytes = json_bytes(obj, "usable_bytes");
    const cJSON *cap;
    cJSON_ArrayForEach(cap, cJSON_GetObjectItemCaseSensitive(obj, "capabilities"))
        if (cJSON_IsString(cap)) gpl_device_add_cap(&dev, cap->valuestring);
    read_properties(cJSON_GetObjectItemCaseSensitive(obj, "properties"), &dev);
    return gpl_discovery_add_device(d, &dev) ? GPULAYER_OK
                                             : GPULAYER_ERR_OUT_OF_MEMORY;
}

static gpulayer_status read_note(gpl_runtime rt, const cJSON *obj, gpl_discovery *d)
{
    int kind = gpl_note_kind_from_name(json_string(obj, "kind"));
    const char *message = json_string(obj, "message");
    return gpl_discovery_add_note(d, gpl_runtime_name(rt),
                                  kind < 0 ? GPL_NOTE_INFO : (gpl_note_kind)kind,
                                  "%s", message ? message : "(no message)");
}

/* A short printable excerpt of unexpected output, for the note. */
static void excerpt(const char *text, size_t len, char *buf, size_t size)
{
    size_t n = 0;
    for (size_t i = 0; i < len && n + 1 < size && n < 80; i++) {
        unsigned char c = (unsigned char)text[i];
        buf[n++] = (c >= 32 && c < 127) ? (char)c : ' ';
    }
    buf[n] = '\0';
}

int gpl_probe_output_complete(gpl_runtime rt, const char *text, size_t len)
{
    cJSON *root = text ? cJSON_ParseWithLength(text, len) : NULL;
    const cJSON *runtime = root ? cJSON_GetObjectItemCaseSensitive(root, "runtime") : NULL;
    int ok = cJSON_IsObject(root) && cJSON_IsString(runtime) &&
             !strcmp(runtime->valuestring, gpl_runtime_name(rt)) &&
             cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(root, "devices"));
    cJSON_Delete(root);
    return ok;
}

gpulayer_status gpl_probe_parse(gpl_runtime rt, const char *text, size_t len,
                                gpl_discovery *d)
{
    cJSON *root = text ? cJSON_ParseWithLength(text, len) : NULL;
    const cJSON *runtime = root ? cJSON_GetObjectItemCaseSensitive(root, "runtime") : NULL;
    if (!cJSON_IsObject(root) || !cJSON_IsString(runtime) ||
        strcmp(runtime->valuestring, gpl_runtime_name(rt)) != 0) {
        char shown[96];
        excerpt(text ? text : "", text ? len : 0, shown, sizeof shown);
        cJSON_Delete(root);
        return gpl_discovery_add_note(
            d, gpl_runtime_name(rt), GPL_NOTE_PROBE_FAILED,
            "the %s probe wrote no %s result (output: '%s'); %s devices are "
            "not reported",
            gpl_runtime_name(rt), gpl_runtime_name(rt), shown,
            gpl_runtime_accelerator(rt));
    }
    gpulayer_status st = GPULAYER_OK;
    const cJSON *item;
    int position = 0;
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(root, "devices"))
    {
        if (st == GPULAYER_OK && cJSON_IsObject(item))
            st = read_device(rt, item, position++, d);
    }
    cJSON_ArrayForEach(item, cJSON_GetObjectItemCaseSensitive(root, "notes"))
    {
        if (st == GPULAYER_OK && cJSON_IsObject(item)) st = read_note(rt, item, d);
    }
    cJSON_Delete(root);
    return st;
}
