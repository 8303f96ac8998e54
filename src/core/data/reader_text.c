/* reader_text.c -- whole-file loading, number parsing, format sniffing and
 * the category string table shared by the text readers. */
#include "reader_text.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "alloc.h"
#include "error.h"
#include "file_read.h"
#include "memory_limit.h"

/* ------------------------------------------------------------ file loading */

/* Refuses the compressed formats that zlib cannot read, which gzread would
 * otherwise pass through as binary garbage. */
static gpulayer_status check_compression(const char *path,
                                         const unsigned char *m, size_t n)
{
    static const unsigned char xz[6] = {0xFD, '7', 'z', 'X', 'Z', 0x00};
    static const unsigned char zstd[4] = {0x28, 0xB5, 0x2F, 0xFD};
    const char *format = NULL, *hint = NULL;
    if (n >= 6 && memcmp(m, xz, 6) == 0) {
        format = "xz";
        hint = "xz -dk";
    } else if (n >= 4 && memcmp(m, zstd, 4) == 0) {
        format = "zstd";
        hint = "zstd -d";
    } else if (n >= 3 && memcmp(m, "BZh", 3) == 0) {
        format = "bzip2";
        hint = "bzip2 -dk";
    } else if (n >= 4 && memcmp(m, "PK\3\4", 4) == 0) {
        format = "zip";
        hint = "unzip";
    }
    if (!format) return GPULAYER_OK;
    return gpl_error(GPULAYER_ERR_IO,
                     "'%s' is %s-compressed, which cannot be read directly "
                     "(only gzip is); decompress it first, e.g. %s '%s'",
                     path, format, hint, path);
}

/* A starting buffer size: the file size for plain files, the size recorded
 * in the gzip trailer (modulo 4 GiB) for gzip files. A wrong guess only
 * costs a realloc. */
static size_t initial_capacity(int fd, uint64_t file_size, int gz)
{
    if (file_size == 0) return (size_t)1 << 16;
    size_t size = (size_t)file_size;
    if (!gz) return size + 1;
    unsigned char t[4];
    if (size >= 18 && pread(fd, t, 4, (off_t)file_size - 4) == 4) {
        size_t isize = (size_t)t[0] | (size_t)t[1] << 8 | (size_t)t[2] << 16 |
                       (size_t)t[3] << 24;
        /* deflate cannot shrink data by more than about 1032:1, so a
         * larger figure comes from a damaged or multi-member file. */
        if (isize >= size / 2 && isize / 1032 <= size) return isize + 1;
    }
    return size > SIZE_MAX / 8 ? size : size * 4;
}

static int grow_buffer(char **buf, size_t *cap)
{
    size_t want = *cap < ((size_t)1 << 20) ? ((size_t)1 << 20) : *cap * 2;
    if (want < *cap) return 0;
    char *p = realloc(*buf, want);
    if (!p) return 0;
    *buf = p;
    *cap = want;
    return 1;
}

/* The longest line a text file may have: 1 GiB, or the host memory limit
 * when that is smaller. Checked while reading, so that a stream without
 * newlines (a device, a binary file) is refused instead of filling memory. */
#define MAX_LINE_BYTES ((size_t)1 << 30)

static size_t line_limit(void)
{
    uint64_t mem = 0;
    if (gpl_host_memory_limit(&mem) != GPULAYER_OK) mem = 0;
    return mem > 0 && mem < MAX_LINE_BYTES ? (size_t)mem : MAX_LINE_BYTES;
}

static int64_t line_of(const char *buf, size_t at)
{
    int64_t line = 1;
    for (const char *p = buf, *e = buf + at;
         p < e && (p = memchr(p, '\n', (size_t)(e - p))) != NULL; p++)
        line++;
    return line;
}

/* Looks at the bytes [from, len) just read: a NUL byte, which no text
 * file holds and which would cut a cell short, or a line grown past the
 * limit, is an error. *line_start is where the current line begins. */
static gpulayer_status check_new_bytes(const char *path, const char *buf,
                                       size_t from, size_t len,
                                       size_t *line_start, size_t limit)
{
    const char *nul = memchr(buf + from, '\0', len - from);
    if (nul) {
        size_t at = (size_t)(nul - buf), start = at;
        while (start > 0 && buf[start - 1] != '\n') start--;
        return gpl_error(GPULAYER_ERR_PARSE,
                         "'%s': line %lld, column %zu (byte of the line): a "
                         "NUL byte; this is not a text file, or it is "
                         "damaged", path, (long long)line_of(buf, at),
                         at - start + 1);
    }
    if (len - *line_start <= limit) {
        /* No line here can be over the limit: only find where the last
         * one starts. */
        for (size_t i = len; i > from; i--)
            if (buf[i - 1] == '\n') {
                *line_start = i;
                break;
            }
        return GPULAYER_OK;
    }
    for (const char *p = buf + from, *e = buf + len;
         (p = memchr(p, '\n', (size_t)(e - p))) != NULL; p++) {
        if ((size_t)(p - buf) - *line_start > limit) break;
        *line_start = (size_t)(p - buf) + 1;
    }
    if (len - *line_start > limit)
        return gpl_error(GPULAYER_ERR_PARSE,
                         "'%s': line %lld is longer than the limit of %zu bytes "
                         "(1 GiB, or the host memory limit when smaller); is "
                         "this a text data file?", path,
                         (long long)line_of(buf, *line_start), limit);
    return GPULAYER_OK;
}

/* Reads everything from g into a NUL-terminated buffer. */
static gpulayer_status read_all(const char *path, gzFile g, size_t cap,
                                gpl_text *out)
{
    char *buf = NULL;
    size_t len = 0, line_start = 0, limit = line_limit();
    gpulayer_status st;
    /* gzip data give their own size, which may be more than the limit. */
    if ((st = gpl_file_check_growth(path, "data file", cap)) != GPULAYER_OK) return st;
    if (!(buf = malloc(cap))) goto oom;
    for (;;) {
        if (len + 1 >= cap) {
            /* Probe for one more byte before doubling a buffer that may
             * already hold the whole file. */
            char probe;
            int r = gzread(g, &probe, 1);
            if (r == 0) break;
            if (r < 0) goto read_error;
            /* A stream or gzip data may hold more than the limit allows. */
            if ((st = gpl_file_check_growth(path, "data file", (uint64_t)cap * 2)) !=
                GPULAYER_OK)
                goto fail;
            if (!grow_buffer(&buf, &cap)) goto oom;
            buf[len++] = probe;
            if ((st = check_new_bytes(path, buf, len - 1, len, &line_start,
                                      limit)) != GPULAYER_OK)
                goto fail;
            continue;
        }
        size_t room = cap - 1 - len;
        unsigned chunk = room > (1u << 30) ? (1u << 30) : (unsigned)room;
        int r = gzread(g, buf + len, chunk);
        if (r < 0) goto read_error;
        if (r == 0) break;
        len += (size_t)r;
        if ((st = check_new_bytes(path, buf, len - (size_t)r, len, &line_start,
                                  limit)) != GPULAYER_OK)
            goto fail;
    }
    buf[len] = '\0';
    out->data = buf;
    out->len = len;
    return GPULAYER_OK;

fail:
    free(buf);
    return st;

read_error: {
    int zerr;
    const char *msg = gzerror(g, &zerr);
    free(buf);
    if (zerr == Z_ERRNO)
        return gpl_error(GPULAYER_ERR_IO, "cannot read '%s': %s", path,
                         strerror(errno));
    /* gzerror's text starts with the descriptor ("<fd:3>: "): keep only
     * zlib's reason. */
    if (msg[0] == '<') {
        const char *colon = strstr(msg, ": ");
        if (colon) msg = colon + 2;
    }
    return gpl_error(GPULAYER_ERR_IO,
                     "cannot read '%s': the gzip data are corrupt (zlib: %s)",
                     path, msg);
}
oom:
    free(buf);
    return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                     "out of host memory reading '%s' (%zu bytes so far)",
                     path, len);
}

/* Old Mac text files end their lines with a lone CR: read whole, such a
 * file was one line (its header ran into the data). A text without any LF
 * gets its CRs made LFs, so that every reader sees its lines, as pandas
 * and R do. Where there is an LF, a CR is left alone: part of a CRLF
 * ending (which the readers take as they are) or of a quoted cell. */
static void cr_line_ends_to_lf(gpl_text *text)
{
    char *p = text->data, *end = text->data + text->len;
    if (memchr(p, '\n', text->len)) return;
    while ((p = memchr(p, '\r', (size_t)(end - p))) != NULL) *p++ = '\n';
}

gpulayer_status gpl_text_read(const char *path, gpl_text *out)
{
    out->data = NULL;
    out->len = 0;
    int fd;
    uint64_t size;
    GPL_CHECK(gpl_file_open_input(path, "data file", &fd, &size));
    unsigned char magic[6];
    ssize_t n = pread(fd, magic, sizeof magic, 0);
    gpulayer_status st_c = check_compression(path, magic, n > 0 ? (size_t)n : 0);
    if (st_c != GPULAYER_OK) {
        close(fd);
        return st_c;
    }
    int gz = n >= 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    size_t cap = initial_capacity(fd, size, gz);
    gzFile g = gzdopen(fd, "rb");
    if (!g) {
        close(fd);
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "out of host memory opening '%s'", path);
    }
    gzbuffer(g, 1u << 18);
    gpulayer_status status = read_all(path, g, cap, out);
    int rc = gzclose(g);
    if (status == GPULAYER_OK && rc != Z_OK) {
        gpl_text_free(out);
        /* Z_BUF_ERROR is zlib's report of a gzip stream cut short. */
        return gpl_error(GPULAYER_ERR_IO, "cannot read '%s': %s", path,
                         rc == Z_BUF_ERROR ? "the gzip data are truncated"
                                           : "the gzip data are corrupt");
    }
    if (status == GPULAYER_OK) cr_line_ends_to_lf(out);
    return status;
}

void gpl_text_free(gpl_text *text)
{
    if (!text) return;
    free(text->data);
    text->data = NULL;
    text->len = 0;
}

/* ---------------------------------------------------------------- numbers */

/* strtof follows LC_NUMERIC, which a host program may have set to a locale
 * with a decimal comma; data files always use a point. */
static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void make_c_locale(void)
{
    c_locale = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
}

static float slow_strtof(const char *s, const char *e)
{
    char local[128];
    size_t n = (size_t)(e - s);
    /* A literal validated by the caller is followed by a character that
     * cannot continue it, so strtof stops at e even without a copy. */
    const char *text = s;
    if (n < sizeof local) {
        memcpy(local, s, n);
        local[n] = '\0';
        text = local;
    }
    pthread_once(&c_locale_once, make_c_locale);
    if (c_locale != (locale_t)0) return strtof_l(text, NULL, c_locale);
    return strtof(text, NULL);
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

const char *gpl_not_finite_why(const char *s, const char *e)
{
    for (const char *p = s; p < e; p++)
        if (*p == 'i' || *p == 'I' || *p == 'n' || *p == 'N') return "is not finite";
    return "is beyond the float range (magnitude above 3.4e38)";
}

static int lower_equal(const char *s, const char *e, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(e - s) != n) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        if (c != word[i]) return 0;
    }
    return 1;
}

int gpl_parse_float(const char *s, const char *e, float *out)
{
    /* Powers of ten that float holds exactly (5^10 < 2^24). */
    static const float pow10_exact[11] = {1e0f, 1e1f, 1e2f, 1e3f, 1e4f, 1e5f,
                                          1e6f, 1e7f, 1e8f, 1e9f, 1e10f};
    const uint64_t exact_limit = (uint64_t)1 << 24;
    const char *p = s;
    int neg = 0;
    if (p < e && (*p == '+' || *p == '-')) neg = *p++ == '-';
    if (p < e && !is_digit(*p) && *p != '.') {
        if (!lower_equal(p, e, "inf") && !lower_equal(p, e, "infinity"))
            return 0;
        *out = neg ? -INFINITY : INFINITY;
        return 1;
    }
    uint64_t m = 0;
    int big = 0, any = 0, frac = 0;
    for (; p < e && is_digit(*p); p++, any = 1)
        if (!big && (m = m * 10 + (uint64_t)(*p - '0')) > exact_limit) big = 1;
    if (p < e && *p == '.')
        for (p++; p < e && is_digit(*p); p++, any = 1) {
            if (big) continue;
            frac++;
            if ((m = m * 10 + (uint64_t)(*p - '0')) > exact_limit) big = 1;
        }
    if (!any) return 0;
    long exp10 = 0;
    if (p < e && (*p == 'e' || *p == 'E')) {
        int eneg = 0;
        p++;
        if (p < e && (*p == '+' || *p == '-')) eneg = *p++ == '-';
        if (p == e || !is_digit(*p)) return 0;
        for (; p < e && is_digit(*p); p++)
            if (exp10 < 100000) exp10 = exp10 * 10 + (*p - '0');
        if (eneg) exp10 = -exp10;
    }
    if (p != e) return 0;
    exp10 -= frac;
    if (!big && exp10 >= -10 && exp10 <= 10) {
        /* Clinger's fast path: both operands are exact floats, so one
         * correctly rounded IEEE operation gives the correctly rounded
         * value -- the same float strtof returns. */
        float v = (float)m;
        v = exp10 < 0 ? v / pow10_exact[-exp10] : v * pow10_exact[exp10];
        *out = neg ? -v : v;
        return 1;
    }
    *out = slow_strtof(s, e);
    return 1;
}

int gpl_is_missing_marker(const char *s, size_t len)
{
    switch (len) {
    case 0: return 1;
    case 1: return s[0] == '?';
    case 2: return memcmp(s, "NA", 2) == 0;
    case 3:
        return memcmp(s, "NaN", 3) == 0 || memcmp(s, "nan", 3) == 0 ||
               memcmp(s, "NAN", 3) == 0 || memcmp(s, "N/A", 3) == 0;
    case 4: return memcmp(s, "null", 4) == 0 || memcmp(s, "NULL", 4) == 0;
    default: return 0;
    }
}

gpulayer_status gpulayer_read_text_cells(const char *const *cells, int64_t num_cells,
                                         float *values, int32_t *kinds)
{
    if (num_cells < 0 || (num_cells > 0 && (!cells || !values || !kinds)))
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "gpulayer_read_text_cells: cells, values and kinds are required");
    for (int64_t i = 0; i < num_cells; i++) {
        const char *s = cells[i] ? cells[i] : "";
        const char *e = s + strlen(s);
        /* The blanks the readers trim around an unquoted field. */
        while (s < e && (*s == ' ' || *s == '\t' || *s == '\r')) s++;
        while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) e--;
        values[i] = NAN;
        if (gpl_is_missing_marker(s, (size_t)(e - s))) kinds[i] = GPULAYER_CELL_MISSING;
        else if (gpl_parse_float(s, e, &values[i])) kinds[i] = GPULAYER_CELL_NUMBER;
        else kinds[i] = GPULAYER_CELL_TEXT;
    }
    return GPULAYER_OK;
}

/* --------------------------------------------------------------- sniffing */

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

/* "idx:val" with a non-negative integer index, or "qid:..." */
static int looks_like_libsvm_pair(const char *s, const char *e)
{
    const char *colon = memchr(s, ':', (size_t)(e - s));
    if (!colon || colon == s) return 0;
    if (colon - s == 3 && memcmp(s, "qid", 3) == 0) return 1;
    for (const char *p = s; p < colon; p++)
        if (!is_digit(*p)) return 0;
    float v;
    return colon + 1 < e && (gpl_parse_float(colon + 1, e, &v) ||
                             gpl_is_missing_marker(colon + 1,
                                                   (size_t)(e - colon - 1)));
}

/* How a line reads as LibSVM: -1 not at all, 0 a bare label (which a
 * one-column CSV line also is), 1 a label followed by index:value pairs. */
static int libsvm_likeness(const char *p, const char *e)
{
    int tokens = 0;
    while (p < e) {
        while (p < e && is_space(*p)) p++;
        if (p == e || *p == '#') break;
        const char *t = p;
        while (p < e && !is_space(*p)) p++;
        float v;
        if (tokens == 0) {
            const char *colon = memchr(t, ':', (size_t)(p - t));
            if (!gpl_parse_float(t, colon ? colon : p, &v)) return -1;
        } else if (!looks_like_libsvm_pair(t, p)) {
            return -1;
        }
        tokens++;
    }
    return tokens >= 2 ? 1 : 0;
}

/* Looks at the first few data lines (skipping blank and '#' lines): LibSVM
 * when none contradicts it and one has pairs; otherwise TSV when the first
 * holds a tab, else CSV. */
gpulayer_file_format gpl_sniff_format(const char *data, size_t len)
{
    const char *p = data, *end = data + len;
    const char *first = NULL, *first_end = NULL;
    int pairs = 0, contradicted = 0;
    if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) p += 3;
    for (int lines = 0; p < end && lines < 16 && !contradicted;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *e = nl ? nl : end;
        const char *q = p;
        while (q < e && is_space(*q)) q++;
        if (q < e && *q != '#') {
            if (!first) {
                first = q;
                first_end = e;
            }
            int how = libsvm_likeness(q, e);
            pairs |= how == 1;
            contradicted = how < 0;
            lines++;
        }
        p = nl ? nl + 1 : end;
    }
    if (pairs && !contradicted) return GPULAYER_FORMAT_LIBSVM;
    if (first && memchr(first, '\t', (size_t)(first_end - first)))
        return GPULAYER_FORMAT_TSV;
    return GPULAYER_FORMAT_CSV;
}

/* ------------------------------------------------------------ string table */

typedef struct strtab_entry {
    size_t offset; /* into the arena, NUL-terminated there */
    uint32_t length;
    uint32_t hash;
} strtab_entry;

struct gpl_strtab {
    strtab_entry *entries;
    int32_t count, capacity;
    int32_t *slots; /* open addressing: id + 1, 0 = empty */
    uint32_t mask;
    char *arena;
    size_t arena_len, arena_cap;
};

gpl_strtab *gpl_strtab_create(void)
{
    gpl_strtab *tab = gpl_calloc(1, sizeof *tab, "a category table");
    if (!tab) return NULL;
    tab->mask = 63;
    tab->slots = gpl_calloc(tab->mask + 1, sizeof *tab->slots,
                            "a category table");
    if (!tab->slots) {
        free(tab);
        return NULL;
    }
    return tab;
}

void gpl_strtab_free(gpl_strtab *tab)
{
    if (!tab) return;
    free(tab->entries);
    free(tab->slots);
    free(tab->arena);
    free(tab);
}

int32_t gpl_strtab_count(const gpl_strtab *tab) { return tab->count; }

const char *gpl_strtab_string(const gpl_strtab *tab, int32_t id)
{
    return tab->arena + tab->entries[id].offset;
}

static uint32_t hash_bytes(const char *s, size_t len)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

static int rehash(gpl_strtab *tab)
{
    uint32_t mask = tab->mask * 2 + 1;
    int32_t *slots = gpl_calloc((size_t)mask + 1, sizeof *slots,
                                "a category table");
    if (!slots) return 0;
    for (int32_t id = 0; id < tab->count; id++) {
        uint32_t i = tab->entries[id].hash & mask;
        while (slots[i]) i = (i + 1) & mask;
        slots[i] = id + 1;
    }
    free(tab->slots);
    tab->slots = slots;
    tab->mask = mask;
    return 1;
}

static int add_entry(gpl_strtab *tab, const char *s, size_t len, uint32_t h)
{
    if (tab->count == tab->capacity) {
        int32_t cap = tab->capacity ? tab->capacity * 2 : 64;
        strtab_entry *e = realloc(tab->entries, (size_t)cap * sizeof *e);
        if (!e) return 0;
        tab->entries = e;
        tab->capacity = cap;
    }
    while (tab->arena_len + len + 1 > tab->arena_cap) {
        size_t cap = tab->arena_cap ? tab->arena_cap * 2 : 4096;
        char *a = realloc(tab->arena, cap);
        if (!a) return 0;
        tab->arena = a;
        tab->arena_cap = cap;
    }
    memcpy(tab->arena + tab->arena_len, s, len);
    tab->arena[tab->arena_len + len] = '\0';
    tab->entries[tab->count] = (strtab_entry){tab->arena_len, (uint32_t)len, h};
    tab->arena_len += len + 1;
    tab->count++;
    return 1;
}

int32_t gpl_strtab_intern(gpl_strtab *tab, const char *s, size_t len)
{
    if (len > UINT32_MAX || tab->count == INT32_MAX - 1) {
        gpl_error(GPULAYER_ERR_PARSE, "too many or too long category strings");
        return -1;
    }
    uint32_t h = hash_bytes(s, len);
    uint32_t i = h & tab->mask;
    for (int32_t slot; (slot = tab->slots[i]) != 0; i = (i + 1) & tab->mask) {
        const strtab_entry *e = &tab->entries[slot - 1];
        if (e->hash == h && e->length == len &&
            memcmp(tab->arena + e->offset, s, len) == 0)
            return slot - 1;
    }
    if (!add_entry(tab, s, len, h)) {
        gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                  "out of host memory storing category strings");
        return -1;
    }
    tab->slots[i] = tab->count;
    /* Keep the load factor under one half so probes stay short. */
    if ((uint32_t)tab->count * 2 > tab->mask && !rehash(tab)) return -1;
    return tab->count - 1;
}

typedef struct sort_item {
    const char *s;
    int32_t id;
} sort_item;

static int compare_items(const void *a, const void *b)
{
    return strcmp(((const sort_item *)a)->s, ((const sort_item *)b)->s);
}

gpulayer_status gpl_strtab_to_dict(const gpl_strtab *tab, int32_t *rank,
                                   gpl_category_dict **out)
{
    *out = NULL;
    int32_t n = tab->count;
    gpl_category_dict *dict = gpl_calloc(1, sizeof *dict, "a category list");
    sort_item *items = gpl_malloc((size_t)n * sizeof *items, "sorting categories");
    if (!dict || !items) goto fail;
    dict->names = gpl_calloc((size_t)n, sizeof *dict->names, "category names");
    if (!dict->names) goto fail;
    for (int32_t id = 0; id < n; id++)
        items[id] = (sort_item){tab->arena + tab->entries[id].offset, id};
    qsort(items, (size_t)n, sizeof *items, compare_items);
    for (int32_t code = 0; code < n; code++) {
        rank[items[code].id] = code;
        dict->names[code] = gpl_strdup(items[code].s);
        if (!dict->names[code]) goto fail;
        dict->count = code + 1;
    }
    free(items);
    *out = dict;
    return GPULAYER_OK;
fail:
    free(items);
    gpl_category_dict_free(dict);
    return GPULAYER_ERR_OUT_OF_MEMORY;
}
