/*
 * dist_mpi.c -- the collectives over MPI, each with a deadline.
 *
 * Blocking MPI collectives wait forever for a rank that hangs, and a rank
 * that dies is noticed only if the launcher kills the job. So every
 * collective here is the non-blocking form, polled until it completes or
 * the timeout passes; on timeout or any MPI error the job is aborted with
 * a message naming this rank and the operation. The communicator is a
 * duplicate of MPI_COMM_WORLD with MPI_ERRORS_RETURN, so that errors come
 * back as codes we can report instead of the library's own abort.
 */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dist.h"
#include "dist_internal.h"
#include "error.h"

static MPI_Comm comm = MPI_COMM_NULL;
static int my_rank = 0, num_ranks = 1, local_ranks = 1, local_rank = 0, active = 0,
           we_initialized = 0;

int gpl_dist_built(void) { return 1; }
int gpl_dist_active(void) { return active; }
int gpl_dist_rank(void) { return my_rank; }
int gpl_dist_size(void) { return num_ranks; }
int gpl_dist_local_size(void) { return local_ranks; }
int gpl_dist_local_rank(void) { return local_rank; }

gpulayer_status gpl_dist_init(double timeout_s)
{
    if (active) return GPULAYER_OK;
    gpl_dist_timeout_init(timeout_s);
    int initialized = 0, provided = 0;
    MPI_Initialized(&initialized);
    /* Only the main thread calls MPI; OpenMP threads never do. */
    if (!initialized) {
        if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
            return gpl_error(GPULAYER_ERR_DEVICE, "MPI_Init_thread failed");
        we_initialized = 1;
    }
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (MPI_Comm_dup(MPI_COMM_WORLD, &comm) != MPI_SUCCESS)
        return gpl_error(GPULAYER_ERR_DEVICE, "MPI_Comm_dup failed");
    MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm, &my_rank);
    MPI_Comm_size(comm, &num_ranks);
    MPI_Comm host;
    if (MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, my_rank, MPI_INFO_NULL, &host) ==
        MPI_SUCCESS) {
        MPI_Comm_size(host, &local_ranks);
        MPI_Comm_rank(host, &local_rank);
        MPI_Comm_free(&host);
    }
    active = 1;
    return GPULAYER_OK;
}

void gpl_dist_finalize(void)
{
    if (!active) return;
    MPI_Comm_free(&comm);
    active = 0;
    if (we_initialized) MPI_Finalize();
    we_initialized = 0;
    my_rank = 0;
    num_ranks = 1;
    local_ranks = 1;
    local_rank = 0;
}

_Noreturn void gpl_dist_abort(const char *message, int code)
{
    fprintf(stderr, "gpulayer: rank %d: %s; stopping all ranks\n", my_rank, message);
    fflush(stderr);
    if (active) MPI_Abort(MPI_COMM_WORLD, code ? code : 1);
    _exit(code ? code : 1);
}

static _Noreturn void mpi_failed(int rc, const char *what)
{
    char text[MPI_MAX_ERROR_STRING] = "";
    int len = 0;
    MPI_Error_string(rc, text, &len);
    char message[MPI_MAX_ERROR_STRING + 128];
    snprintf(message, sizeof message, "MPI error in %s: %s", what, text);
    gpl_dist_abort(message, 1);
}

/* Polls req until it completes. The first polls spin (histogram sums of a
 * level are usually ready within microseconds); later ones sleep so that a
 * long wait does not burn a core another rank on the host may need. */
static double comm_seconds = 0.0;

double gpl_dist_comm_seconds(void) { return comm_seconds; }

static void wait_for(MPI_Request *req, const char *what)
{
    const double start = MPI_Wtime(), deadline = start + gpl_dist_timeout();
    long polls = 0;
    for (;;) {
        int done = 0;
        int rc = MPI_Test(req, &done, MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS) mpi_failed(rc, what);
        if (done) {
            comm_seconds += MPI_Wtime() - start;
            return;
        }
        if (MPI_Wtime() > deadline) {
            char message[256];
            snprintf(message, sizeof message,
                     "no reply from the other ranks within %.0f s during %s: "
                     "a rank has died or hangs (GPULAYER_DIST_TIMEOUT sets the "
                     "limit)", gpl_dist_timeout(), what);
            gpl_dist_abort(message, 1);
        }
        if (++polls > 2000) {
            struct timespec ts = {0, polls > 20000 ? 1000000L : 50000L};
            nanosleep(&ts, NULL);
        }
    }
}

static MPI_Op mpi_op(gpl_dist_op op)
{
    return op == GPL_DIST_SUM ? MPI_SUM : op == GPL_DIST_MAX ? MPI_MAX : MPI_MIN;
}

/* Large buffers go in pieces: MPI counts are int. */
#define CHUNK ((int64_t)1 << 28)

static void allreduce(void *buf, int64_t count, MPI_Datatype type, size_t elem,
                      gpl_dist_op op, const char *what)
{
    gpl_dist_fault_point();
    if (!active || num_ranks == 1) return;
    for (int64_t at = 0; at < count; at += CHUNK) {
        int n = (int)(count - at < CHUNK ? count - at : CHUNK);
        MPI_Request req;
        int rc = MPI_Iallreduce(MPI_IN_PLACE, (char *)buf + (size_t)at * elem, n, type,
                                mpi_op(op), comm, &req);
        if (rc != MPI_SUCCESS) mpi_failed(rc, what);
        wait_for(&req, what);
    }
}

void gpl_dist_allreduce_i64(int64_t *buf, int64_t count, gpl_dist_op op)
{
    allreduce(buf, count, MPI_INT64_T, sizeof(int64_t), op, "an integer all-reduce");
}

void gpl_dist_allreduce_f64(double *buf, int64_t count, gpl_dist_op op)
{
    allreduce(buf, count, MPI_DOUBLE, sizeof(double), op, "a floating all-reduce");
}

void gpl_dist_allgather_i64(int64_t value, int64_t *out)
{
    gpl_dist_fault_point();
    if (!active || num_ranks == 1) {
        out[0] = value;
        return;
    }
    MPI_Request req;
    int rc = MPI_Iallgather(&value, 1, MPI_INT64_T, out, 1, MPI_INT64_T, comm, &req);
    if (rc != MPI_SUCCESS) mpi_failed(rc, "an all-gather");
    wait_for(&req, "an all-gather");
}

float *gpl_dist_allgather_f32(const float *send, int64_t count, int64_t *total)
{
    int64_t *counts = malloc(sizeof(int64_t) * (size_t)num_ranks);
    int *recv_counts = malloc(sizeof(int) * (size_t)num_ranks);
    int *displs = malloc(sizeof(int) * (size_t)num_ranks);
    int64_t ok = counts && recv_counts && displs;
    /* Every rank takes part in every step, whatever failed locally, so
     * that the ranks stay in step and can report together. */
    gpl_dist_allreduce_i64(&ok, 1, GPL_DIST_MIN);
    if (!ok) {
        free(counts);
        free(recv_counts);
        free(displs);
        gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory for an all-gather");
        return NULL;
    }
    gpl_dist_allgather_i64(count, counts);
    int64_t sum = 0;
    for (int r = 0; r < num_ranks; r++) sum += counts[r];
    for (int r = 0, at = 0; r < num_ranks && sum < INT_MAX; r++) {
        recv_counts[r] = (int)counts[r];
        displs[r] = at;
        at += recv_counts[r];
    }
    float *out = NULL;
    ok = sum < INT_MAX && (out = malloc(sizeof(float) * (size_t)(sum ? sum : 1)));
    gpl_dist_allreduce_i64(&ok, 1, GPL_DIST_MIN);
    if (ok && num_ranks > 1) {
        MPI_Request req;
        int rc = MPI_Iallgatherv(send, (int)count, MPI_FLOAT, out, recv_counts, displs,
                                 MPI_FLOAT, comm, &req);
        if (rc != MPI_SUCCESS) mpi_failed(rc, "an all-gather of values");
        wait_for(&req, "an all-gather of values");
    } else if (ok && count) {
        memcpy(out, send, sizeof(float) * (size_t)count);
    }
    free(counts);
    free(recv_counts);
    free(displs);
    if (!ok) {
        free(out);
        gpl_error(sum >= INT_MAX ? GPULAYER_ERR_UNSUPPORTED : GPULAYER_ERR_OUT_OF_MEMORY,
                  "an all-gather of %lld values over %d ranks is %s", (long long)sum,
                  num_ranks, sum >= INT_MAX ? "beyond MPI's int counts" : "out of memory");
        return NULL;
    }
    *total = sum;
    return out;
}

void gpl_dist_bcast(void *buf, int64_t len, int root)
{
    gpl_dist_fault_point();
    if (!active || num_ranks == 1) return;
    MPI_Request req;
    int rc = MPI_Ibcast(buf, (int)len, MPI_BYTE, root, comm, &req);
    if (rc != MPI_SUCCESS) mpi_failed(rc, "a broadcast");
    wait_for(&req, "a broadcast");
}
