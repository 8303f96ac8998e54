/* file_read.h -- opening and reading input files within the host memory
 * limit: a device or a stream that never ends (/dev/zero, /dev/urandom) is
 * refused, and no read grows past what the limit allows. */
#ifndef GPL_FILE_READ_H
#define GPL_FILE_READ_H

#include <stddef.h>
#include <stdint.h>

#include "gpulayer.h"

/* Opens path for reading as a file of what ("model file", "data file").
 * A directory, a character or block device and a socket are refused
 * (GPULAYER_ERR_IO naming the path and what it is); a regular file larger
 * than the host memory limit is refused (GPULAYER_ERR_OUT_OF_MEMORY). A
 * pipe is accepted: its reader must bound what it reads with
 * gpl_file_check_growth. On success *fd is open and *size is the file's
 * size, or 0 when it cannot be known (a pipe). */
gpulayer_status gpl_file_open_input(const char *path, const char *what, int *fd,
                                    uint64_t *size);

/* OK when a buffer of bytes for the content of path fits the host memory
 * limit; otherwise an OUT_OF_MEMORY error naming the file. */
gpulayer_status gpl_file_check_growth(const char *path, const char *what, uint64_t bytes);

/* The whole file, NUL-terminated (the NUL is not counted in *len), read
 * within the memory limit as above. */
gpulayer_status gpl_file_read_all(const char *path, const char *what, char **out,
                                  size_t *len);

#endif
