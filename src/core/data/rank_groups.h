/* rank_groups.h -- the query-group tables of the ranking objectives
 * (gpl_rank_groups of backend.h), built once a training run from the
 * training rows, and the checks ranking data must pass. */
#ifndef GPL_RANK_GROUPS_H
#define GPL_RANK_GROUPS_H

#include "backend.h"
#include "dataset.h"
#include "objective.h"

/* The most rows a query may have: the fixed-point sums of rank_math.h stay
 * within int64 below it. */
#define GPL_RANK_MAX_GROUP_ROWS (1LL << 22)

typedef struct gpl_rank_tables {
    gpl_rank_groups groups; /* points into the arrays below or the dataset */
    int64_t *one_group;     /* {0, num_rows} for data without groups */
    double *discount;
    double *inv_idcg;
    double *group_weight;
} gpl_rank_tables;

/* Checks data for a ranking objective (what: "training data", ...): grades
 * as the objective and ndcg_exp_gain need them (integers 0..31 with the
 * exponential gain, as XGBoost), one weight a query, queries of at most
 * GPL_RANK_MAX_GROUP_ROWS rows. Data without groups are one query, as in
 * XGBoost. */
gpulayer_status gpl_rank_check(const gpulayer_dataset *ds, gpl_objective_kind kind,
                               const gpl_objective_params *op, const char *what);

gpulayer_status gpl_rank_tables_build(const gpulayer_dataset *ds, const gpl_objective_params *op,
                                      gpl_rank_tables *out);
void gpl_rank_tables_free(gpl_rank_tables *t);

#endif
