/* cli_file.c -- atomic replacement of a command's output file (the
 * library's own helper sits below the public header, out of the command's
 * reach). */
#include "cli_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* "dir/.name.XXXXXX": the same folder, so that rename stays on one file
 * system. */
static char *temp_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    size_t size = strlen(path) + 10;
    char *tmp = malloc(size);
    if (tmp) snprintf(tmp, size, "%.*s.%s.XXXXXX", (int)dir_len, path, path + dir_len);
    return tmp;
}

static int fail(const char *cmd, const char *option, const char *path, int err)
{
    fprintf(stderr, "gpulayer %s: %s %s: %s\n", cmd, option, path, strerror(err));
    return 1;
}

int cli_write_file_atomic(const char *cmd, const char *option, const char *path,
                          int (*emit)(FILE *out, void *user), void *user)
{
    char *tmp = temp_name(path);
    if (!tmp) return fail(cmd, option, path, ENOMEM);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        int err = errno;
        free(tmp);
        return fail(cmd, option, path, err);
    }
    /* mkstemp makes the file private; an output file gets the usual
     * permissions. The command writes no other file meanwhile. */
    mode_t mask = umask(0);
    umask(mask);
    int err = fchmod(fd, 0666 & ~mask) ? errno : 0;
    FILE *out = err ? NULL : fdopen(fd, "w");
    if (!out) {
        if (!err) err = errno;
        close(fd);
        unlink(tmp);
        free(tmp);
        return fail(cmd, option, path, err);
    }
    int rc = emit(out, user);
    if (!rc && (fflush(out) != 0 || ferror(out)))
        rc = fail(cmd, option, path, errno ? errno : EIO);
    if (!rc && fsync(fileno(out)) != 0) rc = fail(cmd, option, path, errno);
    if (fclose(out) != 0 && !rc) rc = fail(cmd, option, path, errno);
    if (!rc && rename(tmp, path) != 0) rc = fail(cmd, option, path, errno);
    if (rc) unlink(tmp);
    free(tmp);
    return rc;
}

int cli_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}
