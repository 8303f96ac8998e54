/* checks.h -- the checks every backend makes of what the tree driver and
 * the prediction code hand it, with one wording: each message starts with
 * "<backend> backend: " (backend: "cpu", "cuda", "vulkan", "metal") and
 * names the operation where the check has one. A failed check is a bug of
 * the caller: GPULAYER_ERR_INTERNAL unless said otherwise. */
#ifndef GPL_BACKEND_CHECKS_H
#define GPL_BACKEND_CHECKS_H

#include <stdint.h>

#include "backend.h"
#include "hist_slots.h"
#include "node_table.h"

/* node is an id 0..max_nodes-1: "<op>: node id N outside 0..M" (op NULL:
 * "node id N outside 0..M"). */
gpulayer_status gpl_check_node_id(const char *backend, const char *op, int32_t node,
                                  int32_t max_nodes);
/* node is an id and holds rows: "<op>: node N holds no rows". */
gpulayer_status gpl_check_node_live(const char *backend, const char *op,
                                    const gpl_node_table *t, int32_t node);
/* Split s splits a live node into two node ids, on a feature below
 * num_features at a bin of 0..65,535: "invalid split of node N". */
gpulayer_status gpl_check_split(const char *backend, const gpl_node_table *t,
                                int32_t num_features, const gpl_split_apply *s);
/* node has a histogram: "<op>: node N has no histogram" (op NULL: "node N
 * has no histogram"), with the given status (read_histogram: an invalid
 * argument). */
gpulayer_status gpl_check_histogram(const char *backend, const char *op, gpulayer_status status,
                                    const gpl_hist_slots *slots, int32_t node);
/* Parent and built are node ids with histograms ("subtract_histograms: node
 * id N outside 0..M", "subtract needs the histograms of nodes P and B"). */
gpulayer_status gpl_check_subtract(const char *backend, const gpl_hist_slots *slots,
                                   const gpl_hist_subtract *s);
/* Rows are 32-bit positions: a matrix of 2^32 - 1 rows or more is refused
 * ("N rows exceed the limit of 2^32 - 1", unsupported). */
gpulayer_status gpl_check_row_limit(const char *backend, int64_t num_rows);
/* A prediction job with rows has at least one output and no negative
 * feature count: "predict: K outputs, F features" (an invalid argument).
 * A job without rows passes (there is nothing to predict). */
gpulayer_status gpl_check_predict_job(const char *backend, const gpl_predict_job *job);

#endif
