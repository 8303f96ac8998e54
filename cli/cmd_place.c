/* cmd_place.c -- `gpulayer place`: where a job would run, and why. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "gpulayer.h"

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

/* Reads the request and options; returns 0 when parsed, or the exit status
 * to return (-1: 0 after --help). */
static int parse(int argc, char **argv, gpulayer_request *r, int *flags, int *json)
{
    int positional = 0;
    for (int i = 1; i < argc; i++) {
        int took = gpulayer_request_parse_flag(r, argc, argv, &i);
        if (took < 0) {
            fprintf(stderr, "gpulayer place: %s\n", gpulayer_last_error());
            return 2;
        }
        if (took) continue;
        if (!strcmp(argv[i], "--json")) {
            *json = 1;
        } else if (!strcmp(argv[i], "--backend")) {
            *flags |= GPULAYER_PLACE_BACKEND;
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return -1;
        } else if (argv[i][0] != '-' && !positional++) {
            if (gpulayer_request_parse(r, argv[i]) != GPULAYER_OK) {
                fprintf(stderr, "gpulayer place: %s\n", gpulayer_last_error());
                return 2;
            }
        } else {
            fprintf(stderr, "gpulayer place: unexpected argument '%s'\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    return 0;
}

int cmd_place(int argc, char **argv)
{
    gpulayer_request *r;
    if (gpulayer_request_create(NULL, &r) != GPULAYER_OK) {
        fprintf(stderr, "gpulayer place: %s\n", gpulayer_last_error());
        return 1;
    }
    int flags = GPULAYER_PLACE_DEFAULT, json = 0;
    int code = parse(argc, argv, r, &flags, &json);
    if (code) {
        gpulayer_request_free(r);
        return code < 0 ? 0 : code;
    }
    gpulayer_placement *p;
    gpulayer_status st = gpulayer_placement_create(r, flags, &p);
    gpulayer_request_free(r);
    code = st == GPULAYER_OK ? 0 : 1;
    char *text = NULL;
    if (p && gpulayer_placement_render(p, json ? GPULAYER_RENDER_JSON : GPULAYER_RENDER_TEXT,
                                       &text, NULL) == GPULAYER_OK) {
        fputs(text, stdout);
        if (json) fputc('\n', stdout);
        gpulayer_free_buffer(text);
    } else {
        fprintf(stderr, "gpulayer place: %s\n", gpulayer_last_error());
        code = 1;
    }
    gpulayer_placement_free(p);
    return code;
}
