/* cuda_memory.c -- the device memory of the CUDA backend: the plan made
 * before training (and the refusal of a job that cannot fit), one
 * allocation of every buffer from a pool by size class, the per-level
 * tables and the pool of node histograms. Nothing is allocated per level;
 * histogram slots beyond the plan (lossguide with many open leaves) come
 * from new pool blocks and stay for reuse. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "bytes.h"
#include "cuda_context.h"
#include "error.h"

#define MIB (1024.0 * 1024.0)

/* ------------------------------------------------------------ pool */

static size_t size_class(size_t bytes)
{
    const size_t small = 256, large = (size_t)2 << 20;
    if (bytes < ((size_t)1 << 20)) return (bytes + small - 1) / small * small;
    return (bytes + large - 1) / large * large;
}

void *cuda_pool_get_extra(cuda_context *c, size_t bytes, const char *what, gpulayer_status *st)
{
    const size_t before = c->buf.pool.allocated;
    void *p = cuda_pool_get(c, bytes, what, st);
    c->estimate_bytes += c->buf.pool.allocated - before;
    return p;
}

void *cuda_pool_get(cuda_context *c, size_t bytes, const char *what, gpulayer_status *st)
{
    cuda_pool *p = &c->buf.pool;
    const size_t cls = size_class(bytes ? bytes : 1);
    for (int i = 0; i < p->count; i++)
        if (!p->blocks[i].in_use && p->blocks[i].bytes == cls) {
            p->blocks[i].in_use = 1;
            return p->blocks[i].ptr;
        }
    if (p->count == p->cap) {
        int cap = p->cap ? 2 * p->cap : 32;
        cuda_block *b = realloc(p->blocks, sizeof *b * (size_t)cap);
        if (!b) {
            *st = gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "cuda backend: out of host memory");
            return NULL;
        }
        p->blocks = b;
        p->cap = cap;
    }
    void *ptr = NULL;
    cudaError_t e = gpl_device_alloc_injected() ? cudaErrorMemoryAllocation
                                                : cudaMalloc(&ptr, cls);
    if (e != cudaSuccess) {
        (void)cudaGetLastError();
        size_t free_b = 0, total_b = 0;
        cudaMemGetInfo(&free_b, &total_b);
        char size[32], free_text[32], held[32];
        gpl_format_bytes(cls, size, sizeof size);
        gpl_format_bytes(free_b, free_text, sizeof free_text);
        gpl_format_bytes(p->allocated, held, sizeof held);
        *st = gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                        "cuda backend: cannot allocate %s for %s on %s (%s free, %s held "
                        "by this job): %s", size, what, c->dev.device_name, free_text, held,
                        cudaGetErrorString(e));
        return NULL;
    }
    p->blocks[p->count++] = (cuda_block){ptr, cls, 1};
    p->allocated += cls;
    if (p->allocated > p->peak) p->peak = p->allocated;
    return ptr;
}

void cuda_pool_put(cuda_pool *p, void *ptr)
{
    for (int i = 0; i < p->count; i++)
        if (p->blocks[i].ptr == ptr) p->blocks[i].in_use = 0;
}

void *cuda_job_get(cuda_context *c, cuda_job_mem *m, size_t bytes, const char *what,
                   gpulayer_status *st)
{
    if (*st != GPULAYER_OK) return NULL;
    if (m->count == (int)(sizeof m->ptr / sizeof m->ptr[0])) {
        *st = gpl_error(GPULAYER_ERR_INTERNAL, "cuda backend: too many buffers for %s", what);
        return NULL;
    }
    void *p = cuda_pool_get(c, bytes ? bytes : 16, what, st);
    if (p) m->ptr[m->count++] = p;
    return p;
}

void cuda_job_put_all(cuda_context *c, cuda_job_mem *m)
{
    for (int i = 0; i < m->count; i++) cuda_pool_put(&c->buf.pool, m->ptr[i]);
    m->count = 0;
}

void cuda_pool_release_all(cuda_pool *p)
{
    for (int i = 0; i < p->count; i++) cudaFree(p->blocks[i].ptr);
    free(p->blocks);
    p->blocks = NULL;
    p->count = p->cap = 0;
    p->allocated = 0;
}

/* ------------------------------------------------------------ stages */

gpulayer_status cuda_stage_create(cuda_context *c, cuda_stage *s, size_t bytes)
{
    gpulayer_status st = GPULAYER_OK;
    s->bytes = bytes;
    CUDA_TRY(c, cudaHostAlloc(&s->host, bytes, cudaHostAllocDefault), "cudaHostAlloc");
    CUDA_TRY(c, cudaEventCreateWithFlags(&s->copied, cudaEventDisableTiming),
             "cudaEventCreate");
    s->dev = cuda_pool_get(c, bytes, "per-level tables", &st);
    return st;
}

gpulayer_status cuda_stage_wait(cuda_context *c, cuda_stage *s)
{
    CUDA_TRY(c, cudaEventSynchronize(s->copied), "waiting for a table upload");
    return GPULAYER_OK;
}

gpulayer_status cuda_stage_send(cuda_context *c, cuda_stage *s, size_t bytes,
                                const char *what)
{
    if (bytes == 0) return GPULAYER_OK;
    CUDA_TRY(c, cudaMemcpyAsync(s->dev, s->host, bytes, cudaMemcpyHostToDevice, c->dev.stream),
             what);
    CUDA_TRY(c, cudaEventRecord(s->copied, c->dev.stream), what);
    return GPULAYER_OK;
}

void cuda_stage_destroy(cuda_stage *s)
{
    if (s->host) cudaFreeHost(s->host);
    if (s->copied) cudaEventDestroy(s->copied);
    s->host = NULL;
    s->copied = NULL;
}

/* ------------------------------------------------------------ plan */

/* Histograms alive at once when growing depthwise to depth D (max_nodes =
 * 2^(D+1) - 1): the parents of the deepest level that gets histograms and
 * their children, 2^(D-2) + 2^(D-1). */
static int32_t planned_slots(int32_t max_nodes)
{
    int64_t s = 3 * (((int64_t)max_nodes + 1) / 8);
    if (s < 3) s = 3;
    if (s > max_nodes) s = max_nodes;
    return (int32_t)s;
}

/* Nodes of one level that the per-level tables hold without growing. */
static int32_t level_capacity(const cuda_context *c)
{
    return c->shape.max_nodes < 65536 ? c->shape.max_nodes : 65536;
}

/* Histogram work items of one launch (see cuda_hist.c). */
static int32_t item_capacity(const cuda_context *c)
{
    return 4 * c->dev.sm_count + level_capacity(c);
}

/* Tiles of one partition launch at most: each split node's rows cut into
 * tiles, a part tile at most per node. */
static uint32_t partition_tiles(const cuda_context *c)
{
    return (uint32_t)((c->shape.num_rows + GPL_CUDA_TILE_ROWS - 1) / GPL_CUDA_TILE_ROWS) +
           (uint32_t)level_capacity(c);
}

/* The feature-major copy of the bins lets the partition read a split's
 * feature densely instead of a 32-byte sector a row (about half its time
 * on 10M x 28, docs/benchmarks.md). It costs N x F bytes: taken for up to
 * GPL_CUDA_COLUMN_FEATURES features, where it is at most as large as the
 * per-row buffers; wider data would double the largest buffer for a
 * partition that is already a small share of its training time. */
int cuda_wants_columns(const cuda_context *c)
{
    return c->shape.num_features <= GPL_CUDA_COLUMN_FEATURES;
}

/* The margin update walks the tree on each row's bins when a row is at
 * most two 32-byte sectors (then it reads the bins once, densely): on 10M
 * x 28 it took 160 us a round against 200 for the leaves' row lists, and
 * made the last level's partition unneeded. With 256-byte rows it read a
 * sector a level and was slower (1M x 256: 130 against 39 us). */
/* Bytes a node of the tree table takes in its transfer: the node, its
 * leaf value, and with categorical features its left set. */
static size_t tree_node_bytes(const cuda_context *c)
{
    return sizeof(gpl_infer_node) + sizeof(float) +
           (c->buf.num_cat ? sizeof(uint32_t) * GPL_CAT_WORDS : 0);
}

/* The tree table holds GPL_CAT_WORDS words a categorical node: not the
 * sets of wider categorical features (then the leaves' row lists). */
int cuda_wants_tree(const cuda_context *c)
{
    return c->shape.max_nodes <= GPL_CUDA_TREE_NODES &&
           c->stride * c->code_bytes <= 64 && c->buf.num_cat == c->buf.num_cat_narrow;
}

int32_t cuda_set_words(const cuda_context *c, int32_t f)
{
    return gpl_cat_set_words((int32_t)(c->feature_offset[f + 1] - c->feature_offset[f]) - 1);
}

/* Every device buffer of cuda_workspace_create, in the pool's size
 * classes, so that the plan bounds what is allocated. */
size_t cuda_plan_bytes(const cuda_context *c, int has_weight, int32_t slots)
{
    const size_t N = c->shape.num_rows > 0 ? (size_t)c->shape.num_rows : 1;
    const size_t F = (size_t)c->shape.num_features, L = (size_t)level_capacity(c);
    const size_t code = (size_t)c->code_bytes;
    const size_t buffers[] = {
        N * (size_t)c->stride * code,                       /* bins             */
        cuda_wants_columns(c) ? N * F * code : 0,           /* bins by feature  */
        (F + 1) * sizeof(uint32_t),                         /* feature offsets  */
        N * sizeof(float),                                  /* labels           */
        has_weight ? N * sizeof(float) : 0,                 /* weights          */
        N * (size_t)c->shape.num_outputs * sizeof(float),         /* margins          */
        c->shape.num_outputs > 1 ? N * 2 * sizeof(double) : 0,   /* softmax norms    */
        N * sizeof(gpl_cuda_qpair),                         /* gradient pairs   */
        N * sizeof(uint32_t), N * sizeof(uint32_t),         /* row index x 2    */
        2 * sizeof(unsigned long long), sizeof(gpl_quant_scale), F,
        sizeof(uint32_t) * L,                               /* partition counts */
        sizeof(uint64_t) * (size_t)partition_tiles(c),      /* look-back words  */
        sizeof(unsigned long long),                         /* tile tickets     */
        sizeof(gpl_split_record) * L,
        sizeof(gpl_cuda_split_best) * L * (size_t)c->buf.split_groups,
        c->buf.num_cat ? F : 0,                             /* categorical flags */
        sizeof(int32_t) * (size_t)c->buf.num_cat,           /* their list        */
        sizeof(gpl_cuda_split_best) * L * (size_t)c->buf.num_cat,
        sizeof(uint32_t) * GPL_CAT_WORDS * L * (size_t)c->buf.num_cat, /* left sets */
        sizeof(gpl_grad_pair) * L * (size_t)c->buf.num_cat, /* their left sums   */
        c->buf.num_cat > c->buf.num_cat_narrow ? F : 0,     /* wide ones' flags  */
        sizeof(int32_t) * (size_t)c->num_wide,              /* wide histograms   */
        (size_t)item_capacity(c) * sizeof(gpl_cuda_hist_item) + L * sizeof(int32_t),
        3 * L * sizeof(int32_t), 2 * L * sizeof(int32_t),   /* per-level tables */
        L * sizeof(gpl_cuda_part_split) + (L + 1) * sizeof(uint32_t),
        L * sizeof(gpl_cuda_leaf) + (L + 1) * sizeof(uint32_t),
        cuda_wants_tree(c)                                  /* tree table       */
            ? (size_t)c->shape.max_nodes * tree_node_bytes(c) : 0,
        (size_t)c->num_chunks * sizeof(gpl_cuda_hist_chunk),
        sizeof(gpl_grad_pair *) * (size_t)c->shape.max_nodes,     /* slot table       */
        sizeof(gpl_grad_pair) * c->shape.hist_len * (size_t)slots /* histograms       */
    };
    size_t b = 0;
    for (size_t i = 0; i < sizeof buffers / sizeof buffers[0]; i++)
        if (buffers[i]) b += size_class(buffers[i]);
    return b;
}

/* The bins of a feature whose histogram a shared-memory chunk holds, with
 * 16-bit codes: GPL_CUDA_HIST_SHARED_BINS, or fewer on a device whose
 * blocks have less shared memory (8 bytes x 32 columns a bin). */
static int32_t shared_bins(const cuda_context *c)
{
    const size_t fit = c->dev.smem_optin / ((size_t)8 * GPL_CUDA_HIST_COLS);
    return fit < GPL_CUDA_HIST_SHARED_BINS ? (int32_t)fit : GPL_CUDA_HIST_SHARED_BINS;
}

/* Chunks of up to 32 consecutive features. With 16-bit codes a feature of
 * more than shared_bins bins joins no chunk (it ends the run before it)
 * and goes to wide instead (c->num_wide of them). chunks: room for F. */
static void make_chunks(cuda_context *c, gpl_cuda_hist_chunk *chunks, int32_t *wide)
{
    const int32_t F = c->shape.num_features;
    const int32_t cap = c->code_bytes == 2 ? shared_bins(c) : INT32_MAX;
    c->num_chunks = 0;
    c->num_wide = 0;
    c->max_chunk_bins = 1;
    for (int32_t f0 = 0; f0 < F;) {
        int32_t nb = (int32_t)(c->feature_offset[f0 + 1] - c->feature_offset[f0]);
        if (nb > cap) {
            wide[c->num_wide++] = f0++;
            continue;
        }
        gpl_cuda_hist_chunk ch;
        ch.f0 = f0;
        ch.nf = 0;
        ch.bins = 1;
        for (int32_t f = f0; f < F && ch.nf < GPL_CUDA_HIST_COLS; f++, ch.nf++) {
            nb = (int32_t)(c->feature_offset[f + 1] - c->feature_offset[f]);
            if (nb > cap) break;
            if (nb > ch.bins) ch.bins = nb;
        }
        ch.copies = GPL_CUDA_HIST_COLS / ch.nf;
        if (ch.bins > c->max_chunk_bins) c->max_chunk_bins = ch.bins;
        chunks[c->num_chunks++] = ch;
        f0 += ch.nf;
    }
}

#define POOL_GET(ptr, bytes, what)                                           \
    do {                                                                     \
        (ptr) = cuda_pool_get(c, (bytes), (what), &st);                      \
        if (!(ptr)) return st;                                               \
    } while (0)

static gpulayer_status host_tables(cuda_context *c)
{
    const size_t M = (size_t)c->shape.max_nodes;
    const int tables = gpl_node_table_init(&c->nodes, c->shape.max_nodes) == 0 &&
                       gpl_hist_slots_init(&c->slots, "cuda", c->shape.max_nodes, cuda_slots_grow,
                                           c) == 0;
    c->node_early = malloc(M * sizeof *c->node_early);
    c->part_late = malloc(M * sizeof *c->part_late);
    c->buf.mask_cache = malloc((size_t)c->shape.num_features);
    c->buf.monotone_cache = malloc((size_t)c->shape.num_features);
    if (!tables || !c->node_early || !c->part_late || !c->buf.mask_cache ||
        !c->buf.monotone_cache)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "cuda backend: out of host memory for %zu nodes", M);
    for (size_t i = 0; i < M; i++) c->node_early[i].feature = -1;
    return GPULAYER_OK;
}

/* The categorical features' flags and list on the device, and room for
 * their candidates and sets of a level. */
static gpulayer_status categorical_tables(cuda_context *c, const gpl_binned_matrix *m, size_t L)
{
    const int32_t F = m->num_features, K = c->buf.num_cat;
    const int wide = K > c->buf.num_cat_narrow;
    gpulayer_status st = GPULAYER_OK;
    int32_t *list = malloc(sizeof(int32_t) * (size_t)K);
    uint8_t *wide_flags = wide ? calloc((size_t)F, 1) : NULL;
    if (!list || (wide && !wide_flags)) {
        free(list);
        free(wide_flags);
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "cuda backend: out of host memory");
    }
    /* Those of at most 255 value bins first (split_cat_kernel's), then
     * the wider ones (split_wide_cat_kernel's). */
    int32_t k = 0;
    for (int32_t f = 0; f < F; f++)
        if (m->categorical[f] && cuda_set_words(c, f) <= GPL_CAT_WORDS) list[k++] = f;
    for (int32_t f = 0; f < F; f++)
        if (m->categorical[f] && cuda_set_words(c, f) > GPL_CAT_WORDS) {
            list[k++] = f;
            wide_flags[f] = 1;
        }
    c->buf.d_categorical = cuda_pool_get(c, (size_t)F, "categorical feature flags", &st);
    if (st == GPULAYER_OK)
        c->buf.d_cat_features = cuda_pool_get(c, sizeof(int32_t) * (size_t)K,
                                              "categorical feature list", &st);
    if (st == GPULAYER_OK)
        c->buf.d_cat_partial = cuda_pool_get(c, sizeof(gpl_cuda_split_best) * L * (size_t)K,
                                             "categorical split candidates", &st);
    if (st == GPULAYER_OK)
        c->buf.d_cat_sets = cuda_pool_get(c, sizeof(uint32_t) * GPL_CAT_WORDS * L * (size_t)K,
                                          "categorical split sets", &st);
    if (st == GPULAYER_OK)
        c->buf.d_cat_left = cuda_pool_get(c, sizeof(gpl_grad_pair) * L * (size_t)K,
                                          "categorical split sums", &st);
    if (st == GPULAYER_OK && wide)
        c->buf.d_wide_cat = cuda_pool_get(c, (size_t)F, "wide categorical feature flags", &st);
    cudaError_t e = cudaSuccess;
    if (st == GPULAYER_OK)
        e = cudaMemcpyAsync(c->buf.d_categorical, m->categorical, (size_t)F,
                            cudaMemcpyHostToDevice, c->dev.stream);
    if (st == GPULAYER_OK && e == cudaSuccess)
        e = cudaMemcpyAsync(c->buf.d_cat_features, list, sizeof(int32_t) * (size_t)K,
                            cudaMemcpyHostToDevice, c->dev.stream);
    if (st == GPULAYER_OK && e == cudaSuccess && wide)
        e = cudaMemcpyAsync(c->buf.d_wide_cat, wide_flags, (size_t)F, cudaMemcpyHostToDevice,
                            c->dev.stream);
    if (st == GPULAYER_OK && e == cudaSuccess) e = cudaStreamSynchronize(c->dev.stream);
    free(list);
    free(wide_flags);
    if (st == GPULAYER_OK && e != cudaSuccess)
        st = cuda_fail(c, e, "copying the categorical features");
    return st;
}

gpulayer_status cuda_workspace_create(cuda_context *c, const gpl_binned_matrix *m,
                                      int has_weight)
{
    gpulayer_status st = GPULAYER_OK;
    const int32_t F = m->num_features;
    c->shape.num_rows = m->num_rows;
    c->shape.num_features = F;
    c->stride = F;
    c->code_bytes = m->code_bytes;
    c->shape.hist_len = m->feature_offset[F];
    c->feature_offset = malloc(sizeof(uint32_t) * ((size_t)F + 1));
    /* Chunks: F at most (16-bit codes may cut runs at wide features). */
    gpl_cuda_hist_chunk *chunks = malloc(sizeof *chunks * (size_t)F);
    int32_t *wide = malloc(sizeof(int32_t) * (size_t)F);
    if (!c->feature_offset || !chunks || !wide) {
        free(chunks);
        free(wide);
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "cuda backend: out of host memory");
    }
    memcpy(c->feature_offset, m->feature_offset, sizeof(uint32_t) * ((size_t)F + 1));
    make_chunks(c, chunks, wide);
    c->buf.split_groups = (F + GPL_CUDA_SPLIT_FEATURES - 1) / GPL_CUDA_SPLIT_FEATURES;
    c->buf.num_cat = c->buf.num_cat_narrow = 0;
    for (int32_t f = 0; m->categorical && f < F; f++) {
        c->buf.num_cat += m->categorical[f] != 0;
        c->buf.num_cat_narrow += m->categorical[f] && cuda_set_words(c, f) <= GPL_CAT_WORDS;
    }
    /* Staged rows pay off when a row's bins are one chunk (up to 32
     * features): on 1M x 256 they were 2% slower than the direct kernel,
     * on 10M x 28 21% faster (docs/benchmarks.md). They stage 8-bit codes
     * only: 16-bit codes take the direct kernel. */
    c->dev.hist_kind = c->tuning.hist;
    if (c->dev.hist_kind == GPL_CUDA_HIST_SHARED)
        c->dev.hist_kind = c->num_chunks == 1 ? GPL_CUDA_HIST_STAGED : GPL_CUDA_HIST_DIRECT;
    if (c->code_bytes == 2 && c->dev.hist_kind == GPL_CUDA_HIST_STAGED)
        c->dev.hist_kind = GPL_CUDA_HIST_DIRECT;
    c->hist_smem = gpl_cuda_hist_smem_bytes(c->dev.hist_kind, c->max_chunk_bins);
    if (c->dev.hist_kind != GPL_CUDA_HIST_GLOBAL && c->hist_smem > c->dev.smem_optin) {
        /* A device with little shared memory per block: the reference
         * kernel is slower but exact. */
        if (c->dev.verbose)
            fprintf(stderr, "[gpulayer] cuda: %zu bytes of shared memory per block needed, "
                    "%zu available: using global-memory histograms\n", c->hist_smem,
                    c->dev.smem_optin);
        c->dev.hist_kind = GPL_CUDA_HIST_GLOBAL;
    }
    c->planned_slots = planned_slots(c->shape.max_nodes);
    c->estimate_bytes = cuda_plan_bytes(c, has_weight, c->planned_slots);

    size_t free_b = 0, total_b = 0;
    cudaError_t e = cudaMemGetInfo(&free_b, &total_b);
    if (e != cudaSuccess) {
        free(chunks);
        free(wide);
        return cuda_fail(c, e, "cudaMemGetInfo");
    }
    if (c->estimate_bytes > free_b) {
        free(chunks);
        free(wide);
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY,
                         "cuda backend: the job needs about %.1f MiB of device memory "
                         "(%lld rows x %d features: bins %.1f MiB, gradients %.1f MiB, "
                         "histograms %.1f MiB) but %s has %.1f MiB free of %.1f MiB",
                         c->estimate_bytes / MIB, (long long)c->shape.num_rows, F,
                         (double)c->shape.num_rows * F * c->code_bytes / MIB,
                         (double)c->shape.num_rows * sizeof(gpl_cuda_qpair) / MIB,
                         (double)c->planned_slots * c->shape.hist_len * sizeof(gpl_grad_pair) /
                             MIB,
                         c->dev.device_name, free_b / MIB, total_b / MIB);
    }

    const size_t N = (size_t)c->shape.num_rows ? (size_t)c->shape.num_rows : 1;
    if ((st = host_tables(c)) != GPULAYER_OK) {
        free(chunks);
        free(wide);
        return st;
    }
    /* Every feature may be wide: no chunk then (a block of the pool all
     * the same). */
    c->d_chunks = cuda_pool_get(c, sizeof *chunks * (size_t)c->num_chunks, "chunks", &st);
    if (c->d_chunks && c->num_wide)
        c->d_wide_features = cuda_pool_get(c, sizeof(int32_t) * (size_t)c->num_wide,
                                           "the wide features", &st);
    if (c->d_chunks && c->num_chunks)
        e = cudaMemcpyAsync(c->d_chunks, chunks, sizeof *chunks * (size_t)c->num_chunks,
                            cudaMemcpyHostToDevice, c->dev.stream);
    if (c->d_chunks && c->d_wide_features && e == cudaSuccess)
        e = cudaMemcpyAsync(c->d_wide_features, wide, sizeof(int32_t) * (size_t)c->num_wide,
                            cudaMemcpyHostToDevice, c->dev.stream);
    if (st == GPULAYER_OK && e == cudaSuccess) e = cudaStreamSynchronize(c->dev.stream);
    free(chunks);
    free(wide);
    if (st != GPULAYER_OK) return st;
    if (e != cudaSuccess) return cuda_fail(c, e, "copying the feature chunks");
    const size_t code = (size_t)c->code_bytes;
    POOL_GET(c->buf.d_bins, N * (size_t)c->stride * code, "the binned matrix");
    if (cuda_wants_columns(c))
        POOL_GET(c->buf.d_columns, N * (size_t)F * code, "the binned matrix by feature");
    POOL_GET(c->buf.d_feature_offset, sizeof(uint32_t) * ((size_t)F + 1), "feature offsets");
    POOL_GET(c->buf.d_label, sizeof(float) * N, "labels");
    if (has_weight) POOL_GET(c->buf.d_weight, sizeof(float) * N, "weights");
    POOL_GET(c->buf.d_margins, sizeof(float) * N * (size_t)c->shape.num_outputs, "margins");
    POOL_GET(c->buf.d_grad, sizeof(gpl_cuda_qpair) * N, "gradient pairs");
    if (c->shape.num_outputs > 1)
        POOL_GET(c->buf.d_softmax_norm, 2 * sizeof(double) * N, "softmax normalisers");
    POOL_GET(c->buf.d_rows[0], sizeof(uint32_t) * N, "the row index");
    POOL_GET(c->buf.d_rows[1], sizeof(uint32_t) * N, "the row index");
    POOL_GET(c->buf.d_max, 2 * sizeof(unsigned long long), "gradient maxima");
    POOL_GET(c->buf.d_scale, sizeof(gpl_quant_scale), "gradient scales");
    POOL_GET(c->buf.d_mask, (size_t)F, "the feature mask");
    POOL_GET(c->buf.d_monotone, (size_t)F, "the monotone constraints");
    const size_t L = (size_t)level_capacity(c);
    POOL_GET(c->buf.d_counts, sizeof(uint32_t) * L, "partition counts");
    c->buf.part_status_cap = partition_tiles(c);
    POOL_GET(c->buf.d_part_status, sizeof(uint64_t) * c->buf.part_status_cap, "partition look-back");
    POOL_GET(c->buf.d_part_ticket, sizeof(unsigned long long), "partition tickets");
    /* Epoch 0 never matches a launch's tag; the counter starts at 0. */
    CUDA_TRY(c, cudaMemsetAsync(c->buf.d_part_status, 0, sizeof(uint64_t) * c->buf.part_status_cap,
                                c->dev.stream), "clearing the partition look-back");
    CUDA_TRY(c, cudaMemsetAsync(c->buf.d_part_ticket, 0, sizeof(unsigned long long), c->dev.stream),
             "clearing the partition tickets");
    c->buf.part_tickets = 0;
    c->buf.part_epoch = 0;
    POOL_GET(c->buf.d_records, sizeof(gpl_split_record) * L, "split records");
    POOL_GET(c->buf.d_partial, sizeof(gpl_cuda_split_best) * L * (size_t)c->buf.split_groups,
             "split candidates");
    if (c->buf.num_cat) GPL_CHECK(categorical_tables(c, m, L));
    CUDA_TRY(c, cudaHostAlloc((void **)&c->buf.h_scale, sizeof *c->buf.h_scale, cudaHostAllocDefault),
             "cudaHostAlloc");
    CUDA_TRY(c, cudaHostAlloc((void **)&c->buf.h_counts, sizeof(uint32_t) * L,
                              cudaHostAllocDefault), "cudaHostAlloc");
    CUDA_TRY(c, cudaHostAlloc((void **)&c->buf.h_records, sizeof(gpl_split_record) * L,
                              cudaHostAllocDefault), "cudaHostAlloc");
    GPL_CHECK(cuda_stage_create(c, &c->stage_hist,
                                (size_t)item_capacity(c) * sizeof(gpl_cuda_hist_item) +
                                    L * sizeof(int32_t)));
    GPL_CHECK(cuda_stage_create(c, &c->stage_sub, 3 * L * sizeof(int32_t)));
    GPL_CHECK(cuda_stage_create(c, &c->stage_split, CUDA_SPLIT_NODE_BYTES * L));
    GPL_CHECK(cuda_stage_create(c, &c->stage_part, L * sizeof(gpl_cuda_part_split) +
                                                       (L + 1) * sizeof(uint32_t)));
    GPL_CHECK(cuda_stage_create(c, &c->stage_leaf, L * sizeof(gpl_cuda_leaf) +
                                                       (L + 1) * sizeof(uint32_t)));
    if (cuda_wants_tree(c)) {
        const size_t M = (size_t)c->shape.max_nodes;
        GPL_CHECK(cuda_stage_create(c, &c->stage_tree, M * tree_node_bytes(c)));
        c->tree_nodes = c->stage_tree.host;
        if (c->buf.num_cat &&
            !(c->tree_sets = calloc(M * GPL_CAT_WORDS, sizeof(uint32_t))))
            return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "cuda backend: out of host memory");
    }
    /* The planned histogram slots, one pool block. */
    c->slot_ptr = calloc((size_t)c->shape.max_nodes, sizeof *c->slot_ptr);
    if (!c->slot_ptr)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "cuda backend: out of host memory");
    POOL_GET(c->d_slot_ptr, sizeof(gpl_grad_pair *) * (size_t)c->shape.max_nodes, "slot table");
    gpl_grad_pair *slab;
    const size_t hist_bytes = sizeof(gpl_grad_pair) * c->shape.hist_len;
    POOL_GET(slab, hist_bytes * (size_t)c->planned_slots, "node histograms");
    for (int32_t i = 0; i < c->planned_slots; i++)
        c->slot_ptr[i] = slab + (size_t)i * c->shape.hist_len;
    gpl_hist_slots_add(&c->slots, c->planned_slots);
    CUDA_TRY(c, cudaMemcpyAsync(c->d_slot_ptr, c->slot_ptr,
                                sizeof(gpl_grad_pair *) * (size_t)c->slots.num_slots,
                                cudaMemcpyHostToDevice, c->dev.stream), "copying the slot table");
    CUDA_TRY(c, cudaStreamSynchronize(c->dev.stream), "copying the slot table");
    if (c->dev.hist_kind != GPL_CUDA_HIST_GLOBAL)
        CUDA_TRY(c, gpl_cuda_hist_configure(c->dev.hist_kind, c->code_bytes, c->hist_smem),
                 "configuring shared memory");
    if (c->dev.verbose)
        fprintf(stderr, "[gpulayer] cuda workspace: %.1f MiB planned, %.1f MiB allocated, "
                "%.1f MiB were free\n", c->estimate_bytes / MIB, c->buf.pool.allocated / MIB,
                free_b / MIB);
    return GPULAYER_OK;
}

void cuda_workspace_destroy(cuda_context *c)
{
    cuda_stage_destroy(&c->stage_hist);
    cuda_stage_destroy(&c->stage_sub);
    cuda_stage_destroy(&c->stage_split);
    cuda_stage_destroy(&c->stage_part);
    cuda_stage_destroy(&c->stage_leaf);
    cuda_stage_destroy(&c->stage_tree);
    c->tree_nodes = NULL;
    free(c->tree_sets);
    c->tree_sets = NULL;
    if (c->buf.h_scale) cudaFreeHost(c->buf.h_scale);
    if (c->buf.h_counts) cudaFreeHost(c->buf.h_counts);
    if (c->buf.h_records) cudaFreeHost(c->buf.h_records);
    free(c->buf.h_wide_sets);
    c->buf.h_wide_sets = NULL;
    cuda_pool_release_all(&c->buf.pool);
    free(c->feature_offset);
    gpl_node_table_free(&c->nodes);
    gpl_hist_slots_free(&c->slots);
    free(c->node_early);
    free(c->part_late);
    free(c->buf.mask_cache);
    free(c->buf.monotone_cache);
    free(c->slot_ptr);
}

/* ------------------------------------------------------------ slots */

/* More slots than planned: another pool block of half the plan (at most
 * `room`, what the slot table has left). */
gpulayer_status cuda_slots_grow(void *user, int32_t node, int32_t first, int32_t room,
                                int32_t *made)
{
    cuda_context *c = user;
    gpulayer_status st = GPULAYER_OK;
    (void)node;
    int32_t more = c->planned_slots / 2 > 0 ? c->planned_slots / 2 : 1;
    if (more > room) more = room;
    gpl_grad_pair *slab;
    POOL_GET(slab, sizeof(gpl_grad_pair) * c->shape.hist_len * (size_t)more, "node histograms");
    for (int32_t i = 0; i < more; i++)
        c->slot_ptr[first + i] = slab + (size_t)i * c->shape.hist_len;
    /* Kernels already queued read only the old entries, which stay. */
    CUDA_TRY(c, cudaMemcpyAsync(c->d_slot_ptr + first, c->slot_ptr + first,
                                sizeof(gpl_grad_pair *) * (size_t)more,
                                cudaMemcpyHostToDevice, c->dev.stream), "growing the slot table");
    CUDA_TRY(c, cudaStreamSynchronize(c->dev.stream), "growing the slot table");
    *made = more;
    return GPULAYER_OK;
}

gpulayer_status cuda_check_level_size(const cuda_context *c, const cuda_stage *s,
                                      size_t per_node, int32_t n, const char *what)
{
    if ((size_t)n * per_node > s->bytes)
        return gpl_error(GPULAYER_ERR_UNSUPPORTED,
                         "cuda backend: %s of %d nodes at level %d exceeds the per-level "
                         "tables", what, n, c->level);
    return GPULAYER_OK;
}
