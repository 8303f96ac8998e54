/* train_report.c -- the HTML page of `gpulayer train --report` (see
 * train_report.h). Everything is inline: styles in the head, charts as
 * SVG elements, no scripts, fonts or images. */
#include "train_report.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "cli_file.h"
#include "cli_util.h"
#include "report_charts.h"
#include "svg.h"

/* Bars of the importance chart at most. */
#define TOP_FEATURES 20

typedef struct page {
    const gpulayer_booster *b;
    const train_report *r;
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
    "svg text{fill:#222}svg .tick-label,svg .bar-value{fill:#555}";

static void cell_row(FILE *out, const char *key, const char *value)
{
    fputs("<tr><th>", out);
    svg_escape(out, key);
    fputs("</th><td>", out);
    svg_escape(out, value);
    fputs("</td></tr>\n", out);
}

static void summary(FILE *out, const page *p)
{
    const train_report *r = p->r;
    char text[128];
    fputs("<table class=\"summary\">\n", out);
    cell_row(out, "data", r->data);
    for (int i = 0; i < r->num_valid; i++) cell_row(out, "validation set", r->valid[i]);
    cell_row(out, "model", r->model);
    snprintf(text, sizeof text, "%d", gpulayer_booster_num_rounds(p->b));
    cell_row(out, "rounds in the model", text);
    int best = gpulayer_booster_best_round(p->b);
    if (best >= 0) {
        snprintf(text, sizeof text, "%d", best + 1);
        cell_row(out, "best round", text);
    }
    fputs("</table>\n", out);
}

static void curves(FILE *out, const page *p)
{
    const train_history *h = p->r->history;
    fputs("<h2>Learning curves</h2>\n", out);
    if (h->num_series == 0) {
        fputs("<p>No evaluation set was given (--valid), so there are no curves.</p>\n", out);
        return;
    }
    chart_learning_curves(out, h, gpulayer_booster_best_round(p->b));
}

static void importance(FILE *out, const page *p)
{
    fputs("<h2>Feature importance</h2>\n", out);
    int32_t F = gpulayer_booster_num_features(p->b);
    size_t size = (size_t)(F > 0 ? F : 1);
    double *weight = malloc(size * sizeof *weight), *gain = malloc(size * sizeof *gain);
    cli_ranked *r = malloc(size * sizeof *r);
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
            if (weight[f] > 0.0) r[n++] = (cli_ranked){f, gain[f]};
        qsort(r, (size_t)n, sizeof *r, cli_by_value_desc);
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
            chart_importance(out, names, values, n, "gain (mean loss reduction of a split)");
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
            cell_row(out, item->string, readable(item->valuestring, number, sizeof number));
    cJSON_Delete(doc);
    static const char *const extra[] = {"eval_metric", "nthread"};
    for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++) {
        char value[1024];
        if (gpulayer_booster_get_param(p->b, extra[i], value, sizeof value) != GPULAYER_OK)
            continue;
        if (!value[0]) cell_row(out, extra[i], "(the objective's default)");
        else if (!strcmp(value, "0")) cell_row(out, extra[i], "0 (all cores)");
        else cell_row(out, extra[i], value);
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
    cell_row(out, "requested", requested);
    gpulayer_request *request = NULL;
    gpulayer_placement *placement = NULL;
    if (gpulayer_request_create(NULL, &request) == GPULAYER_OK &&
        gpulayer_request_parse(request, requested) == GPULAYER_OK &&
        gpulayer_placement_create(request, GPULAYER_PLACE_BACKEND, &placement) == GPULAYER_OK)
        cell_row(out, "used", gpulayer_placement_why(placement));
    else
        cell_row(out, "used", "(not known)");
    gpulayer_placement_free(placement);
    gpulayer_request_free(request);
    if (p->r->ranks > 1) {
        snprintf(text, sizeof text, "%d, one device each; the row above is rank 0's",
                 p->r->ranks);
        cell_row(out, "ranks", text);
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
    const train_report *r = p->r;
    char text[128];
    int rounds = r->history->num_rounds;
    fputs("<h2>Time and memory</h2>\n<table class=\"timing\">\n", out);
    snprintf(text, sizeof text, "%.3f s", r->train_seconds);
    cell_row(out, "training time", text);
    snprintf(text, sizeof text, "%d", rounds);
    cell_row(out, "rounds trained", text);
    if (rounds > 0) {
        snprintf(text, sizeof text, "%.3f ms", 1000.0 * r->train_seconds / rounds);
        cell_row(out, "mean time a round", text);
    }
    snprintf(text, sizeof text, "%.1f MiB", peak_rss_bytes() / 1048576.0);
    cell_row(out, "peak resident memory (this process)", text);
    fputs("</table>\n", out);
}

static int write_page(FILE *out, void *user)
{
    const page *p = user;
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>"
          "gpulayer training report: ", out);
    svg_escape(out, p->r->data);
    fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n", style);
    fputs("<h1>Training report</h1>\n", out);
    summary(out, p);
    curves(out, p);
    importance(out, p);
    parameters(out, p);
    device(out, p);
    timings(out, p);
    fputs("<p class=\"footer\">gpulayer ", out);
    svg_escape(out, gpulayer_version());
    fputs("</p>\n</body>\n</html>\n", out);
    return 0; /* a failed write shows in the stream's error flag */
}

int train_report_write(const char *path, const gpulayer_booster *b, const train_report *r)
{
    page p = {b, r};
    return cli_write_file_atomic("train", "--report", path, write_page, &p);
}
