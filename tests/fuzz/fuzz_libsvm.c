/* fuzz_libsvm.c -- the LibSVM reader on arbitrary bytes (the first byte
 * picks whether the feature count is given). */
#include "fuzz_input.h"

#include "gpulayer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const char *path = fuzz_file(data + 1, size - 1, ".libsvm");
    if (!path) return 0;
    gpulayer_read_options opt = {0};
    opt.format = GPULAYER_FORMAT_LIBSVM;
    opt.num_features = data[0] & 1 ? (int32_t)(data[0] >> 1) : 0;
    gpulayer_dataset *ds = NULL;
    if (gpulayer_dataset_read_file(path, &opt, &ds) == GPULAYER_OK) {
        (void)gpulayer_dataset_num_rows(ds);
        gpulayer_dataset_free(ds);
    }
    unlink(path);
    return 0;
}
