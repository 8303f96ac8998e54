/* Stub of <IOSurface/IOSurfaceRef.h> for the Metal host compile check
 * (README.md): the opaque surface type metal-cpp names. Declarations only. */
#ifndef GPL_STUB_IOSURFACEREF_H
#define GPL_STUB_IOSURFACEREF_H

typedef struct __IOSurface *IOSurfaceRef;

#endif
