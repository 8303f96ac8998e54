/* probe_locate.c -- find the gpulayer-probe program. */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__APPLE__)
#include <mach-o/dyld.h>
#endif

#include "discovery.h"

#define PROBE_NAME "gpulayer-probe"

/* Appends a candidate to the "tried" list and tests it. */
static int try_path(const char *candidate, char *path, size_t size, char *tried,
                    size_t tried_size)
{
    size_t used = strlen(tried);
    if (used < tried_size)
        snprintf(tried + used, tried_size - used, "%s%s", used ? ", " : "", candidate);
    if (access(candidate, X_OK) != 0) return 0;
    snprintf(path, size, "%s", candidate);
    return 1;
}

/* Tries DIR/gpulayer-probe and DIR/../libexec/gpulayer/gpulayer-probe: the
 * build tree puts the probe beside the command and the shared library; an
 * install puts it under libexec. */
static int try_dir_of(const char *file, char *path, size_t size, char *tried,
                      size_t tried_size)
{
    char dir[PATH_MAX], candidate[PATH_MAX + 64];
    if (!file || !*file) return 0;
    snprintf(dir, sizeof dir, "%s", file);
    char *slash = strrchr(dir, '/');
    if (!slash) return 0;
    *slash = '\0';
    snprintf(candidate, sizeof candidate, "%s/" PROBE_NAME, dir);
    if (try_path(candidate, path, size, tried, tried_size)) return 1;
    snprintf(candidate, sizeof candidate, "%s/../libexec/gpulayer/" PROBE_NAME, dir);
    return try_path(candidate, path, size, tried, tried_size);
}

static int self_exe(char *buf, size_t size)
{
#if defined(__linux__)
    ssize_t n = readlink("/proc/self/exe", buf, size - 1);
    if (n <= 0) return 0;
    buf[n] = '\0';
    return 1;
#elif defined(__APPLE__)
    uint32_t len = (uint32_t)size;
    return _NSGetExecutablePath(buf, &len) == 0;
#else
    (void)buf;
    (void)size;
    return 0;
#endif
}

int gpl_probe_locate(char *path, size_t size, char *tried, size_t tried_size)
{
    if (tried_size) tried[0] = '\0';
    const char *env = getenv("GPULAYER_PROBE");
    if (env && *env) return try_path(env, path, size, tried, tried_size);

    /* The shared library when loaded by Python, else the program itself. */
    Dl_info info;
    if (dladdr((void *)&gpl_probe_locate, &info) && info.dli_fname) {
        char real[PATH_MAX];
        if (realpath(info.dli_fname, real) &&
            try_dir_of(real, path, size, tried, tried_size))
            return 1;
    }
    char exe[PATH_MAX];
    if (self_exe(exe, sizeof exe) && try_dir_of(exe, path, size, tried, tried_size))
        return 1;
#ifdef GPL_PROBE_INSTALL_PATH
    if (try_path(GPL_PROBE_INSTALL_PATH, path, size, tried, tried_size)) return 1;
#endif
#ifdef GPL_PROBE_BUILD_PATH
    if (try_path(GPL_PROBE_BUILD_PATH, path, size, tried, tried_size)) return 1;
#endif
    return 0;
}
