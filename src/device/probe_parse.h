/*
 * probe_parse.h -- reads what a probe wrote.
 *
 * A probe (the gpulayer-probe program, the in-process CPU probe, or a test's
 * fake) writes one JSON object on its standard output:
 *
 *   {"protocol": 1, "runtime": "cuda",
 *    "devices": [{"index": 0, "name": "NVIDIA H200", "stable_id": "GPU-...",
 *                 "memory_kind": "dedicated", "memory_bytes": 150..., 
 *                 "usable_bytes": 149..., "capabilities": ["cuda.sm_90"],
 *                 "properties": {"compute_capability": "9.0", ...}}],
 *    "notes": [{"kind": "no_visible_device", "message": "..."}]}
 *
 * The probe reports facts; what they mean for this build (driver too old
 * for the shipped kernels, missing GPU family) is decided by the library
 * (build_info.c), so a fake probe exercises the same rules as a real one.
 */
#ifndef GPL_PROBE_PARSE_H
#define GPL_PROBE_PARSE_H

#include <stddef.h>

#include "device.h"

#define GPL_PROBE_PROTOCOL 1

/* Adds the devices and notes in text (len bytes, need not be terminated)
 * to d, with every device's accelerator set from rt. Output that is not a
 * probe result becomes a probe_failed note. Fails only when out of memory. */
gpulayer_status gpl_probe_parse(gpl_runtime rt, const char *text, size_t len,
                                gpl_discovery *d);
/* Whether text is a complete result of runtime rt's probe. */
int gpl_probe_output_complete(gpl_runtime rt, const char *text, size_t len);

#endif
