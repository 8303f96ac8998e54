/* placement_render.c -- a placement decision as text or JSON. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "framework.h"
#include "placement.h"
#include "strbuf.h"

static void label_of(const gpl_worker *workers, int num_workers,
                     const gpl_consideration *k, char *buf, size_t size)
{
    const gpl_device *dev = &workers[k->worker].devices[k->device];
    if (num_workers > 1)
        snprintf(buf, size, "%s/%s:%d", workers[k->worker].name, dev->accelerator,
                 dev->index);
    else
        snprintf(buf, size, "%s:%d", dev->accelerator, dev->index);
}

static void ranks_of(const gpl_decision *d, const gpl_consideration *k, char *buf,
                     size_t size)
{
    size_t used = 0;
    int listed = 0;
    buf[0] = '\0';
    for (int i = 0; i < d->num_assignments && used < size; i++) {
        const gpl_assignment *a = &d->assignments[i];
        if (a->worker != k->worker || a->device != k->device) continue;
        int n = snprintf(buf + used, size - used, "%s%d", listed++ ? "," : "", a->rank);
        if (n > 0) used += (size_t)n;
    }
}

/* Notes worth showing with a refusal: those of the requested runtime (all
 * runtimes for auto) that explain an absence. */
static int relevant_note(const gpl_decision *d, const gpl_note *n)
{
    if (n->kind == GPL_NOTE_INFO) return 0;
    int rt = gpl_runtime_of_accelerator(d->request.accelerator);
    return rt < 0 || !strcmp(n->runtime, gpl_runtime_name((gpl_runtime)rt)) ||
           gpl_framework_note_concerns(&d->request, n->runtime);
}

char *gpl_decision_text(const gpl_decision *d, const gpl_worker *workers, int num_workers,
                        const gpl_discovery *notes)
{
    gpl_strbuf sb;
    gpl_strbuf_init(&sb);
    char req[512];
    gpl_request_describe(&d->request, req, sizeof req);
    gpl_strbuf_printf(&sb, "request: %s\n", req);
    gpl_strbuf_printf(&sb, "%s: %s\n", d->placed ? "placed" : "refused", d->why);
    if (d->num_considered) gpl_strbuf_printf(&sb, "devices considered:\n");
    for (int i = 0; i < d->num_considered; i++) {
        const gpl_consideration *k = &d->considered[i];
        const gpl_device *dev = &workers[k->worker].devices[k->device];
        char label[128], ranks[128];
        label_of(workers, num_workers, k, label, sizeof label);
        if (k->chosen && d->request.job == GPULAYER_JOB_DISTRIBUTED) {
            ranks_of(d, k, ranks, sizeof ranks);
            gpl_strbuf_printf(&sb, "  %-12s chosen for rank%s %s  (%s)\n", label,
                              strchr(ranks, ',') ? "s" : "", ranks, dev->name);
        } else if (k->chosen) {
            gpl_strbuf_printf(&sb, "  %-12s chosen  (%s)\n", label, dev->name);
        } else {
            gpl_strbuf_printf(&sb, "  %-12s %s\n", label, k->reason);
        }
    }
    int shown = 0;
    for (int i = 0; !d->placed && notes && i < notes->num_notes; i++) {
        const gpl_note *n = &notes->notes[i];
        if (!relevant_note(d, n)) continue;
        if (!shown++) gpl_strbuf_printf(&sb, "discovery notes:\n");
        gpl_strbuf_printf(&sb, "  %-7s %-20s %s\n", n->runtime, gpl_note_kind_name(n->kind),
                          n->message);
    }
    return gpl_strbuf_take(&sb);
}

static cJSON *request_json(const gpl_request *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "accelerator", r->accelerator);
    if (r->device_index >= 0)
        cJSON_AddNumberToObject(o, "device_index", r->device_index);
    else
        cJSON_AddNullToObject(o, "device_index");
    cJSON_AddNumberToObject(o, "min_memory_bytes", (double)r->min_memory);
    cJSON_AddStringToObject(o, "memory_kind", gpl_memory_kind_name(r->memory_kind));
    cJSON *caps = cJSON_AddArrayToObject(o, "capabilities");
    for (int i = 0; i < r->num_caps; i++)
        cJSON_AddItemToArray(caps, cJSON_CreateString(r->caps[i]));
    cJSON_AddNumberToObject(o, "count", r->count);
    cJSON_AddStringToObject(o, "job", r->job == GPULAYER_JOB_DISTRIBUTED ? "distributed"
                                                                         : "independent");
    cJSON_AddNumberToObject(o, "nproc", r->nproc);
    return o;
}

char *gpl_decision_json(const gpl_decision *d, const gpl_worker *workers, int num_workers,
                        const gpl_discovery *notes)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddBoolToObject(root, "placed", d->placed);
    if (d->placed)
        cJSON_AddStringToObject(root, "accelerator", d->accelerator);
    else
        cJSON_AddNullToObject(root, "accelerator");
    cJSON_AddStringToObject(root, "why", d->why);
    cJSON_AddItemToObject(root, "request", request_json(&d->request));
    cJSON *assign = cJSON_AddArrayToObject(root, "assignments");
    for (int i = 0; i < d->num_assignments; i++) {
        const gpl_assignment *a = &d->assignments[i];
        const gpl_device *dev = &workers[a->worker].devices[a->device];
        char label[GPL_ACCEL_LEN + 16];
        gpl_device_label(dev, label, sizeof label);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "rank", a->rank);
        cJSON_AddStringToObject(o, "worker", workers[a->worker].name);
        cJSON_AddStringToObject(o, "device", label);
        cJSON_AddStringToObject(o, "accelerator", dev->accelerator);
        cJSON_AddNumberToObject(o, "index", dev->index);
        cJSON_AddStringToObject(o, "name", dev->name);
        cJSON_AddStringToObject(o, "stable_id", dev->stable_id);
        cJSON_AddItemToArray(assign, o);
    }
    cJSON *considered = cJSON_AddArrayToObject(root, "considered");
    for (int i = 0; i < d->num_considered; i++) {
        const gpl_consideration *k = &d->considered[i];
        const gpl_device *dev = &workers[k->worker].devices[k->device];
        char label[GPL_ACCEL_LEN + 16];
        gpl_device_label(dev, label, sizeof label);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "worker", workers[k->worker].name);
        cJSON_AddStringToObject(o, "device", label);
        cJSON_AddStringToObject(o, "name", dev->name);
        cJSON_AddBoolToObject(o, "fits", k->fits);
        cJSON_AddBoolToObject(o, "chosen", k->chosen);
        cJSON_AddStringToObject(o, "reason", k->reason);
        cJSON_AddItemToArray(considered, o);
    }
    (void)num_workers;
    if (notes) {
        cJSON *list = cJSON_AddArrayToObject(root, "notes");
        for (int i = 0; i < notes->num_notes; i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "runtime", notes->notes[i].runtime);
            cJSON_AddStringToObject(o, "kind", gpl_note_kind_name(notes->notes[i].kind));
            cJSON_AddStringToObject(o, "message", notes->notes[i].message);
            cJSON_AddItemToArray(list, o);
        }
    }
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}
