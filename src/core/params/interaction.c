/* interaction.c -- interaction_constraints (interaction.h). */
#include "interaction.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "error.h"

#define PARAM "interaction_constraints"

/* The parsed list, or NULL with the error recorded; an empty text is an
 * empty list. */
static cJSON *parse_list(const char *text, gpulayer_status *st)
{
    *st = GPULAYER_OK;
    const char *source = text && text[0] ? text : "[]", *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(source, &end, 0);
    /* The whole text is the list: a second list or any other text after
     * it would otherwise be dropped without a word. */
    if (root && end) {
        end += strspn(end, " \t\r\n");
        if (*end) {
            cJSON_Delete(root);
            *st = gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                            "parameter " PARAM ": '%.200s' follows the list; give one list "
                            "of lists such as [[0,1],[2,3,4]]",
                            end);
            return NULL;
        }
    }
    if (!root || !cJSON_IsArray(root)) {
        cJSON_Delete(root);
        *st = gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                        "parameter " PARAM ": '%.200s' is not a list of lists of feature "
                        "indices such as [[0,1],[2,3,4]]",
                        text);
        return NULL;
    }
    int32_t s = 0;
    for (const cJSON *set = root->child; set; set = set->next, s++) {
        if (!cJSON_IsArray(set)) {
            *st = gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                            "parameter " PARAM ": set %d is not a list of feature indices",
                            (int)s);
            break;
        }
        for (const cJSON *f = set->child; f; f = f->next) {
            const double v = cJSON_IsNumber(f) ? f->valuedouble : -1.0;
            if (!(v >= 0.0 && v <= 2147483647.0 && v == (double)(int32_t)v)) {
                char shown[64];
                if (cJSON_IsNumber(f)) snprintf(shown, sizeof shown, "%g", f->valuedouble);
                else if (cJSON_IsString(f)) snprintf(shown, sizeof shown, "'%.50s'", f->valuestring);
                else snprintf(shown, sizeof shown, "a value that is no number");
                *st = gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                                "parameter " PARAM ": set %d holds %s, not a feature "
                                "index (an integer >= 0)",
                                (int)s, shown);
                break;
            }
        }
        if (*st != GPULAYER_OK) break;
    }
    if (*st != GPULAYER_OK) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

gpulayer_status gpl_interactions_check(const char *text, char *out, size_t size)
{
    gpulayer_status st;
    cJSON *root = parse_list(text, &st);
    if (!root) return st;
    const int n = cJSON_GetArraySize(root);
    char *compact = n > 0 ? cJSON_PrintUnformatted(root) : NULL;
    cJSON_Delete(root);
    if (n > 0 && !compact)
        return gpl_error(GPULAYER_ERR_OUT_OF_MEMORY, "out of memory for " PARAM);
    const char *t = compact ? compact : "";
    if (strlen(t) >= size)
        st = gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                       "parameter " PARAM ": the sets take more than %zu characters",
                       size - 1);
    else
        memcpy(out, t, strlen(t) + 1);
    free(compact);
    return st;
}

gpulayer_status gpl_interactions_parse(const char *text, int32_t num_features,
                                       gpl_interactions *out)
{
    memset(out, 0, sizeof *out);
    gpulayer_status st;
    cJSON *root = parse_list(text, &st);
    if (!root) return st;
    const int32_t n = cJSON_GetArraySize(root);
    out->num_features = num_features;
    if (n > 0 && !(out->member = gpl_calloc((size_t)n * (size_t)(num_features ? num_features : 1),
                                             1, "interaction constraints"))) {
        cJSON_Delete(root);
        return GPULAYER_ERR_OUT_OF_MEMORY;
    }
    int32_t s = 0;
    for (const cJSON *set = root->child; set && st == GPULAYER_OK; set = set->next, s++)
        for (const cJSON *f = set->child; f; f = f->next) {
            const int32_t v = (int32_t)f->valuedouble;
            if (v >= num_features) {
                st = gpl_error(GPULAYER_ERR_INVALID_ARGUMENT,
                               "parameter " PARAM ": set %d names feature %d, but the data "
                               "have %d features (indices 0..%d)",
                               (int)s, (int)v, (int)num_features, (int)num_features - 1);
                break;
            }
            out->member[(size_t)s * (size_t)num_features + (size_t)v] = 1;
        }
    cJSON_Delete(root);
    out->num_sets = n;
    if (st != GPULAYER_OK) gpl_interactions_free(out);
    return st;
}

void gpl_interactions_free(gpl_interactions *x)
{
    free(x->member);
    memset(x, 0, sizeof *x);
}

void gpl_interactions_allowed(const gpl_interactions *x, const uint8_t *path_used,
                              uint8_t *allowed)
{
    const int32_t F = x->num_features;
    int any = 0;
    for (int32_t f = 0; f < F; f++) any |= path_used[f];
    if (!any) { /* the root */
        memset(allowed, 1, (size_t)F);
        return;
    }
    memcpy(allowed, path_used, (size_t)F);
    for (int32_t s = 0; s < x->num_sets; s++) {
        const uint8_t *member = x->member + (size_t)s * (size_t)F;
        int holds_path = 1;
        for (int32_t f = 0; f < F && holds_path; f++)
            if (path_used[f] && !member[f]) holds_path = 0;
        if (holds_path)
            for (int32_t f = 0; f < F; f++) allowed[f] |= member[f];
    }
}
