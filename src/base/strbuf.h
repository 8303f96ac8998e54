/* strbuf.h -- a growable string for rendering documents, tables and reports. */
#ifndef GPL_STRBUF_H
#define GPL_STRBUF_H

#include <stddef.h>

/* After an allocation failure the buffer stays failed (failed = 1) and
 * gpl_strbuf_take returns NULL, so renderers check once at the end. */
typedef struct gpl_strbuf {
    char *data;
    size_t len, cap;
    int failed;
} gpl_strbuf;

void gpl_strbuf_init(gpl_strbuf *sb);
void gpl_strbuf_printf(gpl_strbuf *sb, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Appends n bytes of s. */
void gpl_strbuf_append(gpl_strbuf *sb, const char *s, size_t n);
/* Hands the string over (malloc'd, caller frees); NULL after a failure. */
char *gpl_strbuf_take(gpl_strbuf *sb);

#endif
