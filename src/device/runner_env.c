/* runner_env.c -- the environment that tells a program its devices. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"
#include "runner.h"

gpulayer_status gpl_run_target_of_rank(const gpl_decision *d, const gpl_worker *workers,
                                       int rank, gpl_run_target *out)
{
    memset(out, 0, sizeof *out);
    if (!d->placed)
        return gpl_error(GPULAYER_ERR_PLACEMENT, "the job was not placed: %s", d->why);
    gpl_strlcpy(out->accelerator, d->accelerator, sizeof out->accelerator);
    for (int i = 0; i < d->num_assignments; i++) {
        const gpl_assignment *a = &d->assignments[i];
        if (a->rank != rank) continue;
        if (out->count >= GPL_MAX_RUN_DEVICES)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                             "at most %d devices per process", GPL_MAX_RUN_DEVICES);
        const gpl_device *dev = &workers[a->worker].devices[a->device];
        out->index[out->count] = dev->index;
        gpl_strlcpy(out->stable_id[out->count], dev->stable_id, GPL_ID_LEN);
        out->count++;
    }
    if (!out->count)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "rank %d has no device", rank);
    return GPULAYER_OK;
}

/* The value CUDA_VISIBLE_DEVICES must have for ordinal i as this process
 * sees it: the UUID when known (immune to renumbering), else the entry of
 * the current CUDA_VISIBLE_DEVICES that ordinal i stands for, else i. */
static void cuda_selector(const gpl_run_target *t, int i, char *buf, size_t size)
{
    if (*t->stable_id[i]) {
        gpl_strlcpy(buf, t->stable_id[i], size);
        return;
    }
    const char *current = getenv("CUDA_VISIBLE_DEVICES");
    if (current && *current) {
        char copy[1024], *save = NULL;
        gpl_strlcpy(copy, current, sizeof copy);
        int k = 0;
        for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
            if (k++ == t->index[i]) {
                gpl_strlcpy(buf, tok, size);
                return;
            }
    }
    snprintf(buf, size, "%d", t->index[i]);
}

static void join_values(const gpl_run_target *t, int which, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < t->count && used < size; i++) {
        char item[GPL_ID_LEN + 8];
        int cuda = !strcmp(t->accelerator, "cuda");
        if (which == 0) /* GPULAYER_DEVICE: CUDA renumbers the visible GPUs */
            snprintf(item, sizeof item, "%d", cuda ? i : t->index[i]);
        else if (which == 1)
            gpl_strlcpy(item, t->stable_id[i], sizeof item);
        else
            cuda_selector(t, i, item, sizeof item);
        int n = snprintf(buf + used, size - used, "%s%s", i ? "," : "", item);
        if (n > 0) used += (size_t)n;
    }
}

/* Whether a base entry is replaced. CUDA's selector is replaced only for
 * cuda jobs: other accelerators leave it as the user set it. */
static int replaced(const char *entry, int cuda)
{
    static const char *const keys[] = {"GPULAYER_ACCELERATOR=", "GPULAYER_DEVICE=",
                                       "GPULAYER_DEVICE_ID=", "CUDA_VISIBLE_DEVICES="};
    size_t nkeys = sizeof keys / sizeof keys[0] - (cuda ? 0 : 1);
    for (size_t i = 0; i < nkeys; i++)
        if (!strncmp(entry, keys[i], strlen(keys[i]))) return 1;
    return 0;
}

static char *entry(const char *key, const char *value)
{
    size_t n = strlen(key) + strlen(value) + 2;
    char *s = malloc(n);
    if (s) snprintf(s, n, "%s=%s", key, value);
    return s;
}

char **gpl_runner_env(char *const *base, const gpl_run_target *t)
{
    size_t nbase = 0;
    while (base && base[nbase]) nbase++;
    char **env = calloc(nbase + 5, sizeof *env);
    if (!env) return NULL;
    size_t n = 0;
    /* Copies, so that the array can be freed uniformly. */
    int cuda = !strcmp(t->accelerator, "cuda");
    for (size_t i = 0; i < nbase; i++)
        if (!replaced(base[i], cuda) && !(env[n++] = gpl_strdup(base[i]))) goto fail;

    char value[GPL_MAX_RUN_DEVICES * (GPL_ID_LEN + 1) + 16];
    if (!(env[n++] = entry("GPULAYER_ACCELERATOR", t->accelerator))) goto fail;
    join_values(t, 0, value, sizeof value);
    if (!(env[n++] = entry("GPULAYER_DEVICE", value))) goto fail;
    int all_ids = t->count > 0;
    for (int i = 0; i < t->count; i++) all_ids &= *t->stable_id[i] != '\0';
    if (all_ids) {
        join_values(t, 1, value, sizeof value);
        if (!(env[n++] = entry("GPULAYER_DEVICE_ID", value))) goto fail;
    }
    if (cuda) {
        join_values(t, 2, value, sizeof value);
        if (!(env[n++] = entry("CUDA_VISIBLE_DEVICES", value))) goto fail;
    }
    return env;
fail:
    gpl_runner_env_free(env);
    return NULL;
}

void gpl_runner_env_free(char **env)
{
    if (!env) return;
    for (size_t i = 0; env[i]; i++) free(env[i]);
    free(env);
}
