/* svg.c -- SVG elements written to a stream (see svg.h). */
#include "svg.h"

void svg_escape(FILE *out, const char *text)
{
    for (const char *c = text ? text : ""; *c; c++) {
        switch (*c) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default:
            /* Control characters are not allowed in XML 1.0 text. */
            if ((unsigned char)*c < 0x20 && *c != '\t' && *c != '\n') fputc(' ', out);
            else fputc(*c, out);
        }
    }
}

static void open_element(FILE *out, const char *name, const char *css_class)
{
    fprintf(out, "<%s", name);
    if (css_class) {
        fputs(" class=\"", out);
        svg_escape(out, css_class);
        fputc('"', out);
    }
}

static void close_empty(FILE *out, const char *attrs)
{
    if (attrs) fprintf(out, " %s", attrs);
    fputs("/>\n", out);
}

void svg_begin(FILE *out, const char *css_class, double width, double height,
               const char *label)
{
    open_element(out, "svg", css_class);
    fprintf(out, " width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\"",
            width, height, width, height);
    fputs(" aria-label=\"", out);
    svg_escape(out, label);
    fputs("\">\n", out);
}

void svg_end(FILE *out) { fputs("</svg>\n", out); }

void svg_group_begin(FILE *out, const char *css_class)
{
    open_element(out, "g", css_class);
    fputs(">\n", out);
}

void svg_group_end(FILE *out) { fputs("</g>\n", out); }

void svg_line(FILE *out, const char *css_class, double x1, double y1, double x2, double y2,
              const char *attrs)
{
    open_element(out, "line", css_class);
    fprintf(out, " x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"", x1, y1, x2, y2);
    close_empty(out, attrs);
}

void svg_rect(FILE *out, const char *css_class, double x, double y, double width,
              double height, const char *attrs)
{
    open_element(out, "rect", css_class);
    fprintf(out, " x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"", x, y, width, height);
    close_empty(out, attrs);
}

void svg_circle(FILE *out, const char *css_class, double cx, double cy, double r,
                const char *attrs)
{
    open_element(out, "circle", css_class);
    fprintf(out, " cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\"", cx, cy, r);
    close_empty(out, attrs);
}

void svg_text(FILE *out, const char *css_class, double x, double y, const char *anchor,
              double rotate, const char *attrs, const char *text)
{
    open_element(out, "text", css_class);
    fprintf(out, " x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\"", x, y, anchor);
    if (rotate != 0.0)
        fprintf(out, " transform=\"rotate(%.0f %.2f %.2f)\"", rotate, x, y);
    if (attrs) fprintf(out, " %s", attrs);
    fputc('>', out);
    svg_escape(out, text);
    fputs("</text>\n", out);
}

void svg_polyline(FILE *out, const char *css_class, const double *x, const double *y, int n,
                  const char *data_set, const char *data_metric, const char *stroke)
{
    open_element(out, "polyline", css_class);
    fputs(" data-set=\"", out);
    svg_escape(out, data_set);
    fputs("\" data-metric=\"", out);
    svg_escape(out, data_metric);
    fprintf(out, "\" fill=\"none\" stroke=\"%s\" points=\"", stroke);
    for (int i = 0; i < n; i++) fprintf(out, "%s%.2f,%.2f", i ? " " : "", x[i], y[i]);
    fputs("\"/>\n", out);
}
