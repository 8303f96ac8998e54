/* cmd_predict.c -- `gpulayer predict`: apply a saved model to a data file. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_file.h"
#include "cli_util.h"
#include "commands.h"
#include "gpulayer.h"

static void predict_usage(FILE *out)
{
    fprintf(out,
"usage: gpulayer predict --model FILE --data FILE [options]\n"
"\n"
"Writes one line of predictions per row (comma-separated for multi-class\n"
"probabilities). A model trained on class names writes predicted classes\n"
"by name, and a first line naming the class of each probability column.\n"
"\n"
"  --model FILE     a model saved by 'gpulayer train'\n"
"  --data FILE      CSV, TSV (optionally .gz) or LibSVM\n"
"  --label COL      the file's label column, left out of the features; when\n"
"                   the file has one column more than the model's features\n"
"                   and --label is not given, the first column is the label.\n"
"                   CSV columns are matched to the model's features by name\n"
"                   when both have names.\n"
"  --qid COL        a query id column (ranking data), left out of the\n"
"                   features; LibSVM qid:N tokens are skipped anyway\n"
"  --base-margin F  each row's starting margin (as given to train): one\n"
"                   line a row; predicted on the CPU\n"
"  --format F       auto, csv, tsv or libsvm\n"
"  --no-header      the CSV/TSV file has no header row\n"
"  --bad-numbers B  a cell that is not a number in a column the model reads\n"
"                   as numeric: error (default; names line, column and\n"
"                   text) or missing (read as a missing value; one warning\n"
"                   gives the count)\n"
"  --output FILE    where to write (default: standard output)\n"
"  --margin         raw margins instead of probabilities/values\n"
"  --rounds N       use only the first N rounds (default: all, or up to the\n"
"                   best round when the model was trained with early stopping)\n"
"  --nthread N      CPU threads (default: all cores)\n"
"  --device D       where to predict: cpu (default), cuda[:N], vulkan[:N] or\n"
"                   auto; a GPU bins the rows and walks the trees itself and\n"
"                   gives the same output as the cpu\n");
}

typedef struct predict_options {
    cli_model_options m;
    int margin;
} predict_options;

static int parse_args(int argc, char **argv, predict_options *o)
{
    enum { OPT_MARGIN = CLI_OPT_OWN };
    static const struct option longopts[] = {
        CLI_MODEL_LONGOPTS, {"margin", no_argument, 0, OPT_MARGIN}, {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, CLI_MODEL_SHORTOPTS, longopts, NULL)) != -1) {
        const int taken = cli_model_option("predict", c, optarg, &o->m);
        if (taken == 2) return 2;
        if (taken) continue;
        switch (c) {
        case OPT_MARGIN: o->margin = 1; break;
        case 'h': predict_usage(stdout); return -1;
        default: predict_usage(stderr); return 2;
        }
    }
    return cli_model_options_check("predict", argc, argv, &o->m);
}

/* A class name as a CSV cell: quoted when it holds a comma, a quote or a
 * line break. */
static void put_name(FILE *out, const char *name)
{
    if (!strpbrk(name, ",\"\r\n")) {
        fputs(name, out);
        return;
    }
    fputc('"', out);
    for (const char *c = name; *c; c++) {
        if (*c == '"') fputc('"', out);
        fputc(*c, out);
    }
    fputc('"', out);
}

/* One line a row. A model trained on class names writes predicted classes
 * by name, and heads columns of probabilities or margins with the class
 * each is for (one column: the second class, which 1 stands for). */
static void write_predictions(FILE *out, const gpulayer_booster *b, int flags,
                              const float *pred, int64_t n, int32_t width)
{
    const int32_t K = gpulayer_booster_num_class_names(b);
    const int as_names = K > 0 && gpulayer_booster_predicts_class(b, flags);
    if (K > 0 && !as_names) {
        for (int32_t k = 0; k < width; k++) {
            put_name(out, gpulayer_booster_class_name(b, width == 1 ? K - 1 : k));
            fputc(k + 1 < width ? ',' : '\n', out);
        }
    }
    for (int64_t r = 0; r < n; r++)
        for (int32_t k = 0; k < width; k++) {
            const float v = pred[r * width + k];
            const char *name = as_names ? gpulayer_booster_class_name(b, (int32_t)v) : NULL;
            if (name) put_name(out, name);
            else fprintf(out, "%.9g", (double)v);
            fputc(k + 1 < width ? ',' : '\n', out);
        }
}

typedef struct predictions {
    const gpulayer_booster *b;
    int flags;
    const float *pred;
    int64_t n;
    int32_t width;
} predictions;

static int emit_predictions(FILE *out, void *user)
{
    const predictions *p = user;
    write_predictions(out, p->b, p->flags, p->pred, p->n, p->width);
    return 0;
}

int cmd_predict(int argc, char **argv)
{
    predict_options o;
    memset(&o, 0, sizeof o);
    int rc = parse_args(argc, argv, &o);
    if (rc) return rc < 0 ? 0 : rc;
    gpulayer_booster *b = NULL;
    gpulayer_dataset *ds = NULL;
    float *pred = NULL;
    if (gpulayer_booster_load(o.m.model, &b) != GPULAYER_OK) return cli_fail("predict", NULL);
    if (o.m.nthread && gpulayer_booster_set_param(b, "nthread", o.m.nthread) != GPULAYER_OK) {
        cli_fail("predict", "--nthread"); /* the parameter's own check of the text */
        rc = 2;
        goto done;
    }
    if ((rc = cli_read_model_options_data("predict", b, &o.m, &ds)))
        goto done;
    int flags = o.margin ? GPULAYER_PREDICT_MARGIN : GPULAYER_PREDICT_DEFAULT;
    int64_t n = gpulayer_dataset_num_rows(ds);
    int32_t width = gpulayer_booster_prediction_width(b, flags);
    pred = malloc(sizeof(float) * (size_t)(n * width + 1));
    if (!pred) {
        fprintf(stderr, "gpulayer predict: out of memory\n");
        rc = 1;
        goto done;
    }
    if (gpulayer_booster_predict_device(b, ds, o.m.device ? o.m.device : "cpu", flags, o.m.rounds,
                                        pred, n * width) != GPULAYER_OK) {
        rc = cli_fail("predict", NULL);
        goto done;
    }
    if (o.m.output) {
        /* Readers of the file see the old predictions or all the new ones;
         * a failed write leaves the old file. */
        predictions p = {b, flags, pred, n, width};
        rc = cli_write_file_atomic("predict", "--output", o.m.output, emit_predictions, &p);
    } else {
        write_predictions(stdout, b, flags, pred, n, width);
    }
done:
    free(pred);
    gpulayer_dataset_free(ds);
    gpulayer_booster_free(b);
    return rc;
}
