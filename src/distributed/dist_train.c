/* dist_train.c -- the trainer's hooks table: layout check, shard
 * placement, gathered labels, agreement of the setup and of each round's
 * stop, and the final model check. */
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
    int64_t *all;
    GPL_CHECK(gpl_dist_gather_values((int64_t)value, &all));
    *same = 1;
    for (int r = 1; r < size; r++) *same &= all[r] == all[0];
    free(all);
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

void gpl_dist_trainer_init(gpl_dist_trainer *dt)
{
    memset(dt, 0, sizeof *dt);
    gpl_train_hooks *h = &dt->hooks;
    h->user = dt;
    h->local_rank = gpl_dist_local_rank();
    h->local_size = gpl_dist_local_size();
    h->prepare = gpl_dist_prepare;
    h->ready = gpl_dist_ready;
    h->gradients = gpl_dist_gradients;
    gpl_dist_grow_hooks(dt);
    h->gather_leaf_rows = gpl_dist_gather_leaf_rows;
    h->end_round = gpl_dist_end_round;
    h->check_model = gpl_dist_check_model;
}

/* The rows of train are this rank's share. The checks agree over ranks (a
 * bad shard fails every rank with its message), then labels and cut
 * sample are gathered so that the model starts from the same numbers as
 * one process holding every row. */
gpulayer_status gpl_dist_prepare(void *user, const gpl_params *p,
                                 const gpulayer_dataset *train, int nthread,
                                 gpulayer_status st, gpulayer_dataset *labels,
                                 gpl_bin_cuts *cuts)
{
    gpl_dist_trainer *dt = user;
    memset(labels, 0, sizeof *labels);
    memset(cuts, 0, sizeof *cuts);
    /* One process per Apple GPU (ADR 0001): refused here on every host,
     * including one rank per Mac, where placement alone would not see it. */
    if (st == GPULAYER_OK && !strncmp(p->device, "mps", 3))
        st = gpl_error(GPULAYER_ERR_UNSUPPORTED,
                       "device=%s: distributed jobs cannot use mps (one process per "
                       "Apple GPU); use device=cpu for distributed training on Macs",
                       p->device);
    st = gpl_dist_agree(st);
    if (st != GPULAYER_OK) return st;
    dt->train = train;
    dt->nthread = nthread;
    int same = 0;
    st = same_everywhere(layout_hash(train), &same);
    if (st == GPULAYER_OK && !same)
        st = gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                       "the ranks' training data differ in columns, column names, "
                       "weights or the values of string columns; every rank needs "
                       "the same layout (for string columns, let every rank read "
                       "one file and take its slice)");
    st = gpl_dist_agree(st);
    if (st != GPULAYER_OK) return st;
    st = gpl_dist_row_place(train->num_rows, &dt->first_row, &dt->global_rows);
    dt->hooks.first_row = dt->first_row;
    if (st == GPULAYER_OK) st = gather_labels(dt, labels);
    st = gpl_dist_agree(st);
    if (st == GPULAYER_OK) st = gpl_dist_bin_cuts(dt, p->max_bin, cuts);
    return st;
}

static gpulayer_status attach(gpl_dist_trainer *dt, gpl_backend *be,
                              const uint32_t *feature_offset)
{
    if (!gpl_backend_has(be, GPL_BACKEND_CAP_WRITE_PAIRS))
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "the %s backend cannot train across ranks yet; use "
                         "--device cpu or cuda for distributed training", be->ops->name);
    dt->hist_len = feature_offset[dt->train->num_cols];
    size_t n = (size_t)dt->train->num_rows;
    dt->margins = gpl_malloc(sizeof(float) * (n ? n : 1) * (size_t)be->config.num_outputs,
                             "distributed gradients");
    dt->pairs = gpl_malloc(sizeof(gpl_grad_pair) * (n ? n : 1), "distributed gradients");
    if (be->config.num_outputs > 1 && dt->margins && dt->pairs) {
        dt->softmax_norm = gpl_malloc(2 * sizeof(double) * (n ? n : 1), "softmax normalisers");
        if (!dt->softmax_norm) return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    return dt->margins && dt->pairs ? GPULAYER_OK : GPULAYER_ERR_OUT_OF_MEMORY;
}

gpulayer_status gpl_dist_ready(void *user, gpulayer_status st, gpl_backend *be,
                               const uint32_t *feature_offset)
{
    if (st == GPULAYER_OK) st = attach(user, be, feature_offset);
    /* Failures of the setup are local (memory, the backend): make them
     * every rank's, unless every rank already shares one. */
    if (st != GPULAYER_OK && gpl_dist_failure_shared()) return st;
    return gpl_dist_agree(st);
}

void gpl_dist_end_round(void *user, int *stop, int *halt)
{
    (void)user;
    /* Early stopping agrees by itself (every rank evaluates the same model
     * on the same sets), but a caller's stop or a signal may reach one
     * rank only: all stop after the same round. */
    int64_t flags[2] = {*stop, *halt};
    gpl_dist_allreduce_i64(flags, 2, GPL_DIST_MAX);
    *stop = (int)flags[0];
    *halt = (int)flags[1];
}

gpulayer_status gpl_dist_check_model(void *user, const gpl_model *m)
{
    (void)user;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (int32_t t = 0; t < m->num_trees; t++)
        for (int32_t i = 0; i < m->trees[t].num_nodes; i++) {
            const gpl_tree_node *n = &m->trees[t].nodes[i];
            int32_t ints[5] = {n->left, n->right, n->feature, n->split_bin, n->default_left};
            h = hash_bytes(h, ints, sizeof ints);
            h = hash_bytes(h, &n->leaf_value, sizeof n->leaf_value);
            h = hash_bytes(h, &n->threshold, sizeof n->threshold);
            if (n->categorical)
                h = hash_bytes(h, gpl_node_set(n),
                               sizeof(uint32_t) * (size_t)gpl_node_set_words(n));
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
    free(dt->softmax_norm);
    dt->softmax_norm = NULL;
    dt->softmax_norm_ready = 0;
    dt->margins = NULL;
    dt->pairs = NULL;
    dt->hist = NULL;
}
