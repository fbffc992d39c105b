#!/bin/bash
# Every MPI_ function the MPI's mpi.h declares has a wrapper (MPI-4 functions included where
# the header has them), and the Fortran linker names exist for the Fortran functions.
. "$(dirname "$0")/lib.sh"
cd "$MICA_TMP" || exit 1
for f in $(flavors); do
    lib=$(lib_of "$f")
    echo '#include <mpi.h>' > h.c
    $(cc_of "$f") -E h.c > "$f.i" || fail "$f: cannot preprocess mpi.h"
    $(cc_of "$f") -E -dM h.c > "$f.dM"
    python3 - "$f.i" "$f.dM" "$MICA_ROOT/tools/prof" > "$f.want" <<'PY' || fail "$f: reading mpi.h"
import sys
sys.path.insert(0, sys.argv[3])
import gen_wrappers as g
protos = g.read_header(sys.argv[1])
macros = g.read_macros(sys.argv[2])
for n in sorted(protos):
    if n.startswith('MPI_') and n not in macros and ('P' + n in protos or 'P' + n in macros):
        print(n)
PY
    nm -D --defined-only "$lib" | awk '$2 == "T" && $3 ~ /^MPI_[A-Z]/ && $3 !~ /^[A-Z0-9_]+$/ && $3 !~ /_f08$/ {print $3}' | sort > "$f.have"
    want=$(wc -l < "$f.want")
    [ "$want" -gt 300 ] || fail "$f: only $want functions found in mpi.h"
    if ! diff "$f.want" "$f.have" > "$f.diff"; then
        head -20 "$f.diff"
        fail "$f: wrappers differ from the functions mpi.h declares"
    fi
    echo "$f: $want functions wrapped"
    for s in mpi_send mpi_send_ mpi_send__ MPI_SEND mpi_allreduce_ mpi_comm_split_ mpi_pcontrol_ \
             mpi_waitall_ mpi_type_size_ mpi_comm_set_name_; do
        nm -D --defined-only "$lib" | grep -q " T $s\$" || fail "$f: no Fortran entry $s"
    done
done
# Mica declares the whole MPI 5.0 API: all of it is wrapped, MPI-4 additions included
for fn in MPI_Isendrecv MPI_Psend_init MPI_Pready MPI_Comm_create_from_group MPI_Session_init \
          MPI_Allreduce_init MPI_Send_c MPI_Neighbor_alltoallw_c MPI_Info_create_env; do
    grep -qx "$fn" mica.have || fail "Mica: no wrapper for $fn"
done
[ "$(wc -l < mica.have)" = "$(grep -c '^MPI_' "$MICA_ROOT/api/functions.tsv")" ] || fail "Mica: not every function of the API table is wrapped"
