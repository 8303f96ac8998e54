/* api.c -- the device layer's public functions (gpulayer.h): devices,
 * reports and the support matrix. Requests and placement are in
 * api_place.c, running programs in api_run.c. */
#include "api.h"

#include <stdlib.h>
#include <string.h>

#include "discovery.h"
#include "error.h"
#include "report.h"
#include "support_matrix.h"

gpulayer_status gpl_api_hand_over(char *text, char **out, size_t *out_len, const char *what)
{
    if (!text) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory rendering %s", what);
    if (out_len) *out_len = strlen(text);
    if (out)
        *out = text;
    else
        free(text);
    return GPULAYER_OK;
}

static const gpl_discovery *snapshot_or_error(void)
{
    const gpl_discovery *d = gpl_discovery_snapshot();
    if (!d) gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory discovering devices");
    return d;
}

GPULAYER_API int32_t gpulayer_device_count(void)
{
    const gpl_discovery *d = snapshot_or_error();
    return d ? d->num_devices : 0;
}

GPULAYER_API gpulayer_status gpulayer_device_get(int32_t i, gpulayer_device_info *out)
{
    if (!out) return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "gpulayer_device_get: out is NULL");
    const gpl_discovery *d = snapshot_or_error();
    if (!d) return GPULAYER_ERR_OUT_OF_MEMORY;
    if (i < 0 || i >= d->num_devices)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "device %d does not exist (there are %d)", (int)i, d->num_devices);
    const gpl_device *dev = &d->devices[i];
    out->accelerator = dev->accelerator;
    out->index = dev->index;
    out->name = dev->name;
    out->stable_id = dev->stable_id;
    out->memory_kind = dev->memory_kind;
    out->memory_bytes = dev->memory_bytes;
    out->usable_bytes = dev->usable_bytes;
    out->capabilities = dev->caps_text;
    out->backend_built = dev->backend_built;
    out->backend_available = dev->backend_available;
    out->backend_reason = dev->backend_reason;
    return GPULAYER_OK;
}

/* A discovery report as text or JSON. */
static gpulayer_status report(gpulayer_render_format format,
                              char *(*text)(const gpl_discovery *),
                              char *(*json)(const gpl_discovery *), const char *what,
                              char **out, size_t *out_len)
{
    if (format != GPULAYER_RENDER_TEXT && format != GPULAYER_RENDER_JSON)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "%s is rendered as text or JSON, not format %d", what, (int)format);
    const gpl_discovery *d = snapshot_or_error();
    if (!d) return GPULAYER_ERR_OUT_OF_MEMORY;
    return gpl_api_hand_over(format == GPULAYER_RENDER_JSON ? json(d) : text(d), out, out_len,
                             what);
}

GPULAYER_API gpulayer_status gpulayer_devices_report(gpulayer_render_format format, char **out,
                                                     size_t *out_len)
{
    return report(format, gpl_devices_text, gpl_devices_json, "the device list", out, out_len);
}

GPULAYER_API gpulayer_status gpulayer_devices_report_ex(gpulayer_render_format format,
                                                        int flags, char **out,
                                                        size_t *out_len)
{
    if (!(flags & GPULAYER_DISCOVER_FRAMEWORKS)) return gpulayer_devices_report(format, out, out_len);
    if (format != GPULAYER_RENDER_TEXT && format != GPULAYER_RENDER_JSON)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "the device list is rendered as text or JSON, not format %d",
                         (int)format);
    /* Not the snapshot: its strings are lent out for the life of the
     * process and must not change under a caller. */
    gpl_discovery d = {0};
    gpulayer_status st = gpl_discover(GPL_RT_ALL | GPL_DISCOVER_FRAMEWORKS, &d);
    if (st == GPULAYER_OK)
        st = gpl_api_hand_over(format == GPULAYER_RENDER_JSON ? gpl_devices_json(&d)
                                                              : gpl_devices_text(&d),
                               out, out_len, "the device list");
    gpl_discovery_release(&d);
    return st;
}

GPULAYER_API gpulayer_status gpulayer_diagnose_report(gpulayer_render_format format, char **out,
                                                      size_t *out_len)
{
    return report(format, gpl_diagnose_text, gpl_diagnose_json, "the diagnosis", out, out_len);
}

GPULAYER_API gpulayer_status gpulayer_devices_json(char **out, size_t *out_len)
{
    return gpulayer_devices_report(GPULAYER_RENDER_JSON, out, out_len);
}

GPULAYER_API gpulayer_status gpulayer_diagnose_json(char **out, size_t *out_len)
{
    return gpulayer_diagnose_report(GPULAYER_RENDER_JSON, out, out_len);
}

GPULAYER_API gpulayer_status gpulayer_support_matrix(gpulayer_render_format format,
                                                     char **out, size_t *out_len)
{
    if (format != GPULAYER_RENDER_TEXT && format != GPULAYER_RENDER_JSON &&
        format != GPULAYER_RENDER_MARKDOWN)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "unknown render format %d", (int)format);
    return gpl_api_hand_over(gpl_support_matrix_render(format), out, out_len,
                             "the support matrix");
}
