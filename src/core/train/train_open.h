/* train_open.h -- placing a training job and creating its backend, in the
 * background while the host bins the data. */
#ifndef GPL_TRAIN_OPEN_H
#define GPL_TRAIN_OPEN_H

#include <pthread.h>

#include "backend.h"
#include "error.h"
#include "params.h"

struct gpl_train_hooks;

/* A backend being opened: placement (the device layer's probe process) and
 * creation (the driver's context), which take a few tenths of a second on a
 * GPU whatever the data. */
typedef struct gpl_backend_opening {
    const gpl_params *p;
    const struct gpl_train_hooks *hooks; /* NULL in a single process */
    int64_t num_rows;
    int32_t num_outputs;
    int nthread;
    int threaded;                     /* a thread is opening it     */
    pthread_t thread;
    gpl_backend *be;
    double placement_s, creation_s;   /* what the opening took       */
    gpulayer_status status;
    char error[GPL_ERROR_CAPACITY];   /* the thread's message        */
} gpl_backend_opening;

/* Starts opening the backend of p->device for num_rows rows: in a thread
 * for a single-process job (hooks NULL) on a device other than the CPU,
 * else at gpl_backend_open_finish. */
void gpl_backend_open_start(gpl_backend_opening *o, const gpl_params *p, int64_t num_rows,
                            int32_t num_outputs, int nthread,
                            const struct gpl_train_hooks *hooks);
/* Waits for the backend; *out gets it, or the error is raised here. With
 * device "auto", a backend that lacks a capability of needs (the data's:
 * GPL_BACKEND_CAP_* bits, 0 for none) gives way to the CPU, which has them
 * all, and the choice is reported at verbosity 1 and up; a device named
 * outright stays, and the operation that needs it refuses. */
gpulayer_status gpl_backend_open_finish(gpl_backend_opening *o, unsigned needs,
                                        gpl_backend **out);
/* Instead of finishing, when training failed before it needed the backend:
 * waits for the thread and frees what it made, leaving the caller's error
 * message as it is. A zeroed opening that was never started is fine. */
void gpl_backend_open_cancel(gpl_backend_opening *o);

#endif
