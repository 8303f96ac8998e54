/* predict_job.c -- see predict_job.h. */
#include "predict_job.h"

#include <string.h>

#include "shap_math.h"

void gpl_predict_job_block(const gpl_predict_job *job, int64_t start, int64_t n, float *out)
{
    for (int32_t f = 0; f < job->num_features; f++)
        memcpy(out + (size_t)f * (size_t)n, job->columns[f] + start, sizeof(float) * (size_t)n);
}

int gpl_shap_job_walks_paths(const gpl_shap_job *job)
{
    if (job->kind == GPL_SHAP_INTERACTIONS)
        return !gpl_shap_pairs_by_quadrature(job->shap->linear, job->shap->num_trees);
    if (job->kind != GPL_SHAP_EXACT) return 0;
    for (int32_t t = 0; t < job->shap->num_trees; t++)
        if (!job->shap->linear[t]) return 1;
    return 0;
}
