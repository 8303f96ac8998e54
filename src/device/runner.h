/*
 * runner.h -- start a program on the devices placement chose.
 *
 * The program runs as an ordinary child process (no privilege, no daemon).
 * It learns its devices from the environment:
 *   GPULAYER_ACCELERATOR  cpu | cuda | mps | vulkan
 *   GPULAYER_DEVICE       the device index(es) to use, as the program will
 *                         number them (for CUDA, 0..n-1 after masking)
 *   GPULAYER_DEVICE_ID    the stable id(s) (UUIDs), when the runtime has them
 *   CUDA_VISIBLE_DEVICES  for cuda: the chosen GPUs' UUIDs, so the program
 *                         cannot touch another GPU by mistake
 * Exit status and signals pass through. Distributed jobs start through an
 * existing launcher (mpirun); each rank passes through `gpulayer run
 * --rank-exec`, which picks that rank's device and execs the program.
 */
#ifndef GPL_RUNNER_H
#define GPL_RUNNER_H

#include <stddef.h>

#include "placement.h"

#define GPL_MAX_RUN_DEVICES 64

/* The devices one process gets. */
typedef struct gpl_run_target {
    char accelerator[GPL_ACCEL_LEN];
    int count;
    int index[GPL_MAX_RUN_DEVICES];
    char stable_id[GPL_MAX_RUN_DEVICES][GPL_ID_LEN];
} gpl_run_target;

/* The devices of one rank of a placed decision (rank 0 for independent
 * jobs). workers is the list the decision was made over. */
gpulayer_status gpl_run_target_of_rank(const gpl_decision *d, const gpl_worker *workers,
                                       int rank, gpl_run_target *out);

/* base plus the device variables above (replacing any already there), as
 * a NULL-terminated malloc'd array; NULL when out of memory. */
char **gpl_runner_env(char *const *base, const gpl_run_target *t);
void gpl_runner_env_free(char **env);

/* Starts argv (argv[0] is searched on PATH) with envp, forwards SIGINT,
 * SIGTERM and SIGHUP sent to this process, and waits. Signal handlers are
 * process-wide, so one run at a time per process (the command's case). Returns the child's
 * exit status, 128 + N when it died of signal N, 127 when the program was
 * not found and 126 when it could not be executed (err then says why). */
int gpl_runner_run(char *const *argv, char *const *envp, char *err, size_t err_size);

/* Writes the path of an executable found on PATH (or name itself when it
 * contains a slash) and returns 1; 0 when there is none. */
int gpl_find_on_path(const char *name, char *out, size_t size);

/* The path of the running program (for the launcher to start ranks
 * through it); 0 when unknown. */
int gpl_self_exe(char *out, size_t size);

/* ------------------------------------------------------- distributed jobs */

/* The per-rank device list handed to every rank: "cuda:0=GPU-...,1=GPU-..."
 * (entry r is rank r's device). malloc'd; NULL when out of memory. */
char *gpl_rank_spec_format(const gpl_decision *d, const gpl_worker *workers);
/* The target of one rank in a spec. */
gpulayer_status gpl_rank_spec_parse(const char *spec, int rank, gpl_run_target *out);
/* This process's rank as the launcher announced it (Open MPI, MPICH,
 * Slurm, PMIx), or -1 with the variables looked at in the last error. */
int gpl_launcher_rank(void);

/* The argv that starts nproc ranks: launcher -np N [launcher_args...]
 * self run --rank-exec SPEC -- argv... . malloc'd, NULL-terminated, the
 * strings borrowed except the ones made here (freed by
 * gpl_launch_argv_free). */
char **gpl_launch_argv(const char *launcher, int nproc, char *const *launcher_args,
                       int num_launcher_args, const char *self, const char *spec,
                       char *const *argv);
void gpl_launch_argv_free(char **argv);

/* The rank side: finds this rank's device in spec, sets the environment
 * and replaces this process with argv. Returns only on failure. */
gpulayer_status gpl_rank_exec(const char *spec, char *const *argv);

#endif
