/* main.c -- the gpulayer command: dispatch to one subcommand. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "gpulayer.h"

static const gpl_command commands[] = {
    {"train", "train a model on a data file", cmd_train},
    {"predict", "apply a saved model to a data file", cmd_predict},
    {"explain", "write SHAP values of a data file's rows", cmd_explain},
    {"importance", "print a model's feature importance", cmd_importance},
    {"export", "convert a model to XGBoost's JSON format", cmd_export},
    {"dump", "print a model's trees as text", cmd_dump},
    {"params", "list the training parameters", cmd_params},
    /* BEGIN DEVICE COMMAND TABLE (owned by src/device/) */
    {"devices", "list this host's compute devices", cmd_devices},
    {"diagnose", "print a shareable capability summary", cmd_diagnose},
    {"place", "show where a job would run, and why", cmd_place},
    {"run", "run a program on the device a request gets", cmd_run},
    {"support-matrix", "print what each accelerator supports", cmd_support_matrix},
    /* END DEVICE COMMAND TABLE */
};

static void usage(FILE *out)
{
    fprintf(out,
            "gpulayer %s -- gradient-boosted trees on CPU and GPU\n\n"
            "usage: gpulayer COMMAND [options]\n\ncommands:\n",
            gpulayer_version());
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-15s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\nRun 'gpulayer COMMAND --help' for a command's options.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
        !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("gpulayer %s\n", gpulayer_version());
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "gpulayer: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}
