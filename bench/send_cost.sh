#!/usr/bin/env bash
# Instructions per 8-byte MPI_Send (inclusive, from callgrind) with Mica, MPICH and Open MPI:
#   bench/send_cost.sh [MESSAGES] [BYTES]
# Keep MESSAGES under what the transports buffer (~1000): beyond it the sender, slowed down by
# valgrind, would also be measuring how it waits for the receiver.
# With `recv` first, instructions per MPI_Recv of a message that has already arrived
# (recv_cost.c: the receiver, rank 1, runs under callgrind):
#   bench/send_cost.sh recv [MESSAGES] [BYTES]
set -u
here=$(cd "$(dirname "$0")" && pwd)
prefix=${MICA_PREFIX:-$here/../install}
call=Send; prog=send_cost; measured=0
if [ "${1:-}" = recv ]; then
    call=Recv; prog=recv_cost; measured=1; shift
fi
n=${1:-1000}; bytes=${2:-8}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# The rank variable each launcher sets, to run only the measured rank under callgrind.
cat > "$tmp/measured.sh" <<EOT
#!/bin/sh
r=\${PMI_RANK:-\${OMPI_COMM_WORLD_RANK:-0}}
if [ "\$r" = $measured ]; then
    exec valgrind --tool=callgrind --callgrind-out-file="\$OUT" "\$@" 2>/dev/null
fi
exec "\$@"
EOT
chmod +x "$tmp/measured.sh"
for mpi in mica mpich openmpi; do
    case $mpi in
        mica) cc=$prefix/bin/mpicc; run="$prefix/bin/mpiexec -n 2" ;;
        mpich) cc=mpicc.mpich; run="mpiexec.mpich -n 2" ;;
        openmpi) cc=mpicc.openmpi; run="mpiexec.openmpi --oversubscribe -n 2" ;;
    esac
    command -v "$cc" >/dev/null || { echo "$mpi: not installed"; continue; }
    "$cc" -O2 -g -o "$tmp/$mpi" "$here/$prog.c" || continue
    OUT=$tmp/$mpi.out $run "$tmp/measured.sh" "$tmp/$mpi" "$n" "$bytes" >/dev/null 2>&1
    per=$(callgrind_annotate --inclusive=yes "$tmp/$mpi.out" 2>/dev/null |
          awk -v n="$n" -v f="MPI_$call" '$0 ~ " P?" f " " || $0 ~ ":P?" f " " {gsub(",","",$1); print int($1/n); exit}')
    echo "$mpi: ${per:-?} instructions per MPI_$call of $bytes bytes"
done
