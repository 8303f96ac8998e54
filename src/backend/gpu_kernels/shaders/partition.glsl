// partition.glsl -- for the kernels that walk tiles: the split a tile
// belongs to and the direction of a row. The including kernel declares
// `level` (partition_push.glsl) and the bin columns as windows of words
// named `bins` (window.glsl).
#include "partition_push.glsl"

// The split whose tiles include tile t: the last split whose first tile
// is t or before (splits without rows have no tiles and are passed over).
uint split_of_tile(uint t)
{
    uint lo = 0u, hi = pc.num_splits - 1u;
    while (lo < hi) {
        const uint mid = (lo + hi + 1u) >> 1;
        if (split_word(mid, S_TILE_FIRST) <= t) lo = mid;
        else hi = mid - 1u;
    }
    return lo;
}

// 1 when `row` goes left at split s.
uint goes_left(uint s, uint row)
{
    const uint word = split_word(s, S_COLUMN_WORD) + (row >> 2);
    const uint w = bins_at(window_of(word, LIST_WINDOW_SHIFT), window_index(word, LIST_WINDOW_SHIFT));
    const uint b = (w >> ((row & 3u) * 8u)) & 0xffu;
    return b == 0u ? split_word(s, S_DEFAULT_LEFT)
                   : (split_word(s, S_LEFT_SET + (b >> 5)) >> (b & 31u)) & 1u;
}
