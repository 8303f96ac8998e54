/* fuzz_params.c -- the parameter parser: the input is key=value lines set
 * on a booster one by one, each read back with get_param. When every line
 * was accepted the booster trains on a small dataset (its size parameters
 * bounded first, so that a valid but huge job does not stall the fuzzer). */
#include "fuzz_input.h"

#include <math.h>
#include <string.h>

#include "gpulayer.h"

enum { ROWS = 64, COLS = 3, MAX_LINES = 16, PARAM_TEXT = 256 };

static int param_at_most(gpulayer_booster *b, const char *key, long limit)
{
    char value[PARAM_TEXT];
    if (gpulayer_booster_get_param(b, key, value, sizeof value) != GPULAYER_OK) return 1;
    return atol(value) <= limit;
}

static void train_small(gpulayer_booster *b)
{
    if (!param_at_most(b, "max_depth", 6) || !param_at_most(b, "max_leaves", 64) ||
        !param_at_most(b, "num_class", 64))
        return;
    gpulayer_booster_set_param(b, "num_round", "2");
    gpulayer_booster_set_param(b, "nthread", "1");
    gpulayer_booster_set_param(b, "device", "cpu");
    float x[ROWS * COLS], y[ROWS];
    for (int r = 0; r < ROWS; r++) {
        for (int c = 0; c < COLS; c++) x[r * COLS + c] = r % 9 == c ? NAN : (float)((r * 7 + c) % 13);
        y[r] = (float)(r % 3 == 0);
    }
    gpulayer_dataset *ds = NULL;
    if (gpulayer_dataset_from_dense(x, ROWS, COLS, GPULAYER_ROW_MAJOR, y, NULL, &ds) != GPULAYER_OK)
        return;
    const gpulayer_dataset *evals[1] = {ds};
    const char *names[1] = {"train"};
    (void)gpulayer_booster_train(b, ds, evals, names, 1, NULL, NULL);
    gpulayer_dataset_free(ds);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    gpulayer_booster *b = NULL;
    if (gpulayer_booster_create(&b) != GPULAYER_OK) {
        free(text);
        return 0;
    }
    int all_ok = 1, lines = 0;
    for (char *line = text, *next; line && lines < MAX_LINES; line = next, lines++) {
        next = strchr(line, '\n');
        if (next) *next++ = '\0';
        char *eq = strchr(line, '=');
        if (!eq) {
            all_ok = 0;
            continue;
        }
        *eq = '\0';
        if (gpulayer_booster_set_param(b, line, eq + 1) != GPULAYER_OK) {
            all_ok = 0;
            continue;
        }
        char value[PARAM_TEXT];
        (void)gpulayer_booster_get_param(b, line, value, sizeof value);
    }
    if (all_ok) train_small(b);
    gpulayer_booster_free(b);
    free(text);
    return 0;
}
