/* framework_probe.c -- run the framework probe script under a time limit. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework.h"
#include "runner.h"
#include "timed_spawn.h"
/* Generated from probe/frameworks.py (src/device/CMakeLists.txt). */
#include "framework_script.h"

static int framework_timeout_ms(void)
{
    const char *env = getenv("GPULAYER_FRAMEWORK_TIMEOUT_MS");
    long v = env ? strtol(env, NULL, 10) : 0;
    return v > 0 && v < INT_MAX ? (int)v : GPL_FRAMEWORK_TIMEOUT_MS;
}

/* The interpreter a job would use: GPULAYER_PYTHON (a path, or a name
 * looked up on PATH), else python3 on PATH. */
static int find_python(char *path, size_t size, char *asked, size_t asked_size)
{
    const char *env = getenv("GPULAYER_PYTHON");
    const char *name = env && *env ? env : "python3";
    snprintf(asked, asked_size, "%s%s", name,
             env && *env ? " (GPULAYER_PYTHON)" : " on PATH (set GPULAYER_PYTHON to choose one)");
    return gpl_find_on_path(name, path, size);
}

static gpulayer_status interpret(const gpl_spawn_result *r, const char *python,
                                 int timeout_ms, gpl_frameworks *fw)
{
    if (!r->started)
        return gpl_frameworks_fail(fw, GPL_NOTE_PROBE_NOT_FOUND,
                                   "could not start the framework probe with %s: %s; "
                                   "torch.cuda, torch.mps and mlx are not reported",
                                   python, strerror(r->start_errno));
    /* A result written before a hang in the interpreter's exit still counts. */
    if (r->out_len && r->out[r->out_len - 1] == '}')
        return gpl_frameworks_parse(r->out, r->out_len, fw);
    if (r->timed_out)
        return gpl_frameworks_fail(fw, GPL_NOTE_PROBE_TIMEOUT,
                                   "the framework probe (%s importing torch and mlx) did "
                                   "not finish within %d ms and was killed%s; torch.cuda, "
                                   "torch.mps and mlx are not reported. "
                                   "GPULAYER_FRAMEWORK_TIMEOUT_MS sets the limit",
                                   python, timeout_ms,
                                   r->reaped ? "" : " (it is stuck in the kernel)");
    if (r->signaled)
        return gpl_frameworks_fail(fw, GPL_NOTE_PROBE_CRASHED,
                                   "the framework probe (%s) crashed (signal %d); its last "
                                   "words: '%s'",
                                   python, r->term_signal, r->err_tail);
    if (r->exit_code != 0)
        return gpl_frameworks_fail(fw, GPL_NOTE_PROBE_FAILED,
                                   "the framework probe (%s) exited with status %d; its "
                                   "last words: '%s'",
                                   python, r->exit_code, r->err_tail);
    return gpl_frameworks_parse(r->out, r->out_len, fw);
}

gpulayer_status gpl_frameworks_probe(gpl_frameworks *fw)
{
    char python[4096], asked[256];
    if (!find_python(python, sizeof python, asked, sizeof asked))
        return gpl_frameworks_fail(fw, GPL_NOTE_PROBE_NOT_FOUND,
                                   "no Python interpreter for the framework probe: %s was "
                                   "not found; torch.cuda, torch.mps and mlx are not "
                                   "reported",
                                   asked);
    const char *const argv[] = {python, "-c", (const char *)gpl_framework_script, NULL};
    const char *const *argvs[1] = {argv};
    gpl_spawn_result r;
    int timeout_ms = framework_timeout_ms();
    gpl_spawn_collect(argvs, 1, timeout_ms, &r);
    gpulayer_status st = interpret(&r, python, timeout_ms, fw);
    gpl_spawn_result_release(&r);
    return st;
}
