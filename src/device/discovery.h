/*
 * discovery.h -- one probe per runtime, run isolated, cached per process.
 *
 * cuInit and CUDA_VISIBLE_DEVICES are per-process facts, so a result is
 * reused for the life of the process (and dropped in a forked child, whose
 * process differs). Each GPU probe is the gpulayer-probe program, started
 * with posix_spawn and killed at a time limit; every absence, timeout or
 * crash becomes a note.
 */
#ifndef GPL_DISCOVERY_H
#define GPL_DISCOVERY_H

#include "build_info.h"
#include "device.h"

/* Default time limit of one probe. cuInit on a multi-GPU server without the
 * persistence daemon can take several seconds; a hung driver must not make
 * the caller wait much longer than that. GPULAYER_PROBE_TIMEOUT_MS
 * overrides it. */
#define GPL_PROBE_TIMEOUT_MS 20000

/* In a discovery mask: also run the framework probe (framework.h), whose
 * capabilities are added to the devices handed out and whose notes follow
 * theirs. Without it Python is never started. */
#define GPL_DISCOVER_FRAMEWORKS (1u << 8)

/* Adds to out (which the caller releases) the devices and notes of the
 * runtimes in mask (GPL_RT_BIT(...) or GPL_RT_ALL, with
 * GPL_DISCOVER_FRAMEWORKS), probing those that this process has not probed
 * yet. Devices come in runtime order: cpu, cuda, mps, vulkan. Thread-safe;
 * fails only when out of memory. */
gpulayer_status gpl_discover(unsigned mask, gpl_discovery *out);

/* Every runtime's result, kept for the life of the process (until
 * gpl_discovery_reset), for the public API's borrowed strings. NULL only
 * when out of memory. */
const gpl_discovery *gpl_discovery_snapshot(void);

/* The build facts discovery applies: this build's (gpl_build_info_current),
 * or a test's stand-in. */
void gpl_discovery_build_info(gpl_build_info *out);

/* Writes the path of the gpulayer-probe program and returns 1, or returns
 * 0 with the places looked in written to tried. GPULAYER_PROBE, when set,
 * names the program (for packagers who move it). */
int gpl_probe_locate(char *path, size_t size, char *tried, size_t tried_size);

/* ------------------------------------------------ for tests, not for users */

/* Stands in for one runtime's probe: either output (the text a probe would
 * print, parsed in-process) or argv (a program run in the probe's place,
 * under the same time limit, so that hangs and crashes can be tested). */
typedef struct gpl_probe_fake {
    gpl_runtime runtime;
    const char *output;
    const char *const *argv;
} gpl_probe_fake;

typedef struct gpl_discovery_fakes {
    const gpl_probe_fake *probes; /* runtimes not listed report nothing    */
    int count;
    int timeout_ms;               /* 0: the default                        */
    const gpl_build_info *build;  /* NULL: this build's real facts         */
    /* The framework probe's output, parsed in-process; NULL runs the real
     * probe (with whatever GPULAYER_PYTHON and PYTHONPATH say). */
    const char *frameworks;
} gpl_discovery_fakes;

/* Installs fakes (NULL removes them) and drops the cache. The arrays and
 * strings must stay valid until the fakes are removed. */
void gpl_discovery_install_fakes(const gpl_discovery_fakes *fakes);
/* Drops every cached result (and the snapshot). */
void gpl_discovery_reset(void);
/* Number of probes run since the last reset: lets tests see the cache. */
int gpl_discovery_probe_runs(void);
/* Number of framework probes run since the last reset. */
int gpl_discovery_framework_runs(void);

#endif
