/* shap.c -- contributions of features to margins on the CPU. Rows are
 * binned with the model's cuts a block at a time, and every split decides
 * a row's child with gpl_node_goes_left, so the paths walked are the ones
 * prediction takes. Sums are kept in doubles and written as floats. */
#include "shap.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "binning.h"
#include "dataset.h"
#include "error.h"
#include "predict.h"
#include "shap_device.h"
#include "shap_linear.h"
#include "threads.h"

#define SHAP_BLOCK_ROWS 64

void gpl_shap_forest_free(gpl_shap_forest *f)
{
    free(f->first);
    free(f->frac);
    free(f->mean);
    free(f->linear);
    free(f->feat_first);
    free(f->features);
    memset(f, 0, sizeof *f);
}

/* Fills mean[] for the subtree at node; returns its depth. */
static int32_t fill_means(const gpl_tree_node *nodes, int32_t node, double *mean)
{
    const gpl_tree_node *n = &nodes[node];
    if (n->left < 0) {
        mean[node] = n->leaf_value;
        return 0;
    }
    int32_t dl = fill_means(nodes, n->left, mean), dr = fill_means(nodes, n->right, mean);
    mean[node] = (mean[n->left] * nodes[n->left].cover + mean[n->right] * nodes[n->right].cover) /
                 n->cover;
    return 1 + (dl > dr ? dl : dr);
}

gpulayer_status gpl_shap_forest_build(const gpl_model *m, int32_t num_trees, gpl_shap_forest *f)
{
    memset(f, 0, sizeof *f);
    const int32_t F = m->num_features;
    int64_t total = 0;
    for (int32_t t = 0; t < num_trees; t++) total += m->trees[t].num_nodes;
    f->num_trees = num_trees;
    f->first = gpl_malloc(sizeof(int64_t) * (size_t)(num_trees + 1), "SHAP tree offsets");
    f->mean = gpl_malloc(sizeof(double) * (size_t)(total ? total : 1), "SHAP node means");
    f->frac = gpl_malloc(sizeof(double) * (size_t)(total ? total : 1), "SHAP cover shares");
    f->feat_first = gpl_malloc(sizeof(int64_t) * (size_t)(num_trees + 1), "SHAP tree offsets");
    f->features = gpl_malloc(sizeof(int32_t) * (size_t)(total ? total : 1), "SHAP features");
    f->linear = gpl_malloc((size_t)(num_trees ? num_trees : 1), "SHAP tree kinds");
    uint8_t *seen = gpl_calloc((size_t)(F ? F : 1), 1, "SHAP features");
    if (!f->first || !f->mean || !f->frac || !f->feat_first || !f->features || !f->linear ||
        !seen) {
        free(seen);
        gpl_shap_forest_free(f);
        return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    int64_t at = 0, nf = 0;
    for (int32_t t = 0; t < num_trees; t++) {
        const gpl_tree *tree = &m->trees[t];
        f->first[t] = at;
        f->feat_first[t] = nf;
        int32_t d = fill_means(tree->nodes, 0, f->mean + at);
        if (d > f->max_depth) f->max_depth = d;
        f->linear[t] = d <= GPL_SHAP_LINEAR_DEPTH;
        f->frac[at] = 1;
        for (int32_t i = 0; i < tree->num_nodes; i++) {
            const gpl_tree_node *n = &tree->nodes[i];
            /* The division the walks make at each edge. */
            if (n->left >= 0) {
                f->frac[at + n->left] = tree->nodes[n->left].cover / n->cover;
                f->frac[at + n->right] = tree->nodes[n->right].cover / n->cover;
            }
            if (n->left >= 0 && !(n->cover > 0 && tree->nodes[n->left].cover > 0 &&
                                  tree->nodes[n->right].cover > 0))
                f->linear[t] = 0;
            int32_t feature = n->feature;
            if (tree->nodes[i].left >= 0 && !seen[feature]) {
                seen[feature] = 1;
                f->features[nf++] = feature;
            }
        }
        for (int64_t i = f->feat_first[t]; i < nf; i++) seen[f->features[i]] = 0;
        at += tree->num_nodes;
    }
    f->first[num_trees] = at;
    f->feat_first[num_trees] = nf;
    free(seen);
    return GPULAYER_OK;
}

/* One feature on the path from the root (Algorithm 2's m): the fraction
 * of the training cover that goes where the path goes (zero), whether the
 * row goes there (one), and the weight of the subsets of that size. */
typedef struct shap_path {
    int32_t feature;
    double zero;
    double one;
    double weight;
} shap_path;

/* Path elements a walk of a tree of depth d needs: each level copies the
 * path of its parent, at most d + 2 long. */
static size_t shap_path_capacity(int32_t d)
{
    return (size_t)(d + 2) * (size_t)(d + 3) / 2 + 1;
}

static void path_extend(shap_path *p, int32_t depth, double zero, double one, int32_t feature)
{
    p[depth] = (shap_path){feature, zero, one, depth == 0 ? 1.0 : 0.0};
    const double inv = 1.0 / (depth + 1);
    for (int32_t i = depth - 1; i >= 0; i--) {
        p[i + 1].weight += one * p[i].weight * (i + 1) * inv;
        p[i].weight = zero * p[i].weight * (depth - i) * inv;
    }
}

static void path_unwind(shap_path *p, int32_t depth, int32_t k)
{
    const double one = p[k].one, zero = p[k].zero;
    double next = p[depth].weight;
    for (int32_t i = depth - 1; i >= 0; i--) {
        if (one != 0) {
            const double w = p[i].weight;
            p[i].weight = next * (depth + 1) / ((i + 1) * one);
            next = w - p[i].weight * zero * (depth - i) / (depth + 1);
        } else {
            p[i].weight = p[i].weight * (depth + 1) / (zero * (depth - i));
        }
    }
    for (int32_t i = k; i < depth; i++) {
        p[i].feature = p[i + 1].feature;
        p[i].zero = p[i + 1].zero;
        p[i].one = p[i + 1].one;
    }
}

/* Elements of a leaf's path that the row follows, unwound together. */
typedef struct shap_leaf_scratch {
    int32_t *index;
    double *zero, *next, *total;
} shap_leaf_scratch;

/* Leaf sums of a path of length depth + 1 need, for i < depth, the
 * factors (depth + 1) / (i + 1), (depth - i) / (depth + 1) and
 * (depth + 1) / (depth - i): tabulated once per walk, row by depth, so that
 * the inner loops multiply instead of divide. */
typedef struct shap_factors {
    int32_t stride;
    double *up;   /* (depth + 1) / (i + 1)     */
    double *down; /* (depth - i) / (depth + 1) */
    double *cold; /* (depth + 1) / (depth - i) */
} shap_factors;

/* Sums over a leaf's path of the weights with each element taken out
 * (Algorithm 2's UNWOUND sum) into sums[1..depth]. One fractions are 0 or
 * 1 (a row follows a split or not). Elements the row does not follow all
 * share one sum scaled by 1 / zero; those it follows are unwound side by
 * side, so that their recurrences overlap instead of waiting on each
 * other. */
static void path_unwound_sums(const shap_path *p, int32_t depth, const shap_factors *fc,
                              shap_leaf_scratch *ls, double *sums)
{
    const double *up = fc->up + (int64_t)depth * fc->stride;
    const double *down = fc->down + (int64_t)depth * fc->stride;
    const double *cold = fc->cold + (int64_t)depth * fc->stride;
    double cold_sum = 0;
    int32_t hot = 0;
    for (int32_t i = 0; i < depth; i++) cold_sum += p[i].weight * cold[i];
    for (int32_t k = 1; k <= depth; k++) {
        if (p[k].one != 0) {
            ls->index[hot] = k;
            ls->zero[hot] = p[k].zero;
            ls->next[hot] = p[depth].weight;
            ls->total[hot] = 0;
            hot++;
        } else {
            sums[k] = p[k].zero != 0 ? cold_sum / p[k].zero : 0;
        }
    }
    double *restrict next = ls->next, *restrict total = ls->total;
    const double *restrict zero = ls->zero;
    for (int32_t i = depth - 1; i >= 0; i--) {
        const double a = up[i], b = down[i], wi = p[i].weight;
        for (int32_t h = 0; h < hot; h++) {
            const double w = next[h] * a;
            total[h] += w;
            next[h] = wi - w * zero[h] * b;
        }
    }
    for (int32_t h = 0; h < hot; h++) sums[ls->index[h]] = total[h];
}

/* One row through one tree. condition > 0: the values with feature
 * condition_feature always present, < 0: always absent, 0: plain SHAP. */
typedef struct shap_walk {
    const gpl_tree_node *nodes;
    const uint16_t *row;
    double *phi;
    const shap_factors *factors;
    shap_leaf_scratch *leaf;
    double *sums; /* path length entries */
    int condition;
    int32_t condition_feature;
} shap_walk;

static void tree_shap(const shap_walk *w, int32_t node, shap_path *parent, int32_t depth,
                      double zero, double one, int32_t feature, double condition_fraction)
{
    if (condition_fraction == 0) return;
    shap_path *path = parent + depth + 1;
    memcpy(path, parent, sizeof *path * (size_t)(depth + 1));
    if (w->condition == 0 || w->condition_feature != feature)
        path_extend(path, depth, zero, one, feature);
    const gpl_tree_node *n = &w->nodes[node];
    if (n->left < 0) {
        const double scale = n->leaf_value * condition_fraction;
        path_unwound_sums(path, depth, w->factors, w->leaf, w->sums);
        for (int32_t i = 1; i <= depth; i++)
            w->phi[path[i].feature] += w->sums[i] * (path[i].one - path[i].zero) * scale;
        return;
    }
    const int left = gpl_node_goes_left(n, w->row[n->feature]);
    const int32_t hot = left ? n->left : n->right, cold = left ? n->right : n->left;
    const double hot_zero = w->nodes[hot].cover / n->cover;
    const double cold_zero = w->nodes[cold].cover / n->cover;
    /* A feature split on again: its earlier element is taken out and
     * its fractions carried into this split's. */
    double in_zero = 1, in_one = 1;
    int32_t k = 0;
    while (k <= depth && path[k].feature != n->feature) k++;
    if (k <= depth) {
        in_zero = path[k].zero;
        in_one = path[k].one;
        path_unwind(path, depth, k);
        depth--;
    }
    double hot_fraction = condition_fraction, cold_fraction = condition_fraction;
    if (w->condition > 0 && n->feature == w->condition_feature) {
        cold_fraction = 0;
        depth--;
    } else if (w->condition < 0 && n->feature == w->condition_feature) {
        hot_fraction *= hot_zero;
        cold_fraction *= cold_zero;
        depth--;
    }
    tree_shap(w, hot, path, depth + 1, hot_zero * in_zero, in_one, n->feature, hot_fraction);
    tree_shap(w, cold, path, depth + 1, cold_zero * in_zero, 0, n->feature, cold_fraction);
}

/* Buffers of one thread. */
typedef struct shap_scratch {
    uint16_t *bins; /* 16-bit codes whatever the model's width */
    shap_path *path;
    shap_factors factors;
    shap_leaf_scratch leaf;
    double *sums;
    double *p;    /* linear walks: num_features ones             */
    double *acc;  /* a row's values, in doubles                  */
    double *on;   /* interactions: F + 1 each, zero between uses */
    double *off;
    double *diag; /* interactions: outputs x (F + 1)             */
    gpl_shap_lin_level *levels; /* interactions by quadrature    */
} shap_scratch;

static void tree_shap_row(const gpl_tree *t, const uint16_t *row, shap_scratch *s,
                          double *phi, int condition, int32_t condition_feature)
{
    shap_walk w = {t->nodes, row, phi, &s->factors, &s->leaf, s->sums, condition,
                   condition_feature};
    tree_shap(&w, 0, s->path, 0, 1, 1, -1, 1);
}

/* Saabas: each split's feature gets the change of the expected value
 * from the node to the child the row takes. */
static void tree_saabas_row(const gpl_tree *t, const double *mean, const uint16_t *row,
                            double *phi, int32_t F)
{
    const gpl_tree_node *nodes = t->nodes;
    int32_t i = 0;
    double v = mean[0];
    phi[F] += v;
    while (nodes[i].left >= 0) {
        const gpl_tree_node *n = &nodes[i];
        i = gpl_node_goes_left(n, row[n->feature]) ? n->left : n->right;
        phi[n->feature] += mean[i] - v;
        v = mean[i];
    }
}

static void scratch_free(shap_scratch *s)
{
    free(s->bins);
    free(s->path);
    free(s->factors.up);
    free(s->factors.down);
    free(s->factors.cold);
    free(s->sums);
    free(s->leaf.index);
    free(s->leaf.zero);
    free(s->leaf.next);
    free(s->leaf.total);
    free(s->p);
    free(s->acc);
    free(s->on);
    free(s->off);
    free(s->diag);
    free(s->levels);
}

static int scratch_alloc(shap_scratch *s, const gpl_model *m, const gpl_shap_forest *f,
                         gpl_shap_kind kind)
{
    const size_t F = (size_t)m->num_features, K = (size_t)m->num_outputs;
    const size_t width = (size_t)gpl_shap_row_width(m, kind);
    memset(s, 0, sizeof *s);
    s->bins = malloc(sizeof(uint16_t) * SHAP_BLOCK_ROWS * (F ? F : 1));
    s->path = malloc(sizeof(shap_path) * shap_path_capacity(f->max_depth));
    s->acc = malloc(sizeof(double) * width);
    s->p = malloc(sizeof(double) * (F ? F : 1));
    if (!s->p) return 0;
    for (size_t j = 0; j < F; j++) s->p[j] = 1;
    /* Path lengths reach max_depth + 1 (the root's element included). */
    const size_t L = (size_t)f->max_depth + 2;
    s->factors.stride = (int32_t)L;
    s->factors.up = malloc(sizeof(double) * L * L);
    s->factors.down = malloc(sizeof(double) * L * L);
    s->factors.cold = malloc(sizeof(double) * L * L);
    s->sums = malloc(sizeof(double) * (L + 1));
    s->leaf.index = malloc(sizeof(int32_t) * L);
    s->leaf.zero = malloc(sizeof(double) * L);
    s->leaf.next = malloc(sizeof(double) * L);
    s->leaf.total = malloc(sizeof(double) * L);
    if (!s->factors.up || !s->factors.down || !s->factors.cold || !s->sums || !s->leaf.index ||
        !s->leaf.zero || !s->leaf.next || !s->leaf.total)
        return 0;
    for (size_t d = 0; d < L; d++)
        for (size_t i = 0; i < d; i++) {
            s->factors.up[d * L + i] = (double)(d + 1) / (double)(i + 1);
            s->factors.down[d * L + i] = (double)(d - i) / (double)(d + 1);
            s->factors.cold[d * L + i] = (double)(d + 1) / (double)(d - i);
        }
    if (kind == GPL_SHAP_INTERACTIONS) {
        s->on = calloc(F + 1, sizeof(double));
        s->off = calloc(F + 1, sizeof(double));
        s->diag = malloc(sizeof(double) * K * (F + 1));
        s->levels = malloc(sizeof(gpl_shap_lin_level) * (GPL_SHAP_LINEAR_DEPTH + 1));
    }
    return s->bins && s->path && s->acc &&
           (kind != GPL_SHAP_INTERACTIONS || (s->on && s->off && s->diag && s->levels));
}

/* A row's interaction values by quadrature (shap_math.h's walk, the
 * devices' arithmetic): the pairs' sums halved, the diagonal what is left
 * of each feature's SHAP value. */
static void row_pairs(const gpl_model *m, const gpl_shap_view *view, const float *base,
                      const uint16_t *row, shap_scratch *s)
{
    const int32_t K = m->num_outputs, C = m->num_features + 1;
    memset(s->acc, 0, sizeof(double) * (size_t)K * (size_t)C * (size_t)C);
    memset(s->diag, 0, sizeof(double) * (size_t)K * (size_t)C);
    const gpl_shap_work w = {s->levels, {0}, NULL};
    gpl_shap_pairs_row(view, row, &w, s->diag, s->acc, 1);
    for (int32_t k = 0; k < K; k++) {
        double *mat = s->acc + (int64_t)k * C * C, *diag = s->diag + (int64_t)k * C;
        diag[C - 1] += base ? base[k] : gpl_model_base_margin(m, k);
        /* The diagonal first: it reads the sums the loop below rewrites. */
        for (int32_t i = 0; i < C; i++) diag[i] = gpl_shap_pair_self(diag[i], mat, i, C, 1);
        for (int32_t i = 0; i < C; i++)
            for (int32_t j = i + 1; j < C; j++)
                mat[(int64_t)i * C + j] = mat[(int64_t)j * C + i] =
                    gpl_shap_pair_value(mat, i, j, C, 1);
        for (int32_t i = 0; i < C; i++) mat[(int64_t)i * C + i] = diag[i];
    }
}

/* A row's interaction values: for each feature i of a tree, half the
 * difference of the tree's SHAP values with i present and with i absent
 * goes to (i, j); the diagonal is what is left of i's SHAP value. With a
 * view, every tree takes the linear walk and the values go by quadrature
 * instead (row_pairs). */
static void row_interactions(const gpl_model *m, const gpl_shap_forest *f,
                             const gpl_shap_view *view, const float *base, const uint16_t *row,
                             shap_scratch *s)
{
    const int32_t F = m->num_features, K = m->num_outputs, C = F + 1;
    if (view) {
        row_pairs(m, view, base, row, s);
        return;
    }
    memset(s->acc, 0, sizeof(double) * (size_t)K * (size_t)C * (size_t)C);
    memset(s->diag, 0, sizeof(double) * (size_t)K * (size_t)C);
    for (int32_t t = 0; t < f->num_trees; t++) {
        const gpl_tree *tree = &m->trees[t];
        double *diag = s->diag + (int64_t)(t % K) * C;
        double *mat = s->acc + (int64_t)(t % K) * C * C;
        tree_shap_row(tree, row, s, diag, 0, 0);
        diag[F] += f->mean[f->first[t]];
        const int32_t *feats = f->features + f->feat_first[t];
        const int64_t nf = f->feat_first[t + 1] - f->feat_first[t];
        for (int64_t a = 0; a < nf; a++) {
            const int32_t i = feats[a];
            tree_shap_row(tree, row, s, s->on, 1, i);
            tree_shap_row(tree, row, s, s->off, -1, i);
            for (int64_t b = 0; b < nf; b++) {
                const int32_t j = feats[b];
                if (j != i) mat[(int64_t)i * C + j] += (s->on[j] - s->off[j]) / 2;
                s->on[j] = s->off[j] = 0;
            }
        }
    }
    for (int32_t k = 0; k < K; k++) {
        double *diag = s->diag + (int64_t)k * C, *mat = s->acc + (int64_t)k * C * C;
        diag[F] += base ? base[k] : gpl_model_base_margin(m, k);
        for (int32_t i = 0; i < C; i++) {
            double v = diag[i];
            for (int32_t j = 0; j < C; j++)
                if (j != i) v -= mat[(int64_t)i * C + j];
            mat[(int64_t)i * C + i] = v;
        }
    }
}

/* The row's values into s->acc; the bias starts from the row's base
 * margins (K of them) where the data have them, else the model's. */
static void row_values(const gpl_model *m, const gpl_shap_forest *f, const gpl_shap_view *view,
                       gpl_shap_kind kind, const float *base, const uint16_t *row,
                       shap_scratch *s)
{
    const int32_t F = m->num_features, K = m->num_outputs, C = F + 1;
    if (kind == GPL_SHAP_INTERACTIONS) {
        row_interactions(m, f, view, base, row, s);
        return;
    }
    memset(s->acc, 0, sizeof(double) * (size_t)K * (size_t)C);
    for (int32_t t = 0; t < f->num_trees; t++) {
        double *phi = s->acc + (int64_t)(t % K) * C;
        const double *mean = f->mean + f->first[t];
        if (kind == GPL_SHAP_APPROX) {
            tree_saabas_row(&m->trees[t], mean, row, phi, F);
        } else {
            if (f->linear[t]) gpl_shap_linear_tree(&m->trees[t], row, s->p, phi);
            else tree_shap_row(&m->trees[t], row, s, phi, 0, 0);
            phi[F] += mean[0];
        }
    }
    for (int32_t k = 0; k < K; k++)
        s->acc[(int64_t)k * C + F] += base ? base[k] : gpl_model_base_margin(m, k);
}

int64_t gpl_shap_row_width(const gpl_model *m, gpl_shap_kind kind)
{
    const int64_t C = (int64_t)m->num_features + 1;
    return m->num_outputs * (kind == GPL_SHAP_INTERACTIONS ? C * C : C);
}

static gpulayer_status shap_dense(const gpl_model *m, const gpulayer_dataset *ds,
                                  gpl_shap_kind kind, int32_t num_rounds, int nthread,
                                  const char *device, float *out)
{
    const int32_t F = m->num_features;
    const int64_t N = ds->num_rows, width = gpl_shap_row_width(m, kind);
    const float **columns = NULL;
    float **owned = NULL;
    GPL_CHECK(gpl_dataset_check_base_margin(ds, m->num_outputs,
                                            ds->source ? ds->source : "the data"));
    char accelerator[32];
    int index;
    GPL_CHECK(gpl_predict_place("SHAP values", device, accelerator, sizeof accelerator,
                                &index, 0));
    GPL_CHECK(gpl_predict_columns(m, ds, &columns, &owned));
    gpl_shap_forest forest;
    gpulayer_status st = gpl_shap_forest_build(m, gpl_predict_num_trees(m, num_rounds), &forest);
    if (st == GPULAYER_OK && strcmp(accelerator, "cpu") != 0) {
        st = gpl_shap_device(m, &forest, columns, ds, kind, device, accelerator, index, nthread,
                             out);
        gpl_shap_forest_free(&forest);
        gpl_predict_columns_free(m, columns, owned);
        return st;
    }
    /* Interactions by quadrature walk the inference forest, as the
     * devices do. */
    gpl_infer_forest infer = {0};
    gpl_shap_view pairs_view, *view = NULL;
    if (st == GPULAYER_OK && kind == GPL_SHAP_INTERACTIONS &&
        gpl_shap_pairs_by_quadrature(forest.linear, forest.num_trees)) {
        st = gpl_infer_forest_build(m, forest.num_trees, &infer);
        if (st != GPULAYER_OK) {
            gpl_shap_forest_free(&forest);
            gpl_predict_columns_free(m, columns, owned);
            return st;
        }
        pairs_view = (gpl_shap_view){infer.nodes,       infer.leaf,        infer.cat_sets,
                                     infer.cat_words,   infer.first,       forest.frac,
                                     forest.mean,       forest.linear,     forest.feat_first,
                                     forest.features,   forest.num_trees,  m->num_outputs,
                                     F};
        view = &pairs_view;
    }
    gpl_padded_cuts *padded = st == GPULAYER_OK ? gpl_padded_cuts_all(&m->cuts) : NULL;
    if (st == GPULAYER_OK && !padded) st = GPULAYER_ERR_OUT_OF_MEMORY;
    const int nt = gpl_threads(nthread);
    if (st == GPULAYER_OK)
#pragma omp parallel num_threads(nt)
    {
        shap_scratch s;
        const int ok = scratch_alloc(&s, m, &forest, kind);
        if (!ok) {
#pragma omp atomic write
            st = GPULAYER_ERR_OUT_OF_MEMORY;
        }
#pragma omp for schedule(dynamic)
        for (int64_t start = 0; start < N; start += SHAP_BLOCK_ROWS) {
            if (!ok) continue;
            const int64_t n = N - start < SHAP_BLOCK_ROWS ? N - start : SHAP_BLOCK_ROWS;
            for (int32_t f = 0; f < F; f++)
                gpl_bin_values(&padded[f], columns[f] + start, n, (uint8_t *)(s.bins + f), F, 2);
            for (int64_t i = 0; i < n; i++) {
                const float *base =
                    ds->base_margin ? ds->base_margin + (start + i) * m->num_outputs : NULL;
                row_values(m, &forest, view, kind, base, s.bins + i * F, &s);
                float *o = out + (start + i) * width;
                for (int64_t j = 0; j < width; j++) o[j] = (float)s.acc[j];
            }
        }
        scratch_free(&s);
    }
    if (st != GPULAYER_OK) gpl_error(st, "out of host memory for SHAP values");
    free(padded);
    if (view) gpl_infer_forest_free(&infer);
    gpl_shap_forest_free(&forest);
    gpl_predict_columns_free(m, columns, owned);
    return st;
}

gpulayer_status gpl_shap_dataset(const gpl_model *m, const gpulayer_dataset *ds,
                                 gpl_shap_kind kind, int32_t num_rounds, int nthread,
                                 const char *device, float *out)
{
    gpulayer_dataset *dense = NULL;
    GPL_CHECK(gpl_dataset_dense_copy(ds, &dense));
    gpulayer_status st =
        shap_dense(m, dense ? dense : ds, kind, num_rounds, nthread, device, out);
    gpulayer_dataset_free(dense);
    return st;
}
