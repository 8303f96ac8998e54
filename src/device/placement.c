/* placement.c -- choose among the fitting devices, and explain. */
#include "placement.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "error.h"

const char *const gpl_auto_order[4] = {"cuda", "mps", "vulkan", "cpu"};

static int is_auto(const gpl_request *r) { return !strcmp(r->accelerator, "auto"); }

/* ------------------------------------------------------------ choosing */

typedef struct place_ctx {
    const gpl_request *r;
    const gpl_worker *workers;
    int num_workers;
    gpl_decision *out;
} place_ctx;

static const gpl_device *device_of(const place_ctx *c, const gpl_consideration *k)
{
    return &c->workers[k->worker].devices[k->device];
}

static void device_phrase(const place_ctx *c, const gpl_consideration *k,
                          char *buf, size_t size)
{
    const gpl_device *dev = device_of(c, k);
    char usable[32];
    gpl_format_bytes(dev->usable_bytes, usable, sizeof usable);
    if (c->num_workers > 1)
        snprintf(buf, size, "%s/%s:%d (%s, %s usable)", c->workers[k->worker].name,
                 dev->accelerator, dev->index, dev->name, usable);
    else
        snprintf(buf, size, "%s:%d (%s, %s usable)", dev->accelerator, dev->index,
                 dev->name, usable);
}

/* Most usable memory first; then worker order, then device index, so that
 * equal devices are chosen in a predictable order. */
static int preferred(const place_ctx *c, const gpl_consideration *x,
                     const gpl_consideration *y)
{
    const gpl_device *dx = device_of(c, x), *dy = device_of(c, y);
    if (dx->usable_bytes != dy->usable_bytes) return dx->usable_bytes > dy->usable_bytes;
    if (x->worker != y->worker) return x->worker < y->worker;
    return dx->index < dy->index;
}

/* The fitting devices of one accelerator, best first. */
static int collect_fitting(place_ctx *c, const char *accel, gpl_consideration **list)
{
    int n = 0;
    for (int i = 0; i < c->out->num_considered; i++) {
        gpl_consideration *k = &c->out->considered[i];
        if (k->fits && !strcmp(device_of(c, k)->accelerator, accel)) list[n++] = k;
    }
    /* Insertion sort: a host has a handful of devices, and qsort has no
     * portable way to pass the context without a global. */
    for (int i = 1; i < n; i++) {
        gpl_consideration *k = list[i];
        int j = i;
        for (; j > 0 && preferred(c, k, list[j - 1]); j--) list[j] = list[j - 1];
        list[j] = k;
    }
    return n;
}

static gpulayer_status add_assignment(gpl_decision *d, int rank, const gpl_consideration *k)
{
    gpl_assignment *grown =
        realloc(d->assignments, (size_t)(d->num_assignments + 1) * sizeof *grown);
    if (!grown) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory placing a job");
    d->assignments = grown;
    grown[d->num_assignments++] = (gpl_assignment){rank, k->worker, k->device};
    return GPULAYER_OK;
}

/* Independent: count devices, all on one worker (a process cannot span
 * machines). Chooses the worker holding the best fitting device that has
 * enough of them. Returns the number chosen (0 when it cannot). */
static int choose_independent(place_ctx *c, gpl_consideration **fit, int n)
{
    int need = c->r->count;
    for (int i = 0; i < n; i++) {
        int w = fit[i]->worker, have = 0;
        for (int j = 0; j < n; j++) have += fit[j]->worker == w;
        if (have < need) continue;
        int taken = 0;
        for (int j = 0; j < n && taken < need; j++)
            if (fit[j]->worker == w) {
                fit[j]->chosen = 1;
                if (add_assignment(c->out, 0, fit[j]) != GPULAYER_OK) return -1;
                taken++;
            }
        return taken;
    }
    return 0;
}

/* Distributed: one device per rank; cpu ranks share the CPU of a worker
 * (MPI ranks on one host split its cores), GPUs are never shared. */
static int choose_distributed(place_ctx *c, gpl_consideration **fit, int n)
{
    int nproc = c->r->nproc, shared = !strcmp(c->r->accelerator, "cpu") ||
                                      !strcmp(device_of(c, fit[0])->accelerator, "cpu");
    if (!shared && n < nproc) return 0;
    for (int rank = 0; rank < nproc; rank++) {
        gpl_consideration *k = fit[shared ? rank % n : rank];
        k->chosen = 1;
        if (add_assignment(c->out, rank, k) != GPULAYER_OK) return -1;
    }
    return nproc;
}

static void explain_choice(place_ctx *c, const char *accel, int rank_in_auto,
                           gpl_consideration **fit, int n)
{
    gpl_decision *d = c->out;
    char first[256], prefix[64];
    device_phrase(c, fit[0], first, sizeof first);
    if (is_auto(c->r))
        snprintf(prefix, sizeof prefix, "auto");
    else
        snprintf(prefix, sizeof prefix, "%s requested", c->r->accelerator);
    char because[320] = "";
    if (is_auto(c->r) && rank_in_auto == 0)
        snprintf(because, sizeof because,
                 " because auto prefers cuda, then mps, vulkan and cpu");
    else if (is_auto(c->r)) {
        char skipped[64] = "";
        for (int i = 0; i < rank_in_auto; i++) {
            size_t u = strlen(skipped);
            snprintf(skipped + u, sizeof skipped - u, "%s%s",
                     i == 0 ? "" : i == rank_in_auto - 1 ? " or " : ", ", gpl_auto_order[i]);
        }
        snprintf(because, sizeof because,
                 " because no %s device fits (reasons below), and auto prefers "
                 "cuda, then mps, vulkan and cpu",
                 skipped);
    }
    if (d->request.job == GPULAYER_JOB_DISTRIBUTED) {
        int distinct = 0;
        for (int i = 0; i < n; i++) distinct += fit[i]->chosen;
        snprintf(d->why, sizeof d->why, "%s: %d ranks on %d %s device%s, first %s%s",
                 prefix, d->request.nproc, distinct, accel, distinct == 1 ? "" : "s",
                 first, because);
        return;
    }
    char tail[96] = "";
    if (n > c->r->count)
        snprintf(tail, sizeof tail, "; of %d fitting %s devices it has the most usable memory",
                 n, accel);
    if (c->r->count > 1)
        snprintf(d->why, sizeof d->why, "%s: chose %d %s devices, first %s%s%s", prefix,
                 c->r->count, accel, first, because, tail);
    else
        snprintf(d->why, sizeof d->why, "%s: chose %s%s%s", prefix, first, because, tail);
}

/* Gives every fitting device that was not chosen its reason. */
static void explain_unchosen(place_ctx *c, const char *chosen_accel)
{
    for (int i = 0; i < c->out->num_considered; i++) {
        gpl_consideration *k = &c->out->considered[i];
        if (!k->fits || k->chosen) continue;
        const char *accel = device_of(c, k)->accelerator;
        if (chosen_accel && strcmp(accel, chosen_accel) != 0)
            snprintf(k->reason, sizeof k->reason, "fits, but auto preferred %s", chosen_accel);
        else if (chosen_accel)
            snprintf(k->reason, sizeof k->reason,
                     "fits, not needed: the job's devices were chosen by most "
                     "usable memory");
    }
}

/* Marks fitting devices of an accelerator that were too few. */
static void explain_too_few(place_ctx *c, gpl_consideration **fit, int n, int need)
{
    for (int i = 0; i < n; i++)
        snprintf(fit[i]->reason, sizeof fit[i]->reason,
                 "fits, but the job needs %d %s devices%s and only %d fit", need,
                 device_of(c, fit[i])->accelerator,
                 c->r->job == GPULAYER_JOB_INDEPENDENT && c->num_workers > 1
                     ? " on one worker"
                     : "",
                 n);
}

static gpulayer_status refuse(place_ctx *c)
{
    gpl_decision *d = c->out;
    char req[512];
    gpl_request_describe(c->r, req, sizeof req);
    if (!d->num_considered)
        snprintf(d->why, sizeof d->why, "no device fits the request (%s): no devices were found",
                 req);
    else
        snprintf(d->why, sizeof d->why, "no device fits the request (%s)", req);
    /* The last error carries every reason, for callers that only see it. */
    char msg[4096];
    size_t used = (size_t)snprintf(msg, sizeof msg, "%s", d->why);
    for (int i = 0; i < d->num_considered && used < sizeof msg; i++) {
        const gpl_consideration *k = &d->considered[i];
        const gpl_device *dev = device_of(c, k);
        int n = c->num_workers > 1
                    ? snprintf(msg + used, sizeof msg - used, "; %s/%s:%d: %s",
                               c->workers[k->worker].name, dev->accelerator,
                               dev->index, k->reason)
                    : snprintf(msg + used, sizeof msg - used, "; %s:%d: %s",
                               dev->accelerator, dev->index, k->reason);
        if (n > 0) used += (size_t)n;
    }
    return gpl_error(GPULAYER_ERR_PLACEMENT, "%s", msg);
}

static gpulayer_status consider_all(place_ctx *c, const gpl_place_options *opt)
{
    int total = 0;
    for (int w = 0; w < c->num_workers; w++) total += c->workers[w].num_devices;
    c->out->considered = calloc((size_t)(total ? total : 1), sizeof *c->out->considered);
    if (!c->out->considered)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory placing a job");
    for (int w = 0; w < c->num_workers; w++)
        for (int i = 0; i < c->workers[w].num_devices; i++) {
            gpl_consideration *k = &c->out->considered[c->out->num_considered++];
            k->worker = w;
            k->device = i;
            k->fits = gpl_device_fits(c->r, &c->workers[w].devices[i], opt, k->reason,
                                      sizeof k->reason);
        }
    return GPULAYER_OK;
}

gpulayer_status gpl_place(const gpl_request *r, const gpl_worker *workers,
                          int num_workers, const gpl_place_options *options,
                          gpl_decision *out)
{
    memset(out, 0, sizeof *out);
    out->request = *r;
    gpulayer_status st = gpl_job_validate(r);
    if (st != GPULAYER_OK) {
        gpl_strlcpy(out->why, gpl_error_message(), sizeof out->why);
        return st;
    }
    place_ctx c = {r, workers, num_workers, out};
    GPL_CHECK(consider_all(&c, options));
    gpl_consideration **fit = malloc((size_t)(out->num_considered + 1) * sizeof *fit);
    if (!fit) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory placing a job");

    const char *single[1] = {r->accelerator};
    const char *const *order = is_auto(r) ? gpl_auto_order : single;
    int norder = is_auto(r) ? 4 : 1;
    const char *chosen = NULL;
    for (int a = 0; a < norder && !chosen; a++) {
        int n = collect_fitting(&c, order[a], fit);
        if (!n) continue;
        int got = r->job == GPULAYER_JOB_DISTRIBUTED ? choose_distributed(&c, fit, n)
                                                     : choose_independent(&c, fit, n);
        if (got < 0) {
            free(fit);
            return GPULAYER_ERR_OUT_OF_MEMORY;
        }
        if (got == 0) {
            explain_too_few(&c, fit, n,
                            r->job == GPULAYER_JOB_DISTRIBUTED ? r->nproc : r->count);
            for (int i = 0; i < n; i++) fit[i]->fits = 0;
            continue;
        }
        chosen = order[a];
        gpl_strlcpy(out->accelerator, chosen, sizeof out->accelerator);
        explain_choice(&c, chosen, a, fit, n);
    }
    free(fit);
    if (!chosen) return refuse(&c);
    explain_unchosen(&c, chosen);
    out->placed = 1;
    return GPULAYER_OK;
}

void gpl_decision_release(gpl_decision *d)
{
    if (!d) return;
    free(d->considered);
    free(d->assignments);
    d->considered = NULL;
    d->assignments = NULL;
    d->num_considered = d->num_assignments = 0;
}
