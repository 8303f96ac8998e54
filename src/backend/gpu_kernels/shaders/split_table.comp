#version 450
// split_table.comp -- the partition queued behind the split search
// (vk_split.c): each split of the level's table (partition_push.glsl) takes
// its bin, missing-value direction and column from its node's split
// record (a numeric split's bin, a categorical one's left set), which
// split_eval.comp wrote earlier in the same batch; the host wrote the
// rest of the table (the node's rows and tiles). A node without a split
// (feature < 0) sends every row left, so its rows stay as they are; so
// does a split by a set of more than 255 categories (categorical 2: its
// record has no set), which partition_rows then makes with the core's set.
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(push_constant) uniform Push {
    uint num_splits;   // split s is the node of record s
    uint table_first;  // word of the split table in `level`
    uint column_words; // words of one bin column
} pc;

layout(std430, binding = 1) buffer Level { uint level[]; };
layout(std430, binding = 2) readonly buffer Records { uint records[]; };

// GPL_SPLIT_RECORD_WORDS and the words of a record (gpu_kernel_abi.h);
// GPL_SPLIT_WORDS and the fields of a split (partition_push.glsl).
const uint RECORD_WORDS = 27u;
const uint R_FEATURE = 1u, R_BIN = 2u, R_DEFAULT_LEFT = 3u, R_CATEGORICAL = 18u, R_LEFT_SET = 19u;
const uint SPLIT_WORDS = 16u;
const uint S_BIN = 2u, S_DEFAULT_LEFT = 3u, S_COLUMN_WORD = 6u, S_LEFT_SET = 8u;
const uint S_BY_SET = 2u;

void main()
{
    const uint stride = gl_NumWorkGroups.x * WG;
    for (uint s = gl_GlobalInvocationID.x; s < pc.num_splits; s += stride) {
        const uint r = s * RECORD_WORDS, t = pc.table_first + s * SPLIT_WORDS;
        const int feature = records[r + R_CATEGORICAL] == 2u ? -1 : int(records[r + R_FEATURE]);
        const bool cat = feature >= 0 && records[r + R_CATEGORICAL] != 0u;
        level[t + S_BIN] = feature < 0 ? 0xffffffffu : records[r + R_BIN];
        level[t + S_DEFAULT_LEFT] = (feature < 0 || records[r + R_DEFAULT_LEFT] != 0u ? 1u : 0u) |
                                    (cat ? S_BY_SET : 0u);
        level[t + S_COLUMN_WORD] = feature < 0 ? 0u : uint(feature) * pc.column_words;
        for (uint w = 0u; w < 8u; w++)
            level[t + S_LEFT_SET + w] = cat ? records[r + R_LEFT_SET + w] : 0u;
    }
}
