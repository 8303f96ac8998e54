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
};

constant uint WINDOW_SHIFT_tmp [[function_constant(2)]];
constant uint WINDOW_SHIFT = is_function_constant_defined(WINDOW_SHIFT_tmp) ? WINDOW_SHIFT_tmp : 30u;
constant uint LIST_WINDOW_SHIFT = (WINDOW_SHIFT - 2u);
constant uint _327_tmp [[function_constant(0)]];
constant uint _327 = is_function_constant_defined(_327_tmp) ? _327_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_327, 1u, 1u);
constant uint GRAD_WINDOW_SHIFT = (WINDOW_SHIFT - 4u);

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
uint bins_at(thread const uint& w, thread const uint& j, const device Bins0& v_53, const device Bins1& v_64, const device Bins2& v_72, const device Bins3& v_80, const device Bins4& v_88, const device Bins5& v_96, const device Bins6& v_104, const device Bins7& v_112)
{
    switch (w)
    {
        case 0u:
        {
            return v_53.bins0[j];
        }
        case 1u:
        {
            return v_64.bins1[j];
        }
        case 2u:
        {
            return v_72.bins2[j];
        }
        case 3u:
        {
            return v_80.bins3[j];
        }
        case 4u:
        {
            return v_88.bins4[j];
        }
        case 5u:
        {
            return v_96.bins5[j];
        }
        case 6u:
        {
            return v_104.bins6[j];
        }
        default:
        {
            return v_112.bins7[j];
        }
    }
}

static inline __attribute__((always_inline))
void columns_put(thread const uint& w, thread const uint& j, thread const uint& v, device Columns0& v_132, device Columns1& v_140, device Columns2& v_148, device Columns3& v_156, device Columns4& v_164, device Columns5& v_172, device Columns6& v_180, device Columns7& v_188)
{
    switch (w)
    {
        case 0u:
        {
            v_132.columns0[j] = v;
            break;
        }
        case 1u:
        {
            v_140.columns1[j] = v;
            break;
        }
        case 2u:
        {
            v_148.columns2[j] = v;
            break;
        }
        case 3u:
        {
            v_156.columns3[j] = v;
            break;
        }
        case 4u:
        {
            v_164.columns4[j] = v;
            break;
        }
        case 5u:
        {
            v_172.columns5[j] = v;
            break;
        }
        case 6u:
        {
            v_180.columns6[j] = v;
            break;
        }
        default:
        {
            v_188.columns7[j] = v;
            break;
        }
    }
}

kernel void bins_columns(constant Push& pc [[buffer(0)]], const device Bins0& v_53 [[buffer(1)]], const device Bins1& v_64 [[buffer(2)]], const device Bins2& v_72 [[buffer(3)]], const device Bins3& v_80 [[buffer(4)]], const device Bins4& v_88 [[buffer(5)]], const device Bins5& v_96 [[buffer(6)]], const device Bins6& v_104 [[buffer(7)]], const device Bins7& v_112 [[buffer(8)]], device Columns0& v_132 [[buffer(9)]], device Columns1& v_140 [[buffer(10)]], device Columns2& v_148 [[buffer(11)]], device Columns3& v_156 [[buffer(12)]], device Columns4& v_164 [[buffer(13)]], device Columns5& v_172 [[buffer(14)]], device Columns6& v_180 [[buffer(15)]], device Columns7& v_188 [[buffer(16)]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]])
{
    uint _203 = gl_NumWorkGroups.x * WG;
    uint total = pc.num_features * pc.column_words;
    for (uint stride = _203, e = gl_GlobalInvocationID.x; e < total; e += stride)
    {
        uint f = e / pc.column_words;
        uint j = e - (f * pc.column_words);
        uint v = 0u;
        for (uint q = 0u; q < 4u; q++)
        {
            uint r = (j * 4u) + q;
            if (r >= pc.num_rows)
            {
                break;
            }
            uint word = (r * pc.row_words) + (f >> uint(2));
            uint param = word;
            uint param_1 = LIST_WINDOW_SHIFT;
            uint param_2 = word;
            uint param_3 = LIST_WINDOW_SHIFT;
            uint param_4 = window_of(param, param_1);
            uint param_5 = window_index(param_2, param_3);
            uint w = bins_at(param_4, param_5, v_53, v_64, v_72, v_80, v_88, v_96, v_104, v_112);
            v |= (((w >> ((f & 3u) * 8u)) & 255u) << (q * 8u));
        }
        uint param_6 = e;
        uint param_7 = LIST_WINDOW_SHIFT;
        uint param_8 = e;
        uint param_9 = LIST_WINDOW_SHIFT;
        uint param_10 = window_of(param_6, param_7);
        uint param_11 = window_index(param_8, param_9);
        uint param_12 = v;
        columns_put(param_10, param_11, param_12, v_132, v_140, v_148, v_156, v_164, v_172, v_180, v_188);
        if ((total - e) <= stride)
        {
            break;
        }
    }
}

