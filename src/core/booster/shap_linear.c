/* shap_linear.c -- exact SHAP values of one row in one walk of a tree. */
#include "shap_linear.h"

#include "predict.h"

/* Linear TreeSHAP (Yu et al. 2022) with Gauss-Legendre quadrature: a
 * leaf of value v whose path has, per distinct feature j, the cover
 * fraction z_j and p_j = (row follows j's splits) / z_j, gives feature i
 *     v * prod(z) * integral over [0, 1] of C(t) * a_i / (1 + a_i t) dt,
 * C(t) = prod over j of (1 + a_j t), a_j = p_j - 1: the Shapley value of
 * Algorithm 2, as a polynomial of degree below the path's length, which
 * LINEAR_POINTS points integrate exactly. Each node's weighted leaf sums
 * H(t) at those points are the sums of its children's, so a row takes one
 * walk of the tree at a fixed cost a node, where Algorithm 2 pays a cost
 * quadratic in the depth at each leaf. */
#define LINEAR_POINTS 8

/* Gauss-Legendre nodes and weights on [0, 1]. */
static const double linear_t[LINEAR_POINTS] = {
    0.019855071751231912, 0.10166676129318664, 0.2372337950418355, 0.40828267875217511,
    0.59171732124782483,  0.7627662049581645,  0.89833323870681336, 0.98014492824876809};
static const double linear_w[LINEAR_POINTS] = {
    0.050614268145188532, 0.11119051722668721, 0.15685332293894344, 0.18134189168918083,
    0.18134189168918083,  0.15685332293894344, 0.11119051722668721, 0.050614268145188532};

typedef struct linear_walk {
    const gpl_tree_node *nodes;
    const uint16_t *row;
    double *phi;
    double *p; /* per feature: p_j on the current path, 1 when not on it */
} linear_walk;

static void linear_node(const linear_walk *w, int32_t node, const double *c, double zprod,
                        double *h);

/* An edge the row does not take has a = -1: its factors 1 - t and
 * -1 / (1 - t) at the points, tabulated. */
static const double linear_untaken[LINEAR_POINTS] = {
    1 - 0.019855071751231912, 1 - 0.10166676129318664, 1 - 0.2372337950418355,
    1 - 0.40828267875217511,  1 - 0.59171732124782483, 1 - 0.7627662049581645,
    1 - 0.89833323870681336,  1 - 0.98014492824876809};

static const double linear_untaken_inv[LINEAR_POINTS] = {
    1 / (1 - 0.019855071751231912),
    1 / (1 - 0.10166676129318664),
    1 / (1 - 0.2372337950418355),
    1 / (1 - 0.40828267875217511),
    1 / (1 - 0.59171732124782483),
    1 / (1 - 0.7627662049581645),
    1 / (1 - 0.89833323870681336),
    1 / (1 - 0.98014492824876809),
};

/* The edge from parent n to child: the row follows it or not. */
static void linear_edge(const linear_walk *w, const gpl_tree_node *n, int32_t child, int follows,
                        const double *c, double zprod, double *h)
{
    const double z = w->nodes[child].cover / n->cover;
    const int32_t f = n->feature;
    const double p_old = w->p[f], p_new = follows ? p_old / z : 0;
    const double a_old = p_old - 1, a_new = p_new - 1;
    double cc[LINEAR_POINTS], r[LINEAR_POINTS];
    if (p_new == 0) {
        for (int q = 0; q < LINEAR_POINTS; q++) cc[q] = c[q] * linear_untaken[q];
    } else {
        for (int q = 0; q < LINEAR_POINTS; q++) {
            const double e = 1 + a_new * linear_t[q];
            cc[q] = c[q] * e;
            r[q] = a_new / e;
        }
    }
    if (a_old != 0)
        for (int q = 0; q < LINEAR_POINTS; q++) cc[q] /= 1 + a_old * linear_t[q];
    w->p[f] = p_new;
    linear_node(w, child, cc, zprod * z, h);
    w->p[f] = p_old;
    /* Each point's term, then their sum in pairs: ((0+1)+(2+3))+((4+5)+(6+7)),
     * the order in which a GPU's 8 lanes of a row add them in 3 steps. */
    double v[LINEAR_POINTS];
    for (int q = 0; q < LINEAR_POINTS; q++) {
        v[q] = p_new == 0 ? -(h[q] * linear_untaken_inv[q]) : h[q] * r[q];
        if (a_old != 0) v[q] -= h[q] * a_old / (1 + a_old * linear_t[q]);
    }
    w->phi[f] += ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
}

static void linear_node(const linear_walk *w, int32_t node, const double *c, double zprod,
                        double *h)
{
    const gpl_tree_node *n = &w->nodes[node];
    if (n->left < 0) {
        const double scale = zprod * n->leaf_value;
        for (int q = 0; q < LINEAR_POINTS; q++) h[q] = c[q] * scale * linear_w[q];
        return;
    }
    const int left = gpl_node_goes_left(n, w->row[n->feature]);
    double hr[LINEAR_POINTS];
    linear_edge(w, n, n->left, left, c, zprod, h);
    linear_edge(w, n, n->right, !left, c, zprod, hr);
    for (int q = 0; q < LINEAR_POINTS; q++) h[q] += hr[q];
}

void gpl_shap_linear_tree(const gpl_tree *t, const uint16_t *row, double *p, double *phi)
{
    if (t->nodes[0].left < 0) return;
    const linear_walk w = {t->nodes, row, phi, p};
    double c[LINEAR_POINTS], h[LINEAR_POINTS];
    for (int q = 0; q < LINEAR_POINTS; q++) c[q] = 1;
    linear_node(&w, 0, c, 1, h);
}

