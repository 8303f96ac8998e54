/* leaf_refit.c -- XGBoost's quantiles and the leaf refit of
 * reg:absoluteerror and reg:quantileerror (leaf_refit.h). The same host
 * code runs for every backend, on the margins the backend holds, so the
 * refit leaves are the same bits everywhere. */
#include "leaf_refit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "objective_math.h"
#include "predict.h"

static void swap_float(float *a, float *b)
{
    float t = *a;
    *a = *b;
    *b = t;
}

/* Puts the k-th smallest of v[0..n) at v[k], smaller ones before it and
 * larger ones after (Hoare's selection, median of three pivots). */
static void select_kth(float *v, int64_t n, int64_t k)
{
    int64_t lo = 0, hi = n - 1;
    while (hi > lo) {
        int64_t mid = lo + (hi - lo) / 2;
        if (v[mid] < v[lo]) swap_float(&v[mid], &v[lo]);
        if (v[hi] < v[lo]) swap_float(&v[hi], &v[lo]);
        if (v[hi] < v[mid]) swap_float(&v[hi], &v[mid]);
        const float pivot = v[mid];
        int64_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < pivot) i++;
            while (v[j] > pivot) j--;
            if (i <= j) {
                swap_float(&v[i], &v[j]);
                i++;
                j--;
            }
        }
        if (k <= j) hi = j;
        else if (k >= i) lo = i;
        else return;
    }
}

typedef struct weighted_value {
    float value;
    float weight;
} weighted_value;

static int compare_weighted(const void *a, const void *b)
{
    const weighted_value *x = a, *y = b;
    if (x->value != y->value) return x->value < y->value ? -1 : 1;
    return (x->weight > y->weight) - (x->weight < y->weight);
}

/* XGBoost's common::Quantile of n values in ascending order v[0..n):
 * v[k] at the edges (*interpolate 0), else v[k] + d (v[k + 1] - v[k]). */
static void quantile_rank(int64_t n, double alpha, int64_t *k, double *d, int *interpolate)
{
    const double count = (double)n;
    *d = 0.0;
    *interpolate = 0;
    if (alpha <= 1.0 / (count + 1.0)) {
        *k = 0;
    } else if (alpha >= count / (count + 1.0)) {
        *k = n - 1;
    } else {
        const double x = alpha * (count + 1.0);
        *k = (int64_t)floor(x) - 1;
        *d = (x - 1.0) - (double)*k;
        *interpolate = 1;
    }
}

static double interpolate_rank(float v0, float v1, double d)
{
    return (double)v0 + d * ((double)v1 - (double)v0);
}

static double unweighted_quantile(float *v, int64_t n, double alpha)
{
    int64_t k;
    double d;
    int interpolate;
    quantile_rank(n, alpha, &k, &d, &interpolate);
    select_kth(v, n, k);
    if (!interpolate) return v[k];
    float next = v[k + 1];
    for (int64_t i = k + 2; i < n; i++)
        if (v[i] < next) next = v[i];
    return interpolate_rank(v[k], next, d);
}

double gpl_weighted_quantile(float *values, float *weight, int64_t n, double alpha)
{
    if (!weight) return unweighted_quantile(values, n, alpha);
    weighted_value *pairs = malloc(sizeof(weighted_value) * (size_t)n);
    if (!pairs) return NAN;
    for (int64_t i = 0; i < n; i++) pairs[i] = (weighted_value){values[i], weight[i]};
    qsort(pairs, (size_t)n, sizeof *pairs, compare_weighted);
    double total = 0.0;
    for (int64_t i = 0; i < n; i++) total += pairs[i].weight;
    const double threshold = total * alpha;
    double cdf = 0.0;
    int64_t i = 0;
    for (; i < n - 1; i++) {
        cdf += pairs[i].weight;
        if (cdf >= threshold) break;
    }
    double q = pairs[i].value;
    for (int64_t j = 0; j < n; j++) {
        values[j] = pairs[j].value;
        weight[j] = pairs[j].weight;
    }
    free(pairs);
    return q;
}

/* The tree as the backends walk it (gpl_infer_node), with its sets. */
static gpulayer_status infer_nodes(const gpl_tree_node *nodes, int32_t num_nodes,
                                   gpl_infer_node **out, uint32_t **sets)
{
    int categorical = 0;
    for (int32_t i = 0; i < num_nodes; i++) categorical |= nodes[i].categorical != 0;
    *out = gpl_calloc((size_t)num_nodes, sizeof(gpl_infer_node), "leaf refit tree");
    *sets = categorical ? gpl_calloc((size_t)num_nodes * GPL_CAT_WORDS, sizeof(uint32_t),
                                     "leaf refit tree")
                        : NULL;
    if (!*out || (categorical && !*sets)) return GPULAYER_ERR_OUT_OF_MEMORY;
    for (int32_t i = 0; i < num_nodes; i++) {
        const gpl_tree_node *n = &nodes[i];
        gpl_infer_node *x = &(*out)[i];
        if (n->left < 0) {
            x->child[0] = x->child[1] = i;
            continue;
        }
        x->child[0] = n->left;
        x->child[1] = n->right;
        x->feature = n->feature;
        x->bin = (uint16_t)n->split_bin;
        x->default_left = (uint8_t)(n->default_left != 0);
        x->categorical = (uint8_t)(n->categorical != 0);
        /* A backend that refits takes at most 256 bins a feature, so its
         * trees' sets are inline. */
        if (n->wide_set)
            return gpl_error(GPULAYER_ERR_INTERNAL, "leaf refit: node %d has a set of more "
                             "than 255 categories on a backend that takes 256 bins", (int)i);
        if (n->categorical)
            memcpy(*sets + (size_t)i * GPL_CAT_WORDS, n->left_set, sizeof n->left_set);
    }
    return GPULAYER_OK;
}

/* The refit through the backend's refit_sort/refit_values: the same
 * quantiles as the host rows give, from the order statistics it reads. */
static gpulayer_status refit_on_backend(const gpl_leaf_refit_job *job, gpl_backend *be,
                                        int32_t output, double alpha, gpl_tree_node *nodes,
                                        int32_t num_nodes, float *leaf_value)
{
    gpl_infer_node *tree = NULL;
    uint32_t *sets = NULL;
    int64_t *rows = gpl_malloc(sizeof(int64_t) * (size_t)num_nodes, "leaf refit");
    int64_t *pos = gpl_malloc(2 * sizeof(int64_t) * (size_t)num_nodes, "leaf refit");
    float *vals = gpl_malloc(2 * sizeof(float) * (size_t)num_nodes, "leaf refit");
    gpulayer_status st = rows && pos && vals ? infer_nodes(nodes, num_nodes, &tree, &sets)
                                             : GPULAYER_ERR_OUT_OF_MEMORY;
    const gpl_gradient_request req = {gpl_objective_gradient_kind(job->objective),
                                      job->num_outputs, output, job->round, job->seed,
                                      job->subsample, alpha, {0}, 0, 0, 0, {0}};
    if (st == GPULAYER_OK) st = be->ops->refit_sort(be, &req, tree, sets, num_nodes, rows);
    int32_t count = 0;
    int64_t start = 0;
    for (int32_t i = 0; st == GPULAYER_OK && i < num_nodes; i++) {
        if (rows[i] > 0 && nodes[i].left < 0) {
            int64_t k;
            double d;
            int interpolate;
            quantile_rank(rows[i], alpha, &k, &d, &interpolate);
            pos[count++] = start + k;
            pos[count++] = start + k + interpolate;
        }
        start += rows[i];
    }
    if (st == GPULAYER_OK) st = be->ops->refit_values(be, pos, count, vals);
    count = 0;
    for (int32_t i = 0; st == GPULAYER_OK && i < num_nodes; i++) {
        if (!(rows[i] > 0 && nodes[i].left < 0)) continue;
        int64_t k;
        double d;
        int interpolate;
        quantile_rank(rows[i], alpha, &k, &d, &interpolate);
        const double q = interpolate ? interpolate_rank(vals[count], vals[count + 1], d)
                                     : (double)vals[count];
        count += 2;
        nodes[i].leaf_value = (float)(job->eta * q);
        leaf_value[i] = nodes[i].leaf_value;
    }
    free(tree);
    free(sets);
    free(rows);
    free(pos);
    free(vals);
    return st;
}

int gpl_leaf_refit_on_backend(const gpl_leaf_refit_job *job, const gpl_backend *be)
{
    return be && gpl_backend_has(be, GPL_BACKEND_CAP_REFIT) && !job->weight && !job->gather;
}

gpulayer_status gpl_leaf_refit_backend(const gpl_leaf_refit_job *job, gpl_backend *be,
                                       int32_t output, gpl_tree_node *nodes, int32_t num_nodes,
                                       float *leaf_value)
{
    double alpha = 0.5;
    gpl_objective_refits_leaves(job->objective, job->obj, output, &alpha);
    return refit_on_backend(job, be, output, alpha, nodes, num_nodes, leaf_value);
}

gpulayer_status gpl_leaf_refit(const gpl_leaf_refit_job *job, const float *margins,
                               int32_t output, gpl_tree_node *nodes, int32_t num_nodes,
                               float *leaf_value)
{
    const int64_t N = job->num_rows;
    const int32_t K = job->num_outputs;
    double alpha = 0.5;
    gpl_objective_refits_leaves(job->objective, job->obj, output, &alpha);
    int32_t *leaf_of = gpl_malloc(sizeof(int32_t) * (size_t)(N ? N : 1), "leaf refit");
    int64_t *start = gpl_calloc((size_t)num_nodes + 1, sizeof(int64_t), "leaf refit");
    int64_t *fill = gpl_malloc(sizeof(int64_t) * (size_t)num_nodes, "leaf refit");
    float *residual = gpl_malloc(sizeof(float) * (size_t)(N ? N : 1), "leaf refit");
    float *weight = job->weight ? gpl_malloc(sizeof(float) * (size_t)(N ? N : 1), "leaf refit")
                                : NULL;
    if (!leaf_of || !start || !fill || !residual || (job->weight && !weight)) {
        free(leaf_of);
        free(start);
        free(fill);
        free(residual);
        free(weight);
        return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    const gpl_tree tree = {num_nodes, nodes};
#pragma omp parallel for num_threads(job->nthread) schedule(static)
    for (int64_t r = 0; r < N; r++)
        leaf_of[r] = gpl_row_sampled(job->seed, job->round, job->first_row + r, job->subsample)
                         ? gpl_tree_leaf_index(&tree,
                                               job->bins + r * job->num_features * job->code_bytes,
                                               job->code_bytes)
                         : -1;
    /* Rows grouped by leaf (a counting sort), each with its residual. */
    for (int64_t r = 0; r < N; r++)
        if (leaf_of[r] >= 0) start[leaf_of[r] + 1]++;
    for (int32_t i = 0; i < num_nodes; i++) start[i + 1] += start[i];
    memcpy(fill, start, sizeof(int64_t) * (size_t)num_nodes);
    for (int64_t r = 0; r < N; r++) {
        const int32_t leaf = leaf_of[r];
        if (leaf < 0) continue;
        const int64_t at = fill[leaf]++;
        const float res = job->label[r] - margins[r * K + output];
        residual[at] = res == 0.0f ? 0.0f : res; /* -0 as +0, as the backends */
        if (weight) weight[at] = job->weight[r];
    }
    free(leaf_of);
    free(fill);
    gpulayer_status st = GPULAYER_OK;
    if (job->gather) st = job->gather(job->gather_user, num_nodes, start, &residual, &weight);
    int failed = 0;
#pragma omp parallel for num_threads(job->nthread) schedule(dynamic, 1) reduction(| : failed)
    for (int32_t i = 0; i < (st == GPULAYER_OK ? num_nodes : 0); i++) {
        const int64_t n = start[i + 1] - start[i];
        if (nodes[i].left >= 0 || n == 0) continue;
        double q = gpl_weighted_quantile(residual + start[i], weight ? weight + start[i] : NULL,
                                         n, alpha);
        failed |= isnan(q);
        nodes[i].leaf_value = (float)(job->eta * q);
        leaf_value[i] = nodes[i].leaf_value;
    }
    free(start);
    free(residual);
    free(weight);
    if (st != GPULAYER_OK) return st;
    return failed ? gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of host memory refitting leaves")
                  : GPULAYER_OK;
}
