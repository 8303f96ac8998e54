/* dist_train.c -- layout check, shard placement, gathered labels and the
 * final model check of data-parallel training. */
#include "dist_train.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "dist.h"
#include "error.h"

/* FNV-1a, enough to tell layouts and models apart. */
static uint64_t hash_bytes(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

static uint64_t hash_str(uint64_t h, const char *s)
{
    return s ? hash_bytes(h, s, strlen(s) + 1) : hash_bytes(h, "", 1) ^ 1;
}

/* Columns, names, category dictionaries and which optional arrays exist.
 * Category codes follow each file's own dictionary, so shard files whose
 * string columns hold different values would bin differently. */
static uint64_t layout_hash(const gpulayer_dataset *ds)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    int32_t flags[3] = {ds->num_cols, ds->label != NULL, ds->weight != NULL};
    h = hash_bytes(h, flags, sizeof flags);
    for (int32_t f = 0; f < ds->num_cols; f++) {
        h = hash_str(h, ds->feature_names ? ds->feature_names[f] : NULL);
        const gpl_category_dict *d = ds->categories ? ds->categories[f] : NULL;
        h = hash_bytes(h, d ? &d->count : &(int32_t){-1}, sizeof(int32_t));
        for (int32_t i = 0; d && i < d->count; i++) h = hash_str(h, d->names[i]);
    }
    return h;
}

/* Whether every rank passed the same value. */
static gpulayer_status same_everywhere(uint64_t value, int *same)
{
    const int size = gpl_dist_size();
    int64_t *all = gpl_malloc(sizeof(int64_t) * (size_t)size, "rank values");
    int64_t ok = all != NULL;
    gpl_dist_allreduce_i64(&ok, 1, GPL_DIST_MIN);
    if (!ok) {
        free(all);
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory");
    }
    gpl_dist_allgather_i64((int64_t)value, all);
    *same = 1;
    for (int r = 1; r < size; r++) *same &= all[r] == all[0];
    free(all);
    return GPULAYER_OK;
}

static gpulayer_status place_shard(gpl_dist_trainer *dt)
{
    const int size = gpl_dist_size(), rank = gpl_dist_rank();
    int64_t *rows = gpl_malloc(sizeof(int64_t) * (size_t)size, "rank row counts");
    int64_t ok = rows != NULL;
    gpl_dist_allreduce_i64(&ok, 1, GPL_DIST_MIN);
    if (!ok) {
        free(rows);
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory");
    }
    gpl_dist_allgather_i64(dt->train->num_rows, rows);
    dt->first_row = 0;
    dt->global_rows = 0;
    for (int r = 0; r < size; r++) {
        if (r < rank) dt->first_row += rows[r];
        dt->global_rows += rows[r];
    }
    free(rows);
    return GPULAYER_OK;
}

/* Every rank's labels and weights in global row order. */
static gpulayer_status gather_labels(const gpl_dist_trainer *dt, gpulayer_dataset *out)
{
    const gpulayer_dataset *ds = dt->train;
    int64_t n = 0;
    out->label = gpl_dist_allgather_f32(ds->label, ds->num_rows, &n);
    if (!out->label) return GPULAYER_ERR_OUT_OF_MEMORY;
    out->num_rows = n;
    /* Every rank has weights or none does: the layout check made sure. */
    if (ds->weight && !(out->weight = gpl_dist_allgather_f32(ds->weight, ds->num_rows, &n)))
        return GPULAYER_ERR_OUT_OF_MEMORY;
    return GPULAYER_OK;
}

gpulayer_status gpl_dist_prepare(gpl_dist_trainer *dt, const gpulayer_dataset *train,
                                 int max_bin, int nthread, gpulayer_dataset *labels,
                                 gpl_bin_cuts *cuts)
{
    memset(dt, 0, sizeof *dt);
    memset(labels, 0, sizeof *labels);
    memset(cuts, 0, sizeof *cuts);
    dt->train = train;
    dt->nthread = nthread;
    gpl_dist_grow_hooks(dt);
    int same = 0;
    gpulayer_status st = same_everywhere(layout_hash(train), &same);
    if (st == GPULAYER_OK && !same)
        st = gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                       "the ranks' training data differ in columns, column names, "
                       "weights or the values of string columns; every rank needs "
                       "the same layout (for string columns, let every rank read "
                       "one file and take its slice)");
    st = gpl_dist_agree(st);
    if (st != GPULAYER_OK) return st;
    st = place_shard(dt);
    if (st == GPULAYER_OK) st = gather_labels(dt, labels);
    st = gpl_dist_agree(st);
    if (st == GPULAYER_OK) st = gpl_dist_bin_cuts(dt, max_bin, cuts);
    return st;
}

void gpl_dist_labels_free(gpulayer_dataset *labels)
{
    free(labels->label);
    free(labels->weight);
    memset(labels, 0, sizeof *labels);
}

gpulayer_status gpl_dist_attach(gpl_dist_trainer *dt, gpl_backend *be,
                                const uint32_t *feature_offset)
{
    if (!be->ops->write_pairs || !be->ops->read_histogram)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "the %s backend cannot train across ranks yet; use "
                         "--device cpu or cuda for distributed training", be->ops->name);
    dt->hist_len = feature_offset[dt->train->num_cols];
    size_t n = (size_t)dt->train->num_rows;
    dt->margins = gpl_malloc(sizeof(float) * (n ? n : 1) * (size_t)be->config.num_outputs,
                             "distributed gradients");
    dt->pairs = gpl_malloc(sizeof(gpl_grad_pair) * (n ? n : 1), "distributed gradients");
    return dt->margins && dt->pairs ? GPULAYER_OK : GPULAYER_ERR_OUT_OF_MEMORY;
}

gpulayer_status gpl_dist_check_model(const gpl_model *m)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (int32_t t = 0; t < m->num_trees; t++)
        for (int32_t i = 0; i < m->trees[t].num_nodes; i++) {
            const gpl_tree_node *n = &m->trees[t].nodes[i];
            int32_t ints[5] = {n->left, n->right, n->feature, n->split_bin, n->default_left};
            h = hash_bytes(h, ints, sizeof ints);
            h = hash_bytes(h, &n->leaf_value, sizeof n->leaf_value);
            h = hash_bytes(h, &n->threshold, sizeof n->threshold);
        }
    int same = 0;
    gpulayer_status st = same_everywhere(h, &same);
    if (st == GPULAYER_OK && !same)
        st = gpl_error(GPULAYER_ERR_INTERNAL,
                       "the ranks built different models; no model is saved "
                       "(please report this)");
    return gpl_dist_agree(st);
}

void gpl_dist_trainer_free(gpl_dist_trainer *dt)
{
    free(dt->margins);
    free(dt->pairs);
    free(dt->hist);
    dt->margins = NULL;
    dt->pairs = NULL;
    dt->hist = NULL;
}
