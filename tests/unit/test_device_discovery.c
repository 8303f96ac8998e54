/* test_device_discovery.c -- discovery with fake probes: a runtime that is
 * available, built but unavailable, missing, with zero devices, a probe
 * that hangs past its time limit, one that crashes, one that writes
 * garbage; the per-process cache; what this build's backends make of each
 * device; the real probe program on this machine; the trainer's choice. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "device/discovery.h"
#include "device/placement.h"
#include "device/timed_spawn.h"

static const char *const cuda_two_gpus =
    "{\"protocol\":1,\"runtime\":\"cuda\",\"devices\":["
    "{\"index\":0,\"name\":\"NVIDIA H200\",\"stable_id\":\"GPU-aaaaaaaa-0000-0000-0000-"
    "000000000000\",\"memory_kind\":\"dedicated\",\"memory_bytes\":150000000000,"
    "\"usable_bytes\":149000000000,\"capabilities\":[\"cuda.sm_90\"],\"properties\":"
    "{\"compute_capability\":\"9.0\",\"driver_api_version\":\"12080\"}},"
    "{\"index\":1,\"name\":\"NVIDIA H200\",\"stable_id\":\"GPU-bbbbbbbb-0000-0000-0000-"
    "000000000000\",\"memory_kind\":\"dedicated\",\"memory_bytes\":150000000000,"
    "\"usable_bytes\":1000000000,\"capabilities\":[\"cuda.sm_90\"],\"properties\":"
    "{\"compute_capability\":\"9.0\",\"driver_api_version\":\"12080\"}}],\"notes\":[]}";

static const char *const cuda_old_driver =
    "{\"protocol\":1,\"runtime\":\"cuda\",\"devices\":["
    "{\"index\":0,\"name\":\"Tesla V100\",\"stable_id\":\"GPU-cccccccc-0000-0000-0000-"
    "000000000000\",\"memory_kind\":\"dedicated\",\"memory_bytes\":17000000000,"
    "\"usable_bytes\":16000000000,\"capabilities\":[\"cuda.sm_70\"],\"properties\":"
    "{\"compute_capability\":\"7.0\",\"driver_api_version\":\"11040\"}},"
    "{\"index\":1,\"name\":\"Tesla K80\",\"stable_id\":\"GPU-dddddddd-0000-0000-0000-"
    "000000000000\",\"memory_kind\":\"dedicated\",\"memory_bytes\":12000000000,"
    "\"usable_bytes\":11000000000,\"capabilities\":[\"cuda.sm_37\"],\"properties\":"
    "{\"compute_capability\":\"3.7\",\"driver_api_version\":\"12080\"}}],\"notes\":[]}";

static const char *const cuda_unavailable =
    "{\"protocol\":1,\"runtime\":\"cuda\",\"devices\":[],\"notes\":[{\"kind\":"
    "\"runtime_unavailable\",\"message\":\"the CUDA driver is present but unavailable: "
    "cuInit failed with CUDA_ERROR_UNKNOWN (999)\"}]}";

static const char *const cuda_missing =
    "{\"protocol\":1,\"runtime\":\"cuda\",\"devices\":[],\"notes\":[{\"kind\":"
    "\"library_not_found\",\"message\":\"libcuda.so.1 was not found\"}]}";

static const char *const cuda_zero =
    "{\"protocol\":1,\"runtime\":\"cuda\",\"devices\":[],\"notes\":[{\"kind\":"
    "\"no_visible_device\",\"message\":\"the NVIDIA driver is present but no CUDA device "
    "is visible: CUDA_VISIBLE_DEVICES is set but empty, which hides every device\"}]}";

static const char *const mps_m1 =
    "{\"protocol\":1,\"runtime\":\"metal\",\"devices\":[{\"index\":0,\"name\":\"Apple M1\","
    "\"memory_kind\":\"unified\",\"memory_bytes\":17179869184,\"usable_bytes\":11453251584,"
    "\"capabilities\":[\"metal.apple7\"]},{\"index\":1,\"name\":\"Apple A13\","
    "\"memory_kind\":\"unified\",\"memory_bytes\":4294967296,\"usable_bytes\":2147483648,"
    "\"capabilities\":[\"metal.apple6\"]}],\"notes\":[]}";

static const char *const cpu_small =
    "{\"protocol\":1,\"runtime\":\"cpu\",\"devices\":[{\"index\":0,\"name\":\"Test CPU\","
    "\"memory_kind\":\"host\",\"memory_bytes\":8589934592,\"usable_bytes\":4294967296,"
    "\"capabilities\":[\"cpu.x86_64\"],\"properties\":{\"cores\":\"4\"}}],\"notes\":[]}";

static gpl_build_info build_with(int cuda, int metal, int vulkan)
{
    gpl_build_info b;
    gpl_build_info_current(&b);
    b.built[GPL_RT_CPU] = 1;
    b.built[GPL_RT_CUDA] = cuda;
    b.built[GPL_RT_METAL] = metal;
    b.built[GPL_RT_VULKAN] = vulkan;
    b.cuda_min_driver = 12000;
    gpl_build_set_cuda_archs(&b, "50");
    return b;
}

static void install(const gpl_probe_fake *probes, int count, int timeout_ms,
                    const gpl_build_info *build)
{
    gpl_discovery_fakes f = {probes, count, timeout_ms, build, NULL};
    gpl_discovery_install_fakes(&f);
}

static int teardown(void **state)
{
    (void)state;
    gpl_discovery_install_fakes(NULL);
    return 0;
}

static const gpl_note *find_note(const gpl_discovery *d, const char *runtime,
                                 gpl_note_kind kind)
{
    for (int i = 0; i < d->num_notes; i++)
        if (!strcmp(d->notes[i].runtime, runtime) && d->notes[i].kind == kind)
            return &d->notes[i];
    return NULL;
}

static void assert_note(const gpl_discovery *d, const char *runtime, gpl_note_kind kind,
                        const char *mention)
{
    const gpl_note *n = find_note(d, runtime, kind);
    if (!n) {
        for (int i = 0; i < d->num_notes; i++)
            print_message("note: %s %s %s\n", d->notes[i].runtime,
                          gpl_note_kind_name(d->notes[i].kind), d->notes[i].message);
        fail_msg("no %s note of kind %s", runtime, gpl_note_kind_name(kind));
    }
    if (mention && !strstr(n->message, mention))
        fail_msg("note '%s' does not mention '%s'", n->message, mention);
}

static int count_accel(const gpl_discovery *d, const char *accel)
{
    int n = 0;
    for (int i = 0; i < d->num_devices; i++) n += !strcmp(d->devices[i].accelerator, accel);
    return n;
}

static void test_available(void **state)
{
    (void)state;
    gpl_probe_fake fakes[] = {{GPL_RT_CPU, cpu_small, NULL}, {GPL_RT_CUDA, cuda_two_gpus, NULL}};
    gpl_build_info b = build_with(1, 0, 0);
    install(fakes, 2, 0, &b);
    gpl_discovery d = {0};
    assert_int_equal(gpl_discover(GPL_RT_ALL, &d), GPULAYER_OK);
    assert_int_equal(d.num_devices, 3);
    assert_string_equal(d.devices[0].accelerator, "cpu"); /* runtime order */
    const gpl_device *g = &d.devices[1];
    assert_string_equal(g->accelerator, "cuda");
    assert_string_equal(g->name, "NVIDIA H200");
    assert_string_equal(g->stable_id, "GPU-aaaaaaaa-0000-0000-0000-000000000000");
    assert_int_equal(g->memory_kind, GPULAYER_MEMORY_DEDICATED);
    assert_true(g->memory_bytes == 150000000000ull);
    assert_true(g->usable_bytes == 149000000000ull);
    assert_true(gpl_device_has_cap(g, "cuda.sm_90"));
    assert_string_equal(gpl_device_prop(g, "compute_capability"), "9.0");
    assert_true(g->backend_built && g->backend_available);
    assert_string_equal(g->backend_reason, "");
    assert_int_equal(d.num_notes, 0);
    gpl_discovery_release(&d);
}

static void test_built_but_unavailable(void **state)
{
    (void)state;
    gpl_probe_fake fakes[] = {{GPL_RT_CPU, cpu_small, NULL}, {GPL_RT_CUDA, cuda_unavailable, NULL}};
    gpl_build_info b = build_with(1, 0, 0);
    install(fakes, 2, 0, &b);
    gpl_discovery d = {0};
    assert_int_equal(gpl_discover(GPL_RT_ALL, &d), GPULAYER_OK);
    assert_int_equal(count_accel(&d, "cuda"), 0);
    assert_note(&d, "cuda", GPL_NOTE_RUNTIME_UNAVAILABLE, "cuInit failed");
    assert_note(&d, "cuda", GPL_NOTE_BACKEND_UNAVAILABLE,
                "the cuda backend is built into this library but unavailable: the CUDA "
                "driver is present but unavailable");
    gpl_discovery_release(&d);
}

static void test_missing_runtime(void **state)
{
    (void)state;
    gpl_probe_fake fakes[] = {{GPL_RT_CPU, cpu_small, NULL}, {GPL_RT_CUDA, cuda_missing, NULL}};
    gpl_build_info b = build_with(0, 0, 0);
    install(fakes, 2, 0, &b);
    gpl_discovery d = {0};
    assert_int_equal(gpl_discover(GPL_RT_ALL, &d), GPULAYER_OK);
    assert_int_equal(d.num_devices, 1);
    assert_note(&d, "cuda", GPL_NOTE_LIBRARY_NOT_FOUND, "libcuda.so.1");
    /* Not built: no claim that a backend is unavailable. */
    assert_null(find_note(&d, "cuda", GPL_NOTE_BACKEND_UNAVAILABLE));
    gpl_discovery_release(&d);
}

static void test_zero_devices(void **state)
{
    (void)state;
    gpl_probe_fake fakes[] = {{GPL_RT_CUDA, cuda_zero, NULL}};
    install(fakes, 1, 0, NULL);
    gpl_discovery d = {0};
    assert_int_equal(gpl_discover(GPL_RT_BIT(GPL_RT_CUDA), &d), GPULAYER_OK);
    assert_int_equal(d.num_devices, 0);
    assert_note(&d, "cuda", GPL_NOTE_NO_VISIBLE_DEVICE, "CUDA_VISIBLE_DEVICES");
    gpl_discovery_release(&d);
}

static void test_hanging_probe_is_killed(void **state)
{
    (void)state;
    const char *const hang[] = {"/bin/sleep", "30", NULL};
    gpl_probe_fake fakes[] = {{GPL_RT_CPU, cpu_small, NULL}, {GPL_RT_VULKAN, NULL, hang}};
    install(fakes, 2, 300, NULL);
    long long start = gpl_now_ms();
    gpl_discovery d = {0};
    assert_int_equal(gpl_discover(GPL_RT_ALL, &d), GPULAYER_OK);
    long long took = gpl_now_ms() - start;
    if (took > 5000) fail_msg("discovery took %lld ms with a 300 ms limit", took);
    assert_int_equal(d.num_devices, 1); /* the CPU is still there */
    assert_note(&d, "vulkan", GPL_NOTE_PROBE_TIMEOUT, "did not finish within 300 ms");
    gpl_discovery_release(&d);
}

static void test_crashing_probe(void **state)
{
    (void)state;
    const char *const crash[] = {"/bin/sh", "-c", "echo segfaulting >&2; kill -SEGV $$", NULL};
    gpl_probe_fake fakes[] = {{GPL_RT_CPU, cpu_small, NULL}, {GPL_RT_CUDA, NULL, crash}};
    install(fakes, 2, 5000, NULL);
    gpl_discovery d = {0};
    assert_int_equal(gpl_discover(GPL_RT_ALL, &d), GPULAYER_OK);
    assert_int_equal(d.num_devices, 1);
    assert_note(&d, "cuda", GPL_NOTE_PROBE_CRASHED, "signal 11");
    assert_note(&d, "cuda", GPL_NOTE_PROBE_CRASHED, "segfaulting");
    gpl_discovery_release(&d);
}

static void test_failing_and_garbage_probes(void **state)
{
    (void)state;
    const char *const fails[] = {"/bin/sh", "-c", "echo broken >&2; exit 3", NULL};
    const char *const missing[] = {"/nonexistent/gpulayer-probe", "vulkan", NULL};
    gpl_probe_fake fakes[] = {{GPL_RT_CUDA, NULL, fails},
                              {GPL_RT_METAL, "this is not JSON", NULL},
                              {GPL_RT_VULKAN, NULL, missing}};
    install(fakes, 3, 5000, NULL);
    gpl_discovery d = {0};
    assert_int_equal(gpl_discover(GPL_RT_ALL, &d), GPULAYER_OK);
    assert_int_equal(d.num_devices, 0);
    assert_note(&d, "cuda", GPL_NOTE_PROBE_FAILED, "exited with status 3");
    assert_note(&d, "metal", GPL_NOTE_PROBE_FAILED, "this is not JSON");
    assert_note(&d, "vulkan", GPL_NOTE_PROBE_NOT_FOUND, "/nonexistent/gpulayer-probe");
    gpl_discovery_release(&d);
}

static void test_probe_program_output_is_parsed(void **state)
{
    (void)state;
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "printf '%%s' '%s'", cuda_two_gpus);
    const char *const print[] = {"/bin/sh", "-c", cmd, NULL};
    gpl_probe_fake fakes[] = {{GPL_RT_CUDA, NULL, print}};
    install(fakes, 1, 5000, NULL);
    gpl_discovery d = {0};
    assert_int_equal(gpl_discover(GPL_RT_BIT(GPL_RT_CUDA), &d), GPULAYER_OK);
    assert_int_equal(count_accel(&d, "cuda"), 2);
    gpl_discovery_release(&d);
}

/* A driver that hangs in its exit-time teardown, after the result is out. */
static void test_probe_hanging_after_its_result(void **state)
{
    (void)state;
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "printf '%%s' '%s'; exec sleep 30", cuda_two_gpus);
    const char *const print_then_hang[] = {"/bin/sh", "-c", cmd, NULL};
    gpl_probe_fake fakes[] = {{GPL_RT_CUDA, NULL, print_then_hang}};
    install(fakes, 1, 300, NULL);
    gpl_discovery d = {0};
    assert_int_equal(gpl_discover(GPL_RT_BIT(GPL_RT_CUDA), &d), GPULAYER_OK);
    assert_int_equal(count_accel(&d, "cuda"), 2);
    assert_note(&d, "cuda", GPL_NOTE_INFO, "hung and was killed after writing its result");
    gpl_discovery_release(&d);
}

static void test_results_are_cached(void **state)
{
    (void)state;
    gpl_probe_fake fakes[] = {{GPL_RT_CPU, cpu_small, NULL}, {GPL_RT_CUDA, cuda_two_gpus, NULL}};
    install(fakes, 2, 0, NULL);
    gpl_discovery a = {0}, b = {0}, c = {0};
    assert_int_equal(gpl_discover(GPL_RT_BIT(GPL_RT_CPU), &a), GPULAYER_OK);
    assert_int_equal(gpl_discovery_probe_runs(), 1);
    assert_int_equal(gpl_discover(GPL_RT_ALL, &b), GPULAYER_OK);
    int after_all = gpl_discovery_probe_runs();
    assert_int_equal(after_all, 2); /* only cuda was new; unlisted runtimes run nothing */
    assert_int_equal(gpl_discover(GPL_RT_ALL, &c), GPULAYER_OK);
    assert_int_equal(gpl_discovery_probe_runs(), after_all);
    assert_int_equal(b.num_devices, c.num_devices);
    const gpl_discovery *snap = gpl_discovery_snapshot();
    assert_non_null(snap);
    assert_int_equal(snap->num_devices, 3);
    assert_ptr_equal(snap, gpl_discovery_snapshot());
    assert_int_equal(gpl_discovery_probe_runs(), after_all);
    gpl_discovery_reset();
    gpl_discovery_release(&c);
    assert_int_equal(gpl_discover(GPL_RT_ALL, &c), GPULAYER_OK);
    assert_int_equal(gpl_discovery_probe_runs(), 2);
    gpl_discovery_release(&a);
    gpl_discovery_release(&b);
    gpl_discovery_release(&c);
}

static void test_driver_too_old_and_missing_family(void **state)
{
    (void)state;
    gpl_probe_fake fakes[] = {{GPL_RT_CUDA, cuda_old_driver, NULL}, {GPL_RT_METAL, mps_m1, NULL}};
    gpl_build_info b = build_with(1, 1, 0);
    install(fakes, 2, 0, &b);
    gpl_discovery d = {0};
    assert_int_equal(gpl_discover(GPL_RT_ALL, &d), GPULAYER_OK);
    assert_int_equal(d.num_devices, 4);
    const gpl_device *v100 = &d.devices[0], *k80 = &d.devices[1];
    assert_true(v100->backend_built);
    assert_false(v100->backend_available);
    assert_non_null(strstr(v100->backend_reason, "supports CUDA 11.4, older than the CUDA 12.0"));
    assert_note(&d, "cuda", GPL_NOTE_DRIVER_TOO_OLD, "cuda:0 (Tesla V100)");
    assert_false(k80->backend_available);
    assert_non_null(strstr(k80->backend_reason, "compute capability 3.7 (sm_37) is not covered by "
                                               "this build's CUDA kernels, built for sm_50 (SASS), "
                                               "compute_50 (PTX)"));
    assert_note(&d, "cuda", GPL_NOTE_BACKEND_UNAVAILABLE, "no device it can use");

    const gpl_device *m1 = &d.devices[2], *a13 = &d.devices[3];
    assert_string_equal(m1->accelerator, "mps");
    assert_int_equal(m1->memory_kind, GPULAYER_MEMORY_UNIFIED);
    assert_true(m1->backend_available);
    assert_false(a13->backend_available);
    assert_note(&d, "metal", GPL_NOTE_MISSING_GPU_FAMILY, "lacks metal.apple7");
    gpl_discovery_release(&d);
}

/* SASS runs on its major's same or newer minors, PTX on any newer device;
 * entries CMake resolves itself are skipped. */
static void test_cuda_architectures_covered(void **state)
{
    (void)state;
    gpl_build_info b = {0};
    gpl_build_set_cuda_archs(&b, "75-real;80-real;86-real;89-real;90-real;90-virtual");
    int covered[] = {75, 80, 86, 87, 89, 90, 100, 120}, uncovered[] = {37, 61, 70, 72};
    for (size_t i = 0; i < sizeof covered / sizeof *covered; i++)
        assert_true(gpl_build_covers_cuda(&b, covered[i]));
    for (size_t i = 0; i < sizeof uncovered / sizeof *uncovered; i++)
        assert_false(gpl_build_covers_cuda(&b, uncovered[i]));
    char text[256];
    gpl_build_cuda_archs_text(&b, text, sizeof text);
    assert_string_equal(text, "sm_75 sm_80 sm_86 sm_89 sm_90 (SASS), compute_90 (PTX)");

    gpl_build_set_cuda_archs(&b, "80-real,native");
    assert_true(gpl_build_covers_cuda(&b, 86));
    assert_false(gpl_build_covers_cuda(&b, 90)); /* no PTX: a new major needs SASS */
    assert_false(gpl_build_covers_cuda(&b, 75));
    gpl_build_cuda_archs_text(&b, text, sizeof text);
    assert_string_equal(text, "sm_80 (SASS)");

    gpl_build_set_cuda_archs(&b, "");
    assert_true(gpl_build_covers_cuda(&b, 30));
    gpl_build_cuda_archs_text(&b, text, sizeof text);
    assert_string_equal(text, "unknown");
}

static void test_not_built(void **state)
{
    (void)state;
    gpl_probe_fake fakes[] = {{GPL_RT_CUDA, cuda_two_gpus, NULL}};
    gpl_build_info b = build_with(0, 0, 0);
    install(fakes, 1, 0, &b);
    gpl_discovery d = {0};
    assert_int_equal(gpl_discover(GPL_RT_ALL, &d), GPULAYER_OK);
    assert_false(d.devices[0].backend_built);
    assert_false(d.devices[0].backend_available);
    assert_string_equal(d.devices[0].backend_reason,
                        "this library was built without the cuda backend");
    gpl_discovery_release(&d);
}

static void test_trainer_choice(void **state)
{
    (void)state;
    gpl_probe_fake fakes[] = {{GPL_RT_CPU, cpu_small, NULL}, {GPL_RT_CUDA, cuda_two_gpus, NULL}};
    gpl_build_info b = build_with(1, 0, 0);
    install(fakes, 2, 0, &b);
    char accel[16], reason[512];
    int index = -1;
    assert_int_equal(gpl_device_choose_backend("auto", accel, sizeof accel, &index, reason,
                                               sizeof reason),
                     GPULAYER_OK);
    assert_string_equal(accel, "cuda");
    assert_int_equal(index, 0); /* 149 GB free against 1 GB */
    assert_non_null(strstr(reason, "auto: chose cuda:0 (NVIDIA H200"));
    assert_non_null(strstr(reason, "because auto prefers cuda"));

    assert_int_equal(gpl_device_choose_backend(NULL, accel, sizeof accel, &index, NULL, 0),
                     GPULAYER_OK);
    assert_string_equal(accel, "cuda");
    assert_int_equal(gpl_device_choose_backend("cuda:1", accel, sizeof accel, &index, reason,
                                               sizeof reason),
                     GPULAYER_OK);
    assert_int_equal(index, 1);
    assert_int_equal(gpl_device_choose_backend("cpu", accel, sizeof accel, &index, reason,
                                               sizeof reason),
                     GPULAYER_OK);
    assert_string_equal(accel, "cpu");
    assert_int_equal(index, 0);

    /* Refusals carry every rejected device's reason. */
    assert_int_equal(gpl_device_choose_backend("cuda:2", accel, sizeof accel, &index, reason,
                                               sizeof reason),
                     GPULAYER_ERR_PLACEMENT);
    assert_non_null(strstr(gpulayer_last_error(), "cuda:0: the request names cuda:2"));
    assert_non_null(strstr(gpulayer_last_error(), "cuda:1: the request names cuda:2"));
    assert_non_null(strstr(gpulayer_last_error(), "cpu:0: the job needs cuda"));
    assert_int_equal(gpl_device_choose_backend("mps", accel, sizeof accel, &index, reason,
                                               sizeof reason),
                     GPULAYER_ERR_PLACEMENT);
    assert_non_null(strstr(gpulayer_last_error(), "built without the mps backend"));
    assert_int_equal(gpl_device_choose_backend("cuda,memory=200G", accel, sizeof accel,
                                               &index, reason, sizeof reason),
                     GPULAYER_ERR_PLACEMENT);
    assert_int_equal(gpl_device_choose_backend("tpu", accel, sizeof accel, &index, reason,
                                               sizeof reason),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_int_equal(gpl_device_choose_backend("cpu,nproc=2", accel, sizeof accel, &index,
                                               reason, sizeof reason),
                     GPULAYER_ERR_INVALID_ARGUMENT);

    /* A build without the CUDA backend: auto lands on the CPU, and says why. */
    b = build_with(0, 0, 0);
    install(fakes, 2, 0, &b);
    assert_int_equal(gpl_device_choose_backend("auto", accel, sizeof accel, &index, reason,
                                               sizeof reason),
                     GPULAYER_OK);
    assert_string_equal(accel, "cpu");
    assert_non_null(strstr(reason, "auto: chose cpu:0 (Test CPU"));
}

static void test_real_cpu_probe(void **state)
{
    (void)state;
    gpl_discovery_install_fakes(NULL);
    gpl_discovery d = {0};
    assert_int_equal(gpl_discover(GPL_RT_BIT(GPL_RT_CPU), &d), GPULAYER_OK);
    assert_int_equal(d.num_devices, 1);
    const gpl_device *cpu = &d.devices[0];
    assert_string_equal(cpu->accelerator, "cpu");
    assert_int_equal(cpu->memory_kind, GPULAYER_MEMORY_HOST);
    assert_true(cpu->memory_bytes > 0);
    assert_true(cpu->usable_bytes > 0 && cpu->usable_bytes <= cpu->memory_bytes);
    assert_true(atoi(gpl_device_prop(cpu, "cores")) >= 1);
    assert_true(cpu->backend_available);
    gpl_discovery_release(&d);
}

/* The gpulayer-probe program built beside the command, or NULL. */
static const char *probe_program(void)
{
    static char path[1024], tried[2048];
    return gpl_probe_locate(path, sizeof path, tried, sizeof tried) ? path : NULL;
}

static void test_real_probe_program(void **state)
{
    (void)state;
    const char *probe = probe_program();
    if (!probe) {
        print_message("skipped: gpulayer-probe is not built\n");
        skip();
    }
    /* Whatever this machine has, every runtime yields devices or notes. */
    gpl_discovery_install_fakes(NULL);
    gpl_discovery d = {0};
    assert_int_equal(gpl_discover(GPL_RT_ALL, &d), GPULAYER_OK);
    for (int rt = GPL_RT_CUDA; rt < GPL_RT_COUNT; rt++) {
        const char *name = gpl_runtime_name((gpl_runtime)rt);
        int said = count_accel(&d, gpl_runtime_accelerator((gpl_runtime)rt));
        for (int i = 0; i < d.num_notes; i++) said += !strcmp(d.notes[i].runtime, name);
        if (!said) fail_msg("the %s probe reported neither devices nor notes", name);
    }
#if !defined(__APPLE__)
    assert_note(&d, "metal", GPL_NOTE_NOT_MACOS, "not macOS");
#endif
    gpl_discovery_release(&d);
}

/* The CUDA toolkit's link-time stub stands in for libcuda.so.1: the probe
 * must recognise it (CUDA_ERROR_STUB_LIBRARY) instead of failing. */
static void test_real_probe_recognises_cuda_stub(void **state)
{
    (void)state;
    static const char *const stubs[] = {"/usr/local/cuda/lib64/stubs/libcuda.so",
                                        "/usr/local/cuda/lib/stubs/libcuda.so",
                                        "/usr/local/cuda-13.0/lib/stubs/libcuda.so",
                                        "/usr/local/cuda/targets/x86_64-linux/lib/stubs/libcuda.so"};
    const char *stub = NULL;
    for (size_t i = 0; i < sizeof stubs / sizeof stubs[0] && !stub; i++)
        if (access(stubs[i], R_OK) == 0) stub = stubs[i];
    const char *probe = probe_program();
    if (!stub || !probe) {
        print_message("skipped: %s\n", stub ? "gpulayer-probe is not built"
                                            : "no CUDA toolkit stub library here");
        skip();
    }
    char dir[512], link[600];
    snprintf(dir, sizeof dir, "%s/stubs", gpl_test_tmpdir());
    snprintf(link, sizeof link, "%s/libcuda.so.1", dir);
    mkdir(dir, 0700);
    unlink(link);
    assert_int_equal(symlink(stub, link), 0);
    char *old = getenv("LD_LIBRARY_PATH") ? strdup(getenv("LD_LIBRARY_PATH")) : NULL;
    setenv("LD_LIBRARY_PATH", dir, 1);
    const char *const argv[] = {probe, "cuda", NULL};
    gpl_probe_fake fakes[] = {{GPL_RT_CUDA, NULL, argv}};
    install(fakes, 1, 20000, NULL);
    gpl_discovery d = {0};
    assert_int_equal(gpl_discover(GPL_RT_BIT(GPL_RT_CUDA), &d), GPULAYER_OK);
    if (old) {
        setenv("LD_LIBRARY_PATH", old, 1);
        free(old);
    } else {
        unsetenv("LD_LIBRARY_PATH");
    }
    assert_int_equal(d.num_devices, 0);
    assert_note(&d, "cuda", GPL_NOTE_STUB_LIBRARY, "stub");
    gpl_discovery_release(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_available, teardown),
        cmocka_unit_test_teardown(test_built_but_unavailable, teardown),
        cmocka_unit_test_teardown(test_missing_runtime, teardown),
        cmocka_unit_test_teardown(test_zero_devices, teardown),
        cmocka_unit_test_teardown(test_hanging_probe_is_killed, teardown),
        cmocka_unit_test_teardown(test_crashing_probe, teardown),
        cmocka_unit_test_teardown(test_failing_and_garbage_probes, teardown),
        cmocka_unit_test_teardown(test_probe_program_output_is_parsed, teardown),
        cmocka_unit_test_teardown(test_probe_hanging_after_its_result, teardown),
        cmocka_unit_test_teardown(test_results_are_cached, teardown),
        cmocka_unit_test_teardown(test_driver_too_old_and_missing_family, teardown),
        cmocka_unit_test_teardown(test_not_built, teardown),
        cmocka_unit_test(test_cuda_architectures_covered),
        cmocka_unit_test_teardown(test_trainer_choice, teardown),
        cmocka_unit_test_teardown(test_real_cpu_probe, teardown),
        cmocka_unit_test_teardown(test_real_probe_program, teardown),
        cmocka_unit_test_teardown(test_real_probe_recognises_cuda_stub, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
