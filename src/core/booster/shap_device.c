/* shap_device.c -- SHAP values on a device: the job of backend.h built
 * from the model (its inference forest, the walks' per-node numbers, the
 * cuts), handed to the backend the device layer chose. */
#include "shap_device.h"

#include <stdlib.h>

#include "dataset.h"
#include "error.h"
#include "predict.h"

gpulayer_status gpl_shap_device(const gpl_model *m, const gpl_shap_forest *forest,
                                const float *const *columns, const gpulayer_dataset *ds,
                                gpl_shap_kind kind, const char *device, const char *accelerator,
                                int index, int nthread, float *out)
{
    const int32_t K = m->num_outputs;
    gpl_backend_config cfg = {nthread, index, 1, K, 0};
    gpl_backend *be = NULL;
    gpulayer_status st = gpl_backend_create(accelerator, &cfg, &be);
    if (st != GPULAYER_OK) return gpl_error_prefix(st, "SHAP values on device '%s'", device);
    if (!gpl_backend_has(be, GPL_BACKEND_CAP_SHAP)) {
        gpl_backend_destroy(be);
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "SHAP values on device '%s': the %s backend cannot compute them; "
                         "use device cpu", device, accelerator);
    }
    st = gpl_bin_codes_supported(&m->cuts, be, GPL_BACKEND_CAP_WIDE_PREDICT, "SHAP values");
    if (st != GPULAYER_OK) {
        gpl_backend_destroy(be);
        return st;
    }
    gpl_infer_forest infer;
    st = gpl_infer_forest_build(m, forest->num_trees, &infer);
    if (st == GPULAYER_OK) st = gpl_forest_sets_supported(&infer, be, "SHAP values");
    float *base = st == GPULAYER_OK ? malloc(sizeof(float) * (size_t)K) : NULL;
    if (st == GPULAYER_OK && !base)
        st = gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of host memory for SHAP values");
    if (st == GPULAYER_OK) {
        for (int32_t k = 0; k < K; k++) base[k] = gpl_model_base_margin(m, k);
        const gpl_shap_job job = {
            {&infer, K, base, m->num_features, m->cuts.cut_ptr, m->cuts.values, ds->num_rows,
             columns},
            forest, kind, ds->base_margin};
        st = be->ops->shap(be, &job, out);
        if (st != GPULAYER_OK) st = gpl_error_prefix(st, "SHAP values on device '%s'", device);
    }
    free(base);
    gpl_infer_forest_free(&infer);
    gpl_backend_destroy(be);
    return st;
}
