/* kernel_common.h -- qualifiers that let the shared numeric headers compile
 * as plain C and as CUDA device code alike. */
#ifndef GPL_KERNEL_COMMON_H
#define GPL_KERNEL_COMMON_H

#if defined(__CUDACC__)
#define GPL_HD __host__ __device__ __forceinline__
#else
#define GPL_HD static inline
#endif

#endif
