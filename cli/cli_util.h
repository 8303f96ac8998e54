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
/* A feature's importance; cli_by_value_desc (for qsort) puts the largest
 * first and equal values in feature order, so listings are stable. */
typedef struct cli_ranked {
    int32_t feature;
    double value;
} cli_ranked;
int cli_by_value_desc(const void *a, const void *b);
/* The command line program argv[0..argc) as a shell would read it back
 * (words with spaces or quotes in single quotes) into out, cut short with
 * "..." when it does not fit. */
void cli_join_command(const char *program, int argc, char *const *argv, char *out,
                      size_t size);
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
    const char *const *label_classes; /* class names of the labels, or NULL */
} cli_data;

/* 0 when format is a known format name (or NULL); else prints why for
 * command cmd and returns 2. */
int cli_check_format(const char *cmd, const char *format);
/* Parses the value of a count option (--rounds, --tree): all of text a
 * base-10 integer from 0 to INT32_MAX. Else prints "gpulayer CMD: OPTION
 * must be a non-negative integer (at most ...), got 'TEXT'" and returns 0. */
int cli_parse_count(const char *cmd, const char *option, const char *text, int32_t *out);
/* Parses "error" or "missing" into *out; else prints why and returns 2. */
int cli_parse_bad_numbers(const char *cmd, const char *value, int *out);
/* The comma-separated items of list as a NULL-terminated array (one
 * allocation, freed with free()); NULL when out of memory. */
char **cli_split_list(const char *list);
/* The class names of a model (b) or of a dataset's labels (ds), whichever
 * is given, as a NULL-terminated array of pointers into it (freed with
 * free()); NULL when there are none, and also when out of memory, which
 * sets *oom. */
const char **cli_class_names(const gpulayer_booster *b, const gpulayer_dataset *ds, int *oom);
gpulayer_status cli_read_data(const char *path, const cli_data *d,
                              gpulayer_dataset **out);
/* Reads path for model b (cli_model_data.c): the model's numeric and
 * categorical columns read as such, then its features picked out by name,
 * or in order with a first label column when there is one column too many
 * and label_given is 0. d gives format, label, header, bad numbers and
 * qid. Returns 0, or an exit status after saying why for command cmd. */
int cli_read_model_data(const char *cmd, const gpulayer_booster *b, const char *path,
                        cli_data *d, int label_given, gpulayer_dataset **ds);

/* The options of the commands that read data for a saved model (predict,
 * explain; cli_model_data.c). A command's own long options take ids from
 * CLI_OPT_OWN on. */
typedef struct cli_model_options {
    const char *model, *data, *label, *format, *output, *nthread, *device, *qid;
    const char *base_margin;
    int no_header, bad_numbers;
    int32_t rounds;
} cli_model_options;
enum { CLI_OPT_NO_HEADER = 256, CLI_OPT_ROUNDS, CLI_OPT_DEVICE, CLI_OPT_BAD_NUMBERS,
       CLI_OPT_QID, CLI_OPT_BASE_MARGIN, CLI_OPT_OWN };
#define CLI_MODEL_SHORTOPTS "m:d:l:f:o:n:h"
#define CLI_MODEL_LONGOPTS                                                 \
    {"model", required_argument, 0, 'm'}, {"data", required_argument, 0, 'd'},        \
    {"label", required_argument, 0, 'l'}, {"format", required_argument, 0, 'f'},      \
    {"output", required_argument, 0, 'o'}, {"nthread", required_argument, 0, 'n'},    \
    {"no-header", no_argument, 0, CLI_OPT_NO_HEADER},                              \
    {"rounds", required_argument, 0, CLI_OPT_ROUNDS},                              \
    {"device", required_argument, 0, CLI_OPT_DEVICE},                              \
    {"bad-numbers", required_argument, 0, CLI_OPT_BAD_NUMBERS},                    \
    {"qid", required_argument, 0, CLI_OPT_QID},                                    \
    {"base-margin", required_argument, 0, CLI_OPT_BASE_MARGIN},                    \
    {"help", no_argument, 0, 'h'}
/* Takes option c (an id of CLI_MODEL_LONGOPTS) for command cmd: 1 when it
 * is one of them, 0 when not, 2 (after saying why) for a bad value. */
int cli_model_option(const char *cmd, int c, const char *arg, cli_model_options *o);
/* After the options: no arguments left, --model and --data given, a known
 * format. 0, or an exit status after saying why. */
int cli_model_options_check(const char *cmd, int argc, char **argv,
                            const cli_model_options *o);
/* The data file of the options, read for model b (cli_read_model_data). */
int cli_read_model_options_data(const char *cmd, const gpulayer_booster *b,
                                const cli_model_options *o, gpulayer_dataset **ds);

#endif
