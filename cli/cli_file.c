/* cli_file.c -- atomic replacement of a command's output file (the
 * library's own helper sits below the public header, out of the command's
 * reach). */
#include "cli_file.h"

#include <errno.h>
#include <limits.h>
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
    /* A link is followed: its target is replaced, the link kept. */
    char target[PATH_MAX];
    struct stat link;
    if (lstat(path, &link) == 0 && S_ISLNK(link.st_mode) && realpath(path, target))
        path = target;
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

/* The folder part of path ("." for a bare name) into dir. */
static void folder_of(const char *path, char *dir, size_t size)
{
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(dir, size, ".");
    else if (slash == path) snprintf(dir, size, "/");
    else snprintf(dir, size, "%.*s", (int)(slash - path), path);
}

/* The file path names once its folder is resolved, so that "m.json" and
 * "./m.json" compare equal before either exists. Empty when the folder
 * cannot be resolved. */
static void canonical_output(const char *path, char *out, size_t size)
{
    char dir[PATH_MAX], real[PATH_MAX];
    folder_of(path, dir, sizeof dir);
    const char *slash = strrchr(path, '/');
    if (realpath(dir, real)) snprintf(out, size, "%s/%s", real, slash ? slash + 1 : path);
    else out[0] = '\0';
}

static int check_writable(const char *cmd, const cli_path *out)
{
    char dir[PATH_MAX];
    struct stat st;
    if (stat(out->path, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "gpulayer %s: %s %s is a folder; name a file\n", cmd, out->option,
                out->path);
        return 2;
    }
    folder_of(out->path, dir, sizeof dir);
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        fprintf(stderr, "gpulayer %s: %s %s: the folder %s does not exist\n", cmd,
                out->option, out->path, dir);
        return 2;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        fprintf(stderr, "gpulayer %s: %s %s: the folder %s is not writable (%s)\n", cmd,
                out->option, out->path, dir, strerror(errno));
        return 2;
    }
    return 0;
}

int cli_check_outputs(const char *cmd, const cli_path *outputs, int num_outputs,
                      const cli_path *inputs, int num_inputs)
{
    for (int i = 0; i < num_outputs; i++) {
        const cli_path *out = &outputs[i];
        if (!out->path) continue;
        if (check_writable(cmd, out)) return 2;
        for (int k = 0; k < num_inputs; k++)
            if (inputs[k].path && cli_same_file(out->path, inputs[k].path)) {
                fprintf(stderr, "gpulayer %s: %s %s is the %s file; write it elsewhere\n",
                        cmd, out->option, out->path, inputs[k].option);
                return 2;
            }
        char a[PATH_MAX + 2], b[PATH_MAX + 2];
        canonical_output(out->path, a, sizeof a);
        for (int k = 0; k < i; k++) {
            if (!outputs[k].path) continue;
            canonical_output(outputs[k].path, b, sizeof b);
            if (cli_same_file(out->path, outputs[k].path) || (a[0] && !strcmp(a, b))) {
                fprintf(stderr, "gpulayer %s: %s and %s both name %s; give each its own "
                                "file\n", cmd, outputs[k].option, out->option, out->path);
                return 2;
            }
        }
    }
    return 0;
}
