/* booster_io.c -- saving and loading boosters: model files, in-memory
 * buffers and the XGBoost export. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "booster.h"
#include "error.h"
#include "file_atomic.h"
#include "file_read.h"
#include "model_import.h"

static gpulayer_status need_model(const gpulayer_booster *b, const char *action)
{
    if (!b) return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "booster is NULL");
    if (!b->model)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "cannot %s: the booster has no model (train or load "
                         "one first)", action);
    return GPULAYER_OK;
}

/* A loaded booster: the model plus default parameters (the model keeps its
 * training parameters only as a record). Takes m, freeing it on failure. */
static gpulayer_status booster_of(gpl_model *m, gpulayer_booster **out)
{
    gpulayer_booster *b = gpl_calloc(1, sizeof *b, "a booster");
    if (!b) {
        gpl_model_free(m);
        return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    gpl_params_default(&b->params);
    b->model = m;
    *out = b;
    return GPULAYER_OK;
}

/* Renders the booster's model with render and writes it atomically. */
static gpulayer_status write_rendered(const gpulayer_booster *b, const char *what,
                                      gpulayer_status (*render)(const gpl_model *, char **,
                                                                size_t *),
                                      const char *path)
{
    GPL_CHECK(need_model(b, what));
    if (!path) return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "path is NULL");
    char *text = NULL;
    size_t len = 0;
    GPL_CHECK(render(b->model, &text, &len));
    gpulayer_status st = gpl_write_file_atomic(path, text, len);
    free(text);
    return st;
}

gpulayer_status gpulayer_booster_save(const gpulayer_booster *b, const char *path)
{
    return write_rendered(b, "save", gpl_model_to_json, path);
}

gpulayer_status gpulayer_booster_load(const char *path, gpulayer_booster **out)
{
    if (!path || !out) return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "path or out is NULL");
    *out = NULL;
    char *text = NULL;
    size_t len = 0;
    GPL_CHECK(gpl_file_read_all(path, "model file", &text, &len));
    gpl_model *m = NULL;
    gpulayer_status st = gpl_model_load_buffer(text, len, path, &m);
    free(text);
    GPL_CHECK(st);
    return booster_of(m, out);
}

gpulayer_status gpulayer_booster_save_to_buffer(const gpulayer_booster *b,
                                                char **out, size_t *out_len)
{
    if (!out || !out_len) return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "out is NULL");
    *out = NULL;
    *out_len = 0;
    GPL_CHECK(need_model(b, "save"));
    return gpl_model_to_json(b->model, out, out_len);
}

gpulayer_status gpulayer_booster_load_from_buffer(const char *buf, size_t len,
                                                  gpulayer_booster **out)
{
    if (!buf || !out) return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "buf or out is NULL");
    *out = NULL;
    gpl_model *m = NULL;
    GPL_CHECK(gpl_model_load_buffer(buf, len, "model buffer", &m));
    return booster_of(m, out);
}

gpulayer_status gpulayer_booster_export_xgboost(const gpulayer_booster *b,
                                                const char *path)
{
    return write_rendered(b, "export", gpl_model_export_xgboost, path);
}

void gpulayer_free_buffer(void *buf) { free(buf); }
