/* cli_util.h -- pieces shared by the train and predict commands. */
#ifndef GPL_CLI_UTIL_H
#define GPL_CLI_UTIL_H

#include <stdio.h>

#include "gpulayer.h"

/* Prints "gpulayer CMD: MESSAGE: last error" to stderr and returns 1. */
int cli_fail(const char *cmd, const char *what);
/* Seconds since an arbitrary fixed point (monotonic). */
double cli_now(void);
/* Parses a "key=value" argument in place; returns 0 when malformed. */
int cli_split_key_value(char *arg, char **key, char **value);
/* Reads a config file of "key = value" lines ('#' comments). For each pair
 * calls apply(key, value, user); stops at the first non-zero return, which
 * is returned. Reports file and line on a malformed line. */
int cli_read_config(const char *cmd, const char *path,
                    int (*apply)(const char *key, const char *value, void *user),
                    void *user);
/* Reads a data file, translating the format name ("auto", "csv", "tsv",
 * "libsvm"). */
gpulayer_status cli_read_data(const char *path, const char *format,
                              const char *label, int no_header,
                              const char *weight, const char *ignore,
                              int num_features, gpulayer_dataset **out);

#endif
