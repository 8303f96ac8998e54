/*
 * gpulayer-probe -- discovers the devices of one GPU runtime and prints
 * them as JSON (src/device/probe_parse.h).
 *
 *   gpulayer-probe cuda | vulkan | metal
 *
 * The library starts this program in a child process with a time limit, so
 * that loading a driver (cuInit, vkCreateInstance) can hang or crash here
 * without harming the caller. It is not meant to be run by hand, but doing
 * so is harmless and shows what discovery sees.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe_out.h"

/* A backstop for when the parent is gone and cannot kill us: no probe
 * needs anywhere near this long. */
#define PROBE_HARD_LIMIT_S 300

#if !defined(__APPLE__)
void probe_metal(probe_out *o)
{
    probe_out_note(o, "not_macos",
                   "not macOS: the Apple GPU (mps) is reached through Metal, "
                   "which exists only on macOS");
}
#endif

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gpulayer-probe cuda|vulkan|metal\n");
        return 2;
    }
    alarm(PROBE_HARD_LIMIT_S);
    probe_out o;
    if (!strcmp(argv[1], "cuda")) {
        probe_out_init(&o, "cuda");
        probe_cuda(&o);
    } else if (!strcmp(argv[1], "vulkan")) {
        probe_out_init(&o, "vulkan");
        probe_vulkan(&o);
    } else if (!strcmp(argv[1], "metal")) {
        probe_out_init(&o, "metal");
        probe_metal(&o);
    } else {
        fprintf(stderr, "gpulayer-probe: unknown runtime '%s'\n", argv[1]);
        return 2;
    }
    int status = probe_out_emit(&o);
    /* _exit, not return: driver libraries run teardown code at exit, and a
     * broken driver can hang there after the result has been written. */
    _exit(status);
}
