#!/bin/sh
# Build mica-prof for one MPI library:
#   tools/prof/build.sh MPICC OUTDIR             (in the source tree)
#   PREFIX/share/mica/prof/build.sh MPICC OUTDIR (installed: `make` copies the generator, the
#                                                 tool's sources and the API table there)
# MPICC is that MPI's C compiler wrapper (mpicc.mpich, mpicc.openmpi, install/bin/mpicc; it may
# carry options: "cc -I/opt/mpi/include"). Produces OUTDIR/libmicaprof.so and OUTDIR/libmicaprof.a.
# The wrappers are generated from the functions that MPI's mpi.h declares. Nothing is done when
# the outputs are newer than every source; concurrent builds of one OUTDIR wait for each other.
set -eu
if [ $# -ne 2 ]; then
    echo "usage: $0 MPICC OUTDIR" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
# the API table and its reader: api/ and gen/ two levels up in the source tree, one installed
if [ -f "$here/../api/functions.tsv" ]; then root=$(cd "$here/.." && pwd); else root=$(cd "$here/../.." && pwd); fi
mpicc=$1
out=$2
mkdir -p "$out"
out=$(cd "$out" && pwd)

build() {
    srcs="$here/*.c $here/*.h $here/gen_wrappers.py \
          $here/build.sh $root/api/functions.tsv $root/gen/api.py"
    if [ -f "$out/libmicaprof.so" ] && [ -f "$out/libmicaprof.a" ]; then
        stale=
        for s in $srcs; do
            [ "$s" -nt "$out/libmicaprof.so" ] && stale=yes
        done
        [ -z "$stale" ] && return 0
    fi
    echo "mica-prof: building for $mpicc in $out" >&2
    g=$out/gen
    rm -rf "$g" "$out/obj"
    mkdir -p "$g" "$out/obj"
    echo '#include <mpi.h>' > "$g/h.c"
    # shellcheck disable=SC2086
    $mpicc -E "$g/h.c" > "$g/mpi.i"
    # shellcheck disable=SC2086
    $mpicc -E -dM "$g/h.c" > "$g/mpi.dM"
    # what the library really exports (some headers declare functions it does not have)
    have=
    printf '#include <mpi.h>\nint main(int c, char **v) { return MPI_Init(&c, &v); }\n' > "$g/probe.c"
    # shellcheck disable=SC2086
    if $mpicc -o "$g/probe" "$g/probe.c" 2>/dev/null; then
        ldd "$g/probe" | awk '/=> \// {print $3}' | while read -r l; do
            nm -D --defined-only "$l" 2>/dev/null
        done | awk '{print $NF}' | sort -u > "$g/have.txt"
        [ -s "$g/have.txt" ] && have="--have $g/have.txt"
    fi
    # shellcheck disable=SC2086
    python3 "$here/gen_wrappers.py" "$g/mpi.i" "$g/mpi.dM" "$g" --chunks 4 $have >&2
    flags="-O2 -fPIC -fvisibility=hidden -pthread -Wall -Wno-deprecated-declarations -I$here -I$g"
    pids=
    for c in "$here"/*.c "$g"/mp_*.c; do
        o=$out/obj/$(basename "$c" .c).o
        # shellcheck disable=SC2086
        $mpicc $flags -c "$c" -o "$o" &
        pids="$pids $!"
    done
    for p in $pids; do
        wait "$p" || { echo "mica-prof: compile failed" >&2; exit 1; }
    done
    # shellcheck disable=SC2086
    $mpicc -shared -pthread -o "$out/libmicaprof.so.tmp" "$out"/obj/*.o -ldl
    rm -f "$out/libmicaprof.a.tmp"
    ar rcs "$out/libmicaprof.a.tmp" "$out"/obj/*.o
    mv -f "$out/libmicaprof.a.tmp" "$out/libmicaprof.a"
    mv -f "$out/libmicaprof.so.tmp" "$out/libmicaprof.so"
}

if command -v flock >/dev/null 2>&1; then
    exec 9>"$out/.lock"
    flock 9
fi
build
