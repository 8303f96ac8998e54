// partition.glsl -- the direction of a row, for the kernels that read the
// split feature's column (declared by the including kernel as `column`).
#include "partition_push.glsl"

// 1 when the row goes left.
uint goes_left(uint row)
{
    const uint b = (column[row >> 2] >> ((row & 3u) * 8u)) & 0xffu;
    return b == 0u ? pc.default_left : (b <= pc.bin ? 1u : 0u);
}
