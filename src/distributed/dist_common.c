/* dist_common.c -- what both implementations of dist.h share: launcher
 * detection, the collective timeout and agreement on a failure. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dist.h"
#include "dist_internal.h"
#include "error.h"

/* Long enough for a rank that is still reading a large shard while the
 * others already wait in the first collective. */
#define DEFAULT_TIMEOUT_S 300.0

static double timeout_s = DEFAULT_TIMEOUT_S;
static int failure_shared;

int gpl_dist_launched(void)
{
    /* Variables set for every rank by Open MPI's mpirun, PMIx launchers
     * (srun --mpi=pmix, prterun) and MPICH's Hydra; not Slurm's own, which
     * are also set in a batch script that is no MPI job. */
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK",
                                       "PMI_SIZE", "MPI_LOCALNRANKS"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) return 1;
    }
    return 0;
}

void gpl_dist_timeout_init(double t)
{
    const char *env = getenv("GPULAYER_DIST_TIMEOUT");
    if (t > 0) timeout_s = t;
    else if (env && atof(env) > 0) timeout_s = atof(env);
    else timeout_s = DEFAULT_TIMEOUT_S;
}

double gpl_dist_timeout(void) { return timeout_s; }

int gpl_dist_default_threads(void)
{
    /* omp_get_num_procs counts the cores of this process's affinity mask,
     * which the launcher may already have narrowed (binding). */
    int procs = omp_get_num_procs(), local = gpl_dist_local_size();
    int share = procs / (local > 0 ? local : 1);
    return share > 0 ? share : 1;
}

gpulayer_status gpl_dist_gather_values(int64_t value, int64_t **out)
{
    int64_t *all = gpl_malloc(sizeof(int64_t) * (size_t)gpl_dist_size(), "rank values");
    int64_t ok = all != NULL;
    gpl_dist_allreduce_i64(&ok, 1, GPL_DIST_MIN);
    *out = NULL;
    if (!ok) {
        free(all);
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory");
    }
    gpl_dist_allgather_i64(value, all);
    *out = all;
    return GPULAYER_OK;
}

gpulayer_status gpl_dist_row_place(int64_t rows, int64_t *first, int64_t *total)
{
    const int size = gpl_dist_size(), rank = gpl_dist_rank();
    int64_t *all;
    GPL_CHECK(gpl_dist_gather_values(rows, &all));
    *first = 0;
    *total = 0;
    for (int r = 0; r < size; r++) {
        if (r < rank) *first += all[r];
        *total += all[r];
    }
    free(all);
    return GPULAYER_OK;
}

int gpl_dist_failure_shared(void) { return failure_shared; }

gpulayer_status gpl_dist_agree(gpulayer_status local)
{
    const int size = gpl_dist_size();
    failure_shared = 0;
    if (!gpl_dist_active()) return local;
    /* The lowest failing rank speaks for the job. */
    int64_t failing = local != GPULAYER_OK ? gpl_dist_rank() : size;
    gpl_dist_allreduce_i64(&failing, 1, GPL_DIST_MIN);
    if (failing == size) return GPULAYER_OK;
    struct {
        int32_t status;
        char message[1000];
    } report;
    memset(&report, 0, sizeof report);
    if (failing == gpl_dist_rank()) {
        report.status = (int32_t)local;
        snprintf(report.message, sizeof report.message, "%s", gpulayer_last_error());
    }
    gpl_dist_bcast(&report, (int64_t)sizeof report, (int)failing);
    failure_shared = 1;
    /* A failure of every rank (data that differ between ranks) is the
     * job's, not the lowest rank's. */
    int64_t failed = local != GPULAYER_OK;
    gpl_dist_allreduce_i64(&failed, 1, GPL_DIST_SUM);
    if (failed == size)
        return gpl_error((gpulayer_status)report.status, "%s", report.message);
    return gpl_error((gpulayer_status)report.status, "rank %d: %s", (int)failing,
                     report.message);
}
