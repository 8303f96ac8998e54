/* Stub of <mach/mach.h> for the Metal host compile check (README.md): the
 * Mach types metal-cpp names (MTLResource.hpp). Declarations only. */
#ifndef GPL_STUB_MACH_H
#define GPL_STUB_MACH_H

typedef int kern_return_t;
typedef unsigned int mach_port_t;
typedef mach_port_t task_id_token_t;

#endif
