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
    const uint word = split_word(s, S_COLUMN_WORD) + code_word(row, pc.code_bits);
    const uint w = bins_at(window_of(word, LIST_WINDOW_SHIFT), window_index(word, LIST_WINDOW_SHIFT));
    const uint b = code_at(w, row, pc.code_bits);
    const uint how = split_word(s, S_DEFAULT_LEFT);
    if (b == 0u) return how & 1u;
    if ((how & S_BY_WIDE_SET) != 0u)
        return (level[split_word(s, S_LEFT_SET) + (b >> 5)] >> (b & 31u)) & 1u;
    if ((how & S_BY_SET) == 0u) return b <= split_word(s, S_BIN) ? 1u : 0u;
    return (split_word(s, S_LEFT_SET + (b >> 5)) >> (b & 31u)) & 1u;
}
