/* model_json.h -- what the model file's writer (model_write.c) and reader
 * (model_read.c) share: its format tag and version, the fields of a tree's
 * nodes, and the canonical text with its checksum (model_json.c). */
#ifndef GPL_MODEL_JSON_H
#define GPL_MODEL_JSON_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "gpulayer.h"
#include "model.h"

#define FORMAT_TAG "gpulayer-model"
#define FORMAT_VERSION 1

typedef enum field_type { FIELD_INT, FIELD_FLOAT, FIELD_DOUBLE } field_type;

typedef struct node_field {
    const char *name;
    size_t offset;
    field_type type;
} node_field;

static const node_field node_fields[] = {
    {"left", offsetof(gpl_tree_node, left), FIELD_INT},
    {"right", offsetof(gpl_tree_node, right), FIELD_INT},
    {"feature", offsetof(gpl_tree_node, feature), FIELD_INT},
    {"split_bin", offsetof(gpl_tree_node, split_bin), FIELD_INT},
    {"default_left", offsetof(gpl_tree_node, default_left), FIELD_INT},
    {"threshold", offsetof(gpl_tree_node, threshold), FIELD_FLOAT},
    {"leaf_value", offsetof(gpl_tree_node, leaf_value), FIELD_FLOAT},
    {"gain", offsetof(gpl_tree_node, gain), FIELD_DOUBLE},
    {"cover", offsetof(gpl_tree_node, cover), FIELD_DOUBLE},
};
#define NUM_NODE_FIELDS (sizeof node_fields / sizeof node_fields[0])

/* CRC-32 of the canonical text of doc, which must not hold "checksum". */
unsigned long gpl_model_json_crc(const cJSON *doc);
/* The file text of doc (which has no checksum yet): pretty-printed and
 * checksummed in one pass, the checksum then added as the last member. */
gpulayer_status gpl_model_json_seal(const cJSON *doc, char **out, size_t *len);

#endif
