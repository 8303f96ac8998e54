/* cmd_support_matrix.c -- `gpulayer support-matrix`. */
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "commands.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gpulayer support-matrix [--json | --markdown]\n\n"
            "Prints, for every accelerator and job kind (independent, distributed),\n"
            "whether it is supported, unsupported, or supported but not yet\n"
            "validated on real hardware. docs/support-matrix.md holds the same\n"
            "table (--markdown).\n\n"
            "  --json       print the matrix as JSON\n"
            "  --markdown   print the Markdown table of docs/support-matrix.md\n");
}

int cmd_support_matrix(int argc, char **argv)
{
    gpulayer_render_format format = GPULAYER_RENDER_TEXT;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            format = GPULAYER_RENDER_JSON;
        } else if (!strcmp(argv[i], "--markdown")) {
            format = GPULAYER_RENDER_MARKDOWN;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "gpulayer support-matrix: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    char *text = NULL;
    if (gpulayer_support_matrix(format, &text, NULL) != GPULAYER_OK)
        return cli_fail("support-matrix", NULL);
    fputs(text, stdout);
    if (format == GPULAYER_RENDER_JSON) fputc('\n', stdout);
    gpulayer_free_buffer(text);
    return 0;
}
