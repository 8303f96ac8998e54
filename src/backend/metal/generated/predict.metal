#pragma clang diagnostic ignored "-Wmissing-prototypes"

#include <metal_stdlib>
#include <simd/simd.h>

using namespace metal;

template<typename T>
[[clang::optnone]] T spvFAdd(T l, T r)
{
    return fma(T(1), l, r);
}

struct CutPtr
{
    uint cut_ptr[1];
};

struct Cuts
{
    float cuts[1];
};

constant uint WG_tmp [[function_constant(0)]];
constant uint WG = is_function_constant_defined(WG_tmp) ? WG_tmp : 256u;

struct Push
{
    uint num_rows;
    uint num_features;
    uint row_words;
    uint num_trees;
    uint num_outputs;
    uint base_at;
    uint code_bits;
    uint set_words;
};

struct Data
{
    float data[1];
};

struct Bins
{
    uint bins[1];
};

struct Leaf
{
    float leaf[1];
};

struct Trees
{
    uint2 trees[1];
};

struct Nodes
{
    uint4 nodes[1];
};

struct CatSets
{
    uint cat_sets[1];
};

struct Margins
{
    float margins[1];
};

constant uint _430_tmp [[function_constant(0)]];
constant uint _430 = is_function_constant_defined(_430_tmp) ? _430_tmp : 1u;
constant uint3 gl_WorkGroupSize [[maybe_unused]] = uint3(_430, 1u, 1u);

static inline __attribute__((always_inline))
uint order_key(thread const float& x)
{
    uint u = as_type<uint>(x);
    if (u == 2147483648u)
    {
        u = 0u;
    }
    uint _32;
    if ((u & 2147483648u) != 0u)
    {
        _32 = ~u;
    }
    else
    {
        _32 = u | 2147483648u;
    }
    return _32;
}

static inline __attribute__((always_inline))
uint bin_of(thread const uint& f, thread const float& v, const device CutPtr& v_58, const device Cuts& v_98)
{
    uint u = as_type<uint>(v);
    if ((u & 2147483647u) > 2139095040u)
    {
        return 0u;
    }
    uint first = v_58.cut_ptr[f];
    uint len = v_58.cut_ptr[f + 1u] - first;
    if (len == 0u)
    {
        return 1u;
    }
    float param = v;
    uint key = order_key(param);
    uint base = first;
    while (len > 1u)
    {
        uint half_len = len >> uint(1);
        float param_1 = v_98.cuts[base + half_len];
        if (order_key(param_1) <= key)
        {
            base += half_len;
        }
        len -= half_len;
    }
    float param_2 = v_98.cuts[base];
    return (((base - first) + uint(order_key(param_2) <= key)) + 1u) & 65535u;
}

kernel void predict(constant Push& pc [[buffer(0)]], const device Data& _201 [[buffer(1)]], const device CutPtr& v_58 [[buffer(2)]], const device Cuts& v_98 [[buffer(3)]], const device Nodes& _313 [[buffer(4)]], const device Leaf& _265 [[buffer(5)]], const device Trees& _291 [[buffer(6)]], device Bins& _242 [[buffer(7)]], device Margins& _417 [[buffer(8)]], const device CatSets& _365 [[buffer(9)]], uint3 gl_NumWorkGroups [[threadgroups_per_grid]], uint3 gl_GlobalInvocationID [[thread_position_in_grid]])
{
    uint _142 = gl_NumWorkGroups.x * WG;
    uint K = pc.num_outputs;
    uint per_shift = (pc.code_bits == 16u) ? 1u : 2u;
    uint lane = (1u << per_shift) - 1u;
    uint code_mask = (1u << pc.code_bits) - 1u;
    bool left;
    uint _392;
    for (uint stride = _142, r = gl_GlobalInvocationID.x; r < pc.num_rows; r += stride)
    {
        uint rb = r * pc.row_words;
        uint word = 0u;
        for (uint f = 0u; f < pc.num_features; f++)
        {
            uint param = f;
            float param_1 = _201.data[(f * pc.num_rows) + r];
            word |= (bin_of(param, param_1, v_58, v_98) << ((f & lane) * pc.code_bits));
            bool _227 = (f & lane) == lane;
            bool _236;
            if (!_227)
            {
                _236 = (f + 1u) == pc.num_features;
            }
            else
            {
                _236 = _227;
            }
            if (_236)
            {
                _242.bins[rb + (f >> per_shift)] = word;
                word = 0u;
            }
        }
        for (uint k = 0u; k < K; k++)
        {
            float acc = _265.leaf[pc.base_at + k];
            for (uint t = k; t < pc.num_trees; t += K)
            {
                uint2 tree = _291.trees[t];
                uint i = 0u;
                for (uint d = 0u; d < tree.y; d++)
                {
                    uint4 nd = _313.nodes[tree.x + i];
                    uint b = (_242.bins[rb + (nd.z >> per_shift)] >> ((nd.z & lane) * pc.code_bits)) & code_mask;
                    if (b == 0u)
                    {
                        left = ((nd.w >> uint(16)) & 255u) != 0u;
                    }
                    else
                    {
                        if ((nd.w >> uint(24)) != 0u)
                        {
                            left = ((_365.cat_sets[((tree.x + i) * pc.set_words) + (b >> uint(5))] >> (b & 31u)) & 1u) != 0u;
                        }
                        else
                        {
                            left = b <= (nd.w & 65535u);
                        }
                    }
                    if (left)
                    {
                        _392 = nd.x;
                    }
                    else
                    {
                        _392 = nd.y;
                    }
                    i = _392;
                }
                acc = spvFAdd(acc, _265.leaf[tree.x + i]);
            }
            _417.margins[(r * K) + k] = acc;
        }
    }
}

