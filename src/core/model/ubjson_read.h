/* ubjson_read.h -- Universal Binary JSON (the format of XGBoost's .ubj
 * model files) decoded into a cJSON tree. */
#ifndef GPL_UBJSON_READ_H
#define GPL_UBJSON_READ_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

/* Containers nested deeper than this are refused (a model is 6 deep). */
#define GPL_UBJSON_MAX_DEPTH 64

/* Non-zero when buf looks like a UBJSON object: '{' and then a key's
 * length marker or a container's count/type marker, which no JSON text
 * has after its '{'. */
int gpl_ubjson_sniff(const char *buf, size_t len);

/* Decodes one UBJSON value filling buf exactly (a truncated value, a count
 * past the end of the buffer, an unknown marker, nesting deeper than
 * GPL_UBJSON_MAX_DEPTH or bytes after the value are GPULAYER_ERR_MODEL
 * naming source and the byte offset). Integers and floats become cJSON
 * numbers; strongly typed arrays ([$type#count) arrays of numbers. */
gpulayer_status gpl_ubjson_parse(const uint8_t *buf, size_t len, const char *source,
                                 cJSON **out);

#endif
