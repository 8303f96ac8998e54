/* placement_local.c -- placement on this host, and the trainer's backend. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_info.h"
#include "discovery.h"
#include "error.h"
#include "framework.h"
#include "placement.h"

/* Which runtimes a request needs probed. A cpu request spawns no GPU probe;
 * with require_backend, auto skips runtimes whose backend this library
 * lacks, since it could not use their devices anyway (a named accelerator
 * is still probed, so that its devices say why they are refused). */
static unsigned runtimes_for(const gpl_request *r, const gpl_place_options *opt)
{
    /* Python starts only for a request that names a framework capability. */
    unsigned frameworks = gpl_request_wants_frameworks(r) ? GPL_DISCOVER_FRAMEWORKS : 0;
    if (opt && opt->consider_all) return GPL_RT_ALL | frameworks;
    int rt = gpl_runtime_of_accelerator(r->accelerator);
    if (rt >= 0) return GPL_RT_BIT(rt) | GPL_RT_BIT(GPL_RT_CPU) | frameworks;
    unsigned mask = GPL_RT_ALL;
    if (opt && opt->require_backend) {
        gpl_build_info b;
        gpl_discovery_build_info(&b);
        for (int i = 0; i < GPL_RT_COUNT; i++)
            if (!b.built[i]) mask &= ~GPL_RT_BIT(i);
    }
    return mask | frameworks;
}

/* Adds the discovery notes that explain missing devices to the refusal. */
static void append_notes(const gpl_request *r, const gpl_discovery *found)
{
    char msg[4096];
    gpl_strlcpy(msg, gpl_error_message(), sizeof msg);
    size_t used = strlen(msg);
    for (int i = 0; i < found->num_notes && used < sizeof msg; i++) {
        const gpl_note *n = &found->notes[i];
        int rt = gpl_runtime_of_accelerator(r->accelerator);
        if (rt >= 0 && strcmp(n->runtime, gpl_runtime_name((gpl_runtime)rt)) != 0 &&
            !gpl_framework_note_concerns(r, n->runtime))
            continue;
        int w = snprintf(msg + used, sizeof msg - used, "; note (%s, %s): %s", n->runtime,
                         gpl_note_kind_name(n->kind), n->message);
        if (w > 0) used += (size_t)w;
    }
    gpl_error(GPULAYER_ERR_PLACEMENT, "%s", msg);
}

gpulayer_status gpl_place_local(const gpl_request *r, const gpl_place_options *options,
                                gpl_discovery *devices, gpl_decision *out)
{
    memset(out, 0, sizeof *out);
    gpulayer_status st = gpl_discover(runtimes_for(r, options), devices);
    if (st != GPULAYER_OK) return st;
    gpl_worker host = {"this host", devices->devices, devices->num_devices};
    st = gpl_place(r, &host, 1, options, out);
    if (st == GPULAYER_ERR_PLACEMENT) append_notes(r, devices);
    return st;
}

/* local_rank of local_size: one rank of a distributed job on this host.
 * A request without a device index then asks for a distributed placement
 * of local_size ranks and takes this rank's device, so that ranks get
 * distinct GPUs (or share the CPU); a named device (cuda:0) is taken as
 * given, which is how ranks share one GPU on purpose. */
static gpulayer_status choose_backend(const char *request, int local_rank, int local_size,
                                      char *accelerator, size_t accelerator_size,
                                      int *device_index, char *reason, size_t reason_size)
{
    if (!accelerator || !accelerator_size || !device_index)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "gpl_device_choose_backend: no place for the result");
    gpl_request r;
    gpl_request_init(&r);
    GPL_CHECK(gpl_request_parse(request, &r));
    if (r.job != GPULAYER_JOB_INDEPENDENT || r.count != 1)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "device '%s': the trainer uses one device per process; "
                         "start ranks with `gpulayer run --nproc N`",
                         request);
    int rt = gpl_runtime_of_accelerator(r.accelerator);
    gpl_build_info b;
    gpl_discovery_build_info(&b);
    if (rt >= 0 && !b.built[rt])
        return gpl_error(GPULAYER_ERR_PLACEMENT,
                         "device '%s': this library was built without the %s "
                         "backend; use device=auto or cpu, or rebuild with it",
                         request, r.accelerator);
    /* Started by `gpulayer run --nproc`: the runner already gave this rank
     * its device (GPULAYER_DEVICE, numbered as this process sees it). */
    const char *given = getenv("GPULAYER_DEVICE"), *given_accel = getenv("GPULAYER_ACCELERATOR");
    if (local_size > 1 && r.device_index < 0 && given && *given && given_accel &&
        (!strcmp(r.accelerator, "auto") || !strcmp(r.accelerator, given_accel))) {
        char named[64];
        snprintf(named, sizeof named, "%s:%s", given_accel, given);
        gpl_request_init(&r);
        GPL_CHECK(gpl_request_parse(named, &r));
    } else if (local_size > 1 && r.device_index < 0) {
        r.job = GPULAYER_JOB_DISTRIBUTED;
        r.nproc = local_size;
        GPL_CHECK(gpl_job_validate(&r));
    }

    gpl_place_options opt = {.require_backend = 1};
    gpl_discovery found = {0};
    gpl_decision d;
    gpulayer_status st = gpl_place_local(&r, &opt, &found, &d);
    if (st == GPULAYER_OK) {
        const gpl_assignment *a = &d.assignments[0];
        for (int i = 0; i < d.num_assignments; i++)
            if (d.assignments[i].rank == local_rank) a = &d.assignments[i];
        const gpl_device *dev = &found.devices[a->device];
        gpl_strlcpy(accelerator, dev->accelerator, accelerator_size);
        *device_index = dev->index;
        if (reason && reason_size) {
            if (r.job == GPULAYER_JOB_DISTRIBUTED)
                snprintf(reason, reason_size, "%s; this rank (%d of %d on this host): %s:%d",
                         d.why, local_rank, local_size, dev->accelerator, dev->index);
            else
                gpl_strlcpy(reason, d.why, reason_size);
        }
    }
    gpl_decision_release(&d);
    gpl_discovery_release(&found);
    return st;
}

gpulayer_status gpl_device_choose_backend(const char *request, char *accelerator,
                                          size_t accelerator_size, int *device_index,
                                          char *reason, size_t reason_size)
{
    return choose_backend(request, 0, 1, accelerator, accelerator_size, device_index,
                          reason, reason_size);
}

gpulayer_status gpl_device_choose_rank_backend(const char *request, int local_rank,
                                               int local_size, char *accelerator,
                                               size_t accelerator_size, int *device_index,
                                               char *reason, size_t reason_size)
{
    return choose_backend(request, local_rank, local_size, accelerator, accelerator_size,
                          device_index, reason, reason_size);
}
