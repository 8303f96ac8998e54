/* cli_util.c -- pieces shared by the train and predict commands. */
#include "cli_util.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int cli_fail(const char *cmd, const char *what)
{
    const char *msg = gpulayer_last_error();
    if (what && msg[0]) fprintf(stderr, "gpulayer %s: %s: %s\n", cmd, what, msg);
    else if (what) fprintf(stderr, "gpulayer %s: %s\n", cmd, what);
    else fprintf(stderr, "gpulayer %s: %s\n", cmd, msg);
    return 1;
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *end = s + strlen(s);
    while (end > s && isspace((unsigned char)end[-1])) *--end = '\0';
    return s;
}

int cli_split_key_value(char *arg, char **key, char **value)
{
    char *eq = strchr(arg, '=');
    if (!eq) return 0;
    *eq = '\0';
    *key = trim(arg);
    *value = trim(eq + 1);
    return (*key)[0] != '\0';
}

int cli_read_config(const char *cmd, const char *path,
                    int (*apply)(const char *key, const char *value, void *user),
                    void *user)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "gpulayer %s: cannot open config file %s: %s\n", cmd, path,
                strerror(errno));
        return 1;
    }
    char line[4096];
    int lineno = 0, rc = 0;
    while (!rc && fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char *text = trim(line);
        if (!*text) continue;
        char *key, *value;
        if (!cli_split_key_value(text, &key, &value)) {
            fprintf(stderr, "gpulayer %s: %s:%d: expected 'key = value', got '%s'\n",
                    cmd, path, lineno, text);
            rc = 2;
            break;
        }
        rc = apply(key, value, user);
        if (rc) fprintf(stderr, "gpulayer %s: (in %s, line %d)\n", cmd, path, lineno);
    }
    fclose(f);
    return rc;
}

gpulayer_status cli_read_data(const char *path, const char *format,
                              const char *label, int no_header,
                              const char *weight, const char *ignore,
                              int num_features, gpulayer_dataset **out)
{
    gpulayer_read_options o;
    memset(&o, 0, sizeof o);
    if (!format || !strcmp(format, "auto")) o.format = GPULAYER_FORMAT_AUTO;
    else if (!strcmp(format, "csv")) o.format = GPULAYER_FORMAT_CSV;
    else if (!strcmp(format, "tsv")) o.format = GPULAYER_FORMAT_TSV;
    else if (!strcmp(format, "libsvm")) o.format = GPULAYER_FORMAT_LIBSVM;
    else {
        fprintf(stderr, "unknown format '%s' (auto, csv, tsv, libsvm)\n", format);
        return GPULAYER_ERR_INVALID_ARGUMENT;
    }
    o.label = label;
    o.no_header = no_header;
    o.weight_column = weight;
    o.ignore_columns = ignore;
    o.num_features = num_features;
    return gpulayer_dataset_read_file(path, &o, out);
}
