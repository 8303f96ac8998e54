/* name_index.c -- names sorted for lookup (name_index.h). */
#include "name_index.h"

#include <stdlib.h>
#include <string.h>

static int by_name_then_position(const void *a, const void *b)
{
    const gpl_named *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->at > y->at) - (x->at < y->at);
}

void gpl_named_sort(gpl_named *items, int32_t count)
{
    qsort(items, (size_t)count, sizeof *items, by_name_then_position);
}

/* strcmp of name against the len bytes at key, a name longer than key
 * sorting after it. */
static int compare_key(const char *name, const char *key, size_t len)
{
    int c = strncmp(name, key, len);
    return c ? c : name[len] != '\0';
}

int32_t gpl_named_find(const gpl_named *sorted, int32_t count, const char *name, size_t len)
{
    int32_t lo = 0, hi = count;
    while (lo < hi) {
        int32_t mid = lo + (hi - lo) / 2;
        if (compare_key(sorted[mid].name, name, len) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo < count && compare_key(sorted[lo].name, name, len) == 0 ? sorted[lo].at : -1;
}

int32_t gpl_named_first_repeat(const gpl_named *sorted, int32_t count)
{
    int32_t repeat = -1;
    for (int32_t k = 1; k < count; k++)
        if (sorted[k].name[0] && strcmp(sorted[k - 1].name, sorted[k].name) == 0 &&
            (repeat < 0 || sorted[k].at < repeat))
            repeat = sorted[k].at;
    return repeat;
}
