/* backend_guard.h -- runs a conformance suite only where its backend can be
 * created; elsewhere one test reports the reason as a skip. Checking before
 * any test runs keeps a skipped suite from building its data at all. */
#ifndef GPL_BACKEND_GUARD_H
#define GPL_BACKEND_GUARD_H

#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "test_util.h"

static char gpl_guard_reason[1024];

static void gpl_guard_skip(void **state)
{
    (void)state;
    print_message("skipping: %s\n", gpl_guard_reason);
    skip();
}

/* The tests, or a single skip naming why the backend is not usable. */
#define GPL_RUN_IF_BACKEND(name, tests)                                        \
    do {                                                                       \
        gpl_backend_config guard_cfg_ = {1, 0, 3, 1, 0};                       \
        gpl_backend *guard_be_ = NULL;                                         \
        if (gpl_backend_create((name), &guard_cfg_, &guard_be_) != GPULAYER_OK) { \
            snprintf(gpl_guard_reason, sizeof gpl_guard_reason,                \
                     "the %s backend is not usable here: %s", (name),          \
                     gpulayer_last_error());                                   \
            const struct CMUnitTest only_[] = {cmocka_unit_test(gpl_guard_skip)}; \
            return cmocka_run_group_tests(only_, NULL, NULL);                  \
        }                                                                      \
        gpl_backend_destroy(guard_be_);                                        \
        return cmocka_run_group_tests((tests), NULL, NULL);                    \
    } while (0)

#endif
