/*
 * framework.h -- the framework capabilities: torch.cuda, torch.mps, mlx.
 *
 * ADR 0001 makes frameworks capabilities of a device, found by an isolated
 * probe. The probe is a Python script (probe/frameworks.py) run by the
 * interpreter a job would use (GPULAYER_PYTHON, else python3 on PATH) in a
 * child process with a time limit. Importing torch takes seconds, so it
 * runs only when asked: a request naming a framework capability, or
 * `gpulayer devices --frameworks`. The script reports facts (imported?
 * built with CUDA? is_available()?); what they mean -- a capability on
 * which devices, or a note saying which case an absence is -- is decided
 * here, so that recorded facts exercise the same rules as a real run.
 *
 *   torch.cuda  the CUDA devices torch sees (index < torch's device count)
 *   torch.mps   the Apple GPU (mps) when torch.backends.mps is available
 *   mlx         the Apple GPU when mlx's default device is the GPU
 */
#ifndef GPL_FRAMEWORK_H
#define GPL_FRAMEWORK_H

#include <stddef.h>

#include "device.h"
#include "request.h"

#define GPL_FRAMEWORK_CAPS 3

/* Default time limit of the framework probe: a cold `import torch` reads
 * hundreds of megabytes, and torch.cuda.is_available() starts the CUDA
 * driver. GPULAYER_FRAMEWORK_TIMEOUT_MS overrides it. */
#define GPL_FRAMEWORK_TIMEOUT_MS 60000

typedef struct gpl_framework_cap {
    const char *cap;         /* "torch.cuda", "torch.mps", "mlx"          */
    const char *accelerator; /* the devices it attaches to: cuda or mps   */
    int available;
    int device_count;        /* devices the framework sees; -1: all       */
    char version[GPL_PROP_VALUE_LEN]; /* "torch 2.5.1, CUDA 12.4"          */
    char why[GPL_NOTE_LEN];  /* why not available                         */
} gpl_framework_cap;

typedef struct gpl_frameworks {
    gpl_framework_cap caps[GPL_FRAMEWORK_CAPS];
    gpl_discovery notes;     /* notes only; released by gpl_frameworks_release */
} gpl_frameworks;

void gpl_frameworks_init(gpl_frameworks *fw);
void gpl_frameworks_release(gpl_frameworks *fw);

/* Reads the script's output (len bytes) into fw, which must be freshly
 * initialised. Output that is not a result becomes a probe_failed note.
 * Fails only when out of memory. */
gpulayer_status gpl_frameworks_parse(const char *text, size_t len, gpl_frameworks *fw);

/* Every capability is absent for the same reason (the probe could not run,
 * or timed out): adds the note and makes it every capability's why. */
gpulayer_status gpl_frameworks_fail(gpl_frameworks *fw, gpl_note_kind kind,
                                    const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Adds each available capability (with a property naming the version) to
 * the devices of d it reaches, records on the others why it is absent,
 * and appends fw's notes to d. */
gpulayer_status gpl_frameworks_apply(const gpl_frameworks *fw, gpl_discovery *d);

/* Runs the script under the interpreter and time limit described above
 * and reads its result into fw (freshly initialised); a missing
 * interpreter, a timeout or a crash becomes a note. */
gpulayer_status gpl_frameworks_probe(gpl_frameworks *fw);

/* Whether cap is a framework capability (torch.*, mlx, mlx.*). */
int gpl_is_framework_cap(const char *cap);
/* Whether r requires a framework capability. */
int gpl_request_wants_frameworks(const gpl_request *r);
/* Whether a note of this runtime ("torch", "torch.mps", "frameworks"...)
 * explains a framework capability r requires. */
int gpl_framework_note_concerns(const gpl_request *r, const char *runtime);

#endif
