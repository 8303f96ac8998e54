/* test_util.h -- helpers shared by the cmocka test programs. */
#ifndef GPL_TEST_UTIL_H
#define GPL_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

/* Writes text to a fresh file under the test's temp directory and returns
 * its path (static storage, valid until the next call with the same slot). */
const char *gpl_test_write_file(const char *name, const char *text);
/* A temp directory private to this test process. */
const char *gpl_test_tmpdir(void);
/* Path of a file in ../shared/data, or NULL (and a skip message) when the
 * shared data are not present. */
const char *gpl_test_shared_data(const char *relative);

#endif
