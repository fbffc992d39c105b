#!/usr/bin/env python3
"""The profiling group rule of the standard's Fortran chapter (the seeds' F2008 note): if the peer
routine of a group is available under one linker-name scheme, every routine of its group is, and
if not, none is. The groups come from the API table (api/functions.tsv, its mpi_f08 facts):

  MPI_ALLOC_MEM          the routines returning a C pointer (MPI_ALLOC_MEM, MPI_WIN_ALLOCATE, ...)
  MPI_FREE_MEM, MPI_GET_ADDRESS, MPI_OP_CREATE, MPI_REGISTER_DATAREP   alone (with their _c forms)
  MPI_SEND               choice buffer, not ASYNCHRONOUS, in MPI-2.2
  MPI_NEIGHBOR_ALLTOALL  choice buffer, not ASYNCHRONOUS, new in MPI-3.0 or later
  MPI_ISEND              choice buffer, ASYNCHRONOUS, in MPI-2.2
  MPI_IBCAST             choice buffer, ASYNCHRONOUS, new in MPI-3.0 or later
  MPI_COMM_KEYVAL_CREATE the other routines with callback arguments
  MPI_COMM_DUP_FN        the predefined callbacks
  MPI_COMM_RANK          the other routines of MPI-2.2
  MPI_IBARRIER           the other routines new in MPI-3.0 or later

The schemes (nm -D libmpi_fort.so, MPI_ and PMPI_ names apart): mpif.h's and `use mpi`'s four
manglings (mpi_send, mpi_send_, mpi_send__, MPI_SEND) over the routines the standard gives those
(no large-count forms), and mpi_f08's specific procedures (mpi_send_f08ts_, mpi_comm_rank_f08_,
mpi_send_c_f08ts_) over the routines it gives mpi_f08. A group is listed with the routines it
lacks when it is neither complete nor empty; the test also asks every group to be complete.
"""
import os
import re
import subprocess
import sys

ROOT = os.environ.get('MICA_ROOT') or os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'gen'))
import api  # noqa: E402
import fortran_f08  # noqa: E402

PREFIX = os.environ.get('MICA_PREFIX', os.path.join(ROOT, 'install'))

# New in MPI-3.0 or later: the table does not say when a routine came, so by family.
NEW = re.compile(r'^MPI_(I?neighbor_|Neighbor_|Ineighbor_|Ibarrier|Ibcast|Igather|Iscatter'
                 r'|Iallgather|Ialltoall|Ireduce|Iallreduce|Iscan|Iexscan|Mprobe|Improbe|Mrecv'
                 r'|Imrecv|Comm_split_type|Comm_dup_with_info|Comm_set_info|Comm_get_info'
                 r'|Comm_create_group|Comm_idup|Win_allocate|Win_shared_query|Win_create_dynamic'
                 r'|Win_attach|Win_detach|Rput|Rget|Raccumulate|Get_accumulate|Fetch_and_op'
                 r'|Compare_and_swap|Win_lock_all|Win_unlock_all|Win_flush|Win_sync|Win_set_info'
                 r'|Win_get_info|Type_create_hindexed_block|Type_size_x|Type_get_extent_x'
                 r'|Type_get_true_extent_x|Get_elements_x|Status_set_elements_x'
                 r'|Get_library_version|Aint_add|Aint_diff|File_iread_at_all|File_iwrite_at_all'
                 r'|File_iread_all|File_iwrite_all|Psend_init|Precv_init|Pready|Parrived'
                 r'|Session_|Comm_create_from_group|Group_from_session_pset'
                 r'|Intercomm_create_from_groups|Isendrecv|Info_create_env|Info_get_string'
                 r'|Status_f082f|Status_f2f08|Comm_attach_buffer|Comm_detach_buffer'
                 r'|Comm_flush_buffer|Comm_iflush_buffer|Session_attach_buffer'
                 r'|Session_detach_buffer|Buffer_flush|Buffer_iflush|Request_get_status_'
                 r'|Type_get_value_index|Remove_error_|Get_hw_resource_info)')
PT2PT_INIT = ('MPI_Send_init', 'MPI_Bsend_init', 'MPI_Ssend_init', 'MPI_Rsend_init',
              'MPI_Recv_init')
ALONE = ('MPI_Free_mem', 'MPI_Get_address', 'MPI_Op_create', 'MPI_Register_datarep')
PREDEFINED = ['MPI_%s_%s' % (o, c) for o in ('COMM', 'TYPE', 'WIN')
              for c in ('NULL_COPY_FN', 'DUP_FN', 'NULL_DELETE_FN')] + [
              'MPI_NULL_COPY_FN', 'MPI_DUP_FN', 'MPI_NULL_DELETE_FN']


def new(f):
    name = f.name[:-2] if f.name.endswith('_c') else f.name
    return f.name.endswith('_c') or f.since == '5.0' or bool(NEW.match(name)) or (
        name.endswith('_init') and name not in PT2PT_INIT)


def group(f):
    base = f.name[:-2] if f.name.endswith('_c') else f.name
    if any(p.kind == 'C_BUFFER' and p.dir == 'out' for p in f.params):
        return 'MPI_ALLOC_MEM'
    if base in ALONE:
        return base.upper()
    if fortran_f08.has_buffer(f):
        asynchronous = any(p.kind == 'BUFFER' and p.name in f.asynchronous for p in f.params)
        return {(False, False): 'MPI_SEND', (False, True): 'MPI_NEIGHBOR_ALLTOALL',
                (True, False): 'MPI_ISEND', (True, True): 'MPI_IBCAST'}[(asynchronous, new(f))]
    if any('FUNCTION' in p.kind for p in f.params):
        return 'MPI_COMM_KEYVAL_CREATE'
    return 'MPI_IBARRIER' if new(f) else 'MPI_COMM_RANK'


def classic(f):
    """Routines of mpif.h and `use mpi`: no large-count forms, no C-only ones."""
    return f.set != 'c2f' and not f.name.endswith(('_c', '_toint', '_fromint')) and \
        not f.name.startswith('MPI_T_') and f.name != 'MPI_Status_f082f' and \
        f.name != 'MPI_Status_f2f08'


def main():
    so = os.path.join(PREFIX, 'lib', 'libmpi_fort.so')
    if not os.path.exists(os.path.join(PREFIX, 'bin', 'mpifort')):
        print('SKIP: no mpifort (built without a Fortran compiler)')
        sys.exit(77)
    out = subprocess.run(['nm', '-D', '--defined-only', so], stdout=subprocess.PIPE, text=True,
                         check=True).stdout
    have = {line.split()[-1] for line in out.splitlines() if len(line.split()) == 3}
    functions = api.functions()
    by_name = {f.name: f for f in functions}
    schemes = {}
    for prefix in ('', 'P'):
        for i, mangle in enumerate((lambda n: n.lower(), lambda n: n.lower() + '_',
                                    lambda n: n.lower() + '__', lambda n: n.upper())):
            schemes['%smpif.h/mpi #%d' % (prefix, i + 1)] = [
                (f.name, mangle(prefix + f.name)) for f in functions if classic(f)]
            schemes['%smpif.h/mpi #%d' % (prefix, i + 1)] += [
                ('callback ' + n, mangle(n)) for n in PREDEFINED] if not prefix else []
        schemes['%smpi_f08' % prefix] = [
            (f.name, fortran_f08.linker(prefix + fortran_f08.specific(f)))
            for f in functions if f.f08]
    status, total = 0, 0
    for scheme, routines in schemes.items():
        groups = {}
        for name, symbol in routines:
            g = 'MPI_COMM_DUP_FN' if name.startswith('callback ') else group(by_name[name])
            groups.setdefault(g, []).append((name, symbol in have))
        for g, members in sorted(groups.items()):
            missing = [n for n, ok in members if not ok]
            total += len(members)
            if missing:
                kind = 'is incomplete' if len(missing) < len(members) else 'is missing'
                print('FAIL: %s: group %s %s (%d of %d): %s' % (
                    scheme, g, kind, len(missing), len(members), ' '.join(missing[:12])))
                status = 1
        if not status:
            print('ok: %s: %s' % (scheme, ', '.join('%s %d' % (g, len(m))
                                                      for g, m in sorted(groups.items()))))
    print('%d routine names checked in %d schemes' % (total, len(schemes)))
    sys.exit(status)


if __name__ == '__main__':
    main()
