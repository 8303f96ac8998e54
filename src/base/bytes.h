/* bytes.h -- memory sizes as people write and read them. */
#ifndef GPL_BYTES_H
#define GPL_BYTES_H

#include <stddef.h>
#include <stdint.h>

#include "gpulayer.h"

/* "139.0 GiB", "512.0 MiB", "0 B": for messages, never parsed back. */
void gpl_format_bytes(uint64_t bytes, char *buf, size_t size);
/* Parses "8G", "512M", "1.5GiB", "8GB" (decimal), "4096" (bytes). Binary
 * units (K, M, G, T, KiB...) are powers of 1024, as in Slurm and Docker;
 * KB, MB, GB, TB are powers of 1000. */
gpulayer_status gpl_parse_bytes(const char *text, uint64_t *out);

#endif
