/* predict_job.h -- what the device hosts of prediction and SHAP values
 * share about their jobs (backend.h). */
#ifndef GPL_PREDICT_JOB_H
#define GPL_PREDICT_JOB_H

#include <stdint.h>

#include "backend.h"

/* Rows start .. start + n - 1 of the job's raw columns, feature-major
 * (feature f's n values at out + f * n), as the device kernels read a
 * block: one feature's values of neighbouring rows are neighbouring
 * words. */
void gpl_predict_job_block(const gpl_predict_job *job, int64_t start, int64_t n, float *out);

/* 32-bit words of one row of F bin codes packed into words (four bytes a
 * word, or two 16-bit codes), at least 1. */
static inline uint32_t gpl_packed_row_words(int32_t F, int32_t code_bytes)
{
    const int32_t per_word = code_bytes == 2 ? 2 : 4;
    return F > 0 ? (uint32_t)((F + per_word - 1) / per_word) : 1u;
}

/* Whether a SHAP job walks Algorithm 2 anywhere (interactions, or exact
 * contributions with a tree the linear walk does not take), and so needs
 * its path workspace. */
int gpl_shap_job_walks_paths(const gpl_shap_job *job);

#endif
