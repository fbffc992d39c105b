/* Attribute caching: keyvals, and the attributes they key on communicators and datatypes.
 *
 * The object modules keep a list pointer in their objects and call these hooks: copy the
 * attributes when an object is duplicated, delete them all when it is freed (and MPI_Finalize
 * deletes MPI_COMM_SELF's first). Both run the user's callbacks, so both can fail. */
#ifndef MICA_ATTR_H
#define MICA_ATTR_H

#include "core/objects.h"

typedef struct mica_attrs mica_attrs_t;   /* an object's attributes, in the order they were set */

/* Run the copy callbacks of the attributes in *from (of object `handle`) and store the copies
 * they ask for in *to, which is empty. If a callback fails, the copies made so far are deleted
 * again (their delete callbacks run on `newhandle`) and its error is returned. */
int mica_attr_copy_all(uintptr_t handle, mica_attrs_t **from, uintptr_t newhandle,
                       mica_attrs_t **to);
/* Delete every attribute of the object, the last set first; stops at the first delete callback
 * that fails and returns its error (the attributes not deleted yet stay). */
int mica_attr_delete_all(uintptr_t handle, mica_attrs_t **attrs);
/* A window's attribute of a user keyval (MPI_Win_get_attr's, beside the predefined ones). */
int mica_attr_win_get(mica_win_t *win, int win_keyval, void *attribute_val, int *flag);

/* The values of the predefined attributes that the launcher gives (MPI_Init). */
void mica_attr_set_environment(int universe_size, int appnum);
/* MPI_LASTUSEDCODE's value: the error codes module moves it as user codes come and go. */
void mica_attr_set_lastusedcode(int code);

#endif
