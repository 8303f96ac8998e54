/* metal_fault.h -- what a batch (one command buffer: an operation of one
 * level) holds, so that a failure found later still names it, and the
 * context's sticky failure: once a command buffer fails, every later call
 * is refused with the stored error until the context is recreated (the
 * device state after a failed command buffer is unknown). Plain C, shared
 * by the Metal host and its unit tests; thread-safe because completion
 * handlers run on Metal's threads. */
#ifndef GPL_METAL_FAULT_H
#define GPL_METAL_FAULT_H

#include <pthread.h>
#include <stdint.h>

#include "gpulayer.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gpl_mtl_batch_info {
    char op[48];        /* the backend operation, e.g. "build_histograms" */
    int level;          /* depth of the level; -1 outside a tree          */
    char kernels[160];  /* the kernels encoded, comma-separated           */
    uint64_t serial;    /* order of submission, from 1                    */
} gpl_mtl_batch_info;

void gpl_mtl_batch_start(gpl_mtl_batch_info *b, const char *op, int level, uint64_t serial);
/* Adds a kernel name once; a list too long for the buffer ends in "...". */
void gpl_mtl_batch_note_kernel(gpl_mtl_batch_info *b, const char *kernel);

typedef struct gpl_mtl_fault {
    pthread_mutex_t lock;
    int failed;
    gpulayer_status status;
    char message[768];
} gpl_mtl_fault;

int gpl_mtl_fault_init(gpl_mtl_fault *f);
void gpl_mtl_fault_destroy(gpl_mtl_fault *f);
/* Records the first failure (later ones are consequences and dropped).
 * Safe from any thread; does not touch the calling thread's last error. */
void gpl_mtl_fault_record(gpl_mtl_fault *f, const gpl_mtl_batch_info *b, gpulayer_status status,
                          const char *device, const char *what);
/* GPULAYER_OK, or the stored failure as this thread's last error. */
gpulayer_status gpl_mtl_fault_check(gpl_mtl_fault *f);
int gpl_mtl_fault_failed(gpl_mtl_fault *f);

#ifdef __cplusplus
}
#endif

#endif
