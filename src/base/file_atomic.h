/* file_atomic.h -- replacing a file so that readers see the old or the new
 * content, never a mixture. */
#ifndef GPL_FILE_ATOMIC_H
#define GPL_FILE_ATOMIC_H

#include <stddef.h>

#include "gpulayer.h"

/* Writes the file atomically: a temp file in the same folder, then rename. */
gpulayer_status gpl_write_file_atomic(const char *path, const char *data,
                                      size_t len);

#endif
