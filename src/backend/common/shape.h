/* shape.h -- the shape of a training job, the same members in every
 * backend's context (its `shape` part): set at creation (outputs, node
 * ids) and at upload (rows, features, histogram length). */
#ifndef GPL_SHAPE_H
#define GPL_SHAPE_H

#include <stdint.h>

typedef struct gpl_shape {
    int64_t num_rows;
    int32_t num_features;
    int32_t num_outputs; /* margins a row                               */
    int32_t max_nodes;   /* node ids of a tree are 0..max_nodes-1        */
    uint32_t hist_len;   /* bins of all features: feature_offset[F]      */
} gpl_shape;

#endif
