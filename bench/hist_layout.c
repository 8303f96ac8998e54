/*
 * hist_layout.c -- a micro-benchmark of the histogram update loop: 16-byte
 * (int64 grad, int64 hess) bins against 8-byte packed bins, for the rows of
 * a deep node (scattered, with and without prefetch) and of the root
 * (sequential). 1,000,000 rows x 28 features, 255 value bins.
 *
 *   cc -O2 bench/hist_layout.c -o hist_layout && ./hist_layout
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { N = 1000000, F = 28, REPEAT = 8 };

typedef struct pair {
    int64_t g, h;
} pair;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(void)
{
    uint8_t *bins = malloc((size_t)N * F);
    pair *grad = malloc(sizeof(pair) * N);
    int64_t *packed = malloc(sizeof(int64_t) * N);
    uint32_t *rows = malloc(sizeof(uint32_t) * N), off[F + 1];
    for (int f = 0; f <= F; f++) off[f] = (uint32_t)f * 257;
    srand(1);
    for (long i = 0; i < (long)N * F; i++) bins[i] = (uint8_t)(1 + rand() % 255);
    for (int i = 0; i < N; i++) {
        grad[i].g = rand() % 2000 - 1000;
        grad[i].h = rand() % 1000;
        packed[i] = (int64_t)((uint64_t)grad[i].g << 32) + grad[i].h;
    }
    int n = 0; /* a deep node: one row in eight, scattered */
    for (int i = 0; i < N; i++)
        if (rand() % 8 == 0) rows[n++] = (uint32_t)i;
    pair *h16 = calloc(off[F], sizeof(pair));
    int64_t *h8 = calloc(off[F], sizeof(int64_t));
    double t[5];
    t[0] = now();
    for (int k = 0; k < REPEAT; k++)
        for (int i = 0; i < n; i++) {
            const uint8_t *b = bins + (long)rows[i] * F;
            pair g = grad[rows[i]];
            for (int f = 0; f < F; f++) {
                h16[off[f] + b[f]].g += g.g;
                h16[off[f] + b[f]].h += g.h;
            }
        }
    t[1] = now();
    for (int k = 0; k < REPEAT; k++)
        for (int i = 0; i < n; i++) {
            if (i + 16 < n) {
                __builtin_prefetch(bins + (long)rows[i + 16] * F);
                __builtin_prefetch(grad + rows[i + 16]);
            }
            const uint8_t *b = bins + (long)rows[i] * F;
            pair g = grad[rows[i]];
            for (int f = 0; f < F; f++) {
                h16[off[f] + b[f]].g += g.g;
                h16[off[f] + b[f]].h += g.h;
            }
        }
    t[2] = now();
    for (int k = 0; k < REPEAT; k++)
        for (int i = 0; i < N; i++) {
            const uint8_t *b = bins + (long)i * F;
            pair g = grad[i];
            for (int f = 0; f < F; f++) {
                h16[off[f] + b[f]].g += g.g;
                h16[off[f] + b[f]].h += g.h;
            }
        }
    t[3] = now();
    for (int k = 0; k < REPEAT; k++)
        for (int i = 0; i < N; i++) {
            const uint8_t *b = bins + (long)i * F;
            for (int f = 0; f < F; f++) h8[off[f] + b[f]] += packed[i];
        }
    t[4] = now();
    double deep = (double)REPEAT * n * F, root = (double)REPEAT * N * F;
    printf("ns per bin update: deep node 16B %.2f, 16B+prefetch %.2f; root 16B %.2f, "
           "8B packed %.2f  (checksum %lld)\n",
           (t[1] - t[0]) / deep * 1e9, (t[2] - t[1]) / deep * 1e9, (t[3] - t[2]) / root * 1e9,
           (t[4] - t[3]) / root * 1e9, (long long)(h16[5].g + h8[5]));
    free(bins);
    free(grad);
    free(packed);
    free(rows);
    free(h16);
    free(h8);
    return 0;
}
