/* Stub of <objc/message.h> for the Metal host compile check (README.md):
 * the message-send entry points metal-cpp casts to typed function
 * pointers, declared as Apple's SDK does without old dispatch prototypes.
 * Declarations only. */
#ifndef GPL_STUB_OBJC_MESSAGE_H
#define GPL_STUB_OBJC_MESSAGE_H

#include <objc/runtime.h>

#ifdef __cplusplus
extern "C" {
#endif
void objc_msgSend(void);
void objc_msgSend_stret(void);
void objc_msgSend_fpret(void);
#ifdef __cplusplus
}
#endif

#endif
