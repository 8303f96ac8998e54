/* train_open.c -- placing a training job and creating its backend. On a
 * GPU both take a few tenths of a second that do not depend on the data
 * (the device layer's probe process, the driver's context), so a
 * single-process job does them in a thread while the host computes cuts
 * and bins. */
#include "train_open.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "placement.h"
#include "grow.h"
#include "train_hooks.h"

static gpl_backend_config backend_config(const gpl_backend_opening *o, int device)
{
    const gpl_params *p = o->p;
    return (gpl_backend_config){o->nthread, device, gpl_grow_max_nodes(p, o->num_rows),
                                o->num_outputs, p->verbosity >= 2};
}

static gpulayer_status open_backend(gpl_backend_opening *o)
{
    const gpl_params *p = o->p;
    char accelerator[32] = "cpu", reason[512] = "";
    int device = 0;
    double t0 = omp_get_wtime();
    /* A process of a distributed job takes its own device among its
     * host's processes (one GPU each); the backend must then be able to
     * take sums over processes (write_pairs), which the hooks' ready
     * step checks. */
    const gpl_train_hooks *h = o->hooks;
    if (strcmp(p->device, "cpu") != 0)
        GPL_CHECK(gpl_device_choose_rank_backend(
            p->device, h ? h->local_rank : 0, h ? h->local_size : 1, accelerator,
            sizeof accelerator, &device, reason, sizeof reason));
    if (p->verbosity >= 2 && reason[0]) fprintf(stderr, "[gpulayer] %s\n", reason);
    gpl_backend_config cfg = backend_config(o, device);
    double t1 = omp_get_wtime();
    gpulayer_status st = gpl_backend_create(accelerator, &cfg, &o->be);
    o->placement_s = t1 - t0;
    o->creation_s = omp_get_wtime() - t1;
    return st;
}

static void *open_thread(void *arg)
{
    gpl_backend_opening *o = arg;
    o->status = open_backend(o);
    /* The message lives in this thread's storage: keep a copy. */
    if (o->status != GPULAYER_OK) snprintf(o->error, sizeof o->error, "%s", gpulayer_last_error());
    return NULL;
}

/* Takes the parsed request (heap) and frees it: the thread is detached and
 * may outlive the training that started it. */
static void *warm_thread(void *arg)
{
    gpl_request *r = arg;
    gpl_backend_warm_up(r->accelerator, r->device_index);
    free(r);
    return NULL;
}

/* A request that names a backend with a driver to start ("cuda",
 * "cuda:1") is going to start that driver in this process whatever
 * placement says of the device, so it starts now, beside the probe.
 * "auto" waits for placement: it may choose the CPU, and should then
 * leave the GPU alone. The thread is detached: a driver that hangs keeps
 * it, never the trainer (the probe's time limit turns such a driver into
 * a refusal). */
static void start_warm_up(const char *device)
{
    gpl_request *r = malloc(sizeof *r);
    pthread_t thread;
    if (!r) return;
    gpl_request_init(r);
    if (gpl_request_parse(device, r) == GPULAYER_OK && gpl_backend_has_warm_up(r->accelerator) &&
        pthread_create(&thread, NULL, warm_thread, r) == 0) {
        pthread_detach(thread);
        return;
    }
    free(r);
}

void gpl_backend_open_start(gpl_backend_opening *o, const gpl_params *p, int64_t num_rows,
                            int32_t num_outputs, int nthread,
                            const gpl_train_hooks *hooks)
{
    memset(o, 0, sizeof *o);
    o->p = p;
    o->hooks = hooks;
    o->num_rows = num_rows;
    o->num_outputs = num_outputs;
    o->nthread = nthread;
    /* Processes of a distributed job place themselves with collective
     * calls: those stay on the thread that made the other collectives. */
    if (strcmp(p->device, "cpu") != 0 && !hooks) {
        o->threaded = pthread_create(&o->thread, NULL, open_thread, o) == 0;
        if (o->threaded) start_warm_up(p->device);
    }
}

/* "auto" chose a backend without a capability the data need: the CPU
 * instead. */
static gpulayer_status give_way_to_cpu(gpl_backend_opening *o, unsigned needs)
{
    if (strcmp(o->p->device, "auto") != 0 || gpl_backend_has(o->be, needs)) return GPULAYER_OK;
    if (o->p->verbosity >= 1)
        fprintf(stderr, "[gpulayer] device auto: the %s backend takes at most %s, and the "
                        "data have more (max_bin, max_categories); training on the CPU\n",
                o->be->ops->name,
                gpl_backend_has(o->be, GPL_BACKEND_CAP_WIDE_BINS)
                    ? "255 categories a feature split by sets" : "256 bins a feature");
    gpl_backend_destroy(o->be);
    o->be = NULL;
    const gpl_backend_config cfg = backend_config(o, 0);
    return gpl_backend_create("cpu", &cfg, &o->be);
}

gpulayer_status gpl_backend_open_finish(gpl_backend_opening *o, unsigned needs,
                                        gpl_backend **out)
{
    *out = NULL;
    if (o->threaded) {
        pthread_join(o->thread, NULL);
        o->threaded = 0;
        if (o->status != GPULAYER_OK) return gpl_error(o->status, "%s", o->error);
    } else {
        GPL_CHECK(open_backend(o));
    }
    GPL_CHECK(give_way_to_cpu(o, needs));
    *out = o->be;
    o->be = NULL;
    return GPULAYER_OK;
}

void gpl_backend_open_cancel(gpl_backend_opening *o)
{
    if (o->threaded) pthread_join(o->thread, NULL);
    o->threaded = 0;
    gpl_backend_destroy(o->be);
    o->be = NULL;
}
