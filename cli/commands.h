/* commands.h -- the subcommands of the gpulayer command, one file each. */
#ifndef GPL_CLI_COMMANDS_H
#define GPL_CLI_COMMANDS_H

#include <stdio.h>

/* Each takes the arguments after the subcommand name (argv[0] is the
 * subcommand) and returns the process exit status. */
typedef int (*gpl_command_fn)(int argc, char **argv);

typedef struct gpl_command {
    const char *name;
    const char *summary;
    gpl_command_fn run;
} gpl_command;

int cmd_train(int argc, char **argv);
int cmd_predict(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_importance(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_params(int argc, char **argv);
/* One line a training parameter (name, doc, default), for train --help. */
void cli_print_param_list(FILE *out);
/* BEGIN DEVICE COMMANDS (owned by src/device/) */
int cmd_devices(int argc, char **argv);
int cmd_diagnose(int argc, char **argv);
int cmd_place(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_support_matrix(int argc, char **argv);
/* END DEVICE COMMANDS */

#endif
