/* svg.h -- the few SVG elements the training report draws, written to a
 * stream as XML an HTML page can hold inline (no namespace declaration, so
 * the page names no outside address). Text and attribute values are
 * escaped: feature and file names come from user data. */
#ifndef GPL_CLI_SVG_H
#define GPL_CLI_SVG_H

#include <stdio.h>

/* Text with &, <, >, " and ' escaped, usable as element text and as a
 * quoted attribute value. */
void svg_escape(FILE *out, const char *text);

/* <svg class=CLASS width=W height=H viewBox="0 0 W H" role="img"
 * aria-label=LABEL>; svg_end closes it. */
void svg_begin(FILE *out, const char *css_class, double width, double height,
               const char *label);
void svg_end(FILE *out);

/* <g class=CLASS> ... </g>: groups a chart's parts for styling and for
 * readers of the file. */
void svg_group_begin(FILE *out, const char *css_class);
void svg_group_end(FILE *out);

/* The elements. css_class names what the element shows (tests and style
 * sheets find it by that); attrs is more attributes written as given, or
 * NULL: the caller's own constants and numbers, never user text. */
void svg_line(FILE *out, const char *css_class, double x1, double y1, double x2, double y2,
              const char *attrs);
void svg_rect(FILE *out, const char *css_class, double x, double y, double width,
              double height, const char *attrs);
void svg_circle(FILE *out, const char *css_class, double cx, double cy, double r,
                const char *attrs);

/* anchor: "start", "middle" or "end"; rotate: degrees about (x, y). */
void svg_text(FILE *out, const char *css_class, double x, double y, const char *anchor,
              double rotate, const char *attrs, const char *text);

/* A polyline of n points; data_set and data_metric (escaped) become
 * data-set and data-metric attributes naming the series, stroke its
 * colour. */
void svg_polyline(FILE *out, const char *css_class, const double *x, const double *y, int n,
                  const char *data_set, const char *data_metric, const char *stroke);

#endif
