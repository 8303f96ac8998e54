/* report_command.c -- the shape `gpulayer devices` and `gpulayer diagnose`
 * share. */
#include "report_command.h"

#include <stdlib.h>
#include <string.h>

int cli_report_command(int argc, char **argv, const char *name, void (*usage)(FILE *),
                       gpl_report_render text, gpl_report_render json)
{
    int as_json = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            as_json = 1;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "gpulayer %s: unknown option '%s'\n", name, argv[i]);
            usage(stderr);
            return 2;
        }
    }
    const gpl_discovery *d = gpl_discovery_snapshot();
    char *out = d ? (as_json ? json(d) : text(d)) : NULL;
    if (!out) {
        fprintf(stderr, "gpulayer %s: out of memory\n", name);
        return 1;
    }
    fputs(out, stdout);
    if (as_json) fputc('\n', stdout);
    free(out);
    return 0;
}
