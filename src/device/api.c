/* api.c -- the device layer's public functions (gpulayer.h). */
#include <stdlib.h>
#include <string.h>

#include "discovery.h"
#include "error.h"
#include "placement.h"
#include "report.h"
#include "support_matrix.h"

/* Hands a rendered string to the caller, or reports running out of memory. */
static gpulayer_status hand_over(char *text, char **out, size_t *out_len, const char *what)
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

GPULAYER_API gpulayer_status gpulayer_devices_json(char **out, size_t *out_len)
{
    const gpl_discovery *d = snapshot_or_error();
    if (!d) return GPULAYER_ERR_OUT_OF_MEMORY;
    return hand_over(gpl_devices_json(d), out, out_len, "the device list");
}

GPULAYER_API gpulayer_status gpulayer_diagnose_json(char **out, size_t *out_len)
{
    const gpl_discovery *d = snapshot_or_error();
    if (!d) return GPULAYER_ERR_OUT_OF_MEMORY;
    return hand_over(gpl_diagnose_json(d), out, out_len, "the diagnosis");
}

GPULAYER_API gpulayer_status gpulayer_place(const gpulayer_device_request *request,
                                            char **decision_json, size_t *decision_len)
{
    gpl_request r;
    GPL_CHECK(gpl_request_from_public(request, &r));
    gpl_discovery found = {0};
    gpl_decision d;
    gpl_place_options opt = {.consider_all = 1};
    gpulayer_status st = gpl_place_local(&r, &opt, &found, &d);
    if (st == GPULAYER_OK || st == GPULAYER_ERR_PLACEMENT ||
        st == GPULAYER_ERR_INVALID_ARGUMENT) {
        /* Keep the placement's message: rendering must not replace it. */
        char saved[4096];
        strncpy(saved, gpulayer_last_error(), sizeof saved - 1);
        saved[sizeof saved - 1] = '\0';
        gpl_worker host = {"this host", found.devices, found.num_devices};
        gpulayer_status rs = hand_over(gpl_decision_json(&d, &host, 1, &found), decision_json,
                                       decision_len, "the decision");
        if (rs != GPULAYER_OK)
            st = rs;
        else if (st != GPULAYER_OK)
            gpl_error(st, "%s", saved);
    }
    gpl_decision_release(&d);
    gpl_discovery_release(&found);
    return st;
}

GPULAYER_API gpulayer_status gpulayer_support_matrix(gpulayer_render_format format,
                                                     char **out, size_t *out_len)
{
    if (format != GPULAYER_RENDER_TEXT && format != GPULAYER_RENDER_JSON &&
        format != GPULAYER_RENDER_MARKDOWN)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "unknown render format %d", (int)format);
    return hand_over(gpl_support_matrix_render(format), out, out_len, "the support matrix");
}
