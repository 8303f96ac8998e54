/* report_page.c -- the training report (gpulayer_report_write of
 * gpulayer.h), the page of `gpulayer train --report`: the command, the
 * learning curves and the best round's metrics, the validation set's
 * section (report_valid.c), a summary of the data, feature importance,
 * parameters, the devices considered, time and memory. Everything is
 * inline: styles in the head, charts as
 * SVG elements, no scripts, fonts or images. */
#include "gpulayer.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <sys/resource.h>
#include <time.h>

#include "error.h"
#include "file_atomic.h"
#include "report_charts.h"
#include "report_valid.h"
#include "svg.h"

/* Bars of the importance chart at most. */
#define TOP_FEATURES 20
/* Columns the data summary names at most in each of its lists. */
#define TOP_COLUMNS 10
/* Label values the data summary counts one by one at most. */
#define MAX_CLASSES 20

typedef struct page {
    const gpulayer_booster *b;
    const gpulayer_report_info *r;
    gpl_report_curves curves;
} page;

static const char style[] =
    "body{font-family:sans-serif;margin:24px;color:#222;max-width:900px}"
    "h1{font-size:22px}h2{font-size:17px;margin-top:28px}"
    "table{border-collapse:collapse;font-size:13px}"
    "th,td{text-align:left;padding:3px 12px 3px 0;border-bottom:1px solid #ddd;"
    "vertical-align:top}th{font-weight:600}"
    "svg{display:block;margin:8px 0;font-size:12px}"
    "svg .axis-line,svg .tick{stroke:#444}svg .grid{stroke:#e6e6e6}"
    "svg .series{stroke-width:1.8}svg .legend-line{stroke-width:3}"
    "svg .best-round{stroke:#555;stroke-dasharray:4 3}"
    "svg .chart-title{font-weight:600;font-size:13px}"
    "svg text{fill:#222}svg .tick-label,svg .bar-value{fill:#555}"
    "pre{font-size:12px;background:#f6f6f6;padding:8px;white-space:pre-wrap}";

static void summary(FILE *out, const page *p)
{
    const gpulayer_report_info *r = p->r;
    char text[128];
    fputs("<table class=\"summary\">\n", out);
    if (r->command) gpl_report_row(out, "command", r->command);
    const time_t now = time(NULL);
    struct tm utc;
    if (gmtime_r(&now, &utc) && strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S UTC", &utc))
        gpl_report_row(out, "written", text);
    if (r->data) gpl_report_row(out, "data", r->data);
    for (int i = 0; i < r->num_valid; i++)
        if (r->valid_names && r->valid_names[i])
            gpl_report_row(out, "validation set", r->valid_names[i]);
    if (r->model) gpl_report_row(out, "model", r->model);
    snprintf(text, sizeof text, "%d", gpulayer_booster_num_rounds(p->b));
    gpl_report_row(out, "rounds in the model", text);
    int best = gpulayer_booster_best_round(p->b);
    if (best >= 0) {
        snprintf(text, sizeof text, "%d", best + 1);
        gpl_report_row(out, "best round", text);
    }
    fputs("</table>\n", out);
}

/* A column's name, or fN. */
static const char *column_name(const gpulayer_dataset *ds, int32_t f, char *buf, size_t size)
{
    const char *name = gpulayer_dataset_feature_name(ds, f);
    if (name) return name;
    snprintf(buf, size, "f%d", f);
    return buf;
}

/* Up to TOP_COLUMNS columns of the largest positive count[] as "name (n
 * unit)", then how many more. */
static void column_list(FILE *out, const gpulayer_dataset *ds, const char *key,
                        const double *count, int32_t F, const char *format)
{
    gpl_report_ranked *r = malloc(sizeof *r * (size_t)(F > 0 ? F : 1));
    if (!r) return;
    int n = 0;
    for (int32_t f = 0; f < F; f++)
        if (count[f] > 0) r[n++] = (gpl_report_ranked){f, count[f]};
    qsort(r, (size_t)n, sizeof *r, gpl_report_by_value_desc);
    char line[2048] = "", name[32], item[256];
    size_t used = 0;
    for (int i = 0; i < n && i < TOP_COLUMNS; i++) {
        snprintf(item, sizeof item, format, column_name(ds, r[i].feature, name, sizeof name),
                 r[i].value);
        used += (size_t)snprintf(line + used, sizeof line - used, "%s%s", i ? ", " : "", item);
        if (used >= sizeof line) break;
    }
    if (n > TOP_COLUMNS && used < sizeof line)
        snprintf(line + used, sizeof line - used, " and %d more", n - TOP_COLUMNS);
    if (n > 0) gpl_report_row(out, key, line);
    free(r);
}

/* The label: class counts for classes, else its range and mean. */
static void label_summary(FILE *out, const page *p, const gpulayer_dataset *ds)
{
    const int64_t N = gpulayer_dataset_num_rows(ds);
    float *y = malloc(sizeof(float) * (size_t)(N > 0 ? N : 1));
    if (!y || gpulayer_dataset_get_label(ds, y, N) != GPULAYER_OK) {
        free(y);
        return;
    }
    char objective[64] = "";
    gpulayer_booster_get_param(p->b, "objective", objective, sizeof objective);
    const int classes = !strncmp(objective, "binary:", 7) || !strncmp(objective, "multi:", 6);
    int64_t count[MAX_CLASSES] = {0};
    int whole = classes;
    double lo = INFINITY, hi = -INFINITY, sum = 0;
    for (int64_t i = 0; i < N; i++) {
        const double v = y[i];
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
        sum += v;
        if (whole && v >= 0 && v < MAX_CLASSES && v == floor(v)) count[(int)v]++;
        else whole = 0;
    }
    char line[1024] = "";
    if (whole && N > 0) {
        size_t used = 0;
        for (int k = 0; k < MAX_CLASSES && used < sizeof line; k++) {
            if (!count[k]) continue;
            const char *name = gpulayer_dataset_label_class(ds, k);
            char code[16];
            snprintf(code, sizeof code, "%d", k);
            used += (size_t)snprintf(line + used, sizeof line - used, "%s%s: %lld (%.1f%%)",
                                     used ? ", " : "", name ? name : code, (long long)count[k],
                                     100.0 * (double)count[k] / (double)N);
        }
        gpl_report_row(out, "label classes", line);
    } else if (N > 0) {
        snprintf(line, sizeof line, "from %.6g to %.6g, mean %.6g", lo, hi, sum / (double)N);
        gpl_report_row(out, "label", line);
    }
    free(y);
}

/* Rows, features, categorical columns and their categories, missing
 * values and the label, of the training rows. */
static void data_summary(FILE *out, const page *p)
{
    const gpulayer_dataset *ds = p->r->train;
    if (!ds) return;
    const int64_t N = gpulayer_dataset_num_rows(ds);
    const int32_t F = gpulayer_dataset_num_cols(ds);
    char text[128];
    fputs("<h2>Data</h2>\n<table class=\"data\">\n", out);
    snprintf(text, sizeof text, "%lld", (long long)N);
    gpl_report_row(out, "rows", text);
    snprintf(text, sizeof text, "%d", F);
    gpl_report_row(out, "features", text);
    double *cats = calloc((size_t)(F > 0 ? F : 1), sizeof(double));
    double *missing = calloc((size_t)(F > 0 ? F : 1), sizeof(double));
    if (cats && missing) {
        int32_t num_cat = 0;
        double cells_missing = 0;
        for (int32_t f = 0; f < F; f++) {
            cats[f] = gpulayer_dataset_num_categories(ds, f);
            num_cat += cats[f] > 0;
            missing[f] = (double)gpulayer_dataset_num_missing(ds, f);
            cells_missing += missing[f];
            missing[f] = N > 0 ? 100.0 * missing[f] / (double)N : 0;
        }
        snprintf(text, sizeof text, "%d", num_cat);
        gpl_report_row(out, "categorical features", text);
        column_list(out, ds, "categories (most first)", cats, F, "%s (%.0f)");
        snprintf(text, sizeof text, "%.2f%% of the cells",
                 N > 0 && F > 0 ? 100.0 * cells_missing / ((double)N * F) : 0.0);
        gpl_report_row(out, "missing values", text);
        column_list(out, ds, "missing by feature (most first)", missing, F, "%s (%.1f%%)");
    }
    free(cats);
    free(missing);
    label_summary(out, p, ds);
    fputs("</table>\n", out);
}

/* Each series' value at the best round (early stopping's; the last
 * round when training had none) and at the last round. */
static void best_round_table(FILE *out, const page *p)
{
    const gpl_report_curves *h = &p->curves;
    if (h->num_series == 0 || h->num_rounds == 0) return;
    const int last = h->num_rounds - 1;
    int best = gpulayer_booster_best_round(p->b) - h->first_round;
    if (best < 0 || best > last) best = last;
    fprintf(out, "<table class=\"best\">\n<tr><th>data</th><th>metric</th>"
                 "<th>best round %d</th><th>last round %d</th></tr>\n",
            h->first_round + best + 1, h->first_round + last + 1);
    for (int s = 0; s < h->num_series; s++) {
        fputs("<tr><td>", out);
        svg_escape(out, h->data_names[s]);
        fputs("</td><td>", out);
        svg_escape(out, h->metric_names[s]);
        const double *v = h->values + (size_t)s;
        fprintf(out, "</td><td>%.6g</td><td>%.6g</td></tr>\n",
                v[(size_t)best * (size_t)h->num_series], v[(size_t)last * (size_t)h->num_series]);
    }
    fputs("</table>\n", out);
}

static void curves(FILE *out, const page *p)
{
    const gpl_report_curves *h = &p->curves;
    fputs("<h2>Learning curves</h2>\n", out);
    if (h->num_series == 0) {
        fputs("<p>No evaluation set was given (--valid), so there are no curves.</p>\n", out);
        return;
    }
    chart_learning_curves(out, h, gpulayer_booster_best_round(p->b));
    best_round_table(out, p);
}

static void importance(FILE *out, const page *p)
{
    fputs("<h2>Feature importance</h2>\n", out);
    int32_t F = gpulayer_booster_num_features(p->b);
    size_t size = (size_t)(F > 0 ? F : 1);
    double *weight = malloc(size * sizeof *weight), *gain = malloc(size * sizeof *gain);
    gpl_report_ranked *r = malloc(size * sizeof *r);
    const char **names = malloc(size * sizeof *names);
    char (*unnamed)[24] = malloc(TOP_FEATURES * sizeof *unnamed);
    double *values = malloc(size * sizeof *values);
    int n = 0;
    if (!weight || !gain || !r || !names || !unnamed || !values) {
        fputs("<p>Out of memory ranking the features.</p>\n", out);
    } else if (gpulayer_booster_feature_importance(p->b, GPULAYER_IMPORTANCE_WEIGHT, weight,
                                                   F) != GPULAYER_OK ||
               gpulayer_booster_feature_importance(p->b, GPULAYER_IMPORTANCE_GAIN, gain,
                                                   F) != GPULAYER_OK) {
        fputs("<p>The importance could not be computed: ", out);
        svg_escape(out, gpulayer_last_error());
        fputs("</p>\n", out);
    } else {
        /* Only features some split uses, as `gpulayer importance` lists. */
        for (int32_t f = 0; f < F; f++)
            if (weight[f] > 0.0) r[n++] = (gpl_report_ranked){f, gain[f]};
        qsort(r, (size_t)n, sizeof *r, gpl_report_by_value_desc);
        if (n > TOP_FEATURES) n = TOP_FEATURES;
        for (int i = 0; i < n; i++) {
            names[i] = gpulayer_booster_feature_name(p->b, r[i].feature);
            if (!names[i]) {
                snprintf(unnamed[i], sizeof unnamed[i], "f%d", r[i].feature);
                names[i] = unnamed[i];
            }
            values[i] = r[i].value;
        }
        if (n == 0) fputs("<p>No tree splits: every tree is a single leaf.</p>\n", out);
        else {
            fprintf(out, "<p>Mean gain of each feature's splits, the %d largest.</p>\n", n);
            chart_importance(out, "importance", names, values, n,
                             "gain (mean loss reduction of a split)");
        }
    }
    free(weight);
    free(gain);
    free(r);
    free(names);
    free(unnamed);
    free(values);
}

/* A number as the shortest text that reads back as the same double
 * (0.3, not 0.29999999999999999); other text as it is. */
static const char *readable(const char *value, char *buf, size_t size)
{
    char *end;
    double v = strtod(value, &end);
    if (end == value || *end || !strchr(value, '.')) return value;
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, size, "%.*g", digits, v);
        if (strtod(buf, NULL) == v) return buf;
    }
    return value;
}

/* The parameters the model records, and the two it does not (they do not
 * change its trees' meaning): the metrics and the thread count. */
static void parameters(FILE *out, const page *p)
{
    fputs("<h2>Parameters</h2>\n<table class=\"params\">\n", out);
    char *json = NULL;
    size_t len = 0;
    cJSON *doc = NULL;
    if (gpulayer_booster_save_to_buffer(p->b, &json, &len) == GPULAYER_OK)
        doc = cJSON_Parse(json);
    gpulayer_free_buffer(json);
    const cJSON *item, *params = cJSON_GetObjectItemCaseSensitive(doc, "params");
    char number[32];
    cJSON_ArrayForEach(item, params)
        if (cJSON_IsString(item))
            gpl_report_row(out, item->string, readable(item->valuestring, number, sizeof number));
    cJSON_Delete(doc);
    static const char *const extra[] = {"eval_metric", "nthread"};
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) {
        char value[1024];
        if (gpulayer_booster_get_param(p->b, extra[i], value, sizeof value) != GPULAYER_OK)
            continue;
        if (!value[0]) gpl_report_row(out, extra[i], "(the objective's default)");
        else if (!strcmp(value, "0")) gpl_report_row(out, extra[i], "0 (all cores)");
        else gpl_report_row(out, extra[i], value);
    }
    fputs("</table>\n", out);
}

/* The placement training makes for the device parameter (the backend's
 * choice among this host's devices), in its own words. */
static void device(FILE *out, const page *p)
{
    char requested[64] = "auto", text[128];
    gpulayer_booster_get_param(p->b, "device", requested, sizeof requested);
    fputs("<h2>Device</h2>\n<table class=\"device\">\n", out);
    gpl_report_row(out, "requested", requested);
    gpulayer_request *request = NULL;
    gpulayer_placement *placement = NULL;
    if (gpulayer_request_create(NULL, &request) == GPULAYER_OK &&
        gpulayer_request_parse(request, requested) == GPULAYER_OK &&
        gpulayer_placement_create(request, GPULAYER_PLACE_BACKEND, &placement) == GPULAYER_OK)
        gpl_report_row(out, "used", gpulayer_placement_why(placement));
    else
        gpl_report_row(out, "used", "(not known)");
    fputs("</table>\n", out);
    /* Every device considered, with its reason. */
    char *text_out = NULL;
    size_t text_len = 0;
    if (placement &&
        gpulayer_placement_render(placement, GPULAYER_RENDER_TEXT, &text_out, &text_len) ==
            GPULAYER_OK) {
        fputs("<pre class=\"placement\">", out);
        svg_escape(out, text_out);
        fputs("</pre>\n", out);
    }
    gpulayer_free_buffer(text_out);
    fputs("<table class=\"device\">\n", out);
    gpulayer_placement_free(placement);
    gpulayer_request_free(request);
    if (p->r->ranks > 1) {
        snprintf(text, sizeof text, "%d, one device each; the row above is rank 0's",
                 p->r->ranks);
        gpl_report_row(out, "ranks", text);
    }
    fputs("</table>\n", out);
}

/* The largest resident set of this process so far, in bytes. */
static double peak_rss_bytes(void)
{
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) != 0) return 0.0;
#ifdef __APPLE__
    return (double)usage.ru_maxrss; /* bytes there */
#else
    return (double)usage.ru_maxrss * 1024.0; /* kilobytes on Linux and the BSDs */
#endif
}

static void timings(FILE *out, const page *p)
{
    const gpulayer_report_info *r = p->r;
    char text[128];
    /* The rounds this training made: those with curves, else the model's
     * beyond the first. */
    int rounds = p->curves.num_rounds;
    if (rounds == 0) rounds = gpulayer_booster_num_rounds(p->b) - r->first_round;
    fputs("<h2>Time and memory</h2>\n<table class=\"timing\">\n", out);
    if (r->train_seconds >= 0) {
        snprintf(text, sizeof text, "%.3f s", r->train_seconds);
        gpl_report_row(out, "training time", text);
    }
    snprintf(text, sizeof text, "%d", rounds);
    gpl_report_row(out, "rounds trained", text);
    if (rounds > 0 && r->train_seconds >= 0) {
        snprintf(text, sizeof text, "%.3f ms", 1000.0 * r->train_seconds / rounds);
        gpl_report_row(out, "mean time a round", text);
    }
    snprintf(text, sizeof text, "%.1f MiB", peak_rss_bytes() / 1048576.0);
    gpl_report_row(out, "peak resident memory (this process)", text);
    fputs("</table>\n", out);
}

static int write_page(FILE *out, void *user)
{
    const page *p = user;
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
          "gpulayer training report: ", out);
    svg_escape(out, p->r->data ? p->r->data : "");
    fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n", style);
    fputs("<h1>Training report</h1>\n", out);
    summary(out, p);
    curves(out, p);
    /* The set early stopping watches: the last. */
    const int32_t V = p->r->num_valid;
    if (V > 0 && p->r->valid && p->r->valid[V - 1])
        report_validation(out, p->b, p->r->valid[V - 1],
                          p->r->valid_names && p->r->valid_names[V - 1]
                              ? p->r->valid_names[V - 1]
                              : "the validation set");
    data_summary(out, p);
    importance(out, p);
    parameters(out, p);
    device(out, p);
    timings(out, p);
    fputs("<p class=\"footer\">gpulayer ", out);
    svg_escape(out, gpulayer_version());
    fputs("</p>\n</body>\n</html>\n", out);
    return 0; /* a failed write shows in the stream's error flag */
}

gpulayer_status gpulayer_report_write(const char *path, const gpulayer_booster *b,
                                      const gpulayer_report_info *info)
{
    static const char fn[] = "gpulayer_report_write";
    if (!path || !b || !info)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn,
                         !path ? "path" : !b ? "booster" : "info");
    if (gpulayer_booster_num_features(b) <= 0 && gpulayer_booster_num_rounds(b) <= 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "%s: the booster has no model", fn);
    if (info->num_valid < 0 || info->num_series < 0 || info->num_rounds < 0 ||
        (info->num_series > 0 && info->num_rounds > 0 &&
         (!info->series_data || !info->series_metric || !info->values)))
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "%s: the curves need series_data, series_metric and values for %d "
                         "series of %d rounds", fn, info->num_series, info->num_rounds);
    for (int32_t s = 0; s < info->num_series && info->num_rounds > 0; s++)
        if (!info->series_data[s] || !info->series_metric[s])
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "%s: series %d has no name", fn, s);
    page p = {b, info,
              {info->first_round, info->num_rounds > 0 ? info->num_rounds : 0,
               info->num_rounds > 0 ? info->num_series : 0, info->series_data,
               info->series_metric, info->values}};
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    if (!out) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "%s: out of memory for %s", fn, path);
    write_page(out, &p);
    const int failed = ferror(out) != 0;
    if (fclose(out) != 0 || failed) {
        free(text);
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "%s: out of memory writing %s", fn, path);
    }
    gpulayer_status st = gpl_write_file_atomic(path, text, len);
    free(text);
    return st;
}
