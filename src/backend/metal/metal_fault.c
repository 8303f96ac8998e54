/* metal_fault.c -- batch labels and the sticky failure (metal_fault.h). */
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "metal_fault.h"

void gpl_mtl_batch_start(gpl_mtl_batch_info *b, const char *op, int level, uint64_t serial)
{
    snprintf(b->op, sizeof b->op, "%s", op ? op : "batch");
    b->level = level;
    b->kernels[0] = '\0';
    b->serial = serial;
}

static int listed(const char *list, const char *name)
{
    const size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += n)
        if ((p == list || p[-1] == ',') && (p[n] == '\0' || p[n] == ','))
            return 1;
    return 0;
}

void gpl_mtl_batch_note_kernel(gpl_mtl_batch_info *b, const char *kernel)
{
    if (listed(b->kernels, kernel)) return;
    const size_t used = strlen(b->kernels), room = sizeof b->kernels - used;
    const size_t need = strlen(kernel) + (used ? 1 : 0) + 1;
    if (used >= 3 && !strcmp(b->kernels + used - 3, "...")) return;
    if (need > room) {
        /* Full: mark that more kernels were encoded than are named. */
        if (used + 4 <= sizeof b->kernels) memcpy(b->kernels + used, "...", 4);
        else memcpy(b->kernels + sizeof b->kernels - 4, "...", 4);
        return;
    }
    snprintf(b->kernels + used, room, "%s%s", used ? "," : "", kernel);
}

int gpl_mtl_fault_init(gpl_mtl_fault *f)
{
    memset(f, 0, sizeof *f);
    return pthread_mutex_init(&f->lock, NULL) == 0 ? 0 : -1;
}

void gpl_mtl_fault_destroy(gpl_mtl_fault *f) { pthread_mutex_destroy(&f->lock); }

void gpl_mtl_fault_record(gpl_mtl_fault *f, const gpl_mtl_batch_info *b, gpulayer_status status,
                          const char *device, const char *what)
{
    pthread_mutex_lock(&f->lock);
    if (!f->failed) {
        f->failed = 1;
        f->status = status;
        char level[32];
        if (b && b->level >= 0) snprintf(level, sizeof level, "level %d", b->level);
        else snprintf(level, sizeof level, "no level");
        snprintf(f->message, sizeof f->message,
                 "metal backend: %s at %s (kernels: %s) on '%s' failed: %s",
                 b ? b->op : "command buffer", level,
                 b && b->kernels[0] ? b->kernels : "none", device ? device : "?",
                 what ? what : "unknown error");
    }
    pthread_mutex_unlock(&f->lock);
}

gpulayer_status gpl_mtl_fault_check(gpl_mtl_fault *f)
{
    pthread_mutex_lock(&f->lock);
    const int failed = f->failed;
    const gpulayer_status status = f->status;
    char message[sizeof f->message];
    memcpy(message, f->message, sizeof message);
    pthread_mutex_unlock(&f->lock);
    if (!failed) return GPULAYER_OK;
    return gpl_error(status, "%s; the Metal context refuses further work until it is recreated",
                     message);
}

int gpl_mtl_fault_failed(gpl_mtl_fault *f)
{
    pthread_mutex_lock(&f->lock);
    const int failed = f->failed;
    pthread_mutex_unlock(&f->lock);
    return failed;
}
