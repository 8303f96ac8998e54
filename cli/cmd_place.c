/* cmd_place.c -- `gpulayer place`: where a job would run, and why. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "device/placement.h"

#define REQUEST_HELP                                                        \
    "  REQUEST                 accelerator and needs in one word, e.g. cuda,\n" \
    "                          cuda:1, or auto,memory=8G,memory_kind=dedicated\n" \
    "  --accelerator A         auto (default), cpu, cuda, mps or vulkan, with\n" \
    "                          an optional :INDEX\n"                            \
    "  --memory SIZE           usable memory per device (512M, 8G, 1.5GiB)\n"  \
    "  --memory-kind K         any (default), dedicated or unified\n"          \
    "  --capability C          a required capability such as cuda.sm_80;\n"    \
    "                          repeatable\n"                                    \
    "  --count N               devices per process (default 1)\n"              \
    "  --nproc N               a distributed job of N processes, one device\n" \
    "                          each\n"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gpulayer place [REQUEST] [options]\n\n"
            "Shows which device(s) of this host a job would get, why, and why every\n"
            "other device was not chosen. Exits 0 when the job fits, 1 when it is\n"
            "refused, 2 on a usage error.\n\n" REQUEST_HELP
            "  --backend               only devices this library's own backend can\n"
            "                          use, as `gpulayer train` chooses\n"
            "  --json                  print the decision as JSON\n");
}

int cmd_place(int argc, char **argv)
{
    gpl_request r;
    gpl_request_init(&r);
    gpl_place_options opt = {.consider_all = 1};
    int json = 0, positional = 0;
    for (int i = 1; i < argc; i++) {
        int took = gpl_request_flag(&r, argc, argv, &i);
        if (took < 0) {
            fprintf(stderr, "gpulayer place: %s\n", gpulayer_last_error());
            return 2;
        }
        if (took) continue;
        if (!strcmp(argv[i], "--json")) {
            json = 1;
        } else if (!strcmp(argv[i], "--backend")) {
            opt.require_backend = 1;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return 0;
        } else if (argv[i][0] != '-' && !positional++) {
            if (gpl_request_parse(argv[i], &r) != GPULAYER_OK) {
                fprintf(stderr, "gpulayer place: %s\n", gpulayer_last_error());
                return 2;
            }
        } else {
            fprintf(stderr, "gpulayer place: unexpected argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    gpl_discovery found = {0};
    gpl_decision d;
    gpulayer_status st = gpl_place_local(&r, &opt, &found, &d);
    int code = st == GPULAYER_OK ? 0 : 1;
    if (st == GPULAYER_OK || st == GPULAYER_ERR_PLACEMENT ||
        st == GPULAYER_ERR_INVALID_ARGUMENT) {
        gpl_worker host = {"this host", found.devices, found.num_devices};
        char *text = json ? gpl_decision_json(&d, &host, 1, &found)
                          : gpl_decision_text(&d, &host, 1, &found);
        if (text) {
            fputs(text, stdout);
            if (json) fputc('\n', stdout);
            free(text);
        } else {
            code = 1;
        }
    } else {
        fprintf(stderr, "gpulayer place: %s\n", gpulayer_last_error());
    }
    gpl_decision_release(&d);
    gpl_discovery_release(&found);
    return code;
}
