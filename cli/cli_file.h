/* cli_file.h -- replacing an output file of a command so that readers see
 * the old file or the whole new one, never a part. */
#ifndef GPL_CLI_FILE_H
#define GPL_CLI_FILE_H

#include <stdio.h>

/* Calls emit(stream, user) on a hidden temporary file beside path, then
 * syncs it and renames it over path. emit returns 0, or non-zero after
 * saying why. A failure to create, write or rename is printed as
 * "gpulayer CMD: OPTION PATH: reason"; the temporary file is removed and
 * path left as it was. Returns 0 or 1. */
int cli_write_file_atomic(const char *cmd, const char *option, const char *path,
                          int (*emit)(FILE *out, void *user), void *user);

/* Non-zero when both paths name one existing file (links followed). */
int cli_same_file(const char *a, const char *b);

/* An output of a command (--model, --report, --output) and the option that
 * names it; one of the inputs it must not overwrite. */
typedef struct cli_path {
    const char *option;
    const char *path; /* NULL: not given */
} cli_path;

/* Checks, before any work, that each output can be written: its folder
 * exists and is writable, it is not a folder itself, not one of the inputs
 * and not another output (links followed). Prints "gpulayer CMD: ..." naming
 * the options and paths, and returns 2, at the first that fails; else 0. */
int cli_check_outputs(const char *cmd, const cli_path *outputs, int num_outputs,
                      const cli_path *inputs, int num_inputs);

#endif
