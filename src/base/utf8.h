/* utf8.h -- checking that text is well-formed UTF-8. */
#ifndef GPL_UTF8_H
#define GPL_UTF8_H

#include <stddef.h>

/* The offset of the first byte of s[0..len) that does not start a
 * well-formed UTF-8 sequence (an overlong form, a surrogate or a value past
 * U+10FFFF counts as ill-formed), or len when the text is valid. */
size_t gpl_utf8_check(const char *s, size_t len);

#endif
