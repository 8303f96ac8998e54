/* dataset_read.c -- a dataset from a file: the format from the name or the
 * first line, one of the readers, then the group and base margin files the
 * options name. */
#include <string.h>
#include <strings.h>

#include "dataset.h"
#include "error.h"
#include "reader.h"
#include "reader_text.h"

#define INVALID GPULAYER_ERR_INVALID_ARGUMENT

static int ends_with(const char *s, size_t len, const char *suffix)
{
    size_t n = strlen(suffix);
    return len >= n && strncasecmp(s + len - n, suffix, n) == 0;
}

/* The format named by the extension (after any .gz), or AUTO. */
static gpulayer_file_format format_from_name(const char *path)
{
    size_t len = strlen(path);
    if (ends_with(path, len, ".gz")) len -= 3;
    if (ends_with(path, len, ".csv")) return GPULAYER_FORMAT_CSV;
    if (ends_with(path, len, ".tsv") || ends_with(path, len, ".tab"))
        return GPULAYER_FORMAT_TSV;
    if (ends_with(path, len, ".svm") || ends_with(path, len, ".libsvm"))
        return GPULAYER_FORMAT_LIBSVM;
    return GPULAYER_FORMAT_AUTO;
}

gpulayer_status gpulayer_dataset_read_file(const char *path,
                                           const gpulayer_read_options *options,
                                           gpulayer_dataset **out)
{
    static const char fn[] = "gpulayer_dataset_read_file";
    static const gpulayer_read_options defaults;
    if (!out) return gpl_error(INVALID, "%s: out is NULL", fn);
    *out = NULL;
    if (!path || !path[0]) return gpl_error(INVALID, "%s: no file name given", fn);
    const gpulayer_read_options *opts = options ? options : &defaults;
    gpulayer_file_format format = opts->format;
    if (format < GPULAYER_FORMAT_AUTO || format > GPULAYER_FORMAT_LIBSVM)
        return gpl_error(INVALID, "%s: unknown file format %d", fn, (int)format);
    if (format == GPULAYER_FORMAT_AUTO) format = format_from_name(path);

    gpl_text text;
    GPL_CHECK(gpl_text_read(path, &text));
    /* No telling extension (.txt, .train, none): look at the first line. */
    if (format == GPULAYER_FORMAT_AUTO) format = gpl_sniff_format(text.data, text.len);
    gpulayer_status st;
    if (format == GPULAYER_FORMAT_LIBSVM)
        st = gpl_parse_libsvm(&text, path, opts, out);
    else
        st = gpl_parse_delimited(&text, path, format == GPULAYER_FORMAT_TSV ? '\t' : ',',
                                 opts, out);
    gpl_text_free(&text);
    if (st == GPULAYER_OK && opts->group_file && opts->group_file[0]) {
        if ((*out)->group_ptr)
            st = gpl_error(INVALID, "%s: the query groups are given twice: by %s and by "
                           "the group file %s; give one of them", path,
                           format == GPULAYER_FORMAT_LIBSVM ? "its qid:N tokens"
                                                            : "the qid column",
                           opts->group_file);
        else
            st = gpl_dataset_read_group_file(*out, opts->group_file);
        if (st != GPULAYER_OK) {
            gpulayer_dataset_free(*out);
            *out = NULL;
        }
    }
    if (st == GPULAYER_OK && opts->base_margin_file && opts->base_margin_file[0]) {
        st = gpl_dataset_read_base_margin_file(*out, opts->base_margin_file);
        if (st != GPULAYER_OK) {
            gpulayer_dataset_free(*out);
            *out = NULL;
        }
    }
    return st;
}
