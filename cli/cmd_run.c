/* cmd_run.c -- `gpulayer run`: run a program on the devices it is given. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "device/placement.h"
#include "device/runner.h"

extern char **environ;

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
    gpl_request request;
    const char *launcher;
    char *launcher_args[MAX_LAUNCHER_ARGS];
    int num_launcher_args;
    int verbose;
    char **command;
} run_args;

/* Returns 0 when parsed, or the exit status to return. */
static int parse(int argc, char **argv, run_args *a)
{
    memset(a, 0, sizeof *a);
    gpl_request_init(&a->request);
    a->launcher = "mpirun";
    int positional = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--")) {
            a->command = argv + i + 1;
            break;
        }
        int took = gpl_request_flag(&a->request, argc, argv, &i);
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
            if (gpl_request_parse(argv[i], &a->request) != GPULAYER_OK) {
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

static int run_independent(const run_args *a, const gpl_decision *d, const gpl_worker *host)
{
    gpl_run_target t;
    if (gpl_run_target_of_rank(d, host, 0, &t) != GPULAYER_OK) {
        fprintf(stderr, "gpulayer run: %s\n", gpulayer_last_error());
        return RUN_FAILED;
    }
    char **env = gpl_runner_env(environ, &t);
    if (!env) {
        fprintf(stderr, "gpulayer run: out of memory\n");
        return RUN_FAILED;
    }
    char err[512];
    int code = gpl_runner_run(a->command, env, err, sizeof err);
    if (*err) fprintf(stderr, "gpulayer run: %s\n", err);
    gpl_runner_env_free(env);
    return code;
}

static int run_distributed(const run_args *a, const gpl_decision *d, const gpl_worker *host)
{
    char launcher[4096], self[4096];
    if (!gpl_find_on_path(a->launcher, launcher, sizeof launcher)) {
        fprintf(stderr,
                "gpulayer run: --nproc %d needs the launcher '%s', which was not found "
                "on PATH; install Open MPI or MPICH, or name one with --launcher. "
                "gpulayer starts ranks only through an existing launcher.\n",
                d->request.nproc, a->launcher);
        return RUN_FAILED;
    }
    if (!gpl_self_exe(self, sizeof self)) {
        fprintf(stderr, "gpulayer run: cannot find the gpulayer program to start ranks with\n");
        return RUN_FAILED;
    }
    char *spec = gpl_rank_spec_format(d, host);
    char **argv = spec ? gpl_launch_argv(launcher, d->request.nproc, a->launcher_args,
                                         a->num_launcher_args, self, spec, a->command)
                       : NULL;
    int code = RUN_FAILED;
    if (argv) {
        char err[512];
        code = gpl_runner_run(argv, environ, err, sizeof err);
        if (*err) fprintf(stderr, "gpulayer run: %s\n", err);
    } else {
        fprintf(stderr, "gpulayer run: out of memory\n");
    }
    gpl_launch_argv_free(argv);
    free(spec);
    return code;
}

/* The rank side of a distributed job, started by the launcher. */
static int rank_exec(int argc, char **argv)
{
    if (argc < 4 || strcmp(argv[3], "--") != 0 || argc < 5) {
        fprintf(stderr, "gpulayer run: --rank-exec SPEC -- COMMAND...\n");
        return RUN_FAILED;
    }
    gpl_rank_exec(argv[2], argv + 4);
    fprintf(stderr, "gpulayer run: %s\n", gpulayer_last_error());
    return RUN_FAILED;
}

int cmd_run(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--rank-exec")) return rank_exec(argc, argv);
    run_args a;
    int code = parse(argc, argv, &a);
    if (code) return code < 0 ? 0 : code;

    gpl_discovery found = {0};
    gpl_decision d;
    gpulayer_status st = gpl_place_local(&a.request, NULL, &found, &d);
    gpl_worker host = {"this host", found.devices, found.num_devices};
    if (st != GPULAYER_OK) {
        char *text = gpl_decision_text(&d, &host, 1, &found);
        fprintf(stderr, "gpulayer run: refused\n%s", text ? text : gpulayer_last_error());
        free(text);
        code = RUN_FAILED;
    } else {
        if (a.verbose) fprintf(stderr, "gpulayer run: %s\n", d.why);
        code = d.request.job == GPULAYER_JOB_DISTRIBUTED ? run_distributed(&a, &d, &host)
                                                          : run_independent(&a, &d, &host);
    }
    gpl_decision_release(&d);
    gpl_discovery_release(&found);
    return code;
}
