// window.glsl -- per-row buffers larger than one storage buffer binding.
//
// A device binds at most maxStorageBufferRange bytes of a buffer at once
// (128 MiB on lavapipe). A per-row buffer that a kernel reads or writes at
// arbitrary rows (gradient pairs, row lists, margins) is therefore bound as
// GPL_WINDOWS separate bindings: window w is the range of 2^WINDOW_SHIFT
// bytes (margins: see update_margins.comp) at byte offset w << WINDOW_SHIFT
// of the one buffer. Element i of a buffer of 2^E-byte elements lives in
// window i >> (WINDOW_SHIFT - E) at index i & mask, so every index a kernel
// computes stays within one binding and within 32 bits. The host binds
// window 0 again for windows past the end of the buffer, and refuses a job
// that would need more than GPL_WINDOWS windows (gpu_kernel_abi.h).
//
// Separate bindings, not descriptor arrays, so that the kernels translate to
// Metal (spirv-cross) as plain buffer arguments. When a buffer fits one
// window every invocation takes the same (first) branch of the selection.

// Must equal GPL_KERNEL_WINDOWS of gpu_kernel_abi.h; the macros below spell
// out that many windows.
#define GPL_WINDOWS 8

// log2 of the window size in bytes: the largest power of two within the
// device's maxStorageBufferRange, set by the Vulkan host. The default is
// what the Metal host uses (GPL_MTL_WINDOW_SHIFT): Metal has no binding
// range, the windows only keep the indices within 32 bits.
layout(constant_id = 2) const uint WINDOW_SHIFT = 30u;

// Rows of a 16-byte gradient-pair window and of a 4-byte row-list window.
const uint GRAD_WINDOW_SHIFT = WINDOW_SHIFT - 4u;
const uint LIST_WINDOW_SHIFT = WINDOW_SHIFT - 2u;

// Declares bindings FIRST .. FIRST + 7, blocks BLOCK0.., arrays NAME0.. of
// element type T, with the access qualifier ACCESS (readonly, writeonly or
// nothing).
#define WINDOW_BUFFERS(BLOCK, NAME, T, FIRST, ACCESS)                                  \
    layout(std430, binding = FIRST + 0) ACCESS buffer BLOCK##0 { T NAME##0[]; };       \
    layout(std430, binding = FIRST + 1) ACCESS buffer BLOCK##1 { T NAME##1[]; };       \
    layout(std430, binding = FIRST + 2) ACCESS buffer BLOCK##2 { T NAME##2[]; };       \
    layout(std430, binding = FIRST + 3) ACCESS buffer BLOCK##3 { T NAME##3[]; };       \
    layout(std430, binding = FIRST + 4) ACCESS buffer BLOCK##4 { T NAME##4[]; };       \
    layout(std430, binding = FIRST + 5) ACCESS buffer BLOCK##5 { T NAME##5[]; };       \
    layout(std430, binding = FIRST + 6) ACCESS buffer BLOCK##6 { T NAME##6[]; };       \
    layout(std430, binding = FIRST + 7) ACCESS buffer BLOCK##7 { T NAME##7[]; };

// T NAME_at(w, j): element j of window w.
#define WINDOW_LOAD(NAME, T)                                                           \
    T NAME##_at(uint w, uint j)                                                        \
    {                                                                                  \
        switch (w) {                                                                   \
        case 0u: return NAME##0[j];                                                    \
        case 1u: return NAME##1[j];                                                    \
        case 2u: return NAME##2[j];                                                    \
        case 3u: return NAME##3[j];                                                    \
        case 4u: return NAME##4[j];                                                    \
        case 5u: return NAME##5[j];                                                    \
        case 6u: return NAME##6[j];                                                    \
        default: return NAME##7[j];                                                    \
        }                                                                              \
    }

// NAME_put(w, j, v): element j of window w = v.
#define WINDOW_STORE(NAME, T)                                                          \
    void NAME##_put(uint w, uint j, T v)                                               \
    {                                                                                  \
        switch (w) {                                                                   \
        case 0u: NAME##0[j] = v; break;                                                \
        case 1u: NAME##1[j] = v; break;                                                \
        case 2u: NAME##2[j] = v; break;                                                \
        case 3u: NAME##3[j] = v; break;                                                \
        case 4u: NAME##4[j] = v; break;                                                \
        case 5u: NAME##5[j] = v; break;                                                \
        case 6u: NAME##6[j] = v; break;                                                \
        default: NAME##7[j] = v; break;                                                \
        }                                                                              \
    }

// Window and index of element i of a buffer whose windows hold 2^shift
// elements.
uint window_of(uint i, uint shift) { return i >> shift; }
uint window_index(uint i, uint shift) { return i & ((1u << shift) - 1u); }
