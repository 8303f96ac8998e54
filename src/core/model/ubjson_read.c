/* ubjson_read.c -- a strictly bounds-checked UBJSON decoder (draft 12, the
 * types XGBoost writes: objects, arrays, optimized containers with a type
 * and count, int8/uint8/int16/int32/int64, float32/float64, char, strings,
 * true, false, null, no-op). Numbers are big-endian. Every length and
 * count is checked against the bytes left before anything is allocated,
 * so a damaged file cannot make the decoder read past the buffer or
 * allocate more than the file could describe. */
#include "ubjson_read.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

typedef struct reader {
    const uint8_t *p;
    size_t len, at;
    const char *source;
} reader;

static gpulayer_status bad(const reader *r, const char *what)
{
    return gpl_model_error(r->source, "not a readable UBJSON model: %s at byte %zu", what,
                           r->at);
}

static gpulayer_status take(reader *r, size_t n, const uint8_t **out)
{
    if (n > r->len - r->at) return bad(r, "the data end inside a value");
    *out = r->p + r->at;
    r->at += n;
    return GPULAYER_OK;
}

static uint64_t big_endian(const uint8_t *b, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) v = (v << 8) | b[i];
    return v;
}

/* Bytes of a fixed-size number marker; 0 for other markers. */
static size_t number_size(uint8_t type)
{
    switch (type) {
    case 'i': case 'U': case 'C': return 1;
    case 'I': return 2;
    case 'l': case 'd': return 4;
    case 'L': case 'D': return 8;
    default: return 0;
    }
}

static double number_value(uint8_t type, const uint8_t *b)
{
    uint64_t u = big_endian(b, number_size(type));
    switch (type) {
    case 'i': return (double)(int8_t)u;
    case 'U': case 'C': return (double)(uint8_t)u;
    case 'I': return (double)(int16_t)u;
    case 'l': return (double)(int32_t)u;
    case 'L': return (double)(int64_t)u;
    case 'd': {
        uint32_t w = (uint32_t)u;
        float f;
        memcpy(&f, &w, sizeof f);
        return (double)f;
    }
    default: {
        double d;
        memcpy(&d, &u, sizeof d);
        return d;
    }
    }
}

/* An integer marked by its type (a length or a count): non-negative. */
static gpulayer_status read_length(reader *r, size_t *out)
{
    const uint8_t *b = NULL;
    GPL_CHECK(take(r, 1, &b));
    const uint8_t type = *b;
    if (type != 'i' && type != 'U' && type != 'I' && type != 'l' && type != 'L')
        return bad(r, "a length or count is not an integer");
    GPL_CHECK(take(r, number_size(type), &b));
    double v = number_value(type, b);
    if (v < 0) return bad(r, "a negative length or count");
    *out = (size_t)v;
    return GPULAYER_OK;
}

static gpulayer_status read_string(reader *r, char **out)
{
    size_t n = 0;
    GPL_CHECK(read_length(r, &n));
    const uint8_t *b = NULL;
    GPL_CHECK(take(r, n, &b));
    char *s = malloc(n + 1);
    if (!s) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of host memory reading UBJSON");
    memcpy(s, b, n);
    s[n] = '\0';
    if (strlen(s) != n) {
        free(s);
        return bad(r, "a string holds a NUL byte");
    }
    *out = s;
    return GPULAYER_OK;
}

static gpulayer_status read_value(reader *r, uint8_t type, int depth, cJSON **out);

/* The value of a marker already read. */
static gpulayer_status scalar(reader *r, uint8_t type, cJSON **out)
{
    const uint8_t *b = NULL;
    char *s = NULL;
    switch (type) {
    case 'Z': *out = cJSON_CreateNull(); break;
    case 'T': *out = cJSON_CreateTrue(); break;
    case 'F': *out = cJSON_CreateFalse(); break;
    case 'S':
    case 'H': /* high-precision numbers are kept as their text */
        GPL_CHECK(read_string(r, &s));
        *out = cJSON_CreateString(s);
        free(s);
        break;
    default:
        if (!number_size(type)) return bad(r, "an unknown type marker");
        GPL_CHECK(take(r, number_size(type), &b));
        if (type == 'C') {
            char c[2] = {(char)*b, '\0'};
            *out = cJSON_CreateString(c);
        } else {
            *out = cJSON_CreateNumber(number_value(type, b));
        }
    }
    return *out ? GPULAYER_OK
                : gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of host memory reading UBJSON");
}

/* After '[' or '{': an optional "$type" and "#count". count is SIZE_MAX
 * when the container ends with its closing marker instead. */
static gpulayer_status container_header(reader *r, uint8_t *type, size_t *count,
                                        size_t min_bytes)
{
    *type = 0;
    *count = SIZE_MAX;
    if (r->at < r->len && r->p[r->at] == '$') {
        r->at++;
        const uint8_t *b = NULL;
        GPL_CHECK(take(r, 1, &b));
        *type = *b;
        if (*type == '[' || *type == '{' || *type == 'N')
            return bad(r, "an optimized container of containers");
        if (r->at >= r->len || r->p[r->at] != '#')
            return bad(r, "a container type without a count");
    }
    if (r->at < r->len && r->p[r->at] == '#') {
        r->at++;
        GPL_CHECK(read_length(r, count));
        /* Each element takes at least a known number of bytes: a count
         * the remaining bytes cannot hold is damage, found before
         * anything is allocated. */
        size_t each = min_bytes;
        if (*type == 'Z' || *type == 'T' || *type == 'F') each = 0;
        else if (*type == 'S' || *type == 'H') each = 2; /* length marker, length */
        else if (*type && number_size(*type)) each = number_size(*type);
        else if (*type) return bad(r, "an unknown container type");
        if (each && *count > (r->len - r->at) / each)
            return bad(r, "a count past the end of the data");
        if (!each && *count > (size_t)1 << 20) return bad(r, "an implausible count");
    }
    return GPULAYER_OK;
}

static gpulayer_status element(reader *r, uint8_t type, int depth, cJSON **out)
{
    if (type) return read_value(r, type, depth, out);
    const uint8_t *b = NULL;
    do GPL_CHECK(take(r, 1, &b));
    while (*b == 'N');
    return read_value(r, *b, depth, out);
}

/* Whether the next marker (no-ops skipped) closes the container. */
static gpulayer_status at_close(reader *r, uint8_t close, int *done)
{
    while (r->at < r->len && r->p[r->at] == 'N') r->at++;
    if (r->at >= r->len) return bad(r, "the data end inside a container");
    *done = r->p[r->at] == close;
    if (*done) r->at++;
    return GPULAYER_OK;
}

static gpulayer_status read_array(reader *r, int depth, cJSON *a)
{
    uint8_t type;
    size_t count;
    GPL_CHECK(container_header(r, &type, &count, 1));
    for (size_t i = 0;; i++) {
        if (count == SIZE_MAX) {
            int done;
            GPL_CHECK(at_close(r, ']', &done));
            if (done) break;
        } else if (i == count) {
            break;
        }
        cJSON *v = NULL;
        GPL_CHECK(element(r, type, depth, &v));
        cJSON_AddItemToArray(a, v);
    }
    return GPULAYER_OK;
}

static gpulayer_status read_object(reader *r, int depth, cJSON *o)
{
    uint8_t type;
    size_t count;
    /* A member is at least a key's length marker, length and a value. */
    GPL_CHECK(container_header(r, &type, &count, 3));
    for (size_t i = 0;; i++) {
        if (count == SIZE_MAX) {
            int done;
            GPL_CHECK(at_close(r, '}', &done));
            if (done) break;
        } else if (i == count) {
            break;
        }
        char *key = NULL;
        GPL_CHECK(read_string(r, &key));
        cJSON *v = NULL;
        gpulayer_status st = element(r, type, depth, &v);
        if (st == GPULAYER_OK) cJSON_AddItemToObject(o, key, v);
        free(key);
        GPL_CHECK(st);
    }
    return GPULAYER_OK;
}

static gpulayer_status read_value(reader *r, uint8_t type, int depth, cJSON **out)
{
    if (type != '[' && type != '{') return scalar(r, type, out);
    if (depth >= GPL_UBJSON_MAX_DEPTH) return bad(r, "containers nested too deep");
    cJSON *c = type == '[' ? cJSON_CreateArray() : cJSON_CreateObject();
    if (!c) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of host memory reading UBJSON");
    gpulayer_status st = type == '[' ? read_array(r, depth + 1, c) : read_object(r, depth + 1, c);
    if (st != GPULAYER_OK) {
        cJSON_Delete(c);
        return st;
    }
    *out = c;
    return GPULAYER_OK;
}

int gpl_ubjson_sniff(const char *buf, size_t len)
{
    return len >= 2 && buf[0] == '{' && strchr("iUIlL$#}", buf[1]) != NULL && buf[1] != '\0';
}

gpulayer_status gpl_ubjson_parse(const uint8_t *buf, size_t len, const char *source,
                                 cJSON **out)
{
    *out = NULL;
    reader r = {buf, len, 0, source};
    const uint8_t *b = NULL;
    GPL_CHECK(take(&r, 1, &b));
    cJSON *v = NULL;
    GPL_CHECK(read_value(&r, *b, 0, &v));
    if (r.at != r.len) {
        cJSON_Delete(v);
        return bad(&r, "bytes after the value");
    }
    *out = v;
    return GPULAYER_OK;
}
