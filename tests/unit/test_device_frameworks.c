/* test_device_frameworks.c -- the framework capabilities (torch.cuda,
 * torch.mps, mlx): the rules that turn the probe's facts into capabilities
 * and notes, placement refusals that name them, that plain discovery never
 * starts Python, and the probe's own failures (no interpreter, a hang). */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "device/discovery.h"
#include "device/framework.h"
#include "device/placement.h"
#include "device/timed_spawn.h"

#define FACTS(platform, torch, mlx)                                                  \
    "{\"protocol\":1,\"runtime\":\"frameworks\",\"python\":\"3.12.1\",\"executable\":" \
    "\"/usr/bin/python3\",\"platform\":\"" platform "\",\"torch\":" torch ",\"mlx\":" mlx "}"

#define MLX_MISSING                                                                   \
    "{\"imported\":false,\"missing\":true,\"error\":\"ModuleNotFoundError: No module " \
    "named 'mlx'\"}"
#define TORCH_CUDA_2                                                                  \
    "{\"imported\":true,\"version\":\"2.9.0\",\"cuda_version\":\"12.8\","             \
    "\"cuda_available\":true,\"cuda_device_count\":2,\"mps_built\":false,"            \
    "\"mps_available\":false}"
#define TORCH_CPU                                                                     \
    "{\"imported\":true,\"version\":\"2.9.0+cpu\",\"cuda_version\":null,"             \
    "\"cuda_available\":false,\"mps_built\":false,\"mps_available\":false}"

static const char *const cuda_three =
    "{\"protocol\":1,\"runtime\":\"cuda\",\"devices\":["
    "{\"index\":0,\"name\":\"GPU A\",\"memory_kind\":\"dedicated\",\"memory_bytes\":1e10,"
    "\"usable_bytes\":9e9,\"capabilities\":[\"cuda.sm_90\"]},"
    "{\"index\":1,\"name\":\"GPU B\",\"memory_kind\":\"dedicated\",\"memory_bytes\":1e10,"
    "\"usable_bytes\":9e9,\"capabilities\":[\"cuda.sm_90\"]},"
    "{\"index\":2,\"name\":\"GPU C\",\"memory_kind\":\"dedicated\",\"memory_bytes\":1e10,"
    "\"usable_bytes\":9e9,\"capabilities\":[\"cuda.sm_90\"]}],\"notes\":[]}";

static const char *const mps_one =
    "{\"protocol\":1,\"runtime\":\"metal\",\"devices\":[{\"index\":0,\"name\":\"Apple M2\","
    "\"memory_kind\":\"unified\",\"memory_bytes\":17179869184,\"usable_bytes\":11453251584,"
    "\"capabilities\":[\"metal.apple8\"]}],\"notes\":[]}";

static const char *const cpu_small =
    "{\"protocol\":1,\"runtime\":\"cpu\",\"devices\":[{\"index\":0,\"name\":\"Test CPU\","
    "\"memory_kind\":\"host\",\"memory_bytes\":8589934592,\"usable_bytes\":4294967296,"
    "\"capabilities\":[\"cpu.x86_64\"]}],\"notes\":[]}";

static int teardown(void **state)
{
    (void)state;
    gpl_discovery_install_fakes(NULL);
    unsetenv("GPULAYER_PYTHON");
    unsetenv("GPULAYER_FRAMEWORK_TIMEOUT_MS");
    return 0;
}

static void install(const char *frameworks)
{
    static const gpl_probe_fake probes[] = {
        {GPL_RT_CPU, NULL, NULL}, {GPL_RT_CUDA, NULL, NULL}, {GPL_RT_METAL, NULL, NULL}};
    static gpl_probe_fake fakes[3];
    memcpy(fakes, probes, sizeof fakes);
    fakes[0].output = cpu_small;
    fakes[1].output = cuda_three;
    fakes[2].output = mps_one;
    gpl_discovery_fakes f = {fakes, 3, 0, NULL, frameworks};
    gpl_discovery_install_fakes(&f);
}

static const gpl_note *find_note(const gpl_discovery *d, const char *runtime)
{
    for (int i = 0; i < d->num_notes; i++)
        if (!strcmp(d->notes[i].runtime, runtime)) return &d->notes[i];
    return NULL;
}

static void assert_note(const gpl_discovery *d, const char *runtime, gpl_note_kind kind,
                        const char *mention)
{
    const gpl_note *n = find_note(d, runtime);
    if (!n) {
        for (int i = 0; i < d->num_notes; i++)
            print_message("note: %s %s %s\n", d->notes[i].runtime,
                          gpl_note_kind_name(d->notes[i].kind), d->notes[i].message);
        fail_msg("no %s note", runtime);
    }
    if (n->kind != kind)
        fail_msg("%s note is %s, not %s: %s", runtime, gpl_note_kind_name(n->kind),
                 gpl_note_kind_name(kind), n->message);
    if (mention && !strstr(n->message, mention))
        fail_msg("note '%s' does not mention '%s'", n->message, mention);
}

static const gpl_device *device(const gpl_discovery *d, const char *accel, int index)
{
    for (int i = 0; i < d->num_devices; i++)
        if (!strcmp(d->devices[i].accelerator, accel) && d->devices[i].index == index)
            return &d->devices[i];
    fail_msg("no %s:%d", accel, index);
    return NULL;
}

/* Parses facts and applies them to the fake devices. */
static void discover_with(const char *facts, gpl_discovery *d)
{
    install(facts);
    assert_int_equal(gpl_discover(GPL_RT_ALL | GPL_DISCOVER_FRAMEWORKS, d), GPULAYER_OK);
}

static void test_torch_cuda_attaches_by_index(void **state)
{
    (void)state;
    gpl_discovery d = {0};
    discover_with(FACTS("linux", TORCH_CUDA_2, MLX_MISSING), &d);
    for (int i = 0; i < 2; i++) {
        const gpl_device *g = device(&d, "cuda", i);
        assert_true(gpl_device_has_cap(g, "torch.cuda"));
        assert_string_equal(gpl_device_prop(g, "torch.cuda"), "torch 2.9.0, CUDA 12.8");
    }
    const gpl_device *third = device(&d, "cuda", 2);
    assert_false(gpl_device_has_cap(third, "torch.cuda"));
    assert_string_equal(gpl_device_absent_why(third, "torch.cuda"),
                        "torch 2.9.0, CUDA 12.8 sees 2 cuda devices, not cuda:2");
    /* Not the CPU, not the Apple GPU. */
    assert_false(gpl_device_has_cap(device(&d, "cpu", 0), "torch.cuda"));
    assert_false(gpl_device_has_cap(device(&d, "mps", 0), "torch.cuda"));
    assert_note(&d, "torch.mps", GPL_NOTE_NOT_MACOS, "this Python runs on linux");
    assert_note(&d, "mlx", GPL_NOTE_LIBRARY_NOT_FOUND, "mlx is not installed for /usr/bin/python3");
    assert_null(find_note(&d, "torch.cuda"));
    gpl_discovery_release(&d);
}

static void test_torch_without_cuda(void **state)
{
    (void)state;
    gpl_discovery d = {0};
    discover_with(FACTS("linux", TORCH_CPU, MLX_MISSING), &d);
    assert_note(&d, "torch.cuda", GPL_NOTE_FRAMEWORK_NOT_BUILT,
                "torch 2.9.0+cpu was built without CUDA (torch.version.cuda is None)");
    const gpl_device *g = device(&d, "cuda", 0);
    assert_false(gpl_device_has_cap(g, "torch.cuda"));
    assert_non_null(strstr(gpl_device_absent_why(g, "torch.cuda"), "built without CUDA"));
    gpl_discovery_release(&d);
}

static void test_torch_cuda_built_but_unavailable(void **state)
{
    (void)state;
    gpl_discovery d = {0};
    discover_with(FACTS("linux",
                        "{\"imported\":true,\"version\":\"2.9.0\",\"cuda_version\":\"12.8\","
                        "\"cuda_available\":false,\"cuda_error\":\"CUDA driver initialization "
                        "failed\",\"mps_built\":false,\"mps_available\":false}",
                        MLX_MISSING),
                  &d);
    assert_note(&d, "torch.cuda", GPL_NOTE_RUNTIME_UNAVAILABLE,
                "built for CUDA 12.8 but torch.cuda.is_available() is False (CUDA driver "
                "initialization failed)");
    gpl_discovery_release(&d);
}

static void test_torch_missing_and_broken(void **state)
{
    (void)state;
    gpl_discovery d = {0};
    discover_with(FACTS("darwin",
                        "{\"imported\":false,\"missing\":true,\"error\":\"ModuleNotFoundError: "
                        "No module named 'torch'\"}",
                        MLX_MISSING),
                  &d);
    assert_note(&d, "torch", GPL_NOTE_LIBRARY_NOT_FOUND,
                "torch is not installed for /usr/bin/python3, Python 3.12.1");
    assert_non_null(strstr(gpl_device_absent_why(device(&d, "mps", 0), "torch.mps"),
                           "torch is not installed"));
    assert_non_null(strstr(gpl_device_absent_why(device(&d, "cuda", 0), "torch.cuda"),
                           "torch is not installed"));
    gpl_discovery_release(&d);

    d = (gpl_discovery){0};
    discover_with(FACTS("linux",
                        "{\"imported\":false,\"missing\":false,\"error\":\"OSError: libcudnn.so.9"
                        ": cannot open shared object file\"}",
                        MLX_MISSING),
                  &d);
    assert_note(&d, "torch", GPL_NOTE_RUNTIME_UNAVAILABLE,
                "torch is installed for /usr/bin/python3, Python 3.12.1 but failed to import "
                "(OSError: libcudnn.so.9");
    gpl_discovery_release(&d);
}

static void test_mps_cases(void **state)
{
    (void)state;
    gpl_discovery d = {0};
    discover_with(FACTS("darwin", TORCH_CPU, MLX_MISSING), &d);
    assert_note(&d, "torch.mps", GPL_NOTE_FRAMEWORK_NOT_BUILT,
                "torch.backends.mps.is_built() is False");
    gpl_discovery_release(&d);

    d = (gpl_discovery){0};
    discover_with(FACTS("darwin",
                        "{\"imported\":true,\"version\":\"2.9.0\",\"cuda_version\":null,"
                        "\"cuda_available\":false,\"mps_built\":true,\"mps_available\":false}",
                        "{\"imported\":true,\"version\":\"0.29.0\",\"default_device\":"
                        "\"Device(cpu, 0)\",\"gpu\":false}"),
                  &d);
    assert_note(&d, "torch.mps", GPL_NOTE_RUNTIME_UNAVAILABLE,
                "built with MPS but torch.backends.mps.is_available() is False");
    assert_note(&d, "mlx", GPL_NOTE_RUNTIME_UNAVAILABLE,
                "its default device is Device(cpu, 0), not the GPU");
    const gpl_device *gpu = device(&d, "mps", 0);
    assert_false(gpl_device_has_cap(gpu, "torch.mps"));
    assert_false(gpl_device_has_cap(gpu, "mlx"));
    gpl_discovery_release(&d);

    d = (gpl_discovery){0};
    discover_with(FACTS("darwin",
                        "{\"imported\":true,\"version\":\"2.9.0\",\"cuda_version\":null,"
                        "\"cuda_available\":false,\"mps_built\":true,\"mps_available\":true}",
                        "{\"imported\":true,\"version\":\"0.29.0\",\"default_device\":"
                        "\"Device(gpu, 0)\",\"gpu\":true}"),
                  &d);
    gpu = device(&d, "mps", 0);
    assert_true(gpl_device_has_cap(gpu, "torch.mps"));
    assert_true(gpl_device_has_cap(gpu, "mlx"));
    assert_string_equal(gpl_device_prop(gpu, "mlx"), "mlx 0.29.0");
    assert_false(gpl_device_has_cap(device(&d, "cuda", 0), "torch.mps"));
    assert_null(find_note(&d, "torch.mps"));
    gpl_discovery_release(&d);
}

static void test_garbage_output(void **state)
{
    (void)state;
    gpl_discovery d = {0};
    discover_with("Fatal Python error: init_fs_encoding", &d);
    assert_note(&d, "frameworks", GPL_NOTE_PROBE_FAILED, "Fatal Python error");
    assert_non_null(strstr(gpl_device_absent_why(device(&d, "mps", 0), "mlx"),
                           "wrote no result"));
    gpl_discovery_release(&d);
}

/* The refusal names the missing capability and the probe's note. */
static void test_refusal_names_capability_and_note(void **state)
{
    (void)state;
    install(FACTS("linux", TORCH_CPU, MLX_MISSING));
    gpl_request r;
    gpl_request_init(&r);
    assert_int_equal(gpl_request_parse("cuda,capability=torch.cuda", &r), GPULAYER_OK);
    gpl_discovery found = {0};
    gpl_decision dec;
    gpl_place_options opt = {0};
    assert_int_equal(gpl_place_local(&r, &opt, &found, &dec), GPULAYER_ERR_PLACEMENT);
    const char *err = gpulayer_last_error();
    assert_non_null(strstr(err, "cuda:0: lacks capability torch.cuda (has: cuda.sm_90): "
                                "torch 2.9.0+cpu was built without CUDA"));
    assert_non_null(strstr(err, "note (torch.cuda, framework_not_built)"));
    assert_null(strstr(err, "note (mlx")); /* not asked for */
    char *text = gpl_decision_text(&dec, &(gpl_worker){"this host", found.devices,
                                                      found.num_devices}, 1, &found);
    assert_non_null(strstr(text, "torch.cuda framework_not_built"));
    free(text);
    gpl_decision_release(&dec);
    gpl_discovery_release(&found);

    /* The same request placed where torch sees the GPUs. */
    install(FACTS("linux", TORCH_CUDA_2, MLX_MISSING));
    found = (gpl_discovery){0};
    assert_int_equal(gpl_place_local(&r, &opt, &found, &dec), GPULAYER_OK);
    assert_string_equal(dec.accelerator, "cuda");
    assert_int_equal(found.devices[dec.assignments[0].device].index, 0);
    gpl_decision_release(&dec);
    gpl_discovery_release(&found);

    /* mps with torch.mps, on a Mac whose torch lacks MPS. */
    install(FACTS("darwin", TORCH_CPU, MLX_MISSING));
    gpl_request_init(&r);
    assert_int_equal(gpl_request_parse("mps,capability=torch.mps", &r), GPULAYER_OK);
    found = (gpl_discovery){0};
    assert_int_equal(gpl_place_local(&r, &opt, &found, &dec), GPULAYER_ERR_PLACEMENT);
    assert_non_null(strstr(gpulayer_last_error(),
                           "mps:0: lacks capability torch.mps (has: metal.apple8): torch "
                           "2.9.0+cpu was built without MPS"));
    gpl_decision_release(&dec);
    gpl_discovery_release(&found);
}

static void test_python_only_when_asked(void **state)
{
    (void)state;
    install(FACTS("linux", TORCH_CUDA_2, MLX_MISSING));
    gpl_discovery d = {0};
    assert_int_equal(gpl_discover(GPL_RT_ALL, &d), GPULAYER_OK);
    assert_false(gpl_device_has_cap(device(&d, "cuda", 0), "torch.cuda"));
    gpl_discovery_release(&d);
    gpl_request r;
    gpl_request_init(&r);
    assert_int_equal(gpl_request_parse("cuda,capability=cuda.sm_80", &r), GPULAYER_OK);
    gpl_discovery found = {0};
    gpl_decision dec;
    assert_int_equal(gpl_place_local(&r, NULL, &found, &dec), GPULAYER_OK);
    gpl_decision_release(&dec);
    gpl_discovery_release(&found);
    assert_int_equal(gpl_discovery_framework_runs(), 0);

    assert_int_equal(gpl_request_parse("capability=torch.cuda", &r), GPULAYER_OK);
    found = (gpl_discovery){0};
    assert_int_equal(gpl_place_local(&r, NULL, &found, &dec), GPULAYER_OK);
    gpl_decision_release(&dec);
    gpl_discovery_release(&found);
    assert_int_equal(gpl_discovery_framework_runs(), 1);
    /* Cached for the process, like the other probes. */
    d = (gpl_discovery){0};
    assert_int_equal(gpl_discover(GPL_RT_ALL | GPL_DISCOVER_FRAMEWORKS, &d), GPULAYER_OK);
    assert_int_equal(gpl_discovery_framework_runs(), 1);
    gpl_discovery_release(&d);
}

static void test_no_interpreter(void **state)
{
    (void)state;
    install(NULL);
    setenv("GPULAYER_PYTHON", "/nonexistent/python3", 1);
    gpl_discovery d = {0};
    assert_int_equal(gpl_discover(GPL_RT_BIT(GPL_RT_CUDA) | GPL_DISCOVER_FRAMEWORKS, &d),
                     GPULAYER_OK);
    assert_note(&d, "frameworks", GPL_NOTE_PROBE_NOT_FOUND,
                "/nonexistent/python3 (GPULAYER_PYTHON) was not found");
    gpl_discovery_release(&d);
}

static void test_hanging_interpreter_is_killed(void **state)
{
    (void)state;
    char path[600];
    snprintf(path, sizeof path, "%s/hanging-python", gpl_test_tmpdir());
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("#!/bin/sh\nexec sleep 30\n", f);
    fclose(f);
    chmod(path, 0755);
    install(NULL);
    setenv("GPULAYER_PYTHON", path, 1);
    setenv("GPULAYER_FRAMEWORK_TIMEOUT_MS", "300", 1);
    long long start = gpl_now_ms();
    gpl_discovery d = {0};
    assert_int_equal(gpl_discover(GPL_RT_BIT(GPL_RT_METAL) | GPL_DISCOVER_FRAMEWORKS, &d),
                     GPULAYER_OK);
    long long took = gpl_now_ms() - start;
    if (took > 5000) fail_msg("the framework probe took %lld ms with a 300 ms limit", took);
    assert_note(&d, "frameworks", GPL_NOTE_PROBE_TIMEOUT, "did not finish within 300 ms");
    assert_non_null(strstr(gpl_device_absent_why(device(&d, "mps", 0), "torch.mps"),
                           "GPULAYER_FRAMEWORK_TIMEOUT_MS"));
    gpl_discovery_release(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_torch_cuda_attaches_by_index, teardown),
        cmocka_unit_test_teardown(test_torch_without_cuda, teardown),
        cmocka_unit_test_teardown(test_torch_cuda_built_but_unavailable, teardown),
        cmocka_unit_test_teardown(test_torch_missing_and_broken, teardown),
        cmocka_unit_test_teardown(test_mps_cases, teardown),
        cmocka_unit_test_teardown(test_garbage_output, teardown),
        cmocka_unit_test_teardown(test_refusal_names_capability_and_note, teardown),
        cmocka_unit_test_teardown(test_python_only_when_asked, teardown),
        cmocka_unit_test_teardown(test_no_interpreter, teardown),
        cmocka_unit_test_teardown(test_hanging_interpreter_is_killed, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
