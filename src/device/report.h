/*
 * report.h -- discovery results for people and programs: the device table
 * (`gpulayer devices`) and the shareable capability summary (`gpulayer
 * diagnose`). Each returns a malloc'd string, or NULL when out of memory.
 */
#ifndef GPL_REPORT_H
#define GPL_REPORT_H

#include "device.h"

char *gpl_devices_text(const gpl_discovery *d);
char *gpl_devices_json(const gpl_discovery *d);

/* Without serial numbers, UUIDs, host or user names (see redact.h). */
char *gpl_diagnose_text(const gpl_discovery *d);
char *gpl_diagnose_json(const gpl_discovery *d);

/* "available", "built, unavailable" or "not built". */
const char *gpl_backend_state(const gpl_device *dev);

#endif
