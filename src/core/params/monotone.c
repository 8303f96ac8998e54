/* monotone.c -- monotone_constraints (monotone.h). */
#include "monotone.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

#define PARAM "monotone_constraints"

/* Calls visit for each entry of text in turn; stops at the first error. */
typedef gpulayer_status (*entry_visit)(void *user, int32_t index, int value);

static gpulayer_status each_entry(const char *text, entry_visit visit, void *user)
{
    const char *s = text ? text : "";
    while (isspace((unsigned char)*s)) s++;
    char close = 0;
    if (*s == '(') close = ')';
    if (*s == '[') close = ']';
    if (close) s++;
    int32_t index = 0;
    for (;;) {
        while (isspace((unsigned char)*s)) s++;
        if (close && *s == close && index == 0) {
            s++;
            break;
        }
        if (!close && *s == '\0' && index == 0) break;
        const char *start = s;
        if (*s == '+' || *s == '-') s++;
        while (isdigit((unsigned char)*s)) s++;
        int value = 2;
        if (s > start && isdigit((unsigned char)s[-1])) {
            char token[8] = {0};
            if ((size_t)(s - start) < sizeof token) {
                memcpy(token, start, (size_t)(s - start));
                if (!strcmp(token, "1") || !strcmp(token, "+1")) value = 1;
                else if (!strcmp(token, "-1")) value = -1;
                else if (!strcmp(token, "0") || !strcmp(token, "-0") || !strcmp(token, "+0"))
                    value = 0;
            }
        }
        if (value == 2) {
            const size_t len = strcspn(start, ",)] \t");
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "parameter " PARAM ": entry %d is '%.*s'; each entry is 1 "
                             "(increasing), -1 (decreasing) or 0 (free), as in (1,-1,0)",
                             (int)index, (int)(len ? len : 1), len ? start : "?");
        }
        GPL_CHECK(visit(user, index++, value));
        while (isspace((unsigned char)*s)) s++;
        if (*s == ',') {
            s++;
            continue;
        }
        if (close && *s == close) {
            s++;
            break;
        }
        if (!close && *s == '\0') break;
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter " PARAM ": '%.40s' after entry %d; give a list such as "
                         "(1,-1,0)",
                         *s ? s : "the end", (int)(index - 1));
    }
    while (isspace((unsigned char)*s)) s++;
    if (*s)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter " PARAM ": '%.40s' follows the list; give one list such "
                         "as (1,-1,0)",
                         s);
    return GPULAYER_OK;
}

typedef struct canonical_text {
    char *out;
    size_t size, len;
    int any;
} canonical_text;

static gpulayer_status append_entry(void *user, int32_t index, int value)
{
    canonical_text *c = user;
    const int n = snprintf(c->out + c->len, c->size - c->len, "%s%d", index ? "," : "(", value);
    if (n < 0 || (size_t)n + 2 > c->size - c->len)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter " PARAM ": the list takes more than %zu characters",
                         c->size - 2);
    c->len += (size_t)n;
    c->any = 1;
    return GPULAYER_OK;
}

gpulayer_status gpl_monotone_check(const char *text, char *out, size_t size)
{
    char buf[1024];
    canonical_text c = {buf, size < sizeof buf ? size : sizeof buf, 0, 0};
    buf[0] = '\0';
    GPL_CHECK(each_entry(text, append_entry, &c));
    if (c.any) memcpy(buf + c.len, ")", 2);
    memcpy(out, buf, strlen(buf) + 1);
    return GPULAYER_OK;
}

typedef struct feature_constraints {
    int32_t num_features;
    const uint8_t *categorical;
    const char *const *names;
    int8_t *out;
    int any;
} feature_constraints;

static gpulayer_status store_entry(void *user, int32_t index, int value)
{
    feature_constraints *fc = user;
    if (index >= fc->num_features)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter " PARAM ": the list has more entries than the data's %d "
                         "features (entry %d)",
                         (int)fc->num_features, (int)index);
    if (value != 0 && fc->categorical && fc->categorical[index]) {
        const char *name = fc->names && fc->names[index] ? fc->names[index] : NULL;
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "parameter " PARAM ": feature %d%s%s%s is categorical, and its "
                         "categories have no order to keep; set its entry to 0, or train it "
                         "as ordered codes (categorical=ordered:%d)",
                         (int)index, name ? " ('" : "", name ? name : "", name ? "')" : "",
                         (int)index);
    }
    fc->out[index] = (int8_t)value;
    fc->any |= value != 0;
    return GPULAYER_OK;
}

gpulayer_status gpl_monotone_parse(const char *text, int32_t num_features,
                                   const uint8_t *categorical,
                                   const char *const *feature_names, int8_t *out, int *any)
{
    feature_constraints fc = {num_features, categorical, feature_names, out, 0};
    memset(out, 0, (size_t)(num_features > 0 ? num_features : 0));
    GPL_CHECK(each_entry(text, store_entry, &fc));
    *any = fc.any;
    return GPULAYER_OK;
}
