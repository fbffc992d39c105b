/* mica-prof: the process's state (state.h). */
#include "state.h"

mp_hot_t mp_hot = {.sites_on = 1, .depth = 1};
int mp_world_size, mp_world_rank;
mp_state mp_st;

int mp_mpi_active(void)
{
    int a = 0, b = 0;
    if (mp_st.inited)
        return !mp_st.finalized;
    PMPI_Initialized(&a);
    if (a)
        PMPI_Finalized(&b);
    return a && !b;
}
