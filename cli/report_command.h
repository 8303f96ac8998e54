/* report_command.h -- the shape `gpulayer devices` and `gpulayer diagnose`
 * share: an optional --json, then one rendering of the discovery results. */
#ifndef GPL_CLI_REPORT_COMMAND_H
#define GPL_CLI_REPORT_COMMAND_H

#include <stddef.h>
#include <stdio.h>

#include "gpulayer.h"

/* A report of gpulayer.h: gpulayer_devices_report or
 * gpulayer_diagnose_report. */
typedef gpulayer_status (*cli_report_fn)(gpulayer_render_format format, char **out,
                                         size_t *out_len);

/* Parses [--json] [--help], prints the text or JSON rendering of report;
 * returns the exit status. */
int cli_report_command(int argc, char **argv, const char *name, void (*usage)(FILE *),
                       cli_report_fn report);

#endif
