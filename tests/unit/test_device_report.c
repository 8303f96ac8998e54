/* test_device_report.c -- the device table, the shareable diagnosis (no
 * host name, user name or UUID) and the public device API. */
#include "test_util.h"

#include <cjson/cJSON.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "device/discovery.h"
#include "device/redact.h"
#include "device/report.h"

static const char *const cpu_fake =
    "{\"protocol\":1,\"runtime\":\"cpu\",\"devices\":[{\"index\":0,\"name\":\"Test CPU\","
    "\"memory_kind\":\"host\",\"memory_bytes\":8589934592,\"usable_bytes\":4294967296,"
    "\"capabilities\":[\"cpu.x86_64\"],\"properties\":{\"cores\":\"4\"}}],\"notes\":[]}";

/* A Mac's GPU, and a CUDA note that carries a UUID and a home directory,
 * as real notes can (CUDA_VISIBLE_DEVICES, library paths). */
static char cuda_fake[2048];
static const char *const metal_fake =
    "{\"protocol\":1,\"runtime\":\"metal\",\"devices\":[{\"index\":0,\"name\":\"Apple M3\","
    "\"memory_kind\":\"unified\",\"memory_bytes\":34359738368,\"usable_bytes\":"
    "22906503168,\"capabilities\":[\"metal.apple9\",\"metal.apple7\"],\"properties\":"
    "{\"registry_id\":\"0x1000003c2\",\"max_threadgroup_memory\":\"32768\"}}],\"notes\":[]}";

static char host[256];
static char user[256];

static int setup(void **state)
{
    (void)state;
    gethostname(host, sizeof host);
    host[sizeof host - 1] = '\0';
    struct passwd *pw = getpwuid(getuid());
    snprintf(user, sizeof user, "%s", pw ? pw->pw_name : "nobody");
    const char *home = getenv("HOME") ? getenv("HOME") : "/home/someone";
    snprintf(cuda_fake, sizeof cuda_fake,
             "{\"protocol\":1,\"runtime\":\"cuda\",\"devices\":[{\"index\":0,\"name\":"
             "\"NVIDIA H200\",\"stable_id\":\"GPU-12345678-abcd-ef01-2345-6789abcdef01\","
             "\"memory_kind\":\"dedicated\",\"memory_bytes\":150000000000,\"usable_bytes\":"
             "149000000000,\"capabilities\":[\"cuda.sm_90\"],\"properties\":{"
             "\"compute_capability\":\"9.0\",\"driver_api_version\":\"13000\"}}],\"notes\":"
             "[{\"kind\":\"info\",\"message\":\"on %s as %s: %s/lib/libcuda.so.1 hides "
             "GPU-12345678-abcd-ef01-2345-6789abcdef01\"}]}",
             host, user, home);
    static gpl_probe_fake fakes[3];
    fakes[0] = (gpl_probe_fake){GPL_RT_CPU, cpu_fake, NULL};
    fakes[1] = (gpl_probe_fake){GPL_RT_CUDA, cuda_fake, NULL};
    fakes[2] = (gpl_probe_fake){GPL_RT_METAL, metal_fake, NULL};
    static gpl_discovery_fakes f;
    f = (gpl_discovery_fakes){fakes, 3, 0, NULL, NULL};
    gpl_discovery_install_fakes(&f);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    gpl_discovery_install_fakes(NULL);
    return 0;
}

static void assert_absent(const char *text, const char *secret, const char *what)
{
    if (strlen(secret) >= 2 && strstr(text, secret))
        fail_msg("the diagnosis shows the %s '%s':\n%s", what, secret, text);
}

static void test_redact(void **state)
{
    (void)state;
    char out[512];
    gpl_redact("GPU-12345678-abcd-ef01-2345-6789abcdef01 and 6d657361-3232-2e33-2e36-"
               "000000000000",
               out, sizeof out);
    assert_string_equal(out, "GPU-<uuid> and <uuid>");
    /* Not every hex run is a UUID. */
    gpl_redact("driver 0x00000001, 12345678-abcd", out, sizeof out);
    assert_string_equal(out, "driver 0x00000001, 12345678-abcd");
    char text[600];
    snprintf(text, sizeof text, "host %s user %s", host, user);
    gpl_redact(text, out, sizeof out);
    assert_absent(out, host, "host name");
    assert_non_null(strstr(out, "<host>"));
    /* Short names are replaced only as whole words. */
    gpl_redact("nvml", out, sizeof out);
    assert_string_equal(out, "nvml");
}

static void test_device_table(void **state)
{
    (void)state;
    const gpl_discovery *d = gpl_discovery_snapshot();
    assert_non_null(d);
    char *text = gpl_devices_text(d);
    assert_non_null(strstr(text, "cuda:0"));
    assert_non_null(strstr(text, "NVIDIA H200"));
    assert_non_null(strstr(text, "id GPU-12345678"));
    assert_non_null(strstr(text, "mps:0"));
    assert_non_null(strstr(text, "unified"));
    free(text);

    char *json = gpl_devices_json(d);
    cJSON *root = cJSON_Parse(json);
    assert_non_null(root);
    cJSON *devices = cJSON_GetObjectItem(root, "devices");
    assert_int_equal(cJSON_GetArraySize(devices), 3);
    cJSON *mps = cJSON_GetArrayItem(devices, 2);
    assert_string_equal(cJSON_GetObjectItem(mps, "accelerator")->valuestring, "mps");
    /* ADR 0001: unified, with host RAM as memory and the working set usable. */
    assert_string_equal(cJSON_GetObjectItem(mps, "memory_kind")->valuestring, "unified");
    assert_true(cJSON_GetObjectItem(mps, "memory_bytes")->valuedouble == 34359738368.0);
    assert_true(cJSON_GetObjectItem(mps, "usable_bytes")->valuedouble == 22906503168.0);
    cJSON *backend = cJSON_GetObjectItem(mps, "backend");
    assert_non_null(cJSON_GetObjectItem(backend, "built"));
    assert_non_null(cJSON_GetObjectItem(backend, "reason"));
    /* A built Vulkan backend adds "built but unavailable": no fake Vulkan device. */
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "notes")),
                     1 + gpl_backend_is_built("vulkan"));
    cJSON_Delete(root);
    free(json);
}

/* The CUDA architectures of a build with the CUDA backend are listed with
 * the devices and in the shareable summary. */
static void test_cuda_kernels_reported(void **state)
{
    (void)state;
    static gpl_build_info b;
    gpl_build_info_current(&b);
    b.built[GPL_RT_CUDA] = 1;
    gpl_build_set_cuda_archs(&b, "75-real;90-real;90-virtual");
    gpl_probe_fake fakes[] = {{GPL_RT_CPU, cpu_fake, NULL}, {GPL_RT_CUDA, cuda_fake, NULL}};
    gpl_discovery_fakes f = {fakes, 2, 0, &b, NULL};
    gpl_discovery_install_fakes(&f);
    const gpl_discovery *d = gpl_discovery_snapshot();
    const char *expected = "sm_75 sm_90 (SASS), compute_90 (PTX)";
    char *outputs[4] = {gpl_devices_text(d), gpl_devices_json(d), gpl_diagnose_text(d),
                        gpl_diagnose_json(d)};
    for (int i = 0; i < 4; i++) {
        assert_non_null(outputs[i]);
        if (!strstr(outputs[i], expected)) fail_msg("no '%s' in:\n%s", expected, outputs[i]);
        free(outputs[i]);
    }
    char *text = gpl_devices_text(d);
    assert_non_null(strstr(text, "cuda kernels: sm_75"));
    free(text);
    gpl_discovery_install_fakes(NULL);
    setup(state);
}

static void test_diagnose_shares_nothing_identifying(void **state)
{
    (void)state;
    const gpl_discovery *d = gpl_discovery_snapshot();
    const char *home = getenv("HOME");
    char *outputs[2] = {gpl_diagnose_text(d), gpl_diagnose_json(d)};
    for (int i = 0; i < 2; i++) {
        const char *text = outputs[i];
        assert_non_null(text);
        assert_absent(text, host, "host name");
        assert_absent(text, "12345678-abcd", "GPU UUID");
        assert_absent(text, "0x1000003c2", "Metal registry id");
        if (home && strlen(home) > 1) assert_absent(text, home, "home directory");
        /* What it is for is still there. */
        assert_non_null(strstr(text, "NVIDIA H200"));
        assert_non_null(strstr(text, "cuda.sm_90"));
        assert_non_null(strstr(text, "metal.apple9"));
        assert_non_null(strstr(text, "CUDA_VISIBLE_DEVICES"));
    }
    cJSON *root = cJSON_Parse(outputs[1]);
    assert_non_null(root);
    assert_non_null(cJSON_GetObjectItem(root, "backends_built"));
    assert_non_null(cJSON_GetObjectItem(root, "os"));
    cJSON_Delete(root);
    free(outputs[0]);
    free(outputs[1]);
}

static void test_public_api(void **state)
{
    (void)state;
    assert_int_equal(gpulayer_device_count(), 3);
    gpulayer_device_info info;
    assert_int_equal(gpulayer_device_get(1, &info), GPULAYER_OK);
    assert_string_equal(info.accelerator, "cuda");
    assert_string_equal(info.stable_id, "GPU-12345678-abcd-ef01-2345-6789abcdef01");
    assert_string_equal(info.capabilities, "cuda.sm_90");
    assert_int_equal(info.memory_kind, GPULAYER_MEMORY_DEDICATED);
    assert_int_equal(gpulayer_device_get(2, &info), GPULAYER_OK);
    assert_string_equal(info.capabilities, "metal.apple9 metal.apple7");
    assert_int_equal(info.memory_kind, GPULAYER_MEMORY_UNIFIED);
    assert_int_equal(gpulayer_device_get(3, &info), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_int_equal(gpulayer_device_get(0, NULL), GPULAYER_ERR_INVALID_ARGUMENT);

    char *json = NULL;
    size_t len = 0;
    assert_int_equal(gpulayer_devices_json(&json, &len), GPULAYER_OK);
    assert_int_equal(len, strlen(json));
    free(json);
    assert_int_equal(gpulayer_diagnose_json(&json, &len), GPULAYER_OK);
    assert_null(strstr(json, "12345678-abcd"));
    free(json);

    /* A placement through the public API, refused with every reason. */
    const char *caps[] = {"cuda.sm_90"};
    gpulayer_device_request r;
    memset(&r, 0, sizeof r);
    r.accelerator = "auto";
    r.memory_kind = GPULAYER_MEMORY_DEDICATED;
    r.capabilities = caps;
    r.num_capabilities = 1;
    assert_int_equal(gpulayer_place(&r, &json, &len), GPULAYER_OK);
    cJSON *root = cJSON_Parse(json);
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(root, "placed")));
    assert_string_equal(cJSON_GetObjectItem(root, "accelerator")->valuestring, "cuda");
    cJSON_Delete(root);
    free(json);

    r.accelerator = "mps";
    assert_int_equal(gpulayer_place(&r, &json, &len), GPULAYER_ERR_PLACEMENT);
    assert_non_null(strstr(gpulayer_last_error(), "unified memory shared with the CPU"));
    root = cJSON_Parse(json);
    assert_false(cJSON_IsTrue(cJSON_GetObjectItem(root, "placed")));
    assert_true(cJSON_GetArraySize(cJSON_GetObjectItem(root, "considered")) >= 2);
    cJSON_Delete(root);
    free(json);

    r.job_kind = GPULAYER_JOB_DISTRIBUTED;
    r.num_processes = 2;
    r.memory_kind = GPULAYER_MEMORY_ANY;
    r.num_capabilities = 0;
    assert_int_equal(gpulayer_place(&r, NULL, NULL), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "single-process"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_redact),
        cmocka_unit_test(test_device_table),
        cmocka_unit_test(test_cuda_kernels_reported),
        cmocka_unit_test(test_diagnose_shares_nothing_identifying),
        cmocka_unit_test(test_public_api),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
