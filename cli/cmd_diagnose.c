/* cmd_diagnose.c -- `gpulayer diagnose`: a capability summary to share. */
#include <stdio.h>

#include "commands.h"
#include "report_command.h"

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
    return cli_report_command(argc, argv, "diagnose", usage, gpulayer_diagnose_report);
}
