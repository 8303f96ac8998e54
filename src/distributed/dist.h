/*
 * dist.h -- the collectives that data-parallel training needs, behind a
 * small C interface so that the core never includes mpi.h.
 *
 * Two implementations: dist_mpi.c (built when CMake finds MPI) and
 * dist_stub.c (one rank, no communication). Until gpl_dist_init succeeds
 * the layer is inactive: size 1, rank 0, and the trainer takes its
 * single-process path unchanged.
 *
 * Every collective has a deadline (gpl_dist_set_timeout): a rank that
 * died or hangs makes the others stop with a message instead of waiting
 * forever. A collective that fails or times out aborts the whole job
 * (gpl_dist_abort), because the ranks can no longer agree on where they
 * are; it does not return.
 */
#ifndef GPL_DIST_H
#define GPL_DIST_H

#include <stddef.h>
#include <stdint.h>

#include "gpulayer.h"

typedef enum gpl_dist_op {
    GPL_DIST_SUM = 0,
    GPL_DIST_MAX = 1,
    GPL_DIST_MIN = 2
} gpl_dist_op;

/* Non-zero when this build can run more than one rank. */
int gpl_dist_built(void);
/* Non-zero when the process was started by an MPI launcher (mpirun, srun,
 * gpulayer run --nproc): one of the launchers' rank variables is set. */
int gpl_dist_launched(void);

/* Joins the job. UNSUPPORTED in a build without MPI. timeout_s <= 0 keeps
 * the default (GPULAYER_DIST_TIMEOUT from the environment, else 300 s). */
gpulayer_status gpl_dist_init(double timeout_s);
void gpl_dist_finalize(void);
int gpl_dist_active(void);
int gpl_dist_rank(void);
int gpl_dist_size(void);
double gpl_dist_timeout(void);
/* Ranks of this job on this host (1 when inactive). */
int gpl_dist_local_size(void);
/* This rank's index among them (0 when inactive). */
int gpl_dist_local_rank(void);
/* Seconds this rank has spent in collectives so far: the transfers and
 * the wait for slower ranks (0 when inactive). */
double gpl_dist_comm_seconds(void);
/* CPU threads a rank should use when none were asked for: the cores it may
 * run on, shared with the other ranks of its host, because OpenMP threads
 * that outnumber the cores spin against each other and slow every rank. */
int gpl_dist_default_threads(void);

/* In-place reductions over every rank, element by element. */
void gpl_dist_allreduce_i64(int64_t *buf, int64_t count, gpl_dist_op op);
void gpl_dist_allreduce_f64(double *buf, int64_t count, gpl_dist_op op);
/* Concatenates every rank's count floats in rank order into a new buffer
 * (freed by the caller) of *total floats. NULL when out of memory, which
 * aborts nothing: every rank still took part. */
float *gpl_dist_allgather_f32(const float *send, int64_t count, int64_t *total);
/* Every rank's value, in rank order (size entries). */
void gpl_dist_allgather_i64(int64_t value, int64_t *out);
/* Broadcasts len bytes from root. */
void gpl_dist_bcast(void *buf, int64_t len, int root);
/* Every rank's value, in rank order, in a new array of size entries
 * (freed by the caller); out of memory on any rank fails every rank. */
gpulayer_status gpl_dist_gather_values(int64_t value, int64_t **out);
/* Where this rank's rows lie among every rank's, given its own count: the
 * global index of its first row and the rows of all ranks. */
gpulayer_status gpl_dist_row_place(int64_t rows, int64_t *first, int64_t *total);

/* Agreement after a step that may fail on some ranks only (reading a shard,
 * checking labels): every rank passes its own status and gets back OK only
 * when every rank succeeded; otherwise the status and message of the
 * lowest failing rank, prefixed with "rank R: ", become the last error on
 * every rank. The failure is then shared (gpl_dist_failure_shared). */
gpulayer_status gpl_dist_agree(gpulayer_status local);
/* Whether the last failure was agreed by every rank: a failure that was not
 * means this rank alone is leaving, so it must end the job
 * (gpl_dist_abort) rather than exit and leave the others waiting. */
int gpl_dist_failure_shared(void);

/* Prints "gpulayer: rank R: message; stopping all ranks" and ends every
 * rank of the job with exit status code. Does not return. */
_Noreturn void gpl_dist_abort(const char *message, int code);

/* Fault injection for the reliability tests (GPULAYER_DIST_FAULT, see
 * dist_fault.c): called at the start of every collective. */
void gpl_dist_fault_point(void);

#endif
