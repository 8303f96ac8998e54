/* file_atomic.h -- replacing a file so that readers see the old or the new
 * content, never a mixture. */
#ifndef GPL_FILE_ATOMIC_H
#define GPL_FILE_ATOMIC_H

#include <stddef.h>

#include "gpulayer.h"

/* Writes the file atomically: a temp file in the same folder (unnamed
 * until complete where the system allows, see file_atomic.c), then rename. */
gpulayer_status gpl_write_file_atomic(const char *path, const char *data,
                                      size_t len);

/* Tests only: hook(stage) is called at "tmpfile" (a non-zero return takes
 * the named-file route, as where O_TMPFILE is missing) and at "written"
 * (the content is written and synced, not yet in place). NULL removes it. */
void gpl_file_atomic_set_test_hook(int (*hook)(const char *stage));

#endif
