#!/usr/bin/env bash
# Instructions per 8-byte MPI_Send (inclusive, from callgrind) with Mica, MPICH and Open MPI:
#   bench/send_cost.sh [MESSAGES] [BYTES]
# Keep MESSAGES under what the transports buffer (~1000): beyond it the sender, slowed down by
# valgrind, would also be measuring how it waits for the receiver.
set -u
here=$(cd "$(dirname "$0")" && pwd)
prefix=${MICA_PREFIX:-$here/../install}
n=${1:-1000}; bytes=${2:-8}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The rank variable each launcher sets, to run only rank 0 under callgrind.
cat > "$tmp/rank0.sh" <<'EOT'
#!/bin/sh
r=${PMI_RANK:-${OMPI_COMM_WORLD_RANK:-0}}
if [ "$r" = 0 ]; then
    exec valgrind --tool=callgrind --callgrind-out-file="$OUT" "$@" 2>/dev/null
fi
exec "$@"
EOT
chmod +x "$tmp/rank0.sh"
for mpi in mica mpich openmpi; do
    case $mpi in
        mica) cc=$prefix/bin/mpicc; run="$prefix/bin/mpiexec -n 2" ;;
        mpich) cc=mpicc.mpich; run="mpiexec.mpich -n 2" ;;
        openmpi) cc=mpicc.openmpi; run="mpiexec.openmpi --oversubscribe -n 2" ;;
    esac
    command -v "$cc" >/dev/null || { echo "$mpi: not installed"; continue; }
    "$cc" -O2 -g -o "$tmp/$mpi" "$here/send_cost.c" || continue
    OUT=$tmp/$mpi.out $run "$tmp/rank0.sh" "$tmp/$mpi" "$n" "$bytes" >/dev/null 2>&1
    per=$(callgrind_annotate --inclusive=yes "$tmp/$mpi.out" 2>/dev/null |
          awk -v n="$n" '/ (P?MPI_Send|PMPI_Send|MPI_Send) / || /:P?MPI_Send /{gsub(",","",$1); print int($1/n); exit}')
    echo "$mpi: ${per:-?} instructions per MPI_Send of $bytes bytes"
done
