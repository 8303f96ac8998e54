/* cli_util.h -- pieces shared by the train, predict and explain commands. */
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
/* How to read a data file (see gpulayer_read_options). */
typedef struct cli_data {
    const char *format; /* "auto", "csv", "tsv", "libsvm" or NULL */
    const char *label, *weight, *ignore;
    int no_header;
    int bad_numbers;                 /* GPULAYER_BAD_NUMBERS_* */
    const char *const *numeric;      /* NULL-terminated names, or NULL */
    const char *const *categorical;  /* NULL-terminated names, or NULL */
    int num_features;
    const char *qid, *group; /* query groups: qid column, group file */
    const char *base_margin; /* file of each row's base margins, or NULL */
} cli_data;

/* 0 when format is a known format name (or NULL); else prints why for
 * command cmd and returns 2. */
int cli_check_format(const char *cmd, const char *format);
/* Parses "error" or "missing" into *out; else prints why and returns 2. */
int cli_parse_bad_numbers(const char *cmd, const char *value, int *out);
/* The comma-separated items of list as a NULL-terminated array (one
 * allocation, freed with free()); NULL when out of memory. */
char **cli_split_list(const char *list);
gpulayer_status cli_read_data(const char *path, const cli_data *d,
                              gpulayer_dataset **out);
/* Reads path for model b (cli_model_data.c): the model's numeric and
 * categorical columns read as such, then its features picked out by name,
 * or in order with a first label column when there is one column too many
 * and label_given is 0. d gives format, label, header, bad numbers and
 * qid. Returns 0, or an exit status after saying why for command cmd. */
int cli_read_model_data(const char *cmd, const gpulayer_booster *b, const char *path,
                        cli_data *d, int label_given, gpulayer_dataset **ds);

#endif
