/* file_atomic.c -- replacing a file so that readers see the old or the new
 * content, never a mixture, and a failed write leaves the old file alone. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file_atomic.h"

#include "alloc.h"
#include "error.h"

/* The permission bits the process umask would give a new file: read from
 * /proc (calling umask() to read it would briefly change it for every
 * thread); 022 where that is not available. */
static mode_t new_file_mode(void)
{
    unsigned mask = 022;
    FILE *f = fopen("/proc/self/status", "r");
    if (f) {
        char line[128];
        while (fgets(line, sizeof line, f))
            if (sscanf(line, "Umask: %o", &mask) == 1) break;
        fclose(f);
    }
    return (mode_t)(0666 & ~mask);
}

static int write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

/* "dir/.name.XXXXXX" next to path, so that rename stays on one file
 * system. */
static char *temp_template(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = slash ? slash + 1 : path;
    size_t size = dir_len + strlen(base) + 10;
    char *tmp = gpl_malloc(size, "a temporary file name");
    if (tmp) snprintf(tmp, size, "%.*s.%s.XXXXXX", (int)dir_len, path, base);
    return tmp;
}

/* Best effort: makes the rename itself durable. */
static void sync_directory(const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash) snprintf(dir, sizeof dir, ".");
    else snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    (void)fsync(fd);
    close(fd);
}

static gpulayer_status fill_temp(int fd, const char *path, const char *data,
                                 size_t len)
{
    struct stat old;
    mode_t mode = stat(path, &old) == 0 && S_ISREG(old.st_mode)
                      ? (old.st_mode & 07777) : new_file_mode();
    if (write_all(fd, data, len) != 0 || fsync(fd) != 0 || fchmod(fd, mode) != 0)
        return gpl_error(GPULAYER_ERR_IO, "cannot write '%s': %s", path,
                         strerror(errno));
    return GPULAYER_OK;
}

gpulayer_status gpl_write_file_atomic(const char *path, const char *data,
                                      size_t len)
{
    if (!path || !*path)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "no output file name given");
    char *tmp = temp_template(path);
    if (!tmp) return GPULAYER_ERR_OUT_OF_MEMORY;
    int fd = mkstemp(tmp);
    if (fd < 0) {
        gpulayer_status st = gpl_error(GPULAYER_ERR_IO, "cannot write '%s': cannot "
                                       "create a temporary file there: %s", path,
                                       strerror(errno));
        free(tmp);
        return st;
    }
    gpulayer_status st = fill_temp(fd, path, data, len);
    if (close(fd) != 0 && st == GPULAYER_OK)
        st = gpl_error(GPULAYER_ERR_IO, "cannot write '%s': %s", path, strerror(errno));
    if (st == GPULAYER_OK && rename(tmp, path) != 0)
        st = gpl_error(GPULAYER_ERR_IO, "cannot write '%s': %s", path, strerror(errno));
    if (st != GPULAYER_OK) unlink(tmp);
    else sync_directory(path);
    free(tmp);
    return st;
}
