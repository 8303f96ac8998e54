#pragma clang diagnostic ignored "-Wmissing-prototypes"

#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

struct Bins0
{
    uint bins0[1];
};

struct Bins1
{
    uint bins1[1];
};

struct Bins2
{
    uint bins2[1];
};

struct Bins3
{
    uint bins3[1];
};

struct Bins4
{
    uint bins4[1];
};

struct Bins5
{
    uint bins5[1];
};

struct Bins6
{
    uint bins6[1];
};

struct Bins7
{
    uint bins7[1];
};

struct Columns0
{
    uint columns0[1];
};

struct Columns1
{
    uint columns1[1];
};

struct Columns2
{
    uint columns2[1];
};

struct Columns3
{
    uint columns3[1];
};

struct Columns4
{
    uint columns4[1];
};

struct Columns5
{
    uint columns5[1];
};

struct Columns6
{
    uint columns6[1];
};

struct Columns7
{
    uint columns7[1];
};

constant uint WG_tmp [[function_constant(0)]];
constant uint WG = is_function_constant_defined(WG_tmp) ? WG_tmp : 256u;

struct Push
{
    uint num_rows;
    uint row_words;
    uint num_features;
    uint column_words;
    uint code_bits;
};

constant uint WINDOW_SHIFT_tmp [[function_constant(2)]];
constant uint WINDOW_SHIFT = is_function_constant_defined(WINDOW_SHIFT_tmp) ? WINDOW_SHIFT_tmp : 30u;
constant uint LIST_WINDOW_SHIFT = (WINDOW_SHIFT - 2u);
constant uint _388_tmp [[function_constant(0)]];
constant uint _388 = is_function_constant_defined(_388_tmp) ? _388_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_388, 1u, 1u);
constant uint GRAD_WINDOW_SHIFT = (WINDOW_SHIFT - 4u);

static inline __attribute__((always_inline))
uint code_word(thread const uint& i, thread const uint& code_bits)
{
    uint _41;
    if (code_bits == 16u)
    {
        _41 = i >> uint(1);
    }
    else
    {
        _41 = i >> uint(2);
    }
    return _41;
}

static inline __attribute__((always_inline))
uint window_of(thread const uint& i, thread const uint& shift)
{
    return i >> shift;
}

static inline __attribute__((always_inline))
uint window_index(thread const uint& i, thread const uint& shift)
{
    return i & ((1u << shift) - 1u);
}

static inline __attribute__((always_inline))
uint bins_at(thread const uint& w, thread const uint& j, const device Bins0& v_106, const device Bins1& v_116, const device Bins2& v_124, const device Bins3& v_132, const device Bins4& v_140, const device Bins5& v_148, const device Bins6& v_156, const device Bins7& v_164)
{
    switch (w)
    {
        case 0u:
        {
            return v_106.bins0[j];
        }
        case 1u:
        {
            return v_116.bins1[j];
        }
        case 2u:
        {
            return v_124.bins2[j];
        }
        case 3u:
        {
            return v_132.bins3[j];
        }
        case 4u:
        {
            return v_140.bins4[j];
        }
        case 5u:
        {
            return v_148.bins5[j];
        }
        case 6u:
        {
            return v_156.bins6[j];
        }
        default:
        {
            return v_164.bins7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint code_at(thread const uint& w, thread const uint& i, thread const uint& code_bits)
{
    uint _57;
    if (code_bits == 16u)
    {
        _57 = (w >> ((i & 1u) * 16u)) & 65535u;
    }
    else
    {
        _57 = (w >> ((i & 3u) * 8u)) & 255u;
    }
    return _57;
}

static inline __attribute__((always_inline))
void columns_put(thread const uint& w, thread const uint& j, thread const uint& v, device Columns0& v_184, device Columns1& v_192, device Columns2& v_200, device Columns3& v_208, device Columns4& v_216, device Columns5& v_224, device Columns6& v_232, device Columns7& v_240)
{
    switch (w)
    {
        case 0u:
        {
            v_184.columns0[j] = v;
            break;
        }
        case 1u:
        {
            v_192.columns1[j] = v;
            break;
        }
        case 2u:
        {
            v_200.columns2[j] = v;
            break;
        }
        case 3u:
        {
            v_208.columns3[j] = v;
            break;
        }
        case 4u:
        {
            v_216.columns4[j] = v;
            break;
        }
        case 5u:
        {
            v_224.columns5[j] = v;
            break;
        }
        case 6u:
        {
            v_232.columns6[j] = v;
            break;
        }
        default:
        {
            v_240.columns7[j] = v;
            break;
        }
    }
}

kernel void bins_columns(constant Push& pc [[buffer(0)]], const device Bins0& v_106 [[buffer(1)]], const device Bins1& v_116 [[buffer(2)]], const device Bins2& v_124 [[buffer(3)]], const device Bins3& v_132 [[buffer(4)]], const device Bins4& v_140 [[buffer(5)]], const device Bins5& v_148 [[buffer(6)]], const device Bins6& v_156 [[buffer(7)]], const device Bins7& v_164 [[buffer(8)]], device Columns0& v_184 [[buffer(9)]], device Columns1& v_192 [[buffer(10)]], device Columns2& v_200 [[buffer(11)]], device Columns3& v_208 [[buffer(12)]], device Columns4& v_216 [[buffer(13)]], device Columns5& v_224 [[buffer(14)]], device Columns6& v_232 [[buffer(15)]], device Columns7& v_240 [[buffer(16)]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]])
{
    uint _255 = gl_NumWorkGroups.x * WG;
    uint total = pc.num_features * pc.column_words;
    for (uint stride = _255, e = gl_GlobalInvocationID.x; e < total; e += stride)
    {
        uint f = e / pc.column_words;
        uint j = e - (f * pc.column_words);
        uint per_word = 32u / pc.code_bits;
        uint v = 0u;
        for (uint q = 0u; q < per_word; q++)
        {
            uint r = (j * per_word) + q;
            if (r >= pc.num_rows)
            {
                break;
            }
            uint param = f;
            uint param_1 = pc.code_bits;
            uint word = (r * pc.row_words) + code_word(param, param_1);
            uint param_2 = word;
            uint param_3 = LIST_WINDOW_SHIFT;
            uint param_4 = word;
            uint param_5 = LIST_WINDOW_SHIFT;
            uint param_6 = window_of(param_2, param_3);
            uint param_7 = window_index(param_4, param_5);
            uint w = bins_at(param_6, param_7, v_106, v_116, v_124, v_132, v_140, v_148, v_156, v_164);
            uint param_8 = w;
            uint param_9 = f;
            uint param_10 = pc.code_bits;
            v |= (code_at(param_8, param_9, param_10) << (q * pc.code_bits));
        }
        uint param_11 = e;
        uint param_12 = LIST_WINDOW_SHIFT;
        uint param_13 = e;
        uint param_14 = LIST_WINDOW_SHIFT;
        uint param_15 = window_of(param_11, param_12);
        uint param_16 = window_index(param_13, param_14);
        uint param_17 = v;
        columns_put(param_15, param_16, param_17, v_184, v_192, v_200, v_208, v_216, v_224, v_232, v_240);
        if ((total - e) <= stride)
        {
            break;
        }
    }
}

