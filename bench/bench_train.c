/*
 * bench_train.c -- times GPUlayer training and prediction on raw float32
 * matrices written by bench/synth.py, and prints one JSON line of results.
 *
 * usage: gpulayer-bench TRAIN_X TRAIN_Y TEST_X TEST_Y NUM_FEATURES [key=value ...]
 * X files: row-major float32, Y files: float32, no header.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpulayer.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* This process's peak resident memory (VmHWM; getrusage's ru_maxrss would
 * include the parent's peak from before exec). */
static double peak_rss_mb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double kb = 0;
    while (f && fgets(line, sizeof line, f))
        if (!strncmp(line, "VmHWM:", 6)) kb = atof(line + 6);
    if (f) fclose(f);
    return kb / 1024.0;
}

static float *read_floats(const char *path, long *count)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long bytes = ftell(f);
    fseek(f, 0, SEEK_SET);
    float *v = malloc((size_t)bytes);
    if (!v || fread(v, 1, (size_t)bytes, f) != (size_t)bytes) {
        fprintf(stderr, "%s: read failed\n", path);
        free(v);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *count = bytes / (long)sizeof(float);
    return v;
}

static gpulayer_dataset *load(const char *xpath, const char *ypath, int F)
{
    long nx, ny;
    float *x = read_floats(xpath, &nx), *y = read_floats(ypath, &ny);
    gpulayer_dataset *ds = NULL;
    if (x && y && nx == ny * F &&
        gpulayer_dataset_from_dense(x, ny, F, GPULAYER_ROW_MAJOR, y, NULL, &ds) != GPULAYER_OK)
        fprintf(stderr, "dataset: %s\n", gpulayer_last_error());
    free(x);
    free(y);
    return ds;
}

/* Marks the listed columns of ds categorical: list holds COL:COUNT pairs
 * (comma-separated), a column's values being codes 0..COUNT-1, named
 * c0000.. so that the names sort as the codes do. */
static int mark_categorical(gpulayer_dataset *ds, const char *list)
{
    for (const char *at = list; *at;) {
        int col = atoi(at), n = 0;
        const char *colon = strchr(at, ':');
        if (colon) n = atoi(colon + 1);
        if (n < 1 || n > 9999) {
            fprintf(stderr, "cat_columns: expected COL:COUNT pairs, got '%s'\n", at);
            return 1;
        }
        char **names = malloc(sizeof(char *) * (size_t)n);
        char *text = malloc((size_t)n * 8);
        for (int i = 0; names && text && i < n; i++) {
            names[i] = text + (size_t)i * 8;
            snprintf(names[i], 8, "c%04d", i);
        }
        int rc = !names || !text ||
                 gpulayer_dataset_set_categories(ds, col, (const char *const *)names, n) !=
                     GPULAYER_OK;
        if (rc) fprintf(stderr, "categorical column %d: %s\n", col, gpulayer_last_error());
        free(names);
        free(text);
        if (rc) return 1;
        at += strcspn(at, ",");
        if (*at == ',') at++;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: %s TRAIN_X TRAIN_Y TEST_X TEST_Y NUM_FEATURES [key=value ...]\n", argv[0]);
        return 2;
    }
    int F = atoi(argv[5]);
    gpulayer_dataset *train = load(argv[1], argv[2], F), *test = load(argv[3], argv[4], F);
    if (!train || !test) return 1;
    gpulayer_booster *b;
    gpulayer_booster_create(&b);
    for (int i = 6; i < argc; i++) {
        char *eq = strchr(argv[i], '=');
        if (!eq) continue;
        *eq = '\0';
        /* cat_columns=COL:COUNT,...: those columns are category codes, in
         * the training and the test data alike. */
        if (!strcmp(argv[i], "cat_columns")) {
            if (mark_categorical(train, eq + 1) || mark_categorical(test, eq + 1)) return 1;
            continue;
        }
        if (gpulayer_booster_set_param(b, argv[i], eq + 1) != GPULAYER_OK) {
            fprintf(stderr, "%s\n", gpulayer_last_error());
            return 1;
        }
    }
    double t0 = now();
    if (gpulayer_booster_train(b, train, NULL, NULL, 0, NULL, NULL) != GPULAYER_OK) {
        fprintf(stderr, "train: %s\n", gpulayer_last_error());
        return 1;
    }
    double train_s = now() - t0;
    /* BENCH_MODEL saves the model, so that a speed change can be checked
     * to leave the model bytes unchanged (cmp against the file before). */
    if (getenv("BENCH_MODEL") && gpulayer_booster_save(b, getenv("BENCH_MODEL")) != GPULAYER_OK) {
        fprintf(stderr, "save: %s\n", gpulayer_last_error());
        return 1;
    }
    /* num_rows x num_outputs values: a multiclass model has one a class */
    int64_t n = gpulayer_dataset_num_rows(test) * gpulayer_booster_num_outputs(b);
    float *pred = malloc(sizeof(float) * (size_t)n);
    t0 = now();
    if (gpulayer_booster_predict(b, test, 0, 0, pred, n) != GPULAYER_OK) {
        fprintf(stderr, "predict: %s\n", gpulayer_last_error());
        return 1;
    }
    double predict_s = now() - t0;
    FILE *f = fopen(getenv("BENCH_PRED") ? getenv("BENCH_PRED") : "/dev/null", "wb");
    if (f) {
        fwrite(pred, sizeof(float), (size_t)n, f);
        fclose(f);
    }
    printf("{\"train_s\": %.4f, \"predict_s\": %.4f, \"peak_rss_mb\": %.1f}\n", train_s,
           predict_s, peak_rss_mb());
    free(pred);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(train);
    gpulayer_dataset_free(test);
    return 0;
}
