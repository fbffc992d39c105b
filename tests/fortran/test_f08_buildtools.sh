#!/bin/bash
# How build systems find mpi_f08: mpifort -show names the directory holding mpi_f08.mod; the
# pkg-config file mpi-fort builds a `use mpi_f08` program with the plain compiler; CMake's
# FindMPI reports the f08 module (MPI_Fortran_HAVE_F08_MODULE) with MPI_SUBARRAYS_SUPPORTED
# true. Skipped when there is no Fortran compiler; the CMake part needs cmake (.ci/run has it).
. "$(dirname "$0")/../profiling/lib.sh"
P=$MICA_PREFIX
[ -x "$P/bin/mpifort" ] || { echo "SKIP: no mpifort (built without a Fortran compiler)"; exit 77; }
cd "$MICA_TMP" || fail "no MICA_TMP"
EX=$MICA_ROOT/examples/hello_f08.f90

inc=$("$P/bin/mpifort" -show -c x.f90 | tr ' ' '\n' | sed -n 's/^-I//p' | head -1)
[ -f "$inc/mpi_f08.mod" ] || fail "mpifort -show: no mpi_f08.mod in its include directory '$inc'"
echo "ok: mpifort -show: -I$inc has mpi_f08.mod"

command -v pkg-config >/dev/null || fail "no pkg-config"
flags=$(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --cflags --libs mpi-fort) || fail "pkg-config mpi-fort"
run gfortran -o hello_pc "$EX" $flags
out=$(run "$P/bin/mpiexec" -n 2 ./hello_pc)
printf '%s\n' "$out" | grep -q '^row 3: .*59\.$' || { printf '%s\n' "$out"; fail "pkg-config build"; }
echo "ok: pkg-config mpi-fort: $flags"

command -v cmake >/dev/null || { echo "SKIP: no cmake"; exit 77; }
mkdir -p cm && cat > cm/CMakeLists.txt <<'CM'
cmake_minimum_required(VERSION 3.10)
project(f08 Fortran)
set(MPI_DETERMINE_Fortran_CAPABILITIES ON)
find_package(MPI REQUIRED COMPONENTS Fortran)
message(STATUS "F08=${MPI_Fortran_HAVE_F08_MODULE} SUBARRAYS=${MPI_Fortran_F08_MODULE_SUBARRAYS}")
add_executable(hello_cmake hello_f08.f90)
target_link_libraries(hello_cmake MPI::MPI_Fortran)
CM
cp "$EX" cm/
out=$(cmake -S cm -B cm/b -DCMAKE_Fortran_COMPILER=gfortran -DMPI_Fortran_COMPILER="$P/bin/mpifort" \
    -DMPIEXEC_EXECUTABLE="$P/bin/mpiexec" 2>&1) \
    || { printf '%s\n' "$out"; fail "cmake configure"; }
printf '%s\n' "$out" | grep -q 'F08=TRUE SUBARRAYS=TRUE' || { printf '%s\n' "$out"; fail "FindMPI: no f08 module"; }
run cmake --build cm/b >/dev/null
out=$(run "$P/bin/mpiexec" -n 2 cm/b/hello_cmake)
printf '%s\n' "$out" | grep -q '^row 3: ' || fail "the CMake-built program"
echo "ok: CMake FindMPI: MPI_Fortran_HAVE_F08_MODULE TRUE, subarrays TRUE; built and ran"
