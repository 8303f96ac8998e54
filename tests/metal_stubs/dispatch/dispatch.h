/* Stub of <dispatch/dispatch.h> for the Metal host compile check
 * (README.md): the dispatch object types metal-cpp names, and the calls
 * the host makes to wrap the embedded metallib in a dispatch_data_t
 * (src/backend/metal/metal_library.cpp). Declarations only. */
#ifndef GPL_STUB_DISPATCH_H
#define GPL_STUB_DISPATCH_H

#include <stddef.h>

typedef struct dispatch_queue_s *dispatch_queue_t;
typedef struct dispatch_data_s *dispatch_data_t;
typedef void *dispatch_object_t;
typedef void (^dispatch_block_t)(void);

#ifdef __cplusplus
extern "C" {
#endif
dispatch_data_t dispatch_data_create(const void *buffer, size_t size, dispatch_queue_t queue,
                                     dispatch_block_t destructor);
void dispatch_release(dispatch_object_t object);
#ifdef __cplusplus
}
#endif

/* The SDK's DISPATCH_DATA_DESTRUCTOR_DEFAULT is a null block: copy the
 * bytes. The host passes it for a buffer that outlives the data object. */
#define DISPATCH_DATA_DESTRUCTOR_DEFAULT NULL

#endif
