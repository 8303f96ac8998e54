/* support_matrix.c -- the support table and its renderings. */
#include "support_matrix.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

const gpl_support_entry gpl_support_table[] = {
    {"cpu", GPULAYER_JOB_INDEPENDENT, GPL_SUPPORTED,
     "the reference backend; runs in CI on every platform"},
    {"cpu", GPULAYER_JOB_DISTRIBUTED, GPL_SUPPORTED,
     "ranks start through mpirun, on every platform, Macs included; CI trains "
     "on 1, 2 and 3 Open MPI ranks of one host and compares the models"},
    {"cuda", GPULAYER_JOB_INDEPENDENT, GPL_SUPPORTED,
     "CUDA_VISIBLE_DEVICES set to the device's UUID; validated on an NVIDIA "
     "H200 (tests/hardware/run_cuda_smoke.sh, tests/conformance/test_cuda_*)"},
    {"cuda", GPULAYER_JOB_DISTRIBUTED, GPL_SUPPORTED,
     "one GPU per rank through mpirun, each rank's CUDA_VISIBLE_DEVICES set to "
     "its GPU's UUID, or ranks sharing a GPU named with an index; the trainer "
     "sums histograms over MPI through host memory; validated with 2 and 3 "
     "ranks sharing one NVIDIA H200 (tests/hardware/run_cuda_dist.sh), not yet "
     "on several GPUs"},
    {"mps", GPULAYER_JOB_INDEPENDENT, GPL_SUPPORTED_NOT_VALIDATED,
     "the Apple GPU through Metal, unified memory; not yet run on a Mac"},
    {"mps", GPULAYER_JOB_DISTRIBUTED, GPL_UNSUPPORTED,
     "single-process rule (ADR 0001): the Apple GPU serves one process; run "
     "distributed cpu jobs on Macs instead"},
    {"vulkan", GPULAYER_JOB_INDEPENDENT, GPL_SUPPORTED,
     "the program selects the device named by GPULAYER_DEVICE; the trainer's "
     "Vulkan backend is tested on lavapipe (Mesa's CPU driver) in CI and ran "
     "its conformance tests on an NVIDIA H200 through NVIDIA's driver"},
    {"vulkan", GPULAYER_JOB_DISTRIBUTED, GPL_SUPPORTED_NOT_VALIDATED,
     "one GPU per rank through mpirun; each rank selects GPULAYER_DEVICE; the "
     "trainer's Vulkan backend cannot yet train across ranks (it refuses)"},
};
const int gpl_support_table_len =
    (int)(sizeof gpl_support_table / sizeof gpl_support_table[0]);

const char *gpl_support_status_name(gpl_support_status status)
{
    switch (status) {
    case GPL_SUPPORTED: return "supported";
    case GPL_UNSUPPORTED: return "unsupported";
    case GPL_SUPPORTED_NOT_VALIDATED: return "supported-not-validated-on-hardware";
    }
    return "unsupported";
}

const char *gpl_job_kind_name(gpulayer_job_kind job)
{
    return job == GPULAYER_JOB_DISTRIBUTED ? "distributed" : "independent";
}

const gpl_support_entry *gpl_support_lookup(const char *accelerator,
                                            gpulayer_job_kind job)
{
    for (int i = 0; i < gpl_support_table_len; i++)
        if (accelerator && !strcmp(gpl_support_table[i].accelerator, accelerator) &&
            gpl_support_table[i].job == job)
            return &gpl_support_table[i];
    return NULL;
}

static char *render_text(void)
{
    gpl_strbuf sb;
    gpl_strbuf_init(&sb);
    gpl_strbuf_printf(&sb, "%-12s %-12s %-36s %s\n", "ACCELERATOR", "JOB", "STATUS", "NOTE");
    for (int i = 0; i < gpl_support_table_len; i++) {
        const gpl_support_entry *e = &gpl_support_table[i];
        gpl_strbuf_printf(&sb, "%-12s %-12s %-36s %s\n", e->accelerator,
                          gpl_job_kind_name(e->job), gpl_support_status_name(e->status),
                          e->note);
    }
    return gpl_strbuf_take(&sb);
}

static char *render_markdown(void)
{
    gpl_strbuf sb;
    gpl_strbuf_init(&sb);
    gpl_strbuf_printf(&sb, "| accelerator | job | status | note |\n");
    gpl_strbuf_printf(&sb, "|---|---|---|---|\n");
    for (int i = 0; i < gpl_support_table_len; i++) {
        const gpl_support_entry *e = &gpl_support_table[i];
        gpl_strbuf_printf(&sb, "| `%s` | %s | %s | %s |\n", e->accelerator,
                          gpl_job_kind_name(e->job), gpl_support_status_name(e->status),
                          e->note);
    }
    return gpl_strbuf_take(&sb);
}

static char *render_json(void)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *statuses = cJSON_AddArrayToObject(root, "statuses");
    for (int s = GPL_SUPPORTED; s <= GPL_SUPPORTED_NOT_VALIDATED; s++)
        cJSON_AddItemToArray(statuses,
                             cJSON_CreateString(gpl_support_status_name((gpl_support_status)s)));
    cJSON *rows = cJSON_AddArrayToObject(root, "matrix");
    for (int i = 0; i < gpl_support_table_len; i++) {
        const gpl_support_entry *e = &gpl_support_table[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "accelerator", e->accelerator);
        cJSON_AddStringToObject(o, "job", gpl_job_kind_name(e->job));
        cJSON_AddStringToObject(o, "status", gpl_support_status_name(e->status));
        cJSON_AddStringToObject(o, "note", e->note);
        cJSON_AddItemToArray(rows, o);
    }
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}

char *gpl_support_matrix_render(gpulayer_render_format format)
{
    switch (format) {
    case GPULAYER_RENDER_JSON: return render_json();
    case GPULAYER_RENDER_MARKDOWN: return render_markdown();
    case GPULAYER_RENDER_TEXT: break;
    }
    return render_text();
}
