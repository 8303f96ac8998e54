/* runner_exec.c -- start the program, pass signals in and its status out. */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__APPLE__)
#include <mach-o/dyld.h>
#endif

#include "runner.h"

static const int forwarded[] = {SIGINT, SIGTERM, SIGHUP};
#define NUM_FORWARDED (int)(sizeof forwarded / sizeof forwarded[0])

static volatile sig_atomic_t child_pid;
static volatile sig_atomic_t pending_signal;

static void forward_signal(int sig, siginfo_t *info, void *context)
{
    (void)context;
#if defined(SI_KERNEL)
    /* The terminal sends Ctrl-C (SIGINT) and friends to the whole
     * foreground process group, which the child shares: it has its own
     * copy already, and a second one would make it stop twice. */
    if (info && info->si_code == SI_KERNEL) return;
#else
    (void)info;
#endif
    pid_t pid = (pid_t)child_pid;
    if (pid > 0)
        kill(pid, sig);
    else
        pending_signal = sig;
}

/* Installs the forwarder, except for signals the caller ignores: under
 * nohup SIGHUP stays ignored, and the child inherits that as it should. */
static void install_forwarders(struct sigaction *saved, int *installed)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = forward_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < NUM_FORWARDED; i++) {
        installed[i] = 0;
        if (sigaction(forwarded[i], NULL, &saved[i]) != 0) continue;
        if (saved[i].sa_handler == SIG_IGN) continue;
        installed[i] = sigaction(forwarded[i], &sa, NULL) == 0;
    }
}

static void restore_handlers(const struct sigaction *saved, const int *installed)
{
    for (int i = 0; i < NUM_FORWARDED; i++)
        if (installed[i]) sigaction(forwarded[i], &saved[i], NULL);
}

int gpl_find_on_path(const char *name, char *out, size_t size)
{
    struct stat st;
    if (!name || !*name) return 0;
    if (strchr(name, '/')) {
        if (access(name, X_OK) != 0) return 0;
        snprintf(out, size, "%s", name);
        return 1;
    }
    const char *path = getenv("PATH");
    if (!path) path = "/usr/local/bin:/usr/bin:/bin";
    while (*path) {
        size_t len = strcspn(path, ":");
        char candidate[PATH_MAX];
        /* An empty PATH entry means the current directory. */
        if (len)
            snprintf(candidate, sizeof candidate, "%.*s/%s", (int)len, path, name);
        else
            snprintf(candidate, sizeof candidate, "./%s", name);
        if (access(candidate, X_OK) == 0 && stat(candidate, &st) == 0 &&
            S_ISREG(st.st_mode)) {
            snprintf(out, size, "%s", candidate);
            return 1;
        }
        path += len;
        if (*path == ':') path++;
    }
    return 0;
}

int gpl_self_exe(char *out, size_t size)
{
#if defined(__linux__)
    ssize_t n = readlink("/proc/self/exe", out, size - 1);
    if (n <= 0) return 0;
    out[n] = '\0';
    return 1;
#elif defined(__APPLE__)
    uint32_t len = (uint32_t)size;
    return _NSGetExecutablePath(out, &len) == 0;
#else
    (void)out;
    (void)size;
    return 0;
#endif
}

static int wait_child(pid_t pid)
{
    int status;
    for (;;) {
        pid_t got = waitpid(pid, &status, 0);
        if (got == pid) break;
        if (got < 0 && errno != EINTR) return 125;
    }
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
    return 125;
}

int gpl_runner_run(char *const *argv, char *const *envp, char *err, size_t err_size)
{
    if (err_size) err[0] = '\0';
    char path[PATH_MAX];
    if (!argv || !argv[0] || !gpl_find_on_path(argv[0], path, sizeof path)) {
        snprintf(err, err_size, "%s: command not found", argv && argv[0] ? argv[0] : "");
        return 127;
    }
    struct sigaction saved[NUM_FORWARDED];
    int installed[NUM_FORWARDED];
    child_pid = 0;
    pending_signal = 0;
    install_forwarders(saved, installed);

    /* The child must not inherit a mask that blocks what we forward. */
    posix_spawnattr_t attr;
    sigset_t none;
    sigemptyset(&none);
    posix_spawnattr_init(&attr);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
    pid_t pid;
    int rc = posix_spawn(&pid, path, NULL, &attr, argv, envp);
    posix_spawnattr_destroy(&attr);
    if (rc != 0) {
        restore_handlers(saved, installed);
        snprintf(err, err_size, "%s: %s", argv[0], strerror(rc));
        return rc == ENOENT ? 127 : 126;
    }
    child_pid = pid;
    if (pending_signal) kill(pid, pending_signal);
    int code = wait_child(pid);
    child_pid = 0;
    restore_handlers(saved, installed);
    return code;
}
