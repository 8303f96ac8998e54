/* feature_sample.h -- column sampling (colsample_bytree, _bylevel,
 * _bynode): which features a tree, a depth level or a node may split on,
 * the same on every backend, rank and thread count (seeded streams). */
#ifndef GPL_FEATURE_SAMPLE_H
#define GPL_FEATURE_SAMPLE_H

#include <stdint.h>

/* out[f] = 1 for max(1, floor(rate * n)) of the n features whose from[f]
 * is non-zero (from NULL: all num_features), 0 for the others; rate >= 1
 * keeps them all. Without weights, a partial Fisher-Yates shuffle over the
 * candidates in index order, driven by a xorshift stream started at state;
 * with weights (num_features of them, XGBoost's feature_weights), weighted
 * sampling without replacement as XGBoost does it: the largest keys
 * log(u) / weight, u from the same stream, ties to the lower index (a
 * weight of 0 is chosen only when fewer features have weight). */
void gpl_sample_features(const uint8_t *from, int32_t num_features, double rate,
                         const float *weights, uint64_t state, uint8_t *out);

/* The stream of a tree (seed, round, output), and of one of its depth
 * levels or nodes. */
uint64_t gpl_sample_stream_tree(uint64_t seed, int32_t round, int32_t output);
uint64_t gpl_sample_stream_level(uint64_t tree, int32_t depth);
uint64_t gpl_sample_stream_node(uint64_t tree, int32_t node);

#endif
