#version 450
// partition_place.comp -- the partition of a level in one pass: each
// workgroup decides the rows of one tile of a split, reserves their places
// in both children with one atomic add each on the split's child counts
// (zero before the dispatch), and writes them to the other row list: left
// rows from the start of the split's range, right rows from its end
// backwards. The order of rows inside a child is kept only within a tile:
// histograms are integer sums and a row's margin gets one addition, so
// only the set of rows matters. (The three-stage stable partition, partition_count/scan/
// scatter, reads every row and its bin twice; the Metal host uses it.)
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

// Binding 1 (the tile counts of the three-stage partition) is not read:
// the kernel takes partition_scatter's bindings.
layout(std430, binding = 2) buffer Level { uint level[]; };
// The bin columns (bindings 3..10), the row list (11..18) and the scratch
// list (19..26) in windows (window.glsl). The two lists take turns: a
// split's rows go from the list they are in (S_FROM) to the other one, so
// nothing is copied back.
#include "window.glsl"
WINDOW_BUFFERS(Bins, bins, uint, 3, readonly)
WINDOW_BUFFERS(Rows, rows, uint, 3 + GPL_WINDOWS, )
WINDOW_BUFFERS(Scratch, scratch, uint, 3 + 2 * GPL_WINDOWS, )
WINDOW_LOAD(bins, uint)
WINDOW_LOAD(rows, uint)
WINDOW_STORE(rows, uint)
WINDOW_LOAD(scratch, uint)
WINDOW_STORE(scratch, uint)

#include "partition.glsl"

// Left and right counts in one scan: a tile has at most WG * PART_ITEMS
// rows, below 2^16 for any workgroup size a device offers.
shared uint s_scan[WG];
shared uint s_left_base, s_right_base, s_left_total;
// The tile's rows, left ones first, in tile order: the stores to the
// other list then go coalesced.
shared uint s_rows[TILE_ROWS];

void main()
{
    const uint lid = gl_LocalInvocationID.x;
    for (uint t = gl_WorkGroupID.x; t < pc.num_tiles; t += gl_NumWorkGroups.x) {
        const uint s = split_of_tile(t);
        const uint rows = split_word(s, S_ROW_COUNT), begin = split_word(s, S_ROW_BEGIN);
        const bool from_scratch = split_word(s, S_FROM) != 0u;
        // An invocation's items are PART_ITEMS consecutive positions, so
        // that the scan in invocation order keeps the tile's order: a
        // child's rows stay nearly in row order, which the histograms'
        // loads of neighbouring rows share sectors by.
        const uint first = (t - split_word(s, S_TILE_FIRST)) * TILE_ROWS;
        uint row[PART_ITEMS];
        uint left_mask = 0u, left = 0u, valid = 0u;
        for (uint k = 0u; k < PART_ITEMS; k++) {
            const uint i = first + lid * PART_ITEMS + k, pos = begin + i;
            row[k] = 0u;
            if (i < rows) {
                const uint w = window_of(pos, LIST_WINDOW_SHIFT);
                const uint j = window_index(pos, LIST_WINDOW_SHIFT);
                row[k] = from_scratch ? scratch_at(w, j) : rows_at(w, j);
                valid |= 1u << k;
                if (goes_left(s, row[k]) != 0u) {
                    left_mask |= 1u << k;
                    left++;
                }
            }
        }
        const uint mine = left | ((bitCount(valid) - left) << 16);
        s_scan[lid] = mine;
        barrier();
        for (uint off = 1u; off < WG; off <<= 1) {
            const uint v = lid >= off ? s_scan[lid - off] : 0u;
            barrier();
            s_scan[lid] += v;
            barrier();
        }
        const uint before = s_scan[lid] - mine;
        if (lid == 0u) {
            const uint total = s_scan[WG - 1u];
            s_left_total = total & 0xffffu;
            s_left_base = (total & 0xffffu) != 0u ? atomicAdd(level[2u * s], total & 0xffffu) : 0u;
            s_right_base = (total >> 16) != 0u ? atomicAdd(level[2u * s + 1u], total >> 16) : 0u;
        }
        barrier();
        const uint left_total = s_left_total;
        uint next_left = before & 0xffffu, next_right = left_total + (before >> 16);
        for (uint k = 0u; k < PART_ITEMS; k++) {
            if ((valid >> k & 1u) == 0u) continue;
            if ((left_mask >> k & 1u) != 0u) s_rows[next_left++] = row[k];
            else s_rows[next_right++] = row[k];
        }
        barrier();
        // Stored coalesced: left rows from the child's reserved place on,
        // right rows from the split's end backwards.
        const uint tile_rows = rows - first < TILE_ROWS ? rows - first : TILE_ROWS;
        for (uint k = 0u; k < PART_ITEMS; k++) {
            const uint j = k * WG + lid;
            if (j >= tile_rows) break;
            const uint dest = j < left_total ? s_left_base + j
                                             : rows - 1u - (s_right_base + (j - left_total));
            const uint to = begin + dest;
            const uint w = window_of(to, LIST_WINDOW_SHIFT), i = window_index(to, LIST_WINDOW_SHIFT);
            if (from_scratch) rows_put(w, i, s_rows[j]);
            else scratch_put(w, i, s_rows[j]);
        }
        barrier();
    }
}
