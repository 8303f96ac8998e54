/* api.c -- the public functions of distributed training (gpulayer.h,
 * "Distributed training"): joining the job, this rank's rows, agreement on
 * failures, and training with the data-parallel trainer's hooks. */
#include <stdio.h>
#include <stdlib.h>

#include "dist.h"
#include "dist_shard.h"
#include "dist_train.h"
#include "error.h"
#include "gpulayer.h"

int gpulayer_dist_built(void) { return gpl_dist_built(); }
int gpulayer_dist_launched(void) { return gpl_dist_launched(); }
gpulayer_status gpulayer_dist_init(double timeout_s) { return gpl_dist_init(timeout_s); }
void gpulayer_dist_finalize(void) { gpl_dist_finalize(); }
int gpulayer_dist_rank(void) { return gpl_dist_rank(); }
int gpulayer_dist_size(void) { return gpl_dist_size(); }
int gpulayer_dist_default_threads(void) { return gpl_dist_default_threads(); }
double gpulayer_dist_comm_seconds(void) { return gpl_dist_comm_seconds(); }

int gpulayer_dist_is_shard_pattern(const char *path) { return gpl_dist_is_pattern(path); }

gpulayer_status gpulayer_dist_shard_path(const char *path, int rank, char **out)
{
    if (!path || !out || rank < 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "gpulayer_dist_shard_path: a path, a rank >= 0 and out are "
                         "required");
    *out = gpl_dist_shard_path(path, rank);
    return *out ? GPULAYER_OK : gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory");
}

gpulayer_status gpulayer_dist_keep_slice(gpulayer_dataset *ds)
{
    if (!ds)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "gpulayer_dist_keep_slice: a dataset is required");
    int64_t first, count;
    /* A rank keeps a slice of the rows, which moves them in place: dense. */
    GPL_CHECK(gpl_dataset_make_dense(ds));
    gpl_dist_slice(ds->num_rows, gpl_dist_rank(), gpl_dist_size(), &first, &count);
    /* Slices are cut by row count; moving whole queries between ranks
     * would change which rows each rank holds, so a cut query is refused
     * before anything moves. */
    gpulayer_status st = gpl_dataset_keep_groups(ds, first, count);
    if (st != GPULAYER_OK) {
        char why[512];
        snprintf(why, sizeof why, "%s", gpl_error_message());
        return gpl_error(st, "gpulayer_dist_keep_slice: rank %d of %d takes rows %lld to "
                         "%lld of %s: %s; give every rank its own file of whole queries "
                         "(a data path holding %%d)", gpl_dist_rank(), gpl_dist_size(),
                         (long long)first + 1, (long long)(first + count),
                         ds->source ? ds->source : "the data", why);
    }
    gpl_dist_keep_rows(ds, first, count);
    return GPULAYER_OK;
}

gpulayer_status gpulayer_dist_row_place(int64_t rows, int64_t *first, int64_t *total)
{
    int64_t f = 0, t = 0;
    gpulayer_status st = gpl_dist_row_place(rows, &f, &t);
    if (first) *first = f;
    if (total) *total = t;
    return st;
}

gpulayer_status gpulayer_dist_agree(gpulayer_status local) { return gpl_dist_agree(local); }
int gpulayer_dist_failure_shared(void) { return gpl_dist_failure_shared(); }
void gpulayer_dist_abort(const char *message, int code)
{
    gpl_dist_abort(message ? message : "stopped", code);
}

gpulayer_status gpulayer_booster_train_distributed(gpulayer_booster *b,
                                                   const gpulayer_dataset *train,
                                                   const gpulayer_dataset *const *evals,
                                                   const char *const *eval_names,
                                                   int num_evals,
                                                   gpulayer_round_callback callback,
                                                   void *user_data)
{
    if (!gpl_dist_active())
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "gpulayer_booster_train_distributed: this process has not "
                         "joined a distributed job (gpulayer_dist_init)");
    gpl_dist_trainer dt;
    gpl_dist_trainer_init(&dt);
    gpulayer_status st = gpl_train_run("gpulayer_booster_train_distributed", b, train, evals,
                                       eval_names, num_evals, callback, user_data,
                                       &dt.hooks);
    gpl_dist_trainer_free(&dt);
    return st;
}
