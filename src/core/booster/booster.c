/* booster.c -- the gpulayer_booster handle: parameters, queries, predict. */
#include "booster.h"

#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "shap.h"

const char *gpulayer_version(void) { return GPULAYER_VERSION; }

gpulayer_status gpulayer_booster_create(gpulayer_booster **out)
{
    if (!out) return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "out is NULL");
    gpulayer_booster *b = calloc(1, sizeof *b);
    if (!b) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory for a booster");
    gpl_params_default(&b->params);
    *out = b;
    return GPULAYER_OK;
}

void gpulayer_booster_free(gpulayer_booster *b)
{
    if (!b) return;
    gpl_model_free(b->model);
    gpl_model_free(b->init_model);
    free(b);
}

gpulayer_status gpulayer_booster_set_init_model(gpulayer_booster *b,
                                               const gpulayer_booster *from)
{
    if (!b) return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "booster is NULL");
    gpl_model *copy = NULL;
    if (from) {
        if (!from->model)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "the initial model's booster has no model: train or load one "
                             "first");
        GPL_CHECK(gpl_model_copy(from->model, &copy));
    }
    gpl_model_free(b->init_model);
    b->init_model = copy;
    return GPULAYER_OK;
}

gpulayer_status gpulayer_booster_set_param(gpulayer_booster *b, const char *key,
                                           const char *value)
{
    if (!b) return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "booster is NULL");
    return gpl_params_set(&b->params, key, value);
}

gpulayer_status gpulayer_booster_get_param(const gpulayer_booster *b,
                                           const char *key, char *buf,
                                           size_t buf_size)
{
    if (!b || !key) return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "booster or key is NULL");
    return gpl_params_get(&b->params, key, buf, buf_size);
}

int32_t gpulayer_booster_num_outputs(const gpulayer_booster *b)
{
    if (!b || !b->model) return 0;
    return b->model->softmax_output_class ? 1 : b->model->num_outputs;
}

int32_t gpulayer_booster_num_features(const gpulayer_booster *b)
{
    return b && b->model ? b->model->num_features : 0;
}

int32_t gpulayer_booster_num_rounds(const gpulayer_booster *b)
{
    return b && b->model ? gpl_model_num_rounds(b->model) : 0;
}

int32_t gpulayer_booster_best_round(const gpulayer_booster *b)
{
    return b && b->model ? b->model->best_round : -1;
}

/* Values a row for these flags: margins are per output, multi:softmax's
 * prediction is one class index. */
static int32_t prediction_width(const gpl_model *m, int flags)
{
    if (flags & GPULAYER_PREDICT_MARGIN) return m->num_outputs;
    return m->softmax_output_class ? 1 : m->num_outputs;
}

int32_t gpulayer_booster_prediction_width(const gpulayer_booster *b, int flags)
{
    return b && b->model ? prediction_width(b->model, flags) : 0;
}

int gpulayer_booster_predicts_class(const gpulayer_booster *b, int flags)
{
    if (!b || !b->model || (flags & GPULAYER_PREDICT_MARGIN)) return 0;
    return b->model->softmax_output_class || b->model->objective == GPL_OBJ_HINGE;
}

gpulayer_status gpulayer_booster_predict_device(const gpulayer_booster *b,
                                                const gpulayer_dataset *ds,
                                                const char *device, int flags,
                                                int32_t num_rounds, float *out,
                                                int64_t out_len)
{
    if (!b || !ds || !out)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "gpulayer_booster_predict: NULL argument");
    if (!b->model)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "the booster has no model: train or load one first");
    int64_t need = ds->num_rows * prediction_width(b->model, flags);
    if (out_len < need)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "output buffer holds %lld values, %lld needed",
                         (long long)out_len, (long long)need);
    return gpl_predict_dataset(b->model, ds, flags & GPULAYER_PREDICT_MARGIN,
                               num_rounds, b->params.nthread, device, out);
}

gpulayer_status gpulayer_booster_predict(const gpulayer_booster *b,
                                         const gpulayer_dataset *ds, int flags,
                                         int32_t num_rounds, float *out,
                                         int64_t out_len)
{
    return gpulayer_booster_predict_device(b, ds, "cpu", flags, num_rounds, out, out_len);
}

gpulayer_status gpulayer_booster_predict_dense(const gpulayer_booster *b,
                                               const float *data, int64_t num_rows,
                                               int32_t num_cols,
                                               gpulayer_layout layout, int flags,
                                               int32_t num_rounds, float *out,
                                               int64_t out_len)
{
    gpulayer_dataset *ds;
    GPL_CHECK(gpulayer_dataset_from_dense(data, num_rows, num_cols, layout, NULL,
                                          NULL, &ds));
    gpulayer_status st = gpulayer_booster_predict(b, ds, flags, num_rounds, out, out_len);
    gpulayer_dataset_free(ds);
    return st;
}

static gpulayer_status predict_shap(const gpulayer_booster *b, const gpulayer_dataset *ds,
                                    const char *device, gpl_shap_kind kind,
                                    int32_t num_rounds, float *out, int64_t out_len,
                                    const char *fn)
{
    if (!b || !ds || !out)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "%s: NULL argument", fn);
    if (!b->model)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "the booster has no model: train or load one first");
    const int64_t need = ds->num_rows * gpl_shap_row_width(b->model, kind);
    if (out_len < need)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "output buffer holds %lld values, %lld needed",
                         (long long)out_len, (long long)need);
    return gpl_shap_dataset(b->model, ds, kind, num_rounds, b->params.nthread, device, out);
}

gpulayer_status gpulayer_booster_predict_contribs_device(const gpulayer_booster *b,
                                                         const gpulayer_dataset *ds,
                                                         const char *device, int flags,
                                                         int32_t num_rounds, float *out,
                                                         int64_t out_len)
{
    if (flags & ~GPULAYER_CONTRIBS_APPROX)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "gpulayer_booster_predict_contribs: unknown flags %d", flags);
    return predict_shap(b, ds, device,
                        flags & GPULAYER_CONTRIBS_APPROX ? GPL_SHAP_APPROX : GPL_SHAP_EXACT,
                        num_rounds, out, out_len, "gpulayer_booster_predict_contribs");
}

gpulayer_status gpulayer_booster_predict_contribs(const gpulayer_booster *b,
                                                  const gpulayer_dataset *ds, int flags,
                                                  int32_t num_rounds, float *out,
                                                  int64_t out_len)
{
    return gpulayer_booster_predict_contribs_device(b, ds, "cpu", flags, num_rounds, out,
                                                    out_len);
}

gpulayer_status gpulayer_booster_predict_interactions_device(const gpulayer_booster *b,
                                                             const gpulayer_dataset *ds,
                                                             const char *device, int flags,
                                                             int32_t num_rounds, float *out,
                                                             int64_t out_len)
{
    if (flags != 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "gpulayer_booster_predict_interactions: unknown flags %d", flags);
    return predict_shap(b, ds, device, GPL_SHAP_INTERACTIONS, num_rounds, out, out_len,
                        "gpulayer_booster_predict_interactions");
}

gpulayer_status gpulayer_booster_predict_interactions(const gpulayer_booster *b,
                                                      const gpulayer_dataset *ds, int flags,
                                                      int32_t num_rounds, float *out,
                                                      int64_t out_len)
{
    return gpulayer_booster_predict_interactions_device(b, ds, "cpu", flags, num_rounds, out,
                                                        out_len);
}
