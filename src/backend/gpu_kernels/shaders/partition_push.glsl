// partition_push.glsl -- what the three partition kernels share: the push
// constants of a level and its split table.
//
// One dispatch of each kernel covers every split of the level. Split s's
// rows are cut into tiles of TILE_ROWS positions, PART_ITEMS consecutive
// positions an invocation (fewer, larger tiles keep the scan of a large
// node short); its tiles are entries
// tile_first .. tile_first + num_tiles - 1 of the tile table, and the
// tiles of all splits are numbered 0 .. pc.num_tiles - 1 in split order.
const uint PART_ITEMS = 8u; // GPL_PART_ITEMS of gpu_kernel_abi.h
const uint TILE_ROWS = WG * PART_ITEMS;

layout(push_constant) uniform Push {
    uint num_splits;
    uint num_tiles;   // of all splits
    uint table_first; // word of the split table in `level`
    uint code_bits;   // bits of a bin code: 8, or 16
} pc;

// The level buffer (bound by each partition kernel as `level`): the child
// row counts, two words a split (written by partition_scan), then the
// split table, GPL_SPLIT_WORDS words a split (written by the host).
const uint GPL_SPLIT_WORDS = 16u;
const uint S_ROW_BEGIN = 0u;
const uint S_ROW_COUNT = 1u;
const uint S_BIN = 2u;          // a numeric split's bin: value bins 1..bin go left
const uint S_DEFAULT_LEFT = 3u; // bit 0: missing values (bin 0) go left; bit 1: a split by
                                // S_LEFT_SET (categorical), else by S_BIN
const uint S_TILE_FIRST = 4u;
const uint S_NUM_TILES = 5u;
const uint S_COLUMN_WORD = 6u;  // first word of the split feature's column in `bins`
const uint S_FROM = 7u;         // partition_place: the rows are in 0 the row list, 1 the scratch list
const uint S_LEFT_SET = 8u;     // 8 words: value bin b goes left iff bit b is set
const uint S_BY_SET = 2u;       // the bit of S_DEFAULT_LEFT
// A bit of S_DEFAULT_LEFT: the split's set is too wide for S_LEFT_SET (a
// feature of more than 255 categories); its words are in `level` from
// word S_LEFT_SET's value on.
const uint S_BY_WIDE_SET = 4u;

uint split_word(uint s, uint field) { return level[pc.table_first + s * GPL_SPLIT_WORDS + field]; }
