/* cmd_devices.c -- `gpulayer devices`: the device table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "device/discovery.h"
#include "device/report.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gpulayer devices [--json]\n\n"
            "Lists this host's compute devices -- CPU, CUDA, Apple GPU (mps) and\n"
            "Vulkan -- with memory kind, total and usable memory, capabilities and\n"
            "whether this library's backend can use them, followed by a note for\n"
            "every runtime that is absent or unusable and why.\n\n"
            "  --json   print the list as JSON\n");
}

int cmd_devices(int argc, char **argv)
{
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "gpulayer devices: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    const gpl_discovery *d = gpl_discovery_snapshot();
    char *text = d ? (json ? gpl_devices_json(d) : gpl_devices_text(d)) : NULL;
    if (!text) {
        fprintf(stderr, "gpulayer devices: out of memory\n");
        return 1;
    }
    fputs(text, stdout);
    if (json) fputc('\n', stdout);
    free(text);
    return 0;
}
