/* status.c -- the public last-error and status-name functions. */
#include "error.h"

const char *gpulayer_last_error(void) { return gpl_error_message(); }

const char *gpulayer_status_string(gpulayer_status status)
{
    switch (status) {
    case GPULAYER_OK: return "ok";
    case GPULAYER_ERR_INVALID_ARGUMENT: return "invalid argument";
    case GPULAYER_ERR_IO: return "i/o error";
    case GPULAYER_ERR_PARSE: return "parse error";
    case GPULAYER_ERR_OUT_OF_MEMORY: return "out of memory";
    case GPULAYER_ERR_MODEL: return "bad model";
    case GPULAYER_ERR_DEVICE: return "device error";
    case GPULAYER_ERR_UNSUPPORTED: return "unsupported";
    case GPULAYER_ERR_INTERRUPTED: return "interrupted";
    case GPULAYER_ERR_PLACEMENT: return "no device fits";
    case GPULAYER_ERR_INTERNAL: return "internal error";
    }
    return "unknown status";
}

