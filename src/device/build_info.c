/* build_info.c -- backend build status of each device. */
#include "build_info.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

/* The CUDA backend ships SASS for its architectures plus PTX. Since CUDA
 * 11.1 a driver of the same major version runs cubins built by a newer
 * minor toolkit, so the driver needs only the toolkit's major version. The
 * build system sets both from the CUDA compiler and CMAKE_CUDA_ARCHITECTURES
 * (src/device/CMakeLists.txt); these defaults describe a CUDA 12 build. */
#ifndef GPL_CUDA_MIN_DRIVER_VERSION
#define GPL_CUDA_MIN_DRIVER_VERSION 12000
#endif
#ifndef GPL_CUDA_ARCHITECTURES
#define GPL_CUDA_ARCHITECTURES ""
#endif

void gpl_build_info_current(gpl_build_info *out)
{
    memset(out, 0, sizeof *out);
    /* The build defines GPL_HAVE_<BACKEND> for every backend it compiles,
     * the same definitions that fill the backend registry; the reference
     * CPU backend is always there. */
    out->built[GPL_RT_CPU] = 1;
#ifdef GPL_HAVE_CUDA
    out->built[GPL_RT_CUDA] = 1;
#endif
#ifdef GPL_HAVE_METAL
    out->built[GPL_RT_METAL] = 1;
#endif
#ifdef GPL_HAVE_VULKAN
    out->built[GPL_RT_VULKAN] = 1;
#endif
    out->cuda_min_driver = GPL_CUDA_MIN_DRIVER_VERSION;
    gpl_build_set_cuda_archs(out, GPL_CUDA_ARCHITECTURES);
    /* The Vulkan kernels carry int64 gradient pairs (summed with 32-bit
     * atomics and an explicit carry) and evaluate gains in double, as
     * every backend does (backend.h). */
    out->vulkan_required[0] = "vulkan.int64";
    out->vulkan_required[1] = "vulkan.float64";
    out->vulkan_required[2] = NULL;
    /* Apple7 (M1/A14) is the oldest family with the threadgroup atomics
     * and SIMD-group reductions the Metal kernels use. */
    out->metal_required_family = "metal.apple7";
}

static void add_arch(int *list, int *count, int cc)
{
    for (int i = 0; i < *count; i++)
        if (list[i] == cc) return;
    if (*count < GPL_MAX_CUDA_ARCHS) list[(*count)++] = cc;
}

void gpl_build_set_cuda_archs(gpl_build_info *b, const char *list)
{
    b->num_cuda_sass = b->num_cuda_ptx = 0;
    for (const char *p = list; p && *p;) {
        const char *end = p + strcspn(p, ",;");
        if (!*end) end = NULL;
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char entry[32] = "";
        if (len < sizeof entry) memcpy(entry, p, len), entry[len] = '\0';
        int cc, used = 0;
        if (sscanf(entry, "%d%n", &cc, &used) == 1 && cc > 0) {
            const char *kind = entry + used;
            if (!strcmp(kind, "") || !strcmp(kind, "-real"))
                add_arch(b->cuda_sass, &b->num_cuda_sass, cc);
            if (!strcmp(kind, "") || !strcmp(kind, "-virtual"))
                add_arch(b->cuda_ptx, &b->num_cuda_ptx, cc);
        }
        p = end ? end + 1 : p + len;
    }
}

int gpl_build_covers_cuda(const gpl_build_info *b, int cc)
{
    if (!b->num_cuda_sass && !b->num_cuda_ptx) return 1;
    for (int i = 0; i < b->num_cuda_sass; i++)
        if (b->cuda_sass[i] / 10 == cc / 10 && b->cuda_sass[i] <= cc) return 1;
    for (int i = 0; i < b->num_cuda_ptx; i++)
        if (b->cuda_ptx[i] <= cc) return 1;
    return 0;
}

void gpl_build_cuda_archs_text(const gpl_build_info *b, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    if (!b->num_cuda_sass && !b->num_cuda_ptx) {
        snprintf(buf, size, "unknown");
        return;
    }
    for (int i = 0; i < b->num_cuda_sass && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%ssm_%d", i ? " " : "", b->cuda_sass[i]);
    if (b->num_cuda_sass && n < size) n += (size_t)snprintf(buf + n, size - n, " (SASS)");
    for (int i = 0; i < b->num_cuda_ptx && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%scompute_%d",
                              i ? " " : (b->num_cuda_sass ? ", " : ""), b->cuda_ptx[i]);
    if (b->num_cuda_ptx && n < size) snprintf(buf + n, size - n, " (PTX)");
}

void gpl_cuda_version_text(int version, char *buf, size_t size)
{
    snprintf(buf, size, "%d.%d", version / 1000, (version % 1000) / 10);
}

static int prop_int(const gpl_device *dev, const char *key, int fallback)
{
    const char *v = gpl_device_prop(dev, key);
    return v && *v ? atoi(v) : fallback;
}

/* A compute capability "9.0" as 90, or -1. */
static int compute_capability(const gpl_device *dev)
{
    const char *v = gpl_device_prop(dev, "compute_capability");
    int major, minor;
    if (!v || sscanf(v, "%d.%d", &major, &minor) != 2) return -1;
    return major * 10 + minor;
}

/* Returns the note kind that explains why the backend cannot use dev
 * (writing the reason), or GPL_NOTE_INFO when it can. */
static gpl_note_kind check_cuda(const gpl_build_info *b, const gpl_device *dev,
                                char *reason, size_t size)
{
    int driver = prop_int(dev, "driver_api_version", 0);
    if (driver > 0 && driver < b->cuda_min_driver) {
        char have[16], need[16];
        gpl_cuda_version_text(driver, have, sizeof have);
        gpl_cuda_version_text(b->cuda_min_driver, need, sizeof need);
        snprintf(reason, size,
                 "the CUDA driver supports CUDA %s, older than the CUDA %s "
                 "that the kernels in this build need; update the NVIDIA driver",
                 have, need);
        return GPL_NOTE_DRIVER_TOO_OLD;
    }
    int cc = compute_capability(dev);
    if (cc >= 0 && !gpl_build_covers_cuda(b, cc)) {
        char archs[128];
        gpl_build_cuda_archs_text(b, archs, sizeof archs);
        snprintf(reason, size,
                 "compute capability %d.%d (sm_%d) is not covered by this build's "
                 "CUDA kernels, built for %s; rebuild with "
                 "-DCMAKE_CUDA_ARCHITECTURES=%d-real added",
                 cc / 10, cc % 10, cc, archs, cc);
        return GPL_NOTE_MISSING_GPU_FAMILY;
    }
    return GPL_NOTE_INFO;
}

static gpl_note_kind check_caps(const char *const *required, const gpl_device *dev,
                                const char *backend, char *reason, size_t size)
{
    for (int i = 0; required[i]; i++)
        if (!gpl_device_has_cap(dev, required[i])) {
            snprintf(reason, size, "lacks %s, which the %s backend's kernels need",
                     required[i], backend);
            return GPL_NOTE_MISSING_GPU_FAMILY;
        }
    return GPL_NOTE_INFO;
}

static gpl_note_kind check_device(const gpl_build_info *b, gpl_runtime rt,
                                  const gpl_device *dev, char *reason, size_t size)
{
    switch (rt) {
    case GPL_RT_CUDA: return check_cuda(b, dev, reason, size);
    case GPL_RT_VULKAN: return check_caps(b->vulkan_required, dev, "vulkan", reason, size);
    case GPL_RT_METAL: {
        const char *family[2] = {b->metal_required_family, NULL};
        if (!family[0]) return GPL_NOTE_INFO;
        return check_caps(family, dev, "mps", reason, size);
    }
    default: return GPL_NOTE_INFO;
    }
}

/* The first note of the runtime that explains an absence, for the
 * "built but unavailable" note. */
static const char *first_absence(const gpl_discovery *d, const char *runtime)
{
    for (int i = 0; i < d->num_notes; i++)
        if (!strcmp(d->notes[i].runtime, runtime) && d->notes[i].kind != GPL_NOTE_INFO)
            return d->notes[i].message;
    return "no device was found";
}

gpulayer_status gpl_build_apply(const gpl_build_info *b, gpl_runtime rt,
                                gpl_discovery *d)
{
    const char *accel = gpl_runtime_accelerator(rt);
    const char *runtime = gpl_runtime_name(rt);
    int usable = 0, seen = 0;
    for (int i = 0; i < d->num_devices; i++) {
        gpl_device *dev = &d->devices[i];
        if (strcmp(dev->accelerator, accel) != 0) continue;
        seen++;
        dev->backend_built = b->built[rt];
        dev->backend_available = 0;
        if (!b->built[rt]) {
            snprintf(dev->backend_reason, sizeof dev->backend_reason,
                     "this library was built without the %s backend", accel);
            continue;
        }
        gpl_note_kind why = check_device(b, rt, dev, dev->backend_reason,
                                         sizeof dev->backend_reason);
        if (why == GPL_NOTE_INFO) {
            dev->backend_available = 1;
            dev->backend_reason[0] = '\0';
            usable++;
            continue;
        }
        char label[32];
        gpl_device_label(dev, label, sizeof label);
        GPL_CHECK(gpl_discovery_add_note(d, runtime, why, "%s (%s): %s", label,
                                         dev->name, dev->backend_reason));
    }
    if (b->built[rt] && !usable && rt != GPL_RT_CPU) {
        const char *why = seen ? "no device it can use (see the notes above)"
                               : first_absence(d, runtime);
        GPL_CHECK(gpl_discovery_add_note(
            d, runtime, GPL_NOTE_BACKEND_UNAVAILABLE,
            "the %s backend is built into this library but unavailable: %s",
            accel, why));
    }
    return GPULAYER_OK;
}
