/*
 * timed_spawn.h -- run helper programs with a time limit and collect their output.
 *
 * Probes are separate programs started with posix_spawn, never a bare
 * fork(): forking a threaded host (Python, a server) without exec can
 * deadlock in the child, and on macOS the Objective-C runtime forbids it.
 * A child that overruns its time limit is killed with its process group, so
 * a driver that hangs costs the caller the time limit and nothing more.
 */
#ifndef GPL_TIMED_SPAWN_H
#define GPL_TIMED_SPAWN_H

#include <stddef.h>

typedef struct gpl_spawn_result {
    int started;       /* 0 when the program could not be started         */
    int start_errno;   /* why not (ENOENT, EACCES...)                     */
    int timed_out;     /* killed at the time limit                        */
    int exited;        /* exit_code is valid                              */
    int exit_code;
    int signaled;      /* died of term_signal (and not by our kill)       */
    int term_signal;
    int reaped;        /* 0 when it did not die even after SIGKILL        */
    char *out;         /* standard output, terminated; malloc'd           */
    size_t out_len;
    char err_tail[256];/* the end of its standard error, for messages     */
} gpl_spawn_result;

/* Starts count programs at once (argvs[i] is a NULL-terminated argv whose
 * [0] is a path), then waits for all of them, each up to timeout_ms from
 * the start. Children inherit the environment; their standard input is
 * /dev/null. Never fails: problems are described in results[i]. */
void gpl_spawn_collect(const char *const *const *argvs, int count,
                       int timeout_ms, gpl_spawn_result *results);
void gpl_spawn_result_release(gpl_spawn_result *r);

/* Milliseconds on a monotonic clock. */
long long gpl_now_ms(void);

#endif
