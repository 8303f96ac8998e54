// common.glsl -- what every kernel shares: the kernel ABI version, the
// workgroup size (a specialization constant, so no size is baked in) and
// exact 64-bit integer sums carried in pairs of 32-bit words.
//
// Portability rules these kernels keep (they are also translated to Metal):
// 32-bit atomics only, no subgroup operations (their width differs between
// devices), shared memory within 32 KiB, grid-stride loops.

// Bump together with GPL_VK_KERNEL_ABI in vk_kernels.h whenever a kernel's
// bindings or push constants change.
#define GPL_KERNEL_ABI 11

layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint WG = 256;

// A 64-bit two's complement value as (lo, hi) words: a + b with the carry
// of the low word moved into the high word. Exact modulo 2^64, which is
// exact for sums that fit in int64 (quantize.h guarantees they do).
uvec2 add64(uvec2 a, uvec2 b)
{
    uint lo = a.x + b.x;
    uint carry = lo < a.x ? 1u : 0u;
    return uvec2(lo, a.y + b.y + carry);
}

// Bin codes packed in words, code_bits (8 or 16) each, code i of a run
// in bits (i % codes a word) x code_bits of word i / codes a word.
uint code_word(uint i, uint code_bits) { return code_bits == 16u ? i >> 1 : i >> 2; }

uint code_at(uint w, uint i, uint code_bits)
{
    return code_bits == 16u ? (w >> ((i & 1u) * 16u)) & 0xffffu : (w >> ((i & 3u) * 8u)) & 0xffu;
}

uvec2 sub64(uvec2 a, uvec2 b)
{
    uint borrow = a.x < b.x ? 1u : 0u;
    return uvec2(a.x - b.x, a.y - b.y - borrow);
}
