/* lightgbm_names.c -- LightGBM's objective and metric names (with their
 * aliases, from LightGBM 4's parameter list) as XGBoost's. A name whose
 * meaning differs is not mapped: it gets a reason instead. */
#include "lightgbm_names.h"

#include <string.h>

typedef struct name_map {
    const char *lightgbm; /* comma separated: the name and its aliases */
    const char *xgboost;  /* NULL: not implemented, see why            */
    const char *why;
} name_map;

static const name_map objectives[] = {
    {"regression,regression_l2,l2,mean_squared_error,mse,l2_root,root_mean_squared_error,rmse",
     "reg:squarederror", NULL},
    {"regression_l1,l1,mean_absolute_error,mae", "reg:absoluteerror", NULL},
    {"quantile", "reg:quantileerror", NULL},
    {"poisson", "count:poisson", NULL},
    {"gamma", "reg:gamma", NULL},
    {"tweedie", "reg:tweedie", NULL},
    {"binary", "binary:logistic", NULL},
    {"cross_entropy,xentropy", "reg:logistic", NULL},
    {"multiclass,softmax", "multi:softprob", NULL},
    {"lambdarank", "rank:ndcg", NULL},
    {"huber", NULL, "LightGBM's Huber loss is not implemented; reg:pseudohubererror "
                    "(huber_slope) is the smooth version"},
    {"fair", NULL, "the Fair loss is not implemented; reg:pseudohubererror is near it"},
    {"mape,mean_absolute_percentage_error", NULL,
     "the MAPE loss is not implemented (mape is a metric)"},
    {"multiclassova,multiclass_ova,ova,ovr", NULL,
     "one-vs-all multiclass is not implemented; use multi:softprob"},
    {"cross_entropy_lambda,xentlambda", NULL, "not implemented; use reg:logistic"},
    {"rank_xendcg,xendcg,xe_ndcg,xe_ndcg_mart,xendcg_mart", NULL,
     "not implemented; use rank:ndcg"},
};

static const name_map metrics[] = {
    {"l2_root,root_mean_squared_error,rmse", "rmse", NULL},
    {"l1,mean_absolute_error,mae,regression_l1", "mae", NULL},
    {"mape,mean_absolute_percentage_error", "mape", NULL},
    {"quantile", "quantile", NULL},
    {"poisson", "poisson-nloglik", NULL},
    {"gamma", "gamma-nloglik", NULL},
    {"gamma_deviance", "gamma-deviance", NULL},
    {"binary_logloss,binary", "logloss", NULL},
    /* The same sum: -(y log p + (1 - y) log(1 - p)) for labels in [0, 1]. */
    {"cross_entropy,xentropy", "logloss", NULL},
    {"binary_error", "error", NULL},
    {"auc", "auc", NULL},
    {"multi_logloss,multiclass,softmax,multiclassova,multiclass_ova,ova,ovr", "mlogloss", NULL},
    {"multi_error", "merror", NULL},
    {"ndcg,lambdarank,rank_xendcg,xendcg,xe_ndcg,xe_ndcg_mart,xendcg_mart", "ndcg", NULL},
    {"map,mean_average_precision", "map", NULL},
    {"l2,mean_squared_error,mse,regression_l2,regression", "mse", NULL},
    /* huber and average_precision are metrics of their own (metric.c);
     * tweedie is tweedie-nloglik at tweedie_variance_power (param_table.c). */
    {"fair,cross_entropy_lambda,xentlambda,"
     "kullback_leibler,kldiv,auc_mu",
     NULL, "not implemented"},
};

/* Whether name is one of the comma-separated names of list. */
static int listed(const char *list, const char *name)
{
    const size_t n = strlen(name);
    for (const char *s = list; *s;) {
        const size_t len = strcspn(s, ",");
        if (len == n && strncmp(s, name, n) == 0) return 1;
        s += len + (s[len] == ',');
    }
    return 0;
}

static const char *lookup(const name_map *map, size_t count, const char *name,
                          const char **why)
{
    *why = NULL;
    for (size_t i = 0; name && i < count; i++) {
        if (!listed(map[i].lightgbm, name)) continue;
        if (!map[i].xgboost) *why = map[i].why;
        return map[i].xgboost;
    }
    return NULL;
}

const char *gpl_lightgbm_objective(const char *name, const char **why)
{
    return lookup(objectives, sizeof objectives / sizeof objectives[0], name, why);
}

const char *gpl_lightgbm_metric(const char *name, const char **why)
{
    return lookup(metrics, sizeof metrics / sizeof metrics[0], name, why);
}
