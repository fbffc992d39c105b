/* File views: where the data of a view lies in the file (displacement, etype, tiled filetype). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/errors.h"
#include "core_api.h"
#include "io/io.h"

/* A filetype that is one run of bytes starting at its lower bound 0 with no gaps between tiles:
 * the view is the file itself from disp on. */
static int view_is_flat(const mica_type_t *ft)
{
    return ft->contiguous && ft->lb == 0 && ft->true_lb == 0 && ft->extent == ft->size;
}

MPI_Offset mica_io_view_map(const mica_file_t *fh, MPI_Offset d, MPI_Offset *contiguous)
{
    const mica_type_t *ft = fh->filetype;
    if (view_is_flat(ft)) {
        *contiguous = INT64_MAX - fh->disp - d;
        return fh->disp + d;
    }
    MPI_Offset tile = d / ft->size, within = d % ft->size;
    const MPI_Offset *cum = fh->filetype_cum;
    int lo = 0, hi = ft->nblocks - 1;      /* the last block starting at or before `within` */
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (cum[mid] <= within)
            lo = mid;
        else
            hi = mid - 1;
    }
    MPI_Offset into = within - cum[lo];
    *contiguous = ft->blocks[lo].length - into;
    return fh->disp + tile * ft->extent + ft->blocks[lo].offset + into;
}

/* The data bytes of the view that lie before file byte `end`: where MPI_SEEK_END points. */
static MPI_Offset view_bytes_before(const mica_file_t *fh, MPI_Offset end)
{
    const mica_type_t *ft = fh->filetype;
    if (end <= fh->disp)
        return 0;
    MPI_Offset rel = end - fh->disp;
    if (view_is_flat(ft))
        return rel;
    MPI_Offset tile = rel / ft->extent, r = rel % ft->extent, d = tile * ft->size;
    for (int i = 0; i < ft->nblocks; i++) {
        MPI_Offset in = r - ft->blocks[i].offset;
        d += in <= 0 ? 0 : in < ft->blocks[i].length ? in : ft->blocks[i].length;
    }
    return d;
}

static const char *const datarep_names[] = {"native", "internal", "external32"};

/* The representation `datarep` names (any case, as ROMIO accepts), or an error. */
static int parse_datarep(const char *datarep, int *rep)
{
    if (!datarep)
        return mica_error(MPI_ERR_ARG, "datarep is NULL");
    for (int i = 0; i < (int)(sizeof datarep_names / sizeof *datarep_names); i++)
        if (!strcasecmp(datarep, datarep_names[i])) {
            *rep = i;
            return MPI_SUCCESS;
        }
    return mica_error(MPI_ERR_UNSUPPORTED_DATAREP, "datarep=\"%.40s\" is not \"native\", "
                      "\"internal\" nor \"external32\"", datarep);
}

/* external32 views: the file's layout of the view's types must be their memory layout. */
static int check_external32(const char *which, const mica_type_t *type)
{
    const mica_type_t *b = mica_type_external32_resized(type);
    if (!b)
        return MPI_SUCCESS;
    return mica_error(MPI_ERR_UNSUPPORTED_DATAREP, "not yet: datarep=\"external32\" with %s "
                      "holding %s, whose size in external32 differs from its size in memory",
                      which, b->name);
}

/* The standard's rule for a view's etype and filetype: displacements not negative and never
 * decreasing, and, in a file open for writing, no two blocks overlapping (one byte of the file
 * would be two data bytes of the view). Errors of class MPI_ERR_IO, as ROMIO's (MPICH's
 * io/tst_fileview). */
static int check_view_type(const char *which, const mica_type_t *t, int writable)
{
    if (t->lb < 0 || t->true_lb < 0)
        return mica_error(MPI_ERR_IO, "%s has negative displacements", which);
    for (int i = 1; i < t->nblocks; i++) {
        const mica_block_t *prev = &t->blocks[i - 1], *b = &t->blocks[i];
        if (b->offset < prev->offset)
            return mica_error(MPI_ERR_IO, "%s has decreasing displacements (%lld after %lld)",
                              which, (long long)b->offset, (long long)prev->offset);
        if (writable && b->offset < prev->offset + prev->length)
            return mica_error(MPI_ERR_IO, "%s has overlapping blocks (at byte %lld), which a "
                              "file open for writing may not have", which, (long long)b->offset);
    }
    return MPI_SUCCESS;
}

static int set_types(mica_file_t *fh, MPI_Offset disp, mica_type_t *etype, mica_type_t *filetype)
{
    MPI_Offset *cum = malloc((size_t)(filetype->nblocks + 1) * sizeof *cum);
    if (!cum)
        return mica_error(MPI_ERR_NO_MEM, "no memory for the file view");
    cum[0] = 0;
    for (int i = 0; i < filetype->nblocks; i++)
        cum[i + 1] = cum[i] + filetype->blocks[i].length;
    mica_type_retain(etype);
    mica_type_retain(filetype);
    mica_io_view_free(fh);
    fh->disp = disp;
    fh->etype = etype;
    fh->filetype = filetype;
    fh->filetype_cum = cum;
    fh->position = 0;
    return MPI_SUCCESS;
}

int mica_io_view_init(mica_file_t *fh)
{
    return set_types(fh, 0, &mica_type_MPI_BYTE, &mica_type_MPI_BYTE);
}

void mica_io_view_free(mica_file_t *fh)
{
    if (fh->etype)
        mica_type_release(fh->etype);
    if (fh->filetype)
        mica_type_release(fh->filetype);
    free(fh->filetype_cum);
    fh->etype = fh->filetype = NULL;
    fh->filetype_cum = NULL;
}

/* MPI_File_set_view's arguments. */
static int check_view(const mica_file_t *fh, MPI_Offset disp, const mica_type_t *etype,
                      const mica_type_t *filetype, int rep)
{
    int rc, writable = !(fh->amode & MPI_MODE_RDONLY);
    if (!mica_type_ready(etype))
        return mica_error(MPI_ERR_TYPE, "etype is not committed");
    if (!mica_type_ready(filetype))
        return mica_error(MPI_ERR_TYPE, "filetype is not committed");
    if (etype->size <= 0)
        return mica_error(MPI_ERR_TYPE, "etype has no data");
    if (filetype->size <= 0 || filetype->size % etype->size)
        return mica_error(MPI_ERR_TYPE, "filetype is not made of whole etypes");
    if ((rc = check_view_type("etype", etype, writable)) != MPI_SUCCESS ||
        (rc = check_view_type("filetype", filetype, writable)) != MPI_SUCCESS)
        return rc;
    if (filetype->extent <= 0)
        return mica_error(MPI_ERR_TYPE, "filetype has an extent of %lld bytes",
                          (long long)filetype->extent);
    if (disp == MPI_DISPLACEMENT_CURRENT && !(fh->amode & MPI_MODE_SEQUENTIAL))
        return mica_error(MPI_ERR_ARG, "disp=MPI_DISPLACEMENT_CURRENT needs "
                          "MPI_MODE_SEQUENTIAL");
    if (disp < 0 && disp != MPI_DISPLACEMENT_CURRENT)
        return mica_error(MPI_ERR_ARG, "disp=%lld is negative", (long long)disp);
    if (rep == MICA_DATAREP_EXTERNAL32 && (rc = check_external32("etype", etype)) != MPI_SUCCESS)
        return rc;
    if (rep == MICA_DATAREP_EXTERNAL32)
        return check_external32("filetype", filetype);
    return MPI_SUCCESS;
}

int mica_file_set_view(mica_file_t *fh, MPI_Offset disp, mica_type_t *etype,
                       mica_type_t *filetype, const char *datarep, mica_info_t *info)
{
    (void)info;
    int rep = MICA_DATAREP_NATIVE;
    int rc = parse_datarep(datarep, &rep);
    if (rc == MPI_SUCCESS)
        rc = check_view(fh, disp, etype, filetype, rep);
    if (rc != MPI_SUCCESS)
        return rc;
    if (disp == MPI_DISPLACEMENT_CURRENT) {
        /* Sequential files: the new view starts where the shared file pointer is. */
        MPI_Offset shared = 0, contiguous;
        if (fh->comm->rank == 0 && (rc = mica_io_shared_fetch_add(fh, 0, &shared)) != MPI_SUCCESS)
            return rc;
        MPI_Offset at = mica_io_view_map(fh, shared * fh->etype->size, &contiguous);
        if ((rc = mica_bcast_c(&at, 1, &mica_type_MPI_OFFSET, 0, fh->comm)) != MPI_SUCCESS)
            return rc;
        disp = at;
    }
    /* Every rank has read the shared pointer before rank 0 resets it. */
    if ((rc = mica_barrier(fh->comm)) != MPI_SUCCESS)
        return rc;
    if ((rc = set_types(fh, disp, etype, filetype)) != MPI_SUCCESS)
        return rc;
    fh->datarep = rep;
    if (fh->comm->rank == 0 && (rc = mica_io_shared_set(fh, 0)) != MPI_SUCCESS)
        return rc;
    return mica_barrier(fh->comm);
}

/* The view's types as MPI_File_get_view returns them: predefined ones as they are, derived
 * ones as new duplicates the caller frees. */
static int view_type(mica_type_t *type, MPI_Datatype *out)
{
    if (mica_type_is_predefined(type)) {
        *out = (MPI_Datatype)type->obj.handle;
        return MPI_SUCCESS;
    }
    return mica_type_dup(type, out);
}

int mica_file_get_view(mica_file_t *fh, MPI_Offset *disp, MPI_Datatype *etype,
                       MPI_Datatype *filetype, char *datarep)
{
    int rc = view_type(fh->etype, etype);
    if (rc == MPI_SUCCESS)
        rc = view_type(fh->filetype, filetype);
    if (rc != MPI_SUCCESS)
        return rc;
    *disp = fh->disp;
    strcpy(datarep, datarep_names[fh->datarep]);
    return MPI_SUCCESS;
}

int mica_file_get_byte_offset(mica_file_t *fh, MPI_Offset offset, MPI_Offset *disp)
{
    if (offset < 0)
        return mica_error(MPI_ERR_ARG, "offset=%lld is negative", (long long)offset);
    MPI_Offset contiguous;
    *disp = mica_io_view_map(fh, offset * fh->etype->size, &contiguous);
    return MPI_SUCCESS;
}

/* The extent in the file: in memory's, but for a type of external32 sizes other than native
 * ones: a run of elements with no gaps takes their external32 bytes; others need scaled
 * displacements (not yet). */
int mica_file_get_type_extent_c(mica_file_t *fh, mica_type_t *datatype, MPI_Count *extent)
{
    if (fh->datarep != MICA_DATAREP_EXTERNAL32 || !mica_type_external32_resized(datatype)) {
        *extent = datatype->extent;
        return MPI_SUCCESS;
    }
    if (datatype->contiguous && datatype->lb == 0 && datatype->true_lb == 0 &&
        datatype->extent == datatype->size) {
        *extent = mica_type_external32_extent(datatype);
        return MPI_SUCCESS;
    }
    return check_external32("datatype", datatype);
}

int mica_file_get_type_extent(mica_file_t *fh, mica_type_t *datatype, MPI_Aint *extent)
{
    MPI_Count n = 0;
    int rc = mica_file_get_type_extent_c(fh, datatype, &n);
    if (rc == MPI_SUCCESS)
        *extent = (MPI_Aint)n;
    return rc;
}

/* Where MPI_SEEK_END puts a pointer: the etypes of the view before the end of the file. */
int mica_io_view_end(mica_file_t *fh, MPI_Offset *etypes)
{
    MPI_Offset size;
    int rc = mica_file_get_size(fh, &size);
    if (rc == MPI_SUCCESS)
        *etypes = view_bytes_before(fh, size) / fh->etype->size;
    return rc;
}
