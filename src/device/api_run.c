/* api_run.c -- running a program on a placement (gpulayer.h). */
#include <stdio.h>
#include <stdlib.h>

#include "api.h"
#include "error.h"
#include "runner.h"

extern char **environ;

/* gpulayer run's own failure, as env(1) and timeout(1) have it. */
#define RUN_FAILED 125

/* Runs argv with envp; a program that could not be started is an error. */
static gpulayer_status run(char *const *argv, char *const *envp, int *exit_status)
{
    char err[512];
    *exit_status = gpl_runner_run(argv, envp, err, sizeof err);
    if (!*err) return GPULAYER_OK;
    return gpl_error(*exit_status == 127 ? GPULAYER_ERR_INVALID_ARGUMENT : GPULAYER_ERR_IO,
                     "%s", err);
}

static gpulayer_status run_independent(const gpulayer_placement *p, char *const *argv,
                                       int *exit_status)
{
    gpl_run_target t;
    GPL_CHECK(gpl_run_target_of_rank(&p->decision, &p->host, 0, &t));
    char **env = gpl_runner_env(environ, &t);
    if (!env) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory");
    gpulayer_status st = run(argv, env, exit_status);
    gpl_runner_env_free(env);
    return st;
}

static gpulayer_status run_distributed(const gpulayer_placement *p, char *const *argv,
                                       const gpulayer_run_options *o, int *exit_status)
{
    const gpl_decision *d = &p->decision;
    const char *name = o && o->launcher ? o->launcher : "mpirun";
    char launcher[4096], self[4096];
    if (!gpl_find_on_path(name, launcher, sizeof launcher))
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "--nproc %d needs the launcher '%s', which was not found on PATH; "
                         "install Open MPI or MPICH, or name one with --launcher. gpulayer "
                         "starts ranks only through an existing launcher.",
                         d->request.nproc, name);
    if (o && o->program)
        gpl_strlcpy(self, o->program, sizeof self);
    else if (!gpl_self_exe(self, sizeof self))
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "cannot find the gpulayer program to start ranks with");
    char *spec = gpl_rank_spec_format(d, &p->host);
    char **launch = spec ? gpl_launch_argv(launcher, d->request.nproc,
                                           o ? (char *const *)o->launcher_args : NULL,
                                           o ? o->num_launcher_args : 0, self, spec, argv)
                         : NULL;
    gpulayer_status st = launch ? run(launch, environ, exit_status)
                                : gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory");
    gpl_launch_argv_free(launch);
    free(spec);
    return st;
}

GPULAYER_API gpulayer_status gpulayer_placement_run(const gpulayer_placement *p,
                                                    char *const *argv,
                                                    const gpulayer_run_options *options,
                                                    int *exit_status)
{
    int ignored;
    if (!exit_status) exit_status = &ignored;
    *exit_status = RUN_FAILED;
    if (!p || !argv || !argv[0])
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "gpulayer_placement_run: no placement or no command");
    if (options && (options->num_launcher_args < 0 ||
                    (options->num_launcher_args > 0 && !options->launcher_args)))
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "bad launcher argument list");
    if (p->decision.request.job == GPULAYER_JOB_DISTRIBUTED && p->decision.placed)
        return run_distributed(p, argv, options, exit_status);
    return run_independent(p, argv, exit_status);
}

GPULAYER_API gpulayer_status gpulayer_run_rank(const char *spec, char *const *argv)
{
    if (!argv || !argv[0])
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "gpulayer_run_rank: no command");
    return gpl_rank_exec(spec, argv);
}
