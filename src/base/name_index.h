/* name_index.h -- names sorted for lookup: a header of many columns, the
 * features of a model, checked for repeats and searched by name. */
#ifndef GPL_NAME_INDEX_H
#define GPL_NAME_INDEX_H

#include <stddef.h>
#include <stdint.h>

typedef struct gpl_named {
    const char *name;
    int32_t at; /* the name's position among those given */
} gpl_named;

/* Sorts by name, then by position. */
void gpl_named_sort(gpl_named *items, int32_t count);

/* The position of the first item named by the len bytes at name in sorted
 * items, or -1. */
int32_t gpl_named_find(const gpl_named *sorted, int32_t count, const char *name, size_t len);

/* The first position, in the order given, whose non-empty name came
 * before it, or -1 when the non-empty names are distinct. */
int32_t gpl_named_first_repeat(const gpl_named *sorted, int32_t count);

#endif
