/* predict_latency.c -- latency of small predictions through the C API:
 * a prepared gpulayer_predictor against gpulayer_booster_predict_dense,
 * batches of 1 and 16 rows taken in turn from a file of rows.
 *
 *     gpulayer-predict-latency MODEL ROWS_F32 NUM_FEATURES [CALLS]
 *
 * Prints one JSON line: the median microseconds of a call for each. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpulayer.h"

static double now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static float *read_rows(const char *path, int F, int64_t *rows)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    float *x = malloc((size_t)size);
    if (x && fread(x, 1, (size_t)size, f) != (size_t)size) {
        free(x);
        x = NULL;
    }
    fclose(f);
    *rows = size / (long)sizeof(float) / F;
    return x;
}

/* Median microseconds of `calls` calls on batches of n rows (the rows
 * move on each call, so the same few rows are not served from cache). */
static double median_us(const gpulayer_booster *b, const gpulayer_predictor *p,
                        const float *x, int64_t rows, int F, int64_t n, int calls)
{
    double *t = malloc(sizeof(double) * (size_t)calls);
    float out[64];
    for (int i = 0; i < calls; i++) {
        const float *batch = x + (int64_t)((i * n) % (rows - n)) * F;
        double t0 = now_us();
        gpulayer_status st =
            p ? gpulayer_predictor_predict_dense(p, batch, n, F, GPULAYER_ROW_MAJOR, out, 64)
              : gpulayer_booster_predict_dense(b, batch, n, F, GPULAYER_ROW_MAJOR, 0, 0, out, 64);
        t[i] = now_us() - t0;
        if (st != GPULAYER_OK) {
            fprintf(stderr, "predict: %s\n", gpulayer_last_error());
            exit(1);
        }
    }
    qsort(t, (size_t)calls, sizeof(double), by_value);
    double m = t[calls / 2];
    free(t);
    return m;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s MODEL ROWS_F32 NUM_FEATURES [CALLS]\n", argv[0]);
        return 2;
    }
    const int F = atoi(argv[3]), calls = argc > 4 ? atoi(argv[4]) : 2000;
    int64_t rows;
    float *x = read_rows(argv[2], F, &rows);
    gpulayer_booster *b;
    if (!x || rows < 64 || gpulayer_booster_load(argv[1], &b) != GPULAYER_OK) {
        fprintf(stderr, "cannot read %s or %s (64 rows at least): %s\n", argv[2], argv[1],
                gpulayer_last_error());
        return 1;
    }
    if (gpulayer_booster_prediction_width(b, 0) != 1) {
        fprintf(stderr, "a model with one value a row is expected\n");
        return 1;
    }
    gpulayer_predictor *p;
    if (gpulayer_booster_predictor_create(b, 0, 0, &p) != GPULAYER_OK) {
        fprintf(stderr, "predictor: %s\n", gpulayer_last_error());
        return 1;
    }
    median_us(b, p, x, rows, F, 16, calls / 10 + 1); /* warm the caches */
    printf("{\"predictor_1_us\": %.2f, \"predictor_16_us\": %.2f, \"booster_1_us\": %.2f, "
           "\"booster_16_us\": %.2f}\n",
           median_us(b, p, x, rows, F, 1, calls), median_us(b, p, x, rows, F, 16, calls),
           median_us(b, NULL, x, rows, F, 1, calls / 10 + 1),
           median_us(b, NULL, x, rows, F, 16, calls / 10 + 1));
    gpulayer_predictor_free(p);
    gpulayer_booster_free(b);
    free(x);
    return 0;
}
