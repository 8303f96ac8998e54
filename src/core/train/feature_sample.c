/* feature_sample.c -- column sampling (feature_sample.h). */
#include "feature_sample.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t gpl_sample_stream_tree(uint64_t seed, int32_t round, int32_t output)
{
    return seed * 0x9e3779b97f4a7c15ULL ^ ((uint64_t)round << 20) ^ (uint64_t)output;
}

/* splitmix64's finaliser: streams of neighbouring depths and nodes apart. */
static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t gpl_sample_stream_level(uint64_t tree, int32_t depth)
{
    return mix(tree ^ (0x6c6576656cULL << 24) ^ (uint64_t)(uint32_t)depth) | 1;
}

uint64_t gpl_sample_stream_node(uint64_t tree, int32_t node)
{
    return mix(tree ^ (0x6e6f6465ULL << 32) ^ (uint64_t)(uint32_t)node) | 1;
}

static uint64_t next(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

typedef struct keyed {
    double key;
    int32_t feature;
} keyed;

static int by_key_desc(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? 1 : -1;
    return (x->feature > y->feature) - (x->feature < y->feature);
}

/* The weighted draw (see the header) of keep of the n candidates. */
static int weighted(const int32_t *order, int32_t n, int32_t keep, const float *weights,
                    uint64_t state, uint8_t *out)
{
    keyed *k = malloc(sizeof(keyed) * (size_t)(n ? n : 1));
    if (!k) return 0;
    for (int32_t i = 0; i < n; i++) {
        /* u in (0, 1]: 53 bits of the stream, never 0 */
        const double u = ((double)(next(&state) >> 11) + 1.0) * (1.0 / 9007199254740992.0);
        const double w = weights[order[i]];
        k[i].key = w > 0.0 ? log(u) / w : -INFINITY;
        k[i].feature = order[i];
    }
    qsort(k, (size_t)n, sizeof *k, by_key_desc);
    for (int32_t i = 0; i < keep; i++) out[k[i].feature] = 1;
    free(k);
    return 1;
}

void gpl_sample_features(const uint8_t *from, int32_t num_features, double rate,
                         const float *weights, uint64_t state, uint8_t *out)
{
    if (num_features <= 0) return;
    if (rate >= 1.0) {
        for (int32_t f = 0; f < num_features; f++) out[f] = !from || from[f];
        return;
    }
    /* The shuffle runs over the candidates' indices, in index order. */
    int32_t n = 0;
    int32_t stack[256], *order = num_features <= 256 ? stack : NULL;
    if (!order) order = (int32_t *)malloc(sizeof(int32_t) * (size_t)num_features);
    if (!order) { /* no memory for the shuffle: keep every candidate */
        for (int32_t f = 0; f < num_features; f++) out[f] = !from || from[f];
        return;
    }
    for (int32_t f = 0; f < num_features; f++)
        if (!from || from[f]) order[n++] = f;
    memset(out, 0, (size_t)num_features);
    int32_t keep = (int32_t)floor(rate * n);
    if (keep < 1) keep = 1;
    if (keep > n) keep = n;
    if (weights) {
        if (!weighted(order, n, keep, weights, state, out)) /* no memory: keep them all */
            for (int32_t i = 0; i < n; i++) out[order[i]] = 1;
        if (order != stack) free(order);
        return;
    }
    for (int32_t i = 0; i < keep; i++) {
        next(&state);
        const int32_t j = i + (int32_t)(state % (uint64_t)(n - i));
        const int32_t tmp = order[i];
        order[i] = order[j];
        order[j] = tmp;
        out[order[i]] = 1;
    }
    if (order != stack) free(order);
}
