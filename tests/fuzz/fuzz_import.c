/* fuzz_import.c -- the loaders of other libraries' models on arbitrary
 * bytes: XGBoost's JSON and UBJSON, LightGBM's text (the loader tells them
 * apart by their first bytes). The seeds are models those libraries wrote.
 * A model that imports is used as fuzz_model uses one: predicted, saved in
 * GPUlayer's format and loaded back from it. */
#include "fuzz_input.h"

#include "fuzz_model_use.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gpulayer_booster *b = NULL;
    if (gpulayer_booster_load_from_buffer((const char *)data, size, &b) == GPULAYER_OK) {
        fuzz_use_model(b);
        gpulayer_booster_free(b);
    }
    return 0;
}
