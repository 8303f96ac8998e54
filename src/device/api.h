/* api.h -- what the files behind the device layer's public functions
 * (gpulayer.h) share. */
#ifndef GPL_DEVICE_API_H
#define GPL_DEVICE_API_H

#include <stddef.h>

#include "placement.h"

/* A gpulayer_placement: the decision and the discovery its indices refer
 * to. Not to be copied: host points into found. */
struct gpulayer_placement {
    gpl_discovery found;
    gpl_decision decision;
    gpl_worker host; /* this host, the decision's only worker */
};

/* Hands text (malloc'd; NULL means rendering ran out of memory) to the
 * caller through out and out_len, either of which may be NULL (the text is
 * then freed). what names the text in the out-of-memory message. */
gpulayer_status gpl_api_hand_over(char *text, char **out, size_t *out_len, const char *what);

#endif
