/* discovery.c -- run the probes, turn failures into notes, cache results. */
#include "discovery.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "framework.h"
#include "probe_cpu.h"
#include "probe_parse.h"
#include "timed_spawn.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static struct {
    pid_t pid;                       /* the process the cache belongs to */
    unsigned probed;                 /* runtimes with a result           */
    gpl_discovery result[GPL_RT_COUNT];
    gpl_discovery *snapshot;         /* all runtimes, for the public API */
    int probe_runs;
    int have_frameworks;
    gpl_frameworks frameworks;
    int framework_runs;
    int have_fakes;
    gpl_discovery_fakes fakes;
    gpl_build_info fake_build;
} cache;

static void drop_cache_locked(void)
{
    for (int rt = 0; rt < GPL_RT_COUNT; rt++) gpl_discovery_release(&cache.result[rt]);
    if (cache.snapshot) {
        gpl_discovery_release(cache.snapshot);
        free(cache.snapshot);
        cache.snapshot = NULL;
    }
    cache.probed = 0;
    cache.probe_runs = 0;
    gpl_frameworks_release(&cache.frameworks);
    cache.have_frameworks = 0;
    cache.framework_runs = 0;
    cache.pid = getpid();
}

static int probe_timeout_ms(void)
{
    if (cache.have_fakes && cache.fakes.timeout_ms > 0) return cache.fakes.timeout_ms;
    const char *env = getenv("GPULAYER_PROBE_TIMEOUT_MS");
    long v = env ? strtol(env, NULL, 10) : 0;
    return v > 0 && v < INT_MAX ? (int)v : GPL_PROBE_TIMEOUT_MS;
}

static const gpl_probe_fake *find_fake(gpl_runtime rt)
{
    for (int i = 0; i < cache.fakes.count; i++)
        if (cache.fakes.probes[i].runtime == rt) return &cache.fakes.probes[i];
    return NULL;
}

/* How one runtime will be probed in this round. */
typedef struct probe_plan {
    gpl_runtime rt;
    const char *output;       /* parse this text in-process, or ...      */
    const char *const *argv;  /* ... run this program                    */
    const char *argv_buf[3];
    int spawn_index;          /* into the spawn arrays, or -1           */
} probe_plan;

static void add_probe_failure(gpl_runtime rt, const gpl_spawn_result *r,
                              int timeout_ms, gpl_discovery *d)
{
    const char *name = gpl_runtime_name(rt), *accel = gpl_runtime_accelerator(rt);
    if (r->timed_out) {
        gpl_discovery_add_note(
            d, name, GPL_NOTE_PROBE_TIMEOUT,
            "the %s probe did not finish within %d ms and was killed%s (a hung "
            "driver?); %s devices are not reported. GPULAYER_PROBE_TIMEOUT_MS "
            "sets the limit",
            name, timeout_ms, r->reaped ? "" : " (it is stuck in the kernel)",
            accel);
    } else if (r->signaled) {
        gpl_discovery_add_note(d, name, GPL_NOTE_PROBE_CRASHED,
                               "the %s probe crashed (signal %d, %s); %s devices "
                               "are not reported; its last words: '%s'",
                               name, r->term_signal, strsignal(r->term_signal),
                               accel, r->err_tail);
    } else {
        gpl_discovery_add_note(d, name, GPL_NOTE_PROBE_FAILED,
                               "the %s probe exited with status %d; %s devices "
                               "are not reported; its last words: '%s'",
                               name, r->exit_code, accel, r->err_tail);
    }
}

static void interpret_spawn(const probe_plan *p, const gpl_spawn_result *r,
                            int timeout_ms, gpl_discovery *d)
{
    if (!r->started) {
        gpl_discovery_add_note(d, gpl_runtime_name(p->rt), GPL_NOTE_PROBE_NOT_FOUND,
                               "could not start the %s probe %s: %s",
                               gpl_runtime_name(p->rt), p->argv[0],
                               strerror(r->start_errno));
        return;
    }
    /* A probe that wrote a complete result and then hung or died (in a
     * driver's exit-time teardown, say) still told us what it found. */
    int complete = gpl_probe_output_complete(p->rt, r->out, r->out_len);
    if (!complete && (r->timed_out || r->signaled || r->exit_code != 0)) {
        add_probe_failure(p->rt, r, timeout_ms, d);
        return;
    }
    gpl_probe_parse(p->rt, r->out, r->out_len, d);
    if (complete && (r->timed_out || r->signaled))
        gpl_discovery_add_note(d, gpl_runtime_name(p->rt), GPL_NOTE_INFO,
                               "the %s probe %s after writing its result",
                               gpl_runtime_name(p->rt),
                               r->timed_out ? "hung and was killed" : "crashed");
}

/* Decides how each runtime in todo is probed (fake, in-process, program). */
static int plan_probes(unsigned todo, probe_plan *plans, gpl_discovery *res)
{
    static char probe_path[PATH_MAX];
    int n = 0, located = -1;
    for (int rt = 0; rt < GPL_RT_COUNT; rt++) {
        if (!(todo & GPL_RT_BIT(rt))) continue;
        probe_plan *p = &plans[n++];
        memset(p, 0, sizeof *p);
        p->rt = (gpl_runtime)rt;
        p->spawn_index = -1;
        if (cache.have_fakes) {
            const gpl_probe_fake *f = find_fake(p->rt);
            if (f) {
                p->output = f->output;
                p->argv = f->argv;
            }
            continue;
        }
        if (rt == GPL_RT_CPU) continue; /* in-process, see probe_cpu.h */
#if !defined(__APPLE__)
        if (rt == GPL_RT_METAL) {
            gpl_discovery_add_note(&res[rt], "metal", GPL_NOTE_NOT_MACOS,
                                   "not macOS: the Apple GPU (mps) is reached "
                                   "through Metal, which exists only on macOS");
            continue;
        }
#endif
        char tried[2048];
        if (located < 0) located = gpl_probe_locate(probe_path, sizeof probe_path,
                                                    tried, sizeof tried);
        if (!located) {
            gpl_discovery_add_note(&res[rt], gpl_runtime_name(p->rt),
                                   GPL_NOTE_PROBE_NOT_FOUND,
                                   "the gpulayer-probe program was not found (looked "
                                   "in %s); %s devices are not reported",
                                   tried, gpl_runtime_accelerator(p->rt));
            continue;
        }
        p->argv_buf[0] = probe_path;
        p->argv_buf[1] = gpl_runtime_name(p->rt);
        p->argv = p->argv_buf;
    }
    return n;
}

static void run_probes(unsigned todo, gpl_discovery *res)
{
    probe_plan plans[GPL_RT_COUNT];
    const char *const *argvs[GPL_RT_COUNT];
    gpl_spawn_result spawned[GPL_RT_COUNT];
    int n = plan_probes(todo, plans, res), nspawn = 0;
    int timeout_ms = probe_timeout_ms();

    for (int i = 0; i < n; i++) {
        probe_plan *p = &plans[i];
        if (p->argv) {
            p->spawn_index = nspawn;
            argvs[nspawn++] = p->argv;
        } else if (p->output) {
            gpl_probe_parse(p->rt, p->output, strlen(p->output), &res[p->rt]);
            cache.probe_runs++;
        } else if (p->rt == GPL_RT_CPU && !cache.have_fakes) {
            char *json = gpl_probe_cpu_json();
            if (json) gpl_probe_parse(GPL_RT_CPU, json, strlen(json), &res[GPL_RT_CPU]);
            free(json);
            cache.probe_runs++;
        }
    }
    if (nspawn) gpl_spawn_collect(argvs, nspawn, timeout_ms, spawned);
    cache.probe_runs += nspawn;
    for (int i = 0; i < n; i++) {
        if (plans[i].spawn_index < 0) continue;
        gpl_spawn_result *r = &spawned[plans[i].spawn_index];
        interpret_spawn(&plans[i], r, timeout_ms, &res[plans[i].rt]);
        gpl_spawn_result_release(r);
    }
}

static void build_info_locked(gpl_build_info *out)
{
    if (cache.have_fakes && cache.fakes.build)
        *out = cache.fake_build;
    else
        gpl_build_info_current(out);
}

void gpl_discovery_build_info(gpl_build_info *out)
{
    pthread_mutex_lock(&lock);
    build_info_locked(out);
    pthread_mutex_unlock(&lock);
}

static void probe_missing_locked(unsigned mask)
{
    if (cache.pid != getpid()) drop_cache_locked();
    unsigned todo = mask & ~cache.probed & GPL_RT_ALL;
    if (!todo) return;
    gpl_discovery fresh[GPL_RT_COUNT];
    memset(fresh, 0, sizeof fresh);
    run_probes(todo, fresh);
    gpl_build_info build;
    build_info_locked(&build);
    for (int rt = 0; rt < GPL_RT_COUNT; rt++) {
        if (!(todo & GPL_RT_BIT(rt))) continue;
        gpl_build_apply(&build, (gpl_runtime)rt, &fresh[rt]);
        gpl_discovery_release(&cache.result[rt]);
        cache.result[rt] = fresh[rt];
        cache.probed |= GPL_RT_BIT(rt);
    }
}

static gpulayer_status probe_frameworks_locked(void)
{
    if (cache.have_frameworks) return GPULAYER_OK;
    gpl_frameworks_init(&cache.frameworks);
    const char *fake = cache.have_fakes ? cache.fakes.frameworks : NULL;
    gpulayer_status st = fake ? gpl_frameworks_parse(fake, strlen(fake), &cache.frameworks)
                              : gpl_frameworks_probe(&cache.frameworks);
    cache.framework_runs++;
    if (st != GPULAYER_OK) {
        gpl_frameworks_release(&cache.frameworks);
        return st;
    }
    cache.have_frameworks = 1;
    return GPULAYER_OK;
}

gpulayer_status gpl_discover(unsigned mask, gpl_discovery *out)
{
    gpulayer_status st = GPULAYER_OK;
    pthread_mutex_lock(&lock);
    probe_missing_locked(mask & GPL_RT_ALL);
    if (mask & GPL_DISCOVER_FRAMEWORKS) st = probe_frameworks_locked();
    for (int rt = 0; rt < GPL_RT_COUNT && st == GPULAYER_OK; rt++)
        if (mask & GPL_RT_BIT(rt)) st = gpl_discovery_append(out, &cache.result[rt]);
    if (st == GPULAYER_OK && (mask & GPL_DISCOVER_FRAMEWORKS))
        st = gpl_frameworks_apply(&cache.frameworks, out);
    pthread_mutex_unlock(&lock);
    return st;
}

const gpl_discovery *gpl_discovery_snapshot(void)
{
    pthread_mutex_lock(&lock);
    if (cache.pid != getpid()) drop_cache_locked();
    if (!cache.snapshot) {
        gpl_discovery *all = calloc(1, sizeof *all);
        probe_missing_locked(GPL_RT_ALL);
        gpulayer_status st = GPULAYER_OK;
        for (int rt = 0; all && rt < GPL_RT_COUNT && st == GPULAYER_OK; rt++)
            st = gpl_discovery_append(all, &cache.result[rt]);
        if (all && st != GPULAYER_OK) {
            gpl_discovery_release(all);
            free(all);
            all = NULL;
        }
        cache.snapshot = all;
    }
    const gpl_discovery *snap = cache.snapshot;
    pthread_mutex_unlock(&lock);
    return snap;
}

void gpl_discovery_install_fakes(const gpl_discovery_fakes *fakes)
{
    pthread_mutex_lock(&lock);
    drop_cache_locked();
    cache.have_fakes = fakes != NULL;
    memset(&cache.fakes, 0, sizeof cache.fakes);
    if (fakes) {
        cache.fakes = *fakes;
        if (fakes->build) cache.fake_build = *fakes->build;
    }
    pthread_mutex_unlock(&lock);
}

void gpl_discovery_reset(void)
{
    pthread_mutex_lock(&lock);
    drop_cache_locked();
    pthread_mutex_unlock(&lock);
}

int gpl_discovery_framework_runs(void)
{
    pthread_mutex_lock(&lock);
    int n = cache.framework_runs;
    pthread_mutex_unlock(&lock);
    return n;
}

int gpl_discovery_probe_runs(void)
{
    pthread_mutex_lock(&lock);
    int n = cache.probe_runs;
    pthread_mutex_unlock(&lock);
    return n;
}
