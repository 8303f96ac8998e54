/* fuzz_model.c -- the model loader on arbitrary bytes. An odd first byte
 * loads the rest as it is (the checksum turns away nearly every mutation);
 * an even one first recomputes the checksum (gpl_model_json_reseal), so
 * mutations reach the checks of the model's content. A model that loads
 * then predicts a few rows (missing values among them) and must save, and
 * load again from what it saved. */
#include "fuzz_input.h"

#include <string.h>

#include "fuzz_model_use.h"
#include "model.h"

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
        fuzz_use_model(b);
        gpulayer_booster_free(b);
    }
    free(sealed);
    return 0;
}
