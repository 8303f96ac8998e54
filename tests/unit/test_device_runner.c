/* test_device_runner.c -- the runner: the environment a program gets, exit
 * status and signals passed through, the per-rank device list of a
 * distributed job and the launcher's command line. */
#include "test_util.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/runner.h"

static const char *env_value(char **env, const char *key)
{
    size_t n = strlen(key);
    for (size_t i = 0; env[i]; i++)
        if (!strncmp(env[i], key, n) && env[i][n] == '=') return env[i] + n + 1;
    return NULL;
}

static int env_count(char **env, const char *key)
{
    int count = 0;
    size_t n = strlen(key);
    for (size_t i = 0; env[i]; i++) count += !strncmp(env[i], key, n) && env[i][n] == '=';
    return count;
}

static gpl_run_target target(const char *accel, int n, const int *index, const char *const *ids)
{
    gpl_run_target t;
    memset(&t, 0, sizeof t);
    snprintf(t.accelerator, sizeof t.accelerator, "%s", accel);
    t.count = n;
    for (int i = 0; i < n; i++) {
        t.index[i] = index[i];
        snprintf(t.stable_id[i], sizeof t.stable_id[i], "%s", ids ? ids[i] : "");
    }
    return t;
}

static void test_cuda_environment(void **state)
{
    (void)state;
    char *base[] = {"PATH=/usr/bin", "CUDA_VISIBLE_DEVICES=0,1,2,3", "GPULAYER_DEVICE=9",
                    "HOME=/tmp", NULL};
    const int index[] = {2, 3};
    const char *ids[] = {"GPU-aaaa", "GPU-bbbb"};
    gpl_run_target t = target("cuda", 2, index, ids);
    char **env = gpl_runner_env(base, &t);
    assert_non_null(env);
    assert_string_equal(env_value(env, "GPULAYER_ACCELERATOR"), "cuda");
    /* CUDA renumbers the visible GPUs from 0. */
    assert_string_equal(env_value(env, "GPULAYER_DEVICE"), "0,1");
    assert_string_equal(env_value(env, "GPULAYER_DEVICE_ID"), "GPU-aaaa,GPU-bbbb");
    assert_string_equal(env_value(env, "CUDA_VISIBLE_DEVICES"), "GPU-aaaa,GPU-bbbb");
    assert_int_equal(env_count(env, "CUDA_VISIBLE_DEVICES"), 1);
    assert_int_equal(env_count(env, "GPULAYER_DEVICE"), 1);
    assert_string_equal(env_value(env, "PATH"), "/usr/bin");
    assert_string_equal(env_value(env, "HOME"), "/tmp");
    gpl_runner_env_free(env);
}

static void test_cuda_without_uuid_maps_through_current_mask(void **state)
{
    (void)state;
    /* Ordinal 1 under CUDA_VISIBLE_DEVICES=3,5 is physical GPU 5. */
    setenv("CUDA_VISIBLE_DEVICES", "3,5", 1);
    const int index[] = {1};
    gpl_run_target t = target("cuda", 1, index, NULL);
    char *base[] = {"CUDA_VISIBLE_DEVICES=3,5", NULL};
    char **env = gpl_runner_env(base, &t);
    assert_string_equal(env_value(env, "CUDA_VISIBLE_DEVICES"), "5");
    assert_null(env_value(env, "GPULAYER_DEVICE_ID"));
    gpl_runner_env_free(env);
    unsetenv("CUDA_VISIBLE_DEVICES");
    env = gpl_runner_env(base + 1, &t);
    assert_string_equal(env_value(env, "CUDA_VISIBLE_DEVICES"), "1");
    gpl_runner_env_free(env);
}

static void test_other_accelerators_leave_cuda_alone(void **state)
{
    (void)state;
    char *base[] = {"CUDA_VISIBLE_DEVICES=7", NULL};
    const int index[] = {1};
    const char *ids[] = {"6d657361-0000"};
    gpl_run_target t = target("vulkan", 1, index, ids);
    char **env = gpl_runner_env(base, &t);
    assert_string_equal(env_value(env, "GPULAYER_ACCELERATOR"), "vulkan");
    assert_string_equal(env_value(env, "GPULAYER_DEVICE"), "1");
    assert_string_equal(env_value(env, "CUDA_VISIBLE_DEVICES"), "7");
    gpl_runner_env_free(env);

    const int zero[] = {0};
    t = target("mps", 1, zero, NULL);
    env = gpl_runner_env(NULL, &t);
    assert_string_equal(env_value(env, "GPULAYER_ACCELERATOR"), "mps");
    assert_string_equal(env_value(env, "GPULAYER_DEVICE"), "0");
    assert_null(env_value(env, "CUDA_VISIBLE_DEVICES"));
    gpl_runner_env_free(env);
}

static int run_sh(const char *script, char **env)
{
    char *argv[] = {"sh", "-c", (char *)script, NULL};
    char err[256];
    return gpl_runner_run(argv, env, err, sizeof err);
}

static void test_exit_status_passes_through(void **state)
{
    (void)state;
    char *env[] = {"PATH=/usr/bin:/bin", "GPULAYER_ACCELERATOR=cpu", NULL};
    assert_int_equal(run_sh("exit 0", env), 0);
    assert_int_equal(run_sh("exit 7", env), 7);
    assert_int_equal(run_sh("test \"$GPULAYER_ACCELERATOR\" = cpu", env), 0);
    /* Death by a signal is 128 + the signal, as a shell reports it. */
    assert_int_equal(run_sh("kill -KILL $$", env), 128 + SIGKILL);
    assert_int_equal(run_sh("kill -TERM $$", env), 128 + SIGTERM);

    char err[256];
    char *missing[] = {"gpulayer-no-such-program", NULL};
    assert_int_equal(gpl_runner_run(missing, env, err, sizeof err), 127);
    assert_non_null(strstr(err, "command not found"));
}

typedef struct signal_job {
    const char *ready;
    int sig;
} signal_job;

static void *send_when_ready(void *arg)
{
    const signal_job *job = arg;
    for (int i = 0; i < 500 && access(job->ready, F_OK) != 0; i++) usleep(10000);
    /* To the whole process, as `kill PID` of gpulayer run would. */
    kill(getpid(), job->sig);
    return NULL;
}

static void test_signals_are_forwarded(void **state)
{
    (void)state;
    static const int sigs[] = {SIGTERM, SIGINT};
    for (int k = 0; k < 2; k++) {
        char ready[512], script[1400];
        snprintf(ready, sizeof ready, "%s/ready-%d", gpl_test_tmpdir(), k);
        unlink(ready);
        /* The child traps the signal and exits 40 + its number, so the
         * status proves it received the forwarded signal. */
        snprintf(script, sizeof script,
                 "trap 'kill $p 2>/dev/null; exit $((40 + %d))' %s; sleep 10 & p=$!; "
                 "touch '%s'; wait",
                 sigs[k], sigs[k] == SIGTERM ? "TERM" : "INT", ready);
        signal_job job = {ready, sigs[k]};
        pthread_t thread;
        assert_int_equal(pthread_create(&thread, NULL, send_when_ready, &job), 0);
        char *env[] = {"PATH=/usr/bin:/bin", NULL};
        int code = run_sh(script, env);
        pthread_join(thread, NULL);
        assert_int_equal(code, 40 + sigs[k]);
    }
    /* The handlers are gone again: SIGTERM's default would end this test,
     * so only check that the disposition was restored. */
    struct sigaction sa;
    sigaction(SIGTERM, NULL, &sa);
    assert_true(sa.sa_handler == SIG_DFL);
}

static void test_find_on_path(void **state)
{
    (void)state;
    char path[1024];
    assert_true(gpl_find_on_path("sh", path, sizeof path));
    assert_non_null(strstr(path, "/sh"));
    assert_false(gpl_find_on_path("gpulayer-no-such-program", path, sizeof path));
    assert_true(gpl_find_on_path("/bin/sh", path, sizeof path));
    assert_true(gpl_self_exe(path, sizeof path));
    assert_non_null(strstr(path, "test_device_runner"));
}

static gpl_device gpu(int index, const char *id)
{
    gpl_device d;
    gpl_device_init(&d, "cuda", index);
    snprintf(d.stable_id, sizeof d.stable_id, "%s", id);
    d.memory_kind = GPULAYER_MEMORY_DEDICATED;
    d.memory_bytes = d.usable_bytes = 1ull << 34;
    return d;
}

static void test_rank_spec(void **state)
{
    (void)state;
    gpl_device devs[3] = {gpu(0, "GPU-a"), gpu(1, "GPU-b"), gpu(2, "")};
    devs[1].usable_bytes = 1ull << 33; /* placement takes 0, 2, then 1 */
    gpl_worker w = {"this host", devs, 3};
    gpl_request r;
    gpl_request_init(&r);
    assert_int_equal(gpl_request_parse("cuda,nproc=3", &r), GPULAYER_OK);
    gpl_decision d;
    assert_int_equal(gpl_place(&r, &w, 1, NULL, &d), GPULAYER_OK);
    char *spec = gpl_rank_spec_format(&d, &w);
    assert_string_equal(spec, "cuda:0=GPU-a,2,1=GPU-b");
    gpl_run_target t;
    assert_int_equal(gpl_rank_spec_parse(spec, 0, &t), GPULAYER_OK);
    assert_string_equal(t.accelerator, "cuda");
    assert_int_equal(t.index[0], 0);
    assert_string_equal(t.stable_id[0], "GPU-a");
    assert_int_equal(gpl_rank_spec_parse(spec, 1, &t), GPULAYER_OK);
    assert_int_equal(t.index[0], 2);
    assert_string_equal(t.stable_id[0], "");
    assert_int_equal(gpl_rank_spec_parse(spec, 2, &t), GPULAYER_OK);
    assert_string_equal(t.stable_id[0], "GPU-b");
    assert_int_equal(gpl_rank_spec_parse(spec, 3, &t), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "more ranks than gpulayer placed"));
    assert_int_equal(gpl_rank_spec_parse("garbage", 0, &t), GPULAYER_ERR_INVALID_ARGUMENT);
    free(spec);

    /* Rank 0's target from the decision itself. */
    assert_int_equal(gpl_run_target_of_rank(&d, &w, 2, &t), GPULAYER_OK);
    assert_int_equal(t.count, 1);
    assert_int_equal(t.index[0], 1);
    gpl_decision_release(&d);
}

static void test_launcher_rank(void **state)
{
    (void)state;
    static const char *const vars[] = {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                                       "SLURM_LOCALID", "PMIX_RANK", "PMI_RANK",
                                       "OMPI_COMM_WORLD_RANK"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) unsetenv(vars[i]);
    assert_int_equal(gpl_launcher_rank(), -1);
    assert_non_null(strstr(gpulayer_last_error(), "no MPI rank"));
    setenv("PMI_RANK", "5", 1);
    assert_int_equal(gpl_launcher_rank(), 5);
    setenv("OMPI_COMM_WORLD_LOCAL_RANK", "2", 1); /* local ranks win */
    assert_int_equal(gpl_launcher_rank(), 2);
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) unsetenv(vars[i]);
}

static void test_launch_argv(void **state)
{
    (void)state;
    char *extra[] = {"--oversubscribe"};
    char *cmd[] = {"python3", "train.py", NULL};
    char **argv = gpl_launch_argv("/usr/bin/mpirun", 4, extra, 1, "/opt/bin/gpulayer",
                                  "cpu:0,0,0,0", cmd);
    const char *want[] = {"/usr/bin/mpirun", "-np", "4", "--oversubscribe",
                          "/opt/bin/gpulayer", "run", "--rank-exec", "cpu:0,0,0,0", "--",
                          "python3", "train.py", NULL};
    for (int i = 0; want[i]; i++) assert_string_equal(argv[i], want[i]);
    assert_null(argv[11]);
    gpl_launch_argv_free(argv);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cuda_environment),
        cmocka_unit_test(test_cuda_without_uuid_maps_through_current_mask),
        cmocka_unit_test(test_other_accelerators_leave_cuda_alone),
        cmocka_unit_test(test_exit_status_passes_through),
        cmocka_unit_test(test_signals_are_forwarded),
        cmocka_unit_test(test_find_on_path),
        cmocka_unit_test(test_rank_spec),
        cmocka_unit_test(test_launcher_rank),
        cmocka_unit_test(test_launch_argv),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
