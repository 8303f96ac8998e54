/* cuda_profile.c -- per-operation device time, for tuning and the
 * benchmark report. GPULAYER_CUDA_PROFILE=1 turns it on; each operation's
 * device work is then bracketed by events and waited for, so the totals
 * are exact per operation (end-to-end time grows by one wait per call).
 * The totals go to stderr when the backend is destroyed. */
#include <stdio.h>
#include <stdlib.h>

#include "cuda_context.h"

static const char *const op_names[CUDA_OP_COUNT] = {
    "upload", "gradients", "begin_tree", "histograms", "subtract",
    "splits", "partition", "margins"};

void cuda_profile_init(cuda_context *c)
{
    c->prof.enabled = c->tuning.profile;
    if (!c->prof.enabled) return;
    if (cudaEventCreate(&c->prof.start) != cudaSuccess ||
        cudaEventCreate(&c->prof.stop) != cudaSuccess) {
        (void)cudaGetLastError();
        c->prof.enabled = 0;
    }
}

void cuda_profile_begin(cuda_context *c)
{
    if (c->prof.enabled) cudaEventRecord(c->prof.start, c->dev.stream);
}

void cuda_profile_end(cuda_context *c, cuda_op op)
{
    if (!c->prof.enabled) return;
    float ms = 0.0f;
    cudaEventRecord(c->prof.stop, c->dev.stream);
    if (cudaEventSynchronize(c->prof.stop) == cudaSuccess &&
        cudaEventElapsedTime(&ms, c->prof.start, c->prof.stop) == cudaSuccess) {
        c->prof.ms[op] += ms;
        c->prof.calls[op]++;
    }
    (void)cudaGetLastError();
}

void cuda_profile_report(cuda_context *c)
{
    if (!c->prof.enabled) return;
    double all = 0.0;
    for (int i = 0; i < CUDA_OP_COUNT; i++) all += c->prof.ms[i];
    fprintf(stderr, "[gpulayer] cuda profile on %s (device time per operation)\n",
            c->dev.device_name);
    fprintf(stderr, "[gpulayer]   %-12s %9s %12s %10s %6s\n", "operation", "calls",
            "total ms", "mean us", "share");
    for (int i = 0; i < CUDA_OP_COUNT; i++) {
        if (!c->prof.calls[i]) continue;
        fprintf(stderr, "[gpulayer]   %-12s %9ld %12.2f %10.1f %5.1f%%\n", op_names[i],
                c->prof.calls[i], c->prof.ms[i], 1000.0 * c->prof.ms[i] / c->prof.calls[i],
                all > 0 ? 100.0 * c->prof.ms[i] / all : 0.0);
    }
    if (c->prof.ms[CUDA_OP_HISTOGRAMS] > 0)
        fprintf(stderr, "[gpulayer]   histogram input read: %.3f GB in %.2f ms = %.1f GB/s "
                "(bins + gradient pairs + row index, once per row, feature chunk)\n",
                c->prof.hist_bytes * 1e-9, c->prof.ms[CUDA_OP_HISTOGRAMS],
                c->prof.hist_bytes * 1e-6 / c->prof.ms[CUDA_OP_HISTOGRAMS]);
    fprintf(stderr, "[gpulayer]   device memory: peak %.1f MiB, planned %.1f MiB\n",
            c->buf.pool.peak / (1024.0 * 1024.0), c->estimate_bytes / (1024.0 * 1024.0));
}

void cuda_profile_destroy(cuda_context *c)
{
    if (!c->prof.enabled) return;
    cudaEventDestroy(c->prof.start);
    cudaEventDestroy(c->prof.stop);
    c->prof.enabled = 0;
}
