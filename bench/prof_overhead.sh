#!/usr/bin/env bash
# mica-prof's cost per intercepted MPI_Send, in instructions (callgrind), on Mica, MPICH and
# Open MPI:
#   bench/prof_overhead.sh [MESSAGES] [BYTES]
# Rank 0 of a 2-rank job sends MESSAGES messages of BYTES bytes under callgrind. Without the tool
# the figure is the library's own cost of MPI_Send; with it, the tool's extra instructions per
# call are the inclusive cost of its MPI_Send wrapper minus that of the library's PMPI_Send it
# calls (so the library's own variation does not enter), in these settings:
#   collecting   MICA_PROF_SITES=0 (statistics, bytes, histogram, matrix)
#   + sites      call sites, depth 1 (the default)
#   + depth 4    call sites with 4 frames (backtrace())
#   stopped      after MPI_Pcontrol(0)
# MPI libraries whose tool build is missing are built first (tools/prof/build.sh).
set -u
here=$(cd "$(dirname "$0")" && pwd)
prefix=${MICA_PREFIX:-$here/../install}
n=${1:-20000}; bytes=${2:-8}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# per-rank files only: the job report's collectives are not what is measured
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 MICA_PROF_QUIET=1 MICA_PROF_REPORT=rank
command -v valgrind >/dev/null || { echo "valgrind is not installed"; exit 1; }
cat > "$tmp/send.c" <<'EOT'
/* rank 0 sends n messages to rank 1; "stop" calls MPI_Pcontrol(0) first */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
    int rank, n = atoi(argv[1]), bytes = atoi(argv[2]);
    char buf[65536] = {0};
    MPI_Init(&argc, &argv);
    if (argc > 3 && !strcmp(argv[3], "stop"))
        MPI_Pcontrol(0);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (int i = 0; i < n; i++) {
        if (rank == 0)
            MPI_Send(buf, bytes, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
        else if (rank == 1)
            MPI_Recv(buf, bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
EOT
cat > "$tmp/rank0.sh" <<'EOT'
#!/bin/sh
r=${PMI_RANK:-${OMPI_COMM_WORLD_RANK:-0}}
if [ "$r" = 0 ]; then
    exec valgrind --tool=callgrind --callgrind-out-file="$OUT" "$@" 2>/dev/null
fi
exec "$@"
EOT
chmod +x "$tmp/rank0.sh"

# cost FILE: "wrapper library" inclusive instructions of MPI_Send in libmicaprof (0 without the
# tool) and of the library's send (PMPI_Send, or MPI_Send when it is the same function)
# (run from /: callgrind_annotate splits a function's inlined parts into separate entries when
# relative source paths resolve from the current directory)
cost() {
    (cd / && callgrind_annotate --inclusive=yes "$1" 2>/dev/null) | awk '
        / [^ ]*:P?MPI_Send \[/ {
            v = $1; gsub(",", "", v)
            if ($0 ~ /libmicaprof/) { if ($0 ~ /:MPI_Send \[/ && v + 0 > w + 0) w = v }
            else if (v + 0 > l + 0) l = v
        }
        END { print w + 0, l + 0 }'
}

printf '%-8s %14s %12s %12s %12s %12s\n' MPI "MPI_Send" collecting "+ sites" "+ depth 4" stopped
printf '%-8s %14s %12s %12s %12s %12s\n' "" "(library)" "(extra)" "(extra)" "(extra)" "(extra)"
for mpi in mica mpich openmpi; do
    case $mpi in
        mica) cc=$prefix/bin/mpicc; run="$prefix/bin/mpiexec -n 2" ;;
        mpich) cc=mpicc.mpich; run="mpiexec.mpich -n 2" ;;
        openmpi) cc=mpicc.openmpi; run="mpiexec.openmpi --oversubscribe -n 2" ;;
    esac
    command -v "$cc" >/dev/null || { echo "$mpi: not installed"; continue; }
    lib=$("$prefix/bin/mica-prof" --build "$mpi" 2>/dev/null) || { echo "$mpi: no mica-prof build"; continue; }
    "$cc" -O2 -g -o "$tmp/$mpi" "$tmp/send.c" || continue
    row=()
    for cfg in none collect sites depth4 stop; do
        envs=(); arg=
        case $cfg in
            none) ;;
            collect) envs=(LD_PRELOAD="$lib" MICA_PROF_SITES=0) ;;
            sites) envs=(LD_PRELOAD="$lib" MICA_PROF_SITES=1) ;;
            depth4) envs=(LD_PRELOAD="$lib" MICA_PROF_DEPTH=4) ;;
            stop) envs=(LD_PRELOAD="$lib" MICA_PROF_SITES=0); arg=stop ;;
        esac
        out=$tmp/$mpi.$cfg.cg
        rm -f "$out"
        env "${envs[@]}" OUT="$out" MICA_PROF_DIR="$tmp/reports" $run "$tmp/rank0.sh" "$tmp/$mpi" "$n" "$bytes" $arg \
            >"$tmp/$mpi.$cfg.log" 2>&1
        read -r w l < <(cost "$out")
        [ -n "${PROF_OVERHEAD_DEBUG:-}" ] && echo "$mpi $cfg: wrapper $w library $l" >&2
        if [ "$cfg" = none ]; then
            row+=("$((l / n))")
        elif [ "${w:-0}" -gt 0 ]; then
            row+=("$(( (w - l) / n ))")
        else
            row+=("?")
        fi
    done
    printf '%-8s %14s %12s %12s %12s %12s\n' "$mpi" "${row[@]}"
done
echo "(instructions per MPI_Send of $bytes bytes, $n calls, rank 0 under callgrind)"
