/* booster_categories.c -- a model's tree count and category dictionaries,
 * for callers that read data as the model does or show its splits. */
#include "booster.h"
#include "gpulayer.h"

int32_t gpulayer_booster_num_trees(const gpulayer_booster *b)
{
    return b && b->model ? b->model->num_trees : 0;
}

int32_t gpulayer_booster_num_categories(const gpulayer_booster *b, int32_t col)
{
    if (!b || !b->model || !b->model->categories) return 0;
    if (col < 0 || col >= b->model->num_features || !b->model->categories[col]) return 0;
    return b->model->categories[col]->count;
}

const char *gpulayer_booster_category_name(const gpulayer_booster *b, int32_t col,
                                           int32_t code)
{
    if (code < 0 || code >= gpulayer_booster_num_categories(b, col)) return NULL;
    return b->model->categories[col]->names[code];
}
