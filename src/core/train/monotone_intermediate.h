/*
 * monotone_intermediate.h -- LightGBM's intermediate method of monotone
 * constraints (monotone_constraints_method=intermediate), on the host.
 *
 * Every node carries bounds on the weights its children may take. The
 * basic method (split_math.h gpl_monotone_child_bounds) bounds the
 * children of a monotone split at the midpoint of their weights, for good.
 * The intermediate method bounds each child by its sibling's weight only,
 * and after every split tightens the bounds of the leaves that sit next to
 * the new leaves across a monotone split further up: a leaf that must stay
 * above them gets their weight as its lower bound, one that must stay
 * below as its upper bound. Leaves whose bounds moved are searched again
 * by the tree driver. Bounds only ever tighten, so a tree stays monotone.
 *
 * Which leaves touch the new ones follows from the splits' bins, as
 * LightGBM reasons; unlike LightGBM, a row missing a feature is counted
 * on the side its splits send it, so leaves reached that way are
 * tightened too (without it, rows with missing values could see a
 * prediction move the wrong way).
 */
#ifndef GPL_MONOTONE_INTERMEDIATE_H
#define GPL_MONOTONE_INTERMEDIATE_H

#include <stdint.h>

#include "model.h"

/* A split on the way up from the new leaves: its feature and bin, whether
 * the new leaves lie right of it, and whether its missing values go their
 * way. */
typedef struct gpl_monotone_step {
    int32_t feature;
    int32_t bin;
    uint8_t right;
    uint8_t missing_along;
} gpl_monotone_step;

/* The tree being grown, as the update reads it. */
typedef struct gpl_monotone_tree {
    const gpl_tree_node *nodes; /* left < 0 for leaves                  */
    const int32_t *parent;      /* -1 for the root                      */
    const int8_t *monotone;     /* a constraint a feature               */
    const uint8_t *open;        /* a leaf that may still split: non-zero */
    double *bounds;             /* lower, upper of each node            */
    gpl_monotone_step *path;    /* scratch of num_nodes entries         */
    int32_t num_nodes;
} gpl_monotone_tree;

/* The bounds of the children (left, right) of a split of this constraint
 * on a node with bounds own, whose children weigh wl and wr. */
void gpl_monotone_intermediate_children(int constraint, double wl, double wr, const double *own,
                                        double *left, double *right);

/* After node split (a numeric split, already in the tree) got children of
 * weights wl (left) and wr (right): tightens the bounds of the open leaves
 * next to them. Writes the leaves whose bounds moved to moved (room for
 * num_nodes) and returns how many. */
int32_t gpl_monotone_intermediate_update(const gpl_monotone_tree *t, int32_t split, double wl,
                                         double wr, int32_t *moved);

#endif
