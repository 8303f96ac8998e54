/* param_table.h -- the one table of training parameters: for each, its
 * name, aliases, type, default, allowed values, one-line doc, where it
 * applies, and how it is read and written. gpl_params_set/get (params.c),
 * the public gpulayer_param_* listing, `gpulayer params`, `train --help`,
 * the Python estimators and docs/parameters.md all come from it. */
#ifndef GPL_PARAM_TABLE_H
#define GPL_PARAM_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "params.h"

typedef enum gpl_param_kind {
    GPL_PARAM_NUMBER,  /* a double member, bounds from range: "(0, 1]"     */
    GPL_PARAM_INTEGER, /* an int32_t member, bounds from range: "0..30"     */
    GPL_PARAM_BOOLEAN, /* an int32_t member, true/false/1/0                 */
    GPL_PARAM_CUSTOM   /* its own set and get                               */
} gpl_param_kind;

typedef gpulayer_status (*gpl_param_setter)(gpl_params *p, const char *key,
                                            const char *value);
typedef void (*gpl_param_getter)(const gpl_params *p, char *buf, size_t size);

typedef struct gpl_param_spec {
    const char *name;
    const char *aliases;       /* comma separated; "" none                  */
    const char *group;         /* general, tree, sampling, objective, ...   */
    gpl_param_kind kind;
    const char *type;          /* CUSTOM only: text, list, ...              */
    /* The default as a value that may be set; in parentheses, a
     * description of a default that depends on other parameters. */
    const char *default_value;
    const char *range;         /* the allowed values, as errors name them   */
    const char *applies;       /* the objectives or settings it acts on     */
    const char *doc;           /* one line                                  */
    size_t offset;             /* NUMBER, INTEGER, BOOLEAN: the member      */
    gpl_param_setter set;      /* CUSTOM                                    */
    gpl_param_getter get;      /* CUSTOM, or a computed value of any kind   */
} gpl_param_spec;

int32_t gpl_param_count(void);
const gpl_param_spec *gpl_param_at(int32_t index);
/* The entry whose name or one of whose aliases is key; NULL when none. */
const gpl_param_spec *gpl_param_find(const char *key);
/* The name or alias nearest to key in edits, into buf, when near enough
 * to be a likely typo: returns 1 then, else 0. */
int gpl_param_suggest(const char *key, char *buf, size_t size);
/* Whether key is one of XGBoost's or LightGBM's parameters GPUlayer does
 * not implement; the reason and the nearest parameter go to buf. */
int gpl_param_not_implemented(const char *key, char *buf, size_t size);
/* The entry's type word: number, integer, boolean, or a CUSTOM's own. */
const char *gpl_param_type(const gpl_param_spec *spec);

/* value as a number within range ("(0, 1]": brackets closed, parentheses
 * open ends, inf allowed) or an integer within "lo..hi"; errors name key,
 * value and range. */
gpulayer_status gpl_param_parse_number(const char *key, const char *value, const char *range,
                                       double *out);
gpulayer_status gpl_param_parse_integer(const char *key, const char *value, const char *range,
                                        int32_t *out);
gpulayer_status gpl_param_parse_boolean(const char *key, const char *value, int32_t *out);

#endif
