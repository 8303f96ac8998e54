/*
 * request.h -- what a job asks for, and whether such a job can exist.
 *
 * A request names an accelerator (auto, cpu, cuda, mps, vulkan, optionally
 * with a device index), a minimum of usable memory per device, a memory
 * kind, required capabilities and a device count. A job is independent (one
 * process) or distributed (N processes, one device each).
 *
 * Text form, used by `gpulayer place|run [request]` and by the trainer's
 * device parameter: comma-separated items, where a bare word is the
 * accelerator and the rest are key=value:
 *   "cuda"   "cuda:1"   "auto,memory=8G,memory_kind=dedicated"
 *   "capability=cuda.sm_90,count=2"   "cpu,nproc=4"
 */
#ifndef GPL_REQUEST_H
#define GPL_REQUEST_H

#include <stdint.h>

#include "device.h"

#define GPL_MAX_REQUEST_CAPS 16

typedef struct gpl_request {
    char accelerator[GPL_ACCEL_LEN]; /* "auto", "cpu", "cuda", "mps", "vulkan" */
    int device_index;                /* -1: any device of the accelerator     */
    uint64_t min_memory;             /* usable bytes per device; 0: any       */
    gpulayer_memory_kind memory_kind;/* ANY, DEDICATED or UNIFIED             */
    int num_caps;
    char caps[GPL_MAX_REQUEST_CAPS][GPL_CAP_LEN];
    int count;                       /* devices per process                   */
    gpulayer_job_kind job;
    int nproc;                       /* processes (1 for independent jobs)    */
} gpl_request;

/* auto, one device, any memory, independent, one process. */
void gpl_request_init(gpl_request *r);

/* Sets one field by name: accelerator, memory, memory_kind, capability
 * (adds one), count, nproc (nproc > 1 or distributed=1 makes the job
 * distributed). The same names serve the text form and the command's
 * flags (--memory-kind is memory_kind). */
gpulayer_status gpl_request_set(gpl_request *r, const char *key, const char *value);

/* Applies a request in text form (see above) on top of r. */
gpulayer_status gpl_request_parse(const char *text, gpl_request *r);

/* Reads one request flag of a command line at argv[*i]: --accelerator A,
 * --memory 8G, --memory-kind K, --capability C (repeatable), --count N,
 * --nproc N, each also as --flag=value. Returns 1 when it took the flag
 * (advancing *i past its value), 0 when argv[*i] is not a request flag,
 * and -1 on a bad value (the last error says why). */
int gpl_request_flag(gpl_request *r, int argc, char *const *argv, int *i);

/* Copies a public request into r. */
gpulayer_status gpl_request_from_public(const gpulayer_device_request *in,
                                        gpl_request *r);

/* Checks that such a job can run at all, wherever it is placed: rejects
 * distributed mps (the single-process rule of ADR 0001) and nonsensical
 * counts. Distributed cpu is accepted everywhere, Macs included. */
gpulayer_status gpl_job_validate(const gpl_request *r);

/* "accelerator=cuda, memory>=8.0 GiB, memory_kind=dedicated, ..." */
void gpl_request_describe(const gpl_request *r, char *buf, size_t size);

#endif
