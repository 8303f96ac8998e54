// metal_cpp_impl.cpp -- metal-cpp's selector and class tables, defined in
// exactly one translation unit of each binary that uses metal-cpp (the
// library, and the device layer's probe program). No code of ours.
#define NS_PRIVATE_IMPLEMENTATION
#define MTL_PRIVATE_IMPLEMENTATION
#include <Foundation/Foundation.hpp>
#include <Metal/Metal.hpp>
