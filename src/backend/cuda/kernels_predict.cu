/*
 * kernels_predict.cu -- batch prediction of a block of rows: one thread a
 * row (grid-stride) bins the row's raw values with the model's cuts, then
 * walks every tree and writes the row's margins. The numeric contract is
 * the one of backend.h: bin = 0 for NaN, else 1 + the number of cuts <= the
 * value; output k = base_margins[k] + the leaves of trees k, k + K, ... in tree
 * order, each a float addition rounded to nearest (__fadd_rn: never fused,
 * never flushed), so the margins are the CPU's bit for bit.
 */
#include <cuda_runtime.h>

#include "bin_search.cuh"
#include "cuda_kernels.h"

namespace {

constexpr int kPredictThreads = 256;

/* Code: the bin code's type, uint8_t or uint16_t (a model with features
 * of more than 256 bins). */
template <typename Code>
__global__ void predict_kernel(gpl_cuda_predict_args a)
{
    const int32_t F = a.num_features, K = a.num_outputs;
    for (int64_t r = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; r < a.num_rows;
         r += (int64_t)gridDim.x * blockDim.x) {
        Code *row = static_cast<Code *>(a.bins) + r * F;
        for (int32_t f = 0; f < F; f++) {
            const uint32_t first = a.cut_ptr[f];
            row[f] = (Code)bin_of(a.cuts + first, a.cut_ptr[f + 1] - first,
                                  a.data[(int64_t)f * a.num_rows + r]);
        }
        for (int32_t k = 0; k < K; k++) {
            float acc = a.base_margins[k];
            for (int32_t t = k; t < a.num_trees; t += K) {
                const gpl_infer_node *nodes = a.nodes + a.first[t];
                const int32_t depth = a.depth[t];
                int32_t i = 0;
                /* Leaves point to themselves: the full depth ends on one. */
                for (int32_t d = 0; d < depth; d++) {
                    const gpl_infer_node nd = nodes[i];
                    const unsigned b = row[nd.feature];
                    unsigned left = nd.categorical
                        ? (a.cat_sets[(a.first[t] + i) * a.cat_words + (b >> 5)] >> (b & 31)) & 1u
                        : (b - 1u) < nd.bin;
                    left |= (b == 0u) & nd.default_left;
                    i = nd.child[left ^ 1u];
                }
                acc = __fadd_rn(acc, a.leaf[a.first[t] + i]);
            }
            a.margins[r * K + k] = acc;
        }
    }
}

} // namespace

extern "C" cudaError_t gpl_cuda_launch_predict(const gpl_cuda_predict_args *a, cudaStream_t s)
{
    if (a->num_rows <= 0) return cudaSuccess;
    int64_t blocks = (a->num_rows + kPredictThreads - 1) / kPredictThreads;
    if (blocks > 65536) blocks = 65536; /* the kernel loops (grid-stride) */
    if (a->code_bytes == 2)
        predict_kernel<uint16_t><<<(unsigned)blocks, kPredictThreads, 0, s>>>(*a);
    else
        predict_kernel<uint8_t><<<(unsigned)blocks, kPredictThreads, 0, s>>>(*a);
    return cudaGetLastError();
}
