/* test_device_api.c -- the public device functions the gpulayer command is
 * built on: reports, requests from text and flags, placement decisions and
 * running a program on them, over fake probes (one CPU, two CUDA GPUs). */
#include "test_util.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "device/discovery.h"
#include "device/report.h"

#define UUID0 "GPU-11111111-2222-3333-4444-555555555555"
#define UUID1 "GPU-66666666-7777-8888-9999-000000000000"

static const char *const cpu_fake =
    "{\"protocol\":1,\"runtime\":\"cpu\",\"devices\":[{\"index\":0,\"name\":\"Test CPU\","
    "\"memory_kind\":\"host\",\"memory_bytes\":8589934592,\"usable_bytes\":4294967296,"
    "\"capabilities\":[\"cpu.x86_64\"],\"properties\":{}}],\"notes\":[]}";

static const char *const cuda_fake =
    "{\"protocol\":1,\"runtime\":\"cuda\",\"devices\":["
    "{\"index\":0,\"name\":\"Fake H200\",\"stable_id\":\"" UUID0 "\",\"memory_kind\":"
    "\"dedicated\",\"memory_bytes\":150000000000,\"usable_bytes\":140000000000,"
    "\"capabilities\":[\"cuda.sm_90\"],\"properties\":{}},"
    "{\"index\":1,\"name\":\"Fake H200\",\"stable_id\":\"" UUID1 "\",\"memory_kind\":"
    "\"dedicated\",\"memory_bytes\":150000000000,\"usable_bytes\":100000000000,"
    "\"capabilities\":[\"cuda.sm_90\"],\"properties\":{}}],\"notes\":[]}";

static const char *const metal_fake =
    "{\"protocol\":1,\"runtime\":\"metal\",\"devices\":[],\"notes\":[{\"kind\":"
    "\"not_macos\",\"message\":\"fake: not macOS\"}]}";

static int setup(void **state)
{
    (void)state;
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

static void test_reports(void **state)
{
    (void)state;
    const gpl_discovery *d = gpl_discovery_snapshot();
    assert_non_null(d);
    char *(*const internal[4])(const gpl_discovery *) = {gpl_devices_text, gpl_devices_json,
                                                         gpl_diagnose_text, gpl_diagnose_json};
    for (int i = 0; i < 4; i++) {
        gpulayer_render_format format = i % 2 ? GPULAYER_RENDER_JSON : GPULAYER_RENDER_TEXT;
        char *out = NULL;
        size_t len = 0;
        gpulayer_status st = i < 2 ? gpulayer_devices_report(format, &out, &len)
                                   : gpulayer_diagnose_report(format, &out, &len);
        assert_int_equal(st, GPULAYER_OK);
        assert_int_equal(len, strlen(out));
        char *want = internal[i](d);
        assert_string_equal(out, want);
        free(want);
        gpulayer_free_buffer(out);
    }
    char *out = NULL;
    assert_int_equal(gpulayer_devices_report(GPULAYER_RENDER_MARKDOWN, &out, NULL),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_null(out);
    assert_int_equal(gpulayer_diagnose_report((gpulayer_render_format)7, NULL, NULL),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    /* out may be NULL: only the length. */
    size_t len = 0;
    assert_int_equal(gpulayer_devices_report(GPULAYER_RENDER_TEXT, NULL, &len), GPULAYER_OK);
    assert_true(len > 0);
}

/* The decision as parsed JSON. */
static cJSON *decision_json(const gpulayer_placement *p)
{
    char *text = NULL;
    assert_int_equal(gpulayer_placement_render(p, GPULAYER_RENDER_JSON, &text, NULL),
                     GPULAYER_OK);
    cJSON *root = cJSON_Parse(text);
    assert_non_null(root);
    gpulayer_free_buffer(text);
    return root;
}

static void test_request_from_text_and_flags(void **state)
{
    (void)state;
    gpulayer_request *r;
    assert_int_equal(gpulayer_request_create(NULL, &r), GPULAYER_OK);
    char *argv[] = {"place", "--memory", "8G", "--capability=cuda.sm_90", "--json",
                    "--count", NULL};
    int argc = 6, took[6] = {0};
    for (int i = 1; i < argc; i++) {
        int at = i;
        took[at] = gpulayer_request_parse_flag(r, argc, argv, &i);
        if (took[at] < 0) break;
    }
    assert_int_equal(took[1], 1);
    assert_int_equal(took[3], 1);
    assert_int_equal(took[4], 0);              /* not a request flag */
    assert_int_equal(took[5], -1);             /* --count without a value */
    assert_non_null(strstr(gpulayer_last_error(), "--count needs a value"));
    assert_int_equal(gpulayer_request_parse(r, "cuda:1,count=1"), GPULAYER_OK);
    assert_int_equal(gpulayer_request_set(r, "memory_kind", "dedicated"), GPULAYER_OK);

    gpulayer_placement *p;
    assert_int_equal(gpulayer_placement_create(r, GPULAYER_PLACE_DEFAULT, &p), GPULAYER_OK);
    assert_true(gpulayer_placement_placed(p));
    cJSON *root = decision_json(p);
    cJSON *req = cJSON_GetObjectItem(root, "request");
    assert_string_equal(cJSON_GetObjectItem(req, "accelerator")->valuestring, "cuda");
    assert_int_equal(cJSON_GetObjectItem(req, "device_index")->valueint, 1);
    assert_int_equal((long long)cJSON_GetObjectItem(req, "min_memory_bytes")->valuedouble,
                     8LL << 30);
    assert_string_equal(cJSON_GetObjectItem(req, "memory_kind")->valuestring, "dedicated");
    cJSON *a = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "assignments"), 0);
    assert_string_equal(cJSON_GetObjectItem(a, "stable_id")->valuestring, UUID1);
    cJSON_Delete(root);
    gpulayer_placement_free(p);

    /* Bad items say why, and leave what came before them applied. */
    assert_int_equal(gpulayer_request_parse(r, "tpu"), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "unknown accelerator 'tpu'"));
    assert_int_equal(gpulayer_request_set(r, "colour", "blue"), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_int_equal(gpulayer_request_parse(r, "memory=lots"), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_int_equal(gpulayer_request_parse(r, NULL), GPULAYER_OK);
    gpulayer_request_free(r);

    /* A malformed base is refused with no request made. */
    gpulayer_device_request base;
    memset(&base, 0, sizeof base);
    base.accelerator = "cuda:x";
    assert_int_equal(gpulayer_request_create(&base, &r), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_null(r);
    gpulayer_request_free(NULL);
}

static void test_placement_decisions(void **state)
{
    (void)state;
    gpulayer_device_request base;
    memset(&base, 0, sizeof base);
    gpulayer_request *r;
    assert_int_equal(gpulayer_request_create(&base, &r), GPULAYER_OK);
    gpulayer_placement *p;
    assert_int_equal(gpulayer_placement_create(r, GPULAYER_PLACE_DEFAULT, &p), GPULAYER_OK);
    assert_non_null(strstr(gpulayer_placement_why(p), "auto: chose cuda:0 (Fake H200"));
    char *text = NULL;
    assert_int_equal(gpulayer_placement_render(p, GPULAYER_RENDER_TEXT, &text, NULL),
                     GPULAYER_OK);
    assert_non_null(strstr(text, "request: accelerator=auto\n"));
    assert_non_null(strstr(text, "cuda:0       chosen  (Fake H200)"));
    assert_non_null(strstr(text, "fits, but auto preferred cuda"));
    gpulayer_free_buffer(text);
    assert_int_equal(gpulayer_placement_render(p, GPULAYER_RENDER_MARKDOWN, &text, NULL),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    gpulayer_placement_free(p);

    /* Refused: a decision all the same, with the reasons and the notes. */
    assert_int_equal(gpulayer_request_parse(r, "mps,memory=8G"), GPULAYER_OK);
    assert_int_equal(gpulayer_placement_create(r, GPULAYER_PLACE_DEFAULT, &p),
                     GPULAYER_ERR_PLACEMENT);
    assert_non_null(p);
    assert_false(gpulayer_placement_placed(p));
    assert_non_null(strstr(gpulayer_last_error(), "the job needs mps, this device is cuda"));
    assert_int_equal(gpulayer_placement_render(p, GPULAYER_RENDER_TEXT, &text, NULL),
                     GPULAYER_OK);
    /* Rendering keeps the placement's message. */
    assert_non_null(strstr(gpulayer_last_error(), "the job needs mps"));
    assert_non_null(strstr(text, "refused: no device fits"));
    assert_non_null(strstr(text, "fake: not macOS"));
    gpulayer_free_buffer(text);
    cJSON *root = decision_json(p);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "considered")), 3);
    cJSON_Delete(root);
    gpulayer_placement_free(p);

    /* NARROW probes only the named runtime and the CPU. */
    assert_int_equal(gpulayer_placement_create(r, GPULAYER_PLACE_NARROW, &p),
                     GPULAYER_ERR_PLACEMENT);
    root = decision_json(p);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "considered")), 1);
    cJSON_Delete(root);
    gpulayer_placement_free(p);

    /* A job that can never run: invalid, with a decision saying why. */
    assert_int_equal(gpulayer_request_set(r, "nproc", "2"), GPULAYER_OK);
    assert_int_equal(gpulayer_placement_create(r, GPULAYER_PLACE_DEFAULT, &p),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(p);
    assert_non_null(strstr(gpulayer_placement_why(p), "single-process"));
    gpulayer_placement_free(p);
    gpulayer_request_free(r);

    assert_int_equal(gpulayer_placement_create(NULL, 0, &p), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_null(p);
    assert_false(gpulayer_placement_placed(NULL));
}

static gpulayer_placement *place_text(const char *text, gpulayer_status want)
{
    gpulayer_request *r;
    assert_int_equal(gpulayer_request_create(NULL, &r), GPULAYER_OK);
    assert_int_equal(gpulayer_request_parse(r, text), GPULAYER_OK);
    gpulayer_placement *p;
    assert_int_equal(gpulayer_placement_create(r, GPULAYER_PLACE_NARROW, &p), want);
    gpulayer_request_free(r);
    return p;
}

static void test_run_on_a_placement(void **state)
{
    (void)state;
    int code = -1;
    gpulayer_placement *p = place_text("cuda:1", GPULAYER_OK);
    char *check[] = {"sh", "-c",
                     "test \"$CUDA_VISIBLE_DEVICES|$GPULAYER_ACCELERATOR|$GPULAYER_DEVICE\" = "
                     "\"" UUID1 "|cuda|0\" || exit 3; exit 9",
                     NULL};
    assert_int_equal(gpulayer_placement_run(p, check, NULL, &code), GPULAYER_OK);
    assert_int_equal(code, 9);
    char *missing[] = {"gpulayer-no-such-program", NULL};
    assert_int_equal(gpulayer_placement_run(p, missing, NULL, &code),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_int_equal(code, 127);
    assert_non_null(strstr(gpulayer_last_error(), "command not found"));
    assert_int_equal(gpulayer_placement_run(p, NULL, NULL, &code), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_int_equal(code, 125);
    gpulayer_placement_free(p);

    /* Not placed: nothing runs. */
    p = place_text("mps", GPULAYER_ERR_PLACEMENT);
    char *never[] = {"sh", "-c", "exit 0", NULL};
    assert_int_equal(gpulayer_placement_run(p, never, NULL, &code), GPULAYER_ERR_PLACEMENT);
    assert_int_equal(code, 125);
    gpulayer_placement_free(p);

    /* Distributed: the launcher is given the ranks' command line. */
    char launcher[600], log[600], script[1400];
    snprintf(launcher, sizeof launcher, "%s/api-launcher", gpl_test_tmpdir());
    snprintf(log, sizeof log, "%s/api-launcher.log", gpl_test_tmpdir());
    snprintf(script, sizeof script, "#!/bin/sh\necho \"$@\" > '%s'\nexit 4\n", log);
    FILE *f = fopen(launcher, "w");
    assert_non_null(f);
    fputs(script, f);
    fclose(f);
    chmod(launcher, 0755);
    p = place_text("cuda,nproc=2", GPULAYER_OK);
    const char *extra[] = {"--oversubscribe"};
    gpulayer_run_options o = {launcher, extra, 1, "/opt/bin/gpulayer"};
    char *cmd[] = {"true", NULL};
    assert_int_equal(gpulayer_placement_run(p, cmd, &o, &code), GPULAYER_OK);
    assert_int_equal(code, 4);
    char line[1024] = "";
    f = fopen(log, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f));
    fclose(f);
    assert_string_equal(line, "-np 2 --oversubscribe /opt/bin/gpulayer run --rank-exec cuda:0="
                              UUID0 ",1=" UUID1 " -- true\n");
    o.launcher = "gpulayer-no-such-launcher";
    assert_int_equal(gpulayer_placement_run(p, cmd, &o, &code), GPULAYER_ERR_UNSUPPORTED);
    assert_int_equal(code, 125);
    assert_non_null(strstr(gpulayer_last_error(), "'gpulayer-no-such-launcher', which was not found"));
    gpulayer_placement_free(p);

    /* A rank outside a launcher says so. */
    unsetenv("OMPI_COMM_WORLD_LOCAL_RANK");
    assert_int_equal(gpulayer_run_rank("cpu:0", cmd), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "no MPI rank"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reports),
        cmocka_unit_test(test_request_from_text_and_flags),
        cmocka_unit_test(test_placement_decisions),
        cmocka_unit_test(test_run_on_a_placement),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
