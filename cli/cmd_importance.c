/* cmd_importance.c -- `gpulayer importance`: a model's feature importance,
 * largest first. */
#include <cjson/cJSON.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "commands.h"
#include "gpulayer.h"

static void importance_usage(FILE *out)
{
    fprintf(out,
"usage: gpulayer importance --model FILE [--type TYPE] [--json]\n"
"\n"
"Prints the importance of every feature the model splits on, largest first,\n"
"one 'name<TAB>value<TAB>kind' line each, kind 'categorical' or 'numeric'\n"
"(features without a name are f0, f1, ...).\n"
"\n"
"  --model FILE   a model saved by 'gpulayer train'\n"
"  --type TYPE    weight       number of splits on the feature\n"
"                 gain         mean loss reduction of its splits (default)\n"
"                 cover        mean hessian sum of its splits\n"
"                 total_gain   summed loss reduction\n"
"                 total_cover  summed hessian\n"
"  --json         a JSON object instead of text (\"categorical\": true or\n"
"                 false for each feature)\n");
}

static const struct {
    const char *name;
    gpulayer_importance_type type;
} importance_types[] = {
    {"weight", GPULAYER_IMPORTANCE_WEIGHT},
    {"gain", GPULAYER_IMPORTANCE_GAIN},
    {"cover", GPULAYER_IMPORTANCE_COVER},
    {"total_gain", GPULAYER_IMPORTANCE_TOTAL_GAIN},
    {"total_cover", GPULAYER_IMPORTANCE_TOTAL_COVER},
};

typedef struct importance_options {
    const char *model;
    const char *type_name;
    gpulayer_importance_type type;
    int json;
} importance_options;

static int parse_type(importance_options *o)
{
    for (size_t i = 0; i < sizeof importance_types / sizeof importance_types[0]; i++)
        if (!strcmp(o->type_name, importance_types[i].name)) {
            o->type = importance_types[i].type;
            return 0;
        }
    fprintf(stderr, "gpulayer importance: unknown --type '%s' (weight, gain, cover, "
                    "total_gain or total_cover)\n", o->type_name);
    return 2;
}

/* 0 to go on, -1 after --help, 2 on a usage error. */
static int parse_args(int argc, char **argv, importance_options *o)
{
    enum { OPT_JSON = 256 };
    static const struct option longopts[] = {
        {"model", required_argument, 0, 'm'}, {"type", required_argument, 0, 't'},
        {"json", no_argument, 0, OPT_JSON},   {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "m:t:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'm': o->model = optarg; break;
        case 't': o->type_name = optarg; break;
        case OPT_JSON: o->json = 1; break;
        case 'h': importance_usage(stdout); return -1;
        default: importance_usage(stderr); return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "gpulayer importance: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    if (!o->model) {
        fprintf(stderr, "gpulayer importance: --model is required (see --help)\n");
        return 2;
    }
    return parse_type(o);
}

static const char *feature_label(const gpulayer_booster *b, int32_t f, char *buf,
                                 size_t size)
{
    const char *name = gpulayer_booster_feature_name(b, f);
    if (name) return name;
    snprintf(buf, size, "f%d", f);
    return buf;
}

static int print_text(const gpulayer_booster *b, const cli_ranked *r, int32_t n)
{
    char buf[32];
    for (int32_t i = 0; i < n; i++)
        printf("%s\t%.9g\t%s\n", feature_label(b, r[i].feature, buf, sizeof buf), r[i].value,
               gpulayer_booster_feature_is_categorical(b, r[i].feature) ? "categorical"
                                                                        : "numeric");
    return 0;
}

/* {"type": ..., "features": [{"feature", "index", "value", "categorical"},
 * ...]} with one feature a line; values exact. */
static int print_json(const gpulayer_booster *b, const importance_options *o,
                      const cli_ranked *r, int32_t n)
{
    char buf[32];
    /* The type is one of the fixed names, which need no escaping. */
    printf("{\"type\":\"%s\",\"features\":[", o->type_name);
    for (int32_t i = 0; i < n; i++) {
        cJSON *item = cJSON_CreateObject();
        int ok = cJSON_AddStringToObject(item, "feature",
                                         feature_label(b, r[i].feature, buf, sizeof buf)) &&
                 cJSON_AddNumberToObject(item, "index", r[i].feature) &&
                 cJSON_AddNumberToObject(item, "value", r[i].value) &&
                 cJSON_AddBoolToObject(
                     item, "categorical",
                     gpulayer_booster_feature_is_categorical(b, r[i].feature));
        char *text = ok ? cJSON_PrintUnformatted(item) : NULL;
        cJSON_Delete(item);
        if (!text) {
            fprintf(stderr, "gpulayer importance: out of memory\n");
            return 1;
        }
        printf("%s\n  %s", i ? "," : "", text);
        cJSON_free(text);
    }
    printf("%s]}\n", n ? "\n" : "");
    return 0;
}

/* The features split on at least once, ranked. */
static int rank_features(const gpulayer_booster *b, gpulayer_importance_type type,
                         cli_ranked **out, int32_t *count)
{
    int32_t F = gpulayer_booster_num_features(b);
    double *weight = malloc(sizeof(double) * (size_t)(F ? F : 1));
    double *value = malloc(sizeof(double) * (size_t)(F ? F : 1));
    cli_ranked *r = malloc(sizeof(cli_ranked) * (size_t)(F ? F : 1));
    int rc = (weight && value && r) ? 0 : 1;
    if (rc) fprintf(stderr, "gpulayer importance: out of memory\n");
    if (!rc && (gpulayer_booster_feature_importance(b, GPULAYER_IMPORTANCE_WEIGHT,
                                                    weight, F) != GPULAYER_OK ||
                gpulayer_booster_feature_importance(b, type, value, F) != GPULAYER_OK))
        rc = cli_fail("importance", NULL);
    int32_t n = 0;
    for (int32_t f = 0; !rc && f < F; f++)
        if (weight[f] > 0.0) r[n++] = (cli_ranked){f, value[f]};
    if (!rc) qsort(r, (size_t)n, sizeof *r, cli_by_value_desc);
    free(weight);
    free(value);
    if (rc) free(r);
    else *out = r;
    *count = n;
    return rc;
}

int cmd_importance(int argc, char **argv)
{
    importance_options o = {0};
    o.type_name = "gain";
    int rc = parse_args(argc, argv, &o);
    if (rc) return rc < 0 ? 0 : rc;
    gpulayer_booster *b = NULL;
    if (gpulayer_booster_load(o.model, &b) != GPULAYER_OK)
        return cli_fail("importance", NULL);
    cli_ranked *r = NULL;
    int32_t n = 0;
    rc = rank_features(b, o.type, &r, &n);
    if (!rc) rc = o.json ? print_json(b, &o, r, n) : print_text(b, r, n);
    if (!rc && fflush(stdout) != 0) {
        perror("gpulayer importance: writing the output");
        rc = 1;
    }
    free(r);
    gpulayer_booster_free(b);
    return rc;
}
