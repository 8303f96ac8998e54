/* threads.h -- how many CPU threads a job uses: the one rule behind every
 * nthread parameter. */
#ifndef GPL_THREADS_H
#define GPL_THREADS_H

/* requested > 0: that many, but no more than the processors the process
 * may use (more only queue behind each other: 1,024 threads on 2 cores
 * made training 180 times slower), with one warning on stderr the first
 * time a count is lowered; 0 or less: OpenMP's default (every core, or
 * OMP_NUM_THREADS). */
int gpl_threads(int requested);

#endif
