/* cuda_tuning.c -- the CUDA backend's tuning (cuda_tuning.h). */
#include "cuda_tuning.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const hist_names[] = {
    [GPL_CUDA_HIST_SHARED] = "shared",
    [GPL_CUDA_HIST_GLOBAL] = "global",
    [GPL_CUDA_HIST_DIRECT] = "direct",
    [GPL_CUDA_HIST_STAGED] = "staged",
};

void cuda_tuning_read(cuda_tuning *t)
{
    memset(t, 0, sizeof *t);
    const char *kind = getenv("GPULAYER_CUDA_HIST");
    t->hist = GPL_CUDA_HIST_SHARED;
    if (kind && !strcmp(kind, "global")) t->hist = GPL_CUDA_HIST_GLOBAL;
    else if (kind && !strcmp(kind, "direct")) t->hist = GPL_CUDA_HIST_DIRECT;
    else if (kind && !strcmp(kind, "staged")) t->hist = GPL_CUDA_HIST_STAGED;
    const char *v = getenv("GPULAYER_CUDA_PROFILE");
    t->profile = v && v[0] && v[0] != '0';
}

int cuda_tuning_key(const cuda_tuning *t, char *out, size_t size)
{
    const unsigned h = (unsigned)t->hist;
    return snprintf(out, size, "hist=%s;profile=%d",
                    h < sizeof hist_names / sizeof hist_names[0] && hist_names[h]
                        ? hist_names[h]
                        : "?",
                    t->profile);
}
