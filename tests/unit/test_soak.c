/* test_soak.c -- many create / train / predict / save / load / free cycles
 * in one process: the resident memory must stay flat. Cycles from
 * GPULAYER_SOAK_CYCLES (default 1000), the device from GPULAYER_SOAK_DEVICE
 * (default cpu; "cuda" or "vulkan" on a machine that has one). Prints the
 * resident size every 100 cycles and checks it from cycle 100 on when
 * there are at least 200; docs/reliability.md records runs. */
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpulayer.h"

enum { ROWS = 1000, COLS = 8 };

/* AddressSanitizer keeps freed memory in quarantine, so the resident size
 * of a sanitizer build grows without a leak; its leak checker judges
 * there instead. */
#if defined(__SANITIZE_ADDRESS__)
#define RESIDENT_SIZE_MEANS_LEAKS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RESIDENT_SIZE_MEANS_LEAKS 0
#endif
#endif
#ifndef RESIDENT_SIZE_MEANS_LEAKS
#define RESIDENT_SIZE_MEANS_LEAKS 1
#endif

#define OK(expr)                                                                   \
    do {                                                                           \
        gpulayer_status ok_status_ = (expr);                                       \
        if (ok_status_ != GPULAYER_OK) fail_msg("%s: %s", #expr, gpulayer_last_error()); \
    } while (0)

static long resident_bytes(void)
{
    long pages_total = 0, pages_resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return -1;
    int got = fscanf(f, "%ld %ld", &pages_total, &pages_resident);
    fclose(f);
    return got == 2 ? pages_resident * sysconf(_SC_PAGESIZE) : -1;
}

static void one_cycle(const float *x, const float *y, const char *device, int cycle)
{
    gpulayer_dataset *ds = NULL;
    OK(gpulayer_dataset_from_dense(x, ROWS, COLS, GPULAYER_ROW_MAJOR, y, NULL, &ds));
    gpulayer_booster *b = NULL;
    OK(gpulayer_booster_create(&b));
    OK(gpulayer_booster_set_param(b, "objective", cycle % 2 ? "binary:logistic"
                                                             : "reg:squarederror"));
    OK(gpulayer_booster_set_param(b, "num_round", "8"));
    OK(gpulayer_booster_set_param(b, "max_depth", "4"));
    OK(gpulayer_booster_set_param(b, "nthread", "1"));
    OK(gpulayer_booster_set_param(b, "device", device));
    OK(gpulayer_booster_train(b, ds, NULL, NULL, 0, NULL, NULL));
    float *out = malloc(sizeof(float) * ROWS), *again = malloc(sizeof(float) * ROWS);
    OK(gpulayer_booster_predict_device(b, ds, device, 0, 0, out, ROWS));
    char *buf = NULL;
    size_t len = 0;
    OK(gpulayer_booster_save_to_buffer(b, &buf, &len));
    gpulayer_booster *loaded = NULL;
    OK(gpulayer_booster_load_from_buffer(buf, len, &loaded));
    OK(gpulayer_booster_predict(loaded, ds, 0, 0, again, ROWS));
    if (memcmp(out, again, sizeof(float) * ROWS) != 0)
        fail_msg("cycle %d: the loaded model predicts other bits", cycle);
    gpulayer_free_buffer(buf);
    gpulayer_booster_free(loaded);
    gpulayer_booster_free(b);
    gpulayer_dataset_free(ds);
    free(out);
    free(again);
}

static void test_resident_memory_stays_flat(void **state)
{
    (void)state;
    const char *env = getenv("GPULAYER_SOAK_CYCLES");
    const int cycles = env && atoi(env) > 0 ? atoi(env) : 1000;
    const char *device = getenv("GPULAYER_SOAK_DEVICE");
    if (!device || !*device) device = "cpu";
    float *x = malloc(sizeof(float) * ROWS * COLS), *y = malloc(sizeof(float) * ROWS);
    uint32_t s = 1;
    for (int i = 0; i < ROWS * COLS; i++) {
        s = s * 1664525u + 1013904223u;
        x[i] = i % 13 == 0 ? NAN : (float)(s >> 8) / 16777216.0f;
    }
    for (int r = 0; r < ROWS; r++) y[r] = x[r * COLS + 1] + x[r * COLS + 2] > 1.0f;
    /* The first cycles load what stays for the process (threads, kernels,
     * the allocator's arenas); flat means flat after them. */
    const int warm = cycles < 100 ? cycles / 2 : 100;
    long base = 0, peak = 0;
    for (int i = 0; i < cycles; i++) {
        one_cycle(x, y, device, i);
        long rss = resident_bytes();
        if (i + 1 == warm) base = rss;
        if (i + 1 > warm && rss > peak) peak = rss;
        if ((i + 1) % 100 == 0 || i + 1 == cycles)
            print_message("%s: cycle %d: resident %.2f MiB\n", device, i + 1,
                          rss / 1048576.0);
    }
    long grown = peak - base;
    print_message("%s: %d cycles: resident after %d cycles %.2f MiB, highest after %.2f MiB "
                  "(grew %ld bytes)\n", device, cycles, warm, base / 1048576.0,
                  peak / 1048576.0, grown);
    /* A leak of one small buffer a cycle would pass this; ASan and valgrind
     * catch those. This catches growth that the sanitizers cannot see:
     * memory still referenced (caches, pools) that keeps growing. Short
     * runs (under valgrind, whose own heap moves the resident size) are
     * for the leak checker alone. */
    if (cycles >= 200 && RESIDENT_SIZE_MEANS_LEAKS) assert_true(grown <= 2L * 1024 * 1024);
    free(x);
    free(y);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_resident_memory_stays_flat),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
