/* reader_text.h -- pieces shared by the text data readers: loading a whole
 * (possibly gzip-compressed) file, number and missing-value recognition, a
 * string table for category names, and the in-memory parsers behind
 * gpl_read_delimited and gpl_read_libsvm. */
#ifndef GPL_READER_TEXT_H
#define GPL_READER_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "dataset.h"

/* The decompressed bytes of a file, followed by a NUL that is not counted
 * in len (the parsers never depend on it, but it keeps strtof safe). */
typedef struct gpl_text {
    char *data;
    size_t len;
} gpl_text;

/* Reads the whole file; gzip is recognised by its magic bytes, other
 * compressors (xz, bzip2, zstd) are refused with a hint. Errors are
 * GPULAYER_ERR_IO and name the file. A text whose lines end with a lone CR
 * (old Mac files: no LF anywhere) comes back with LFs in their place. */
gpulayer_status gpl_text_read(const char *path, gpl_text *out);
void gpl_text_free(gpl_text *text);

/* Parses the characters [s, e) as a decimal number: optional sign, digits
 * with an optional fraction, optional exponent, or inf/infinity. No
 * surrounding blanks. Returns 1 and stores the value rounded exactly as
 * strtof does in the C locale, or 0 when the text is not such a number. */
int gpl_parse_float(const char *s, const char *e, float *out);

/* What is wrong with the text [s, e) of a number that parsed to an
 * infinity or NaN: "is not finite" for inf or nan written out, "is beyond
 * the float range (magnitude above 3.4e38)" for a decimal such as 1e39,
 * which float cannot hold. */
const char *gpl_not_finite_why(const char *s, const char *e);

/* Non-zero for the cells that mean "missing": "", NA, N/A, NaN, nan, NAN,
 * null, NULL and "?". */
int gpl_is_missing_marker(const char *s, size_t len);

/* Returns the format that the first data line of a text looks like: LIBSVM
 * for "label idx:val ...", TSV when it holds tabs, CSV otherwise. */
gpulayer_file_format gpl_sniff_format(const char *data, size_t len);

/* Interns byte strings and numbers them 0, 1, 2, ... in order of first
 * appearance. */
typedef struct gpl_strtab gpl_strtab;

gpl_strtab *gpl_strtab_create(void);
void gpl_strtab_free(gpl_strtab *tab);
/* The id of the string, added if new; -1 when out of memory (error set). */
int32_t gpl_strtab_intern(gpl_strtab *tab, const char *s, size_t len);
int32_t gpl_strtab_count(const gpl_strtab *tab);
/* The NUL-terminated string with the given id (valid until the next
 * intern). */
const char *gpl_strtab_string(const gpl_strtab *tab, int32_t id);
/* Builds a dictionary of the strings in strcmp order and stores in
 * rank[id] the code (sorted position) of each id; rank has count slots. */
gpulayer_status gpl_strtab_to_dict(const gpl_strtab *tab, int32_t *rank,
                                   gpl_category_dict **out);

/* The parsers proper, on text already in memory; name is used in messages.
 * The text is not modified. opts may be NULL. */
gpulayer_status gpl_parse_delimited(const gpl_text *text, const char *name,
                                    char delimiter,
                                    const gpulayer_read_options *opts,
                                    gpulayer_dataset **out);
gpulayer_status gpl_parse_libsvm(const gpl_text *text, const char *name,
                                 const gpulayer_read_options *opts,
                                 gpulayer_dataset **out);

#endif
