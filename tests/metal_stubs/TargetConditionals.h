/* Stub of <TargetConditionals.h> for the Metal host compile check
 * (README.md): the host is built for macOS, so the checked code is the
 * macOS side of metal-cpp. */
#ifndef GPL_STUB_TARGETCONDITIONALS_H
#define GPL_STUB_TARGETCONDITIONALS_H

#define TARGET_OS_MAC 1
#define TARGET_OS_OSX 1
#define TARGET_OS_IPHONE 0
#define TARGET_OS_IOS 0
#define TARGET_OS_TV 0
#define TARGET_OS_WATCH 0
#define TARGET_OS_SIMULATOR 0

#endif
