/* The MPI tool information interface (MPI_T, MPI 4.0 chapter 15): control variables made from
 * the tunables (cvar.c), performance variables over the core's counters (pvar.c), categories
 * (category.c), events and their sources (event.c), and what they share (tool.c).
 *
 * The tool sits on the orchestrators' floor: it reads the core's tunables and counters and
 * hands the event seam of core/counters.h its delivery; nothing below calls it. Its functions
 * may be called at any time, before MPI_Init and after MPI_Finalize, from any thread: each
 * binding (mode tool, gen/bindings.py) holds the big lock (core/progress.h; a no-op unless
 * MPI_THREAD_MULTIPLE) and the tool's own recursive lock (mica_t_enter), and returns the
 * MPI_T_ERR_* code as is: no error handler is called. */
#ifndef MICA_TOOL_H
#define MICA_TOOL_H

#include "mpi.h"

/* MPI_T_init_thread has been called more often than MPI_T_finalize. */
int mica_t_active(void);
#define MICA_T_CHECK_INIT()                                                                    \
    do {                                                                                       \
        if (!mica_t_active())                                                                  \
            return MPI_T_ERR_NOT_INITIALIZED;                                                  \
    } while (0)

/* The standard's convention for strings (MPI 4.0 section 15.3.3): len NULL, nothing; buf NULL
 * or *len 0, *len gets the full length (with the terminating null); else at most *len - 1
 * characters and a null are stored and *len gets how many were, null included. */
void mica_t_string(const char *s, char *buf, int *len);

/* A new empty info object into *info (NULL: nothing); MPI_T_ERR_MEMORY when it cannot be. */
int mica_t_new_info(MPI_Info *info);

/* The enumeration of an enum tunable (MPI_T_ENUM_NULL for other types). */
MPI_T_enum mica_t_enum_of_tunable(int tunable);

/* Each module's last MPI_T_finalize: free every handle, session and registration. */
void mica_t_cvar_free_all(void);
void mica_t_pvar_free_all(void);
void mica_t_event_free_all(void);
/* The first MPI_T_init_thread: fill the table of performance variables; connect the event
 * seam. */
void mica_t_pvar_setup(void);
void mica_t_event_setup(void);

/* Category membership, for category.c: how many variables (events) of each kind are in the
 * category named `cat`, and their indices (at most len). */
int mica_t_cvars_of(const char *cat, int len, int *indices);
int mica_t_pvars_of(const char *cat, int len, int *indices);
int mica_t_events_of(const char *cat, int len, int *indices);

#endif
