/* dist_stub.c -- dist.h for a build without MPI: one rank, collectives
 * that copy, so that the library still trains in a single process. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "dist.h"
#include "dist_internal.h"
#include "error.h"

int gpl_dist_built(void) { return 0; }
int gpl_dist_active(void) { return 0; }
int gpl_dist_rank(void) { return 0; }
int gpl_dist_size(void) { return 1; }
int gpl_dist_local_size(void) { return 1; }
int gpl_dist_local_rank(void) { return 0; }
double gpl_dist_comm_seconds(void) { return 0.0; }

gpulayer_status gpl_dist_init(double timeout_s)
{
    gpl_dist_timeout_init(timeout_s);
    return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                     "this gpulayer was built without MPI, so it cannot join a "
                     "distributed job; rebuild with MPI installed "
                     "(Debian: libopenmpi-dev)");
}

void gpl_dist_finalize(void) {}

_Noreturn void gpl_dist_abort(const char *message, int code)
{
    fprintf(stderr, "gpulayer: %s\n", message);
    _exit(code ? code : 1);
}

void gpl_dist_allreduce_i64(int64_t *buf, int64_t count, gpl_dist_op op)
{
    (void)buf, (void)count, (void)op;
}

void gpl_dist_allreduce_f64(double *buf, int64_t count, gpl_dist_op op)
{
    (void)buf, (void)count, (void)op;
}

void gpl_dist_allgather_i64(int64_t value, int64_t *out) { out[0] = value; }

float *gpl_dist_allgather_f32(const float *send, int64_t count, int64_t *total)
{
    float *out = gpl_malloc(sizeof(float) * (size_t)(count ? count : 1), "all-gather");
    if (!out) return NULL;
    if (count) memcpy(out, send, sizeof(float) * (size_t)count);
    *total = count;
    return out;
}

void gpl_dist_bcast(void *buf, int64_t len, int root)
{
    (void)buf, (void)len, (void)root;
}

void gpl_dist_fault_point(void) {}
