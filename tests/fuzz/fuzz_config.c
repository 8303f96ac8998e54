/* fuzz_config.c -- the command's config file (`--config FILE`: 'key =
 * value' lines, '#' comments) on arbitrary bytes, each pair set on a
 * booster as a parameter until one is refused. The file reader is the
 * command's own (cli/cli_util.c), compiled into this harness. */
#include "fuzz_input.h"

#include "cli_util.h"
#include "gpulayer.h"

static int apply(const char *key, const char *value, void *user)
{
    return gpulayer_booster_set_param((gpulayer_booster *)user, key, value) != GPULAYER_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* The reader reports a malformed line on stderr, which for nearly
     * every input would cost more than the reading: its FILE goes to
     * /dev/null meanwhile. The sanitizers write their reports to the
     * descriptor, not through this FILE, so a finding is still shown. */
    static FILE *quiet;
    if (!quiet) quiet = fopen("/dev/null", "w");
    const char *path = fuzz_file(data, size, ".conf");
    gpulayer_booster *b = NULL;
    if (!path || gpulayer_booster_create(&b) != GPULAYER_OK) return 0;
    FILE *saved = stderr;
    if (quiet) stderr = quiet;
    (void)cli_read_config("fuzz", path, apply, b);
    stderr = saved;
    gpulayer_booster_free(b);
    return 0;
}
