/* cli_util.c -- pieces shared by the train and predict commands. */
#include "cli_util.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
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
        /* A longer line would come back in pieces, each read as a line. */
        if (!strchr(line, '\n') && !feof(f)) {
            fprintf(stderr, "gpulayer %s: %s:%d: the line is longer than %d characters\n",
                    cmd, path, lineno, (int)sizeof line - 2);
            rc = 2;
            break;
        }
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
    /* fgets ends at a read error as at the end of the file: a directory
     * (EISDIR) or a failing disk would read as an empty config. */
    if (!rc && ferror(f)) {
        fprintf(stderr, "gpulayer %s: cannot read config file %s: %s\n", cmd, path,
                strerror(errno));
        rc = 1;
    }
    fclose(f);
    return rc;
}

static const char *const format_names[] = {"auto", "csv", "tsv", "libsvm"};

int cli_check_format(const char *cmd, const char *format)
{
    if (!format) return 0;
    for (size_t i = 0; i < sizeof format_names / sizeof *format_names; i++)
        if (!strcmp(format, format_names[i])) return 0;
    fprintf(stderr, "gpulayer %s: unknown format '%s' (auto, csv, tsv, libsvm)\n", cmd,
            format);
    return 2;
}

int cli_parse_count(const char *cmd, const char *option, const char *text, int32_t *out)
{
    /* strtol alone would take "" and "abc" as 0, stop quietly at "12x" and
     * skip leading blanks: each a typo that would run with another value. */
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end || isspace((unsigned char)text[0]) || errno || v < 0 ||
        v > INT32_MAX) {
        fprintf(stderr, "gpulayer %s: %s must be a non-negative integer (at most %d), "
                        "got '%s'\n", cmd, option, INT32_MAX, text);
        return 0;
    }
    *out = (int32_t)v;
    return 1;
}

int cli_parse_bad_numbers(const char *cmd, const char *value, int *out)
{
    if (!strcmp(value, "error")) *out = GPULAYER_BAD_NUMBERS_ERROR;
    else if (!strcmp(value, "missing")) *out = GPULAYER_BAD_NUMBERS_MISSING;
    else {
        fprintf(stderr, "gpulayer %s: --bad-numbers expects error or missing, got '%s'\n",
                cmd, value);
        return 2;
    }
    return 0;
}

char **cli_split_list(const char *list)
{
    size_t n = 1, len = strlen(list);
    for (const char *p = list; *p; p++) n += *p == ',';
    char **items = malloc((n + 1) * sizeof *items + len + 1);
    if (!items) return NULL;
    char *text = (char *)(items + n + 1);
    memcpy(text, list, len + 1);
    size_t k = 0;
    for (char *s = text; s;) {
        char *comma = strchr(s, ',');
        if (comma) *comma = '\0';
        s = trim(s);
        if (*s) items[k++] = s;
        s = comma ? comma + 1 : NULL;
    }
    items[k] = NULL;
    return items;
}

const char **cli_class_names(const gpulayer_booster *b, const gpulayer_dataset *ds, int *oom)
{
    int32_t n = b ? gpulayer_booster_num_class_names(b) : gpulayer_dataset_num_label_classes(ds);
    if (n < 1) return NULL;
    const char **names = calloc((size_t)n + 1, sizeof *names);
    if (!names) {
        *oom = 1;
        return NULL;
    }
    for (int32_t k = 0; k < n; k++)
        names[k] = b ? gpulayer_booster_class_name(b, k) : gpulayer_dataset_label_class(ds, k);
    return names;
}

gpulayer_status cli_read_data(const char *path, const cli_data *d, gpulayer_dataset **out)
{
    gpulayer_read_options o;
    memset(&o, 0, sizeof o);
    const char *format = d->format ? d->format : "auto";
    static const gpulayer_file_format formats[] = {
        GPULAYER_FORMAT_AUTO, GPULAYER_FORMAT_CSV, GPULAYER_FORMAT_TSV,
        GPULAYER_FORMAT_LIBSVM};
    for (size_t i = 0; i < sizeof format_names / sizeof *format_names; i++)
        if (!strcmp(format, format_names[i])) o.format = formats[i];
    o.label = d->label;
    o.no_header = d->no_header;
    o.weight_column = d->weight;
    o.ignore_columns = d->ignore;
    o.num_features = d->num_features;
    o.bad_numbers = d->bad_numbers;
    o.numeric_columns = d->numeric;
    o.categorical_columns = d->categorical;
    o.qid_column = d->qid;
    o.group_file = d->group;
    o.base_margin_file = d->base_margin;
    o.label_classes = d->label_classes;
    return gpulayer_dataset_read_file(path, &o, out);
}

void cli_join_command(const char *program, int argc, char *const *argv, char *out,
                      size_t size)
{
    size_t used = (size_t)snprintf(out, size, "%s", program);
    for (int i = 0; i < argc && used < size; i++) {
        const char *w = argv[i];
        const int plain = w[0] && !w[strcspn(w, " \t\n'\"\\$`*?;&|<>()")];
        if (plain) {
            used += (size_t)snprintf(out + used, size - used, " %s", w);
            continue;
        }
        used += (size_t)snprintf(out + used, size - used, " '");
        for (const char *c = w; *c && used < size; c++)
            used += *c == '\''
                        ? (size_t)snprintf(out + used, size - used, "'\\''")
                        : (size_t)snprintf(out + used, size - used, "%c", *c);
        if (used < size) used += (size_t)snprintf(out + used, size - used, "'");
    }
    if (used >= size && size > 4) memcpy(out + size - 4, "...", 4);
}

int cli_by_value_desc(const void *a, const void *b)
{
    const cli_ranked *x = a, *y = b;
    if (x->value != y->value) return x->value < y->value ? 1 : -1;
    return (x->feature > y->feature) - (x->feature < y->feature);
}
