/* mica-prof: the communicators' records (comms.h): ranks translated to MPI_COMM_WORLD once per
 * communicator, kept in a handle map. Only PMPI_ functions are called. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "comms.h"
#include "mp_gen.h"              /* MP_HAVE_: the functions this MPI has */
#include "map.h"
#include "state.h"

#include <stdlib.h>

static mp_map comm_map;
static mp_cinfo world_info;
static __thread mp_cinfo *spare_info;   /* when the map is full: the last one built */

static mp_cinfo *cinfo_build(MPI_Comm c)
{
    int rank = 0, size = 0, inter = 0, n;
    if (mp_st.world_group == MPI_GROUP_NULL)
        return NULL;
    if (PMPI_Comm_rank(c, &rank) != MPI_SUCCESS || PMPI_Comm_size(c, &size) != MPI_SUCCESS)
        return NULL;
#ifdef MP_HAVE_COMM_TEST_INTER
    if (mp_st.cap_inter && PMPI_Comm_test_inter(c, &inter) != MPI_SUCCESS)
        inter = 0;
#endif
    MPI_Group g;
    int rc;
#ifdef MP_HAVE_COMM_REMOTE_GROUP
    rc = inter ? PMPI_Comm_remote_group(c, &g) : PMPI_Comm_group(c, &g);
#else
    inter = 0;
    rc = PMPI_Comm_group(c, &g);
#endif
    if (rc != MPI_SUCCESS)
        return NULL;
    PMPI_Group_size(g, &n);
    mp_cinfo *ci = calloc(1, sizeof *ci + sizeof(int) * (size_t)n * 2);
    if (ci == NULL) {
        PMPI_Group_free(&g);
        return NULL;
    }
    ci->rank = rank;
    ci->size = size;
    ci->np = n;
    ci->inter = inter;
    ci->indeg = ci->outdeg = 0;
    ci->world = ci->ranks;
    int *tmp = ci->ranks + n;
    for (int i = 0; i < n; i++)
        tmp[i] = i;
    if (n > 0 && PMPI_Group_translate_ranks(g, n, tmp, mp_st.world_group, ci->world) != MPI_SUCCESS)
        for (int i = 0; i < n; i++)
            ci->world[i] = MPI_UNDEFINED;
    PMPI_Group_free(&g);
#ifdef MP_HAVE_TOPO_TEST
    int topo = MPI_UNDEFINED;
    if (mp_st.cap_topo && !inter && PMPI_Topo_test(c, &topo) == MPI_SUCCESS) {
        if (topo == MPI_CART) {
#ifdef MP_HAVE_CARTDIM_GET
            int nd = 0;
            PMPI_Cartdim_get(c, &nd);
            ci->indeg = ci->outdeg = 2 * nd;
#endif
        } else if (topo == MPI_GRAPH) {
#ifdef MP_HAVE_GRAPH_NEIGHBORS_COUNT
            int nn = 0;
            PMPI_Graph_neighbors_count(c, rank, &nn);
            ci->indeg = ci->outdeg = nn;
#endif
        } else if (topo == MPI_DIST_GRAPH) {
#ifdef MP_HAVE_DIST_GRAPH_NEIGHBORS_COUNT
            int in = 0, out = 0, w = 0;
            PMPI_Dist_graph_neighbors_count(c, &in, &out, &w);
            ci->indeg = in;
            ci->outdeg = out;
#endif
        }
    }
#endif
    return ci;
}

const mp_cinfo *mp_comm_get(MPI_Comm c)
{
    if (c == MPI_COMM_WORLD)
        return mp_usable() ? &world_info : NULL;
    uint64_t k = mp_hkey(&c, sizeof c);
    mp_cinfo *ci = mp_map_get(&comm_map, k);
    if (MP_LIKELY(ci != NULL))
        return ci;
    if (!mp_usable() || c == MPI_COMM_NULL)
        return NULL;
    if (spare_info && spare_info->key == k)
        return spare_info;
    /* Not seen at creation (made through a path the tool does not wrap): build it now. */
    ci = cinfo_build(c);
    if (ci == NULL)
        return NULL;
    ci->key = k;
    void *old = mp_map_put(&comm_map, k, ci, 1u << 14);
    if (old == ci) {                    /* map full */
        free(spare_info);
        spare_info = ci;
    } else {
        free(old);
    }
    return ci;
}

void mp_comm_created(MPI_Comm c)
{
    if (!mp_usable() || c == MPI_COMM_NULL || c == MPI_COMM_WORLD)
        return;
    uint64_t k = mp_hkey(&c, sizeof c);
    mp_cinfo *ci = cinfo_build(c);
    if (ci == NULL)
        return;
    ci->key = k;
    void *old = mp_map_put(&comm_map, k, ci, 1u << 14);
    if (old == ci)
        free(ci);
    else
        free(old);
}

void mp_comm_forget(MPI_Comm c)
{
    if (c == MPI_COMM_NULL || c == MPI_COMM_WORLD)
        return;
    free(mp_map_take(&comm_map, mp_hkey(&c, sizeof c)));
}

void mp_comm_world_init(void)
{
    world_info.rank = mp_world_rank;
    world_info.size = world_info.np = mp_world_size;
    world_info.world = calloc((size_t)mp_world_size + 1, sizeof(int));
    for (int i = 0; world_info.world && i < mp_world_size; i++)
        world_info.world[i] = i;
}
