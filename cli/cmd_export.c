/* cmd_export.c -- `gpulayer export`: a model in another library's format. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "commands.h"
#include "gpulayer.h"

static void export_usage(FILE *out)
{
    fprintf(out,
"usage: gpulayer export --model FILE --output FILE [--format xgboost]\n"
"\n"
"Converts a model saved by 'gpulayer train' to another library's format.\n"
"\n"
"  --model FILE    the gpulayer model\n"
"  --output FILE   where to write the converted model\n"
"  --format F      xgboost (default): XGBoost's JSON model format, for\n"
"                  xgboost.Booster(model_file=FILE). Splits by sets of\n"
"                  categories become XGBoost's categorical splits over the\n"
"                  codes of the model's sorted category names (give XGBoost\n"
"                  pandas categories in that order, docs/categorical.md);\n"
"                  feature names are left out so that plain arrays can be\n"
"                  predicted on.\n");
}

typedef struct export_options {
    const char *model, *output, *format;
} export_options;

/* 0 to go on, -1 after --help, 2 on a usage error. */
static int parse_args(int argc, char **argv, export_options *o)
{
    static const struct option longopts[] = {
        {"model", required_argument, 0, 'm'},  {"output", required_argument, 0, 'o'},
        {"format", required_argument, 0, 'f'}, {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "m:o:f:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'm': o->model = optarg; break;
        case 'o': o->output = optarg; break;
        case 'f': o->format = optarg; break;
        case 'h': export_usage(stdout); return -1;
        default: export_usage(stderr); return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "gpulayer export: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    if (!o->model || !o->output) {
        fprintf(stderr, "gpulayer export: --model and --output are required (see --help)\n");
        return 2;
    }
    if (strcmp(o->format, "xgboost")) {
        fprintf(stderr, "gpulayer export: unknown --format '%s' (supported: xgboost)\n",
                o->format);
        return 2;
    }
    return 0;
}

int cmd_export(int argc, char **argv)
{
    export_options o = {0};
    o.format = "xgboost";
    int rc = parse_args(argc, argv, &o);
    if (rc) return rc < 0 ? 0 : rc;
    gpulayer_booster *b = NULL;
    if (gpulayer_booster_load(o.model, &b) != GPULAYER_OK)
        return cli_fail("export", NULL);
    if (gpulayer_booster_export_xgboost(b, o.output) != GPULAYER_OK)
        rc = cli_fail("export", NULL);
    gpulayer_booster_free(b);
    return rc;
}
