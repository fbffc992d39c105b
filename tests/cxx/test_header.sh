#!/bin/bash
# mpi.h and C++: a C++ program gets the C++ binding from mpi.h (as with MPICH and Open MPI)
# unless it defines MICA_SKIP_MPICXX; a C++ program of the C API alone links with libmpi only,
# either way; the header compiles warning-free under -std=c++98 ... c++20 with -pedantic;
# mpicxx -show prints the command.
. "$(dirname "$0")/../profiling/lib.sh"
P=$MICA_PREFIX
[ -x "$P/bin/mpicxx" ] || { echo "SKIP: no mpicxx (built without a C++ compiler)"; exit 77; }
cd "$MICA_TMP" || fail "no MICA_TMP"
W="-Wall -Wextra -Werror -pedantic"

for skip in "" -DMICA_SKIP_MPICXX; do
    run g++ $W $skip -I"$P/include" -o capi "$HERE/../cxx/capi.cc" -L"$P/lib" -Wl,-rpath,"$P/lib" -lmpi
    run "$P/bin/mpiexec" -n 3 ./capi
    echo "ok: a C++ program of the C API, ${skip:-with the C++ classes declared}, links with libmpi only"
done

printf '#include <mpi.h>\nint main() { return MPI::COMM_WORLD.Get_size() > 0 ? 0 : 1; }\n' > uses.cc
g++ -DMICA_SKIP_MPICXX -I"$P/include" -c uses.cc -o uses.o 2>/dev/null &&
    fail "MICA_SKIP_MPICXX: namespace MPI was still declared"
echo "ok: MICA_SKIP_MPICXX leaves the C++ binding out"
for std in c++98 c++11 c++17 c++20; do
    run g++ -std=$std $W -I"$P/include" -c uses.cc -o uses.o
done
echo "ok: mpi.h with the C++ binding compiles with -pedantic, C++98 to C++20"

show=$("$P/bin/mpicxx" -show -o app app.cc)
case "$show" in
    *"-I$P/include"*"-lmpi_cxx"*"-lmpi"*) echo "ok: mpicxx -show: $show" ;;
    *) fail "mpicxx -show printed: $show" ;;
esac
