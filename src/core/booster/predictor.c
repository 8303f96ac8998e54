/* predictor.c -- gpulayer_predictor: a model prepared once for many small
 * predictions (a service answering one request at a time). Booster
 * prediction flattens the forest and pads the cuts on every call, which
 * costs far more than walking a few rows; a predictor keeps both, with its
 * own copy of the model, and predicts small batches on the calling thread. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "booster.h"
#include "categorical.h"
#include "error.h"
#include "predict.h"
#include "threads.h"

/* Rows a call handles on the calling thread; larger calls use nthread
 * threads, a block of BLOCK_ROWS rows at a time. */
#define SERIAL_ROWS 512
#define BLOCK_ROWS 256

struct gpulayer_predictor {
    gpl_model *model; /* a copy: the booster may be retrained or freed */
    gpl_infer_forest forest;
    gpl_padded_cuts *padded;
    int margin;
    int32_t width;
    int nthread;
};

void gpulayer_predictor_free(gpulayer_predictor *p)
{
    if (!p) return;
    gpl_infer_forest_free(&p->forest);
    free(p->padded);
    gpl_model_free(p->model);
    free(p);
}

gpulayer_status gpulayer_booster_predictor_create(const gpulayer_booster *b, int flags,
                                                  int32_t num_rounds, gpulayer_predictor **out)
{
    if (!b || !out)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "gpulayer_booster_predictor_create: NULL argument");
    *out = NULL;
    if (!b->model)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "the booster has no model: train or load one first");
    if (num_rounds < 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "num_rounds must be >= 0, got %d",
                         (int)num_rounds);
    gpulayer_predictor *p = calloc(1, sizeof *p);
    if (!p) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory for a predictor");
    p->margin = flags & GPULAYER_PREDICT_MARGIN;
    p->nthread = gpl_threads(b->params.nthread);
    gpulayer_status st = gpl_model_copy(b->model, &p->model);
    if (st == GPULAYER_OK) {
        const gpl_model *m = p->model;
        int32_t rounds = gpl_model_num_rounds(m);
        if (num_rounds == 0 && m->best_round >= 0) num_rounds = m->best_round + 1;
        if (num_rounds > 0 && num_rounds < rounds) rounds = num_rounds;
        p->width = gpl_model_prediction_width(m, p->margin);
        st = gpl_infer_forest_build(m, rounds * gpl_model_trees_per_round(m), &p->forest);
    }
    if (st == GPULAYER_OK && !(p->padded = gpl_padded_cuts_all(&p->model->cuts)))
        st = gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory for a predictor");
    if (st != GPULAYER_OK) {
        gpulayer_predictor_free(p);
        return st;
    }
    *out = p;
    return GPULAYER_OK;
}

int32_t gpulayer_predictor_width(const gpulayer_predictor *p) { return p ? p->width : 0; }

int32_t gpulayer_predictor_num_features(const gpulayer_predictor *p)
{
    return p ? p->model->num_features : 0;
}

/* Rows [start, start + n) of the caller's matrix as columns in cols (F x n
 * floats), with categorical codes put into the model's category groups. */
static void gather_columns(const gpl_model *m, const float *data, int64_t num_rows,
                           gpulayer_layout layout, int64_t start, int64_t n, float *cols)
{
    const int32_t F = m->num_features;
    for (int32_t f = 0; f < F; f++) {
        float *col = cols + (int64_t)f * n;
        if (layout == GPULAYER_COL_MAJOR)
            memcpy(col, data + (int64_t)f * num_rows + start, sizeof(float) * (size_t)n);
        else
            for (int64_t i = 0; i < n; i++) col[i] = data[(start + i) * F + f];
        const int32_t *groups = m->cat_groups ? m->cat_groups[f] : NULL;
        if (groups && m->categories && m->categories[f])
            gpl_categorical_group_values(groups, m->categories[f]->count, col, n, col);
    }
}

/* Rows [start, start + n) of the caller's matrix into out; scratch as the
 * block needs it (column values, bins, margins). */
static void predict_rows(const gpulayer_predictor *p, const float *data, int64_t num_rows,
                         gpulayer_layout layout, int64_t start, int64_t n, float *cols,
                         uint8_t *bins, float *o, const float **columns, float *out)
{
    const int32_t F = p->model->num_features;
    gather_columns(p->model, data, num_rows, layout, start, n, cols);
    for (int32_t f = 0; f < F; f++) columns[f] = cols + (int64_t)f * n;
    gpl_predict_block(p->model, &p->forest, p->padded, columns, n, NULL, p->margin, bins, o,
                      out + start * p->width);
}

/* One thread's scratch for blocks of up to rows rows. */
typedef struct scratch {
    float *cols;
    uint8_t *bins;
    float *o;
    const float **columns;
} scratch;

static int scratch_alloc(scratch *s, const gpl_model *m, int64_t rows)
{
    const size_t F = (size_t)(m->num_features ? m->num_features : 1);
    s->cols = malloc(sizeof(float) * F * (size_t)rows);
    s->bins = malloc(F * (size_t)rows * (size_t)gpl_bin_code_bytes(&m->cuts));
    s->o = malloc(sizeof(float) * (size_t)m->num_outputs * (size_t)rows);
    s->columns = malloc(sizeof(float *) * F);
    return s->cols && s->bins && s->o && s->columns;
}

static void scratch_free(scratch *s)
{
    free(s->cols);
    free(s->bins);
    free(s->o);
    free(s->columns);
}

gpulayer_status gpulayer_predictor_predict_dense(const gpulayer_predictor *p,
                                                 const float *data, int64_t num_rows,
                                                 int32_t num_cols, gpulayer_layout layout,
                                                 float *out, int64_t out_len)
{
    if (!p || (!data && num_rows > 0) || (!out && num_rows > 0))
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "gpulayer_predictor_predict_dense: NULL argument");
    if (num_rows < 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "num_rows must be >= 0, got %lld",
                         (long long)num_rows);
    if (layout != GPULAYER_ROW_MAJOR && layout != GPULAYER_COL_MAJOR)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "unknown layout %d", (int)layout);
    if (num_cols != p->model->num_features)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "the data have %d columns but the model was trained on %d features",
                         (int)num_cols, (int)p->model->num_features);
    if (out_len < num_rows * p->width)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "output buffer holds %lld values, %lld needed", (long long)out_len,
                         (long long)(num_rows * p->width));
    if (num_rows <= SERIAL_ROWS) {
        scratch s;
        int ok = scratch_alloc(&s, p->model, num_rows ? num_rows : 1);
        if (ok && num_rows > 0)
            predict_rows(p, data, num_rows, layout, 0, num_rows, s.cols, s.bins, s.o,
                         s.columns, out);
        scratch_free(&s);
        return ok ? GPULAYER_OK
                  : gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory for prediction");
    }
    int failed = 0;
#pragma omp parallel num_threads(p->nthread)
    {
        scratch s;
        const int ok = scratch_alloc(&s, p->model, BLOCK_ROWS);
#pragma omp for schedule(dynamic)
        for (int64_t start = 0; start < num_rows; start += BLOCK_ROWS) {
            if (!ok) continue;
            const int64_t n = num_rows - start < BLOCK_ROWS ? num_rows - start : BLOCK_ROWS;
            predict_rows(p, data, num_rows, layout, start, n, s.cols, s.bins, s.o, s.columns,
                         out);
        }
        if (!ok) {
#pragma omp atomic write
            failed = 1;
        }
        scratch_free(&s);
    }
    return failed ? gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory for prediction")
                  : GPULAYER_OK;
}
