/*
 * probe_cpu.h -- the CPU probe.
 *
 * Unlike the GPU probes it runs inside the calling process: it only reads
 * sysconf and a few /proc and /sys files, which can neither hang nor crash,
 * and the CPU must be reported even where the probe program is missing.
 */
#ifndef GPL_PROBE_CPU_H
#define GPL_PROBE_CPU_H

/* The CPU probe's result in the probe protocol (probe_parse.h), in a
 * malloc'd string, or NULL when out of memory. */
char *gpl_probe_cpu_json(void);

#endif
