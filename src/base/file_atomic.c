/* file_atomic.c -- replacing a file so that readers see the old or the new
 * content, never a mixture, and a failed write leaves the old file alone.
 *
 * On Linux the content is written to an unnamed file (O_TMPFILE) that
 * the kernel removes if the process dies, then given a temporary name and
 * renamed over the target. A process killed between those two last steps
 * (two system calls, after all the writing and the fsync) still leaves a
 * hidden ".name.XXXXXX" file; elsewhere, and on file systems without
 * O_TMPFILE, the content goes to such a named file from the start, so the
 * window covers the whole write. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* O_TMPFILE */
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
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

static int (*test_hook)(const char *stage);

void gpl_file_atomic_set_test_hook(int (*hook)(const char *stage)) { test_hook = hook; }

static int at_stage(const char *stage) { return test_hook ? test_hook(stage) : 0; }

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

static void directory_of(const char *path, char *dir, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(dir, size, ".");
    else snprintf(dir, size, "%.*s", slash == path ? 1 : (int)(slash - path), path);
}

/* Best effort: makes the rename itself durable. */
static void sync_directory(const char *path)
{
    char dir[4096];
    directory_of(path, dir, sizeof dir);
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

/* The named route: a temp file made by mkstemp, filled, renamed. */
static gpulayer_status write_named(const char *path, const char *data, size_t len)
{
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
    if (st == GPULAYER_OK) at_stage("written");
    if (close(fd) != 0 && st == GPULAYER_OK)
        st = gpl_error(GPULAYER_ERR_IO, "cannot write '%s': %s", path, strerror(errno));
    if (st == GPULAYER_OK && rename(tmp, path) != 0)
        st = gpl_error(GPULAYER_ERR_IO, "cannot write '%s': %s", path, strerror(errno));
    if (st != GPULAYER_OK) unlink(tmp);
    free(tmp);
    return st;
}

#ifdef O_TMPFILE
/* Gives the unnamed file fd a fresh temporary name next to path (in tmp). */
static int link_unnamed(int fd, char *tmp)
{
    char proc[64];
    snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
    size_t n = strlen(tmp);
    static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    unsigned long x = (unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 16);
    for (int attempt = 0; attempt < 100; attempt++) {
        for (size_t i = n - 6; i < n; i++) {
            x = x * 6364136223846793005UL + 1442695040888963407UL;
            tmp[i] = digits[(x >> 33) % 36];
        }
        if (linkat(AT_FDCWD, proc, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW) == 0) return 0;
        if (errno != EEXIST) return -1;
    }
    return -1;
}

/* The unnamed route; *unsupported is set (nothing written, no error) when
 * the file system or kernel has no O_TMPFILE or /proc. */
static gpulayer_status write_unnamed(const char *path, const char *data, size_t len,
                                     int *unsupported)
{
    *unsupported = 0;
    char dir[4096];
    directory_of(path, dir, sizeof dir);
    int fd = at_stage("tmpfile") ? -1 : open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    if (fd < 0) {
        /* Other failures (a missing folder, no permission) the named
         * route reports in its own words. */
        *unsupported = 1;
        return GPULAYER_OK;
    }
    gpulayer_status st = fill_temp(fd, path, data, len);
    if (st == GPULAYER_OK) at_stage("written");
    char *tmp = st == GPULAYER_OK ? temp_template(path) : NULL;
    if (st == GPULAYER_OK && !tmp) st = GPULAYER_ERR_OUT_OF_MEMORY;
    if (st == GPULAYER_OK && link_unnamed(fd, tmp) != 0) {
        /* No /proc, say: the content is gone with fd; write it again. */
        *unsupported = 1;
        close(fd);
        free(tmp);
        return GPULAYER_OK;
    }
    if (close(fd) != 0 && st == GPULAYER_OK)
        st = gpl_error(GPULAYER_ERR_IO, "cannot write '%s': %s", path, strerror(errno));
    if (tmp && st == GPULAYER_OK && rename(tmp, path) != 0)
        st = gpl_error(GPULAYER_ERR_IO, "cannot write '%s': %s", path, strerror(errno));
    if (tmp && st != GPULAYER_OK) unlink(tmp);
    free(tmp);
    return st;
}
#endif

gpulayer_status gpl_write_file_atomic(const char *path, const char *data,
                                      size_t len)
{
    if (!path || !*path)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "no output file name given");
    /* A link is followed: its target is replaced and the link kept, as
     * writing through the link in place would. */
    char target[PATH_MAX];
    struct stat link;
    if (lstat(path, &link) == 0 && S_ISLNK(link.st_mode) && realpath(path, target))
        path = target;
    gpulayer_status st;
    int unsupported = 1;
#ifdef O_TMPFILE
    st = write_unnamed(path, data, len, &unsupported);
#endif
    if (unsupported) st = write_named(path, data, len);
    if (st == GPULAYER_OK) sync_directory(path);
    return st;
}
