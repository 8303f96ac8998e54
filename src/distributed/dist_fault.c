/*
 * dist_fault.c -- fault injection for the reliability tests.
 *
 * GPULAYER_DIST_FAULT=RANK:KIND:N makes rank RANK fail at its N-th
 * collective (counting from 1), so that a test can end or stall one rank at
 * a known point of training rather than racing a kill against a short run.
 * KIND is "die" (SIGKILL to itself: a crash), "hang" (sleeps for ever: a
 * stuck rank) or "exit" (exits with status 3 without a word). Unset in
 * normal use; only the MPI build reads it.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dist.h"

typedef enum fault_kind { FAULT_NONE, FAULT_DIE, FAULT_HANG, FAULT_EXIT } fault_kind;

static int parsed;
static fault_kind kind = FAULT_NONE;
static long at_call;
static long calls;

static void parse(void)
{
    parsed = 1;
    const char *spec = getenv("GPULAYER_DIST_FAULT");
    if (!spec || !*spec) return;
    int rank = -1;
    char what[16] = "";
    long n = 0;
    if (sscanf(spec, "%d:%15[a-z]:%ld", &rank, what, &n) != 3 || n < 1) {
        fprintf(stderr, "gpulayer: ignoring malformed GPULAYER_DIST_FAULT='%s' "
                        "(expected RANK:die|hang|exit:N)\n", spec);
        return;
    }
    if (rank != gpl_dist_rank()) return;
    kind = !strcmp(what, "die") ? FAULT_DIE
         : !strcmp(what, "hang") ? FAULT_HANG
         : !strcmp(what, "exit") ? FAULT_EXIT : FAULT_NONE;
    at_call = n;
}

void gpl_dist_fault_point(void)
{
    if (!gpl_dist_active()) return;
    if (!parsed) parse();
    if (kind == FAULT_NONE || ++calls != at_call) return;
    switch (kind) {
    case FAULT_DIE: raise(SIGKILL); break;
    case FAULT_HANG: for (;;) pause();
    case FAULT_EXIT: _exit(3);
    default: break;
    }
}
