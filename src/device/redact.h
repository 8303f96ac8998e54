/*
 * redact.h -- keep identifying details out of shareable reports.
 *
 * `gpulayer diagnose` output is meant to be pasted into bug reports, so it
 * must not carry the host name, the user name (or a home directory that
 * contains it) or device serials and UUIDs.
 */
#ifndef GPL_REDACT_H
#define GPL_REDACT_H

#include <stddef.h>

/* Copies in to out (size bytes), replacing the home directory with "~",
 * the user and host names with "<user>" and "<host>", and UUIDs
 * (8-4-4-4-12 hex digits) with "<uuid>". */
void gpl_redact(const char *in, char *out, size_t size);

#endif
