/* fuzz_delimited.c -- the CSV/TSV reader on arbitrary bytes. The first
 * byte picks the options (delimiter, header, label, bad-number handling);
 * the rest is the file. Any status is fine; a crash, a leak or undefined
 * behaviour is not. */
#include "fuzz_input.h"

#include "gpulayer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    const uint8_t mode = data[0];
    const char *path = fuzz_file(data + 1, size - 1, mode & 1 ? ".tsv" : ".csv");
    if (!path) return 0;
    static const char *const numeric[] = {"a", "1", NULL};
    gpulayer_read_options opt = {0};
    opt.format = mode & 1 ? GPULAYER_FORMAT_TSV : GPULAYER_FORMAT_CSV;
    opt.no_header = (mode >> 1) & 1;
    opt.label = (mode >> 2) & 1 ? "none" : NULL;
    opt.bad_numbers = (mode >> 3) & 1 ? GPULAYER_BAD_NUMBERS_MISSING : GPULAYER_BAD_NUMBERS_ERROR;
    if ((mode >> 4) & 1) opt.numeric_columns = numeric;
    if ((mode >> 5) & 1) opt.weight_column = "w";
    gpulayer_dataset *ds = NULL;
    if (gpulayer_dataset_read_file(path, &opt, &ds) == GPULAYER_OK) {
        (void)gpulayer_dataset_num_rows(ds);
        (void)gpulayer_dataset_num_cols(ds);
        gpulayer_dataset_free(ds);
    }
    unlink(path);
    return 0;
}
