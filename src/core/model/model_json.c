/*
 * model_json.c -- the model file's canonical JSON text: the printer and the
 * checksum over it; model_write.c writes the file, model_read.c reads it.
 *
 * Layout (version 1), members in this order:
 *   format "gpulayer-model", version 1, objective, num_class, num_outputs,
 *   num_features, base_score, base_margin, best_round,
 *   feature_names [string|null per feature],
 *   categories [null | [names...] per feature],
 *   class_names [names...] (only for a model trained on class names),
 *   cuts {cut_ptr, values}, trees [{left, right, feature, split_bin,
 *   default_left, threshold, leaf_value, gain, cover}], params {..},
 *   checksum "xxxxxxxx".
 *
 * Floating values are written as the shortest decimal that reads back to
 * the same bits; the non-finite ones, which JSON cannot spell, as the
 * strings "nan", "inf" and "-inf".
 *
 * The checksum is the CRC-32 (zlib) of the canonical text of the document
 * without its checksum member: compact (no whitespace), members in file
 * order, numbers as print_number writes them, strings escaped as
 * print_string does. The reader recomputes it from the parsed document, so
 * whitespace may change but any change of content is detected.
 */
#include "model_json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "error.h"
#include "json_num.h"
#include "strbuf.h"

/* ------------------------------------------------------------ text buffer */

/* Text under construction. With hashing set, the CRC-32 of every token is
 * kept as it is written (layout whitespace excluded), so that a file is
 * checksummed while it is printed; with discard set only the CRC is kept. */
typedef struct sbuf {
    gpl_strbuf text;
    int hashing;
    int discard;
    uLong crc;
} sbuf;

static void sb_put(sbuf *b, const char *s, size_t n)
{
    if (b->hashing) b->crc = crc32(b->crc, (const Bytef *)s, (uInt)n);
    if (!b->discard) gpl_strbuf_append(&b->text, s, n);
}

static void sb_puts(sbuf *b, const char *s) { sb_put(b, s, strlen(s)); }
static void sb_putc(sbuf *b, char c) { sb_put(b, &c, 1); }

/* ------------------------------------------------------ canonical printer */

static void print_string(sbuf *b, const char *s)
{
    sb_putc(b, '"');
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        char esc[8];
        switch (*c) {
        case '"': sb_puts(b, "\\\""); break;
        case '\\': sb_puts(b, "\\\\"); break;
        case '\n': sb_puts(b, "\\n"); break;
        case '\t': sb_puts(b, "\\t"); break;
        case '\r': sb_puts(b, "\\r"); break;
        default:
            if (*c < 0x20) {
                snprintf(esc, sizeof esc, "\\u%04x", *c);
                sb_puts(b, esc);
            } else {
                sb_putc(b, (char)*c);
            }
        }
    }
    sb_putc(b, '"');
}

static void print_number(sbuf *b, double d)
{
    char text[GPL_NUM_TEXT_SIZE];
    if (!isfinite(d)) { /* cJSON never parses these; kept total anyway */
        sb_puts(b, "null");
        return;
    }
    sb_put(b, text, (size_t)gpl_format_double(d, text));
}

static int is_container(const cJSON *v)
{
    return cJSON_IsArray(v) || cJSON_IsObject(v);
}

/* Pretty output puts each top-level member on a line of its own, and each
 * element of a second-level container that holds containers (trees, cuts,
 * categories), so that a model file reads and diffs well line by line. */
static int breaks_lines(const cJSON *container, int depth, int pretty)
{
    if (!pretty || depth > 1) return 0;
    if (depth == 0) return 1;
    const cJSON *child;
    cJSON_ArrayForEach(child, container)
        if (is_container(child)) return 1;
    return 0;
}

/* Layout only: never part of the checksum. */
static void newline(sbuf *b, int depth)
{
    int hashing = b->hashing;
    b->hashing = 0;
    sb_putc(b, '\n');
    for (int i = 0; i < depth; i++) sb_puts(b, "  ");
    b->hashing = hashing;
}

static void print_value(sbuf *b, const cJSON *v, int depth, int pretty);

static void print_container(sbuf *b, const cJSON *v, int depth, int pretty)
{
    const int object = cJSON_IsObject(v);
    const int breaks = breaks_lines(v, depth, pretty);
    sb_putc(b, object ? '{' : '[');
    const cJSON *child;
    int first = 1;
    cJSON_ArrayForEach(child, v) {
        if (!first) sb_putc(b, ',');
        first = 0;
        if (breaks) newline(b, depth + 1);
        if (object) {
            print_string(b, child->string ? child->string : "");
            sb_putc(b, ':');
        }
        print_value(b, child, depth + 1, pretty);
    }
    if (breaks && !first) newline(b, depth);
    sb_putc(b, object ? '}' : ']');
}

static void print_value(sbuf *b, const cJSON *v, int depth, int pretty)
{
    if (cJSON_IsNumber(v)) print_number(b, v->valuedouble);
    else if (cJSON_IsString(v)) print_string(b, v->valuestring);
    else if (cJSON_IsTrue(v)) sb_puts(b, "true");
    else if (cJSON_IsFalse(v)) sb_puts(b, "false");
    else if (is_container(v)) print_container(b, v, depth, pretty);
    else sb_puts(b, "null");
}

/* CRC-32 of the canonical text of doc, which must not hold "checksum". */
unsigned long gpl_model_json_crc(const cJSON *doc)
{
    sbuf b = {0};
    b.hashing = 1;
    b.discard = 1;
    b.crc = crc32(0L, Z_NULL, 0);
    print_value(&b, doc, 0, 0);
    return (unsigned long)b.crc;
}

/* The file text of doc (which has no checksum yet): pretty-printed and
 * checksummed in one pass, the checksum then added as the last member. */
gpulayer_status gpl_model_json_seal(const cJSON *doc, char **out, size_t *len)
{
    sbuf b = {0};
    b.hashing = 1;
    b.crc = crc32(0L, Z_NULL, 0);
    print_value(&b, doc, 0, 1);
    b.hashing = 0;
    /* Reopen the object: drop its closing "\n}" (or the "}" of "{}"). */
    int empty = b.text.len == 2;
    if (!b.text.failed) b.text.len -= empty ? 1 : 2;
    char tail[64];
    snprintf(tail, sizeof tail, "%s\n  \"checksum\":\"%08lx\"\n}\n", empty ? "" : ",",
             (unsigned long)b.crc);
    sb_puts(&b, tail);
    size_t text_len = b.text.len;
    char *text = gpl_strbuf_take(&b.text);
    if (!text)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of host memory writing a model");
    *out = text;
    *len = text_len;
    return GPULAYER_OK;
}
