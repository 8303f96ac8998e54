/* fuzz_input.h -- what the harnesses share: the input written to a file of
 * this process (the readers take paths), and the settings every harness
 * runs under (one thread, a low host memory limit, so that an input asking
 * for gigabytes is refused by the library's own estimate, not by the
 * fuzzer's memory limit). */
#ifndef GPL_FUZZ_INPUT_H
#define GPL_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* libFuzzer calls it once, before the first input (each harness is its
 * own program, so each defines it once, here). */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    setenv("GPULAYER_MEMORY_LIMIT", "64M", 1);
    setenv("OMP_NUM_THREADS", "1", 1);
    return 0;
}

/* The bytes as a file named with this process's id and ext; its path, or
 * NULL when it cannot be written (then the input is skipped). */
static inline const char *fuzz_file(const uint8_t *data, size_t size, const char *ext)
{
    static char path[128];
    snprintf(path, sizeof path, "/tmp/gpulayer-fuzz-%ld%s", (long)getpid(), ext);
    FILE *f = fopen(path, "wb");
    if (!f) return NULL;
    size_t put = size ? fwrite(data, 1, size, f) : 0;
    if (fclose(f) != 0 || put != size) return NULL;
    return path;
}

#endif
