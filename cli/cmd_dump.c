/* cmd_dump.c -- `gpulayer dump`: a model's trees as text. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "commands.h"
#include "gpulayer.h"

static void dump_usage(FILE *out)
{
    fprintf(out,
"usage: gpulayer dump --model FILE [--output FILE] [--with-stats]\n"
"                     [--tree N] [--max-depth D]\n"
"\n"
"Prints a model's trees as text, in XGBoost's get_dump layout: one line a\n"
"node, indented by depth. A numeric split reads '0:[age<41.5] yes=1,no=2,\n"
"missing=1', a categorical one '0:[colour in {blue, red}] yes=1,no=2,\n"
"missing=2' (the listed categories go to yes; missing and unseen\n"
"categories to missing), a leaf '3:leaf=0.25'.\n"
"\n"
"  --model FILE    the gpulayer model\n"
"  --output FILE   write the text there instead of to standard output\n"
"  --with-stats    add each node's gain and cover (hessian sum)\n"
"  --tree N        only tree N (0-based)\n"
"  --max-depth D   with --tree: stop at depth D (0 = the whole tree)\n");
}

typedef struct dump_options {
    const char *model, *output;
    int with_stats;
    int32_t tree, max_depth; /* tree -1: every tree */
} dump_options;

/* 0 to go on, -1 after --help, 2 on a usage error. */
static int parse_args(int argc, char **argv, dump_options *o)
{
    static const struct option longopts[] = {
        {"model", required_argument, 0, 'm'},     {"output", required_argument, 0, 'o'},
        {"with-stats", no_argument, 0, 's'},      {"tree", required_argument, 0, 't'},
        {"max-depth", required_argument, 0, 'd'}, {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "m:o:st:d:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'm': o->model = optarg; break;
        case 'o': o->output = optarg; break;
        case 's': o->with_stats = 1; break;
        case 't': if (!cli_parse_count("dump", "--tree", optarg, &o->tree)) return 2; break;
        case 'd':
            if (!cli_parse_count("dump", "--max-depth", optarg, &o->max_depth)) return 2;
            break;
        case 'h': dump_usage(stdout); return -1;
        default: dump_usage(stderr); return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "gpulayer dump: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    if (!o->model) {
        fprintf(stderr, "gpulayer dump: --model is required (see --help)\n");
        return 2;
    }
    if (o->max_depth > 0 && o->tree < 0) {
        fprintf(stderr, "gpulayer dump: --max-depth needs --tree\n");
        return 2;
    }
    return 0;
}

static int write_text(const char *path, const char *text, size_t len)
{
    FILE *f = path ? fopen(path, "wb") : stdout;
    if (!f) {
        fprintf(stderr, "gpulayer dump: cannot write '%s': %s\n", path, strerror(errno));
        return 1;
    }
    int ok = fwrite(text, 1, len, f) == len;
    ok &= path ? fclose(f) == 0 : fflush(f) == 0;
    if (!ok) {
        fprintf(stderr, "gpulayer dump: writing '%s' failed: %s\n",
                path ? path : "standard output", strerror(errno));
        return 1;
    }
    return 0;
}

int cmd_dump(int argc, char **argv)
{
    dump_options o = {0};
    o.tree = -1;
    int rc = parse_args(argc, argv, &o);
    if (rc) return rc < 0 ? 0 : rc;
    gpulayer_booster *b = NULL;
    if (gpulayer_booster_load(o.model, &b) != GPULAYER_OK) return cli_fail("dump", NULL);
    char *text = NULL;
    size_t len = 0;
    gpulayer_status st =
        o.tree >= 0 ? gpulayer_booster_dump_tree(b, o.tree, o.with_stats, o.max_depth,
                                                 &text, &len)
                    : gpulayer_booster_dump_model(b, o.with_stats, &text, &len);
    rc = st != GPULAYER_OK ? cli_fail("dump", NULL) : write_text(o.output, text, len);
    gpulayer_free_buffer(text);
    gpulayer_booster_free(b);
    return rc;
}
