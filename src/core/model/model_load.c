/* model_load.c -- a model file of any format GPUlayer reads, told apart by
 * its first bytes: LightGBM's text model starts with the line "tree",
 * XGBoost's UBJSON with '{' and a binary marker, and of the JSON
 * documents XGBoost's holds a "learner" object (its first member as
 * XGBoost writes it), GPUlayer's does not. */
#include <cjson/cJSON.h>
#include <string.h>

#include "error.h"
#include "model_import.h"
#include "ubjson_read.h"

static int is_lightgbm(const char *buf, size_t len)
{
    return len >= 5 && memcmp(buf, "tree", 4) == 0 && (buf[4] == '\n' || buf[4] == '\r');
}

/* Whether the JSON text's first member is "learner" (whitespace skipped). */
static int learner_first(const char *buf, size_t len)
{
    size_t i = 0;
    while (i < len && strchr(" \t\r\n", buf[i]) && buf[i]) i++;
    if (i >= len || buf[i] != '{') return 0;
    i++;
    while (i < len && strchr(" \t\r\n", buf[i]) && buf[i]) i++;
    return len - i >= 9 && memcmp(buf + i, "\"learner\"", 9) == 0;
}

static gpulayer_status import_xgboost_json(const char *buf, size_t len, const char *source,
                                           gpl_model **out)
{
    cJSON *doc = cJSON_ParseWithLength(buf, len);
    if (!doc) return gpl_model_error(source, "not valid JSON (an XGBoost model was expected)");
    gpulayer_status st = gpl_model_import_xgboost(doc, source, out);
    cJSON_Delete(doc);
    return st;
}

gpulayer_status gpl_model_load_buffer(const char *buf, size_t len, const char *source,
                                      gpl_model **out)
{
    *out = NULL;
    if (is_lightgbm(buf, len)) return gpl_model_import_lightgbm(buf, len, source, out);
    if (gpl_ubjson_sniff(buf, len)) {
        cJSON *doc = NULL;
        GPL_CHECK(gpl_ubjson_parse((const uint8_t *)buf, len, source, &doc));
        gpulayer_status st = cJSON_GetObjectItemCaseSensitive(doc, "learner")
                                 ? gpl_model_import_xgboost(doc, source, out)
                                 : gpl_model_error(source, "a UBJSON document without an "
                                                           "XGBoost \"learner\"");
        cJSON_Delete(doc);
        return st;
    }
    if (learner_first(buf, len)) return import_xgboost_json(buf, len, source, out);
    gpulayer_status st = gpl_model_from_json(buf, len, source, out);
    if (st == GPULAYER_OK) return st;
    /* An XGBoost document whose members were reordered by another tool. */
    cJSON *doc = cJSON_ParseWithLength(buf, len);
    const int xgboost = cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(doc, "learner"));
    cJSON_Delete(doc);
    if (!xgboost) return st; /* with the GPUlayer reader's message */
    return import_xgboost_json(buf, len, source, out);
}
