/* cmd_run.c -- `gpulayer run`: run a program on the devices it is given. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "gpulayer.h"

/* Like env(1) and timeout(1): 125 is gpulayer run's own failure, 126 and
 * 127 a command that cannot be run, anything else the command's status. */
#define RUN_FAILED 125
#define MAX_LAUNCHER_ARGS 32

static void usage(FILE *out)
{
    fprintf(out,
            "usage: gpulayer run [REQUEST] [options] -- COMMAND [ARGS...]\n\n"
            "Places the request on this host's devices and runs COMMAND as an\n"
            "ordinary process with GPULAYER_ACCELERATOR, GPULAYER_DEVICE,\n"
            "GPULAYER_DEVICE_ID and (for cuda) CUDA_VISIBLE_DEVICES set to the\n"
            "chosen device. Its exit status passes through (128+N when it dies of\n"
            "signal N); SIGINT, SIGTERM and SIGHUP are passed on to it. When\n"
            "nothing fits, every reason is printed and the status is 125.\n\n"
            "  REQUEST                 accelerator and needs in one word, e.g. cuda,\n"
            "                          cuda:1, or auto,memory=8G,memory_kind=dedicated\n"
            "  --accelerator A         auto (default), cpu, cuda, mps or vulkan\n"
            "  --memory SIZE           usable memory per device (512M, 8G, 1.5GiB)\n"
            "  --memory-kind K         any (default), dedicated or unified\n"
            "  --capability C          a required capability; repeatable\n"
            "  --count N               devices for the process (default 1)\n"
            "  --nproc N               a distributed job: N ranks started through\n"
            "                          mpirun, one device per rank\n"
            "  --launcher L            the launcher for --nproc (default mpirun)\n"
            "  --launcher-arg ARG      passed to the launcher; repeatable\n"
            "  -v, --verbose           say which device was chosen and why\n");
}

typedef struct run_args {
    gpulayer_request *request;
    const char *launcher;
    const char *launcher_args[MAX_LAUNCHER_ARGS];
    int num_launcher_args;
    int verbose;
    char **command;
} run_args;

/* Returns 0 when parsed, or the exit status to return (-1: 0 after
 * --help). a->request is set whenever it could be made; free it. */
static int parse(int argc, char **argv, run_args *a)
{
    memset(a, 0, sizeof *a);
    if (gpulayer_request_create(NULL, &a->request) != GPULAYER_OK) {
        fprintf(stderr, "gpulayer run: %s\n", gpulayer_last_error());
        return RUN_FAILED;
    }
    a->launcher = "mpirun";
    int positional = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--")) {
            a->command = argv + i + 1;
            break;
        }
        int took = gpulayer_request_parse_flag(a->request, argc, argv, &i);
        if (took < 0) {
            fprintf(stderr, "gpulayer run: %s\n", gpulayer_last_error());
            return RUN_FAILED;
        }
        if (took) continue;
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            usage(stdout);
            return -1;
        } else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
            a->verbose = 1;
        } else if (!strcmp(argv[i], "--launcher") && i + 1 < argc) {
            a->launcher = argv[++i];
        } else if (!strcmp(argv[i], "--launcher-arg") && i + 1 < argc) {
            if (a->num_launcher_args == MAX_LAUNCHER_ARGS) {
                fprintf(stderr, "gpulayer run: too many --launcher-arg\n");
                return RUN_FAILED;
            }
            a->launcher_args[a->num_launcher_args++] = argv[++i];
        } else if (argv[i][0] != '-' && !positional++) {
            if (gpulayer_request_parse(a->request, argv[i]) != GPULAYER_OK) {
                fprintf(stderr, "gpulayer run: %s\n", gpulayer_last_error());
                return RUN_FAILED;
            }
        } else {
            fprintf(stderr, "gpulayer run: unexpected argument '%s' (the command "
                            "goes after --)\n", argv[i]);
            return RUN_FAILED;
        }
    }
    if (!a->command || !a->command[0]) {
        fprintf(stderr, "gpulayer run: no command given after --\n");
        usage(stderr);
        return RUN_FAILED;
    }
    return 0;
}

/* The rank side of a distributed job, started by the launcher. */
static int rank_exec(int argc, char **argv)
{
    if (argc < 4 || strcmp(argv[3], "--") != 0 || argc < 5) {
        fprintf(stderr, "gpulayer run: --rank-exec SPEC -- COMMAND...\n");
        return RUN_FAILED;
    }
    gpulayer_run_rank(argv[2], argv + 4);
    fprintf(stderr, "gpulayer run: %s\n", gpulayer_last_error());
    return RUN_FAILED;
}

/* Places the request (quickly: only the runtimes it can use) and runs the
 * command on it, or prints the refusal. */
static int place_and_run(const run_args *a)
{
    gpulayer_placement *p;
    gpulayer_status st = gpulayer_placement_create(a->request, GPULAYER_PLACE_NARROW, &p);
    int code = RUN_FAILED;
    if (st != GPULAYER_OK) {
        char *text = NULL;
        if (p) gpulayer_placement_render(p, GPULAYER_RENDER_TEXT, &text, NULL);
        fprintf(stderr, "gpulayer run: refused\n%s", text ? text : gpulayer_last_error());
        gpulayer_free_buffer(text);
    } else {
        if (a->verbose) fprintf(stderr, "gpulayer run: %s\n", gpulayer_placement_why(p));
        gpulayer_run_options o = {.launcher = a->launcher,
                                  .launcher_args = a->launcher_args,
                                  .num_launcher_args = a->num_launcher_args};
        if (gpulayer_placement_run(p, a->command, &o, &code) != GPULAYER_OK)
            fprintf(stderr, "gpulayer run: %s\n", gpulayer_last_error());
    }
    gpulayer_placement_free(p);
    return code;
}

int cmd_run(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--rank-exec")) return rank_exec(argc, argv);
    run_args a;
    int code = parse(argc, argv, &a);
    if (!code) code = place_and_run(&a);
    gpulayer_request_free(a.request);
    return code < 0 ? 0 : code;
}
