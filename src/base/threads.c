/* threads.c -- the thread count of a job (threads.h). */
#include "threads.h"

#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>

int gpl_threads(int requested)
{
    if (requested <= 0) return omp_get_max_threads();
    const int processors = omp_get_num_procs();
    if (requested <= processors) return requested;
    static atomic_int warned;
    if (!atomic_exchange(&warned, 1))
        fprintf(stderr,
                "[gpulayer] warning: nthread=%d is more than the %d processors this process "
                "may use; using %d\n",
                requested, processors, processors);
    return processors;
}
