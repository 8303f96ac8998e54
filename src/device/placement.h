/*
 * placement.h -- put a job on devices, or refuse it with every reason.
 *
 * Rules (ADR 0001, docs/adr/0001-device-boundaries.md):
 *   - a job's accelerator must be the device's accelerator: a cuda job never
 *     lands on an mps device, nor the reverse;
 *   - memory_kind=dedicated excludes unified-memory devices ("unified memory
 *     shared with the CPU") and the CPU;
 *   - usable memory, capabilities and the device index must fit;
 *   - distributed jobs never use mps (single-process rule);
 *   - auto prefers cuda, then mps, then vulkan, then cpu, and says why;
 *     among fitting devices of one accelerator the most usable memory wins.
 * Every device that is not chosen gets a reason, fitting or not.
 */
#ifndef GPL_PLACEMENT_H
#define GPL_PLACEMENT_H

#include <stddef.h>

#include "device.h"
#include "request.h"

/* A machine that can run processes: this host is one; tests build others. */
typedef struct gpl_worker {
    const char *name;
    const gpl_device *devices;
    int num_devices;
} gpl_worker;

typedef struct gpl_place_options {
    /* Only devices this library's own backend can use: the trainer's view.
     * `gpulayer run` leaves it off, since the program brings its own. */
    int require_backend;
    /* Probe every runtime, so that a refusal can also list the devices of
     * other accelerators (`gpulayer place`). Otherwise a named accelerator
     * probes only its own runtime and the CPU, which is quicker. */
    int consider_all;
} gpl_place_options;

typedef struct gpl_consideration {
    int worker, device; /* indices into the worker list and its devices */
    int fits;           /* satisfies the request                         */
    int chosen;
    char reason[GPL_REASON_LEN]; /* why not (chosen), or "" when chosen  */
} gpl_consideration;

/* One process and one of its devices. Independent jobs have rank 0 and
 * count devices; distributed jobs one device per rank (cpu ranks share). */
typedef struct gpl_assignment {
    int rank;
    int worker, device;
} gpl_assignment;

typedef struct gpl_decision {
    int placed;
    gpl_request request;
    char accelerator[GPL_ACCEL_LEN]; /* of the chosen devices              */
    char why[768];                   /* the choice, or the refusal, in words */
    gpl_consideration *considered;
    int num_considered;
    gpl_assignment *assignments;
    int num_assignments;
} gpl_decision;

/* Places r over the workers. Returns GPULAYER_OK when placed,
 * GPULAYER_ERR_PLACEMENT when refused (every device's reason is then in
 * gpulayer_last_error() as well as in out), GPULAYER_ERR_INVALID_ARGUMENT
 * when the job fails validation. out is filled in every case and must be
 * released. options may be NULL. */
gpulayer_status gpl_place(const gpl_request *r, const gpl_worker *workers,
                          int num_workers, const gpl_place_options *options,
                          gpl_decision *out);
void gpl_decision_release(gpl_decision *d);

/* Returns 1 when dev can take the request (ignoring how many devices the
 * job needs); otherwise writes the reason it cannot into why. */
int gpl_device_fits(const gpl_request *r, const gpl_device *dev,
                    const gpl_place_options *options, char *why, size_t size);

/* Whether dev has capability cap. cuda.sm_XY asks for compute capability
 * X.Y or newer (CUDA runs PTX built for older architectures), and
 * metal.appleN for GPU family N or newer (families are cumulative); any
 * other capability must be present as written. */
int gpl_capability_satisfied(const gpl_device *dev, const char *cap);

/* The order auto tries accelerators in. */
extern const char *const gpl_auto_order[4];

/* ------------------------------------------------------------ this host */

/* Discovers this host (cached) and places r on it as the only worker,
 * named "this host". devices receives the discovery so that the decision's
 * indices can be resolved; release both. */
gpulayer_status gpl_place_local(const gpl_request *r,
                                const gpl_place_options *options,
                                gpl_discovery *devices, gpl_decision *out);

/* The trainer's choice of backend. Takes a request such as "auto", "cpu",
 * "cuda", "cuda:1", "mps", "vulkan" (NULL or "" is auto), runs discovery
 * (cached per process), applies the placement rules above with
 * require_backend set, and writes the accelerator name ("cpu", "cuda",
 * ...), the device index and a one-line reason ("auto: chose cuda:0 (NVIDIA
 * H200, 139.0 GiB usable) because ..."). On refusal returns
 * GPULAYER_ERR_PLACEMENT with every rejected device's reason in
 * gpulayer_last_error(). */
gpulayer_status gpl_device_choose_backend(const char *request, char *accelerator,
                                          size_t accelerator_size,
                                          int *device_index, char *reason,
                                          size_t reason_size);

/* The same for rank local_rank of local_size ranks of a distributed job on
 * this host: a request without a device index is placed as a distributed
 * job (one GPU a rank, GPUs never shared; cpu ranks share the CPU) and
 * this rank's device is returned; a request with an index ("cuda:0") is
 * taken as given, so ranks may share a device on purpose. */
gpulayer_status gpl_device_choose_rank_backend(const char *request, int local_rank,
                                               int local_size, char *accelerator,
                                               size_t accelerator_size, int *device_index,
                                               char *reason, size_t reason_size);

/* ------------------------------------------------------------ rendering */

/* The decision as text for people: what was chosen and why, every device
 * considered with its reason, and (when refused) the discovery notes of
 * notes, which may be NULL. Returns a malloc'd string. */
char *gpl_decision_text(const gpl_decision *d, const gpl_worker *workers,
                        int num_workers, const gpl_discovery *notes);
/* The decision as JSON (malloc'd), see docs/devices.md. notes, when not
 * NULL, adds the discovery notes that explain absent devices. */
char *gpl_decision_json(const gpl_decision *d, const gpl_worker *workers,
                        int num_workers, const gpl_discovery *notes);

#endif
