/*
 * test_metal_pool.c -- the Metal backend's bookkeeping, which needs no
 * Metal and so is tested everywhere: BufferPool size classes, reuse and
 * accounting (buffers return only once their command buffer completed),
 * PipelineRegistry cache keys and lookups, the kernel library checks,
 * batch labels and the sticky failure, and the capability checks. The
 * device callbacks here hand out heap blocks standing in for MTL::Buffer.
 */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_kernels/gpu_kernel_abi.h"
#include "gpulayer.h"
#include "metal/metal_caps.h"
#include "metal/metal_fault.h"
#include "metal/metal_pool.h"
#include "metal/metal_registry.h"
#include "metal/metal_tuning.h"

/* ------------------------------------------------------- device stand-in */

typedef struct fake_device {
    int made, freed;
    size_t last_bytes;
    int fail_next;
} fake_device;

static void *fake_make(void *user, size_t bytes, gpl_mtl_storage storage)
{
    (void)storage;
    fake_device *d = user;
    if (d->fail_next) {
        d->fail_next = 0;
        return NULL;
    }
    d->made++;
    d->last_bytes = bytes;
    return malloc(1);
}

static void fake_free(void *user, void *handle)
{
    fake_device *d = user;
    d->freed++;
    free(handle);
}

static gpl_mtl_pool *make_pool(fake_device *d, size_t cache)
{
    memset(d, 0, sizeof *d);
    gpl_mtl_pool_ops ops = {fake_make, fake_free, d};
    gpl_mtl_pool *p = NULL;
    assert_int_equal(gpl_mtl_pool_create(&ops, cache, &p), GPULAYER_OK);
    return p;
}

/* ------------------------------------------------------- size classes */

static void test_size_classes(void **state)
{
    (void)state;
    assert_int_equal(gpl_mtl_pool_class_of(0), 0);
    assert_int_equal(gpl_mtl_pool_class_of(256), 0);
    assert_int_equal(gpl_mtl_pool_class_bytes(0), 256);
    assert_int_equal(gpl_mtl_pool_capacity(257), 320);
    assert_int_equal(gpl_mtl_pool_capacity(512), 512);
    assert_int_equal(gpl_mtl_pool_capacity(513), 640);
    assert_int_equal(gpl_mtl_pool_capacity((size_t)1 << 30), (size_t)1 << 30);
    /* Every class: capacity covers the request, wastes at most 25%, is a
     * multiple of 64, and classes grow strictly. */
    size_t prev = 0;
    for (int32_t c = 0; c <= gpl_mtl_pool_class_of((size_t)1 << 30); c++) {
        size_t b = gpl_mtl_pool_class_bytes(c);
        assert_true(b > prev);
        assert_int_equal(b % 64, 0);
        assert_int_equal(gpl_mtl_pool_class_of(b), c);
        assert_int_equal(gpl_mtl_pool_class_of(prev + 1), c);
        if (prev >= 256) assert_true((double)b <= 1.25 * (double)(prev + 1) + 1);
        prev = b;
    }
    /* Above the largest class: not pooled, page-rounded. */
    size_t big = ((size_t)1 << 30) + 1;
    assert_int_equal(gpl_mtl_pool_class_of(big), -1);
    assert_int_equal(gpl_mtl_pool_capacity(big), ((size_t)1 << 30) + GPL_MTL_POOL_PAGE_BYTES);
}

/* ------------------------------------------------------- pool accounting */

static void test_reuse_after_completion_only(void **state)
{
    (void)state;
    fake_device d;
    gpl_mtl_pool *p = make_pool(&d, (size_t)1 << 20);
    gpl_mtl_block a;
    assert_int_equal(gpl_mtl_pool_acquire(p, 1000, GPL_MTL_SHARED, "a", &a), GPULAYER_OK);
    assert_int_equal(a.bytes, 1024);
    void *handle = a.handle;
    /* Used by command buffer 3, which has not completed: pending. */
    gpl_mtl_pool_release(p, &a, 3);
    gpl_mtl_pool_stats s;
    gpl_mtl_pool_stats_get(p, &s);
    assert_int_equal(s.live, 0);
    assert_int_equal(s.pending, 1);
    assert_int_equal(s.pending_bytes, 1024);
    assert_int_equal(s.cached, 0);
    /* A request of the same class meanwhile gets a new buffer. */
    gpl_mtl_block b;
    assert_int_equal(gpl_mtl_pool_acquire(p, 900, GPL_MTL_SHARED, "b", &b), GPULAYER_OK);
    assert_ptr_not_equal(b.handle, handle);
    assert_int_equal(d.made, 2);
    /* Completing 2 is not enough; completing 3 returns it to the cache. */
    gpl_mtl_pool_complete(p, 2);
    gpl_mtl_pool_stats_get(p, &s);
    assert_int_equal(s.pending, 1);
    gpl_mtl_pool_complete(p, 3);
    gpl_mtl_pool_stats_get(p, &s);
    assert_int_equal(s.pending, 0);
    assert_int_equal(s.cached, 1);
    /* Now it is reused, not made. */
    gpl_mtl_block c;
    assert_int_equal(gpl_mtl_pool_acquire(p, 1024, GPL_MTL_SHARED, "c", &c), GPULAYER_OK);
    assert_ptr_equal(c.handle, handle);
    assert_int_equal(d.made, 2);
    gpl_mtl_pool_stats_get(p, &s);
    assert_int_equal(s.reused, 1);
    assert_int_equal(s.live, 2);
    assert_int_equal(s.live_bytes, 2048);
    /* Released after completion (last use 3 <= 3): straight to the cache. */
    gpl_mtl_pool_release(p, &c, 3);
    gpl_mtl_pool_release(p, &b, 0);
    gpl_mtl_pool_stats_get(p, &s);
    assert_int_equal(s.live, 0);
    assert_int_equal(s.pending, 0);
    assert_int_equal(s.cached, 2);
    assert_int_equal(s.peak_bytes, 2048);
    assert_int_equal(gpl_mtl_pool_destroy(p), 0);
    assert_int_equal(d.freed, d.made);
}

static void test_storage_modes_are_separate(void **state)
{
    (void)state;
    fake_device d;
    gpl_mtl_pool *p = make_pool(&d, (size_t)1 << 20);
    gpl_mtl_block a, b;
    assert_int_equal(gpl_mtl_pool_acquire(p, 4096, GPL_MTL_PRIVATE, "a", &a), GPULAYER_OK);
    gpl_mtl_pool_release(p, &a, 0);
    assert_int_equal(gpl_mtl_pool_acquire(p, 4096, GPL_MTL_SHARED, "b", &b), GPULAYER_OK);
    assert_int_equal(d.made, 2); /* a private buffer never serves shared */
    assert_int_equal(b.storage, GPL_MTL_SHARED);
    gpl_mtl_pool_release(p, &b, 0);
    assert_int_equal(gpl_mtl_pool_destroy(p), 0);
    assert_int_equal(d.freed, 2);
}

static void test_cache_cap_and_large_buffers(void **state)
{
    (void)state;
    fake_device d;
    gpl_mtl_pool *p = make_pool(&d, 2048);
    gpl_mtl_block a, b, big;
    assert_int_equal(gpl_mtl_pool_acquire(p, 2048, GPL_MTL_SHARED, "a", &a), GPULAYER_OK);
    assert_int_equal(gpl_mtl_pool_acquire(p, 2048, GPL_MTL_SHARED, "b", &b), GPULAYER_OK);
    gpl_mtl_pool_release(p, &a, 0);
    gpl_mtl_pool_release(p, &b, 0); /* over the cap: freed */
    gpl_mtl_pool_stats s;
    gpl_mtl_pool_stats_get(p, &s);
    assert_int_equal(s.cached, 1);
    assert_int_equal(s.freed, 1);
    /* Beyond the largest class: exact (page-rounded), never cached. The
     * fake device allocates nothing of that size. */
    size_t huge = ((size_t)1 << 30) + 5;
    assert_int_equal(gpl_mtl_pool_acquire(p, huge, GPL_MTL_PRIVATE, "big", &big), GPULAYER_OK);
    assert_int_equal(big.size_class, -1);
    assert_int_equal(d.last_bytes, gpl_mtl_pool_capacity(huge));
    gpl_mtl_pool_release(p, &big, 7);
    gpl_mtl_pool_complete(p, 7);
    gpl_mtl_pool_stats_get(p, &s);
    assert_int_equal(s.cached, 1);
    assert_int_equal(s.freed, 2);
    gpl_mtl_pool_trim(p);
    gpl_mtl_pool_stats_get(p, &s);
    assert_int_equal(s.cached, 0);
    assert_int_equal(s.cached_bytes, 0);
    assert_int_equal(gpl_mtl_pool_destroy(p), 0);
    assert_int_equal(d.freed, d.made);
}

static void test_allocation_failure_and_leak_report(void **state)
{
    (void)state;
    fake_device d;
    gpl_mtl_pool *p = make_pool(&d, 1 << 20);
    gpl_mtl_block a;
    d.fail_next = 1;
    assert_int_equal(gpl_mtl_pool_acquire(p, 100, GPL_MTL_SHARED, "split records", &a),
                     GPULAYER_ERR_OUT_OF_MEMORY);
    assert_non_null(strstr(gpulayer_last_error(), "split records"));
    gpl_mtl_pool_stats s;
    gpl_mtl_pool_stats_get(p, &s);
    assert_int_equal(s.live, 0);
    /* One block never released and one still pending at destruction: both
     * reported. */
    gpl_mtl_block b, c;
    assert_int_equal(gpl_mtl_pool_acquire(p, 100, GPL_MTL_SHARED, "b", &b), GPULAYER_OK);
    assert_int_equal(gpl_mtl_pool_acquire(p, 100, GPL_MTL_SHARED, "c", &c), GPULAYER_OK);
    gpl_mtl_pool_release(p, &c, 9);
    assert_int_equal(gpl_mtl_pool_destroy(p), 2);
    /* A block still live at destruction is the caller's, as the pool says:
     * its handle and the pool's record of it (ASan checks nothing else
     * leaks). */
    free(b.handle);
    free(b.tracking);
}

/* ------------------------------------------------------- pipeline registry */

static int destroyed;
static void count_destroy(void *user, void *pipeline)
{
    (void)user;
    (void)pipeline;
    destroyed++;
}

static void test_pipeline_keys(void **state)
{
    (void)state;
    gpl_mtl_pipeline_key a = {MTL_K_HISTOGRAM_ROWS, 256, 1024, GPL_MTL_KERNEL_ABI};
    gpl_mtl_pipeline_key b = a;
    assert_true(gpl_mtl_key_equal(&a, &b));
    assert_true(gpl_mtl_key_hash(&a) == gpl_mtl_key_hash(&b));
    /* Each field is part of the key. */
    gpl_mtl_pipeline_key v[4] = {a, a, a, a};
    v[0].kernel = MTL_K_HIST_REDUCE;
    v[1].wg = 128;
    v[2].shared_bins = 512;
    v[3].abi = GPL_MTL_KERNEL_ABI + 1;
    for (int i = 0; i < 4; i++) {
        assert_false(gpl_mtl_key_equal(&a, &v[i]));
        assert_true(gpl_mtl_key_hash(&a) != gpl_mtl_key_hash(&v[i]));
    }
}

static void test_registry_cache(void **state)
{
    (void)state;
    destroyed = 0;
    gpl_mtl_registry *r = NULL;
    assert_int_equal(gpl_mtl_registry_create(count_destroy, NULL, &r), GPULAYER_OK);
    /* Enough keys to make the table grow several times. */
    static int handles[400];
    for (int i = 0; i < 400; i++) {
        gpl_mtl_pipeline_key k = {i % MTL_K_COUNT, 32u << (i / MTL_K_COUNT % 4),
                                  (uint32_t)(i / (MTL_K_COUNT * 4)), GPL_MTL_KERNEL_ABI};
        assert_null(gpl_mtl_registry_find(r, &k));
        assert_int_equal(gpl_mtl_registry_insert(r, &k, &handles[i]), GPULAYER_OK);
    }
    assert_int_equal(gpl_mtl_registry_count(r), 400);
    for (int i = 0; i < 400; i++) {
        gpl_mtl_pipeline_key k = {i % MTL_K_COUNT, 32u << (i / MTL_K_COUNT % 4),
                                  (uint32_t)(i / (MTL_K_COUNT * 4)), GPL_MTL_KERNEL_ABI};
        assert_ptr_equal(gpl_mtl_registry_find(r, &k), &handles[i]);
    }
    /* Another ABI is another pipeline. */
    gpl_mtl_pipeline_key old = {0, 32, 0, GPL_MTL_KERNEL_ABI - 1};
    assert_null(gpl_mtl_registry_find(r, &old));
    /* Replacing a key destroys the old pipeline. */
    gpl_mtl_pipeline_key k0 = {0, 32, 0, GPL_MTL_KERNEL_ABI};
    static int replacement;
    assert_int_equal(gpl_mtl_registry_insert(r, &k0, &replacement), GPULAYER_OK);
    assert_int_equal(destroyed, 1);
    assert_int_equal(gpl_mtl_registry_count(r), 400);
    assert_ptr_equal(gpl_mtl_registry_find(r, &k0), &replacement);
    assert_int_not_equal(gpl_mtl_registry_insert(r, &k0, NULL), GPULAYER_OK);
    gpl_mtl_registry_destroy(r);
    assert_int_equal(destroyed, 401);
}

/* ------------------------------------------------------- library checks */

static const char *present_except;
static int has_all_but(void *user, const char *name)
{
    (void)user;
    return !present_except || strcmp(name, present_except) != 0;
}

static void test_library_checks(void **state)
{
    (void)state;
    static const unsigned char good[] = {'M', 'T', 'L', 'B', 1, 2, 3, 4};
    gpl_mtl_library_blob blob = {good, sizeof good, GPL_MTL_KERNEL_ABI};
    assert_int_equal(gpl_mtl_library_check_blob(&blob), GPULAYER_OK);
    gpl_mtl_library_blob none = {NULL, 0, 0};
    assert_int_equal(gpl_mtl_library_check_blob(&none), GPULAYER_ERR_UNSUPPORTED);
    gpl_mtl_library_blob other_abi = {good, sizeof good, GPL_MTL_KERNEL_ABI + 1};
    assert_int_equal(gpl_mtl_library_check_blob(&other_abi), GPULAYER_ERR_INTERNAL);
    assert_non_null(strstr(gpulayer_last_error(), "ABI version"));
    static const unsigned char spirv[] = {0x03, 0x02, 0x23, 0x07};
    gpl_mtl_library_blob wrong = {spirv, sizeof spirv, GPL_MTL_KERNEL_ABI};
    assert_int_equal(gpl_mtl_library_check_blob(&wrong), GPULAYER_ERR_INTERNAL);
    present_except = NULL;
    assert_int_equal(gpl_mtl_library_check_functions(has_all_but, NULL), GPULAYER_OK);
    present_except = "split_eval";
    assert_int_equal(gpl_mtl_library_check_functions(has_all_but, NULL), GPULAYER_ERR_INTERNAL);
    assert_non_null(strstr(gpulayer_last_error(), "'split_eval'"));
    /* The table names every kernel once, with its bindings: at most 30,
     * Metal's 31 buffer arguments less buffer(0) for the push constants
     * (the windowed kernels have 19). */
    for (int k = 0; k < MTL_K_COUNT; k++) {
        assert_non_null(gpl_mtl_kernel_table[k].name);
        assert_true(gpl_mtl_kernel_table[k].bindings >= 1 &&
                    gpl_mtl_kernel_table[k].bindings <= 30);
        assert_true(gpl_mtl_kernel_table[k].push_bytes % 4 == 0);
        for (int j = 0; j < k; j++)
            assert_string_not_equal(gpl_mtl_kernel_table[k].name, gpl_mtl_kernel_table[j].name);
    }
}

/* The host's ABI constant follows the kernels' own. */
static void test_abi_matches_kernels(void **state)
{
    (void)state;
    FILE *f = fopen(GPL_SOURCE_DIR "/src/backend/gpu_kernels/shaders/common.glsl", "r");
    assert_non_null(f);
    char line[256];
    int abi = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "#define GPL_KERNEL_ABI %d", &abi) == 1) break;
    fclose(f);
    assert_int_equal(abi, GPL_MTL_KERNEL_ABI);
    /* And the hosts' window count the kernels' (window.glsl spells out
     * that many bindings a windowed buffer). */
    f = fopen(GPL_SOURCE_DIR "/src/backend/gpu_kernels/shaders/window.glsl", "r");
    assert_non_null(f);
    int windows = -1;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "#define GPL_WINDOWS %d", &windows) == 1) break;
    fclose(f);
    assert_int_equal(windows, GPL_KERNEL_WINDOWS);
    assert_int_equal(gpl_mtl_kernel_table[MTL_K_HISTOGRAM_ROWS].bindings, 2 + 3 * windows);
    assert_int_equal(gpl_mtl_kernel_table[MTL_K_BINS_COLUMNS].bindings, 2 * windows);
}

/* ------------------------------------------------------- failures */

/* Every kernel of the host's table has its translated source, among them
 * the level plan's (hist_reduce_nodes, hist_subtract_nodes,
 * split_eval_level, partition_place), binding as many buffers as the
 * table says (the last `binding = N` is buffer(N)), and those take the
 * Vulkan host's push constants. */
static void test_kernels_have_sources(void **state)
{
    (void)state;
    for (int k = 0; k < MTL_K_COUNT; k++) {
        char path[1024];
        snprintf(path, sizeof path, GPL_SOURCE_DIR "/src/backend/metal/generated/%s.metal",
                 gpl_mtl_kernel_table[k].name);
        FILE *f = fopen(path, "r");
        if (!f) print_error("no translated source for kernel %s\n", gpl_mtl_kernel_table[k].name);
        assert_non_null(f);
        char line[4096];
        char entry[128];
        snprintf(entry, sizeof entry, "kernel void %s(", gpl_mtl_kernel_table[k].name);
        int found = 0, last = -1;
        while (fgets(line, sizeof line, f)) {
            found |= strstr(line, entry) != NULL;
            for (const char *b = strstr(line, "[[buffer("); b; b = strstr(b + 1, "[[buffer(")) {
                int n;
                if (sscanf(b, "[[buffer(%d)", &n) == 1 && n > last) last = n;
            }
        }
        fclose(f);
        assert_true(found);
        if (last != (int)gpl_mtl_kernel_table[k].bindings)
            print_error("kernel %s: buffer(%d) last, the table says %u bindings\n",
                        gpl_mtl_kernel_table[k].name, last, gpl_mtl_kernel_table[k].bindings);
        assert_int_equal(last, gpl_mtl_kernel_table[k].bindings);
    }
    assert_int_equal(gpl_mtl_kernel_table[MTL_K_PARTITION_PLACE].push_bytes,
                     sizeof(gpl_partition_push));
    assert_int_equal(gpl_mtl_kernel_table[MTL_K_HISTOGRAM_ROWS].push_bytes,
                     sizeof(gpl_histogram_rows_push));
    assert_int_equal(gpl_mtl_kernel_table[MTL_K_HIST_REDUCE_NODES].push_bytes,
                     sizeof(gpl_hist_nodes_push));
    assert_int_equal(gpl_mtl_kernel_table[MTL_K_HIST_SUBTRACT_NODES].bindings, 2);
    assert_int_equal(gpl_mtl_kernel_table[MTL_K_SPLIT_EVAL_LEVEL].bindings, 6);
    assert_int_equal(gpl_mtl_kernel_table[MTL_K_SPLIT_EVAL_LEVEL].push_bytes,
                     sizeof(gpl_split_push));
}

/* The kernels the Metal build compiles into its metallib
 * (gpl_metal_kernels of kernels.cmake) are the host's table, no more and
 * no fewer: the library check refuses a metallib that lacks one. */
static void test_metallib_kernels_are_the_table(void **state)
{
    (void)state;
    FILE *f = fopen(GPL_SOURCE_DIR "/src/backend/gpu_kernels/kernels.cmake", "r");
    assert_non_null(f);
    char text[1 << 14];
    const size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char *list = strstr(text, "set(gpl_metal_kernels ");
    assert_non_null(list);
    list += strlen("set(gpl_metal_kernels ");
    char *end = strchr(list, ')');
    assert_non_null(end);
    *end = '\0';
    int listed = 0, seen[MTL_K_COUNT] = {0};
    for (char *name = strtok(list, " \n"); name; name = strtok(NULL, " \n")) {
        int k = 0;
        while (k < MTL_K_COUNT && strcmp(gpl_mtl_kernel_table[k].name, name) != 0) k++;
        if (k == MTL_K_COUNT) print_error("kernels.cmake lists %s, not in the table\n", name);
        assert_true(k < MTL_K_COUNT);
        seen[k] = 1;
        listed++;
    }
    for (int k = 0; k < MTL_K_COUNT; k++) {
        if (!seen[k]) print_error("kernel %s is not in kernels.cmake\n", gpl_mtl_kernel_table[k].name);
        assert_true(seen[k]);
    }
    assert_int_equal(listed, MTL_K_COUNT);
}

static void test_batch_labels(void **state)
{
    (void)state;
    gpl_mtl_batch_info b;
    gpl_mtl_batch_start(&b, "partition_rows", 3, 12);
    gpl_mtl_batch_note_kernel(&b, "partition_count");
    gpl_mtl_batch_note_kernel(&b, "partition_scan");
    gpl_mtl_batch_note_kernel(&b, "partition_count");
    gpl_mtl_batch_note_kernel(&b, "partition");
    assert_string_equal(b.kernels, "partition_count,partition_scan,partition");
    assert_int_equal(b.serial, 12);
    for (int i = 0; i < 40; i++) {
        char name[32];
        snprintf(name, sizeof name, "kernel_%d", i);
        gpl_mtl_batch_note_kernel(&b, name);
    }
    assert_true(strlen(b.kernels) < sizeof b.kernels);
    assert_string_equal(b.kernels + strlen(b.kernels) - 3, "...");
}

static void test_sticky_failure(void **state)
{
    (void)state;
    gpl_mtl_fault f;
    assert_int_equal(gpl_mtl_fault_init(&f), 0);
    assert_int_equal(gpl_mtl_fault_check(&f), GPULAYER_OK);
    gpl_mtl_batch_info b;
    gpl_mtl_batch_start(&b, "build_histograms", 4, 30);
    gpl_mtl_batch_note_kernel(&b, "histogram");
    gpl_mtl_batch_note_kernel(&b, "hist_reduce");
    gpl_mtl_fault_record(&f, &b, GPULAYER_ERR_DEVICE, "Apple M1", "Invalid Resource");
    /* A later failure is a consequence; the first one is kept. */
    gpl_mtl_batch_info later;
    gpl_mtl_batch_start(&later, "evaluate_splits", 4, 31);
    gpl_mtl_fault_record(&f, &later, GPULAYER_ERR_OUT_OF_MEMORY, "Apple M1", "later");
    assert_true(gpl_mtl_fault_failed(&f));
    for (int i = 0; i < 2; i++) { /* refused every time, same message */
        assert_int_equal(gpl_mtl_fault_check(&f), GPULAYER_ERR_DEVICE);
        const char *m = gpulayer_last_error();
        assert_non_null(strstr(m, "build_histograms at level 4"));
        assert_non_null(strstr(m, "kernels: histogram,hist_reduce"));
        assert_non_null(strstr(m, "Invalid Resource"));
        assert_non_null(strstr(m, "until it is recreated"));
        assert_null(strstr(m, "later"));
    }
    gpl_mtl_fault_destroy(&f);
}

/* ------------------------------------------------------- capabilities */

static void test_capability_checks(void **state)
{
    (void)state;
    gpl_mtl_caps m1 = {"Apple M1", 7, 1, 1, 1, 32768, 1024, (uint64_t)1 << 32, (uint64_t)11 << 30};
    assert_int_equal(gpl_mtl_caps_check(&m1), GPULAYER_OK);
    char names[16][32];
    int n = gpl_mtl_caps_names(&m1, names, 16);
    int apple7 = 0, atomics = 0;
    for (int i = 0; i < n; i++) {
        apple7 |= !strcmp(names[i], "metal.apple7");
        atomics |= !strcmp(names[i], "metal.float_atomics");
    }
    assert_true(apple7 && atomics);
    assert_string_equal(names[0], "metal.apple1"); /* families are cumulative */
    /* An older family without Metal 3 is refused, naming the family. */
    gpl_mtl_caps a12 = m1;
    a12.apple_family = 5;
    a12.metal3 = 0;
    assert_int_equal(gpl_mtl_caps_check(&a12), GPULAYER_ERR_UNSUPPORTED);
    assert_non_null(strstr(gpulayer_last_error(), "Apple5"));
    /* A Metal 3 GPU of another family (an AMD GPU in an Intel Mac) is fine. */
    gpl_mtl_caps amd = {"AMD Radeon Pro", 0, 1, 1, 0, 65536, 1024, (uint64_t)1 << 32, 0};
    assert_int_equal(gpl_mtl_caps_check(&amd), GPULAYER_OK);
    gpl_mtl_caps small = m1;
    small.max_threadgroup_memory = 8192;
    assert_int_equal(gpl_mtl_caps_check(&small), GPULAYER_ERR_UNSUPPORTED);
    assert_non_null(strstr(gpulayer_last_error(), "threadgroup memory"));
    gpl_mtl_caps narrow = m1;
    narrow.max_threads_per_group = 128;
    assert_int_equal(gpl_mtl_caps_check(&narrow), GPULAYER_ERR_UNSUPPORTED);
    /* The names fit a short buffer without overflowing it. */
    assert_int_equal(gpl_mtl_caps_names(&m1, names, 3), 3);
}

/* The tuning is read once from the environment; its key names every
 * member in a fixed order. */
static void test_tuning_key(void **state)
{
    (void)state;
    mtl_tuning t;
    char key[256];
    unsetenv("GPULAYER_METAL_WORKSPACE");
    mtl_tuning_read(&t);
    mtl_tuning_key(&t, key, sizeof key);
    assert_string_equal(key, "gradient_groups=1024;partial_budget=67108864;partial_groups=512;"
                             "node_partials=64;workspace=shared");
    setenv("GPULAYER_METAL_WORKSPACE", "private", 1);
    mtl_tuning_read(&t);
    unsetenv("GPULAYER_METAL_WORKSPACE");
    assert_int_equal(t.workspace, GPL_MTL_PRIVATE);
    mtl_tuning_key(&t, key, sizeof key);
    assert_non_null(strstr(key, ";workspace=private"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_size_classes),
        cmocka_unit_test(test_reuse_after_completion_only),
        cmocka_unit_test(test_storage_modes_are_separate),
        cmocka_unit_test(test_cache_cap_and_large_buffers),
        cmocka_unit_test(test_allocation_failure_and_leak_report),
        cmocka_unit_test(test_pipeline_keys),
        cmocka_unit_test(test_registry_cache),
        cmocka_unit_test(test_library_checks),
        cmocka_unit_test(test_abi_matches_kernels),
        cmocka_unit_test(test_kernels_have_sources),
        cmocka_unit_test(test_metallib_kernels_are_the_table),
        cmocka_unit_test(test_batch_labels),
        cmocka_unit_test(test_sticky_failure),
        cmocka_unit_test(test_capability_checks),
        cmocka_unit_test(test_tuning_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
