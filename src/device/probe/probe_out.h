/*
 * probe_out.h -- how a probe writes its result (the format is described in
 * src/device/probe_parse.h). Every probe reports what it finds and turns
 * every absence into a note; none of them ever fails.
 */
#ifndef GPL_PROBE_OUT_H
#define GPL_PROBE_OUT_H

#include <cjson/cJSON.h>
#include <stdint.h>

typedef struct probe_out {
    cJSON *root;
    cJSON *devices;
    cJSON *notes;
} probe_out;

void probe_out_init(probe_out *o, const char *runtime);
/* Adds a device and returns it, for caps and properties. memory_kind is
 * "host", "dedicated" or "unified". */
cJSON *probe_out_device(probe_out *o, int index, const char *name,
                        const char *stable_id, const char *memory_kind,
                        uint64_t memory_bytes, uint64_t usable_bytes);
void probe_device_cap(cJSON *dev, const char *cap);
void probe_device_prop(cJSON *dev, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* kind is one of the note names of src/device/device.c. */
void probe_out_note(probe_out *o, const char *kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Prints the result on standard output and frees it; the exit status. */
int probe_out_emit(probe_out *o);

/* "CUDA_VISIBLE_DEVICES is unset" and the like, for notes. */
void probe_describe_env(const char *name, char *buf, size_t size);

/* One probe per runtime. */
void probe_cuda(probe_out *o);
void probe_vulkan(probe_out *o);
void probe_metal(probe_out *o);

#endif
