/* cmd_devices.c -- `gpulayer devices`: the device table. */
#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "commands.h"
#include "gpulayer.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gpulayer devices [--json] [--frameworks]\n\n"
            "Lists this host's compute devices -- CPU, CUDA, Apple GPU (mps) and\n"
            "Vulkan -- with memory kind, total and usable memory, capabilities and\n"
            "whether this library's backend can use them, followed by a note for\n"
            "every runtime that is absent or unusable and why.\n\n"
            "  --json         print the list as JSON\n"
            "  --frameworks   also ask Python (GPULAYER_PYTHON, else python3) which\n"
            "                 frameworks reach the devices: torch.cuda, torch.mps and\n"
            "                 mlx capabilities, or notes saying why not. Slower:\n"
            "                 it imports torch (time limit\n"
            "                 GPULAYER_FRAMEWORK_TIMEOUT_MS, default 60000)\n");
}

int cmd_devices(int argc, char **argv)
{
    int as_json = 0, flags = GPULAYER_DISCOVER_DEFAULT;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--json")) {
            as_json = 1;
        } else if (!strcmp(argv[i], "--frameworks")) {
            flags |= GPULAYER_DISCOVER_FRAMEWORKS;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else {
            fprintf(stderr, "gpulayer devices: unknown option '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    char *out = NULL;
    if (gpulayer_devices_report_ex(as_json ? GPULAYER_RENDER_JSON : GPULAYER_RENDER_TEXT, flags,
                                   &out, NULL) != GPULAYER_OK)
        return cli_fail("devices", NULL);
    fputs(out, stdout);
    if (as_json) fputc('\n', stdout);
    gpulayer_free_buffer(out);
    return 0;
}
