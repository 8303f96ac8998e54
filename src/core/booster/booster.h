/* booster.h -- what a gpulayer_booster handle holds. */
#ifndef GPL_BOOSTER_H
#define GPL_BOOSTER_H

#include "model.h"
#include "params.h"

struct gpulayer_booster {
    gpl_params params;
    gpl_model *model; /* NULL until trained or loaded */
    /* The model the next training continues (gpulayer_booster_set_init_model),
     * or NULL: a copy, used up by that training. */
    gpl_model *init_model;
    /* The caller's objective and metrics (custom_objective.h); NULL: none. */
    gpulayer_objective_callback objective_fn;
    void *objective_user;
    gpulayer_eval_callback eval_fn;
    void *eval_user;
};

/* Predicts margins (or outputs) of a raw dataset with a model, on the CPU,
 * multi-threaded, or on a device (device "cuda[:N]", "vulkan[:N]" or
 * "auto"; NULL or "cpu" = the CPU) with the same bits. out: num_rows *
 * num_outputs floats. num_rounds 0 = all (or up to best_round + 1 when
 * set). */
gpulayer_status gpl_predict_dataset(const gpl_model *m,
                                    const gpulayer_dataset *ds, int margin,
                                    int32_t num_rounds, int nthread,
                                    const char *device, float *out);

#endif
