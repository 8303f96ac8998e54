/* row_lines.c -- rows to lines of their file (row_lines.h). */
#include "row_lines.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"

gpulayer_status gpl_row_lines_add(gpl_row_lines *l, int64_t row, int64_t line)
{
    /* Rows come in order: only the last mark can cover this one. */
    const int64_t last = l->count - 1;
    if (last >= 0 && l->line[last] + (row - l->row[last]) == line) return GPULAYER_OK;
    if (l->count == l->cap) {
        const int64_t cap = l->cap ? 2 * l->cap : 16;
        int64_t *rows = gpl_malloc((size_t)cap * sizeof *rows, "row line numbers");
        int64_t *lines = rows ? gpl_malloc((size_t)cap * sizeof *lines, "row line numbers")
                              : NULL;
        if (!lines) {
            free(rows);
            return GPULAYER_ERR_OUT_OF_MEMORY;
        }
        if (l->count) {
            memcpy(rows, l->row, (size_t)l->count * sizeof *rows);
            memcpy(lines, l->line, (size_t)l->count * sizeof *lines);
        }
        free(l->row);
        free(l->line);
        l->row = rows;
        l->line = lines;
        l->cap = cap;
    }
    l->row[l->count] = row;
    l->line[l->count] = line;
    l->count++;
    return GPULAYER_OK;
}

int64_t gpl_row_lines_find(const gpl_row_lines *l, int64_t row)
{
    if (!l || l->count == 0 || row < l->row[0]) return 0;
    int64_t lo = 0, hi = l->count - 1;
    while (lo < hi) { /* the last mark at or before row */
        const int64_t mid = lo + (hi - lo + 1) / 2;
        if (l->row[mid] <= row) lo = mid;
        else hi = mid - 1;
    }
    return l->line[lo] + (row - l->row[lo]);
}

gpl_row_lines *gpl_row_lines_take(gpl_row_lines *l)
{
    gpl_row_lines *out = l->count ? malloc(sizeof *out) : NULL;
    if (out) {
        *out = *l;
        memset(l, 0, sizeof *l);
    }
    return out;
}

void gpl_row_lines_clear(gpl_row_lines *l)
{
    if (!l) return;
    free(l->row);
    free(l->line);
    memset(l, 0, sizeof *l);
}

void gpl_row_lines_free(gpl_row_lines *l)
{
    gpl_row_lines_clear(l);
    free(l);
}
