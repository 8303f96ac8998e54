/* test_reader.c -- CSV, TSV and LibSVM reading: parsing, categorical
 * columns, number conversion, error messages and the real data sets. */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "dataset.h"
#include "error.h"
#include "reader.h"
#include "reader_text.h"

/* ---------------------------------------------------------------- helpers */

static gpulayer_dataset *read_ok(const char *path, const gpulayer_read_options *o)
{
    gpulayer_dataset *ds = NULL;
    gpulayer_status st = gpulayer_dataset_read_file(path, o, &ds);
    if (st != GPULAYER_OK) print_error("unexpected error: %s\n", gpulayer_last_error());
    assert_int_equal(st, GPULAYER_OK);
    assert_non_null(ds);
    return ds;
}

/* Reads text saved under name and returns the dataset. */
static gpulayer_dataset *parse_ok(const char *name, const char *text,
                                  const gpulayer_read_options *o)
{
    return read_ok(gpl_test_write_file(name, text), o);
}

static void assert_contains(const char *haystack, const char *needle)
{
    if (!strstr(haystack, needle))
        fail_msg("message \"%s\" lacks \"%s\"", haystack, needle);
}

/* Reading path must fail with status and a message holding every needle
 * (a NULL-terminated list). */
static void expect_error_path(const char *path, const gpulayer_read_options *o,
                              gpulayer_status status, ...)
{
    gpulayer_dataset *ds = (gpulayer_dataset *)1;
    gpl_error_clear(); /* a success must not show an older message */
    gpulayer_status st = gpulayer_dataset_read_file(path, o, &ds);
    if (st != status)
        fail_msg("status %d (expected %d): %s", (int)st, (int)status,
                 gpulayer_last_error());
    assert_null(ds);
    va_list ap;
    va_start(ap, status);
    for (const char *needle; (needle = va_arg(ap, const char *)) != NULL;)
        assert_contains(gpulayer_last_error(), needle);
    va_end(ap);
}

#define expect_error(name, text, opts, status, ...) \
    expect_error_path(gpl_test_write_file(name, text), opts, status, __VA_ARGS__, NULL)

static float V(const gpulayer_dataset *ds, int64_t r, int32_t c)
{
    return gpl_dataset_value(ds, r, c);
}

static const gpl_category_dict *dict_of(const gpulayer_dataset *ds, int32_t c)
{
    return ds->categories ? ds->categories[c] : NULL;
}

static const char *write_bytes(const char *name, const void *data, size_t len)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", gpl_test_tmpdir(), name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
    return path;
}

static const char *write_gzip(const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", gpl_test_tmpdir(), name);
    gzFile g = gzopen(path, "wb");
    assert_non_null(g);
    assert_int_equal(gzwrite(g, text, (unsigned)strlen(text)), (int)strlen(text));
    assert_int_equal(gzclose(g), Z_OK);
    return path;
}

/* ------------------------------------------------------------ CSV basics */

/* The cell rule exported for data frames: the reader's missing markers and
 * number grammar, blanks around the cell trimmed; and the 95% rule. */
static void test_text_cells_and_numeric_share(void **state)
{
    (void)state;
    const char *cells[] = {"1e3", " 7 ", "\t-2.5\r", "inf", "", "NA", "nan", "?", NULL,
                           "x", "0x10", "1,5", "na", "1e", " ", "7 7"};
    const int32_t expect[] = {GPULAYER_CELL_NUMBER, GPULAYER_CELL_NUMBER, GPULAYER_CELL_NUMBER,
                              GPULAYER_CELL_NUMBER, GPULAYER_CELL_MISSING, GPULAYER_CELL_MISSING,
                              GPULAYER_CELL_MISSING, GPULAYER_CELL_MISSING, GPULAYER_CELL_MISSING,
                              GPULAYER_CELL_TEXT, GPULAYER_CELL_TEXT, GPULAYER_CELL_TEXT,
                              GPULAYER_CELL_TEXT, GPULAYER_CELL_TEXT, GPULAYER_CELL_MISSING,
                              GPULAYER_CELL_TEXT};
    const int64_t n = (int64_t)(sizeof cells / sizeof cells[0]);
    float values[sizeof cells / sizeof cells[0]];
    int32_t kinds[sizeof cells / sizeof cells[0]];
    assert_int_equal(gpulayer_read_text_cells(cells, n, values, kinds), GPULAYER_OK);
    for (int64_t i = 0; i < n; i++) {
        if (kinds[i] != expect[i]) fail_msg("cell %d: kind %d", (int)i, (int)kinds[i]);
        assert_true(isnan(values[i]) == (kinds[i] != GPULAYER_CELL_NUMBER));
    }
    assert_true(values[0] == 1000.0f && values[1] == 7.0f && values[2] == -2.5f);
    assert_true(isinf(values[3]));
    assert_int_equal(gpulayer_read_text_cells(NULL, 1, values, kinds),
                     GPULAYER_ERR_INVALID_ARGUMENT);

    assert_int_equal(gpulayer_column_looks_numeric(19, 1), 1);  /* 95% numbers */
    assert_int_equal(gpulayer_column_looks_numeric(37, 2), 0);  /* 94.9% */
    assert_int_equal(gpulayer_column_looks_numeric(38, 2), 1);
    assert_int_equal(gpulayer_column_looks_numeric(18, 1), 0);
    assert_int_equal(gpulayer_column_looks_numeric(20, 0), 0);  /* no text */
}

static void test_csv_label_by_name(void **state)
{
    (void)state;
    gpulayer_read_options o = {.label = "y"};
    gpulayer_dataset *ds = parse_ok("a.csv", "a,b,y\n1,2.5,0\n-3,4e2,1\n", &o);
    assert_int_equal(ds->num_rows, 2);
    assert_int_equal(ds->num_cols, 2);
    assert_string_equal(gpulayer_dataset_feature_name(ds, 0), "a");
    assert_string_equal(gpulayer_dataset_feature_name(ds, 1), "b");
    assert_true(V(ds, 0, 0) == 1.0f && V(ds, 1, 0) == -3.0f);
    assert_true(V(ds, 0, 1) == 2.5f && V(ds, 1, 1) == 400.0f);
    float label[2];
    assert_int_equal(gpulayer_dataset_get_label(ds, label, 2), GPULAYER_OK);
    assert_true(label[0] == 0.0f && label[1] == 1.0f);
    assert_null(ds->weight);
    assert_null(ds->categories);
    assert_non_null(ds->source);
    assert_contains(ds->source, "a.csv");
    gpulayer_dataset_free(ds);
}

static void test_csv_label_default_and_index(void **state)
{
    (void)state;
    const char *text = "y,a,b\n1,2,3\n4,5,6\n";
    gpulayer_dataset *ds = parse_ok("d.csv", text, NULL);
    assert_int_equal(ds->num_cols, 2);
    assert_true(ds->label[1] == 4.0f);
    assert_string_equal(gpulayer_dataset_feature_name(ds, 0), "a");
    gpulayer_dataset_free(ds);

    gpulayer_read_options o = {.label = "2"};
    ds = parse_ok("i.csv", text, &o);
    assert_true(ds->label[0] == 3.0f && ds->label[1] == 6.0f);
    assert_string_equal(gpulayer_dataset_feature_name(ds, 0), "y");
    assert_string_equal(gpulayer_dataset_feature_name(ds, 1), "a");
    gpulayer_dataset_free(ds);
}

static void test_csv_no_header(void **state)
{
    (void)state;
    gpulayer_read_options o = {.no_header = 1, .label = "1"};
    gpulayer_dataset *ds = parse_ok("nh.csv", "1,0,5\n2,1,6\n3,0,7\n", &o);
    assert_int_equal(ds->num_rows, 3);
    assert_int_equal(ds->num_cols, 2);
    assert_null(gpulayer_dataset_feature_name(ds, 0));
    assert_true(ds->label[0] == 0.0f && ds->label[1] == 1.0f);
    assert_true(V(ds, 2, 0) == 3.0f && V(ds, 2, 1) == 7.0f);
    gpulayer_dataset_free(ds);
}

static void test_csv_label_none(void **state)
{
    (void)state;
    gpulayer_read_options o = {.label = "none"};
    gpulayer_dataset *ds = parse_ok("p.csv", "a,b\n1,2\n", &o);
    assert_int_equal(ds->num_cols, 2);
    assert_null(ds->label);
    float l[1];
    assert_int_equal(gpulayer_dataset_get_label(ds, l, 1), GPULAYER_ERR_INVALID_ARGUMENT);
    gpulayer_dataset_free(ds);
}

static void test_csv_weight_and_ignore(void **state)
{
    (void)state;
    gpulayer_read_options o = {.label = "y", .weight_column = "w",
                               .ignore_columns = "id, note"};
    gpulayer_dataset *ds =
        parse_ok("w.csv", "id,x,w,note,y\n7,1.5,2,hello,1\n8,2.5,0.5,bye,0\n", &o);
    assert_int_equal(ds->num_cols, 1);
    assert_string_equal(gpulayer_dataset_feature_name(ds, 0), "x");
    assert_non_null(ds->weight);
    assert_true(ds->weight[0] == 2.0f && ds->weight[1] == 0.5f);
    assert_true(ds->label[0] == 1.0f);
    assert_null(ds->categories); /* the string column was dropped */
    gpulayer_dataset_free(ds);
}

static void test_csv_quoted_fields(void **state)
{
    (void)state;
    const char *text = "\"y\",\"name\",\"v\"\n"
                       "1,\"a,b\",\"3.5\"\n"
                       "0,\"he said \"\"hi\"\"\", 4 \n"
                       "1,\"two\nlines\",5\n";
    gpulayer_dataset *ds = parse_ok("q.csv", text, NULL);
    assert_int_equal(ds->num_rows, 3);
    assert_string_equal(gpulayer_dataset_feature_name(ds, 0), "name");
    const gpl_category_dict *d = dict_of(ds, 0);
    assert_non_null(d);
    assert_int_equal(d->count, 3);
    assert_string_equal(d->names[0], "a,b");
    assert_string_equal(d->names[1], "he said \"hi\"");
    assert_string_equal(d->names[2], "two\nlines");
    assert_true(V(ds, 0, 0) == 0.0f && V(ds, 1, 0) == 1.0f && V(ds, 2, 0) == 2.0f);
    /* A quoted number is a number; blanks around a cell are dropped. */
    assert_null(dict_of(ds, 1));
    assert_true(V(ds, 0, 1) == 3.5f && V(ds, 1, 1) == 4.0f && V(ds, 2, 1) == 5.0f);
    gpulayer_dataset_free(ds);
}

static void test_csv_missing_markers(void **state)
{
    (void)state;
    const char *text = "y,x\n0,\n1,NA\n0,NaN\n1,nan\n0,?\n1,null\n0,\"\"\n1,2\n";
    gpulayer_dataset *ds = parse_ok("m.csv", text, NULL);
    assert_int_equal(ds->num_rows, 8);
    assert_null(dict_of(ds, 0));
    for (int r = 0; r < 7; r++) assert_true(isnan(V(ds, r, 0)));
    assert_true(V(ds, 7, 0) == 2.0f);
    gpulayer_dataset_free(ds);
}

static void test_csv_line_endings_and_bom(void **state)
{
    (void)state;
    const char *text = "\xEF\xBB\xBFy,x\r\n1,2\r\n\r\n0,3\r\n\r\n\r\n";
    gpulayer_dataset *ds = parse_ok("crlf.csv", text, NULL);
    assert_int_equal(ds->num_rows, 2);
    assert_string_equal(gpulayer_dataset_feature_name(ds, 0), "x");
    assert_true(V(ds, 1, 0) == 3.0f && ds->label[1] == 0.0f);
    gpulayer_dataset_free(ds);

    ds = parse_ok("nonl.csv", "y,x\n1,2\n0,3", NULL); /* no final newline */
    assert_int_equal(ds->num_rows, 2);
    assert_true(V(ds, 1, 0) == 3.0f);
    gpulayer_dataset_free(ds);
}

/* Lines ended by a lone CR (old Mac files) read as lines, and give what
 * the same file with CRLF or LF endings gives: the CR-only file was one
 * long header line ("duplicate column" or "no data rows"). */
static void test_csv_cr_line_endings(void **state)
{
    (void)state;
    const char *files[][2] = {
        {"cr.csv", "y,x,c\r1,2,\"a\rb\"\r0,3,d\r"},
        {"crlf2.csv", "y,x,c\r\n1,2,\"a\r\nb\"\r\n0,3,d\r\n"},
        {"cr_nofinal.csv", "y,x,c\r1,2,\"a\rb\"\r0,3,d"},
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        gpulayer_dataset *ds = parse_ok(files[i][0], files[i][1], NULL);
        assert_int_equal(ds->num_rows, 2);
        assert_int_equal(ds->num_cols, 2);
        assert_string_equal(gpulayer_dataset_feature_name(ds, 0), "x");
        assert_string_equal(gpulayer_dataset_feature_name(ds, 1), "c");
        assert_true(ds->label[0] == 1.0f && ds->label[1] == 0.0f);
        assert_true(V(ds, 0, 0) == 2.0f && V(ds, 1, 0) == 3.0f);
        /* The quoted cell keeps its line break, as the file writes it. */
        const gpl_category_dict *d = dict_of(ds, 1);
        assert_non_null(d);
        assert_int_equal(d->count, 2);
        assert_string_equal(d->names[0], i == 1 ? "a\r\nb" : "a\nb");
        gpulayer_dataset_free(ds);
    }
    /* The same for the other readers of text files. */
    gpulayer_dataset *ds = parse_ok("cr.tsv", "y\tx\r1\t2\r0\t3\r", NULL);
    assert_int_equal(ds->num_rows, 2);
    assert_true(V(ds, 1, 0) == 3.0f);
    gpulayer_dataset_free(ds);
    ds = parse_ok("cr.svm", "1 0:2\r0 0:3\r", NULL);
    assert_int_equal(ds->num_rows, 2);
    assert_true(V(ds, 1, 0) == 3.0f && ds->label[1] == 0.0f);
    gpulayer_dataset_free(ds);
}

static void test_tsv_and_sniffing(void **state)
{
    (void)state;
    gpulayer_dataset *ds = parse_ok("t.tsv", "y\tname\tx\n1\ta b\t2\n0\tc,d\t3\n", NULL);
    assert_int_equal(ds->num_cols, 2);
    assert_string_equal(dict_of(ds, 0)->names[0], "a b");
    assert_string_equal(dict_of(ds, 0)->names[1], "c,d");
    gpulayer_dataset_free(ds);

    /* No telling extension: tabs make it TSV, "idx:val" tokens LibSVM. */
    gpulayer_read_options o = {.no_header = 1};
    ds = parse_ok("t.txt", "1\t0.5\t7\n0\t1.5\t8\n", &o);
    assert_int_equal(ds->num_cols, 2);
    assert_true(V(ds, 1, 1) == 8.0f);
    gpulayer_dataset_free(ds);
    ds = parse_ok("s.txt", "# comment\n1 0:1.5 3:2\n0 2:1\n", NULL);
    assert_int_equal(ds->num_cols, 4);
    gpulayer_dataset_free(ds);
    ds = parse_ok("s2.txt", "1\n0 1:1\n", NULL); /* a bare label first */
    assert_int_equal(ds->num_rows, 2);
    assert_int_equal(ds->num_cols, 2);
    gpulayer_dataset_free(ds);
    ds = parse_ok("c.data", "y,x\n1,2\n", NULL);
    assert_int_equal(ds->num_cols, 1);
    gpulayer_dataset_free(ds);

    /* An explicit format wins over the extension. */
    gpulayer_read_options tsv = {.format = GPULAYER_FORMAT_TSV};
    ds = parse_ok("really_tsv.csv", "y\tx\n1\t2\n", &tsv);
    assert_int_equal(ds->num_cols, 1);
    gpulayer_dataset_free(ds);
}

static void test_gzip(void **state)
{
    (void)state;
    const char *path = write_gzip("z.csv.gz", "y,c,x\n1,b,0.25\n0,a,NA\n");
    gpulayer_dataset *ds = read_ok(path, NULL);
    assert_int_equal(ds->num_rows, 2);
    assert_true(V(ds, 0, 1) == 0.25f && isnan(V(ds, 1, 1)));
    assert_true(V(ds, 0, 0) == 1.0f && V(ds, 1, 0) == 0.0f);
    gpulayer_dataset_free(ds);

    /* Damaged data: the message names the file and zlib's reason, not
     * zlib's "<fd:N>". */
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, -8, SEEK_END), 0); /* the CRC-32 */
    int c = fgetc(f);
    assert_int_equal(fseek(f, -8, SEEK_END), 0);
    fputc(c ^ 0xFF, f);
    fclose(f);
    expect_error_path(path, NULL, GPULAYER_ERR_IO, "cannot read '", "z.csv.gz': the gzip "
                      "data are corrupt (zlib: incorrect data check)", NULL);
    assert_null(strstr(gpulayer_last_error(), "<fd:"));

    /* gzip is recognised by content, whatever the name. */
    path = write_gzip("z_libsvm.txt", "1 0:1 1:2\n");
    ds = read_ok(path, NULL);
    assert_int_equal(ds->num_cols, 2);
    gpulayer_dataset_free(ds);
}

/* ----------------------------------------------------------- categorical */

static void test_categorical_codes(void **state)
{
    (void)state;
    const char *text = "y,c,n\n1,b,1\n0,a,x\n1,NA,10\n0,c,9\n1,a,\n";
    gpulayer_dataset *ds = parse_ok("cat.csv", text, NULL);
    const gpl_category_dict *c = dict_of(ds, 0);
    assert_non_null(c);
    assert_int_equal(c->count, 3);
    assert_string_equal(c->names[0], "a");
    assert_string_equal(c->names[1], "b");
    assert_string_equal(c->names[2], "c");
    float expect_c[5] = {1, 0, NAN, 2, 0};
    for (int r = 0; r < 5; r++)
        if (isnan(expect_c[r])) assert_true(isnan(V(ds, r, 0)));
        else assert_true(V(ds, r, 0) == expect_c[r]);
    /* Numbers in a string column are strings too, sorted by strcmp:
     * "1" < "10" < "9" < "x". */
    const gpl_category_dict *n = dict_of(ds, 1);
    assert_non_null(n);
    assert_int_equal(n->count, 4);
    assert_string_equal(n->names[0], "1");
    assert_string_equal(n->names[1], "10");
    assert_string_equal(n->names[2], "9");
    assert_string_equal(n->names[3], "x");
    float expect_n[5] = {0, 3, 1, 2, NAN};
    for (int r = 0; r < 5; r++)
        if (isnan(expect_n[r])) assert_true(isnan(V(ds, r, 1)));
        else assert_true(V(ds, r, 1) == expect_n[r]);
    gpulayer_dataset_free(ds);
}

/* A column that looks numeric for many rows, then holds a string: the
 * early rows must be re-read as strings. */
static void test_categorical_late_string(void **state)
{
    (void)state;
    size_t cap = 64 * 1024, len = 0;
    char *text = malloc(cap);
    assert_non_null(text);
    len += (size_t)snprintf(text + len, cap - len, "y,a,b\n");
    for (int r = 0; r < 2000; r++)
        len += (size_t)snprintf(text + len, cap - len, "%d,%d,%d\n", r % 2, r % 7,
                                r == 1500 ? -1 : r % 3);
    /* Enough strings (over 5% of the cells) not to look like typos. */
    for (int r = 0; r < 120; r++)
        len += (size_t)snprintf(text + len, cap - len, "0,zz,NA\n");
    gpulayer_dataset *ds = parse_ok("late.csv", text, NULL);
    free(text);
    assert_int_equal(ds->num_rows, 2120);
    const gpl_category_dict *a = dict_of(ds, 0);
    assert_non_null(a);
    assert_int_equal(a->count, 8); /* "0".."6", "zz" */
    for (int r = 0; r < 2000; r++) assert_true(V(ds, r, 0) == (float)(r % 7));
    assert_true(V(ds, 2000, 0) == 7.0f && V(ds, 2119, 0) == 7.0f);
    assert_null(dict_of(ds, 1));
    assert_true(V(ds, 1500, 1) == -1.0f && isnan(V(ds, 2000, 1)));
    gpulayer_dataset_free(ds);
}

/* Columns named numeric (as predict names a model's numeric features)
 * refuse text at the cell, or read it as missing when asked. */
static void test_numeric_columns(void **state)
{
    (void)state;
    const char *numeric[] = {"a", NULL};
    gpulayer_read_options o = {0};
    o.numeric_columns = numeric;
    const char *text = "y,a,b\n1,2,x\n0,abc,z\n1,4,x\n";
    expect_error("num.csv", text, &o, GPULAYER_ERR_PARSE, "line 3", "column 2 ('a')",
                 "'abc' is not a number", "bad-numbers");
    o.bad_numbers = GPULAYER_BAD_NUMBERS_MISSING;
    gpulayer_dataset *ds = parse_ok("num.csv", text, &o);
    assert_null(dict_of(ds, 0));
    assert_true(V(ds, 0, 0) == 2.0f && isnan(V(ds, 1, 0)) && V(ds, 2, 0) == 4.0f);
    assert_non_null(dict_of(ds, 1));
    gpulayer_dataset_free(ds);
    const char *unknown[] = {"nope", NULL};
    o.numeric_columns = unknown;
    expect_error("num.csv", text, &o, GPULAYER_ERR_INVALID_ARGUMENT, "no column 'nope'");
}

/* A column of numbers with a typo or two is refused rather than silently
 * turned categorical; real text columns stay categorical. */
static void test_looks_numeric(void **state)
{
    (void)state;
    char text[4096];
    size_t len = (size_t)snprintf(text, sizeof text, "y,a,s\n");
    for (int r = 0; r < 40; r++)
        len += (size_t)snprintf(text + len, sizeof text - len, "%d,%s,%s\n", r % 2,
                                r == 17 ? "1O.5" : r % 3 ? "2.5" : "7",
                                r % 4 ? "red" : "1");
    gpulayer_read_options o = {0};
    expect_error("typo.csv", text, &o, GPULAYER_ERR_PARSE, "line 19", "column 2 ('a')",
                 "looks numeric", "1 of its cells", "'1O.5'", "categorical");
    o.bad_numbers = GPULAYER_BAD_NUMBERS_MISSING;
    gpulayer_dataset *ds = parse_ok("typo.csv", text, &o);
    assert_null(dict_of(ds, 0));
    assert_true(isnan(V(ds, 17, 0)) && V(ds, 0, 0) == 7.0f && V(ds, 18, 0) == 7.0f &&
                V(ds, 19, 0) == 2.5f);
    assert_non_null(dict_of(ds, 1)); /* "red" with some "1": text */
    assert_int_equal(dict_of(ds, 1)->count, 2);
    gpulayer_dataset_free(ds);
    const char *categorical[] = {"a", NULL};
    o.bad_numbers = GPULAYER_BAD_NUMBERS_ERROR;
    o.categorical_columns = categorical;
    ds = parse_ok("typo.csv", text, &o);
    assert_non_null(dict_of(ds, 0));
    assert_int_equal(dict_of(ds, 0)->count, 3); /* "1O.5", "2.5", "7" */
    gpulayer_dataset_free(ds);
}

/* A NUL byte would end a cell early in the number parser; the reader
 * refuses the file, naming line and byte. */
static void test_nul_byte(void **state)
{
    (void)state;
    static const char data[] = "y,a\n1,2\n0,5\0006\n";
    expect_error_path(write_bytes("nul.csv", data, sizeof data - 1), NULL,
                      GPULAYER_ERR_PARSE, "line 3, column 4", "NUL byte", NULL);
    /* A device of endless zeros is refused at once, for what it is. */
    alarm(20);
    expect_error_path("/dev/zero", NULL, GPULAYER_ERR_IO, "'/dev/zero'",
                      "a character device, not a file", NULL);
    alarm(0);
}

/* Names and categories go into the model's JSON: text that is not UTF-8
 * (here Latin-1) is refused where it is. */
static void test_non_utf8_text(void **state)
{
    (void)state;
    expect_error("latin1.csv", "y,caf\xe9\n1,2\n", NULL, GPULAYER_ERR_PARSE,
                 "line 1, column 2", "column name is not valid UTF-8", "byte 0xE9",
                 "iconv");
    expect_error("latin1.csv", "y,c\n1,caf\xc3\xa9\n0,\xe9t\xe9\n", NULL,
                 GPULAYER_ERR_PARSE, "line 3, column 2 ('c')",
                 "text is not valid UTF-8 (byte 0xE9 at position 1)");
    gpulayer_dataset *ds = parse_ok("utf8.csv", "y,c\xc3\xa9\n1,\xe2\x82\xac\n0,x\n",
                                    NULL);
    assert_string_equal(ds->feature_names[0], "c\xc3\xa9");
    gpulayer_dataset_free(ds);
}

/* A line past the limit (here the host memory limit) is refused while
 * reading, naming the line. */
static void test_long_line(void **state)
{
    (void)state;
    size_t n = 3u << 20;
    char *text = malloc(n + 64);
    assert_non_null(text);
    int k = snprintf(text, 64, "y,a\n1,2\n0,");
    memset(text + k, '7', n);
    strcpy(text + k + n, "\n");
    const char *path = write_bytes("long.csv", text, strlen(text));
    free(text);
    /* Larger than the memory limit: refused before it is read, and so is
     * its gzip form, whose content would be. */
    setenv("GPULAYER_MEMORY_LIMIT", "1M", 1);
    alarm(20);
    expect_error_path(path, NULL, GPULAYER_ERR_OUT_OF_MEMORY, "long.csv'",
                      "needs 3.0 MiB of host memory, more than the 1.0 MiB", NULL);
    char gz[1200];
    snprintf(gz, sizeof gz, "gzip -c '%s' > '%s.gz'", path, path);
    if (system(gz) == 0) {
        snprintf(gz, sizeof gz, "%s.gz", path);
        expect_error_path(gz, NULL, GPULAYER_ERR_OUT_OF_MEMORY, "long.csv.gz'",
                          "more than the 1.0 MiB", NULL);
    }
    alarm(0);
    unsetenv("GPULAYER_MEMORY_LIMIT");
}

/* ---------------------------------------------------------------- numbers */

static void check_number(const char *s)
{
    float got;
    if (!gpl_parse_float(s, s + strlen(s), &got)) fail_msg("'%s' not parsed", s);
    float want = strtof(s, NULL);
    if (memcmp(&got, &want, sizeof got) != 0)
        fail_msg("'%s': got %.9g, strtof gives %.9g", s, (double)got, (double)want);
}

static void test_number_parsing(void **state)
{
    (void)state;
    static const char *const good[] = {
        "0", "-0", "+1", "1.", ".5", "-.5", "1e5", "1E+05", "2.5e-3", "0.1",
        "0.3", "3.14159265358979", "16777216", "16777217", "123456789012",
        "1e-45", "1e-46", "3.4028235e38", "1e39", "0.000000001", "1e10",
        "9999999", "0.1234567", "100000000000000000000000000000", "-7.25",
        "00012", "1.0000000000000000000001"};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) check_number(good[i]);
    static const char *const bad[] = {"", "-", "+", ".", "e5", "1e", "1e+",
                                      "1.2.3", "0x10", " 1", "1 ", "1,5", "nan",
                                      "abc", "1e5x", "--1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        float v;
        if (gpl_parse_float(bad[i], bad[i] + strlen(bad[i]), &v))
            fail_msg("'%s' parsed as a number", bad[i]);
    }
    float v;
    const char *minus_inf = "-Inf", *infinity = "infinity";
    assert_true(gpl_parse_float(minus_inf, minus_inf + 4, &v) && isinf(v) && v < 0);
    assert_true(gpl_parse_float(infinity, infinity + 8, &v) && isinf(v));

    /* Random decimals in the forms data files use. */
    srand(12345);
    char buf[64];
    static const char *const formats[] = {"%.0f", "%.1f", "%.3f", "%.6f",
                                          "%g", "%.9g", "%.17g", "%e"};
    for (int i = 0; i < 200000; i++) {
        double x = (rand() / (double)RAND_MAX - 0.5) *
                   pow(10.0, rand() % 16 - 8);
        snprintf(buf, sizeof buf, formats[i % 8], x);
        check_number(buf);
    }
}

/* ----------------------------------------------------------------- LibSVM */

static void test_libsvm_basic(void **state)
{
    (void)state;
    const char *text = "1 qid:3 0:0.5 2:-1 # first\n"
                       "\n"
                       "# a comment line\n"
                       "0 qid:3 1:2\r\n"
                       "1 qid:3\n"
                       "0 qid:4 3:nan 0:7\n";
    gpulayer_dataset *ds = parse_ok("b.svm", text, NULL);
    assert_int_equal(ds->num_rows, 4);
    /* qid:N tokens are query ids, not features. */
    assert_int_equal(ds->num_groups, 2);
    assert_true(ds->group_ptr[1] == 3 && ds->group_ptr[2] == 4);
    assert_int_equal(ds->num_cols, 4);
    assert_null(ds->weight);
    assert_null(gpulayer_dataset_feature_name(ds, 0));
    assert_true(ds->label[0] == 1.0f && ds->label[1] == 0.0f && ds->label[2] == 1.0f);
    assert_true(V(ds, 0, 0) == 0.5f && isnan(V(ds, 0, 1)) && V(ds, 0, 2) == -1.0f);
    assert_true(isnan(V(ds, 1, 0)) && V(ds, 1, 1) == 2.0f);
    for (int c = 0; c < 4; c++) assert_true(isnan(V(ds, 2, c)));
    assert_true(V(ds, 3, 0) == 7.0f && isnan(V(ds, 3, 3)));
    gpulayer_dataset_free(ds);
}

static void test_libsvm_indices_and_weights(void **state)
{
    (void)state;
    /* 1-based indices are kept as given: feature 0 stays all missing. */
    gpulayer_dataset *ds = parse_ok("one.libsvm", "1:2 1:1 3:1\n0:0.5 2:1\n", NULL);
    assert_int_equal(ds->num_cols, 4);
    assert_true(isnan(V(ds, 0, 0)) && isnan(V(ds, 1, 0)));
    assert_non_null(ds->weight);
    assert_true(ds->weight[0] == 2.0f && ds->weight[1] == 0.5f);
    gpulayer_dataset_free(ds);

    gpulayer_read_options o = {.num_features = 10};
    ds = parse_ok("nf.svm", "1 1:1 3:1\n0 2:1\n", &o);
    assert_int_equal(ds->num_cols, 10);
    assert_true(isnan(V(ds, 0, 9)));
    gpulayer_dataset_free(ds);
}

/* ----------------------------------------------------------------- errors */

static void test_error_files(void **state)
{
    (void)state;
    char missing[512];
    snprintf(missing, sizeof missing, "%s/no_such_file.csv", gpl_test_tmpdir());
    expect_error_path(missing, NULL, GPULAYER_ERR_IO, "no_such_file.csv",
                      "No such file", NULL);
    expect_error_path(gpl_test_tmpdir(), NULL, GPULAYER_ERR_IO, "directory", NULL);
    expect_error("empty.csv", "", NULL, GPULAYER_ERR_PARSE, "empty.csv", "empty");
    expect_error("blank.csv", "\n\r\n\n", NULL, GPULAYER_ERR_PARSE, "empty");
    expect_error("hdr.csv", "a,b,c\n", NULL, GPULAYER_ERR_PARSE, "hdr.csv",
                 "no data rows");
    expect_error("empty.svm", "", NULL, GPULAYER_ERR_PARSE, "empty.svm", "empty");
    expect_error("comments.svm", "# x\n\n", NULL, GPULAYER_ERR_PARSE, "no data rows");

    static const unsigned char xz[] = {0xFD, '7', 'z', 'X', 'Z', 0, 0, 4, 0xE6};
    const char *path = write_bytes("data.csv.xz", xz, sizeof xz);
    expect_error_path(path, NULL, GPULAYER_ERR_IO, "data.csv.xz", "xz", "xz -d", NULL);

    /* A gzip stream cut short. */
    const char *full = write_gzip("cut.csv.gz", "y,x\n1,2\n3,4\n5,6\n7,8\n");
    FILE *f = fopen(full, "rb");
    assert_non_null(f);
    unsigned char buf[256];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    path = write_bytes("cut2.csv.gz", buf, n - 6);
    expect_error_path(path, NULL, GPULAYER_ERR_IO, "cut2.csv.gz", "truncated", NULL);
}

static void test_error_layout(void **state)
{
    (void)state;
    expect_error("rag.csv", "y,a,b\n1,2,3\n1,2\n", NULL, GPULAYER_ERR_PARSE,
                 "rag.csv", "line 3 has 2 fields, expected 3");
    expect_error("rag2.csv", "y,a\n1,2\n1,2,\n", NULL, GPULAYER_ERR_PARSE,
                 "line 3 has 3 fields, expected 2");
    expect_error("dup.csv", "y,a,a\n1,2,3\n", NULL, GPULAYER_ERR_PARSE,
                 "dup.csv", "duplicate column name 'a'", "column 3");
    expect_error("quote.csv", "y,a\n1,\"abc\n2,3\n", NULL, GPULAYER_ERR_PARSE,
                 "line 2, column 2", "not closed");
    expect_error("after.csv", "y,a\n1,\"ab\"c\n", NULL, GPULAYER_ERR_PARSE,
                 "line 2, column 2", "after the closing quote");
    /* Line numbers count the lines inside quoted fields. */
    expect_error("ml.csv", "y,a\n1,\"x\ny\"\n1,2,3\n", NULL, GPULAYER_ERR_PARSE,
                 "line 4 has 3 fields");
}

static void test_error_label(void **state)
{
    (void)state;
    gpulayer_read_options o = {.label = "label"};
    expect_error("lab.csv",
                 "a,b,label\n1,2,0\n1,2,1\n1,2,0\n1,2,1\n1,2,0\n1,2,1\n1,2,0\n"
                 "1,2,1\n1,2,0\n1,2,1\n1,2,abc\n",
                 &o, GPULAYER_ERR_PARSE,
                 "lab.csv: line 12, column 3 ('label'): label 'abc' is not a number");
    expect_error("nolab.csv", "a,label\n1,\n", &o, GPULAYER_ERR_PARSE,
                 "line 2, column 2 ('label')", "label is missing");
    expect_error("nalab.csv", "a,label\n1,NA\n", &o, GPULAYER_ERR_PARSE,
                 "label is missing");
    expect_error("inflab.csv", "a,label\n1,inf\n", &o, GPULAYER_ERR_PARSE,
                 "line 2", "not finite");

    gpulayer_read_options other = {.label = "target"};
    expect_error("nf.csv", "alpha,beta,gamma\n1,2,3\n", &other,
                 GPULAYER_ERR_INVALID_ARGUMENT, "nf.csv", "'target' not found",
                 "'alpha', 'beta', 'gamma'");
    /* Long headers are cut short in the message. */
    char header[8192] = "";
    for (int i = 0; i < 300; i++)
        snprintf(header + strlen(header), sizeof header - strlen(header), "%scolumn_%d",
                 i ? "," : "", i);
    strcat(header, "\n");
    for (int i = 0; i < 300; i++) strcat(header, i ? ",1" : "1");
    strcat(header, "\n");
    expect_error("wide.csv", header, &other, GPULAYER_ERR_INVALID_ARGUMENT,
                 "'column_0'", "more)");

    gpulayer_read_options idx = {.no_header = 1, .label = "5"};
    expect_error("idx.csv", "1,2\n", &idx, GPULAYER_ERR_INVALID_ARGUMENT,
                 "label column '5' not found", "0-based index", "2 columns");
    gpulayer_read_options w = {.weight_column = "w"};
    expect_error("negw.csv", "y,x,w\n1,2,-1\n", &w, GPULAYER_ERR_PARSE,
                 "line 2, column 3 ('w')", "weight '-1' is negative");
    gpulayer_read_options same = {.label = "y", .weight_column = "y"};
    expect_error("same.csv", "y,x\n1,2\n", &same, GPULAYER_ERR_INVALID_ARGUMENT,
                 "already the label");
    gpulayer_read_options ign = {.ignore_columns = "nope"};
    expect_error("ign.csv", "y,x\n1,2\n", &ign, GPULAYER_ERR_INVALID_ARGUMENT,
                 "'nope' not found");
    expect_error("onlylabel.csv", "y\n1\n", NULL, GPULAYER_ERR_INVALID_ARGUMENT,
                 "no feature columns");
    /* A numeric first line read as a header earns a hint. */
    expect_error("looks_data.csv", "1,0.5,0.5\n0,1,2\n", NULL, GPULAYER_ERR_PARSE,
                 "duplicate column name '0.5'", "no-header");
}

static void test_error_libsvm(void **state)
{
    (void)state;
    expect_error("bad1.svm", "1 0:1\n0 2:1 x:3\n", NULL, GPULAYER_ERR_PARSE,
                 "bad1.svm: line 2, column 7", "malformed feature 'x:3'");
    expect_error("bad2.svm", "1 0:1 3\n", NULL, GPULAYER_ERR_PARSE,
                 "line 1, column 7", "'3'");
    expect_error("bad3.svm", "1 0:1 3:\n", NULL, GPULAYER_ERR_PARSE, "'3:'");
    expect_error("bad4.svm", "1 -2:1\n", NULL, GPULAYER_ERR_PARSE, "'-2:1'");
    expect_error("bad5.svm", "1 2:abc\n", NULL, GPULAYER_ERR_PARSE, "'2:abc'");
    expect_error("bad6.svm", "1 0:1\nabc 1:1\n", NULL, GPULAYER_ERR_PARSE,
                 "line 2, column 1", "label 'abc' is not a number");
    expect_error("bad7.svm", "1 3:1 1:2 3:4\n", NULL, GPULAYER_ERR_PARSE,
                 "line 1", "index 3 appears more than once");
    expect_error("bad8.svm", "1\n0\n", NULL, GPULAYER_ERR_PARSE, "no feature entries");
    expect_error("bad9.svm", "nan 1:1\n", NULL, GPULAYER_ERR_PARSE, "label is missing");
    gpulayer_read_options o = {.num_features = 4};
    expect_error("range.svm", "1 0:1\n0 1:1 4:1\n", &o, GPULAYER_ERR_PARSE,
                 "range.svm: line 2, column 7", "feature index 4 is out of range");
    /* An index past int32 is named with the limit, not "malformed". */
    expect_error("big.svm", "1 0:1\n0 1:1 2147483647:1\n", NULL, GPULAYER_ERR_PARSE,
                 "big.svm: line 2, column 7", "feature index 2147483647 is too large",
                 "2147483646");
    expect_error("huge.svm", "1 99999999999999999999999:1\n", NULL, GPULAYER_ERR_PARSE,
                 "line 1, column 3", "99999999999999999999999 is too large");
    gpulayer_read_options neg = {.num_features = -1};
    expect_error("neg.svm", "1 0:1\n", &neg, GPULAYER_ERR_INVALID_ARGUMENT, "negative");
}

static void test_error_arguments(void **state)
{
    (void)state;
    gpulayer_dataset *ds = NULL;
    assert_int_equal(gpulayer_dataset_read_file(NULL, NULL, &ds),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_int_equal(gpulayer_dataset_read_file("x.csv", NULL, NULL),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    gpulayer_read_options o = {.format = (gpulayer_file_format)42};
    assert_int_equal(gpulayer_dataset_read_file("x.csv", &o, &ds),
                     GPULAYER_ERR_INVALID_ARGUMENT);
    assert_contains(gpulayer_last_error(), "format");

    /* The internal entry points work on their own. */
    const char *path = gpl_test_write_file("direct.txt", "y;x\n");
    assert_int_equal(gpl_read_delimited(path, ';', NULL, &ds),
                     GPULAYER_ERR_PARSE); /* header only */
    path = gpl_test_write_file("direct2.txt", "1 1:1\n");
    assert_int_equal(gpl_read_libsvm(path, NULL, &ds), GPULAYER_OK);
    assert_int_equal(ds->num_cols, 2);
    gpulayer_dataset_free(ds);
}

/* ------------------------------------------------------------- real data */

static void test_real_lgbm_binary(void **state)
{
    (void)state;
    const char *path = gpl_test_shared_data("lgbm_binary/binary.train");
    if (!path) skip();
    gpulayer_read_options o = {.no_header = 1};
    gpulayer_dataset *ds = read_ok(path, &o);
    assert_int_equal(ds->num_rows, 7000);
    assert_int_equal(ds->num_cols, 28);
    assert_null(ds->categories);
    assert_true(ds->label[0] == 1.0f);
    assert_true(V(ds, 0, 0) == 0.869f && V(ds, 0, 1) == -0.635f);
    for (int64_t r = 0; r < ds->num_rows; r++)
        assert_true(ds->label[r] == 0.0f || ds->label[r] == 1.0f);
    gpulayer_dataset_free(ds);
}

static void test_real_agaricus(void **state)
{
    (void)state;
    const char *path = gpl_test_shared_data("xgb_agaricus/agaricus.txt.train");
    if (!path) skip();
    gpulayer_dataset *ds = read_ok(path, NULL);
    assert_int_equal(ds->num_rows, 6513);
    assert_true(ds->num_cols >= 126 && ds->num_cols <= 127);
    assert_true(ds->label[0] == 1.0f);
    assert_true(V(ds, 0, 3) == 1.0f && isnan(V(ds, 0, 4)));
    /* Held sparse: the entries only, 22 one-hot categoricals a row. */
    assert_null(ds->values);
    assert_non_null(ds->sparse);
    assert_int_equal(ds->sparse->col_start[ds->num_cols], 6513 * 22);
    gpulayer_dataset_free(ds);
}

static void test_real_credit(void **state)
{
    (void)state;
    const char *path = gpl_test_shared_data("modeldata_credit/credit_data.csv");
    if (!path) skip();
    gpulayer_read_options o = {.label = "Status"};
    gpulayer_dataset *ds = read_ok(path, &o);
    assert_int_equal(ds->num_rows, 4454);
    assert_int_equal(ds->num_cols, 13);
    int64_t missing = 0;
    for (int64_t i = 0; i < ds->num_rows * ds->num_cols; i++)
        missing += isnan(ds->values[i]);
    assert_int_equal(missing, 455);
    static const char *const cats[] = {"Home", "Marital", "Records", "Job"};
    int ncat = 0;
    for (int32_t c = 0; c < ds->num_cols; c++) {
        const char *name = gpulayer_dataset_feature_name(ds, c);
        int want = 0;
        for (int k = 0; k < 4; k++) want |= strcmp(name, cats[k]) == 0;
        assert_int_equal(dict_of(ds, c) != NULL, want);
        ncat += want;
        if (strcmp(name, "Records") == 0) {
            assert_int_equal(dict_of(ds, c)->count, 2);
            assert_string_equal(dict_of(ds, c)->names[0], "no");
            assert_string_equal(dict_of(ds, c)->names[1], "yes");
        }
    }
    assert_int_equal(ncat, 4);
    gpulayer_dataset_free(ds);
}

static void test_real_fertility(void **state)
{
    (void)state;
    const char *path = gpl_test_shared_data("aer_fertility/fertility.csv.gz");
    if (!path) skip();
    gpulayer_read_options o = {.label = "morekids"};
    gpulayer_dataset *ds = read_ok(path, &o);
    assert_int_equal(ds->num_rows, 254654);
    assert_int_equal(ds->num_cols, 7);
    assert_string_equal(gpulayer_dataset_feature_name(ds, 0), "gender1");
    const gpl_category_dict *afam = dict_of(ds, 3);
    assert_non_null(afam);
    assert_int_equal(afam->count, 2);
    assert_string_equal(afam->names[0], "no");
    assert_string_equal(afam->names[1], "yes");
    assert_null(dict_of(ds, 2)); /* age */
    assert_true(ds->label[0] == 0.0f);
    gpulayer_dataset_free(ds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_cells_and_numeric_share),
        cmocka_unit_test(test_csv_label_by_name),
        cmocka_unit_test(test_csv_label_default_and_index),
        cmocka_unit_test(test_csv_no_header),
        cmocka_unit_test(test_csv_label_none),
        cmocka_unit_test(test_csv_weight_and_ignore),
        cmocka_unit_test(test_csv_quoted_fields),
        cmocka_unit_test(test_csv_missing_markers),
        cmocka_unit_test(test_csv_line_endings_and_bom),
        cmocka_unit_test(test_csv_cr_line_endings),
        cmocka_unit_test(test_tsv_and_sniffing),
        cmocka_unit_test(test_gzip),
        cmocka_unit_test(test_categorical_codes),
        cmocka_unit_test(test_categorical_late_string),
        cmocka_unit_test(test_numeric_columns),
        cmocka_unit_test(test_looks_numeric),
        cmocka_unit_test(test_nul_byte),
        cmocka_unit_test(test_long_line),
        cmocka_unit_test(test_non_utf8_text),
        cmocka_unit_test(test_number_parsing),
        cmocka_unit_test(test_libsvm_basic),
        cmocka_unit_test(test_libsvm_indices_and_weights),
        cmocka_unit_test(test_error_files),
        cmocka_unit_test(test_error_layout),
        cmocka_unit_test(test_error_label),
        cmocka_unit_test(test_error_libsvm),
        cmocka_unit_test(test_error_arguments),
        cmocka_unit_test(test_real_lgbm_binary),
        cmocka_unit_test(test_real_agaricus),
        cmocka_unit_test(test_real_credit),
        cmocka_unit_test(test_real_fertility),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
