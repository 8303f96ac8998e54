/* dist_internal.h -- pieces shared by the two implementations of dist.h. */
#ifndef GPL_DIST_INTERNAL_H
#define GPL_DIST_INTERNAL_H

/* Sets the collective timeout: timeout_s when > 0, else
 * GPULAYER_DIST_TIMEOUT from the environment, else the default. */
void gpl_dist_timeout_init(double timeout_s);

#endif
