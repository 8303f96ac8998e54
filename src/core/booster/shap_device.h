/* shap_device.h -- SHAP values on a device backend (shap_device.c). */
#ifndef GPL_SHAP_DEVICE_H
#define GPL_SHAP_DEVICE_H

#include "backend.h"
#include "model.h"

/* The values of every row of ds (dense; columns as gpl_predict_columns
 * gives them) with forest's trees, on the backend accelerator (device
 * index index) that the device layer chose for device: the CPU's bits, or
 * an error naming the device. */
gpulayer_status gpl_shap_device(const gpl_model *m, const gpl_shap_forest *forest,
                                const float *const *columns, const gpulayer_dataset *ds,
                                gpl_shap_kind kind, const char *device, const char *accelerator,
                                int index, int nthread, float *out);

#endif
