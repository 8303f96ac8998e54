/*
 * device.h -- device records and discovery notes (docs/adr/0001-device-boundaries.md).
 *
 * A record describes one compute device as a job would see it: which
 * accelerator reaches it, how much memory of which kind it has, what it can
 * do, and whether this library's own backend can use it. Records are plain
 * values with fixed-size fields so that they can be copied between the
 * discovery cache, placement and the tests without ownership rules.
 */
#ifndef GPL_DEVICE_H
#define GPL_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "gpulayer.h"

#define GPL_ACCEL_LEN 16
#define GPL_NAME_LEN 128
#define GPL_ID_LEN 80
#define GPL_CAP_LEN 48
#define GPL_MAX_CAPS 24
#define GPL_PROP_KEY_LEN 32
#define GPL_PROP_VALUE_LEN 96
#define GPL_MAX_PROPS 16
#define GPL_REASON_LEN 640
#define GPL_NOTE_LEN 480
#define GPL_MAX_ABSENT 3

/* The runtimes that have a probe. The accelerator of a Metal device is
 * "mps" (ADR 0001: the Apple GPU, whichever framework reaches it). */
typedef enum gpl_runtime {
    GPL_RT_CPU = 0,
    GPL_RT_CUDA = 1,
    GPL_RT_METAL = 2,
    GPL_RT_VULKAN = 3,
    GPL_RT_COUNT = 4
} gpl_runtime;

#define GPL_RT_BIT(rt) (1u << (rt))
#define GPL_RT_ALL ((1u << GPL_RT_COUNT) - 1u)

/* "cpu", "cuda", "metal", "vulkan": the runtime's own name. */
const char *gpl_runtime_name(gpl_runtime rt);
/* "cpu", "cuda", "mps", "vulkan": the accelerator its devices carry. */
const char *gpl_runtime_accelerator(gpl_runtime rt);
/* The runtime whose devices carry accelerator, or -1. */
int gpl_runtime_of_accelerator(const char *accelerator);

typedef struct gpl_prop {
    char key[GPL_PROP_KEY_LEN];
    char value[GPL_PROP_VALUE_LEN];
} gpl_prop;

/* A capability a device lacks, and the note that says why (the framework
 * probe's: torch missing, built without MPS...), so that a refusal can say
 * more than "lacks capability torch.mps". */
typedef struct gpl_absent_cap {
    char cap[GPL_CAP_LEN];
    char why[GPL_NOTE_LEN];
} gpl_absent_cap;

typedef struct gpl_device {
    char accelerator[GPL_ACCEL_LEN]; /* cpu, cuda, mps, vulkan            */
    int index;                       /* within the accelerator            */
    char name[GPL_NAME_LEN];
    char stable_id[GPL_ID_LEN];      /* UUID where the runtime has one    */
    gpulayer_memory_kind memory_kind;
    uint64_t memory_bytes;
    uint64_t usable_bytes;
    int num_caps;
    char caps[GPL_MAX_CAPS][GPL_CAP_LEN];
    char caps_text[GPL_MAX_CAPS * GPL_CAP_LEN]; /* caps joined by spaces */
    /* Runtime facts that are not common to every device: driver version,
     * compute capability, Vulkan device type, subgroup size, cores... */
    int num_props;
    gpl_prop props[GPL_MAX_PROPS];
    /* This library's backend for the accelerator: compiled in, and usable
     * on this device; backend_reason says why not when it is not. */
    int backend_built;
    int backend_available;
    char backend_reason[GPL_REASON_LEN];
    int num_absent;
    gpl_absent_cap absent[GPL_MAX_ABSENT];
} gpl_device;

/* Every absence is a note saying which case it is (docs/adr/0001-device-boundaries.md). */
typedef enum gpl_note_kind {
    GPL_NOTE_INFO = 0,
    GPL_NOTE_LIBRARY_NOT_FOUND,  /* the runtime's library is not installed  */
    GPL_NOTE_NO_VISIBLE_DEVICE,  /* driver present, zero devices visible    */
    GPL_NOTE_RUNTIME_UNAVAILABLE,/* library loads, runtime refuses to work  */
    GPL_NOTE_STUB_LIBRARY,       /* the CUDA toolkit's link-time stub       */
    GPL_NOTE_DRIVER_TOO_OLD,     /* older than the kernels this build ships */
    GPL_NOTE_NOT_MACOS,
    GPL_NOTE_NO_METAL_DEVICE,    /* VM, sandbox, container, CI runner       */
    GPL_NOTE_MISSING_GPU_FAMILY, /* device lacks a family the backend needs */
    GPL_NOTE_BACKEND_UNAVAILABLE,/* backend built, runtime gave no device   */
    GPL_NOTE_PROBE_TIMEOUT,
    GPL_NOTE_PROBE_CRASHED,
    GPL_NOTE_PROBE_FAILED,       /* exited with an error or wrote garbage   */
    GPL_NOTE_PROBE_NOT_FOUND,    /* the gpulayer-probe program is missing   */
    GPL_NOTE_FRAMEWORK_NOT_BUILT,/* torch without CUDA or MPS support       */
    GPL_NOTE_KIND_COUNT
} gpl_note_kind;

/* "library_not_found", ...: the stable name used in JSON and tests. */
const char *gpl_note_kind_name(gpl_note_kind kind);
/* The kind with that name, or -1. */
int gpl_note_kind_from_name(const char *name);

typedef struct gpl_note {
    char runtime[GPL_ACCEL_LEN];
    gpl_note_kind kind;
    char message[GPL_NOTE_LEN];
} gpl_note;

/* Devices and notes of one or more runtimes. Arrays are heap-allocated;
 * gpl_discovery_release frees them. A zeroed struct is an empty result. */
typedef struct gpl_discovery {
    gpl_device *devices;
    int num_devices;
    gpl_note *notes;
    int num_notes;
} gpl_discovery;

void gpl_discovery_release(gpl_discovery *d);
/* Appends a copy; returns NULL (and sets the last error) when out of memory. */
gpl_device *gpl_discovery_add_device(gpl_discovery *d, const gpl_device *dev);
gpulayer_status gpl_discovery_add_note(gpl_discovery *d, const char *runtime,
                                       gpl_note_kind kind, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Appends every device and note of src to dst. */
gpulayer_status gpl_discovery_append(gpl_discovery *dst, const gpl_discovery *src);

void gpl_device_init(gpl_device *dev, const char *accelerator, int index);
/* Adds a capability unless present; silently ignores overflow (the list is
 * a summary, and GPL_MAX_CAPS is well above what any probe reports). */
void gpl_device_add_cap(gpl_device *dev, const char *cap);
int gpl_device_has_cap(const gpl_device *dev, const char *cap);
/* Records why dev lacks cap (the first reason given wins). */
void gpl_device_add_absent(gpl_device *dev, const char *cap, const char *why);
/* Why dev lacks cap, or NULL when nothing said. */
const char *gpl_device_absent_why(const gpl_device *dev, const char *cap);
void gpl_device_set_prop(gpl_device *dev, const char *key, const char *value);
/* The value of a property, or NULL. */
const char *gpl_device_prop(const gpl_device *dev, const char *key);
/* "cuda:0" */
void gpl_device_label(const gpl_device *dev, char *buf, size_t size);
/* Capabilities joined by single spaces. */
void gpl_device_caps_text(const gpl_device *dev, char *buf, size_t size);

/* "host", "dedicated", "unified", "any" */
const char *gpl_memory_kind_name(gpulayer_memory_kind kind);
/* Parses a memory kind name; returns -1 when unknown. */
int gpl_memory_kind_from_name(const char *name);

/* snprintf that never overflows and always terminates. */
void gpl_strlcpy(char *dst, const char *src, size_t size);

#endif
