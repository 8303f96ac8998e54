/* dist_shard.h -- how a rank finds its rows: its own file (a path pattern
 * with %d for the rank) or a contiguous slice of one file. */
#ifndef GPL_DIST_SHARD_H
#define GPL_DIST_SHARD_H

#include <stdint.h>

#include "dataset.h"

/* Non-zero when path holds %d, i.e. names one file per rank. */
int gpl_dist_is_pattern(const char *path);
/* pattern with its first %d replaced by rank, malloc'd (NULL: no memory). */
char *gpl_dist_shard_path(const char *pattern, int rank);
/* The slice of rank among size ranks of num_rows rows:
 * [rank * n / size, (rank + 1) * n / size). */
void gpl_dist_slice(int64_t num_rows, int rank, int size, int64_t *first,
                    int64_t *count);
/* Keeps rows [first, first + count) of ds, in place. */
void gpl_dist_keep_rows(gpulayer_dataset *ds, int64_t first, int64_t count);

#endif
