/* test_device_request.c -- requests in text and flag form, memory sizes,
 * and job validation (distributed mps refused, distributed cpu accepted). */
#include "bytes.h"
#include "test_util.h"

#include <string.h>

#include "device/request.h"

static gpl_request parsed(const char *text)
{
    gpl_request r;
    gpl_request_init(&r);
    assert_int_equal(gpl_request_parse(text, &r), GPULAYER_OK);
    return r;
}

static void assert_parse_fails(const char *text, const char *mention)
{
    gpl_request r;
    gpl_request_init(&r);
    assert_int_equal(gpl_request_parse(text, &r), GPULAYER_ERR_INVALID_ARGUMENT);
    if (!strstr(gpulayer_last_error(), mention))
        fail_msg("error for '%s' is '%s', which does not mention '%s'", text,
                 gpulayer_last_error(), mention);
}

static void test_bytes(void **state)
{
    (void)state;
    uint64_t v;
    assert_int_equal(gpl_parse_bytes("8G", &v), GPULAYER_OK);
    assert_true(v == 8ull << 30);
    assert_int_equal(gpl_parse_bytes("512M", &v), GPULAYER_OK);
    assert_true(v == 512ull << 20);
    assert_int_equal(gpl_parse_bytes("1.5GiB", &v), GPULAYER_OK);
    assert_true(v == 3ull << 29);
    assert_int_equal(gpl_parse_bytes("8GB", &v), GPULAYER_OK);
    assert_true(v == 8000000000ull);
    assert_int_equal(gpl_parse_bytes("4096", &v), GPULAYER_OK);
    assert_true(v == 4096);
    assert_int_equal(gpl_parse_bytes("2 t", &v), GPULAYER_OK);
    assert_true(v == 2ull << 40);
    assert_int_equal(gpl_parse_bytes("8X", &v), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "unknown unit"));
    assert_int_equal(gpl_parse_bytes("-1G", &v), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_int_equal(gpl_parse_bytes("", &v), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_int_equal(gpl_parse_bytes("G", &v), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_int_equal(gpl_parse_bytes("1e30T", &v), GPULAYER_ERR_INVALID_ARGUMENT);
}

static void test_defaults(void **state)
{
    (void)state;
    gpl_request r;
    gpl_request_init(&r);
    assert_string_equal(r.accelerator, "auto");
    assert_int_equal(r.device_index, -1);
    assert_int_equal(r.count, 1);
    assert_int_equal(r.nproc, 1);
    assert_int_equal(r.job, GPULAYER_JOB_INDEPENDENT);
    assert_int_equal(r.memory_kind, GPULAYER_MEMORY_ANY);
    assert_int_equal(gpl_job_validate(&r), GPULAYER_OK);
}

static void test_text_form(void **state)
{
    (void)state;
    gpl_request r = parsed("cuda:1");
    assert_string_equal(r.accelerator, "cuda");
    assert_int_equal(r.device_index, 1);

    r = parsed(" auto , memory=8G,memory_kind=dedicated,capability=cuda.sm_90,"
               "capability=cuda.sm_90,count=2");
    assert_string_equal(r.accelerator, "auto");
    assert_true(r.min_memory == 8ull << 30);
    assert_int_equal(r.memory_kind, GPULAYER_MEMORY_DEDICATED);
    assert_int_equal(r.num_caps, 1); /* duplicates collapse */
    assert_string_equal(r.caps[0], "cuda.sm_90");
    assert_int_equal(r.count, 2);

    r = parsed("CPU,nproc=4");
    assert_string_equal(r.accelerator, "cpu");
    assert_int_equal(r.job, GPULAYER_JOB_DISTRIBUTED);
    assert_int_equal(r.nproc, 4);

    r = parsed("accelerator=mps,memory_kind=unified");
    assert_string_equal(r.accelerator, "mps");
    assert_int_equal(r.memory_kind, GPULAYER_MEMORY_UNIFIED);

    r = parsed("");
    assert_string_equal(r.accelerator, "auto");
}

static void test_text_form_errors(void **state)
{
    (void)state;
    assert_parse_fails("gpu", "unknown accelerator");
    assert_parse_fails("auto:1", "auto takes no device index");
    assert_parse_fails("cuda:x", "device index");
    assert_parse_fails("memory=lots", "memory size");
    assert_parse_fails("memory_kind=host", "any, dedicated or unified");
    assert_parse_fails("count=0", "positive whole number");
    assert_parse_fails("nproc=-2", "positive whole number");
    assert_parse_fails("colour=blue", "unknown request item 'colour'");
}

static void test_flags(void **state)
{
    (void)state;
    char *argv[] = {"place", "--accelerator", "cuda:0", "--memory=24G", "--memory-kind",
                    "dedicated", "--capability", "cuda.sm_80", "--capability=x.y",
                    "--count", "2", "--json", NULL};
    int argc = 12;
    gpl_request r;
    gpl_request_init(&r);
    int took = 0, other = 0;
    for (int i = 1; i < argc; i++) {
        int t = gpl_request_flag(&r, argc, argv, &i);
        assert_true(t >= 0);
        took += t;
        other += !t;
    }
    assert_int_equal(took, 6);
    assert_int_equal(other, 1); /* --json is not a request flag */
    assert_string_equal(r.accelerator, "cuda");
    assert_int_equal(r.device_index, 0);
    assert_true(r.min_memory == 24ull << 30);
    assert_int_equal(r.num_caps, 2);
    assert_int_equal(r.count, 2);

    char *missing[] = {"run", "--nproc", NULL};
    int i = 1;
    assert_int_equal(gpl_request_flag(&r, 2, missing, &i), -1);
    assert_non_null(strstr(gpulayer_last_error(), "--nproc needs a value"));
    /* --nproc-something is not --nproc */
    char *longer[] = {"run", "--nprocs", "2", NULL};
    i = 1;
    assert_int_equal(gpl_request_flag(&r, 3, longer, &i), 0);
}

static void test_distributed_mps_is_refused(void **state)
{
    (void)state;
    gpl_request r = parsed("mps,nproc=2");
    assert_int_equal(gpl_job_validate(&r), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "single-process"));
    /* Even a single rank: a distributed job is one that goes through MPI. */
    r = parsed("mps,nproc=1");
    assert_int_equal(gpl_job_validate(&r), GPULAYER_ERR_INVALID_ARGUMENT);
    /* An independent mps job is fine. */
    r = parsed("mps");
    assert_int_equal(gpl_job_validate(&r), GPULAYER_OK);
}

static void test_distributed_cpu_is_accepted(void **state)
{
    (void)state;
    gpl_request r = parsed("cpu,nproc=8");
    assert_int_equal(gpl_job_validate(&r), GPULAYER_OK);
    /* Ranks may share the CPU, even named by index. */
    r = parsed("cpu:0,nproc=8");
    assert_int_equal(gpl_job_validate(&r), GPULAYER_OK);
}

static void test_other_validation(void **state)
{
    (void)state;
    gpl_request r = parsed("cuda,nproc=2,count=2");
    assert_int_equal(gpl_job_validate(&r), GPULAYER_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(gpulayer_last_error(), "one device per process"));
    r = parsed("cuda:0,nproc=2");
    assert_int_equal(gpl_job_validate(&r), GPULAYER_ERR_INVALID_ARGUMENT);
    r = parsed("cuda,nproc=2");
    assert_int_equal(gpl_job_validate(&r), GPULAYER_OK);
    gpl_request_init(&r);
    r.nproc = 3; /* independent with three processes */
    assert_int_equal(gpl_job_validate(&r), GPULAYER_ERR_INVALID_ARGUMENT);
}

static void test_public_request(void **state)
{
    (void)state;
    const char *caps[] = {"cuda.sm_80"};
    gpulayer_device_request in;
    memset(&in, 0, sizeof in);
    gpl_request r;
    assert_int_equal(gpl_request_from_public(&in, &r), GPULAYER_OK);
    assert_string_equal(r.accelerator, "auto");
    assert_int_equal(r.count, 1);
    in.accelerator = "cuda:2";
    in.min_memory_bytes = 1234;
    in.memory_kind = GPULAYER_MEMORY_DEDICATED;
    in.capabilities = caps;
    in.num_capabilities = 1;
    in.job_kind = GPULAYER_JOB_DISTRIBUTED;
    in.num_processes = 2;
    assert_int_equal(gpl_request_from_public(&in, &r), GPULAYER_OK);
    assert_string_equal(r.accelerator, "cuda");
    assert_int_equal(r.device_index, 2);
    assert_true(r.min_memory == 1234);
    assert_int_equal(r.nproc, 2);
    in.memory_kind = GPULAYER_MEMORY_HOST;
    assert_int_equal(gpl_request_from_public(&in, &r), GPULAYER_ERR_INVALID_ARGUMENT);
    in.memory_kind = GPULAYER_MEMORY_ANY;
    in.num_capabilities = 1;
    in.capabilities = NULL;
    assert_int_equal(gpl_request_from_public(&in, &r), GPULAYER_ERR_INVALID_ARGUMENT);
}

static void test_describe(void **state)
{
    (void)state;
    gpl_request r = parsed("cuda:1,memory=8G,memory_kind=dedicated,capability=cuda.sm_90");
    char text[256];
    gpl_request_describe(&r, text, sizeof text);
    assert_string_equal(text, "accelerator=cuda:1, memory>=8.0 GiB, memory_kind=dedicated, "
                              "capability=cuda.sm_90");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bytes),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_text_form),
        cmocka_unit_test(test_text_form_errors),
        cmocka_unit_test(test_flags),
        cmocka_unit_test(test_distributed_mps_is_refused),
        cmocka_unit_test(test_distributed_cpu_is_accepted),
        cmocka_unit_test(test_other_validation),
        cmocka_unit_test(test_public_request),
        cmocka_unit_test(test_describe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
