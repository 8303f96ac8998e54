/* cmd_devices.c -- `gpulayer devices`: the device table. */
#include <stdio.h>

#include "commands.h"
#include "report_command.h"

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
    return cli_report_command(argc, argv, "devices", usage, gpulayer_devices_report);
}
