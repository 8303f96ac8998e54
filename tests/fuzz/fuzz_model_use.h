/* fuzz_model_use.h -- what the model harnesses do with a model that
 * loaded: predict five rows (missing values among them) as probabilities
 * and as margins, save it, and load what was saved. A model the library
 * accepts but cannot write back, or writes but cannot read, is a finding. */
#ifndef GPL_FUZZ_MODEL_USE_H
#define GPL_FUZZ_MODEL_USE_H

#include <math.h>
#include <string.h>

#include "gpulayer.h"

enum { ROWS = 5, MAX_FEATURES = 4096 };

static void fuzz_use_model(gpulayer_booster *b)
{
    const int32_t F = gpulayer_booster_num_features(b);
    const int32_t width = gpulayer_booster_prediction_width(b, 0);
    if (F < 1 || F > MAX_FEATURES || width < 1 || width > 65536) return;
    float *x = malloc(sizeof(float) * ROWS * (size_t)F);
    float *out = malloc(sizeof(float) * ROWS * (size_t)width);
    if (x && out) {
        for (int64_t i = 0; i < (int64_t)ROWS * F; i++)
            x[i] = i % 7 == 3 ? NAN : (float)(i % 11) - 5.0f;
        (void)gpulayer_booster_predict_dense(b, x, ROWS, F, GPULAYER_ROW_MAJOR, 0, 0, out,
                                             (int64_t)ROWS * width);
        (void)gpulayer_booster_predict_dense(b, x, ROWS, F, GPULAYER_ROW_MAJOR,
                                             GPULAYER_PREDICT_MARGIN, 1, out,
                                             (int64_t)ROWS * width);
    }
    free(x);
    free(out);
    /* A model that loads must save, and what it saves must load: a finding
     * otherwise (a file the library accepts but cannot write back). */
    char *buf = NULL;
    size_t len = 0;
    if (gpulayer_booster_save_to_buffer(b, &buf, &len) != GPULAYER_OK) {
        fprintf(stderr, "a loaded model does not save: %s\n", gpulayer_last_error());
        abort();
    }
    gpulayer_booster *again = NULL;
    if (gpulayer_booster_load_from_buffer(buf, len, &again) != GPULAYER_OK) {
        fprintf(stderr, "a saved model does not load: %s\n", gpulayer_last_error());
        abort();
    }
    gpulayer_booster_free(again);
    gpulayer_free_buffer(buf);
}

#endif
