#!/bin/bash
# The MPI-2 C++ profiling interface (docs/PROFILING.md, "C++"): MPI::X forwards to PMPI::X, which
# calls the C PMPI_X.
#  - libmpi_cxx.a holds each MPI:: function in an object file of its own, apart from the PMPI::
#    layer and the predefined objects; the forwarders call only PMPI::, the PMPI:: layer only the
#    C PMPI_ functions (never MPI_);
#  - a C++ tool that defines MPI::Comm::Send, linked before libmpi_cxx.a (or preloaded over
#    libmpi_cxx.so), sees the program's one C++ Send once and the program still works;
#  - a C tool that defines MPI_Send sees only the C API's Send, not the C++ one: no call is
#    counted twice when both tools are in;
# also from the build without weak symbols (-lpmpi -lmpi).
. "$(dirname "$0")/../profiling/lib.sh"
P=$MICA_PREFIX
[ -x "$P/bin/mpicxx" ] || { echo "SKIP: no mpicxx (built without a C++ compiler)"; exit 77; }
A=$P/lib/libmpi_cxx.a
need_file "$A" "$P/lib/libmpi_cxx.so"
cd "$MICA_TMP" || fail "no MICA_TMP"

# The archive's layout.
nm -C "$A" > nm.txt || fail "nm $A"
out=$(awk '
    /:$/ && NF == 1 { obj = substr($0, 1, length($0) - 1); next }
    $2 == "T" && $3 ~ /^MPI::/ { defs[obj]++; if (obj !~ /^MPI_/) print "  " obj " defines " $3 }
    $2 == "T" && $3 ~ /^PMPI::/ && obj ~ /^MPI_/ { print "  forwarder " obj " defines " $3 }
    $1 == "U" && $2 ~ /^MPI_/ { print "  " obj " calls the C " $2 " (only PMPI_ is allowed)" }
    $1 == "U" && $2 ~ /^PMPI_/ && obj ~ /^MPI_/ { print "  forwarder " obj " calls the C " $2 }
    END { for (o in defs) if (o ~ /^MPI_/ && defs[o] != 1) print "  " o " defines " defs[o] " MPI:: functions"
          for (o in defs) n++; print n " forwarders" > "/dev/stderr" }
    ' nm.txt 2> count.txt)
[ -z "$out" ] || { printf '%s\n' "$out"; fail "libmpi_cxx.a: layering violations"; }
nfwd=$(cat count.txt)
[ "${nfwd%% *}" -gt 100 ] || fail "libmpi_cxx.a: only $nfwd"
grep -q ' U PMPI_Send$' <(nm "$A") || fail "libmpi_cxx.a does not call PMPI_Send"
echo "ok: libmpi_cxx.a: $nfwd, one MPI:: function each, calling PMPI:: only; C calls are PMPI_ only"

expect() {  # expect LABEL OUTPUT LINE...: the output is exactly these lines (any order)
    local label=$1 got=$2
    shift 2
    local want
    want=$(printf '%s\n' "$@" | sort)
    [ "$(printf '%s\n' "$got" | sed '/^$/d' | sort)" = "$want" ] || {
        printf 'got:\n%s\n' "$got"; fail "$label: expected: $*"; }
    echo "ok: $label: ${*:-no output}"
}

run "$P/bin/mpicxx" -Wall -Werror -c -o app.o "$HERE/../cxx/profapp.cc"
run "$P/bin/mpicxx" -Wall -Werror -c -fPIC -o cxxtool.o "$HERE/../cxx/cxxtool.cc"
run "$P/bin/mpicc" -Wall -Werror -c -fPIC -o ctool.o "$HERE/../cxx/ctool.c"
ar rcs libcxxtool.a cxxtool.o
ar rcs libctool.a ctool.o
run g++ -shared -o libcxxtool.so cxxtool.o -L"$P/lib" -lmpi_cxx -lmpi
run gcc -shared -o libctool.so ctool.o -L"$P/lib" -lmpi

run "$P/bin/mpicxx" -o app app.o
out=$(run "$P/bin/mpiexec" -n 2 ./app)
expect "no tool" "$out"
out=$(run env LD_PRELOAD="$MICA_TMP/libcxxtool.so" "$P/bin/mpiexec" -n 2 ./app)
expect "C++ tool, preloaded" "$out" "cxxtool: MPI::Comm::Send 1"
out=$(run env LD_PRELOAD="$MICA_TMP/libctool.so" "$P/bin/mpiexec" -n 2 ./app)
expect "C tool, preloaded" "$out" "ctool: MPI_Send 1"
out=$(run env LD_PRELOAD="$MICA_TMP/libcxxtool.so $MICA_TMP/libctool.so" "$P/bin/mpiexec" -n 2 ./app)
expect "both tools, preloaded" "$out" "cxxtool: MPI::Comm::Send 1" "ctool: MPI_Send 1"

# Static: a tool's archive linked before the library it wraps.
run g++ -o app_s app.o libcxxtool.a "$P/lib/libmpi_cxx.a" libctool.a "$P/lib/libmpi.a" -pthread
out=$(run "$P/bin/mpiexec" -n 2 ./app_s)
expect "both tools, static" "$out" "cxxtool: MPI::Comm::Send 1" "ctool: MPI_Send 1"
run g++ -o app_c app.o libcxxtool.a "$P/lib/libmpi_cxx.a" "$P/lib/libmpi.a" -pthread
out=$(run "$P/bin/mpiexec" -n 2 ./app_c)
expect "C++ tool, static" "$out" "cxxtool: MPI::Comm::Send 1"
# The library's own MPI::Comm::Send object was not linked: the tool's replaced it.
nm -C app_c | grep -q ' PMPI::Comm::Send' || fail "static: PMPI::Comm::Send not linked"

N=$MICA_NOWEAK_PREFIX
if [ -f "$N/lib/libmpi_cxx.a" ]; then
    run g++ -o app_nw app.o libcxxtool.a "$N/lib/libmpi_cxx.a" libctool.a "$N/lib/libpmpi.a" \
        "$N/lib/libmpi.a" -pthread
    out=$(run "$P/bin/mpiexec" -n 2 ./app_nw)
    expect "both tools, no weak symbols" "$out" "cxxtool: MPI::Comm::Send 1" "ctool: MPI_Send 1"
fi
