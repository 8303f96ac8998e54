/* api.c -- the public functions of distributed training (gpulayer.h,
 * "Distributed training"): joining the job, this rank's rows, agreement on
 * failures, and training with the data-parallel trainer's hooks. */
#include "dist.h"
#include "dist_train.h"
#include "error.h"
#include "gpulayer.h"

gpulayer_status gpulayer_booster_train_distributed(gpulayer_booster *b,
                                                   const gpulayer_dataset *train,
                                                   const gpulayer_dataset *const *evals,
                                                   const char *const *eval_names,
                                                   int num_evals,
                                                   gpulayer_round_callback callback,
                                                   void *user_data)
{
    if (!b || !train || (num_evals > 0 && !evals) || num_evals < 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "gpulayer_booster_train_distributed: booster and training "
                         "data are required");
    if (!gpl_dist_active())
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "gpulayer_booster_train_distributed: this process has not "
                         "joined a distributed job (gpulayer_dist_init)");
    gpl_dist_trainer dt;
    gpl_dist_trainer_init(&dt);
    gpulayer_status st = gpl_train_run(b, train, evals, eval_names, num_evals, callback,
                                       user_data, &dt.hooks);
    gpl_dist_trainer_free(&dt);
    return st;
}
