/* cmd_explain.c -- `gpulayer explain`: SHAP values of a data file's rows
 * under a saved model, written as CSV a block of rows at a time (an
 * interaction matrix a row is too large to hold for every row), into a
 * temporary file renamed over the output at the end, so that a failed
 * run leaves no half-written file. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_file.h"
#include "cli_util.h"
#include "commands.h"
#include "gpulayer.h"

/* Values a block holds at most: rows are grouped up to this many. */
#define EXPLAIN_BLOCK_VALUES (1 << 20)

static void explain_usage(FILE *out)
{
    fprintf(out,
"usage: gpulayer explain --model FILE --data FILE [options]\n"
"\n"
"Writes each row's SHAP values as CSV: one column a feature and a last\n"
"column 'bias', summing to the row's margin (for several outputs, each\n"
"output's columns in turn, named NAME[k]). Computed on the CPU unless\n"
"--device names a GPU, which gives the same values bit for bit.\n"
"\n"
"  --model FILE     a model saved by 'gpulayer train'\n"
"  --data FILE      CSV, TSV (optionally .gz) or LibSVM, read as 'gpulayer\n"
"                   predict' reads it (--label, --qid, --format, --no-header,\n"
"                   --bad-numbers, --base-margin likewise)\n"
"  --output FILE    where to write (default: standard output)\n"
"  --approx         Saabas' approximation instead of exact TreeSHAP\n"
"  --interactions   SHAP interaction values: a column for each pair of\n"
"                   features (and bias), named A:B\n"
"  --rounds N       use only the first N rounds (as predict)\n"
"  --nthread N      CPU threads (default: all cores)\n"
"  --device D       cpu (default), cuda[:N], vulkan[:N] or auto\n");
}

typedef struct explain_options {
    cli_model_options m;
    int approx, interactions;
} explain_options;

static int parse_args(int argc, char **argv, explain_options *o)
{
    enum { OPT_APPROX = CLI_OPT_OWN, OPT_INTERACTIONS };
    static const struct option longopts[] = {
        CLI_MODEL_LONGOPTS,
        {"approx", no_argument, 0, OPT_APPROX},
        {"interactions", no_argument, 0, OPT_INTERACTIONS},
        {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, CLI_MODEL_SHORTOPTS, longopts, NULL)) != -1) {
        const int taken = cli_model_option("explain", c, optarg, &o->m);
        if (taken == 2) return 2;
        if (taken) continue;
        switch (c) {
        case OPT_APPROX: o->approx = 1; break;
        case OPT_INTERACTIONS: o->interactions = 1; break;
        case 'h': explain_usage(stdout); return -1;
        default: explain_usage(stderr); return 2;
        }
    }
    const int rc = cli_model_options_check("explain", argc, argv, &o->m);
    if (rc) return rc;
    if (o->approx && o->interactions) {
        fprintf(stderr, "gpulayer explain: --approx applies to contributions, not to "
                        "--interactions\n");
        return 2;
    }
    return 0;
}

/* Writes a header cell: feature f's name (f == F: "bias"), quoted when
 * the name needs it. */
static void put_name(FILE *out, const gpulayer_booster *b, int32_t f, int32_t F)
{
    const char *name = f == F ? "bias" : gpulayer_booster_feature_name(b, f);
    if (!name || !name[0]) {
        fprintf(out, "f%d", (int)f);
        return;
    }
    if (!strpbrk(name, ",\"\n\r")) {
        fputs(name, out);
        return;
    }
    fputc('"', out);
    for (const char *p = name; *p; p++) {
        if (*p == '"') fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
}

static void write_header(FILE *out, const gpulayer_booster *b, int32_t K, int interactions)
{
    const int32_t F = gpulayer_booster_num_features(b), C = F + 1;
    for (int32_t k = 0; k < K; k++)
        for (int32_t i = 0; i < (interactions ? C : 1); i++)
            for (int32_t j = 0; j < C; j++) {
                if (k || i || j) fputc(',', out);
                if (interactions) {
                    put_name(out, b, i, F);
                    fputc(':', out);
                }
                put_name(out, b, j, F);
                if (K > 1) fprintf(out, "[%d]", (int)k);
            }
    fputc('\n', out);
}

/* The values of ds's rows, a block at a time, after the header. */
static int write_values(FILE *out, const gpulayer_booster *b, const gpulayer_dataset *ds,
                        const explain_options *o)
{
    const int32_t K = gpulayer_booster_prediction_width(b, GPULAYER_PREDICT_MARGIN);
    const int64_t C = (int64_t)gpulayer_booster_num_features(b) + 1;
    const int64_t width = K * (o->interactions ? C * C : C);
    const int64_t N = gpulayer_dataset_num_rows(ds);
    /* A device takes larger blocks: each is one job with the model's copy. */
    const int on_device = o->m.device && strcmp(o->m.device, "cpu") != 0;
    int64_t block = (on_device ? 16 * EXPLAIN_BLOCK_VALUES : EXPLAIN_BLOCK_VALUES) / width;
    if (block < 1) block = 1;
    float *values = malloc(sizeof(float) * (size_t)(block * width));
    if (!values) {
        fprintf(stderr, "gpulayer explain: out of memory\n");
        return 1;
    }
    write_header(out, b, K, o->interactions);
    int rc = 0;
    for (int64_t start = 0; start < N && !rc; start += block) {
        const int64_t n = N - start < block ? N - start : block;
        gpulayer_dataset *rows = NULL;
        gpulayer_status st = gpulayer_dataset_select_rows(ds, start, n, &rows);
        const char *device = o->m.device ? o->m.device : "cpu";
        if (st == GPULAYER_OK)
            st = o->interactions
                     ? gpulayer_booster_predict_interactions_device(b, rows, device, 0,
                                                                    o->m.rounds, values,
                                                                    n * width)
                     : gpulayer_booster_predict_contribs_device(
                           b, rows, device, o->approx ? GPULAYER_CONTRIBS_APPROX : 0,
                           o->m.rounds, values, n * width);
        gpulayer_dataset_free(rows);
        if (st != GPULAYER_OK) {
            rc = cli_fail("explain", NULL);
            break;
        }
        for (int64_t r = 0; r < n; r++)
            for (int64_t k = 0; k < width; k++)
                fprintf(out, "%.9g%c", (double)values[r * width + k],
                        k + 1 < width ? ',' : '\n');
        if (ferror(out)) {
            perror(o->m.output ? o->m.output : "standard output");
            rc = 1;
        }
    }
    free(values);
    return rc;
}

typedef struct explain_job {
    const gpulayer_booster *b;
    const gpulayer_dataset *ds;
    const explain_options *o;
} explain_job;

static int emit_values(FILE *out, void *user)
{
    const explain_job *job = user;
    return write_values(out, job->b, job->ds, job->o);
}

int cmd_explain(int argc, char **argv)
{
    explain_options o;
    memset(&o, 0, sizeof o);
    int rc = parse_args(argc, argv, &o);
    if (rc) return rc < 0 ? 0 : rc;
    gpulayer_booster *b = NULL;
    gpulayer_dataset *ds = NULL;
    if (gpulayer_booster_load(o.m.model, &b) != GPULAYER_OK) return cli_fail("explain", NULL);
    if (o.m.nthread && gpulayer_booster_set_param(b, "nthread", o.m.nthread) != GPULAYER_OK) {
        cli_fail("explain", "--nthread"); /* the parameter's own check of the text */
        rc = 2;
        goto done;
    }
    if ((rc = cli_read_model_options_data("explain", b, &o.m, &ds)))
        goto done;
    if (o.m.output) {
        explain_job job = {b, ds, &o};
        rc = cli_write_file_atomic("explain", "--output", o.m.output, emit_values, &job);
    } else {
        rc = write_values(stdout, b, ds, &o);
        if (fflush(stdout) != 0 && !rc) {
            perror("standard output");
            rc = 1;
        }
    }
done:
    gpulayer_dataset_free(ds);
    gpulayer_booster_free(b);
    return rc;
}
