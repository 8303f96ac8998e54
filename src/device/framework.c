/* framework.c -- what the framework probe's facts mean for devices. */
#include "framework.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

enum { CAP_TORCH_CUDA, CAP_TORCH_MPS, CAP_MLX };

void gpl_frameworks_init(gpl_frameworks *fw)
{
    memset(fw, 0, sizeof *fw);
    static const char *const names[GPL_FRAMEWORK_CAPS][2] = {
        {"torch.cuda", "cuda"}, {"torch.mps", "mps"}, {"mlx", "mps"}};
    for (int i = 0; i < GPL_FRAMEWORK_CAPS; i++) {
        fw->caps[i].cap = names[i][0];
        fw->caps[i].accelerator = names[i][1];
        fw->caps[i].device_count = -1;
    }
}

void gpl_frameworks_release(gpl_frameworks *fw)
{
    if (fw) gpl_discovery_release(&fw->notes);
}

/* Adds a note and makes its message the why of capabilities first..last. */
static gpulayer_status vnote(gpl_frameworks *fw, int first, int last, const char *runtime,
                             gpl_note_kind kind, const char *fmt, va_list ap)
{
    char msg[GPL_NOTE_LEN];
    vsnprintf(msg, sizeof msg, fmt, ap);
    for (int i = first; i <= last; i++) gpl_strlcpy(fw->caps[i].why, msg, GPL_NOTE_LEN);
    return gpl_discovery_add_note(&fw->notes, runtime, kind, "%s", msg);
}

#if defined(__GNUC__)
__attribute__((format(printf, 6, 7)))
#endif
static gpulayer_status
note(gpl_frameworks *fw, int first, int last, const char *runtime, gpl_note_kind kind,
     const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gpulayer_status st = vnote(fw, first, last, runtime, kind, fmt, ap);
    va_end(ap);
    return st;
}

gpulayer_status gpl_frameworks_fail(gpl_frameworks *fw, gpl_note_kind kind, const char *fmt,
                                    ...)
{
    va_list ap;
    va_start(ap, fmt);
    gpulayer_status st = vnote(fw, 0, GPL_FRAMEWORK_CAPS - 1, "frameworks", kind, fmt, ap);
    va_end(ap);
    return st;
}

static const char *str(const cJSON *obj, const char *key, const char *fallback)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(item) && *item->valuestring ? item->valuestring : fallback;
}

static int flag(const cJSON *obj, const char *key)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(obj, key));
}

static void set_available(gpl_framework_cap *c, int device_count, const char *version)
{
    c->available = 1;
    c->device_count = device_count;
    gpl_strlcpy(c->version, version, sizeof c->version);
    c->why[0] = '\0';
}

static gpulayer_status read_torch_cuda(gpl_frameworks *fw, const cJSON *t, const char *ver)
{
    const char *cuda = str(t, "cuda_version", NULL);
    if (!cuda)
        return note(fw, CAP_TORCH_CUDA, CAP_TORCH_CUDA, "torch.cuda",
                    GPL_NOTE_FRAMEWORK_NOT_BUILT,
                    "torch %s was built without CUDA (torch.version.cuda is None), so "
                    "torch.cuda is not reported; install a CUDA build of torch",
                    ver);
    if (!flag(t, "cuda_available")) {
        const char *err = str(t, "cuda_error", NULL);
        return note(fw, CAP_TORCH_CUDA, CAP_TORCH_CUDA, "torch.cuda",
                    GPL_NOTE_RUNTIME_UNAVAILABLE,
                    "torch %s was built for CUDA %s but torch.cuda.is_available() is "
                    "False%s%s%s",
                    ver, cuda, err ? " (" : "", err ? err : "", err ? ")" : "");
    }
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(t, "cuda_device_count");
    char version[GPL_PROP_VALUE_LEN];
    snprintf(version, sizeof version, "torch %s, CUDA %s", ver, cuda);
    set_available(&fw->caps[CAP_TORCH_CUDA], cJSON_IsNumber(n) ? (int)n->valuedouble : -1,
                  version);
    return GPULAYER_OK;
}

static gpulayer_status read_torch_mps(gpl_frameworks *fw, const cJSON *t, const char *ver,
                                      const char *platform)
{
    if (strcmp(platform, "darwin") != 0)
        return note(fw, CAP_TORCH_MPS, CAP_TORCH_MPS, "torch.mps", GPL_NOTE_NOT_MACOS,
                    "torch.mps needs macOS (MPS is PyTorch's backend for the Apple GPU); "
                    "this Python runs on %s",
                    platform);
    if (!flag(t, "mps_built"))
        return note(fw, CAP_TORCH_MPS, CAP_TORCH_MPS, "torch.mps",
                    GPL_NOTE_FRAMEWORK_NOT_BUILT,
                    "torch %s was built without MPS (torch.backends.mps.is_built() is "
                    "False), so torch.mps is not reported",
                    ver);
    if (!flag(t, "mps_available"))
        return note(fw, CAP_TORCH_MPS, CAP_TORCH_MPS, "torch.mps",
                    GPL_NOTE_RUNTIME_UNAVAILABLE,
                    "torch %s is built with MPS but torch.backends.mps.is_available() is "
                    "False (macOS older than 12.3, or no Metal device: a VM or CI runner)",
                    ver);
    char version[GPL_PROP_VALUE_LEN];
    snprintf(version, sizeof version, "torch %s", ver);
    set_available(&fw->caps[CAP_TORCH_MPS], -1, version);
    return GPULAYER_OK;
}

static gpulayer_status read_torch(gpl_frameworks *fw, const cJSON *t, const char *python,
                                  const char *platform)
{
    const char *err = str(t, "error", "no result");
    if (!flag(t, "imported"))
        return flag(t, "missing")
                   ? note(fw, CAP_TORCH_CUDA, CAP_TORCH_MPS, "torch",
                          GPL_NOTE_LIBRARY_NOT_FOUND,
                          "torch is not installed for %s (%s); torch.cuda and "
                          "torch.mps are not reported",
                          python, err)
                   : note(fw, CAP_TORCH_CUDA, CAP_TORCH_MPS, "torch",
                          GPL_NOTE_RUNTIME_UNAVAILABLE,
                          "torch is installed for %s but failed to import (%s); "
                          "torch.cuda and torch.mps are not reported",
                          python, err);
    const char *ver = str(t, "version", "(unknown version)");
    GPL_CHECK(read_torch_cuda(fw, t, ver));
    return read_torch_mps(fw, t, ver, platform);
}

static gpulayer_status read_mlx(gpl_frameworks *fw, const cJSON *m, const char *python)
{
    const char *err = str(m, "error", "no result");
    if (!flag(m, "imported"))
        return flag(m, "missing")
                   ? note(fw, CAP_MLX, CAP_MLX, "mlx", GPL_NOTE_LIBRARY_NOT_FOUND,
                          "mlx is not installed for %s (%s); mlx is not reported",
                          python, err)
                   : note(fw, CAP_MLX, CAP_MLX, "mlx", GPL_NOTE_RUNTIME_UNAVAILABLE,
                          "mlx is installed for %s but failed to import (%s)", python, err);
    const char *ver = str(m, "version", "(unknown version)");
    if (!flag(m, "gpu"))
        return note(fw, CAP_MLX, CAP_MLX, "mlx", GPL_NOTE_RUNTIME_UNAVAILABLE,
                    "mlx %s is installed but its default device is %s, not the GPU", ver,
                    str(m, "default_device", "unknown"));
    char version[GPL_PROP_VALUE_LEN];
    snprintf(version, sizeof version, "mlx %s", ver);
    set_available(&fw->caps[CAP_MLX], -1, version);
    return GPULAYER_OK;
}

gpulayer_status gpl_frameworks_parse(const char *text, size_t len, gpl_frameworks *fw)
{
    cJSON *root = text ? cJSON_ParseWithLength(text, len) : NULL;
    if (!cJSON_IsObject(root) || strcmp(str(root, "runtime", ""), "frameworks") != 0) {
        char shown[96];
        size_t n = 0;
        for (size_t i = 0; text && i < len && n < 80; i++) {
            unsigned char c = (unsigned char)text[i];
            shown[n++] = c >= 32 && c < 127 ? (char)c : ' ';
        }
        shown[n] = '\0';
        cJSON_Delete(root);
        return gpl_frameworks_fail(fw, GPL_NOTE_PROBE_FAILED,
                                   "the framework probe wrote no result (output: '%s'); "
                                   "torch.cuda, torch.mps and mlx are not reported",
                                   shown);
    }
    char python[160];
    snprintf(python, sizeof python, "%s, Python %s", str(root, "executable", "python"),
             str(root, "python", "?"));
    const char *platform = str(root, "platform", "unknown");
    gpulayer_status st = read_torch(fw, cJSON_GetObjectItemCaseSensitive(root, "torch"),
                                    python, platform);
    if (st == GPULAYER_OK)
        st = read_mlx(fw, cJSON_GetObjectItemCaseSensitive(root, "mlx"), python);
    cJSON_Delete(root);
    return st;
}

gpulayer_status gpl_frameworks_apply(const gpl_frameworks *fw, gpl_discovery *d)
{
    for (int i = 0; i < GPL_FRAMEWORK_CAPS; i++) {
        const gpl_framework_cap *c = &fw->caps[i];
        for (int k = 0; k < d->num_devices; k++) {
            gpl_device *dev = &d->devices[k];
            if (strcmp(dev->accelerator, c->accelerator) != 0) continue;
            if (c->available && (c->device_count < 0 || dev->index < c->device_count)) {
                gpl_device_add_cap(dev, c->cap);
                gpl_device_set_prop(dev, c->cap, c->version);
            } else if (c->available) {
                char why[GPL_NOTE_LEN];
                snprintf(why, sizeof why, "%s sees %d %s device%s, not %s:%d", c->version,
                         c->device_count, c->accelerator, c->device_count == 1 ? "" : "s",
                         dev->accelerator, dev->index);
                gpl_device_add_absent(dev, c->cap, why);
            } else {
                gpl_device_add_absent(dev, c->cap, c->why);
            }
        }
    }
    return gpl_discovery_append(d, &fw->notes);
}

int gpl_is_framework_cap(const char *cap)
{
    return !strncmp(cap, "torch.", 6) || !strcmp(cap, "mlx") || !strncmp(cap, "mlx.", 4);
}

int gpl_request_wants_frameworks(const gpl_request *r)
{
    for (int i = 0; i < r->num_caps; i++)
        if (gpl_is_framework_cap(r->caps[i])) return 1;
    return 0;
}

int gpl_framework_note_concerns(const gpl_request *r, const char *runtime)
{
    for (int i = 0; i < r->num_caps; i++) {
        const char *cap = r->caps[i];
        if (!gpl_is_framework_cap(cap)) continue;
        if (!strcmp(runtime, "frameworks") || !strcmp(runtime, cap)) return 1;
        if (!strcmp(runtime, "torch") && !strncmp(cap, "torch.", 6)) return 1;
    }
    return 0;
}
