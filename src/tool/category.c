/* MPI_T categories: those of the tunables' table (gen/tunables.py's CATEGORIES), in its order;
 * each holds the control variables of its rows, and the performance variables and events
 * that name it. None has subcategories, and none ever changes: MPI_T_category_changed's
 * number stays 0. */
#include <string.h>

#include "core/tunables.h"
#include "core_api.h"
#include "tool/tool.h"

static int bad_category(int cat_index)
{
    return cat_index < 0 || cat_index >= mica_tunable_category_count;
}

int mica_t_category_get_num(int *num_cat)
{
    MICA_T_CHECK_INIT();
    if (num_cat)
        *num_cat = mica_tunable_category_count;
    return MPI_SUCCESS;
}

int mica_t_category_get_info(int cat_index, char *name, int *name_len, char *desc, int *desc_len,
                             int *num_cvars, int *num_pvars, int *num_categories)
{
    MICA_T_CHECK_INIT();
    if (bad_category(cat_index))
        return MPI_T_ERR_INVALID_INDEX;
    const char *cat = mica_tunable_categories[cat_index][0];
    mica_t_string(cat, name, name_len);
    mica_t_string(mica_tunable_categories[cat_index][1], desc, desc_len);
    if (num_cvars)
        *num_cvars = mica_t_cvars_of(cat, 0, NULL);
    if (num_pvars)
        *num_pvars = mica_t_pvars_of(cat, 0, NULL);
    if (num_categories)
        *num_categories = 0;
    return MPI_SUCCESS;
}

int mica_t_category_get_index(const char *name, int *cat_index)
{
    MICA_T_CHECK_INIT();
    if (!name || !cat_index)
        return MPI_T_ERR_INVALID;
    for (int i = 0; i < mica_tunable_category_count; i++)
        if (!strcmp(mica_tunable_categories[i][0], name)) {
            *cat_index = i;
            return MPI_SUCCESS;
        }
    return MPI_T_ERR_INVALID_NAME;
}

int mica_t_category_get_num_events(int cat_index, int *num_events)
{
    MICA_T_CHECK_INIT();
    if (bad_category(cat_index))
        return MPI_T_ERR_INVALID_INDEX;
    if (num_events)
        *num_events = mica_t_events_of(mica_tunable_categories[cat_index][0], 0, NULL);
    return MPI_SUCCESS;
}

/* The members of one kind, at most len of them, into indices. */
static int members(int cat_index, int len, int indices[],
                   int (*of)(const char *cat, int len, int *indices))
{
    MICA_T_CHECK_INIT();
    if (bad_category(cat_index))
        return MPI_T_ERR_INVALID_INDEX;
    if (len < 0 || (len > 0 && !indices))
        return MPI_T_ERR_INVALID;
    of(mica_tunable_categories[cat_index][0], len, indices);
    return MPI_SUCCESS;
}

int mica_t_category_get_cvars(int cat_index, int len, int indices[])
{
    return members(cat_index, len, indices, mica_t_cvars_of);
}

int mica_t_category_get_pvars(int cat_index, int len, int indices[])
{
    return members(cat_index, len, indices, mica_t_pvars_of);
}

int mica_t_category_get_events(int cat_index, int len, int indices[])
{
    return members(cat_index, len, indices, mica_t_events_of);
}

static int no_categories(const char *cat, int len, int *indices)
{
    (void)cat, (void)len, (void)indices;
    return 0;
}

int mica_t_category_get_categories(int cat_index, int len, int indices[])
{
    return members(cat_index, len, indices, no_categories);
}

int mica_t_category_changed(int *update_number)
{
    MICA_T_CHECK_INIT();
    if (!update_number)
        return MPI_T_ERR_INVALID;
    *update_number = 0;
    return MPI_SUCCESS;
}
