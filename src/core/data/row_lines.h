/* row_lines.h -- the line of a text file each row of a dataset starts on,
 * so that a message about a row names the line an editor shows, as the
 * readers' own messages do. */
#ifndef GPL_ROW_LINES_H
#define GPL_ROW_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "gpulayer.h"

/* Row r starts on line line[k] + (r - row[k]) for the last mark k with
 * row[k] <= r. A mark is added only where a row does not start on the
 * line after the previous one (blank or comment lines, a quoted field
 * across lines), so a file of one row a line keeps a single mark. */
typedef struct gpl_row_lines {
    int64_t *row, *line;
    int64_t count, cap;
} gpl_row_lines;

/* Records that row `row` (rows are added in order) starts on `line`. */
gpulayer_status gpl_row_lines_add(gpl_row_lines *l, int64_t row, int64_t line);
/* The line row `row` starts on; 0 where none was recorded. */
int64_t gpl_row_lines_find(const gpl_row_lines *l, int64_t row);
/* The marks moved into a new allocation for a dataset (NULL when there
 * are none or out of memory, which costs only the line numbers); l is
 * left empty. */
gpl_row_lines *gpl_row_lines_take(gpl_row_lines *l);
void gpl_row_lines_clear(gpl_row_lines *l);
void gpl_row_lines_free(gpl_row_lines *l);

#endif
