/* label_classes.c -- class names as labels (label_classes.h). */
#include "label_classes.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "reader_text.h"
#include "utf8.h"

/* Class codes are stored as floats, which count exactly up to 2^24. */
#define MAX_CLASSES (1 << 24)

static int shown(size_t len) { return len > 40 ? 40 : (int)len; }
static const char *dots(size_t len) { return len > 40 ? "..." : ""; }

/* The position of name s[0..len) among the sorted fixed names, or -1. */
static int32_t find_fixed(const gpl_category_dict *d, const char *s, size_t len)
{
    int32_t lo = 0, hi = d->count - 1;
    while (lo <= hi) {
        int32_t mid = lo + (hi - lo) / 2;
        const char *n = d->names[mid];
        size_t nl = strlen(n);
        int c = memcmp(n, s, nl < len ? nl : len);
        if (c == 0) c = nl < len ? -1 : nl > len ? 1 : 0;
        if (c == 0) return mid;
        if (c < 0) lo = mid + 1;
        else hi = mid - 1;
    }
    return -1;
}

/* "'a', 'b', 'c'" (cut short when long) for messages. */
static void list_names(const gpl_category_dict *d, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int32_t i = 0; i < d->count; i++) {
        int n = snprintf(buf + used, size - used, "%s'%s'", i ? ", " : "", d->names[i]);
        if (n < 0 || used + (size_t)n + 24 >= size) {
            snprintf(buf + used, size - used, ", ... (%d in all)", (int)d->count);
            return;
        }
        used += (size_t)n;
    }
}

static void remember_first(gpl_label_reader *lr, const char *s, size_t len, int64_t line)
{
    if (lr->numbers + lr->texts > 0) return;
    lr->first_line = line;
    snprintf(lr->first_text, sizeof lr->first_text, "%.*s%s", shown(len), s, dots(len));
}

static int read_name(gpl_label_reader *lr, const char *s, size_t len, float *out, char *why,
                     size_t why_size)
{
    if (lr->fixed) {
        int32_t code = find_fixed(lr->fixed, s, len);
        if (code < 0) {
            char names[300];
            list_names(lr->fixed, names, sizeof names);
            snprintf(why, why_size, "label '%.*s%s' is not a class of the model (its "
                     "classes: %s)", shown(len), s, dots(len), names);
            return GPL_LABEL_REFUSED;
        }
        *out = (float)code;
        return GPL_LABEL_OK;
    }
    size_t bad = gpl_utf8_check(s, len);
    if (bad != len) {
        snprintf(why, why_size, "the label is not valid UTF-8 (byte 0x%02X at position %zu); "
                 "convert the file to UTF-8", (unsigned)(unsigned char)s[bad], bad + 1);
        return GPL_LABEL_REFUSED;
    }
    if (!lr->names && !(lr->names = gpl_strtab_create())) return GPL_LABEL_NOMEM;
    int32_t id = gpl_strtab_intern(lr->names, s, len);
    if (id < 0) return GPL_LABEL_NOMEM;
    if (id >= MAX_CLASSES) {
        snprintf(why, why_size, "more than %d distinct class names", MAX_CLASSES);
        return GPL_LABEL_REFUSED;
    }
    *out = (float)id;
    return GPL_LABEL_OK;
}

int gpl_label_read(gpl_label_reader *lr, const char *s, size_t len, int64_t line,
                   float *out, char *why, size_t why_size)
{
    float v;
    int number = !lr->fixed && gpl_parse_float(s, s + len, &v);
    /* The first cell decides the kind: numbers keep their old meaning,
     * and a name that looks like a number could not be told from one. */
    if (number && lr->texts > 0) {
        snprintf(why, why_size, "label '%.*s%s' is a number, but the labels before it are "
                 "class names (line %lld: '%s'); labels must be all numbers or all class "
                 "names", shown(len), s, dots(len), (long long)lr->first_line,
                 lr->first_text);
        return GPL_LABEL_REFUSED;
    }
    if (!number && !lr->fixed && lr->numbers > 0) {
        snprintf(why, why_size, "label '%.*s%s' is not a number, but the labels before it "
                 "are numbers (line %lld: '%s'); labels must be all numbers or all class "
                 "names", shown(len), s, dots(len), (long long)lr->first_line,
                 lr->first_text);
        return GPL_LABEL_REFUSED;
    }
    remember_first(lr, s, len, line);
    if (number) {
        if (!isfinite(v)) {
            snprintf(why, why_size, "label '%.*s%s' %s", shown(len), s, dots(len),
                     gpl_not_finite_why(s, s + len));
            return GPL_LABEL_REFUSED;
        }
        lr->numbers++;
        *out = v;
        return GPL_LABEL_OK;
    }
    lr->texts++;
    return read_name(lr, s, len, out, why, why_size);
}

gpulayer_status gpl_label_finish(gpl_label_reader *lr, float *labels, int64_t rows,
                                 gpl_category_dict **classes)
{
    *classes = NULL;
    if (lr->texts == 0) return GPULAYER_OK;
    if (lr->fixed) {
        *classes = gpl_category_dict_new((const char *const *)lr->fixed->names,
                                         lr->fixed->count);
        return *classes ? GPULAYER_OK : GPULAYER_ERR_OUT_OF_MEMORY;
    }
    int32_t n = gpl_strtab_count(lr->names);
    int32_t *rank = malloc((size_t)n * sizeof *rank);
    if (!rank) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of host memory for class names");
    gpulayer_status st = gpl_strtab_to_dict(lr->names, rank, classes);
    if (st == GPULAYER_OK)
        for (int64_t r = 0; r < rows; r++) labels[r] = (float)rank[(int32_t)labels[r]];
    free(rank);
    return st;
}

void gpl_label_reader_free(gpl_label_reader *lr)
{
    gpl_strtab_free(lr->names);
    lr->names = NULL;
}

gpulayer_status gpl_label_classes_from_list(const char *const *names,
                                            gpl_category_dict **out)
{
    *out = NULL;
    if (!names) return GPULAYER_OK;
    int32_t n = 0;
    while (names[n]) {
        if (n > 0 && strcmp(names[n - 1], names[n]) >= 0)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "read option label_classes: the names must be sorted and "
                             "unique ('%s' after '%s')", names[n], names[n - 1]);
        n++;
    }
    if (n == 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "read option label_classes: the list is empty");
    *out = gpl_category_dict_new(names, n);
    return *out ? GPULAYER_OK : GPULAYER_ERR_OUT_OF_MEMORY;
}

int gpl_label_classes_equal(const gpl_category_dict *a, const gpl_category_dict *b)
{
    if (!a || !b) return a == b;
    if (a->count != b->count) return 0;
    for (int32_t i = 0; i < a->count; i++)
        if (strcmp(a->names[i], b->names[i])) return 0;
    return 1;
}

static const char *name_of(const gpulayer_dataset *ds, const char *what)
{
    return ds->source ? ds->source : what;
}

gpulayer_status gpl_label_classes_check(gpl_params *p, const gpulayer_dataset *train,
                                        const gpulayer_dataset *const *evals,
                                        int num_evals)
{
    const gpl_category_dict *c = train->label_classes;
    if (!c) return GPULAYER_OK;
    const char *src = name_of(train, "the training data");
    if (c->count < 2)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "%s: the labels hold one class name ('%s'); classification "
                         "needs at least 2 classes", src, c->count ? c->names[0] : "");
    if (!strncmp(p->objective, "multi:", 6)) {
        if (p->num_class == 0) p->num_class = c->count;
        else if (p->num_class != c->count)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "%s: num_class=%d was given, but the labels hold %d class "
                             "names", src, p->num_class, c->count);
    } else if (!strncmp(p->objective, "binary:", 7)) {
        if (c->count != 2)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "%s: %s needs 2 classes, but the labels hold %d class names; "
                             "use multi:softprob", src, p->objective, c->count);
    } else {
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "%s: the labels are class names ('%s', ...), but objective %s "
                         "needs numbers; use binary:logistic or multi:softprob", src,
                         c->names[0], p->objective);
    }
    for (int i = 0; i < num_evals; i++)
        if (evals[i] && evals[i]->label_classes &&
            !gpl_label_classes_equal(evals[i]->label_classes, c))
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "evaluation set %s has other class names than the training "
                             "data; read it with the training data's classes",
                             name_of(evals[i], "(in memory)"));
    return GPULAYER_OK;
}
