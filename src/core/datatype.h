/* Datatypes: a type is described by its size, bounds, and its data as a flat list of byte
 * blocks, which is all that packing, unpacking and reductions need. */
#ifndef MICA_DATATYPE_H
#define MICA_DATATYPE_H

#include "core/objects.h"

typedef struct mica_block {
    MPI_Aint offset;                  /* from the start of the element (the buffer address) */
    MPI_Aint length;                  /* bytes */
} mica_block_t;

struct mica_type {
    mica_obj_t obj;
    MPI_Count size;                   /* bytes of data in one element */
    MPI_Aint lb, extent;              /* the element's bounds, as MPI_Type_get_extent */
    MPI_Aint true_lb, true_extent;
    int contiguous;                   /* one block, offset lb... == true_lb, length size == extent */
    int committed;
    int nblocks;                      /* the data of one element, in order */
    mica_block_t *blocks;
    mica_type_t *basic;               /* every element made of this one predefined type, or NULL */
    MPI_Count nbasic;                 /* how many of them per element */
    int combiner;                     /* MPI_COMBINER_* */
    char name[MPI_MAX_OBJECT_NAME];
};

/* Copy bytes [pos, pos + len) of the packed form of (buf, count, type) to `packed`, or from
 * `packed` into the buffer; the pipelined transfers of large messages move one piece at a time. */
void mica_type_pack(const void *buf, MPI_Count count, const mica_type_t *type, MPI_Count pos,
                    void *packed, MPI_Count len);
void mica_type_unpack(void *buf, MPI_Count count, const mica_type_t *type, MPI_Count pos,
                      const void *packed, MPI_Count len);
/* Copy (src, count, stype) to (dst, count * stype size / dtype size, dtype): sendrecv to self,
 * MPI_IN_PLACE emulation in collectives. The type signatures must match (not checked here). */
void mica_type_copy(const void *src, MPI_Count scount, const mica_type_t *stype,
                    void *dst, MPI_Count dcount, const mica_type_t *dtype);

/* Is `type` usable for communication (committed, or predefined)? */
static inline int mica_type_ready(const mica_type_t *type) { return type->committed; }

#endif
