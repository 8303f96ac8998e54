/* test_device_cli.c -- the device subcommands of the gpulayer command, run
 * as a user would run them, over a fake probe program (GPULAYER_PROBE)
 * that reports two CUDA GPUs. Skipped when GPULAYER_CLI is not set. */
#include "test_util.h"

#include <cjson/cJSON.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend.h"
#include "device/timed_spawn.h"
#include "device/support_matrix.h"

extern char **environ;

#define UUID0 "GPU-11111111-2222-3333-4444-555555555555"
#define UUID1 "GPU-66666666-7777-8888-9999-000000000000"

static const char *const fake_probe =
    "#!/bin/sh\n"
    "# Stands in for gpulayer-probe: two CUDA GPUs, no Vulkan, no Metal.\n"
    "case \"$1\" in\n"
    "cuda) cat <<'EOF'\n"
    "{\"protocol\":1,\"runtime\":\"cuda\",\"devices\":["
    "{\"index\":0,\"name\":\"Fake H200\",\"stable_id\":\"" UUID0 "\",\"memory_kind\":"
    "\"dedicated\",\"memory_bytes\":150000000000,\"usable_bytes\":140000000000,"
    "\"capabilities\":[\"cuda.sm_90\"],\"properties\":{\"compute_capability\":\"9.0\","
    "\"driver_api_version\":\"13000\"}},"
    "{\"index\":1,\"name\":\"Fake H200\",\"stable_id\":\"" UUID1 "\",\"memory_kind\":"
    "\"dedicated\",\"memory_bytes\":150000000000,\"usable_bytes\":100000000000,"
    "\"capabilities\":[\"cuda.sm_90\"],\"properties\":{\"compute_capability\":\"9.0\","
    "\"driver_api_version\":\"13000\"}}],\"notes\":[]}\n"
    "EOF\n"
    ";;\n"
    "vulkan) [ -n \"$FAKE_PROBE_HANG\" ] && exec sleep 30\n"
    "  echo '{\"protocol\":1,\"runtime\":\"vulkan\",\"devices\":[],\"notes\":[{\"kind\":"
    "\"library_not_found\",\"message\":\"fake: no Vulkan loader\"}]}' ;;\n"
    "metal) echo '{\"protocol\":1,\"runtime\":\"metal\",\"devices\":[],\"notes\":[{\"kind\":"
    "\"not_macos\",\"message\":\"fake: not macOS\"}]}' ;;\n"
    "*) exit 2 ;;\n"
    "esac\n";

/* Runs one rank after another, as mpirun would run them side by side. */
static const char *const fake_mpirun =
    "#!/bin/sh\n"
    "[ \"$1\" = -np ] || exit 99\n"
    "n=$2; shift 2\n"
    "i=0\n"
    "while [ $i -lt $n ]; do\n"
    "  OMPI_COMM_WORLD_LOCAL_RANK=$i OMPI_COMM_WORLD_RANK=$i \"$@\" || exit $?\n"
    "  i=$((i + 1))\n"
    "done\n";

static char probe_path[512], bin_dir[512], env_prefix[2048];

static const char *cli(void)
{
    const char *p = getenv("GPULAYER_CLI");
    return p && access(p, X_OK) == 0 ? p : NULL;
}

static void write_script(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    chmod(path, 0755);
}

static int setup(void **state)
{
    (void)state;
    snprintf(probe_path, sizeof probe_path, "%s/fake-probe", gpl_test_tmpdir());
    write_script(probe_path, fake_probe);
    snprintf(bin_dir, sizeof bin_dir, "%s/bin", gpl_test_tmpdir());
    mkdir(bin_dir, 0755);
    char mpirun[600];
    snprintf(mpirun, sizeof mpirun, "%s/mpirun", bin_dir);
    write_script(mpirun, fake_mpirun);
    snprintf(env_prefix, sizeof env_prefix,
             "env -u CUDA_VISIBLE_DEVICES GPULAYER_PROBE='%s' GPULAYER_PROBE_TIMEOUT_MS=5000",
             probe_path);
    return 0;
}

typedef struct cli_result {
    int status;
    char out[65536];
} cli_result;

/* Runs `gpulayer ARGS` under the fake probe; stdout and stderr merged. */
static void run_cli(cli_result *r, const char *extra_env, const char *args)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "%s %s '%s' %s 2>&1", env_prefix, extra_env ? extra_env : "",
             cli(), args);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(r->out, 1, sizeof r->out - 1, p);
    r->out[n] = '\0';
    int status = pclose(p);
    r->status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#define NEED_CLI()                                                          \
    do {                                                                    \
        if (!cli()) {                                                       \
            print_message("skipped: GPULAYER_CLI does not name the built command\n"); \
            skip();                                                         \
        }                                                                   \
    } while (0)

static void assert_output_has(const cli_result *r, const char *part)
{
    if (!strstr(r->out, part)) fail_msg("output lacks '%s':\n%s", part, r->out);
}

static void test_help(void **state)
{
    (void)state;
    NEED_CLI();
    static cli_result r;
    const char *cmds[] = {"devices", "diagnose", "place", "run", "support-matrix"};
    for (int i = 0; i < 5; i++) {
        char args[64], want[64];
        snprintf(args, sizeof args, "%s --help", cmds[i]);
        run_cli(&r, NULL, args);
        assert_int_equal(r.status, 0);
        snprintf(want, sizeof want, "usage: gpulayer %s", cmds[i]);
        assert_output_has(&r, want);
    }
    run_cli(&r, NULL, "--help");
    assert_output_has(&r, "support-matrix");
    run_cli(&r, NULL, "devices --bogus");
    assert_int_equal(r.status, 2);
}

static void test_devices(void **state)
{
    (void)state;
    NEED_CLI();
    static cli_result r;
    run_cli(&r, NULL, "devices");
    assert_int_equal(r.status, 0);
    assert_output_has(&r, "cpu:0");
    assert_output_has(&r, "cuda:1");
    assert_output_has(&r, "Fake H200");
    assert_output_has(&r, "library_not_found");

    run_cli(&r, NULL, "devices --json");
    assert_int_equal(r.status, 0);
    cJSON *root = cJSON_Parse(r.out);
    if (!root) fail_msg("devices --json is not JSON:\n%s", r.out);
    cJSON *devices = cJSON_GetObjectItem(root, "devices");
    assert_int_equal(cJSON_GetArraySize(devices), 3);
    cJSON *gpu = cJSON_GetArrayItem(devices, 1);
    assert_string_equal(cJSON_GetObjectItem(gpu, "stable_id")->valuestring, UUID0);
    assert_string_equal(cJSON_GetObjectItem(gpu, "memory_kind")->valuestring, "dedicated");
    /* A built Vulkan backend adds "built but unavailable": no fake Vulkan device. */
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "notes")),
                     2 + gpl_backend_is_built("vulkan"));
    cJSON_Delete(root);
}

static void test_hanging_probe(void **state)
{
    (void)state;
    NEED_CLI();
    static cli_result r;
    long long start = gpl_now_ms();
    run_cli(&r, "FAKE_PROBE_HANG=1 GPULAYER_PROBE_TIMEOUT_MS=300", "devices");
    long long took = gpl_now_ms() - start;
    assert_int_equal(r.status, 0);
    assert_output_has(&r, "probe_timeout");
    assert_output_has(&r, "cuda:0"); /* the other probes still answered */
    if (took > 5000) fail_msg("devices took %lld ms with a 300 ms probe limit", took);
}

static void test_place(void **state)
{
    (void)state;
    NEED_CLI();
    static cli_result r;
    run_cli(&r, NULL, "place");
    assert_int_equal(r.status, 0);
    assert_output_has(&r, "auto: chose cuda:0 (Fake H200");
    assert_output_has(&r, "fits, but auto preferred cuda");

    run_cli(&r, NULL, "place cuda:1 --json");
    assert_int_equal(r.status, 0);
    cJSON *root = cJSON_Parse(r.out);
    assert_non_null(root);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(root, "placed")));
    cJSON *a = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "assignments"), 0);
    assert_string_equal(cJSON_GetObjectItem(a, "stable_id")->valuestring, UUID1);
    cJSON_Delete(root);

    run_cli(&r, NULL, "place --accelerator mps --memory 8G");
    assert_int_equal(r.status, 1);
    assert_output_has(&r, "refused");
    assert_output_has(&r, "the job needs mps, this device is cuda");
    assert_output_has(&r, "not macOS");

    run_cli(&r, NULL, "place --accelerator cpu --memory-kind dedicated");
    assert_int_equal(r.status, 1);
    assert_output_has(&r, "host's memory");

    run_cli(&r, NULL, "place --accelerator mps --nproc 2");
    assert_int_equal(r.status, 1);
    assert_output_has(&r, "single-process");

    run_cli(&r, NULL, "place --accelerator cpu --nproc 4");
    assert_int_equal(r.status, 0);
    assert_output_has(&r, "chosen for ranks 0,1,2,3");

    run_cli(&r, NULL, "place --capability cuda.sm_100 --capability cuda.sm_90");
    assert_int_equal(r.status, 1);
    assert_output_has(&r, "lacks capability cuda.sm_100");

    run_cli(&r, NULL, "place --memory lots");
    assert_int_equal(r.status, 2);
    run_cli(&r, NULL, "place cuda mps");
    assert_int_equal(r.status, 2);
}

static void test_run_sets_the_device(void **state)
{
    (void)state;
    NEED_CLI();
    static cli_result r;
    run_cli(&r, NULL,
            "run cuda -- sh -c 'echo \"[$CUDA_VISIBLE_DEVICES|$GPULAYER_ACCELERATOR|"
            "$GPULAYER_DEVICE|$GPULAYER_DEVICE_ID]\"'");
    assert_int_equal(r.status, 0);
    assert_output_has(&r, "[" UUID0 "|cuda|0|" UUID0 "]");

    run_cli(&r, NULL, "run --accelerator cuda:1 -- sh -c 'echo \"[$CUDA_VISIBLE_DEVICES]\"'");
    assert_output_has(&r, "[" UUID1 "]");

    run_cli(&r, NULL, "run cuda,count=2 -v -- sh -c 'echo \"[$CUDA_VISIBLE_DEVICES]\"'");
    assert_output_has(&r, "[" UUID0 "," UUID1 "]");
    assert_output_has(&r, "cuda requested: chose 2 cuda devices");

    run_cli(&r, NULL, "run cpu -- sh -c 'echo \"[$GPULAYER_ACCELERATOR:$GPULAYER_DEVICE]\"'");
    assert_output_has(&r, "[cpu:0]");
}

static void test_run_refuses_with_reasons(void **state)
{
    (void)state;
    NEED_CLI();
    static cli_result r;
    run_cli(&r, NULL, "run --accelerator mps -- echo should-not-run");
    assert_int_equal(r.status, 125);
    assert_output_has(&r, "refused");
    assert_output_has(&r, "cpu:0        the job needs mps, this device is cpu");
    assert_output_has(&r, "not macOS");
    if (strstr(r.out, "should-not-run")) fail_msg("the command ran:\n%s", r.out);

    run_cli(&r, NULL, "run --memory 1T -- true");
    assert_int_equal(r.status, 125);
    assert_output_has(&r, "the request needs 1.0 TiB");

    run_cli(&r, NULL, "run cuda");
    assert_int_equal(r.status, 125);
    assert_output_has(&r, "no command given");
}

static void test_run_passes_status_through(void **state)
{
    (void)state;
    NEED_CLI();
    static cli_result r;
    run_cli(&r, NULL, "run -- sh -c 'exit 9'");
    assert_int_equal(r.status, 9);
    run_cli(&r, NULL, "run -- sh -c 'kill -KILL $$'");
    assert_int_equal(r.status, 128 + SIGKILL);
    run_cli(&r, NULL, "run -- gpulayer-no-such-program");
    assert_int_equal(r.status, 127);
}

static void test_run_forwards_sigterm(void **state)
{
    (void)state;
    NEED_CLI();
    char ready[600], out[600], script[2048];
    snprintf(ready, sizeof ready, "%s/run-ready", gpl_test_tmpdir());
    snprintf(out, sizeof out, "%s/run-out", gpl_test_tmpdir());
    unlink(ready);
    snprintf(script, sizeof script,
             "trap 'echo got-term > \"%s\"; kill $p; exit 7' TERM; sleep 10 & p=$!; "
             "touch '%s'; wait",
             out, ready);
    char *argv[] = {(char *)cli(), "run", "cpu", "--", "sh", "-c", script, NULL};
    setenv("GPULAYER_PROBE", probe_path, 1);
    pid_t pid;
    assert_int_equal(posix_spawn(&pid, cli(), NULL, NULL, argv, environ), 0);
    for (int i = 0; i < 500 && access(ready, F_OK) != 0; i++) usleep(10000);
    assert_int_equal(access(ready, F_OK), 0);
    kill(pid, SIGTERM);
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    unsetenv("GPULAYER_PROBE");
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 7);
    assert_int_equal(access(out, F_OK), 0);
}

static void test_run_distributed(void **state)
{
    (void)state;
    NEED_CLI();
    static cli_result r;
    char extra[1200], args[1200], log[600];
    snprintf(log, sizeof log, "%s/ranks.log", gpl_test_tmpdir());
    unlink(log);
    snprintf(extra, sizeof extra, "PATH='%s':\"$PATH\"", bin_dir);
    snprintf(args, sizeof args,
             "run cuda --nproc 2 -- sh -c 'echo \"$OMPI_COMM_WORLD_RANK $CUDA_VISIBLE_DEVICES "
             "$GPULAYER_DEVICE\" >> \"%s\"'",
             log);
    run_cli(&r, extra, args);
    if (r.status != 0) fail_msg("status %d:\n%s", r.status, r.out);
    FILE *f = fopen(log, "r");
    assert_non_null(f);
    char lines[2][256] = {"", ""};
    assert_non_null(fgets(lines[0], sizeof lines[0], f));
    assert_non_null(fgets(lines[1], sizeof lines[1], f));
    fclose(f);
    /* One GPU per rank, each with its own UUID. */
    assert_string_equal(lines[0], "0 " UUID0 " 0\n");
    assert_string_equal(lines[1], "1 " UUID1 " 0\n");

    /* Three ranks do not fit two GPUs. */
    run_cli(&r, extra, "run cuda --nproc 3 -- true");
    assert_int_equal(r.status, 125);
    assert_output_has(&r, "only 2 fit");

    /* Distributed cpu is fine; distributed mps never is. */
    run_cli(&r, extra, "run cpu --nproc 3 -- sh -c 'test $GPULAYER_ACCELERATOR = cpu'");
    assert_int_equal(r.status, 0);
    run_cli(&r, extra, "run mps --nproc 2 -- true");
    assert_int_equal(r.status, 125);
    assert_output_has(&r, "single-process");

    /* No launcher: a clear error, no home-made cluster manager. */
    run_cli(&r, NULL, "run cpu --nproc 2 --launcher gpulayer-no-such-launcher -- true");
    assert_int_equal(r.status, 125);
    assert_output_has(&r, "launcher 'gpulayer-no-such-launcher', which was not found");
    run_cli(&r, "PATH=/nonexistent", "run cpu --nproc 2 -- true");
    assert_int_equal(r.status, 125);
    assert_output_has(&r, "'mpirun', which was not found on PATH");

    /* A rank started outside a launcher says so. */
    run_cli(&r, NULL, "run --rank-exec cpu:0 -- true");
    assert_int_equal(r.status, 125);
    assert_output_has(&r, "no MPI rank");
}

static void test_support_matrix_command(void **state)
{
    (void)state;
    NEED_CLI();
    static cli_result r;
    run_cli(&r, NULL, "support-matrix --markdown");
    assert_int_equal(r.status, 0);
    char *table = gpl_support_matrix_render(GPULAYER_RENDER_MARKDOWN);
    assert_string_equal(r.out, table);
    free(table);
    run_cli(&r, NULL, "support-matrix --json");
    cJSON *root = cJSON_Parse(r.out);
    assert_non_null(root);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "matrix")), 8);
    cJSON_Delete(root);
    run_cli(&r, NULL, "support-matrix");
    assert_output_has(&r, "supported-not-validated-on-hardware");
}

static void test_diagnose_command(void **state)
{
    (void)state;
    NEED_CLI();
    static cli_result r;
    char host[256] = "";
    gethostname(host, sizeof host);
    host[sizeof host - 1] = '\0';
    const char *args[] = {"diagnose", "diagnose --json"};
    for (int i = 0; i < 2; i++) {
        run_cli(&r, "CUDA_VISIBLE_DEVICES=" UUID1, args[i]);
        assert_int_equal(r.status, 0);
        assert_output_has(&r, "Fake H200");
        assert_output_has(&r, "cuda.sm_90");
        if (strstr(r.out, "11111111-2222") || strstr(r.out, "66666666-7777"))
            fail_msg("diagnose shows a GPU UUID:\n%s", r.out);
        if (strlen(host) >= 4 && strstr(r.out, host))
            fail_msg("diagnose shows the host name '%s':\n%s", host, r.out);
    }
    cJSON *root = cJSON_Parse(r.out);
    assert_non_null(root);
    cJSON_Delete(root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_devices),
        cmocka_unit_test(test_hanging_probe),
        cmocka_unit_test(test_place),
        cmocka_unit_test(test_run_sets_the_device),
        cmocka_unit_test(test_run_refuses_with_reasons),
        cmocka_unit_test(test_run_passes_status_through),
        cmocka_unit_test(test_run_forwards_sigterm),
        cmocka_unit_test(test_run_distributed),
        cmocka_unit_test(test_support_matrix_command),
        cmocka_unit_test(test_diagnose_command),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
