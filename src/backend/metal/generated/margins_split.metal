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

constant uint WG_tmp [[function_constant(0)]];
constant uint WG = is_function_constant_defined(WG_tmp) ? WG_tmp : 256u;

struct Push
{
    uint row_begin;
    uint row_count;
    uint num_outputs;
    uint output_index;
    float value_left;
    float value_right;
    uint margin_shift;
    uint column_word;
    uint default_left;
    uint left_set[8];
};

constant uint WINDOW_SHIFT_tmp [[function_constant(2)]];
constant uint WINDOW_SHIFT = is_function_constant_defined(WINDOW_SHIFT_tmp) ? WINDOW_SHIFT_tmp : 30u;
constant uint LIST_WINDOW_SHIFT = (WINDOW_SHIFT - 2u);
constant uint _480_tmp [[function_constant(0)]];
constant uint _480 = is_function_constant_defined(_480_tmp) ? _480_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_480, 1u, 1u);
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
uint rows_at(thread const uint& w, thread const uint& j, const device Rows0& v_64, const device Rows1& v_75, const device Rows2& v_83, const device Rows3& v_91, const device Rows4& v_99, const device Rows5& v_107, const device Rows6& v_115, const device Rows7& v_123)
{
    switch (w)
    {
        case 0u:
        {
            return v_64.rows0[j];
        }
        case 1u:
        {
            return v_75.rows1[j];
        }
        case 2u:
        {
            return v_83.rows2[j];
        }
        case 3u:
        {
            return v_91.rows3[j];
        }
        case 4u:
        {
            return v_99.rows4[j];
        }
        case 5u:
        {
            return v_107.rows5[j];
        }
        case 6u:
        {
            return v_115.rows6[j];
        }
        default:
        {
            return v_123.rows7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint bins_at(thread const uint& w, thread const uint& j, const device Bins0& v_263, const device Bins1& v_271, const device Bins2& v_279, const device Bins3& v_287, const device Bins4& v_295, const device Bins5& v_303, const device Bins6& v_311, const device Bins7& v_319)
{
    switch (w)
    {
        case 0u:
        {
            return v_263.bins0[j];
        }
        case 1u:
        {
            return v_271.bins1[j];
        }
        case 2u:
        {
            return v_279.bins2[j];
        }
        case 3u:
        {
            return v_287.bins3[j];
        }
        case 4u:
        {
            return v_295.bins4[j];
        }
        case 5u:
        {
            return v_303.bins5[j];
        }
        case 6u:
        {
            return v_311.bins6[j];
        }
        default:
        {
            return v_319.bins7[j];
        }
    }
}

static inline __attribute__((always_inline))
float margins_at(thread const uint& w, thread const uint& j, device Margins0& v_143, device Margins1& v_152, device Margins2& v_160, device Margins3& v_168, device Margins4& v_176, device Margins5& v_184, device Margins6& v_192, device Margins7& v_200)
{
    switch (w)
    {
        case 0u:
        {
            return v_143.margins0[j];
        }
        case 1u:
        {
            return v_152.margins1[j];
        }
        case 2u:
        {
            return v_160.margins2[j];
        }
        case 3u:
        {
            return v_168.margins3[j];
        }
        case 4u:
        {
            return v_176.margins4[j];
        }
        case 5u:
        {
            return v_184.margins5[j];
        }
        case 6u:
        {
            return v_192.margins6[j];
        }
        default:
        {
            return v_200.margins7[j];
        }
    }
}

static inline __attribute__((always_inline))
void margins_put(thread const uint& w, thread const uint& j, thread const float& v, device Margins0& v_143, device Margins1& v_152, device Margins2& v_160, device Margins3& v_168, device Margins4& v_176, device Margins5& v_184, device Margins6& v_192, device Margins7& v_200)
{
    switch (w)
    {
        case 0u:
        {
            v_143.margins0[j] = v;
            break;
        }
        case 1u:
        {
            v_152.margins1[j] = v;
            break;
        }
        case 2u:
        {
            v_160.margins2[j] = v;
            break;
        }
        case 3u:
        {
            v_168.margins3[j] = v;
            break;
        }
        case 4u:
        {
            v_176.margins4[j] = v;
            break;
        }
        case 5u:
        {
            v_184.margins5[j] = v;
            break;
        }
        case 6u:
        {
            v_192.margins6[j] = v;
            break;
        }
        default:
        {
            v_200.margins7[j] = v;
            break;
        }
    }
}

kernel void margins_split(constant Push& pc [[buffer(0)]], const device Rows0& v_64 [[buffer(1)]], const device Rows1& v_75 [[buffer(2)]], const device Rows2& v_83 [[buffer(3)]], const device Rows3& v_91 [[buffer(4)]], const device Rows4& v_99 [[buffer(5)]], const device Rows5& v_107 [[buffer(6)]], const device Rows6& v_115 [[buffer(7)]], const device Rows7& v_123 [[buffer(8)]], device Margins0& v_143 [[buffer(9)]], device Margins1& v_152 [[buffer(10)]], device Margins2& v_160 [[buffer(11)]], device Margins3& v_168 [[buffer(12)]], device Margins4& v_176 [[buffer(13)]], device Margins5& v_184 [[buffer(14)]], device Margins6& v_192 [[buffer(15)]], device Margins7& v_200 [[buffer(16)]], const device Bins0& v_263 [[buffer(17)]], const device Bins1& v_271 [[buffer(18)]], const device Bins2& v_279 [[buffer(19)]], const device Bins3& v_287 [[buffer(20)]], const device Bins4& v_295 [[buffer(21)]], const device Bins5& v_303 [[buffer(22)]], const device Bins6& v_311 [[buffer(23)]], const device Bins7& v_319 [[buffer(24)]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]])
{
    uint _335 = gl_NumWorkGroups.x * WG;
    bool _408;
    float _458;
    for (uint stride = _335, i = gl_GlobalInvocationID.x; i < pc.row_count; i += stride)
    {
        uint pos = pc.row_begin + i;
        uint param = pos;
        uint param_1 = LIST_WINDOW_SHIFT;
        uint param_2 = pos;
        uint param_3 = LIST_WINDOW_SHIFT;
        uint param_4 = window_of(param, param_1);
        uint param_5 = window_index(param_2, param_3);
        uint row = rows_at(param_4, param_5, v_64, v_75, v_83, v_91, v_99, v_107, v_115, v_123);
        uint word = pc.column_word + (row >> uint(2));
        uint param_6 = word;
        uint param_7 = LIST_WINDOW_SHIFT;
        uint param_8 = word;
        uint param_9 = LIST_WINDOW_SHIFT;
        uint param_10 = window_of(param_6, param_7);
        uint param_11 = window_index(param_8, param_9);
        uint b = (bins_at(param_10, param_11, v_263, v_271, v_279, v_287, v_295, v_303, v_311, v_319) >> ((row & 3u) * 8u)) & 255u;
        if (b == 0u)
        {
            _408 = pc.default_left != 0u;
        }
        else
        {
            _408 = ((pc.left_set[b >> uint(5)] >> (b & 31u)) & 1u) != 0u;
        }
        bool left = _408;
        uint param_12 = row;
        uint param_13 = pc.margin_shift;
        uint w = window_of(param_12, param_13);
        uint param_14 = row;
        uint param_15 = pc.margin_shift;
        uint m = (window_index(param_14, param_15) * pc.num_outputs) + pc.output_index;
        uint param_16 = w;
        uint param_17 = m;
        if (left)
        {
            _458 = pc.value_left;
        }
        else
        {
            _458 = pc.value_right;
        }
        float v = spvFAdd(margins_at(param_16, param_17, v_143, v_152, v_160, v_168, v_176, v_184, v_192, v_200), _458);
        uint param_18 = w;
        uint param_19 = m;
        float param_20 = v;
        margins_put(param_18, param_19, param_20, v_143, v_152, v_160, v_168, v_176, v_184, v_192, v_200);
    }
}

