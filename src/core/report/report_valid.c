/* report_valid.c -- the validation set's section of the training report
 * (report_valid.h). */
#include "report_valid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report_charts.h"
#include "svg.h"

/* Points a ROC or precision-recall curve keeps at most. */
#define CURVE_POINTS 200
/* Bins of the calibration and residual charts. */
#define BINS 10
/* Rows the mean |SHAP value| is taken over at most (the first ones). */
#define SHAP_ROWS 2000
/* Classes a confusion matrix shows at most. */
#define MATRIX_CLASSES 20
/* Features the SHAP chart shows at most. */
#define SHAP_FEATURES 20

typedef struct scored {
    float score;
    int positive;
} scored;

static int by_score_desc(const void *a, const void *b)
{
    const scored *x = a, *y = b;
    return (x->score < y->score) - (x->score > y->score);
}

/* ROC and precision-recall curves (a point at each distinct score, at
 * most CURVE_POINTS of them), their areas, and the confusion matrix at
 * threshold. */
static void binary_curves(FILE *out, const float *score, const float *label, int64_t n,
                          double threshold)
{
    scored *s = malloc(sizeof *s * (size_t)n);
    double *fpr = malloc(sizeof(double) * (CURVE_POINTS + 2));
    double *tpr = malloc(sizeof(double) * (CURVE_POINTS + 2));
    double *precision = malloc(sizeof(double) * (CURVE_POINTS + 2));
    if (!s || !fpr || !tpr || !precision) {
        fputs("<p>Out of memory drawing the ROC curve.</p>\n", out);
        goto done;
    }
    int64_t positives = 0;
    for (int64_t i = 0; i < n; i++) {
        s[i] = (scored){score[i], label[i] > 0.5f};
        positives += s[i].positive;
    }
    const int64_t negatives = n - positives;
    if (positives == 0 || negatives == 0) {
        fputs("<p>Every validation label is of one class: no ROC curve.</p>\n", out);
        goto done;
    }
    qsort(s, (size_t)n, sizeof *s, by_score_desc);
    int points = 1;
    fpr[0] = tpr[0] = 0;
    precision[0] = 1;
    double tp = 0, fp = 0, auc = 0, ap = 0, last_f = 0, last_t = 0;
    int64_t next = n / CURVE_POINTS;
    for (int64_t i = 0; i < n; i++) {
        tp += s[i].positive;
        fp += !s[i].positive;
        if (i + 1 < n && s[i + 1].score == s[i].score) continue; /* ties move together */
        const double f = fp / (double)negatives, t = tp / (double)positives;
        auc += (f - last_f) * (t + last_t) / 2;
        ap += (t - last_t) * (tp / (tp + fp));
        last_f = f;
        last_t = t;
        if (i >= next || i + 1 == n) {
            fpr[points] = f;
            tpr[points] = t;
            precision[points++] = tp / (tp + fp);
            next = i + 1 + n / CURVE_POINTS;
        }
    }
    char text[128];
    fputs("<table class=\"binary\">\n", out);
    snprintf(text, sizeof text, "%.6f", auc);
    gpl_report_row(out, "area under the ROC curve", text);
    snprintf(text, sizeof text, "%.6f", ap);
    gpl_report_row(out, "average precision", text);
    snprintf(text, sizeof text, "%lld of %lld (%.1f%%)", (long long)positives, (long long)n,
             100.0 * (double)positives / (double)n);
    gpl_report_row(out, "positive labels", text);
    fputs("</table>\n", out);
    const chart_line roc = {"ROC", fpr, tpr, points};
    chart_lines(out, "roc", "ROC curve", "false positive rate", "true positive rate", &roc, 1,
                1);
    const chart_line pr = {"precision-recall", tpr + 1, precision + 1, points - 1};
    chart_lines(out, "precision-recall", "precision-recall curve", "recall", "precision", &pr,
                1, 0);
    /* The confusion matrix at the threshold. */
    int64_t cell[2][2] = {{0, 0}, {0, 0}};
    for (int64_t i = 0; i < n; i++) cell[label[i] > 0.5f][score[i] > threshold]++;
    fprintf(out,
            "<p>Confusion matrix at a predicted value of %g (rows: the label; columns: "
            "the prediction).</p>\n<table class=\"confusion\">\n"
            "<tr><th></th><th>predicted 0</th><th>predicted 1</th></tr>\n"
            "<tr><th>label 0</th><td>%lld</td><td>%lld</td></tr>\n"
            "<tr><th>label 1</th><td>%lld</td><td>%lld</td></tr>\n</table>\n",
            threshold, (long long)cell[0][0], (long long)cell[0][1], (long long)cell[1][0],
            (long long)cell[1][1]);
done:
    free(s);
    free(fpr);
    free(tpr);
    free(precision);
}

/* Mean predicted probability against the share of positive labels in
 * BINS equal bins of the probability. */
static void calibration(FILE *out, const float *p, const float *label, int64_t n)
{
    double sum_p[BINS] = {0}, sum_y[BINS] = {0}, count[BINS] = {0};
    for (int64_t i = 0; i < n; i++) {
        int b = (int)(p[i] * BINS);
        b = b < 0 ? 0 : b >= BINS ? BINS - 1 : b;
        sum_p[b] += p[i];
        sum_y[b] += label[i] > 0.5f;
        count[b]++;
    }
    double x[BINS], y[BINS];
    int m = 0;
    for (int b = 0; b < BINS; b++)
        if (count[b] > 0) {
            x[m] = sum_p[b] / count[b];
            y[m++] = sum_y[b] / count[b];
        }
    const chart_line line = {"validation rows", x, y, m};
    chart_lines(out, "calibration", "calibration: share of positive labels by predicted "
                                    "probability (10 bins)",
                "mean predicted probability", "share of positive labels", &line, 1, 1);
}

/* A row and its prediction, to order rows by prediction. */
typedef struct predicted_row {
    float prediction;
    int64_t row;
} predicted_row;

static int by_prediction(const void *a, const void *b)
{
    const predicted_row *x = a, *y = b;
    return (x->prediction > y->prediction) - (x->prediction < y->prediction);
}

static int by_float(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* label - prediction: its size, spread, and mean by prediction. */
static void residuals(FILE *out, const float *pred, const float *label, int64_t n)
{
    float *r = malloc(sizeof(float) * (size_t)n);
    predicted_row *by_pred = malloc(sizeof *by_pred * (size_t)n);
    if (!r || !by_pred) {
        fputs("<p>Out of memory summarising the residuals.</p>\n", out);
        free(r);
        free(by_pred);
        return;
    }
    double sq = 0, abs_sum = 0, sum = 0;
    for (int64_t i = 0; i < n; i++) {
        r[i] = label[i] - pred[i];
        sq += (double)r[i] * r[i];
        abs_sum += fabs(r[i]);
        sum += r[i];
        by_pred[i] = (predicted_row){pred[i], i};
    }
    char text[128];
    fputs("<table class=\"residuals\">\n", out);
    snprintf(text, sizeof text, "%.6g", sqrt(sq / (double)n));
    gpl_report_row(out, "root mean squared error", text);
    snprintf(text, sizeof text, "%.6g", abs_sum / (double)n);
    gpl_report_row(out, "mean absolute error", text);
    snprintf(text, sizeof text, "%.6g", sum / (double)n);
    gpl_report_row(out, "mean residual (label - prediction)", text);
    float *sorted = malloc(sizeof(float) * (size_t)n);
    if (sorted) {
        memcpy(sorted, r, sizeof(float) * (size_t)n);
        qsort(sorted, (size_t)n, sizeof(float), by_float);
        snprintf(text, sizeof text, "%.6g / %.6g / %.6g", sorted[(n - 1) * 5 / 100],
                 sorted[(n - 1) / 2], sorted[(n - 1) * 95 / 100]);
        gpl_report_row(out, "residual at 5% / 50% / 95%", text);
        free(sorted);
    }
    fputs("</table>\n", out);
    /* Mean residual in BINS bins of rows ordered by prediction. */
    qsort(by_pred, (size_t)n, sizeof *by_pred, by_prediction);
    double x[BINS], y[BINS];
    int m = 0;
    for (int b = 0; b < BINS; b++) {
        const int64_t lo = n * b / BINS, hi = n * (b + 1) / BINS;
        if (hi <= lo) continue;
        double sp = 0, sr = 0;
        for (int64_t i = lo; i < hi; i++) {
            sp += by_pred[i].prediction;
            sr += r[by_pred[i].row];
        }
        x[m] = sp / (double)(hi - lo);
        y[m++] = sr / (double)(hi - lo);
    }
    const chart_line line = {"validation rows", x, y, m};
    chart_lines(out, "residuals", "mean residual by predicted value (10 bins of rows)",
                "mean prediction", "mean residual", &line, 1, 0);
    free(r);
    free(by_pred);
}

/* The K x K matrix of label against the most probable class (the
 * largest margin). */
static void class_matrix(FILE *out, const float *margin, const float *label, int64_t n, int K)
{
    if (K > MATRIX_CLASSES) {
        fprintf(out, "<p>%d classes: more than the %d a confusion matrix shows.</p>\n", K,
                MATRIX_CLASSES);
        return;
    }
    int64_t *cell = calloc((size_t)(K * K), sizeof *cell);
    if (!cell) return;
    int64_t right = 0, counted = 0;
    for (int64_t i = 0; i < n; i++) {
        const int y = (int)label[i];
        if (y < 0 || y >= K) continue;
        int best = 0;
        for (int k = 1; k < K; k++)
            if (margin[i * K + k] > margin[i * K + best]) best = k;
        cell[y * K + best]++;
        right += best == y;
        counted++;
    }
    fprintf(out, "<p>Confusion matrix (rows: the label; columns: the most probable class); "
                 "accuracy %.4f.</p>\n<table class=\"confusion\">\n<tr><th></th>",
            counted ? (double)right / (double)counted : 0.0);
    for (int k = 0; k < K; k++) fprintf(out, "<th>predicted %d</th>", k);
    fputs("</tr>\n", out);
    for (int y = 0; y < K; y++) {
        fprintf(out, "<tr><th>label %d</th>", y);
        for (int k = 0; k < K; k++) fprintf(out, "<td>%lld</td>", (long long)cell[y * K + k]);
        fputs("</tr>\n", out);
    }
    fputs("</table>\n", out);
    free(cell);
}

/* Mean |SHAP value| of each feature (over every output) on the first
 * SHAP_ROWS rows, the largest SHAP_FEATURES as bars. */
static void shap_bars(FILE *out, const gpulayer_booster *b, const gpulayer_dataset *valid,
                      const char *name)
{
    const int64_t rows = gpulayer_dataset_num_rows(valid);
    const int64_t n = rows < SHAP_ROWS ? rows : SHAP_ROWS;
    const int32_t F = gpulayer_booster_num_features(b), K = gpulayer_booster_num_outputs(b);
    const int64_t width = (int64_t)K * (F + 1);
    gpulayer_dataset *head = NULL;
    float *phi = malloc(sizeof(float) * (size_t)(n * width));
    double *mean = calloc((size_t)(F > 0 ? F : 1), sizeof(double));
    gpl_report_ranked *ranked = malloc(sizeof *ranked * (size_t)(F > 0 ? F : 1));
    const char **names = malloc(sizeof *names * SHAP_FEATURES);
    double *values = malloc(sizeof(double) * SHAP_FEATURES);
    char (*unnamed)[24] = malloc(sizeof *unnamed * SHAP_FEATURES);
    if (!phi || !mean || !ranked || !names || !values || !unnamed ||
        gpulayer_dataset_select_rows(valid, 0, n, &head) != GPULAYER_OK ||
        gpulayer_booster_predict_contribs(b, head, 0, 0, phi, n * width) != GPULAYER_OK) {
        fputs("<p>The SHAP values could not be computed: ", out);
        svg_escape(out, gpulayer_last_error());
        fputs("</p>\n", out);
    } else {
        for (int64_t r = 0; r < n; r++)
            for (int32_t k = 0; k < K; k++)
                for (int32_t f = 0; f < F; f++)
                    mean[f] += fabs(phi[r * width + (int64_t)k * (F + 1) + f]) / (double)n;
        int m = 0;
        for (int32_t f = 0; f < F; f++)
            if (mean[f] > 0) ranked[m++] = (gpl_report_ranked){f, mean[f]};
        qsort(ranked, (size_t)m, sizeof *ranked, gpl_report_by_value_desc);
        if (m > SHAP_FEATURES) m = SHAP_FEATURES;
        for (int i = 0; i < m; i++) {
            names[i] = gpulayer_booster_feature_name(b, ranked[i].feature);
            if (!names[i]) {
                snprintf(unnamed[i], sizeof unnamed[i], "f%d", ranked[i].feature);
                names[i] = unnamed[i];
            }
            values[i] = ranked[i].value;
        }
        fprintf(out, "<p>Mean |SHAP value| of each feature over the first %lld rows of ",
                (long long)n);
        svg_escape(out, name);
        fprintf(out, ", the %d largest.</p>\n", m);
        chart_importance(out, "shap", names, values, m, "mean |SHAP value| (margin units)");
    }
    gpulayer_dataset_free(head);
    free(phi);
    free(mean);
    free(ranked);
    free(names);
    free(values);
    free(unnamed);
}

void report_validation(FILE *out, const gpulayer_booster *b, const gpulayer_dataset *valid,
                       const char *name)
{
    const int64_t n = gpulayer_dataset_num_rows(valid);
    const int K = gpulayer_booster_num_outputs(b);
    fputs("<h2>Validation set: ", out);
    svg_escape(out, name);
    fputs("</h2>\n<p>The predictions of the model as saved (up to its best round when early "
          "stopping found one) against the set's labels.</p>\n", out);
    char objective[64] = "";
    gpulayer_booster_get_param(b, "objective", objective, sizeof objective);
    float *label = malloc(sizeof(float) * (size_t)(n > 0 ? n : 1));
    float *pred = malloc(sizeof(float) * (size_t)(n > 0 ? n : 1) * (size_t)(K > 0 ? K : 1));
    /* Multiclass: margins, K a row whatever the objective's output. */
    const int multi = !strncmp(objective, "multi:", 6) && K > 1;
    if (n <= 0 || !label || !pred ||
        gpulayer_dataset_get_label(valid, label, n) != GPULAYER_OK ||
        gpulayer_booster_predict(b, valid, multi ? GPULAYER_PREDICT_MARGIN
                                                 : GPULAYER_PREDICT_DEFAULT,
                                 0, pred, n * K) != GPULAYER_OK) {
        fputs("<p>No predictions to compare: ", out);
        svg_escape(out, n <= 0 ? "the set has no rows" : gpulayer_last_error());
        fputs("</p>\n", out);
    } else if (!strncmp(objective, "rank:", 5)) {
        fputs("<p>A ranking model: its metrics are in the learning curves above.</p>\n", out);
    } else if (!strncmp(objective, "binary:", 7) && K == 1) {
        const int margins = !strcmp(objective, "binary:logitraw");
        binary_curves(out, pred, label, n, margins ? 0.0 : 0.5);
        if (!strcmp(objective, "binary:logistic")) calibration(out, pred, label, n);
    } else if (multi) {
        class_matrix(out, pred, label, n, K);
    } else if (K == 1) {
        residuals(out, pred, label, n);
    }
    free(label);
    free(pred);
    if (n > 0) shap_bars(out, b, valid, name);
}
