/* report_charts.c -- the charts of the training report (report_charts.h). */
#include "report_charts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "svg.h"

/* Colours by data set, told apart in print and by most colour-blind
 * readers (Tableau 10). */
static const char *const palette[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                      "#9467bd", "#8c564b", "#e377c2", "#bcbd22",
                                      "#17becf", "#7f7f7f"};
#define PALETTE_SIZE ((int)(sizeof palette / sizeof palette[0]))

/* Names longer than this are cut (at a character boundary) on the charts;
 * the tables keep them whole. */
#define LABEL_BYTES 40

void gpl_report_row(FILE *out, const char *key, const char *value)
{
    fputs("<tr><th>", out);
    svg_escape(out, key);
    fputs("</th><td>", out);
    svg_escape(out, value);
    fputs("</td></tr>\n", out);
}

int gpl_report_by_value_desc(const void *a, const void *b)
{
    const gpl_report_ranked *x = a, *y = b;
    if (x->value != y->value) return x->value < y->value ? 1 : -1;
    return (x->feature > y->feature) - (x->feature < y->feature);
}

/* ------------------------------------------------------------ axes */

typedef struct axis {
    double lo, hi;  /* the domain, widened to whole ticks */
    double step;    /* between ticks */
    int digits;     /* decimals of the tick labels */
} axis;

/* 1, 2 or 5 times a power of ten, so that the range holds at most about
 * max_ticks steps. */
static double nice_step(double range, int max_ticks)
{
    double raw = range / max_ticks;
    double magnitude = pow(10.0, floor(log10(raw)));
    double f = raw / magnitude;
    return (f <= 1.0 ? 1.0 : f <= 2.0 ? 2.0 : f <= 5.0 ? 5.0 : 10.0) * magnitude;
}

static axis make_axis(double lo, double hi, int max_ticks, int whole_numbers)
{
    if (!(hi > lo)) {
        /* One value: a band around it, so that it sits mid-chart. */
        double pad = lo != 0.0 ? fabs(lo) * 0.05 : 0.5;
        if (whole_numbers) pad = 1.0;
        lo -= pad;
        hi += pad;
    }
    axis a;
    a.step = nice_step(hi - lo, max_ticks);
    if (whole_numbers && a.step < 1.0) a.step = 1.0;
    a.lo = floor(lo / a.step) * a.step;
    a.hi = ceil(hi / a.step) * a.step;
    int digits = (int)-floor(log10(a.step));
    a.digits = digits < 0 ? 0 : digits > 12 ? 12 : digits;
    return a;
}

static double scale(const axis *a, double v, double from, double to)
{
    return from + (v - a->lo) / (a->hi - a->lo) * (to - from);
}

static void tick_label(const axis *a, double v, char *buf, size_t size)
{
    if (fabs(v) >= 1e7) snprintf(buf, size, "%.3g", v);
    else snprintf(buf, size, "%.*f", a->digits, fabs(v) < a->step * 1e-9 ? 0.0 : v);
}

/* Ticks, labels and grid lines along the x axis at y (the plot spans
 * [x0, x1] by [top, y]). */
static void x_axis(FILE *out, const axis *a, double x0, double x1, double top, double y,
                   const char *label)
{
    char text[64];
    svg_group_begin(out, "x-axis");
    svg_line(out, "axis-line", x0, y, x1, y, NULL);
    for (double k = ceil(a->lo / a->step - 1e-9); k * a->step <= a->hi + a->step * 1e-9; k++) {
        double v = k * a->step, x = scale(a, v, x0, x1);
        svg_line(out, "grid", x, top, x, y, NULL);
        svg_line(out, "tick", x, y, x, y + 5, NULL);
        tick_label(a, v, text, sizeof text);
        svg_text(out, "tick-label", x, y + 18, "middle", 0, NULL, text);
    }
    svg_text(out, "axis-label", (x0 + x1) / 2, y + 38, "middle", 0, NULL, label);
    svg_group_end(out);
}

/* The same up the y axis at x, the plot spanning [x, right] by
 * [y_top, y_bottom]. */
static void y_axis(FILE *out, const axis *a, double x, double right, double y_top,
                   double y_bottom, const char *label)
{
    char text[64];
    svg_group_begin(out, "y-axis");
    svg_line(out, "axis-line", x, y_top, x, y_bottom, NULL);
    for (double k = ceil(a->lo / a->step - 1e-9); k * a->step <= a->hi + a->step * 1e-9; k++) {
        double v = k * a->step, y = scale(a, v, y_bottom, y_top);
        svg_line(out, "grid", x, y, right, y, NULL);
        svg_line(out, "tick", x - 5, y, x, y, NULL);
        tick_label(a, v, text, sizeof text);
        svg_text(out, "tick-label", x - 8, y + 4, "end", 0, NULL, text);
    }
    svg_text(out, "axis-label", x - 56, (y_top + y_bottom) / 2, "middle", -90, NULL, label);
    svg_group_end(out);
}

/* name, cut to LABEL_BYTES at a UTF-8 character boundary. */
static const char *short_label(const char *name, char *buf, size_t size)
{
    size_t len = strlen(name);
    if (len <= LABEL_BYTES || size < LABEL_BYTES + 4) return name;
    size_t cut = LABEL_BYTES - 1;
    while (cut > 0 && ((unsigned char)name[cut] & 0xC0) == 0x80) cut--;
    memcpy(buf, name, cut);
    memcpy(buf + cut, "\xE2\x80\xA6", 4); /* an ellipsis, and the NUL */
    return buf;
}

/* name, its start cut so that at most LEGEND_BYTES remain: the end of a
 * path names the file. */
#define LEGEND_BYTES 28
static const char *tail_label(const char *name, char *buf, size_t size)
{
    size_t len = strlen(name);
    if (len <= LEGEND_BYTES || size < LEGEND_BYTES + 4) return name;
    const char *start = name + len - (LEGEND_BYTES - 1);
    while (*start && ((unsigned char)*start & 0xC0) == 0x80) start++;
    memcpy(buf, "\xE2\x80\xA6", 3);
    memcpy(buf + 3, start, strlen(start) + 1);
    return buf;
}

/* ------------------------------------------------------------ curves */

enum { CURVE_W = 860, CURVE_H = 340, CURVE_LEFT = 80, CURVE_RIGHT = 600,
       CURVE_TOP = 36, CURVE_BOTTOM = 290 };

static double value_at(const gpl_report_curves *h, int round, int series)
{
    return h->values[(size_t)round * (size_t)h->num_series + (size_t)series];
}

/* The index of data set name among the series' sets, in order of first
 * appearance: one colour a set across the charts. */
static int set_index(const gpl_report_curves *h, const char *name)
{
    int index = 0;
    for (int s = 0; s < h->num_series; s++) {
        if (!strcmp(h->data_names[s], name)) return index;
        int seen = 0;
        for (int t = 0; t < s && !seen; t++) seen = !strcmp(h->data_names[t], h->data_names[s]);
        if (!seen) index++;
    }
    return index;
}

static void curve_chart(FILE *out, const gpl_report_curves *h, const char *metric, int best_round,
                        double *xs, double *ys)
{
    double lo = INFINITY, hi = -INFINITY;
    for (int s = 0; s < h->num_series; s++) {
        if (strcmp(h->metric_names[s], metric)) continue;
        for (int r = 0; r < h->num_rounds; r++) {
            double v = value_at(h, r, s);
            if (isfinite(v)) {
                lo = v < lo ? v : lo;
                hi = v > hi ? v : hi;
            }
        }
    }
    if (!(lo <= hi)) lo = hi = 0.0; /* no finite value at all */
    const int first = h->first_round + 1, last = h->first_round + h->num_rounds;
    axis ax = make_axis(first, last, 10, 1), ay = make_axis(lo, hi, 6, 0);
    char label[256], buf[LABEL_BYTES + 4];
    snprintf(label, sizeof label, "learning curve: %s by round", metric);
    svg_begin(out, "curve", CURVE_W, CURVE_H, label);
    svg_text(out, "chart-title", CURVE_LEFT, 20, "start", 0, NULL, metric);
    x_axis(out, &ax, CURVE_LEFT, CURVE_RIGHT, CURVE_TOP, CURVE_BOTTOM, "round");
    y_axis(out, &ay, CURVE_LEFT, CURVE_RIGHT, CURVE_TOP, CURVE_BOTTOM, metric);
    const int best = best_round - h->first_round;
    const int marked = best >= 0 && best < h->num_rounds;
    if (marked) {
        char attrs[64];
        double x = scale(&ax, best_round + 1, CURVE_LEFT, CURVE_RIGHT);
        snprintf(attrs, sizeof attrs, "data-round=\"%d\"", best_round + 1);
        svg_line(out, "best-round", x, CURVE_TOP, x, CURVE_BOTTOM, attrs);
        snprintf(label, sizeof label, "best round %d", best_round + 1);
        /* On the side of the line with room, clear of the legend. */
        const int left = x > (CURVE_LEFT + CURVE_RIGHT) / 2.0;
        svg_text(out, "best-label", left ? x - 4 : x + 4, CURVE_TOP + 12, left ? "end" : "start",
                 0, NULL, label);
    }
    int legend = 0;
    for (int s = 0; s < h->num_series; s++) {
        if (strcmp(h->metric_names[s], metric)) continue;
        const char *colour = palette[set_index(h, h->data_names[s]) % PALETTE_SIZE];
        int n = 0;
        for (int r = 0; r < h->num_rounds; r++) {
            double v = value_at(h, r, s);
            if (!isfinite(v)) continue;
            xs[n] = scale(&ax, h->first_round + r + 1, CURVE_LEFT, CURVE_RIGHT);
            ys[n++] = scale(&ay, v, CURVE_BOTTOM, CURVE_TOP);
        }
        svg_polyline(out, "series", xs, ys, n, h->data_names[s], metric, colour);
        if (n == 1) {
            /* A line of one point draws nothing. */
            char attrs[64];
            snprintf(attrs, sizeof attrs, "fill=\"%s\"", colour);
            svg_circle(out, "point", xs[0], ys[0], 3, attrs);
        }
        if (marked && isfinite(value_at(h, best, s))) {
            char attrs[64];
            snprintf(attrs, sizeof attrs, "fill=\"%s\"", colour);
            svg_circle(out, "best-point",
                       scale(&ax, best_round + 1, CURVE_LEFT, CURVE_RIGHT),
                       scale(&ay, value_at(h, best, s), CURVE_BOTTOM, CURVE_TOP), 4, attrs);
        }
        double y = CURVE_TOP + 8 + 20 * legend++;
        char attrs[64];
        snprintf(attrs, sizeof attrs, "stroke=\"%s\"", colour);
        svg_line(out, "legend-line", CURVE_RIGHT + 16, y, CURVE_RIGHT + 40, y, attrs);
        svg_text(out, "legend-label", CURVE_RIGHT + 46, y + 4, "start", 0, NULL,
                 tail_label(h->data_names[s], buf, sizeof buf));
    }
    svg_end(out);
}

void chart_learning_curves(FILE *out, const gpl_report_curves *h, int best_round)
{
    double *xs = malloc(sizeof(double) * (size_t)(h->num_rounds ? h->num_rounds : 1));
    double *ys = malloc(sizeof(double) * (size_t)(h->num_rounds ? h->num_rounds : 1));
    if (!xs || !ys) {
        fputs("<p>Out of memory drawing the learning curves.</p>\n", out);
    } else {
        /* A chart for each metric, at its first series. */
        for (int s = 0; s < h->num_series; s++) {
            int seen = 0;
            for (int t = 0; t < s && !seen; t++)
                seen = !strcmp(h->metric_names[t], h->metric_names[s]);
            if (!seen) curve_chart(out, h, h->metric_names[s], best_round, xs, ys);
        }
    }
    free(xs);
    free(ys);
}

/* ------------------------------------------------------------ lines */

void chart_lines(FILE *out, const char *css_class, const char *title, const char *x_label,
                 const char *y_label, const chart_line *lines, int num_lines, int diagonal)
{
    double x_lo = diagonal ? 0 : INFINITY, x_hi = diagonal ? 1 : -INFINITY;
    double y_lo = x_lo, y_hi = x_hi;
    for (int l = 0; l < num_lines; l++)
        for (int i = 0; i < lines[l].n; i++) {
            const double x = lines[l].x[i], y = lines[l].y[i];
            if (!isfinite(x) || !isfinite(y)) continue;
            x_lo = x < x_lo ? x : x_lo;
            x_hi = x > x_hi ? x : x_hi;
            y_lo = y < y_lo ? y : y_lo;
            y_hi = y > y_hi ? y : y_hi;
        }
    if (!(x_lo <= x_hi)) x_lo = x_hi = 0.0;
    if (!(y_lo <= y_hi)) y_lo = y_hi = 0.0;
    axis ax = make_axis(x_lo, x_hi, 10, 0), ay = make_axis(y_lo, y_hi, 6, 0);
    char buf[LABEL_BYTES + 4], attrs[64];
    svg_begin(out, css_class, CURVE_W, CURVE_H, title);
    svg_text(out, "chart-title", CURVE_LEFT, 20, "start", 0, NULL, title);
    x_axis(out, &ax, CURVE_LEFT, CURVE_RIGHT, CURVE_TOP, CURVE_BOTTOM, x_label);
    y_axis(out, &ay, CURVE_LEFT, CURVE_RIGHT, CURVE_TOP, CURVE_BOTTOM, y_label);
    if (diagonal)
        svg_line(out, "best-round", scale(&ax, 0, CURVE_LEFT, CURVE_RIGHT),
                 scale(&ay, 0, CURVE_BOTTOM, CURVE_TOP), scale(&ax, 1, CURVE_LEFT, CURVE_RIGHT),
                 scale(&ay, 1, CURVE_BOTTOM, CURVE_TOP), NULL);
    for (int l = 0; l < num_lines; l++) {
        const chart_line *line = &lines[l];
        const char *colour = palette[l % PALETTE_SIZE];
        double *xs = malloc(sizeof(double) * (size_t)(line->n > 0 ? line->n : 1));
        double *ys = malloc(sizeof(double) * (size_t)(line->n > 0 ? line->n : 1));
        int n = 0;
        for (int i = 0; xs && ys && i < line->n; i++) {
            if (!isfinite(line->x[i]) || !isfinite(line->y[i])) continue;
            xs[n] = scale(&ax, line->x[i], CURVE_LEFT, CURVE_RIGHT);
            ys[n++] = scale(&ay, line->y[i], CURVE_BOTTOM, CURVE_TOP);
        }
        svg_polyline(out, "series", xs, ys, n, line->name, y_label, colour);
        snprintf(attrs, sizeof attrs, "fill=\"%s\"", colour);
        if (n == 1) svg_circle(out, "point", xs[0], ys[0], 3, attrs);
        free(xs);
        free(ys);
        const double y = CURVE_TOP + 8 + 20 * l;
        snprintf(attrs, sizeof attrs, "stroke=\"%s\"", colour);
        svg_line(out, "legend-line", CURVE_RIGHT + 16, y, CURVE_RIGHT + 40, y, attrs);
        svg_text(out, "legend-label", CURVE_RIGHT + 46, y + 4, "start", 0, NULL,
                 tail_label(line->name, buf, sizeof buf));
    }
    svg_end(out);
}

/* ------------------------------------------------------------ importance */

enum { BAR_W = 780, BAR_HEIGHT = 18, BAR_GAP = 6, BAR_TOP = 10, BAR_VALUE_ROOM = 80 };

void chart_importance(FILE *out, const char *css_class, const char *const *names,
                      const double *values, int n, const char *value_label)
{
    char buf[LABEL_BYTES + 4], text[64], attrs[96];
    /* Labels get the room their longest needs, at about 7 pixels a
     * character of the chart's font. */
    double label_w = 60;
    for (int i = 0; i < n; i++) {
        double w = 7.0 * (double)strlen(short_label(names[i], buf, sizeof buf)) + 12;
        if (w > label_w) label_w = w;
    }
    if (label_w > 300) label_w = 300;
    const double right = BAR_W - BAR_VALUE_ROOM;
    const double bottom = BAR_TOP + n * (BAR_HEIGHT + BAR_GAP);
    axis ax = make_axis(0.0, n > 0 && values[0] > 0 ? values[0] : 1.0, 6, 0);
    snprintf(text, sizeof text, "feature importance: %s", value_label);
    svg_begin(out, css_class, BAR_W, bottom + 50, text);
    x_axis(out, &ax, label_w, right, BAR_TOP, bottom, value_label);
    for (int i = 0; i < n; i++) {
        double y = BAR_TOP + i * (BAR_HEIGHT + BAR_GAP) + BAR_GAP / 2.0;
        double w = scale(&ax, values[i] > 0 ? values[i] : 0, label_w, right) - label_w;
        snprintf(attrs, sizeof attrs, "data-value=\"%.17g\" fill=\"%s\"", values[i],
                 palette[0]);
        svg_rect(out, "bar", label_w, y, w, BAR_HEIGHT, attrs);
        svg_text(out, "bar-label", label_w - 6, y + BAR_HEIGHT - 5, "end", 0, NULL,
                 short_label(names[i], buf, sizeof buf));
        snprintf(text, sizeof text, "%.4g", values[i]);
        svg_text(out, "bar-value", label_w + w + 4, y + BAR_HEIGHT - 5, "start", 0, NULL, text);
    }
    svg_end(out);
}
