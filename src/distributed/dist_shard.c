/* dist_shard.c -- per-rank file names and in-place row slices. */
#include "dist_shard.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gpl_dist_is_pattern(const char *path) { return path && strstr(path, "%d") != NULL; }

char *gpl_dist_shard_path(const char *pattern, int rank)
{
    /* Spliced by hand, never used as a format: the rest of the path may
     * hold other % signs. */
    const char *at = strstr(pattern, "%d");
    if (!at) return strdup(pattern);
    char digits[16];
    int nd = snprintf(digits, sizeof digits, "%d", rank);
    size_t head = (size_t)(at - pattern), tail = strlen(at + 2);
    char *out = malloc(head + (size_t)nd + tail + 1);
    if (!out) return NULL;
    memcpy(out, pattern, head);
    memcpy(out + head, digits, (size_t)nd);
    memcpy(out + head + (size_t)nd, at + 2, tail + 1);
    return out;
}

void gpl_dist_slice(int64_t num_rows, int rank, int size, int64_t *first,
                    int64_t *count)
{
    int64_t begin = num_rows * rank / size, end = num_rows * (rank + 1) / size;
    *first = begin;
    *count = end - begin;
}

void gpl_dist_keep_rows(gpulayer_dataset *ds, int64_t first, int64_t count)
{
    const int64_t n = ds->num_rows;
    /* Column f moves down to f * count: never past the start of column
     * f + 1's rows, which are still to move. */
    for (int32_t f = 0; f < ds->num_cols; f++)
        memmove(ds->values + (int64_t)f * count, ds->values + (int64_t)f * n + first,
                sizeof(float) * (size_t)count);
    if (ds->label) memmove(ds->label, ds->label + first, sizeof(float) * (size_t)count);
    if (ds->weight) memmove(ds->weight, ds->weight + first, sizeof(float) * (size_t)count);
    if (ds->base_margin) {
        const int64_t w = ds->base_margin_width;
        memmove(ds->base_margin, ds->base_margin + first * w, sizeof(float) * (size_t)(count * w));
    }
    ds->num_rows = count;
}
