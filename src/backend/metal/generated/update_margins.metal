#pragma clang diagnostic ignored "-Wmissing-prototypes"

#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

template<typename T>
[[clang::optnone]] T spvFAdd(T l, T r)
{
    return fma(T(1), l, r);
}

struct Rows0
{
    uint rows0[1];
};

struct Rows1
{
    uint rows1[1];
};

struct Rows2
{
    uint rows2[1];
};

struct Rows3
{
    uint rows3[1];
};

struct Rows4
{
    uint rows4[1];
};

struct Rows5
{
    uint rows5[1];
};

struct Rows6
{
    uint rows6[1];
};

struct Rows7
{
    uint rows7[1];
};

struct Margins0
{
    float margins0[1];
};

struct Margins1
{
    float margins1[1];
};

struct Margins2
{
    float margins2[1];
};

struct Margins3
{
    float margins3[1];
};

struct Margins4
{
    float margins4[1];
};

struct Margins5
{
    float margins5[1];
};

struct Margins6
{
    float margins6[1];
};

struct Margins7
{
    float margins7[1];
};

constant uint WG_tmp [[function_constant(0)]];
constant uint WG = is_function_constant_defined(WG_tmp) ? WG_tmp : 256u;

struct Push
{
    uint row_begin;
    uint row_count;
    uint num_outputs;
    uint output_index;
    float value;
    uint margin_shift;
};

constant uint WINDOW_SHIFT_tmp [[function_constant(2)]];
constant uint WINDOW_SHIFT = is_function_constant_defined(WINDOW_SHIFT_tmp) ? WINDOW_SHIFT_tmp : 30u;
constant uint LIST_WINDOW_SHIFT = (WINDOW_SHIFT - 2u);
constant uint _339_tmp [[function_constant(0)]];
constant uint _339 = is_function_constant_defined(_339_tmp) ? _339_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_339, 1u, 1u);
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
uint rows_at(thread const uint& w, thread const uint& j, const device Rows0& v_60, const device Rows1& v_71, const device Rows2& v_79, const device Rows3& v_87, const device Rows4& v_95, const device Rows5& v_103, const device Rows6& v_111, const device Rows7& v_119)
{
    switch (w)
    {
        case 0u:
        {
            return v_60.rows0[j];
        }
        case 1u:
        {
            return v_71.rows1[j];
        }
        case 2u:
        {
            return v_79.rows2[j];
        }
        case 3u:
        {
            return v_87.rows3[j];
        }
        case 4u:
        {
            return v_95.rows4[j];
        }
        case 5u:
        {
            return v_103.rows5[j];
        }
        case 6u:
        {
            return v_111.rows6[j];
        }
        default:
        {
            return v_119.rows7[j];
        }
    }
}

static inline __attribute__((always_inline))
float margins_at(thread const uint& w, thread const uint& j, device Margins0& v_139, device Margins1& v_148, device Margins2& v_156, device Margins3& v_164, device Margins4& v_172, device Margins5& v_180, device Margins6& v_188, device Margins7& v_196)
{
    switch (w)
    {
        case 0u:
        {
            return v_139.margins0[j];
        }
        case 1u:
        {
            return v_148.margins1[j];
        }
        case 2u:
        {
            return v_156.margins2[j];
        }
        case 3u:
        {
            return v_164.margins3[j];
        }
        case 4u:
        {
            return v_172.margins4[j];
        }
        case 5u:
        {
            return v_180.margins5[j];
        }
        case 6u:
        {
            return v_188.margins6[j];
        }
        default:
        {
            return v_196.margins7[j];
        }
    }
}

static inline __attribute__((always_inline))
void margins_put(thread const uint& w, thread const uint& j, thread const float& v, device Margins0& v_139, device Margins1& v_148, device Margins2& v_156, device Margins3& v_164, device Margins4& v_172, device Margins5& v_180, device Margins6& v_188, device Margins7& v_196)
{
    switch (w)
    {
        case 0u:
        {
            v_139.margins0[j] = v;
            break;
        }
        case 1u:
        {
            v_148.margins1[j] = v;
            break;
        }
        case 2u:
        {
            v_156.margins2[j] = v;
            break;
        }
        case 3u:
        {
            v_164.margins3[j] = v;
            break;
        }
        case 4u:
        {
            v_172.margins4[j] = v;
            break;
        }
        case 5u:
        {
            v_180.margins5[j] = v;
            break;
        }
        case 6u:
        {
            v_188.margins6[j] = v;
            break;
        }
        default:
        {
            v_196.margins7[j] = v;
            break;
        }
    }
}

kernel void update_margins(constant Push& pc [[buffer(0)]], const device Rows0& v_60 [[buffer(1)]], const device Rows1& v_71 [[buffer(2)]], const device Rows2& v_79 [[buffer(3)]], const device Rows3& v_87 [[buffer(4)]], const device Rows4& v_95 [[buffer(5)]], const device Rows5& v_103 [[buffer(6)]], const device Rows6& v_111 [[buffer(7)]], const device Rows7& v_119 [[buffer(8)]], device Margins0& v_139 [[buffer(9)]], device Margins1& v_148 [[buffer(10)]], device Margins2& v_156 [[buffer(11)]], device Margins3& v_164 [[buffer(12)]], device Margins4& v_172 [[buffer(13)]], device Margins5& v_180 [[buffer(14)]], device Margins6& v_188 [[buffer(15)]], device Margins7& v_196 [[buffer(16)]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]])
{
    uint _255 = gl_NumWorkGroups.x * WG;
    for (uint stride = _255, i = gl_GlobalInvocationID.x; i < pc.row_count; i += stride)
    {
        uint pos = pc.row_begin + i;
        uint param = pos;
        uint param_1 = LIST_WINDOW_SHIFT;
        uint param_2 = pos;
        uint param_3 = LIST_WINDOW_SHIFT;
        uint param_4 = window_of(param, param_1);
        uint param_5 = window_index(param_2, param_3);
        uint row = rows_at(param_4, param_5, v_60, v_71, v_79, v_87, v_95, v_103, v_111, v_119);
        uint param_6 = row;
        uint param_7 = pc.margin_shift;
        uint w = window_of(param_6, param_7);
        uint param_8 = row;
        uint param_9 = pc.margin_shift;
        uint m = (window_index(param_8, param_9) * pc.num_outputs) + pc.output_index;
        uint param_10 = w;
        uint param_11 = m;
        float v = spvFAdd(margins_at(param_10, param_11, v_139, v_148, v_156, v_164, v_172, v_180, v_188, v_196), pc.value);
        uint param_12 = w;
        uint param_13 = m;
        float param_14 = v;
        margins_put(param_12, param_13, param_14, v_139, v_148, v_156, v_164, v_172, v_180, v_188, v_196);
    }
}

