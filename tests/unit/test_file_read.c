/* test_file_read.c -- input files are read within the host memory limit,
 * and what is not a file (a device, a directory) is refused by name. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "file_read.h"
#include "gpulayer.h"

static void write_file(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    fclose(f);
}

static void test_reads_a_whole_file(void **state)
{
    (void)state;
    char path[] = "/tmp/gpl_file_read_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    write_file(path, "a,b\n1,2\n", 8);
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(gpl_file_read_all(path, "data file", &text, &len), GPULAYER_OK);
    assert_int_equal(len, 8);
    assert_string_equal(text, "a,b\n1,2\n");
    free(text);
    unlink(path);
}

/* /dev/zero and /dev/urandom never end: reading them would take all the
 * memory there is. The message names the file and what it is. */
static void test_devices_and_directories_are_refused(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    const char *devices[] = {"/dev/zero", "/dev/urandom", "/dev/null"};
    for (size_t i = 0; i < sizeof devices / sizeof *devices; i++) {
        if (access(devices[i], R_OK) != 0) continue;
        assert_int_equal(gpl_file_read_all(devices[i], "model file", &text, &len),
                         GPULAYER_ERR_IO);
        assert_null(text);
        assert_non_null(strstr(gpulayer_last_error(), devices[i]));
        assert_non_null(strstr(gpulayer_last_error(), "a character device, not a file"));
    }
    assert_int_equal(gpl_file_read_all("/tmp", "data file", &text, &len), GPULAYER_ERR_IO);
    assert_non_null(strstr(gpulayer_last_error(), "'/tmp': it is a directory"));
    assert_int_equal(gpl_file_read_all("/nonexistent/x.json", "model file", &text, &len),
                     GPULAYER_ERR_IO);
    assert_non_null(strstr(gpulayer_last_error(), "cannot open model file"));

    /* Every loader goes through the same door. */
    gpulayer_booster *b = NULL;
    if (access("/dev/zero", R_OK) == 0) {
        assert_int_equal(gpulayer_booster_load("/dev/zero", &b), GPULAYER_ERR_IO);
        assert_null(b);
        gpulayer_dataset *ds = NULL;
        assert_int_equal(gpulayer_dataset_read_file("/dev/zero", NULL, &ds), GPULAYER_ERR_IO);
        assert_null(ds);
    }
}

/* A file larger than GPULAYER_MEMORY_LIMIT is refused before it is read,
 * and so is a pipe once what came through passes the limit. */
static void test_the_memory_limit_bounds_every_read(void **state)
{
    (void)state;
    char path[] = "/tmp/gpl_file_read_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char *big = malloc(8192);
    memset(big, 'x', 8192);
    write_file(path, big, 8192);
    setenv("GPULAYER_MEMORY_LIMIT", "4K", 1);
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(gpl_file_read_all(path, "model file", &text, &len),
                     GPULAYER_ERR_OUT_OF_MEMORY);
    assert_non_null(strstr(gpulayer_last_error(), path));
    unlink(path);

    char fifo[] = "/tmp/gpl_file_read_fifo_XXXXXX";
    fd = mkstemp(fifo);
    assert_true(fd >= 0);
    close(fd);
    unlink(fifo);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) { /* the writer: more than the limit, then it ends */
        FILE *w = fopen(fifo, "wb");
        if (w) {
            fwrite(big, 1, 8192, w);
            fclose(w);
        }
        _exit(0);
    }
    assert_int_equal(gpl_file_read_all(fifo, "data file", &text, &len),
                     GPULAYER_ERR_OUT_OF_MEMORY);
    assert_null(text);
    unsetenv("GPULAYER_MEMORY_LIMIT");
    int status;
    waitpid(child, &status, 0);
    unlink(fifo);
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads_a_whole_file),
        cmocka_unit_test(test_devices_and_directories_are_refused),
        cmocka_unit_test(test_the_memory_limit_bounds_every_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
