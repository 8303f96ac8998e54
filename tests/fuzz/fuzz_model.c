/* fuzz_model.c -- the model loader on arbitrary bytes. An odd first byte
 * loads the rest as it is (the checksum turns away nearly every mutation);
 * an even one first recomputes the checksum (gpl_model_json_reseal), so
 * mutations reach the checks of the model's content. A model that loads
 * then predicts a few rows (missing values among them) and must save, and
 * load again from what it saved. */
#include "fuzz_input.h"

#include <math.h>
#include <string.h>

#include "gpulayer.h"
#include "model.h"

enum { ROWS = 5, MAX_FEATURES = 4096 };

static void exercise(gpulayer_booster *b)
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    char *sealed = NULL;
    if (!(data[0] & 1)) {
        size_t sealed_len = 0;
        if (gpl_model_json_reseal(text, len, &sealed, &sealed_len) != GPULAYER_OK) return 0;
        text = sealed;
        len = sealed_len;
    }
    gpulayer_booster *b = NULL;
    if (gpulayer_booster_load_from_buffer(text, len, &b) == GPULAYER_OK) {
        exercise(b);
        gpulayer_booster_free(b);
    }
    free(sealed);
    return 0;
}
