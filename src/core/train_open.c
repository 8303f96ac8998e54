/* train_open.c -- placing a training job and creating its backend. On a
 * GPU both take a few tenths of a second that do not depend on the data
 * (the device layer's probe process, the driver's context), so a
 * single-process job does them in a thread while the host computes cuts
 * and bins; a job that names the CUDA backend also creates it beside the
 * probe. */
#include "train_open.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <omp.h>

#include "device/placement.h"
#include "dist/dist.h"
#include "grow.h"

/* A CUDA backend created ahead of placement, for a request that names the
 * CUDA backend: its driver start, context and kernel checks (about 0.3 s
 * on an H200) overlap the probe instead of following it. Placement still
 * decides; the early backend is used only when it chose the same device,
 * and is destroyed otherwise. The thread is detached: a driver that hangs
 * keeps it, never the trainer (the probe's time limit turns such a driver
 * into a refusal). Shared by that thread and the opening; the last one to
 * let go frees it. */
typedef struct early_backend {
    pthread_mutex_t lock;
    pthread_cond_t done_cond;
    int device;        /* requested index, or -1                   */
    gpl_backend_config cfg;
    int done;          /* the thread has finished                  */
    int released;      /* the opening no longer waits for it       */
    gpl_backend *be;
    gpulayer_status status;
    char error[GPL_ERROR_CAPACITY];
} early_backend;

static void early_free(early_backend *e)
{
    gpl_backend_destroy(e->be);
    pthread_mutex_destroy(&e->lock);
    pthread_cond_destroy(&e->done_cond);
    free(e);
}

static void *early_thread(void *arg)
{
    early_backend *e = arg;
    gpl_backend *be = NULL;
    gpulayer_status st = GPULAYER_ERR_DEVICE;
    /* -1: the host's only device, if it has one. */
    int device = gpl_backend_warm_up("cuda", e->device);
    if (device >= 0) {
        e->cfg.device = device;
        st = gpl_backend_create("cuda", &e->cfg, &be);
    }
    pthread_mutex_lock(&e->lock);
    e->be = be;
    e->status = st;
    if (st != GPULAYER_OK && device >= 0)
        snprintf(e->error, sizeof e->error, "%s", gpulayer_last_error());
    e->done = 1;
    const int released = e->released;
    pthread_cond_signal(&e->done_cond);
    pthread_mutex_unlock(&e->lock);
    if (released) early_free(e);
    return NULL;
}

static early_backend *early_start(const gpl_backend_opening *o)
{
    gpl_request r;
    gpl_request_init(&r);
    if (gpl_request_parse(o->p->device, &r) != GPULAYER_OK ||
        strcmp(r.accelerator, "cuda") != 0 || !gpl_backend_is_built("cuda"))
        return NULL;
    early_backend *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    pthread_mutex_init(&e->lock, NULL);
    pthread_cond_init(&e->done_cond, NULL);
    e->device = r.device_index;
    e->cfg = (gpl_backend_config){o->nthread, -1, gpl_grow_max_nodes(o->p, o->num_rows),
                                  o->num_outputs, o->p->verbosity >= 2};
    pthread_t thread;
    if (pthread_create(&thread, NULL, early_thread, e) != 0) {
        early_free(e);
        return NULL;
    }
    pthread_detach(thread);
    return e;
}

/* After placement: the early backend when placement chose its device (its
 * creation waited for, its error raised here), else NULL with *taken 0. */
static gpulayer_status early_take(early_backend *e, const char *accelerator, int device,
                                  gpl_backend **out, int *taken)
{
    *out = NULL;
    *taken = 0;
    if (!e) return GPULAYER_OK;
    pthread_mutex_lock(&e->lock);
    if (!strcmp(accelerator, "cuda")) {
        while (!e->done) pthread_cond_wait(&e->done_cond, &e->lock);
        if (e->cfg.device == device && (e->be || e->error[0])) {
            *taken = 1;
            *out = e->be;
            e->be = NULL;
        }
    }
    e->released = 1;
    const int done = e->done;
    pthread_mutex_unlock(&e->lock);
    gpulayer_status st = GPULAYER_OK;
    if (*taken && !*out) st = gpl_error(e->status, "%s", e->error);
    if (done) early_free(e);
    return st;
}

static gpulayer_status open_backend(gpl_backend_opening *o)
{
    const gpl_params *p = o->p;
    char accelerator[32] = "cpu", reason[512] = "";
    int device = 0;
    double t0 = omp_get_wtime();
    /* A rank of a distributed job takes its own device among its host's
     * ranks (one GPU a rank); the backend must then be able to take sums
     * over ranks (write_pairs), which gpl_dist_attach checks. */
    gpulayer_status st = GPULAYER_OK;
    if (strcmp(p->device, "cpu") != 0)
        st = gpl_device_choose_rank_backend(
            p->device, gpl_dist_active() ? gpl_dist_local_rank() : 0,
            gpl_dist_active() ? gpl_dist_local_size() : 1, accelerator, sizeof accelerator,
            &device, reason, sizeof reason);
    double t1 = omp_get_wtime();
    o->placement_s = t1 - t0;
    int taken = 0;
    if (st != GPULAYER_OK) {
        char refusal[GPL_ERROR_CAPACITY];
        snprintf(refusal, sizeof refusal, "%s", gpulayer_last_error());
        gpl_backend *unused;
        (void)early_take(o->early, "", -1, &unused, &taken);
        o->early = NULL;
        return gpl_error(st, "%s", refusal);
    }
    if (p->verbosity >= 2 && reason[0]) fprintf(stderr, "[gpulayer] %s\n", reason);
    st = early_take(o->early, accelerator, device, &o->be, &taken);
    o->early = NULL;
    if (!taken) {
        gpl_backend_config cfg = {o->nthread, device, gpl_grow_max_nodes(p, o->num_rows),
                                  o->num_outputs, p->verbosity >= 2};
        st = gpl_backend_create(accelerator, &cfg, &o->be);
    }
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

void gpl_backend_open_start(gpl_backend_opening *o, const gpl_params *p, int64_t num_rows,
                            int32_t num_outputs, int nthread)
{
    memset(o, 0, sizeof *o);
    o->p = p;
    o->num_rows = num_rows;
    o->num_outputs = num_outputs;
    o->nthread = nthread;
    /* Ranks place themselves with collective calls: those stay on the
     * thread that made MPI's other calls. */
    if (strcmp(p->device, "cpu") != 0 && !gpl_dist_active()) {
        o->early = early_start(o);
        o->threaded = pthread_create(&o->thread, NULL, open_thread, o) == 0;
        if (!o->threaded && o->early) {
            int taken;
            gpl_backend *unused;
            (void)early_take(o->early, "", -1, &unused, &taken);
            o->early = NULL;
        }
    }
}

gpulayer_status gpl_backend_open_finish(gpl_backend_opening *o, gpl_backend **out)
{
    *out = NULL;
    if (o->threaded) {
        pthread_join(o->thread, NULL);
        o->threaded = 0;
        if (o->status != GPULAYER_OK) return gpl_error(o->status, "%s", o->error);
    } else {
        GPL_CHECK(open_backend(o));
    }
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
