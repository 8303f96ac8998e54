/* request.c -- parse and validate requests and job specs. */
#include "request.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bytes.h"
#include "error.h"
#include "support_matrix.h"

void gpl_request_init(gpl_request *r)
{
    memset(r, 0, sizeof *r);
    gpl_strlcpy(r->accelerator, "auto", sizeof r->accelerator);
    r->device_index = -1;
    r->memory_kind = GPULAYER_MEMORY_ANY;
    r->count = 1;
    r->job = GPULAYER_JOB_INDEPENDENT;
    r->nproc = 1;
}

static int known_accelerator(const char *name)
{
    return !strcmp(name, "auto") || gpl_runtime_of_accelerator(name) >= 0;
}

static gpulayer_status parse_positive(const char *key, const char *value, int *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(value, &end, 10);
    if (end == value || *end || errno || v < 1 || v > 1 << 20)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "%s must be a positive whole number, not '%s'", key, value);
    *out = (int)v;
    return GPULAYER_OK;
}

/* "cuda" or "cuda:1". */
static gpulayer_status set_accelerator(gpl_request *r, const char *value)
{
    char name[GPL_ACCEL_LEN];
    const char *colon = strchr(value, ':');
    size_t len = colon ? (size_t)(colon - value) : strlen(value);
    if (len == 0 || len >= sizeof name)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "unknown accelerator '%s' (use auto, cpu, cuda, mps or "
                         "vulkan, optionally with :INDEX)",
                         value);
    memcpy(name, value, len);
    name[len] = '\0';
    for (char *c = name; *c; c++) *c = (char)tolower((unsigned char)*c);
    if (!known_accelerator(name))
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "unknown accelerator '%s' (use auto, cpu, cuda, mps or "
                         "vulkan, optionally with :INDEX)",
                         value);
    int index = -1;
    if (colon) {
        char *end = NULL;
        errno = 0;
        long v = strtol(colon + 1, &end, 10);
        if (end == colon + 1 || *end || errno || v < 0 || v > 1 << 20)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "device index in '%s' must be a whole number >= 0", value);
        if (!strcmp(name, "auto"))
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "'%s': auto takes no device index; name the "
                             "accelerator (cuda:1)",
                             value);
        index = (int)v;
    }
    gpl_strlcpy(r->accelerator, name, sizeof r->accelerator);
    r->device_index = index;
    return GPULAYER_OK;
}

static gpulayer_status set_memory_kind(gpl_request *r, const char *value)
{
    int kind = gpl_memory_kind_from_name(value);
    if (kind != GPULAYER_MEMORY_ANY && kind != GPULAYER_MEMORY_DEDICATED &&
        kind != GPULAYER_MEMORY_UNIFIED)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "memory kind must be any, dedicated or unified, not '%s'",
                         value);
    r->memory_kind = (gpulayer_memory_kind)kind;
    return GPULAYER_OK;
}

static gpulayer_status add_capability(gpl_request *r, const char *value)
{
    if (!*value || strlen(value) >= GPL_CAP_LEN || strpbrk(value, " ,="))
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "capability '%s' is not a capability name such as "
                         "cuda.sm_90 or vulkan.subgroup_arithmetic",
                         value);
    for (int i = 0; i < r->num_caps; i++)
        if (!strcmp(r->caps[i], value)) return GPULAYER_OK;
    if (r->num_caps >= GPL_MAX_REQUEST_CAPS)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "at most %d capabilities may be required",
                         GPL_MAX_REQUEST_CAPS);
    gpl_strlcpy(r->caps[r->num_caps++], value, GPL_CAP_LEN);
    return GPULAYER_OK;
}

gpulayer_status gpl_request_set(gpl_request *r, const char *key, const char *value)
{
    if (!key || !value)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "request item without a value");
    if (!strcmp(key, "accelerator") || !strcmp(key, "device"))
        return set_accelerator(r, value);
    if (!strcmp(key, "memory")) return gpl_parse_bytes(value, &r->min_memory);
    if (!strcmp(key, "memory_kind") || !strcmp(key, "memory-kind"))
        return set_memory_kind(r, value);
    if (!strcmp(key, "capability")) return add_capability(r, value);
    if (!strcmp(key, "count")) return parse_positive("count", value, &r->count);
    if (!strcmp(key, "nproc")) {
        GPL_CHECK(parse_positive("nproc", value, &r->nproc));
        /* --nproc always means "start it through a launcher", even for 1. */
        r->job = GPULAYER_JOB_DISTRIBUTED;
        return GPULAYER_OK;
    }
    return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                     "unknown request item '%s' (use accelerator, memory, "
                     "memory_kind, capability, count or nproc)",
                     key);
}

gpulayer_status gpl_request_parse(const char *text, gpl_request *r)
{
    if (!text) return GPULAYER_OK;
    char buf[1024];
    if (strlen(text) >= sizeof buf)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "request text is too long");
    gpl_strlcpy(buf, text, sizeof buf);
    char *save = NULL;
    for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        while (*item == ' ') item++;
        char *end = item + strlen(item);
        while (end > item && end[-1] == ' ') *--end = '\0';
        if (!*item) continue;
        char *eq = strchr(item, '=');
        if (!eq) {
            GPL_CHECK(set_accelerator(r, item));
            continue;
        }
        *eq = '\0';
        GPL_CHECK(gpl_request_set(r, item, eq + 1));
    }
    return GPULAYER_OK;
}

int gpl_request_flag(gpl_request *r, int argc, char *const *argv, int *i)
{
    static const struct {
        const char *flag, *key;
    } flags[] = {{"--accelerator", "accelerator"}, {"--memory", "memory"},
                 {"--memory-kind", "memory_kind"}, {"--capability", "capability"},
                 {"--count", "count"},             {"--nproc", "nproc"}};
    const char *arg = argv[*i];
    for (size_t k = 0; k < sizeof flags / sizeof flags[0]; k++) {
        size_t n = strlen(flags[k].flag);
        if (strncmp(arg, flags[k].flag, n) != 0) continue;
        const char *value;
        if (arg[n] == '=') {
            value = arg + n + 1;
        } else if (arg[n] == '\0') {
            if (*i + 1 >= argc) {
                gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "%s needs a value", flags[k].flag);
                return -1;
            }
            value = argv[++*i];
        } else {
            continue;
        }
        return gpl_request_set(r, flags[k].key, value) == GPULAYER_OK ? 1 : -1;
    }
    return 0;
}

gpulayer_status gpl_request_from_public(const gpulayer_device_request *in,
                                        gpl_request *r)
{
    gpl_request_init(r);
    if (!in) return GPULAYER_OK;
    if (in->accelerator && *in->accelerator) GPL_CHECK(set_accelerator(r, in->accelerator));
    r->min_memory = in->min_memory_bytes;
    if (in->memory_kind == GPULAYER_MEMORY_HOST)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "memory kind must be any, dedicated or unified in a request");
    r->memory_kind = in->memory_kind;
    if (in->num_capabilities < 0 || (in->num_capabilities > 0 && !in->capabilities))
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "bad capability list");
    for (int i = 0; i < in->num_capabilities; i++)
        GPL_CHECK(add_capability(r, in->capabilities[i] ? in->capabilities[i] : ""));
    if (in->device_count < 0 || in->num_processes < 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "device_count and num_processes must not be negative");
    r->count = in->device_count ? in->device_count : 1;
    r->job = in->job_kind;
    r->nproc = in->num_processes ? in->num_processes : 1;
    return GPULAYER_OK;
}

gpulayer_status gpl_job_validate(const gpl_request *r)
{
    if (r->job != GPULAYER_JOB_INDEPENDENT && r->job != GPULAYER_JOB_DISTRIBUTED)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "unknown job kind %d", (int)r->job);
    if (r->count < 1 || r->nproc < 1)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "a job needs at least one device and one process");
    if (r->job == GPULAYER_JOB_INDEPENDENT && r->nproc != 1)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "an independent job is one process; use a distributed "
                         "job for %d processes",
                         r->nproc);
    /* The support matrix is the one place that says what may run. */
    const gpl_support_entry *e = gpl_support_lookup(r->accelerator, r->job);
    if (e && e->status == GPL_UNSUPPORTED)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "%s jobs cannot use %s: %s",
                         gpl_job_kind_name(r->job), r->accelerator, e->note);
    if (r->job != GPULAYER_JOB_DISTRIBUTED) return GPULAYER_OK;
    if (r->count != 1)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "a distributed job uses one device per process; drop "
                         "count=%d or run an independent job",
                         r->count);
    if (r->device_index >= 0 && r->nproc > 1 && strcmp(r->accelerator, "cpu") != 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "%d processes cannot share %s:%d; each process gets its "
                         "own device, so name the accelerator without an index",
                         r->nproc, r->accelerator, r->device_index);
    return GPULAYER_OK;
}

void gpl_request_describe(const gpl_request *r, char *buf, size_t size)
{
    size_t used = 0;
#define APPEND(...)                                                         \
    do {                                                                    \
        if (used < size) {                                                  \
            int n_ = snprintf(buf + used, size - used, __VA_ARGS__);        \
            if (n_ > 0) used += (size_t)n_;                                 \
        }                                                                   \
    } while (0)
    if (r->device_index >= 0)
        APPEND("accelerator=%s:%d", r->accelerator, r->device_index);
    else
        APPEND("accelerator=%s", r->accelerator);
    if (r->min_memory) {
        char mem[32];
        gpl_format_bytes(r->min_memory, mem, sizeof mem);
        APPEND(", memory>=%s", mem);
    }
    if (r->memory_kind != GPULAYER_MEMORY_ANY)
        APPEND(", memory_kind=%s", gpl_memory_kind_name(r->memory_kind));
    for (int i = 0; i < r->num_caps; i++) APPEND(", capability=%s", r->caps[i]);
    if (r->count != 1) APPEND(", count=%d", r->count);
    if (r->job == GPULAYER_JOB_DISTRIBUTED) APPEND(", distributed nproc=%d", r->nproc);
#undef APPEND
}
