/* runner_dist.c -- distributed jobs: one device per rank via a launcher. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "runner.h"
#include "strbuf.h"

extern char **environ;

char *gpl_rank_spec_format(const gpl_decision *d, const gpl_worker *workers)
{
    gpl_strbuf sb;
    gpl_strbuf_init(&sb);
    gpl_strbuf_printf(&sb, "%s:", d->accelerator);
    for (int rank = 0; rank < d->request.nproc; rank++)
        for (int i = 0; i < d->num_assignments; i++) {
            const gpl_assignment *a = &d->assignments[i];
            if (a->rank != rank) continue;
            const gpl_device *dev = &workers[a->worker].devices[a->device];
            gpl_strbuf_printf(&sb, "%s%d", rank ? "," : "", dev->index);
            if (*dev->stable_id) gpl_strbuf_printf(&sb, "=%s", dev->stable_id);
            break;
        }
    return gpl_strbuf_take(&sb);
}

gpulayer_status gpl_rank_spec_parse(const char *spec, int rank, gpl_run_target *out)
{
    memset(out, 0, sizeof *out);
    const char *colon = spec ? strchr(spec, ':') : NULL;
    if (!colon || colon == spec || (size_t)(colon - spec) >= sizeof out->accelerator)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "bad rank spec '%s'",
                         spec ? spec : "");
    memcpy(out->accelerator, spec, (size_t)(colon - spec));
    const char *item = colon + 1;
    for (int r = 0; r < rank && item; r++) {
        item = strchr(item, ',');
        if (item) item++;
    }
    if (!item || !*item)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                         "rank %d has no device: the launcher started more ranks "
                         "than gpulayer placed (%s)",
                         rank, spec);
    char *end = NULL;
    long index = strtol(item, &end, 10);
    if (end == item || index < 0)
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "bad rank spec '%s'", spec);
    out->count = 1;
    out->index[0] = (int)index;
    if (*end == '=') {
        size_t len = strcspn(end + 1, ",");
        if (len >= GPL_ID_LEN)
            return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "bad rank spec '%s'", spec);
        memcpy(out->stable_id[0], end + 1, len);
        out->stable_id[0][len] = '\0';
    }
    return GPULAYER_OK;
}

int gpl_launcher_rank(void)
{
    /* Local ranks first: the device list is per host. */
    static const char *const vars[] = {
        "OMPI_COMM_WORLD_LOCAL_RANK", /* Open MPI            */
        "MPI_LOCALRANKID",            /* MPICH / Hydra       */
        "SLURM_LOCALID",              /* srun                */
        "PMIX_RANK",                  /* PMIx launchers      */
        "PMI_RANK",                   /* MPICH, Intel MPI    */
        "OMPI_COMM_WORLD_RANK",
    };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        char *end = NULL;
        if (!v || !*v) continue;
        long rank = strtol(v, &end, 10);
        if (*end == '\0' && rank >= 0 && rank < 1 << 24) return (int)rank;
    }
    gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
              "no MPI rank in the environment (looked at OMPI_COMM_WORLD_LOCAL_RANK, "
              "MPI_LOCALRANKID, SLURM_LOCALID, PMIX_RANK, PMI_RANK, "
              "OMPI_COMM_WORLD_RANK): --rank-exec runs only under a launcher");
    return -1;
}

char **gpl_launch_argv(const char *launcher, int nproc, char *const *launcher_args,
                       int num_launcher_args, const char *self, const char *spec,
                       char *const *argv)
{
    size_t nargv = 0;
    while (argv[nargv]) nargv++;
    size_t total = 3 + (size_t)num_launcher_args + 5 + nargv + 1;
    char **out = calloc(total, sizeof *out);
    char *np = malloc(16);
    if (!out || !np) {
        free(out);
        free(np);
        return NULL;
    }
    snprintf(np, 16, "%d", nproc);
    size_t n = 0;
    out[n++] = (char *)launcher;
    out[n++] = "-np";
    out[n++] = np; /* the only string made here: freed by _free */
    for (int i = 0; i < num_launcher_args; i++) out[n++] = launcher_args[i];
    out[n++] = (char *)self;
    out[n++] = "run";
    out[n++] = "--rank-exec";
    out[n++] = (char *)spec;
    out[n++] = "--";
    for (size_t i = 0; i < nargv; i++) out[n++] = argv[i];
    out[n] = NULL;
    return out;
}

void gpl_launch_argv_free(char **argv)
{
    if (!argv) return;
    free(argv[2]);
    free(argv);
}

gpulayer_status gpl_rank_exec(const char *spec, char *const *argv)
{
    int rank = gpl_launcher_rank();
    if (rank < 0) return GPULAYER_ERR_INVALID_ARGUMENT;
    gpl_run_target t;
    GPL_CHECK(gpl_rank_spec_parse(spec, rank, &t));
    char **env = gpl_runner_env(environ, &t);
    if (!env) return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory building the environment");
    char path[4096];
    if (!argv[0] || !gpl_find_on_path(argv[0], path, sizeof path)) {
        gpl_runner_env_free(env);
        return gpl_error(GPULAYER_ERR_INVALID_ARGUMENT, "%s: command not found",
                         argv[0] ? argv[0] : "");
    }
    execve(path, argv, env);
    int e = errno;
    gpl_runner_env_free(env);
    return gpl_error(GPULAYER_ERR_IO, "%s: %s", argv[0], strerror(e));
}
