/* np: 1 */
/* MPI_T categories: every control and performance variable is in exactly one category; a
 * category's lists are those variables (MICA_EAGER_LIMIT and pt2pt_messages_sent in "pt2pt",
 * the collectives' algorithm counters in "coll"); a short array takes the first ones only;
 * names find indices; errors have the standard's codes; nothing changes, so
 * MPI_T_category_changed's number stays. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(cond) do { if (!(cond)) { printf("FAIL line %d: %s\n", __LINE__, #cond); exit(1); } } while (0)
#define RC(call, want) do { int rc_ = (call); if (rc_ != (want)) { \
    printf("FAIL line %d: %s returned %d, wanted %d\n", __LINE__, #call, rc_, (want)); exit(1); } } while (0)

int main(void)
{
    int provided, ncat, ncvar, npvar, i, j, stamp, stamp2;
    RC(MPI_T_category_get_num(&ncat), MPI_T_ERR_NOT_INITIALIZED);
    RC(MPI_T_category_changed(&stamp), MPI_T_ERR_NOT_INITIALIZED);
    RC(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), MPI_SUCCESS);   /* no MPI_Init at all */
    RC(MPI_T_category_changed(&stamp), MPI_SUCCESS);
    RC(MPI_T_category_get_num(&ncat), MPI_SUCCESS);
    RC(MPI_T_cvar_get_num(&ncvar), MPI_SUCCESS);
    RC(MPI_T_pvar_get_num(&npvar), MPI_SUCCESS);
    CHECK(ncat >= 5);
    int *cvar_in = calloc(ncvar, sizeof(int)), *pvar_in = calloc(npvar, sizeof(int));
    int eager, sent, rab, pt2pt = -1, coll = -1;
    RC(MPI_T_cvar_get_index("MICA_EAGER_LIMIT", &eager), MPI_SUCCESS);
    RC(MPI_T_pvar_get_index("pt2pt_messages_sent", MPI_T_PVAR_CLASS_COUNTER, &sent), MPI_SUCCESS);
    RC(MPI_T_pvar_get_index("coll_allreduce_rabenseifner", MPI_T_PVAR_CLASS_COUNTER, &rab), MPI_SUCCESS);
    for (i = 0; i < ncat; i++) {
        char name[64], desc[256];
        int nlen = sizeof name, dlen = sizeof desc, nc, np, nsub, idx;
        RC(MPI_T_category_get_info(i, name, &nlen, desc, &dlen, &nc, &np, &nsub), MPI_SUCCESS);
        CHECK(nlen == (int)strlen(name) + 1 && dlen > 10 && nsub == 0);
        RC(MPI_T_category_get_index(name, &idx), MPI_SUCCESS);
        CHECK(idx == i);
        if (!strcmp(name, "pt2pt"))
            pt2pt = i;
        if (!strcmp(name, "coll"))
            coll = i;
        int *cv = malloc((nc + 1) * sizeof(int)), *pv = malloc((np + 1) * sizeof(int));
        RC(MPI_T_category_get_cvars(i, nc, cv), MPI_SUCCESS);
        RC(MPI_T_category_get_pvars(i, np, pv), MPI_SUCCESS);
        for (j = 0; j < nc; j++) {
            CHECK(cv[j] >= 0 && cv[j] < ncvar);
            cvar_in[cv[j]]++;
            if (cv[j] == eager)
                CHECK(!strcmp(name, "pt2pt"));
        }
        for (j = 0; j < np; j++) {
            CHECK(pv[j] >= 0 && pv[j] < npvar);
            pvar_in[pv[j]]++;
            if (pv[j] == sent)
                CHECK(!strcmp(name, "pt2pt"));
            if (pv[j] == rab)
                CHECK(!strcmp(name, "coll"));
        }
        if (nc >= 2) {                /* a short array: the first ones, nothing past it */
            int two[3] = {-7, -7, -7};
            RC(MPI_T_category_get_cvars(i, 1, two), MPI_SUCCESS);
            CHECK(two[0] == cv[0] && two[1] == -7);
        }
        RC(MPI_T_category_get_categories(i, 0, NULL), MPI_SUCCESS);
        free(cv), free(pv);
    }
    CHECK(pt2pt >= 0 && coll >= 0);
    for (i = 0; i < ncvar; i++)
        CHECK(cvar_in[i] == 1);
    for (i = 0; i < npvar; i++)
        CHECK(pvar_in[i] == 1);

    /* Errors. */
    int idx[4];
    char name[16];
    int len = sizeof name;
    RC(MPI_T_category_get_info(ncat, name, &len, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    RC(MPI_T_category_get_info(-1, name, &len, NULL, NULL, NULL, NULL, NULL), MPI_T_ERR_INVALID_INDEX);
    RC(MPI_T_category_get_cvars(ncat, 4, idx), MPI_T_ERR_INVALID_INDEX);
    RC(MPI_T_category_get_pvars(-1, 4, idx), MPI_T_ERR_INVALID_INDEX);
    RC(MPI_T_category_get_categories(ncat, 4, idx), MPI_T_ERR_INVALID_INDEX);
    RC(MPI_T_category_get_index("no such category", &i), MPI_T_ERR_INVALID_NAME);
    RC(MPI_T_category_changed(&stamp2), MPI_SUCCESS);
    CHECK(stamp2 == stamp);
    RC(MPI_T_finalize(), MPI_SUCCESS);
    RC(MPI_T_category_get_num(&ncat), MPI_T_ERR_NOT_INITIALIZED);
    free(cvar_in), free(pvar_in);
    printf("ok: %d categories\n", ncat);
    return 0;
}
