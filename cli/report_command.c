/* report_command.c -- the shape `gpulayer devices` and `gpulayer diagnose`
 * share. */
#include "report_command.h"

#include <string.h>

#include "cli_util.h"

int cli_report_command(int argc, char **argv, const char *name, void (*usage)(FILE *),
                       cli_report_fn report)
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
    char *out = NULL;
    if (report(as_json ? GPULAYER_RENDER_JSON : GPULAYER_RENDER_TEXT, &out, NULL) != GPULAYER_OK)
        return cli_fail(name, NULL);
    fputs(out, stdout);
    if (as_json) fputc('\n', stdout);
    gpulayer_free_buffer(out);
    return 0;
}
