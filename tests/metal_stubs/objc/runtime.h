/* Stub of <objc/runtime.h> for the Metal host compile check (README.md):
 * the runtime types and the look-ups metal-cpp calls, as declared by
 * Apple's SDK. Declarations only. */
#ifndef GPL_STUB_OBJC_RUNTIME_H
#define GPL_STUB_OBJC_RUNTIME_H

typedef struct objc_class *Class;
struct objc_object {
    Class isa;
};
typedef struct objc_object *id;
typedef struct objc_selector *SEL;
typedef void (*IMP)(void);
typedef struct objc_object Protocol;
typedef signed char BOOL;

#ifdef __cplusplus
extern "C" {
#endif
SEL sel_registerName(const char *str);
Class objc_lookUpClass(const char *name);
Protocol *objc_getProtocol(const char *name);
#ifdef __cplusplus
}
#endif

#endif
