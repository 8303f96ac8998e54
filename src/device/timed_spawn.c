/* timed_spawn.c -- start helper programs, read their output, enforce a deadline. */
#include "timed_spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* A probe prints a few kilobytes; anything past this is not a probe. */
#define GPL_SPAWN_MAX_OUTPUT (1u << 20)
/* How long a SIGKILLed child may take to disappear before we give up on
 * it: a process stuck in a driver call (uninterruptible sleep) may never. */
#define GPL_SPAWN_REAP_GRACE_MS 500

long long gpl_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

typedef struct child {
    pid_t pid;
    int out_fd, err_fd; /* -1 once closed */
    size_t out_cap;
    size_t err_len;
} child;

/* Both ends close on exec so that a sibling probe, started while this pipe
 * is open, does not hold it open and delay our end-of-file. */
static int cloexec_pipe(int fds[2])
{
#if defined(__linux__)
    return pipe2(fds, O_CLOEXEC);
#else
    if (pipe(fds) != 0) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}

static void close_fd(int *fd)
{
    if (*fd >= 0) close(*fd);
    *fd = -1;
}

static int start_child(const char *const *argv, child *c, gpl_spawn_result *r)
{
    /* Some posix_spawn implementations (a fork-and-exec fallback, under
     * valgrind too) report a missing program only as exit status 127;
     * checking first gives the same clear answer everywhere. */
    if (access(argv[0], X_OK) != 0) return errno;
    int out[2], err[2];
    if (cloexec_pipe(out) != 0) return errno;
    if (cloexec_pipe(err) != 0) {
        int e = errno;
        close(out[0]);
        close(out[1]);
        return e;
    }
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, err[1], 2);
    posix_spawnattr_init(&attr);
    /* Own process group: the deadline kills the probe and anything it
     * started. Default signal dispositions and an empty mask: the host
     * (Python ignores SIGPIPE, threads block signals) must not leak its
     * settings into the probe. */
    sigset_t all, none;
    sigfillset(&all);
    sigdelset(&all, SIGKILL);
    sigdelset(&all, SIGSTOP);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attr, &all);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF |
                                        POSIX_SPAWN_SETSIGMASK);
    int rc = posix_spawn(&c->pid, argv[0], &fa, &attr, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    close(out[1]);
    close(err[1]);
    if (rc != 0) {
        close(out[0]);
        close(err[0]);
        return rc;
    }
    c->out_fd = out[0];
    c->err_fd = err[0];
    fcntl(c->out_fd, F_SETFL, O_NONBLOCK);
    fcntl(c->err_fd, F_SETFL, O_NONBLOCK);
    r->started = 1;
    return 0;
}

static void read_stdout(child *c, gpl_spawn_result *r)
{
    for (;;) {
        if (r->out_len + 4096 + 1 > c->out_cap) {
            size_t cap = c->out_cap ? c->out_cap * 2 : 8192;
            char *grown = realloc(r->out, cap);
            if (!grown) {
                close_fd(&c->out_fd);
                return;
            }
            r->out = grown;
            c->out_cap = cap;
        }
        ssize_t n = read(c->out_fd, r->out + r->out_len, 4096);
        if (n > 0) {
            r->out_len += (size_t)n;
            r->out[r->out_len] = '\0';
            if (r->out_len > GPL_SPAWN_MAX_OUTPUT) close_fd(&c->out_fd);
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) close_fd(&c->out_fd);
        return;
    }
}

/* Keeps the last sizeof err_tail - 1 bytes of standard error. */
static void read_stderr(child *c, gpl_spawn_result *r)
{
    char buf[1024];
    const size_t keep = sizeof r->err_tail - 1;
    for (;;) {
        ssize_t n = read(c->err_fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) close_fd(&c->err_fd);
            return;
        }
        size_t take = (size_t)n > keep ? keep : (size_t)n;
        const char *src = buf + (size_t)n - take;
        if (c->err_len + take > keep) {
            size_t drop = c->err_len + take - keep;
            memmove(r->err_tail, r->err_tail + drop, c->err_len - drop);
            c->err_len -= drop;
        }
        memcpy(r->err_tail + c->err_len, src, take);
        c->err_len += take;
        r->err_tail[c->err_len] = '\0';
    }
}

static void record_status(int status, gpl_spawn_result *r)
{
    r->reaped = 1;
    if (WIFEXITED(status)) {
        r->exited = 1;
        r->exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status) && !r->timed_out) {
        r->signaled = 1;
        r->term_signal = WTERMSIG(status);
    }
}

static int try_reap(child *c, gpl_spawn_result *r)
{
    int status;
    pid_t got;
    do got = waitpid(c->pid, &status, WNOHANG);
    while (got < 0 && errno == EINTR);
    if (got == c->pid) {
        record_status(status, r);
        /* What it wrote before exiting is already in the pipe. */
        if (c->out_fd >= 0) read_stdout(c, r);
        if (c->err_fd >= 0) read_stderr(c, r);
        close_fd(&c->out_fd);
        close_fd(&c->err_fd);
        return 1;
    }
    if (got < 0) {
        /* ECHILD: the host ignores SIGCHLD, so the kernel reaped the child
         * and its status is lost; judge it by its output alone. */
        r->reaped = 1;
        r->exited = 1;
        if (c->out_fd >= 0) read_stdout(c, r);
        if (c->err_fd >= 0) read_stderr(c, r);
        close_fd(&c->out_fd);
        close_fd(&c->err_fd);
        return 1;
    }
    return 0;
}

static void wait_all(child *cs, gpl_spawn_result *rs, int count, long long deadline)
{
    struct pollfd pfd[2 * 64];
    for (;;) {
        int running = 0, n = 0;
        for (int i = 0; i < count; i++) {
            if (!rs[i].started || rs[i].reaped) continue;
            if (try_reap(&cs[i], &rs[i])) continue;
            running++;
            if (cs[i].out_fd >= 0 && n < 128)
                pfd[n++] = (struct pollfd){.fd = cs[i].out_fd, .events = POLLIN};
            if (cs[i].err_fd >= 0 && n < 128)
                pfd[n++] = (struct pollfd){.fd = cs[i].err_fd, .events = POLLIN};
        }
        long long left = deadline - gpl_now_ms();
        if (!running || left <= 0) return;
        /* Short waits: a child can exit while a grandchild keeps its pipe
         * open, and then only waitpid notices. */
        int wait_ms = left < 20 ? (int)left : 20;
        if (n)
            poll(pfd, (nfds_t)n, wait_ms);
        else
            usleep((useconds_t)wait_ms * 1000);
        for (int i = 0; i < count; i++) {
            if (!rs[i].started || rs[i].reaped) continue;
            if (cs[i].out_fd >= 0) read_stdout(&cs[i], &rs[i]);
            if (cs[i].err_fd >= 0) read_stderr(&cs[i], &rs[i]);
        }
    }
}

static void kill_overdue(child *cs, gpl_spawn_result *rs, int count)
{
    int any = 0;
    for (int i = 0; i < count; i++) {
        if (!rs[i].started || rs[i].reaped) continue;
        rs[i].timed_out = 1;
        kill(-cs[i].pid, SIGKILL);
        kill(cs[i].pid, SIGKILL);
        any = 1;
    }
    if (!any) return;
    long long until = gpl_now_ms() + GPL_SPAWN_REAP_GRACE_MS;
    for (;;) {
        int left = 0;
        for (int i = 0; i < count; i++)
            if (rs[i].started && !rs[i].reaped && !try_reap(&cs[i], &rs[i])) left++;
        if (!left || gpl_now_ms() >= until) break;
        usleep(5000);
    }
    for (int i = 0; i < count; i++) {
        close_fd(&cs[i].out_fd);
        close_fd(&cs[i].err_fd);
    }
}

void gpl_spawn_collect(const char *const *const *argvs, int count, int timeout_ms,
                       gpl_spawn_result *results)
{
    child cs[64];
    if (count > 64) count = 64; /* one probe per runtime: never near this */
    long long deadline = gpl_now_ms() + (timeout_ms > 0 ? timeout_ms : 0);
    for (int i = 0; i < count; i++) {
        memset(&results[i], 0, sizeof results[i]);
        cs[i] = (child){.pid = -1, .out_fd = -1, .err_fd = -1};
        int e = start_child(argvs[i], &cs[i], &results[i]);
        if (e) results[i].start_errno = e;
    }
    wait_all(cs, results, count, deadline);
    kill_overdue(cs, results, count);
}

void gpl_spawn_result_release(gpl_spawn_result *r)
{
    if (!r) return;
    free(r->out);
    r->out = NULL;
    r->out_len = 0;
}
