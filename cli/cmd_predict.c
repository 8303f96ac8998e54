/* cmd_predict.c -- `gpulayer predict`: apply a saved model to a data file. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "commands.h"
#include "gpulayer.h"

static void predict_usage(FILE *out)
{
    fprintf(out,
"usage: gpulayer predict --model FILE --data FILE [options]\n"
"\n"
"Writes one line of predictions per row (comma-separated for multi-class\n"
"probabilities).\n"
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
    const char *model, *data, *label, *format, *output, *nthread, *device, *qid;
    const char *base_margin;
    int no_header, margin, rounds, bad_numbers;
} predict_options;

static int parse_args(int argc, char **argv, predict_options *o)
{
    enum { OPT_NO_HEADER = 256, OPT_MARGIN, OPT_ROUNDS, OPT_DEVICE, OPT_BAD_NUMBERS,
           OPT_QID, OPT_BASE_MARGIN };
    static const struct option longopts[] = {
        {"model", required_argument, 0, 'm'},  {"data", required_argument, 0, 'd'},
        {"label", required_argument, 0, 'l'},  {"format", required_argument, 0, 'f'},
        {"output", required_argument, 0, 'o'}, {"nthread", required_argument, 0, 'n'},
        {"no-header", no_argument, 0, OPT_NO_HEADER},
        {"margin", no_argument, 0, OPT_MARGIN},
        {"rounds", required_argument, 0, OPT_ROUNDS},
        {"device", required_argument, 0, OPT_DEVICE},
        {"bad-numbers", required_argument, 0, OPT_BAD_NUMBERS},
        {"qid", required_argument, 0, OPT_QID},
        {"base-margin", required_argument, 0, OPT_BASE_MARGIN},
        {"help", no_argument, 0, 'h'},         {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "m:d:l:f:o:n:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'm': o->model = optarg; break;
        case 'd': o->data = optarg; break;
        case 'l': o->label = optarg; break;
        case 'f': o->format = optarg; break;
        case 'o': o->output = optarg; break;
        case 'n': o->nthread = optarg; break;
        case OPT_NO_HEADER: o->no_header = 1; break;
        case OPT_MARGIN: o->margin = 1; break;
        case OPT_ROUNDS: o->rounds = atoi(optarg); break;
        case OPT_DEVICE: o->device = optarg; break;
        case OPT_QID: o->qid = optarg; break;
        case OPT_BASE_MARGIN: o->base_margin = optarg; break;
        case OPT_BAD_NUMBERS:
            if (cli_parse_bad_numbers("predict", optarg, &o->bad_numbers)) return 2;
            break;
        case 'h': predict_usage(stdout); return -1;
        default: predict_usage(stderr); return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "gpulayer predict: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    if (!o->model || !o->data) {
        fprintf(stderr, "gpulayer predict: --model and --data are required (see --help)\n");
        return 2;
    }
    return cli_check_format("predict", o->format);
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
    FILE *out = stdout;
    if (gpulayer_booster_load(o.model, &b) != GPULAYER_OK) return cli_fail("predict", NULL);
    if (o.nthread && gpulayer_booster_set_param(b, "nthread", o.nthread) != GPULAYER_OK) {
        rc = cli_fail("predict", NULL);
        goto done;
    }
    cli_data data = {.format = o.format, .label = o.label ? o.label : "none",
                     .no_header = o.no_header, .bad_numbers = o.bad_numbers, .qid = o.qid,
                     .base_margin = o.base_margin};
    if ((rc = cli_read_model_data("predict", b, o.data, &data, o.label != NULL, &ds)))
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
    if (gpulayer_booster_predict_device(b, ds, o.device ? o.device : "cpu", flags, o.rounds,
                                        pred, n * width) != GPULAYER_OK) {
        rc = cli_fail("predict", NULL);
        goto done;
    }
    if (o.output && !(out = fopen(o.output, "w"))) {
        perror(o.output);
        rc = 1;
        goto done;
    }
    for (int64_t r = 0; r < n; r++)
        for (int32_t k = 0; k < width; k++)
            fprintf(out, "%.9g%c", (double)pred[r * width + k], k + 1 < width ? ',' : '\n');
    if (out != stdout && fclose(out) != 0) {
        perror(o.output);
        rc = 1;
    }
done:
    free(pred);
    gpulayer_dataset_free(ds);
    gpulayer_booster_free(b);
    return rc;
}
