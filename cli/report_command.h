/* report_command.h -- the shape `gpulayer devices` and `gpulayer diagnose`
 * share: an optional --json, then one rendering of the discovery results. */
#ifndef GPL_CLI_REPORT_COMMAND_H
#define GPL_CLI_REPORT_COMMAND_H

#include <stdio.h>

#include "device/discovery.h"

typedef char *(*gpl_report_render)(const gpl_discovery *d);

/* Parses [--json] [--help], discovers (cached per process), prints the
 * text or JSON rendering; returns the exit status. */
int cli_report_command(int argc, char **argv, const char *name, void (*usage)(FILE *),
                       gpl_report_render text, gpl_report_render json);

#endif
