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

#endif
