/* test_util.c -- helpers shared by the cmocka test programs. */
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *gpl_test_tmpdir(void)
{
    static char dir[256];
    if (!dir[0]) {
        const char *base = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/gpulayer-test-XXXXXX", base ? base : "/tmp");
        if (!mkdtemp(dir)) {
            perror("mkdtemp");
            abort();
        }
    }
    return dir;
}

const char *gpl_test_write_file(const char *name, const char *text)
{
    static char path[16][512];
    static int slot;
    char *p = path[slot++ % 16];
    snprintf(p, 512, "%s/%s", gpl_test_tmpdir(), name);
    FILE *f = fopen(p, "wb");
    if (!f) {
        perror(p);
        abort();
    }
    fputs(text, f);
    fclose(f);
    return p;
}

const char *gpl_test_shared_data(const char *relative)
{
    static char path[16][512];
    static int slot;
    char *p = path[slot++ % 16];
    snprintf(p, 512, "%s/%s", GPL_SHARED_DATA_DIR, relative);
    if (access(p, R_OK) != 0) return NULL;
    return p;
}
