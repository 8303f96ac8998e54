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
    uint bin;
    uint code_bits;
    uint left_set[8];
};

constant uint WINDOW_SHIFT_tmp [[function_constant(2)]];
constant uint WINDOW_SHIFT = is_function_constant_defined(WINDOW_SHIFT_tmp) ? WINDOW_SHIFT_tmp : 30u;
constant uint LIST_WINDOW_SHIFT = (WINDOW_SHIFT - 2u);
constant uint _548_tmp [[function_constant(0)]];
constant uint _548 = is_function_constant_defined(_548_tmp) ? _548_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_548, 1u, 1u);
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
uint rows_at(thread const uint& w, thread const uint& j, const device Rows0& v_117, const device Rows1& v_127, const device Rows2& v_135, const device Rows3& v_143, const device Rows4& v_151, const device Rows5& v_159, const device Rows6& v_167, const device Rows7& v_175)
{
    switch (w)
    {
        case 0u:
        {
            return v_117.rows0[j];
        }
        case 1u:
        {
            return v_127.rows1[j];
        }
        case 2u:
        {
            return v_135.rows2[j];
        }
        case 3u:
        {
            return v_143.rows3[j];
        }
        case 4u:
        {
            return v_151.rows4[j];
        }
        case 5u:
        {
            return v_159.rows5[j];
        }
        case 6u:
        {
            return v_167.rows6[j];
        }
        default:
        {
            return v_175.rows7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint code_word(thread const uint& i, thread const uint& code_bits)
{
    uint _52;
    if (code_bits == 16u)
    {
        _52 = i >> uint(1);
    }
    else
    {
        _52 = i >> uint(2);
    }
    return _52;
}

static inline __attribute__((always_inline))
uint bins_at(thread const uint& w, thread const uint& j, const device Bins0& v_315, const device Bins1& v_323, const device Bins2& v_331, const device Bins3& v_339, const device Bins4& v_347, const device Bins5& v_355, const device Bins6& v_363, const device Bins7& v_371)
{
    switch (w)
    {
        case 0u:
        {
            return v_315.bins0[j];
        }
        case 1u:
        {
            return v_323.bins1[j];
        }
        case 2u:
        {
            return v_331.bins2[j];
        }
        case 3u:
        {
            return v_339.bins3[j];
        }
        case 4u:
        {
            return v_347.bins4[j];
        }
        case 5u:
        {
            return v_355.bins5[j];
        }
        case 6u:
        {
            return v_363.bins6[j];
        }
        default:
        {
            return v_371.bins7[j];
        }
    }
}

static inline __attribute__((always_inline))
uint code_at(thread const uint& w, thread const uint& i, thread const uint& code_bits)
{
    uint _68;
    if (code_bits == 16u)
    {
        _68 = (w >> ((i & 1u) * 16u)) & 65535u;
    }
    else
    {
        _68 = (w >> ((i & 3u) * 8u)) & 255u;
    }
    return _68;
}

static inline __attribute__((always_inline))
float margins_at(thread const uint& w, thread const uint& j, device Margins0& v_195, device Margins1& v_204, device Margins2& v_212, device Margins3& v_220, device Margins4& v_228, device Margins5& v_236, device Margins6& v_244, device Margins7& v_252)
{
    switch (w)
    {
        case 0u:
        {
            return v_195.margins0[j];
        }
        case 1u:
        {
            return v_204.margins1[j];
        }
        case 2u:
        {
            return v_212.margins2[j];
        }
        case 3u:
        {
            return v_220.margins3[j];
        }
        case 4u:
        {
            return v_228.margins4[j];
        }
        case 5u:
        {
            return v_236.margins5[j];
        }
        case 6u:
        {
            return v_244.margins6[j];
        }
        default:
        {
            return v_252.margins7[j];
        }
    }
}

static inline __attribute__((always_inline))
void margins_put(thread const uint& w, thread const uint& j, thread const float& v, device Margins0& v_195, device Margins1& v_204, device Margins2& v_212, device Margins3& v_220, device Margins4& v_228, device Margins5& v_236, device Margins6& v_244, device Margins7& v_252)
{
    switch (w)
    {
        case 0u:
        {
            v_195.margins0[j] = v;
            break;
        }
        case 1u:
        {
            v_204.margins1[j] = v;
            break;
        }
        case 2u:
        {
            v_212.margins2[j] = v;
            break;
        }
        case 3u:
        {
            v_220.margins3[j] = v;
            break;
        }
        case 4u:
        {
            v_228.margins4[j] = v;
            break;
        }
        case 5u:
        {
            v_236.margins5[j] = v;
            break;
        }
        case 6u:
        {
            v_244.margins6[j] = v;
            break;
        }
        default:
        {
            v_252.margins7[j] = v;
            break;
        }
    }
}

kernel void margins_split(constant Push& pc [[buffer(0)]], const device Rows0& v_117 [[buffer(1)]], const device Rows1& v_127 [[buffer(2)]], const device Rows2& v_135 [[buffer(3)]], const device Rows3& v_143 [[buffer(4)]], const device Rows4& v_151 [[buffer(5)]], const device Rows5& v_159 [[buffer(6)]], const device Rows6& v_167 [[buffer(7)]], const device Rows7& v_175 [[buffer(8)]], device Margins0& v_195 [[buffer(9)]], device Margins1& v_204 [[buffer(10)]], device Margins2& v_212 [[buffer(11)]], device Margins3& v_220 [[buffer(12)]], device Margins4& v_228 [[buffer(13)]], device Margins5& v_236 [[buffer(14)]], device Margins6& v_244 [[buffer(15)]], device Margins7& v_252 [[buffer(16)]], const device Bins0& v_315 [[buffer(17)]], const device Bins1& v_323 [[buffer(18)]], const device Bins2& v_331 [[buffer(19)]], const device Bins3& v_339 [[buffer(20)]], const device Bins4& v_347 [[buffer(21)]], const device Bins5& v_355 [[buffer(22)]], const device Bins6& v_363 [[buffer(23)]], const device Bins7& v_371 [[buffer(24)]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]])
{
    uint _387 = gl_NumWorkGroups.x * WG;
    bool _461;
    bool _474;
    float _526;
    for (uint stride = _387, i = gl_GlobalInvocationID.x; i < pc.row_count; i += stride)
    {
        uint pos = pc.row_begin + i;
        uint param = pos;
        uint param_1 = LIST_WINDOW_SHIFT;
        uint param_2 = pos;
        uint param_3 = LIST_WINDOW_SHIFT;
        uint param_4 = window_of(param, param_1);
        uint param_5 = window_index(param_2, param_3);
        uint row = rows_at(param_4, param_5, v_117, v_127, v_135, v_143, v_151, v_159, v_167, v_175);
        uint param_6 = row;
        uint param_7 = pc.code_bits;
        uint word = pc.column_word + code_word(param_6, param_7);
        uint param_8 = word;
        uint param_9 = LIST_WINDOW_SHIFT;
        uint param_10 = word;
        uint param_11 = LIST_WINDOW_SHIFT;
        uint param_12 = window_of(param_8, param_9);
        uint param_13 = window_index(param_10, param_11);
        uint param_14 = bins_at(param_12, param_13, v_315, v_323, v_331, v_339, v_347, v_355, v_363, v_371);
        uint param_15 = row;
        uint param_16 = pc.code_bits;
        uint b = code_at(param_14, param_15, param_16);
        if (b == 0u)
        {
            _461 = (pc.default_left & 1u) != 0u;
        }
        else
        {
            if ((pc.default_left & 2u) == 0u)
            {
                _474 = b <= pc.bin;
            }
            else
            {
                _474 = ((pc.left_set[b >> uint(5)] >> (b & 31u)) & 1u) != 0u;
            }
            _461 = _474;
        }
        bool left = _461;
        uint param_17 = row;
        uint param_18 = pc.margin_shift;
        uint w = window_of(param_17, param_18);
        uint param_19 = row;
        uint param_20 = pc.margin_shift;
        uint m = (window_index(param_19, param_20) * pc.num_outputs) + pc.output_index;
        uint param_21 = w;
        uint param_22 = m;
        if (left)
        {
            _526 = pc.value_left;
        }
        else
        {
            _526 = pc.value_right;
        }
        float v = spvFAdd(margins_at(param_21, param_22, v_195, v_204, v_212, v_220, v_228, v_236, v_244, v_252), _526);
        uint param_23 = w;
        uint param_24 = m;
        float param_25 = v;
        margins_put(param_23, param_24, param_25, v_195, v_204, v_212, v_220, v_228, v_236, v_244, v_252);
    }
}

