/* cli_model_data.c -- reading a data file for a saved model: its columns
 * read as the model reads them (numeric or categorical, by name) and
 * matched to the model's features. Shared by predict and explain. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_file.h"
#include "cli_util.h"

/* The model's feature names of one kind (categorical or not), so that the
 * reader reads those columns as the model does and reports a bad cell
 * where it is; NULL (nothing to say) when the features have no names or
 * the file has no header. *oom is set when out of memory. */
static const char **feature_kind_names(const gpulayer_booster *b, int no_header,
                                       int categorical, int *oom)
{
    int32_t F = gpulayer_booster_num_features(b);
    if (no_header || F < 1 || !gpulayer_booster_feature_name(b, 0)) return NULL;
    const char **names = calloc((size_t)F + 1, sizeof *names);
    if (!names) {
        *oom = 1;
        return NULL;
    }
    int32_t k = 0;
    for (int32_t f = 0; f < F; f++) {
        const char *n = gpulayer_booster_feature_name(b, f);
        if (n && n[0] && gpulayer_booster_feature_is_categorical(b, f) == categorical)
            names[k++] = n;
    }
    return names;
}

/* A column of the data by name, for binary search: a model of many
 * features looks each of them up. */
typedef struct named_column {
    const char *name;
    int32_t col;
} named_column;

static int by_name_then_column(const void *a, const void *b)
{
    const named_column *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->col > y->col) - (x->col < y->col);
}

/* The first column of ds named name, or -1; sorted holds count named
 * columns in by_name_then_column order. */
static int32_t find_column(const named_column *sorted, int32_t count, const char *name)
{
    int32_t lo = 0, hi = count;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (strcmp(sorted[mid].name, name) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo < count && !strcmp(sorted[lo].name, name) ? sorted[lo].col : -1;
}

/* The model's features picked out of the file's columns: by name when both
 * have names, else all columns in order (the first being the label when
 * there is one column too many). Returns 0, or 1 after saying why not. */
static int match_columns(const char *cmd, const gpulayer_booster *b, gpulayer_dataset **ds,
                         int label_given)
{
    int32_t F = gpulayer_booster_num_features(b);
    int32_t C = gpulayer_dataset_num_cols(*ds);
    int by_name = gpulayer_booster_feature_name(b, 0) && gpulayer_dataset_feature_name(*ds, 0);
    if (!by_name && (C == F || label_given || C != F + 1)) return 0;
    int32_t *pick = malloc(sizeof(int32_t) * (size_t)F);
    named_column *sorted = malloc(sizeof *sorted * (size_t)(C ? C : 1));
    if (!pick || !sorted) {
        free(pick);
        free(sorted);
        fprintf(stderr, "gpulayer %s: out of memory\n", cmd);
        return 1;
    }
    int32_t named = 0;
    for (int32_t c = 0; by_name && c < C; c++) {
        const char *n = gpulayer_dataset_feature_name(*ds, c);
        if (n) sorted[named++] = (named_column){n, c};
    }
    qsort(sorted, (size_t)named, sizeof *sorted, by_name_then_column);
    for (int32_t f = 0; f < F; f++) {
        pick[f] = by_name ? find_column(sorted, named, gpulayer_booster_feature_name(b, f))
                          : f + 1;
        if (pick[f] < 0) {
            fprintf(stderr, "gpulayer %s: the data have no column '%s', a feature of "
                            "the model\n",
                    cmd, gpulayer_booster_feature_name(b, f));
            free(pick);
            free(sorted);
            return 1;
        }
    }
    free(sorted);
    gpulayer_dataset *picked;
    gpulayer_status st = gpulayer_dataset_select_columns(*ds, pick, F, &picked);
    free(pick);
    if (st != GPULAYER_OK) return cli_fail(cmd, NULL);
    gpulayer_dataset_free(*ds);
    *ds = picked;
    return 0;
}

int cli_read_model_data(const char *cmd, const gpulayer_booster *b, const char *path,
                        cli_data *d, int label_given, gpulayer_dataset **ds)
{
    int oom = 0, rc = 0;
    const char **numeric = feature_kind_names(b, d->no_header, 0, &oom);
    const char **categorical = feature_kind_names(b, d->no_header, 1, &oom);
    const char **classes = cli_class_names(b, NULL, &oom);
    if (oom) {
        fprintf(stderr, "gpulayer %s: out of memory\n", cmd);
        rc = 1;
    } else {
        d->numeric = numeric;
        d->categorical = categorical;
        d->label_classes = classes;
        d->num_features = gpulayer_booster_num_features(b);
        if (cli_read_data(path, d, ds) != GPULAYER_OK) rc = cli_fail(cmd, NULL);
        else rc = match_columns(cmd, b, ds, label_given);
        d->numeric = d->categorical = d->label_classes = NULL;
    }
    free(classes);
    free(numeric);
    free(categorical);
    return rc;
}

int cli_model_option(const char *cmd, int c, const char *arg, cli_model_options *o)
{
    switch (c) {
    case 'm': o->model = arg; return 1;
    case 'd': o->data = arg; return 1;
    case 'l': o->label = arg; return 1;
    case 'f': o->format = arg; return 1;
    case 'o': o->output = arg; return 1;
    case 'n': o->nthread = arg; return 1;
    case CLI_OPT_NO_HEADER: o->no_header = 1; return 1;
    case CLI_OPT_ROUNDS: return cli_parse_count(cmd, "--rounds", arg, &o->rounds) ? 1 : 2;
    case CLI_OPT_DEVICE: o->device = arg; return 1;
    case CLI_OPT_QID: o->qid = arg; return 1;
    case CLI_OPT_BASE_MARGIN: o->base_margin = arg; return 1;
    case CLI_OPT_BAD_NUMBERS: return cli_parse_bad_numbers(cmd, arg, &o->bad_numbers) ? 2 : 1;
    default: return 0;
    }
}

int cli_model_options_check(const char *cmd, int argc, char **argv,
                            const cli_model_options *o)
{
    if (optind < argc) {
        fprintf(stderr, "gpulayer %s: unexpected argument '%s'\n", cmd, argv[optind]);
        return 2;
    }
    if (!o->model || !o->data) {
        fprintf(stderr, "gpulayer %s: --model and --data are required (see --help)\n", cmd);
        return 2;
    }
    /* Checked before any work: writing the output over an input would
     * destroy it once read. */
    const cli_path output = {"--output", o->output};
    const cli_path inputs[] = {{"--data", o->data}, {"--model", o->model},
                               {"--base-margin", o->base_margin}};
    if (cli_check_outputs(cmd, &output, 1, inputs, 3)) return 2;
    return cli_check_format(cmd, o->format);
}

int cli_read_model_options_data(const char *cmd, const gpulayer_booster *b,
                                const cli_model_options *o, gpulayer_dataset **ds)
{
    cli_data data = {.format = o->format, .label = o->label ? o->label : "none",
                     .no_header = o->no_header, .bad_numbers = o->bad_numbers, .qid = o->qid,
                     .base_margin = o->base_margin};
    return cli_read_model_data(cmd, b, o->data, &data, o->label != NULL, ds);
}
