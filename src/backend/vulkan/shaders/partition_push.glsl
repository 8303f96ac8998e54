// partition_push.glsl -- the push constants of the three partition
// kernels: one split. A node's rows are cut into tiles of WG positions;
// tile t of the split is entry tile_first + t of the tile table.
layout(push_constant) uniform Push {
    uint row_begin;
    uint row_count;
    uint bin;          // value bins 1..bin go left
    uint default_left; // where missing values (bin 0) go
    uint tile_first;
    uint num_tiles;
    uint split;        // index of the split in the level
} pc;
