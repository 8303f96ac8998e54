/* api_place.c -- requests and placement decisions (gpulayer.h). */
#include <stdlib.h>

#include "api.h"
#include "bytes.h"
#include "discovery.h"
#include "error.h"

struct gpulayer_request {
    gpl_request r;
};

GPULAYER_API gpulayer_status gpulayer_request_create(const gpulayer_device_request *base,
                                                     gpulayer_request **out)
{
    if (!out) return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "gpulayer_request_create: out is NULL");
    *out = NULL;
    gpulayer_request *r = malloc(sizeof *r);
    if (!r) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory creating a request");
    gpulayer_status st = gpl_request_from_public(base, &r->r);
    if (st != GPULAYER_OK) {
        free(r);
        return st;
    }
    *out = r;
    return GPULAYER_OK;
}

GPULAYER_API void gpulayer_request_free(gpulayer_request *r) { free(r); }

GPULAYER_API gpulayer_status gpulayer_request_parse(gpulayer_request *r, const char *text)
{
    if (!r) return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "gpulayer_request_parse: no request");
    return gpl_request_parse(text, &r->r);
}

GPULAYER_API gpulayer_status gpulayer_request_set(gpulayer_request *r, const char *key,
                                                  const char *value)
{
    if (!r) return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "gpulayer_request_set: no request");
    return gpl_request_set(&r->r, key, value);
}

GPULAYER_API int gpulayer_request_parse_flag(gpulayer_request *r, int argc, char *const *argv,
                                             int *i)
{
    if (!r || !argv || !i || *i < 0 || *i >= argc) {
        gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                  "gpulayer_request_parse_flag: no request, or no argument at the index");
        return -1;
    }
    return gpl_request_flag(&r->r, argc, argv, i);
}

GPULAYER_API gpulayer_status gpulayer_parse_bytes(const char *text, uint64_t *out)
{
    if (!out) return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "gpulayer_parse_bytes: out is NULL");
    return gpl_parse_bytes(text, out);
}

GPULAYER_API gpulayer_status gpulayer_placement_create(const gpulayer_request *r, int flags,
                                                       gpulayer_placement **out)
{
    if (!out)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "gpulayer_placement_create: out is NULL");
    *out = NULL;
    if (!r) return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "gpulayer_placement_create: no request");
    gpulayer_placement *p = calloc(1, sizeof *p);
    if (!p) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory placing a job");
    gpl_place_options opt = {.require_backend = (flags & GPULAYER_PLACE_BACKEND) != 0,
                             .consider_all = !(flags & GPULAYER_PLACE_NARROW)};
    gpulayer_status st = gpl_place_local(&r->r, &opt, &p->found, &p->decision);
    p->host = (gpl_worker){"this host", p->found.devices, p->found.num_devices};
    if (st == GPULAYER_OK || st == GPULAYER_ERR_PLACEMENT || st == GPULAYER_ERR_INVALID_ARGUMENT)
        *out = p;
    else
        gpulayer_placement_free(p);
    return st;
}

GPULAYER_API void gpulayer_placement_free(gpulayer_placement *p)
{
    if (!p) return;
    gpl_decision_release(&p->decision);
    gpl_discovery_release(&p->found);
    free(p);
}

GPULAYER_API int gpulayer_placement_placed(const gpulayer_placement *p)
{
    return p && p->decision.placed;
}

GPULAYER_API const char *gpulayer_placement_why(const gpulayer_placement *p)
{
    return p ? p->decision.why : "";
}

GPULAYER_API gpulayer_status gpulayer_placement_render(const gpulayer_placement *p,
                                                       gpulayer_render_format format, char **out,
                                                       size_t *out_len)
{
    if (!p) return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "gpulayer_placement_render: no placement");
    if (format != GPULAYER_RENDER_TEXT && format != GPULAYER_RENDER_JSON)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "a decision is rendered as text or JSON, not format %d", (int)format);
    char *text = format == GPULAYER_RENDER_JSON
                     ? gpl_decision_json(&p->decision, &p->host, 1, &p->found)
                     : gpl_decision_text(&p->decision, &p->host, 1, &p->found);
    return gpl_api_hand_over(text, out, out_len, "the decision");
}

GPULAYER_API gpulayer_status gpulayer_place(const gpulayer_device_request *request,
                                            char **decision_json, size_t *decision_len)
{
    gpulayer_request *r;
    GPL_CHECK(gpulayer_request_create(request, &r));
    gpulayer_placement *p;
    gpulayer_status st = gpulayer_placement_create(r, GPULAYER_PLACE_DEFAULT, &p);
    gpulayer_request_free(r);
    if (p) {
        /* Rendering leaves the placement's message in place unless it fails. */
        gpulayer_status rs = gpulayer_placement_render(p, GPULAYER_RENDER_JSON, decision_json,
                                                       decision_len);
        if (rs != GPULAYER_OK) st = rs;
        gpulayer_placement_free(p);
    }
    return st;
}
