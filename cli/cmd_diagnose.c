/* cmd_diagnose.c -- `gpulayer diagnose`: a capability summary to share. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "device/discovery.h"
#include "device/report.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gpulayer diagnose [--json]\n\n"
            "Prints what this host offers -- operating system, backends built into\n"
            "this library, device-selection variables, devices and their\n"
            "capabilities, and why any runtime is missing -- without serial numbers,\n"
            "UUIDs, host names or user names, so that it can be pasted into a bug\n"
            "report.\n\n"
            "  --json   print the summary as JSON\n");
}

int cmd_diagnose(int argc, char **argv)
{
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "gpulayer diagnose: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    const gpl_discovery *d = gpl_discovery_snapshot();
    char *text = d ? (json ? gpl_diagnose_json(d) : gpl_diagnose_text(d)) : NULL;
    if (!text) {
        fprintf(stderr, "gpulayer diagnose: out of memory\n");
        return 1;
    }
    fputs(text, stdout);
    if (json) fputc('\n', stdout);
    free(text);
    return 0;
}
