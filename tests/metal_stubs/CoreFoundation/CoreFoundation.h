/* Stub of <CoreFoundation/CoreFoundation.h> for the Metal host compile
 * check (README.md): the CoreFoundation types metal-cpp names and the
 * headers the SDK's umbrella header includes. Declarations only. */
#ifndef GPL_STUB_COREFOUNDATION_H
#define GPL_STUB_COREFOUNDATION_H

/* The SDK's umbrella header brings in the C library headers and
 * libdispatch; metal-cpp relies on that (INFINITY, dispatch_data_t). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <dispatch/dispatch.h>

typedef double CFTimeInterval;
typedef const struct __CFString *CFStringRef;

#ifdef __cplusplus
extern "C" {
#endif
CFStringRef __CFStringMakeConstantString(const char *cStr);
#ifdef __cplusplus
}
#endif

#endif
