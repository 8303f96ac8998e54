/* strbuf.c -- a growable string for rendering documents, tables and reports. */
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gpl_strbuf_init(gpl_strbuf *sb)
{
    sb->data = NULL;
    sb->len = sb->cap = 0;
    sb->failed = 0;
}

static int reserve(gpl_strbuf *sb, size_t extra)
{
    if (sb->len + extra + 1 <= sb->cap) return 1;
    size_t cap = sb->cap ? sb->cap : 256;
    while (cap < sb->len + extra + 1) cap *= 2;
    char *grown = realloc(sb->data, cap);
    if (!grown) {
        sb->failed = 1;
        return 0;
    }
    sb->data = grown;
    sb->cap = cap;
    return 1;
}

void gpl_strbuf_printf(gpl_strbuf *sb, const char *fmt, ...)
{
    if (sb->failed) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(sb, (size_t)n)) {
        sb->failed = 1;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(sb->data + sb->len, sb->cap - sb->len, fmt, ap);
    va_end(ap);
    sb->len += (size_t)n;
}

void gpl_strbuf_append(gpl_strbuf *sb, const char *s, size_t n)
{
    if (sb->failed || !reserve(sb, n)) return;
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

char *gpl_strbuf_take(gpl_strbuf *sb)
{
    if (sb->failed || !reserve(sb, 0)) {
        free(sb->data);
        gpl_strbuf_init(sb);
        return NULL;
    }
    sb->data[sb->len] = '\0';
    char *out = sb->data;
    gpl_strbuf_init(sb);
    return out;
}
