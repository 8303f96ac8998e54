/* test_device_support_matrix.c -- the support matrix: complete, consistent
 * with job validation, and identical to the table in
 * docs/support-matrix.md (this test fails when they drift). */
#include "test_util.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/request.h"
#include "device/support_matrix.h"

#define DOC_PATH GPL_SOURCE_DIR "/docs/support-matrix.md"

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    if (buf) buf[n] = '\0';
    fclose(f);
    return buf;
}

static void test_docs_match_code(void **state)
{
    (void)state;
    char *doc = read_all(DOC_PATH);
    if (!doc) fail_msg("cannot read %s", DOC_PATH);
    char *begin = strstr(doc, GPL_SUPPORT_MATRIX_BEGIN);
    char *end = strstr(doc, GPL_SUPPORT_MATRIX_END);
    if (!begin || !end || end < begin)
        fail_msg("%s lacks the markers around the generated table", DOC_PATH);
    begin += strlen(GPL_SUPPORT_MATRIX_BEGIN);
    if (*begin == '\n') begin++;
    *end = '\0';
    char *table = gpl_support_matrix_render(GPULAYER_RENDER_MARKDOWN);
    assert_non_null(table);
    if (strcmp(begin, table) != 0) {
        print_message("docs/support-matrix.md has:\n%s\nthe code renders:\n%s\n", begin, table);
        fail_msg("docs/support-matrix.md and src/device/support_matrix.c differ: replace "
                 "the table between the markers with `gpulayer support-matrix --markdown`");
    }
    free(table);
    free(doc);
}

static void test_every_combination_once(void **state)
{
    (void)state;
    const char *accels[] = {"cpu", "cuda", "mps", "vulkan"};
    assert_int_equal(gpl_support_table_len, 8);
    for (int a = 0; a < 4; a++)
        for (int j = 0; j < 2; j++) {
            int seen = 0;
            for (int i = 0; i < gpl_support_table_len; i++)
                seen += !strcmp(gpl_support_table[i].accelerator, accels[a]) &&
                        gpl_support_table[i].job == (gpulayer_job_kind)j;
            assert_int_equal(seen, 1);
            const gpl_support_entry *e = gpl_support_lookup(accels[a], (gpulayer_job_kind)j);
            assert_non_null(e);
            assert_true(strlen(e->note) > 10);
        }
    assert_null(gpl_support_lookup("tpu", GPULAYER_JOB_INDEPENDENT));
}

static void test_the_adr_rules(void **state)
{
    (void)state;
    assert_int_equal(gpl_support_lookup("mps", GPULAYER_JOB_DISTRIBUTED)->status, GPL_UNSUPPORTED);
    assert_non_null(strstr(gpl_support_lookup("mps", GPULAYER_JOB_DISTRIBUTED)->note,
                           "single-process"));
    assert_int_not_equal(gpl_support_lookup("cpu", GPULAYER_JOB_DISTRIBUTED)->status,
                         GPL_UNSUPPORTED);
    assert_int_not_equal(gpl_support_lookup("mps", GPULAYER_JOB_INDEPENDENT)->status,
                         GPL_UNSUPPORTED);
    /* No Mac has run this build: nothing about Metal may claim validation. */
    assert_int_not_equal(gpl_support_lookup("mps", GPULAYER_JOB_INDEPENDENT)->status,
                         GPL_SUPPORTED);
}

/* Validation refuses exactly the combinations the matrix marks unsupported. */
static void test_validation_follows_the_matrix(void **state)
{
    (void)state;
    for (int i = 0; i < gpl_support_table_len; i++) {
        const gpl_support_entry *e = &gpl_support_table[i];
        gpl_request r;
        gpl_request_init(&r);
        snprintf(r.accelerator, sizeof r.accelerator, "%s", e->accelerator);
        r.job = e->job;
        r.nproc = e->job == GPULAYER_JOB_DISTRIBUTED ? 2 : 1;
        gpulayer_status st = gpl_job_validate(&r);
        if (e->status == GPL_UNSUPPORTED) {
            assert_int_equal(st, GPULAYER_ERR_INVALID_ARGUMENT);
            assert_non_null(strstr(gpulayer_last_error(), e->note));
        } else {
            assert_int_equal(st, GPULAYER_OK);
        }
    }
}

static void test_json_and_text(void **state)
{
    (void)state;
    char *json = gpl_support_matrix_render(GPULAYER_RENDER_JSON);
    cJSON *root = cJSON_Parse(json);
    assert_non_null(root);
    cJSON *rows = cJSON_GetObjectItem(root, "matrix");
    assert_int_equal(cJSON_GetArraySize(rows), gpl_support_table_len);
    cJSON *row = cJSON_GetArrayItem(rows, 5);
    assert_string_equal(cJSON_GetObjectItem(row, "accelerator")->valuestring, "mps");
    assert_string_equal(cJSON_GetObjectItem(row, "job")->valuestring, "distributed");
    assert_string_equal(cJSON_GetObjectItem(row, "status")->valuestring, "unsupported");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "statuses")), 3);
    cJSON_Delete(root);
    free(json);

    char *text = gpl_support_matrix_render(GPULAYER_RENDER_TEXT);
    assert_non_null(strstr(text, "supported-not-validated-on-hardware"));
    assert_non_null(strstr(text, "ACCELERATOR"));
    free(text);

    char *out = NULL;
    size_t len = 0;
    assert_int_equal(gpulayer_support_matrix(GPULAYER_RENDER_MARKDOWN, &out, &len), GPULAYER_OK);
    assert_int_equal(len, strlen(out));
    assert_non_null(strstr(out, "| `mps` | distributed | unsupported |"));
    free(out);
    assert_int_equal(gpulayer_support_matrix((gpulayer_render_format)7, &out, &len),
                     GPULAYER_ERR_INVALID_ARGUMENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_docs_match_code),
        cmocka_unit_test(test_every_combination_once),
        cmocka_unit_test(test_the_adr_rules),
        cmocka_unit_test(test_validation_follows_the_matrix),
        cmocka_unit_test(test_json_and_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
