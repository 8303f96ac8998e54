/* reader_margin.c -- a file of base margins for a dataset read from a
 * file: one line a row, the row's margins separated by commas, tabs or
 * blanks (one, or one an output). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dataset.h"
#include "error.h"
#include "reader_text.h"

static int is_separator(char c) { return c == ',' || c == '\t' || c == ' '; }

gpulayer_status gpl_dataset_read_base_margin_file(gpulayer_dataset *ds, const char *path)
{
    gpl_text text;
    GPL_CHECK(gpl_text_read(path, &text));
    const int64_t rows = ds->num_rows;
    float *values = NULL;
    int64_t n = 0, cap = 0, line = 0, width = -1;
    gpulayer_status st = GPULAYER_OK;
    const char *p = text.data, *end = text.data + text.len;
    while (p < end && st == GPULAYER_OK) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol) eol = end;
        const char *e = eol > p && eol[-1] == '\r' ? eol - 1 : eol;
        line++;
        int64_t count = 0;
        for (const char *s = p; s < e && st == GPULAYER_OK;) {
            while (s < e && is_separator(*s)) s++;
            if (s == e) break;
            const char *t = s;
            while (t < e && !is_separator(*t)) t++;
            float v;
            if (!gpl_parse_float(s, t, &v) || v != v || v - v != 0.0f) {
                const int number = gpl_parse_float(s, t, &v);
                st = gpl_error(GPULAYER_ERR_PARSE, "%s:%lld: '%.*s' %s (a base margin)",
                               path, (long long)line, (int)(t - s > 40 ? 40 : t - s), s,
                               number ? gpl_not_finite_why(s, t) : "is not a number");
                break;
            }
            if (n == cap) {
                cap = cap ? 2 * cap : 1024;
                float *grown = realloc(values, sizeof(float) * (size_t)cap);
                if (!grown) {
                    st = gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "%s: out of memory", path);
                    break;
                }
                values = grown;
            }
            values[n++] = v;
            count++;
            s = t;
        }
        if (st == GPULAYER_OK && count > 0) {
            if (width < 0) width = count;
            else if (count != width)
                st = gpl_error(GPULAYER_ERR_PARSE,
                               "%s:%lld: %lld base margins, but the first line has %lld",
                               path, (long long)line, (long long)count, (long long)width);
        }
        p = eol + 1;
    }
    gpl_text_free(&text);
    if (st == GPULAYER_OK && (width <= 0 || n / width != rows))
        st = gpl_error(GPULAYER_ERR_PARSE, "%s: %lld lines of base margins for %lld rows of %s",
                       path, (long long)(width > 0 ? n / width : 0), (long long)rows,
                       ds->source ? ds->source : "the data");
    if (st == GPULAYER_OK) st = gpulayer_dataset_set_base_margin(ds, values, n);
    free(values);
    return st;
}
