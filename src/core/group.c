/* Groups: inquiries, comparison, translation and the constructors (incl, excl, ranges, set
 * operations). A group is a list of world ranks; set operations mark members in a table indexed
 * by world rank, so each is linear in the sizes involved. */
#include <stdlib.h>
#include <string.h>

#include "core/comm.h"
#include "core/errors.h"
#include "core/group.h"
#include "core_api.h"

mica_group_t *mica_group_new(int *world, int size)
{
    mica_group_t *g = mica_obj_new(MICA_GROUP, sizeof *g);
    if (!g) {
        free(world);
        return NULL;
    }
    g->size = size;
    g->world = world;
    g->rank = MPI_UNDEFINED;
    for (int i = 0; i < size; i++)
        if (world[i] == mica_comm_world.rank) {
            g->rank = i;
            break;
        }
    return g;
}

void mica_group_release(mica_group_t *group)
{
    if (group->obj.handle < MICA_PREDEFINED_MAX)
        return;
    free(group->world);
    mica_obj_free(group);
}

MPI_Group mica_group_handle(mica_group_t *group)
{
    return (MPI_Group)group->obj.handle;
}

/* Hand a new group of `size` members (their world ranks, malloc'd) to the user. */
static int deliver(int *world, int size, MPI_Group *newgroup)
{
    if (!size) {
        free(world);
        *newgroup = MPI_GROUP_EMPTY;
        return MPI_SUCCESS;
    }
    mica_group_t *g = mica_group_new(world, size);
    if (!g)
        return mica_error(MPI_ERR_NO_MEM, "no memory for a new group");
    *newgroup = mica_group_handle(g);
    return MPI_SUCCESS;
}

static int *alloc_ranks(int n)
{
    return malloc((n > 0 ? (size_t)n : 1) * sizeof(int));
}

/* A table with one byte per world rank, zeroed. */
static unsigned char *world_table(void)
{
    return calloc((size_t)mica_comm_world.size + 1, 1);
}

static int no_mem(void)
{
    return mica_error(MPI_ERR_NO_MEM, "no memory for a group operation");
}

int mica_group_size(mica_group_t *group, int *size)
{
    *size = group->size;
    return MPI_SUCCESS;
}

int mica_group_rank(mica_group_t *group, int *rank)
{
    *rank = group->rank;
    return MPI_SUCCESS;
}

int mica_group_free(MPI_Group *group)
{
    mica_group_release(mica_group_lookup(*group));
    *group = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}

int mica_group_translate_ranks(mica_group_t *group1, int n, const int ranks1[],
                               mica_group_t *group2, int ranks2[])
{
    if (n < 0)
        return mica_error(MPI_ERR_ARG, "n=%d is negative", n);
    if (n && (!ranks1 || !ranks2))
        return mica_error(MPI_ERR_ARG, "%s is NULL", ranks1 ? "ranks2" : "ranks1");
    for (int i = 0; i < n; i++)
        if (ranks1[i] != MPI_PROC_NULL && (ranks1[i] < 0 || ranks1[i] >= group1->size))
            return mica_error(MPI_ERR_RANK, "ranks1[%d]=%d is not a rank of group1 (size %d)", i,
                              ranks1[i], group1->size);
    /* The rank in group2 of each world rank. */
    int *where = malloc(((size_t)mica_comm_world.size + 1) * sizeof(int));
    if (!where)
        return no_mem();
    for (int w = 0; w < mica_comm_world.size; w++)
        where[w] = MPI_UNDEFINED;
    for (int i = 0; i < group2->size; i++)
        where[group2->world[i]] = i;
    for (int i = 0; i < n; i++)
        ranks2[i] = ranks1[i] == MPI_PROC_NULL ? MPI_PROC_NULL : where[group1->world[ranks1[i]]];
    free(where);
    return MPI_SUCCESS;
}

int mica_group_compare(mica_group_t *group1, mica_group_t *group2, int *result)
{
    if (group1->size != group2->size) {
        *result = MPI_UNEQUAL;
        return MPI_SUCCESS;
    }
    if (!group1->size || !memcmp(group1->world, group2->world, group1->size * sizeof(int))) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    unsigned char *in1 = world_table();
    if (!in1)
        return no_mem();
    for (int i = 0; i < group1->size; i++)
        in1[group1->world[i]] = 1;
    *result = MPI_SIMILAR;
    for (int i = 0; i < group2->size; i++)
        if (!in1[group2->world[i]]) {
            *result = MPI_UNEQUAL;
            break;
        }
    free(in1);
    return MPI_SUCCESS;
}

/* Check a list of ranks of `group` (distinct, in range) and mark them in `seen` (group->size
 * bytes, zeroed). */
static int check_ranks(mica_group_t *group, int n, const int ranks[], unsigned char *seen)
{
    if (n < 0)
        return mica_error(MPI_ERR_ARG, "n=%d is negative", n);
    if (n > group->size)
        return mica_error(MPI_ERR_ARG, "n=%d is larger than the group (size %d)", n, group->size);
    if (n && !ranks)
        return mica_error(MPI_ERR_ARG, "ranks is NULL");
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= group->size)
            return mica_error(MPI_ERR_RANK, "ranks[%d]=%d is not a rank of the group (size %d)",
                              i, ranks[i], group->size);
        if (seen[ranks[i]])
            return mica_error(MPI_ERR_RANK, "ranks[%d]=%d appears twice", i, ranks[i]);
        seen[ranks[i]] = 1;
    }
    return MPI_SUCCESS;
}

int mica_group_incl(mica_group_t *group, int n, const int ranks[], MPI_Group *newgroup)
{
    unsigned char *seen = calloc((size_t)group->size + 1, 1);
    int *world = alloc_ranks(n);
    if (!seen || !world) {
        free(seen), free(world);
        return no_mem();
    }
    int rc = check_ranks(group, n, ranks, seen);
    free(seen);
    if (rc != MPI_SUCCESS) {
        free(world);
        return rc;
    }
    for (int i = 0; i < n; i++)
        world[i] = group->world[ranks[i]];
    return deliver(world, n, newgroup);
}

/* The members of `group` not marked in `drop`, in order. */
static int keep_unmarked(mica_group_t *group, const unsigned char *drop, int ndrop,
                         MPI_Group *newgroup)
{
    int *world = alloc_ranks(group->size - ndrop), k = 0;
    if (!world)
        return no_mem();
    for (int i = 0; i < group->size; i++)
        if (!drop[i])
            world[k++] = group->world[i];
    return deliver(world, k, newgroup);
}

int mica_group_excl(mica_group_t *group, int n, const int ranks[], MPI_Group *newgroup)
{
    unsigned char *seen = calloc((size_t)group->size + 1, 1);
    if (!seen)
        return no_mem();
    int rc = check_ranks(group, n, ranks, seen);
    if (rc == MPI_SUCCESS)
        rc = keep_unmarked(group, seen, n, newgroup);
    free(seen);
    return rc;
}

/* Expand (first, last, stride) triplets into a list of ranks; *out is malloc'd. */
static int expand_ranges(mica_group_t *group, int n, int ranges[][3], int **out, int *count)
{
    if (n < 0)
        return mica_error(MPI_ERR_ARG, "n=%d is negative", n);
    if (n && !ranges)
        return mica_error(MPI_ERR_ARG, "ranges is NULL");
    long long total = 0;
    for (int i = 0; i < n; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (!stride)
            return mica_error(MPI_ERR_ARG, "ranges[%d] has stride 0", i);
        if (first < 0 || first >= group->size || last < 0 || last >= group->size)
            return mica_error(MPI_ERR_RANK, "ranges[%d]=(%d, %d, %d) names a rank outside the "
                              "group (size %d)", i, first, last, stride, group->size);
        if ((last - first) / stride >= 0)
            total += (last - first) / stride + 1;
        if (total > group->size)
            return mica_error(MPI_ERR_RANK, "ranges name more ranks than the group has (%d)",
                              group->size);
    }
    int *ranks = alloc_ranks((int)total), k = 0;
    if (!ranks)
        return no_mem();
    for (int i = 0; i < n; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        for (int r = first; stride > 0 ? r <= last : r >= last; r += stride)
            ranks[k++] = r;
    }
    *out = ranks;
    *count = k;
    return MPI_SUCCESS;
}

int mica_group_range_incl(mica_group_t *group, int n, int ranges[][3], MPI_Group *newgroup)
{
    int *ranks, count;
    int rc = expand_ranges(group, n, ranges, &ranks, &count);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = mica_group_incl(group, count, ranks, newgroup);
    free(ranks);
    return rc;
}

int mica_group_range_excl(mica_group_t *group, int n, int ranges[][3], MPI_Group *newgroup)
{
    int *ranks, count;
    int rc = expand_ranges(group, n, ranges, &ranks, &count);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = mica_group_excl(group, count, ranks, newgroup);
    free(ranks);
    return rc;
}

enum setop { UNION, INTERSECTION, DIFFERENCE };

static int setop(mica_group_t *g1, mica_group_t *g2, enum setop op, MPI_Group *newgroup)
{
    unsigned char *in2 = world_table();
    int *world = alloc_ranks(g1->size + g2->size), k = 0;
    if (!in2 || !world) {
        free(in2), free(world);
        return no_mem();
    }
    for (int i = 0; i < g2->size; i++)
        in2[g2->world[i]] = 1;
    for (int i = 0; i < g1->size; i++)
        if (op == UNION || (op == INTERSECTION) == in2[g1->world[i]])
            world[k++] = g1->world[i];
    if (op == UNION) {
        for (int i = 0; i < g1->size; i++)
            in2[g1->world[i]] = 2;    /* members already taken from group1 */
        for (int i = 0; i < g2->size; i++)
            if (in2[g2->world[i]] == 1)
                world[k++] = g2->world[i];
    }
    free(in2);
    return deliver(world, k, newgroup);
}

int mica_group_union(mica_group_t *group1, mica_group_t *group2, MPI_Group *newgroup)
{
    return setop(group1, group2, UNION, newgroup);
}

int mica_group_intersection(mica_group_t *group1, mica_group_t *group2, MPI_Group *newgroup)
{
    return setop(group1, group2, INTERSECTION, newgroup);
}

int mica_group_difference(mica_group_t *group1, mica_group_t *group2, MPI_Group *newgroup)
{
    return setop(group1, group2, DIFFERENCE, newgroup);
}
