/* cpu_split.c -- the best split of every node of a level, by scanning each
 * feature's histogram in bin order (the reference for every backend). */
#include <omp.h>

#include "cpu_backend.h"
#include "error.h"
#include "split_math.h"

static void evaluate_node(const cpu_context *c, const gpl_grad_pair *hist,
                          const gpl_split_params *p, const uint8_t *mask,
                          gpl_split_record *rec)
{
    const uint32_t *off = c->feature_offset;
    const double sg = p->scale.grad, sh = p->scale.hess;
    /* Any feature's bins add up to the node's total; take feature 0's. */
    gpl_grad_pair total = {0, 0};
    for (uint32_t k = off[0]; k < off[1]; k++) {
        total.grad += hist[k].grad;
        total.hess += hist[k].hess;
    }
    const double parent = gpl_node_score((double)total.grad / sg,
                                         (double)total.hess / sh, p->lambda,
                                         p->alpha);
    rec->feature = -1;
    rec->bin = 0;
    rec->default_left = 0;
    rec->gain = 0.0;
    rec->total = total;
    rec->left = total;
    rec->right = (gpl_grad_pair){0, 0};
    for (int32_t f = 0; f < c->num_features; f++) {
        if (mask && !mask[f]) continue;
        const gpl_grad_pair *h = hist + off[f];
        const int32_t last_bin = (int32_t)(off[f + 1] - off[f]) - 1;
        const gpl_grad_pair missing = h[0];
        gpl_grad_pair cum = {0, 0};
        /* b = last_bin sends every value left and only missing values
         * right (the one split a feature with a single value has). */
        for (int32_t b = 1; b <= last_bin; b++) {
            cum.grad += h[b].grad;
            cum.hess += h[b].hess;
            /* Without missing values both directions give the same split,
             * and the tie rule would keep default_left = 0. */
            const int last_dl = (b < last_bin && (missing.hess != 0 || missing.grad != 0)) ? 1 : 0;
            for (int dl = 0; dl <= last_dl; dl++) {
                gpl_grad_pair L = cum;
                if (dl) {
                    L.grad += missing.grad;
                    L.hess += missing.hess;
                }
                gpl_grad_pair R = {total.grad - L.grad, total.hess - L.hess};
                if (L.hess <= 0 || R.hess <= 0) continue;
                double hl = (double)L.hess / sh, hr = (double)R.hess / sh;
                if (hl < p->min_child_weight || hr < p->min_child_weight) continue;
                double gain = gpl_node_score((double)L.grad / sg, hl, p->lambda, p->alpha) +
                              gpl_node_score((double)R.grad / sg, hr, p->lambda, p->alpha) -
                              parent;
                if (gpl_split_better(gain, f, b, dl, rec->gain, rec->feature,
                                     rec->bin, rec->default_left)) {
                    rec->gain = gain;
                    rec->feature = f;
                    rec->bin = b;
                    rec->default_left = dl;
                    rec->left = L;
                    rec->right = R;
                }
            }
        }
    }
}

gpulayer_status cpu_evaluate_splits(gpl_backend *be, const int32_t *nodes,
                                    int32_t num_nodes,
                                    const gpl_split_params *params,
                                    const uint8_t *feature_mask,
                                    gpl_split_record *out)
{
    cpu_context *c = cpu_ctx(be);
    for (int32_t i = 0; i < num_nodes; i++)
        if (nodes[i] < 0 || nodes[i] >= c->max_nodes || !c->node_hist[nodes[i]])
            return gpl_error(GPULAYER_ERR_INTERNAL,
                             "cpu backend: evaluate_splits: node %d has no "
                             "histogram", nodes[i]);
#pragma omp parallel for num_threads(c->nthread) schedule(dynamic)
    for (int32_t i = 0; i < num_nodes; i++) {
        out[i].node = nodes[i];
        evaluate_node(c, c->node_hist[nodes[i]], params, feature_mask, &out[i]);
    }
    return GPULAYER_OK;
}
