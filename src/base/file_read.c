/* file_read.c -- input files read within the host memory limit
 * (file_read.h). */
#include "file_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "memory_limit.h"

static const char *kind_of(mode_t mode)
{
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return NULL;
}

gpulayer_status gpl_file_open_input(const char *path, const char *what, int *fd,
                                    uint64_t *size)
{
    *fd = -1;
    *size = 0;
    int f = open(path, O_RDONLY | O_CLOEXEC);
    if (f < 0)
        return gpl_error(GPULAYER_ERR_IO, "cannot open %s '%s': %s", what, path,
                         strerror(errno));
    struct stat st;
    if (fstat(f, &st) != 0) {
        int err = errno;
        close(f);
        return gpl_error(GPULAYER_ERR_IO, "cannot read %s '%s': %s", what, path,
                         strerror(err));
    }
    const char *kind = kind_of(st.st_mode);
    if (kind) {
        close(f);
        return gpl_error(GPULAYER_ERR_IO, "cannot read %s '%s': it is %s, not a file",
                         what, path, kind);
    }
    if (S_ISREG(st.st_mode)) {
        gpulayer_status s = gpl_file_check_growth(path, what, (uint64_t)st.st_size);
        if (s != GPULAYER_OK) {
            close(f);
            return s;
        }
        *size = (uint64_t)st.st_size;
    }
    *fd = f;
    return GPULAYER_OK;
}

gpulayer_status gpl_file_check_growth(const char *path, const char *what, uint64_t bytes)
{
    char subject[512];
    snprintf(subject, sizeof subject, "reading the %s '%s'", what, path);
    return gpl_check_host_memory(bytes, subject);
}

gpulayer_status gpl_file_read_all(const char *path, const char *what, char **out,
                                  size_t *len)
{
    *out = NULL;
    *len = 0;
    int fd;
    uint64_t size;
    GPL_CHECK(gpl_file_open_input(path, what, &fd, &size));
    /* A pipe starts small and grows, within the limit, as it delivers. */
    size_t cap = size > 0 ? (size_t)size + 1 : 4096, n = 0;
    char *buf = malloc(cap);
    gpulayer_status st = GPULAYER_OK;
    if (!buf)
        st = gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of host memory reading %s '%s'",
                       what, path);
    while (st == GPULAYER_OK) {
        if (n + 1 >= cap) {
            st = gpl_file_check_growth(path, what, (uint64_t)cap * 2);
            char *grown = st == GPULAYER_OK ? realloc(buf, cap * 2) : NULL;
            if (!grown) {
                if (st == GPULAYER_OK)
                    st = gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                                   "out of host memory reading %s '%s'", what, path);
                break;
            }
            buf = grown;
            cap *= 2;
        }
        ssize_t got = read(fd, buf + n, cap - n - 1);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0)
            st = gpl_error(GPULAYER_ERR_IO, "cannot read %s '%s': %s", what, path,
                           strerror(errno));
        if (got <= 0) break;
        n += (size_t)got;
    }
    close(fd);
    if (st != GPULAYER_OK) {
        free(buf);
        return st;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return GPULAYER_OK;
}
