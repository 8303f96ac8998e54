/* probe_out.c -- build and print a probe's JSON result. */
#include "probe_out.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void probe_out_init(probe_out *o, const char *runtime)
{
    o->root = cJSON_CreateObject();
    cJSON_AddNumberToObject(o->root, "protocol", 1);
    cJSON_AddStringToObject(o->root, "runtime", runtime);
    o->devices = cJSON_AddArrayToObject(o->root, "devices");
    o->notes = cJSON_AddArrayToObject(o->root, "notes");
}

cJSON *probe_out_device(probe_out *o, int index, const char *name,
                        const char *stable_id, const char *memory_kind,
                        uint64_t memory_bytes, uint64_t usable_bytes)
{
    cJSON *dev = cJSON_CreateObject();
    cJSON_AddNumberToObject(dev, "index", index);
    cJSON_AddStringToObject(dev, "name", name ? name : "");
    cJSON_AddStringToObject(dev, "stable_id", stable_id ? stable_id : "");
    cJSON_AddStringToObject(dev, "memory_kind", memory_kind);
    cJSON_AddNumberToObject(dev, "memory_bytes", (double)memory_bytes);
    cJSON_AddNumberToObject(dev, "usable_bytes", (double)usable_bytes);
    cJSON_AddArrayToObject(dev, "capabilities");
    cJSON_AddObjectToObject(dev, "properties");
    cJSON_AddItemToArray(o->devices, dev);
    return dev;
}

void probe_device_cap(cJSON *dev, const char *cap)
{
    cJSON_AddItemToArray(cJSON_GetObjectItem(dev, "capabilities"), cJSON_CreateString(cap));
}

void probe_device_prop(cJSON *dev, const char *key, const char *fmt, ...)
{
    char value[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(value, sizeof value, fmt, ap);
    va_end(ap);
    cJSON_AddStringToObject(cJSON_GetObjectItem(dev, "properties"), key, value);
}

void probe_out_note(probe_out *o, const char *kind, const char *fmt, ...)
{
    char message[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(message, sizeof message, fmt, ap);
    va_end(ap);
    cJSON *note = cJSON_CreateObject();
    cJSON_AddStringToObject(note, "kind", kind);
    cJSON_AddStringToObject(note, "message", message);
    cJSON_AddItemToArray(o->notes, note);
}

int probe_out_emit(probe_out *o)
{
    char *text = cJSON_PrintUnformatted(o->root);
    cJSON_Delete(o->root);
    o->root = NULL;
    if (!text) return 1;
    int ok = puts(text) >= 0 && fflush(stdout) == 0;
    free(text);
    return ok ? 0 : 1;
}

void probe_describe_env(const char *name, char *buf, size_t size)
{
    const char *v = getenv(name);
    if (!v)
        snprintf(buf, size, "%s is unset", name);
    else if (!*v)
        snprintf(buf, size, "%s is set but empty, which hides every device", name);
    else
        snprintf(buf, size, "%s is '%s'", name, v);
}
